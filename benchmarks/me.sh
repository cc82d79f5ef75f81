#!/usr/bin/env bash
# Load-tests GET /api/v1/me through the whole pipeline (key lookup, per-user and
# per-key rate limits in Postgres, request logging and metrics) and prints
# requests/s and latency percentiles. Rate limits are raised by configuration so
# that the pipeline's cost is measured, not its refusals. `make bench` runs it
# after starting and migrating the local engines.
#   DURATION=20s CONCURRENCY=16 benchmarks/me.sh
set -euo pipefail
cd "$(dirname "$0")/.."
port=${BENCH_PORT:-18080}
bin=.local/bin/sightline
go build -o "$bin" ./cmd/sightline
go build -o .local/bin/load ./benchmarks/load

email="bench-$(date +%s%N)@sightline.local"
"$bin" admin user create --email "$email" >/dev/null
org=$("$bin" admin org create --name "Bench Org" --owner-email "$email" | sed -E 's/.*"id":"([^"]+)".*/\1/')
key=$("$bin" admin key create --email "$email" --capabilities read --orgs all | sed -E 's/.*"key":"([^"]+)".*/\1/')

SIGHTLINE_LISTEN=127.0.0.1:$port SIGHTLINE_LOG_LEVEL=warn \
  SIGHTLINE_RATE_LIMIT_USER=1000000000 SIGHTLINE_RATE_LIMIT_KEY=1000000000 \
  "$bin" serve 2>.local/log/bench-serve.log &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
  sleep 0.1
done

echo "GET /api/v1/me, organization $org, $(nproc) cores"
.local/bin/load -url "http://127.0.0.1:$port/api/v1/me" -key "$key" \
  -duration "${DURATION:-20s}" -concurrency "${CONCURRENCY:-16}"
