"""What the agent end-to-end tests share (test_agent_*.py): the pinned agent CLIs, a
workspace with Locus configured the way docs/agents.md says, and a run of one CLI against a
local model stub (tests/e2e/agents/model_stub.py) that records what the model would see.

A missing peer (an agent CLI, the `locus` binary) fails the test: it never skips.
"""

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_common import ROOT, locus_bin

sys.path.insert(0, str(ROOT / "tests" / "e2e" / "agents"))

from model_stub import Anthropic, Gemini, OpenAIResponses  # noqa: E402

__all__ = [
    "Anthropic", "Gemini", "OpenAIResponses", "ROOT", "agent_bin", "agent_env", "assert_sees_neovim", "beside_neovim",
    "decode_result", "locus_on_path", "neovim_workspace", "run_agent",
]

INSTALL = "scripts/install-agent-clis.sh"


def agent_bin(name: str) -> str:
    """The pinned CLI `name` (claude, codex, gemini) that scripts/install-agent-clis.sh
    installed."""
    peers = Path(os.environ.get("LOCUS_PEERS_DIR", ROOT / "target" / "peers"))
    path = peers / "agents" / "node_modules" / ".bin" / name
    if not path.exists():
        pytest.fail(f"{name} not found at {path}: run {INSTALL}")
    return str(path)


def locus_on_path(work: Path) -> str:
    """A folder holding `locus` (a link to the binary under test), for PATH: the agents start
    `locus mcp` by name, as the docs' snippets say."""
    bin_dir = work / "bin"
    bin_dir.mkdir(exist_ok=True)
    link = bin_dir / "locus"
    if not link.exists():
        link.symlink_to(locus_bin())
    return str(bin_dir)


def agent_env(work: Path, home: Path, **extra: str) -> dict:
    """An environment that keeps the agent off the user's own configuration and the network:
    its own HOME, `locus` first on PATH, no proxy."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_", "GEMINI_", "GOOGLE_", "CLAUDE", "CODEX"))}
    env.pop("TMUX", None)
    env.pop("TMUX_PANE", None)
    # A CLI that believes it runs in CI (Gemini's Ink interface checks `CI`, `CONTINUOUS_INTEGRATION`
    # and `CI_*`) runs headless and exits at once; a user runs it in a terminal.
    for key in [k for k in env if k in ("CI", "CONTINUOUS_INTEGRATION") or k.startswith("CI_")]:
        env.pop(key)
    home.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), PATH=f"{locus_on_path(work)}:{env.get('PATH', '')}", NO_PROXY="127.0.0.1,localhost", LOCUS_LOG="warn")
    for proxy in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"):
        env.pop(proxy, None)
    env.update(extra)
    return env


def agent_script(work: Path, agent: dict, argv: list[str], then: str = "exec") -> Path:
    """Writes `agent.sh`, which runs the CLI with exactly `agent` as its environment: the pane's
    shell inherits the editor's, which may hold variables the CLI reacts to. `then` is `exec`, or
    a redirection and status file for a CLI run to its end."""
    pairs = " ".join(shlex.quote(f"{k}={v}") for k, v in agent.items())
    command = f"env -i {pairs} {' '.join(shlex.quote(a) for a in argv)}"
    line = f"exec {command}" if then == "exec" else f"{command} {then}"
    script = work / "agent.sh"
    script.write_text(line + "\n")
    return script


def run_agent(argv: list[str], work: Path, env: dict, timeout: float = 180) -> subprocess.CompletedProcess:
    """Runs the agent CLI to its end in `work`; fails the test, with its output, if it does
    not end well."""
    try:
        done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{argv[0]} did not finish within {timeout} s\nstdout: {e.stdout}\nstderr: {e.stderr}")
    if done.returncode != 0:
        pytest.fail(f"{' '.join(argv)} failed ({done.returncode})\nstdout: {done.stdout}\nstderr: {done.stderr}")
    return done


def decode_result(result) -> object:
    """A tool result as the model got it, decoded: the JSON text of an envelope, or the
    content blocks as they were."""
    if isinstance(result, list) and len(result) == 1 and result[0].get("type") == "text":
        result = result[0]["text"]
    if isinstance(result, str):
        try:
            return json.loads(result)
        except json.JSONDecodeError:
            return result
    return result


def neovim_workspace(tmp_path: Path) -> Path:
    """A workspace for [`beside_neovim`]: `greeter.py`, Neovim's `init.lua` with the Locus
    plugin, and a runtime folder (`run`) the agent's `locus mcp` must be given as
    XDG_RUNTIME_DIR to find Neovim's sidecar."""
    from nvim_common import PY, workspace
    from test_nvim_tmux import INIT

    work = workspace(tmp_path.resolve(), {"greeter.py": PY, "init.lua": INIT})
    (work / "run").mkdir()
    return work


def beside_neovim(work: Path, name: str, agent: dict, argv: list[str]) -> None:
    """Neovim with the Locus plugin in a real tmux on `greeter.py`, the cursor moved into
    `greet` by real keys; then the agent `name` (`argv`, its environment `agent`) run to its
    end in the pane beside it, as a user would. Fails with the agent's output if it fails."""
    from nvim_common import nvim_bin, nvim_env
    from test_nvim_tmux import Tmux, wait_for

    nvim = nvim_bin()
    run = str(work / "run")
    env = nvim_env(work, LOCUS_FOCUS_LOG=str(work / "focus.log"), LOCUS_LOG="warn", XDG_RUNTIME_DIR=run, HOME=str(work))
    env.pop("TMUX", None)
    env.pop("TMUX_PANE", None)
    agent_script(work, agent, argv, then="< /dev/null > agent.out 2>&1; echo $? > agent.done")
    tmux = Tmux(work, env)
    try:
        tmux.start(f"exec {nvim} --clean -u {work / 'init.lua'} greeter.py")
        nvim_pane = tmux.panes()[0].split()[0]
        wait_for("locus to attach", lambda: "<greeter.py" in tmux.capture(nvim_pane), detail=lambda: tmux.capture(nvim_pane))
        tmux.type("3G08l")
        wait_for("the statusline to show greet", lambda: "[Class:Greeter > Method:greet]" in tmux.capture(nvim_pane))
        tmux.type("\x02\"")
        wait_for("a second pane", lambda: len(tmux.panes()) == 2)
        tmux.type("sh agent.sh\r")
        done = work / "agent.done"
        out = work / "agent.out"
        wait_for(f"{name} to finish", done.exists, timeout=180, detail=lambda: out.read_text() if out.exists() else "")
        assert done.read_text().strip() == "0", out.read_text()
    finally:
        tmux.stop()


def assert_sees_neovim(envelope: dict, work: Path) -> None:
    """The envelope the model got carries Neovim's file and the cursor [`beside_neovim`] put."""
    ctx = envelope.get("editorContext")
    assert ctx, f"no editorContext reached the model: {envelope}"
    assert ctx["file"]["path"] == str(work / "greeter.py")
    assert ctx["cursor"] == {"line": 3, "character": 9}
    assert ctx["symbols"]["scopeHierarchy"] == "Class:Greeter > Method:greet"


def which(name: str) -> str:
    path = shutil.which(name)
    if not path:
        pytest.fail(f"{name} not found: run scripts/install-test-peers.sh")
    return path
