//! System tools: Locus itself. Their envelopes never carry an editorContext.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::editor::NoParams;
use crate::envelope::rfc3339;
use crate::{
    AgentChannel, Category, Cx, DEFAULT_TIMEOUT, Effect, Tool, ToolError, ToolSpec, WhenToUse,
};

/// `bridge_status`: what is connected.
pub struct BridgeStatus;

/// `mcp_list_tools`: the tools, grouped, with guidance.
pub struct McpListTools;

/// `bridge_status`'s data.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusData {
    /// Locus's version.
    pub version: &'static str,
    /// `sidecar` (inside `locus lsp`) or `in-process` (no editor).
    pub mode: &'static str,
    /// The editor's name, when one connected.
    pub editor: Option<String>,
    /// Editors connected to the process serving the tools.
    pub editors_connected: usize,
    /// The active editor's document, if any.
    pub active_editor: Option<String>,
    /// Documents the editor has open.
    pub documents_open: usize,
    /// The editor's workspace folders.
    pub workspace_folders: Vec<String>,
    /// Seconds since the serving process started.
    pub uptime_seconds: f64,
    /// When it started (RFC 3339).
    pub started_at: String,
    /// The sidecar's URL, when served over HTTP.
    pub endpoint: Option<String>,
    /// The serving process.
    pub pid: u32,
    /// The workspace symbol index (`symbol_search`), once this process has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol_index: Option<IndexStatus>,
    /// The agents' own IDE channels served for the editor, and the agents connected to each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub agent_channels: Vec<AgentChannel>,
}

/// The symbol index in `bridge_status`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexStatus {
    /// The folders indexed.
    pub folders: Vec<String>,
    /// Files indexed.
    pub files: usize,
    /// Symbols indexed.
    pub symbols: usize,
    /// Files skipped, by reason (`notUtf8`, `binary`, `tooLarge`, `minified`, `unreadable`,
    /// `overCap`).
    pub skipped: serde_json::Map<String, Value>,
    /// An estimate of the index's memory, in bytes.
    pub memory_bytes: usize,
    /// When the index last changed (RFC 3339).
    pub last_update: Option<String>,
    /// How long the last full build took.
    pub build_ms: Option<u64>,
    /// Files of the last full build whose symbols came from the symbol cache, not parsed.
    pub files_from_cache: usize,
    /// While building: `{filesDone, filesTotal}`.
    pub indexing: Option<Value>,
    /// Directories watched for changes on disk.
    pub watched_directories: Option<usize>,
    /// Why changes on disk are not watched, if they are not.
    pub watch_error: Option<String>,
    /// Open documents whose text the index uses instead of the disk's.
    pub open_documents: usize,
    /// Set when the memory cap left files out.
    pub warning: Option<String>,
}

fn index_status(s: locus_index::Status) -> IndexStatus {
    let k = s.skipped;
    let skipped = serde_json::json!({"notUtf8": k.not_utf8, "binary": k.binary, "tooLarge": k.too_large,
        "minified": k.minified, "unreadable": k.unreadable, "overCap": k.over_cap});
    IndexStatus {
        folders: s.folders.iter().map(|f| f.display().to_string()).collect(),
        files: s.files,
        symbols: s.symbols,
        skipped: skipped.as_object().cloned().unwrap_or_default(),
        memory_bytes: s.memory_bytes,
        last_update: s
            .last_update
            .map(|t| rfc3339(t.duration_since(UNIX_EPOCH).unwrap_or_default())),
        build_ms: s.build_ms,
        files_from_cache: s.from_cache,
        indexing: s
            .building
            .map(|b| serde_json::json!({"filesDone": b.files_done, "filesTotal": b.files_total})),
        watched_directories: s.watching.as_ref().ok().copied(),
        watch_error: s.watching.err(),
        open_documents: s.open_documents,
        warning: s.capped,
    }
}

