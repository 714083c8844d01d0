"""The Python `mcp` SDK (2.x, `from mcp import Client`) against Locus: over streamable HTTP
to the `locus lsp` sidecar, and over `locus mcp` on stdio (forwarding, and in-process).

Needs the `mcp` package (scripts/install-test-peers.sh installs it) and the `locus` binary
($LOCUS_BIN, else target/debug/locus). A missing peer fails the test: it never skips.
"""

import asyncio
import json
import time

import pytest

from mcp_common import PY, Env, Sidecar, env, locus_bin, sidecar  # noqa: F401 (fixtures)

try:
    from mcp import Client, StdioServerParameters
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
except ImportError as e:  # a missing peer fails loudly
    Client = None
    IMPORT_ERROR = e


def need_sdk():
    if Client is None:
        pytest.fail(f"the Python `mcp` SDK is missing ({IMPORT_ERROR}): run scripts/install-test-peers.sh")


def http(sidecar_: Sidecar, token: str | None = None):
    headers = {"Authorization": f"Bearer {token if token is not None else sidecar_.token}"}
    return Client(streamable_http_client(sidecar_.url, http_client=create_mcp_http_client(headers=headers)))


def stdio(env_: Env, *args: str, cwd=None):
    return Client(StdioServerParameters(command=locus_bin(), args=["mcp", *args], env=env_.vars, cwd=str(cwd or env_.workspace)))


def structured(result) -> dict:
    return result.structured_content


def test_http_tools_list_and_editor_context(sidecar):
    need_sdk()

    async def main():
        async with http(sidecar) as client:
            tools = (await client.list_tools()).tools
            by_name = {t.name: t for t in tools}
            # The guidance rides in the description every client shows.
            assert by_name["editor_get_context"].description.startswith(
                "Get current editor cursor position, selection, and containing symbol context.\n\nUSE FOR: ")
            assert by_name["symbol_scope_at"].input_schema["required"] == ["path", "line"]
            meta = by_name["editor_get_context"].meta
            assert meta == {"locus/category": "editor", "locus/timeoutMs": 30000, "locus/system": False}

            r = await client.call_tool("editor_get_context", {})
            assert r.is_error is False
            e = structured(r)
            assert e["ok"] is True and e["type"] == "success" and e["data"] == {}
            assert e["editorContext"]["cursor"] == {"line": 4, "character": 9}
            assert e["editorContext"]["symbols"]["scopeHierarchy"] == "Class:Greeter > Method:greet"
            assert e["meta"]["tool"] == "editor_get_context" and e["meta"]["durationMs"] >= 0
            assert r.content[0].text.startswith("Cursor at ")

            sidecar.cursor(sidecar.greeter, 7, 4)
            e = structured(await client.call_tool("editor_get_context", {}))
            assert e["editorContext"]["symbols"]["scopeHierarchy"] == "Function:main"

            for system in ["bridge_status", "mcp_list_tools"]:
                e = structured(await client.call_tool(system, {}))
                assert e["ok"] is True
                assert "editorContext" not in e, system

            r = await client.call_tool("symbol_scope_at", {"path": "greeter.py", "line": "four"})
            assert r.is_error is True
            err = structured(r)["error"]
            assert err["code"] == "E_INVALID_PARAMS"
            assert "`line`" in err["message"] and "integer" in err["message"] and "e.g. 46" in err["message"]
            assert err["hint"]

    asyncio.run(main())


def test_http_output_schemas_describe_every_answer(sidecar):
    """Every tool has an outputSchema: the SDK validates each successful structuredContent
    against it, and errors are checked here against the same schema
    (docs/reference/envelope.md)."""
    need_sdk()
    import jsonschema

    async def main():
        async with http(sidecar) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            for name, tool in tools.items():
                assert tool.output_schema is not None, name
                jsonschema.Draft202012Validator.check_schema(tool.output_schema)
            calls = [
                ("editor_get_context", {}, False),
                ("symbol_outline", {"path": "greeter.py"}, False),
                ("symbol_outline", {"path": "greeter.py", "maxDepth": 1, "kinds": ["Class"]}, False),
                ("symbol_scope_at", {"path": "greeter.py", "line": 4, "character": None}, False),
                ("bridge_status", {}, False),
                ("mcp_list_tools", {"category": None}, False),
                ("debug_status", {}, None),
                ("breakpoint_list", {}, None),
                ("symbol_scope_at", {"path": "greeter.py", "line": 9999}, True),
                ("symbol_outline", {"path": "nope.py"}, True),
                ("symbol_outline", {"path": "greeter.py", "kinds": ["Gizmo"]}, True),
            ]
            for name, args, is_error in calls:
                r = await client.call_tool(name, args)  # the SDK validates successes itself
                if is_error is not None:
                    assert r.is_error is is_error, (name, args, r)
                jsonschema.validate(r.structured_content, tools[name].output_schema)
            past = structured(await client.call_tool("symbol_scope_at", {"path": "greeter.py", "line": 9999}))
            assert past["error"]["code"] == "E_INVALID_PARAMS"
            assert past["error"]["details"]["lineCount"] == 9 and "9 lines" in past["error"]["message"]

    asyncio.run(main())


