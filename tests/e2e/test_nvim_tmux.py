"""Neovim with the Locus plugin in a real tmux, focus events on, driven by real keystrokes
(an agent in a tmux pane beside the editor gets the editor's context).

A tmux client is attached through a pseudo-terminal, so tmux has a focused client and sends
focus events to its panes. Keys typed into that terminal move Neovim's cursor (the statusline
must follow without `:redrawstatus`), split the window with the tmux prefix (Neovim gets
FocusLost from tmux), and run the agent probe (tests/e2e/nvim_agent_probe.py: the Python MCP
SDK over `locus mcp`) in the new pane. The agent must get Neovim's file and cursor, with
`focused: false`; after `prefix o` back into Neovim, `focused: true`; from a `:terminal` opened
in Neovim and typed into, `focused: false` again.

Needs tmux, nvim (scripts/install-test-peers.sh installs both) and the `locus` binary; a missing
peer fails the test, it never skips.
"""

import fcntl
import json
import os
import pty
import shutil
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from nvim_common import PY, ROOT, nvim_bin, nvim_env, require_mcp_sdk, workspace

WAIT = 30.0
ROWS, COLS = 40, 120

INIT = """
vim.opt.runtimepath:prepend(os.getenv('LOCUS_PLUGIN_DIR'))
vim.cmd('filetype on')
require('locus').setup({ cmd = { os.getenv('LOCUS_BIN'), 'lsp' }, symbols = false })
vim.o.laststatus = 2
vim.o.shell = '/bin/sh'
vim.o.statusline = "[%{v:lua.require'locus'.statusline()}]"
vim.o.winbar = "<%{v:lua.require'locus'.winbar()}>"
-- Focus events as Neovim saw them, for the test's failure messages.
vim.api.nvim_create_autocmd({ 'FocusLost', 'FocusGained' }, {
  callback = function(args)
    local f = io.open(os.getenv('LOCUS_FOCUS_LOG'), 'a')
    f:write(args.event .. '\\n')
    f:close()
  end,
})
"""

TMUX_CONF = """
set -g focus-events on
set -g status off
set -g escape-time 0
set -g default-command "exec /bin/sh"
"""


def tmux_bin() -> str:
    path = shutil.which("tmux")
    if not path:
        pytest.fail("tmux not found: run scripts/install-test-peers.sh (it installs tmux with apt-get)")
    return path


class Tmux:
    """A private tmux server (its own socket) with one attached client on a pseudo-terminal."""

    def __init__(self, work: Path, env: dict):
        self.tmux = tmux_bin()
        self.work = work
        self.env = env
        self.socket = str(work / "tmux.sock")
        conf = work / "tmux.conf"
        conf.write_text(TMUX_CONF, encoding="utf-8")
        self.base = [self.tmux, "-S", self.socket, "-f", str(conf)]
        self.client_pid = None
        self.fd = None
        self.screen = bytearray()

    def run(self, *args: str) -> str:
        return subprocess.run([*self.base, *args], env=self.env, capture_output=True, text=True, check=True).stdout

    def start(self, command: str):
        self.run("new-session", "-d", "-s", "e2e", "-x", str(COLS), "-y", str(ROWS), "-c", str(self.work), command)
        pid, fd = pty.fork()
        if pid == 0:  # the attached client, in the pseudo-terminal
            try:
                os.execve(self.tmux, [self.tmux, "-S", self.socket, "attach-session", "-t", "e2e"], dict(self.env, TERM="xterm-256color"))
            finally:
                # Never back into pytest: a forked copy would run the remaining tests too.
                os._exit(127)
        self.client_pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.drain = threading.Thread(target=self._drain, args=(fd,), daemon=True)
        self.drain.start()

    def _drain(self, fd: int):
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return
            if not data:
                return
            self.screen += data

    def type(self, keys: str):
        """Keys typed on the attached client's terminal: tmux sees them first (its prefix)."""
        os.write(self.fd, keys.encode())

    def capture(self, pane: str) -> str:
        return self.run("capture-pane", "-p", "-t", pane)

    def panes(self) -> list[str]:
        return self.run("list-panes", "-t", "e2e", "-F", "#{pane_id} #{pane_active} #{pane_current_command}").splitlines()

    def stop(self):
        subprocess.run([*self.base, "kill-server"], env=self.env, capture_output=True)
        if self.client_pid:
            try:
                os.waitpid(self.client_pid, 0)
            except ChildProcessError:
                pass
        if self.fd is not None:
            # The client is gone, so the reader meets the end of the terminal. It must stop
            # before the descriptor is closed: the number goes to the next file opened, and a
            # reader still looping once read another test's pipe (`nvim --version`'s output).
            self.drain.join(timeout=30)
            os.close(self.fd)
            self.fd = None


