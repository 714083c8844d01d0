#!/usr/bin/env python3
"""Measures `tools/list` of `locus mcp` per family of tools (the table "Tool listings" of
docs/performance.md): how many tools, the bytes of the listing as sent (one JSON-RPC line), and
the bytes a model is given of it (each tool's name, description and input schema, compact JSON:
what Claude Code, Codex and Gemini CLI put in their model requests).

usage: scripts/tool-list-sizes.py [LOCUS_BINARY]   (default target/debug/locus)
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCUS = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target" / "debug" / "locus")
SELECTIONS = [None, "editor", "symbol", "dialog", "debug", "system", "editor,symbol"]


def listing(tools: str | None) -> tuple[list, int]:
    """The tools of `locus mcp [--tools TOOLS]` and the bytes of its tools/list line."""
    args = [LOCUS, "mcp"] + (["--tools", tools] if tools else [])
    with tempfile.TemporaryDirectory() as cwd:
        p = subprocess.Popen(args, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        requests = [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "sizes", "version": "0"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        ]
        p.stdin.write(json.dumps(requests[0]).encode() + b"\n")
        p.stdin.flush()
        p.stdout.readline()
        for r in requests[1:]:
            p.stdin.write(json.dumps(r).encode() + b"\n")
        p.stdin.flush()
        line = p.stdout.readline()
        p.kill()
    return json.loads(line)["result"]["tools"], len(line)


def compact(v) -> int:
    return len(json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode())


def main():
    print("| `--tools` | tools | `tools/list`, bytes | a model's share, bytes |")
    print("| --- | ---: | ---: | ---: |")
    for selection in SELECTIONS:
        tools, size = listing(selection)
        model = sum(compact({"name": t["name"], "description": t["description"], "input_schema": t["inputSchema"]}) for t in tools)
        print(f"| {selection or '(all)'} | {len(tools)} | {size:,} | {model:,} |")


if __name__ == "__main__":
    main()
