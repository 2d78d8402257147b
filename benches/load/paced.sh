#!/usr/bin/env bash
# Ingest at a constant rate (open loop), veranda beside the bare handler (manual; never run
# in CI): the latency and "0 non-2xx when paced" checks of the ingest targets. Starts the
# servers as ingest_cpu.sh does (pinned to the first core, the client to the second, unless
# PIN=0), warms each up at the same rate until its memory stops growing (lib.sh's warm_up),
# then for WARMUP_SECONDS (default 5) more, then runs open_loop
# at RATE requests/s for SECONDS_PER_RUN against each, RUNS times interleaved, and prints
# each run's RESULT line (answered rate, non-2xx, p50 / p99 latency
# from the due time). MODE picks what is sent:
#   continuing  the loader's RecordHit of 10,000 continuing visitors (their ss_cvr, ss_cvt,
#               SS_SESSION_ID and SS_ANALYTICS_ID cookies, as record_hit.lua);
#   new         RecordHit of a new visitor on every hit (no visitor cookie, as record_hit_new.lua);
#   errors      RecordJavascriptErrors: one error record of a fresh page load, with the crumb
#               (as javascript_errors.lua).
# Loopback only; stops what it started.
#
#   RATE=10000 benches/load/paced.sh
#   MODE=new RATE=10000 RUNS=3 benches/load/paced.sh
#   MODE=errors RATE=30000 benches/load/paced.sh
#   SLOW_DIR=/tmp/slow MODE=errors RATE=30000 benches/load/paced.sh   # + when the slow requests were due
#   RATE_OF_MAX=60 MODE=new RUNS=5 benches/load/paced.sh   # at 60 % of veranda's maximum, measured first
#   VERANDA_TELEMETRY="{max_stored_mb = 100}" FILL_SECONDS=25 PIN=0 MODE=new RATE=10000 RUNS=4 \
#     benches/load/paced.sh                                # at the telemetry size limit
#   FILL_RATE=15000 FILL_SECONDS=150 RATE_OF_MAX=60 MODE=new RUNS=5 benches/load/paced.sh
#                                                          # 60 % of the maximum at the 1 GiB limit
#
# After each run of veranda a STORE line gives the telemetry bytes it stores and the records it
# dropped for its size limit so far (`[telemetry] max_stored_mb`, 1 GiB by default).
# FILL_SECONDS=N first sends veranda the mode's requests at RATE for N s (printed as run "fill";
# past open_loop's 300 s, in parts "fill", "fill-2", …),
# after the probe and before the warm-up: with a small size limit (VERANDA_TELEMETRY, which the
# server reads), enough to fill the store, so that the measured runs store a record and drop one.
# FILL_RATE=R makes the fill come first, at R requests a second, before the probes: with
# RATE_OF_MAX, the maximum is then what veranda answers with its store at the size limit, as a
# long-running server's is, rather than an empty store's burst.
#
# RATE_OF_MAX=P (instead of RATE) sets the rate from veranda's maximum in this sitting: before
# anything else, PROBE_RUNS (default 3) runs of open_loop asking PROBE_RATE (default 100,000/s)
# for PROBE_SECONDS (default 10) each, the same request and connections, measure how many 2xx a
# second veranda answers when it is asked more than it can; RATE is P % of their median (printed
# as MAX and RATE lines). A probe ends when its last request is due (open_loop --drain 0),
# counting what was answered by then. A probe of 1 s measures a burst: it ends before the
# telemetry writer has stored what it sent, so its maximum is above what the server sustains
# (benches/reports/telemetry.md); 10 s is the sustained one. The maximum of a machine moves
# from sitting to sitting, so a rate set from another sitting's maximum may be past this one's
# (then every answer waits in a queue).
# open_loop is one thread with no script, so with the client sharing the cores (PIN=0) its
# maximum may well be higher than ingest_cpu.sh's (wrk with Lua); the two are not compared here.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
export BENCH_VERANDA=${VERANDA_BIN:-$ROOT/target/release/veranda}
export BENCH_BARE=${BARE_BIN:-$ROOT/target/release/bare_204}
OPEN_LOOP=${OPEN_LOOP_BIN:-$ROOT/target/release/open_loop}
MODE=${MODE:-continuing}
RATE_OF_MAX=${RATE_OF_MAX:-}
if [ -n "$RATE_OF_MAX" ]; then
  [ -z "${RATE:-}" ] || { echo "set RATE or RATE_OF_MAX, not both" >&2; exit 2; }
  [[ "$RATE_OF_MAX" =~ ^[0-9]+$ ]] && [ "$RATE_OF_MAX" -ge 1 ] && [ "$RATE_OF_MAX" -le 100 ] ||
    { echo "RATE_OF_MAX is a percentage, 1 to 100 (got $RATE_OF_MAX)" >&2; exit 2; }
