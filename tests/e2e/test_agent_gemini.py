"""The real Gemini CLI (the pinned `@google/gemini-cli`) with Locus, offline.

Gemini CLI runs for real (`gemini -p`) with Locus added the way docs/agents.md says (`gemini
mcp add --trust locus locus mcp`, into the project's `.gemini/settings.json`), pointed at a local
stand-in for the Gemini API (`GOOGLE_GEMINI_BASE_URL`) that scripts the model's tool calls and
records every request (tests/e2e/agents/model_stub.py). The assertions are on what the model
would see: the function responses in the recorded requests.

Gemini CLI declares MCP tools to the model as functions named `mcp_locus_<tool>`; in
non-interactive mode only those it need not confirm (a trusted server's, or all with `--yolo`):
it cannot ask. It shows the model
an MCP answer's `content` text blocks only, each wrapped in `<untrusted_context>`, joined by a
line break, never `structuredContent`: the envelope reaches the model as a text block of its
own. An answer that is a single text block over 40,000 characters is stored in a file and the
model shown its head and tail.

Needs the agent CLIs (scripts/install-agent-clis.sh), Neovim and tmux
(scripts/install-test-peers.sh), debugpy, and the `locus` binary; a missing peer fails.
"""

import json
import re
from pathlib import Path

import pytest

from agents_common import Gemini, agent_bin, agent_env, assert_sees_neovim, beside_neovim, neovim_workspace, run_agent
from agent_scenarios import (
    PROGRAM, PY, assert_debug_session, assert_outline, assert_search, big_python, debug_script,
    outline_script, require_debugpy, search_script,
)
from nvim_common import workspace

# Gemini CLI's names for Locus's tools.
PREFIX = "mcp_locus_"

# What Gemini CLI passes its model whole: a text block of up to 40,000 characters (its
# `truncateToolOutputThreshold`).
GEMINI_LIMIT = 40_000
WRAPPED = re.compile(r"<untrusted_context>\n(.*?)\n</untrusted_context>", re.S)

# A model Gemini CLI knows; naming it skips the router's side request.
MODEL = "gemini-2.5-flash"

# Gemini CLI's own settings (the user's `~/.gemini/settings.json`): an API key, nothing sent
# anywhere else.
USER_SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "ide": {"enabled": False},
}


def setup_gemini(work: Path, stub: Gemini, **env_extra: str) -> tuple[str, dict]:
    """The Gemini CLI and its environment, with Locus added as the docs say for `gemini -p`:
    `gemini mcp add --trust locus locus mcp` in the project."""
    home = work / "home"
    env = agent_env(
        work, home, GEMINI_API_KEY="locus-test", GOOGLE_GEMINI_BASE_URL=stub.url,
        GEMINI_CLI_TRUST_WORKSPACE="true", GEMINI_CLI_NO_RELAUNCH="true", **env_extra,
    )
    settings = home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps(USER_SETTINGS))
    cli = agent_bin("gemini")
    run_agent([cli, "mcp", "add", "--trust", "locus", "locus", "mcp"], work, env)
    added = json.loads((work / ".gemini" / "settings.json").read_text())["mcpServers"]["locus"]
    assert added == {"command": "locus", "args": ["mcp"], "trust": True}, added
    return cli, env


def prompt_argv(cli: str, prompt: str) -> list[str]:
    return [cli, "-m", MODEL, "-o", "stream-json", "-p", prompt]


def gemini(work: Path, stub: Gemini, prompt: str):
    """One prompt through `gemini -p`, Locus added as the docs say."""
    cli, env = setup_gemini(work, stub)
    done = run_agent(prompt_argv(cli, prompt), work, env)
    # Gemini CLI validates each tool's input schema; what it cannot, it warns about.
    assert not re.search(r"schema|unknown format", done.stderr, re.I), done.stderr
    return done


def envelope_of(stub: Gemini, step: int) -> dict:
    """The envelope the model was sent for the script's `step`-th call: the text block of
    the answer that is a JSON object."""
    seen = stub.result_of(step)
    output = (seen or {}).get("output")
    assert isinstance(output, str), f"the model got no output but: {str(seen)[:2000]}"
    for block in WRAPPED.findall(output):
        try:
            envelope = json.loads(block)
        except json.JSONDecodeError:
            continue
        if isinstance(envelope, dict):
            return envelope
    pytest.fail(f"the model got no envelope but: {output[:2000]}")


