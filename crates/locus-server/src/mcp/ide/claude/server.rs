//! The channel's server: a WebSocket on 127.0.0.1 (subprotocol `mcp`, one JSON-RPC message
//! per text frame) carrying MCP, served by rmcp with [`super::tools`]; and `selection_changed`,
//! pushed as the user moves.

use std::future::ready;
use std::io;
use std::sync::{Arc, PoisonError};

use axum::extract::State;
use axum::extract::ws::{
    Message, WebSocket, WebSocketUpgrade, rejection::WebSocketUpgradeRejection,
};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use rmcp::model::{CustomNotification, ServerNotification};
use rmcp::service::{Peer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::{RoleServer, ServiceExt};
use tokio_util::sync::CancellationToken;

use super::tools::{IdeServer, selection};
use crate::mcp::ide::focus::Focus;
use crate::mcp::ide::pace;
use crate::mcp::ide::review;
use crate::mcp::ide::{Mention, Served};
use crate::mcp::sidecar::{constant_time_eq, is_loopback_authority, is_loopback_origin};

/// The header the CLI sends its token in.
const TOKEN_HEADER: &str = "x-claude-code-ide-authorization";

/// Serves the channel on `listener` until `shutdown`.
pub async fn serve(
    listener: std::net::TcpListener,
    served: Arc<Served>,
    shutdown: CancellationToken,
) -> io::Result<()> {
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let router = axum::Router::new().route("/", axum::routing::any(upgrade)).with_state(served);
    axum::serve(listener, router).with_graceful_shutdown(shutdown.cancelled_owned()).await
}

/// Checks the upgrade (loopback `Host`, no foreign `Origin`, the token), then serves MCP on
/// the socket.
async fn upgrade(
    State(served): State<Arc<Served>>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if !host.is_some_and(is_loopback_authority) {
        return (StatusCode::FORBIDDEN, "Forbidden: the Host header must name a loopback address")
            .into_response();
    }
    if headers.get(header::ORIGIN).is_some_and(|o| !is_loopback_origin(o)) {
        return (StatusCode::FORBIDDEN, "Forbidden: requests from a foreign Origin are refused")
            .into_response();
    }
    let given = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !constant_time_eq(given.trim().as_bytes(), served.channel.token().as_bytes()) {
        return (
            StatusCode::UNAUTHORIZED,
            "Unauthorized: send X-Claude-Code-Ide-Authorization with the token from the lock file",
        )
            .into_response();
    }
    match ws {
        Ok(ws) => ws.protocols(["mcp"]).on_upgrade(move |socket| session(socket, served)),
        Err(rejection) => rejection.into_response(),
    }
}

/// One CLI's connection, until it closes.
async fn session(socket: WebSocket, served: Arc<Served>) {
    let (sink, stream) = socket.split();
    let sink = sink.with(|m: TxJsonRpcMessage<RoleServer>| {
        ready(serde_json::to_string(&m).map(|t| Message::Text(t.into())).map_err(axum::Error::new))
    });
    let stream = stream.take_while(|m| ready(m.is_ok())).filter_map(|m| {
        ready(match m {
            Ok(Message::Text(text)) => serde_json::from_str::<RxJsonRpcMessage<RoleServer>>(&text)
                .inspect_err(|e| eprintln!("locus: claude channel: not a JSON-RPC message: {e}"))
                .ok(),
            _ => None,
        })
    });
    let handler = IdeServer {
        served: served.clone(),
        reviews: Arc::default(),
        latest: Arc::default(),
        connected: Arc::default(),
    };
    let reviews = handler.reviews.clone();
    let latest = handler.latest.clone();
    let connected = handler.connected.clone();
    let running = match handler.serve((sink, stream)).await {
        Ok(running) => running,
        Err(e) => return eprintln!("locus: claude channel: the CLI did not initialize: {e}"),
    };
    served.channel.count_agent(true);
    // `selection_changed` as the user moves; the last non-empty selection is kept in `latest`.
    let state = served.state.clone();
    let observe = move || {
        let focus = state.with(|s| Focus::of(&s.snapshot()));
        if let Some(f) = focus.as_ref().filter(|f| !f.is_empty()) {
            *latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(f.clone());
        }
        focus
    };
    let pusher = tokio::spawn(pace::push(
        running.peer().clone(),
        "selection_changed",
        connected,
        observe,
        selection,
    ));
    let mentions = tokio::spawn(push_mentions(running.peer().clone(), served.channel.mentions()));
    let _ = running.waiting().await;
    pusher.abort();
    mentions.abort();
    served.channel.count_agent(false);
    // A CLI that went away decides nothing: its proposals are withdrawn.
    let open: Vec<String> =
        reviews.lock().unwrap_or_else(PoisonError::into_inner).drain().map(|(_, id)| id).collect();
    if let Some(link) = served.info.link() {
        for id in open {
            review::close(link.clone(), &id).await;
        }
    }
}

/// Pushes each range the user sends as `at_mentioned {filePath, lineStart, lineEnd}` (0-based):
/// the CLI puts `@file#L1-2` into the prompt being written.
async fn push_mentions(
    peer: Peer<RoleServer>,
    mut mentions: tokio::sync::broadcast::Receiver<Mention>,
) {
    loop {
        let mention = match mentions.recv().await {
            Ok(m) => m,
            Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
        };
        let params = serde_json::json!({
            "filePath": mention.path, "lineStart": mention.lines.0, "lineEnd": mention.lines.1,
        });
        let notification = CustomNotification::new("at_mentioned", Some(params));
        if peer
            .send_notification(ServerNotification::CustomNotification(notification))
            .await
            .is_err()
        {
            return;
        }
    }
}
