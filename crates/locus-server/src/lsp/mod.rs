//! `locus lsp`: the editor-facing language server on stdio.
//!
//! The editor starts it beside its usual language servers; from then on Locus mirrors every
//! open document and knows the active editor, the cursor and the selection (see
//! `docs/reference/lsp.md` and `docs/editors.md`).
//!
//! **Invariants.**
//! - Every message that changes the editor state is applied in the order it arrived, inside
//!   the read loop (see [`edge`]): no edit can overtake another, whatever tower-lsp's
//!   concurrency does with requests.
//! - A malformed message is logged and dropped (a request gets a JSON-RPC error); a panic
//!   while handling one is caught and logged. Nothing an editor sends stops the server.
//! - Locus answers no request with content: the capabilities it declares for editors
//!   without a plugin (hover, completion, …) only stand in for the cursor and return `null`.

mod actions;
mod edge;
pub mod log;
mod proposals;
mod transport;
mod warm;
mod wire;

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use locus_doc::{Position, PositionEncoding, Range};
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

use crate::mcp::Sidecar;
use crate::state::{CursorUpdate, Shared};

pub use log::Level;

/// The command `locus.cursor` (`workspace/executeCommand`).
pub const CURSOR_COMMAND: &str = "locus.cursor";
/// The command `locus.mention`: the lines of the focus (after `locus.cursor`'s arguments, when
/// given) sent to the agents' prompts.
pub const MENTION_COMMAND: &str = "locus.mention";

/// How `locus lsp` runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The sidecar's port: `None` with `--no-mcp`, else the port (0 = random).
    pub mcp_port: Option<u16>,
    /// What to log.
    pub log_level: Level,
    /// The tools the sidecar offers (`--tools`); all when `None`.
    pub tools: Option<locus_tools::ToolSelection>,
}

/// Serves LSP on stdin/stdout until the editor says `exit` or closes the pipe. Returns whether
/// the editor asked to shut down first (the exit status the LSP asks for).
pub fn run(options: Options) -> std::io::Result<bool> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let state = Shared::new();
    // The sidecar (crate::mcp) lives until this returns; dropping it removes its discovery file.
    let mcp = options
        .mcp_port
        .map(|port| crate::mcp::start_sidecar(port, state.clone(), options.tools.clone()));
    let status = mcp_status(options.mcp_port, mcp.as_ref());
    // The handlers reach it through a weak handle: it is owned here, and only here.
    let sidecar = match &mcp {
        Some(Ok(sidecar)) => Arc::downgrade(sidecar),
        _ => Weak::new(),
    };
    let _mcp = mcp;
    let (stdin, stdout) = (tokio::io::stdin(), tokio::io::stdout());
    let served = runtime.block_on(serve(options, state, sidecar, status, stdin, stdout));
    // tokio reads stdin on a blocking thread, which stays in `read` while the editor keeps
    // the pipe open after `exit` (the LSP says exit at once); dropping the runtime would
    // wait for that read forever, so it is left behind.
    runtime.shutdown_background();
    served
}

/// The `locus/mcpStatus` notification's params (docs/reference/lsp.md): whether agents can
/// reach this editor, and where. The token stays in the discovery file.
fn mcp_status(
    port: Option<u16>,
    started: Option<&std::result::Result<Arc<Sidecar>, String>>,
) -> Value {
    match (port, started) {
        (Some(_), Some(Ok(sidecar))) => {
            let url = sidecar.url();
            let port = url
                .rsplit_once(':')
                .and_then(|(_, rest)| rest.split('/').next())
                .and_then(|p| p.parse::<u16>().ok());
            // The file's path, so that an editor need not know where each system keeps it.
            let file = sidecar.discovery_file();
            serde_json::json!({"state": "listening", "url": url, "port": port, "discoveryFile": file})
        }
        (Some(port), Some(Err(message))) => {
            serde_json::json!({"state": "failed", "port": port, "message": message})
        }
        _ => serde_json::json!({"state": "disabled"}),
    }
}

