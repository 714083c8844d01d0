#!/usr/bin/env bash
# The cross toolchain: Rust's standard library for aarch64-apple-darwin, x86_64-apple-darwin,
# x86_64-pc-windows-gnu and aarch64-unknown-linux-gnu (rustup); zig (the PyPI package
# `ziglang`) as their C compiler, for the grammars' C sources (scripts/zig-cc.sh); and
# cargo-zigbuild (PyPI too), which links the release binaries with zig (scripts/package.sh).
# Both wheels are pinned by hash. Idempotent: a second run downloads nothing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS="${LOCUS_PEERS_DIR:-$ROOT/target/peers}"
ZIG="$PEERS/zig"
ZIG_VERSION="0.15.1"
# The manylinux x86_64 wheels of ziglang 0.15.1 and cargo-zigbuild 0.24.1.
ZIG_SHA256="4e45994a0e608d9b16ecad255698f5557a2e24de0bd7ba9efb156ab3f3683d9a"
ZIGBUILD_VERSION="0.24.1"
ZIGBUILD_SHA256="238a1ab54a95053a4eadc34775c81f795a8ad75f80bfed63f3f445f518102375"

if ! command -v rustup >/dev/null 2>&1; then
  echo "install-cross: rustup is required to add the macOS and Windows targets" >&2
  exit 1
fi
rustup target add aarch64-apple-darwin x86_64-apple-darwin x86_64-pc-windows-gnu \
  aarch64-unknown-linux-gnu >/dev/null

if [ "$("$ZIG/bin/python" -m ziglang version 2>/dev/null || true)" != "$ZIG_VERSION" ] ||
  [ "$("$ZIG/bin/cargo-zigbuild" --version 2>/dev/null || true)" != "cargo-zigbuild $ZIGBUILD_VERSION" ]; then
  rm -rf "$ZIG"
  python3 -m venv "$ZIG"
  printf 'ziglang==%s --hash=sha256:%s\ncargo-zigbuild==%s --hash=sha256:%s\n' \
    "$ZIG_VERSION" "$ZIG_SHA256" "$ZIGBUILD_VERSION" "$ZIGBUILD_SHA256" > "$ZIG/requirements.txt"
  "$ZIG/bin/pip" install --quiet --require-hashes --only-binary :all: -r "$ZIG/requirements.txt"
fi
echo "cross toolchain: $(rustup target list --installed | grep -vc x86_64-unknown-linux) foreign targets, zig $("$ZIG/bin/python" -m ziglang version), $("$ZIG/bin/cargo-zigbuild" --version)"
