//! What a transcript becomes: sessions, requests and compactions, as plain data.

use std::fmt;
use std::path::PathBuf;

use crate::time::Timestamp;

/// The tool that wrote a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// Anthropic's Claude Code (`~/.claude/projects/…/*.jsonl`).
    ClaudeCode,
    /// OpenAI's Codex CLI (`~/.codex/sessions/…/rollout-*.jsonl`).
    Codex,
    /// Google's Gemini CLI (`~/.gemini/tmp/<project>/chats/session-*.jsonl`).
    Gemini,
    /// GitHub Copilot Chat in VS Code (`workspaceStorage/<hash>/chatSessions/…`).
    Copilot,
}

impl Source {
    /// Every source, in a fixed order.
    pub const ALL: [Source; 4] =
        [Source::ClaudeCode, Source::Codex, Source::Gemini, Source::Copilot];

    /// The stable name agents see and pass back (`claude-code`, `codex`, `gemini`, `copilot`).
    pub fn name(self) -> &'static str {
        match self {
            Source::ClaudeCode => "claude-code",
            Source::Codex => "codex",
            Source::Gemini => "gemini",
            Source::Copilot => "copilot",
        }
    }

    /// The source of a name; also accepts a few obvious aliases (`claude`, `gemini-cli`,
    /// `copilot-chat`, `vscode`), case-insensitively.
    pub fn from_name(name: &str) -> Option<Source> {
        match name.trim().to_ascii_lowercase().as_str() {
            "claude-code" | "claude" | "claudecode" | "claude_code" => Some(Source::ClaudeCode),
            "codex" | "codex-cli" => Some(Source::Codex),
            "gemini" | "gemini-cli" => Some(Source::Gemini),
            "copilot" | "copilot-chat" | "vscode" | "github-copilot" => Some(Source::Copilot),
            _ => None,
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The on-disk format generation a session was read from. Formats drift; each generation
/// has its own reader and its own fixtures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Claude Code's one-record-per-line JSONL.
    ClaudeJsonl,
    /// Codex rollout JSONL (`{timestamp, type, payload}` lines, or the older bare items).
    CodexRollout,
    /// Gemini CLI's JSONL log (metadata line, messages, `$set` and `$rewindTo` records).
    GeminiJsonl,
    /// Gemini CLI's older whole-file JSON session.
    GeminiJson,
    /// VS Code Copilot Chat generation 2: one JSON document per session (March 2025 to 1.108).
    CopilotJson,
    /// VS Code Copilot Chat generation 3: the `ObjectMutationLog` JSONL (1.109+).
    CopilotMutationLog,
    /// VS Code Copilot Chat generation 4: the extension's `transcripts/*.jsonl` event stream.
    CopilotTranscript,
}

impl Format {
    /// A stable name for the format (`claude-jsonl`, `copilot-mutation-log`, …).
    pub fn name(self) -> &'static str {
        match self {
            Format::ClaudeJsonl => "claude-jsonl",
            Format::CodexRollout => "codex-rollout",
            Format::GeminiJsonl => "gemini-jsonl",
            Format::GeminiJson => "gemini-json",
            Format::CopilotJson => "copilot-json",
            Format::CopilotMutationLog => "copilot-mutation-log",
            Format::CopilotTranscript => "copilot-transcript",
        }
    }

    /// The tool that writes this format.
    pub fn source(self) -> Source {
        match self {
            Format::ClaudeJsonl => Source::ClaudeCode,
            Format::CodexRollout => Source::Codex,
            Format::GeminiJsonl | Format::GeminiJson => Source::Gemini,
            Format::CopilotJson | Format::CopilotMutationLog | Format::CopilotTranscript => {
                Source::Copilot
            }
        }
    }

    /// Whether the file only ever grows by whole lines (so appended bytes can be parsed on
    /// their own). Whole-file JSON is reparsed on every change.
    pub(crate) fn is_line_log(self) -> bool {
        !matches!(self, Format::GeminiJson | Format::CopilotJson)
    }
}

/// One request the user made, in their own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// 1-based position among the session's requests.
    pub index: usize,
    /// The text exactly as the user wrote it, with harness-added blocks (system reminders,
    /// IDE context headers) removed. Images are not text: they are counted in `images`.
    pub text: String,
    /// When the request was made, when the transcript says.
    pub timestamp: Option<Timestamp>,
    /// How many images (pasted or attached) came with the request; their bytes are omitted.
    pub images: u32,
}

