//! VS Code Copilot Chat, three generations under a VS Code `User` directory:
//!
//! - **gen 2** (March 2025 to 1.108): `workspaceStorage/<hash>/chatSessions/<id>.json`, one
//!   document `{version, sessionId, creationDate, lastMessageDate, customTitle, requests:
//!   [{requestId, message: {text, parts}, variableData: {variables}, response, result,
//!   timestamp}]}`. Read by streaming: only the fields below are kept, responses are
//!   skipped as they are read, so no size cap is needed.
//! - **gen 3** (1.109+): `chatSessions/<id>.jsonl`, an `ObjectMutationLog`: line 1
//!   `{"kind":0,"v":<session>}`, then `kind` 1 (set the value at path `k`), 2 (push `v`
//!   onto the array at `k`, first truncating it to `i` when given) and 3 (delete at `k`).
//!   VS Code rewrites the file with a fresh `kind` 0 line after enough entries; the
//!   reader notices (the old bytes are gone) and reads it again.
//! - **gen 4** (1.137): the extension's `GitHub.copilot-chat/transcripts/<id>.jsonl`, an
//!   event stream of `{type, data, id, timestamp, parentId}` with `session.start`,
//!   `user.message` (`data.content`, `data.attachments`), `assistant.message`,
//!   `tool.execution_*`, `session.compaction_complete`, ….
//!
//! The workspace comes from `workspace.json` beside `chatSessions` (see [`crate::stores`]).
//! The user's words are `message.text` (gen 2, 3) or `data.content` (gen 4), verbatim:
//! `@agent`, `/command` and `#file` references are what the user typed. Images attached to
//! a request (variables of kind `image`, attachments of an image type) are counted.
//! Compaction: gen 4 records it; for gens 2 and 3 a request whose `result.metadata`
//! carries a conversation `summary` marks one, as far as that field is written.
//! Not read: gen 1 (before March 2025, inside `state.vscdb`) and the gen 4 SQLite
//! `session-store.db`, which would need an SQLite reader.

use std::io::BufReader;
use std::path::Path;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::line::{LineFormat, TimeValue, UnknownKinds, time};
use crate::model::{Track, Transcript};
use crate::text::user_words;
use crate::time::Timestamp;

/// One request as gens 2 and 3 store it, reduced.
#[derive(Debug, Clone, Default, Deserialize)]
struct Request {
    #[serde(default, deserialize_with = "message_text")]
    message: Option<String>,
    timestamp: Option<TimeValue>,
    /// For each attached variable, whether it is an image.
    #[serde(rename = "variableData", default, deserialize_with = "variables")]
    variables: Vec<bool>,
    #[serde(default, deserialize_with = "has_summary")]
    result: bool,
}

#[derive(Debug, Default, Deserialize)]
struct Session {
    #[serde(rename = "sessionId")]
    session_id: Option<String>,
    #[serde(rename = "creationDate")]
    creation_date: Option<TimeValue>,
    #[serde(rename = "lastMessageDate")]
    last_message_date: Option<TimeValue>,
    #[serde(rename = "customTitle")]
    custom_title: Option<String>,
    #[serde(default)]
    requests: Vec<Request>,
}

/// `message` is `{text, parts}`, or a bare string in the oldest files.
fn message_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum M {
        Text(String),
        Object { text: Option<String> },
        Other(serde::de::IgnoredAny),
    }
    Ok(match Option::<M>::deserialize(d)? {
        Some(M::Text(t)) => Some(t),
        Some(M::Object { text }) => text,
        _ => None,
    })
}

#[derive(Deserialize)]
struct Variable {
    kind: Option<String>,
    #[serde(rename = "isImage")]
    is_image: Option<bool>,
}

impl Variable {
    fn is_image(&self) -> bool {
        self.is_image == Some(true) || self.kind.as_deref() == Some("image")
    }
}

/// `variableData: {variables: [{kind: "image", …} | {isImage: true, …}]}` → which are images.
fn variables<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<bool>, D::Error> {
    #[derive(Deserialize)]
    struct Data {
        #[serde(default)]
        variables: Vec<Variable>,
    }
    Ok(Option::<Data>::deserialize(d)?
        .map_or(Vec::new(), |d| d.variables.iter().map(Variable::is_image).collect()))
}

/// Whether `result.metadata.summary` is present: Copilot summarised the conversation
/// during this request.
fn has_summary<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    struct Result_ {
        metadata: Option<Metadata>,
    }
    #[derive(Deserialize)]
    struct Metadata {
        summary: Option<serde::de::IgnoredAny>,
    }
    Ok(Option::<Result_>::deserialize(d)?
        .and_then(|r| r.metadata)
        .is_some_and(|m| m.summary.is_some()))
}

/// Folds a session's requests into a track.
fn requests_into(
    requests: &[Request],
    track: &mut Track,
    t_touch: &mut dyn FnMut(Option<Timestamp>),
) {
    *track = Track::default();
    for r in requests {
        let ts = time(&r.timestamp);
        t_touch(ts);
        if r.result {
            track.compaction(ts);
        }
        let images = r.variables.iter().filter(|&&image| image).count() as u32;
        match r.message.as_deref().and_then(user_words) {
            Some(text) => track.push(text, ts, images),
            None if images > 0 => track.push(String::new(), ts, images),
            None => track.activity(),
        }
        track.activity();
    }
}

