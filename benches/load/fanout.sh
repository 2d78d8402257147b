#!/usr/bin/env bash
# Fan-out to N websocket subscribers beside Pushpin (manual; never run in CI).
#
# Builds release binaries, stores an owner session in a fresh data dir, starts `veranda
# serve` (demo site) with lib.sh, a second `veranda serve` sharing its streams through a
# private `redis-server` (`--redis-url`; Debian package, installed when missing), and Pushpin
# (Debian package, installed when missing) from its own config in the temp dir, routing
# websockets as websocket-over-HTTP to `grip_origin` (benches/src/bin/grip_origin.rs), which
# subscribes every socket to one channel (with $ORIGIN_WORKERS workers, default 2). Then,
# for each N in $SUBSCRIBERS and each rate in $RATES (events per second, a sweep), `fanout`
# (benches/src/bin/fanout/) opens N websockets to each server in turn, waits for every
# handshake, and produces events at that fixed rate for $RUN_SECS seconds, open loop
# ($SCHEDULE, default `open`: each event at its due time whatever happened to the previous
# one, its latency counted from that due time): on Veranda with the `edit` producer real content
# edits through the API (each one's event reaches the edits stream); with the `direct`
# producer (the Redis-backed instance) edit events appended to the stream's shared Redis log
# as another instance does, so the fan-out is measured without the edit path; on Pushpin
# publishes of a message the size of Veranda's event frame. Pushpin's sockets are warmed up
# once: one message published after every handshake is done. Per run: delivery latency
# p50/p99/max (from the event's due time to the subscriber's read), deliveries lost on
# sockets that stayed open, sockets the server closed (and the frames they missed, counted
# apart), the server's memory (with its child processes) before and at peak, and its CPU
# time per delivered frame at that offered rate. Then, per server and N, the highest rate
# of the sweep it sustained with nothing lost, no socket closed and p99 ≤ $P99_BOUND_MS ms.
# The logs of every server (Pushpin's in pushpin/log/) are kept in $KEEP_DIR (default
# target/bench-out/fanout-DATE, printed). Loopback only. Stops everything it started.
#
# Across instances: with $INSTANCES (a list, default 1), the direct producer runs once per
# count k in it, its N subscribers split evenly over k `veranda serve --redis-url`
# instances of the site sharing the private Redis (as many are started as the largest k),
# the events still produced once on the shared log every instance follows. Each row then
# gives the delivered frames per second in total and per instance, each instance's memory,
# and the CPU time per delivered frame summed over the k instances (each one's /proc times
# before and after), so one and two instances compare in the same run, beside Pushpin.
#
# Pushpin here is Debian's package, 1.36 (its WebSocket fixes landed in 1.37–1.39), and
# Pushpin documents broadcast-heavy WebSocket loads as its weak spot (its one-million-
# connection guide, fanout/pushpin-c1m, aims at "lots of connections that are mostly quiet,
# without large broadcasts, using the HTTP transport"): the comparison is of that case.
#
#   benches/load/fanout.sh                                  # from the workspace root
#   SUBSCRIBERS=100 RATES=50,100 RUN_SECS=2 benches/load/fanout.sh   # a smoke run
#   SKIP_BUILD=1 benches/load/fanout.sh                     # release binaries already built
#   PRODUCERS=direct SERVERS=veranda benches/load/fanout.sh # one producer, no Pushpin
#   PRODUCERS=direct INSTANCES=1,2 benches/load/fanout.sh   # one and two instances on one Redis, and Pushpin
#
# Output: one RESULT line per run, then a Markdown table (also in $BENCH_OUT when set).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
SUBSCRIBERS=${SUBSCRIBERS:-1000,10000}
RATES=${RATES:-${RATE:-25,50,100,200,400}}
RUN_SECS=${RUN_SECS:-10}
SCHEDULE=${SCHEDULE:-open}
P99_BOUND_MS=${P99_BOUND_MS:-100}
ORIGIN_WORKERS=${ORIGIN_WORKERS:-2}
BUDGET_SECS=${BUDGET_SECS:-3600}
PRODUCERS=${PRODUCERS:-edit,direct}
SERVERS=${SERVERS:-veranda,pushpin}
INSTANCES=${INSTANCES:-1}
for k in ${INSTANCES//,/ }; do
  case $k in [1-8]) ;; *) echo "INSTANCES: '$k' is not a count of 1 to 8 instances" >&2; exit 2 ;; esac
done
MAX_INSTANCES=$(tr ',' '\n' <<<"$INSTANCES" | sort -n | tail -n1)
for name in ${SERVERS//,/ }; do
  case $name in veranda | pushpin) ;; *) echo "SERVERS: unknown server '$name' (veranda or pushpin)" >&2; exit 2 ;; esac
