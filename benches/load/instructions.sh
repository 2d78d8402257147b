#!/usr/bin/env bash
# Instructions per request under callgrind (manual; never run in CI): a count that does not
# depend on what else the machine is doing, so a change of a few per cent in the request path
# shows even where the wrk runs (± 15 % from run to run on this machine) cannot tell it.
#
# Starts `veranda serve` as ingest_cpu.sh does (demo site, temp data dir, per-IP limits raised)
# under `valgrind --tool=callgrind`, and for a script that posts (every one but page_get.lua)
# the bare actix-web handler (bare_204) the same way. For each: $WARM_SECONDS of the script
# (pages cached, connections open, tables filling), the counts zeroed, `wrk -t1
# -c$CONNECTIONS -d$DURATION` with the script, the counts dumped. Prints one INSTRUCTIONS line
# per server: the instructions of every thread of the process divided by the requests wrk
# completed (the request's own work and whatever the background threads did meanwhile), and
# for a post script the ratio veranda ÷ bare. TOP=N also prints the N functions with the most
# inclusive instructions. Loopback only; stops what it started.
#
#   benches/load/instructions.sh page_get.lua                      # GET / (PAGE=/about …)
#   benches/load/instructions.sh javascript_errors.lua             # beside bare_204
#   VERANDA_BIN=/tmp/veranda-old benches/load/instructions.sh page_get.lua   # another build
#   TOP=30 benches/load/instructions.sh record_hit.lua
#
# What it does not count: the kernel (callgrind sees user space only: for a page, sending
# the body is about half the server's CPU time, see benches/reports/pages.md) and stalls on
# memory. A copy counts one instruction a byte (valgrind counts each step of `rep movsb`).
# The same build, script and settings give the same count within about 0.5 % in one sitting;
# between sittings hours apart it moved by 3 % (benches/reports/instructions.md): compare two
# builds in one sitting.
set -euo pipefail
SCRIPT=${1:?usage: instructions.sh <script in benches/load>.lua}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
[ -f "$BENCH_DIR/$SCRIPT" ] || { echo "no such script: benches/load/$SCRIPT" >&2; exit 2; }
VERANDA=${VERANDA_BIN:-$ROOT/target/release/veranda}
BARE=${BARE_BIN:-$ROOT/target/release/bare_204}
DURATION=${DURATION:-10s}
WARM_SECONDS=${WARM_SECONDS:-3}
CONNECTIONS=${CONNECTIONS:-4}
TOP=${TOP:-0}
# KEEP_DUMPS=DIR keeps each callgrind dump there (DIR/veranda.callgrind, DIR/bare.callgrind)
# for `callgrind_annotate --tree=caller`.
export BENCH_PATH=${PAGE:-/}
for tool in wrk valgrind callgrind_control callgrind_annotate; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (apt-get install -y wrk valgrind)" >&2; exit 2; }
done

# shellcheck source=benches/load/lib.sh
source "$BENCH_DIR/lib.sh"
bench_build
bench_begin 600
ingest_config "$WORK/veranda.toml"

# A server under callgrind starts some fifty times slower: wait_for waits up to 120 s.
export WAIT_SECONDS=120

# count NAME PID PORT: warms, zeroes, runs wrk, dumps; prints the INSTRUCTIONS line and sets
# $PER_REQUEST.
count() {
  local name=$1 pid=$2 port=$3
  timeout 60 wrk -t1 -c"$CONNECTIONS" -d"${WARM_SECONDS}s" -s "$BENCH_DIR/$SCRIPT" "http://127.0.0.1:$port/" >/dev/null 2>&1 || true
  callgrind_control -z "$pid" >/dev/null
  local out="$WORK/$name.wrk"
  timeout 120 wrk -t1 -c"$CONNECTIONS" -d"$DURATION" -s "$BENCH_DIR/$SCRIPT" "http://127.0.0.1:$port/" >"$out" 2>&1 || true
  callgrind_control -d "$pid" >/dev/null
  local requests non2xx dump total
  requests=$(sed -n 's/^RESULT requests=\([0-9]*\).*/\1/p' "$out")
  non2xx=$(sed -n 's/^RESULT .*non2xx=\([0-9]*\).*/\1/p' "$out")
  [ -n "$requests" ] && [ "$requests" -gt 0 ] || { echo "wrk failed against $name:" >&2; cat "$out" >&2; exit 1; }
  # The dump callgrind_control asked for is the process's first (`.1`).
  for _ in $(seq 1 100); do
    dump=$(ls "$WORK/$name.cg."*.1 2>/dev/null | head -n1 || true)
    [ -n "$dump" ] && break
    sleep 0.2
  done
  [ -n "$dump" ] || { echo "no callgrind dump from $name" >&2; exit 1; }
  total=$(callgrind_annotate "$dump" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
  PER_REQUEST=$((total / requests))
  [ -z "${KEEP_DUMPS:-}" ] || { mkdir -p "$KEEP_DUMPS"; cp "$dump" "$KEEP_DUMPS/$name.callgrind"; }
  echo "INSTRUCTIONS target=$name script=$SCRIPT path=$BENCH_PATH requests=$requests non2xx=$non2xx instructions=$total per_request=$PER_REQUEST"
  if [ "$TOP" -gt 0 ]; then
    callgrind_annotate --inclusive=yes "$dump" 2>/dev/null | grep -E '^ *[0-9,]+ \(' | grep -v 'PROGRAM TOTALS' |
      head -n "$TOP" | sed -E 's/ \[[^]]*\]$//' | cut -c1-160
  fi
}

PORT=$(free_port)
OPS_PORT=$(free_port)
valgrind --tool=callgrind --callgrind-out-file="$WORK/veranda.cg.%p" "$VERANDA" serve --config "$WORK/veranda.toml" \
  --site "${BENCH_SITE:-$ROOT/config/sites/demo}" --data-dir "$WORK/data" \
  --listen "127.0.0.1:$PORT" --ops-listen "127.0.0.1:$OPS_PORT" >"$WORK/veranda.log" 2>&1 &
VERANDA_PID=$!
PIDS+=("$VERANDA_PID")
wait_for "http://127.0.0.1:$OPS_PORT/health/ready" || { echo "veranda did not start:" >&2; cat "$WORK/veranda.log" >&2; exit 1; }
page_crumb
export BENCH_CRUMB=$CRUMB
count veranda "$VERANDA_PID" "$PORT"
VERANDA_PER_REQUEST=$PER_REQUEST
kill "$VERANDA_PID" 2>/dev/null || true

if [ "$SCRIPT" != page_get.lua ]; then
  BARE_PORT=$(free_port)
  valgrind --tool=callgrind --callgrind-out-file="$WORK/bare.cg.%p" "$BARE" "$BARE_PORT" >"$WORK/bare.log" 2>&1 &
  BARE_PID=$!
  PIDS+=("$BARE_PID")
  wait_for -X POST "http://127.0.0.1:$BARE_PORT/" || { echo "bare_204 did not start:" >&2; cat "$WORK/bare.log" >&2; exit 1; }
  count bare "$BARE_PID" "$BARE_PORT"
  python3 -c "print(f'RATIO bare / veranda instructions per request: {$PER_REQUEST / $VERANDA_PER_REQUEST * 100:.1f} %')"
fi