impl Tool for BridgeStatus {
    type Params = NoParams;
    type Output = StatusData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "bridge_status",
            title: "Bridge status",
            category: Category::System,
            description: "Get Locus's status: version, connected editor, active editor, open documents, uptime and endpoint",
            when_to_use: WhenToUse {
                use_for: &[
                    "checking that an editor is connected before relying on editor tools",
                    "diagnosing why editor_get_context has no context",
                ],
                dont_use_for: &["the user's position (use editor_get_context)"],
                patterns: &["call once when a session starts, or after E_NO_EDITOR"],
            },
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: true,
            effect: Effect::Reads,
        }
    }

    async fn run(&self, _: NoParams, cx: Cx) -> Result<StatusData, ToolError> {
        let s = cx.host.status();
        let uptime = SystemTime::now().duration_since(s.started).unwrap_or(Duration::ZERO);
        Ok(StatusData {
            version: env!("CARGO_PKG_VERSION"),
            mode: s.mode.as_str(),
            editor: s.editor,
            editors_connected: s.editors_connected,
            active_editor: s.active_editor,
            documents_open: s.documents_open,
            workspace_folders: s
                .workspace_folders
                .iter()
                .map(|f| f.display().to_string())
                .collect(),
            uptime_seconds: (uptime.as_secs_f64() * 1000.0).round() / 1000.0,
            started_at: rfc3339(s.started.duration_since(UNIX_EPOCH).unwrap_or_default()),
            endpoint: s.url,
            pid: s.pid,
            symbol_index: cx.host.symbol_index(false).map(|i| index_status(i.status())),
            agent_channels: s.agent_channels,
        })
    }

    fn summary(&self, d: &StatusData, _: &Cx) -> String {
        let editor = match (&d.editor, d.editors_connected) {
            (_, 0) => "no editor connected".to_string(),
            (Some(name), _) => format!("editor {name} connected"),
            (None, _) => "an editor connected".to_string(),
        };
        let active =
            d.active_editor.as_deref().map(|a| format!(", active: {a}")).unwrap_or_default();
        format!(
            "Locus {} ({}), {editor}, {} documents open{active}, up {:.0} s",
            d.version, d.mode, d.documents_open, d.uptime_seconds
        )
    }
}

/// One tool in `mcp_list_tools`: its name, title and description, and in the full form
/// (a `category` or a `tool` asked for) its guidance, parameters, timeout and kind.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolInfo {
    /// `thing_action`.
    pub name: &'static str,
    /// A short title.
    pub title: &'static str,
    /// What it does.
    pub description: &'static str,
    /// The full form's details.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub details: Option<ToolDetails>,
}

/// What the full form of [`ToolInfo`] adds.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolDetails {
    /// When to use it.
    pub when_to_use: String,
    /// Its parameters.
    pub parameters: Vec<ParamInfo>,
    /// Its timeout.
    pub timeout_ms: u64,
    /// Whether it is a system tool (no editorContext).
    pub system: bool,
}

/// One parameter in `mcp_list_tools`.
#[derive(Debug, Serialize)]
pub struct ParamInfo {
    /// Its name.
    pub name: String,
    /// The expected type.
    #[serde(rename = "type")]
    pub expected: String,
    /// Whether it must be given.
    pub required: bool,
    /// What it means.
    pub description: String,
    /// An example.
    pub example: Option<Value>,
}

/// A category in `mcp_list_tools`.
#[derive(Debug, Serialize)]
pub struct CategoryInfo {
    /// Its name.
    pub name: &'static str,
    /// What its tools are about.
    pub description: &'static str,
    /// Its tools.
    pub tools: Vec<ToolInfo>,
}

/// `mcp_list_tools`'s data.
#[derive(Debug, Serialize)]
pub struct ListData {
    /// How many tools are listed.
    pub count: usize,
    /// Non-empty categories, in listing order.
    pub categories: Vec<CategoryInfo>,
    /// In the brief form, how to get the details.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more: Option<&'static str>,
}

