"""The scenarios every agent test runs (test_agent_*.py): the workspace's files, the model's
script with the agent's name for Locus's tools (`prefix`: `mcp__locus__` for Claude Code and
Codex, `mcp_locus_` for Gemini CLI), and the assertions on the envelopes the model was sent.
Each test file drives its own agent through them."""

import importlib.util
import json
import sys
import textwrap

import pytest

from nvim_common import PY

__all__ = [
    "PROGRAM", "PY", "assert_debug_session", "assert_outline", "assert_search", "big_python",
    "debug_script", "outline_script", "require_debugpy", "search_script",
]

PROGRAM = textwrap.dedent('''\
    class Cart:
        def __init__(self, items):
            self.items = items

        def total(self):
            acc = 0
            for item in self.items:
                acc += item
            return acc


    print(Cart([3, 4, 5]).total())
''')


def big_python(classes: int) -> str:
    """Ten lines a class: a class of three methods and a function."""
    return "".join(
        f"class Service{i}:\n    def find(self, key):\n        return key\n    def save(self, item):\n"
        f"        pass\n    def drop(self):\n        pass\n\ndef helper{i}(a):\n    return a\n"
        for i in range(classes)
    )


def outline_script(prefix: str) -> list:
    """The outline of `services.py` (`big_python(1_000)`: 10,000 lines), then one class unfolded."""
    return [
        {"tool": f"{prefix}symbol_outline", "args": {"path": "services.py"}},
        {"tool": f"{prefix}symbol_outline", "args": {"path": "services.py", "range": {"start": 11, "end": 17}}},
        {"text": "outlined"},
    ]


def assert_outline(first: dict, unfolded: dict):
    """The 10,000-line outline came folded with how to unfold it, and unfolded on request."""
    data = first["data"]
    assert data["totalInDocument"] == 8_000
    assert "`range`" in data["cut"], data["cut"]
    assert data["symbols"][2] == {**data["symbols"][2], "name": "Service1", "folded": 5}
    assert data["nextOffset"] > 0
    methods = [m["name"] for m in unfolded["data"]["symbols"][0]["children"]]
    assert methods == ["find", "save", "drop"]


def search_script(prefix: str) -> list:
    return [{"tool": f"{prefix}symbol_search", "args": {"query": "Greeter"}}, {"text": "found"}]


def assert_search(envelope: dict):
    assert envelope["ok"] is True, envelope
    found = json.dumps(envelope["data"])
    assert "greeter.py" in found and "Greeter" in found


def require_debugpy():
    if importlib.util.find_spec("debugpy") is None:
        pytest.fail(f"debugpy is missing from {sys.executable}: run scripts/install-test-peers.sh")


def debug_script(prefix: str) -> list:
    """A short session on `cart.py` (`PROGRAM`): breakpoint, start, wait, evaluate, stop."""
    return [
        {"tool": f"{prefix}breakpoint_set", "args": {"path": "cart.py", "line": 9}},
        {"tool": f"{prefix}debug_start", "args": {"program": "cart.py"}},
        {"tool": f"{prefix}debug_wait_for_stop", "args": {"timeoutMs": 30000}},
        {"tool": f"{prefix}expression_evaluate", "args": {"expression": "acc * 10"}},
        {"tool": f"{prefix}debug_stop", "args": {}},
        {"text": "acc is 12"},
    ]


def assert_debug_session(envelopes: list):
    """The five envelopes of `debug_script`: all succeeded, the stop at the breakpoint, the value."""
    assert all(e["ok"] for e in envelopes), [e.get("error") for e in envelopes]
    stop = envelopes[2]["data"]
    assert stop["reason"] == "breakpoint", stop
    assert json.dumps(stop).count("cart.py") >= 1
    assert envelopes[3]["data"]["result"] == "120", envelopes[3]["data"]
