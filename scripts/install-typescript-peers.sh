#!/usr/bin/env bash
# Installs the TypeScript peers of the symbol-index benchmark (crates/locus-index/benches/
# typescript.py): typescript (tsserver, what VS Code's Ctrl+T asks through `navto`) and
# typescript-language-server (its LSP wrapper, answering `workspace/symbol` with `navto`),
# pinned, with npm into "$LOCUS_PEERS_DIR/typescript" (default target/peers/typescript), never
# globally. Not a test peer: no test needs them. typescript-language-server 5.x runs on the
# Node 20 that npm uses (6.x wants Node 22). Idempotent; prints the server's path last.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS="${LOCUS_PEERS_DIR:-$ROOT/target/peers}"
DIR="$PEERS/typescript"
PINS=(typescript@5.9.3 typescript-language-server@5.1.3)
want="${PINS[*]}"
SERVER="$DIR/node_modules/.bin/typescript-language-server"

if [ ! -x "$SERVER" ] || [ "$(cat "$DIR/.locus-version" 2>/dev/null)" != "$want" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-typescript-peers: npm (Node 20 or later) is required" >&2
    exit 1
  fi
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error "${PINS[@]}" >&2
  echo "$want" > "$DIR/.locus-version"
fi
echo "$SERVER"
