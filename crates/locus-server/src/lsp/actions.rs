//! Editor actions (docs/reference/lsp.md): the editor declares what it can do in
//! `initializationOptions.editorActions`; tools ask it with `locus/editorAction` requests
//! `{action, params}`, which it answers `{ok, data}` or with a JSON-RPC error (`-32601` and a
//! `data.hint` for an action it cannot do; any other error is a failure of an action it
//! tried, never "unsupported").
//!
//! **Invariants.**
//! - Every request waits at most the time the tool gives it; an editor that never answers
//!   costs the call its wait, never the server anything.
//! - The positions and URIs of an action are the tool's (`locus-tools` converts them to the
//!   negotiated encoding); this edge only carries JSON and maps errors.
//! - The requests go out from the MCP thread through tower-lsp's client, never from inside a
//!   handler that the client's answer would have to pass (tower-lsp's known deadlock).

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use locus_doc::PositionEncoding;
use locus_tools::{ActionEditor, ActionError};
use serde_json::{Value, json};
use tower_lsp_server::Client;
use tower_lsp_server::jsonrpc::{self, ErrorCode};
use tower_lsp_server::ls_types::notification::Cancel;
use tower_lsp_server::ls_types::request::Request;
use tower_lsp_server::ls_types::{CancelParams, NumberOrString};
use tower_service::Service;

use super::Ctx;
use crate::mcp::host::EditorLink;

/// `locus/editorAction`, Locus → editor.
enum EditorAction {}

impl Request for EditorAction {
    type Params = Value;
    type Result = Value;
    const METHOD: &'static str = "locus/editorAction";
}

/// The action names an editor declared in `initializationOptions.editorActions`; anything
/// else there is logged and left out.
pub(super) fn declared(options: Option<&Value>, ctx: &Ctx) -> Vec<String> {
    let Some(list) = options.and_then(|o| o.get("editorActions")) else { return Vec::new() };
    let Some(list) = list.as_array() else {
        ctx.log.warn(format_args!(
            "initializationOptions.editorActions is not a list of action names: {list}"
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for a in list {
        match a.as_str() {
            Some(name) if !out.iter().any(|o| o == name) => out.push(name.to_string()),
            Some(_) => {}
            None => ctx
                .log
                .warn(format_args!("initializationOptions.editorActions: `{a}` is not a name")),
        }
    }
    out
}

/// The editor's side of editor actions, over the LSP client.
pub(super) struct Link {
    pub(super) client: Client,
    pub(super) ctx: Arc<Ctx>,
    pub(super) name: String,
    pub(super) declared: Vec<String>,
    pub(super) encoding: PositionEncoding,
    /// Whether Locus does `edit.propose` itself, showing proposals as documents
    /// (`super::proposals`).
    pub(super) by_document: bool,
}

/// The action that shows a proposed edit, and the one that withdraws it.
pub(super) const PROPOSE: &str = "edit.propose";
pub(super) const PROPOSE_CLOSE: &str = "edit.propose.close";

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link")
            .field("editor", &self.name)
            .field("declared", &self.declared)
            .finish()
    }
}

impl EditorLink for Link {
    fn editor(&self) -> ActionEditor {
        ActionEditor {
            name: self.name.clone(),
            declared: self.declared.clone(),
            encoding: self.encoding,
        }
    }

    fn request(
        &self,
        action: &str,
        params: Value,
        wait: Duration,
    ) -> BoxFuture<'static, Result<Value, ActionError>> {
        let client = self.client.clone();
        let ctx = self.ctx.clone();
        let action = action.to_string();
        if self.by_document && action == PROPOSE {
            return Box::pin(async move { ctx.proposals.propose(&client, &params, wait).await });
        }
        if self.by_document && action == PROPOSE_CLOSE {
            let id = params.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
            ctx.proposals.withdraw(&id);
            return Box::pin(async { Ok(Value::Null) });
        }
        Box::pin(async move {
            let started = Instant::now();
            ctx.log.debug(format_args!("{}: {action} {params}", EditorAction::METHOD));
            // Built by hand (not `send_request`) to know its id, for `$/cancelRequest`.
            let id = client.next_request_id();
            let request = jsonrpc::Request::build(EditorAction::METHOD)
                .id(id.clone())
                .params(json!({"action": action, "params": params}))
                .finish();
            let sent = client.clone().call(request);
            let result = match tokio::time::timeout(wait, sent).await {
                Err(_) => {
                    ctx.log.warn(format_args!(
                        "{}: the editor did not answer {action} within {} ms; cancelled",
                        EditorAction::METHOD,
                        wait.as_millis()
                    ));
                    if let Some(id) = cancel_id(&id) {
                        client.send_notification::<Cancel>(CancelParams { id }).await;
                    }
                    return Err(ActionError::Timeout(wait));
                }
                // The connection closed before an answer: no editor to act any more.
                Ok(Err(_)) | Ok(Ok(None)) => return Err(ActionError::NoEditor),
                Ok(Ok(Some(response))) => response.into_parts().1,
            };
            ctx.log.debug(format_args!(
                "{}: {action} answered in {:.1} ms",
                EditorAction::METHOD,
                started.elapsed().as_secs_f64() * 1000.0
            ));
            match result {
                Ok(answer) => unwrap_answer(answer),
                Err(e) => Err(match e.code {
                    ErrorCode::MethodNotFound => ActionError::Unsupported {
                        message: e.message.to_string(),
                        hint: e
                            .data
                            .as_ref()
                            .and_then(|d| d.get("hint"))
                            .and_then(Value::as_str)
                            .map(str::to_string),
                    },
                    // The editor found the params wrong (a position off the symbol, a
                    // target that exists): the agent's to fix.
                    ErrorCode::InvalidParams => ActionError::Failed {
                        message: e.message.to_string(),
                        data: Some(with_code(e.data, "E_INVALID_PARAMS")),
                    },
                    // Anything else (-32603, VS Code's -32803 "did not rename", …): the editor
                    // tried and failed; the tool answers the code it named, else E_INTERNAL.
                    _ => ActionError::Failed { message: e.message.to_string(), data: e.data },
                }),
            }
        })
    }
}