/// `locus/mcpStatus`, sent to the editor once it is initialized.
enum McpStatus {}

impl notification::Notification for McpStatus {
    type Params = Value;
    const METHOD: &'static str = "locus/mcpStatus";
}

async fn serve<I, O>(
    options: Options,
    state: Shared,
    sidecar: Weak<Sidecar>,
    mcp_status: Value,
    input: I,
    output: O,
) -> std::io::Result<bool>
where
    I: tokio::io::AsyncRead + Unpin + Send + 'static,
    O: tokio::io::AsyncWrite,
{
    let ctx = Arc::new(Ctx {
        state,
        sidecar,
        session: Mutex::new(Session::default()),
        log: log::Log::new(options.log_level),
        client_log: Mutex::new(None),
        opened: Mutex::default(),
        proposals: proposals::Proposals::default(),
    });
    // These wait in the log until the editor attaches at `initialize` (see `log`).
    let version = env!("CARGO_PKG_VERSION");
    match (options.mcp_port, ctx.sidecar()) {
        (None, _) => ctx.log.info(format_args!("locus lsp {version} (MCP disabled)")),
        (Some(_), Some(sidecar)) => ctx.log.info(format_args!(
            "locus lsp {version}: MCP on {} (discovery file {})",
            sidecar.url(),
            sidecar.discovery_file().display()
        )),
        // Why it did not start is on stderr already (`crate::mcp::start_sidecar`).
        (Some(port), None) => ctx.log.info(format_args!(
            "locus lsp {version} (MCP could not start on 127.0.0.1, port {port}; 0 = random)"
        )),
    }
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<log::ToEditor>();
    let backend_ctx = ctx.clone();
    let (service, socket) = LspService::build(move |client: Client| {
        let forward = client.clone();
        tokio::spawn(async move {
            while let Some(m) = rx.recv().await {
                if m.show {
                    forward.show_message(m.typ, m.message).await;
                } else {
                    forward.log_message(m.typ, m.message).await;
                }
            }
        });
        Backend { ctx: backend_ctx, client, mcp_status }
    })
    .finish();
    // The editor's log gets messages from `initialize` on, as the LSP allows.
    *ctx.client_log.lock().unwrap_or_else(PoisonError::into_inner) = Some(tx);
    let edge = edge::Edge::new(service, ctx.clone());
    let (framed_in, sanitized) = tokio::io::duplex(1 << 16);
    tokio::spawn(transport::sanitize(input, sanitized, ctx.clone()));
    Server::new(framed_in, output, socket).serve(edge).await;
    // The editor said `exit` (or closed the pipe): nothing more goes to it.
    ctx.log.close();
    Ok(ctx.session().shutdown)
}

/// What was negotiated with the editor.
#[derive(Debug, Default)]
struct Session {
    encoding: PositionEncoding,
    initialized: bool,
    shutdown: bool,
    client: String,
    /// Whether the editor registers file watchers for the server on request.
    watches_files: bool,
}

/// Everything the handlers share.
pub(crate) struct Ctx {
    state: Shared,
    /// The MCP sidecar, while `run` keeps it (none with `--no-mcp`, or when it failed).
    sidecar: Weak<Sidecar>,
    session: Mutex<Session>,
    log: log::Log,
    /// Where log messages for the editor go, handed to `log` at `initialize`.
    client_log: Mutex<Option<log::EditorSender>>,
    /// `didOpen` params the transport decoded, by key, until the edge applies them in the
    /// stream's order (see `transport`), and the next key.
    opened: Mutex<(u64, std::collections::HashMap<u64, wire::DidOpen>)>,
    /// Proposed edits Locus shows as documents, for editors with no diff view.
    proposals: proposals::Proposals,
}

