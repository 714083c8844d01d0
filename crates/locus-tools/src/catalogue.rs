//! The catalogue: every tool, registered once, and the one way to call them.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use locus_context::EditorContext;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::budget::{DEFAULT_ANSWER_BUDGET, Fitted};
use crate::envelope::{Envelope, ErrorCode, Meta, ToolError, rfc3339};
use crate::host::Host;
use crate::params;
use crate::selection::ToolSelection;
use crate::spec::{Category, ParamHint, ToolSpec};

/// A tool: its metadata, its parameter type (which is its input schema) and its handler.
///
/// Register it with [`Catalogue::register`]; everything an agent sees about it (tools/list,
/// `mcp_list_tools`, `locus tools`) comes from here.
pub trait Tool: Send + Sync + 'static {
    /// The parameters. Its `JsonSchema` is the input schema and its `Deserialize` the
    /// validation, so they cannot drift apart. Document every field (the doc comment becomes
    /// the parameter's description) and give it `#[schemars(example = …)]`; use
    /// `#[serde(deny_unknown_fields)]` so unknown parameters are refused.
    type Params: DeserializeOwned + JsonSchema + Send + 'static;
    /// The `data` of a successful envelope.
    type Output: Serialize + Send + 'static;

    /// The tool's metadata.
    fn spec(&self) -> ToolSpec;

    /// Runs the tool. It may be dropped at any `.await` (timeout or cancellation); work done
    /// on other threads should watch [`Cx::cancel`].
    fn run(
        &self,
        params: Self::Params,
        cx: Cx,
    ) -> impl Future<Output = Result<Self::Output, ToolError>> + Send;

    /// A one-line readable summary of a result, for MCP's text content.
    fn summary(&self, output: &Self::Output, cx: &Cx) -> String;

    /// The JSON Schema of [`Tool::Output`] as it serializes (the envelope's `data`), for the
    /// tool's MCP `outputSchema`: `Some(params::output_schema_for::<Self::Output>())` when
    /// the output type derives `JsonSchema`. `None` (the default) leaves `data` undescribed;
    /// the envelope around it is described for every tool.
    fn data_schema(&self) -> Option<Map<String, Value>> {
        None
    }

    /// Whether the envelope carries the editorContext captured when the call starts. True by
    /// default; system tools never do, and a tool whose answer stands on its own (the
    /// editor's problems list, editor action) may say false.
    fn captures_editor_context(&self) -> bool {
        true
    }

    /// The envelope's `debugContext` for this call, computed after the handler finished
    /// (successful or not, timed out or cancelled), bounded by [`CONTEXT_BOUND`]. A family
    /// whose tools share a state (the debug family's sessions) answers it from that state;
    /// the default attaches nothing.
    fn debug_context(&self, cx: &Cx) -> impl Future<Output = Option<Value>> + Send {
        let _ = cx;
        async { None }
    }
}

/// How long [`Tool::debug_context`] may take before the envelope goes without it.
pub const CONTEXT_BOUND: Duration = Duration::from_secs(5);

/// What a running tool can reach.
#[derive(Clone)]
pub struct Cx {
    /// The process side: editor state, status.
    pub host: Arc<dyn Host>,
    /// The catalogue the tool was called through.
    pub catalogue: Arc<Catalogue>,
    /// Cancelled when the client cancels the call or it times out.
    pub cancel: CancellationToken,
    /// The editorContext captured when the call started (`None` for system tools, with no
    /// active editor, or when capturing failed).
    pub editor_context: Option<Arc<EditorContext>>,
    /// When the call times out: a tool waiting on a peer (an editor action) stops a little
    /// before it to say which peer did not answer.
    pub deadline: tokio::time::Instant,
    /// The answer budget in bytes: a tool whose answer grows with its input fits itself into
    /// it (what still does not fit is cut at the edge, [`crate::budget::fit`]).
    pub answer_budget: usize,
}

