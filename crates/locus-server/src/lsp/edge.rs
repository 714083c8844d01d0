//! The service in front of tower-lsp's router.
//!
//! tower-lsp runs up to four handlers at once and drops notifications whose params do not
//! parse without a word. Locus needs edits applied strictly in order and malformed input
//! logged, so [`Edge`] handles the messages that touch the editor state itself, synchronously
//! in `call` — which the read loop invokes once per message, in arrival order — and passes
//! everything else to tower-lsp.

use std::sync::Arc;
use std::task::{Context, Poll};

use futures_util::FutureExt;
use futures_util::future::{self, BoxFuture};
use serde_json::{Value, json};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Id, Request, Response};
use tower_lsp_server::{ExitedError, LanguageServer, LspService};
use tower_service::Service;

use super::transport::{INVALID_MESSAGE, OPENED};
use super::wire::{self, parse};
use super::{Ctx, guard, not_initialized};
use crate::proto;
use crate::state::{ContextQuery, CursorUpdate, SymbolsOutcome};

/// Notifications Locus applies itself, in order.
const NOTIFICATIONS: &[&str] = &[
    "textDocument/didOpen",
    "textDocument/didChange",
    "textDocument/didClose",
    "textDocument/didSave",
    "locus/didChangeCursor",
    "locus/didChangeActiveEditor",
    "locus/didChangeSymbols",
    OPENED,
];

/// Requests Locus answers itself, in order with the notifications around them.
const REQUESTS: &[&str] = &["locus/getContext", "locus/debugText", "locus/debugState"];

/// Closing this many bytes of documents hands freed memory back to the system.
const TRIM_AFTER_BYTES: usize = 8 << 20;

pub struct Edge<S: LanguageServer> {
    inner: LspService<S>,
    ctx: Arc<Ctx>,
    closed_bytes: usize,
}

impl<S: LanguageServer> Edge<S> {
    pub fn new(inner: LspService<S>, ctx: Arc<Ctx>) -> Self {
        Edge { inner, ctx, closed_bytes: 0 }
    }