impl Ctx {
    fn session(&self) -> MutexGuard<'_, Session> {
        self.session.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The MCP sidecar, if one runs.
    fn sidecar(&self) -> Option<Arc<Sidecar>> {
        self.sidecar.upgrade()
    }

    fn encoding(&self) -> PositionEncoding {
        self.session().encoding
    }

    /// Keeps a decoded `didOpen` for the edge; returns its key.
    fn stash_opened(&self, opened: wire::DidOpen) -> u64 {
        let mut stash = self.opened.lock().unwrap_or_else(PoisonError::into_inner);
        let key = stash.0;
        stash.0 += 1;
        stash.1.insert(key, opened);
        key
    }

    /// The `didOpen` kept under `key`, taken.
    fn take_opened(&self, key: u64) -> Option<wire::DidOpen> {
        self.opened.lock().unwrap_or_else(PoisonError::into_inner).1.remove(&key)
    }

    /// A position-bearing request from an editor without a cursor plugin.
    fn stand_in(&self, method: &str, uri: &Uri, position: Position, selection: Option<Range>) {
        let encoding = self.encoding();
        let result = guard(&self.log, method, || {
            self.state.with(|s| s.request_at(uri.as_str(), position, selection, encoding))
        });
        match result {
            Some(Err(e)) => self.log.debug(format_args!("{method}: {e}")),
            _ => self.log.debug(format_args!(
                "{method} at {}:{}:{} stands in for the cursor",
                uri.as_str(),
                position.line,
                position.character
            )),
        }
    }
}

/// Runs `f`, catching a panic (logged as an error, `None` returned).
fn guard<R>(log: &log::Log, what: &str, f: impl FnOnce() -> R) -> Option<R> {
    match std::panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => Some(r),
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            log.error(format_args!("internal error while handling {what}: {message}"));
            None
        }
    }
}

/// Picks the position encoding: UTF-8 if offered, else UTF-16 (the default every client
/// supports), else UTF-32.
fn negotiate(offered: Option<&[String]>) -> PositionEncoding {
    let Some(offered) = offered else { return PositionEncoding::Utf16 };
    for want in ["utf-8", "utf-16", "utf-32"] {
        if offered.iter().any(|o| o.eq_ignore_ascii_case(want)) {
            return PositionEncoding::from_lsp_str(want).expect("known name");
        }
    }
    PositionEncoding::Utf16
}

fn truthy(v: Option<&Value>) -> bool {
    match v {
        Some(Value::Bool(b)) => *b,
        Some(Value::Object(o)) => !o.is_empty(),
        _ => false,
    }
}

fn folder_path(uri: &Uri) -> PathBuf {
    PathBuf::from(crate::state::path_of(uri.as_str()))
}

struct Backend {
    ctx: Arc<Ctx>,
    client: Client,
    /// What `locus/mcpStatus` tells the editor once it is initialized.
    mcp_status: Value,
}

