//! The sidecar's [`Host`]: tools read the live editor state of `locus lsp`.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures_util::future::BoxFuture;
use locus_context::EditorContext;
use locus_doc::{Document, PositionEncoding};
use locus_tools::{ActionEditor, ActionError, AgentChannel, Host, HostStatus, Mode};
use serde_json::Value;

use crate::index::SidecarIndex;
use crate::mcp::ide::{Agent, Channel};
use crate::state::{ContextQuery, Shared};

/// What the sidecar knows about itself beyond the editor state.
#[derive(Debug)]
pub struct SidecarInfo {
    /// When the process started.
    pub started: SystemTime,
    /// The sidecar's URL.
    pub url: String,
    /// The editor's name, once it initialized.
    pub editor: Mutex<Option<String>>,
    /// When the editor last sent anything (ms since the epoch).
    pub last_active_ms: AtomicU64,
    /// The editor's side of `locus/editorAction`, once it initialized (editor action).
    pub link: Mutex<Option<Arc<dyn EditorLink>>>,
    /// The agents' IDE channels served for the editor, once it initialized.
    pub served_channels: Mutex<Vec<(Agent, Arc<Channel>)>>,
}

/// How tools reach the editor for editor actions (`locus/editorAction`, docs/reference/lsp.md):
/// the LSP edge implements it over its client (`crate::lsp`) and hands it over at `initialize`.
pub trait EditorLink: Send + Sync + std::fmt::Debug {
    /// Who the editor is and what it declared.
    fn editor(&self) -> ActionEditor;
    /// Sends the action and waits at most `wait` for its `data`.
    fn request(
        &self,
        action: &str,
        params: Value,
        wait: Duration,
    ) -> BoxFuture<'static, Result<Value, ActionError>>;
}

impl SidecarInfo {
    /// Notes that the editor just sent something.
    pub fn touch(&self) {
        self.last_active_ms.store(now_ms(), Ordering::Relaxed);
    }

    /// The editor's name, if it initialized.
    pub fn editor(&self) -> Option<String> {
        self.editor.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The editor's side of editor actions, once it initialized.
    pub fn link(&self) -> Option<Arc<dyn EditorLink>> {
        self.link.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The agents' IDE channels served, as `bridge_status` and `locus/mcpStatus` show them.
    pub fn agent_channels(&self) -> Vec<AgentChannel> {
        let served = self.served_channels.lock().unwrap_or_else(PoisonError::into_inner);
        served
            .iter()
            .map(|(agent, c)| AgentChannel {
                agent: agent.name().to_string(),
                port: c.port(),
                file: c.file().map(|f| f.display().to_string()),
                agents_connected: c.agents(),
            })
            .collect()
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

/// Tools over the live editor state.
pub struct EditorHost {
    state: Shared,
    info: Arc<SidecarInfo>,
    index: SidecarIndex,
}

impl EditorHost {
    /// A host over `state`, searching the sidecar's `index`.
    pub fn new(state: Shared, info: Arc<SidecarInfo>, index: SidecarIndex) -> EditorHost {
        EditorHost { state, info, index }
    }
}

impl Host for EditorHost {
    fn editor_context(&self) -> Result<Option<EditorContext>, String> {
        let query = ContextQuery { uri: None, position: None, encoding: PositionEncoding::Utf16 };
        let pending = self.state.with(|s| s.context_pending(query)).map_err(|e| e.to_string())?;
        let Some(pending) = pending else { return Ok(None) };
        let ready = pending.ready();
        let build = move || pending.build();
        // Computing the outline of a new version (or waiting for whoever computes it) takes a
        // millisecond or more on a large file: on the sidecar's runtime, other requests move
        // to another worker meanwhile rather than queue behind this one.
        let multi_thread = !ready
            && tokio::runtime::Handle::try_current()
                .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
        Ok(Some(if multi_thread { tokio::task::block_in_place(build) } else { build() }))
    }

    fn status(&self) -> HostStatus {
        let (active, documents_open, folders) = self.state.with(|s| {
            let snapshot = s.snapshot();
            let active = snapshot.active.as_deref().and_then(|uri| {
                snapshot.documents.iter().find(|d| d.uri == uri).map(|d| d.path.clone())
            });
            (active, snapshot.documents.len(), snapshot.folders)
        });
        let editor = self.info.editor();
        HostStatus {
            agent_channels: self.info.agent_channels(),
            mode: Mode::Sidecar,
            editors_connected: usize::from(editor.is_some()),
            editor,
            active_editor: active,
            documents_open,
            workspace_folders: folders,
            url: Some(self.info.url.clone()),
            started: self.info.started,
            pid: std::process::id(),
        }
    }

    fn document(&self, path: &Path) -> Option<(Document, String)> {
        let wanted = path.to_string_lossy();
        self.state.with(|s| {
            s.snapshot()
                .documents
                .into_iter()
                .find(|d| d.path == wanted)
                .map(|d| (d.doc, d.language_id))
        })
    }

    fn warn(&self, message: &str) {
        eprintln!("locus: mcp: warning: {message}");
    }

    fn runtime(&self, path: &Path) -> locus_scopes::Runtime {
        self.state.with(|s| s.python_runtime(path))
    }

    fn symbol_index(&self, start: bool) -> Option<Arc<locus_index::Index>> {
        if start && self.index.current().is_none() {
            self.index.start(self.state.with(|s| s.snapshot().folders), |m| {
                eprintln!("locus: symbol index: warning: {m}");
            });
        }
        self.index.synced(&self.state)
    }

    fn action_editor(&self) -> Option<ActionEditor> {
        self.info.link().map(|l| l.editor())
    }

    fn editor_action(
        &self,
        action: &str,
        params: Value,
        wait: Duration,
    ) -> BoxFuture<'static, Result<Value, ActionError>> {
        match self.info.link() {
            Some(link) => link.request(action, params, wait),
            None => Box::pin(async { Err(ActionError::NoEditor) }),
        }
    }
}