WANTED = ["editor_get_context", "symbol_outline", "symbol_search", "breakpoint_set", "debug_start", "symbol_rename", "dialog_get_first_request"]


def test_the_model_is_offered_locus_tools(tmp_path):
    work = workspace(tmp_path.resolve(), {"greeter.py": PY})
    with Gemini([{"text": "found"}]) as stub:
        gemini(work, stub, "which tools can see my editor?")
        first = stub.conversation()[0]
    declared = {d["name"]: d for t in first["tools"] for d in t.get("functionDeclarations") or []}
    missing = {f"mcp_locus_{name}" for name in WANTED} - set(declared)
    assert not missing, f"not declared: {missing}; declared: {sorted(declared)}"
    outline = declared["mcp_locus_symbol_outline"]
    schema = outline.get("parametersJsonSchema") or outline.get("parameters") or {}
    assert "path" in schema.get("properties", {}), outline


def test_editor_context_from_neovim_in_the_next_tmux_pane(tmp_path):
    """Neovim with the Locus plugin in a real tmux; the cursor moved by real keys; `gemini -p`
    started in the pane beside it. The model sees Neovim's file and cursor."""
    work = neovim_workspace(tmp_path)
    script = [{"tool": "mcp_locus_editor_get_context", "args": {}}, {"text": "you are in greet"}]
    with Gemini(script) as stub:
        cli, agent = setup_gemini(work, stub, XDG_RUNTIME_DIR=str(work / "run"))
        beside_neovim(work, "Gemini CLI", agent, prompt_argv(cli, "where am I?"))
        assert_sees_neovim(envelope_of(stub, 0), work)


def test_the_outline_of_a_10000_line_file_reaches_the_model(tmp_path):
    work = workspace(tmp_path.resolve(), {"services.py": big_python(1_000)})
    with Gemini(outline_script(PREFIX)) as stub:
        gemini(work, stub, "outline services.py")
        output = stub.result_of(0)["output"]
        assert "Output too large" not in output, output[:300]
        first = envelope_of(stub, 0)
        unfolded = envelope_of(stub, 1)
    assert len(output) <= GEMINI_LIMIT, f"{len(output)} characters: Gemini CLI shows the model the head and the tail only"
    assert_outline(first, unfolded)


def test_symbol_search_reaches_the_model(tmp_path):
    work = workspace(tmp_path.resolve(), {"services.py": big_python(50), "greeter.py": PY})
    with Gemini(search_script(PREFIX)) as stub:
        gemini(work, stub, "where is Greeter defined?")
        assert_search(envelope_of(stub, 0))


def test_a_debug_session_driven_by_the_model(tmp_path):
    require_debugpy()
    work = workspace(tmp_path.resolve(), {"cart.py": PROGRAM})
    with Gemini(debug_script(PREFIX)) as stub:
        gemini(work, stub, "debug cart.py and tell me acc at the return")
        assert_debug_session([envelope_of(stub, i) for i in range(5)])


def test_the_model_recalls_the_first_request(tmp_path):
    """Gemini CLI records the session under `~/.gemini/tmp/<project>/chats`, where the dialog
    tools read it."""
    work = workspace(tmp_path.resolve(), {"greeter.py": PY})
    prompt = "Rename Greeter to Welcomer everywhere, then run the tests"
    script = [{"tool": "mcp_locus_dialog_get_first_request", "args": {}}, {"text": "recalled"}]
    with Gemini(script) as stub:
        gemini(work, stub, prompt)
        envelope = envelope_of(stub, 0)
    assert envelope["ok"] is True, envelope
    assert prompt in json.dumps(envelope["data"]), envelope["data"]


def test_a_failed_call_reaches_the_model_once(tmp_path):
    """Gemini CLI gives its model the whole result of a failed call, `structuredContent`
    included: the envelope is there once, with the code, the hint and the details."""
    work = workspace(tmp_path.resolve(), {"greeter.py": PY})
    script = [{"tool": "mcp_locus_symbol_outline", "args": {"path": "nope.py"}}, {"text": "no such file"}]
    with Gemini(script) as stub:
        gemini(work, stub, "outline nope.py")
        seen = json.dumps(stub.result_of(0))
    assert "E_NOT_FOUND" in seen and "relative to a workspace folder" in seen, seen
    assert seen.count("requestId") == 1, f"the envelope reached the model more than once: {seen}"
