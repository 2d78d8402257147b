#!/usr/bin/env bash
# Load benchmark of cart changes, sled against Redis (manual; never run in CI).
#
# Builds `veranda` (release), starts a `redis-server` on a free loopback port (AOF on,
# `appendfsync always` unless APPENDFSYNC says otherwise, files in a temp dir), then runs
# the same wrk load as cart.sh (cart.lua: 2 threads, 64 connections, half adds, half
# quantity changes across CARTS carts) against, in turn:
#   sled   one `veranda serve` on its own data dir (group-committed sled writes);
#   redis  one `veranda serve --redis-url` (every change a versioned Lua write);
#   redis2 two `veranda serve --redis-url` instances, one wrk on each at the same time
#          (the same cart ids through both, so versioned writes really conflict).
#
#   benches/load/cart_redis.sh                 # from the workspace root
#   DURATION=5s CARTS=10000 APPENDFSYNC=everysec benches/load/cart_redis.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
DURATION=${DURATION:-10s}
APPENDFSYNC=${APPENDFSYNC:-always}
export BENCH_CARTS=${CARTS:-10000}

command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
command -v redis-server >/dev/null || { echo "redis-server is missing (apt-get install -y redis-server)" >&2; exit 2; }
[ -n "${SKIP_BUILD:-}" ] || (cd "$ROOT" && cargo build --release -p veranda-server --bin veranda)

WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

REDIS_PORT=$(free_port)
mkdir -p "$WORK/redis"
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly yes --appendfsync "$APPENDFSYNC" \
  --dir "$WORK/redis" >"$WORK/redis.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do [ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ] && break; sleep 0.1; done

# start_veranda NAME [--redis-url URL]: starts one instance; sets PORT.
start_veranda() {
  local name=$1; shift
  PORT=$(free_port)
  local ops_port
  ops_port=$(free_port)
  # A Redis without `appendfsync always` is refused at start unless told to run anyway.
  local durable='{require_durable = true}'
  [ "$APPENDFSYNC" = always ] || durable='{require_durable = false}'
  VERANDA_REDIS="$durable" "$TARGET_DIR/release/veranda" serve --site "$ROOT/config/sites/demo" --data-dir "$WORK/data-$name" \
    --listen "127.0.0.1:$PORT" --ops-listen "127.0.0.1:$ops_port" "$@" >"$WORK/$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$ops_port/health/ready" -o /dev/null && break; sleep 0.1; done
}

# crumb_of PORT: a crumb of that instance, checked by one cart change.
crumb_of() {
  local crumb status
  crumb=$(curl -s -D - -o /dev/null "http://127.0.0.1:$1/" | sed -n 's/^[Ss]et-[Cc]ookie: crumb=\([^;]*\).*/\1/p' | tr -d '\r')
  status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$1/api/commerce/cart/entries" \
    -H "Content-Type: application/json" -H "X-CSRF-Token: $crumb" -H "Cookie: crumb=$crumb" \
    -d '{"sku":"VER-HB-12OZ","quantity":1}')
  [ "$status" = 200 ] || { echo "a cart change on port $1 answered $status, not 200" >&2; exit 1; }
  echo "$crumb"
}

# run NAME PORT: one wrk run; prints its summary lines.
run() {
  BENCH_CRUMB=$(crumb_of "$2") wrk -t2 -c64 -d"$DURATION" -s "$BENCH_DIR/cart.lua" "http://127.0.0.1:$2" >"$WORK/$1.txt"
  echo "== $1"; grep -E "requests in|Requests/sec|Non-2xx|Latency  |^RESULT" "$WORK/$1.txt"
}

start_veranda sled; run sled "$PORT"
start_veranda redis --redis-url "redis://127.0.0.1:$REDIS_PORT/"; run redis "$PORT"
A=$PORT
start_veranda redis-b --redis-url "redis://127.0.0.1:$REDIS_PORT/"; B=$PORT
run redis2-a "$A" & first=$!
run redis2-b "$B"
wait "$first"
echo "appendfsync $APPENDFSYNC; Redis keys: $(redis-cli -p "$REDIS_PORT" dbsize)"
