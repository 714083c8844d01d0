"""Locus's Windows build (x86_64-pc-windows-gnu) run under Wine: the CLI, `locus lsp` driven by
a scripted LSP client that spells URIs as VS Code does on Windows (`file:///z%3A/...`), its
discovery file and token, and `locus mcp` driven by the Python MCP SDK, forwarding to that
sidecar. Wine maps the Linux root to drive Z:, so every path Locus answers is a Windows path.

What only a real Windows can check is listed in docs/platforms.md.

Needs scripts/install-wine.sh (Wine, mingw-w64, the prefix and the one DLL Debian's Wine lacks)
and `cargo build -p locus-server --target x86_64-pc-windows-gnu`; scripts/test.sh does both.
"""

import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
from mcp_common import LspProcess  # noqa: E402

PEERS = Path(os.environ.get("LOCUS_PEERS_DIR", ROOT / "target" / "peers"))
WAIT = 60

PY = "class Store:\r\n    def load(self):\r\n        return 1\r\n\r\n\r\ndef main():\r\n    pass\r\n"


def windows(path: Path) -> str:
    """`path` as the Windows build sees it: drive Z: is the Linux root."""
    return "Z:" + str(path).replace("/", "\\")


@pytest.fixture(scope="module")
def wine(tmp_path_factory):
    """The Windows build, beside the DLL Wine lacks, and the environment to run it in."""
    exe = Path(os.environ.get("LOCUS_WINDOWS_BIN", ROOT / "target" / "x86_64-pc-windows-gnu" / "debug" / "locus.exe"))
    if not exe.exists():
        pytest.fail(f"no Windows build at {exe}: cargo build -p locus-server --target x86_64-pc-windows-gnu")
    shim = PEERS / "wine" / "bcryptprimitives.dll"
    prefix = PEERS / "wine" / "prefix"
    if not shim.exists() or not (prefix / "system.reg").exists() or not shutil.which("wine"):
        pytest.fail("Wine is not set up: run scripts/install-wine.sh")
    tmp = tmp_path_factory.mktemp("wine")
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    shutil.copy(exe, bin_dir / "locus.exe")
    shutil.copy(shim, bin_dir / "bcryptprimitives.dll")
    ws = (tmp / "ws").resolve()
    ws.mkdir()
    (ws / "store.py").write_bytes(PY.encode())
    (ws / "app.ts").write_text("export class App {\n  run() {\n    return 1;\n  }\n}\n")
    env = dict(os.environ, WINEPREFIX=str(prefix), WINEDEBUG="-all", LOCUS_LOG="warn", LOCUS_TEST_TOOLS="1")
    env.pop("DISPLAY", None)
    return {"cmd": ["wine", str(bin_dir / "locus.exe")], "env": env, "ws": ws, "prefix": prefix}


def run(wine, *args, cwd=None, check=True) -> subprocess.CompletedProcess:
    r = subprocess.run([*wine["cmd"], *args], env=wine["env"], cwd=cwd or wine["ws"], capture_output=True,
                       text=True, timeout=WAIT)
    if check:
        assert r.returncode == 0, f"locus {' '.join(args)}: exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r


def unix_path(wine, path: str) -> Path:
    """A Windows path of the Wine prefix, as a Linux path."""
    out = subprocess.run(["winepath", "-u", path], env=wine["env"], capture_output=True, text=True, timeout=WAIT)
    return Path(out.stdout.strip())


def test_context_of_a_crlf_file_names_it_as_windows_does(wine):
    store = wine["ws"] / "store.py"
    for spelled in [windows(store), str(store)]:
        ctx = json.loads(run(wine, "context", f"{spelled}:3:9").stdout)
        assert ctx["file"]["path"] == windows(store), ctx
        assert ctx["file"]["name"] == "store.py", ctx
        assert ctx["file"]["lineCount"] == 8, ctx
        assert ctx["symbols"]["scopeHierarchy"] == "Class:Store > Method:load", ctx


def test_outline_and_symbols(wine):
    outline = json.loads(run(wine, "outline", windows(wine["ws"] / "app.ts")).stdout)
    assert [(s["name"], [c["name"] for c in s["children"]]) for s in outline] == [("App", ["run"])]
    lines = [json.loads(line) for line in run(wine, "symbols", "Store").stdout.splitlines()]
    assert lines and lines[0]["name"] == "Store", lines
    assert lines[0]["path"] == windows(wine["ws"] / "store.py"), lines[0]


