//! `dialog_*`: the user's own requests, verbatim, from the agents' chat transcripts on
//! disk (`locus-dialog`), for recalling the original task after a context compaction.
//!
//! The workspace is the host's workspace folders (the editor's, or the working directory).

use std::path::PathBuf;
use std::sync::Arc;

use locus_dialog::{Recall, RecallError, Request, SessionInfo, Source, Stores, Warning, Workspace};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::{
    Catalogue, Category, Cx, DEFAULT_TIMEOUT, Effect, ErrorCode, Tool, ToolError, ToolSpec,
    WhenToUse,
};

/// `dialog_get_first_request`: the first thing the user asked.
pub struct DialogGetFirstRequest {
    recall: Arc<Recall>,
}

/// `dialog_get_request`: the user's request at an index.
pub struct DialogGetRequest {
    recall: Arc<Recall>,
}

/// `dialog_get_requests`: all requests, or those since the last compaction.
pub struct DialogGetRequests {
    recall: Arc<Recall>,
}

/// `dialog_list_sessions`: the workspace's agent conversations.
pub struct DialogListSessions {
    recall: Arc<Recall>,
}

/// Registers the dialog tools over one shared index of transcripts.
pub fn register(catalogue: &mut Catalogue, recall: Arc<Recall>) {
    catalogue
        .register(DialogGetFirstRequest { recall: recall.clone() })
        .register(DialogGetRequest { recall: recall.clone() })
        .register(DialogGetRequests { recall: recall.clone() })
        .register(DialogListSessions { recall });
}

/// The transcript index of this process's environment (`HOME`, `CLAUDE_CONFIG_DIR`,
/// `CODEX_HOME`, `GEMINI_CLI_HOME`, `LOCUS_MEMORY_HOME`, …).
pub fn recall_from_env() -> Arc<Recall> {
    Arc::new(Recall::new(Stores::from_env()))
}

/// The id of a session, exact.
const SESSION_EXAMPLE: &str = "0199c0de-0000-7000-8000-000000000004";

/// Parameters of `dialog_get_first_request`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FirstRequestParams {
    /// A session id from dialog_list_sessions (exact); the current dialog, the workspace's
    /// most recently updated session of any agent, when omitted.
    #[serde(rename = "sessionId", default)]
    #[schemars(example = &SESSION_EXAMPLE)]
    pub session_id: Option<String>,
}

/// Parameters of `dialog_get_request`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestParams {
    /// 1-based position among the user's requests (1 is the first).
    #[schemars(example = 2)]
    pub index: i64,
    /// A session id from dialog_list_sessions (exact); the current dialog when omitted.
    #[serde(rename = "sessionId", default)]
    #[schemars(example = &SESSION_EXAMPLE)]
    pub session_id: Option<String>,
}

/// Parameters of `dialog_get_requests`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestsParams {
    /// A session id from dialog_list_sessions (exact); the current dialog when omitted.
    #[serde(rename = "sessionId", default)]
    #[schemars(example = &SESSION_EXAMPLE)]
    pub session_id: Option<String>,
    /// Only the requests made after the last compaction (all when it was never compacted);
    /// default false: every request.
    #[serde(rename = "sinceCompaction", default)]
    #[schemars(example = true)]
    pub since_compaction: Option<bool>,
    /// At most this many, the most recent (default: all).
    #[serde(default)]
    #[schemars(example = 10, range(min = 1))]
    pub limit: Option<u32>,
}

/// An agent, as dialog tools name it.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SourceName {
    /// Claude Code.
    ClaudeCode,
    /// OpenAI Codex CLI.
    Codex,
    /// Gemini CLI.
    Gemini,
    /// VS Code Copilot Chat.
    Copilot,
}

impl From<SourceName> for Source {
    fn from(s: SourceName) -> Source {
        match s {
            SourceName::ClaudeCode => Source::ClaudeCode,
            SourceName::Codex => Source::Codex,
            SourceName::Gemini => Source::Gemini,
            SourceName::Copilot => Source::Copilot,
        }
    }
}

