"""A local stand-in for an agent vendor's model API: it plays the model from a script and
records every request the agent sends, so a test can assert on what the model would see.

The agent CLI runs for real, pointed at this server by its documented base-URL switch. Each
request of the main conversation gets the script's next step: a tool call (`{"tool": name,
"args": {...}}`), a final text (`{"text": "..."}`) or, for Codex, a search of its deferred
tools (`{"tool_search": "query"}`); the agent runs the tool (through `locus mcp`) and sends
the result back in its next request, which is recorded. Requests outside the conversation
(a title, a quota probe) get a short text and are recorded too.

One class per vendor protocol, all stdlib: `Anthropic` (Claude Code: the Messages API with
server-sent events), `OpenAIResponses` (Codex: the Responses API with server-sent events) and
`Gemini` (Gemini CLI: the Gemini API's streamed `generateContent`).
"""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Stub:
    """The server, on a free port of 127.0.0.1, in a thread; `url` is its base URL."""

    def __init__(self, script: list[dict]):
        self.script = list(script)
        self.requests: list[dict] = []
        self.steps_taken = 0
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                stub._record(self, None)
                stub.get(self)

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"unparsed": raw.decode("utf-8", "replace")}
                stub._record(self, body)
                stub.post(self, body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _record(self, handler, body):
        with self._lock:
            self.requests.append({"method": handler.command, "path": handler.path, "body": body})

    def next_step(self) -> dict:
        """The script's next step; past its end, a final text (the agent must stop)."""
        with self._lock:
            self.steps_taken += 1
            if self.script:
                return self.script.pop(0)
        return {"text": "done"}

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # What a vendor answers to requests it does not script.
    def get(self, handler):
        send_json(handler, 404, {"error": {"message": f"no {handler.path} here"}})

    def post(self, handler, body):
        send_json(handler, 404, {"error": {"message": f"no {handler.path} here"}})


def send_json(handler, status: int, obj):
    data = json.dumps(obj).encode()
    handler.send_response(status)
    handler.send_header("content-type", "application/json")
    handler.send_header("content-length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def send_events(handler, events: list[tuple[str | None, dict]]):
    """Server-sent events, then the end of the response."""
    chunks = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        chunks.append(f"{head}data: {json.dumps(data)}\n\n")
    payload = "".join(chunks).encode()
    handler.send_response(200)
    handler.send_header("content-type", "text/event-stream")
    handler.send_header("cache-control", "no-cache")
    handler.send_header("content-length", str(len(payload)))
    handler.end_headers()
    handler.wfile.write(payload)


class Anthropic(Stub):
    """The Messages API as Claude Code uses it (`ANTHROPIC_BASE_URL`): `POST /v1/messages`
    streamed as server-sent events. The main conversation is the request that offers MCP
    tools or the tool search; the rest (a quota probe, a title) are answered with text."""

    def post(self, handler, body):
        path = handler.path.split("?")[0]
        if path.endswith("/count_tokens"):
            return send_json(handler, 200, {"input_tokens": 100})
        if not path.endswith("/v1/messages"):
            return super().post(handler, body)
        names = [t.get("name", "") for t in body.get("tools") or []]
        main = any(n == "ToolSearch" or n.startswith("mcp__") for n in names)
        step = self.next_step() if main else {"text": "ok"}
        send_events(handler, self.events(step, body.get("model", "model")))

    def events(self, step: dict, model: str) -> list[tuple[str, dict]]:
        n = len(self.requests)
        start = {"type": "message_start", "message": {
            "id": f"msg_{n}", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}}
        if "tool" in step:
            block = {"type": "tool_use", "id": f"toolu_{n}", "name": step["tool"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(step.get("args", {}))}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": step["text"]}
            stop = "end_turn"
        return [
            ("message_start", start),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 5}}),
            ("message_stop", {"type": "message_stop"}),
        ]

    def conversation(self) -> list[dict]:
        """The bodies of the main conversation's requests, in order."""
        out = []
        for r in self.requests:
            body = r["body"] or {}
            names = [t.get("name", "") for t in body.get("tools") or []]
            if any(n == "ToolSearch" or n.startswith("mcp__") for n in names):
                out.append(body)
        return out

    def tool_results(self) -> dict[str, object]:
        """Every tool result the model was sent, by the id of its tool call, as the model
        sees it: a string, or a list of content blocks."""
        results = {}
        for body in self.conversation():
            for message in body.get("messages", []):
                content = message.get("content")
                if message.get("role") != "user" or not isinstance(content, list):
                    continue
                for block in content:
                    if block.get("type") == "tool_result":
                        results[block["tool_use_id"]] = block.get("content")
        return results

    def result_of(self, step: int):
        """What the model was sent back for the script's `step`-th step (0-based)."""
        results = self.tool_results()
        # Tool call ids are `toolu_<n>` with n the count of requests before the call's answer;
        # the conversation's order is the script's.
        calls = []
        for body in self.conversation():
            for message in body.get("messages", []):
                if message.get("role") == "assistant" and isinstance(message.get("content"), list):
                    for block in message["content"]:
                        if block.get("type") == "tool_use" and block["id"] not in calls:
                            calls.append(block["id"])
        if step >= len(calls):
            raise AssertionError(f"the agent made {len(calls)} tool calls, not {step + 1}: {calls}")
        if calls[step] not in results:
            raise AssertionError(f"the model was never sent the result of {calls[step]}")
        return results[calls[step]]


