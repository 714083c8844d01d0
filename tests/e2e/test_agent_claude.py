"""The real Claude Code (the pinned `@anthropic-ai/claude-code`) with Locus, offline.

Claude Code runs for real with Locus added the way docs/agents.md says (`claude mcp add locus
-- locus mcp`), pointed at a local stand-in for the Messages API (`ANTHROPIC_BASE_URL`) that
scripts the model's tool calls and records every request (tests/e2e/agents/model_stub.py).
The assertions are on what the model would see: the tool results in the recorded requests.

Claude Code defers MCP tools: the model sees their names only, and finds a tool with the
ToolSearch tool by keyword before it can call it. It stores a tool answer over its limit in a
file and shows the model a 2 KB preview instead; Locus's answers must fit below it.

Needs the agent CLIs (scripts/install-agent-clis.sh), Neovim and tmux
(scripts/install-test-peers.sh), debugpy, and the `locus` binary; a missing peer fails.
"""

import json
from pathlib import Path

from agents_common import Anthropic, agent_bin, agent_env, assert_sees_neovim, beside_neovim, decode_result, neovim_workspace, run_agent
from agent_scenarios import (
    PROGRAM, PY, assert_debug_session, assert_outline, assert_search, big_python, debug_script,
    outline_script, require_debugpy, search_script,
)
from nvim_common import workspace

# Claude Code's names for Locus's tools.
PREFIX = "mcp__locus__"

# What Claude Code passes its model whole (measured: 39 KB arrived whole, 49 KB did not).
CLAUDE_CODE_LIMIT = 39 * 1024


def claude(work: Path, stub: Anthropic, prompt: str, **env_extra: str):
    """`claude mcp add locus -- locus mcp` (the docs' snippet), then one prompt in print mode
    with Locus's tools allowed."""
    env = agent_env(
        work,
        work / "home",
        ANTHROPIC_BASE_URL=stub.url,
        ANTHROPIC_API_KEY="sk-locus-test",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
        **env_extra,
    )
    cli = agent_bin("claude")
    run_agent([cli, "mcp", "add", "locus", "--", "locus", "mcp"], work, env)
    done = run_agent([cli, "-p", prompt, "--allowedTools", "mcp__locus__*"], work, env)
    # Claude Code's schema validator warns about every schema keyword it does not know.
    assert "schema" not in done.stderr, done.stderr
    return done


def envelope_of(stub: Anthropic, step: int) -> dict:
    """The envelope the model was sent for the script's `step`-th call."""
    result = decode_result(stub.result_of(step))
    assert isinstance(result, dict), f"the model got no envelope but: {str(result)[:2000]}"
    return result


def test_the_model_finds_locus_tools_by_keyword(tmp_path):
    work = workspace(tmp_path.resolve(), {"greeter.py": PY})
    wanted = {
        "cursor": "editor_get_context",
        "selection": "editor_get_context",
        "outline": "symbol_outline",
        "symbol": "symbol_search",
        "breakpoint": "breakpoint_set",
        "debug": "debug_start",
        "rename": "symbol_rename",
    }
    script = [{"tool": "ToolSearch", "args": {"query": q}} for q in wanted] + [{"text": "found"}]
    with Anthropic(script) as stub:
        claude(work, stub, "which tools can see my editor?")
        first = stub.conversation()[0]
        system = json.dumps(first.get("system")) + json.dumps(first["messages"])
        assert "mcp__locus__editor_get_context" in system, "the model is not told Locus's tools exist"
        problems = []
        for step, (query, tool) in enumerate(wanted.items()):
            found = stub.result_of(step)
            names = [b.get("tool_name") for b in found if isinstance(b, dict)] if isinstance(found, list) else []
            if f"mcp__locus__{tool}" not in names:
                problems.append(f"`{query}` finds {names}, not {tool}")
        assert not problems, "\n".join(problems)


def test_editor_context_from_neovim_in_the_next_tmux_pane(tmp_path):
    """Neovim with the Locus plugin in a real tmux; the cursor moved by real keys; `claude -p`
    started in the pane beside it. The model sees Neovim's file and cursor."""
    work = neovim_workspace(tmp_path)
    script = [{"tool": "mcp__locus__editor_get_context", "args": {}}, {"text": "you are in greet"}]
    with Anthropic(script) as stub:
        agent = agent_env(
            work, work / "home", ANTHROPIC_BASE_URL=stub.url, ANTHROPIC_API_KEY="sk-locus-test",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1",
            XDG_RUNTIME_DIR=str(work / "run"),
        )
        cli = agent_bin("claude")
        run_agent([cli, "mcp", "add", "locus", "--", "locus", "mcp"], work, agent)
        beside_neovim(work, "Claude Code", agent, [cli, "-p", "where am I?", "--allowedTools", "mcp__locus__*"])
        assert_sees_neovim(envelope_of(stub, 0), work)


def test_the_outline_of_a_10000_line_file_reaches_the_model(tmp_path):
    work = workspace(tmp_path.resolve(), {"services.py": big_python(1_000)})
    with Anthropic(outline_script(PREFIX)) as stub:
        claude(work, stub, "outline services.py")
        raw = stub.result_of(0)
        first = envelope_of(stub, 0)
        unfolded = envelope_of(stub, 1)
    size = len(raw if isinstance(raw, str) else json.dumps(raw))
    assert size <= CLAUDE_CODE_LIMIT, f"{size} bytes: Claude Code shows the model a preview only"
    assert_outline(first, unfolded)


def test_symbol_search_reaches_the_model(tmp_path):
    work = workspace(tmp_path.resolve(), {"services.py": big_python(50), "greeter.py": PY})
    with Anthropic(search_script(PREFIX)) as stub:
        claude(work, stub, "where is Greeter defined?")
        assert_search(envelope_of(stub, 0))


def test_a_debug_session_driven_by_the_model(tmp_path):
    require_debugpy()
    work = workspace(tmp_path.resolve(), {"cart.py": PROGRAM})
    with Anthropic(debug_script(PREFIX)) as stub:
        claude(work, stub, "debug cart.py and tell me acc at the return")
        assert_debug_session([envelope_of(stub, i) for i in range(5)])


def test_the_model_recalls_the_first_request(tmp_path):
    work = workspace(tmp_path.resolve(), {"greeter.py": PY})
    prompt = "Rename Greeter to Welcomer everywhere, then run the tests"
    # As a model would: find the tool first, then call it (a model's first turn also gives
    # Claude Code the moment to write the prompt to its transcript).
    script = [
        {"tool": "ToolSearch", "args": {"query": "first request"}},
        {"tool": "mcp__locus__dialog_get_first_request", "args": {}},
        {"text": "recalled"},
    ]
    with Anthropic(script) as stub:
        claude(work, stub, prompt)
        found = [b.get("tool_name") for b in stub.result_of(0)]
        envelope = envelope_of(stub, 1)
    assert "mcp__locus__dialog_get_first_request" in found, found
    assert envelope["ok"] is True, envelope
    assert prompt in json.dumps(envelope["data"]), envelope["data"]