/// A JSON-RPC id as `$/cancelRequest` names it.
fn cancel_id(id: &jsonrpc::Id) -> Option<NumberOrString> {
    match id {
        jsonrpc::Id::Number(n) => i32::try_from(*n).ok().map(NumberOrString::Number),
        jsonrpc::Id::String(s) => Some(NumberOrString::String(s.clone())),
        jsonrpc::Id::Null => None,
    }
}

/// `data` with `code` set unless the editor set one.
fn with_code(data: Option<Value>, code: &str) -> Value {
    match data {
        Some(Value::Object(mut o)) => {
            o.entry("code").or_insert_with(|| json!(code));
            Value::Object(o)
        }
        Some(other) => json!({"code": code, "data": other}),
        None => json!({"code": code}),
    }
}

/// `{ok: true, data}` → `data`; `{ok: false, error}` → the editor's failure; anything else is
/// taken as the data itself (lenient with editors).
fn unwrap_answer(answer: Value) -> Result<Value, ActionError> {
    match answer.get("ok").and_then(Value::as_bool) {
        Some(true) => Ok(answer.get("data").cloned().unwrap_or(Value::Null)),
        Some(false) => {
            let error = answer.get("error").cloned().unwrap_or(Value::Null);
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .or_else(|| error.as_str())
                .unwrap_or("the editor reported a failure")
                .to_string();
            Err(ActionError::Failed { message, data: Some(error) })
        }
        None => Ok(answer),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_unwrapped_leniently() {
        assert_eq!(unwrap_answer(json!({"ok": true, "data": {"a": 1}})), Ok(json!({"a": 1})));
        assert_eq!(unwrap_answer(json!({"ok": true})), Ok(Value::Null));
        assert_eq!(unwrap_answer(json!([1])), Ok(json!([1])));
        let Err(ActionError::Failed { message, .. }) =
            unwrap_answer(json!({"ok": false, "error": {"message": "no provider"}}))
        else {
            panic!("a failure")
        };
        assert_eq!(message, "no provider");
    }
}