class OpenAIResponses(Stub):
    """The Responses API as Codex uses it (a model provider whose `base_url` is this stub's
    `/v1`, `wire_api = "responses"`): `POST /v1/responses` streamed as server-sent events.
    Codex declares an MCP server's tools as a namespace (`mcp__locus`) of functions; a call
    names the function and its namespace. With a model Codex knows, it defers them behind its
    `tool_search`: the script's `{"tool_search": "query"}` step searches, and the tools found
    come back in the next request. The main conversation is the request that offers MCP tools
    or the tool search; the rest are answered with text."""

    def get(self, handler):
        if handler.path.split("?")[0].endswith("/models"):
            return send_json(handler, 200, {"object": "list", "data": [], "models": []})
        super().get(handler)

    def post(self, handler, body):
        if not handler.path.split("?")[0].endswith("/responses"):
            return super().post(handler, body)
        step = self.next_step() if self.is_main(body) else {"text": "ok"}
        send_events(handler, self.events(step, offered_tools(body)))

    @staticmethod
    def is_main(body: dict) -> bool:
        return any(
            t.get("type") == "tool_search" or (t.get("type") == "namespace" and t.get("name", "").startswith("mcp__"))
            for t in body.get("tools") or []
        )

    def events(self, step: dict, tools: list[dict]) -> list[tuple[str, dict]]:
        n = len(self.requests)
        if "tool" in step:
            name, namespace = split_name(step["tool"], tools)
            item = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": name,
                    "arguments": json.dumps(step.get("args", {}))}
            if namespace:
                item["namespace"] = namespace
        elif "tool_search" in step:
            item = {"type": "tool_search_call", "id": f"ts_{n}", "call_id": f"call_{n}", "status": "completed",
                    "execution": "client", "arguments": {"query": step["tool_search"], "limit": 8}}
        else:
            item = {"type": "message", "id": f"msg_{n}", "role": "assistant",
                    "content": [{"type": "output_text", "text": step["text"], "annotations": []}]}
        usage = {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 1,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 2}
        return [
            ("response.created", {"type": "response.created", "response": {"id": f"resp_{n}"}}),
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "response": {"id": f"resp_{n}", "usage": usage}}),
        ]

    def conversation(self) -> list[dict]:
        """The bodies of the main conversation's requests, in order."""
        return [r["body"] for r in self.requests if isinstance(r["body"], dict) and self.is_main(r["body"])]

    def tool_results(self) -> dict[str, object]:
        """Every tool result the model was sent, by the id of its call, as the model sees it:
        a function's output (a string), or the tools a tool search found (a list)."""
        results = {}
        for body in self.conversation():
            for item in body.get("input") or []:
                if item.get("type") == "function_call_output":
                    results[item["call_id"]] = item.get("output")
                elif item.get("type") == "tool_search_output":
                    results[item["call_id"]] = item.get("tools")
        return results

    def result_of(self, step: int):
        """What the model was sent back for the script's `step`-th step (0-based)."""
        calls = []
        for body in self.conversation():
            for item in body.get("input") or []:
                if item.get("type") in ("function_call", "tool_search_call") and item["call_id"] not in calls:
                    calls.append(item["call_id"])
        return pick(calls, self.tool_results(), step)