done
for name in ${PRODUCERS//,/ }; do
  case $name in edit | direct) ;; *) echo "PRODUCERS: unknown producer '$name' (edit or direct)" >&2; exit 2 ;; esac
done
case ",$SERVERS," in *,pushpin,*) WITH_PUSHPIN=1 ;; *) WITH_PUSHPIN= ;; esac
case ",$SERVERS," in *,veranda,*) ;; *) PRODUCERS= ;; esac
case ",$PRODUCERS," in *,direct,*) WITH_REDIS=1 ;; *) WITH_REDIS= ;; esac

command -v curl >/dev/null || { echo "curl is missing" >&2; exit 2; }
if [ -n "$WITH_PUSHPIN" ] && ! command -v pushpin >/dev/null; then
  echo "installing pushpin (Debian package)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y pushpin >&2 || { echo "pushpin is missing (apt-get install -y pushpin)" >&2; exit 2; }
fi
if [ -n "$WITH_REDIS" ] && ! command -v redis-server >/dev/null; then
  echo "installing redis-server (Debian package)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server >&2 || { echo "redis-server is missing (apt-get install -y redis-server)" >&2; exit 2; }
fi

# Every subscriber is a socket in the client and one in the server: both need N descriptors
# and some. The limit is raised as far as the hard limit allows.
max_n=$(tr ',' '\n' <<<"$SUBSCRIBERS" | sort -n | tail -n1)
ulimit -n "$(ulimit -Hn)"
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((max_n + 500)) ]; then
  echo "open-file limit $(ulimit -n) is too low for $max_n subscribers" >&2
  exit 2
fi

# shellcheck source=benches/load/lib.sh
source "$BENCH_DIR/lib.sh"
if [ -z "${SKIP_BUILD:-}" ]; then
  bench_build
  (cd "$ROOT" && cargo build --release -p veranda-benches --bin fanout --bin grip_origin)
fi
KEEP_DIR=${KEEP_DIR:-$ROOT/target/bench-out/fanout-$(date -u +%Y%m%dT%H%M%SZ)}
bench_begin "$BUDGET_SECS"
echo "logs will be kept in $KEEP_DIR" >&2

