#!/bin/sh
# Serves a PHP app (its front controller, the one argument: lumen/index.php, symfony/index.php) on
# PHP's built-in server on 127.0.0.1, a port of the system's choosing; prints "listening on PORT".
# It stops the server, and itself, when its stdin closes or when it is sent SIGTERM, SIGINT or
# SIGHUP, so that the server never outlives the test that started it. Needs API_KEY and PETS_FILE
# (a file to keep pets in).
set -eu
log=$(mktemp)
server=
reader=
stop() {
  kill $server $reader 2>/dev/null || true
  rm -f "$log"
}
trap stop EXIT
trap 'exit 143' TERM INT HUP
php -d opcache.enable_cli=1 -S 127.0.0.1:0 "$1" 2>"$log" </dev/null &
server=$!
until grep -q ' started$' "$log"; do
  kill -0 "$server" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.05
done
sed -n 's/.*(http:\/\/127\.0\.0\.1:\([0-9]*\)) started$/listening on \1/p' "$log"
# A job in the background reads /dev/null unless told otherwise: it reads this script's stdin.
exec 3<&0
cat <&3 >/dev/null &
reader=$!
# wait returns at once when a trapped signal comes; the trap then exits, and stop() runs.
wait "$reader" || true
