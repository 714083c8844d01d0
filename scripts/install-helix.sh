#!/usr/bin/env bash
# Builds the real Helix 25.07.1 the end-to-end tests drive (tests/e2e/test_helix.py) from the
# vendored archive ../shared/vendor/helix-25.07.1.tar.gz (see ../shared/vendor/README.md),
# as a debug build, into a cache outside the clone keyed by the archive's sha256:
#
#   ${LOCUS_PEER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/locus-peers}/helix-<sha256>/
#     bin/hx       the editor
#     runtime/     its runtime (themes, queries, tutor); run hx with HELIX_RUNTIME pointing here
#     .locus-built the stamp of a finished build (the build tree is removed once it is done)
#
# Idempotent: a stamp file marks a finished build, and a second run only prints the path.
# Also installs tmux (apt-get) when it is missing, since the tests run hx inside tmux.
# On success the last line of stdout is the absolute path of hx; progress goes to stderr.
# Fails loudly (non-zero exit, a message on stderr) when anything is missing or the build fails.
#
# Environment:
#   LOCUS_HELIX_ARCHIVE  the archive to build (default: ../shared/vendor/helix-25.07.1.tar.gz)
#   LOCUS_PEER_CACHE     the cache folder (default: $XDG_CACHE_HOME/locus-peers)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION=25.07.1
ARCHIVE="${LOCUS_HELIX_ARCHIVE:-$ROOT/../shared/vendor/helix-$VERSION.tar.gz}"
CACHE_ROOT="${LOCUS_PEER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/locus-peers}"
LIB_NAME=install-helix
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"

# tmux first: it is cheap, and the tests need it whether or not hx was cached already.
command -v tmux >/dev/null 2>&1 || apt_install tmux

[ -f "$ARCHIVE" ] || fail "the Helix archive is missing: $ARCHIVE"
SHA="$(sha256sum "$ARCHIVE" | awk '{print $1}')"
DIR="$CACHE_ROOT/helix-$SHA"
HX="$DIR/bin/hx"
STAMP="$DIR/.locus-built"

built() { [ -f "$STAMP" ] && [ -x "$HX" ] && [ -d "$DIR/runtime" ]; }
# Built already: print hx and end. Else one build at a time (test runs in parallel may all call
# this): the others wait for it, then find it built.
cache_claim "$DIR" "$STAMP" built "$HX"

command -v cargo >/dev/null 2>&1 || fail "cargo is required to build Helix"

# Unpack afresh into a private folder, so a build interrupted half-way never leaves a mixed tree.
SRC="$DIR/src"
rm -rf "$SRC"
mkdir -p "$SRC"
echo "install-helix: unpacking $ARCHIVE" >&2
tar -xzf "$ARCHIVE" -C "$SRC"
TREE="$SRC/helix-$VERSION"
[ -d "$TREE" ] || fail "the archive did not hold helix-$VERSION/"

# The source pins Rust 1.82 in rust-toolchain.toml; build with the machine's stable toolchain.
# Grammars are fetched by git at run time, which this machine cannot do: skip that step.
# No debug info and no incremental cache: the build tree is thrown away below, and on a
# machine short of disk its peak is what counts (about 3 GB with them).
echo "install-helix: building Helix $VERSION (debug; this takes several minutes)" >&2
(
  cd "$TREE"
  RUSTUP_TOOLCHAIN=stable HELIX_DISABLE_AUTO_GRAMMAR_BUILD=1 CARGO_TARGET_DIR="$DIR/target" \
    CARGO_PROFILE_DEV_DEBUG=false CARGO_INCREMENTAL=0 cargo build --locked -p helix-term >&2
) || fail "cargo build of Helix $VERSION failed (see above)"

mkdir -p "$DIR/bin"
cp "$DIR/target/debug/hx" "$HX.tmp"
mv "$HX.tmp" "$HX"
rm -rf "$DIR/runtime"
cp -r "$TREE/runtime" "$DIR/runtime"

HELIX_RUNTIME="$DIR/runtime" "$HX" --version >&2 || fail "the built hx does not run"
# Keep only what runs: the build tree takes GBs, and caches (CI's too) should not hold it.
rm -rf "$DIR/target" "$SRC"
echo "$SHA" > "$STAMP"
echo "$HX"
