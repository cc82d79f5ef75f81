#!/usr/bin/env bash
# Times one scheduling pass of the check scheduler (jobs.ScheduleChecks) over
# 100,000, 300,000 and 1,000,000 due tracked queries (SCHEDULER_SIZES):
# organizations with budget, one project of 1,000 never-checked daily
# queries each. The pass gives every query its run, its budget reservation
# and its River job. Runs the Go benchmark in benchmarks/scheduler on a test
# database of its own per size (cloned from the migrated template and
# dropped afterwards) on the Postgres server DATABASE_URL names; `make bench`
# starts the local one.
#   benchmarks/scheduler.sh     SCHEDULER_SIZES=100000 COUNT=3 benchmarks/scheduler.sh
set -euo pipefail
cd "$(dirname "$0")/.."
echo "check scheduler: one pass over ${SCHEDULER_SIZES:-100000,300000,1000000} due queries, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
out=$(go test -run '^$' -bench . -benchtime 1x -count "${COUNT:-1}" -timeout 60m ./benchmarks/scheduler 2>&1) || {
  echo "$out" >&2
  exit 1
}
# The benchmark logs the seeding and each pass; keep those and the summary.
grep -E 'seeded|scheduled|queries/s' <<<"$out" | sed -E 's/^ *scheduler_test\.go:[0-9]+: /  /'
