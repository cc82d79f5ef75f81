# Sourced by the benchmarks that drive a running Sightline (me.sh,
# tracked.sh), with bin and port set.
#
# start_server COMMAND CAPABILITIES LOG creates a user, an organization
# (its id in org) and a key with CAPABILITIES for all organizations (in
# key), then starts "$bin COMMAND" on 127.0.0.1:$port with rate limits
# raised by configuration, so that the pipeline's cost is measured, not its
# refusals. Its log goes to LOG; it is stopped when the script exits.
# start_server returns once the server answers /readyz (or after 10 s).
start_server() {
  local command=$1 capabilities=$2 log=$3 email
  email="bench-$(date +%s%N)@sightline.local"
  "$bin" admin user create --email "$email" >/dev/null
  org=$("$bin" admin org create --name "Bench Org" --owner-email "$email" | sed -E 's/.*"id":"([^"]+)".*/\1/')
  key=$("$bin" admin key create --email "$email" --capabilities "$capabilities" --orgs all | sed -E 's/.*"key":"([^"]+)".*/\1/')

  SIGHTLINE_LISTEN=127.0.0.1:$port SIGHTLINE_LOG_LEVEL=warn \
    SIGHTLINE_RATE_LIMIT_USER=1000000000 SIGHTLINE_RATE_LIMIT_KEY=1000000000 \
    "$bin" "$command" 2>"$log" &
  server=$!
  trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
  for _ in $(seq 100); do
    curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    sleep 0.1
  done
}
