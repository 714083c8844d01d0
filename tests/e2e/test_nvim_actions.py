"""Editor actions in Neovim 0.11 (editors/nvim) with a real pyright, called by an agent.

A headless Neovim opens two Python files served by pyright (npm) and `locus lsp` (with its
sidecar); tests/e2e/nvim_actions_session.lua calls the tools with `locus call`, which forwards
to that `locus lsp`, which asks Neovim (`locus/editorAction`): `symbol_rename` renames a
function across both files through pyright's rename, `diagnostic_collect` lists pyright's
problems, `editor_open_file` moves Neovim's cursor, `setting_get` answers E_UNSUPPORTED, and
`file_rename` has Neovim move a file.

Needs `nvim` and pyright (scripts/install-test-peers.sh installs both) and the `locus` binary
($LOCUS_BIN, else target/debug/locus). A missing peer fails the test: it never skips.
"""

import os
from pathlib import Path

import pytest

from nvim_common import ROOT, nvim_env, run_session, workspace

LIB = '''def greet(name):
    return "hi " + name
'''

APP = '''from lib import greet

print(greet("x"))
undefined_name
'''


def pyright_bin() -> str:
    peers = Path(os.environ.get("LOCUS_PEERS_DIR", ROOT / "target" / "peers"))
    path = os.environ.get("PYRIGHT_LANGSERVER") or str(peers / "pyright" / "node_modules" / ".bin" / "pyright-langserver")
    if not Path(path).exists():
        pytest.fail(f"pyright not found at {path}: run scripts/install-test-peers.sh (it installs pyright from npm)")
    return path


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    pyright = pyright_bin()
    work = tmp_path_factory.mktemp("nvim-actions").resolve()
    workspace(work, {"lib.py": LIB, "app.py": APP, "other.py": "x = 1\n"})
    runtime = work / "run"
    runtime.mkdir()
    runtime.chmod(0o700)
    env = nvim_env(work, LOCUS_WORK=str(work), PYRIGHT_LANGSERVER=pyright, XDG_RUNTIME_DIR=str(runtime))
    return run_session("nvim_actions_session.lua", work, env, timeout=300, log_tail=6000), work


def test_neovim_declares_its_actions(session):
    r, _ = session
    assert r["declared"] == ["symbol.rename", "file.rename", "editor.open_file", "diagnostic.collect", "edit.propose", "edit.propose.close", "file.save"]


def test_symbol_rename_renames_across_files_through_pyright(session):
    r, work = session
    e = r["rename"]
    assert e["ok"] is True, e
    d = e["data"]
    assert d["oldName"] == "greet" and d["newName"] == "welcome" and d["applied"] is True
    assert {f["path"] for f in d["files"]} == {str(work / "lib.py"), str(work / "app.py")}
    assert d["edits"] == 3, d  # the definition, the import and the call
    assert r["lib_after"].startswith("def welcome(name):")
    assert r["app_after"].startswith('from lib import welcome\n\nprint(welcome("x"))')
    # Locus wrote nothing; Neovim wrote lib.py, which had no unsaved changes, and left app.py,
    # which had the user's, unsaved (as VS Code saves a refactoring's files).
    assert r["lib_on_disk"].startswith("def welcome(name):") and r["lib_modified"] is False
    assert r["app_on_disk"].startswith("from lib import greet") and r["app_modified"] is True
    assert r["app_after"].endswith("# note")
    editor = d["editor"]
    assert editor["saved"] == [(work / "lib.py").as_uri()] and editor["unsaved"] == [(work / "app.py").as_uri()]
    assert e["editorContext"]["file"]["path"] == str(work / "lib.py")


