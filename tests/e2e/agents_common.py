"""What the agent end-to-end tests share (test_agent_*.py): the pinned agent CLIs, a
workspace with Locus configured the way docs/agents.md says, and a run of one CLI against a
local model stub (tests/e2e/agents/model_stub.py) that records what the model would see.

A missing peer (an agent CLI, the `locus` binary) fails the test: it never skips.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_common import ROOT, locus_bin

sys.path.insert(0, str(ROOT / "tests" / "e2e" / "agents"))

from model_stub import Anthropic, Gemini, OpenAIResponses  # noqa: E402

__all__ = ["Anthropic", "Gemini", "OpenAIResponses", "ROOT", "agent_bin", "agent_env", "decode_result", "locus_on_path", "run_agent"]

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
    home.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), PATH=f"{locus_on_path(work)}:{env.get('PATH', '')}", NO_PROXY="127.0.0.1,localhost", LOCUS_LOG="warn")
    for proxy in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"):
        env.pop(proxy, None)
    env.update(extra)
    return env


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


def which(name: str) -> str:
    path = shutil.which(name)
    if not path:
        pytest.fail(f"{name} not found: run scripts/install-test-peers.sh")
    return path
