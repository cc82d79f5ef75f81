#!/usr/bin/env bash
# Drains check runs through one worker process's real pipeline (River, the
# check worker, the simulator with an engine latency, the outbox, extraction,
# the writer, ClickHouse) and prints passes/s, runs/s, p50/p99 from
# scheduling to completion, Postgres and ClickHouse time per pass, the
# storage wait's p50/p99 and CPU per 1,000 passes. Runs the Go benchmark in
# benchmarks/checks on databases of its own, dropped afterwards.
#   CHECKS_PASSES   passes to drain (default 100000, over 100 projects)
#   CHECKS_LATENCY  simulated engine latency: 0 (default), 2s, or a range 5s-30s
#   CHECKS_WORKERS  concurrent check runs (default 500); CHECKS_PASS_CONCURRENCY (3)
set -euo pipefail
cd "$(dirname "$0")/.."
echo "checks: ${CHECKS_PASSES:-100000} passes, engine latency ${CHECKS_LATENCY:-0}, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
out=$(go test -run '^$' -bench . -benchtime 1x -timeout 3h ./benchmarks/checks 2>&1) || {
  echo "$out" >&2
  exit 1
}
grep -E 'seeded|scheduled|drained|p50|per pass|CPU per' <<<"$out" | sed -E 's/^ *checks_test\.go:[0-9]+: /  /'
