# Veranda: the two commands of the README, and their parts.
#   make run   builds the client and serves the demo site on http://127.0.0.1:8080/
#   make test  installs what the tests need, then runs every test

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
CARGO ?= cargo
DEBIAN_PACKAGES := chromium redis-server prometheus nginx-light systemd openssl
VERANDA_BIN := target/debug/veranda
# The RustSec advisory database, a checked-out copy read offline (see audit.toml).
ADVISORY_DB ?= ../shared/advisory-db

.PHONY: run test deps system-deps client-deps client e2e-deps lighthouse-deps rust-build rust-fmt rust-test client-test e2e-test lighthouse-test openapi-test fuzz-test check-site

run: client-deps client
	$(CARGO) run --release -p veranda-server -- serve

test: deps client
	$(MAKE) rust-test client-test e2e-test lighthouse-test openapi-test fuzz-test

deps: system-deps client-deps e2e-deps lighthouse-deps

# Debian packages the tests start: Chromium (browser tests), redis-server, promtool, and the
# checkers of the deployment files: nginx -t, systemd-analyze, openssl (a test certificate).
system-deps:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	command -v promtool >/dev/null || missing="$$missing prometheus"; \
	command -v nginx >/dev/null || missing="$$missing nginx-light"; \
	command -v systemd-analyze >/dev/null || missing="$$missing systemd"; \
	command -v openssl >/dev/null || missing="$$missing openssl"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

client-deps:
	cd client && npm ci --no-audit --no-fund --loglevel=error

e2e-deps:
	cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error

lighthouse-deps:
	cd tests/lighthouse && npm ci --no-audit --no-fund --loglevel=error

client:
	cd client && npm run build

# Every Rust target the tests use, built once: the test binaries and, as cargo builds them for
# the integration tests beside them, target/debug/veranda (which the API, browser, Lighthouse and
# OpenAPI tests start) and target/debug/veranda-audit. A separate `cargo build` would resolve
# other features (no dev-dependencies) and compile the shared crates a second time.
rust-build:
	$(CARGO) test --workspace --no-run

rust-fmt:
	$(CARGO) fmt --all --check

rust-test: rust-fmt rust-build
	target/debug/veranda-audit --db $(ADVISORY_DB) --lockfile Cargo.lock --policy audit.toml
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --workspace --document-private-items
	VERANDA_BIN=$(abspath $(VERANDA_BIN)) $(CARGO) test --workspace --no-fail-fast

client-test:
	cd client && npm run typecheck && npm test

e2e-test: rust-build
	cd tests/e2e && VERANDA_BIN=../../$(VERANDA_BIN) npm test

# Lighthouse (mobile preset) on three demo pages (/, /shop, /gallery-designs): accessibility must be 100; the performance
# figures land in target/lighthouse.json (recorded in benches/reports/client.md, not asserted).
lighthouse-test: rust-build
	cd tests/lighthouse && VERANDA_BIN=../../$(VERANDA_BIN) npm test

# schemathesis (PyPI, in .venv-schemathesis/) against the served OpenAPI document: no 5xx,
# answers as documented, invalid input refused with a 4xx.
openapi-test: rust-build
	VERANDA_BIN=$(VERANDA_BIN) tests/openapi/run.sh

# cargo-fuzz (installed into ~/.cargo/bin when missing) over the five targets of fuzz/, each for FUZZ_SECONDS
# from the seed corpora in fuzz/corpus/; any crash fails the run with the input's path.
fuzz-test:
	FUZZ_SECONDS=$${FUZZ_SECONDS:-20} fuzz/run.sh

check-site:
	$(CARGO) run -q -p veranda-server -- check-site config/sites/demo
