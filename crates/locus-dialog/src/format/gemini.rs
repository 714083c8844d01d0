//! Gemini CLI: `~/.gemini/tmp/<project>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl`.
//!
//! The first line is the metadata `{sessionId, projectHash, startTime, lastUpdated, kind,
//! directories}`. Then come messages `{id, timestamp, type, content, displayContent}` with
//! `type` one of `user`, `gemini`, `info`, `error`, `warning`, and `content` a string, a
//! part or a list of parts. A message written again with the same `id` replaces the
//! earlier one in place. `{"$set": {…}}` patches the metadata (`lastUpdated`, `summary`,
//! and `messages`, the whole history when the CLI rewrites it after compressing it);
//! `{"$rewindTo": id}` removes that message and all after it.
//!
//! The `<project>` directory is a short name recorded in `~/.gemini/projects.json` and in
//! the directory's `.project_root`, or in older builds the SHA-256 of the project root.
//! The older whole-file `.json` session has the same fields with a `messages` array.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::BufReader;
use std::marker::PhantomData;
use std::path::Path;

use serde::Deserialize;
use serde::de::{Deserializer, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::format::{Part, parse_parts, words};
use crate::line::{LineFormat, TimeValue, UnknownKinds, time};
use crate::model::Transcript;
use crate::time::Timestamp;

#[derive(Default)]
pub(crate) struct Gemini {
    /// Message ids in the order they first appeared.
    order: Vec<String>,
    /// Position in `order` of each id.
    position: HashMap<String, usize>,
    /// For each request, its message's position in `order`.
    request_at: Vec<usize>,
    unknown: UnknownKinds,
}

#[derive(Deserialize)]
struct Record<'a> {
    #[serde(rename = "$rewindTo")]
    rewind_to: Option<String>,
    #[serde(rename = "$set", borrow)]
    set: Option<&'a RawValue>,
    id: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    timestamp: Option<TimeValue>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    #[serde(rename = "displayContent", borrow)]
    display_content: Option<&'a RawValue>,
    #[serde(rename = "sessionId")]
    session_id: Option<String>,
    #[serde(rename = "startTime")]
    start_time: Option<TimeValue>,
    #[serde(rename = "lastUpdated")]
    last_updated: Option<TimeValue>,
    summary: Option<String>,
}

#[derive(Deserialize)]
struct Set {
    #[serde(rename = "lastUpdated")]
    last_updated: Option<TimeValue>,
    summary: Option<String>,
    messages: Option<Vec<MessageId>>,
}

#[derive(Deserialize)]
struct MessageId {
    id: Option<String>,
}

/// A message reduced to what recall needs.
struct Message {
    id: String,
    kind: String,
    timestamp: Option<Timestamp>,
    /// The user's words and image count, for user messages only.
    words: Option<(String, u32)>,
}

const KNOWN: &[&str] = &["user", "gemini", "model", "info", "error", "warning"];

impl LineFormat for Gemini {
    fn line(
        &mut self,
        line: &[u8],
        t: &mut Transcript,
        notes: &mut Vec<String>,
    ) -> Result<(), String> {
        let r: Record = serde_json::from_slice(line).map_err(|e| e.to_string())?;
        if let Some(id) = &r.rewind_to {
            self.rewind(id, t);
        } else if let Some(id) = r.id.clone() {
            let m = message(id, &r)?;
            if !KNOWN.contains(&m.kind.as_str()) {
                self.unknown.note("message type", &m.kind, notes);
            }
            self.message(m, t);
        } else if let Some(set) = r.set {
            let set: Set = serde_json::from_str(set.get()).map_err(|e| format!("$set: {e}"))?;
            let ts = time(&set.last_updated);
            t.touch(ts);
            if let Some(s) = set.summary.filter(|s| !s.trim().is_empty()) {
                t.summary_title = Some(s);
            }
            if let Some(messages) = set.messages {
                self.history(messages.into_iter().filter_map(|m| m.id).collect(), ts, t);
            }
        } else if let Some(id) = &r.session_id {
            t.set_id(id);
            t.touch(time(&r.start_time));
            t.touch(time(&r.last_updated));
            if let Some(s) = r.summary.filter(|s| !s.trim().is_empty()) {
                t.summary_title = Some(s);
            }
        } else {
            notes.push("record of unknown shape skipped".into());
        }
        Ok(())
    }
}

impl Gemini {
    fn message(&mut self, m: Message, t: &mut Transcript) {
        t.touch(m.timestamp);
        if let Some(&at) = self.position.get(&m.id) {
            // Written again: replace in place.
            if let Some(i) = self.request_at.iter().position(|&p| p == at)
                && let Some((text, images)) = m.words
            {
                let r = &mut t.track.requests[i];
                r.text = text;
                r.images = images;
            }
            return;
        }
        self.position.insert(m.id.clone(), self.order.len());
        self.order.push(m.id);
        match m.words {
            Some((text, images)) if m.kind == "user" => {
                self.request_at.push(self.order.len() - 1);
                t.track.push(text, m.timestamp, images);
            }
            _ => t.track.activity(),
        }
    }

