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
//!
//! A slash command is recorded in tags (`<command-name>/orchestrator</command-name>`,
//! `<command-args>…</command-args>`); the command line the user typed is the request
//! (`/orchestrator create a TODO app`), unless Claude Code ran it itself: a local command
//! (`/model`, `/clear`) is followed by its `<local-command-stdout>`, `/compact` by the
//! compaction, and then it is no request to the agent.
//!
//! A prompt typed while the agent works is queued: `queue-operation` records `enqueue`
//! it (with its text), then `remove` it when it is handed to the agent in the middle of its
//! turn (2.0 puts it in a tool result, 2.1 adds an `attachment` of type `queued_command`),
//! `dequeue` it when it starts the next turn as a plain `user` record, or `popAll` the
//! queue back into the input box for editing. Each prompt counts once, at the time it was
//! sent; task notifications that go through the same queue are the harness's.
//!
//! Records form a tree through `parentUuid` (`logicalParentUuid` across a compaction).
//! Editing an earlier message, or rewinding to it, starts a new branch from its parent and
//! leaves the old one in the file: the conversation is the branch of the last message, and
//! requests left on abandoned branches are not the conversation's.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::format::{Part, parse_parts, words};
use crate::line::{LineFormat, TimeValue, UnknownKinds, time};
use crate::model::{Track, Transcript};
use crate::text::{is_session_command, typed_command, user_words};
use crate::time::Timestamp;

#[derive(Default)]
pub(crate) struct Claude {
    /// Request uuids seen, since a resumed session may repeat records.
    seen: HashSet<String>,
    /// The text of the last request when it came from the queue (a `remove` or a
    /// queued-command attachment): the same prompt may follow as an attachment or a plain
    /// user record.
    queued: Option<String>,
    /// Prompts enqueued and not yet handed to the agent: their text and when they were sent.
    enqueued: Vec<(String, Option<Timestamp>)>,
    /// The 1-based index of the last request while it is a slash command the agent has not
    /// answered yet: withdrawn if the harness ran it itself.
    command: Option<usize>,
    /// The conversation tree: each record's parent, by uuid hash.
    parents: HashMap<u64, Option<u64>>,
    /// The last user or assistant record of the main chain: the conversation's leaf.
    leaf: Option<u64>,
    /// Whether a request started a second branch from a record (an edit or a rewind).
    forked: bool,
    /// The records that have a child.
    has_child: HashSet<u64>,
    /// The last main-chain record.
    last: Option<u64>,
    /// Whether the record being read is a parent's second child.
    sibling: bool,
    /// For each request of the track, the record it came from, when it has a uuid.
    anchors: Vec<Option<u64>>,
    /// The requests of the leaf's branch, once the tree forked; `None` when all are on it.
    live: Option<Track>,
    unknown: UnknownKinds,
}

/// A field that may be absent, `null` or a value, told apart.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// A uuid's 64-bit hash: the tree keeps hashes, not strings, to stay small on long sessions.
fn key(uuid: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    uuid.hash(&mut h);
    h.finish()
}

#[derive(Deserialize)]
struct Record<'a> {
    #[serde(rename = "type")]
    kind: Option<String>,
    subtype: Option<String>,
    uuid: Option<String>,
    /// `None` when absent (the oldest builds), `Some(None)` when `null` (a root).
    #[serde(rename = "parentUuid", default, deserialize_with = "present")]
    parent_uuid: Option<Option<String>>,
    #[serde(rename = "logicalParentUuid")]
    logical_parent_uuid: Option<String>,
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
    /// `queue-operation`: `enqueue`, `dequeue`, `remove`, `popAll`.
    operation: Option<String>,
    /// `queue-operation`: the queued prompt (a string or a list of parts).
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    #[serde(rename = "aiTitle")]
    ai_title: Option<String>,
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

