#!/usr/bin/env bash
# schemathesis against a real `veranda serve` of the demo site, driven by the OpenAPI
# document the server serves at /api/openapi.json (kept in server/openapi/openapi.json).
#
# Usage: tests/openapi/run.sh            (after `make rust-build`: target/debug/veranda)
#
#   VERANDA_BIN      the binary (default target/debug/veranda)
#   MAX_EXAMPLES     generated cases per operation and phase (default 8)
#   RUN_TIMEOUT      hard limit in seconds for the server and every schemathesis run
#                    (default 280; installing schemathesis has its own limit)
#   SEED             schemathesis seed (default: a fixed one, so runs are reproducible)
#   SCHEMA           the document to test with (default: the one the server serves)
#
# Three runs, each bounded (--max-examples) and the whole under `timeout`:
#   1. anonymous: every operation as a visitor without cookies (auth refusals, crumb
#      refusals, bad input);
#   2. owner: a signed-in owner session and a valid crumb (cookie + X-CSRF-Token) on
#      every request, so signed-in and state-changing routes are exercised past 401/403
#      (signing out is left out of this run: it would end the session it relies on);
#   3. ops: /health/live on the ops listener.
# Checks: no 5xx (not_a_server_error), answers documented (status code, content type),
# schema-invalid input refused with a 4xx (negative_data_rejection), and 405 for
# undescribed methods (unsupported_method). Exits non-zero when any run fails.
#
# The server binds 127.0.0.1 only, on free ports, with a temporary data dir; it is
# stopped (SIGTERM) and the data dir removed on exit. The venv is .venv-schemathesis/.
set -euo pipefail
trap 'echo "run.sh: failed at line $LINENO" >&2' ERR

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BIN=${VERANDA_BIN:-$ROOT/target/debug/veranda}
VENV=$ROOT/.venv-schemathesis
SCHEMATHESIS_VERSION=4.32.5
MAX_EXAMPLES=${MAX_EXAMPLES:-8}
RUN_TIMEOUT=${RUN_TIMEOUT:-280}
SEED=${SEED:-20261123}
REPORT_DIR=${REPORT_DIR:-$ROOT/target/schemathesis}

if [[ -z "${_VERANDA_OPENAPI_INNER:-}" ]]; then
    [[ -x "$BIN" ]] || { echo "run.sh: no binary at $BIN (make rust-build)" >&2; exit 2; }
    if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
        echo "run.sh: installing schemathesis $SCHEMATHESIS_VERSION into $VENV"
        python3 -m venv "$VENV"
        timeout 300 "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
    fi
    export _VERANDA_OPENAPI_INNER=1
    exec timeout --kill-after=10 "$RUN_TIMEOUT" "$0" "$@"
fi

ST=$VENV/bin/schemathesis
PY=$VENV/bin/python
DATA=$(mktemp -d)
WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$DATA" "$WORK"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
OPS_PORT=$(free_port)
BASE=http://127.0.0.1:$PORT
SCHEMA=${SCHEMA:-$BASE/api/openapi.json}
OPS=http://127.0.0.1:$OPS_PORT

# The owner account, created before the server opens the (single-process) store.
EMAIL=owner@example.com
PASSWORD=$("$PY" -c 'import secrets; print(secrets.token_urlsafe(18))')
CLEAN_ENV=(env -u RUST_LOG)
for name in $(env | grep -o '^VERANDA_[A-Za-z0-9_]*' || true); do CLEAN_ENV+=(-u "$name"); done
printf '%s\n' "$PASSWORD" | "${CLEAN_ENV[@]}" "$BIN" user add --email "$EMAIL" --role owner --data-dir "$DATA" >/dev/null

"${CLEAN_ENV[@]}" "$BIN" serve --listen "127.0.0.1:$PORT" --ops-listen "127.0.0.1:$OPS_PORT" \
    --site "$ROOT/config/sites/demo" --data-dir "$DATA" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 300); do
    curl -fs "$OPS/health/ready" >/dev/null 2>&1 && break
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "run.sh: the server exited:" >&2; cat "$WORK/server.log" >&2; exit 2; }
    sleep 0.1