def test_doctor_reports_the_windows_folders(wine):
    r = run(wine, "doctor", check=False)
    assert "runtime directory: ~\\AppData\\Local\\locus\\run" in r.stdout, r.stdout
    assert "mode 0700" not in r.stdout, r.stdout
    # Not on PATH under Wine: the hint is Windows's, not a Unix symlink.
    assert "Edit environment variables for your account" in r.stdout, r.stdout


class Lsp(LspProcess):
    """`locus lsp` under Wine, initialized by a client that spells URIs as VS Code does on Windows."""

    def __init__(self, wine):
        self.wine = wine
        super().__init__([*wine["cmd"], "lsp"], wine["env"], cwd=wine["ws"], stderr=subprocess.DEVNULL, timeout=WAIT)
        folder = self.uri(wine["ws"])
        self.request("initialize", {"processId": None, "rootUri": folder, "workspaceFolders": [{"uri": folder, "name": "ws"}],
                                    "capabilities": {"experimental": {"locus": {"cursor": True}}}, "clientInfo": {"name": "wine-editor"}})
        self.notify("initialized", {})
        self.status = self.wait_for(lambda m: m.get("method") == "locus/mcpStatus", "locus/mcpStatus")["params"]

    @staticmethod
    def uri(path: Path) -> str:
        return "file:///z%3A" + urllib.request.pathname2url(str(path))

    def open_at(self, path: Path, line: int, character: int):
        uri = self.uri(path)
        lang = "python" if path.suffix == ".py" else "typescript"
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": path.read_text()}})
        self.notify("locus/didChangeActiveEditor", {"textDocument": {"uri": uri}, "focused": True})
        self.notify("locus/didChangeCursor", {"textDocument": {"uri": uri, "version": 1}, "position": {"line": line, "character": character}})

    def kill(self):
        self.proc.kill()
        self.proc.wait(timeout=WAIT)


@pytest.fixture(scope="module")
def lsp(wine):
    server = Lsp(wine)
    server.open_at(wine["ws"] / "store.py", 2, 8)
    yield server
    server.kill()


def test_lsp_reads_vscode_uris_and_answers_windows_paths(lsp, wine):
    ctx = lsp.request("locus/getContext", {})
    assert ctx["file"]["path"] == windows(wine["ws"] / "store.py"), ctx
    assert ctx["file"]["name"] == "store.py", ctx
    assert ctx["symbols"]["scopeHierarchy"] == "Class:Store > Method:load", ctx


def record_of(lsp) -> dict:
    assert lsp.status["state"] == "listening", lsp.status
    windows_file = lsp.status["discoveryFile"]
    assert windows_file.startswith("C:\\users\\") and "\\AppData\\Local\\locus\\run\\" in windows_file, windows_file
    file = unix_path(lsp.wine, windows_file)
    assert file.exists(), f"{windows_file} is {file}, which does not exist"
    return json.loads(file.read_text())


def post(url: str, token: "str | None") -> int:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "wine-probe", "version": "0"}}}).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, body, headers), timeout=WAIT) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def test_discovery_file_and_token(lsp, wine):
    record = record_of(lsp)
    assert record["url"].startswith("http://127.0.0.1:"), record
    assert record["editor"] == "wine-editor", record
    assert record["workspaceFolders"] == [windows(wine["ws"])], record
    assert post(record["url"], None) == 401
    assert post(record["url"], "not-the-token") == 401
    assert post(record["url"], record["token"]) == 200


def test_mcp_forwards_to_the_editor_through_the_python_sdk(lsp, wine):
    from mcp import Client, StdioServerParameters

    async def main():
        params = StdioServerParameters(command="wine", args=[*wine["cmd"][1:], "mcp"], env=wine["env"], cwd=str(wine["ws"]))
        async with Client(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"editor_get_context", "symbol_outline", "bridge_status"} <= names
            r = await client.call_tool("editor_get_context", {})
            assert r.is_error is False, r
            envelope = r.structured_content
            ctx = envelope["editorContext"]
            assert ctx["file"]["path"] == windows(wine["ws"] / "store.py"), envelope
            assert ctx["symbols"]["scopeHierarchy"] == "Class:Store > Method:load", envelope
            status = (await client.call_tool("bridge_status", {})).structured_content
            assert status["data"]["mode"] != "in-process", status

    asyncio.run(main())


def test_a_killed_editors_file_is_not_trusted(wine):
    server = Lsp(wine)
    file = unix_path(wine, record_of(server)["url"] and server.status["discoveryFile"])
    server.kill()
    deadline = time.time() + WAIT
    # `locus status` finds the sidecar's process gone and removes its file.
    while time.time() < deadline and file.exists():
        run(wine, "status", check=False)
        time.sleep(0.5)
    assert not file.exists(), f"{file} was left for agents to trust"
