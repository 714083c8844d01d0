//! The MCP server: the tool catalogue mapped onto rmcp's `ServerHandler`. The same handler
//! serves streamable HTTP in the sidecar and stdio in `locus mcp` (in-process mode).

use std::sync::Arc;
use std::time::Duration;

use locus_tools::{CallOptions, Catalogue, Entry, Host, Outcome};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, Implementation, ListToolsResult, MetaObject, PaginatedRequestParams,
    ProgressNotificationParam, RequestMetaObject, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};

/// The `_meta` key a client may set on `tools/call` to override the tool's timeout (ms).
/// `locus mcp --timeout` forwards its value with it.
pub const TIMEOUT_META: &str = "locus/timeoutMs";

pub use locus_tools::budget::BUDGET_META;

/// How often a call that is still running tells a client that asked for progress
/// (docs/reference/envelope.md; some clients give up after 60 s of silence).
/// `LOCUS_MCP_PROGRESS_MS` changes it (tests).
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// What the server tells agents when they connect.
const INSTRUCTIONS: &str = "Locus knows where the user is in their editor. Every tool's result carries \
`editorContext` (file, cursor, selection, containing symbols) captured when the call started. \
Call editor_get_context at the start of editing work; mcp_list_tools explains every tool.";

/// The MCP face of a catalogue and a host.
#[derive(Clone)]
pub struct LocusServer {
    catalogue: Arc<Catalogue>,
    host: Arc<dyn Host>,
    timeout: Option<Duration>,
    answer_budget: Option<usize>,
}

impl LocusServer {
    /// Serves `catalogue` over `host`; `timeout` (`--timeout`) replaces the catalogue's default
    /// timeout, not the longer ones tools have of their own.
    pub fn new(
        catalogue: Arc<Catalogue>,
        host: Arc<dyn Host>,
        timeout: Option<Duration>,
    ) -> LocusServer {
        LocusServer { catalogue, host, timeout, answer_budget: None }
    }

    /// Fits answers into `bytes` (`--answer-budget`) instead of the default budget; a call's
    /// own `_meta` value still wins.
    pub fn with_answer_budget(mut self, bytes: Option<usize>) -> LocusServer {
        self.answer_budget = bytes;
        self
    }

    /// Runs one tool call (shared by MCP and `locus call`).
    pub async fn call(&self, name: &str, args: Value, options: CallOptions) -> Outcome {
        self.catalogue.call(&self.host, name, args, options).await
    }
}

/// The MCP server description.
pub fn server_config() -> ServerConfig {
    let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        .with_instructions(INSTRUCTIONS);
    info.server_info = Implementation::new("locus", env!("CARGO_PKG_VERSION")).with_title("Locus");
    info
}

/// The MCP tool of a catalogue entry: the description with the guidance after it (every
/// client shows the description; few show `_meta`), the envelope's output schema, the
/// annotations, and the family and timeout in `_meta`.
pub fn mcp_tool(entry: &Entry) -> Tool {
    let s = entry.spec();
    let description = format!("{}.\n\n{}", s.description, s.when_to_use.text());
    let mut tool = Tool::new(s.name, description, entry.input_schema().clone());
    tool.output_schema = Some(entry.output_schema().clone());
    tool.title = Some(s.title.to_string());
    let mut annotations = ToolAnnotations::default();
    annotations.title = Some(s.title.to_string());
    annotations.read_only_hint = Some(s.effect.read_only());
    annotations.destructive_hint = Some(s.effect.destructive());
    annotations.idempotent_hint = Some(s.effect.idempotent());
    annotations.open_world_hint = Some(false);
    tool.annotations = Some(annotations);
    // Not the guidance nor the parameters again: the description and the input schema carry
    // them, and every byte here is read by every client at every start.
    let mut meta = Map::new();
    meta.insert("locus/category".into(), json!(s.category.name()));
    meta.insert("locus/timeoutMs".into(), json!(s.timeout.as_millis() as u64));
    meta.insert("locus/system".into(), json!(s.system));
    tool.meta = Some(MetaObject(meta));
    tool
}

/// The MCP result of an outcome: the envelope as `structuredContent`; the summary and the
/// envelope as text.
pub fn mcp_result(outcome: Outcome) -> CallToolResult {
    let ok = outcome.envelope.ok;
    let mut result =
        if ok { CallToolResult::success(vec![]) } else { CallToolResult::error(vec![]) };
    // The summary first, for people reading a client's log; then the envelope as JSON text,
    // for the clients that show their model `content` and never `structuredContent` (Gemini
    // CLI), as MCP asks of a tool that answers structured content.
    let envelope = outcome.envelope.to_json();
    result.content =
        vec![ContentBlock::text(outcome.summary), ContentBlock::text(envelope.to_string())];
    result.structured_content = Some(envelope);
    result
}

/// The MCP requests rmcp parses into typed parameters: one of these that reaches
/// `on_custom_request` had parameters rmcp could not read.
const TYPED_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/call",
    "tools/list",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
];

