#!/usr/bin/env bash
# Project-local Postgres 15 for development, tests and `make run`.
# The cluster lives in .local/postgres, listens on 127.0.0.1:${SIGHTLINE_PG_PORT:-54329}
# and is owned by the `postgres` OS user (initdb refuses to run as root).
#   dev/postgres.sh start | stop | url
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
port=${SIGHTLINE_PG_PORT:-54329}
data="$root/.local/postgres"
log="$root/.local/log/postgres.log"
sock="$root/.local/run"

bindir() {
  for d in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && { echo "$d"; return; }
  done
  return 1
}

install() {
  bindir >/dev/null 2>&1 && return
  echo "installing PostgreSQL with apt-get" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
}

as_pg() { runuser -u postgres -- "$@"; }

start() {
  install
  local bin; bin=$(bindir)
  mkdir -p "$root/.local/log" "$sock"
  chown postgres "$root/.local/log" "$sock"
  # postgres must be able to reach the data directory through every parent folder.
  chmod o+x "$root" "$root/.local" 2>/dev/null || true
  if [ ! -s "$data/PG_VERSION" ]; then
    mkdir -p "$data"; chown postgres "$data"; chmod 700 "$data"
    as_pg "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    cat >>"$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$sock'
max_connections = 200
shared_buffers = 256MB
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
  fi
  if as_pg "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then return; fi
  as_pg "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60 start >/dev/null
  as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname='sightline'" | grep -q 1 ||
    as_pg "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres sightline
  echo "postgres listening on 127.0.0.1:$port"
}

stop() {
  local bin; bin=$(bindir) || return 0
  [ -s "$data/PG_VERSION" ] || return 0
  as_pg "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) echo "postgres://postgres@127.0.0.1:$port/sightline?sslmode=disable" ;;
  *) echo "usage: $0 start|stop|url" >&2; exit 2 ;;
esac