cat >"$WORK/veranda.toml" <<CONF
# Written by benches/load/fanout.sh: the defaults of config/veranda.toml except a short
# shutdown wait so the run stops promptly.
shutdown_timeout_secs = 2
CONF
SESSION="bench-owner-$RANDOM$RANDOM"
"$TARGET_DIR/release/fanout" seed-session "$WORK/data" "$SESSION"
start_servers "$WORK/veranda.toml"
VERANDA_PID=${PIDS[${#PIDS[@]}-2]}

# The direct producer: a private Redis (no persistence) and $MAX_INSTANCES instances
# sharing everything through it; the fanout client appends to the edits stream's log there,
# which is what another instance does for each of its edits.
if [ -n "$WITH_REDIS" ]; then
  REDIS_PORT=$(free_port)
  REDIS_URL="redis://127.0.0.1:$REDIS_PORT/"
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no --dir "$WORK" >"$WORK/redis.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 50); do
    redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && break
    sleep 0.1
  done
  # With --redis-url every tree is in Redis: the owner session goes there. This Redis keeps
  # nothing on disk, which the server refuses unless told the writes may be lost.
  "$TARGET_DIR/release/fanout" seed-session "$REDIS_URL" "$SESSION"
  SHARED_PORTS=()
  SHARED_PIDS=()
  for i in $(seq 1 "$MAX_INSTANCES"); do
    shared_port=$(free_port)
    shared_ops_port=$(free_port)
    VERANDA_REDIS='{require_durable = false}' "${SERVER_PIN[@]}" "$TARGET_DIR/release/veranda" serve --config "$WORK/veranda.toml" --site "${BENCH_SITE:-$ROOT/config/sites/demo}" \
      --data-dir "$WORK/data-shared-$i" --listen "127.0.0.1:$shared_port" --ops-listen "127.0.0.1:$shared_ops_port" \
      --redis-url "$REDIS_URL" >"$WORK/veranda-shared-$i.log" 2>&1 &
    SHARED_PIDS+=($!)
    SHARED_PORTS+=("$shared_port")
    PIDS+=($!)
    wait_for "http://127.0.0.1:$shared_ops_port/health/ready" ||
      { echo "veranda instance $i with --redis-url did not start:" >&2; cat "$WORK/veranda-shared-$i.log" "$WORK/redis.log" >&2; exit 1; }
  done
  SHARED_PID=${SHARED_PIDS[*]}
fi

if [ -n "$WITH_PUSHPIN" ]; then
# Pushpin: its own config, routes and run/log dirs in $WORK; every port a free loopback one.
PP_HTTP=$(free_port)
PP_PUBLISH=$(free_port)
PP_PUSH_IN=$(free_port)
PP_PUSH_SUB=$(free_port)
PP_COMMAND=$(free_port)
ORIGIN_PORT=$(free_port)
mkdir -p "$WORK/pushpin/run" "$WORK/pushpin/log"
cat >"$WORK/pushpin/routes" <<ROUTES
* 127.0.0.1:$ORIGIN_PORT,over_http
ROUTES
cat >"$WORK/pushpin/pushpin.conf" <<CONF
# Written by benches/load/fanout.sh: /etc/pushpin/pushpin.conf with loopback ports, the
# run and log dirs in the temp dir, and the delivery throttle off (message_rate: 2,500
# messages a second to all clients together by default; 0 is no limit), so that it does not
# limit the comparison. The Debian package
# expects zurl (Pushpin's outgoing HTTP client, which carries websocket-over-HTTP to the
# origin) to run as its own system service at /var/run/zurl; here the runner starts it and
# the proxy is pointed at its sockets in the run dir.
[global]
include={libdir}/internal.conf
rundir=$WORK/pushpin/run
ipc_prefix=bench-
port_offset=0
stats_connection_ttl=120

[runner]
services=condure,zurl,pushpin-proxy,pushpin-handler
http_port=127.0.0.1:$PP_HTTP
logdir=$WORK/pushpin/log
log_level=2
client_buffer_size=8192
client_maxconn=50000

[proxy]
zurl_out_specs=ipc://{rundir}/{ipc_prefix}zurl-in
zurl_out_stream_specs=ipc://{rundir}/{ipc_prefix}zurl-in-stream
zurl_in_specs=ipc://{rundir}/{ipc_prefix}zurl-out
routesfile=routes
debug=false
auto_cross_origin=false
updates_check=off
sig_iss=pushpin
sig_key=bench-$RANDOM$RANDOM

[handler]
push_in_spec=tcp://127.0.0.1:$PP_PUSH_IN
push_in_sub_specs=tcp://127.0.0.1:$PP_PUSH_SUB
push_in_sub_connect=false
push_in_http_addr=127.0.0.1
push_in_http_port=$PP_PUBLISH
push_in_http_max_headers_size=10000
push_in_http_max_body_size=1000000
stats_spec=ipc://{rundir}/{ipc_prefix}stats
command_spec=tcp://127.0.0.1:$PP_COMMAND
message_rate=0
message_hwm=1000000
message_wait=5000
id_cache_ttl=60
connection_subscription_max=20
subscription_linger=60
stats_subscription_ttl=60
stats_report_interval=10
stats_format=tnetstring
CONF
"${SERVER_PIN[@]}" "$TARGET_DIR/release/grip_origin" "$ORIGIN_PORT" bench "$ORIGIN_WORKERS" >"$WORK/origin.log" 2>&1 &
PIDS+=($!)
"${SERVER_PIN[@]}" pushpin --config "$WORK/pushpin/pushpin.conf" >"$WORK/pushpin.log" 2>&1 &
PUSHPIN_PID=$!
PIDS+=("$PUSHPIN_PID")
wait_for -X POST -H 'Content-Type: application/json' --data '{"items":[]}' "http://127.0.0.1:$PP_PUBLISH/publish/" ||
  { echo "pushpin's publish endpoint did not answer:" >&2; cat "$WORK/pushpin.log" >&2; exit 1; }
wait_for -X POST --data '' "http://127.0.0.1:$ORIGIN_PORT/" ||
  { echo "grip_origin did not start:" >&2; cat "$WORK/origin.log" >&2; exit 1; }
fi
echo "[${SECONDS}s] veranda (pid $VERANDA_PID${SHARED_PID:+, with Redis: pids $SHARED_PID})${WITH_PUSHPIN:+ and pushpin (pid $PUSHPIN_PID)} ready; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# Waits until a server has let go of the previous run's sockets (≤ 30 s).
settle() {
  local port=$1
  for _ in $(seq 1 60); do
    [ "$(ss -Htn state established "( sport = :$port )" 2>/dev/null | wc -l)" -le 2 ] && return 0
    sleep 0.5
  done
}

# One Veranda run: producer $1 with the subscribers split over the servers at ports $2 (a
# comma list) whose processes are $3 (a comma list), $4 subscribers at $5 events/s.
veranda_run() {
  local producer=$1 ports=$2 pids=$3 n=$4 rate=$5 addresses="" port extra=()
  for port in ${ports//,/ }; do
    settle "$port"
    addresses+="${addresses:+,}http://127.0.0.1:$port"
  done
  [ "$producer" = direct ] && extra=(--redis-url "$REDIS_URL")
  "${CLIENT_PIN[@]}" "$TARGET_DIR/release/fanout" veranda --address "$addresses" --session "$SESSION" \
    --producer "$producer" "${extra[@]}" --subscribers "$n" --rate "$rate" --seconds "$RUN_SECS" \
    --schedule "$SCHEDULE" --rss-pid "$pids" | tee -a "$WORK/rows"
  measured=$(tail -n1 "$WORK/rows" | sed -n 's/.* frame_bytes=\([0-9]*\).*/\1/p')
  [ -n "$measured" ] && [ "$measured" -ge 64 ] && FRAME_BYTES=$measured
  return 0
}

# The first $1 shared instances' ports and pids, as comma lists.
first_shared() {
  local k=$1
  SOME_PORTS=$(IFS=,; echo "${SHARED_PORTS[*]:0:$k}")
  SOME_PIDS=$(IFS=,; echo "${SHARED_PIDS[*]:0:$k}")
}

FRAME_BYTES=300
for n in ${SUBSCRIBERS//,/ }; do
  for rate in ${RATES//,/ }; do
    for producer in ${PRODUCERS//,/ }; do
      case $producer in
        edit) veranda_run edit "$PORT" "$VERANDA_PID" "$n" "$rate" ;;
        direct)
          for k in ${INSTANCES//,/ }; do
            first_shared "$k"
            veranda_run direct "$SOME_PORTS" "$SOME_PIDS" "$n" "$rate"
          done
          ;;
        *) echo "PRODUCERS: unknown producer '$producer' (edit or direct)" >&2; exit 2 ;;
      esac
    done
    if [ -n "$WITH_PUSHPIN" ]; then
      settle "$PP_HTTP"
      "${CLIENT_PIN[@]}" "$TARGET_DIR/release/fanout" pushpin --address "http://127.0.0.1:$PP_HTTP" \
        --publish "http://127.0.0.1:$PP_PUBLISH" --subscribers "$n" --rate "$rate" --seconds "$RUN_SECS" \
        --schedule "$SCHEDULE" --payload-bytes "$FRAME_BYTES" --rss-pid "$PUSHPIN_PID" | tee -a "$WORK/rows"
    fi
    echo "[${SECONDS}s] $n subscribers at $rate events/s done; load average: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  done
done

table() {
  echo "| server (producer) | instances | subscribers | offered events/s (achieved) | received / expected | delivered frames/s (per instance) | lost (open sockets) | sockets closed (frames they missed) | p50 | p99 | max | RSS before → peak (peak per instance) | frame | CPU per frame (ms per instance) |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk '/^RESULT / {
      delete v
      for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      printf "| %s (%s) | %d | %d (%d subscribed) | %d (%.1f) | %d / %d | %s (%s) | %d | %d (%d) | %s ms | %s ms | %s ms | %s → %s MiB (%s) | %d B | %s µs (%s) |\n",
        v["side"], v["producer"], v["instances"], v["subscribers"], v["ready"], v["rate"], v["achieved_rate"], v["received"],
        v["expected"], v["frames_per_sec"], v["frames_per_sec_per_instance"], v["lost"], v["closed"], v["closed_missing"],
        v["p50_ms"], v["p99_ms"], v["max_ms"], v["rss_idle_mib"], v["rss_peak_mib"], v["rss_peak_per_instance_mib"],
        v["frame_bytes"], v["cpu_us_per_frame"], v["cpu_ms_per_instance"]
    }' "$WORK/rows"
  echo
  echo "Highest rate of the sweep ($RATES events/s, $SCHEDULE loop) sustained with nothing lost, no socket closed, every subscriber subscribed and p99 ≤ $P99_BOUND_MS ms:"
  echo
  echo "| server (producer) | instances | subscribers | highest sustained events/s | its p99 | CPU per frame there |"
  echo "|---|---:|---:|---:|---:|---:|"
  awk -v bound="$P99_BOUND_MS" '/^RESULT / {
      delete v
      for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      key = v["side"] " (" v["producer"] ") | " v["instances"] " | " v["subscribers"]
      if (!(key in best)) { best[key] = 0; order[++n] = key }
      ok = v["lost"] == 0 && v["closed"] == 0 && v["ready"] == v["subscribers"] && v["p99_ms"] != "nan" && v["p99_ms"] + 0 <= bound + 0
      if (ok && v["rate"] + 0 > best[key]) { best[key] = v["rate"] + 0; p99[key] = v["p99_ms"]; cpu[key] = v["cpu_us_per_frame"] }
    }
    END {
      for (i = 1; i <= n; i++) {
        k = order[i]
        if (best[k] > 0) printf "| %s | %d | %s ms | %s µs |\n", k, best[k], p99[k], cpu[k]
        else printf "| %s | none of the sweep | — | — |\n", k
      }
    }' "$WORK/rows"
}
echo "[${SECONDS}s] runs done" >&2
echo
table | tee "${BENCH_OUT:-/dev/null}"
