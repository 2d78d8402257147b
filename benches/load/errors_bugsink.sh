#!/usr/bin/env bash
# Error-report ingest beside Bugsink (manual; never run in CI).
#
# Installs Bugsink from PyPI into $ROOT/.venv-bugsink when missing (git-ignored), builds the
# release binaries, starts `veranda serve` (demo site, temp data dir, the per-IP ingest rate
# limit raised as in ingest.sh) with lib.sh, and Bugsink in its `singleserver` configuration
# (bugsink-create-conf: sqlite databases, the ingest store and the `snappea` background
# worker in the temp dir) with plain HTTP on loopback: gunicorn with $BUGSINK_WORKERS sync
# workers, one per core as Bugsink's own gunicorn config does, and `bugsink-runsnappea`,
# which digests what the HTTP workers have stored. One project is created in its database.
#
# Then, in the same run, wrk sends the same JavaScript error to both ($THREADS threads,
# $CONNECTIONS connections, $DURATION each): to veranda as `POST
# /api/events/RecordJavascriptErrors` (javascript_errors.lua, answered 202 once queued), to
# Bugsink as a Sentry envelope (bugsink_envelope.lua, answered 200 once stored for the
# digest). Finally Bugsink's own load generator, `bugsink-manage stress_test`, sends the
# same event ($STRESS_THREADS threads × $STRESS_REQUESTS requests), and the events Bugsink
# has digested are counted. Loopback only. Stops everything it started.
#
#   benches/load/errors_bugsink.sh                  # from the workspace root
#   DURATION=2s benches/load/errors_bugsink.sh      # a smoke run
#   SKIP_BUILD=1 benches/load/errors_bugsink.sh     # release binaries already built
#
# Output: one line per run, Bugsink's stress_test summary, then a Markdown table (also in
# $BENCH_OUT when set).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
DURATION=${DURATION:-10s}
THREADS=2
CONNECTIONS=${CONNECTIONS:-64}
BUGSINK_WORKERS=${BUGSINK_WORKERS:-2}
STRESS_THREADS=${STRESS_THREADS:-4}
STRESS_REQUESTS=${STRESS_REQUESTS:-250}
BUGSINK_VERSION=${BUGSINK_VERSION:-2.6.1}
VENV="$ROOT/.venv-bugsink"
BUDGET_SECS=${BUDGET_SECS:-300}

command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is missing" >&2; exit 2; }
if [ ! -x "$VENV/bin/bugsink-manage" ]; then
  echo "installing bugsink $BUGSINK_VERSION into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q "bugsink==$BUGSINK_VERSION"
fi

# shellcheck source=benches/load/lib.sh
source "$BENCH_DIR/lib.sh"
bench_build
bench_begin "$BUDGET_SECS"

cat >"$WORK/veranda.toml" <<CONF
# Written by benches/load/errors_bugsink.sh: the defaults of config/veranda.toml except the
# per-IP rate limit and byte budget, raised so that wrk (one client IP) measures throughput, not 429s, and
# a short shutdown wait so the run stops promptly.
shutdown_timeout_secs = 2
[telemetry]
rate_per_second = 10000000
rate_burst = 10000000
bytes_per_address_per_minute = 4000000000
byte_burst_per_address = 4000000000
mailbox_capacity = 1024
errors_per_page_load = 20
trace_buffer = 1000
CONF
start_servers "$WORK/veranda.toml"
page_crumb
export BENCH_CRUMB="$CRUMB"

# Bugsink: singleserver configuration in $WORK/bugsink, plain HTTP on a loopback port.
BUGSINK_PORT=$(free_port)
BS="$WORK/bugsink"
mkdir -p "$BS/data"
(cd "$BS" && "$VENV/bin/bugsink-create-conf" --template=singleserver --host=127.0.0.1 --base-dir="$BS/data" \
  -o bugsink_conf.py >/dev/null)
cat >>"$BS/bugsink_conf.py" <<CONF

