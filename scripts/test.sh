#!/usr/bin/env bash
# Runs the whole test suite against real services: the embedded Neo4j (started here and
# stopped on exit, even on failure), Qdrant local mode, the bundled embedding model.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1

# docker-compose (Debian's package) validates docker-compose.yml without a Docker engine.
if ! command -v docker-compose >/dev/null 2>&1; then
  echo "== installing docker-compose (Debian) to validate docker-compose.yml"
  if command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null) \
      || echo "!! could not install docker-compose; the compose test will fail and say so"
  fi
fi

# Debian's chromium for the memory page's browser tests (Playwright drives it; it never
# downloads a browser of its own).
if ! command -v chromium >/dev/null 2>&1; then
  echo "== installing chromium (Debian) for the memory page's browser tests"
  if command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "!! could not install chromium; the memory page tests will fail (CI) or skip, saying so"
  fi
fi
# the page's JavaScript (pinned in wave_agent/web/static/package-lock.json)
if [ ! -d wave_agent/web/static/node_modules ] && command -v npm >/dev/null 2>&1; then
  npm ci --prefix wave_agent/web/static --no-audit --no-fund --loglevel=error || true
fi
# a second MCP client for the end-to-end tests: the MCP Inspector's CLI (pinned in
# tests/support/mcp-inspector/package-lock.json)
if [ ! -d tests/support/mcp-inspector/node_modules ] && command -v npm >/dev/null 2>&1; then
  npm ci --prefix tests/support/mcp-inspector --no-audit --no-fund --loglevel=error || true
fi

TEST_DATA=$(mktemp -d -t wave-test-XXXXXX)
export DATA_DIR="$TEST_DATA" NEO4J_PORT=${WAVE_TEST_NEO4J_PORT:-17687}
cleanup() {
  # DATA_DIR and NEO4J_PORT are unset before pytest: name this run's Neo4j explicitly.
  DATA_DIR="$TEST_DATA" NEO4J_PORT=${WAVE_TEST_NEO4J_PORT:-17687} \
    "$VENV/bin/wave" services down >/dev/null 2>&1 || true
  for hook in scripts/test.d/*.down; do [ -f "$hook" ] && bash "$hook" || true; done
  rm -rf "$TEST_DATA"
}
trap cleanup EXIT INT TERM

echo "== starting the embedded Neo4j on 127.0.0.1:$NEO4J_PORT"
"$VENV/bin/wave" services up --wait 240
export WAVE_TEST_NEO4J_URI="bolt://127.0.0.1:$NEO4J_PORT"

# Optional stacks (e.g. Letta) bring themselves up here and export their variables.
for hook in scripts/test.d/*.up; do
  [ -f "$hook" ] && source "$hook"
done

unset DATA_DIR NEO4J_PORT
"$VENV/bin/python" -m pytest "$@"
