#!/usr/bin/env bash
# What the Windows suite (tests/wine) runs Locus's Windows build with: Debian's Wine (wine64)
# and mingw-w64, which links the x86_64-pc-windows-gnu build and builds the one DLL Debian's
# Wine lacks (tests/wine/bcryptprimitives.c). Makes a Wine prefix under the peers folder.
# Idempotent: a second run installs and builds nothing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS="${LOCUS_PEERS_DIR:-$ROOT/target/peers}"
WINE_DIR="$PEERS/wine"

LIB_NAME=install-wine
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
missing=()
command -v wine >/dev/null 2>&1 || missing+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-x86-64)
[ "${#missing[@]}" -eq 0 ] || DEBIAN_FRONTEND=noninteractive apt_install "${missing[@]}"
command -v winepath >/dev/null 2>&1 || fail "wine64 is installed but winepath is not on PATH"
rustup target add x86_64-pc-windows-gnu >/dev/null 2>&1

mkdir -p "$WINE_DIR"
SHIM="$WINE_DIR/bcryptprimitives.dll"
if [ ! -f "$SHIM" ] || [ "$ROOT/tests/wine/bcryptprimitives.c" -nt "$SHIM" ]; then
  x86_64-w64-mingw32-gcc -shared -O2 -o "$SHIM" "$ROOT/tests/wine/bcryptprimitives.c" -ladvapi32
fi
export WINEPREFIX="$WINE_DIR/prefix" WINEDEBUG=-all
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  wineboot -i >/dev/null 2>&1
fi
echo "wine: $(wine --version 2>/dev/null), prefix $WINEPREFIX, shim $SHIM"
