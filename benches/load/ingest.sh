#!/usr/bin/env bash
# Load benchmark of the telemetry ingest (manual; never run in CI).
#
# Builds release binaries, starts `veranda serve` (demo site, temp data dir, per-IP rate
# limits raised so wrk's single IP is not throttled) and `bare_204` (a bare actix-web
# handler answering 204: the ceiling on this machine), then runs wrk against both, side by
# side, for RecordHit, RecordJavascriptErrors and performance/records (2 threads, 64
# connections, 10 s each), and RecordHit at moderate load: 8 connections, and paced at
# about half the measured maximum. Loopback only. Stops everything it started on exit.
#
#   benches/load/ingest.sh              # from the workspace root
#   DURATION=5s benches/load/ingest.sh  # shorter runs
#
# Output: one line per run, then a Markdown table (also in $BENCH_OUT when set).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
DURATION=${DURATION:-10s}
THREADS=2
CONNECTIONS=64
MODERATE_CONNECTIONS=8
BUDGET_SECS=170

command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is missing" >&2; exit 2; }

# shellcheck source=benches/load/lib.sh
source "$BENCH_DIR/lib.sh"
bench_build
bench_begin "$BUDGET_SECS"

ingest_config "$WORK/veranda.toml"

start_servers "$WORK/veranda.toml"

# The crumb cookie a page hands out, echoed by the error reporter.
page_crumb
export BENCH_CRUMB="$CRUMB"

# One wrk run of $DURATION: run NAME TARGET PORT SCRIPT CONNECTIONS [PACE_RPS].
run() { wrk_run "$1" "$2" "$3" "$4" "$5" "$DURATION" "${6:-}"; }

# One request per endpoint must get its success status: a run whose requests are
# refused (crumb, parsing, recording rules) measures nothing.
expect() {
  local want=$1 path=$2 got
  shift 2
  got=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$@" "http://127.0.0.1:$PORT$path" || true)
  [ "$got" = "$want" ] || { echo "$path answered $got, not $want; see $WORK/veranda.log" >&2; exit 1; }
}
expect 204 /api/census/RecordHit -H 'Cookie: ss_cookieAllowed=true' \
  --data-urlencode 'event=view' --data-urlencode 'data={"url":"/about","title":"About"}' --data-urlencode 'ss_cvr='
# A recorded hit (not one skipped by the recording rules) sets the visitor cookies.
curl -s -D - -o /dev/null -X POST -H 'Cookie: ss_cookieAllowed=true' \
  --data-urlencode 'event=view' --data-urlencode 'data={"url":"/about","title":"About"}' --data-urlencode 'ss_cvr=' \
  "http://127.0.0.1:$PORT/api/census/RecordHit" | grep -qi '^set-cookie: ss_cvr=' ||
  { echo "RecordHit did not record the hit (no ss_cvr cookie set)" >&2; exit 1; }
expect 202 /api/events/RecordJavascriptErrors -H "Cookie: crumb=$CRUMB" -H "X-CSRF-Token: $CRUMB" \
  -H 'Content-Type: application/json' --data '[{"event":"javascript-error","data":{"message":"check","pageLoadId":"check"}}]'
expect 202 /api/1/performance/records -H 'Content-Type: text/plain' \
  --data '[{"pageLoadId":"check","name":"LCP","value":1200}]'

echo "[${SECONDS}s] servers ready, checks passed" >&2
echo "name target connections req/s 2xx/s p50_ms p99_ms non2xx socket_errors"
for endpoint in record_hit javascript_errors perf_records; do
  run "$endpoint" veranda "$PORT" "$endpoint.lua" "$CONNECTIONS"
  run "$endpoint" bare "$BARE_PORT" "$endpoint.lua" "$CONNECTIONS"
done
run record_hit_moderate veranda "$PORT" record_hit.lua "$MODERATE_CONNECTIONS"
MAX=$(awk '$1 == "record_hit" && $2 == "veranda" { print int($5) }' "$WORK/rows")
run record_hit_half_rate veranda "$PORT" record_hit.lua "$CONNECTIONS" "$((MAX / 2))"

echo
echo "Ingest counters after the run (ops /metrics):"
curl -s "http://127.0.0.1:$OPS_PORT/metrics" | grep -E '^veranda_ingest_(accepted|rejected)_total' || true

table() {
  echo "| endpoint | veranda req/s (2xx/s) | bare 204 req/s | ratio | veranda p50 / p99 | bare p50 / p99 | non-2xx veranda / bare |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  awk '{ row[$1 " " $2] = $0 }
    END {
      n = split("record_hit javascript_errors perf_records", names, " ")
      for (i = 1; i <= n; i++) {
        split(row[names[i] " veranda"], v, " "); split(row[names[i] " bare"], b, " ")
        printf "| %s | %d (%d) | %d | %.0f %% | %.2f / %.2f ms | %.2f / %.2f ms | %d / %d |\n",
          names[i], v[4], v[5], b[4], 100 * v[5] / b[4], v[6], v[7], b[6], b[7], v[8], b[8]
      }
      split(row["record_hit_moderate veranda"], m, " ")
      printf "| record_hit, %d connections | %d (%d) | — | — | %.2f / %.2f ms | — | %d / — |\n", m[3], m[4], m[5], m[6], m[7], m[8]
      split(row["record_hit_half_rate veranda"], h, " ")
      printf "| record_hit, paced to half max | %d (%d) | — | — | %.2f / %.2f ms | — | %d / — |\n", h[4], h[5], h[6], h[7], h[8]
    }' "$WORK/rows"
}
echo "[${SECONDS}s] runs done" >&2
echo
table | tee "${BENCH_OUT:-/dev/null}"
