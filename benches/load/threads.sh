#!/usr/bin/env bash
# Where the server's CPU time goes by thread (manual; never run in CI): the request workers,
# the telemetry writer, the store's I/O threads and the actors' arbiters each have a name
# (`/proc/PID/task/TID/comm`), and a request's cost is paid on several of them. Starts
# `veranda serve` as ingest_cpu.sh does (demo site, temp data dir, per-IP limits raised),
# warms it up with the script, then for each of $RUNS runs of `wrk -t2 -c$CONNECTIONS
# -d$DURATION` prints the CPU time of each thread name (user + system, every thread of that
# name together) in microseconds per request, its share of the process's total, and the
# busiest threads one by one (actix names its request workers and the actors' arbiters alike,
# `actix-rt|system`: the two busiest of those are the request workers).
# Loopback only; stops what it started.
#
#   benches/load/threads.sh record_hit.lua
#   RUNS=5 benches/load/threads.sh javascript_errors.lua
#   VERANDA_BIN=/tmp/veranda-old SKIP_BUILD=1 benches/load/threads.sh record_hit.lua
#
# A thread that ends during a run is not counted (none of Veranda's do under load). The clock
# ticks are 10 ms, so a thread's figure is good to about 100 ticks ÷ requests.
set -euo pipefail
SCRIPT=${1:?usage: threads.sh <script in benches/load>.lua}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
[ -f "$BENCH_DIR/$SCRIPT" ] || { echo "no such script: benches/load/$SCRIPT" >&2; exit 2; }
export BENCH_VERANDA=${VERANDA_BIN:-$ROOT/target/release/veranda}
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-64}
RUNS=${RUNS:-3}
THREADS=2
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }

# shellcheck source=benches/load/lib.sh
source "$BENCH_DIR/lib.sh"
bench_build
bench_begin 300
ingest_config "$WORK/veranda.toml"
start_servers "$WORK/veranda.toml"
page_crumb
export BENCH_CRUMB=$CRUMB

# "tid name ticks" for every thread of the server.
thread_ticks() {
  local task stat rest
  for task in /proc/"$VERANDA_PID"/task/*; do
    stat=$(cat "$task/stat" 2>/dev/null) || continue
    rest=${stat##*) }
    echo "${task##*/} $(tr ' ' '_' <"$task/comm") $(awk '{ print $12 + $13 }' <<<"$rest")"
  done | sort
}

warm_up veranda "$VERANDA_PID" warm_wrk "$PORT" "$SCRIPT"
ticks_per_second=$(getconf CLK_TCK)
for run in $(seq 1 "$RUNS"); do
  thread_ticks >"$WORK/before"
  wrk_run threads veranda "$PORT" "$SCRIPT" "$CONNECTIONS" "$DURATION" >/dev/null
  thread_ticks >"$WORK/after"
  requests=$(sed -n 's/^RESULT requests=\([0-9]*\).*/\1/p' "$WORK/threads-veranda.out")
  echo "== run $run: $SCRIPT, $requests requests in $DURATION, $CONNECTIONS connections"
  join "$WORK/before" "$WORK/after" | awk -v requests="$requests" -v hz="$ticks_per_second" '
    { ticks[$2] += $5 - $3; threads[$2]++; total += $5 - $3; if ($5 > $3) busy[$1 " " $2] = $5 - $3 }
    END {
      printf "%-18s %7s %12s %7s\n", "threads named", "threads", "µs/request", "share"
      for (name in ticks) if (ticks[name] > 0)
        rows = rows sprintf("%-18s %7d %12.1f %6.1f%%\n", name, threads[name], ticks[name] * 1e6 / hz / requests, 100 * ticks[name] / total)
      printf "%s", rows | "sort -k3 -rn"; close("sort -k3 -rn")
      printf "%-18s %7s %12.1f %6.1f%%\n", "all", "", total * 1e6 / hz / requests, 100
      printf "busiest threads (tid name: µs/request)\n"
      for (t in busy) order = order sprintf("  %s: %.1f\n", t, busy[t] * 1e6 / hz / requests)
      printf "%s", order | "sort -t: -k2 -rn | head -n 6"; close("sort -t: -k2 -rn | head -n 6")
    }'
done
