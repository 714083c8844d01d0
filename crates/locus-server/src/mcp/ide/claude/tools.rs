//! The tools Claude Code calls on its IDE, one MCP server per connection: `openDiff` reviewed
//! in the editor, the diagnostics and files the editor has, the selection Locus mirrors.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use locus_tools::tools::action::names;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomNotification,
    ListToolsResult, PaginatedRequestParams, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};

use crate::mcp::host::EditorLink;
use crate::mcp::ide::focus::Focus;
use crate::mcp::ide::review::{self, Verdict};
use crate::mcp::ide::{Served, mcp};

/// How long the editor gets to open a file or collect diagnostics.
const ACTION_WAIT: Duration = Duration::from_secs(5);

/// A focus as `selection_changed` and `getCurrentSelection` spell it.
pub(super) fn selection(f: &Focus) -> Value {
    json!({
        "text": f.text,
        "filePath": f.path,
        "fileUrl": f.uri,
        "selection": {
            "start": {"line": f.start.line, "character": f.start.character},
            "end": {"line": f.end.line, "character": f.end.character},
            "isEmpty": f.is_empty(),
        },
    })
}

/// The MCP server of one connection.
#[derive(Clone)]
pub(super) struct IdeServer {
    pub(super) served: Arc<Served>,
    /// The diffs this CLI opened and nobody decided on: tab name → review id.
    pub(super) reviews: Arc<Mutex<HashMap<String, String>>>,
    /// The last non-empty selection (`getLatestSelection`).
    pub(super) latest: Arc<Mutex<Option<Focus>>>,
    /// Signalled when the CLI sent `ide_connected`.
    pub(super) connected: Arc<tokio::sync::Notify>,
}

impl ServerHandler for IdeServer {
    fn get_info(&self) -> ServerConfig {
        mcp::server_config()
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _: NotificationContext<RoleServer>,
    ) {
        if notification.method == "ide_connected" {
            self.connected.notify_one();
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.clone().unwrap_or_default();
        let result = match request.name.as_ref() {
            "openDiff" => self.open_diff(&args).await?,
            "close_tab" => self.close_tab(&args).await,
            "closeAllDiffTabs" => self.close_all().await,
            "getDiagnostics" => self.diagnostics(&args).await?,
            "openFile" => self.open_file(&args).await?,
            "getCurrentSelection" => self.current_selection(),
            "getLatestSelection" => self.latest_selection(),
            "getOpenEditors" => self.open_editors(),
            "getWorkspaceFolders" => self.workspace_folders(),
            "checkDocumentDirty" => self.document_dirty(&args)?,
            "saveDocument" => self.save_document(&args).await?,
            other => return Err(mcp::no_tool(other)),
        };
        Ok(result.into())
    }
}

impl IdeServer {
    fn link(&self) -> Result<Arc<dyn EditorLink>, ErrorData> {
        self.served.info.link().ok_or_else(|| internal("no editor is connected to Locus"))
    }

    /// Shows the proposal in the editor and answers once the user decided: `FILE_SAVED` and
    /// the final text (the CLI writes it), or `DIFF_REJECTED`.
    async fn open_diff(&self, args: &Map<String, Value>) -> Result<CallToolResult, ErrorData> {
        let path = string(args, "new_file_path").or_else(|_| string(args, "old_file_path"))?;
        let contents = string(args, "new_file_contents")?;
        let tab = string(args, "tab_name").unwrap_or_else(|_| format!("Proposed {path}"));
        let link = self.link()?;
        if !review::can_review(link.as_ref()) {
            return Err(internal(&format!(
                "{} cannot show a diff to review (it declared no {} action): answer in the terminal",
                link.editor().name,
                review::PROPOSE
            )));
        }
        let uri = locus_platform::file_uri::uri_of(Path::new(&path));
        let id = tab.clone();
        self.reviews.lock().unwrap_or_else(PoisonError::into_inner).insert(tab.clone(), id.clone());
        let verdict = review::review(link, &id, &uri, &contents, &tab).await;
        self.reviews.lock().unwrap_or_else(PoisonError::into_inner).remove(&tab);
        match verdict {
            Ok(Verdict::Accepted(text)) => Ok(texts(["FILE_SAVED", &text])),
            Ok(Verdict::Rejected) => Ok(texts(["DIFF_REJECTED", &tab])),
            Err(e) => Err(internal(&format!("the editor could not show the diff: {e:?}"))),
        }
    }

