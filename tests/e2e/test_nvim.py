"""Neovim 0.11 with the Locus plugin (editors/nvim) against `locus lsp`.

A headless Neovim types into buffers, moves the cursor, switches buffers and loses focus;
tests/e2e/nvim_session.lua records what `locus/getContext` and the mirror say at each step.
tests/e2e/nvim_ux_session.lua goes through what users meet: `:checkhealth locus`,
`:Locus`, the statusline and winbar, an agent (tests/e2e/nvim_agent_probe.py, the Python MCP
SDK over `locus mcp`) in Neovim's `:terminal` and while Neovim has lost focus, help windows,
unnamed buffers, `:Locus restart`, and a `locus` that is not executable.
A Neovim that starts with the plugin on 'runtimepath' has `:Locus` before setup(), and
`:help locus`.

Needs `nvim` (scripts/install-test-peers.sh installs it) and the `locus` binary
($LOCUS_BIN, else target/debug/locus). A missing peer fails the test: it never skips.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nvim_common import PY, ROOT, nvim_bin, nvim_env, require_mcp_sdk, run_session, workspace

TS = '''export class Box {
  open(): void {
    console.log("hi");
  }
}
'''


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    work = workspace(tmp_path_factory.mktemp("nvim-e2e"), {"greeter.py": PY, "box.ts": TS})
    env = nvim_env(work, LOCUS_FILE_A=str(work / "greeter.py"), LOCUS_FILE_B=str(work / "box.ts"))
    return run_session("nvim_session.lua", work, env, timeout=120), work


def test_attaches_with_the_plugin(session):
    r, work = session
    assert r["encoding"] in ("utf-8", "utf-16", "utf-32")
    assert r["hover_declared"] is False, "no stand-in capabilities for Neovim"
    ctx = r["initial"]
    assert ctx["file"]["path"] == str(work / "greeter.py")
    assert ctx["file"]["languageId"] == "python"
    assert ctx["file"]["isDirty"] is False
    assert ctx["cursor"] == {"line": 1, "character": 1}


def test_typing_keeps_the_mirror_equal_to_the_buffer(session):
    r, _ = session
    assert r["typed_mirror"] == r["typed_buffer"]
    assert 'def added(self):\n        return "é😀"\n' in r["typed_buffer"]
    assert r["edited_mirror"] == r["edited_buffer"]
    assert r["edited_buffer"].startswith("# 中文 😀 class Greeter:")
    assert r["back_mirror_equal"] is True


def test_cursor_and_selection_from_lua(session):
    r, _ = session
    ctx = r["in_added"]
    assert ctx["cursor"] == {"line": 5, "character": 13}
    assert ctx["symbols"]["scopeHierarchy"] == "Class:Greeter > Method:added"
    assert ctx["symbols"]["source"] == "tree-sitter"
    assert ctx["file"]["isDirty"] is True
    sel = r["selected"]["selection"]
    assert sel["isEmpty"] is False
    assert sel["text"] == "def greet"


def test_switching_buffers_and_focus(session):
    r, work = session
    second = r["second"]
    assert second["file"]["path"] == str(work / "box.ts")
    assert second["symbols"]["scopeHierarchy"] == "Class:Box > Method:open"
    assert "focus_lost" in r["steps"]
    lost = r["focus_lost"]
    assert lost is not None, "focus leaving Neovim keeps the last text editor (docs/reference/lsp.md)"
    assert lost["file"]["path"] == str(work / "box.ts") and lost["focused"] is False
    assert lost["cursor"] == second["cursor"]
    assert r["focus_gained"]["file"]["path"] == str(work / "box.ts")
    assert r["focus_gained"].get("focused", True) is True
    assert r["back"]["file"]["path"] == str(work / "greeter.py")


def run_ux(work: Path, mode: str = "ux") -> dict:
    """Runs tests/e2e/nvim_ux_session.lua in `work` and returns what it recorded."""
    require_mcp_sdk()
    workspace(work, {"greeter.py": PY, "NOTES": "some notes\nmore notes\n"})
    (work / "run").mkdir(exist_ok=True)
    env = nvim_env(
        work,
        LOCUS_E2E_MODE=mode,
        LOCUS_FILE_A=str(work / "greeter.py"),
        LOCUS_PYTHON=sys.executable,
        LOCUS_PROBE=str(ROOT / "tests" / "e2e" / "nvim_agent_probe.py"),
        LOCUS_LOG="warn",
        XDG_RUNTIME_DIR=str(work / "run"),
    )
    env.pop("TMUX", None)
    return run_session("nvim_ux_session.lua", work, env, timeout=240, out=f"{mode}.json")


@pytest.fixture(scope="module")
def ux(tmp_path_factory):
    work = tmp_path_factory.mktemp("nvim-ux")
    return run_ux(work), work.resolve()


def editor_context(envelope: dict) -> dict:
    assert envelope["ok"] is True, envelope
    assert "editorContext" in envelope, f"the agent got no editor: {envelope}"
    return envelope["editorContext"]


def test_checkhealth_passes(ux):
    r, work = ux
    health = r["health"]
    text = "\n".join(health)
    assert not [line for line in health if "ERROR" in line], text
    assert "OK binary: " in text and "(executable)" in text, text
    assert "OK version: locus " in text, text
    assert "OK attached to buffer" in text and "greeter.py" in text, text
    assert "OK position encoding: utf-8" in text, text
    assert "OK MCP sidecar: http://127.0.0.1:" in text, text
    assert f"OK discovery file: {work / 'run' / 'locus'}/" in text, text
    assert "symbol forwarding: off" in text, text


def test_locus_command_prints_the_chain_and_file_line(ux):
    r, _ = ux
    assert r["locus_cmd"].strip() == "Class:Greeter > Method:greet  greeter.py:3"
    status = r["locus_status"].strip().splitlines()
    assert status[0].startswith("locus: client ") and "utf-8" in status[0] and "1 buffer" in status[0], status
    assert status[1].startswith("  MCP: http://127.0.0.1:"), status
    assert status[2] == "  active editor: greeter.py:3", status


def test_statusline_and_winbar_are_current_without_redrawstatus(ux):
    r, _ = ux
    # The session waited for these to be *drawn*, after nothing but a cursor move.
    assert r["status_greet"] == "Class:Greeter > Method:greet"
    assert r["winbar_greet"] == "greeter.py › Greeter › greet"
    assert r["status_main"] == "Function:main"
    assert r["winbar_main"] == "greeter.py › main"


def test_agent_in_the_terminal_gets_the_file(ux):
    r, work = ux
    ctx = editor_context(r["agent_terminal"])
    assert ctx["file"]["path"] == str(work / "greeter.py")
    assert ctx["cursor"] == {"line": 3, "character": 9}
    assert ctx["symbols"]["scopeHierarchy"] == "Class:Greeter > Method:greet"
    assert ctx["focused"] is False
    assert r["in_terminal"]["file"]["path"] == str(work / "greeter.py") and r["in_terminal"]["focused"] is False
    assert r["locus_cmd_terminal"].strip() == "Class:Greeter > Method:greet  greeter.py:3  (not focused)"


def test_agent_after_focus_lost_gets_the_file(ux):
    r, work = ux
    ctx = editor_context(r["agent_focus_lost"])
    assert ctx["file"]["path"] == str(work / "greeter.py")
    assert ctx["cursor"] == {"line": 3, "character": 9}
    assert ctx["focused"] is False
    assert r["focus_gained"]["focused"] is True


def test_help_window_keeps_the_file_unfocused(ux):
    r, work = ux
    assert r["in_help"]["file"]["path"] == str(work / "greeter.py") and r["in_help"]["focused"] is False
    assert r["back_in_file"]["focused"] is True


def test_unnamed_buffer_is_an_untitled_document(ux):
    r, _ = ux
    assert r["untitled_empty_client"] is False, "an empty :enew buffer is not mirrored yet"
    ctx = r["untitled"]
    assert r["untitled_uri"].startswith("untitled:Untitled-")
    # Neovim's client turns a null field into a missing one; the agent gets the JSON itself.
    assert ctx["file"].get("path") is None
    assert ctx["file"]["name"] == r["untitled_uri"].split(":", 1)[1]
    agent = editor_context(r["agent_untitled"])
    assert "path" in agent["file"] and agent["file"]["path"] is None, agent["file"]
    assert agent["file"]["name"] == ctx["file"]["name"] and agent["file"]["uri"] == r["untitled_uri"]
    assert agent["cursor"] == {"line": 2, "character": 5} and agent["focused"] is True
    assert ctx["file"]["languageId"] == "python"
    assert ctx["symbols"]["scopeHierarchy"] == "Function:scratch"
    assert ctx["focused"] is True
    assert r["after_untitled"]["file"]["name"] == "greeter.py"


def test_file_without_filetype_is_a_text_editor(ux):
    r, work = ux
    ctx = r["notes"]
    assert ctx["file"]["path"] == str(work / "NOTES")
    assert ctx["cursor"] == {"line": 2, "character": 3}
    assert ctx["focused"] is True


def test_unnamed_buffer_alone_starts_locus(tmp_path):
    r = run_ux(tmp_path, "scratch")
    ctx = r["context"]
    assert ctx["file"]["name"].startswith("Untitled-") and ctx["file"].get("path") is None
    assert ctx["cursor"] == {"line": 2, "character": 2}
    assert r["notified"] == []


def test_restart_and_no_editor_left(ux):
    r, _ = ux
    assert r["restart_msg"].strip() == "locus: restarted"
    assert r["after_restart"]["symbols"]["scopeHierarchy"] == "Function:main"
    assert r["no_editor"] is None, "only a terminal left and the file's buffer deleted: no text editor"
    assert r["notified"] == [], "no warnings on the way"


def test_not_executable_is_said_out_loud(tmp_path):
    r = run_ux(tmp_path, "missing")
    warnings = [n for n in r["notified"] if n["level"] >= 3]
    assert warnings and "/nonexistent/locus" in warnings[0]["msg"] and "not executable" in warnings[0]["msg"], r["notified"]
    assert r["clients"] == 0
    assert "not executable" in r["locus_cmd"]
    errors = [line for line in r["health"] if "ERROR" in line]
    assert errors and "/nonexistent/locus" in errors[0], r["health"]


# The end of every probe: what it recorded, or the error that stopped it, to $LOCUS_E2E_OUT.
PROBE_END = """
out.error = not ok and tostring(err) or nil
local f = assert(io.open(os.getenv('LOCUS_E2E_OUT'), 'w'))
f:write(vim.json.encode(out))
f:close()
vim.cmd('qall!')
"""


def run_probe(tmp_path: Path, probe: str, cwd: Path, **extra: str) -> dict:
    """Runs the Lua `probe` in a headless Neovim in `cwd`, the plugin on 'runtimepath' (so
    plugin/locus.lua runs), and returns what it recorded; fails on a Lua error."""
    env = nvim_env(cwd, LOCUS_E2E_OUT=str(tmp_path / "out.json"), **extra)
    (tmp_path / "init.lua").write_text("vim.opt.runtimepath:prepend(os.getenv('LOCUS_PLUGIN_DIR'))\n")
    (tmp_path / "probe.lua").write_text(probe)
    proc = subprocess.run(
        [nvim_bin(), "--headless", "--clean", "-u", str(tmp_path / "init.lua"), "-c", f"luafile {tmp_path / 'probe.lua'}"],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=90,
    )
    assert proc.returncode == 0, f"stdout: {proc.stdout}\nstderr: {proc.stderr}"
    r = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert "error" not in r, r["error"]
    return r


# What exists before and after setup(), and the help.
STARTUP_PROBE = """
local out = { loaded = vim.g.loaded_locus, command = vim.fn.exists(':Locus') == 2, modules = {} }
local ok, err = xpcall(function()
  for name in pairs(package.loaded) do
    if name:match('^locus') then
      table.insert(out.modules, name)
    end
  end
  table.sort(out.modules)
  out.completion = vim.fn.getcompletion('Locus ', 'cmdline')
  out.before_setup = vim.api.nvim_exec2('Locus', { output = true }).output
  out.clients_before = #vim.lsp.get_clients()
  local cmd = { os.getenv('LOCUS_BIN'), 'lsp' }
  require('locus').setup({ cmd = cmd })
  require('locus').setup({ cmd = cmd })
  local n = 0
  for name in pairs(vim.api.nvim_get_commands({})) do
    n = n + (name == 'Locus' and 1 or 0)
  end
  out.commands_after = n
  out.completion_after = vim.fn.getcompletion('Locus re', 'cmdline')
  local docs = os.getenv('LOCUS_DOCS')
  local tagged, why = pcall(vim.cmd.helptags, vim.fs.joinpath(docs, 'doc'))
  out.helptags = tagged and 'ok' or tostring(why)
  vim.opt.runtimepath:prepend(docs)
  for _, topic in ipairs({ 'locus', ':Locus-restart', 'locus-option-actions_save', 'locus.statusline()', 'locus-health' }) do
    local found = pcall(vim.cmd.help, topic)
    out['help ' .. topic] = found and vim.fn.expand('%:t') or 'not found'
    vim.cmd('helpclose')
  end
end, debug.traceback)
""" + PROBE_END


def test_locus_command_and_help_exist_before_setup(tmp_path):
    # The help's tags are written beside a copy, never into the checkout.
    shutil.copytree(ROOT / "editors" / "nvim" / "doc", tmp_path / "docs" / "doc")
    r = run_probe(tmp_path, STARTUP_PROBE, tmp_path, LOCUS_DOCS=str(tmp_path / "docs"))
    assert r["loaded"] is True and r["command"] is True
    assert r["modules"] == ["locus.commands"], "plugin/locus.lua loads only the command's module"
    assert sorted(r["completion"]) == ["accept", "mention", "reject", "restart", "status"]
    assert "no server is running" in r["before_setup"]
    assert r["clients_before"] == 0
    assert r["commands_after"] == 1 and sorted(r["completion_after"]) == ["reject", "restart"]
    assert r["helptags"] == "ok"
    for topic in ("locus", ":Locus-restart", "locus-option-actions_save", "locus.statusline()", "locus-health"):
        assert r[f"help {topic}"] == "locus.txt", (topic, r)


# Waits (in a probe's Lua) for the locus client of the buffer just edited to initialize.
CLIENT_STARTED = """
  local started = vim.wait(20000, function()
    local c = vim.lsp.get_clients({ name = 'locus' })[1]
    return c ~= nil and c.initialized
  end, 50)
  assert(started, 'the locus client did not start')
