//! The sidecar: the MCP server `locus lsp` runs for agents, streamable HTTP on 127.0.0.1
//! behind a bearer token, with Origin and Host checks and the discovery file
//! (`docs/configuration.md`).
//!
//! It runs on a thread and runtime of its own, so agents' calls never wait behind the
//! editor's messages (and the reverse); both meet only at the editor state's lock.
//!
//! **Invariants.**
//! - Nothing is served before the discovery file is written, and the file is removed on
//!   every exit: drop (the editor closed stdin or asked to exit), SIGTERM, SIGINT, SIGHUP.
//! - Every HTTP request is checked for a loopback `Host`, a loopback `Origin` (when present)
//!   and the token, in that order, before rmcp sees it.
//! - Sessions are bounded ([`super::sessions`]), and every accepted socket has TCP_NODELAY.

use std::io;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::serve::ListenerExt;
use locus_tools::{AgentChannel, Host};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::discovery::{self, Record};
use super::host::{EditorHost, SidecarInfo, now_ms};
use super::server::LocusServer;
use super::sessions::{Limits, Sessions};
use crate::index::SidecarIndex;
use crate::mcp::ide::{Agent, Channel, Channels, Served, claude, gemini};
use crate::state::Shared;

/// The running sidecar. Dropping it stops the server and removes the discovery file.
pub struct Sidecar {
    info: Arc<SidecarInfo>,
    state: Shared,
    record: Mutex<Record>,
    path: PathBuf,
    shutdown: CancellationToken,
    /// Set once the editor asked to shut down: the discovery file is gone for good.
    withdrawn: std::sync::atomic::AtomicBool,
    /// The workspace symbol index, shared with the MCP host.
    index: SidecarIndex,
    /// The agents' IDE channels that could listen; each publishes its file once the editor
    /// connected, if it is on for that editor.
    ide: Vec<(Agent, Arc<Channel>)>,
    /// The agents' channels on for this editor, decided when it connected.
    channels: Mutex<Channels>,
    /// Whether a failure to publish a channel's file was said already (it is said once).
    channel_failure_said: std::sync::atomic::AtomicBool,
}

