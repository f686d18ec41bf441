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

# The API prints its URL on its "listening" line; wait for that line, or for the process to end.
url=""
for _ in $(seq 1 1200); do
  url="$(grep -o '"url":"[^"]*"' "$work/api.log" | head -1 | cut -d'"' -f4 || true)"
  [ -n "$url" ] && break
  kill -0 "$api" 2>/dev/null || { echo "schemathesis: the API did not start:" >&2; cat "$work/api.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "schemathesis: the API printed no URL in 120 s" >&2; exit 1; }
echo "schemathesis: API at $url"

# The kit's proxy in front of it: its traffic judge holds every exchange to the spec's rules, and
# its report comes when it is stopped. It prints the address to send to on its first line.
node "$kit" proxy --target "$url" --reporter "json:$work/traffic.json" \
  >"$work/judged.txt" 2>"$work/proxy.log" &
proxy=$!
through=""
for _ in $(seq 1 1200); do
  through="$(grep -o 'point the client at [^ ]*' "$work/proxy.log" | cut -d' ' -f5 || true)"
  [ -n "$through" ] && break
  kill -0 "$proxy" 2>/dev/null || { echo "schemathesis: the proxy did not start:" >&2; cat "$work/proxy.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$through" ] || { echo "schemathesis: the proxy printed no address in 120 s" >&2; exit 1; }
echo "schemathesis: through the kit's proxy at $through"

# From the temporary directory: Schemathesis keeps a cache where it runs.
cd "$work"
status=0
"$schemathesis" --no-color --config-file "$here/schemathesis.toml" run \
  "$url/openapi.json" --url "$through" -H "Authorization: Bearer $key" "$@" || status=$?

# SIGINT stops the proxy, which writes its report and exits 1 on a violation.
kill -INT "$proxy"
judged=0
wait "$proxy" || judged=$?
proxy=""
if [ "$judged" -ne 0 ]; then
  cat "$work/proxy.log" "$work/judged.txt" >&2
  echo "schemathesis: the kit's traffic judge found violations in this traffic (exit $judged)" >&2
  exit 1
fi
node -e 'const { verdict, summary, traffic } = require(process.argv[1]);
  console.log(`schemathesis: the traffic judge: ${verdict}, ${traffic.judged} exchanges judged, ${summary.passed} checks passed, ${summary.skipped} not exercised`);' \
  "$work/traffic.json"
exit "$status"
