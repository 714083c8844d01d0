//! `locus mcp`: MCP on stdio for agents. Each request goes to the sidecar (`locus lsp`) that
//! serves the workspace, found afresh through the discovery files, so an editor restart is
//! picked up by the next call; with no sidecar, the tools run in-process with no live editor.
//!
//! **Invariant:** every forwarded call ends: with the sidecar's answer, with an error within
//! [`LIVENESS_POLL`] of the sidecar's death (its pid is watched while the call waits, since a
//! dropped HTTP stream is not always reported), or with `E_TIMEOUT` at the call's timeout
//! (plus [`TIMEOUT_GRACE`] for the sidecar's own answer to arrive). A call that reached a
//! sidecar is never run a second time in-process: it may have acted already. `locus call`
//! forwards through the same [`watch`].
//!
//! **Invariant:** every request on stdin gets an answer carrying its id: one rmcp cannot read
//! (a `tools/call` whose `params` are not an object) is answered here ([`screen`]).

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use locus_tools::{Detached, Envelope, ErrorCode, Host, Meta, Outcome, ToolError};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientConfig, CustomRequest,
    CustomResult, Implementation, ListToolsResult, MetaObject, PaginatedRequestParams,
    RequestMetaObject, ResultType, ServerConfig,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

use super::discovery::{self, Record, Refusals};
use super::server::{
    BUDGET_META, LocusServer, TIMEOUT_META, answer_budget, custom_request_error, effective_timeout,
    for_client, mcp_result, requested_timeout, server_config, with_progress,
};

/// How often a forwarded call checks that its sidecar still lives.
pub const LIVENESS_POLL: Duration = Duration::from_millis(100);

/// How long past a call's timeout the sidecar's own `E_TIMEOUT` answer is awaited before
/// `locus mcp` answers it itself.
pub const TIMEOUT_GRACE: Duration = Duration::from_millis(500);

/// How a wait on a sidecar ended.
pub enum Watched<T> {
    /// The sidecar answered.
    Answer(T),
    /// The request failed (the transport said why).
    Failed(String),
    /// The sidecar's process is gone.
    Died,
    /// The deadline passed first.
    TimedOut,
}

/// Waits for `work` on the sidecar of `pid` until `deadline`, checking every
/// [`LIVENESS_POLL`] that the process still lives.
pub async fn watch<T>(
    pid: u32,
    deadline: tokio::time::Instant,
    work: impl Future<Output = Result<T, String>>,
) -> Watched<T> {
    let died = async {
        loop {
            tokio::time::sleep(LIVENESS_POLL).await;
            if !locus_platform::process::alive(pid) {
                return;
            }
        }
    };
    tokio::select! {
        r = work => match r {
            Ok(v) => Watched::Answer(v),
            Err(e) => Watched::Failed(e),
        },
        _ = died => Watched::Died,
        _ = tokio::time::sleep_until(deadline) => Watched::TimedOut,
    }
}

/// A connection to a sidecar.
pub struct Upstream {
    /// Which sidecar.
    pub record: Record,
    /// The MCP client session.
    pub client: RunningService<RoleClient, ClientConfig>,
}

/// Connects to a sidecar with its token.
pub async fn connect(record: &Record, client_name: &str) -> Result<Upstream, String> {
    let http = reqwest::Client::builder()
        .no_proxy()
        // Connections are kept alive between calls: the sidecar sets TCP_NODELAY, so a reused
        // connection no longer waits for delayed ACKs.
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
    let config = StreamableHttpClientTransportConfig::with_uri(record.url.clone())
        .auth_header(record.token.clone());
    let transport = StreamableHttpClientTransport::with_client(http, config);
    let mut info = ClientConfig::default();
    info.client_info = Implementation::new(client_name, env!("CARGO_PKG_VERSION"));
    let client = info
        .serve(transport)
        .await
        .map_err(|e| format!("cannot connect to {}: {e}", record.url))?;
    Ok(Upstream { record: record.clone(), client })
}

/// The sidecar for `workspace`, if one runs (refused discovery files named once per `said`).
pub fn find(workspace: &std::path::Path, said: &Refusals) -> Option<Record> {
    discovery::choose(&discovery::list(said), workspace).cloned()
}

/// The stdio server of `locus mcp`.
#[derive(Clone)]
pub struct Proxy {
    inner: Arc<Inner>,
}

struct Inner {
    local: LocusServer,
    catalogue: Arc<locus_tools::Catalogue>,
    workspace: PathBuf,
    timeout: Option<Duration>,
    /// `--answer-budget`, forwarded with every call.
    answer_budget: Option<usize>,
    upstream: tokio::sync::Mutex<Option<Arc<Upstream>>>,
    /// The in-process host, whose symbol index (if a call started one) is saved at the end.
    host: Arc<dyn Host>,
    /// The discovery files refused so far, named once each.
    refusals: Refusals,
}