"""


# The `tools` option: `locus lsp --tools`, which the sidecar then offers agents.
TOOLS_PROBE = """
local out = {}
local ok, err = xpcall(function()
  local bin = os.getenv('LOCUS_BIN')
  require('locus').setup({ cmd = { bin, 'lsp' }, tools = { 'symbol', 'system', '-symbol_search' } })
  vim.cmd.edit('main.py')
""" + CLIENT_STARTED + """  out.cmd = vim.lsp.get_clients({ name = 'locus' })[1].config.cmd
  -- `locus call` reaches the sidecar once its discovery file names this workspace; until then
  -- it answers in-process, offering every tool.
  local listed
  vim.wait(20000, function()
    local r = vim.system({ bin, 'call', 'mcp_list_tools' }, { cwd = vim.fn.getcwd(), text = true }):wait()
    listed = {}
    for _, category in ipairs(vim.json.decode(r.stdout).data.categories) do
      for _, tool in ipairs(category.tools) do
        table.insert(listed, tool.name)
      end
    end
    return not vim.tbl_contains(listed, 'debug_start')
  end, 200)
  out.listed = listed
  local refused = vim.system({ bin, 'call', 'debug_status' }, { cwd = vim.fn.getcwd(), text = true }):wait()
  out.refused = vim.json.decode(refused.stdout)
end, debug.traceback)
""" + PROBE_END


def test_tools_option_chooses_what_agents_are_offered(tmp_path):
    (tmp_path / "ws").mkdir()
    r = run_probe(tmp_path, TOOLS_PROBE, workspace(tmp_path / "ws", {"main.py": PY}))
    assert r["cmd"][1:] == ["lsp", "--tools", "symbol,system,-symbol_search"]
    assert r["listed"] == ["symbol_outline", "symbol_scope_at", "bridge_status", "mcp_list_tools"]
    assert r["refused"]["error"]["code"] == "E_UNSUPPORTED", r["refused"]
    assert "--tools symbol,system,-symbol_search" in r["refused"]["error"]["message"]


# The workspace's Python decides a static condition's branch: pyright (and so VS Code) binds
# only the branch the configured version takes, and an agent gets those scopes.
RUNTIME_PY = """import sys