impl Sidecar {
    /// Binds 127.0.0.1:`port` (0 = any free port), writes the discovery file and serves MCP
    /// over `state` on a thread of its own.
    pub fn start(
        port: u16,
        state: Shared,
        tools: Option<locus_tools::ToolSelection>,
    ) -> io::Result<Arc<Sidecar>> {
        let mut catalogue = locus_tools::standard(locus_tools::Options::from_env());
        if let Some(tools) = tools {
            catalogue.select(tools);
        }
        let catalogue = Arc::new(catalogue);
        let listener = std::net::TcpListener::bind(("127.0.0.1", port)).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot listen on 127.0.0.1:{port} for MCP: {e}"))
        })?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        let url = format!("http://127.0.0.1:{port}/mcp");
        let token = token()?;
        let started = SystemTime::now();
        let info = Arc::new(SidecarInfo {
            started,
            url: url.clone(),
            editor: Mutex::new(None),
            last_active_ms: now_ms().into(),
            link: Mutex::new(None),
            served_channels: Mutex::new(Vec::new()),
        });
        let record = Record {
            pid: std::process::id(),
            url,
            token: token.clone(),
            workspace_folders: Vec::new(),
            editor: None,
            version: env!("CARGO_PKG_VERSION").to_string(),
            started_at: locus_tools::rfc3339(
                started.duration_since(UNIX_EPOCH).unwrap_or_default(),
            ),
            started_ms: started.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64),
            last_active_ms: info.last_active_ms.load(Ordering::Relaxed),
        };
        let path = discovery::write(&record)?;
        let index = SidecarIndex::default();
        let mut listeners = Vec::new();
        for agent in Agent::ALL {
            match channel_listener() {
                Ok((listener, channel)) => listeners.push((agent, listener, Arc::new(channel))),
                Err(e) => eprintln!("locus: {} channel: disabled: {e}", agent.name()),
            }
        }
        let sidecar = Arc::new(Sidecar {
            info: info.clone(),
            state: state.clone(),
            record: Mutex::new(record),
            path: path.clone(),
            shutdown: CancellationToken::new(),
            withdrawn: false.into(),
            index: index.clone(),
            ide: listeners.iter().map(|(agent, _, c)| (*agent, c.clone())).collect(),
            channels: Mutex::new(Channels::NONE),
            channel_failure_said: false.into(),
        });
        let served: Vec<_> = listeners
            .into_iter()
            .map(|(agent, listener, channel)| {
                (
                    agent,
                    listener,
                    Arc::new(Served { channel, state: state.clone(), info: info.clone() }),
                )
            })
            .collect();
        let files: Vec<Arc<Channel>> = sidecar.ide.iter().map(|(_, c)| c.clone()).collect();
        let host: Arc<dyn Host> = Arc::new(EditorHost::new(state, info, index));
        let shutdown = sidecar.shutdown.clone();
        let weak = Arc::downgrade(&sidecar);
        std::thread::Builder::new().name("locus-mcp".into()).spawn(move || {
            let runtime = match tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("locus-mcp")
                .enable_all()
                .build()
            {
                Ok(r) => r,
                Err(e) => return eprintln!("locus: mcp: cannot start the runtime: {e}"),
            };
            runtime.block_on(async move {
                tokio::spawn(on_signals(path, files));
                for (agent, listener, served) in served {
                    let shutdown = shutdown.clone();
                    tokio::spawn(async move {
                        let stopped = match agent {
                            Agent::Claude => {
                                claude::server::serve(listener, served, shutdown).await
                            }
                            Agent::Gemini => {
                                gemini::server::serve(listener, served, shutdown).await
                            }
                        };
                        if let Err(e) = stopped {
                            eprintln!("locus: {} channel: stopped: {e}", agent.name());
                        }
                    });
                }
                tokio::spawn(refresh_record(weak, shutdown.clone()));
                if let Err(e) = serve(listener, token, catalogue, host, shutdown).await {
                    eprintln!("locus: mcp: the sidecar stopped: {e}");
                }
            });
        })?;
        Ok(sidecar)
    }

    /// The sidecar's URL.
    pub fn url(&self) -> &str {
        &self.info.url
    }

    /// The discovery file.
    pub fn discovery_file(&self) -> &std::path::Path {
        &self.path
    }

    /// The workspace symbol index, which the editor's folders and file events feed.
    pub fn index(&self) -> &SidecarIndex {
        &self.index
    }

    /// Called when the editor initialized: records its name and the workspace folders, and
    /// decides the agents' channels from its name and `initializationOptions.ideChannels`
    /// (`asked`). A wrong `asked` is the returned message, and no channel is served.
    pub fn editor_connected(
        &self,
        name: &str,
        asked: Option<&serde_json::Value>,
    ) -> Result<(), String> {
        let name = if name.is_empty() { "unnamed editor" } else { name };
        // The channels first: a rewrite on the refresh task that sees the editor must see
        // them too, or it writes the discovery file without them and the next one, finding
        // nothing changed, publishes nothing.
        let decided = Channels::decide(name, asked);
        let on = decided.clone().unwrap_or(Channels::NONE);
        *self.channels.lock().unwrap_or_else(PoisonError::into_inner) = on;
        *self.info.served_channels.lock().unwrap_or_else(PoisonError::into_inner) =
            self.ide.iter().filter(|(agent, _)| on.serves(*agent)).cloned().collect();
        *self.info.editor.lock().unwrap_or_else(PoisonError::into_inner) = Some(name.to_string());
        self.info.touch();
        self.rewrite();
        decided.map(|_| ())
    }

    /// Sends the lines `mention` to the agents connected through a channel that takes
    /// mentions (Claude Code's); how many got it.
    pub fn mention(&self, mention: crate::mcp::ide::Mention) -> usize {
        let on = *self.channels.lock().unwrap_or_else(PoisonError::into_inner);
        self.ide
            .iter()
            .filter(|(agent, _)| *agent == Agent::Claude && on.serves(*agent))
            .map(|(_, channel)| channel.mention(mention.clone()))
            .sum()
    }

    /// The agents' channels served for this editor.
    pub fn channels(&self) -> Vec<AgentChannel> {
        self.info.agent_channels()
    }

    /// How tools reach the editor for editor actions, from its `initialize`.
    pub fn set_link(&self, link: Arc<dyn super::host::EditorLink>) {
        *self.info.link.lock().unwrap_or_else(PoisonError::into_inner) = Some(link);
    }

    /// Removes the discovery file for good (the editor is shutting down): agents no longer
    /// find this sidecar, and it is not written again.
    pub fn withdraw(&self) {
        // Held while removing, so that a rewrite in progress cannot bring the file back.
        let _record = self.record.lock().unwrap_or_else(PoisonError::into_inner);
        self.withdrawn.store(true, Ordering::SeqCst);
        let _ = std::fs::remove_file(&self.path);
        for (_, channel) in &self.ide {
            channel.withdraw();
        }
    }

    /// Rewrites the discovery file if what it says changed.
    fn rewrite(&self) {
        let folders = self.state.with(|s| s.snapshot().folders);
        let mut record = self.record.lock().unwrap_or_else(PoisonError::into_inner);
        if self.withdrawn.load(Ordering::SeqCst) {
            return;
        }
        // The user's last action in this editor (not a focus event: with two editors on one
        // folder, agents follow the one touched last), or when the editor connected.
        let touched = self.state.with(|s| s.last_touch_ms());
        let active = self.info.last_active_ms.load(Ordering::Relaxed).max(touched);
        let editor = self.info.editor();
        // Activity alone is written at most once a second.
        let changed = record.workspace_folders != folders || record.editor != editor;
        if !changed && active < record.last_active_ms + 1000 {
            // A channel served but not yet published (its file could not be written) is tried
            // again.
            if self.info.agent_channels().iter().any(|c| c.file.is_none()) {
                drop(record);
                self.publish_channels(&folders, editor.as_deref());
            }
            return;
        }
        let (folders_now, editor_now) = (folders.clone(), editor.clone());
        record.workspace_folders = folders;
        record.editor = editor;
        record.last_active_ms = active;
        if let Err(e) = discovery::write(&record) {
            eprintln!("locus: mcp: cannot update the discovery file {}: {e}", self.path.display());
        }
        drop(record);
        self.publish_channels(&folders_now, editor_now.as_deref());
    }

    /// Writes the files agents find the channels by, when what they say changed.
    fn publish_channels(&self, folders: &[PathBuf], editor: Option<&str>) {
        let on = *self.channels.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(editor) = editor else { return };
        for (agent, channel) in self.ide.iter().filter(|(agent, _)| on.serves(*agent)) {
            let published = match agent {
                Agent::Claude => claude::publish(channel, folders, &ide_name(editor)),
                Agent::Gemini => gemini::publish(channel, folders, &ide_name(editor)),
            };
            if let Err(e) = published
                && !self.channel_failure_said.swap(true, Ordering::Relaxed)
            {
                eprintln!("locus: {} channel: cannot write its file: {e}", agent.name());
            }
        }
    }
}