impl Proxy {
    /// Serves the workspace holding `workspace`; `timeout` (`--timeout`) replaces the default
    /// timeout of tools that have none of their own, `answer_budget` (`--answer-budget`)
    /// the default budget, here and on the sidecar (by each call's `_meta`), and `tools`
    /// (`--tools`) says which tools are listed and called, of the sidecar's as of its own.
    pub fn new(
        workspace: PathBuf,
        timeout: Option<Duration>,
        answer_budget: Option<usize>,
        tools: Option<locus_tools::ToolSelection>,
    ) -> Proxy {
        let mut catalogue = locus_tools::standard(locus_tools::Options::from_env());
        if let Some(tools) = tools {
            catalogue.select(tools);
        }
        let catalogue = Arc::new(catalogue);
        let host: Arc<dyn Host> = Arc::new(
            Detached::new()
                .in_workspace(workspace.clone())
                .with_runtime_of(crate::state::python_runtime),
        );
        let local = LocusServer::new(catalogue.clone(), host.clone(), timeout)
            .with_answer_budget(answer_budget);
        Proxy {
            inner: Arc::new(Inner {
                local,
                catalogue,
                workspace,
                timeout,
                answer_budget,
                upstream: Default::default(),
                host,
                refusals: Refusals::default(),
            }),
        }
    }

    /// The sidecar to forward to now: the one discovery chooses, connected (reusing the
    /// connection while it is the same process); `None` to serve in-process.
    async fn upstream(&self) -> Option<Arc<Upstream>> {
        let workspace = self.inner.workspace.clone();
        let said = self.inner.refusals.clone();
        let chosen =
            tokio::task::spawn_blocking(move || find(&workspace, &said)).await.ok().flatten();
        let mut current = self.inner.upstream.lock().await;
        let Some(record) = chosen else {
            if current.take().is_some() {
                eprintln!(
                    "locus: mcp: the sidecar is gone; serving in-process (no live editor state)"
                );
            }
            return None;
        };
        if let Some(up) = current.as_ref()
            && up.record.pid == record.pid
            && up.record.url == record.url
            && !up.client.is_closed()
        {
            return Some(up.clone());
        }
        match connect(&record, "locus-mcp").await {
            Ok(up) => {
                eprintln!(
                    "locus: mcp: forwarding to the sidecar of pid {} at {}",
                    record.pid, record.url
                );
                let up = Arc::new(up);
                *current = Some(up.clone());
                Some(up)
            }
            Err(e) => {
                eprintln!("locus: mcp: {e}; serving in-process");
                *current = None;
                None
            }
        }
    }

    async fn forget(&self, failed: &Arc<Upstream>) {
        let mut current = self.inner.upstream.lock().await;
        if current.as_ref().is_some_and(|c| Arc::ptr_eq(c, failed)) {
            *current = None;
        }
    }

    /// The timeout of a call: its own `_meta` value, else `--timeout`, else the tool's.
    fn timeout_of(&self, request: &CallToolRequestParams, asked: Option<Duration>) -> Duration {
        let catalogue = &self.inner.catalogue;
        effective_timeout(catalogue, &request.name, asked, self.inner.timeout).unwrap_or_else(
            || {
                catalogue
                    .get(&request.name)
                    .map_or(locus_tools::DEFAULT_TIMEOUT, |e| e.spec().timeout)
            },
        )
    }

    async fn forward(
        up: &Arc<Upstream>,
        mut request: CallToolRequestParams,
        timeout: Option<Duration>,
        answer_budget: usize,
    ) -> Result<CallToolResult, String> {
        let mut meta = |key: &str, value: Value| {
            let meta = request
                .meta
                .get_or_insert_with(|| RequestMetaObject(MetaObject(Default::default())));
            meta.0.0.entry(key.to_string()).or_insert(value);
        };
        if let Some(t) = timeout {
            meta(TIMEOUT_META, json!(t.as_millis() as u64));
        }
        meta(BUDGET_META, json!(answer_budget));
        up.client.peer().call_tool(request).await.map_err(|e| e.to_string())
    }
}

