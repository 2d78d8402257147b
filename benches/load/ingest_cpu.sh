#!/usr/bin/env bash
# Telemetry ingest, side by side with the bare handler, with the server's CPU per request
# (manual; never run in CI). Starts `veranda serve` (demo site, temp data dir, per-IP rate
# limit raised, as ingest.sh) and `bare_204`, then runs `wrk -t2 -c64` for $DURATION with
# SCRIPT against each, twice, and prints req/s, 2xx/s, the server process's user + system
# CPU time per request (from /proc), and p99. Loopback only; stops what it started.
# record_hit.lua sends continuing visitors, record_hit_new.lua a new visitor per hit.
# SHARDS sets [telemetry] shards (default 0: one per core).
#
#   benches/load/ingest_cpu.sh record_hit.lua
#   DURATION=2s benches/load/ingest_cpu.sh record_hit_new.lua
#   VERANDA_BIN=/path/to/other/veranda benches/load/ingest_cpu.sh javascript_errors.lua
set -euo pipefail
SCRIPT=${1:?usage: ingest_cpu.sh record_hit.lua|record_hit_new.lua|javascript_errors.lua|perf_records.lua}
[ -f "$(dirname "$0")/$SCRIPT" ] || { echo "no such load script: $SCRIPT" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
BIN=${VERANDA_BIN:-$ROOT/target/release/veranda}
BARE=${BARE_BIN:-$ROOT/target/release/bare_204}
DURATION=${DURATION:-5s}
W=$(mktemp -d)
cat >"$W/veranda.toml" <<T
shutdown_timeout_secs = 2
[telemetry]
rate_per_second = 10000000
rate_burst = 10000000
bytes_per_address_per_minute = 4000000000
byte_burst_per_address = 4000000000
mailbox_capacity = 1024
errors_per_page_load = 20
trace_buffer = 1000
shards = ${SHARDS:-0}
T
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port); OPS=$(free_port); BARE_PORT=$(free_port)
"$BIN" serve --config "$W/veranda.toml" --site "$ROOT/config/sites/demo" --data-dir "$W/data" \
  --listen "127.0.0.1:$PORT" --ops-listen "127.0.0.1:$OPS" >"$W/veranda.log" 2>&1 &
VP=$!
"$BARE" "$BARE_PORT" >/dev/null 2>&1 &
BP=$!
trap 'kill $VP $BP 2>/dev/null; wait $VP $BP 2>/dev/null; rm -rf "$W"' EXIT
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$OPS/health/ready" && break; sleep 0.1; done
CRUMB=$(curl -s -D - -o /dev/null "http://127.0.0.1:$PORT/" | tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: crumb=\([^;]*\).*/\1/p' | head -n1)
export BENCH_CRUMB=$CRUMB BENCH_CONNECTIONS=64
ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
one() { # pid port label
  local t0 t1 r
  t0=$(ticks "$1")
  r=$(timeout 60 wrk -t2 -c64 -d"$DURATION" -s "$BENCH_DIR/$SCRIPT" "http://127.0.0.1:$2/" | grep '^RESULT ')
  t1=$(ticks "$1")
  echo "$r" | awk -v l="$3" -v t=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" -v load="$(cut -d' ' -f1 /proc/loadavg)" '{
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    s = v["duration_us"] / 1e6; ok = v["requests"] - v["non2xx"]
    printf "%-8s %8.0f req/s  2xx %8.0f/s  cpu %6.1f us/req  p99 %6.2f ms  load %s\n",
      l, v["requests"] / s, ok / s, t * 1e6 / hz / v["requests"], v["p99_us"] / 1000, load }'
}
for _ in 1 2; do one "$VP" "$PORT" veranda; one "$BP" "$BARE_PORT" bare; done
