"""Shared pieces of the MCP end-to-end tests: a `locus lsp` sidecar driven by a minimal LSP
client, its discovery file, and the environment every process of a test shares.

A missing peer (the `locus` binary, the `mcp` SDK, the MCP Inspector) fails the test: it
never skips.
"""

import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20.0

PY = '''class Greeter:
    def greet(self, name):
        msg = name
        return msg


def main():
    pass
'''


def locus_bin() -> str:
    path = os.environ.get("LOCUS_BIN")
    if not path:
        target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        path = str(target / "debug" / "locus")
    if not Path(path).is_file():
        pytest.fail(f"locus binary not found at {path}: run `cargo build -p locus-server` or set LOCUS_BIN")
    return path


def inspector_bin() -> str:
    path = os.environ.get("MCP_INSPECTOR") or str(ROOT / "tests" / "e2e" / "node_modules" / ".bin" / "mcp-inspector")
    if not Path(path).exists():
        pytest.fail(f"MCP Inspector not found at {path}: run scripts/install-test-peers.sh (npm i @modelcontextprotocol/inspector under tests/e2e)")
    return path


def read_framed(stream) -> "dict | None":
    """The next `Content-Length`-framed JSON message of `stream` (LSP; tsserver answers the
    same way, with a line break after each body: blank lines before a header are skipped), or
    None at the end of the stream."""
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            if length is not None:
                break
            continue
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))


def send_framed(stream, message: dict):
    """Writes `message` to `stream` with its `Content-Length` header, and flushes."""
    body = json.dumps(message).encode()
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


class Env:
    """A test's runtime directory (where discovery files go) and workspace."""

    def __init__(self, tmp: Path):
        self.runtime = tmp / "run"
        self.workspace = (tmp / "ws")
        self.runtime.mkdir()
        self.workspace.mkdir()
        self.workspace = self.workspace.resolve()
        # The symbol cache in the test's directory, never the user's ~/.cache/locus/index.
        self.vars = dict(os.environ, XDG_RUNTIME_DIR=str(self.runtime), LOCUS_CACHE_DIR=str(tmp / "cache"),
                         LOCUS_TEST_TOOLS="1", LOCUS_LOG="warn")

    def discovery_file(self, pid: int) -> Path:
        return self.runtime / "locus" / f"{pid}.json"


class LspProcess:
    """A language server spoken to as an editor does, over its standard streams: messages read
    on a thread into a queue, requests answered by their id."""

    def __init__(self, argv: list[str], env: dict, cwd=None, stderr=None, timeout: float = WAIT):
        self.timeout = timeout
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env, cwd=cwd)
        self.messages: "queue.Queue[dict]" = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while (message := read_framed(self.proc.stdout)) is not None:
            self.messages.put(message)

    def notify(self, method: str, params):
        send_framed(self.proc.stdin, {"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for(self, matches, what: str) -> dict:
        """The next message `matches` accepts (those before it are dropped)."""
        deadline = time.time() + self.timeout
        while time.time() < deadline:
            try:
                message = self.messages.get(timeout=0.5)
            except queue.Empty:
                continue
            if matches(message):
                return message
        raise TimeoutError(f"no {what} within {self.timeout} s")

    def request(self, method: str, params):
        """The result of `method`; an error answer raises RuntimeError."""
        rid = self.next_id
        self.next_id += 1
        send_framed(self.proc.stdin, {"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        m = self.wait_for(lambda m: m.get("id") == rid and "method" not in m, f"response to {method}")
        if "error" in m:
            raise RuntimeError(m["error"])
        return m.get("result")


class Sidecar(LspProcess):
    """`locus lsp`, initialized by a client that reports its cursor (`locus/didChangeCursor`)."""

    def __init__(self, env: Env, name: str = "pytest-editor"):
        self.env = env
        super().__init__([locus_bin(), "lsp"], env.vars)
        folder = env.workspace.as_uri()
        self.request("initialize", {"processId": None, "rootUri": folder, "workspaceFolders": [{"uri": folder, "name": "ws"}],
                                    "capabilities": {"experimental": {"locus": {"cursor": True}}}, "clientInfo": {"name": name}})
        self.notify("initialized", {})
        self.record = self._wait_record()

    def _wait_record(self) -> dict:
        path = self.env.discovery_file(self.proc.pid)
        deadline = time.time() + WAIT
        while time.time() < deadline:
            try:
                record = json.loads(path.read_text())
                if record["workspaceFolders"]:
                    return record
            except (OSError, ValueError):
                pass
            time.sleep(0.02)
        raise TimeoutError(f"no discovery file at {path}")

    @property
    def url(self) -> str:
        return self.record["url"]

    @property
    def token(self) -> str:
        return self.record["token"]

    def open(self, path: Path, text: str, language: str = "python"):
        self.notify("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": language, "version": 1, "text": text}})
        self.notify("locus/didChangeActiveEditor", {"textDocument": {"uri": path.as_uri()}})

    def cursor(self, path: Path, line: int, character: int):
        """Moves the cursor (0-based) and waits until the server has applied it."""
        self.notify("locus/didChangeCursor", {"textDocument": {"uri": path.as_uri()}, "position": {"line": line, "character": character}})
        self.request("locus/getContext", None)

    def edit(self, path: Path, version: int, line: int, text: str):
        self.notify("textDocument/didChange", {"textDocument": {"uri": path.as_uri(), "version": version},
                                              "contentChanges": [{"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": text}]})

    def stop(self):
        if self.proc.poll() is None:
            try:
                self.request("shutdown", None)
                self.notify("exit", None)
                self.proc.stdin.close()
            except (OSError, RuntimeError, TimeoutError):
                pass
            try:
                self.proc.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def env(tmp_path):
    return Env(tmp_path)


@pytest.fixture
def sidecar(env):
    s = Sidecar(env)
    path = env.workspace / "greeter.py"
    path.write_text(PY)
    s.open(path, PY)
    s.cursor(path, 3, 8)
    s.greeter = path
    yield s
    s.stop()
