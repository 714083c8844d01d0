//! `watch_add`, `watch_remove`, `watch_list`: the workspace's watch expressions, as VS Code's
//! Watch panel keeps them. Every stop's debugContext carries each one's value (or error),
//! evaluated in the top frame when the stop's context is fetched (`context.rs`).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Debugger, debug_tool, exactly_one, spec};
use crate::{Cx, Effect, ErrorCode, ToolError, WhenToUse};

/// A watch expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Watch {
    pub id: u64,
    pub expression: String,
}

/// Parameters of `watch_add`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddParams {
    /// An expression in the program's language, evaluated in the top frame at every stop.
    #[schemars(example = &"len(items)", length(min = 1))]
    pub expression: String,
}

/// Parameters of `watch_remove`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveParams {
    /// The watch's id (from watch_add or watch_list); or give `expression`.
    #[serde(default)]
    #[schemars(example = 1)]
    pub id: Option<u64>,
    /// The watched expression, as added.
    #[serde(default)]
    #[schemars(example = &"len(items)")]
    pub expression: Option<String>,
}

/// No parameters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

debug_tool!(
    /// `watch_add`: watch an expression at every stop.
    WatchAdd,
    AddParams,
    spec(
        "watch_add",
        "Watch an expression",
        "Add a watch expression: its value (or error) is in the debugContext of every stop, evaluated in the top frame, in every debug session",
        WhenToUse {
            use_for: &["following a value across steps and stops without evaluating it each time"],
            dont_use_for: &["a value needed once (use expression_evaluate)"],
            patterns: &["watch_add, then step: each answer's debugContext.watches has the value"],
        },
        false,
        Effect::Changes
    ),
    add,
    add_summary
);

debug_tool!(
    /// `watch_remove`: stop watching an expression.
    WatchRemove,
    RemoveParams,
    spec(
        "watch_remove",
        "Remove a watch",
        "Remove a watch expression by its id or its text",
        WhenToUse {
            use_for: &["a watch no longer needed"],
            dont_use_for: &["breakpoints (use breakpoint_remove)"],
            patterns: &["watch_list gives the ids"],
        },
        false,
        Effect::Destroys
    ),
    remove,
    remove_summary
);

debug_tool!(
    /// `watch_list`: the watch expressions.
    WatchList,
    NoParams,
    spec(
        "watch_list",
        "List watches",
        "List the watch expressions with their ids, and their values at the current stop",
        WhenToUse {
            use_for: &["the watches and their values now"],
            dont_use_for: &["variables of a frame (use variable_list)"],
            patterns: &["the values are the debugContext's at this stop"],
        },
        false,
        Effect::Reads
    ),
    list,
    list_summary
);

async fn add(d: &Debugger, p: AddParams, _: &Cx) -> Result<Value, ToolError> {
    let expression = p.expression.trim().to_string();
    if expression.is_empty() {
        return Err(ToolError::new(ErrorCode::InvalidParams, "`expression` is empty")
            .with_hint("Give an expression in the program's language, e.g. len(items)"));
    }
    let watch = {
        let mut inner = d.inner.lock().unwrap();
        match inner.watches.iter().find(|w| w.expression == expression) {
            Some(w) => w.clone(),
            None => {
                inner.last_watch += 1;
                let w = Watch { id: inner.last_watch, expression };
                inner.watches.push(w.clone());
                w
            }
        }
    };
    changed(d);
    Ok(json!({"id": watch.id, "expression": watch.expression}))
}

async fn remove(d: &Debugger, p: RemoveParams, _: &Cx) -> Result<Value, ToolError> {
    exactly_one(&[("id", p.id.is_some()), ("expression", p.expression.is_some())], "which watch")?;
    let removed = {
        let mut inner = d.inner.lock().unwrap();
        let at = inner.watches.iter().position(|w| {
            Some(w.id) == p.id
                || p.expression.as_deref().map(str::trim) == Some(w.expression.as_str())
        });
        match at {
            Some(at) => inner.watches.remove(at),
            None => {
                let known: Vec<Value> = inner
                    .watches
                    .iter()
                    .map(|w| json!({"id": w.id, "expression": w.expression}))
                    .collect();
                return Err(ToolError::new(ErrorCode::NotFound, "no such watch")
                    .with_hint("watch_list lists the watches")
                    .with_details(json!({"watches": known})));
            }
        }
    };
    changed(d);
    Ok(json!({"removed": {"id": removed.id, "expression": removed.expression}}))
}

async fn list(d: &Debugger, _: NoParams, _: &Cx) -> Result<Value, ToolError> {
    let watches = d.watches();
    let values = match d.session(None) {
        Ok(live) => super::context::frame0(d, &live).await.ok().map(|f| f.watches),
        Err(_) => None,
    };
    let list: Vec<Value> = watches
        .iter()
        .map(|w| {
            let value = values.iter().flatten().find(|v| v.id == w.id);
            let mut item = json!({"id": w.id, "expression": w.expression});
            if let Some(v) = value {
                item = super::context::watch_json(v);
            }
            item
        })
        .collect();
    Ok(json!({"watches": list}))
}

/// The watches changed: every session's stop context is fetched again, watches included.
fn changed(d: &Debugger) {
    for live in d.sessions() {
        live.cache.change();
    }
}

fn add_summary(d: &Value) -> String {
    format!("Watching {} (watch {})", d["expression"].as_str().unwrap_or("?"), d["id"])
}

fn remove_summary(d: &Value) -> String {
    format!("No longer watching {}", d["removed"]["expression"].as_str().unwrap_or("?"))
}

fn list_summary(d: &Value) -> String {
    let list = d["watches"].as_array().cloned().unwrap_or_default();
    if list.is_empty() {
        return "No watches".into();
    }
    let shown: Vec<String> = list
        .iter()
        .map(|w| match (&w["value"], &w["error"]) {
            (Value::String(v), _) => format!("{} = {v}", w["expression"].as_str().unwrap_or("?")),
            (_, Value::String(e)) => format!("{}: {e}", w["expression"].as_str().unwrap_or("?")),
            _ => w["expression"].as_str().unwrap_or("?").to_string(),
        })
        .collect();
    shown.join("; ")
}
