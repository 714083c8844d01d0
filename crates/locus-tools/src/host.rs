//! What tools may ask of the process that runs them: the live editor state (when there is
//! one) and facts about the process itself. The sidecar (`locus lsp`) implements it over its
//! editor state; `locus mcp` and `locus call` without a sidecar use [`Detached`].

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime};

use futures_util::future::BoxFuture;
use locus_context::EditorContext;
use locus_doc::{Document, PositionEncoding};
use locus_scopes::Runtime;
use serde_json::Value;

/// The process side of a tool call.
pub trait Host: Send + Sync + 'static {
    /// The editorContext of the active editor right now: `Ok(None)` when no editor is active,
    /// `Err` when capturing failed (logged by the caller, never returned to the agent). The
    /// envelope gives it its JSON shape (`docs/reference/editor-context.md`).
    fn editor_context(&self) -> Result<Option<EditorContext>, String>;

    /// Facts about the process serving the tools, for `bridge_status`.
    fn status(&self) -> HostStatus;

    /// The editor's text of `path` when the editor has it open (unsaved edits included),
    /// with its language id; `None` to read the file from disk.
    fn document(&self, path: &Path) -> Option<(Document, String)>;

    /// Logs a problem the agent is not told about.
    fn warn(&self, message: &str);

    /// The runtime a Python file at `path` is analysed for (its workspace folder's Python, as
    /// the editor's scopes use it). [`Runtime::default`] unless the host knows better.
    fn runtime(&self, path: &Path) -> Runtime {
        let _ = path;
        Runtime::default()
    }

    /// Whether this process ends with the call (`locus call` with no sidecar): tools that
    /// leave something running, such as debug sessions, refuse then. False by default.
    fn one_shot(&self) -> bool {
        false
    }

    /// The editor that can act for the editor actions (`locus/editorAction`,
    /// docs/reference/lsp.md): its name, the actions it declared and the position encoding its
    /// actions speak. `None` when no editor is connected (the default).
    fn action_editor(&self) -> Option<ActionEditor> {
        None
    }

    /// Asks the editor to do `action` with `params` (LSP positions, 0-based, in
    /// [`ActionEditor::encoding`]), waiting at most `wait`: the editor's `data`, or why there
    /// is none. Hosts with no editor answer [`ActionError::NoEditor`] (the default).
    fn editor_action(
        &self,
        action: &str,
        params: Value,
        wait: Duration,
    ) -> BoxFuture<'static, Result<Value, ActionError>> {
        let _ = (action, params, wait);
        Box::pin(async { Err(ActionError::NoEditor) })
    }

    /// The workspace symbol index (`symbol_search`), the open documents' text synced into it
    /// first; `None` when this process keeps none (the default). With `start`, a process
    /// that has not built one yet starts building it (in the background) now.
    fn symbol_index(&self, start: bool) -> Option<Arc<locus_index::Index>> {
        let _ = start;
        None
    }
}

/// An editor that can act for Locus (editor action).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionEditor {
    /// The editor's name as it introduced itself (`"Neovim"`, `"Visual Studio Code"`).
    pub name: String,
    /// The actions it declared in `initializationOptions.editorActions`.
    pub declared: Vec<String>,
    /// The position encoding negotiated with it.
    pub encoding: PositionEncoding,
}

/// Why an editor action has no answer (editor action).
#[derive(Debug, Clone, PartialEq)]
pub enum ActionError {
    /// No editor is connected to this process, or its connection closed before it answered.
    NoEditor,
    /// The editor cannot do it (JSON-RPC `-32601`), with the hint it gave.
    Unsupported {
        /// What the editor said.
        message: String,
        /// The editor's `data.hint`.
        hint: Option<String>,
    },
    /// The editor did not answer within the wait.
    Timeout(Duration),
    /// The editor tried and failed: it answered an error other than `-32601`. `data.code`
    /// may name one of Locus's codes (`E_NOT_FOUND`, `E_TIMEOUT`, …).
    Failed {
        /// What the editor said.
        message: String,
        /// The error's `data`, if any.
        data: Option<Value>,
    },
}

/// How the tools are being served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Inside `locus lsp`, beside a live editor.
    Sidecar,
    /// In `locus mcp` or `locus call` with no sidecar: no live editor state.
    InProcess,
}

impl Mode {
    /// `"sidecar"` or `"in-process"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Sidecar => "sidecar",
            Mode::InProcess => "in-process",
        }
    }
}

