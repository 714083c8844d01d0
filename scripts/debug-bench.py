#!/usr/bin/env python3
"""Side by side, in one run, on one program: each debug tool through `locus mcp` against the same
debug adapter driven raw over DAP doing the same work (the table "Debugging beside the raw
adapter" of docs/performance.md), for debugpy (Python) and lldb-dap (C).

The raw side is a plain DAP client in this file: `next` then the `stopped` event, then
`stackTrace`, `scopes` and `variables` one after another (what a step's debugContext needs);
the same after `continue`; `scopes` and `variables` alone (what `variable_list` does cold);
one `evaluate`. The Locus side calls `debug_step_over`, `debug_continue {wait: true}`,
`variable_list` and `expression_evaluate` over MCP on stdio, and `debug_status` (no adapter
request) for what the MCP transport and the envelope cost. Launch to the first stop is timed
on both. Medians with the range, in milliseconds.

usage: scripts/debug-bench.py [LOCUS_BINARY] [--samples N] [--adapter debugpy|lldb-dap]
(default target/release/locus, 30 samples, both adapters; debugpy from LOCUS_DAP_PYTHON, else
the test peers' venv: scripts/install-test-peers.sh; lldb-dap-19 and gcc from
scripts/install-debug-adapters.sh)
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
C_PROGRAM = r"""#include <stdio.h>

static long step(long *state, long i) {
  long total = *state + i;
  *state = total;
  return total;
}

int main(void) {
  long state = 0, last = 0;
  for (long i = 0; i < 100000000; i++) {
    long value = step(&state, i);
    last = value;
  }
  printf("%ld\n", last);
  return 0;
}
"""

# Per adapter: the program's file, its text, the breakpoint's line (the call of `step`), how to
# run the adapter raw, the exception filters VS Code would send, and an expression of the frame.
ADAPTERS = {
    "debugpy": dict(file="steps.py", text=PROGRAM, line=10, command=[PYTHON, "-m", "debugpy.adapter"],
                    expression="state['total'] + i", filters=["uncaught"]),
    "lldb-dap": dict(file="steps.c", text=C_PROGRAM, line=12, command=["lldb-dap-19"],
                     expression="state + i", filters=[]),
}


class Dap:
    """A raw DAP client of an adapter on stdio."""

    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
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


def raw(a: dict, source: Path, program: Path, samples: int) -> dict:
    times = {}
    started = time.perf_counter()
    d = Dap(a["command"])
    d.request("initialize", {"adapterID": "raw", "linesStartAt1": True, "columnsStartAt1": True, "pathFormat": "path"})
    launch = d.send("launch", {"program": str(program), "console": "internalConsole", "justMyCode": True, "cwd": str(program.parent)})
    d.event("initialized")
    d.request("setBreakpoints", {"source": {"path": str(source)}, "breakpoints": [{"line": a["line"]}]})
    d.request("setExceptionBreakpoints", {"filters": a["filters"]})
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
        d.request("evaluate", {"expression": a["expression"], "frameId": top["id"], "context": "watch"})
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


def locus(binary: str, name: str, a: dict, source: Path, program: Path, samples: int) -> dict:
    times = {}
    m = Mcp(binary, program.parent)
    started = time.perf_counter()
    m.call("breakpoint_set", path=str(source), line=a["line"])
    m.call("debug_start", program=str(program), adapter=name)
    m.call("debug_wait_for_stop", timeoutMs=30000)
    times["launch → first stop"] = [(time.perf_counter() - started) * 1000]
    for name in ("step", "continue", "variables", "evaluate", "transport"):
        times[name] = []
    for _ in range(samples):
        for name, tool, args in (
            ("step", "debug_step_over", {}),
            ("continue", "debug_continue", {"wait": True}),
            ("variables", "variable_list", {}),
            ("evaluate", "expression_evaluate", {"expression": a["expression"]}),
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
    parser.add_argument("--adapter", choices=sorted(ADAPTERS))
    args = parser.parse_args()
    fmt = lambda xs: f"{statistics.median(xs):.1f} ({min(xs):.1f}–{max(xs):.1f})" if len(xs) > 1 else f"{xs[0]:.0f}"
    print("| adapter | work | raw, ms | Locus, ms | Locus − raw, ms (medians) |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name, a in ADAPTERS.items():
        if args.adapter not in (None, name):
            continue
        with tempfile.TemporaryDirectory() as work:
            source = Path(work) / a["file"]
            source.write_text(a["text"])
            (Path(work) / ".git").mkdir()
            program = source
            if source.suffix == ".c":
                program = source.with_suffix("")
                subprocess.run(["gcc", "-g", "-O0", "-o", str(program), str(source)], check=True)
            r = raw(a, source, program, args.samples)
            l = locus(os.path.abspath(args.locus), name, a, source, program, args.samples)
        for work_ in ("launch → first stop", "step", "continue", "variables", "evaluate"):
            print(f"| {name} | {work_} | {fmt(r[work_])} | {fmt(l[work_])} | {statistics.median(l[work_]) - statistics.median(r[work_]):+.1f} |")
        print(f"| {name} | MCP transport and envelope (`debug_status`) | — | {fmt(l['transport'])} | |")


if __name__ == "__main__":
    sys.exit(main())
