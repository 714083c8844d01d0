"""The real Claude Code (the pinned `@anthropic-ai/claude-code`) connected to Locus's IDE
channel, offline: an editor's `locus lsp` writes Claude Code's lock file, the user starts
`claude --ide` in a tmux pane beside it and types a prompt with real keys, and the prompt the
CLI sends to a local stand-in for the Messages API carries the editor's file and selection,
worded as Claude Code words it.

The editor here is a scripted LSP client introducing itself as Helix (which has no plugin
API: only Locus can serve it this channel) and reporting the selection as Locus's cursor
notification does. Needs the agent CLIs (scripts/install-agent-clis.sh), tmux
(scripts/install-test-peers.sh) and the `locus` binary; a missing peer fails.
"""

import json
import os
import re
import subprocess
import threading
import time
from pathlib import Path

import pytest

from agents_common import Anthropic, agent_bin, agent_env, agent_script
from mcp_common import locus_bin
from test_nvim_tmux import Tmux, wait_for

APP = "def greet(name):\n    return f'hi {name}'\n\n\ndef main():\n    print(greet('x'))\n"
KEY = "sk-locus-test-0123456789abcdefghij"


class Editor:
    """`locus lsp` driven as an editor drives it: initialize, open a file, move the cursor."""

    def __init__(self, work: Path, env: dict, name: str):
        self.shown: list[str] = []
        self.proc = subprocess.Popen([locus_bin(), "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=open(work / "lsp.err", "w"), env=env)
        threading.Thread(target=self._read, daemon=True).start()
        root = (work).as_uri()
        self.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": root, "workspaceFolders": [{"uri": root, "name": "ws"}],
            "capabilities": {"experimental": {"locus": {"cursor": True}}}, "clientInfo": {"name": name}}})
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def send(self, message: dict):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self):
        out = self.proc.stdout
        while True:
            header = out.readline()
            if not header:
                return
            length = int(header.split(b":")[1])
            out.readline()
            message = json.loads(out.read(length))
            if message.get("method") == "window/showDocument":  # opened, as Helix does
                self.shown.append(message["params"]["uri"])
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": {"success": True}})
            elif "id" in message and "method" in message:  # another request: answered empty
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})

    def open(self, path: Path, text: str):
        self.open_uri(path.as_uri(), text)

    def open_uri(self, uri: str, text: str):
        self.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}})

    def select(self, path: Path, start: tuple[int, int], end: tuple[int, int]):
        at = lambda p: {"line": p[0], "character": p[1]}  # noqa: E731
        self.send({"jsonrpc": "2.0", "method": "locus/didChangeCursor", "params": {
            "textDocument": {"uri": path.as_uri(), "version": 1}, "position": at(end),
            "selections": [{"start": at(start), "end": at(end)}]}})

    def command(self, name: str):
        self.send({"jsonrpc": "2.0", "id": 99, "method": "workspace/executeCommand", "params": {"command": name}})

    def stop(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def switch_to(tmux: Tmux, pane: str):
    """Makes `pane` the one the user types into, and waits until it is. tmux's own command
    rather than its `C-b ;` key, which a busy client sometimes took a moment too late: what is
    under test is what the user types in the pane, not tmux's key table."""
    tmux.run("select-pane", "-t", pane)
    wait_for(f"pane {pane} active", lambda: any(p.split()[:2] == [pane, "1"] for p in tmux.panes()))


def claude_home(config: Path, work: Path):
    """Claude Code's own settings, as after its first run: onboarding done, the folder trusted
    and the API key approved, so that the first screen is the prompt."""
    config.mkdir(parents=True, exist_ok=True)
    (config / ".claude.json").write_text(json.dumps({
        "hasCompletedOnboarding": True, "theme": "dark", "numStartups": 5,
        "customApiKeyResponses": {"approved": [KEY[-20:]], "rejected": []},
        "projects": {str(work): {"hasTrustDialogAccepted": True, "hasCompletedProjectOnboarding": True}},
    }))


def claude_agent(work: Path, config: Path, stub) -> dict:
    """Claude Code's environment: the model stub, the test key, its settings in `config`, no
    traffic but the model's."""
    return agent_env(work, work, ANTHROPIC_BASE_URL=stub.url, ANTHROPIC_API_KEY=KEY, CLAUDE_CONFIG_DIR=str(config),
                     CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1")


def submit(tmux: Tmux, prompt: str):
    """Types `prompt` into the active pane and presses Enter a moment later, as a user does (a
    CLI given both in one burst takes the Enter as pasted text)."""
    tmux.type(prompt)
    time.sleep(0.3)
    tmux.type("\r")


def neovim_in_tmux(work: Path, **env: str) -> "tuple[Tmux, str]":
    """Neovim with the Locus plugin (`work`'s init.lua) on greeter.py, in a private tmux with
    `env` added, once Locus attached: the tmux and Neovim's pane."""
    from nvim_common import nvim_bin, nvim_env

    env = nvim_env(work, LOCUS_FOCUS_LOG=str(work / "focus.log"), LOCUS_LOG="info", XDG_RUNTIME_DIR=str(work / "run"),
                   HOME=str(work), **env)
    env.pop("TMUX", None)
    tmux = Tmux(work, env)
    tmux.start(f"exec {nvim_bin()} --clean -u {work / 'init.lua'} greeter.py")
    nvim = tmux.panes()[0].split()[0]
    try:
        wait_for("locus to attach", lambda: "<greeter.py" in tmux.capture(nvim), detail=lambda: tmux.capture(nvim))
    except BaseException:
        tmux.stop()
        raise
    return tmux, nvim


def claude_tool(lock_file: Path, name: str, arguments: dict) -> dict:
    """Calls the channel's tool `name` as Claude Code does (its header, subprotocol and
    messages) and gives the JSON of its answer: for the tools its IDEs offer that the CLI
    itself never calls (`saveDocument`, `checkDocumentDirty`)."""
    from websockets.sync.client import connect

    token = json.loads(lock_file.read_text())["authToken"]
    with connect(f"ws://127.0.0.1:{lock_file.stem}", subprotocols=["mcp"], open_timeout=10,
                 additional_headers={"x-claude-code-ide-authorization": token}) as ws:
        def ask(rid: int, method: str, params: dict) -> dict:
            ws.send(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}))
            while (m := json.loads(ws.recv(timeout=30))).get("id") != rid:
                pass
            return m

        ask(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "claude-code", "version": "test"}})
        ws.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        answer = ask(1, "tools/call", {"name": name, "arguments": arguments})
    assert "result" in answer, answer
    return json.loads(answer["result"]["content"][0]["text"])


