#!/usr/bin/env bash
# Builds every fuzz target once and runs each for a bounded time; fails on any crash and
# prints the crashing input's path.
#
#   fuzz/run.sh                   every target, FUZZ_SECONDS (default 30) each, a target a core
#   fuzz/run.sh money_format      only the targets named
#   FUZZ_SECONDS=300 fuzz/run.sh  a longer manual run
#
# Works on the stable toolchain: cargo-fuzz builds without a sanitizer (`-s none`), which
# needs no nightly flags; panics (failed assertions) are what the targets report.
# cargo-fuzz is the one on PATH, or installed into ~/.cargo/bin (fuzz/cargo-fuzz.sh). Builds go to
# fuzz/target, so the main target directory is untouched. New inputs the fuzzer finds go
# to fuzz/target/run-corpus/<target>; the seed corpus in fuzz/corpus/<target> is only read.
# A crash is written to fuzz/artifacts/<target>/; to keep it as a regression seed, copy
# it into fuzz/corpus/<target>/ named regression-<what>.
set -euo pipefail

FUZZ_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$FUZZ_DIR")
SECONDS_EACH=${FUZZ_SECONDS:-30}
TARGETS=(visitor_cookie form_payload block_json money_format site_loader)
if [ $# -gt 0 ]; then TARGETS=("$@"); fi

CARGO_FUZZ=$("$FUZZ_DIR/cargo-fuzz.sh")

cd "$ROOT"
# The fuzz workspace resolves the same dependency versions as the main one: its lock file
# starts as a copy of the main Cargo.lock, and cargo only adds the fuzzing crates to it.
cp Cargo.lock fuzz/Cargo.lock
# altcha-lib-rs accepts any sha2 0.x. The main lock keeps it on the version its hmac needs
# (0.10), but without the server's crates (rust-embed brings sha2 0.11) cargo would move it
# to the newest one the copied lock names; put it back on the main lock's version.
altcha_sha2=$(awk '/^name = "altcha-lib-rs"/,/^$/' Cargo.lock | grep -o '"sha2 [0-9.]*"' | tr -d '"' | cut -d' ' -f2)
cargo metadata -q --manifest-path fuzz/Cargo.toml --format-version 1 >/dev/null
fuzz_sha2=$(awk '/^name = "sha2"/{getline; print}' fuzz/Cargo.lock | grep -o '[0-9][0-9.]*' | head -1)
if [ -n "$altcha_sha2" ] && [ -n "$fuzz_sha2" ] && [ "$altcha_sha2" != "$fuzz_sha2" ]; then
  cargo update -q --manifest-path fuzz/Cargo.toml -p "sha2@$fuzz_sha2" --precise "$altcha_sha2"
fi
echo "building ${#TARGETS[@]} fuzz target(s)"
# Two codegen units instead of cargo-fuzz's one: veranda-actors, the last crate built and
# most of the build, is then compiled on both cores (126 s instead of 166).
"$CARGO_FUZZ" build -s none --codegen-units 2 --target-dir fuzz/target
BIN="$FUZZ_DIR/target/x86_64-unknown-linux-gnu/release"

# Each fuzzer is one process on one core: run as many at a time as there are cores
# (FUZZ_JOBS to change), each with its own log, and report them in the order named.
JOBS=${FUZZ_JOBS:-$(nproc)}
STATUS="$FUZZ_DIR/target/status"
rm -rf "$STATUS"
mkdir -p "$STATUS"

# Runs one target; its exit status goes to $STATUS/<target>.
fuzz_one() {
  local target=$1
  local seeds="$FUZZ_DIR/corpus/$target"
  local found="$FUZZ_DIR/target/run-corpus/$target"
  local artifacts="$FUZZ_DIR/artifacts/$target"
  local log="$FUZZ_DIR/target/$target.log"
  mkdir -p "$found" "$artifacts"
  # -timeout: one input taking over 10 s counts as a crash (a hang); -rss_limit_mb bounds memory.
  local status=0
  "$BIN/$target" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$found" "$seeds" >"$log" 2>&1 || status=$?
  echo "$status" >"$STATUS/$target"
}

echo "fuzzing ${#TARGETS[@]} target(s) for ${SECONDS_EACH}s each, $JOBS at a time"
running=0
for target in "${TARGETS[@]}"; do
  if [ "$running" -ge "$JOBS" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_one "$target" &
  running=$((running + 1))
done
wait

failed=()
for target in "${TARGETS[@]}"; do
  log="$FUZZ_DIR/target/$target.log"
  if [ "$(cat "$STATUS/$target" 2>/dev/null || echo missing)" = 0 ]; then
    echo "$target: $(grep -E '^(Done|#[0-9]+ +DONE)' "$log" | tail -1 || true)"
  else
    echo "FAILED: $target" >&2
    grep -E "panicked|ERROR|SUMMARY" "$log" | head -5 >&2 || true
    crash=$(grep -oE "Test unit written to [^ ]+" "$log" | sed 's/Test unit written to //' | tail -1)
    echo "crashing input: ${crash:-see $log}" >&2
    failed+=("$target")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found crashes in: ${failed[*]}" >&2
  exit 1
fi
echo "all ${#TARGETS[@]} fuzz target(s) ran ${SECONDS_EACH}s each without a crash"
