#!/usr/bin/env bash
# Runs every test of the project: the README's test command, and what CI runs.
#
# The Rust suites need nothing beyond the toolchain (with rustfmt and clippy) and ../shared
# beside the repository (the fidelity test and benchmarks read ../shared/corpus). End-to-end suites that drive real peers
# (an LSP client, Neovim) install those peers through scripts/install-test-peers.sh and
# fail loudly when a peer is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d ../shared/corpus ]; then
  echo "error: ../shared/corpus is missing; clone the repository beside shared/ (see README.md)" >&2
  exit 1
fi

# Formatting and lints first: a diff that is not rustfmt-clean or that clippy warns about
# fails here, before the long suites (rustfmt.toml and [workspace.lints] say what is checked).
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings

# The real peers, installed before any suite: some Rust suites drive them too (locus-dap's
# tests run debugpy, lldb-dap, Delve and js-debug). A missing peer fails its suite, it is never
# skipped.
bash scripts/install-test-peers.sh
bash scripts/install-debug-adapters.sh
bash scripts/install-vscode-peers.sh  # code-server, Node 24, playwright-core, chromium (tests/e2e/test_vscode.py)
PEERS_BIN="${LOCUS_PEERS_DIR:-$PWD/target/peers}/venv/bin"

if command -v cargo-nextest >/dev/null 2>&1; then
  cargo nextest run --workspace --no-fail-fast "$@"
else
  cargo test --workspace --no-fail-fast "$@"
fi
cargo test --workspace --doc

# End-to-end suites against real peers (Neovim 0.11 and Helix 25.07.1 driving `locus lsp`; the
# Python MCP SDK and the MCP Inspector against `locus mcp` and the sidecar).
cargo build -p locus-server
(cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error && npm test)  # the VS Code extension's unit tests (forwarding runs target/debug/locus)
PATH="$PEERS_BIN:$PATH" LOCUS_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/locus" \
  "$PEERS_BIN/pytest" -q tests/e2e
