"""The real Codex CLI (the pinned `@openai/codex`) with Locus, offline.

`codex exec` runs for real with Locus added the way docs/agents.md says (`codex mcp add locus
-- locus mcp`, then `env_vars` and, for `codex exec`, `default_tools_approval_mode` under
`[mcp_servers.locus]`), its model provider pointed at a
local stand-in for the Responses API that scripts the model's tool calls and records every
request (tests/e2e/agents/model_stub.py). The assertions are on what the model would see: the
tool results in the recorded requests.

Codex declares an MCP server's tools to the model up front, as the namespace `mcp__locus`; for
a model it knows (gpt-5.5) it defers them instead, and the model finds them with its
`tool_search`. It shows the model a tool's `structuredContent` (Locus's envelope) after a `Wall
time` line, and cuts an output over its limit to the head and the tail; Locus's answers must
fit below it. It starts MCP servers with a few variables of its environment only (HOME, PATH,
USER, TERM, ...): `env_vars` passes on XDG_RUNTIME_DIR, where the editors' discovery files are.
With `approval_policy = "never"` it refuses the tools whose annotations say they change
something (`destructiveHint`: debug_stop, symbol_rename, ...) unless the server's tools are
approved by default.

Needs the agent CLIs (scripts/install-agent-clis.sh), Neovim and tmux
(scripts/install-test-peers.sh), debugpy, and the `locus` binary; a missing peer fails.
"""

import json
import re
import tomllib
from pathlib import Path

import pytest

from agents_common import OpenAIResponses, agent_bin, agent_env, assert_sees_neovim, beside_neovim, neovim_workspace, run_agent
from agent_scenarios import (
    PROGRAM, PY, assert_debug_session, assert_outline, assert_search, big_python, debug_script,
    outline_script, require_debugpy, search_script,
)
from nvim_common import workspace

# Codex's names for Locus's tools.
PREFIX = "mcp__locus__"

# What Codex passes its model whole for a model it has no metadata for (measured: an output
# of 11,937 characters arrived whole; a longer one arrives as 6,000 characters of its head,
# the marker `…N tokens truncated…` and 6,000 of its tail).
CODEX_LIMIT = 11_937
TRUNCATED = re.compile(r"…\d+ tokens truncated…")

# A model name Codex has no metadata for: it declares MCP tools up front.
UNKNOWN_MODEL = "locus-stub-model"

# What docs/agents.md adds under `[mcp_servers.locus]`: the variables Codex passes on to
# `locus mcp`, and no approval asked (`codex exec` has no one to ask).
LOCUS_TABLE = {"env_vars": ["XDG_RUNTIME_DIR", "CODEX_HOME"], "default_tools_approval_mode": "approve"}


def provider_config(stub: OpenAIResponses, model: str) -> str:
    """`~/.codex/config.toml` before Locus is added: the stub as the model provider, no
    approvals (`codex exec` has no one to ask), nothing sent anywhere else."""
    return f'''model = "{model}"
model_provider = "stub"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[model_providers.stub]
name = "Stub"
base_url = "{stub.url}/v1"
wire_api = "responses"
env_key = "STUB_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[features]
plugins = false
'''


def setup_codex(work: Path, stub: OpenAIResponses, model: str = UNKNOWN_MODEL, **env_extra: str) -> tuple[str, dict]:
    """The Codex CLI and its environment, with Locus added as the docs say: `codex mcp add
    locus -- locus mcp`, then the docs' lines under the table it wrote."""
    home = work / "home"
    env = agent_env(work, home, STUB_API_KEY="sk-locus-test", **env_extra)
    config = home / ".codex" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(provider_config(stub, model))
    cli = agent_bin("codex")
    run_agent([cli, "mcp", "add", "locus", "--", "locus", "mcp"], work, env)
    with config.open("a") as f:
        f.writelines(f"{key} = {json.dumps(value)}\n" for key, value in LOCUS_TABLE.items())
    locus = tomllib.loads(config.read_text())["mcp_servers"]["locus"]
    assert locus == {"command": "locus", "args": ["mcp"], **LOCUS_TABLE}, locus
    return cli, env


def exec_argv(cli: str, prompt: str, ephemeral: bool = True) -> list[str]:
    return [cli, "exec", "--json", "--skip-git-repo-check", *(["--ephemeral"] if ephemeral else []), prompt]


def codex(work: Path, stub: OpenAIResponses, prompt: str, model: str = UNKNOWN_MODEL, ephemeral: bool = True):
    """One prompt through `codex exec`, Locus added as the docs say."""
    cli, env = setup_codex(work, stub, model)
    done = run_agent(exec_argv(cli, prompt, ephemeral), work, env)
    # Codex converts each tool's input schema to its own; what it cannot, it warns about.
    assert not re.search(r"schema|unknown format", done.stderr, re.I), done.stderr
    return done


def envelope_of(stub: OpenAIResponses, step: int) -> dict:
    """The envelope the model was sent for the script's `step`-th call: Codex sends a `Wall
    time` line, `Output:`, then the tool's `structuredContent`."""
    seen = stub.result_of(step)
    assert isinstance(seen, str), f"the model got no text but: {str(seen)[:2000]}"
    head, sep, body = seen.partition("Output:\n")
    assert sep and head.startswith("Wall time:"), f"not what Codex shows of a tool result: {seen[:2000]}"
    try:
        envelope = json.loads(body)
    except json.JSONDecodeError:
        pytest.fail(f"the model got no envelope but: {seen[:2000]}")
    assert isinstance(envelope, dict), envelope
    return envelope


WANTED = {
    "cursor": "editor_get_context",
    "selection": "editor_get_context",
    "outline": "symbol_outline",
    "symbol": "symbol_search",
    "breakpoint": "breakpoint_set",
    "debug": "debug_start",
    "rename": "symbol_rename",
}