type Handler =
    dyn Fn(Value, Cx) -> BoxFuture<'static, Result<(Value, String), ToolError>> + Send + Sync;
type ContextHook = dyn Fn(Cx) -> BoxFuture<'static, Option<Value>> + Send + Sync;

/// One registered tool, type-erased.
pub struct Entry {
    spec: ToolSpec,
    schema: Arc<Map<String, Value>>,
    output_schema: Arc<Map<String, Value>>,
    params: Vec<ParamHint>,
    handler: Box<Handler>,
    context: Box<ContextHook>,
    deserialize: fn(Value) -> Result<(), String>,
    /// [`Tool::captures_editor_context`] (editor action).
    captures: bool,
}

impl Entry {
    fn new<T: Tool>(tool: T) -> Entry {
        let spec = tool.spec();
        let captures = tool.captures_editor_context() && !spec.system;
        let schema = Arc::new(params::schema_for::<T::Params>());
        let params = params::hints(&schema);
        let output_schema = Arc::new(crate::envelope::schema(tool.data_schema().as_ref()));
        let tool = Arc::new(tool);
        let for_context = tool.clone();
        let context: Box<ContextHook> = Box::new(move |cx| {
            let tool = for_context.clone();
            Box::pin(async move { tool.debug_context(&cx).await })
        });
        let schema_for_handler = schema.clone();
        let handler: Box<Handler> = Box::new(move |args, cx| {
            let tool = tool.clone();
            let schema = schema_for_handler.clone();
            Box::pin(async move {
                let parsed: T::Params = params::parse(&schema, args)?;
                let output = tool.run(parsed, cx.clone()).await?;
                let summary = tool.summary(&output, &cx);
                let data = serde_json::to_value(output).map_err(|e| {
                    ToolError::new(
                        ErrorCode::Internal,
                        format!("the result could not be serialized: {e}"),
                    )
                })?;
                Ok((data, summary))
            })
        });
        let deserialize = |args: Value| {
            serde_json::from_value::<T::Params>(args).map(|_| ()).map_err(|e| e.to_string())
        };
        Entry { spec, schema, output_schema, params, handler, context, deserialize, captures }
    }

    /// The tool's metadata.
    pub fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    /// Whether its envelopes carry the editorContext (never for system tools; editor action).
    pub fn carries_editor_context(&self) -> bool {
        self.captures
    }

    /// The input schema (a JSON Schema `object`).
    pub fn input_schema(&self) -> &Arc<Map<String, Value>> {
        &self.schema
    }

    /// The output schema: the envelope (both forms), with the tool's `data` schema where it
    /// gives one ([`Tool::data_schema`]).
    pub fn output_schema(&self) -> &Arc<Map<String, Value>> {
        &self.output_schema
    }

    /// Whether the parameter type's own `Deserialize` accepts `args`, with no schema check:
    /// for tests that the schema and the deserializer agree.
    pub fn deserializes(&self, args: Value) -> Result<(), String> {
        (self.deserialize)(args)
    }

    /// The parameters, from the input schema.
    pub fn params(&self) -> &[ParamHint] {
        &self.params
    }
}

/// How one call runs.
#[derive(Debug, Clone, Default)]
pub struct CallOptions {
    /// Overrides every tool's own timeout (`--timeout`).
    pub timeout: Option<Duration>,
    /// Cancelled by the client (MCP `notifications/cancelled`).
    pub cancel: CancellationToken,
    /// The request id to report; a fresh one when `None`.
    pub request_id: Option<String>,
    /// The answer budget in bytes (`--answer-budget`, or the call's own `_meta`);
    /// [`DEFAULT_ANSWER_BUDGET`] when `None`.
    pub answer_budget: Option<usize>,
}

/// What a call produced: the envelope and a readable one-line summary.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The envelope of `docs/reference/envelope.md`.
    pub envelope: Envelope,
    /// For MCP's `content[0].text`.
    pub summary: String,
}