    fn notification(&mut self, method: &str, params: Option<Value>) {
        let ctx = self.ctx.clone();
        // A `didOpen` the transport decoded (see `transport`), taken whatever happens next.
        let (method, decoded) = match method {
            OPENED => {
                let key = params.as_ref().and_then(|p| p["key"].as_u64());
                ("textDocument/didOpen", Some(key.and_then(|key| ctx.take_opened(key))))
            }
            _ => (method, None),
        };
        {
            let session = ctx.session();
            if !session.initialized || session.shutdown {
                drop(session);
                ctx.log.warn(format_args!(
                    "ignoring {method}: the server is not initialized or is shutting down"
                ));
                return;
            }
        }
        let encoding = ctx.encoding();
        let log = &ctx.log;
        let malformed =
            |e: String| log.warn(format_args!("ignoring {method}: malformed params: {e}"));
        guard(log, method, || match method {
            "textDocument/didOpen" => match decoded {
                Some(Some(p)) => open(&ctx, p),
                Some(None) => malformed("no decoded document under this key".into()),
                None => match parse::<wire::DidOpen>(params) {
                    Ok(p) => open(&ctx, p),
                    Err(e) => malformed(e),
                },
            },
            "textDocument/didChange" => match parse::<wire::DidChange>(params) {
                Ok(p) => {
                    let uri = p.text_document.uri.clone();
                    let version = p.text_document.version;
                    let changes = p.changes();
                    match ctx.state.with(|s| s.change(&uri, version, &changes, encoding)) {
                        Ok(outcome) if outcome.version_regressed => log.warn(format_args!(
                            "didChange of {uri}: version {} after {} (applied anyway)",
                            version.unwrap_or_default(),
                            outcome.previous_version
                        )),
                        Ok(_) => {
                            if log.enabled(super::Level::Trace) {
                                log.log(
                                    super::Level::Trace,
                                    format_args!("changed {uri} to version {version:?}"),
                                );
                            }
                        }
                        Err(e) => log.warn(format_args!("didChange: {e}")),
                    }
                }
                Err(e) => malformed(e),
            },
            "textDocument/didClose" => match parse::<wire::DidClose>(params) {
                Ok(p) => match ctx.state.with(|s| s.close(&p.text_document.uri)) {
                    Ok(bytes) => {
                        log.debug(format_args!("closed {}", p.text_document.uri));
                        self.closed_bytes += bytes;
                        let empty = ctx.state.with(|s| s.is_empty());
                        if self.closed_bytes >= TRIM_AFTER_BYTES || (empty && self.closed_bytes > 0)
                        {
                            self.closed_bytes = 0;
                            locus_platform::heap::trim();
                        }
                    }
                    Err(e) => log.warn(format_args!("didClose: {e}")),
                },
                Err(e) => malformed(e),
            },
            "textDocument/didSave" => match parse::<wire::DidSave>(params) {
                Ok(p) => {
                    if let Err(e) =
                        ctx.state.with(|s| s.saved(&p.text_document.uri, p.text.as_deref()))
                    {
                        log.warn(format_args!("didSave: {e}"));
                    }
                }
                Err(e) => malformed(e),
            },
            "locus/didChangeCursor" => match parse::<wire::DidChangeCursor>(params) {
                Ok(p) => {
                    let update = CursorUpdate {
                        version: p.text_document.version,
                        position: p.position.into(),
                        selections: p.selections.into_iter().map(Into::into).collect(),
                        encoding,
                    };
                    let result = ctx.state.with(|s| {
                        s.set_cursor_plugin(true);
                        s.set_cursor(&p.text_document.uri, update)
                    });
                    if let Err(e) = result {
                        log.warn(format_args!("locus/didChangeCursor: {e}"));
                    }
                }
                Err(e) => malformed(e),
            },
            "locus/didChangeActiveEditor" => match parse::<wire::DidChangeActiveEditor>(params) {
                Ok(p) => {
                    let uri = p.text_document.map(|d| d.uri);
                    let focused = p.focused.unwrap_or(true);
                    log.debug(format_args!(
                        "active editor: {} (focused: {focused})",
                        uri.as_deref().unwrap_or("none")
                    ));
                    ctx.state.with(|s| match (&uri, p.focused) {
                        // Focus left without naming a document: the last text editor stays.
                        (None, Some(false)) => s.set_focused(false),
                        _ => s.set_active(uri.as_deref(), focused),
                    });
                }
                Err(e) => malformed(e),
            },
            "locus/didChangeSymbols" => match parse::<wire::DidChangeSymbols>(params) {
                Ok(p) => {
                    let Some(version) = p.text_document.version else {
                        return malformed("textDocument.version is required".into());
                    };
                    let symbol_encoding = match p.position_encoding.as_deref() {
                        None => encoding,
                        Some(name) => match locus_doc::PositionEncoding::from_lsp_str(name) {
                            Some(e) => e,
                            None => return malformed(format!("unknown positionEncoding `{name}`")),
                        },
                    };
                    let (symbols, skipped) = p.symbols();
                    if skipped > 0 {
                        log.warn(format_args!(
                            "locus/didChangeSymbols: skipped {skipped} malformed symbol(s)"
                        ));
                    }
                    let uri = &p.text_document.uri;
                    match ctx.state.with(|s| s.set_symbols(uri, version, symbols, symbol_encoding)) {
                        Ok(SymbolsOutcome::Stale { current }) => log.debug(format_args!(
                            "symbols of {uri} for version {version} are stale (the mirror is at {current}): dropped"
                        )),
                        Ok(outcome) => log.debug(format_args!("symbols of {uri} for version {version}: {outcome:?}")),
                        Err(e) => log.warn(format_args!("locus/didChangeSymbols: {e}")),
                    }
                }
                Err(e) => malformed(e),
            },
            _ => unreachable!("only listed notifications come here"),
        });
    }