    async fn close_tab(&self, args: &Map<String, Value>) -> CallToolResult {
        let tab = string(args, "tab_name").unwrap_or_default();
        let id = self.reviews.lock().unwrap_or_else(PoisonError::into_inner).remove(&tab);
        if let (Some(id), Some(link)) = (id, self.served.info.link()) {
            review::close(link, &id).await;
        }
        texts(["TAB_CLOSED"])
    }

    /// Closes the diffs this CLI opened (it calls this at every turn), none of anyone else's.
    async fn close_all(&self) -> CallToolResult {
        let open: Vec<String> = self
            .reviews
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain()
            .map(|(_, id)| id)
            .collect();
        if let Some(link) = self.served.info.link() {
            for id in &open {
                review::close(link.clone(), id).await;
            }
        }
        texts([format!("CLOSED_{}_DIFF_TABS", open.len()).as_str()])
    }

    /// The editor's diagnostics (`diagnostic.collect`), with severities named as the CLI reads
    /// them.
    async fn diagnostics(&self, args: &Map<String, Value>) -> Result<CallToolResult, ErrorData> {
        let link = self.link()?;
        let params = match args.get("uri").and_then(Value::as_str) {
            Some(uri) => json!({ "uri": uri }),
            None => json!({}),
        };
        let mut data = link
            .request(names::DIAGNOSTIC_COLLECT, params, ACTION_WAIT)
            .await
            .map_err(|e| internal(&format!("the editor could not collect diagnostics: {e:?}")))?;
        for file in data.as_array_mut().into_iter().flatten() {
            for d in file.get_mut("diagnostics").and_then(Value::as_array_mut).into_iter().flatten()
            {
                if let Some(n) = d.get("severity").and_then(Value::as_u64) {
                    // LSP's 1 to 4; anything else (0, a future value) reads as information.
                    let names = ["Error", "Warning", "Information", "Hint"];
                    let name = n.checked_sub(1).and_then(|i| names.get(i as usize)).copied();
                    d["severity"] = json!(name.unwrap_or("Information"));
                }
            }
        }
        Ok(texts([data.to_string().as_str()]))
    }

    async fn open_file(&self, args: &Map<String, Value>) -> Result<CallToolResult, ErrorData> {
        let path = string(args, "filePath")?;
        let uri = locus_platform::file_uri::uri_of(Path::new(&path));
        self.link()?
            .request(names::EDITOR_OPEN_FILE, json!({ "uri": uri }), ACTION_WAIT)
            .await
            .map_err(|e| internal(&format!("the editor could not open {path}: {e:?}")))?;
        Ok(texts([format!("Opened file: {path}").as_str()]))
    }

    /// Saves the file with the editor's own save (`file.save`): its formatters and hooks run,
    /// and nothing is written behind its back. An editor that cannot be asked says so.
    async fn save_document(&self, args: &Map<String, Value>) -> Result<CallToolResult, ErrorData> {
        let path = string(args, "filePath")?;
        let link = self.link()?;
        let editor = link.editor();
        if !editor.declared.iter().any(|a| a == names::FILE_SAVE) {
            return Ok(json_text(json!({
                "success": false, "filePath": path, "saved": false,
                "message": format!("{} cannot be asked to save a file (it declared no {} action): save it there", editor.name, names::FILE_SAVE),
            })));
        }
        let uri = locus_platform::file_uri::uri_of(Path::new(&path));
        let data = link
            .request(names::FILE_SAVE, json!({ "uri": uri }), ACTION_WAIT)
            .await
            .map_err(|e| internal(&format!("the editor could not save {path}: {e:?}")))?;
        let saved = data["saved"].as_bool().unwrap_or(false);
        let message = if saved { "Document saved" } else { "Not open, or no unsaved changes" };
        Ok(json_text(
            json!({"success": true, "filePath": path, "saved": saved, "message": message}),
        ))
    }

    fn current_selection(&self) -> CallToolResult {
        let focus = self.served.state.with(|s| Focus::of(&s.snapshot()));
        json_text(focus.as_ref().map_or_else(no_editor, |f| with_success(selection(f))))
    }

    fn latest_selection(&self) -> CallToolResult {
        let latest = self.latest.lock().unwrap_or_else(PoisonError::into_inner).clone();
        json_text(latest.as_ref().map_or_else(
            || json!({"success": false, "message": "No selection available"}),
            |f| with_success(selection(f)),
        ))
    }