/// Generation 2: the whole-file JSON session, read by streaming.
pub(crate) fn read_json(path: &Path) -> Result<Transcript, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let s: Session = serde_json::from_reader(BufReader::with_capacity(1 << 20, file))
        .map_err(|e| e.to_string())?;
    let mut t = Transcript::default();
    if let Some(id) = &s.session_id {
        t.set_id(id);
    }
    t.custom_title = s.custom_title.filter(|s| !s.trim().is_empty());
    t.touch(time(&s.creation_date));
    t.touch(time(&s.last_message_date));
    let mut track = Track::default();
    let mut stamps = Vec::new();
    requests_into(&s.requests, &mut track, &mut |ts| stamps.push(ts));
    for ts in stamps {
        t.touch(ts);
    }
    t.track = track;
    Ok(t)
}

/// Generation 3: the mutation log, applied to a reduced model of the session.
#[derive(Default)]
pub(crate) struct MutationLog {
    session: Session,
    unknown: UnknownKinds,
}

#[derive(Deserialize)]
struct Entry<'a> {
    kind: Option<u8>,
    #[serde(default)]
    k: Vec<serde_json::Value>,
    #[serde(borrow)]
    v: Option<&'a RawValue>,
    i: Option<usize>,
}

impl LineFormat for MutationLog {
    fn line(
        &mut self,
        line: &[u8],
        _t: &mut Transcript,
        notes: &mut Vec<String>,
    ) -> Result<(), String> {
        let e: Entry = serde_json::from_slice(line).map_err(|e| e.to_string())?;
        let value = |what: &str| -> Result<&str, String> {
            e.v.map(RawValue::get).ok_or_else(|| format!("{what} without a value"))
        };
        let path: Vec<Key> = e.k.iter().map(Key::of).collect();
        let s = &mut self.session;
        match e.kind {
            Some(0) => {
                *s = serde_json::from_str(value("initial state")?)
                    .map_err(|e| format!("initial state: {e}"))?
            }
            Some(1) => match path.as_slice() {
                [Key::Name("customTitle")] => {
                    s.custom_title = serde_json::from_str(value("set")?).unwrap_or(None)
                }
                [Key::Name("sessionId")] => {
                    s.session_id = serde_json::from_str(value("set")?).unwrap_or(None)
                }
                [Key::Name("creationDate")] => {
                    s.creation_date = serde_json::from_str(value("set")?).unwrap_or(None)
                }
                [Key::Name("requests")] => {
                    s.requests = serde_json::from_str::<Option<Vec<Request>>>(value("set")?)
                        .map_err(|e| format!("requests: {e}"))?
                        .unwrap_or_default()
                }
                [Key::Name("requests"), Key::Index(n)] => {
                    let r: Request =
                        serde_json::from_str(value("set")?).map_err(|e| format!("request: {e}"))?;
                    if *n < s.requests.len() {
                        s.requests[*n] = r;
                    } else if *n == s.requests.len() {
                        s.requests.push(r);
                    }
                }
                [Key::Name("requests"), Key::Index(n), Key::Name(field)] => {
                    let v = value("set")?;
                    let Some(r) = s.requests.get_mut(*n) else { return Ok(()) };
                    if !matches!(*field, "message" | "timestamp" | "variableData" | "result") {
                        return Ok(());
                    }
                    // Reuse the request's own field readers on a one-field object.
                    let patch: Request = serde_json::from_str(&format!("{{\"{field}\":{v}}}"))
                        .map_err(|e| format!("request {field}: {e}"))?;
                    match *field {
                        "message" => r.message = patch.message,
                        "timestamp" => r.timestamp = patch.timestamp,
                        "variableData" => r.variables = patch.variables,
                        _ => r.result = patch.result,
                    }
                }
                [Key::Name("requests"), Key::Index(n), Key::Name("message"), Key::Name("text")] => {
                    if let Some(r) = s.requests.get_mut(*n) {
                        r.message = serde_json::from_str(value("set")?)
                            .map_err(|e| format!("message text: {e}"))?;
                    }
                }
                [
                    Key::Name("requests"),
                    Key::Index(n),
                    Key::Name("variableData"),
                    Key::Name("variables"),
                ] => {
                    if let Some(r) = s.requests.get_mut(*n) {
                        let vars: Option<Vec<Variable>> = serde_json::from_str(value("set")?)
                            .map_err(|e| format!("variables: {e}"))?;
                        r.variables =
                            vars.unwrap_or_default().iter().map(Variable::is_image).collect();
                    }
                }
                _ => {}
            },
            Some(2) => match path.as_slice() {
                [Key::Name("requests")] => {
                    if let Some(i) = e.i {
                        s.requests.truncate(i);
                    }
                    if let Some(v) = e.v {
                        let more: Option<Vec<Request>> = serde_json::from_str(v.get())
                            .map_err(|e| format!("pushed requests: {e}"))?;
                        s.requests.extend(more.unwrap_or_default());
                    }
                }
                [
                    Key::Name("requests"),
                    Key::Index(n),
                    Key::Name("variableData"),
                    Key::Name("variables"),
                ] => {
                    if let Some(r) = s.requests.get_mut(*n) {
                        if let Some(i) = e.i {
                            r.variables.truncate(i);
                        }
                        if let Some(v) = e.v {
                            let more: Option<Vec<Variable>> = serde_json::from_str(v.get())
                                .map_err(|e| format!("pushed variables: {e}"))?;
                            r.variables
                                .extend(more.unwrap_or_default().iter().map(Variable::is_image));
                        }
                    }
                }
                _ => {}
            },
            Some(3) => match path.as_slice() {
                [Key::Name("customTitle")] => s.custom_title = None,
                [Key::Name("requests")] => s.requests.clear(),
                _ => {}
            },
            Some(other) => self.unknown.note("mutation kind", &other.to_string(), notes),
            None => return Err("entry without a kind".into()),
        }
        Ok(())
    }

