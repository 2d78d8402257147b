#!/usr/bin/env bash
# Load benchmark of cart changes (manual; never run in CI).
#
# Builds `veranda` (release), starts `veranda serve` (demo site, temp data dir) on
# loopback, takes a crumb from GET /, then runs wrk (2 threads, 64 connections) with
# cart.lua: half the requests add a unit to one of 10,000 carts, half set a quantity.
# Every acknowledged change is durable (group commit) before its 200. Afterwards it
# reads the server's RSS before and after the carts were made, for the memory of an
# idle cart actor (the 10,000 actors stay in memory, idle, for 5 minutes).
#
#   benches/load/cart.sh                     # from the workspace root
#   DURATION=5s CARTS=10000 CONNECTIONS=128 benches/load/cart.sh
#   BENCH_CART_MIX=blind benches/load/cart.sh   # the older mix (see cart.lua)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
DURATION=${DURATION:-10s}
export BENCH_CARTS=${CARTS:-10000}

command -v wrk >/dev/null || { echo "wrk is missing (apt-get install -y wrk)" >&2; exit 2; }
[ -n "${SKIP_BUILD:-}" ] || (cd "$ROOT" && cargo build --release -p veranda-server --bin veranda)

WORK=$(mktemp -d)
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
PORT=$(free_port)
OPS_PORT=$(free_port)
"$TARGET_DIR/release/veranda" serve --site "$ROOT/config/sites/demo" --data-dir "$WORK/data" \
  --listen "127.0.0.1:$PORT" --ops-listen "127.0.0.1:$OPS_PORT" >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/" -o /dev/null && break; sleep 0.1; done

export BENCH_CRUMB=$(curl -s -D - -o /dev/null "http://127.0.0.1:$PORT/" | sed -n 's/^[Ss]et-[Cc]ookie: crumb=\([^;]*\).*/\1/p' | tr -d '\r')
[ -n "$BENCH_CRUMB" ] || { echo "no crumb from GET /" >&2; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$PORT/api/commerce/cart/entries" \
  -H "Content-Type: application/json" -H "X-CSRF-Token: $BENCH_CRUMB" -H "Cookie: crumb=$BENCH_CRUMB" \
  -d '{"sku":"VER-HB-12OZ","quantity":1}')
[ "$status" = 200 ] || { echo "a cart change answered $status, not 200" >&2; exit 1; }

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$SERVER/status"; }
before=$(rss_kb)
wrk -t2 -c"${CONNECTIONS:-64}" -d"$DURATION" -s "$BENCH_DIR/cart.lua" "http://127.0.0.1:$PORT" | tee "$WORK/wrk.txt"
after=$(rss_kb)
echo "RSS before ${before} kB, after ${after} kB, ${BENCH_CARTS} carts: $(( (after - before) * 1024 / BENCH_CARTS )) bytes per cart (actor, record and sled cache together)"