    /// `$rewindTo`: the message and everything after it are gone; an unknown id clears all.
    fn rewind(&mut self, id: &str, t: &mut Transcript) {
        let at = self.position.get(id).copied().unwrap_or(0);
        for gone in self.order.drain(at..) {
            self.position.remove(&gone);
        }
        let keep = self.request_at.iter().take_while(|&&p| p < at).count();
        self.request_at.truncate(keep);
        t.track.truncate(keep);
    }

    /// `$set.messages`: the CLI rewrote the history. When requests the user made are no
    /// longer in it, it was compressed: a compaction. The requests stay recalled.
    fn history(&mut self, ids: Vec<String>, ts: Option<Timestamp>, t: &mut Transcript) {
        let present: HashSet<&str> = ids.iter().map(String::as_str).collect();
        let dropped = self.request_at.iter().any(|&p| !present.contains(self.order[p].as_str()));
        if dropped {
            t.track.compaction(ts);
        }
        for id in ids {
            if !self.position.contains_key(&id) {
                self.position.insert(id.clone(), self.order.len());
                self.order.push(id);
            }
        }
    }
}

fn message(id: String, r: &Record) -> Result<Message, String> {
    let kind = r.kind.clone().unwrap_or_default();
    let mut words_of = None;
    if kind == "user" {
        let content = match r.content {
            Some(c) => parse_parts(c).map_err(|e| format!("content: {e}"))?,
            None => Vec::new(),
        };
        // `displayContent` is what the user typed when `content` was expanded (`@file`
        // contents inlined); images still come from `content`.
        let display = match r.display_content {
            Some(c) if c.get() != "null" => {
                Some(parse_parts(c).map_err(|e| format!("displayContent: {e}"))?)
            }
            _ => None,
        };
        let is_tool_result = content.iter().any(|p| matches!(p, Part::ToolResult));
        if !is_tool_result {
            let images = content.iter().filter(|p| matches!(p, Part::Image)).count() as u32;
            let text_parts = display.unwrap_or(content);
            words_of = words(&text_parts).map(|(text, own_images)| (text, own_images.max(images)));
            if words_of.is_none() && images > 0 {
                words_of = Some((String::new(), images));
            }
        }
    }
    Ok(Message { id, kind, timestamp: time(&r.timestamp), words: words_of })
}

/// The older whole-file session, read by streaming: messages are reduced one by one.
pub(crate) fn read_json(path: &Path) -> Result<Transcript, String> {
    #[derive(Deserialize)]
    struct Session {
        #[serde(rename = "sessionId")]
        session_id: Option<String>,
        #[serde(rename = "startTime")]
        start_time: Option<TimeValue>,
        #[serde(rename = "lastUpdated")]
        last_updated: Option<TimeValue>,
        summary: Option<String>,
        #[serde(default, deserialize_with = "lite_messages")]
        messages: Vec<Message>,
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let s: Session = serde_json::from_reader(BufReader::with_capacity(1 << 20, file))
        .map_err(|e| e.to_string())?;
    let mut t = Transcript::default();
    let mut g = Gemini::default();
    if let Some(id) = &s.session_id {
        t.set_id(id);
    }
    t.touch(time(&s.start_time));
    t.touch(time(&s.last_updated));
    t.summary_title = s.summary.filter(|s| !s.trim().is_empty());
    for m in s.messages {
        g.message(m, &mut t);
    }
    Ok(t)
}

fn lite_messages<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Message>, D::Error> {
    #[derive(Deserialize)]
    struct Owned {
        id: Option<String>,
        #[serde(rename = "type")]
        kind: Option<String>,
        timestamp: Option<TimeValue>,
        content: Option<Box<RawValue>>,
        #[serde(rename = "displayContent")]
        display_content: Option<Box<RawValue>>,
    }
    struct Lite(PhantomData<Message>);
    impl<'de> Visitor<'de> for Lite {
        type Value = Vec<Message>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a list of messages")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Message>, A::Error> {
            let mut out = Vec::new();
            while let Some(o) = seq.next_element::<Owned>()? {
                let Some(id) = o.id else { continue };
                let r = Record {
                    rewind_to: None,
                    set: None,
                    id: None,
                    kind: o.kind,
                    timestamp: o.timestamp,
                    content: o.content.as_deref(),
                    display_content: o.display_content.as_deref(),
                    session_id: None,
                    start_time: None,
                    last_updated: None,
                    summary: None,
                };
                // A message that cannot be read is skipped like a corrupt line.
                if let Ok(m) = message(id, &r) {
                    out.push(m);
                }
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Lite(PhantomData))
}
