#!/usr/bin/env bash
# Builds Locus for release on each platform it ships to, from this Linux machine, and packages
# each build twice: an archive of the binary and a VS Code extension (VSIX) holding it.
#
#   scripts/package.sh                 all five: linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64
#   scripts/package.sh darwin-arm64    only the targets named (VS Code's names)
#
# Writes into target/dist/ (or $LOCUS_DIST_DIR):
#   locus-<version>-<rust triple>.tar.gz   (.zip for Windows): the binary and README.md
#   locus-<version>-<vscode target>.vsix
#   SHA256SUMS                             of every archive and VSIX there
#
# Every binary is linked by zig through cargo-zigbuild (scripts/install-cross.sh): the Linux
# ones against glibc 2.28, so they run on any distribution since 2018; the macOS ones with
# notify's kqueue watcher (the `macos-kqueue` feature), because FSEvents needs Apple's SDK,
# which this machine does not have. Each release build takes 10 to 20 minutes here.
# scripts/check-packages.sh installs the VSIXes into code-server and checks them.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PEERS="${LOCUS_PEERS_DIR:-$ROOT/target/peers}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
DIST="${LOCUS_DIST_DIR:-$TARGET/dist}"
LIB_NAME=package
source "$ROOT/scripts/lib.sh"

# VS Code's target name → the Rust triple cargo-zigbuild builds (a glibc version after the dot).
declare -A TRIPLE=(
  [linux-x64]=x86_64-unknown-linux-gnu.2.28
  [linux-arm64]=aarch64-unknown-linux-gnu.2.28
  [darwin-x64]=x86_64-apple-darwin
  [darwin-arm64]=aarch64-apple-darwin
  [win32-x64]=x86_64-pc-windows-gnu
)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64)
for t in "${targets[@]}"; do
  [ -n "${TRIPLE[$t]:-}" ] || fail "unknown target $t; one of: ${!TRIPLE[*]}"
done

bash scripts/install-cross.sh >&2
command -v npm >/dev/null 2>&1 || fail "npm (Node 20) is required to package the VS Code extension"
# cargo-zigbuild runs zig as `python3 -m ziglang` from the venv install-cross.sh made.
export PATH="$PEERS/zig/bin:$PATH" MACOSX_DEPLOYMENT_TARGET=11.0
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)"
mkdir -p "$DIST"
(cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error >&2)

for t in "${targets[@]}"; do
  zig_triple="${TRIPLE[$t]}"
  features=()
  case "$t" in darwin-*) features=(--features macos-kqueue) ;; esac
  echo "package: building ${zig_triple%.2.28} for $t" >&2
  cargo zigbuild --release --locked -p locus-server --target "$zig_triple" "${features[@]}" >&2
done

# The manifest's tools are checked against a binary of this source this machine runs (the
# binaries of other systems cannot be asked): the Linux x86-64 build when it was made, else
# the checkout's own release build. The extension is bundled once for every VSIX.
host="$TARGET/release/locus"
if [[ " ${targets[*]} " == *" linux-x64 "* ]]; then
  host="$TARGET/x86_64-unknown-linux-gnu/release/locus"
else
  cargo build --release --locked -p locus-server >&2
fi
(cd editors/vscode && LOCUS_VSCODE_BINARY="$host" npm run --silent tools:check >&2 &&
  npm run --silent typecheck >&2 && npm run --silent bundle >&2)

for t in "${targets[@]}"; do
  triple="${TRIPLE[$t]%.2.28}"
  exe=locus
  case "$t" in win32-*) exe=locus.exe ;; esac
  binary="$TARGET/$triple/release/$exe"
  [ -f "$binary" ] || fail "cargo-zigbuild left no $binary"

  # The archive: one folder named like the archive, as release archives usually hold.
  name="locus-$version-$triple"
  stage="$(mktemp -d)"
  mkdir "$stage/$name"
  cp "$binary" README.md "$stage/$name/"
  case "$t" in
    win32-*) (cd "$stage" && rm -f "$DIST/$name.zip" && python3 -m zipfile -c "$DIST/$name.zip" "$name") ;;
    *) tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$DIST/$name.tar.gz" "$name" ;;
  esac
  rm -rf "$stage"

  (cd editors/vscode && LOCUS_VSCODE_BINARY="$binary" node scripts/package.mjs --target "$t" \
    --out "$DIST/locus-$version-$t.vsix" >&2)
done

(cd "$DIST" && shopt -s nullglob && files=(*.tar.gz *.zip *.vsix) && sha256sum -- "${files[@]}" > SHA256SUMS)
echo "package: $(wc -l < "$DIST/SHA256SUMS") files in $DIST" >&2
cat "$DIST/SHA256SUMS"
