#!/usr/bin/env bash
# Where the server's CPU time goes under one load script (manual; never run in CI). Starts
# `veranda serve` as ingest_cpu.sh does (demo site, temp data dir, per-IP limits raised),
# runs `wrk -t2 -c$CONNECTIONS` with SCRIPT for $DURATION against it while `perf record`
# samples the server, and prints the hottest symbols (self time) and the hottest call
# chains through Veranda's own code. Loopback only; stops what it started. Needs perf
# (Debian: linux-perf) and a release build with symbols (the workspace's release profile).
#
#   benches/load/profile.sh javascript_errors.lua
#   DURATION=20s TOP=60 benches/load/profile.sh record_hit.lua
#   CALL_GRAPH=fp benches/load/profile.sh record_hit.lua   # cheaper stacks (perf record --call-graph)
#   PERF_DATA=/tmp/errors.data benches/load/profile.sh javascript_errors.lua   # keeps the samples
#   page_get.lua profiles a page: PAGE=/about benches/load/profile.sh page_get.lua
set -euo pipefail
SCRIPT=${1:?usage: profile.sh <script in benches/load>.lua}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
[ -f "$BENCH_DIR/$SCRIPT" ] || { echo "no such script: benches/load/$SCRIPT" >&2; exit 2; }
export BENCH_VERANDA=${VERANDA_BIN:-$ROOT/target/release/veranda}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
TOP=${TOP:-40}
THREADS=2
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf is missing (apt-get install -y linux-perf)" >&2; exit 2; }

# shellcheck source=benches/load/lib.sh
source "$BENCH_DIR/lib.sh"
bench_begin 300
ingest_config "$WORK/veranda.toml"
start_servers "$WORK/veranda.toml"
page_crumb
export BENCH_CRUMB=$CRUMB
seconds=${DURATION%s}
perf record -q -F 999 --call-graph "${CALL_GRAPH:-dwarf,16384}" -o "$WORK/perf.data" -p "$VERANDA_PID" -- sleep "$((seconds - 1))" >/dev/null 2>&1 &
perf_pid=$!
sleep 0.5
wrk_run profile veranda "$PORT" "$SCRIPT" "$CONNECTIONS" "$DURATION" >/dev/null
wait "$perf_pid" || true
# PERF_DATA=path keeps the samples (for perf report -G, perf annotate).
[ -n "${PERF_DATA:-}" ] && cp "$WORK/perf.data" "$PERF_DATA"
echo "== self time, by symbol ($SCRIPT, $DURATION, $CONNECTIONS connections)"
perf report -i "$WORK/perf.data" --no-children --sort symbol --stdio 2>/dev/null |
  grep -E '^ +[0-9.]+%' | sed -E 's/[[:space:]]+$//; s/[[:space:]]+-[[:space:]]+-$//' | cut -c1-150 | head -n "$TOP"
echo
echo "== time including callees, Veranda's own functions"
perf report -i "$WORK/perf.data" --children --sort symbol --stdio -g none 2>/dev/null |
  grep -E '^ +[0-9.]+% +[0-9.]+%.*veranda' | sed -E 's/[[:space:]]+$//' | cut -c1-170 | head -n "$TOP"