impl Backend {
    fn capabilities(encoding: PositionEncoding, stand_ins: bool) -> ServerCapabilities {
        let mut caps = ServerCapabilities {
            position_encoding: Some(PositionEncodingKind::new(encoding.as_lsp_str())),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    will_save: None,
                    will_save_wait_until: None,
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                        include_text: Some(false),
                    })),
                },
            )),
            execute_command_provider: Some(ExecuteCommandOptions {
                commands: vec![
                    CURSOR_COMMAND.to_string(),
                    MENTION_COMMAND.to_string(),
                    proposals::ACCEPT.to_string(),
                    proposals::REJECT.to_string(),
                ],
                work_done_progress_options: WorkDoneProgressOptions::default(),
            }),
            workspace: Some(WorkspaceServerCapabilities {
                workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                    supported: Some(true),
                    change_notifications: Some(OneOf::Left(true)),
                }),
                file_operations: None,
            }),
            experimental: Some(
                serde_json::json!({"locus": {"getContext": true, "cursor": true, "activeEditor": true, "symbols": true}}),
            ),
            ..ServerCapabilities::default()
        };
        if stand_ins {
            caps.hover_provider = Some(HoverProviderCapability::Simple(true));
            caps.completion_provider = Some(CompletionOptions::default());
            caps.signature_help_provider = Some(SignatureHelpOptions {
                trigger_characters: Some(vec!["(".into(), ",".into()]),
                retrigger_characters: None,
                work_done_progress_options: WorkDoneProgressOptions::default(),
            });
            caps.document_highlight_provider = Some(OneOf::Left(true));
            caps.code_action_provider = Some(CodeActionProviderCapability::Simple(true));
            caps.definition_provider = Some(OneOf::Left(true));
            caps.references_provider = Some(OneOf::Left(true));
        }
        caps
    }

    /// `locus.mention`: sends the lines of the user's focus (its selection, else the cursor's
    /// line) to the agents connected through their IDE channels, after placing the cursor as
    /// `locus.cursor` does when arguments are given. Said to the user when no agent got it.
    fn mention_command(&self, arguments: &[Value]) -> Result<Option<Value>> {
        if !arguments.is_empty() {
            self.cursor_command(arguments)?;
        }
        let focus = self.ctx.state.with(|s| crate::mcp::ide::focus::Focus::of(&s.snapshot()));
        let Some(focus) = focus else {
            let why = "no file is active to mention";
            self.ctx.log.show(Level::Warn, format_args!("Locus: {why}"));
            return Err(Error::invalid_params(why));
        };
        // An end at the start of a line is not in the selection.
        let last = if focus.end.line > focus.start.line && focus.end.character == 0 {
            focus.end.line - 1
        } else {
            focus.end.line
        };
        let mention =
            crate::mcp::ide::Mention { path: focus.path, lines: (focus.start.line, last) };
        let sent = self.ctx.sidecar().map_or(0, |s| s.mention(mention));
        if sent == 0 {
            self.ctx.log.show(
                Level::Warn,
                format_args!("Locus: no agent is connected to take the mention"),
            );
        }
        Ok(Some(serde_json::json!({ "agents": sent })))
    }

    /// `locus.cursor`: the cursor by path, from editors whose keymaps can run a command but
    /// that have no plugin API (Helix). The path may be absolute, a `file:` URI, `~/…`, or
    /// relative to the editor's working directory or a workspace folder (see
    /// `state::document::find_path`). Whatever goes wrong is shown to the user as well as
    /// answered as an error: Helix 25.07 only logs a failed command's error, and the user
    /// pressed a key expecting something to happen.
    fn cursor_command(&self, arguments: &[Value]) -> Result<Option<Value>> {
        let args = match wire::CursorArgument::parse_all(arguments) {
            Ok(args) => args,
            Err(e) => {
                self.ctx.log.show(Level::Warn, format_args!("Locus: {e}"));
                return Err(Error::invalid_params(e));
            }
        };
        for arg in args {
            let path = if arg.path.starts_with("file:") {
                crate::state::path_of(&arg.path)
            } else {
                arg.path.clone()
            };
            let update = CursorUpdate {
                version: None,
                position: arg.position(),
                selections: arg.selection().into_iter().collect(),
                encoding: wire::CURSOR_COMMAND_ENCODING,
            };
            let result = guard(&self.ctx.log, CURSOR_COMMAND, || {
                self.ctx.state.with(|s| {
                    let uri = s.set_cursor_by_path(std::path::Path::new(&path), update)?;
                    // A command run from the editor comes from the focused document.
                    s.set_active(Some(&uri), true);
                    Ok::<_, crate::state::StateError>(uri)
                })
            });
            match result {
                Some(Ok(uri)) => self
                    .ctx
                    .log
                    .debug(format_args!("{CURSOR_COMMAND}: {uri}:{}:{}", arg.line, arg.column)),
                Some(Err(e @ crate::state::StateError::UnknownPath(_))) => {
                    self.ctx.log.show(
                        Level::Warn,
                        format_args!(
                            "Locus: {e} (is `locus` among this language's language servers?)"
                        ),
                    );
                    return Err(Error::invalid_params(e.to_string()));
                }
                Some(Err(e)) => {
                    self.ctx.log.show(Level::Warn, format_args!("Locus: {CURSOR_COMMAND}: {e}"));
                    return Err(Error::invalid_params(e.to_string()));
                }
                None => {
                    self.ctx.log.show(
                        Level::Error,
                        format_args!("Locus: {CURSOR_COMMAND} failed; see the log"),
                    );
                    return Err(Error::internal_error());
                }
            }
        }
        Ok(None)
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        if let Some(tx) = self.ctx.client_log.lock().unwrap_or_else(PoisonError::into_inner).take()
        {
            self.ctx.log.attach(tx);
        }
        let caps = &params.capabilities;
        let offered: Option<Vec<String>> = caps
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref())
            .map(|v| v.iter().map(|k| k.as_str().to_string()).collect())
            .or_else(|| caps.offset_encoding.clone());
        let encoding = negotiate(offered.as_deref());
        let client = params.client_info.as_ref().map(|c| c.name.clone()).unwrap_or_default();
        let experimental = caps.experimental.as_ref().and_then(|e| e.get("locus"));
        let plugin = truthy(experimental.and_then(|l| l.get("cursor")));
        let options = params.initialization_options.as_ref();
        // Neovim turns hover, definition and completion providers into `K`, `tagfunc` and
        // `omnifunc`: empty answers there would be noise, and Neovim never sends these
        // requests on its own anyway, so it gets none (its plugin reports the cursor).
        let stand_ins = match options.and_then(|o| o.get("standIns")).and_then(Value::as_bool) {
            Some(choice) => choice,
            None => !plugin && client != "Neovim",
        };
        let mut folders: Vec<PathBuf> =
            params.workspace_folders.iter().flatten().map(|f| folder_path(&f.uri)).collect();
        #[allow(
            deprecated,
            reason = "rootUri is deprecated, but editors without workspaceFolders still send only it"
        )]
        if folders.is_empty() {
            if let Some(root) = params.root_uri.as_ref() {
                folders.push(folder_path(root));
            } else if let Some(root) = params.root_path.as_ref() {
                folders.push(PathBuf::from(root));
            }
        }
        self.ctx.log.info(format_args!(
            "initialize: client {:?}, position encoding {}, cursor plugin {plugin}, stand-in requests {stand_ins}, workspace folders {:?}",
            if client.is_empty() { "(unnamed)" } else { &client },
            encoding.as_lsp_str(),
            folders
        ));
        warm::start(folders.clone());
        let sidecar = self.ctx.sidecar();
        // The workspace symbol index serves agents: built only beside an MCP sidecar.
        if let Some(sidecar) = &sidecar {
            let ctx = self.ctx.clone();
            sidecar.index().start(folders.clone(), move |m| {
                ctx.log.warn(format_args!("symbol index: {m}"));
            });
        }
        self.ctx.state.with(|s| {
            s.set_cursor_plugin(plugin);
            s.set_folders(folders);
        });
        if let Some(sidecar) = &sidecar {
            let asked = options.and_then(|o| o.get("ideChannels"));
            if let Err(why) = sidecar.editor_connected(&client, asked) {
                self.ctx.log.warn(format_args!("{why}; no agent channel is served"));
            }
        }
        let mut declared = actions::declared(options, &self.ctx);
        // An editor with no diff view of its own that can open a document on request reviews
        // proposed edits as documents Locus shows it. Helix 25.07 answers `window/showDocument`
        // without declaring it.
        let shows_documents = client.eq_ignore_ascii_case("helix")
            || caps
                .window
                .as_ref()
                .and_then(|w| w.show_document.as_ref())
                .is_some_and(|d| d.support);
        let by_document = shows_documents && !declared.iter().any(|a| a == actions::PROPOSE);
        if by_document {
            declared.extend([actions::PROPOSE.to_string(), actions::PROPOSE_CLOSE.to_string()]);
        }
        if !declared.is_empty() {
            self.ctx.log.info(format_args!("editor actions declared: {}", declared.join(", ")));
        }
        if let Some(sidecar) = &sidecar {
            sidecar.set_link(Arc::new(actions::Link {
                client: self.client.clone(),
                ctx: self.ctx.clone(),
                name: client.clone(),
                declared,
                encoding,
                by_document,
            }));
        }
        {
            let mut session = self.ctx.session();
            session.encoding = encoding;
            session.initialized = true;
            session.client = client;
            session.watches_files = params
                .capabilities
                .workspace
                .as_ref()
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|d| d.dynamic_registration)
                .unwrap_or(false);
        }
        Ok(InitializeResult {
            capabilities: Backend::capabilities(encoding, stand_ins),
            server_info: Some(ServerInfo {
                name: "locus".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        self.ctx.log.debug(format_args!("initialized"));
        let mut status = self.mcp_status.clone();
        if let (Some(sidecar), Some(fields)) = (self.ctx.sidecar(), status.as_object_mut()) {
            // The agents' channels: a terminal the editor opens can name the port
            // (`CLAUDE_CODE_SSE_PORT`) so that the agent in it picks this editor.
            let channels: Vec<Value> = sidecar
                .channels()
                .into_iter()
                .map(|c| serde_json::json!({"agent": c.agent, "port": c.port, "file": c.file}))
                .collect();
            fields.insert("channels".into(), channels.into());
        }
        self.client.send_notification::<McpStatus>(status).await;
        // Files changed on disk reach the symbol index through the editor's watcher too
        // (beside the index's own, which inotify's limits may stop), when it offers one.
        let watches_files = self.ctx.session().watches_files;
        if let Some(index) = self.ctx.sidecar().and_then(|s| s.index().current())
            && watches_files
        {
            let options = DidChangeWatchedFilesRegistrationOptions {
                watchers: vec![FileSystemWatcher {
                    glob_pattern: GlobPattern::String(index.watch_glob()),
                    kind: None,
                }],
            };
            let registration = Registration {
                id: "locus-index-files".into(),
                method: "workspace/didChangeWatchedFiles".into(),
                register_options: serde_json::to_value(options).ok(),
            };
            let client = self.client.clone();
            let log = self.ctx.clone();
            tokio::spawn(async move {
                if let Err(e) = client.register_capability(vec![registration]).await {
                    log.log.debug(format_args!("the editor refused the file watchers: {e}"));
                }
            });
        }
    }

    async fn shutdown(&self) -> Result<()> {
        self.ctx.session().shutdown = true;
        let sidecar = self.ctx.sidecar();
        // The discovery file goes at once, so that no agent is routed to an editor that is
        // closing (editors may kill the server right after `exit`).
        if let Some(sidecar) = &sidecar {
            sidecar.withdraw();
        }
        self.ctx.log.info(format_args!("shutdown requested"));
        if let Some(sidecar) = &sidecar
            && !sidecar.index().save_cache().await
        {
            self.ctx.log.info(format_args!("the symbol cache's write did not end within 2 s"));
        }
        Ok(())
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        let added: Vec<PathBuf> = params.event.added.iter().map(|f| folder_path(&f.uri)).collect();
        let removed: Vec<PathBuf> =
            params.event.removed.iter().map(|f| folder_path(&f.uri)).collect();
        self.ctx.log.info(format_args!("workspace folders: added {added:?}, removed {removed:?}"));
        let folders = self.ctx.state.with(|s| {
            s.change_folders(added, &removed);
            s.snapshot().folders
        });
        if let Some(sidecar) = self.ctx.sidecar() {
            sidecar.index().set_folders(folders);
        }
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let paths: Vec<PathBuf> = params.changes.iter().map(|c| folder_path(&c.uri)).collect();
        self.ctx.log.debug(format_args!("{} watched file(s) changed", paths.len()));
        if let Some(sidecar) = self.ctx.sidecar() {
            sidecar.index().paths_changed(paths);
        }
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        match params.command.as_str() {
            CURSOR_COMMAND => self.cursor_command(&params.arguments),
            MENTION_COMMAND => self.mention_command(&params.arguments),
            proposals::ACCEPT | proposals::REJECT => {
                let accepted = params.command == proposals::ACCEPT;
                let state = &self.ctx.state;
                let active = state
                    .with(|s| s.active_uri())
                    .and_then(|u| locus_platform::file_uri::path_of(&u));
                let text_of = |file: &std::path::Path| {
                    let uri = locus_platform::file_uri::uri_of(file);
                    state.with(|s| s.text(&uri)).map(|(_, text)| text)
                };
                match self.ctx.proposals.decide(accepted, active.as_deref(), text_of) {
                    Ok(()) => Ok(None),
                    Err(why) => {
                        self.ctx.log.show(Level::Warn, format_args!("Locus: {why}"));
                        Err(Error::invalid_params(why))
                    }
                }
            }
            other => Err(Error::invalid_params(format!(
                "unknown command `{other}`; Locus has `{CURSOR_COMMAND}`, `{MENTION_COMMAND}`, `{}` and `{}`",
                proposals::ACCEPT,
                proposals::REJECT
            ))),
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = &params.text_document_position_params;
        self.ctx.stand_in("textDocument/hover", &p.text_document.uri, position(p.position), None);
        Ok(None)
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let p = &params.text_document_position;
        self.ctx.stand_in(
            "textDocument/completion",
            &p.text_document.uri,
            position(p.position),
            None,
        );
        Ok(None)
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        let p = &params.text_document_position_params;
        self.ctx.stand_in(
            "textDocument/signatureHelp",
            &p.text_document.uri,
            position(p.position),
            None,
        );
        Ok(None)
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let p = &params.text_document_position_params;
        self.ctx.stand_in(
            "textDocument/documentHighlight",
            &p.text_document.uri,
            position(p.position),
            None,
        );
        Ok(None)
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let range = Range { start: position(params.range.start), end: position(params.range.end) };
        let selection = (range.start != range.end).then_some(range);
        self.ctx.stand_in(
            "textDocument/codeAction",
            &params.text_document.uri,
            range.end,
            selection,
        );
        Ok(None)
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let p = &params.text_document_position_params;
        self.ctx.stand_in(
            "textDocument/definition",
            &p.text_document.uri,
            position(p.position),
            None,
        );
        Ok(None)
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let p = &params.text_document_position;
        self.ctx.stand_in(
            "textDocument/references",
            &p.text_document.uri,
            position(p.position),
            None,
        );
        Ok(None)
    }
}

fn position(p: tower_lsp_server::ls_types::Position) -> Position {
    Position::new(p.line, p.character)
}

/// The JSON-RPC error for a request that came before `initialize`.
fn not_initialized() -> Error {
    Error {
        code: ErrorCode::ServerError(-32002),
        message: "Server not initialized".into(),
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_prefers_utf8_then_utf16() {
        let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(negotiate(None), PositionEncoding::Utf16);
        assert_eq!(negotiate(Some(&s(&["utf-16", "utf-8"]))), PositionEncoding::Utf8);
        assert_eq!(negotiate(Some(&s(&["utf-32", "utf-16"]))), PositionEncoding::Utf16);
        assert_eq!(negotiate(Some(&s(&["utf-32"]))), PositionEncoding::Utf32);
        assert_eq!(negotiate(Some(&s(&["latin-1"]))), PositionEncoding::Utf16);
    }
}
