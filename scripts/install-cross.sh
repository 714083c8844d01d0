#!/usr/bin/env bash
# The cross toolchain the test command type-checks the macOS and Windows targets with: Rust's
# standard library for aarch64-apple-darwin, x86_64-apple-darwin and x86_64-pc-windows-gnu
# (rustup), and zig (the PyPI package `ziglang`, pinned by its hash) as their C compiler, for
# the grammars' C sources (scripts/zig-cc.sh). Idempotent: a second run downloads nothing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS="${LOCUS_PEERS_DIR:-$ROOT/target/peers}"
ZIG="$PEERS/zig"
ZIG_VERSION="0.15.1"
# The manylinux x86_64 wheel of ziglang 0.15.1.
ZIG_SHA256="4e45994a0e608d9b16ecad255698f5557a2e24de0bd7ba9efb156ab3f3683d9a"

if ! command -v rustup >/dev/null 2>&1; then
  echo "install-cross: rustup is required to add the macOS and Windows targets" >&2
  exit 1
fi
rustup target add aarch64-apple-darwin x86_64-apple-darwin x86_64-pc-windows-gnu >/dev/null

if [ "$("$ZIG/bin/python" -m ziglang version 2>/dev/null || true)" != "$ZIG_VERSION" ]; then
  rm -rf "$ZIG"
  python3 -m venv "$ZIG"
  printf 'ziglang==%s --hash=sha256:%s\n' "$ZIG_VERSION" "$ZIG_SHA256" > "$ZIG/requirements.txt"
  "$ZIG/bin/pip" install --quiet --require-hashes --only-binary :all: -r "$ZIG/requirements.txt"
fi
echo "cross toolchain: $(rustup target list --installed | grep -c -e apple-darwin -e windows-gnu) targets, zig $("$ZIG/bin/python" -m ziglang version)"