/// Every tool, by name, and which of them are offered.
#[derive(Default)]
pub struct Catalogue {
    entries: Vec<Entry>,
    /// `--tools`: what is offered of the enabled tools; all when `None`.
    selection: Option<ToolSelection>,
}

impl std::fmt::Debug for Catalogue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.entries.iter().map(|e| e.spec.name)).finish()
    }
}

impl Catalogue {
    /// An empty catalogue.
    pub fn new() -> Catalogue {
        Catalogue::default()
    }

    /// Adds a tool.
    ///
    /// # Panics
    /// When a tool of the same name is registered already (a programming error).
    pub fn register<T: Tool>(&mut self, tool: T) -> &mut Catalogue {
        let entry = Entry::new(tool);
        assert!(self.get(entry.spec.name).is_none(), "tool `{}` registered twice", entry.spec.name);
        self.entries.push(entry);
        self
    }

    /// Every registered tool, enabled or not, in registration order.
    pub fn all(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter()
    }

    /// The enabled tools the selection admits: what agents are offered.
    pub fn enabled(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.spec.enabled && self.selects(e.spec.name))
    }

    /// Every tool's name and family, for [`ToolSelection::parse`].
    pub fn families(&self) -> Vec<(&'static str, Category)> {
        self.entries.iter().map(|e| (e.spec.name, e.spec.category)).collect()
    }

    /// Offers only what `selection` admits (`--tools`); the others answer `E_UNSUPPORTED`.
    pub fn select(&mut self, selection: ToolSelection) -> &mut Catalogue {
        self.selection = Some(selection);
        self
    }

    /// The selection in force, if any.
    pub fn selection(&self) -> Option<&ToolSelection> {
        self.selection.as_ref()
    }

    /// Whether the selection admits the tool `name`, known here or not (a newer sidecar's).
    pub fn selects(&self, name: &str) -> bool {
        let family = self.get(name).map(|e| e.spec.category);
        self.selection.as_ref().is_none_or(|s| s.admits(name, family))
    }

    /// A tool by name.
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.spec.name == name)
    }

    /// Calls a tool: captures the editorContext (unless it is a system tool), validates the
    /// arguments, runs the handler under its timeout and the client's cancellation, and wraps
    /// the result in the envelope. Never fails: every failure is an error envelope.
    pub async fn call(
        self: &Arc<Self>,
        host: &Arc<dyn Host>,
        name: &str,
        args: Value,
        options: CallOptions,
    ) -> Outcome {
        let started = Instant::now();
        let since_epoch = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
        let request_id = options.request_id.unwrap_or_else(next_request_id);
        let meta = |started: Instant| {
            Meta::new(
                request_id.clone(),
                name.to_string(),
                rfc3339(since_epoch),
                started.elapsed().as_secs_f64() * 1000.0,
            )
        };
        let entry = match self.get(name) {
            Some(e) if e.spec.enabled && self.selects(name) => e,
            Some(e) if e.spec.enabled => {
                let selection = self.selection.as_ref().map(|s| s.to_string()).unwrap_or_default();
                let e = ToolError::new(
                    ErrorCode::Unsupported,
                    format!("the tool `{name}` is not offered here (--tools {selection})"),
                )
                .with_hint(format!(
                    "Add `{name}` or its family `{}` to --tools, or leave --tools out for every tool",
                    e.spec.category.name()
                ));
                return failure(e, meta(started));
            }
            Some(_) => {
                let e = ToolError::new(
                    ErrorCode::Unsupported,
                    format!("the tool `{name}` is disabled"),
                );
                return failure(e, meta(started));
            }
            None => {
                let e = ToolError::new(ErrorCode::NotFound, format!("no tool is named `{name}`"))
                    .with_hint(
                        "Call mcp_list_tools (or tools/list) for the tools and their parameters",
                    );
                return failure(e, meta(started));
            }
        };
        let editor_context = if entry.captures { capture(host.as_ref()) } else { None };
        let timeout = options.timeout.unwrap_or(entry.spec.timeout);
        let answer_budget = options.answer_budget.unwrap_or(DEFAULT_ANSWER_BUDGET);
        let cancel = options.cancel.child_token();
        let cx = Cx {
            host: host.clone(),
            catalogue: self.clone(),
            cancel: cancel.clone(),
            editor_context: editor_context.clone(),
            deadline: tokio::time::Instant::now() + timeout,
            answer_budget,
        };
        // A panic in the tool (a bug) fails this call with E_INTERNAL; the tool's state is
        // its own to keep consistent (locks are not held across a panic's unwinding here).
        let run = std::panic::AssertUnwindSafe((entry.handler)(args, cx.clone()))
            .catch_unwind()
            .map(|r| r.unwrap_or_else(|panic| Err(panicked(name, panic.as_ref()))));
        let result = tokio::select! {
            biased;
            _ = options.cancel.cancelled() => Err(ToolError::new(ErrorCode::Cancelled, format!("`{name}` was cancelled"))),
            _ = tokio::time::sleep(timeout) => Err(ToolError::new(
                ErrorCode::Timeout,
                format!("`{name}` did not finish within {} ms", timeout.as_millis()),
            ).with_details(serde_json::json!({"timeoutMs": timeout.as_millis() as u64}))),
            r = run => r,
        };
        // Work the handler left on other threads sees this and stops.
        cancel.cancel();
        let context_hook = std::panic::AssertUnwindSafe((entry.context)(cx)).catch_unwind();
        let debug_context = match tokio::time::timeout(CONTEXT_BOUND, context_hook).await {
            Ok(Ok(context)) => context,
            Ok(Err(_)) => {
                host.warn(&format!("the debugContext of `{name}` panicked"));
                None
            }
            Err(_) => None,
        };
        let context =
            editor_context.map(|c| Arc::try_unwrap(c).unwrap_or_else(|shared| (*shared).clone()));
        let mut outcome = match result {
            Ok((data, summary)) => {
                Outcome { envelope: Envelope::success(data, meta(started)), summary }
            }
            Err(e) => failure(e, meta(started)),
        };
        outcome.envelope.editor_context = context;
        outcome.envelope.debug_context = debug_context;
        if crate::budget::fit(&mut outcome.envelope, answer_budget) == Fitted::Refused {
            outcome.summary = failure_summary(&outcome.envelope);
        }
        outcome
    }
}