fi
RATE=${RATE:-10000}
PROBE_RUNS=${PROBE_RUNS:-3}
PROBE_RATE=${PROBE_RATE:-100000}
PROBE_SECONDS=${PROBE_SECONDS:-10}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-10}
RUNS=${RUNS:-3}
WARMUP_SECONDS=${WARMUP_SECONDS:-5}
export PIN=${PIN:-1}
[ -x "$OPEN_LOOP" ] || { echo "build it first: cargo build --release -p veranda-benches" >&2; exit 2; }

# shellcheck source=benches/load/lib.sh
source "$BENCH_DIR/lib.sh"
# A probe ends when its last request is due; a paced run at most 15 s later (open_loop's drain).
probe_secs=0
[ -n "$RATE_OF_MAX" ] && probe_secs=$((PROBE_RUNS * (PROBE_SECONDS + 5)))
FILL_SECONDS=${FILL_SECONDS:-0}
FILL_RATE=${FILL_RATE:-}
if [ -n "$FILL_RATE" ]; then
  [[ "$FILL_RATE" =~ ^[0-9]+$ ]] && [ "$FILL_RATE" -ge 1 ] || { echo "FILL_RATE is requests a second (got $FILL_RATE)" >&2; exit 2; }
  [ "$FILL_SECONDS" -gt 0 ] || { echo "FILL_RATE needs FILL_SECONDS" >&2; exit 2; }
fi
bench_begin $((RUNS * 2 * (SECONDS_PER_RUN + 20) + 2 * WARMUP_SECONDS + 2 * ${WARM_MAX_SECS:-60} + probe_secs + FILL_SECONDS + 15 * (FILL_SECONDS / 300) + 100))
ingest_config "$WORK/veranda.toml"
start_servers "$WORK/veranda.toml"

# The loader's RecordHit `data`, form-encoded (the two RecordHit modes).
hit_data() {
  local data='{"userAgent":"Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0","clientDate":{now_ms},"viewportInnerWidth":1280,'
  data+='"viewportInnerHeight":720,"screenWidth":1920,"screenHeight":1080,"websiteId":"51ee8ec89a317a31733c9281",'
  data+='"templateId":null,"website_locale":"en-US","url":"/about","title":"About","collectionId":null,'
  data+='"recordType":null,"queryString":"","referrer":"https://www.example.com/","localStorageSupported":true}'
  python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe="{}"))' "$data"
}
path=/api/census/RecordHit
type=application/x-www-form-urlencoded
csrf=()
case "$MODE" in
  continuing)
    # {pool} names one of 10,000 visitors, each coming back every 10,000 requests.
    cvr='paced-{pool}|1700000000000|1700000000000|1700000000000|3'
    body="event=view&data=$(hit_data)&ss_cvr=$cvr"
    cookie="Cookie: ss_cookieAllowed=true; ss_cvr=$cvr; ss_cvt={now_ms}; SS_SESSION_ID=paced-{pool}-s; SS_ANALYTICS_ID=paced-{pool}-a"
    ;;
  new)
    body="event=view&data=$(hit_data)"
    cookie="Cookie: ss_cookieAllowed=true"
    ;;
  errors)
    page_crumb
    path=/api/events/RecordJavascriptErrors
    type=application/json
    body='[{"event":"javascript-error","data":{"websiteId":"51ee8ec89a317a31733c9281","url":"http://127.0.0.1/cart",'
    body+='"message":"Cannot read properties of undefined (reading '"'price'"')","file":"http://127.0.0.1/assets/loader.js",'
    body+='"line":412,"column":17,"pageLoadId":"paced-{n}"},"timestamp":{now_ms},"count":1}]'
    cookie="Cookie: crumb=$CRUMB"
    csrf=(--header "X-CSRF-Token: $CRUMB")
    ;;
  *) echo "MODE is continuing, new or errors" >&2; exit 2 ;;
esac