    fn finish(&mut self, t: &mut Transcript) {
        let s = &self.session;
        let mut fresh = Transcript::default();
        if let Some(id) = &s.session_id {
            fresh.set_id(id);
        }
        fresh.custom_title = s.custom_title.clone().filter(|s| !s.trim().is_empty());
        fresh.touch(time(&s.creation_date));
        fresh.touch(time(&s.last_message_date));
        let mut stamps = Vec::new();
        requests_into(&s.requests, &mut fresh.track, &mut |ts| stamps.push(ts));
        for ts in stamps {
            fresh.touch(ts);
        }
        *t = fresh;
    }
}

/// A path segment of a mutation.
enum Key<'a> {
    Name(&'a str),
    Index(usize),
    Other,
}

impl<'a> Key<'a> {
    fn of(v: &'a serde_json::Value) -> Key<'a> {
        match v {
            serde_json::Value::String(s) => Key::Name(s),
            serde_json::Value::Number(n) => {
                n.as_u64().map_or(Key::Other, |n| Key::Index(n as usize))
            }
            _ => Key::Other,
        }
    }
}

/// Generation 4: the event stream.
#[derive(Default)]
pub(crate) struct EventStream {
    unknown: UnknownKinds,
}

#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(borrow)]
    data: Option<&'a RawValue>,
    timestamp: Option<TimeValue>,
}

#[derive(Deserialize)]
struct Start {
    #[serde(rename = "sessionId")]
    session_id: Option<String>,
    #[serde(rename = "startTime")]
    start_time: Option<TimeValue>,
}

#[derive(Deserialize)]
struct UserMessage {
    content: Option<String>,
    #[serde(default)]
    attachments: Vec<Attachment>,
}

#[derive(Deserialize)]
struct Attachment {
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(rename = "mimeType")]
    mime_type: Option<String>,
}

#[derive(Deserialize)]
struct Compacted {
    success: Option<bool>,
}

const FAMILIES: &[&str] = &[
    "session.",
    "assistant.",
    "tool.",
    "user.",
    "subagent.",
    "hook.",
    "skill.",
    "abort",
    "system.",
];

impl LineFormat for EventStream {
    fn line(
        &mut self,
        line: &[u8],
        t: &mut Transcript,
        notes: &mut Vec<String>,
    ) -> Result<(), String> {
        let e: Event = serde_json::from_slice(line).map_err(|e| e.to_string())?;
        let ts = time(&e.timestamp);
        t.touch(ts);
        let kind = e.kind.as_deref().unwrap_or("");
        let data = e.data.map(RawValue::get).unwrap_or("null");
        match kind {
            "session.start" | "session.resume" => {
                if let Ok(s) = serde_json::from_str::<Start>(data) {
                    if let Some(id) = &s.session_id {
                        t.set_id(id);
                    }
                    t.touch(time(&s.start_time));
                }
            }
            "user.message" => {
                let m: UserMessage =
                    serde_json::from_str(data).map_err(|e| format!("user.message: {e}"))?;
                let images = m
                    .attachments
                    .iter()
                    .filter(|a| {
                        a.kind.as_deref() == Some("image")
                            || a.mime_type.as_deref().is_some_and(|m| m.starts_with("image/"))
                    })
                    .count() as u32;
                match m.content.as_deref().and_then(user_words) {
                    Some(text) => t.track.push(text, ts, images),
                    None if images > 0 => t.track.push(String::new(), ts, images),
                    None => {}
                }
            }
            "session.compaction_complete" => {
                if serde_json::from_str::<Compacted>(data).ok().and_then(|c| c.success)
                    != Some(false)
                {
                    t.track.compaction(ts);
                }
            }
            _ if kind.starts_with("assistant.")
                || kind.starts_with("tool.")
                || kind.starts_with("subagent.") =>
            {
                t.track.activity()
            }
            _ if FAMILIES.iter().any(|f| kind.starts_with(f)) => {}
            _ => self.unknown.note("event type", kind, notes),
        }
        Ok(())
    }
}
