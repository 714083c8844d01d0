//! The channel's server: streamable HTTP at `/mcp` (rmcp), the sidecar's guard in front (a
//! loopback `Host`, no foreign `Origin`, `Authorization: Bearer <token>`); `ide/contextUpdate`
//! pushed on each session's event stream; `openDiff` and `closeDiff`.

use std::collections::HashMap;
use std::io;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomNotification,
    ListToolsResult, PaginatedRequestParams, ServerConfig, ServerNotification, Tool,
};
use rmcp::service::{NotificationContext, Peer, RequestContext};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use super::context::workspace_state;
use crate::mcp::host::now_ms;
use crate::mcp::ide::pace;
use crate::mcp::ide::review::{self, Verdict};
use crate::mcp::ide::{Served, mcp};
use crate::mcp::sidecar::guard;

/// Serves the channel on `listener` until `shutdown`.
pub async fn serve(
    listener: std::net::TcpListener,
    served: Arc<Served>,
    shutdown: CancellationToken,
) -> io::Result<()> {
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let token = Arc::<str>::from(served.channel.token());
    let config = StreamableHttpServerConfig::default()
        .with_cancellation_token(shutdown.child_token())
        .with_sse_retry(None);
    let service = StreamableHttpService::new(
        move || Ok(GeminiIde { served: served.clone(), diffs: Arc::default() }),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn_with_state(token, guard));
    axum::serve(listener, router).with_graceful_shutdown(shutdown.cancelled_owned()).await
}

/// One session's server.
#[derive(Clone)]
struct GeminiIde {
    served: Arc<Served>,
    /// The proposals this CLI opened and nobody decided on, by file path.
    diffs: Arc<Mutex<HashMap<String, String>>>,
}

impl ServerHandler for GeminiIde {
    fn get_info(&self) -> ServerConfig {
        mcp::server_config()
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.served.channel.count_agent(true);
        let served = self.served.clone();
        tokio::spawn(async move {
            // The stream is open: the CLI listens from now on.
            let connected = Arc::new(tokio::sync::Notify::new());
            connected.notify_one();
            let state = served.state.clone();
            // Compared without the timestamps, which count down from now.
            let observe = || Some(state.with(|s| workspace_state(&s.snapshot(), 0)));
            let update = |_: &Value| state.with(|s| workspace_state(&s.snapshot(), now_ms()));
            pace::push(context.peer, "ide/contextUpdate", connected, observe, update).await;
            served.channel.count_agent(false);
        });
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        let result = match request.name.as_ref() {
            "openDiff" => self.open_diff(&args, context.peer),
            "closeDiff" => self.close_diff(&args).await,
            other => return Err(mcp::no_tool(other)),
        };
        Ok(result.into())
    }
}

impl GeminiIde {
    /// Shows the proposal in the editor and answers at once; the verdict follows as
    /// `ide/diffAccepted {filePath, content}` or `ide/diffRejected {filePath}`.
    fn open_diff(&self, args: &Map<String, Value>, peer: Peer<RoleServer>) -> CallToolResult {
        let (Some(path), Some(text)) = (string(args, "filePath"), string(args, "newContent"))
        else {
            return failure("openDiff takes {filePath, newContent} (strings)");
        };
        let Some(link) = self.served.info.link() else {
            return failure("no editor is connected to Locus");
        };
        if !review::can_review(link.as_ref()) {
            return failure(&format!(
                "{} cannot show a diff to review (it declared no {} action): answer in the terminal",
                link.editor().name,
                review::PROPOSE
            ));
        }
        let id = format!("gemini:{path}");
        let title = format!(
            "Gemini CLI: {}",
            Path::new(&path).file_name().map_or(path.clone(), |n| n.to_string_lossy().into_owned())
        );
        self.diffs.lock().unwrap_or_else(PoisonError::into_inner).insert(path.clone(), id.clone());
        let diffs = self.diffs.clone();
        tokio::spawn(async move {
            let uri = locus_platform::file_uri::uri_of(Path::new(&path));
            let verdict = review::review(link, &id, &uri, &text, &title).await;
            // A proposal closed by the CLI (it decided in its terminal) reports nothing.
            if diffs.lock().unwrap_or_else(PoisonError::into_inner).remove(&path).is_none() {
                return;
            }
            let (method, params) = match verdict {
                Ok(Verdict::Accepted(content)) => {
                    ("ide/diffAccepted", json!({"filePath": path, "content": content}))
                }
                Ok(Verdict::Rejected) | Err(_) => ("ide/diffRejected", json!({"filePath": path})),
            };
            let notification = CustomNotification::new(method, Some(params));
            let _ =
                peer.send_notification(ServerNotification::CustomNotification(notification)).await;
        });
        CallToolResult::success(Vec::new())
    }

    /// Withdraws the proposal for `filePath`, if one is open.
    async fn close_diff(&self, args: &Map<String, Value>) -> CallToolResult {
        let path = string(args, "filePath").unwrap_or_default();
        let id = self.diffs.lock().unwrap_or_else(PoisonError::into_inner).remove(&path);
        if let (Some(id), Some(link)) = (id, self.served.info.link()) {
            review::close(link, &id).await;
        }
        CallToolResult::success(vec![ContentBlock::text(json!({"content": null}).to_string())])
    }
}

/// `openDiff` and `closeDiff`, which the CLI needs both of to show diffs.
fn tools() -> Vec<Tool> {
    let schema = mcp::schema;
    vec![
        Tool::new(
            "openDiff",
            "Shows a proposed content of a file as a diff in the editor; the user's verdict follows as ide/diffAccepted or ide/diffRejected",
            schema(
                json!({"filePath": {"type": "string"}, "newContent": {"type": "string"}}),
                &["filePath", "newContent"],
            ),
        ),
        Tool::new(
            "closeDiff",
            "Closes the proposal shown for a file",
            schema(
                json!({"filePath": {"type": "string"}, "suppressNotification": {"type": "boolean"}}),
                &["filePath"],
            ),
        ),
    ]
}

fn string(args: &Map<String, Value>, key: &str) -> Option<String> {
    args.get(key).and_then(Value::as_str).map(str::to_string)
}

fn failure(message: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message.to_string())])
}
