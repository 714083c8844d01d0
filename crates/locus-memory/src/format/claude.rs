//! Claude Code: `${CLAUDE_CONFIG_DIR:-~/.claude}/projects/<escaped-cwd>/<sessionId>.jsonl`.
//!
//! One record per line with `type` (`user`, `assistant`, `system`, `summary`,
//! `custom-title`, `attachment`, `file-history-snapshot`, …), `uuid`, `cwd`, `timestamp`
//! and, for messages, `message: {role, content}` where `content` is a string or a list of
//! parts (`text`, `image`, `tool_result`, …).
//!
//! A `user` record is the user's request unless the harness wrote it: `isMeta` (hook
//! feedback, command expansions), `isCompactSummary` (the model's summary after a
//! compaction), `isSidechain` (a subagent's prompt), `isVisibleInTranscriptOnly`,
//! `toolUseResult` or `tool_result` parts (tool output), an `origin.kind` other than
//! `human`, or text that is a harness wrapper (see [`crate::text`]).
//! A compaction is a `system` record with `subtype: "compact_boundary"`, followed by the
//! summary record; the two count as one.
//! A prompt queued while the agent worked arrives as an `attachment` record of type
//! `queued_command`, and counts as a request.

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::format::{Part, parse_parts, words};
use crate::line::{LineFormat, TimeValue, UnknownKinds, time};
use crate::model::Transcript;
use crate::text::user_words;

#[derive(Default)]
pub(crate) struct Claude {
    /// Request uuids seen, since a resumed session may repeat records.
    seen: HashSet<String>,
    /// The text of the last request when it came from a queued-command attachment: the
    /// same prompt may follow as a plain user record.
    queued: Option<String>,
    unknown: UnknownKinds,
}

#[derive(Deserialize)]
struct Record<'a> {
    #[serde(rename = "type")]
    kind: Option<String>,
    subtype: Option<String>,
    uuid: Option<String>,
    cwd: Option<String>,
    timestamp: Option<TimeValue>,
    #[serde(rename = "isMeta")]
    is_meta: Option<bool>,
    #[serde(rename = "isCompactSummary")]
    is_compact_summary: Option<bool>,
    #[serde(rename = "isSidechain")]
    is_sidechain: Option<bool>,
    #[serde(rename = "isVisibleInTranscriptOnly")]
    transcript_only: Option<bool>,
    #[serde(rename = "isSynthetic")]
    is_synthetic: Option<bool>,
    #[serde(rename = "toolUseResult")]
    tool_use_result: Option<serde::de::IgnoredAny>,
    origin: Option<Origin>,
    #[serde(borrow)]
    message: Option<&'a RawValue>,
    summary: Option<String>,
    #[serde(rename = "customTitle")]
    custom_title: Option<String>,
    #[serde(borrow)]
    attachment: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Origin {
    kind: Option<String>,
}

#[derive(Deserialize)]
struct Message<'a> {
    role: Option<String>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Attachment {
    #[serde(rename = "type")]
    kind: Option<String>,
    prompt: Option<String>,
    #[serde(rename = "commandMode")]
    command_mode: Option<String>,
    origin: Option<Origin>,
}

/// How the compaction summary opens.
const CONTINUED: &str = "This session is being continued from a previous conversation";

const KNOWN: &[&str] = &[
    "user",
    "assistant",
    "system",
    "summary",
    "custom-title",
    "attachment",
    "file-history-snapshot",
    "progress",
    "queue-operation",
    "result",
];

impl LineFormat for Claude {
    fn line(
        &mut self,
        line: &[u8],
        t: &mut Transcript,
        notes: &mut Vec<String>,
    ) -> Result<(), String> {
        let r: Record = serde_json::from_slice(line).map_err(|e| e.to_string())?;
        let ts = time(&r.timestamp);
        t.touch(ts);
        if let Some(cwd) = &r.cwd {
            t.add_cwd(cwd);
        }
        let kind = r.kind.as_deref().unwrap_or("");
        match kind {
            "user" => self.user(&r, ts, t)?,
            "assistant" | "progress" | "result" => t.track.activity(),
            "system" => {
                if r.subtype.as_deref() == Some("compact_boundary") {
                    t.track.compaction(ts);
                }
            }
            "summary" => {
                if let Some(s) = r.summary.filter(|s| !s.trim().is_empty()) {
                    t.summary_title = Some(s);
                }
            }
            "custom-title" => {
                if let Some(s) = r.custom_title.filter(|s| !s.trim().is_empty()) {
                    t.custom_title = Some(s);
                }
            }
            "attachment" => self.attachment(&r, ts, t),
            _ if KNOWN.contains(&kind) => {}
            _ => self.unknown.note("record type", kind, notes),
        }
        Ok(())
    }
}

impl Claude {
    fn user(
        &mut self,
        r: &Record,
        ts: Option<crate::time::Timestamp>,
        t: &mut Transcript,
    ) -> Result<(), String> {
        if r.is_compact_summary == Some(true) {
            t.track.compaction(ts);
            return Ok(());
        }
        let harness = r.is_meta == Some(true)
            || r.is_sidechain == Some(true)
            || r.transcript_only == Some(true)
            || r.is_synthetic == Some(true)
            || r.tool_use_result.is_some()
            || r.origin.as_ref().and_then(|o| o.kind.as_deref()).is_some_and(|k| k != "human");
        let Some(message) = r.message.filter(|_| !harness) else { return Ok(()) };
        let message: Message =
            serde_json::from_str(message.get()).map_err(|e| format!("message: {e}"))?;
        if message.role.as_deref().is_some_and(|role| role != "user") {
            return Ok(());
        }
        let Some(content) = message.content else { return Ok(()) };
        let parts = parse_parts(content).map_err(|e| format!("message content: {e}"))?;
        // A record holding tool results is the harness reporting back, whatever else it holds.
        if parts.iter().any(|p| matches!(p, Part::ToolResult)) {
            return Ok(());
        }
        // Older builds wrote the compaction summary without `isCompactSummary`.
        if parts.iter().any(|p| matches!(p, Part::Text(s) if s.trim_start().starts_with(CONTINUED)))
        {
            t.track.compaction(ts);
            return Ok(());
        }
        let Some((text, images)) = words(&parts) else { return Ok(()) };
        if let Some(uuid) = &r.uuid
            && !self.seen.insert(uuid.clone())
        {
            return Ok(());
        }
        if self.queued.take().is_some_and(|q| q == text) {
            return Ok(());
        }
        t.track.push(text, ts, images);
        Ok(())
    }

    fn attachment(&mut self, r: &Record, ts: Option<crate::time::Timestamp>, t: &mut Transcript) {
        let Some(raw) = r.attachment else { return };
        let Ok(a) = serde_json::from_str::<Attachment>(raw.get()) else { return };
        let human = a.origin.as_ref().and_then(|o| o.kind.as_deref()).is_none_or(|k| k == "human");
        if a.kind.as_deref() != Some("queued_command")
            || !human
            || a.command_mode.as_deref().is_some_and(|m| m != "prompt")
        {
            return;
        }
        if let Some(text) = a.prompt.as_deref().and_then(user_words) {
            self.queued = Some(text.clone());
            t.track.push(text, ts, 0);
        }
    }
}