/// A plain string enum, the shape the catalogue's validation reads (an omitted `source`
/// is the only way to say "every agent").
fn source_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "string", "enum": ["claude-code", "codex", "gemini", "copilot"]})
}

/// Parameters of `dialog_list_sessions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    /// Only this agent's sessions: claude-code, codex, gemini or copilot.
    #[serde(default)]
    #[schemars(schema_with = "source_schema", example = &"claude-code")]
    pub source: Option<SourceName>,
    /// At most this many sessions, newest first (default 20).
    #[serde(default)]
    #[schemars(example = 10, range(min = 1))]
    pub limit: Option<u32>,
}

/// `dialog_get_first_request`'s data.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FirstRequestData {
    /// The session's id.
    pub session_id: String,
    /// The agent (`claude-code`, `codex`, `gemini`, `copilot`).
    pub source: &'static str,
    /// The user's first request, verbatim.
    pub first_request: String,
    /// When it was made (RFC 3339), when the transcript says.
    pub timestamp: Option<String>,
    /// How many requests the session has.
    pub requests_count: usize,
    /// Images the user attached to it (not included).
    #[serde(skip_serializing_if = "is_zero")]
    pub images_omitted: u32,
    /// Whether the conversation was compacted since.
    pub compacted: bool,
    /// Parts of the transcripts that could not be read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// `dialog_get_request`'s data.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestData {
    /// The session's id.
    pub session_id: String,
    /// The agent.
    pub source: &'static str,
    /// The request, verbatim.
    pub request: String,
    /// Its 1-based index.
    pub index: usize,
    /// When it was made (RFC 3339), when the transcript says.
    pub timestamp: Option<String>,
    /// How many requests the session has.
    pub total_requests: usize,
    /// Images the user attached to it (not included).
    #[serde(skip_serializing_if = "is_zero")]
    pub images_omitted: u32,
    /// Parts of the transcripts that could not be read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// One request in `dialog_get_requests`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestItem {
    /// Its 1-based index in the whole session.
    pub index: usize,
    /// The request, verbatim.
    pub request: String,
    /// When it was made (RFC 3339), when known.
    pub timestamp: Option<String>,
    /// Images attached (not included).
    #[serde(skip_serializing_if = "is_zero")]
    pub images_omitted: u32,
}

/// `dialog_get_requests`'s data.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestsData {
    /// The session's id.
    pub session_id: String,
    /// The agent.
    pub source: &'static str,
    /// The requests, oldest first.
    pub requests: Vec<RequestItem>,
    /// How many requests the session has.
    pub total_requests: usize,
    /// Whether only requests after the last compaction were asked for.
    pub since_compaction: bool,
    /// Whether the conversation was ever compacted.
    pub compacted: bool,
    /// When it was last compacted (RFC 3339).
    pub last_compacted_at: Option<String>,
    /// Parts of the transcripts that could not be read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// One session in `dialog_list_sessions`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionData {
    /// Its id (what `sessionId` takes).
    pub session_id: String,
    /// The agent.
    pub source: &'static str,
    /// The title the agent or the user gave it.
    pub title: Option<String>,
    /// The first request's first line, cut to 80 characters.
    pub preview: Option<String>,
    /// How many requests the user made.
    pub requests_count: usize,
    /// The last activity (RFC 3339).
    pub last_updated: String,
    /// When it started (RFC 3339), when known.
    pub created: Option<String>,
    /// Whether it was compacted.
    pub compacted: bool,
    /// How many times.
    pub compactions: usize,
    /// When last (RFC 3339).
    pub last_compacted_at: Option<String>,
    /// Requests made after the last compaction.
    pub requests_since_compaction: usize,
    /// The working directory or workspace folder it belongs to.
    pub folder: Option<String>,
    /// The transcript's format generation.
    pub format: &'static str,
    /// The transcript file.
    pub transcript: String,
}