/// A session as listed: enough to recognise it and to decide whether to read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionInfo {
    /// The tool's own session id (what `session` parameters take).
    pub id: String,
    /// Who wrote it.
    pub source: Source,
    /// Which format generation it was read from.
    pub format: Format,
    /// The transcript file.
    pub path: PathBuf,
    /// The title the tool or the user gave the session, if any.
    pub title: Option<String>,
    /// The first request's first line, cut to 80 characters.
    pub preview: Option<String>,
    /// How many requests the user made.
    pub requests_count: usize,
    /// When the session began, when known.
    pub created: Option<Timestamp>,
    /// The last activity: the newest record's time, else the file's modification time.
    pub last_updated: Timestamp,
    /// The working directory or workspace folder the session belongs to, when known.
    pub folder: Option<PathBuf>,
    /// The workspace root it was matched to (the deepest root containing `folder`); `None`
    /// for a session fetched by id from outside the workspace.
    pub workspace_root: Option<PathBuf>,
    /// How many times the conversation was compacted (summarised to free context).
    pub compactions: usize,
    /// When it was last compacted.
    pub last_compaction: Option<Timestamp>,
    /// How many requests came after the last compaction (all of them when never compacted).
    pub requests_since_compaction: usize,
}

impl SessionInfo {
    /// Whether the conversation was ever compacted.
    pub fn compacted(&self) -> bool {
        self.compactions > 0
    }
}

/// A compaction point inside a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compaction {
    /// When it happened, when the transcript says.
    pub timestamp: Option<Timestamp>,
    /// How many requests came before it; requests `after + 1 ..` followed it.
    pub after: usize,
}

/// The requests of one session, with its compaction points.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Track {
    pub requests: Vec<Request>,
    pub compactions: Vec<Compaction>,
    /// Whether anything (a request, an assistant turn, a tool call) happened since the last
    /// compaction marker. Tools write one compaction as several records (a boundary, then a
    /// summary; `compacted`, then `context_compacted`); markers with nothing between them are
    /// one compaction.
    activity: bool,
}

impl Track {
    pub fn push(&mut self, text: String, timestamp: Option<Timestamp>, images: u32) {
        let index = self.requests.len() + 1;
        self.requests.push(Request { index, text, timestamp, images });
        self.activity = true;
    }

    pub fn activity(&mut self) {
        self.activity = true;
    }

    pub fn compaction(&mut self, timestamp: Option<Timestamp>) {
        let after = self.requests.len();
        match self.compactions.last_mut() {
            Some(last) if !self.activity && last.after == after => {
                if last.timestamp.is_none() {
                    last.timestamp = timestamp;
                }
            }
            _ => self.compactions.push(Compaction { timestamp, after }),
        }
        self.activity = false;
    }

    /// Drops requests from position `len` on (0-based) and the compactions that followed them.
    pub fn truncate(&mut self, len: usize) {
        self.requests.truncate(len);
        self.compactions.retain(|c| c.after <= len);
    }
}

/// Everything read from one transcript file, kept between calls.
#[derive(Debug, Clone, Default)]
pub(crate) struct Transcript {
    pub id: Option<String>,
    /// A title set by the user; wins over `summary_title`.
    pub custom_title: Option<String>,
    /// A title the tool generated.
    pub summary_title: Option<String>,
    /// Every working directory the session recorded, in order of first appearance.
    pub cwds: Vec<String>,
    pub created: Option<Timestamp>,
    pub updated: Option<Timestamp>,
    pub track: Track,
}

impl Transcript {
    pub fn touch(&mut self, timestamp: Option<Timestamp>) {
        if let Some(t) = timestamp {
            if self.created.is_none_or(|c| t < c) {
                self.created = Some(t);
            }
            if self.updated.is_none_or(|u| t > u) {
                self.updated = Some(t);
            }
        }
    }

    pub fn add_cwd(&mut self, cwd: &str) {
        if !cwd.is_empty() && !self.cwds.iter().any(|c| c == cwd) {
            self.cwds.push(cwd.to_owned());
        }
    }

    pub fn set_id(&mut self, id: &str) {
        if self.id.is_none() && !id.is_empty() {
            self.id = Some(id.to_owned());
        }
    }

    pub fn title(&self) -> Option<&str> {
        self.custom_title.as_deref().or(self.summary_title.as_deref())
    }
}

/// The first line of a request, cut to `max` characters (an ellipsis marks the cut).
pub(crate) fn preview(text: &str, max: usize) -> String {
    let line = text.trim_start().lines().next().unwrap_or("").trim_end();
    let mut out: String = line.chars().take(max).collect();
    if line.chars().count() > max || text.trim().lines().nth(1).is_some() {
        out.push('…');
    }
    out
}
