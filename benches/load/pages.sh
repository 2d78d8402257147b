#!/usr/bin/env bash
# Published-page serving beside nginx (manual; never run in CI).
#
# Builds release binaries, starts `veranda serve` (demo site, temp data dir) with lib.sh,
# fetches each page in $PAGES from it once and writes the bytes to a temp docroot, and
# starts nginx (Debian package, installed when missing) from its own config in the temp dir
# (`daemon off`, 2 worker processes like veranda's 2 workers, access log off, on another
# loopback port) serving those files. Then wrk runs the same request (page_get.lua: GET
# with a browser's Accept) against both, page by page, in the same run: $THREADS threads,
# $CONNECTIONS connections, $DURATION each, $RUNS times (default 5) with the two servers
# interleaved, measuring each server's CPU time per request from /proc (lib.sh's pair_run).
# PIN=1 pins the servers and wrk to separate cores. Before the runs each server serves every
# page until its memory stops growing (lib.sh's warm_up; WARM_MAX_SECS=0 skips it). Loopback
# only. Stops everything it started.
#
#   benches/load/pages.sh                        # from the workspace root
#   PIN=1 benches/load/pages.sh                  # servers and wrk on separate cores
#   DURATION=2s RUNS=2 benches/load/pages.sh     # a smoke run
#   SKIP_BUILD=1 benches/load/pages.sh           # release binaries already built
#   ENCODING=gzip SKIP_BUILD=1 benches/load/pages.sh   # both asked for gzip (nginx: gzip_static)
#   SENDFILE=off SKIP_BUILD=1 benches/load/pages.sh    # nginx copies each page as veranda does
#
# Output: one PAIR line per run and server, then a Markdown table with min / median / max of
# each server and of the ratio, per page and measure, and the load average at the start and
# end (also in $BENCH_OUT when set).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
DURATION=${DURATION:-10s}
THREADS=2
CONNECTIONS=${CONNECTIONS:-64}
PAGES=${PAGES:-home=/,about=/about,menu=/menu}
BUDGET_SECS=${BUDGET_SECS:-600}
# ENCODING=gzip: wrk asks for gzip; veranda answers from its page cache's gzip coding and
# nginx serves a gzip -9 copy of each page with gzip_static, as its documentation has it.
ENCODING=${ENCODING:-}
case "$ENCODING" in ''|gzip) ;; *) echo "ENCODING is gzip or unset" >&2; exit 2 ;; esac
export BENCH_ENCODING=$ENCODING
GZIP_STATIC=off
[ "$ENCODING" = gzip ] && GZIP_STATIC=on
# SENDFILE=off: nginx reads each page into its own buffer and writes it, a copy in user space
# and one into the socket, as veranda's HTTP/1 writer (actix-http) does with every body; on
# (the default, as nginx's documentation recommends) hands the file's pages to the socket.
SENDFILE=${SENDFILE:-on}
case "$SENDFILE" in on|off) ;; *) echo "SENDFILE is on or off" >&2; exit 2 ;; esac

command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is missing" >&2; exit 2; }
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  echo "installing nginx (Debian package)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y nginx >&2 || { echo "nginx is missing (apt-get install -y nginx)" >&2; exit 2; }
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# shellcheck source=benches/load/lib.sh
source "$BENCH_DIR/lib.sh"
bench_build
bench_begin "$BUDGET_SECS"

cat >"$WORK/veranda.toml" <<CONF
# Written by benches/load/pages.sh: the defaults of config/veranda.toml except a short
# shutdown wait so the run stops promptly.
shutdown_timeout_secs = 2
CONF
start_servers "$WORK/veranda.toml"