/// Describes the enabled tools of a catalogue, grouped by category, in the full form.
pub fn describe(catalogue: &crate::Catalogue) -> ListData {
    let mut categories = Vec::new();
    let mut count = 0;
    for &category in Category::ALL {
        let tools: Vec<ToolInfo> = catalogue
            .enabled()
            .filter(|e| e.spec().category == category)
            .map(|e| {
                let s = e.spec();
                let details = ToolDetails {
                    when_to_use: s.when_to_use.text(),
                    parameters: e
                        .params()
                        .iter()
                        .map(|p| ParamInfo {
                            name: p.name.clone(),
                            expected: p.expected.clone(),
                            required: p.required,
                            description: p.description.clone(),
                            example: p.example.clone(),
                        })
                        .collect(),
                    timeout_ms: s.timeout.as_millis() as u64,
                    system: s.system,
                };
                let (name, title, description) = (s.name, s.title, s.description);
                ToolInfo { name, title, description, details: Some(details) }
            })
            .collect();
        count += tools.len();
        if !tools.is_empty() {
            categories.push(CategoryInfo {
                name: category.name(),
                description: category.description(),
                tools,
            });
        }
    }
    ListData { count, categories, more: None }
}

/// Parameters of `mcp_list_tools`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    /// Only this category (`editor`, `symbol`, `system`, …), each tool with its guidance and
    /// parameters; all, by name and description only, when neither this nor `tool` is given.
    #[schemars(example = &"symbol", with = "String")]
    #[serde(default)]
    pub category: Option<String>,
    /// Only this tool, with its guidance and parameters.
    #[schemars(example = &"symbol_outline", with = "String")]
    #[serde(default)]
    pub tool: Option<String>,
}

/// What `mcp_list_tools` without parameters says of the brief form.
const BRIEF_MORE: &str = "Pass `category` or `tool` for each tool's guidance and parameters";

impl Tool for McpListTools {
    type Params = ListParams;
    type Output = ListData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "mcp_list_tools",
            title: "List Locus tools",
            category: Category::System,
            description: "List Locus's tools grouped by category, with when to use each and their parameters with examples",
            when_to_use: WhenToUse {
                use_for: &[
                    "choosing the right Locus tool",
                    "looking up a tool's parameters and an example",
                ],
                dont_use_for: &["calling a tool (call it directly)"],
                patterns: &["call once when unsure which tool fits"],
            },
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: true,
            effect: Effect::Reads,
        }
    }

    async fn run(&self, p: ListParams, cx: Cx) -> Result<ListData, ToolError> {
        let mut data = describe(&cx.catalogue);
        if let Some(wanted) = p.tool {
            for c in &mut data.categories {
                c.tools.retain(|t| t.name == wanted);
            }
            data.categories.retain(|c| !c.tools.is_empty());
            if data.categories.is_empty() {
                return Err(ToolError::new(crate::ErrorCode::InvalidParams, format!("no tool offered here is named `{wanted}`"))
                    .with_hint("Call mcp_list_tools without parameters for every tool's name")
                    .with_details(serde_json::json!({"parameter": "tool", "expected": "a tool's name", "example": "symbol_outline"})));
            }
            data.count = 1;
        } else if p.category.is_none() {
            // All tools in full is about 40 KB: past what Codex passes whole, and most of it
            // is parameters of tools the agent will not call.
            for tool in data.categories.iter_mut().flat_map(|c| c.tools.iter_mut()) {
                tool.details = None;
            }
            data.more = Some(BRIEF_MORE);
        }
        if let Some(wanted) = p.category {
            data.categories.retain(|c| c.name == wanted);
            if data.categories.is_empty() {
                let names: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
                return Err(ToolError::new(crate::ErrorCode::InvalidParams, format!("no tools in category `{wanted}`"))
                    .with_hint(format!("Categories: {}", names.join(", ")))
                    .with_details(serde_json::json!({"parameter": "category", "expected": "a category name", "example": "symbol"})));
            }
            data.count = data.categories.iter().map(|c| c.tools.len()).sum();
        }
        Ok(data)
    }

    fn summary(&self, d: &ListData, _: &Cx) -> String {
        let groups: Vec<String> = d
            .categories
            .iter()
            .map(|c| {
                format!(
                    "{}: {}",
                    c.name,
                    c.tools.iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
                )
            })
            .collect();
        format!("{} tools. {}", d.count, groups.join("; "))
    }
}