impl Drop for Sidecar {
    fn drop(&mut self) {
        self.shutdown.cancel();
        let _ = std::fs::remove_file(&self.path);
        for (_, channel) in &self.ide {
            channel.withdraw();
        }
    }
}

/// A listener on a free loopback port for an agent's channel, and the channel.
fn channel_listener() -> io::Result<(std::net::TcpListener, Channel)> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
    listener.set_nonblocking(true)?;
    let port = listener.local_addr()?.port();
    Ok((listener, Channel::new(port, token()?)))
}

/// The editor's name as agents show it: `helix` → `Helix`.
fn ide_name(editor: &str) -> String {
    let mut chars = editor.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// Keeps the discovery file current (folders, editor, activity).
async fn refresh_record(sidecar: Weak<Sidecar>, shutdown: CancellationToken) {
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tick.tick() => {}
        }
        let Some(s) = sidecar.upgrade() else { return };
        tokio::task::spawn_blocking(move || s.rewrite());
    }
}

/// On a request to terminate (SIGTERM, SIGINT, SIGHUP; Ctrl+C on Windows): removes the
/// discovery file and exits as the request would.
async fn on_signals(path: PathBuf, channels: Vec<Arc<Channel>>) {
    match locus_platform::signals::termination().await {
        Ok(code) => {
            let _ = std::fs::remove_file(&path);
            for channel in channels {
                channel.withdraw();
            }
            std::process::exit(code);
        }
        Err(why) => eprintln!("locus: mcp: {why}"),
    }
}

async fn serve(
    listener: std::net::TcpListener,
    token: String,
    catalogue: Arc<locus_tools::Catalogue>,
    host: Arc<dyn Host>,
    shutdown: CancellationToken,
) -> io::Result<()> {
    // Nagle's algorithm would hold a keep-alive client's small responses for the delayed
    // ACK of the previous one (~40 ms a call): every accepted socket sends at once.
    let listener = tokio::net::TcpListener::from_std(listener)?.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            eprintln!("locus: mcp: cannot set TCP_NODELAY on a connection: {e}");
        }
    });
    // No SSE priming events: they exist so a client can resume a broken stream from an event
    // store, which Locus does not keep (a call is never re-run, see `answerLost`); they only
    // cost bytes per answer and make VS Code log "Failed to parse message" at every start.
    let config = StreamableHttpServerConfig::default()
        .with_cancellation_token(shutdown.child_token())
        .with_sse_retry(None);
    let sessions = Arc::new(Sessions::new(Limits::from_env()));
    tokio::spawn(sessions.clone().sweep_until(shutdown.child_token()));
    let service = StreamableHttpService::new(
        move || Ok(LocusServer::new(catalogue.clone(), host.clone(), None)),
        sessions,
        config,
    );
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn(bad_bodies))
        .layer(axum::middleware::from_fn_with_state(Arc::<str>::from(token), guard));
    axum::serve(listener, router).with_graceful_shutdown(shutdown.cancelled_owned()).await
}

