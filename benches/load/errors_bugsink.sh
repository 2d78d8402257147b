#!/usr/bin/env bash
# Error-report ingest beside Bugsink (manual; never run in CI).
#
# Installs Bugsink from PyPI into $ROOT/.venv-bugsink when missing (git-ignored), builds the
# release binaries, starts `veranda serve` (demo site, temp data dir, the per-IP ingest rate
# limit raised as in ingest.sh) with lib.sh, and Bugsink in its `singleserver` configuration
# (bugsink-create-conf: sqlite databases, the ingest store and the `snappea` background
# worker in the temp dir) with plain HTTP on loopback: gunicorn with $BUGSINK_WORKERS sync
# workers (default cores × 2 + 1, the count gunicorn documents for sync workers) and
# `bugsink-runsnappea`, which digests what the HTTP workers have stored. One project is
# created in its database.
#
# Bugsink's ingest quotas are raised so that they do not decide the result: by default it
# takes 1,000 events per 5 minutes and 5,000 per hour (per project and in all), answers 429
# beyond them and discards what it accepted over quota at digest time. Here the six
# MAX_EVENTS_PER_* settings are 1,000,000,000. Its retention (10,000 events per project by
# default, the oldest evicted) is left as it is: eviction is part of its normal work.
#
# Then, per workload, wrk sends the same errors to both ($THREADS threads, $CONNECTIONS
# connections, $DURATION each, default 60 s), $RUNS times (default 5) interleaved (lib.sh's
# pair_run): to veranda as `POST /api/events/RecordJavascriptErrors` (javascript_errors.lua,
# answered 202 once queued), to Bugsink as a Sentry envelope (bugsink_envelope.lua, answered
# 200 once stored for the digest). Workloads ($WORKLOADS): `identical`, one error over and
# over; `varied`, $FINGERPRINTS distinct errors in turn (many fingerprints). After each
# Bugsink run the script waits until its digest worker has caught up (≤ $DIGEST_WAIT_SECS)
# and reports the rate it digested at during the HTTP run and sustained until the backlog
# was done (from the project's digested-event count), and the digest worker's CPU time per
# request. The server CPU per request is that of veranda, and of Bugsink's gunicorn (master
# and workers), during the HTTP run. Any non-2xx answer from Bugsink (a 429 is a quota) or
# a quota recorded on its project fails the run. Finally Bugsink's own load generator,
# `bugsink-manage stress_test`, sends the same event ($STRESS_THREADS threads ×
# $STRESS_REQUESTS requests). PIN=1 pins the servers and wrk to separate cores. Loopback
# only. Stops everything it started.
#
#   benches/load/errors_bugsink.sh                                  # from the workspace root
#   PIN=1 benches/load/errors_bugsink.sh                            # servers and wrk on separate cores
#   DURATION=2s RUNS=2 DIGEST_WAIT_SECS=10 benches/load/errors_bugsink.sh   # a smoke run
#   SKIP_BUILD=1 WORKLOADS=varied benches/load/errors_bugsink.sh    # release binaries already built
#
# Output: one PAIR line per run and server, Bugsink's stress_test summary, then a Markdown
# table with min / median / max per workload and measure (also in $BENCH_OUT when set).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
DURATION=${DURATION:-60s}
THREADS=2
CONNECTIONS=${CONNECTIONS:-64}
BUGSINK_WORKERS=${BUGSINK_WORKERS:-$(($(nproc) * 2 + 1))}
WORKLOADS=${WORKLOADS:-identical,varied}
FINGERPRINTS=${FINGERPRINTS:-1000}
DIGEST_WAIT_SECS=${DIGEST_WAIT_SECS:-300}
STRESS_THREADS=${STRESS_THREADS:-4}
STRESS_REQUESTS=${STRESS_REQUESTS:-250}
BUGSINK_VERSION=${BUGSINK_VERSION:-2.6.1}
VENV="$ROOT/.venv-bugsink"
BUDGET_SECS=${BUDGET_SECS:-5400}
for workload in ${WORKLOADS//,/ }; do
  case $workload in identical | varied) ;; *) echo "WORKLOADS: unknown workload '$workload' (identical or varied)" >&2; exit 2 ;; esac
done

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

ingest_config "$WORK/veranda.toml"
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

# Written by benches/load/errors_bugsink.sh: plain HTTP on loopback, and the ingest quotas
# raised so that a benchmark run does not hit them (429 and events discarded at digest).
BUGSINK["BASE_URL"] = "http://127.0.0.1:$BUGSINK_PORT"
for quota in ("MAX_EVENTS_PER_PROJECT_PER_5_MINUTES", "MAX_EVENTS_PER_PROJECT_PER_HOUR",
              "MAX_EVENTS_PER_PROJECT_PER_MONTH", "MAX_EVENTS_PER_5_MINUTES", "MAX_EVENTS_PER_HOUR",
              "MAX_EVENTS_PER_MONTH"):
    BUGSINK[quota] = 1_000_000_000
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
(cd "$BS" && DJANGO_SETTINGS_MODULE=bugsink_conf PYTHONPATH="$BS" exec "${SERVER_PIN[@]}" "$VENV/bin/gunicorn" \
  --bind "127.0.0.1:$BUGSINK_PORT" --workers "$BUGSINK_WORKERS" --control-socket "$BS/gunicorn.ctl" \
  bugsink.wsgi >"$BS/gunicorn.log" 2>&1) &
