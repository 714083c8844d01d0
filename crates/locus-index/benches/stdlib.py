#!/usr/bin/env python3
"""Whole-process measurements of the symbol index on the machine's Python standard library
(without site-packages), and the agreement check against Python's own `ast`.

    target/peers/venv/bin/python crates/locus-index/benches/stdlib.py [--locus target/release/locus]
        [--runs 5] [--queries 2000] [--skip-agreement]

Prints JSON lines: `cold` (per run: wall, CPU, peak RSS of `locus mcp` indexing the tree
in-process, each run with an empty symbol cache: a first start), `warm` (the same with the
symbol cache a first start wrote: a start after the first; `--cache-only` stops there),
`query` (durations inside Locus, from the envelopes' `meta.durationMs`, through
one `locus mcp` session), `disk_edit` (a file written on disk until `symbol_search` finds
its new name), `agreement` (every class, function and method `ast` finds, looked up by name
when the name occurs at most three times, else as `Container.name`: found in the top 10 at
the right file, line and kind). Needs the `mcp` SDK (scripts/install-test-peers.sh).
"""

import argparse
import ast
import asyncio
import collections
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[3]


def stdlib_copy(dest: Path) -> Path:
    """The standard library without site-packages and caches, copied (the copy is what is
    measured: the original holds site-packages)."""
    src = Path(sysconfig.get_paths()["stdlib"])
    tree = dest / src.name
    if not tree.exists():
        shutil.copytree(src, tree, ignore=shutil.ignore_patterns("site-packages", "__pycache__"))
    return tree


def pct(values, p):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


def summary(values):
    return {"median": statistics.median(values), "p99": pct(values, 99), "min": min(values),
            "max": max(values), "n": len(values)}


