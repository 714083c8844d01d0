#!/usr/bin/env bash
# Type-checks every crate, tests included, for macOS (aarch64 and x86_64) and Windows
# (x86_64, GNU ABI), from this Linux machine: `cargo check` compiles the grammars' C sources
# with zig (scripts/install-cross.sh installs both toolchains) and links nothing, so no Apple
# SDK is needed. Building release binaries is not this script's job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-cross.sh
for pair in aarch64-apple-darwin:aarch64-macos x86_64-apple-darwin:x86_64-macos \
  x86_64-pc-windows-gnu:x86_64-windows-gnu; do
  target="${pair%%:*}"
  env "CC_${target//-/_}=$PWD/scripts/zig-cc.sh" "AR_${target//-/_}=$PWD/scripts/zig-ar.sh" \
    LOCUS_ZIG_TARGET="${pair##*:}" MACOSX_DEPLOYMENT_TARGET=11.0 \
    cargo check --workspace --all-targets --locked --quiet --target "$target"
  echo "type-checked for $target"
done