/// Record types read, or known to hold nothing recall needs: 2.1's `last-prompt` repeats
/// the last request; `mode`, `permission-mode`, `agent-name`, `agent-color`,
/// `agent-setting`, `tag`, `pr-link`, `worktree-state`, `teleported-from`, `bridge-session`
/// and `cost-state` record session state (each seen in real transcripts, as public readers of
/// the format list them).
const KNOWN: &[&str] = &[
    "user",
    "assistant",
    "system",
    "summary",
    "custom-title",
    "ai-title",
    "attachment",
    "file-history-snapshot",
    "progress",
    "queue-operation",
    "result",
    "last-prompt",
    "mode",
    "permission-mode",
    "agent-name",
    "agent-color",
    "agent-setting",
    "tag",
    "pr-link",
    "worktree-state",
    "teleported-from",
    "bridge-session",
    "cost-state",
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
        self.sibling = false;
        let main = r.is_sidechain != Some(true);
        if let Some(uuid) = &r.uuid
            && matches!(kind, "user" | "assistant" | "attachment" | "system" | "progress")
        {
            let compaction = r.is_compact_summary == Some(true)
                || r.subtype.as_deref() == Some("compact_boundary");
            let parent = match (
                r.parent_uuid.as_ref().and_then(Option::as_deref),
                r.logical_parent_uuid.as_deref(),
            ) {
                (Some(p), _) | (None, Some(p)) => Some(key(p)),
                // Builds before `logicalParentUuid` started the chain anew at a compaction:
                // it continues what came before.
                (None, None) if compaction => self.last,
                (None, None) => None,
            };
            let me = key(uuid);
            // A subagent's records (sidechains) join the tree, should the main chain pass
            // through them, but neither branch it nor end it.
            self.parents.entry(me).or_insert(parent);
            if main {
                match parent {
                    Some(p) => self.sibling = !self.has_child.insert(p),
                    // A second root: the first message was edited (or rewound to).
                    None => self.sibling = r.parent_uuid == Some(None) && self.last.is_some(),
                }
                self.last = Some(me);
                if matches!(kind, "user" | "assistant") {
                    self.leaf = Some(me);
                }
            }
        }
        match kind {
            "user" => self.user(&r, ts, t)?,
            "assistant" => {
                // The model answered: a pending slash command was a prompt.
                self.command = None;
                t.track.activity();
            }
            "progress" | "result" => t.track.activity(),
            "system" => {
                if r.subtype.as_deref() == Some("compact_boundary") {
                    self.withdraw_command(t);
                    t.track.compaction(ts);
                }
            }
            "queue-operation" => self.queue(&r, ts, t),
            "ai-title" => {
                if let Some(s) = r.ai_title.filter(|s| !s.trim().is_empty()) {
                    t.summary_title = Some(s);
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

    fn finish(&mut self, t: &mut Transcript) {
        self.live = None;
        let Some(leaf) = self.leaf.filter(|_| self.forked) else { return };
        // The leaf's branch: its ancestors (bounded, should the file hold a cycle).
        let mut branch = HashSet::new();
        let mut at = Some(leaf);
        while let Some(k) = at {
            if !branch.insert(k) || branch.len() > self.parents.len() {
                break;
            }
            at = self.parents.get(&k).copied().flatten();
        }
        let on_branch =
            |i: usize| self.anchors.get(i).copied().flatten().is_none_or(|k| branch.contains(&k));
        if (0..t.track.requests.len()).all(on_branch) {
            return;
        }
        let mut live = Track::default();
        let mut kept_before = Vec::with_capacity(t.track.requests.len() + 1);
        kept_before.push(0);
        for (i, r) in t.track.requests.iter().enumerate() {
            if on_branch(i) {
                live.push(r.text.clone(), r.timestamp, r.images);
            }
            kept_before.push(live.requests.len());
        }
        for c in &t.track.compactions {
            let after = kept_before[c.after.min(kept_before.len() - 1)];
            live.compactions.push(crate::model::Compaction { timestamp: c.timestamp, after });
        }
        self.live = Some(live);
    }

    fn track<'a>(&'a self, t: &'a Transcript) -> &'a Track {
        self.live.as_ref().unwrap_or(&t.track)
    }
}

impl Claude {
    fn user(
        &mut self,
        r: &Record,
        ts: Option<Timestamp>,
        t: &mut Transcript,
    ) -> Result<(), String> {
        if r.is_compact_summary == Some(true) {
            self.withdraw_command(t);
            t.track.compaction(ts);
            return Ok(());
        }
        // Tool output, the bulk of a transcript: not read further.
        if r.tool_use_result.is_some() {
            return Ok(());
        }
        let Some(message) = r.message else { return Ok(()) };
        let message: Message =
            serde_json::from_str(message.get()).map_err(|e| format!("message: {e}"))?;
        if message.role.as_deref().is_some_and(|role| role != "user") {
            return Ok(());
        }
        let Some(content) = message.content else { return Ok(()) };
        let parts = parse_parts(content).map_err(|e| format!("message content: {e}"))?;
        let text_starts = |prefixes: &[&str]| {
            parts.iter().any(
                |p| matches!(p, Part::Text(s) if prefixes.iter().any(|o| s.trim_start().starts_with(o))),
            )
        };
        // The output of a command Claude Code ran itself: the command was no request.
        if text_starts(&["<local-command-stdout>", "<local-command-stderr>"]) {
            self.withdraw_command(t);
            return Ok(());
        }
        let harness = r.is_meta == Some(true)
            || r.is_sidechain == Some(true)
            || r.transcript_only == Some(true)
            || r.is_synthetic == Some(true)
            || r.origin.as_ref().and_then(|o| o.kind.as_deref()).is_some_and(|k| k != "human");
        if harness {
            return Ok(());
        }
        // A record holding tool results is the harness reporting back, whatever else it holds.
        if parts.iter().any(|p| matches!(p, Part::ToolResult)) {
            return Ok(());
        }
        // Older builds wrote the compaction summary without `isCompactSummary`.
        if text_starts(&[CONTINUED]) {
            self.withdraw_command(t);
            t.track.compaction(ts);
            return Ok(());
        }
        let Some((text, images)) = words(&parts) else { return Ok(()) };
        if let Some(uuid) = &r.uuid
            && !self.seen.insert(uuid.clone())
        {
            return Ok(());
        }
        let typed: Vec<String> = parts
            .iter()
            .filter_map(|p| if let Part::Text(s) = p { typed_command(s) } else { None })
            .collect();
        // A built-in that acts on the session (`/clear`, `/model`) is never a request, even
        // when no `<local-command-stdout>` follows it (a session started with `/clear`).
        if typed.iter().any(|line| is_session_command(line)) {
            // Its output, when it comes, withdraws nothing: the request before stays.
            self.command = None;
            return Ok(());
        }
        let command = !typed.is_empty();
        if self.queued.take().is_some_and(|q| q == text) {
            return Ok(());
        }
        // A request that starts a second branch from its parent is an edit or a rewind.
        self.forked |= self.sibling;
        self.push(t, text, ts, images, r.uuid.as_deref().map(key));
        self.command = command.then_some(t.track.requests.len());
        Ok(())
    }

    /// A slash command the harness answered itself (its output, or the compaction of
    /// `/compact`) was no request: it is dropped while it is still the last one.
    fn withdraw_command(&mut self, t: &mut Transcript) {
        if let Some(index) = self.command.take()
            && t.track.requests.len() == index
        {
            t.track.truncate(index - 1);
            self.anchors.truncate(index - 1);
        }
    }

    /// Adds a request, with the record it came from.
    fn push(
        &mut self,
        t: &mut Transcript,
        text: String,
        ts: Option<Timestamp>,
        images: u32,
        anchor: Option<u64>,
    ) {
        t.track.push(text, ts, images);
        self.anchors.resize(t.track.requests.len() - 1, None);
        self.anchors.push(anchor);
    }

    /// `queue-operation`: see the module's documentation.
    fn queue(&mut self, r: &Record, ts: Option<Timestamp>, t: &mut Transcript) {
        let text = r.content.and_then(queued_words);
        match r.operation.as_deref() {
            Some("enqueue") => {
                if let Some(text) = text {
                    self.enqueued.push((text, ts));
                }
            }
            // Handed to the agent in the middle of its turn (or taken back with ×, which
            // the record does not tell apart).
            Some("remove") => {
                let at = match &text {
                    Some(text) => self.enqueued.iter().position(|(q, _)| q == text),
                    None if r.content.is_none() && !self.enqueued.is_empty() => Some(0),
                    None => None,
                };
                if let Some(at) = at {
                    let (text, sent) = self.enqueued.remove(at);
                    if self.queued.as_deref() != Some(text.as_str()) {
                        self.queued = Some(text.clone());
                        // Handed over inside a tool result: no record of its own.
                        self.push(t, text, sent.or(ts), 0, None);
                        self.command = None;
                    }
                }
            }
            // The head of the queue starts the next turn: its `user` record follows.
            Some("dequeue") if !self.enqueued.is_empty() => {
                self.enqueued.remove(0);
            }
            // Back into the input box: what is sent after editing is recorded anew.
            Some("popAll") => self.enqueued.clear(),
            _ => {}
        }
    }

    fn attachment(&mut self, r: &Record, ts: Option<Timestamp>, t: &mut Transcript) {
        let Some(raw) = r.attachment else { return };
        let Ok(a) = serde_json::from_str::<Attachment>(raw.get()) else { return };
        let human = a.origin.as_ref().and_then(|o| o.kind.as_deref()).is_none_or(|k| k == "human");
        if a.kind.as_deref() != Some("queued_command")
            || !human
            || a.command_mode.as_deref().is_some_and(|m| m != "prompt")
        {
            return;
        }
        let Some(text) = a.prompt.as_deref().and_then(user_words) else { return };
        let sent = match self.enqueued.iter().position(|(q, _)| *q == text) {
            Some(at) => self.enqueued.remove(at).1,
            None => None,
        };
        // Already counted when the queue removed it.
        if self.queued.as_deref() == Some(text.as_str()) {
            return;
        }
        self.queued = Some(text.clone());
        self.push(t, text, sent.or(ts), 0, r.uuid.as_deref().map(key));
        self.command = None;
    }
}

/// The words of a queued prompt; `None` for the harness's (task notifications, which
/// are tags, or background-task records, which are JSON objects).
fn queued_words(raw: &RawValue) -> Option<String> {
    let parts = parse_parts(raw).ok()?;
    let json_record = |s: &str| {
        s.trim_start().starts_with('{')
            && serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(s)
                .is_ok_and(|m| m.contains_key("task_id") || m.contains_key("task_type"))
    };
    if parts.iter().any(|p| matches!(p, Part::Text(s) if json_record(s))) {
        return None;
    }
    words(&parts).map(|(text, _)| text).filter(|t| !t.is_empty())
}
