# Shared by the load benchmarks (sourced, never run): release build, a bounded run with a
# watchdog, free loopback ports, `veranda serve` beside `bare_204` (the ceiling), the page
# crumb, and one wrk run read back from its RESULT line. Loopback only; everything started
# is stopped on exit.
#
# The sourcing script sets ROOT and BENCH_DIR, and THREADS for `wrk_run`.
#
# Repeated pairs (`pair_run`, `pair_table`): each measure runs $RUNS times (default 5), the
# two sides interleaved, and is summarised by aggregate.py as min / median / max of each side
# and of their ratio, with the server CPU time per request of each side (user + system of
# the server's processes, from /proc) and the load average at the start and the end.
#
# PIN=1 pins the servers to the first half of the cores and the load client to the other
# half with taskset (PIN_SERVER / PIN_CLIENT, taskset's CPU lists, override the split), so
# that the client does not take CPU time from the server it measures.

TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
RUNS=${RUNS:-5}
SERVER_PIN=()
CLIENT_PIN=()
if [ -n "${PIN:-}" ] && [ "${PIN:-}" != 0 ]; then
  command -v taskset >/dev/null || { echo "PIN=1 needs taskset (util-linux)" >&2; exit 2; }
  cores=$(nproc)
  [ "$cores" -ge 2 ] || { echo "PIN=1 needs at least two cores" >&2; exit 2; }
  half=$((cores / 2))
  PIN_SERVER=${PIN_SERVER:-0-$((half - 1))}
  PIN_CLIENT=${PIN_CLIENT:-$half-$((cores - 1))}
  SERVER_PIN=(taskset -c "$PIN_SERVER")
  CLIENT_PIN=(taskset -c "$PIN_CLIENT")
  echo "pinned: servers on CPUs $PIN_SERVER, the load client on CPUs $PIN_CLIENT" >&2
fi

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
  # KEEP_DIR: the run's logs and rows outlive the temp dir there.
  if [ -n "${KEEP_DIR:-}" ] && [ -d "$WORK" ]; then
    mkdir -p "$KEEP_DIR"
    (cd "$WORK" && find . -type f \( -name '*.log' -o -name rows -o -name pairs -o -name warm -o -path './pushpin/log/*' \) -print0 |
      xargs -0 -r cp --parents -t "$KEEP_DIR")
    echo "logs kept in $KEEP_DIR" >&2
  fi
  rm -rf "$WORK"
  echo "[${SECONDS}s] stopped" >&2
}

# A free TCP port on 127.0.0.1.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits (≤ 10 s, or $WAIT_SECONDS) until curl with these arguments succeeds.
wait_for() {
  for _ in $(seq 1 $((${WAIT_SECONDS:-10} * 10))); do
    if curl -fs -o /dev/null "$@"; then return 0; fi
    sleep 0.1
  done
  return 1
}

# Starts `veranda serve` with the config file $1 (demo site, data in $WORK) on $PORT / $OPS_PORT,
# and `bare_204` on $BARE_PORT (their pids: $VERANDA_PID, $BARE_PID); returns once both answer.
# BENCH_VERANDA / BENCH_BARE name other binaries than the release builds, BENCH_SITE another
# site directory than the demo site (say, the demo site of the commit an older binary was built from).
start_servers() {
  local config=$1
  PORT=$(free_port)
  OPS_PORT=$(free_port)
  BARE_PORT=$(free_port)
  "${SERVER_PIN[@]}" "${BENCH_VERANDA:-$TARGET_DIR/release/veranda}" serve --config "$config" --site "${BENCH_SITE:-$ROOT/config/sites/demo}" \
    --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" --ops-listen "127.0.0.1:$OPS_PORT" >"$WORK/veranda.log" 2>&1 &
  PIDS+=($!)
  VERANDA_PID=$!
  "${SERVER_PIN[@]}" "${BENCH_BARE:-$TARGET_DIR/release/bare_204}" "$BARE_PORT" >"$WORK/bare.log" 2>&1 &
  PIDS+=($!)
  BARE_PID=$!
  wait_for "http://127.0.0.1:$OPS_PORT/health/ready" || { echo "veranda did not start:" >&2; cat "$WORK/veranda.log" >&2; exit 1; }
  wait_for -X POST "http://127.0.0.1:$BARE_PORT/" || { echo "bare_204 did not start:" >&2; cat "$WORK/bare.log" >&2; exit 1; }
}

# Writes the config file $1 for the ingest benchmarks: the defaults of config/veranda.toml
# except the per-IP rate limit and byte budget, raised so that wrk (one client IP) measures
# throughput, not 429s, and a short shutdown wait so the run stops promptly; SHARDS, when set,
# is [telemetry] shards (0, the default: one per core).
ingest_config() {
  cat >"$1" <<CONF
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
CONF
}

# Brings a server to its steady state before the measured runs: warm_up NAME PID COMMAND...
# runs COMMAND (one step of the run's own load, a few seconds) again and again until the
# resident memory of PID grew less than WARM_GROWTH_PCT % (default 2) over the last step, or
# WARM_MAX_SECS (default 60; 0 skips the warm-up) have passed. A fresh veranda's store fills
# its page cache (`store_cache_mb`) with what the load writes, and each page of memory it
# grows into is zeroed by the kernel first: 8 % of a continuing RecordHit run's samples while
# the memory grows (the first 10-15 s at full load), none once it is full. A server that has
# been up for a while paid that once. Prints and keeps (in $WORK/warm)
# "WARM name steps=N seconds=S rss_kb=FROM->TO".
warm_up() {
  local name=$1 pid=$2 max=${WARM_MAX_SECS:-60} growth=${WARM_GROWTH_PCT:-2}
  shift 2
  [ "$max" -gt 0 ] || return 0
  local start=$SECONDS steps=0 first before after
  first=$(rss_kb "$pid")
  before=$first
  while :; do
    "$@" >/dev/null 2>&1 || true
    steps=$((steps + 1))
    after=$(rss_kb "$pid")
    [ $((after * 100)) -le $((before * (100 + growth))) ] && break
    [ $((SECONDS - start)) -ge "$max" ] && break
    before=$after
  done
  echo "WARM $name steps=$steps seconds=$((SECONDS - start)) rss_kb=$first->$after" | tee -a "$WORK/warm" >&2
}

