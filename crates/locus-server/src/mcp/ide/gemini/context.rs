//! The editor's context as Gemini CLI reads it (`ide/contextUpdate`): the open files, the most
//! recent first and at most ten, the active one with its cursor (1-based line and column) and
//! selected text.

use locus_doc::PositionEncoding;
use serde_json::{Value, json};

use crate::state::Snapshot;

/// The files the CLI keeps.
const MAX_FILES: usize = 10;
/// The selected text the CLI keeps (it cuts the rest).
const MAX_SELECTED: usize = 16 * 1024;

/// The `workspaceState` of `snapshot`; the files' timestamps count down from `now_ms`, in the
/// order of their last use (the CLI only orders by them).
pub fn workspace_state(snapshot: &Snapshot, now_ms: u64) -> Value {
    let active = snapshot.active.as_deref();
    let mut documents: Vec<_> =
        snapshot.documents.iter().filter(|d| d.uri.starts_with("file:")).collect();
    // The active file first, whatever was touched last: the CLI takes the newest for it.
    documents.sort_by_key(|d| Some(d.uri.as_str()) != active);
    let files: Vec<Value> = documents
        .into_iter()
        .take(MAX_FILES)
        .enumerate()
        .map(|(i, d)| {
            let mut file = json!({"path": d.path, "timestamp": now_ms.saturating_sub(i as u64)});
            if Some(d.uri.as_str()) == active {
                let at = d.doc.position_at(d.cursor, PositionEncoding::Utf16);
                file["isActive"] = json!(true);
                file["cursor"] = json!({"line": at.line + 1, "character": at.character + 1});
                if let Some(s) = d.selection {
                    let end = d.doc.floor_char_boundary(s.end.min(s.start + MAX_SELECTED * 4));
                    let text: String =
                        d.doc.slice(s.start, end).chars().take(MAX_SELECTED).collect();
                    file["selectedText"] = json!(text);
                }
            }
            file
        })
        .collect();
    json!({"workspaceState": {"openFiles": files, "isTrusted": true}})
}
