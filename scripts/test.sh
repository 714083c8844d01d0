#!/usr/bin/env bash
# Runs every test of the project: the README's test command, and what CI runs.
#
# The Rust suites need nothing beyond the toolchain and ../shared beside the repository
# (the fidelity test reads ../shared/corpus). End-to-end suites that drive real peers
# (an LSP client, Neovim) install those peers through scripts/install-test-peers.sh and
# fail loudly when a peer is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d ../shared/corpus ]; then
  echo "error: ../shared/corpus is missing; clone the repository beside shared/ (see README.md)" >&2
  exit 1
fi

if command -v cargo-nextest >/dev/null 2>&1; then
  cargo nextest run --workspace --no-fail-fast "$@"
else
  cargo test --workspace --no-fail-fast "$@"
fi
cargo test --workspace --doc
