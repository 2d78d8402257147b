# Shared by the load benchmarks (sourced, never run): release build, a bounded run with a
# watchdog, free loopback ports, `veranda serve` beside `bare_204` (the ceiling), the page
# crumb, and one wrk run read back from its RESULT line. Loopback only; everything started
# is stopped on exit.
#
# The sourcing script sets ROOT and BENCH_DIR, and THREADS for `wrk_run`.

TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}

# Builds `veranda` and `bare_204` (release); SKIP_BUILD=1 keeps the binaries already built.
bench_build() {
  [ -n "${SKIP_BUILD:-}" ] && return 0
  (cd "$ROOT" && cargo build --release -p veranda-server -p veranda-benches --bin veranda --bin bare_204)
}

# Starts the clock, the work dir ($WORK), the list of children ($PIDS) stopped on exit, and a
# watchdog that ends the script after $1 seconds. Its output goes nowhere, so a pipe reading
# the script's output ends with the script.
bench_begin() {
  local budget=$1
  SECONDS=0
  WORK=$(mktemp -d)
  PIDS=()
  trap bench_cleanup EXIT
  trap 'echo "interrupted (signal or time budget)" >&2; exit 130' INT TERM
  echo "time budget: ${budget}s after the build" >&2
  ( trap 'kill "$nap" 2>/dev/null; exit 0' TERM
    sleep "$budget" & nap=$!
    wait "$nap" && kill -TERM $$ ) >/dev/null 2>&1 &
  PIDS+=($!)
}

bench_cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
  echo "[${SECONDS}s] stopped" >&2
}

# A free TCP port on 127.0.0.1.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits (≤ 10 s) until curl with these arguments succeeds.
wait_for() {
  for _ in $(seq 1 100); do
    if curl -fs -o /dev/null "$@"; then return 0; fi
    sleep 0.1
  done
  return 1
}

# Starts `veranda serve` with the config file $1 (demo site, data in $WORK) on $PORT / $OPS_PORT,
# and `bare_204` on $BARE_PORT; returns once both answer.
start_servers() {
  local config=$1
  PORT=$(free_port)
  OPS_PORT=$(free_port)
  BARE_PORT=$(free_port)
  "$TARGET_DIR/release/veranda" serve --config "$config" --site "$ROOT/config/sites/demo" \
    --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" --ops-listen "127.0.0.1:$OPS_PORT" >"$WORK/veranda.log" 2>&1 &
  PIDS+=($!)
  "$TARGET_DIR/release/bare_204" "$BARE_PORT" >"$WORK/bare.log" 2>&1 &
  PIDS+=($!)
  wait_for "http://127.0.0.1:$OPS_PORT/health/ready" || { echo "veranda did not start:" >&2; cat "$WORK/veranda.log" >&2; exit 1; }
  wait_for -X POST "http://127.0.0.1:$BARE_PORT/" || { echo "bare_204 did not start:" >&2; cat "$WORK/bare.log" >&2; exit 1; }
}

# The crumb cookie `GET /` hands out (what the site's scripts echo), as $CRUMB.
page_crumb() {
  CRUMB=$(curl -s -D - -o /dev/null "http://127.0.0.1:$PORT/" | tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: crumb=\([^;]*\).*/\1/p' | head -n1)
  [ -n "$CRUMB" ] || { echo "no crumb cookie from GET /" >&2; exit 1; }
}

# One wrk run: wrk_run NAME TARGET PORT SCRIPT CONNECTIONS DURATION [PACE_RPS]. Prints
# "name target connections rps ok_rps p50 p99 non2xx errors" and keeps it in $WORK/rows.
wrk_run() {
  local name=$1 target=$2 port=$3 script=$4 connections=$5 duration=$6 pace=${7:-}
  local out="$WORK/$name-$target.out"
  BENCH_CONNECTIONS=$connections BENCH_PACE_RPS=$pace timeout 40 \
    wrk -t"$THREADS" -c"$connections" -d"$duration" -s "$BENCH_DIR/$script" "http://127.0.0.1:$port/" >"$out" 2>&1 || true
  local result
  result=$(grep '^RESULT ' "$out" || true)
  if [ -z "$result" ]; then echo "wrk failed for $name/$target:" >&2; cat "$out" >&2; exit 1; fi
  echo "$result" | awk -v name="$name" -v target="$target" -v conns="$connections" '{
      for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      secs = v["duration_us"] / 1e6
      printf "%s %s %d %.0f %.0f %.2f %.2f %d %d\n", name, target, conns, v["requests"] / secs,
        (v["requests"] - v["non2xx"]) / secs, v["p50_us"] / 1000, v["p99_us"] / 1000, v["non2xx"], v["socket_errors"]
    }' | tee -a "$WORK/rows"
}