def offered_tools(body: dict) -> list[dict]:
    """The tools a Responses request offers: its own and those a tool search found."""
    tools = list(body.get("tools") or [])
    for item in body.get("input") or []:
        if item.get("type") == "tool_search_output":
            tools.extend(item.get("tools") or [])
    return tools


def split_name(name: str, tools: list[dict]) -> tuple[str, str | None]:
    """A script's `mcp__locus__symbol_outline` as Codex routes it: the function
    `symbol_outline` of the namespace `mcp__locus`, when the request offers it."""
    for tool in tools:
        namespace = tool.get("name", "")
        if tool.get("type") == "namespace" and name.startswith(namespace + "__"):
            return name[len(namespace) + 2:], namespace
    return name, None


def pick(calls: list[str], results: dict, step: int):
    if step >= len(calls):
        raise AssertionError(f"the agent made {len(calls)} tool calls, not {step + 1}: {calls}")
    if calls[step] not in results:
        raise AssertionError(f"the model was never sent the result of {calls[step]}")
    return results[calls[step]]


class Gemini(Stub):
    """The Gemini API as Gemini CLI uses it (`GOOGLE_GEMINI_BASE_URL`): `POST
    /v1beta/models/<model>:streamGenerateContent?alt=sse`, answered with data-only server-sent
    events. Gemini CLI declares MCP tools as functions named `mcp_<server>_<tool>`. The main
    conversation is the request that declares MCP tools; the CLI's own side requests are
    answered with text, or with an object of the schema they ask for."""

    def post(self, handler, body):
        path = handler.path.split("?")[0]
        if path.endswith(":countTokens"):
            return send_json(handler, 200, {"totalTokens": 100})
        if not path.endswith((":streamGenerateContent", ":generateContent")):
            return super().post(handler, body)
        if self.is_main(body):
            answer = self.candidate(self.next_step())
        else:
            answer = self.candidate({"text": json.dumps(schema_object(body)) if asks_json(body) else "ok"})
        if path.endswith(":generateContent"):
            return send_json(handler, 200, answer)
        send_events(handler, [(None, answer)])

    @staticmethod
    def is_main(body: dict) -> bool:
        return any(
            d.get("name", "").startswith("mcp_")
            for t in body.get("tools") or [] for d in t.get("functionDeclarations") or []
        )

    @staticmethod
    def candidate(step: dict) -> dict:
        if "tool" in step:
            part = {"functionCall": {"name": step["tool"], "args": step.get("args", {})}}
        else:
            part = {"text": step["text"]}
        return {
            "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
            "modelVersion": "stub",
        }

    def conversation(self) -> list[dict]:
        """The bodies of the main conversation's requests, in order."""
        return [r["body"] for r in self.requests if isinstance(r["body"], dict) and self.is_main(r["body"])]

    def tool_results(self) -> dict[str, object]:
        """Every function response the model was sent, by the id of its call, as the model
        sees it: `{"output": text}`, or `{"error": text}` for an answer that is an error."""
        results = {}
        for body in self.conversation():
            for content in body.get("contents") or []:
                for part in content.get("parts") or []:
                    if "functionResponse" in part:
                        results[part["functionResponse"]["id"]] = part["functionResponse"].get("response")
        return results

    def result_of(self, step: int):
        """What the model was sent back for the script's `step`-th step (0-based)."""
        calls = []
        for body in self.conversation():
            for content in body.get("contents") or []:
                for part in content.get("parts") or []:
                    if "functionCall" in part and part["functionCall"]["id"] not in calls:
                        calls.append(part["functionCall"]["id"])
        return pick(calls, self.tool_results(), step)


def asks_json(body: dict) -> bool:
    config = body.get("generationConfig") or {}
    return config.get("responseMimeType") == "application/json" or "responseJsonSchema" in config


def schema_object(body: dict) -> dict:
    """An object with every property a side request's JSON schema requires, an enum's first
    value (Gemini CLI's model router asks one when no model is named)."""
    config = body.get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema") or {}
    props = schema.get("properties") or {}
    defaults = {"string": "user", "integer": 1, "number": 1, "boolean": False, "array": [], "object": {}}
    out = {}
    for key in schema.get("required") or props:
        prop = props.get(key) or {}
        out[key] = (prop.get("enum") or [defaults.get(str(prop.get("type", "string")).lower(), "user")])[0]
    return out
