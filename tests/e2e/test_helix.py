"""Helix 25.07.1, as released, with Locus configured from editors/helix (issue 11 §4).

A real `hx` runs in tmux: keys go in with `tmux send-keys`, the screen comes out with
`tmux capture-pane`, and what Locus knows is read the way an agent reads it, with
`locus call editor_get_context` (the sidecar's discovery file, in the test's runtime folder).
Helix has no plugin API, so Locus learns the cursor from the `space L` keymap
(`locus.cursor`), from the requests Helix sends (hover), and from the edits.

HOME is a scratch folder holding `.config/helix/config.toml` and `languages.toml`, made from
editors/helix (the keymap verbatim; `locus` pointing at $LOCUS_BIN, else target/debug/locus).
Helix's automatic completion and signature help are turned off, so the edits alone stand in
for the cursor where that is what a test checks.

Needs `hx` (scripts/install-test-peers.sh builds it with scripts/install-helix.sh; $LOCUS_HX
names another), tmux and the `locus` binary. A missing peer fails the test: it never skips.
Every wait is bounded.
"""

import json
import os
import re
import shutil
import subprocess
import time
import tomllib
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20.0

PY = '''class Greeter:
    def greet(self, name):
        message = "hello " + name
        return message


def main():
    g = Greeter()
    print(g.greet("x"))
'''


def locus_bin() -> str:
    path = os.environ.get("LOCUS_BIN")
    if not path:
        target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        path = str(target / "debug" / "locus")
    if not Path(path).is_file():
        pytest.fail(f"locus binary not found at {path}: run `cargo build -p locus-server` or set LOCUS_BIN")
    return path


def hx_bin() -> str:
    """Helix 25.07.1: $LOCUS_HX, else what scripts/install-helix.sh built (it prints the path
    at once when the build is cached, and builds it otherwise)."""
    path = os.environ.get("LOCUS_HX")
    if not path:
        run = subprocess.run(["bash", str(ROOT / "scripts" / "install-helix.sh")], capture_output=True, text=True, timeout=3600)
        if run.returncode != 0 or not run.stdout.strip():
            pytest.fail(f"Helix is missing and scripts/install-helix.sh could not build it:\n{run.stderr[-4000:]}")
        path = run.stdout.strip().splitlines()[-1]
    if not Path(path).is_file():
        pytest.fail(f"hx not found at {path}: run scripts/install-test-peers.sh")
    version = subprocess.run([path, "--version"], capture_output=True, text=True, env=dict(os.environ, HELIX_RUNTIME=str(Path(path).parent.parent / "runtime")))
    if "25.07.1" not in version.stdout:
        pytest.fail(f"{path} is not Helix 25.07.1: {version.stdout or version.stderr}")
    return path


def tmux_bin() -> str:
    path = shutil.which("tmux")
    if not path:
        pytest.fail("tmux not found: run scripts/install-test-peers.sh (scripts/install-helix.sh installs it)")
    return path


def wait_for(what: str, probe, timeout: float = WAIT):
    """Polls `probe` until it returns something truthy; fails naming `what` and the last value."""
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        last = probe()
        if last:
            return last
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}; last seen: {last!r}")


def helix_config() -> str:
    """The shipped keymap, verbatim, and settings that keep the test's input to Locus exact."""
    keymap = (ROOT / "editors" / "helix" / "config.toml").read_text()
    return keymap + '''
[editor]
# Only the keys a test sends reach Locus: no completion requests while typing.
auto-completion = false

[editor.lsp]
auto-signature-help = false
'''


def helix_languages(locus: str) -> str:
    """editors/helix/languages.toml's `locus` server, pointing at `locus`, as Python's only
    server (the other servers it lists are not installed here)."""
    shipped = tomllib.loads((ROOT / "editors" / "helix" / "languages.toml").read_text())
    server = shipped["language-server"]["locus"]
    python = next(lang for lang in shipped["language"] if lang["name"] == "python")
    assert "locus" in python["language-servers"], "the shipped languages.toml must list locus for Python"
    args = ", ".join(json.dumps(a) for a in server["args"])
    return f'''[language-server.locus]
command = {json.dumps(locus)}
args = [{args}]
environment = {{ LOCUS_LOG = "debug" }}

[[language]]
name = "python"
language-servers = ["locus"]
'''


