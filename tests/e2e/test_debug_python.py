"""Debugging through a real MCP client: the Python `mcp` SDK over `locus mcp` on stdio, in
process (no editor), against the real debugpy — breakpoint_set, debug_start,
debug_wait_for_stop, variable_list, expression_evaluate, debug_step_over (changedVariables),
debug_continue to the exit status, with the debugContext checked on the way.

Needs the `mcp` package and debugpy in the Python running pytest (scripts/install-test-peers.sh
installs both into target/peers/venv) and the `locus` binary ($LOCUS_BIN, else
target/debug/locus). A missing peer fails the test: it never skips.
"""

import asyncio
import importlib.util
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcp_common import Sidecar, env, locus_bin  # noqa: F401 (fixtures)

try:
    from mcp import Client, StdioServerParameters
except ImportError as e:  # a missing peer fails loudly
    Client = None
    IMPORT_ERROR = e

PROGRAM = '''import sys


class Cart:
    def __init__(self, items):
        self.items = items

    def total(self):
        acc = 0
        for i, item in enumerate(self.items):
            acc += item
            print(f"iter {i} acc={acc}")
        return acc


def main():
    cart = Cart([3, 4, 5])
    result = cart.total()
    sys.exit(result % 7)


main()
'''

WAIT_MS = 30000


def need_peers():
    if Client is None:
        pytest.fail(f"the Python `mcp` SDK is missing ({IMPORT_ERROR}): run scripts/install-test-peers.sh")
    if importlib.util.find_spec("debugpy") is None:
        pytest.fail(f"debugpy is missing from {sys.executable}: run scripts/install-test-peers.sh")


def caller(client):
    """`call(name, args, ok)`: a tool call on `client`, whose envelope must say `ok`."""
    async def call(name, args=None, ok=True):
        r = await client.call_tool(name, args or {})
        e = r.structured_content
        assert e is not None and e["ok"] is ok, f"{name}: {r}"
        return e
    return call


def test_debugging_workflow_over_locus_mcp(env):
    need_peers()
    program = env.workspace / "cart.py"
    program.write_text(PROGRAM)
    # The adapter runs on the Python that has debugpy: this one.
    env.vars["LOCUS_DAP_PYTHON"] = sys.executable

    async def main():
        params = StdioServerParameters(command=locus_bin(), args=["mcp"], env=env.vars, cwd=str(env.workspace))
        async with Client(params) as client:
            async def call(name, args=None, ok=True):
                r = await client.call_tool(name, args or {})
                e = r.structured_content
                assert e is not None, f"{name}: no structuredContent: {r}"
                assert e["ok"] is ok, f"{name}: {e}"
                assert r.is_error is (not ok)
                assert r.content[0].text
                return e

            tools = {t.name for t in (await client.list_tools()).tools}
            assert {"debug_start", "breakpoint_set", "debug_step_over", "variable_list"} <= tools

            e = await call("breakpoint_set", {"path": "cart.py", "line": 11})
            assert "debugContext" not in e, "no session yet"
            assert e["data"]["allBreakpoints"][0]["verified"] is False
            bp = e["data"]["breakpoint"]["id"]
            # A watch, kept with the workspace like breakpoints: valued at every stop.
            e = await call("watch_add", {"expression": "acc + item * 10"})
            watch = e["data"]["id"]

            e = await call("debug_start", {"program": "cart.py"})
            assert e["data"]["sessionId"] == "s1"
            assert isinstance(e["data"]["pid"], int)
            assert e["data"]["adapter"] == "debugpy"
            assert e["debugContext"]["debuggerState"]["sessionId"] == "s1"

            e = await call("debug_wait_for_stop", {"timeoutMs": WAIT_MS})
            assert e["data"]["reason"] == "breakpoint"
            assert e["data"]["position"]["line"] == 11
            ctx = e["debugContext"]
            state = ctx["debuggerState"]
            assert state["running"] is False and state["exited"] is False
            assert state["stopReason"] == "breakpoint"
            assert isinstance(state["pid"], int)
            assert state["currentBreakpoint"]["id"] == bp and state["currentBreakpoint"]["hitCount"] == 1
            assert ctx["currentPosition"]["file"] == str(program.resolve())
            assert ctx["currentPosition"]["function"] == "total"
            assert ctx["currentPosition"]["scopeHierarchy"] == "Class:Cart > Method:total"
            locals_ = {v["name"]: v["value"] for v in ctx["localContext"]["locals"]}
            assert locals_["acc"] == "0" and locals_["item"] == "3"
            assert ctx["localContext"]["stackDepth"] == 3
            assert ctx["watches"] == [{"id": watch, "expression": "acc + item * 10", "value": "30", "type": "int"}]

            e = await call("variable_list")
            variables = {v["name"]: v for v in e["data"]["variables"]}
            assert variables["acc"]["value"] == "0"
            assert variables["self"]["variablesReference"] > 0
            stale = variables["self"]["variablesReference"]

            e = await call("expression_evaluate", {"expression": "acc + item * 10"})
            assert e["data"]["result"] == "30"

            e = await call("debug_step_over")
            assert e["data"]["stepType"] == "over"
            assert e["data"]["from"]["line"] == 11 and e["data"]["to"]["line"] == 12
            assert e["data"]["changedVariables"] == [{"name": "acc", "before": "0", "after": "3"}]
            assert e["debugContext"]["currentPosition"]["line"] == 12
            assert e["debugContext"]["watches"][0]["value"] == "33", e["debugContext"]

            e = await call("variable_list", {"variablesReference": stale}, ok=False)
            assert e["error"]["code"] == "E_STALE_REFERENCE"
            assert e["debugContext"]["debuggerState"]["sessionId"] == "s1", "errors carry the debugContext"

            await call("breakpoint_clear")
            e = await call("watch_remove", {"id": watch})
            assert (await call("watch_list"))["data"]["watches"] == []
            # `sys.exit(5)` raises SystemExit, which debugpy counts as uncaught (as VS Code
            # shows it): a stop, then the exit.
            e = await call("debug_continue", {"wait": True, "timeoutMs": WAIT_MS})
            assert e["data"]["state"] == "stopped", e
            assert e["debugContext"]["exception"]["type"] == "SystemExit", e["debugContext"]
            e = await call("debug_continue", {"wait": True, "timeoutMs": WAIT_MS})
            assert e["data"]["state"] == "exited"
            assert e["data"]["exitStatus"] == 5
            state = e["debugContext"]["debuggerState"]
            assert state["exited"] is True and state["exitStatus"] == 5

            e = await call("output_read")
            assert "iter 2 acc=12" in e["data"]["stdout"]

            await call("debug_stop")
            e = await call("debug_status", ok=False)
            assert e["error"]["code"] == "E_NO_SESSION"
            assert e["error"]["hint"] == "Start a debug session first using debug_start"

            # A session left running ends with `locus mcp`.
            e = await call("debug_start", {"program": "cart.py", "stopOnEntry": True})
            return [e["data"]["pid"], e["data"]["adapterPid"]]

    left = asyncio.run(main())
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in left):
        assert time.monotonic() < deadline, f"processes outlived locus mcp: {[p for p in left if alive(p)]}"
        time.sleep(0.05)


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def locus_call(env_, tool: str, args: dict) -> tuple[int, dict]:
    """`locus call TOOL --json ARGS` from the workspace: its exit code and envelope."""
    p = subprocess.run([locus_bin(), "call", tool, "--json", json.dumps(args)], cwd=env_.workspace, env=env_.vars,
                       capture_output=True, text=True, timeout=120)
    return p.returncode, json.loads(p.stdout)