/// What a host says of itself, for `bridge_status`.
#[derive(Debug, Clone, PartialEq)]
pub struct HostStatus {
    /// How the tools are served.
    pub mode: Mode,
    /// The editor's name, as it introduced itself (`"Visual Studio Code"`, `"Neovim"`).
    pub editor: Option<String>,
    /// How many editors are connected (0 or 1 per sidecar).
    pub editors_connected: usize,
    /// The path of the active editor's document.
    pub active_editor: Option<String>,
    /// How many documents the editor has open.
    pub documents_open: usize,
    /// The editor's workspace folders.
    pub workspace_folders: Vec<PathBuf>,
    /// The sidecar's URL, when the tools are served over HTTP.
    pub url: Option<String>,
    /// When the serving process started.
    pub started: SystemTime,
    /// The serving process.
    pub pid: u32,
    /// The agents' own IDE channels served for the editor (Claude Code's `/ide`, Gemini
    /// CLI's IDE mode).
    pub agent_channels: Vec<AgentChannel>,
}

/// One agent's IDE channel, for `bridge_status`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentChannel {
    /// The agent: `claude`, `gemini`.
    pub agent: String,
    /// Its loopback port.
    pub port: u16,
    /// The file the agent finds it by.
    pub file: Option<String>,
    /// How many of these agents are connected now.
    pub agents_connected: usize,
}

/// A host with no editor: `editorContext` is never captured, files are read from disk.
#[derive(Debug, Clone)]
pub struct Detached {
    started: SystemTime,
    one_shot: bool,
    /// The folder served (`--workspace`, else the directory `locus` was started in).
    workspace: Option<PathBuf>,
    /// The symbol index of that folder, built on first use (shared by clones).
    index: Arc<OnceLock<Arc<locus_index::Index>>>,
    /// How to find a folder's Python runtime, and the workspace's, found on first use.
    runtime_of: Option<fn(&Path) -> Runtime>,
    runtime: Arc<OnceLock<Runtime>>,
}

impl Detached {
    /// A detached host started now.
    pub fn new() -> Detached {
        Detached {
            started: SystemTime::now(),
            one_shot: false,
            workspace: None,
            index: Arc::default(),
            runtime_of: None,
            runtime: Arc::default(),
        }
    }

    /// A detached host for one call in a process that ends with it (`locus call`).
    pub fn one_shot() -> Detached {
        Detached {
            started: SystemTime::now(),
            one_shot: true,
            workspace: None,
            index: Arc::default(),
            runtime_of: None,
            runtime: Arc::default(),
        }
    }

    /// The same host serving `folder` (`--workspace`): its workspace folder, for the tools
    /// that are about a workspace (`dialog_*`), instead of the current directory.
    pub fn in_workspace(self, folder: PathBuf) -> Detached {
        Detached { workspace: Some(folder), ..self }
    }

    /// The same host finding the workspace's Python with `runtime_of` (on first use), for
    /// Python files' static conditions; [`Runtime::default`] without it.
    pub fn with_runtime_of(self, runtime_of: fn(&Path) -> Runtime) -> Detached {
        Detached { runtime_of: Some(runtime_of), ..self }
    }
}

impl Default for Detached {
    fn default() -> Self {
        Detached::new()
    }
}

impl Host for Detached {
    fn editor_context(&self) -> Result<Option<EditorContext>, String> {
        Ok(None)
    }

    fn status(&self) -> HostStatus {
        HostStatus {
            agent_channels: Vec::new(),
            mode: Mode::InProcess,
            editor: None,
            editors_connected: 0,
            active_editor: None,
            documents_open: 0,
            workspace_folders: match &self.workspace {
                Some(folder) => vec![folder.clone()],
                None => std::env::current_dir().into_iter().collect(),
            },
            url: None,
            started: self.started,
            pid: std::process::id(),
        }
    }

    fn document(&self, _: &Path) -> Option<(Document, String)> {
        None
    }

    fn warn(&self, message: &str) {
        eprintln!("locus: warning: {message}");
    }

    fn one_shot(&self) -> bool {
        self.one_shot
    }

    fn runtime(&self, _: &Path) -> Runtime {
        let Some(runtime_of) = self.runtime_of else { return Runtime::default() };
        *self.runtime.get_or_init(|| {
            let folder = self.workspace.clone().or_else(|| std::env::current_dir().ok());
            folder.map_or_else(Runtime::default, |f| runtime_of(&f))
        })
    }

    fn symbol_index(&self, start: bool) -> Option<Arc<locus_index::Index>> {
        if !start {
            return self.index.get().cloned();
        }
        let index = self.index.get_or_init(|| {
            let folders = self.status().workspace_folders;
            let folders = folders
                .iter()
                .map(|f| locus_platform::path::canonicalize(f).unwrap_or_else(|_| f.clone()));
            let config = locus_index::Config::standard();
            // As this host's own warnings go (the index itself never prints).
            config.warnings.set_sink(|m| eprintln!("locus: symbol index: warning: {m}"));
            locus_index::Index::start(folders.collect(), config)
        });
        Some(index.clone())
    }
}