# One step of a warm-up (warm_up's COMMAND): warm_wrk PORT SCRIPT [SECONDS] runs wrk with
# SCRIPT, $THREADS threads and $CONNECTIONS connections, for SECONDS (default 3) against PORT.
warm_wrk() {
  BENCH_CONNECTIONS=$CONNECTIONS timeout 60 "${CLIENT_PIN[@]}" \
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"${3:-3}s" -s "$BENCH_DIR/$2" "http://127.0.0.1:$1/"
}

# The resident memory of process $1, in kB.
rss_kb() {
  awk '/^VmRSS/ {print $2}' "/proc/$1/status"
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
  BENCH_CONNECTIONS=$connections BENCH_PACE_RPS=$pace timeout 40 "${CLIENT_PIN[@]}" \
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

# CPU time (clock ticks, user + system, with the reaped children's) of the processes in $1
# (pids, comma-separated) and every process descending from them, from /proc.
tree_ticks() {
  local total=0 pid queue stat rest
  IFS=, read -r -a queue <<<"$1"
  while [ ${#queue[@]} -gt 0 ]; do
    pid=${queue[0]}
    queue=("${queue[@]:1}")
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
    rest=${stat##*) }
    # Fields after the command: state is field 3, utime..cstime are fields 14..17.
    total=$((total + $(awk '{ print $12 + $13 + $14 + $15 }' <<<"$rest")))
    for child in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do queue+=("$child"); done
  done
  echo "$total"
}

# One measured wrk run of a pair: pair_one GROUP SIDE RUN PORT PIDS SCRIPT CONNECTIONS DURATION
# (PIDS: the server's processes, comma-separated, whose CPU time counts). Appends "PAIR group side run key=value..." to $WORK/pairs and prints it.
pair_one() {
  local group=$1 side=$2 run=$3 port=$4 pid=$5 script=$6 connections=$7 duration=$8
  local out="$WORK/pair-$side-$run.out" t0 t1 result
  t0=$(tree_ticks "$pid")
  BENCH_CONNECTIONS=$connections timeout 300 "${CLIENT_PIN[@]}" \
    wrk -t"$THREADS" -c"$connections" -d"$duration" -s "$BENCH_DIR/$script" "http://127.0.0.1:$port/" >"$out" 2>&1 || true
  t1=$(tree_ticks "$pid")
  result=$(grep '^RESULT ' "$out" || true)
  if [ -z "$result" ]; then echo "wrk failed for $group/$side:" >&2; cat "$out" >&2; exit 1; fi
  echo "$result" | awk -v g="$group" -v side="$side" -v run="$run" -v ticks=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" '{
      for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      secs = v["duration_us"] / 1e6
      printf "PAIR %s %s %d requests=%d rps=%.0f ok_rps=%.0f cpu_us=%.2f p50_ms=%.2f p99_ms=%.2f non2xx=%d errors=%d\n",
        g, side, run, v["requests"], v["requests"] / secs, (v["requests"] - v["non2xx"]) / secs,
        ticks * 1e6 / hz / (v["requests"] > 0 ? v["requests"] : 1), v["p50_us"] / 1000, v["p99_us"] / 1000,
        v["non2xx"], v["socket_errors"]
    }' | tee -a "$WORK/pairs"
}

# $RUNS runs of one measure on two servers, interleaved (the side that goes first alternates):
# pair_run GROUP SCRIPT CONNECTIONS DURATION SIDE_A PORT_A PIDS_A SIDE_B PORT_B PIDS_B.
# The first call records the load average.
pair_run() {
  local group=$1 script=$2 connections=$3 duration=$4 a=$5 port_a=$6 pid_a=$7 b=$8 port_b=$9 pid_b=${10} run
  grep -q '^LOAD start' "$WORK/pairs" 2>/dev/null || echo "LOAD start $(cut -d' ' -f1-3 /proc/loadavg)" >>"$WORK/pairs"
  for run in $(seq 1 "$RUNS"); do
    if [ $((run % 2)) = 1 ]; then
      pair_one "$group" "$a" "$run" "$port_a" "$pid_a" "$script" "$connections" "$duration"
      pair_one "$group" "$b" "$run" "$port_b" "$pid_b" "$script" "$connections" "$duration"
    else
      pair_one "$group" "$b" "$run" "$port_b" "$pid_b" "$script" "$connections" "$duration"
      pair_one "$group" "$a" "$run" "$port_a" "$pid_a" "$script" "$connections" "$duration"
    fi
  done
}

# The Markdown summary of every pair_run so far: pair_table SIDE_A SIDE_B [GROUP_TITLE].
pair_table() {
  echo "LOAD end $(cut -d' ' -f1-3 /proc/loadavg)" >>"$WORK/pairs"
  python3 "$BENCH_DIR/aggregate.py" "$WORK/pairs" "$1" "$2" "${3:-measure}"
}
