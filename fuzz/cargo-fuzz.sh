#!/usr/bin/env bash
# Prints the path of cargo-fuzz: the one on PATH, or, when there is none, the one
# `cargo install` puts into cargo's bin folder (~/.cargo/bin), once for the machine.
# Used by fuzz/run.sh and tests/asan/run.sh.
set -euo pipefail
VERSION=0.13.2
if command -v cargo-fuzz; then exit 0; fi
echo "installing cargo-fuzz $VERSION (cargo install, into cargo's bin folder)" >&2
cargo install --locked --version "$VERSION" cargo-fuzz >&2
echo "${CARGO_HOME:-$HOME/.cargo}/bin/cargo-fuzz"
