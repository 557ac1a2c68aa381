#!/usr/bin/env bash
# End-to-end freshness benchmark: starts this checkout's service on loopback with a throwaway
# database, issues a developer key and runs the shared scorer (which serves the pages itself).
#   bench/freshness/e2e.sh [BENCH_DIR]     (default ../shared/benchmarks/freshness beside the checkout)
set -euo pipefail
cd "$(dirname "$0")/../.."
BENCH=${1:-${FRESHNESS_BENCH_DIR:-$PWD/../shared/benchmarks/freshness}}
BUN=$PWD/node_modules/.bin/bun
TMP=$(mktemp -d /tmp/freshness-e2e.XXXXXX)
PORT=${PORT:-$((20000 + RANDOM % 20000))}
export DATABASE_URL="sqlite:$TMP/db.sqlite" PORT HOST=127.0.0.1 ALLOW_PRIVATE_TARGETS=true LOG_LEVEL=warn
KEY=$("$BUN" src/main.ts keys create --org freshness-bench --plan developer 2>/dev/null | tail -1)
"$BUN" src/main.ts serve >"$TMP/serve.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
BUN=$BUN BASE="http://127.0.0.1:$PORT" KEY="$KEY" PEER=0 "$BENCH/run.sh"