def helix_like_workspace(tmp_path: Path) -> "tuple[Path, dict]":
    """A workspace for the Helix-like editor, and the environment of its `locus lsp`: the
    workspace is home, and the runtime folder, Claude Code's settings (`.claude`) and the
    temporary folder where Gemini CLI's files go are inside it."""
    work = tmp_path.resolve() / "ws"
    work.mkdir()
    (work / "run").mkdir(mode=0o700)
    (work / "tmp").mkdir()
    env = dict(os.environ, HOME=str(work), CLAUDE_CONFIG_DIR=str(work / ".claude"), TMPDIR=str(work / "tmp"),
               XDG_RUNTIME_DIR=str(work / "run"), LOCUS_LOG="info")
    return work, env


def test_the_prompt_carries_the_editors_selection(tmp_path):
    work, env = helix_like_workspace(tmp_path)
    config = work / ".claude"
    claude_home(config, work)
    app = work / "app.py"
    app.write_text(APP)
    editor = Editor(work, env, "helix")
    stub = Anthropic([{"text": "It greets."}])
    tmux = None
    try:
        locks = wait_for("Claude Code's lock file", lambda: list((config / "ide").glob("*.lock")),
                         detail=lambda: (work / "lsp.err").read_text())
        lock = json.loads(locks[0].read_text())
        assert lock["ideName"] == "Helix" and lock["workspaceFolders"] == [str(work)], lock
        editor.open(app, APP)
        editor.select(app, (0, 0), (2, 0))

        agent = claude_agent(work, config, stub)
        agent_script(work, agent, [agent_bin("claude"), "--ide"])
        tmux = Tmux(work, agent)
        tmux.start(f"sh {work / 'agent.sh'}")
        pane = tmux.panes()[0].split()[0]
        # The CLI connected and got the selection: its footer says so.
        wait_for("Claude Code to show the editor's selection", lambda: "2 lines selected" in tmux.capture(pane),
                 timeout=60, detail=lambda: tmux.capture(pane))
        submit(tmux, "what does this do?")
        wait_for("the model's answer", lambda: "It greets." in tmux.capture(pane), timeout=60, detail=lambda: tmux.capture(pane))
        assert "Selected 2 lines from app.py in Helix" in tmux.capture(pane)
    finally:
        if tmux:
            tmux.stop()
        editor.stop()
    sent = [json.dumps(r["body"]) for r in stub.requests if r["path"].startswith("/v1/messages") and r["body"]]
    wording = json.dumps(f"The user selected the lines 1 to 2 from {app}:\n" + "def greet(name):\n    return f'hi {name}'\n")[1:-1]
    assert any(wording in body and "what does this do?" in body for body in sent), \
        f"no request carried the selection as Claude Code words it: {[b[:300] for b in sent]}"
    assert not list((config / "ide").glob("*.lock")), "the lock file outlived its editor"