def test_http_slow_call_keeps_the_context_of_its_start(sidecar):
    need_sdk()

    async def main():
        async with http(sidecar) as client:
            slow = asyncio.create_task(client.call_tool("test_sleep", {"ms": 800}))
            await asyncio.sleep(0.3)
            sidecar.edit(sidecar.greeter, 2, 0, "import os\n")
            sidecar.cursor(sidecar.greeter, 0, 2)
            e = structured(await slow)
            assert e["ok"] is True
            assert e["editorContext"]["cursor"] == {"line": 4, "character": 9}
            assert e["editorContext"]["file"]["lineCount"] == 9
            now = structured(await client.call_tool("editor_get_context", {}))
            assert now["editorContext"]["cursor"] == {"line": 1, "character": 3}
            assert now["editorContext"]["file"]["lineCount"] == 10

            # No text editor left: still a success, with no editorContext, and the data and
            # the summary say why (no editor is not an error).
            sidecar.notify("locus/didChangeActiveEditor", {"textDocument": None})
            sidecar.request("locus/getContext", None)
            r = await client.call_tool("editor_get_context", {})
            e = structured(r)
            assert r.is_error is False and e["ok"] is True, e
            assert e["data"]["noEditor"]["reason"] == "no-text-editor", e
            assert "editorContext" not in e
            assert r.content[0].text.startswith("No editor is active")

    asyncio.run(main())


def test_long_calls_send_progress_to_a_client_that_asks(env):
    """A wait longer than a few seconds sends notifications/progress when the client gave a
    progressToken (the SDK gives one with a progress callback; docs/reference/envelope.md): over
    HTTP to the sidecar, and through `locus mcp` forwarding to it. The interval is shortened for
    the test."""
    need_sdk()
    env.vars["LOCUS_MCP_PROGRESS_MS"] = "200"
    sidecar = Sidecar(env)

    async def call(client) -> list[tuple[float, str | None]]:
        seen: list[tuple[float, str | None]] = []

        async def progress(value: float, total: float | None, message: str | None):
            seen.append((value, message))

        r = await client.call_tool("test_sleep", {"ms": 1500}, progress_callback=progress)
        assert r.is_error is False, structured(r)
        return seen

    async def main():
        async with http(sidecar) as client:
            seen = await call(client)
            assert len(seen) >= 2, seen
            assert [v for v, _ in seen] == sorted(v for v, _ in seen), seen
            assert all("test_sleep" in (m or "") for _, m in seen), seen
            # Without a callback the SDK sends no token, and no progress comes.
            assert structured(await client.call_tool("test_sleep", {"ms": 400}))["ok"] is True
        async with stdio(env) as client:
            seen = await call(client)
            assert len(seen) >= 2, seen
            assert all("test_sleep" in (m or "") for _, m in seen), seen

    try:
        asyncio.run(main())
    finally:
        sidecar.stop()


def test_http_without_the_token_is_refused(sidecar):
    need_sdk()

    async def main():
        with pytest.raises(BaseException):
            async with http(sidecar, token="wrong") as client:
                await client.list_tools()
        with pytest.raises(BaseException):
            async with Client(sidecar.url) as client:
                await client.list_tools()

    asyncio.run(main())


def test_stdio_forwards_to_the_sidecar(sidecar, env):
    need_sdk()

    async def main():
        async with stdio(env, cwd=env.workspace) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"editor_get_context", "symbol_outline", "symbol_scope_at", "bridge_status", "mcp_list_tools"} <= names
            e = structured(await client.call_tool("editor_get_context", {}))
            assert e["editorContext"]["cursor"] == {"line": 4, "character": 9}
            status = structured(await client.call_tool("bridge_status", {}))["data"]
            assert status["mode"] == "sidecar" and status["pid"] == sidecar.proc.pid
            e = structured(await client.call_tool("symbol_outline", {"path": "greeter.py"}))
            assert [s["name"] for s in e["data"]["symbols"]] == ["Greeter", "main"]

    asyncio.run(main())