/// A random 256-bit token, hex.
fn token() -> io::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| io::Error::other(format!("no randomness for the MCP token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Refuses requests with a non-loopback `Host`, a foreign `Origin` or without the token.
pub async fn guard(State(token): State<Arc<str>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if !host.is_some_and(is_loopback_authority) {
        return refuse(
            StatusCode::FORBIDDEN,
            "Forbidden: the Host header must name a loopback address",
        );
    }
    if let Some(origin) = headers.get(header::ORIGIN)
        && !is_loopback_origin(origin)
    {
        return refuse(
            StatusCode::FORBIDDEN,
            "Forbidden: requests from a foreign Origin are refused",
        );
    }
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")));
    match given {
        Some(t) if constant_time_eq(t.trim().as_bytes(), token.as_bytes()) => {
            next.run(request).await
        }
        _ => {
            let mut response = refuse(
                StatusCode::UNAUTHORIZED,
                "Unauthorized: send `Authorization: Bearer <token>` with the token from the discovery file",
            );
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"locus\""),
            );
            response
        }
    }
}

/// The largest request body read (rmcp's own limit).
const MAX_BODY: usize = 4 * 1024 * 1024;

/// A JSON POST whose body is not a JSON-RPC message gets 400 with a JSON-RPC error: -32700
/// when it is not JSON at all, -32600 when it is JSON but no message (rmcp answers both with
/// 415, which says the Content-Type was wrong).
async fn bad_bodies(request: Request, next: Next) -> Response {
    let json_post = request.method() == axum::http::Method::POST
        && request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("application/json"));
    if !json_post {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        return refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Payload Too Large: the request body exceeds 4 MiB, or could not be read",
        );
    };
    let response =
        next.run(Request::from_parts(parts, axum::body::Body::from(bytes.clone()))).await;
    if response.status() != StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return response;
    }
    let (code, message) = match serde_json::from_slice::<serde::de::IgnoredAny>(&bytes) {
        Err(e) => (-32700, format!("Parse error: the body is not JSON: {e}")),
        Ok(_) => (
            -32600,
            "Invalid Request: the body is JSON but not a JSON-RPC 2.0 request, notification or response".to_string(),
        ),
    };
    let body = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}});
    (StatusCode::BAD_REQUEST, [(header::CONTENT_TYPE, "application/json")], body.to_string())
        .into_response()
}

fn refuse(status: StatusCode, message: &'static str) -> Response {
    (status, message).into_response()
}

/// Whether `authority` (`host[:port]`) names a loopback host.
pub fn is_loopback_authority(authority: &str) -> bool {
    let authority = authority.trim_end_matches('/');
    let host = if let Some(rest) = authority.strip_prefix('[') {
        match rest.split_once(']') {
            Some((h, tail)) if tail.is_empty() || tail.starts_with(':') => h,
            _ => return false,
        }
    } else {
        match authority.rsplit_once(':') {
            Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
            Some(_) => return false,
            None => authority,
        }
    };
    host.eq_ignore_ascii_case("localhost") || host == "127.0.0.1" || host == "::1"
}

/// Whether the `Origin` header names a page served from a loopback address.
pub fn is_loopback_origin(origin: &HeaderValue) -> bool {
    origin.to_str().ok().and_then(|o| o.split_once("://")).is_some_and(|(scheme, rest)| {
        matches!(scheme, "http" | "https") && is_loopback_authority(rest)
    })
}

/// Whether `a` equals `b`, in a time that does not depend on where they differ.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_authorities() {
        for ok in ["127.0.0.1", "127.0.0.1:8080", "localhost:1", "LOCALHOST", "[::1]:9", "[::1]"] {
            assert!(is_loopback_authority(ok), "{ok}");
        }
        for bad in [
            "evil.com",
            "evil.com:80",
            "127.0.0.1.evil.com",
            "10.0.0.1:80",
            "localhost.evil:1",
            "[::2]:1",
            "127.0.0.2",
            "",
        ] {
            assert!(!is_loopback_authority(bad), "{bad}");
        }
    }
}
