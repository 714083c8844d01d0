"""The MCP Inspector CLI (`mcp-inspector --cli`, 0.15 on Node 20) against Locus: tools/list
and tools/call over `locus mcp` on stdio (forwarding to a live sidecar, and in-process) and
over streamable HTTP.

Inspector 0.15 cannot add request headers, so over HTTP it reaches the sidecar through a
small loopback proxy that adds `Authorization: Bearer <token>` (and nothing else); talking to
the sidecar directly, without the token, it is refused.

Needs the Inspector (scripts/install-test-peers.sh installs it under tests/e2e/node_modules)
and the `locus` binary. A missing peer fails the test: it never skips.
"""

import http.client
import json
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from mcp_common import PY, Sidecar, env, inspector_bin, locus_bin, sidecar  # noqa: F401 (fixtures)

TIMEOUT = 60


def inspector(env_, *args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([inspector_bin(), "--cli", *args], cwd=str(cwd or env_.workspace), env=env_.vars,
                          capture_output=True, text=True, timeout=TIMEOUT)


def output(run: subprocess.CompletedProcess) -> dict:
    assert run.returncode == 0, f"inspector failed ({run.returncode}):\n{run.stdout}\n{run.stderr}"
    return json.loads(run.stdout)


def test_inspector_stdio_forwarding_to_the_sidecar(sidecar, env):
    listed = output(inspector(env, locus_bin(), "mcp", "--method", "tools/list"))
    names = {t["name"] for t in listed["tools"]}
    assert {"editor_get_context", "symbol_outline", "symbol_scope_at", "bridge_status", "mcp_list_tools"} <= names
    tool = next(t for t in listed["tools"] if t["name"] == "editor_get_context")
    assert tool["description"].startswith("Get current editor cursor position, selection, and containing symbol context.\n\nUSE FOR: ")
    assert tool["outputSchema"]["required"] == ["ok", "type", "meta"]

    called = output(inspector(env, locus_bin(), "mcp", "--method", "tools/call", "--tool-name", "editor_get_context"))
    e = called["structuredContent"]
    assert e["ok"] is True
    assert e["editorContext"]["cursor"] == {"line": 4, "character": 9}
    assert e["editorContext"]["symbols"]["scopeHierarchy"] == "Class:Greeter > Method:greet"

    called = output(inspector(env, locus_bin(), "mcp", "--method", "tools/call", "--tool-name", "symbol_outline", "--tool-arg", "path=greeter.py"))
    assert [s["name"] for s in called["structuredContent"]["data"]["symbols"]] == ["Greeter", "main"]
    assert "editorContext" in called["structuredContent"]

    # The Inspector types --tool-arg values by the input schema, as `locus call` does.
    called = output(inspector(env, locus_bin(), "mcp", "--method", "tools/call", "--tool-name", "symbol_scope_at",
                              "--tool-arg", "path=greeter.py", "line=4", "character=9"))
    assert called["isError"] is False, called
    assert called["structuredContent"]["data"]["scopeHierarchy"] == "Class:Greeter > Method:greet"
    called = output(inspector(env, locus_bin(), "mcp", "--method", "tools/call", "--tool-name", "symbol_scope_at",
                              "--tool-arg", "path=greeter.py", "line=four"))
    assert called["isError"] is True
    err = called["structuredContent"]["error"]
    assert err["code"] == "E_INVALID_PARAMS" and err["details"]["parameter"] == "line", err


def test_inspector_stdio_in_process(env):
    (env.workspace / "greeter.py").write_text(PY)
    called = output(inspector(env, locus_bin(), "mcp", "--method", "tools/call", "--tool-name", "bridge_status"))
    assert called["structuredContent"]["data"]["mode"] == "in-process"
    assert "editorContext" not in called["structuredContent"]
    called = output(inspector(env, locus_bin(), "mcp", "--method", "tools/call", "--tool-name", "symbol_outline", "--tool-arg", "path=greeter.py"))
    assert called["structuredContent"]["data"]["totalInDocument"] == 5


class _AddToken(BaseHTTPRequestHandler):
    """Forwards every request to the sidecar with the bearer token added."""

    upstream = ""
    token = ""

    def _forward(self):
        target = urlsplit(self.upstream)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)) if self.command == "POST" else None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "content-length")}
        headers["Authorization"] = f"Bearer {self.token}"
        conn = http.client.HTTPConnection(target.hostname, target.port, timeout=TIMEOUT)
        conn.request(self.command, target.path, body=body, headers=headers)
        response = conn.getresponse()
        self.send_response(response.status)
        for k, v in response.getheaders():
            if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                self.send_header(k, v)
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            while True:
                chunk = response.read1(65536)
                if not chunk:
                    break
                self.wfile.write(chunk)
                self.wfile.flush()
        except (http.client.HTTPException, OSError):
            # The Inspector's event stream (GET) stays open until the sidecar stops at the
            # fixture's end, which cuts it mid-chunk; the relay just ends (no traceback on
            # the test run's stderr).
            pass
        finally:
            conn.close()

    do_POST = do_GET = do_DELETE = _forward

    def log_message(self, *args):
        pass


def test_inspector_streamable_http(sidecar, env):
    # Directly, without the token: refused.
    refused = inspector(env, sidecar.url, "--method", "tools/list")
    assert refused.returncode != 0, refused.stdout

    handler = type("Handler", (_AddToken,), {"upstream": sidecar.url, "token": sidecar.token})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/mcp"
        listed = output(inspector(env, url, "--method", "tools/list"))
        assert "editor_get_context" in {t["name"] for t in listed["tools"]}
        called = output(inspector(env, url, "--method", "tools/call", "--tool-name", "editor_get_context"))
        assert called["structuredContent"]["editorContext"]["cursor"] == {"line": 4, "character": 9}
        called = output(inspector(env, url, "--method", "tools/call", "--tool-name", "bridge_status"))
        assert called["structuredContent"]["data"]["pid"] == sidecar.proc.pid
        assert "editorContext" not in called["structuredContent"]
    finally:
        server.shutdown()