GREETER = "def greet(name):\n    return 'hello ' + name\n"


@pytest.mark.parametrize("verdict", ["accept", "reject"])
def test_a_proposed_edit_is_reviewed_in_neovim(tmp_path, verdict):
    """Neovim with the Locus plugin in tmux, Claude Code in the pane beside it: the user selects
    lines with real keys, asks for a change, and the model's scripted Edit is shown as a diff in
    Neovim. Accepted: the user edits the proposal and writes it (`:w`), and Claude Code writes
    that text. Rejected (`:Locus reject`): the file stays as it was."""
    from nvim_common import workspace
    from test_nvim_tmux import INIT

    (tmp_path / "ws").mkdir()
    work = workspace(tmp_path.resolve() / "ws", {"greeter.py": GREETER, "init.lua": INIT})
    (work / "run").mkdir(mode=0o700)
    config = work / ".claude"
    claude_home(config, work)
    path = work / "greeter.py"
    stub = Anthropic([
        {"tool": "Read", "args": {"file_path": str(path)}},
        {"tool": "Edit", "args": {"file_path": str(path), "old_string": "'hello '", "new_string": "'hi '"}},
        {"text": "Changed."},
    ])
    agent = claude_agent(work, config, stub)
    agent_script(work, agent, [agent_bin("claude"), "--ide", "--permission-mode", "default"])
    tmux, nvim = neovim_in_tmux(work, CLAUDE_CONFIG_DIR=str(config))
    try:
        wait_for("Claude Code's lock file", lambda: list((config / "ide").glob("*.lock")))
        tmux.type("Vj")  # the two lines of greet, selected
        wait_for("the selection", lambda: "VISUAL LINE" in tmux.capture(nvim), detail=lambda: tmux.capture(nvim))
        time.sleep(0.3)
        tmux.type("\x02\"")
        wait_for("a second pane", lambda: len(tmux.panes()) == 2)
        claude = [p.split()[0] for p in tmux.panes() if p.split()[0] != nvim][0]
        tmux.type("sh agent.sh\r")
        wait_for("Claude Code to show Neovim's selection", lambda: "2 lines selected" in tmux.capture(claude),
                 timeout=60, detail=lambda: tmux.capture(claude))
        if verdict == "accept":
            # The selected lines sent to the prompt from Neovim (`:'<,'>Locus mention`); the
            # command ends the selection, so the prompt carries the mention instead.
            switch_to(tmux, nvim)
            tmux.type(":Locus mention\r")
            switch_to(tmux, claude)
            wait_for("the mention in Claude Code's prompt", lambda: "@greeter.py#L1-2" in tmux.capture(claude), timeout=30,
                     detail=lambda: tmux.capture(claude) + "\n----\n" + tmux.capture(nvim))
        submit(tmux, "say hi instead of hello")
        # The diff opens in Neovim; the user goes there, improves the proposal and writes it.
        wait_for("the proposal in Neovim", lambda: "locus-review://" in tmux.capture(nvim) or "proposes this change" in tmux.capture(nvim),
                 timeout=60, detail=lambda: tmux.capture(nvim) + "\n----\n" + tmux.capture(claude))
        switch_to(tmux, nvim)
        if verdict == "accept":
            tmux.type(":%s/'hi '/'hi there '/\r:w\r")
            wait_for("Claude Code to finish", lambda: "Changed." in tmux.capture(claude), timeout=60,
                     detail=lambda: tmux.capture(claude) + "\n----\n" + tmux.capture(nvim))
        else:
            tmux.type(":Locus reject\r")
            wait_for("Claude Code to hear the rejection", lambda: "Rejected update to greeter.py" in tmux.capture(claude), timeout=60,
                     detail=lambda: tmux.capture(claude) + "\n----\n" + tmux.capture(nvim))
    finally:
        tmux.stop()
    sent = [json.dumps(r["body"]) for r in stub.requests if r["path"].startswith("/v1/messages") and r["body"]]
    if verdict == "reject":
        assert path.read_text() == GREETER, "a rejected edit was written"
        assert any("The user selected the lines 1 to 2 from" in b and "say hi instead of hello" in b for b in sent), \
            "the prompt did not carry Neovim's selection"
        return
    assert path.read_text() == "def greet(name):\n    return 'hi there ' + name\n", "Claude Code did not write the text accepted in Neovim"
    assert any("@greeter.py#L1-2 say hi instead of hello" in b for b in sent), "the prompt did not carry the mention"


