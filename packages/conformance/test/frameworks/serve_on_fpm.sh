#!/bin/sh
# Serves a PHP app (its front controller, the one argument: lumen/index.php) as PHP apps go into
# production: nginx in front of PHP-FPM, nginx configured as Laravel's deployment guide has it
# (every path that is no file goes to the front controller, which reads the request's own URI),
# each with its defaults otherwise. On 127.0.0.1, a free port; prints "listening on PORT". It stops
# both, and itself, when its stdin closes or when it is sent SIGTERM, SIGINT or SIGHUP, so that
# neither outlives the test that started it. Needs API_KEY and PETS_FILE (a file to keep pets in),
# which FPM's pool passes on to PHP (FPM clears the environment), and Debian's nginx and php-fpm.
set -eu
PATH="$PATH:/usr/sbin:/sbin"
front=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fpm=$(ls /usr/sbin/php-fpm* 2>/dev/null | head -1)
[ -n "$fpm" ] || { echo "serve_on_fpm.sh: no php-fpm (Debian: apt-get install php-fpm)" >&2; exit 1; }
# nginx's workers run as nobody when nginx starts as root: they reach FPM's socket in here, so
# it is in /tmp, whatever TMPDIR says (a test run's own temporary folder is open to its user only).
dir=$(mktemp -d /tmp/serve-on-fpm.XXXXXX)
chmod 755 "$dir"
fpm_pid=
nginx_pid=
reader=
stop() {
  kill $reader $nginx_pid $fpm_pid 2>/dev/null || true
  wait $nginx_pid $fpm_pid 2>/dev/null || true
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 143' TERM INT HUP

cat >"$dir/php-fpm.conf" <<CONF
[global]
error_log = $dir/php-fpm.log
daemonize = no
[app]
listen = $dir/php-fpm.sock
listen.mode = 0666
pm = static
pm.max_children = 4
env[API_KEY] = "$API_KEY"
env[PETS_FILE] = "$PETS_FILE"
CONF
# As root, FPM runs its workers as root only when told so (-R).
as_root=
[ "$(id -u)" -ne 0 ] || as_root=-R
"$fpm" --nodaemonize $as_root --fpm-config "$dir/php-fpm.conf" </dev/null >&2 &
fpm_pid=$!

# A free port, found by binding port 0; nginx may lose it to another process before it binds it:
# then it exits at once, and another port is tried.
for _ in 1 2 3 4 5 6 7 8 9 10; do
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  cat >"$dir/nginx.conf" <<CONF
pid $dir/nginx.pid;
error_log stderr;
daemon off;
events {}
http {
  access_log off;
  client_body_temp_path $dir/client_body;
  fastcgi_temp_path $dir/fastcgi;
  proxy_temp_path $dir/proxy;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  server {
    listen 127.0.0.1:$port;
    root $(dirname "$front");
    index $(basename "$front");
    charset utf-8;
    location / {
      try_files \$uri \$uri/ /$(basename "$front")?\$query_string;
    }
    error_page 404 /$(basename "$front");
    location = /$(basename "$front") {
      fastcgi_pass unix:$dir/php-fpm.sock;
      fastcgi_param SCRIPT_FILENAME \$realpath_root\$fastcgi_script_name;
      include /etc/nginx/fastcgi_params;
      fastcgi_hide_header X-Powered-By;
    }
  }
}
CONF
  nginx -p "$dir" -c "$dir/nginx.conf" </dev/null 2>"$dir/nginx.log" &
  nginx_pid=$!
  # Ready once the app answers through nginx (a path no route has: 404); 502 until FPM listens.
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/ready")" = 404 ]; do
    if ! kill -0 "$nginx_pid" 2>/dev/null; then nginx_pid=; break; fi
    kill -0 "$fpm_pid" 2>/dev/null || { cat "$dir/php-fpm.log" >&2; exit 1; }
    sleep 0.05
  done
  [ -z "$nginx_pid" ] || break
  grep -q 'Address already in use' "$dir/nginx.log" || { cat "$dir/nginx.log" >&2; exit 1; }
done
[ -n "$nginx_pid" ] || { cat "$dir/nginx.log" >&2; exit 1; }
echo "listening on $port"
# A job in the background reads /dev/null unless told otherwise: it reads this script's stdin.
exec 3<&0
cat <&3 >/dev/null &
reader=$!
# wait returns at once when a trapped signal comes; the trap then exits, and stop() runs.
wait "$reader" || true