/// The answer to a request rmcp did not recognise: for a known method whose parameters did
/// not parse (`tools/call` with `arguments: [...]` or without `name`), invalid params
/// (-32602) saying what is wrong; otherwise method not found (-32601).
pub fn custom_request_error(request: &CustomRequest) -> ErrorData {
    let method = request.method.as_str();
    if !TYPED_METHODS.contains(&method) {
        return ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("unknown method `{method}`"),
            None,
        );
    }
    let params = request.params.as_ref();
    let problem = if method == "tools/call" {
        match params {
            None | Some(Value::Null) => {
                "tools/call needs params `{\"name\": TOOL, \"arguments\": {...}}`".to_string()
            }
            Some(Value::Object(p)) => match (p.get("name"), p.get("arguments")) {
                (None, _) => {
                    "tools/call needs `name`: the tool to call (tools/list lists them)".to_string()
                }
                (Some(n), _) if !n.is_string() => {
                    format!("tools/call's `name` must be a string, not {n}")
                }
                (_, Some(a)) if !a.is_object() && !a.is_null() => format!(
                    "tools/call's `arguments` must be a JSON object of named parameters, not {}",
                    json_kind(a)
                ),
                _ => "tools/call's params do not fit the MCP schema".to_string(),
            },
            Some(other) => {
                format!("tools/call's params must be an object, not {}", json_kind(other))
            }
        }
    } else {
        format!("the params of `{method}` do not fit the MCP schema")
    };
    ErrorData::invalid_params(problem, Some(json!({"method": method})))
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A call's timeout (docs/reference/envelope.md): its own (`asked`, from `_meta`) wins; else
/// `default` (`locus mcp --timeout`) for tools on the catalogue's default timeout, while tools
/// with one of their own (the waiting debug tools' 90 s) keep it; `None`: the tool's own.
pub fn effective_timeout(
    catalogue: &Catalogue,
    tool: &str,
    asked: Option<Duration>,
    default: Option<Duration>,
) -> Option<Duration> {
    let on_default = catalogue
        .get(tool)
        .is_none_or(|entry| entry.spec().timeout == locus_tools::DEFAULT_TIMEOUT);
    asked.or(default.filter(|_| on_default))
}

/// The timeout a request asks for in its `_meta` (rmcp moves `_meta` into the context).
pub fn requested_timeout(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<Duration> {
    let from = |meta: &RequestMetaObject| meta.0.0.get(TIMEOUT_META).and_then(Value::as_u64);
    from(&context.meta)
        .or_else(|| request.meta.as_ref().and_then(from))
        .filter(|ms| *ms > 0)
        .map(Duration::from_millis)
}

/// The answer budget a `tools/call` asks for in its `_meta` ([`BUDGET_META`]), raised to the
/// smallest one Locus keeps.
pub fn requested_budget(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<usize> {
    let from = |meta: &RequestMetaObject| meta.0.0.get(BUDGET_META).and_then(Value::as_u64);
    let bytes = from(&context.meta).or_else(|| request.meta.as_ref().and_then(from))?;
    Some(usize::try_from(bytes).unwrap_or(usize::MAX).max(locus_tools::budget::MIN_ANSWER_BUDGET))
}

/// The budget of a call: its own `_meta` value, else `--answer-budget`, else what the client
/// that asked passes whole to its model ([`locus_tools::budget::for_client`]).
pub fn answer_budget(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
    configured: Option<usize>,
) -> usize {
    requested_budget(request, context)
        .or(configured)
        .unwrap_or_else(|| locus_tools::budget::for_client(&client_name(context)))
}

/// The `clientInfo.name` the client gave in its `initialize` (empty when none).
fn client_name(context: &RequestContext<RoleServer>) -> String {
    context.peer.peer_info().map(|c| c.client_info.name.clone()).unwrap_or_default()
}

/// A result as the client that asked shows it to its model. Gemini CLI (`gemini-cli-mcp-client`)
/// gives its model the whole result of a failed call, `structuredContent` included, so there
/// the envelope is not repeated as text: the summary (code, message, hint) and the envelope
/// once. Every other client gets the result as made.
pub fn for_client(
    mut result: CallToolResult,
    context: &RequestContext<RoleServer>,
) -> CallToolResult {
    if result.is_error == Some(true) && client_name(context) == "gemini-cli-mcp-client" {
        result.content.truncate(1);
    }
    result
}

/// Runs `call`; when the client gave a `progressToken`, sends `notifications/progress` every
/// few seconds while it runs (the progress is the seconds waited so far; no total is known),
/// so that long waits (a breakpoint, a test, the user answering the editor) are not silence.
/// A notification that cannot be sent is dropped: progress never fails a call.
pub async fn with_progress<T>(
    context: &RequestContext<RoleServer>,
    tool: &str,
    call: impl Future<Output = T>,
) -> T {
    let Some(token) = context.meta.get_progress_token() else {
        return call.await;
    };
    let every = std::env::var("LOCUS_MCP_PROGRESS_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|ms| *ms > 0)
        .map_or(PROGRESS_EVERY, Duration::from_millis);
    let started = tokio::time::Instant::now();
    let mut ticks = tokio::time::interval_at(started + every, every);
    tokio::pin!(call);
    loop {
        tokio::select! {
            out = &mut call => return out,
            _ = ticks.tick() => {
                let waited = started.elapsed().as_secs_f64();
                let note = ProgressNotificationParam::new(token.clone(), waited)
                    .with_message(format!("`{tool}` is still running ({waited:.0} s)"));
                // Only a client that has gone fails this; the call's own answer says the rest.
                let _ = context.peer.notify_progress(note).await;
            }
        }
    }
}

impl ServerHandler for LocusServer {
    fn get_info(&self) -> ServerConfig {
        server_config()
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.catalogue.enabled().map(mcp_tool).collect()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.clone().map(Value::Object).unwrap_or(Value::Null);
        let options = CallOptions {
            timeout: effective_timeout(
                &self.catalogue,
                &request.name,
                requested_timeout(&request, &context),
                self.timeout,
            ),
            cancel: context.ct.clone(),
            request_id: None,
            answer_budget: Some(answer_budget(&request, &context, self.answer_budget)),
        };
        let name = request.name.to_string();
        let outcome = with_progress(&context, &name, self.call(&name, args, options)).await;
        Ok(for_client(mcp_result(outcome), &context).into())
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(custom_request_error(&request))
    }
}