impl ServerHandler for Proxy {
    fn get_info(&self) -> ServerConfig {
        server_config()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let deadline = tokio::time::Instant::now() + locus_tools::DEFAULT_TIMEOUT;
        if let Ok(Some(up)) = tokio::time::timeout_at(deadline, self.upstream()).await {
            let listing = async {
                up.client.peer().list_tools(request.clone()).await.map_err(|e| e.to_string())
            };
            let why = match watch(up.record.pid, deadline, listing).await {
                Watched::Answer(mut list) => {
                    list.tools.retain(|t| self.inner.catalogue.selects(&t.name));
                    // The sidecar answered under the protocol version it negotiated with us;
                    // rmcp adapts the result to our own client's version only if it is marked.
                    list.result_type = Some(ResultType::COMPLETE);
                    return Ok(list);
                }
                Watched::Failed(e) => e,
                Watched::Died => "the sidecar exited".to_string(),
                Watched::TimedOut => "the sidecar did not answer".to_string(),
            };
            eprintln!("locus: mcp: listing tools on the sidecar failed: {why}; listing in-process");
            self.forget(&up).await;
        }
        self.inner.local.list_tools(request, context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A tool `--tools` leaves out is refused here, as the in-process catalogue refuses it,
        // whatever the sidecar offers.
        if !self.inner.catalogue.selects(&request.name) {
            return self.inner.local.call_tool(request, context).await;
        }
        let started = Instant::now();
        let asked = requested_timeout(&request, &context);
        let timeout = self.timeout_of(&request, asked);
        let deadline = tokio::time::Instant::from_std(started) + timeout + TIMEOUT_GRACE;
        let name = request.name.to_string();
        let up = tokio::select! {
            _ = context.ct.cancelled() => return Err(ErrorData::internal_error("cancelled", None)),
            up = tokio::time::timeout_at(deadline, self.upstream()) => match up {
                Ok(up) => up,
                Err(_) => return Ok(timed_out(&name, timeout, None, started)),
            },
        };
        // Once the request is sent, it is answered by the sidecar or with an error, never run
        // again here: it may have acted there. (rmcp itself retries a request the sidecar
        // refused for an expired session, which did not run.)
        if let Some(up) = up {
            let pid = up.record.pid;
            // Dropping the forwarded call (on cancellation) sends notifications/cancelled on.
            let own = effective_timeout(&self.inner.catalogue, &name, asked, self.inner.timeout);
            let budget = answer_budget(&request, &context, self.inner.answer_budget);
            let forwarded = Self::forward(&up, request, own, budget);
            let watched = tokio::select! {
                _ = context.ct.cancelled() => return Err(ErrorData::internal_error("cancelled", None)),
                w = with_progress(&context, &name, watch(pid, deadline, forwarded)) => w,
            };
            return Ok(match watched {
                Watched::Answer(mut result) => {
                    result.result_type = Some(ResultType::COMPLETE);
                    for_client(result, &context).into()
                }
                Watched::TimedOut => {
                    eprintln!(
                        "locus: mcp: the sidecar of pid {pid} did not answer `{name}` within {} ms",
                        timeout.as_millis()
                    );
                    timed_out(&name, timeout, Some(pid), started)
                }
                Watched::Died => {
                    eprintln!("locus: mcp: the sidecar of pid {pid} exited during `{name}`");
                    self.forget(&up).await;
                    sidecar_died(&name, pid, started)
                }
                Watched::Failed(e) => {
                    eprintln!("locus: mcp: the call to the sidecar of pid {pid} failed: {e}");
                    // The next call connects afresh.
                    self.forget(&up).await;
                    // A transport error can come a moment before the process is gone (a
                    // SIGTERM handler is still exiting).
                    if died_soon(pid).await {
                        sidecar_died(&name, pid, started)
                    } else {
                        let lost = lost_answer_envelope(&name, pid, &e, started);
                        let summary = summary_of(&lost);
                        mcp_result(Outcome { envelope: lost, summary }).into()
                    }
                }
            });
        }
        // In-process: still within the call's one deadline, whatever the tries above took.
        match tokio::time::timeout_at(deadline, self.inner.local.call_tool(request, context)).await
        {
            Ok(answer) => answer,
            Err(_) => Ok(timed_out(&name, timeout, None, started)),
        }
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(custom_request_error(&request))
    }
}

/// Whether process `pid` is gone, or goes within a few liveness polls.
pub async fn died_soon(pid: u32) -> bool {
    for _ in 0..5 {
        if !locus_platform::process::alive(pid) {
            return true;
        }
        tokio::time::sleep(LIVENESS_POLL).await;
    }
    !locus_platform::process::alive(pid)
}

/// The answer to a call whose sidecar exited before answering it.
fn sidecar_died(tool: &str, pid: u32, started: Instant) -> CallToolResponse {
    mcp_result(failure(tool, died_error(tool, pid), started)).into()
}

/// The envelope of a call whose sidecar exited before answering it (`locus call`).
pub fn sidecar_died_envelope(tool: &str, pid: u32, started: Instant) -> Envelope {
    failure(tool, died_error(tool, pid), started).envelope
}

/// The envelope of a call sent to the sidecar whose answer was lost (`why`) while the sidecar
/// lives (`locus mcp`, `locus call`): the call may have taken effect there, so it is not run again.
pub fn lost_answer_envelope(tool: &str, pid: u32, why: &str, started: Instant) -> Envelope {
    let error = ToolError::new(
        ErrorCode::Internal,
        format!("the answer of the editor's Locus (`locus lsp`, pid {pid}) to `{tool}` was lost ({why}); the call may have taken effect on the sidecar"),
    )
    .with_hint("Check whether the call took effect (e.g. read the file or ask bridge_status) before calling again")
    .with_details(json!({"sidecarPid": pid, "reason": "answerLost"}));
    failure(tool, error, started).envelope
}

/// The envelope of a call the sidecar did not answer within `timeout` (`locus call`).
pub fn timed_out_envelope(tool: &str, timeout: Duration, pid: u32, started: Instant) -> Envelope {
    failure(tool, timeout_error(tool, timeout, Some(pid)), started).envelope
}

fn died_error(tool: &str, pid: u32) -> ToolError {
    ToolError::new(
        ErrorCode::Internal,
        format!("the editor's Locus (`locus lsp`, pid {pid}) exited during `{tool}`; the call may or may not have taken effect"),
    )
    .with_hint("Call again: the next call goes to the editor's new Locus, or runs in-process (no live editor state) until one runs")
    .with_details(json!({"sidecarPid": pid, "reason": "exited"}))
}

/// The answer to a call the sidecar did not answer within its timeout.
fn timed_out(
    tool: &str,
    timeout: Duration,
    pid: Option<u32>,
    started: Instant,
) -> CallToolResponse {
    mcp_result(failure(tool, timeout_error(tool, timeout, pid), started)).into()
}

fn timeout_error(tool: &str, timeout: Duration, pid: Option<u32>) -> ToolError {
    let who = match pid {
        Some(pid) => format!(" (the editor's Locus, pid {pid}, did not answer)"),
        None => " (the editor's Locus could not be reached)".to_string(),
    };
    ToolError::new(
        ErrorCode::Timeout,
        format!("`{tool}` did not finish within {} ms{who}", timeout.as_millis()),
    )
    .with_details(json!({"timeoutMs": timeout.as_millis() as u64}))
}

fn failure(tool: &str, error: ToolError, started: Instant) -> Outcome {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let since_epoch =
        SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default() - started.elapsed();
    let meta = Meta::new(
        format!("mcp-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed)),
        tool.to_string(),
        locus_tools::rfc3339(since_epoch),
        started.elapsed().as_secs_f64() * 1000.0,
    );
    let envelope = Envelope::failure(error, meta);
    let summary = summary_of(&envelope);
    Outcome { envelope, summary }
}

fn summary_of(envelope: &Envelope) -> String {
    let err = envelope.error.as_ref().expect("a failure has an error");
    format!("{}: {} (hint: {})", err.code, err.message, err.hint)
}

/// Runs `locus mcp` until stdin closes.
///
/// stdin is screened on its way to rmcp: a request rmcp cannot read (`"params": 7`) would be
/// answered with an error carrying no id, which leaves the client waiting for its answer; it
/// is answered here instead, with its id ([`screen`]). Everything else passes through as it
/// came, and rmcp's output goes to stdout line by line beside those answers.
pub async fn serve_stdio(proxy: Proxy) -> Result<(), String> {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (from_rmcp, to_rmcp) = tokio::io::split(ours);
    let (answers, answered) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(screen_stdin(tokio::io::stdin(), to_rmcp, answers));
    let writer = tokio::spawn(write_stdout(from_rmcp, answered));
    let host = proxy.inner.host.clone();
    let running = proxy
        .serve(tokio::io::split(theirs))
        .await
        .map_err(|e| format!("MCP on stdio failed to start: {e}"))?;
    let ended = running.waiting().await.map_err(|e| format!("MCP on stdio failed: {e}"));
    // What rmcp wrote last reaches stdout before the process ends.
    let _ = tokio::time::timeout(Duration::from_secs(2), writer).await;
    // Without an editor, this process's own index (a call started one) writes the symbol
    // cache before the process ends (bounded), as an editor's sidecar does at shutdown.
    if !crate::index::save_cache_of(host.symbol_index(false)).await {
        eprintln!("locus: mcp: the symbol cache's write did not end within 2 s");
    }
    ended.map(|_| ())
}

/// The answer to a line of stdin that rmcp cannot read but that names a request (an `id` and
/// a `method`): invalid params (-32602) for a method MCP defines, invalid request (-32600)
/// otherwise; `None` for lines rmcp reads, or that carry no id (rmcp answers those itself).
pub fn screen(line: &str) -> Option<Value> {
    if serde_json::from_str::<rmcp::model::ClientJsonRpcMessage>(line).is_ok() {
        return None;
    }
    let value: Value = serde_json::from_str(line).ok()?;
    let id = value.get("id").filter(|id| id.is_string() || id.is_number())?;
    let method = value.get("method").and_then(Value::as_str)?;
    let params = value.get("params").cloned();
    let request = CustomRequest::new(method, params);
    let error = custom_request_error(&request);
    let error = if error.code == rmcp::model::ErrorCode::METHOD_NOT_FOUND {
        ErrorData::invalid_request(format!("`{method}` request is not valid JSON-RPC 2.0"), None)
    } else {
        error
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "error": error}))
}

