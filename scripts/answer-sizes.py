#!/usr/bin/env python3
"""Measures the bytes of Locus's answers on the largest registry files the tests read (the
table "Answer sizes" of docs/performance.md): each tool that reads a file or searches, called
with `locus call` in the test-data folder, its envelope measured as compact JSON.

usage: scripts/answer-sizes.py [LOCUS_BINARY]   (default target/debug/locus; the test data
must be fetched: scripts/fetch-test-data.py)
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCUS = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target" / "debug" / "locus")
DATA = Path(os.environ.get("LOCUS_TEST_DATA", Path.home() / ".cache" / "locus" / "test-data")) / "files"

CALLS = [
    ("symbol_outline", {"path": "py/mypy__mypy_checker.py"}),
    ("symbol_outline", {"path": "ts/typescript__lib_lib.dom.d.ts"}),
    ("symbol_outline", {"path": "ts/typescript__lib_lib.dom.d.ts", "maxDepth": 1}),
    ("symbol_scope_at", {"path": "py/mypy__mypy_checker.py", "line": 5000}),
    ("symbol_search", {"query": "check"}),
    ("symbol_search", {"query": "Element", "limit": 200}),
    ("mcp_list_tools", {}),
]


def main():
    if not DATA.is_dir():
        sys.exit(f"no test data at {DATA}: run scripts/fetch-test-data.py")
    (DATA / ".git").mkdir(exist_ok=True)  # the folder is the workspace
    print("| call | lines | answer bytes | whole? |")
    print("| --- | ---: | ---: | --- |")
    for tool, args in CALLS:
        out = subprocess.run([LOCUS, "call", tool, "--json", json.dumps(args)], cwd=DATA, capture_output=True, text=True)
        envelope = json.loads(out.stdout)
        size = len(json.dumps(envelope, separators=(",", ":"), ensure_ascii=False).encode())
        data = envelope.get("data") or {}
        lines = (data.get("file") or {}).get("lineCount", "")
        cut = "meta.cut" if envelope["meta"].get("cut") else ""
        folded = "folded" if isinstance(data, dict) and data.get("cut") else ""
        state = ", ".join(x for x in (folded, cut) if x) or ("error " + envelope["error"]["code"] if not envelope["ok"] else "whole")
        shown = json.dumps(args)
        print(f"| `{tool}` `{shown}` | {lines} | {size:,} | {state} |")


if __name__ == "__main__":
    main()
