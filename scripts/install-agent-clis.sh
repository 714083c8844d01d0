#!/usr/bin/env bash
# Installs the agent CLIs the agent end-to-end tests run (tests/e2e/test_agent_*.py), at the
# versions tests/e2e/agents/package.json pins, into $LOCUS_PEERS_DIR/agents (default
# target/peers/agents); prints the folder of their executables last. Never global.
#
# Claude Code and Codex ship native executables in per-platform packages that npm picks as
# optional dependencies; Gemini CLI runs on Node 20. Nothing here talks to a model: the tests
# point each CLI at a local stand-in for its vendor's API (tests/e2e/agents/model_stub.py).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS="${LOCUS_PEERS_DIR:-$ROOT/target/peers}"
DIR="$PEERS/agents"
LIB_NAME=install-agent-clis
source "$ROOT/scripts/lib.sh"

command -v npm >/dev/null 2>&1 || fail "npm (Node 20) is required for the agent CLIs"
want="$(cat "$ROOT/tests/e2e/agents/package.json")"
if [ "$(cat "$DIR/.locus-pins" 2>/dev/null)" != "$want" ] || [ ! -x "$DIR/node_modules/.bin/claude" ]; then
  rm -rf "$DIR"
  mkdir -p "$DIR"
  cp "$ROOT/tests/e2e/agents/package.json" "$DIR/package.json"
  (cd "$DIR" && npm install --no-audit --no-fund --loglevel=error) >&2
  printf '%s' "$want" > "$DIR/.locus-pins"
fi
for cli in claude codex gemini; do
  [ -x "$DIR/node_modules/.bin/$cli" ] || fail "$cli is missing from $DIR after npm install"
  echo "$cli: $("$DIR/node_modules/.bin/$cli" --version 2>/dev/null | head -n1)" >&2
done
echo "$DIR/node_modules/.bin"
