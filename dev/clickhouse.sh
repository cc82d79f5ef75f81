#!/usr/bin/env bash
# Project-local ClickHouse for development, tests and `make run`: the embedded engine
# (chDB, libchdb.so from the npm package @chdb/lib-linux-x64-gnu) served over ClickHouse's
# HTTP interface by cmd/sightline-chdb on 127.0.0.1:${SIGHTLINE_CH_PORT:-18123}.
# Data persists in .local/clickhouse. Every query must carry the user SIGHTLINE_CH_USER
# (default "default") and the password SIGHTLINE_CH_PASSWORD (default empty); `url` prints
# a CLICKHOUSE_URL that carries them. The password travels in the environment, never on a
# command line other users of the machine can read.
#   dev/clickhouse.sh fetch | start | stop | url
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
port=${SIGHTLINE_CH_PORT:-18123}
user=${SIGHTLINE_CH_USER:-default}
password=${SIGHTLINE_CH_PASSWORD:-}
chdb_version=26.5.3
lib="$root/.local/chdb/libchdb.so"
bin="$root/.local/bin/sightline-chdb"
data="$root/.local/clickhouse"
log="$root/.local/log/clickhouse.log"
pidfile="$root/.local/run/clickhouse.pid"

fetch() (
  [ -s "$lib" ] && exit 0
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # npm pack downloads the tarball only: no dependency resolution, no install scripts.
  (cd "$tmp" && npm pack --silent --ignore-scripts "@chdb/lib-linux-x64-gnu@$chdb_version" >/dev/null)
  tar -xzf "$tmp"/chdb-lib-linux-x64-gnu-"$chdb_version".tgz -C "$tmp" package/libchdb.so
  mkdir -p "$(dirname "$lib")"
  # Rename into place so an interrupted fetch never leaves a truncated library behind.
  mv "$tmp/package/libchdb.so" "$lib.partial"
  mv "$lib.partial" "$lib"
)

# running: the pid file names a live sightline-chdb (not a process that reused the pid).
running() {
  [ -s "$pidfile" ] || return 1
  local pid
  pid=$(cat "$pidfile")
  kill -0 "$pid" 2>/dev/null && [[ "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" == *sightline-chdb* ]]
}

ping() {
  [ "$(curl -fsS --max-time 2 "http://127.0.0.1:$port/ping" 2>/dev/null)" = "Ok." ]
}

start() {
  fetch
  if running; then return; fi
  if ping; then
    echo "127.0.0.1:$port already answers /ping but is not ours (.local/run/clickhouse.pid); set SIGHTLINE_CH_PORT" >&2
    exit 1
  fi
  mkdir -p "$(dirname "$bin")" "$(dirname "$log")" "$(dirname "$pidfile")" "$data"
  CGO_ENABLED=0 go build -o "$bin" ./cmd/sightline-chdb
  SIGHTLINE_LIBCHDB="$lib" SIGHTLINE_CH_USER="$user" SIGHTLINE_CH_PASSWORD="$password" \
    nohup "$bin" -addr "127.0.0.1:$port" -path "$data" >>"$log" 2>&1 </dev/null &
  echo $! >"$pidfile"
  for _ in $(seq 1 300); do
    if ! running; then
      rm -f "$pidfile"
      echo "sightline-chdb exited during startup; last lines of $log:" >&2
      tail -n 20 "$log" >&2
      exit 1
    fi
    if ping; then
      echo "clickhouse (chDB) listening on http://127.0.0.1:$port"
      return
    fi
    sleep 0.1
  done
  echo "sightline-chdb did not answer on 127.0.0.1:$port within 30s; see $log" >&2
  exit 1
}

stop() {
  running || { rm -f "$pidfile"; return 0; }
  local pid
  pid=$(cat "$pidfile")
  kill -TERM "$pid"
  # In-flight queries finish before exit; give large ones time.
  for _ in $(seq 1 600); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$pidfile"; return 0; }
    sleep 0.1
  done
  echo "sightline-chdb (pid $pid) did not exit within 60s of SIGTERM" >&2
  exit 1
}

# urlencode percent-encodes everything but unreserved characters.
urlencode() {
  local s=$1 out="" c i
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in
      [a-zA-Z0-9._~-]) out+=$c ;;
      *) printf -v c '%%%02X' "'$c"; out+=$c ;;
    esac
  done
  printf '%s' "$out"
}

# url names no user while the credentials are the defaults, which clickhouse-go sends
# on its own (user "default", no password).
url() {
  if [ "$user" = default ] && [ -z "$password" ]; then
    echo "http://127.0.0.1:$port/default"
  else
    echo "http://$(urlencode "$user"):$(urlencode "$password")@127.0.0.1:$port/default"
  fi
}

case "${1:-}" in
  fetch) fetch ;;
  start) start ;;
  stop) stop ;;
  url) url ;;
  *) echo "usage: $0 fetch|start|stop|url" >&2; exit 2 ;;
esac