    fn open_editors(&self) -> CallToolResult {
        let snapshot = self.served.state.with(|s| s.snapshot());
        let tabs: Vec<Value> = snapshot
            .documents
            .iter()
            .map(|d| {
                let label = Path::new(&d.path)
                    .file_name()
                    .map_or(d.path.clone(), |n| n.to_string_lossy().into_owned());
                json!({
                    "uri": d.uri, "isActive": snapshot.active.as_deref() == Some(d.uri.as_str()),
                    "label": label, "languageId": d.language_id, "isDirty": d.is_dirty,
                })
            })
            .collect();
        json_text(json!({ "tabs": tabs }))
    }

    fn workspace_folders(&self) -> CallToolResult {
        let folders: Vec<PathBuf> = self.served.state.with(|s| s.snapshot().folders);
        let list: Vec<Value> = folders
            .iter()
            .map(|f| {
                json!({
                    "name": f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
                    "uri": locus_platform::file_uri::uri_of(f),
                    "path": f.display().to_string(),
                })
            })
            .collect();
        let root = folders.first().map(|f| f.display().to_string());
        json_text(json!({"success": true, "folders": list, "rootPath": root}))
    }

    fn document_dirty(&self, args: &Map<String, Value>) -> Result<CallToolResult, ErrorData> {
        let path = string(args, "filePath")?;
        let snapshot = self.served.state.with(|s| s.snapshot());
        Ok(json_text(match snapshot.documents.iter().find(|d| d.path == path) {
            Some(d) => {
                json!({"success": true, "filePath": path, "isDirty": d.is_dirty, "isUntitled": false})
            }
            None => json!({"success": false, "message": format!("Document not open: {path}")}),
        }))
    }
}

/// The tools, as Claude Code's IDEs list them (`close_tab` is called, never listed).
fn tools() -> Vec<Tool> {
    let schema = mcp::schema;
    let string = json!({"type": "string"});
    vec![
        Tool::new(
            "openDiff",
            "Shows a proposed change to a file as a diff in the editor and waits until the user accepts it (FILE_SAVED and the final text) or rejects it (DIFF_REJECTED)",
            schema(
                json!({"old_file_path": string, "new_file_path": string, "new_file_contents": string, "tab_name": string}),
                &["old_file_path", "new_file_path", "new_file_contents", "tab_name"],
            ),
        ),
        Tool::new("closeAllDiffTabs", "Closes the diffs this agent opened", schema(json!({}), &[])),
        Tool::new(
            "getDiagnostics",
            "The editor's diagnostics (errors, warnings) of one file (a file:// URI), or of every file",
            schema(json!({"uri": string}), &[]),
        ),
        Tool::new(
            "openFile",
            "Opens a file in the editor",
            schema(json!({"filePath": string}), &["filePath"]),
        ),
        Tool::new(
            "getCurrentSelection",
            "The selection in the active editor",
            schema(json!({}), &[]),
        ),
        Tool::new("getLatestSelection", "The last non-empty selection", schema(json!({}), &[])),
        Tool::new("getOpenEditors", "The files open in the editor", schema(json!({}), &[])),
        Tool::new("getWorkspaceFolders", "The editor's workspace folders", schema(json!({}), &[])),
        Tool::new(
            "checkDocumentDirty",
            "Whether a file open in the editor has unsaved changes",
            schema(json!({"filePath": string}), &["filePath"]),
        ),
        Tool::new(
            "saveDocument",
            "Saves a file's unsaved changes in the editor",
            schema(json!({"filePath": string}), &["filePath"]),
        ),
    ]
}

fn string(args: &Map<String, Value>, key: &str) -> Result<String, ErrorData> {
    args.get(key)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| ErrorData::invalid_params(format!("`{key}` (a string) is required"), None))
}

fn internal(message: &str) -> ErrorData {
    ErrorData::internal_error(message.to_string(), None)
}

fn texts<'a>(items: impl IntoIterator<Item = &'a str>) -> CallToolResult {
    CallToolResult::success(items.into_iter().map(|t| ContentBlock::text(t.to_string())).collect())
}

fn json_text(value: Value) -> CallToolResult {
    texts([value.to_string().as_str()])
}

fn with_success(mut value: Value) -> Value {
    value["success"] = json!(true);
    value
}

fn no_editor() -> Value {
    json!({"success": false, "message": "No active editor found"})
}
