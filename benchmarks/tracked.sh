#!/usr/bin/env bash
# Benchmarks the tracked-query write model through the whole pipeline: the
# search listing of a project with 10,000 tracked queries under a mix of
# parameters, and creates of 100 combinations per call (round-robin over
# CREATE_PROJECTS projects, as many customers would). Runs on its own
# Postgres database (recreated on every run, so the figures start from the
# same data) and its own ClickHouse database, so tests and `make run` data
# are left alone. Starts `sightline run` (API and River workers: the listing
# reads a projection the workers refresh) with rate limits raised by
# configuration, and drives benchmarks/writemodel (loopback targets only).
#   DURATION=20s CONCURRENCY=8 CREATE_CONCURRENCY=2 CREATE_PROJECTS=10 QUERIES=10000 benchmarks/tracked.sh
#   ONLY=listing benchmarks/tracked.sh     (or ONLY=create)
set -euo pipefail
cd "$(dirname "$0")/.."
port=${BENCH_PORT:-18081}
db=${BENCH_DATABASE:-sightline_bench_tracked}
bin=.local/bin/sightline
mkdir -p .local/bin .local/log
go build -o "$bin" ./cmd/sightline
go build -o .local/bin/writemodel ./benchmarks/writemodel

server_url=${DATABASE_URL:-$(dev/postgres.sh url)}
ch_url=${CLICKHOUSE_URL:-$(dev/clickhouse.sh url)}
maintenance_url=$(sed -E 's#/[^/?]*(\?|$)#/postgres\1#' <<<"$server_url")
export DATABASE_URL=$(sed -E "s#/[^/?]*(\\?|\$)#/$db\\1#" <<<"$server_url")
export CLICKHOUSE_URL=$(sed -E "s#/[^/?]*(\\?|\$)#/$db\\1#" <<<"$ch_url")
psql -q "$maintenance_url" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
# ClickHouse wants credentials: a URL that names none means the default user, as for clickhouse-go.
ch_auth=()
[[ "$ch_url" == *@* ]] || ch_auth=(-u default:)
curl -fsS "${ch_auth[@]}" --data-binary "CREATE DATABASE IF NOT EXISTS $db" "$(sed -E 's#/[^/?]*(\?|$)#/\1#' <<<"$ch_url")" >/dev/null
"$bin" migrate >/dev/null

. benchmarks/server.sh
start_server run read,write .local/log/bench-tracked-serve.log

echo "tracked queries on database $db, organization $org"
.local/bin/writemodel -url "http://127.0.0.1:$port" -key "$key" -org "$org" \
  -queries "${QUERIES:-10000}" -duration "${DURATION:-20s}" \
  -concurrency "${CONCURRENCY:-8}" -create-concurrency "${CREATE_CONCURRENCY:-2}" \
  -create-projects "${CREATE_PROJECTS:-10}" ${ONLY:+-only "$ONLY"}
