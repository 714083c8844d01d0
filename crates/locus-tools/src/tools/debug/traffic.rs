//! `debug_traffic`: a session's recent DAP messages, both ways, for diagnosing an adapter (what
//! it was asked, what it answered, which events it sent, in order), paged and cut to the
//! answer budget.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Debugger, debug_tool, spec};
use crate::{Cx, Effect, ToolError, WhenToUse};

/// How many messages a page holds unless `limit` says otherwise.
const DEFAULT_LIMIT: usize = 20;

/// Parameters of `debug_traffic`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TrafficParams {
    /// The session (`s1`, …); the most recent when omitted.
    #[serde(rename = "sessionId", default)]
    #[schemars(example = &"s1")]
    pub session_id: Option<String>,
    /// The index of the first message (the previous page's `nextFrom`); the oldest kept when
    /// omitted. The last 500 messages are kept.
    #[serde(default)]
    #[schemars(example = 0)]
    pub from: Option<u64>,
    /// At most this many messages (default 20, at most 200).
    #[serde(default)]
    #[schemars(example = 20, range(min = 1, max = 200))]
    pub limit: Option<u32>,
    /// The child session's connection (js-debug runs the program in one) instead of the
    /// session's own.
    #[serde(default)]
    #[schemars(example = false)]
    pub child: Option<bool>,
}

debug_tool!(
    /// `debug_traffic`: the recent DAP messages of a session.
    DebugTraffic,
    TrafficParams,
    spec(
        "debug_traffic",
        "Debug adapter traffic",
        "List a debug session's recent DAP messages with its adapter, both ways and in order (requests, responses, events), each with its JSON",
        WhenToUse {
            use_for: &[
                "diagnosing a debug adapter that misbehaves: what it was asked and what it answered",
            ],
            dont_use_for: &["the program's state (use debug_status, stack_list, variable_list)"],
            patterns: &["page with `from` = the previous answer's nextFrom"],
        },
        false,
        Effect::Reads
    ),
    traffic,
    traffic_summary
);

async fn traffic(d: &Debugger, p: TrafficParams, cx: &Cx) -> Result<Value, ToolError> {
    let live = d.session(p.session_id.as_deref())?;
    let child = p.child == Some(true);
    let session = match child {
        true => live.session.child().ok_or_else(|| {
            ToolError::new(crate::ErrorCode::NotFound, "this session has no child session")
                .with_hint("Leave out `child`: only js-debug runs the program in a child session")
        })?,
        false => live.session.clone(),
    };
    let limit = p.limit.map_or(DEFAULT_LIMIT, |l| l as usize).clamp(1, 200);
    let page = session.client().traffic(p.from.unwrap_or(0), limit);
    let mut messages: Vec<Value> = page
        .entries
        .iter()
        .map(|e| {
            json!({"index": e.index, "atMs": (e.at_ms * 10.0).round() / 10.0, "direction": e.direction.as_str(),
                   "kind": e.kind, "name": e.name, "seq": e.seq, "requestSeq": e.request_seq,
                   "success": e.success, "bytes": e.bytes, "json": e.json})
        })
        .collect();
    // The page ends where the answer budget does.
    let context = cx.editor_context.as_deref().map(crate::editor_context_json);
    let room = crate::budget::room(cx.answer_budget, &context).saturating_sub(400);
    let whole = crate::budget::json_len(&messages);
    crate::budget::end_page(&mut messages, whole, room);
    let next = page.entries.get(messages.len()).map(|e| e.index).or_else(|| {
        let end = page.entries.last()?.index + 1;
        (end < page.total).then_some(end)
    });
    Ok(json!({
        "sessionId": live.id,
        "connection": if child { "child" } else { "session" },
        "messages": messages,
        "oldest": page.oldest,
        "total": page.total,
        "nextFrom": next,
    }))
}

fn traffic_summary(d: &Value) -> String {
    let n = d["messages"].as_array().map_or(0, Vec::len);
    let more = match d["nextFrom"].as_u64() {
        Some(next) => format!("; more from {next}"),
        None => String::new(),
    };
    format!(
        "{n} of {} DAP messages of session {}{more}",
        d["total"],
        d["sessionId"].as_str().unwrap_or("?")
    )
}
