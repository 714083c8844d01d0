//! Codex CLI: `${CODEX_HOME:-~/.codex}/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`.
//!
//! Each line is a `RolloutLine {timestamp, type, payload}` where `type` is `session_meta`
//! (`id`, `cwd`, …), `turn_context` (`cwd`, model, policies), `response_item` (what went to
//! and came from the model: `message` with `role` and `input_text`/`output_text` parts,
//! function calls, reasoning), `event_msg` (what the UI saw: `user_message`,
//! `agent_message`, `context_compacted`, `token_count`, …) or `compacted`
//! (`{message, replacement_history}`, written when the history is summarised).
//! The oldest rollouts have no envelope: a bare metadata object, then bare items.
//!
//! The user's words are the `event_msg` `user_message` events: exactly what was typed,
//! with images counted. `response_item` user messages also hold what Codex injected
//! (`<environment_context>`, `AGENTS.md` instructions), so they are used, filtered, only
//! for rollouts that have no `user_message` events (the oldest ones).

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::format::{Part, parse_parts, words};
use crate::line::{LineFormat, TimeValue, UnknownKinds, time};
use crate::model::{Track, Transcript};
use crate::text::{strip_ide_context, user_words};
use crate::time::Timestamp;

#[derive(Default)]
pub(crate) struct Codex {
    /// Requests from `response_item` user messages, for rollouts without events.
    fallback: Track,
    unknown: UnknownKinds,
}

#[derive(Deserialize)]
struct Line<'a> {
    timestamp: Option<TimeValue>,
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(borrow)]
    payload: Option<&'a RawValue>,
    // The envelope-less generation: a metadata object, then bare items.
    id: Option<String>,
    role: Option<String>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    record_type: Option<String>,
}

#[derive(Deserialize)]
struct Meta {
    id: Option<String>,
    cwd: Option<String>,
    timestamp: Option<TimeValue>,
}

#[derive(Deserialize)]
struct Cwd {
    cwd: Option<String>,
}

#[derive(Deserialize)]
struct EventKind {
    #[serde(rename = "type")]
    kind: Option<String>,
}

#[derive(Deserialize)]
struct Event {
    message: Option<String>,
    /// `plain`, `user_instructions` or `environment_context` in 2025 builds.
    #[serde(rename = "kind")]
    input_kind: Option<String>,
    images: Option<Vec<serde::de::IgnoredAny>>,
    local_images: Option<Vec<serde::de::IgnoredAny>>,
}

#[derive(Deserialize)]
struct Item<'a> {
    #[serde(rename = "type")]
    kind: Option<String>,
    role: Option<String>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
}

impl LineFormat for Codex {
    fn line(
        &mut self,
        line: &[u8],
        t: &mut Transcript,
        notes: &mut Vec<String>,
    ) -> Result<(), String> {
        let l: Line = serde_json::from_slice(line).map_err(|e| e.to_string())?;
        let ts = time(&l.timestamp);
        t.touch(ts);
        let Some(payload) = l.payload else {
            return self.bare(&l, ts, t);
        };
        let kind = l.kind.as_deref().unwrap_or("");
        match kind {
            "session_meta" => {
                let m: Meta = serde_json::from_str(payload.get())
                    .map_err(|e| format!("session_meta: {e}"))?;
                if let Some(id) = &m.id {
                    t.set_id(id);
                }
                if let Some(cwd) = &m.cwd {
                    t.add_cwd(cwd);
                }
                t.touch(time(&m.timestamp));
            }
            "turn_context" => {
                if let Ok(Cwd { cwd: Some(cwd) }) = serde_json::from_str(payload.get()) {
                    t.add_cwd(&cwd);
                }
            }
            "event_msg" => self.event(payload, ts, t)?,
            "response_item" => {
                let item: Item = serde_json::from_str(payload.get())
                    .map_err(|e| format!("response_item: {e}"))?;
                self.item(&item, ts, t)?;
            }
            "compacted" => self.compaction(ts, t),
            _ => self.unknown.note("rollout line type", kind, notes),
        }
        Ok(())
    }

    fn track<'a>(&'a self, t: &'a Transcript) -> &'a Track {
        if t.track.requests.is_empty() && !self.fallback.requests.is_empty() {
            &self.fallback
        } else {
            &t.track
        }
    }
}

impl Codex {
    fn event(
        &mut self,
        payload: &RawValue,
        ts: Option<Timestamp>,
        t: &mut Transcript,
    ) -> Result<(), String> {
        let head: EventKind =
            serde_json::from_str(payload.get()).map_err(|e| format!("event_msg: {e}"))?;
        match head.kind.as_deref() {
            Some("user_message") => {
                let e: Event = serde_json::from_str(payload.get())
                    .map_err(|e| format!("user_message: {e}"))?;
                if e.input_kind.as_deref().is_some_and(|k| k != "plain") {
                    return Ok(());
                }
                let images = e.images.as_ref().map_or(0, Vec::len)
                    + e.local_images.as_ref().map_or(0, Vec::len);
                let images = u32::try_from(images).unwrap_or(u32::MAX);
                let text = e.message.as_deref().map(strip_ide_context).unwrap_or("");
                match user_words(text) {
                    Some(words) => t.track.push(words, ts, images),
                    None if images > 0 && text.trim().is_empty() => {
                        t.track.push(String::new(), ts, images)
                    }
                    None => {}
                }
            }
            Some("context_compacted") => self.compaction(ts, t),
            Some("token_count") | None => {}
            Some(_) => {
                t.track.activity();
                self.fallback.activity();
            }
        }
        Ok(())
    }

    fn item(
        &mut self,
        item: &Item,
        ts: Option<Timestamp>,
        t: &mut Transcript,
    ) -> Result<(), String> {
        match (item.kind.as_deref(), item.role.as_deref()) {
            (Some("message") | None, Some("user")) => {
                let Some(content) = item.content else { return Ok(()) };
                let parts = parse_parts(content).map_err(|e| format!("message content: {e}"))?;
                // The oldest rollouts carry the working directory only here.
                for part in &parts {
                    if let Part::Text(s) = part
                        && s.trim_start().starts_with("<environment_context>")
                        && let Some(cwd) = tag(s, "cwd")
                    {
                        t.add_cwd(cwd);
                    }
                }
                let parts: Vec<Part> = parts
                    .into_iter()
                    .map(|p| match p {
                        Part::Text(s) => Part::Text(strip_ide_context(&s).to_owned()),
                        other => other,
                    })
                    .collect();
                if let Some((text, images)) = words(&parts) {
                    self.fallback.push(text, ts, images);
                }
            }
            (Some("compaction" | "compaction_summary"), _) => self.compaction(ts, t),
            _ => {
                t.track.activity();
                self.fallback.activity();
            }
        }
        Ok(())
    }

    /// The envelope-less generation: `{id, timestamp, instructions}`, then items.
    fn bare(&mut self, l: &Line, ts: Option<Timestamp>, t: &mut Transcript) -> Result<(), String> {
        if l.record_type.is_some() {
            return Ok(());
        }
        if l.kind.is_none() && l.role.is_none() {
            if let Some(id) = &l.id {
                t.set_id(id);
            }
            return Ok(());
        }
        let item = Item { kind: l.kind.clone(), role: l.role.clone(), content: l.content };
        self.item(&item, ts, t)
    }

    fn compaction(&mut self, ts: Option<Timestamp>, t: &mut Transcript) {
        t.track.compaction(ts);
        self.fallback.compaction(ts);
    }
}

/// The trimmed text between `<name>` and `</name>`.
fn tag<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&close)? + start;
    Some(text[start..end].trim())
}