# The docroot: each page's bytes as veranda serves them, at PATH/index.html. nginx's
# workers run as an unprivileged user: they may pass through $WORK and read the docroot.
DOCROOT="$WORK/docroot"
mkdir -p "$DOCROOT" "$WORK/nginx/tmp"
chmod o+x "$WORK"
for page in ${PAGES//,/ }; do
  name=${page%%=*} path=${page#*=}
  mkdir -p "$DOCROOT${path%/}"
  code=$(curl -s -o "$DOCROOT${path%/}/index.html" -w '%{http_code}' -H 'Accept: text/html' "http://127.0.0.1:$PORT$path")
  [ "$code" = 200 ] || { echo "GET $path answered $code" >&2; exit 1; }
  echo "$name $path $(wc -c <"$DOCROOT${path%/}/index.html") bytes" >&2
  if [ "$ENCODING" = gzip ]; then
    gzip -9 -k "$DOCROOT${path%/}/index.html"
    echo "$name $path gzip: $(wc -c <"$DOCROOT${path%/}/index.html.gz") bytes from nginx, $(curl -s -H 'Accept-Encoding: gzip' "http://127.0.0.1:$PORT$path" | wc -c) from veranda" >&2
  fi
done
chmod -R a+rX "$DOCROOT"

NGINX_PORT=$(free_port)
cat >"$WORK/nginx/nginx.conf" <<CONF
# Written by benches/load/pages.sh: static files from the temp docroot on loopback.
daemon off;
master_process on;
worker_processes 2;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  sendfile $SENDFILE;
  tcp_nopush on;
  keepalive_requests 1000000;
  # As nginx's documentation recommends for static files: descriptors and sizes kept open,
  # and (ENCODING=gzip) precompressed copies served as they are.
  open_file_cache max=1000 inactive=20s;
  open_file_cache_valid 30s;
  open_file_cache_min_uses 1;
  gzip_static $GZIP_STATIC;
  client_body_temp_path $WORK/nginx/tmp/body;
  proxy_temp_path $WORK/nginx/tmp/proxy;
  fastcgi_temp_path $WORK/nginx/tmp/fastcgi;
  uwsgi_temp_path $WORK/nginx/tmp/uwsgi;
  scgi_temp_path $WORK/nginx/tmp/scgi;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $DOCROOT;
    location / { try_files \$uri/index.html \$uri =404; }
  }
}
CONF
"${SERVER_PIN[@]}" "$NGINX" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" >"$WORK/nginx.log" 2>&1 &
NGINX_PID=$!
PIDS+=("$NGINX_PID")
first=${PAGES%%,*}
first=${first#*=}
wait_for "http://127.0.0.1:$NGINX_PORT$first" || { echo "nginx did not start:" >&2; cat "$WORK/nginx.log" "$WORK/nginx/error.log" >&2; exit 1; }

# Each page must answer 200 with the same size from both (a fresh fetch from each).
for page in ${PAGES//,/ }; do
  path=${page#*=}
  v=$(curl -s -o /dev/null -w '%{http_code} %{size_download}' -H 'Accept: text/html' "http://127.0.0.1:$PORT$path")
  n=$(curl -s -o /dev/null -w '%{http_code} %{size_download}' -H 'Accept: text/html' "http://127.0.0.1:$NGINX_PORT$path")
  [ "$v" = "$n" ] || { echo "$path: veranda answers '$v', nginx '$n'" >&2; exit 1; }
  if [ "$ENCODING" = gzip ]; then
    for port in "$PORT" "$NGINX_PORT"; do
      curl -s -D - -o /dev/null -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port$path" | grep -qi '^content-encoding: gzip' \
        || { echo "$path on port $port: not answered with gzip" >&2; exit 1; }
    done
  fi
done
echo "[${SECONDS}s] servers ready; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# Each server first serves every page, 2 s each, until its memory stops growing (lib.sh's
# warm_up, as ingest_cpu.sh and paced.sh do), so that the page measured first does not meet
# a fresh server. nginx's master process does not grow: it gets one step.
warm_pages() {
  local page
  for page in ${PAGES//,/ }; do
    BENCH_PATH=${page#*=} warm_wrk "$1" page_get.lua 2
  done
}
warm_up veranda "$VERANDA_PID" warm_pages "$PORT"
warm_up nginx "$NGINX_PID" warm_pages "$NGINX_PORT"

for page in ${PAGES//,/ }; do
  export BENCH_PATH=${page#*=}
  pair_run "$BENCH_PATH" page_get.lua "$CONNECTIONS" "$DURATION" veranda "$PORT" "$VERANDA_PID" nginx "$NGINX_PORT" "$NGINX_PID"
done
echo "[${SECONDS}s] runs done; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo
pair_table veranda nginx page | tee "${BENCH_OUT:-/dev/null}"