/// The error of a tool that panicked, with the panic's message.
fn panicked(name: &str, panic: &(dyn std::any::Any + Send)) -> ToolError {
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    ToolError::new(ErrorCode::Internal, format!("`{name}` failed with a bug in Locus: {message}"))
        .with_details(serde_json::json!({"panic": message}))
}

fn failure(e: ToolError, meta: Meta) -> Outcome {
    let envelope = Envelope::failure(e, meta);
    let summary = failure_summary(&envelope);
    Outcome { envelope, summary }
}

fn failure_summary(envelope: &Envelope) -> String {
    let err = envelope.error.as_ref().expect("a failure has an error");
    format!("{}: {} (hint: {})", err.code, err.message, err.hint)
}

/// The editorContext now; a failure is logged and treated as none.
fn capture(host: &dyn Host) -> Option<Arc<EditorContext>> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| host.editor_context())) {
        Ok(Ok(context)) => context.map(Arc::new),
        Ok(Err(e)) => {
            host.warn(&format!("capturing the editorContext failed: {e}"));
            None
        }
        Err(_) => {
            host.warn("capturing the editorContext panicked");
            None
        }
    }
}

/// A process-unique request id: a random prefix per process and a counter.
fn next_request_id() -> String {
    static PREFIX: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    static COUNTER: AtomicU64 = AtomicU64::new(1);
    let prefix = PREFIX.get_or_init(|| {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        h.finish() as u32
    });
    format!("{prefix:08x}-{}", COUNTER.fetch_add(1, Ordering::Relaxed))
}
