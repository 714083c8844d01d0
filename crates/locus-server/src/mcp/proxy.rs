//! `locus mcp`: MCP on stdio for agents. Each request goes to the sidecar (`locus lsp`) that
//! serves the workspace, found afresh through the discovery files, so an editor restart is
//! picked up by the next call; with no sidecar, the tools run in-process with no live editor.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use locus_tools::{Detached, Host};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientConfig, Implementation,
    ListToolsResult, MetaObject, PaginatedRequestParams, RequestMetaObject, ResultType,
    ServerConfig,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};
use serde_json::json;

use super::discovery::{self, Record};
use super::server::{LocusServer, TIMEOUT_META, server_config};

/// A connection to a sidecar.
pub struct Upstream {
    /// Which sidecar.
    pub record: Record,
    /// The MCP client session.
    pub client: RunningService<RoleClient, ClientConfig>,
}

/// Connects to a sidecar's MCP endpoint with its token.
pub async fn connect(record: &Record, client_name: &str) -> Result<Upstream, String> {
    let http = reqwest::Client::builder()
        .no_proxy()
        // Pooled connections stall ~40 ms on delayed ACKs when a body was not fully read.
        .pool_max_idle_per_host(0)
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

/// The sidecar for `workspace`, if one runs.
pub fn find(workspace: &std::path::Path) -> Option<Record> {
    discovery::choose(&discovery::list(), workspace).cloned()
}

/// The stdio server of `locus mcp`.
#[derive(Clone)]
pub struct Proxy {
    inner: Arc<Inner>,
}

struct Inner {
    local: LocusServer,
    workspace: PathBuf,
    timeout: Option<Duration>,
    upstream: tokio::sync::Mutex<Option<Arc<Upstream>>>,
}

impl Proxy {
    /// Serves the workspace holding `workspace`; `timeout` overrides every tool's.
    pub fn new(workspace: PathBuf, timeout: Option<Duration>) -> Proxy {
        let catalogue = Arc::new(locus_tools::standard(locus_tools::Options::from_env()));
        let host: Arc<dyn Host> = Arc::new(Detached::new());
        Proxy {
            inner: Arc::new(Inner {
                local: LocusServer::new(catalogue, host, timeout),
                workspace,
                timeout,
                upstream: Default::default(),
            }),
        }
    }

    /// The sidecar to forward to now: the one discovery chooses, connected (reusing the
    /// connection while it is the same process); `None` to serve in-process.
    async fn upstream(&self) -> Option<Arc<Upstream>> {
        let workspace = self.inner.workspace.clone();
        let chosen = tokio::task::spawn_blocking(move || find(&workspace)).await.ok().flatten();
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

    async fn forward(
        &self,
        up: &Arc<Upstream>,
        mut request: CallToolRequestParams,
    ) -> Result<CallToolResult, String> {
        if let Some(t) = self.inner.timeout {
            let meta = request
                .meta
                .get_or_insert_with(|| RequestMetaObject(MetaObject(Default::default())));
            meta.0.0.insert(TIMEOUT_META.into(), json!(t.as_millis() as u64));
        }
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
        if let Some(up) = self.upstream().await {
            match up.client.peer().list_tools(request.clone()).await {
                Ok(mut list) => {
                    // The sidecar answered under the protocol version it negotiated with us;
                    // rmcp adapts the result to our own client's version only if it is marked.
                    list.result_type = Some(ResultType::COMPLETE);
                    return Ok(list);
                }
                Err(e) => {
                    eprintln!(
                        "locus: mcp: listing tools on the sidecar failed: {e}; listing in-process"
                    );
                    self.forget(&up).await;
                }
            }
        }
        self.inner.local.list_tools(request, context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Two tries: a sidecar that died since discovery is forgotten and the next is tried.
        for _ in 0..2 {
            let Some(up) = self.upstream().await else { break };
            // Dropping the forwarded call (on cancellation) sends notifications/cancelled on.
            let result = tokio::select! {
                _ = context.ct.cancelled() => return Err(ErrorData::internal_error("cancelled", None)),
                r = self.forward(&up, request.clone()) => r,
            };
            match result {
                Ok(mut result) => {
                    result.result_type = Some(ResultType::COMPLETE);
                    return Ok(result.into());
                }
                Err(e) => {
                    eprintln!(
                        "locus: mcp: the call to the sidecar of pid {} failed: {e}",
                        up.record.pid
                    );
                    self.forget(&up).await;
                }
            }
        }
        self.inner.local.call_tool(request, context).await
    }
}

/// Runs `locus mcp` until stdin closes.
pub async fn serve_stdio(proxy: Proxy) -> Result<(), String> {
    let running = proxy
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| format!("MCP on stdio failed to start: {e}"))?;
    running.waiting().await.map_err(|e| format!("MCP on stdio failed: {e}"))?;
    Ok(())
}