def gemini_home(home: Path):
    """Gemini CLI's own settings: an API key, IDE mode on (as `/ide enable` leaves it), nothing
    sent anywhere else."""
    settings = home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "ide": {"enabled": True, "hasSeenNudge": True},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    }))


def test_save_document_saves_with_neovims_own_write(tmp_path):
    """`saveDocument`, which Claude Code's IDEs offer (the CLI 2.1.332 itself never calls it):
    the change the user typed in Neovim is written by Neovim's `:write`; a file with nothing
    unsaved is left alone."""
    from nvim_common import workspace
    from test_nvim_tmux import INIT

    (tmp_path / "ws").mkdir()
    work = workspace(tmp_path.resolve() / "ws", {"greeter.py": GREETER, "init.lua": INIT})
    (work / "run").mkdir(mode=0o700)
    config = work / ".claude"
    path = work / "greeter.py"
    tmux, nvim = neovim_in_tmux(work, CLAUDE_CONFIG_DIR=str(config))
    try:
        lock = wait_for("Claude Code's lock file", lambda: list((config / "ide").glob("*.lock")))[0]
        tmux.type("Go# saved by the agent\x1b")
        # (Until Neovim's didOpen arrived, the file is not open for Locus: no `isDirty`.)
        dirty = lambda: claude_tool(lock, "checkDocumentDirty", {"filePath": str(path)}).get("isDirty")  # noqa: E731
        wait_for("the unsaved change in Locus's mirror", dirty, detail=lambda: tmux.capture(nvim))
        saved = claude_tool(lock, "saveDocument", {"filePath": str(path)})
        assert saved == {"success": True, "filePath": str(path), "saved": True, "message": "Document saved"}, saved
        assert path.read_text() == GREETER + "# saved by the agent\n"
        wait_for("the saved buffer in Locus's mirror", lambda: dirty() is False, detail=lambda: tmux.capture(nvim))
        again = claude_tool(lock, "saveDocument", {"filePath": str(path)})
        assert again["success"] is True and again["saved"] is False, again
    finally:
        tmux.stop()


