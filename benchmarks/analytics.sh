#!/usr/bin/env bash
# Benchmarks the analytics of spec 4.3 on dataset S (10 projects x 1,000 tracked
# queries checked daily for 480 days, generated in ClickHouse): every 4.3 operation
# through `sightline serve` (auth on, rate limits raised, 8 requests in flight), then
# the headline figures from the rollups, from the raw tables and from Postgres side
# by side. Works on its own databases (sightline_bench_analytics on the servers
# DATABASE_URL and CLICKHOUSE_URL name, recreated on every run and dropped at the
# end). Flags go to benchmarks/analytics (go doc ./benchmarks/analytics), e.g.
#   benchmarks/analytics.sh -keep              keep the databases afterwards
#   benchmarks/analytics.sh -reuse -only load  drive the API again on kept databases
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .local/bin
go build -o .local/bin/sightline ./cmd/sightline
go build -o .local/bin/analytics-bench ./benchmarks/analytics
exec .local/bin/analytics-bench -sightline .local/bin/sightline "$@"