class Helix:
    """One `hx` in a tmux server of its own, with a scratch HOME and runtime folder."""

    def __init__(self, tmp: Path, cwd: Path, file: str):
        self.tmux = tmux_bin()
        hx = hx_bin()
        self.locus = locus_bin()
        self.home = tmp / "home"
        self.runtime = tmp / "run"
        self.runtime.mkdir(mode=0o700, parents=True)
        config = self.home / ".config" / "helix"
        config.mkdir(parents=True, exist_ok=True)
        (config / "config.toml").write_text(helix_config())
        (config / "languages.toml").write_text(helix_languages(self.locus))
        self.log = self.home / ".cache" / "helix" / "helix.log"
        self.cwd = cwd
        self.socket = f"locus-hx-{uuid.uuid4().hex[:8]}"
        env = {"HOME": str(self.home), "XDG_RUNTIME_DIR": str(self.runtime), "XDG_CONFIG_HOME": str(self.home / ".config"),
               "XDG_CACHE_HOME": str(self.home / ".cache"), "HELIX_RUNTIME": str(Path(hx).parent.parent / "runtime"),
               "TERM": "xterm-256color", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        self.env = dict(os.environ, **env)
        command = ["env", *(f"{k}={v}" for k, v in env.items()), hx, "-v", file]
        subprocess.run([self.tmux, "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "hx", "-x", "120", "-y", "30",
                        "-c", str(cwd), subprocess.list2cmdline(command)], check=True, env=self.env, timeout=WAIT)
        wait_for("Helix's status line", lambda: " NOR " in self.screen())

    # -- the terminal

    def screen(self) -> str:
        run = subprocess.run([self.tmux, "-L", self.socket, "capture-pane", "-p", "-t", "hx"], capture_output=True, text=True, timeout=WAIT)
        return run.stdout

    def keys(self, *keys: str):
        """Sends keys one at a time (tmux key names, or literal text), as a user types them."""
        for k in keys:
            subprocess.run([self.tmux, "-L", self.socket, "send-keys", "-t", "hx", k], check=True, timeout=WAIT)
            time.sleep(0.05)

    def escape(self):
        """Escape alone: the pause keeps Helix from reading it as the start of a key sequence."""
        time.sleep(0.2)
        self.keys("Escape")
        time.sleep(0.3)

    def status(self) -> tuple[str, int, int]:
        """Helix's mode and 1-based cursor line and column, from its status line."""
        for line in reversed(self.screen().splitlines()):
            m = re.search(r"\b(NOR|INS|SEL)\b.*\s(\d+):(\d+)\s*$", line)
            if m:
                return m.group(1), int(m.group(2)), int(m.group(3))
        raise AssertionError(f"no status line on the screen:\n{self.screen()}")

    def message(self) -> str:
        """The message line under the status line."""
        return self.screen().rstrip("\n").splitlines()[-1]

    # -- Locus, as an agent sees it

    def call(self, tool: str, **params) -> dict:
        args = [self.locus, "call", tool]
        for k, v in params.items():
            args += ["--param", f"{k}={v}"]
        run = subprocess.run(args, capture_output=True, text=True, cwd=self.cwd, env=self.env, timeout=WAIT)
        assert run.returncode == 0, f"locus call {tool} failed ({run.returncode}): {run.stderr}"
        return json.loads(run.stdout)

    def context(self) -> dict:
        """The editorContext of the live editor, once a sidecar is up (`{}` until then)."""
        envelope = self.call("editor_get_context")
        assert envelope["ok"], envelope
        return envelope.get("editorContext") or {}

    def context_where(self, what: str, check) -> dict:
        """Polls the context until `check(context)` holds."""
        return wait_for(what, lambda: (lambda c: c if c and check(c) else None)(self.context()))

    def messages(self, arrow: str) -> list[dict]:
        """The LSP messages Helix logged (`-v`) as sent to Locus (`->`) or received (`<-`)."""
        out = []
        if self.log.exists():
            for line in self.log.read_text(errors="replace").splitlines():
                m = re.search(r"locus " + re.escape(arrow) + r" (\{.*\})$", line)
                if m:
                    out.append(json.loads(m.group(1)))
        return out

    def sent(self, method: str) -> list[dict]:
        """The params of every `method` message Helix sent to Locus."""
        return [m.get("params") for m in self.messages("->") if m.get("method") == method]

    def received(self, method: str) -> list[dict]:
        """The params of every `method` message Locus sent to Helix."""
        return [m.get("params") for m in self.messages("<-") if m.get("method") == method]

    def stderr_lines(self) -> list[str]:
        """What Locus wrote to stderr: Helix logs each line as `locus err <- …` at ERROR."""
        if not self.log.exists():
            return []
        return [line for line in self.log.read_text(errors="replace").splitlines() if "locus err <-" in line]

    def quit(self):
        self.escape()
        self.keys(":q!", "Enter")

    def alive(self) -> bool:
        """Whether `hx` still runs: its tmux session ends when it exits."""
        run = subprocess.run([self.tmux, "-L", self.socket, "has-session", "-t", "hx"], capture_output=True, timeout=WAIT)
        return run.returncode == 0

    def close(self):
        subprocess.run([self.tmux, "-L", self.socket, "kill-server"], capture_output=True, timeout=WAIT)


def project(root: Path) -> Path:
    """A workspace (Helix's `.helix` marker) with src/app.py."""
    (root / ".helix").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(PY)
    return root


@pytest.fixture
def helix(tmp_path):
    proj = project(tmp_path / "home" / "proj")
    h = Helix(tmp_path, proj, "src/app.py")
    h.app = proj / "src" / "app.py"
    # Locus is up once the document Helix opened is the active editor.
    h.context_where("Locus to mirror src/app.py", lambda c: c["file"]["path"] == str(h.app))
    yield h
    h.close()


def test_space_l_in_normal_mode_reports_the_cursor(helix):
    helix.keys("3", "g", "g", "8", "l")
    wait_for("Helix at 3:9", lambda: helix.status() == ("NOR", 3, 9))
    # Moving the cursor tells Locus nothing; the keymap does.
    assert helix.context()["cursor"] == {"line": 1, "character": 1}
    helix.keys("Space", "L")
    c = helix.context_where("the cursor at 3:9", lambda c: c["cursor"] == {"line": 3, "character": 9})
    assert c["file"]["path"] == str(helix.app)
    assert c["selection"]["isEmpty"] is True
    assert c["symbols"]["scopeHierarchy"].startswith("Class:Greeter > Method:greet")
    assert helix.sent("workspace/executeCommand")[-1] == {
        "command": "locus.cursor", "arguments": [{"path": "src/app.py", "line": 3, "column": 9}]}


def test_space_l_in_select_mode_reports_the_selected_lines(helix):
    helix.keys("2", "g", "g", "v", "j")
    wait_for("Helix selecting to line 3", lambda: helix.status()[:2] == ("SEL", 3))
    helix.keys("Space", "L")
    c = helix.context_where("a selection", lambda c: not c["selection"]["isEmpty"])
    assert c["cursor"]["line"] == 3
    assert c["selection"]["range"]["start"] == {"line": 2, "character": 1}
    assert c["selection"]["text"] == '    def greet(self, name):\n        message = "hello " + name\n'


def test_hover_stands_in_for_the_cursor(helix):
    helix.keys("9", "g", "g", "6", "l")
    wait_for("Helix at 9:7", lambda: helix.status() == ("NOR", 9, 7))
    helix.keys("Space", "k")
    c = helix.context_where("the hover's position", lambda c: c["cursor"] == {"line": 9, "character": 7})
    assert c["symbols"]["scopeHierarchy"].startswith("Function:main")
    assert helix.sent("textDocument/hover")


def test_an_unsaved_edit_is_mirrored(helix):
    # Below the empty line 5: Helix (without grammars here) copies the indentation of the
    # line above, none.
    helix.keys("5", "g", "g", "o")
    wait_for("insert mode", lambda: helix.status()[0] == "INS")
    helix.keys("def added():", "Enter", "    return 1")
    helix.escape()
    assert "[+]" in helix.screen(), "the edit is not saved"
    helix.context_where("the edit, inside the new function", lambda c: c["file"]["isDirty"] and c["file"]["lineCount"] == 12
                        and c["symbols"]["scopeHierarchy"].startswith("Function:added"))
    # The mirror's text, through a selection of the two new lines.
    helix.keys("v", "k")
    helix.keys("Space", "L")
    c = helix.context_where("the new lines selected", lambda c: not c["selection"]["isEmpty"])
    assert c["selection"]["text"] == "def added():\n    return 1\n"
    assert helix.app.read_text() == PY


def test_an_auto_pair_leaves_locus_where_helix_is(helix):
    helix.keys("4", "g", "g", "A")
    wait_for("insert mode", lambda: helix.status()[0] == "INS")
    helix.keys("Enter", "print(")
    mode, line, column = wait_for("Helix between the pair", lambda: (lambda s: s if s[1:] == (5, 15) else None)(helix.status()))
    # Helix inserts both characters in one change and keeps its cursor between them.
    assert helix.sent("textDocument/didChange")[-1]["contentChanges"] == [
        {"range": {"start": {"line": 4, "character": 13}, "end": {"line": 4, "character": 13}}, "text": "()"}]
    # The edits reach Locus a moment after Helix draws them: wait for its cursor to be Helix's
    # (it would stay one character to the right if the end of the edit stood in for it).
    helix.context_where(f"Locus's cursor at Helix's {line}:{column}", lambda c: c["cursor"] == {"line": line, "character": column})
    # Enter between the pair: the `)` goes down a line, the cursor stays on the new one.
    helix.keys("Enter")
    mode, line, column = wait_for("Helix on the new line", lambda: (lambda s: s if s[1] == 6 else None)(helix.status()))
    c = helix.context_where(f"Locus's cursor at Helix's {line}:{column}", lambda c: c["cursor"] == {"line": line, "character": column})
    assert c["file"]["lineCount"] == 13
    assert helix.sent("textDocument/signatureHelp") == [] and helix.sent("textDocument/completion") == []


def test_a_path_that_matches_nothing_is_shown(helix):
    helix.keys(":lsp-workspace-command locus.cursor {\"path\": \"nope.py\", \"line\": 1}", "Enter")
    shown = wait_for("Locus's warning on Helix's message line", lambda: "Locus:" in helix.message() and helix.message())
    assert "Locus: no open document has the path `nope.py`" in shown
    # Helix's cursor stays where it was, and so does Locus's.
    assert helix.context()["cursor"] == {"line": 1, "character": 1}


def test_informational_lines_stay_off_stderr_and_exit_is_clean(helix):
    helix.keys("Space", "L")
    helix.context_where("the keymap", lambda c: c["cursor"] == {"line": 1, "character": 1})
    logged = wait_for("Locus's log messages", lambda: [p["message"] for p in helix.received("window/logMessage")])
    assert any(m.startswith("locus lsp ") and "MCP on http://127.0.0.1:" in m for m in logged), logged
    assert any(m.startswith("locus.cursor: file://") for m in logged), logged
    # Locus ran at LOCUS_LOG=debug: none of it reached stderr, which Helix files as errors.
    assert helix.stderr_lines() == []
    discovery = list((helix.runtime / "locus").glob("*.json"))
    assert len(discovery) == 1
    pid = int(discovery[0].stem)
    helix.quit()
    wait_for("Helix to send shutdown", lambda: helix.sent("shutdown"))
    # `exit` is queued to Helix's writer task as Helix itself exits, so whether it reaches the
    # wire (and Helix's log) is a race that Helix does not wait for; the test must not depend on
    # it. Either way Helix kills its servers (tokio's kill_on_drop), sometimes before Locus has
    # removed its discovery file; whoever lists discovery files next removes a dead process's
    # (DESIGN §6).
    wait_for("Helix to exit", lambda: not helix.alive())
    wait_for("locus lsp to exit", lambda: not running(pid))

    def listed_and_gone():
        subprocess.run([helix.locus, "status"], capture_output=True, cwd=helix.cwd, env=helix.env, timeout=WAIT)
        return not discovery[0].exists()
    # A zombie counts as alive until Helix (or init) reaps it.
    wait_for("the discovery file to go", listed_and_gone)
    assert helix.stderr_lines() == []


def running(pid: int) -> bool:
    """Whether `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_buffer_names_relative_to_a_subfolder_or_under_home(tmp_path):
    proj = project(tmp_path / "proj")
    # Helix started in src/: `%{buffer_name}` is `app.py`, and Locus runs in the workspace root.
    h = Helix(tmp_path / "a", proj / "src", "app.py")
    try:
        h.context_where("Locus to mirror app.py", lambda c: c["file"]["path"] == str(proj / "src" / "app.py"))
        h.keys("2", "g", "g", "Space", "L")
        h.context_where("the cursor at 2:1", lambda c: c["cursor"] == {"line": 2, "character": 1})
        assert h.sent("workspace/executeCommand")[-1]["arguments"][0]["path"] == "app.py"
    finally:
        h.close()
    # Helix started outside HOME on a file under it: `%{buffer_name}` is `~/proj/src/app.py`.
    home_proj = project(tmp_path / "b" / "home" / "proj")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    h = Helix(tmp_path / "b", elsewhere, str(home_proj / "src" / "app.py"))
    try:
        h.context_where("Locus to mirror app.py", lambda c: c["file"]["path"] == str(home_proj / "src" / "app.py"))
        h.keys("3", "g", "g", "Space", "L")
        h.context_where("the cursor at 3:1", lambda c: c["cursor"] == {"line": 3, "character": 1})
        assert h.sent("workspace/executeCommand")[-1]["arguments"][0]["path"] == "~/proj/src/app.py"
    finally:
        h.close()


def test_editor_actions_answer_unsupported_with_helixs_own_way(helix):
    """Helix has no plugin API to act for an agent (editor actions, DESIGN §5): Locus says what
    the user can do in Helix instead, without asking Helix."""
    args = json.dumps({"path": "src/app.py", "name": "greet", "newName": "welcome"})
    run = subprocess.run([helix.locus, "call", "symbol_rename", "--json", args],
                         capture_output=True, text=True, cwd=helix.cwd, env=helix.env, timeout=WAIT)
    e = json.loads(run.stdout)
    assert e["error"]["code"] == "E_UNSUPPORTED", e
    assert e["error"]["hint"].startswith("Helix has no plugin API for this"), e
    assert "<space>r" in e["error"]["hint"]
    assert helix.received("locus/editorAction") == []
