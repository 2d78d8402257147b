#!/usr/bin/env bash
# Load benchmark of form submissions (manual; never run in CI).
#
# Builds release binaries, starts `veranda serve` (demo site, temp data dir, the `[forms]`
# per-IP rate limits raised so wrk's single IP is not throttled) and `bare_204` (a bare
# actix-web handler answering 204: the ceiling on this machine). Then, with a crumb from
# GET /:
#   1. form_keys.lua fetches single-use keys (POST /api/form/FormSubmissionKey) for
#      $KEY_DURATION and keeps them in files (not measured);
#   2. form_submissions.lua spends one key per POST /api/form/SaveFormSubmission to the
#      demo's "newsletter" form (no captcha), each a new address: every 200 goes out
#      after its write is flushed (durable before the ack);
#   3. the same script against bare_204, side by side.
# 2 threads, 64 connections, $DURATION each. Loopback only. Stops everything it started.
#
#   benches/load/forms.sh              # from the workspace root
#   DURATION=5s benches/load/forms.sh  # shorter runs
#
# Output: one line per run, then a Markdown table (also in $BENCH_OUT when set).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
DURATION=${DURATION:-10s}
KEY_DURATION=${KEY_DURATION:-15s}
THREADS=2
CONNECTIONS=64
BUDGET_SECS=120

command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is missing" >&2; exit 2; }

# shellcheck source=benches/load/lib.sh
source "$BENCH_DIR/lib.sh"
bench_build
bench_begin "$BUDGET_SECS"

cat >"$WORK/veranda.toml" <<CONF
# Written by benches/load/forms.sh: the defaults of config/veranda.toml except the
# per-IP forms rate limits, raised so that wrk (one client IP) measures throughput, not
# 429s, and a short shutdown wait so the run stops promptly.
shutdown_timeout_secs = 2
[forms]
submissions_per_minute = 100000000
keys_per_minute = 100000000
challenges_per_minute = 60
CONF

start_servers "$WORK/veranda.toml"

# The crumb cookie a page hands out, echoed by the form island.
page_crumb
export BENCH_CRUMB="$CRUMB" BENCH_THREADS="$THREADS" BENCH_KEYS_DIR="$WORK/keys"
mkdir -p "$BENCH_KEYS_DIR"

# One submission by hand must get its 200: a run whose requests are refused (crumb,
# key, payload) measures nothing.
KEY=$(curl -s -X POST -H "Cookie: crumb=$CRUMB" -H "X-CSRF-Token: $CRUMB" -H 'Content-Type: application/json' \
  --data 'null' "http://127.0.0.1:$PORT/api/form/FormSubmissionKey" | sed -n 's/.*"key" *: *"\([^"]*\)".*/\1/p')
[ -n "$KEY" ] || { echo "no key from FormSubmissionKey; see $WORK/veranda.log" >&2; exit 1; }
GOT=$(curl -s -o "$WORK/check.json" -w '%{http_code}' -X POST -H "Cookie: crumb=$CRUMB" -H "X-CSRF-Token: $CRUMB" \
  -H 'Content-Type: application/json' \
  --data "{\"key\":\"$KEY\",\"formId\":\"newsletter\",\"form\":\"{\\\"email\\\":\\\"check@example.com\\\"}\"}" \
  "http://127.0.0.1:$PORT/api/form/SaveFormSubmission" || true)
[ "$GOT" = 200 ] || { echo "SaveFormSubmission answered $GOT, not 200: $(cat "$WORK/check.json")" >&2; exit 1; }

# One wrk run at $CONNECTIONS: run NAME TARGET PORT SCRIPT DURATION.
run() { wrk_run "$1" "$2" "$3" "$4" "$CONNECTIONS" "$5"; }

echo "[${SECONDS}s] servers ready, checks passed" >&2
echo "name target connections req/s 2xx/s p50_ms p99_ms non2xx socket_errors"
run form_keys veranda "$PORT" form_keys.lua "$KEY_DURATION"
KEYS=$(cat "$BENCH_KEYS_DIR"/keys-*.txt | wc -l)
echo "[${SECONDS}s] $KEYS keys fetched" >&2
run save_form_submission veranda "$PORT" form_submissions.lua "$DURATION"
run save_form_submission bare "$BARE_PORT" form_submissions.lua "$DURATION"

table() {
  echo "| endpoint | veranda req/s (2xx/s) | bare 204 req/s | ratio | veranda p50 / p99 | bare p50 / p99 | non-2xx veranda / bare |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  awk '{ row[$1 " " $2] = $0 }
    END {
      split(row["save_form_submission veranda"], v, " "); split(row["save_form_submission bare"], b, " ")
      printf "| SaveFormSubmission | %d (%d) | %d | %.0f %% | %.2f / %.2f ms | %.2f / %.2f ms | %d / %d |\n",
        v[4], v[5], b[4], 100 * v[5] / b[4], v[6], v[7], b[6], b[7], v[8], b[8]
      split(row["form_keys veranda"], k, " ")
      printf "| FormSubmissionKey (setup, not the target) | %d (%d) | — | — | %.2f / %.2f ms | — | %d / — |\n",
        k[4], k[5], k[6], k[7], k[8]
    }' "$WORK/rows"
}
echo "[${SECONDS}s] runs done" >&2
echo
table | tee "${BENCH_OUT:-/dev/null}"