/// The longest line of stdin read as a message; a longer one is answered with an invalid
/// request (-32600) and skipped, without holding more than this in memory.
pub const MAX_LINE: usize = 16 << 20;

/// One line of stdin, as bytes, without its `\n` (nor a `\r` before it); `None` at the end
/// of stdin (or when it cannot be read). A line longer than [`MAX_LINE`] is read to its end
/// but not kept: `Some(Err(()))`.
async fn read_line(
    reader: &mut (impl tokio::io::AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
) -> Option<Result<(), ()>> {
    use tokio::io::AsyncBufReadExt;
    line.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match reader.fill_buf().await {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buf.is_empty() {
            // A last line without its newline is still a line.
            if !any {
                return None;
            }
            break;
        }
        any = true;
        let (piece, used, ended) = match buf.iter().position(|b| *b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        if !too_long && line.len() + piece.len() <= MAX_LINE {
            line.extend_from_slice(piece);
        } else {
            too_long = true;
            line.clear();
        }
        reader.consume(used);
        if ended {
            break;
        }
    }
    if too_long {
        return Some(Err(()));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Some(Ok(()))
}

/// A JSON-RPC error answer with no id (for a line whose id cannot be read).
fn error_without_id(code: i32, message: String) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}}).to_string()
}

/// Passes stdin to rmcp line by line, answering here what rmcp would not answer with an id
/// ([`screen`]), a line that is not UTF-8 (parse error, -32700) and a line over
/// [`MAX_LINE`] (invalid request, -32600); none of them ends the stream.
async fn screen_stdin(
    stdin: impl tokio::io::AsyncRead + Unpin,
    mut to_rmcp: impl tokio::io::AsyncWrite + Unpin,
    answers: tokio::sync::mpsc::UnboundedSender<String>,
) {
    use tokio::io::AsyncWriteExt;
    let mut reader = tokio::io::BufReader::new(stdin);
    let mut line = Vec::new();
    while let Some(read) = read_line(&mut reader, &mut line).await {
        if read.is_err() {
            let why = format!("the message is longer than {MAX_LINE} bytes");
            let _ = answers.send(error_without_id(-32600, why));
            continue;
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            let why = "the message is not valid UTF-8".to_string();
            let _ = answers.send(error_without_id(-32700, why));
            continue;
        };
        if let Some(answer) = screen(text) {
            let _ = answers.send(answer.to_string());
            continue;
        }
        if to_rmcp.write_all(text.as_bytes()).await.is_err()
            || to_rmcp.write_all(b"\n").await.is_err()
        {
            return;
        }
    }
    // EOF (or unreadable stdin): rmcp sees its input end.
    let _ = to_rmcp.shutdown().await;
}

async fn write_stdout(
    from_rmcp: impl tokio::io::AsyncRead + Unpin,
    mut answers: tokio::sync::mpsc::UnboundedReceiver<String>,
) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut stdout = tokio::io::stdout();
    let mut lines = tokio::io::BufReader::new(from_rmcp).lines();
    let mut screening = true;
    loop {
        let line = tokio::select! {
            line = lines.next_line() => match line {
                Ok(Some(line)) => line,
                _ => break,
            },
            answer = answers.recv(), if screening => match answer {
                Some(answer) => answer,
                None => {
                    screening = false;
                    continue;
                }
            },
        };
        if stdout.write_all(line.as_bytes()).await.is_err()
            || stdout.write_all(b"\n").await.is_err()
            || stdout.flush().await.is_err()
        {
            return;
        }
    }
}