def wait_for(what: str, check, timeout: float = WAIT, detail=lambda: ""):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}\n{detail()}")


def test_agent_in_a_tmux_pane_beside_neovim(tmp_path):
    require_mcp_sdk()
    nvim = nvim_bin()
    work = workspace(tmp_path.resolve(), {"greeter.py": PY, "init.lua": INIT})
    (work / "run").mkdir()
    focus_log = work / "focus.log"
    env = nvim_env(work, LOCUS_FOCUS_LOG=str(focus_log), LOCUS_LOG="warn", XDG_RUNTIME_DIR=str(work / "run"), HOME=str(work))
    env.pop("TMUX", None)
    env.pop("TMUX_PANE", None)
    tmux = Tmux(work, env)
    try:
        tmux.start(f"exec {nvim} --clean -u {work / 'init.lua'} greeter.py")
        nvim_pane = tmux.panes()[0].split()[0]

        def screen() -> str:
            return (
                f"panes: {tmux.panes()}\nnvim pane:\n{tmux.capture(nvim_pane)}\n"
                f"focus log: {focus_log.read_text() if focus_log.exists() else '(none)'}"
            )

        # Locus attached and answered: the winbar names the file once the first context arrives.
        wait_for("locus to attach", lambda: "<greeter.py" in tmux.capture(nvim_pane), detail=screen)

        # Real keys move the cursor; the statusline follows with no :redrawstatus.
        tmux.type("3G08l")
        wait_for("the statusline to show greet", lambda: "[Class:Greeter > Method:greet]" in tmux.capture(nvim_pane), detail=screen)
        assert "<greeter.py › Greeter › greet>" in tmux.capture(nvim_pane)
        tmux.type("7G")
        wait_for("the statusline to show main", lambda: "[Function:main]" in tmux.capture(nvim_pane), detail=screen)
        tmux.type("3G08l")
        wait_for("the statusline to show greet again", lambda: "[Class:Greeter > Method:greet]" in tmux.capture(nvim_pane), detail=screen)

        # The tmux prefix splits the window: the new pane (a shell) has focus, Neovim lost it.
        tmux.type("\x02\"")
        wait_for("a second pane", lambda: len(tmux.panes()) == 2, detail=screen)
        wait_for("Neovim to get FocusLost from tmux", lambda: focus_log.exists() and focus_log.read_text().splitlines()[-1:] == ["FocusLost"], detail=screen)
        shell_pane = [p.split()[0] for p in tmux.panes() if p.split()[0] != nvim_pane][0]

        def agent(name: str, keys) -> dict:
            out = work / f"{name}.json"
            keys(f"{sys.executable} {ROOT / 'tests' / 'e2e' / 'nvim_agent_probe.py'} {out}\r")
            wait_for(f"the agent's answer ({name})", out.exists, timeout=60, detail=lambda: screen() + f"\nshell pane:\n{tmux.capture(shell_pane)}")
            envelope = json.loads(out.read_text(encoding="utf-8"))
            assert envelope["ok"] is True and "editorContext" in envelope, envelope
            return envelope["editorContext"]

        # The agent, typed into the focused shell pane.
        ctx = agent("beside", tmux.type)
        assert ctx["file"]["path"] == str(work / "greeter.py")
        assert ctx["cursor"] == {"line": 3, "character": 9}
        assert ctx["symbols"]["scopeHierarchy"] == "Class:Greeter > Method:greet"
        assert ctx["focused"] is False

        # prefix o: back into Neovim, which gets FocusGained; the agent (keys sent to its pane
        # without moving focus) sees the editor focused again.
        tmux.type("\x02o")
        wait_for("Neovim to get FocusGained", lambda: focus_log.read_text().splitlines()[-1:] == ["FocusGained"], detail=screen)
        ctx = agent("back", lambda keys: tmux.run("send-keys", "-t", shell_pane, "-l", keys))
        assert ctx["file"]["path"] == str(work / "greeter.py")
        assert ctx["cursor"] == {"line": 3, "character": 9}
        assert ctx.get("focused", True) is True

        # Neovim's own :terminal beside the file, typed into with real keys.
        tmux.type(":botright split | terminal\ri")
        wait_for("Neovim's terminal in insert mode", lambda: "-- TERMINAL --" in tmux.capture(nvim_pane), detail=screen)
        ctx = agent("terminal", tmux.type)
        assert ctx["file"]["path"] == str(work / "greeter.py")
        assert ctx["cursor"] == {"line": 3, "character": 9}
        assert ctx["focused"] is False
    finally:
        tmux.stop()