def gemini_agent(work: Path, home: Path, stub) -> dict:
    """Gemini CLI's environment: the model stub, a test key, the workspace trusted, its
    temporary folder in `work`."""
    agent = agent_env(work, home, GEMINI_API_KEY="locus-test", GOOGLE_GEMINI_BASE_URL=stub.url, TMPDIR=str(work / "tmp"),
                      GEMINI_CLI_TRUST_WORKSPACE="true", GEMINI_CLI_NO_RELAUNCH="true",
                      # This machine is a container: without this the CLI looks for its IDE at
                      # host.docker.internal.
                      REMOTE_CONTAINERS="true")
    # The IDE is then named by the discovery file's `ideInfo` only, not guessed from the terminal.
    agent.pop("TERM_PROGRAM", None)
    return agent


def test_gemini_cli_sees_the_editors_file_and_selection(tmp_path):
    from agents_common import Gemini

    work, env = helix_like_workspace(tmp_path)
    gemini_home(work)
    app = work / "app.py"
    app.write_text(APP)
    editor = Editor(work, env, "helix")
    # Without MCP tools in the request, the stub answers every request with "ok".
    stub = Gemini([])
    tmux = None
    try:
        found = wait_for("Gemini CLI's discovery file", lambda: list((work / "tmp" / "gemini" / "ide").glob("gemini-ide-server-*.json")),
                         detail=lambda: (work / "lsp.err").read_text())
        record = json.loads(found[0].read_text())
        assert record["workspacePath"] == str(work) and record["ideInfo"] == {"name": "helix", "displayName": "Helix"}, record
        editor.open(app, APP)
        editor.select(app, (0, 0), (2, 0))
        agent = gemini_agent(work, work, stub)
        agent_script(work, agent, [agent_bin("gemini"), "-m", "gemini-2.5-flash"])
        tmux = Tmux(work, agent)
        tmux.start(f"sh {work / 'agent.sh'}")
        pane = tmux.panes()[0].split()[0]
        # Connected, with the editor's file: `/ide status` lists it.
        wait_for("Gemini CLI to start", lambda: "Type your message" in tmux.capture(pane), timeout=60, detail=lambda: tmux.capture(pane))
        submit(tmux, "/ide status")
        wait_for("Gemini CLI to connect to Helix", lambda: "Connected to Helix" in tmux.capture(pane), timeout=60,
                 detail=lambda: tmux.capture(pane))
        submit(tmux, "explain this code")
        wait_for("the model's answer", lambda: "✦ ok" in tmux.capture(pane), timeout=60, detail=lambda: tmux.capture(pane))
    finally:
        if tmux:
            tmux.stop()
        editor.stop()
    sent = [json.dumps(r["body"]) for r in stub.requests if r["body"] and "explain this code" in json.dumps(r["body"])]
    assert sent, f"no request carried the prompt: {[json.dumps(r['body'])[:300] for r in stub.requests]}"
    body = sent[0]
    assert "Here is the user's editor context as a JSON object" in body, body[:3000]
    context = json.loads(re.search(r"```json\n(.*?)\n```", json.loads(body)["contents"][-1]["parts"][-2]["text"], re.S).group(1))
    assert context["activeFile"]["path"] == str(app), context
    assert context["activeFile"]["selectedText"] == "def greet(name):\n    return f'hi {name}'\n", context
    assert context["activeFile"]["cursor"] == {"line": 3, "character": 1}, context
    assert not list((work / "tmp" / "gemini" / "ide").glob("*.json")), "the discovery file outlived its editor"