def test_diagnostic_collect_returns_pyrights_problems(session):
    r, work = session
    e = r["diagnostics"]
    assert e["ok"] is True, e
    assert "editorContext" not in e
    files = {f["path"]: f["diagnostics"] for f in e["data"]["files"]}
    app = files[str(work / "app.py")]
    undefined = [p for p in app if "undefined_name" in p["message"]]
    assert undefined, app
    p = undefined[0]
    assert p["severity"] == "error" and p["source"] == "Pyright"
    assert p["start"] == {"line": 4, "character": 1} and p["end"] == {"line": 4, "character": 15}
    assert e["data"]["counts"]["error"] >= 1
    only = r["diagnostics_app"]["data"]["files"]
    assert [f["path"] for f in only] == [str(work / "app.py")]


def test_editor_open_file_moves_neovims_cursor(session):
    r, work = session
    e = r["open"]
    assert e["ok"] is True, e
    assert r["open_buffer"] == str(work / "app.py")
    assert r["open_cursor"] == [3, 0]
    assert r["open_split"] is True, "the modified buffer stays, in its own window"
    ctx = r["open_context"]
    assert ctx["file"]["path"] == str(work / "app.py") and ctx["cursor"]["line"] == 3


def test_setting_get_is_unsupported_in_neovim(session):
    r, _ = session
    e = r["setting"]
    assert e["ok"] is False
    assert e["error"]["code"] == "E_UNSUPPORTED"
    assert "init.lua" in e["error"]["hint"]


def test_file_rename_is_done_by_neovim(session):
    r, work = session
    e = r["file_rename"]
    assert e["ok"] is True, e
    assert e["data"]["to"] == str(work / "moved" / "other.py")
    assert r["moved_exists"] is True and r["old_exists"] is False


def test_symbol_rename_in_a_file_neovim_had_not_opened(session):
    r, work = session
    e = r["rename_unopened"]
    assert e["ok"] is True, e
    assert e["data"]["edits"] == 1
    assert r["unopened_after"] == "y = 1"


def test_file_rename_asks_only_the_servers_whose_filters_take_the_file(session):
    r, work = session
    e = r["imports_rename"]
    assert e["ok"] is True, e
    assert e["data"]["importsUpdated"] is True and e["data"]["editor"]["servers"] == ["importer"], e
    assert [f["path"] for f in e["data"]["files"]] == [str(work / "user_a.py")]
    assert r["imports_user_a"] == "import mod_b\n"
    assert r["imports_asked"] == {"importer": 1, "tsonly": 0}, "tsonly takes only *.ts files"
    assert r["imports_told"] == 1
    assert (work / "mod_b.py").exists() and not (work / "mod_a.py").exists()


def test_file_rename_changes_nothing_when_a_server_fails(session):
    r, _ = session
    e = r["broken_rename"]
    assert e["ok"] is False, e
    # The editor tried and failed: not E_UNSUPPORTED.
    assert e["error"]["code"] == "E_INTERNAL", e
    assert "broken: cannot compute the edits; nothing was changed" in e["error"]["message"], e
    assert "Nothing was changed" in e["error"]["hint"], e
    # importer answered an edit too, but nothing was applied and nothing moved.
    assert r["broken_state"] == {"user_a": "import mod_b\n", "mod_b": "X = 1\n", "mod_c": None}, r["broken_state"]


def test_file_rename_refuses_a_move_that_cannot_succeed_before_asking(session):
    r, _ = session
    e = r["blocked_rename"]
    assert e["ok"] is False and e["error"]["code"] == "E_INVALID_PARAMS", e
    assert "is not a folder" in e["error"]["message"], e
    assert r["blocked_state"] == {"user_a": "import mod_b\n", "mod_b": "X = 1\n", "asked": 0}


def test_file_rename_times_out_on_a_silent_server_with_nothing_changed(session):
    r, _ = session
    e = r["silent_rename"]
    assert e["ok"] is False, e
    assert e["error"]["code"] == "E_TIMEOUT", e
    assert "silent did not answer workspace/willRenameFiles within 1500 ms" in e["error"]["message"], e
    assert r["silent_state"] == {"user_a": "import mod_b\n", "mod_b": "X = 1\n", "mod_c": None}, r["silent_state"]