GUNICORN_PID=$!
PIDS+=("$GUNICORN_PID")
(cd "$BS" && exec "${SERVER_PIN[@]}" "$VENV/bin/bugsink-runsnappea" >"$BS/snappea.log" 2>&1) &
SNAPPEA_PID=$!
PIDS+=("$SNAPPEA_PID")
wait_for "http://127.0.0.1:$BUGSINK_PORT/accounts/login/" ||
  { echo "Bugsink did not start:" >&2; cat "$BS/gunicorn.log" >&2; exit 1; }

# The project's digested-event count (it keeps counting when retention evicts events), and
# whether a quota was ever recorded on it.
digested() {
  manage shell -c 'from projects.models import Project; print("EVENTS", Project.objects.get(name="bench").digested_event_count)' \
    2>/dev/null | sed -n 's/^EVENTS //p'
}
quota_hit() {
  manage shell -c 'from projects.models import Project; p = Project.objects.get(name="bench"); print("QUOTA", p.quota_exceeded_until or "none", p.quota_exceeded_reason)' \
    2>/dev/null | sed -n 's/^QUOTA //p'
}

# One Bugsink run: wrk, then the wait for the digest worker (until its count has not moved for
# 3 s, ≤ $DIGEST_WAIT_SECS), appending the digest rates and the digest worker's CPU per request.
bugsink_run() {
  local workload=$1 run=$2 d0 d1 d2 s0 s1 t0 t1 tlast requests last
  d0=$(digested)
  s0=$(tree_ticks "$SNAPPEA_PID")
  t0=$(date +%s.%N)
  pair_one "$workload" bugsink "$run" "$BUGSINK_PORT" "$GUNICORN_PID" bugsink_envelope.lua "$CONNECTIONS" "$DURATION"
  t1=$(date +%s.%N)
  d1=$(digested)
  d2=$d1 tlast=$t1
  while :; do
    sleep 3
    last=$(digested)
    [ "$last" = "$d2" ] && break
    d2=$last tlast=$(date +%s.%N)
    if [ "$(awk -v a="$tlast" -v b="$t1" -v w="$DIGEST_WAIT_SECS" 'BEGIN { print (a - b > w) }')" = 1 ]; then
      echo "Bugsink's digest was still behind ${DIGEST_WAIT_SECS}s after the run" >&2
      break
    fi
  done
  s1=$(tree_ticks "$SNAPPEA_PID")
  requests=$(tail -n1 "$WORK/pairs" | awk '{ for (i = 5; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } print v["requests"] }')
  awk -v w="$workload" -v r="$run" -v d0="$d0" -v d1="$d1" -v d2="$d2" -v t0="$t0" -v t1="$t1" -v tl="$tlast" \
    -v ticks=$((s1 - s0)) -v hz="$(getconf CLK_TCK)" -v n="$requests" 'BEGIN {
      if (n < 1) n = 1
      printf "PAIR %s bugsink %d digest_run_rps=%.1f digest_rps=%.1f backlog_s=%.1f digest_cpu_us=%.1f\n", w, r,
        (d1 - d0) / (t1 - t0), (d2 - d0) / (tl - t0), tl - t1, ticks * 1e6 / hz / n
    }' | tee -a "$WORK/pairs"
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

echo "LOAD start $(cut -d' ' -f1-3 /proc/loadavg)" >>"$WORK/pairs"
for workload in ${WORKLOADS//,/ }; do
  if [ "$workload" = varied ]; then export BENCH_FINGERPRINTS=$FINGERPRINTS; else export BENCH_FINGERPRINTS=1; fi
  for run in $(seq 1 "$RUNS"); do
    if [ $((run % 2)) = 1 ]; then
      pair_one "$workload" veranda "$run" "$PORT" "$VERANDA_PID" javascript_errors.lua "$CONNECTIONS" "$DURATION"
      bugsink_run "$workload" "$run"
    else
      bugsink_run "$workload" "$run"
      pair_one "$workload" veranda "$run" "$PORT" "$VERANDA_PID" javascript_errors.lua "$CONNECTIONS" "$DURATION"
    fi
  done
done
echo "Bugsink: $(digested) events digested in all; quota on the project: $(quota_hit)"

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

echo
{
  pair_table veranda bugsink workload
  echo
  awk -v t="$STRESS_THREADS" -v r="$STRESS_REQUESTS" '
    /^requests per second:/ { rps = $4 } /^total errors:/ { errs = $3 + 0 } /^50th:/ { p50 = $2 + 0 } /^99th:/ { p99 = $2 + 0 }
    END { printf "Bugsink'"'"'s own stress_test (%d threads × %d, identical event): %.0f req/s, p50 / p99 %.0f / %.0f ms, %d errors.\n", t, r, rps, 1000 * p50, 1000 * p99, errs }
  ' "$WORK/stress.txt"
} | tee "${BENCH_OUT:-/dev/null}"

# Bugsink must have answered every request with 2xx and never recorded a quota.
failed=$(awk '$1 == "PAIR" && $3 == "bugsink" { for (i = 5; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "non2xx" && kv[2] > 0) n += kv[2] } } END { print n + 0 }' "$WORK/pairs")
quota=$(quota_hit)
if [ "$failed" != 0 ] || [ "${quota%% *}" != none ]; then
  echo "FAILED: Bugsink answered $failed non-2xx (429 is its quota); quota on the project: $quota" >&2
  exit 1
fi
