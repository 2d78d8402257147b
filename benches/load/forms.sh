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
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
DURATION=${DURATION:-10s}
KEY_DURATION=${KEY_DURATION:-15s}
THREADS=2
CONNECTIONS=64
BUDGET_SECS=120

command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is missing" >&2; exit 2; }

(cd "$ROOT" && cargo build --release -p veranda-server -p veranda-benches --bin veranda --bin bare_204)

SECONDS=0
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
  echo "[${SECONDS}s] stopped" >&2
}
trap cleanup EXIT
trap 'echo "interrupted (signal or time budget)" >&2; exit 130' INT TERM

# The whole run (after the build) is bounded: the watchdog ends this script.
# Its output goes nowhere, so a pipe reading this script's output ends with the script.
echo "time budget: ${BUDGET_SECS}s after the build" >&2
( trap 'kill "$nap" 2>/dev/null; exit 0' TERM
  sleep "$BUDGET_SECS" & nap=$!
  wait "$nap" && kill -TERM $$ ) >/dev/null 2>&1 &
PIDS+=($!)

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
PORT=$(free_port)
OPS_PORT=$(free_port)
BARE_PORT=$(free_port)

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

"$TARGET_DIR/release/veranda" serve --config "$WORK/veranda.toml" --site "$ROOT/config/sites/demo" \
  --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" --ops-listen "127.0.0.1:$OPS_PORT" >"$WORK/veranda.log" 2>&1 &
PIDS+=($!)
"$TARGET_DIR/release/bare_204" "$BARE_PORT" >"$WORK/bare.log" 2>&1 &
PIDS+=($!)

wait_for() {
  for _ in $(seq 1 100); do
    if curl -fs -o /dev/null "$@"; then return 0; fi
    sleep 0.1
  done
  return 1
}
wait_for "http://127.0.0.1:$OPS_PORT/health/ready" || { echo "veranda did not start:" >&2; cat "$WORK/veranda.log" >&2; exit 1; }
wait_for -X POST "http://127.0.0.1:$BARE_PORT/" || { echo "bare_204 did not start:" >&2; cat "$WORK/bare.log" >&2; exit 1; }

# The crumb cookie a page hands out, echoed by the form island.
CRUMB=$(curl -s -D - -o /dev/null "http://127.0.0.1:$PORT/" | tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: crumb=\([^;]*\).*/\1/p' | head -n1)
[ -n "$CRUMB" ] || { echo "no crumb cookie from GET /" >&2; exit 1; }
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

# One wrk run; prints "name target connections rps ok_rps p50 p99 non2xx errors" and keeps it in $WORK/rows.
run() {
  local name=$1 target=$2 port=$3 script=$4 duration=$5
  local out="$WORK/$name-$target.out"
  BENCH_CONNECTIONS=$CONNECTIONS timeout 40 \
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$duration" -s "$BENCH_DIR/$script" "http://127.0.0.1:$port/" >"$out" 2>&1 || true
  local result
  result=$(grep '^RESULT ' "$out" || true)
  if [ -z "$result" ]; then echo "wrk failed for $name/$target:" >&2; cat "$out" >&2; exit 1; fi
  echo "$result" | awk -v name="$name" -v target="$target" -v conns="$CONNECTIONS" '{
      for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      secs = v["duration_us"] / 1e6
      printf "%s %s %d %.0f %.0f %.2f %.2f %d %d\n", name, target, conns, v["requests"] / secs,
        (v["requests"] - v["non2xx"]) / secs, v["p50_us"] / 1000, v["p99_us"] / 1000, v["non2xx"], v["socket_errors"]
    }' | tee -a "$WORK/rows"
}

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
