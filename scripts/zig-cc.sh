#!/usr/bin/env bash
# zig's C compiler for another system, as cc-rs calls a C compiler (CC_<target>): the target
# is $LOCUS_ZIG_TARGET (aarch64-macos, x86_64-macos, x86_64-windows-gnu). The flags cc-rs adds for Apple's clang
# (`-arch arm64`, `--target=…`, `-mmacosx-version-min=…`) are dropped: zig takes the target from
# `-target` and the version from MACOSX_DEPLOYMENT_TARGET.
set -euo pipefail
args=()
skip=0
for a in "$@"; do
  if [ "$skip" = 1 ]; then skip=0; continue; fi
  case "$a" in
    -arch) skip=1 ;;
    --target=*|-mmacosx-version-min=*) ;;
    *) args+=("$a") ;;
  esac
done
ZIG="${LOCUS_PEERS_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/peers}/zig"
exec "$ZIG/bin/python" -m ziglang cc -target "${LOCUS_ZIG_TARGET:?set LOCUS_ZIG_TARGET}" "${args[@]}"