def test_sessions_live_in_the_sidecar_and_not_in_a_one_shot_call(env):
    need_peers()
    (env.workspace / "cart.py").write_text(PROGRAM)
    env.vars["LOCUS_DAP_PYTHON"] = sys.executable

    # No sidecar: `locus call` is the whole process, so it refuses to start a session.
    code, e = locus_call(env, "debug_start", {"program": "cart.py"})
    assert code == 1 and e["error"]["code"] == "E_UNSUPPORTED", e
    assert "locus mcp" in e["error"]["hint"]

    # With an editor's sidecar, each `locus call` is forwarded and the session lives there,
    # across calls.
    sidecar = Sidecar(env)
    try:
        code, e = locus_call(env, "breakpoint_set", {"path": "cart.py", "line": 11})
        assert code == 0, e
        code, e = locus_call(env, "debug_start", {"program": "cart.py"})
        assert code == 0 and e["data"]["sessionId"] == "s1", e
        code, e = locus_call(env, "debug_wait_for_stop", {"timeoutMs": WAIT_MS})
        assert code == 0 and e["data"]["position"]["line"] == 11, e
        assert e["debugContext"]["currentPosition"]["scopeHierarchy"] == "Class:Cart > Method:total"
        code, e = locus_call(env, "debug_list_sessions", {})
        assert [s["sessionId"] for s in e["data"]["sessions"]] == ["s1"], e
        code, e = locus_call(env, "debug_stop", {})
        assert code == 0, e
    finally:
        sidecar.stop()


def test_a_killed_sidecar_takes_its_adapter_and_program_along(env):
    """SIGKILL leaves Locus no time to end its sessions: the adapter still ends with it (debugpy
    on its closed stdin, any adapter through PR_SET_PDEATHSIG), and the program with the
    adapter."""
    need_peers()
    (env.workspace / "cart.py").write_text(PROGRAM)
    env.vars["LOCUS_DAP_PYTHON"] = sys.executable
    sidecar = Sidecar(env)
    try:
        code, e = locus_call(env, "debug_start", {"program": "cart.py", "stopOnEntry": True})
        assert code == 0, e
        pids = [e["data"]["pid"], e["data"]["adapterPid"]]
        code, e = locus_call(env, "debug_wait_for_stop", {"timeoutMs": WAIT_MS})
        assert code == 0 and e["data"]["reason"] == "entry", e
        assert all(alive(pid) for pid in pids), pids
        sidecar.proc.kill()
        sidecar.proc.wait()
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in pids):
            assert time.monotonic() < deadline, f"processes outlived the killed sidecar: {[p for p in pids if alive(p)]}"
            time.sleep(0.05)
    finally:
        sidecar.stop()