def test_the_model_is_offered_locus_tools(tmp_path):
    work = workspace(tmp_path.resolve(), {"greeter.py": PY})
    with OpenAIResponses([{"text": "found"}]) as stub:
        codex(work, stub, "which tools can see my editor?")
        first = stub.conversation()[0]
    namespaces = {t["name"]: t for t in first["tools"] if t.get("type") == "namespace"}
    assert "mcp__locus" in namespaces, [t.get("name") for t in first["tools"]]
    tools = {t["name"]: t for t in namespaces["mcp__locus"]["tools"]}
    missing = set(WANTED.values()) - set(tools)
    assert not missing, f"not offered: {missing}; offered: {sorted(tools)}"
    assert tools["symbol_outline"]["parameters"]["properties"]["path"], tools["symbol_outline"]


def test_the_model_finds_locus_tools_by_keyword(tmp_path):
    """With a model Codex knows, MCP tools are deferred: the model searches for them."""
    work = workspace(tmp_path.resolve(), {"greeter.py": PY})
    script = [{"tool_search": q} for q in WANTED] + [{"tool": "mcp__locus__symbol_outline", "args": {"path": "greeter.py"}}, {"text": "found"}]
    with OpenAIResponses(script) as stub:
        codex(work, stub, "which tools can see my editor?", model="gpt-5.5")
        first = stub.conversation()[0]
        assert not [t for t in first["tools"] if t.get("name") == "mcp__locus"], "Locus's tools were not deferred"
        problems = []
        for step, (query, tool) in enumerate(WANTED.items()):
            found = stub.result_of(step)
            names = [f["name"] for ns in found or [] if ns.get("name") == "mcp__locus" for f in ns.get("tools", [])]
            if tool not in names:
                problems.append(f"`{query}` finds {names}, not {tool}")
        assert not problems, "\n".join(problems)
        outline = envelope_of(stub, len(WANTED))
    assert outline["ok"] is True, outline


def test_editor_context_from_neovim_in_the_next_tmux_pane(tmp_path):
    """Neovim with the Locus plugin in a real tmux; the cursor moved by real keys; `codex exec`
    started in the pane beside it. The model sees Neovim's file and cursor."""
    work = neovim_workspace(tmp_path)
    script = [{"tool": "mcp__locus__editor_get_context", "args": {}}, {"text": "you are in greet"}]
    with OpenAIResponses(script) as stub:
        cli, agent = setup_codex(work, stub, XDG_RUNTIME_DIR=str(work / "run"))
        beside_neovim(work, "Codex", agent, exec_argv(cli, "where am I?"))
        assert_sees_neovim(envelope_of(stub, 0), work)


def test_the_outline_of_a_10000_line_file_reaches_the_model(tmp_path):
    work = workspace(tmp_path.resolve(), {"services.py": big_python(1_000)})
    with OpenAIResponses(outline_script(PREFIX)) as stub:
        codex(work, stub, "outline services.py")
        raw = stub.result_of(0)
        assert not TRUNCATED.search(raw), f"Codex cut the answer: {raw[5_900:6_100]}"
        first = envelope_of(stub, 0)
        unfolded = envelope_of(stub, 1)
    assert len(raw) <= CODEX_LIMIT, f"{len(raw)} characters: Codex shows the model the head and the tail only"
    assert_outline(first, unfolded)


def test_symbol_search_reaches_the_model(tmp_path):
    work = workspace(tmp_path.resolve(), {"services.py": big_python(50), "greeter.py": PY})
    with OpenAIResponses(search_script(PREFIX)) as stub:
        codex(work, stub, "where is Greeter defined?")
        assert_search(envelope_of(stub, 0))


def test_a_debug_session_driven_by_the_model(tmp_path):
    """Codex passes `locus mcp` its PATH: the python found there runs debugpy."""
    require_debugpy()
    work = workspace(tmp_path.resolve(), {"cart.py": PROGRAM})
    with OpenAIResponses(debug_script(PREFIX)) as stub:
        codex(work, stub, "debug cart.py and tell me acc at the return")
        assert_debug_session([envelope_of(stub, i) for i in range(5)])


def test_the_model_recalls_the_first_request(tmp_path):
    """Without `--ephemeral`: Codex writes the session to `~/.codex/sessions`, where the
    dialog tools read it."""
    work = workspace(tmp_path.resolve(), {"greeter.py": PY})
    prompt = "Rename Greeter to Welcomer everywhere, then run the tests"
    script = [{"tool": "mcp__locus__dialog_get_first_request", "args": {}}, {"text": "recalled"}]
    with OpenAIResponses(script) as stub:
        codex(work, stub, prompt, ephemeral=False)
        envelope = envelope_of(stub, 0)
    assert envelope["ok"] is True, envelope
    assert prompt in json.dumps(envelope["data"]), envelope["data"]


def test_no_editor_says_why_in_what_the_model_sees(tmp_path):
    """Codex shows its model only the envelope: with no editor running Locus, the data says why
    and what to do (the summary alone would never reach it)."""
    work = workspace(tmp_path.resolve(), {"greeter.py": PY})
    script = [{"tool": "mcp__locus__editor_get_context", "args": {}}, {"text": "no editor"}]
    with OpenAIResponses(script) as stub:
        codex(work, stub, "where am I?")
        envelope = envelope_of(stub, 0)
    assert envelope["ok"] is True and "editorContext" not in envelope, envelope
    assert envelope["data"]["noEditor"]["reason"] == "no-sidecar", envelope
    assert "symbol_outline" in envelope["data"]["noEditor"]["hint"]
