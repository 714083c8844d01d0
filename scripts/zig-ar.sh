#!/usr/bin/env bash
# zig's archiver, as cc-rs calls one (AR_<target>) for a macOS target (scripts/zig-cc.sh).
set -euo pipefail
ZIG="${LOCUS_PEERS_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/peers}/zig"
exec "$ZIG/bin/python" -m ziglang ar "$@"
