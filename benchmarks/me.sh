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

. benchmarks/server.sh
start_server serve read .local/log/bench-serve.log

echo "GET /api/v1/me, organization $org, $(nproc) cores"
.local/bin/load -url "http://127.0.0.1:$port/api/v1/me" -key "$key" \
  -duration "${DURATION:-20s}" -concurrency "${CONCURRENCY:-16}"
