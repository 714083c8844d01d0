#!/usr/bin/env bash
# The Windows build, run under Wine (scripts/install-wine.sh): the platform layer's own tests
# (folders, URIs, files only the user may read, a job object that ends its processes when
# Locus is killed), then `tests/wine`, which drives the x86_64-pc-windows-gnu `locus.exe` as
# the Linux suites drive Locus. Called by scripts/test.sh; docs/platforms.md says what it
# covers and what only a real Windows can.
set -euo pipefail
cd "$(dirname "$0")/.."
PEERS="${LOCUS_PEERS_DIR:-$PWD/target/peers}"
TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/x86_64-pc-windows-gnu/debug"
bash scripts/install-wine.sh
export WINEPREFIX="$PEERS/wine/prefix" WINEDEBUG=-all

# The platform layer's tests, run by Wine (the test binaries find the DLL beside them).
mkdir -p "$TARGET_DIR/deps"
cp "$PEERS/wine/bcryptprimitives.dll" "$TARGET_DIR/deps/"
CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine \
  cargo test --locked --quiet --target x86_64-pc-windows-gnu -p locus-platform

cargo build --locked -p locus-server --target x86_64-pc-windows-gnu
PATH="$PEERS/venv/bin:$PATH" LOCUS_WINDOWS_BIN="$TARGET_DIR/locus.exe" \
  "$PEERS/venv/bin/pytest" -q tests/wine
