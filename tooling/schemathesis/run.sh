#!/usr/bin/env bash
# Runs Schemathesis (pinned in requirements.txt, installed into a venv in the cache from PyPI on
# first use) against the built API, started here on 127.0.0.1 with the in-memory store, a fresh
# key and no rate limit. Fails on any failure Schemathesis reports. Needs python3 with venv, and
# `pnpm build` done (`pnpm test` builds).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

schemathesis="$(bash "$here/install.sh")"

main="$root/apps/api/dist/main.js"
[ -f "$main" ] || { echo "schemathesis: $main is missing: run pnpm build first" >&2; exit 1; }

work="$(mktemp -d)"
key="st_$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
API_KEYS="$key" RATE_LIMIT_REQUESTS=0 PORT=0 HOST=127.0.0.1 LOG_LEVEL=info \
  node "$main" >"$work/api.log" 2>&1 &
api=$!
trap 'kill "$api" 2>/dev/null || true; wait "$api" 2>/dev/null || true; rm -rf "$work"' EXIT

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

# From the temporary directory: Schemathesis keeps a cache where it runs.
cd "$work"
"$schemathesis" --no-color --config-file "$here/schemathesis.toml" run \
  "$url/openapi.json" --url "$url" -H "Authorization: Bearer $key" "$@"
