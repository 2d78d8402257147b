#!/usr/bin/env bash
# Pushed-edit latency (manual; never run in CI): how long after an edit's 2xx each
# subscriber of the edits stream receives the edit's event.
#
# Builds release binaries, stores an owner session in a fresh data dir, starts `veranda
# serve` (demo site) with lib.sh, then runs `edit_latency` (benches/src/bin/edit_latency.rs):
# for N = 1, 10 and 100 subscribers (websockets to /api/streams/edits as the owner) it
# applies $EDITS content edits to the demo's About text block, one after another, and
# times every delivery from the edit's 2xx. Loopback only. Stops everything it started.
#
#   benches/load/edit_latency.sh                            # from the workspace root
#   EDITS=50 SUBSCRIBERS=1,10 benches/load/edit_latency.sh  # shorter
#   SKIP_BUILD=1 benches/load/edit_latency.sh               # release binaries already built
#
# Output: one RESULT line per subscriber count, then a Markdown table.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BENCH_DIR="$ROOT/benches/load"
EDITS=${EDITS:-200}
SUBSCRIBERS=${SUBSCRIBERS:-1,10,100}
BUDGET_SECS=${BUDGET_SECS:-300}

command -v curl >/dev/null || { echo "curl is missing" >&2; exit 2; }

# shellcheck source=benches/load/lib.sh
source "$BENCH_DIR/lib.sh"
if [ -z "${SKIP_BUILD:-}" ]; then
  bench_build
  (cd "$ROOT" && cargo build --release -p veranda-benches --bin edit_latency)
fi
bench_begin "$BUDGET_SECS"

cat >"$WORK/veranda.toml" <<CONF
# Written by benches/load/edit_latency.sh: the defaults of config/veranda.toml except a
# short shutdown wait so the run stops promptly.
shutdown_timeout_secs = 2
CONF

SESSION="bench-owner-$RANDOM$RANDOM"
"$TARGET_DIR/release/edit_latency" seed-session "$WORK/data" "$SESSION"
start_servers "$WORK/veranda.toml"

timeout $((BUDGET_SECS - 10)) "$TARGET_DIR/release/edit_latency" run --address "http://127.0.0.1:$PORT" \
  --session "$SESSION" --subscribers "$SUBSCRIBERS" --edits "$EDITS" | tee "$WORK/result.txt"
if [ -n "${BENCH_OUT:-}" ]; then cp "$WORK/result.txt" "$BENCH_OUT"; fi