def test_gemini_cli_proposes_an_edit_reviewed_in_neovim(tmp_path):
    """Neovim with the Locus plugin in tmux, Gemini CLI in the pane beside it: lines selected
    with real keys reach the prompt; the model's scripted write_file is shown as a diff in
    Neovim; the user edits the proposal and writes it, and Gemini CLI writes that text."""
    from agents_common import Gemini
    from nvim_common import workspace
    from test_nvim_tmux import INIT

    (tmp_path / "ws").mkdir()
    work = workspace(tmp_path.resolve() / "ws", {"greeter.py": GREETER, "init.lua": INIT})
    (work / "run").mkdir(mode=0o700)
    (work / "tmp").mkdir()
    # The CLI's own home: a project's settings in the home folder would be read as the user's.
    gemini_home(work / "home")
    path = work / "greeter.py"
    proposed = "def greet(name):\n    return 'hi ' + name\n"
    stub = Gemini([{"tool": "write_file", "args": {"file_path": str(path), "content": proposed}}, {"text": "Changed."}])
    agent = gemini_agent(work, work / "home", stub)
    cli = agent_bin("gemini")
    # Locus's MCP tools as the docs add them: the stub plays the model for the request that
    # declares them.
    added = subprocess.run([cli, "mcp", "add", "--trust", "locus", "locus", "mcp"], cwd=work, env=agent, capture_output=True, text=True)
    assert added.returncode == 0 and "locus" in (work / ".gemini" / "settings.json").read_text(), added
    agent_script(work, agent, [cli, "-m", "gemini-2.5-flash"])
    tmux, nvim = neovim_in_tmux(work, TMPDIR=str(work / "tmp"))
    try:
        wait_for("Gemini CLI's discovery file", lambda: list((work / "tmp" / "gemini" / "ide").glob("*.json")))
        tmux.type("Vj")
        wait_for("the selection", lambda: "VISUAL LINE" in tmux.capture(nvim), detail=lambda: tmux.capture(nvim))
        time.sleep(0.3)
        tmux.type("\x02\"")
        wait_for("a second pane", lambda: len(tmux.panes()) == 2)
        gemini = [p.split()[0] for p in tmux.panes() if p.split()[0] != nvim][0]
        tmux.type("sh agent.sh\r")
        wait_for("Gemini CLI to start", lambda: "Type your message" in tmux.capture(gemini), timeout=60, detail=lambda: tmux.capture(gemini))
        submit(tmux, "/ide status")
        wait_for("Gemini CLI to connect to Neovim", lambda: "Connected to Neovim" in tmux.capture(gemini), timeout=60,
                 detail=lambda: tmux.capture(gemini))
        submit(tmux, "say hi instead of hello")
        wait_for("the proposal in Neovim", lambda: "proposes this change" in tmux.capture(nvim) or "locus-review://" in tmux.capture(nvim),
                 timeout=60, detail=lambda: tmux.capture(nvim) + "\n----\n" + tmux.capture(gemini))
        switch_to(tmux, nvim)
        tmux.type(":%s/'hi '/'hi there '/\r:w\r")
        wait_for("Gemini CLI to finish", lambda: "Changed." in tmux.capture(gemini), timeout=60,
                 detail=lambda: tmux.capture(gemini) + "\n----\n" + tmux.capture(nvim))
    finally:
        tmux.stop()
    assert path.read_text() == "def greet(name):\n    return 'hi there ' + name\n", "Gemini CLI did not write the text accepted in Neovim"
    prompt = [json.dumps(r["body"]) for r in stub.requests if r["body"] and "say hi instead of hello" in json.dumps(r["body"])]
    assert prompt and "Here is the user's editor context" in prompt[0] and "return 'hello ' + name" in prompt[0], \
        "the prompt did not carry Neovim's selection"