def test_stdio_in_process_without_a_sidecar(env):
    need_sdk()
    (env.workspace / "greeter.py").write_text(PY)

    async def main():
        # --timeout bounds in-process calls too; room for a cold query compile in a debug build
        # on a loaded machine before the sleep shows the bound.
        async with stdio(env, "--timeout", "3000") as client:
            status = structured(await client.call_tool("bridge_status", {}))["data"]
            assert status["mode"] == "in-process"
            r = await client.call_tool("editor_get_context", {})
            assert r.is_error is False and structured(r)["data"]["noEditor"]["reason"] == "no-sidecar", structured(r)
            assert "editorContext" not in structured(r)
            assert "no running `locus lsp`" in r.content[0].text
            e = structured(await client.call_tool("symbol_scope_at", {"path": "greeter.py", "line": 4, "character": 9}))
            assert e["data"]["scopeHierarchy"] == "Class:Greeter > Method:greet"
            e = structured(await client.call_tool("test_sleep", {"ms": 20000}))
            assert e["error"]["code"] == "E_TIMEOUT"

    asyncio.run(main())


def test_stdio_finds_a_restarted_editor(env):
    need_sdk()

    async def main():
        async with stdio(env) as client:
            first = Sidecar(env, "first")
            try:
                s = structured(await client.call_tool("bridge_status", {}))["data"]
                assert s["pid"] == first.proc.pid and s["editor"] == "first"
            finally:
                first.stop()
            second = Sidecar(env, "second")
            try:
                s = structured(await client.call_tool("bridge_status", {}))["data"]
                assert s["pid"] == second.proc.pid and s["editor"] == "second"
            finally:
                second.stop()
            s = structured(await client.call_tool("bridge_status", {}))["data"]
            assert s["mode"] == "in-process"

    asyncio.run(main())


def test_stdio_dialog_first_request_from_a_transcript(env, tmp_path):
    """`dialog_get_first_request` through a real MCP client: the user's first request, verbatim,
    from a Claude Code transcript of this workspace (a fixture home, so the machine's own
    transcripts stay out)."""
    need_sdk()
    home = tmp_path / "home"
    claude = home / ".claude"
    workspace = str(env.workspace)
    project = claude / "projects" / workspace.replace("/", "-")
    project.mkdir(parents=True)
    first = "Add a retry with backoff to the HTTP client — keep the 30 s timeout 🚀"
    records = [
        {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": "s-1", "cwd": workspace,
         "timestamp": "2026-11-20T10:00:00.000Z", "message": {"role": "user", "content": first}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s-1", "cwd": workspace,
         "timestamp": "2026-11-20T10:00:05.000Z", "message": {"role": "assistant", "content": [{"type": "text", "text": "On it."}]}},
        {"type": "user", "uuid": "u2", "parentUuid": "a1", "sessionId": "s-1", "cwd": workspace,
         "timestamp": "2026-11-20T10:01:00.000Z", "message": {"role": "user", "content": "Now add a test."}},
    ]
    (project / "s-1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    env.vars.update(LOCUS_MEMORY_HOME=str(home), CLAUDE_CONFIG_DIR=str(claude), CODEX_HOME=str(home / ".codex"),
                    GEMINI_CLI_HOME=str(home))

    async def main():
        async with stdio(env) as client:
            r = await client.call_tool("dialog_get_first_request", {})
            e = structured(r)
            assert e["ok"] is True, e
            assert e["data"]["firstRequest"] == first
            assert e["data"]["sessionId"] == "s-1"
            r = await client.call_tool("dialog_get_request", {"index": 3})
            e = structured(r)
            assert e["ok"] is False and e["error"]["message"] == "Index 3 exceeds total requests (2)"

    asyncio.run(main())


def test_stdio_dialog_honours_workspace_from_the_filesystem_root(env, tmp_path):
    """`locus mcp --workspace DIR` started from `/` (as desktop agents start MCP servers)
    recalls DIR's conversation; without `--workspace`, `/` holds no project's sessions."""
    need_sdk()
    home = tmp_path / "home"
    claude = home / ".claude"
    workspace = str(env.workspace)
    project = claude / "projects" / workspace.replace("/", "-")
    project.mkdir(parents=True)
    record = {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": "s-ws", "cwd": workspace,
              "timestamp": "2026-11-20T10:00:00.000Z", "message": {"role": "user", "content": "Port the CLI to Rust."}}
    (project / "s-ws.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    env.vars.update(LOCUS_MEMORY_HOME=str(home), CLAUDE_CONFIG_DIR=str(claude), CODEX_HOME=str(home / ".codex"),
                    GEMINI_CLI_HOME=str(home))

    async def main():
        async with stdio(env, "--workspace", workspace, cwd="/") as client:
            e = structured(await client.call_tool("dialog_get_first_request", {}))
            assert e["ok"] is True, e
            assert e["data"]["firstRequest"] == "Port the CLI to Rust."
        async with stdio(env, cwd="/") as client:
            e = structured(await client.call_tool("dialog_list_sessions", {}))
            assert e["ok"] is True and e["data"]["sessions"] == [], e
            e = structured(await client.call_tool("dialog_get_first_request", {}))
            assert e["ok"] is False and e["error"]["code"] == "E_NOT_FOUND", e
            assert "--workspace" in e["error"]["hint"], e

    asyncio.run(main())