def proc_figures(pid: int) -> dict:
    """CPU seconds, resident and peak resident memory of a live process, from /proc."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    kb = lambda k: int(status[k].split()[0]) / 1024
    return {"cpu_s": (int(stat[11]) + int(stat[12])) / ticks, "rss_mb": kb("VmRSS"), "peak_rss_mb": kb("VmHWM")}


async def cold_run(locus: str, tree: Path, cache_dir: str, wait_for_cache: bool = False) -> dict:
    """A fresh `locus mcp` (in-process) with its symbol cache in `cache_dir`: from its start
    until its index is built, then its CPU time and memory (before the cache is written, which
    happens after the build, on a thread of its own). With `wait_for_cache`, the session stays
    until the cache file is written."""
    params = StdioServerParameters(command=locus, args=["mcp", "--workspace", str(tree)], cwd=str(tree),
                                   env=dict(os.environ, XDG_RUNTIME_DIR=tempfile.mkdtemp(),
                                            LOCUS_CACHE_DIR=cache_dir, LOCUS_INDEX_CACHE="1"))
    start = time.perf_counter()
    async with Client(params) as client:
        while True:
            r = (await client.call_tool("symbol_search", {"query": "zz_no_such_symbol_zz"})).structured_content
            if "indexing" not in r["data"]:
                break
        wall = time.perf_counter() - start
        status = (await client.call_tool("bridge_status", {})).structured_content["data"]
        index = status["symbolIndex"]
        figures = proc_figures(status["pid"])
        if wait_for_cache:
            deadline = time.time() + 120
            while not list(Path(cache_dir, "index").glob("*.symbols")):
                if time.time() > deadline:
                    raise SystemExit(f"no symbol cache written under {cache_dir} within 120 s")
                await asyncio.sleep(0.05)
        return {"wall_s": wall, "build_s": index["buildMs"] / 1000, "files": index["files"], "load1": os.getloadavg()[0],
                "symbols": index["symbols"], "skipped": index["skipped"], "index_mb": index["memoryBytes"] / 2**20,
                "from_cache": index.get("filesFromCache", 0), **figures}


def cold(locus: str, tree: Path, runs: int, cache_dir: str | None = None) -> dict:
    """`runs` starts, each with an empty cache (`cache_dir` None) or with the cache in
    `cache_dir` (made by a first start when empty)."""
    if cache_dir is not None and not list(Path(cache_dir, "index").glob("*.symbols")):
        asyncio.run(cold_run(locus, tree, cache_dir, wait_for_cache=True))
    results = [asyncio.run(cold_run(locus, tree, cache_dir or tempfile.mkdtemp())) for _ in range(runs)]
    out = {k: summary([r[k] for r in results]) for k in ["wall_s", "build_s", "cpu_s", "rss_mb", "peak_rss_mb", "index_mb", "load1"]}
    out.update({k: results[-1][k] for k in ["files", "symbols", "skipped", "from_cache"]})
    if cache_dir is not None:
        out["cache_mb"] = sum(p.stat().st_size for p in Path(cache_dir, "index").glob("*.symbols")) / 2**20
    return out


def ast_symbols(tree: Path):
    """(path, name, container, line, kind) of every class, function and method, and the
    files ast could not parse."""
    out, bad = [], []
    for path in sorted(tree.rglob("*.py")):
        try:
            data = path.read_bytes()
            if len(data) > 2 << 20:
                continue
            module = ast.parse(data.decode("utf-8"), str(path))
        except (SyntaxError, UnicodeDecodeError, ValueError):
            bad.append(str(path))
            continue

        def visit(node, container, in_class):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.ClassDef):
                    out.append((str(path), child.name, container, child.lineno, "Class"))
                    visit(child, child.name, True)
                elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    kind = "Method" if in_class else "Function"
                    out.append((str(path), child.name, container, child.lineno, kind))
                    visit(child, child.name, False)
                else:
                    visit(child, container, in_class)

        visit(module, None, False)
    return out, bad


# What `ast` calls a method, the editor's outline may call a constructor or a property.
KINDS = {"Class": {"Class"}, "Function": {"Function"}, "Method": {"Method", "Constructor", "Property"}}


async def with_session(locus: str, tree: Path, body):
    params = StdioServerParameters(command=locus, args=["mcp", "--workspace", str(tree)], cwd=str(tree),
                                   env=dict(os.environ, XDG_RUNTIME_DIR=tempfile.mkdtemp(), LOCUS_INDEX_CACHE="0"))
    async with Client(params) as client:
        # The first search waits for the index.
        for _ in range(100):
            r = (await client.call_tool("symbol_search", {"query": "ArgumentParser"})).structured_content
            if "indexing" not in r["data"]:
                break
        return await body(client)


async def queries(client, names, count):
    inside, outside = [], []
    for i in range(count):
        q = names[i % len(names)]
        start = time.perf_counter()
        r = (await client.call_tool("symbol_search", {"query": q})).structured_content
        outside.append((time.perf_counter() - start) * 1000)
        inside.append(r["meta"]["durationMs"])
    return {"inside_locus_ms": summary(inside), "round_trip_ms": summary(outside)}


async def disk_edits(client, tree: Path, count):
    found = []
    target = tree / "locus_bench_edit.py"
    try:
        for i in range(count):
            name = f"freshly_saved_{i}_{int(time.time() * 1000)}"
            start = time.perf_counter()
            target.write_text(f"def {name}():\n    pass\n")
            while True:
                r = (await client.call_tool("symbol_search", {"query": name, "limit": 1})).structured_content
                if r["data"]["symbols"] and r["data"]["symbols"][0]["name"] == name:
                    break
                if time.perf_counter() - start > 10:
                    raise SystemExit(f"{name} not found within 10 s")
            found.append((time.perf_counter() - start) * 1000)
    finally:
        target.unlink(missing_ok=True)
    return {"found_after_ms": summary(found)}


async def agreement(client, symbols):
    counts = collections.Counter(s[1] for s in symbols)
    misses, by_container = [], 0
    for path, name, container, line, kind in symbols:
        query = name
        if counts[name] > 3 and container:
            query = f"{container}.{name}"
            by_container += 1
        r = (await client.call_tool("symbol_search", {"query": query, "limit": 10})).structured_content
        hits = r["data"]["symbols"] if r["ok"] else []
        if not any(h["path"] == path and h["line"] == line and h["name"] == name and h["kind"] in KINDS[kind]
                   for h in hits):
            misses.append({"query": query, "path": path, "line": line, "kind": kind,
                           "got": [(h["name"], h["kind"], h["line"], Path(h["path"]).name) for h in hits[:3]]})
    return {"symbols": len(symbols), "by_container": by_container, "found": len(symbols) - len(misses),
            "rate": (len(symbols) - len(misses)) / max(1, len(symbols)), "misses_sample": misses[:15],
            "misses_by_kind": collections.Counter(m["kind"] for m in misses)}


async def editor_edits(tree: Path, count: int) -> dict:
    """A real `locus lsp` with its sidecar over the tree, driven by a minimal LSP client
    (tests/e2e/mcp_common.py): an edit to an open 2,600-line file (argparse.py) sent as
    didChange, then `symbol_search` over MCP HTTP until it finds the new name; and the `locus
    lsp` process's CPU time and memory once its index is built and after the edits."""
    sys.path.insert(0, str(ROOT / "tests" / "e2e"))
    from mcp_common import Env, Sidecar
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    env = Env(Path(tempfile.mkdtemp()))
    env.workspace = tree
    sidecar = Sidecar(env)
    try:
        path = tree / "argparse.py"
        text = path.read_text()
        sidecar.open(path, text)
        lines = text.count("\n")
        headers = {"Authorization": f"Bearer {sidecar.token}"}
        client = Client(streamable_http_client(sidecar.url, http_client=create_mcp_http_client(headers=headers)))
        async with client:
            while "indexing" in (await client.call_tool("symbol_search", {"query": "x"})).structured_content["data"]:
                pass
            # The whole `locus lsp` (editor mirror, the open file's tree, the index) once built.
            after_build = proc_figures(sidecar.proc.pid)
            found, inside = [], []
            for i in range(count):
                name = f"typed_in_editor_{i}"
                start = time.perf_counter()
                sidecar.edit(path, i + 2, lines + i * 2, f"def {name}():\n    pass\n")
                while True:
                    r = (await client.call_tool("symbol_search", {"query": name, "limit": 1})).structured_content
                    if r["data"]["symbols"] and r["data"]["symbols"][0]["name"] == name:
                        inside.append(r["meta"]["durationMs"])
                        break
                    if time.perf_counter() - start > 10:
                        raise SystemExit(f"{name} not found within 10 s")
                found.append((time.perf_counter() - start) * 1000)
        return {"found_after_ms": summary(found), "finding_search_inside_locus_ms": summary(inside),
                "lsp_after_build": after_build, "lsp_after_edits": proc_figures(sidecar.proc.pid)}
    finally:
        sidecar.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--locus", default=str(ROOT / "target" / "release" / "locus"))
    ap.add_argument("--dir", default=str(Path(tempfile.gettempdir()) / "locus-bench-stdlib"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--edits", type=int, default=20)
    ap.add_argument("--skip-agreement", action="store_true")
    ap.add_argument("--editor-only", action="store_true")
    ap.add_argument("--cache-only", action="store_true", help="only the cold and warm starts")
    args = ap.parse_args()
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    tree = stdlib_copy(Path(args.dir))
    files = list(tree.rglob("*.py"))
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(json.dumps({"tree": str(tree), "py_files": len(files), "lines": lines, "cores": os.cpu_count(),
                      "loadavg": os.getloadavg()}), flush=True)
    if args.editor_only:
        os.environ["LOCUS_BIN"] = args.locus
        print(json.dumps({"editor_edit": asyncio.run(editor_edits(tree, args.edits))}), flush=True)
        return
    print(json.dumps({"cold": cold(args.locus, tree, args.runs)}), flush=True)
    warm_cache = tempfile.mkdtemp(prefix="locus-bench-cache-")
    try:
        print(json.dumps({"warm": cold(args.locus, tree, args.runs, warm_cache)}), flush=True)
    finally:
        shutil.rmtree(warm_cache, ignore_errors=True)
    if args.cache_only:
        print(json.dumps({"loadavg_after": os.getloadavg()}), flush=True)
        return
    symbols, bad = ast_symbols(tree)
    names = sorted({s[1] for s in symbols})

    async def body(client):
        print(json.dumps({"query": await queries(client, names, args.queries)}), flush=True)
        print(json.dumps({"disk_edit": await disk_edits(client, tree, args.edits)}), flush=True)
        if not args.skip_agreement:
            result = await agreement(client, symbols)
            result["ast_unparsable_files"] = len(bad)
            print(json.dumps({"agreement": result}), flush=True)

    asyncio.run(with_session(args.locus, tree, body))
    print(json.dumps({"loadavg_after": os.getloadavg()}), flush=True)


if __name__ == "__main__":
    main()