/// `dialog_list_sessions`'s data.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionsData {
    /// The workspace folders sessions were matched against.
    pub workspace: Vec<String>,
    /// The sessions, newest first; the first is the current dialog.
    pub sessions: Vec<SessionData>,
    /// How many are listed.
    pub count: usize,
    /// Parts of the transcripts that could not be read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn stamp(t: Option<locus_dialog::Timestamp>) -> Option<String> {
    t.map(|t| t.to_string())
}

fn warnings(w: &[Warning]) -> Vec<String> {
    w.iter().map(ToString::to_string).collect()
}

/// The workspace the host serves: its folders (the editor's, or `--workspace` of `locus mcp`
/// and `locus call`), else the working directory.
fn workspace(cx: &Cx) -> (Workspace, Vec<PathBuf>) {
    let mut folders = cx.host.status().workspace_folders;
    if folders.is_empty() {
        folders.extend(std::env::current_dir());
    }
    (Workspace::new(&folders), folders)
}

/// A recall error as the envelope's error, with a hint naming the tools to use next.
fn tool_error(e: RecallError, folders: &[PathBuf]) -> ToolError {
    let code = match e.code() {
        "E_INVALID_PARAMS" => ErrorCode::InvalidParams,
        "E_UNSUPPORTED" => ErrorCode::Unsupported,
        _ => ErrorCode::NotFound,
    };
    let shown: Vec<String> = folders.iter().map(|f| f.display().to_string()).collect();
    let (hint, details) = match &e {
        RecallError::NoActiveDialog if Workspace::new(folders).is_broad() => (
            format!(
                "The workspace is {}, which holds every project: only sessions started exactly there count. \
                 Start Locus for the project (`locus mcp --workspace DIR`, `locus call … --workspace DIR`), \
                 or pass sessionId",
                shown.join(", ")
            ),
            json!({"workspace": shown}),
        ),
        RecallError::NoActiveDialog => (
            format!(
                "No Claude Code, Codex, Gemini CLI or Copilot Chat transcript has its working directory in this workspace ({}); \
                 pass sessionId to read a session recorded elsewhere",
                shown.join(", ")
            ),
            json!({"workspace": shown}),
        ),
        RecallError::SessionNotFound(id) => (
            "Session ids are exact: dialog_list_sessions lists this workspace's sessions with their ids; omit sessionId for the current dialog".into(),
            json!({"sessionId": id}),
        ),
        RecallError::FirstRequestNotAvailable => {
            ("The session holds no request from the user yet; dialog_list_sessions shows the others".into(), json!({}))
        }
        RecallError::IndexTooSmall => ("Requests are numbered from 1; index 1 is the first request".into(), json!({"parameter": "index"})),
        RecallError::IndexOutOfRange { index, total } => (
            format!("The session has {total} requests: use an index from 1 to {total}, or dialog_get_requests for all of them"),
            json!({"parameter": "index", "index": index, "totalRequests": total}),
        ),
        RecallError::ChatDataNotAvailable { session, reason } => (e.hint(), json!({"sessionId": session, "reason": reason})),
    };
    ToolError::new(code, e.to_string()).with_hint(hint).with_details(details)
}

/// Runs a recall on a blocking thread: it reads files.
async fn off_thread<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r,
        Err(e) => {
            Err(ToolError::new(ErrorCode::Internal, format!("the tool's worker failed: {e}")))
        }
    }
}

fn quote(text: &str) -> String {
    if text.is_empty() { "(no text)".into() } else { text.to_string() }
}

