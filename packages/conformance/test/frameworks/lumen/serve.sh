#!/bin/sh
# Serves the Lumen app (index.php) on PHP's built-in server on 127.0.0.1, a port of the system's
# choosing; prints "listening on PORT" and stops the server when its stdin closes, so that it
# never outlives the test that started it. Needs API_KEY and PETS_FILE (a file to keep pets in).
set -eu
log=$(mktemp)
trap 'rm -f "$log"' EXIT
php -d opcache.enable_cli=1 -S 127.0.0.1:0 "$(dirname "$0")/index.php" 2>"$log" </dev/null &
server=$!
until grep -q ' started$' "$log"; do
  kill -0 "$server" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.05
done
sed -n 's/.*(http:\/\/127\.0\.0\.1:\([0-9]*\)) started$/listening on \1/p' "$log"
cat >/dev/null
kill "$server"