# Written by benches/load/errors_bugsink.sh: plain HTTP on loopback.
BUGSINK["BASE_URL"] = "http://127.0.0.1:$BUGSINK_PORT"
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
CONF
manage() { (cd "$BS" && "$VENV/bin/bugsink-manage" "$@"); }
manage migrate --noinput >"$BS/migrate.log" 2>&1
manage migrate snappea --database=snappea --noinput >>"$BS/migrate.log" 2>&1
DSN=$(manage shell -c '
from teams.models import Team
from projects.models import Project
project = Project.objects.create(name="bench", team=Team.objects.create(name="bench"))
print("DSN", project.dsn)' 2>/dev/null | sed -n 's/^DSN //p')
[ -n "$DSN" ] || { echo "no Bugsink project was created; see $BS/migrate.log" >&2; exit 1; }
export BENCH_SENTRY_KEY=${DSN#http://}
BENCH_SENTRY_KEY=${BENCH_SENTRY_KEY%%@*}
export BENCH_SENTRY_PROJECT=${DSN##*/}
(cd "$BS" && DJANGO_SETTINGS_MODULE=bugsink_conf PYTHONPATH="$BS" exec "$VENV/bin/gunicorn" \
  --bind "127.0.0.1:$BUGSINK_PORT" --workers "$BUGSINK_WORKERS" --control-socket "$BS/gunicorn.ctl" \
  bugsink.wsgi >"$BS/gunicorn.log" 2>&1) &
PIDS+=($!)
(cd "$BS" && exec "$VENV/bin/bugsink-runsnappea" >"$BS/snappea.log" 2>&1) &
PIDS+=($!)
wait_for "http://127.0.0.1:$BUGSINK_PORT/accounts/login/" ||
  { echo "Bugsink did not start:" >&2; cat "$BS/gunicorn.log" >&2; exit 1; }

digested() {
  manage shell -c 'from events.models import Event; print("EVENTS", Event.objects.count())' 2>/dev/null |
    sed -n 's/^EVENTS //p'
}

# One request each must get its success status.
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Cookie: crumb=$CRUMB" -H "X-CSRF-Token: $CRUMB" \
  -H 'Content-Type: application/json' --data '[{"event":"javascript-error","data":{"message":"check","pageLoadId":"check"}}]' \
  "http://127.0.0.1:$PORT/api/events/RecordJavascriptErrors")
[ "$code" = 202 ] || { echo "RecordJavascriptErrors answered $code, not 202" >&2; exit 1; }
check_id=$(printf '%032x' "$RANDOM$RANDOM")
code=$(printf '{"event_id":"%s"}\n{"type":"event"}\n{"event_id":"%s","timestamp":%s,"platform":"javascript","message":"check"}' \
  "$check_id" "$check_id" "$(date +%s)" |
  curl -s -o /dev/null -w '%{http_code}' -X POST --data-binary @- -H 'Content-Type: application/x-sentry-envelope' \
    -H "X-Sentry-Auth: Sentry sentry_key=$BENCH_SENTRY_KEY, sentry_version=7" \
    "http://127.0.0.1:$BUGSINK_PORT/api/$BENCH_SENTRY_PROJECT/envelope/")
[ "$code" = 200 ] || { echo "Bugsink's envelope endpoint answered $code, not 200; see $BS/gunicorn.log" >&2; exit 1; }
echo "[${SECONDS}s] servers ready, checks passed; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

echo "name target connections req/s 2xx/s p50_ms p99_ms non2xx socket_errors"
wrk_run javascript_errors veranda "$PORT" javascript_errors.lua "$CONNECTIONS" "$DURATION"
before=$(digested)
wrk_run javascript_errors bugsink "$BUGSINK_PORT" bugsink_envelope.lua "$CONNECTIONS" "$DURATION"
after_run=$(digested)
sleep 10
after_wait=$(digested)
echo "Bugsink events digested: $before before its wrk run, $after_run right after, $after_wait 10 s later"

# Bugsink's own stress test, the same event (its load generator is Python: one request at a
# time per thread, so it measures less than the server can take).
cat >"$BS/event.json" <<'JSON'
{"platform":"javascript","level":"error","logger":"javascript",
 "exception":{"values":[{"type":"TypeError","value":"Cannot read properties of undefined (reading 'price')",
   "stacktrace":{"frames":[
     {"filename":"http://127.0.0.1/assets/loader.js","function":"HTMLDocument.<anonymous>","lineno":88,"colno":5,"in_app":true},
     {"filename":"http://127.0.0.1/assets/loader.js","function":"renderCart","lineno":412,"colno":17,"in_app":true}]}}]},
 "request":{"url":"http://127.0.0.1/cart","headers":{"User-Agent":"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"}},
 "tags":{"app":"loader"}}
JSON
echo
echo "bugsink-manage stress_test event.json --threads $STRESS_THREADS --requests $STRESS_REQUESTS --fresh-timestamp --dsn DSN"
manage stress_test "$BS/event.json" --threads "$STRESS_THREADS" --requests "$STRESS_REQUESTS" --fresh-timestamp \
  --dsn "$DSN" 2>&1 | sed -n '/^threads:/,/^99th/p' | tee "$WORK/stress.txt"
echo "[${SECONDS}s] runs done; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

table() {
  echo "| server | endpoint | req/s (2xx/s) | p50 / p99 | non-2xx | socket errors |"
  echo "|---|---|---:|---:|---:|---:|"
  awk '$1 == "javascript_errors" {
      endpoint = ($2 == "veranda") ? "`POST /api/events/RecordJavascriptErrors`" : "`POST /api/N/envelope/`"
      printf "| %s | %s | %d (%d) | %.2f / %.2f ms | %d | %d |\n", $2, endpoint, $4, $5, $6, $7, $8, $9
    }' "$WORK/rows"
  awk -v t="$STRESS_THREADS" -v r="$STRESS_REQUESTS" '
    /^requests per second:/ { rps = $4 } /^total errors:/ { errs = $3 + 0 } /^50th:/ { p50 = $2 + 0 } /^99th:/ { p99 = $2 + 0 }
    END { printf "| bugsink, its stress_test (%d threads × %d) | `POST /api/N/envelope/` | %.0f | %.0f / %.0f ms | %d | — |\n", t, r, rps, 1000 * p50, 1000 * p99, errs }
  ' "$WORK/stress.txt"
}
echo
table | tee "${BENCH_OUT:-/dev/null}"