# send PORT RATE SECONDS [DRAIN]: open_loop's RESULT line for the mode's request at RATE against
# a server, waiting DRAIN seconds (default 15) for what is due and unanswered at the end
# (OPEN_LOOP_SLOW as the caller sets it).
send() {
  "${CLIENT_PIN[@]}" "$OPEN_LOOP" --url "http://127.0.0.1:$1$path" --method POST \
    --header "Content-Type: $type" --header "$cookie" "${csrf[@]}" \
    --body "$body" --rate "$2" --seconds "$3" --drain "${4:-15}" | grep RESULT
}
# paced NAME PORT RUN [SECONDS] [AT]: one run at AT requests a second (default RATE) against a
# server (SECONDS_PER_RUN long unless SECONDS is given).
paced() {
  echo "== $1, run $3"
  OPEN_LOOP_SLOW=${SLOW_DIR:+$SLOW_DIR/$1-$3.txt} send "$2" "${5:-$RATE}" "${4:-$SECONDS_PER_RUN}"
}
# store_state: veranda's telemetry bytes stored and records dropped for its size limit so far,
# from its /metrics (a run whose records were dropped ran at the limit):
# "STORE stored_bytes=N dropped_records=N drops_at_once=N" (the last: drops made at once at the
# limit and a tenth, each holding the writer up; empty from a build without the counter).
# Printed after the runs whose lines are kept (the fill, run 0 and the measured ones), not
# after the warm-up's steps, whose output is discarded.
store_state() {
  curl -s --max-time 5 "http://127.0.0.1:$OPS_PORT/metrics" | awk '
    /^veranda_telemetry_stored_bytes / { stored = $2 }
    /^veranda_telemetry_dropped_records_total\{/ { dropped += $2 }
    /^veranda_telemetry_drops_at_once_total / { at_once = $2 }
    END { printf "STORE stored_bytes=%d dropped_records=%d drops_at_once=%s\n", stored, dropped, at_once }' || true
}
# probe RUN: one run asking PROBE_RATE of veranda for PROBE_SECONDS; prints the 2xx it answered a
# second (answered less non-2xx, over the time to its last answer).
probe() {
  local result
  result=$(send "$PORT" "$PROBE_RATE" "$PROBE_SECONDS" 0)
  echo "PROBE run $1 $result" >&2
  echo "$result" | awk '{
      for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      printf "%.0f\n", v["achieved_rate"] * (v["answered"] - v["non2xx"]) / (v["answered"] > 0 ? v["answered"] : 1)
    }'
}
# fill RATE: veranda gets the mode's requests at RATE for FILL_SECONDS (printed as run "fill";
# open_loop sends for at most 300 s, so a longer fill goes in parts: "fill", "fill-2", …).
fill() {
  local rate=$1 left=$FILL_SECONDS part=1 label=fill secs
  while [ "$left" -gt 0 ]; do
    secs=$((left > 300 ? 300 : left))
    paced veranda "$PORT" "$label" "$secs" "$rate"
    store_state
    left=$((left - secs)) part=$((part + 1)) label=fill-$part
  done
}
if [ -n "$FILL_RATE" ]; then
  echo "FILL at $FILL_RATE/s for $FILL_SECONDS s, before the probes"
  fill "$FILL_RATE"
fi
if [ -n "$RATE_OF_MAX" ]; then
  maxima=()
  for run in $(seq 1 "$PROBE_RUNS"); do maxima+=("$(probe "$run")"); done
  median=$(printf '%s\n' "${maxima[@]}" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')
  RATE=$((median * RATE_OF_MAX / 100))
  [ "$RATE" -ge 1 ] || { echo "veranda answered no 2xx when probed" >&2; exit 1; }
  echo "MAX veranda 2xx/s ${maxima[*]}, median $median"
  echo "RATE $RATE ($RATE_OF_MAX % of it)"
fi
echo "$path ($MODE), $RATE/s for ${SECONDS_PER_RUN} s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
# A fresh server's first seconds hold one-time work (the store's first writes and the memory
# its tables and caches grow into), which the first measured run used to take in full: each
# side first gets WARMUP_SECONDS at RATE (printed as run 0, not counted; WARMUP_SECONDS=0
# skips it).
# Before that, each runs at RATE in 3 s steps until its memory stops growing (lib.sh's
# warm_up; WARM_MAX_SECS=0 skips it).
[ -n "$FILL_RATE" ] || fill "$RATE"
warm_up veranda "$VERANDA_PID" paced veranda "$PORT" 0 3
warm_up bare "$BARE_PID" paced bare "$BARE_PORT" 0 3
if [ "$WARMUP_SECONDS" -gt 0 ]; then
  paced veranda "$PORT" 0 "$WARMUP_SECONDS"
  store_state
  paced bare "$BARE_PORT" 0 "$WARMUP_SECONDS"
fi
for run in $(seq 1 "$RUNS"); do
  paced veranda "$PORT" "$run"
  store_state
  paced bare "$BARE_PORT" "$run"
done
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