    fn request(&self, method: &str, params: Option<Value>) -> Result<Value, Error> {
        {
            let session = self.ctx.session();
            if !session.initialized {
                return Err(not_initialized());
            }
            if session.shutdown {
                return Err(Error::invalid_request());
            }
        }
        let ctx = &self.ctx;
        let encoding = ctx.encoding();
        let answer = guard(&ctx.log, method, || {
            match method {
            "locus/getContext" => {
                let p: wire::GetContext = match params {
                    None | Some(Value::Null) => wire::GetContext::default(),
                    Some(v) => parse(Some(v)).map_err(Error::invalid_params)?,
                };
                let uri = p.text_document.as_ref().map(|d| d.uri.as_str());
                let query = ContextQuery { uri, position: p.position.map(Into::into), encoding };
                // Taken under the lock, built after it: MCP readers do not wait behind an
                // outline update of a new version.
                match ctx.state.with(|s| s.context_pending(query)).map(|p| p.map(|p| p.build())) {
                    Ok(Some(context)) => Ok(proto::editor_context(&context)),
                    Ok(None) => Ok(Value::Null),
                    Err(e) => Err(Error::invalid_params(e.to_string())),
                }
            }
            "locus/debugText" => {
                let p: wire::DebugText = parse(params).map_err(Error::invalid_params)?;
                let uri = p.text_document.uri;
                match ctx.state.with(|s| s.text(&uri)) {
                    Some((version, text)) => Ok(json!({"uri": uri, "version": version, "text": text})),
                    None => Err(Error::invalid_params(format!("no open document has the URI `{uri}`"))),
                }
            }
            "locus/debugState" => Ok(ctx.state.with(|s| {
                let snapshot = s.snapshot();
                let documents: Vec<Value> = snapshot
                    .documents
                    .iter()
                    .map(|d| {
                        json!({"uri": d.uri, "path": d.path, "languageId": d.language_id, "version": d.doc.version(),
                               "isDirty": d.is_dirty, "lineCount": d.doc.line_count(), "bytes": d.doc.len_bytes(),
                               "cursorOffset": d.cursor, "selection": d.selection.map(|s| [s.start, s.end])})
                    })
                    .collect();
                json!({"open": s.len(), "active": snapshot.active, "cursorPlugin": s.cursor_plugin(),
                       "folders": snapshot.folders, "documents": documents})
            })),
            _ => unreachable!("only listed requests come here"),
        }
        });
        answer.unwrap_or_else(|| Err(Error::internal_error()))
    }
}

impl<S: LanguageServer> Service<Request> for Edge<S> {
    type Response = Option<Response>;
    type Error = ExitedError;
    type Future = BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        let method = req.method();
        if method == INVALID_MESSAGE {
            // What the transport put in place of a message that could not be decoded.
            let (_, _, params) = req.into_parts();
            let params = params.unwrap_or(Value::Null);
            let id: Id = serde_json::from_value(params["id"].clone()).unwrap_or(Id::Null);
            let code = params["code"].as_i64().unwrap_or(-32700);
            let mut error = Error::new(ErrorCode::from(code));
            error.data = params.get("message").cloned();
            return future::ok(Some(Response::from_error(id, error))).boxed();
        }
        if method == "initialized" {
            // Here, on the read loop's thread, before any later message: tower-lsp polls its
            // `initialized` handler only after it has read on, and a `didOpen` sent right
            // after (VS Code does) would parse first.
            locus_platform::heap::warm();
        }
        if req.id().is_none() && NOTIFICATIONS.contains(&method) {
            let (method, _, params) = req.into_parts();
            self.notification(&method, params);
            return future::ok(None).boxed();
        }
        if req.id().is_some() && REQUESTS.contains(&method) {
            let (method, id, params) = req.into_parts();
            let id = id.expect("checked above");
            let body = self.request(&method, params);
            if let Err(e) = &body {
                self.ctx.log.warn(format_args!("{method} failed: {e}"));
            }
            return future::ok(Some(Response::from_parts(id, body))).boxed();
        }
        let method = method.to_string();
        let ctx = self.ctx.clone();
        let fut = self.inner.call(req);
        async move {
            let response = fut.await?;
            if let Some(e) = response.as_ref().and_then(Response::error) {
                ctx.log.warn(format_args!("{method} failed: {e}"));
            }
            Ok(response)
        }
        .boxed()
    }
}

/// Mirrors an opened document (and parses it).
fn open(ctx: &Ctx, p: wire::DidOpen) {
    let d = p.text_document;
    let existed = ctx.state.with(|s| s.open(&d.uri, &d.language_id, d.version, &d.text));
    if existed {
        ctx.log.warn(format_args!("didOpen of {} which was open already: replaced", d.uri));
    }
    ctx.log.debug(format_args!(
        "opened {} ({}, version {}, {} bytes)",
        d.uri,
        d.language_id,
        d.version,
        d.text.len()
    ));
}