LAUNCH_JSON = '''{
  // As VS Code writes it: comments and trailing commas.
  "version": "0.2.0",
  "configurations": [
    {
      "name": "Cart",
      "type": "debugpy",
      "request": "launch",
      "program": "${workspaceFolder}/cart.py",
      "args": ["--from", "${env:LOCUS_E2E_FROM}"],
    },
  ],
}
'''


def test_a_launch_json_configuration_over_locus_mcp(env):
    need_peers()
    (env.workspace / "cart.py").write_text(PROGRAM)
    (env.workspace / ".vscode").mkdir()
    (env.workspace / ".vscode" / "launch.json").write_text(LAUNCH_JSON)
    env.vars["LOCUS_DAP_PYTHON"] = sys.executable
    env.vars["LOCUS_E2E_FROM"] = "launch.json"

    async def main():
        params = StdioServerParameters(command=locus_bin(), args=["mcp"], env=env.vars, cwd=str(env.workspace))
        async with Client(params) as client:
            call = caller(client)

            await call("breakpoint_set", {"path": "cart.py", "line": 11})
            e = await call("debug_start", {"configuration": "Cart"})
            assert e["data"]["adapter"] == "debugpy" and e["data"]["configuration"] == "Cart", e
            e = await call("debug_wait_for_stop", {"timeoutMs": WAIT_MS})
            assert e["data"]["position"]["line"] == 11, e
            e = await call("expression_evaluate", {"expression": "sys.argv[1:]"})
            assert e["data"]["result"] == "['--from', 'launch.json']", e
            await call("debug_stop")
            e = await call("debug_start", {"configuration": "Nope"}, ok=False)
            assert e["error"]["code"] == "E_NOT_FOUND" and "Cart" in e["error"]["hint"], e

    asyncio.run(main())


def test_exceptions_stop_where_the_user_chose(env):
    """`raised` stops at an exception the program catches, `debug_break_on` changes a live
    session (back to `uncaught`: the caught one no longer stops it), and `debug_test` with
    `breakOn: raised` stops at the failing assertion with its message."""
    need_peers()
    programs = Path(__file__).resolve().parents[2] / "crates" / "locus-dap" / "tests" / "programs"
    for name in ("caught.py", "test_cart.py"):
        shutil.copy(programs / name, env.workspace / name)
    env.vars["LOCUS_DAP_PYTHON"] = sys.executable

    async def main():
        params = StdioServerParameters(command=locus_bin(), args=["mcp"], env=env.vars, cwd=str(env.workspace))
        async with Client(params) as client:
            call = caller(client)

            e = await call("debug_break_on", {"breakOn": "raised"})
            assert e["data"] == {"breakOn": "raised", "sessions": []}, e
            await call("debug_start", {"program": "caught.py"})
            e = await call("debug_wait_for_stop", {"timeoutMs": WAIT_MS})
            assert e["data"]["reason"] == "exception" and e["data"]["position"]["line"] == 6, e
            ctx = e["debugContext"]
            assert ctx["exception"]["type"] == "KeyError" and ctx["exception"]["breakMode"] == "always", ctx
            assert {"name": "n", "type": "int", "value": "2"} in ctx["localContext"]["arguments"] + ctx["localContext"]["locals"], ctx
            # The adapter's traffic shows what it was sent: the filters of `raised`.
            e = await call("debug_traffic", {"limit": 200})
            sent = [json.loads(m["json"]) for m in e["data"]["messages"] if m["direction"] == "sent" and m["name"] == "setExceptionBreakpoints"]
            assert [m["arguments"]["filters"] for m in sent] == [["raised", "uncaught"]], e["data"]
            assert e["data"]["messages"][0]["name"] == "initialize" and e["data"]["oldest"] == 0
            e = await call("debug_break_on", {"breakOn": "uncaught"})
            assert e["data"]["sessions"] == [{"sessionId": "s1", "filters": ["uncaught"]}], e
            e = await call("debug_continue", {"wait": True, "timeoutMs": WAIT_MS})
            assert e["data"]["state"] == "exited" and e["data"]["exitStatus"] == 0, e
            await call("debug_stop")

            e = await call("debug_test", {"path": "test_cart.py", "name": "TestCart::test_wrong", "breakOn": "raised"})
            ctx = e["debugContext"]
            assert ctx["debuggerState"]["stopReason"] == "exception", e
            assert ctx["exception"]["type"] == "AssertionError" and ctx["exception"]["message"] == "assert 1 == 2", ctx
            assert ctx["currentPosition"]["line"] == 19, ctx
            await call("debug_stop")

    asyncio.run(main())
