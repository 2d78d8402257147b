#!/usr/bin/env bash
# Telemetry ingest, side by side with the bare handler, with the server's CPU per request
# (manual; never run in CI). Starts `veranda serve` (demo site, temp data dir, per-IP rate
# limit raised, as ingest.sh) and `bare_204` with lib.sh, warms each up with SCRIPT until its
# memory stops growing (lib.sh's warm_up: at most WARM_MAX_SECS, default 60; 0 measures a fresh
# server), then runs `wrk -t2 -c$CONNECTIONS`
# for $DURATION with SCRIPT against each, $RUNS times (default 5) interleaved, and prints
# min / median / max of req/s, 2xx/s, the server process's user + system CPU time per
# request (from /proc), p50 and p99 of each side and of the ratios, with the load average
# at the start and end. PIN=1 pins the servers and wrk to separate cores. Loopback only;
# stops what it started. record_hit.lua sends continuing visitors, record_hit_new.lua a new
# visitor per hit. SHARDS sets [telemetry] shards (default 0: one per core).
#
#   benches/load/ingest_cpu.sh record_hit.lua
#   PIN=1 benches/load/ingest_cpu.sh javascript_errors.lua
#   DURATION=2s RUNS=2 benches/load/ingest_cpu.sh perf_records.lua     # a smoke run
#   VERANDA_BIN=/path/to/other/veranda benches/load/ingest_cpu.sh javascript_errors.lua
#   PIN=1 benches/load/ingest_cpu.sh edge_floor.lua     # the edge alone: an empty send, recorded nowhere
#   WARM_MAX_SECS=0 benches/load/ingest_cpu.sh record_hit.lua   # a fresh server, no warm-up
set -euo pipefail
SCRIPT=${1:?usage: ingest_cpu.sh record_hit.lua|record_hit_new.lua|javascript_errors.lua|perf_records.lua|edge_floor.lua}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
[ -f "$BENCH_DIR/$SCRIPT" ] || { echo "no such script: benches/load/$SCRIPT" >&2; exit 2; }
export BENCH_VERANDA=${VERANDA_BIN:-$ROOT/target/release/veranda}
export BENCH_BARE=${BARE_BIN:-$ROOT/target/release/bare_204}
DURATION=${DURATION:-5s}
THREADS=2
CONNECTIONS=${CONNECTIONS:-64}
BUDGET_SECS=${BUDGET_SECS:-300}
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }

# shellcheck source=benches/load/lib.sh
source "$BENCH_DIR/lib.sh"
bench_begin "$BUDGET_SECS"
ingest_config "$WORK/veranda.toml"
start_servers "$WORK/veranda.toml"
page_crumb
export BENCH_CRUMB=$CRUMB
# Each server first runs the script until its memory stops growing (lib.sh's warm_up;
# WARM_MAX_SECS=0 measures a fresh server instead).
warm_up veranda "$VERANDA_PID" warm_wrk "$PORT" "$SCRIPT"
warm_up bare "$BARE_PID" warm_wrk "$BARE_PORT" "$SCRIPT"
pair_run "${SCRIPT%.lua}" "$SCRIPT" "$CONNECTIONS" "$DURATION" veranda "$PORT" "$VERANDA_PID" bare "$BARE_PORT" "$BARE_PID"
echo
pair_table veranda bare script | tee "${BENCH_OUT:-/dev/null}"
