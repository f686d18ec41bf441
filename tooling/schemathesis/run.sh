#!/usr/bin/env bash
# Runs Schemathesis (pinned in requirements.txt, installed into a venv in the cache from PyPI on
# first use) against the built API, started here on 127.0.0.1 with the in-memory store, a fresh
# key and no rate limit, through the conformance kit's proxy. Fails on any failure Schemathesis
# reports, and on any violation the kit's traffic judge finds in that traffic. Needs python3 with
# venv, and `pnpm build` done (`pnpm test` builds).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

schemathesis="$(bash "$here/install.sh")"

main="$root/apps/api/dist/main.js"
kit="$root/packages/conformance/bin/animal-store-conformance.js"
for built in "$main" "$root/packages/conformance/dist/cli.js"; do
  [ -f "$built" ] || { echo "schemathesis: $built is missing: run pnpm build first" >&2; exit 1; }
done

work="$(mktemp -d)"
key="st_$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
API_KEYS="$key" RATE_LIMIT_REQUESTS=0 PORT=0 HOST=127.0.0.1 LOG_LEVEL=info \
  node "$main" >"$work/api.log" 2>&1 &
api=$!
proxy=""
trap 'kill $proxy "$api" 2>/dev/null || true; wait $proxy "$api" 2>/dev/null || true; rm -rf "$work"' EXIT

# Prints what COMMAND (a pipeline reading LOG) finds once PID has written it to LOG, waiting up to
# 120 s; fails, with LOG, when PID ends first. Usage: first_line WHAT PID LOG COMMAND
first_line() {
  local what=$1 pid=$2 log=$3 command=$4 found=""
  for _ in $(seq 1 1200); do
    found="$(bash -c "$command" <"$log" || true)"
    [ -n "$found" ] && { echo "$found"; return; }
    kill -0 "$pid" 2>/dev/null || { echo "schemathesis: the $what did not start:" >&2; cat "$log" >&2; return 1; }
    sleep 0.1
  done
  echo "schemathesis: the $what printed no address in 120 s" >&2
  return 1
}

# The API prints its URL on its "listening" line.
url="$(first_line API "$api" "$work/api.log" "grep -o '\"url\":\"[^\"]*\"' | head -1 | cut -d'\"' -f4")"
echo "schemathesis: API at $url"

# The kit's proxy in front of it: its traffic judge holds every exchange to the spec's rules, and
# its report comes when it is stopped. It prints the address to send to on its first line.
node "$kit" proxy --target "$url" --reporter "json:$work/traffic.json" \
  >"$work/judged.txt" 2>"$work/proxy.log" &
proxy=$!
through="$(first_line proxy "$proxy" "$work/proxy.log" "grep -o 'point the client at [^ ]*' | cut -d' ' -f5")"
echo "schemathesis: through the kit's proxy at $through"

# From the temporary directory: Schemathesis keeps a cache where it runs.
cd "$work"
status=0
"$schemathesis" --no-color --config-file "$here/schemathesis.toml" run \
  "$url/openapi.json" --url "$through" -H "Authorization: Bearer $key" "$@" || status=$?

# SIGINT stops the proxy, which writes its report and exits 1 on a violation, 2 when no exchange
# of the spec's operations passed through it.
kill -INT "$proxy"
judged=0
wait "$proxy" || judged=$?
proxy=""
if [ "$judged" -ne 0 ]; then
  cat "$work/proxy.log" "$work/judged.txt" >&2
  case "$judged" in
    1) echo "schemathesis: the kit's traffic judge found violations in this traffic" >&2 ;;
    2) echo "schemathesis: no exchange reached the API through the kit's proxy" >&2 ;;
    *) echo "schemathesis: the kit's proxy failed (exit $judged)" >&2 ;;
  esac
  exit 1
fi
node -e 'const { verdict, summary, traffic } = require(process.argv[1]);
  console.log(`schemathesis: the traffic judge: ${verdict}, ${traffic.judged} exchanges judged, ${summary.passed} checks passed, ${summary.skipped} not exercised`);' \
  "$work/traffic.json"
exit "$status"