impl Tool for DialogGetFirstRequest {
    type Params = FirstRequestParams;
    type Output = FirstRequestData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "dialog_get_first_request",
            title: "Get the user's first request",
            category: Category::Dialog,
            description: "Get the user's first request in the current agent conversation, verbatim from its transcript on disk (Claude Code, Codex, Gemini CLI, Copilot Chat)",
            when_to_use: WhenToUse {
                use_for: &[
                    "recalling the original task after your context was compacted or summarised",
                    "answering \"what was my first question?\"",
                    "quoting the user exactly instead of a summary's paraphrase",
                ],
                dont_use_for: &[
                    "later requests (use dialog_get_request or dialog_get_requests)",
                    "the current code (read the files)",
                ],
                patterns: &[
                    "call after a compaction, before continuing the task",
                    "compare the original wording with your plan before finishing",
                ],
            },
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: false,
            effect: Effect::Reads,
        }
    }

    async fn run(&self, p: FirstRequestParams, cx: Cx) -> Result<FirstRequestData, ToolError> {
        let recall = self.recall.clone();
        let (ws, folders) = workspace(&cx);
        off_thread(move || {
            let a = recall
                .first_request(&ws, p.session_id.as_deref())
                .map_err(|e| tool_error(e, &folders))?;
            let v = a.value;
            Ok(FirstRequestData {
                session_id: v.session.id.clone(),
                source: v.session.source.name(),
                first_request: v.request.text,
                timestamp: stamp(v.request.timestamp),
                requests_count: v.total_requests,
                images_omitted: v.request.images,
                compacted: v.session.compacted(),
                warnings: warnings(&a.warnings),
            })
        })
        .await
    }

    fn summary(&self, d: &FirstRequestData, _: &Cx) -> String {
        format!(
            "First request of {} session {} (1 of {}):\n{}",
            d.source,
            d.session_id,
            d.requests_count,
            quote(&d.first_request)
        )
    }
}

impl Tool for DialogGetRequest {
    type Params = RequestParams;
    type Output = RequestData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "dialog_get_request",
            title: "Get one of the user's requests",
            category: Category::Dialog,
            description: "Get the user's request at a 1-based index in the current agent conversation, verbatim, with the total number of requests",
            when_to_use: WhenToUse {
                use_for: &[
                    "re-reading exactly what the user asked at a given point after a compaction",
                    "quoting a later instruction word for word",
                ],
                dont_use_for: &[
                    "the first request (dialog_get_first_request)",
                    "every request at once (dialog_get_requests)",
                ],
                patterns: &[
                    "get totalRequests from dialog_get_first_request, then walk back from the last index",
                ],
            },
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: false,
            effect: Effect::Reads,
        }
    }

    async fn run(&self, p: RequestParams, cx: Cx) -> Result<RequestData, ToolError> {
        let recall = self.recall.clone();
        let (ws, folders) = workspace(&cx);
        off_thread(move || {
            let a = recall
                .request(&ws, p.index, p.session_id.as_deref())
                .map_err(|e| tool_error(e, &folders))?;
            let v = a.value;
            Ok(RequestData {
                session_id: v.session.id.clone(),
                source: v.session.source.name(),
                request: v.request.text,
                index: v.request.index,
                timestamp: stamp(v.request.timestamp),
                total_requests: v.total_requests,
                images_omitted: v.request.images,
                warnings: warnings(&a.warnings),
            })
        })
        .await
    }

    fn summary(&self, d: &RequestData, _: &Cx) -> String {
        format!(
            "Request {} of {} in {} session {}:\n{}",
            d.index,
            d.total_requests,
            d.source,
            d.session_id,
            quote(&d.request)
        )
    }
}

fn item(r: Request) -> RequestItem {
    RequestItem {
        index: r.index,
        request: r.text,
        timestamp: stamp(r.timestamp),
        images_omitted: r.images,
    }
}

