#!/usr/bin/env python3
"""Side by side, in one run, on one program: each debug tool through `locus mcp` against the same
debug adapter driven raw over DAP doing the same work (the table "Debugging beside the raw
adapter" of docs/performance.md).

The raw side is a plain DAP client in this file: `next` then the `stopped` event, then
`stackTrace`, `scopes` and `variables` one after another (what a step's debugContext needs);
the same after `continue`; `scopes` and `variables` alone (what `variable_list` does cold);
one `evaluate`. The Locus side calls `debug_step_over`, `debug_continue {wait: true}`,
`variable_list` and `expression_evaluate` over MCP on stdio, and `debug_status` (no adapter
request) for what the MCP transport and the envelope cost. Launch to the first stop is timed
on both. Medians with the range, in milliseconds.

usage: scripts/debug-bench.py [LOCUS_BINARY] [--samples N]   (default target/release/locus, 30;
debugpy from LOCUS_DAP_PYTHON, else the test peers' venv: scripts/install-test-peers.sh)
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = os.environ.get("LOCUS_DAP_PYTHON") or str(ROOT / "target" / "peers" / "venv" / "bin" / "python")

PROGRAM = """def step(state, i):
    total = state["total"] + i
    state["total"] = total
    return total


def main():
    state = {"total": 0}
    for i in range(1000000):
        value = step(state, i)
        state["last"] = value


main()
"""
LINE = 10  # `value = step(state, i)`


class Dap:
    """A raw DAP client of debugpy's adapter on stdio."""

    def __init__(self):
        self.proc = subprocess.Popen([PYTHON, "-m", "debugpy.adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.seq = 0
        self.pending = []

    def send(self, command, arguments=None):
        self.seq += 1
        body = json.dumps({"seq": self.seq, "type": "request", "command": command, "arguments": arguments or {}}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return self.seq

    def read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if line in (b"\r\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def wait(self, match):
        for i, m in enumerate(self.pending):
            if match(m):
                return self.pending.pop(i)
        while True:
            m = self.read()
            if match(m):
                return m
            if m.get("type") == "request":  # reverse requests: none expected; answered empty
                self.reply(m)
            else:
                self.pending.append(m)

    def reply(self, request):
        self.seq += 1
        body = json.dumps({"seq": self.seq, "type": "response", "request_seq": request["seq"], "success": True, "command": request["command"], "body": {}}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, command, arguments=None):
        seq = self.send(command, arguments)
        r = self.wait(lambda m: m.get("type") == "response" and m.get("request_seq") == seq)
        assert r["success"], r
        return r.get("body") or {}

    def event(self, name):
        return self.wait(lambda m: m.get("type") == "event" and m.get("event") == name)

    def context(self, thread):
        """What a stop's debugContext needs: the stack, the top frame's scopes, its locals."""
        frames = self.request("stackTrace", {"threadId": thread, "startFrame": 0})["stackFrames"]
        scopes = self.request("scopes", {"frameId": frames[0]["id"]})["scopes"]
        self.request("variables", {"variablesReference": scopes[0]["variablesReference"]})
        return frames[0]

    def close(self):
        self.proc.kill()


def raw(program: Path, samples: int) -> dict:
    times = {}
    started = time.perf_counter()
    d = Dap()
    d.request("initialize", {"adapterID": "debugpy", "linesStartAt1": True, "columnsStartAt1": True, "pathFormat": "path"})
    launch = d.send("launch", {"program": str(program), "console": "internalConsole", "justMyCode": True, "cwd": str(program.parent)})
    d.event("initialized")
    d.request("setBreakpoints", {"source": {"path": str(program)}, "breakpoints": [{"line": LINE}]})
    d.request("setExceptionBreakpoints", {"filters": ["uncaught"]})
    d.request("configurationDone")
    d.wait(lambda m: m.get("type") == "response" and m.get("request_seq") == launch)
    thread = d.event("stopped")["body"]["threadId"]
    d.context(thread)
    times["launch → first stop"] = [(time.perf_counter() - started) * 1000]
    for name in ("step", "continue", "variables", "evaluate"):
        times[name] = []
    for _ in range(samples):
        t = time.perf_counter()
        d.request("next", {"threadId": thread})
        d.event("stopped")
        top = d.context(thread)
        times["step"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        d.request("continue", {"threadId": thread})
        d.event("stopped")
        top = d.context(thread)
        times["continue"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        scopes = d.request("scopes", {"frameId": top["id"]})["scopes"]
        d.request("variables", {"variablesReference": scopes[0]["variablesReference"]})
        times["variables"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        d.request("evaluate", {"expression": "state['total'] + i", "frameId": top["id"], "context": "watch"})
        times["evaluate"].append((time.perf_counter() - t) * 1000)
    d.close()
    return times


class Mcp:
    """`locus mcp` on stdio."""

    def __init__(self, locus: str, cwd: Path):
        env = dict(os.environ, LOCUS_DAP_PYTHON=PYTHON)
        self.proc = subprocess.Popen([locus, "mcp"], cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "debug-bench", "version": "0"}})
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.proc.stdin.flush()

    def request(self, method, params):
        self.id += 1
        self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params}) + "\n").encode())
        self.proc.stdin.flush()
        while True:
            m = json.loads(self.proc.stdout.readline())
            if m.get("id") == self.id:
                return m

    def call(self, tool, **args):
        e = self.request("tools/call", {"name": tool, "arguments": args})["result"]["structuredContent"]
        assert e["ok"], e
        return e

    def close(self):
        self.proc.kill()


def locus(binary: str, program: Path, samples: int) -> dict:
    times = {}
    m = Mcp(binary, program.parent)
    started = time.perf_counter()
    m.call("breakpoint_set", path=str(program), line=LINE)
    m.call("debug_start", program=str(program))
    m.call("debug_wait_for_stop", timeoutMs=30000)
    times["launch → first stop"] = [(time.perf_counter() - started) * 1000]
    for name in ("step", "continue", "variables", "evaluate", "transport"):
        times[name] = []
    for _ in range(samples):
        for name, tool, args in (
            ("step", "debug_step_over", {}),
            ("continue", "debug_continue", {"wait": True}),
            ("variables", "variable_list", {}),
            ("evaluate", "expression_evaluate", {"expression": "state['total'] + i"}),
            ("transport", "debug_status", {}),
        ):
            t = time.perf_counter()
            m.call(tool, **args)
            times[name].append((time.perf_counter() - t) * 1000)
    m.close()
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("locus", nargs="?", default=str(ROOT / "target" / "release" / "locus"))
    parser.add_argument("--samples", type=int, default=30)
    a = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        program = Path(work) / "steps.py"
        program.write_text(PROGRAM)
        (Path(work) / ".git").mkdir()
        r = raw(program, a.samples)
        l = locus(a.locus, program, a.samples)
    fmt = lambda xs: f"{statistics.median(xs):.1f} ({min(xs):.1f}–{max(xs):.1f})" if len(xs) > 1 else f"{xs[0]:.0f}"
    print(f"| work | raw debugpy, ms | Locus, ms | Locus − raw, ms (medians) |")
    print("| --- | ---: | ---: | ---: |")
    for name in ("launch → first stop", "step", "continue", "variables", "evaluate"):
        print(f"| {name} | {fmt(r[name])} | {fmt(l[name])} | {statistics.median(l[name]) - statistics.median(r[name]):+.1f} |")
    print(f"| MCP transport and envelope (`debug_status`) | — | {fmt(l['transport'])} | |")


if __name__ == "__main__":
    sys.exit(main())