done
curl -fs "$OPS/health/ready" >/dev/null || { echo "run.sh: the server did not become ready" >&2; exit 2; }

# A crumb from the login page, then a real sign-in: the session cookie and the new crumb.
curl -fs -c "$WORK/jar" "$BASE/account/login" >/dev/null
CRUMB=$(awk '$6 == "crumb" { print $7 }' "$WORK/jar")
[[ -n "$CRUMB" ]] || { echo "run.sh: the login page set no crumb cookie" >&2; exit 2; }
curl -fs -b "$WORK/jar" -c "$WORK/jar" -H "X-CSRF-Token: $CRUMB" -H 'Content-Type: application/json' \
    --data "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\"}" "$BASE/api/site-users/account/session" >/dev/null
CRUMB=$(awk '$6 == "crumb" { print $7 }' "$WORK/jar")
SESSION=$(awk '$6 == "veranda_session" { print $7 }' "$WORK/jar")
[[ -n "$SESSION" ]] || { echo "run.sh: signing in set no session cookie" >&2; exit 2; }
curl -fs -H "Cookie: veranda_session=$SESSION" "$BASE/api/site-users/account" | grep -q '"owner":true' \
    || { echo "run.sh: the owner session does not answer as the owner" >&2; exit 2; }

CHECKS=not_a_server_error,status_code_conformance,content_type_conformance,negative_data_rejection,unsupported_method
COMMON=(--checks "$CHECKS" --max-examples "$MAX_EXAMPLES" --seed "$SEED" --workers 1 --request-timeout 10
        --suppress-health-check all --no-shrink --warnings off)
mkdir -p "$REPORT_DIR"
status=0

echo "== schemathesis: anonymous"
"$ST" --config-file "$ROOT/tests/openapi/anonymous.toml" run "$SCHEMA" --url "$BASE" "${COMMON[@]}" \
    --exclude-path /health/live --exclude-path-regex '^/api/google-maps/' \
    --report junit --report-junit-path "$REPORT_DIR/anonymous.xml" || status=1

echo "== schemathesis: signed-in owner with a valid crumb"
VERANDA_ST_SESSION=$SESSION VERANDA_ST_CRUMB=$CRUMB "$ST" --config-file "$ROOT/tests/openapi/owner.toml" \
    run "$SCHEMA" --url "$BASE" "${COMMON[@]}" \
    --exclude-path /health/live --exclude-operation-id signOut --exclude-operation-id logout \
    --exclude-path-regex '^/api/google-maps/' \
    --report junit --report-junit-path "$REPORT_DIR/owner.xml" || status=1

# The place-search proxy answers its documented 503 while the site has no Google Maps key
# (the demo site has none, and the network is closed): every check but "no 5xx" applies.
echo "== schemathesis: place search without a key"
"$ST" --config-file "$ROOT/tests/openapi/anonymous.toml" run "$SCHEMA" --url "$BASE" "${COMMON[@]}" \
    --include-path-regex '^/api/google-maps/' --exclude-checks not_a_server_error \
    --report junit --report-junit-path "$REPORT_DIR/google-maps.xml" || status=1

echo "== schemathesis: ops listener"
"$ST" --config-file "$ROOT/tests/openapi/anonymous.toml" run "$SCHEMA" --url "$OPS" "${COMMON[@]}" \
    --include-path /health/live --exclude-checks unsupported_method || status=1

if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "run.sh: the server died during the run:" >&2
    tail -50 "$WORK/server.log" >&2
    status=1
fi
if grep -q 'panicked' "$WORK/server.log"; then
    echo "run.sh: the server panicked:" >&2
    grep -A5 'panicked' "$WORK/server.log" >&2
    status=1
fi
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || { echo "run.sh: the server did not stop cleanly" >&2; status=1; }
SERVER_PID=
exit $status
