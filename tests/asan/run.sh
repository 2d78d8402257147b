#!/usr/bin/env bash
# Runs the actors crate's tests under AddressSanitizer on the stable toolchain, and with
# ASAN_FUZZ=1 also every fuzz target over its seed corpus (each input run once).
#
#   tests/asan/run.sh                  the veranda-actors tests (unit and integration)
#   tests/asan/run.sh store::          only tests whose name contains `store::`
#   ASAN_FUZZ=1 tests/asan/run.sh      the tests, then the fuzz seed corpora
#
# `-Zsanitizer` is a nightly flag; RUSTC_BOOTSTRAP=1 lets the stable compiler accept it.
# The standard library is not rebuilt (that needs the rust-src component and
# -Zbuild-std), so code inside std is not instrumented; every crate compiled here is.
# Builds go to target/asan (and fuzz/target-asan), apart from the normal target dir, as
# instrumented and plain artifacts must not mix. ASan stops the process at the first
# invalid access and prints its report; the script then fails.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
HOST=$(rustc -vV | sed -n 's/^host: //p')

export RUSTC_BOOTSTRAP=1
export RUSTFLAGS="-Zsanitizer=address ${RUSTFLAGS:-}"
export RUSTDOCFLAGS="-Zsanitizer=address ${RUSTDOCFLAGS:-}"
# Leak reports from test harness threads still running at exit are noise; invalid
# accesses are what this run is for.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:strict_string_checks=1}"

# --target makes RUSTFLAGS apply to the crates under test only, not to build scripts and
# proc macros (which run inside the compiler and cannot be instrumented). Doc tests are
# skipped (--lib --tests): rustdoc would link them against an uninstrumented std.
echo "veranda-actors tests under AddressSanitizer (target/asan)"
cargo test --no-fail-fast --target "$HOST" --target-dir target/asan -p veranda-actors --lib --tests -- "$@"

if [ "${ASAN_FUZZ:-0}" = "1" ]; then
  CARGO_FUZZ=$(fuzz/cargo-fuzz.sh)
  cp Cargo.lock fuzz/Cargo.lock
  # cargo-fuzz adds its own -Zsanitizer=address; ours would be given twice.
  RUSTFLAGS="" "$CARGO_FUZZ" build -s address --target-dir fuzz/target-asan
  BIN="fuzz/target-asan/$HOST/release"
  for corpus in fuzz/corpus/*/; do
    target=$(basename "$corpus")
    echo "fuzz target $target: $(find "$corpus" -type f | wc -l) seed inputs under AddressSanitizer"
    "$BIN/$target" -runs=0 "$corpus"
  done
fi
echo "AddressSanitizer: no errors"