def test_a_killed_editors_files_are_not_trusted(tmp_path):
    """`locus lsp` killed outright cannot remove its files: Claude Code deletes a lock whose
    process is dead and connects to nothing; the next Locus removes Gemini CLI's file."""
    import signal

    work, env = helix_like_workspace(tmp_path)
    config = work / ".claude"
    claude_home(config, work)
    editor = Editor(work, env, "helix")
    lock = wait_for("Claude Code's lock file", lambda: list((config / "ide").glob("*.lock")))[0]
    gemini_dir = work / "tmp" / "gemini" / "ide"
    gemini = wait_for("Gemini CLI's discovery file", lambda: list(gemini_dir.glob("*.json")))[0]
    editor.proc.send_signal(signal.SIGKILL)
    editor.proc.wait()
    assert lock.exists() and gemini.exists(), "a killed process removed its files"

    stub = Anthropic([{"text": "ok"}])
    agent = claude_agent(work, config, stub)
    agent_script(work, agent, [agent_bin("claude"), "--ide"])
    tmux = Tmux(work, agent)
    try:
        tmux.start(f"sh {work / 'agent.sh'}")
        pane = tmux.panes()[0].split()[0]
        wait_for("Claude Code to delete the dead editor's lock", lambda: not lock.exists(), timeout=60,
                 detail=lambda: tmux.capture(pane))
        submit(tmux, "/status")
        wait_for("Claude Code's status", lambda: "IDE" in tmux.capture(pane) or "Status" in tmux.capture(pane), timeout=30,
                 detail=lambda: tmux.capture(pane))
        assert "Connected to Helix" not in tmux.capture(pane)
    finally:
        tmux.stop()
    # The next Locus, whatever the editor, removes the dead one's Gemini file.
    editor = Editor(work, env, "helix")
    try:
        # The stale file goes just before the new one is written: the new one alone remains.
        wait_for("the dead process's Gemini file removed, the new one written",
                 lambda: not gemini.exists() and len(list(gemini_dir.glob("*.json"))) == 1,
                 detail=lambda: str(list(gemini_dir.iterdir())))
    finally:
        editor.stop()


def test_claude_codes_edit_reviewed_in_a_helix_like_editor(tmp_path):
    """Helix has no diff view: Claude Code's proposed edit opens beside the file as a document
    Locus shows (`window/showDocument`); the user edits it there and runs `locus.accept`
    (`space A`), and Claude Code writes that text."""
    work, env = helix_like_workspace(tmp_path)
    env["XDG_CACHE_HOME"] = str(work / "cache")
    config = work / ".claude"
    claude_home(config, work)
    path = work / "greeter.py"
    path.write_text(GREETER)
    editor = Editor(work, env, "helix")
    stub = Anthropic([
        {"tool": "Read", "args": {"file_path": str(path)}},
        {"tool": "Edit", "args": {"file_path": str(path), "old_string": "'hello '", "new_string": "'hi '"}},
        {"text": "Changed."},
    ])
    tmux = None
    try:
        wait_for("Claude Code's lock file", lambda: list((config / "ide").glob("*.lock")))
        editor.open(path, GREETER)
        editor.select(path, (0, 0), (2, 0))
        agent = claude_agent(work, config, stub)
        agent_script(work, agent, [agent_bin("claude"), "--ide", "--permission-mode", "default"])
        tmux = Tmux(work, agent)
        tmux.start(f"sh {work / 'agent.sh'}")
        pane = tmux.panes()[0].split()[0]
        wait_for("Claude Code to show the selection", lambda: "2 lines selected" in tmux.capture(pane), timeout=60,
                 detail=lambda: tmux.capture(pane))
        submit(tmux, "say hi instead of hello")
        shown = wait_for("the proposal shown in the editor", lambda: editor.shown, timeout=60, detail=lambda: tmux.capture(pane))
        proposal = shown[0]
        assert "/proposals/" in proposal and proposal.endswith("/greeter.py"), proposal
        # Helix opens it; the user edits it and presses `space A`.
        editor.open_uri(proposal, "def greet(name):\n    return 'hi ' + name\n")
        editor.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": proposal, "version": 2},
            "contentChanges": [{"text": "def greet(name):\n    return 'hi there ' + name\n"}]}})
        editor.command("locus.accept")
        wait_for("Claude Code to finish", lambda: "Changed." in tmux.capture(pane), timeout=60, detail=lambda: tmux.capture(pane))
    finally:
        if tmux:
            tmux.stop()
        editor.stop()
    assert path.read_text() == "def greet(name):\n    return 'hi there ' + name\n", "Claude Code did not write the text accepted"