impl Tool for DialogGetRequests {
    type Params = RequestsParams;
    type Output = RequestsData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "dialog_get_requests",
            title: "Get the user's requests",
            category: Category::Dialog,
            description: "Get the user's requests in the current agent conversation, verbatim, optionally only those made since the last context compaction",
            when_to_use: WhenToUse {
                use_for: &[
                    "recovering every instruction the user gave before a compaction summarised them",
                    "checking with sinceCompaction what the user asked after the last compaction",
                ],
                dont_use_for: &[
                    "one request (dialog_get_request)",
                    "sessions of other workspaces without their sessionId",
                ],
                patterns: &[
                    "after a compaction: sinceCompaction=false to reread the whole task, with limit to keep it short",
                ],
            },
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: false,
            effect: Effect::Reads,
        }
    }

    async fn run(&self, p: RequestsParams, cx: Cx) -> Result<RequestsData, ToolError> {
        let recall = self.recall.clone();
        let (ws, folders) = workspace(&cx);
        off_thread(move || {
            let since = p.since_compaction.unwrap_or(false);
            let a = recall
                .requests(&ws, p.session_id.as_deref(), since)
                .map_err(|e| tool_error(e, &folders))?;
            let v = a.value;
            let mut requests = v.requests;
            if let Some(limit) = p.limit {
                let keep = (limit as usize).min(requests.len());
                requests.drain(..requests.len() - keep);
            }
            Ok(RequestsData {
                session_id: v.session.id.clone(),
                source: v.session.source.name(),
                requests: requests.into_iter().map(item).collect(),
                total_requests: v.total_requests,
                since_compaction: since,
                compacted: v.session.compacted(),
                last_compacted_at: stamp(v.session.last_compaction),
                warnings: warnings(&a.warnings),
            })
        })
        .await
    }

    fn summary(&self, d: &RequestsData, _: &Cx) -> String {
        let which =
            if d.since_compaction && d.compacted { " since the last compaction" } else { "" };
        let mut s = format!(
            "{} of {} requests{which} in {} session {}:",
            d.requests.len(),
            d.total_requests,
            d.source,
            d.session_id
        );
        for r in &d.requests {
            s += &format!("\n{}. {}", r.index, quote(&r.request));
        }
        s
    }
}

fn session(s: SessionInfo) -> SessionData {
    SessionData {
        compacted: s.compacted(),
        session_id: s.id,
        source: s.source.name(),
        title: s.title,
        preview: s.preview,
        requests_count: s.requests_count,
        last_updated: s.last_updated.to_string(),
        created: stamp(s.created),
        compactions: s.compactions,
        last_compacted_at: stamp(s.last_compaction),
        requests_since_compaction: s.requests_since_compaction,
        folder: s.folder.map(|f| f.display().to_string()),
        format: s.format.name(),
        transcript: s.path.display().to_string(),
    }
}

impl Tool for DialogListSessions {
    type Params = ListParams;
    type Output = SessionsData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "dialog_list_sessions",
            title: "List agent conversations",
            category: Category::Dialog,
            description: "List this workspace's agent conversations (Claude Code, Codex, Gemini CLI, Copilot Chat), newest first, with title or first-request preview, request count, last update and compaction",
            when_to_use: WhenToUse {
                use_for: &[
                    "finding the sessionId of an earlier conversation in this workspace",
                    "checking which conversation counts as the current dialog",
                ],
                dont_use_for: &[
                    "reading requests (dialog_get_first_request, dialog_get_request)",
                    "other workspaces' sessions",
                ],
                patterns: &[
                    "call when several agents share the workspace, then pass sessionId to the other dialog tools",
                ],
            },
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: false,
            effect: Effect::Reads,
        }
    }

    async fn run(&self, p: ListParams, cx: Cx) -> Result<SessionsData, ToolError> {
        let recall = self.recall.clone();
        let (ws, folders) = workspace(&cx);
        off_thread(move || {
            let limit = p.limit.map_or(20, |l| l.max(1) as usize);
            let a = recall.list_sessions(&ws, p.source.map(Source::from), Some(limit));
            let sessions: Vec<SessionData> = a.value.into_iter().map(session).collect();
            Ok(SessionsData {
                workspace: folders.iter().map(|f| f.display().to_string()).collect(),
                count: sessions.len(),
                sessions,
                warnings: warnings(&a.warnings),
            })
        })
        .await
    }

    fn summary(&self, d: &SessionsData, _: &Cx) -> String {
        if d.sessions.is_empty() {
            return format!("No agent conversations recorded in {}", d.workspace.join(", "));
        }
        let mut s = format!("{} conversations, newest first:", d.count);
        for x in &d.sessions {
            let name = x.title.as_deref().or(x.preview.as_deref()).unwrap_or("");
            let compacted = if x.compacted { ", compacted" } else { "" };
            s += &format!(
                "\n{} {} ({} requests, {}{compacted}): {name}",
                x.source, x.session_id, x.requests_count, x.last_updated
            );
        }
        s
    }
}