class Store:
    if sys.version_info >= (3, 12):
        def load(self):
            return 1
    else:
        def load_legacy(self):
            return 2
"""

RUNTIME_PROBE = """
local out = {}
local ok, err = xpcall(function()
  local bin = os.getenv('LOCUS_BIN')
  require('locus').setup({ cmd = { bin, 'lsp' } })
  vim.cmd.edit('store.py')
""" + CLIENT_STARTED + """  -- The user puts the cursor in the `else` branch's method, as with `10G`.
  vim.api.nvim_win_set_cursor(0, { 10, 12 })
  vim.api.nvim_exec_autocmds('CursorMoved', {})
  local context
  vim.wait(20000, function()
    local r = vim.system({ bin, 'call', 'editor_get_context' }, { cwd = vim.fn.getcwd(), text = true }):wait()
    local decoded = vim.json.decode(r.stdout)
    context = decoded.editorContext
    return context ~= nil and context.cursor ~= nil and context.cursor.line == 10
  end, 200)
  out.context = context
  -- The agent's own scope tool, on the same file, through the same sidecar.
  local r = vim.system({ bin, 'call', 'symbol_scope_at', '-p', 'path=store.py', '-p', 'line=10', '-p', 'character=12' },
    { cwd = vim.fn.getcwd(), text = true }):wait()
  out.scope_at = vim.json.decode(r.stdout)
end, debug.traceback)
""" + PROBE_END


@pytest.mark.parametrize(("config", "chain"), [
    ('{"pythonVersion": "3.11"}', "Class:Store > Method:load_legacy"),
    ('{"pythonVersion": "3.13"}', "Class:Store"),
])
def test_the_workspaces_python_decides_static_branches(tmp_path, config, chain):
    (tmp_path / "ws").mkdir()
    ws = workspace(tmp_path / "ws", {"store.py": RUNTIME_PY, "pyrightconfig.json": config})
    r = run_probe(tmp_path, RUNTIME_PROBE, ws)
    context = r["context"]
    assert context["cursor"]["line"] == 10, context
    assert context["symbols"]["scopeHierarchy"] == chain, context
    assert r["scope_at"]["data"]["scopeHierarchy"] == chain, r["scope_at"]
