//! Editor actions: tools that ask the user's editor to act through its own machinery
//! (`locus/editorAction`, docs/reference/lsp.md), one module per tool or pair of tools. This
//! module holds what they share: asking the editor, and reading its answers and positions.

mod diagnostic_collect;
mod edit_propose;
mod editor_open_file;
mod file_rename;
mod setting;
mod symbol_rename;

use std::path::{Path, PathBuf};
use std::time::Duration;

use locus_doc::{Document, Position, PositionEncoding};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

pub use diagnostic_collect::{
    DiagnosticCollect, DiagnosticData, DiagnosticParams, FileProblems, Problem,
};
pub use edit_propose::{EditPropose, ProposeData, ProposeParams};
pub use editor_open_file::{EditorOpenFile, OpenData, OpenParams};
pub use file_rename::{FileRename, FileRenameData, FileRenameParams};
pub use setting::{Scope, SettingData, SettingGet, SettingGetParams, SettingSet, SettingSetParams};
pub use symbol_rename::{RenameData, RenameParams, SymbolRename};

use crate::host::{ActionEditor, ActionError, Mode};
use crate::{
    Catalogue, Category, Cx, DEFAULT_TIMEOUT, Effect, ErrorCode, ToolError, ToolSpec, WhenToUse,
};

/// Registers the editor-action tools.
pub fn register(c: &mut Catalogue) {
    c.register(SymbolRename)
        .register(FileRename)
        .register(SettingGet)
        .register(SettingSet)
        .register(EditorOpenFile)
        .register(DiagnosticCollect)
        .register(EditPropose);
}

/// The action names editors declare and `locus/editorAction` sends (docs/reference/lsp.md):
/// each is its tool's name with the first `_` written as `.`.
pub mod names {
    /// Rename a symbol and its references.
    pub const SYMBOL_RENAME: &str = "symbol.rename";
    /// Rename (move) a file, updating imports.
    pub const FILE_RENAME: &str = "file.rename";
    /// Read a setting.
    pub const SETTING_GET: &str = "setting.get";
    /// Change a setting.
    pub const SETTING_SET: &str = "setting.set";
    /// Open and reveal a file.
    pub const EDITOR_OPEN_FILE: &str = "editor.open_file";
    /// The problems the editor shows.
    pub const DIAGNOSTIC_COLLECT: &str = "diagnostic.collect";
    /// Show a proposed content of a file for the user to accept or reject.
    pub const EDIT_PROPOSE: &str = "edit.propose";
    /// Withdraw a proposal nobody decided on (no tool of its own).
    pub const EDIT_PROPOSE_CLOSE: &str = "edit.propose.close";
    /// Save a file's unsaved changes with the editor's own save (no tool of its own: Claude
    /// Code's channel asks for it).
    pub const FILE_SAVE: &str = "file.save";
}

/// How long before the call's deadline the wait on the editor gives up, so the error can say
/// who did not answer.
const MARGIN: Duration = Duration::from_millis(300);

/// What every editor action's spec shares: listed with the editor tools, under the default
/// timeout, always offered, never a system tool. Each tool's `spec` names the rest (`name`,
/// `title`, `description`, `when_to_use`, `effect`) and takes these with `..EDITOR_ACTION`.
const EDITOR_ACTION: ToolSpec = ToolSpec {
    name: "",
    title: "",
    category: Category::Editor,
    description: "",
    when_to_use: WhenToUse { use_for: &[], dont_use_for: &[], patterns: &[] },
    timeout: DEFAULT_TIMEOUT,
    enabled: true,
    system: false,
    effect: Effect::Changes,
};

// ---------------------------------------------------------------------------------------------
// Asking the editor. Locus never writes a user's file itself: the editor does, with its own
// machinery (its rename provider, its language servers' import updates, its settings).

/// The editor that will do `action`, or why none will. An action goes only to an editor that
/// declared it: any other answers `E_UNSUPPORTED` with a hint naming what would work, and a
/// process with no editor `E_NO_EDITOR`.
fn editor_for(cx: &Cx, action: &str) -> Result<ActionEditor, ToolError> {
    let Some(editor) = cx.host.action_editor() else {
        let status = cx.host.status();
        let why = match status.mode {
            Mode::InProcess => {
                "no editor is connected: no `locus lsp` serves this workspace, so Locus runs \
                 in-process"
            }
            Mode::Sidecar => "the editor has not connected to Locus yet",
        };
        return Err(ToolError::new(ErrorCode::NoEditor, format!("cannot do `{action}`: {why}"))
            .with_hint(
                "Editor actions are done by the user's editor: ask the user to open this \
                 workspace in VS Code with the Locus extension or in Neovim with Locus's plugin \
                 (editors/nvim); agents then reach it through `locus mcp` or `locus call`. \
                 bridge_status says whether an editor is connected",
            )
            .with_details(json!({"action": action})));
    };
    if !editor.declared.iter().any(|a| a == action) {
        return Err(ToolError::new(
            ErrorCode::Unsupported,
            format!("{} cannot do `{action}`", editor_name(&editor)),
        )
        .with_hint(undeclared_hint(&editor.name, action))
        .with_details(
            json!({"action": action, "editor": editor.name, "declared": editor.declared}),
        ));
    }
    Ok(editor)
}

fn editor_name(editor: &ActionEditor) -> &str {
    if editor.name.is_empty() { "the editor" } else { &editor.name }
}

/// What would work instead of an action the editor did not declare.
fn undeclared_hint(editor: &str, action: &str) -> String {
    let lower = editor.to_ascii_lowercase();
    if lower.contains("helix") && action == names::EDIT_PROPOSE {
        return "Helix has no diff view: show the change in your answer and ask the user, then \
                edit the file"
            .to_string();
    }
    if lower.contains("helix") {
        let instead = match action {
            names::SYMBOL_RENAME => "`<space>r` (rename_symbol) on the symbol",
            names::FILE_RENAME => {
                "`:move NEW_PATH` (it asks the language servers to update imports)"
            }
            names::SETTING_GET | names::SETTING_SET => {
                "`:config-open` (config.toml) or `:set OPTION VALUE`"
            }
            names::EDITOR_OPEN_FILE => "`:open PATH`",
            names::DIAGNOSTIC_COLLECT => "`<space>D` (the workspace diagnostics picker)",
            _ => "Helix's own commands",
        };
        return format!(
            "Helix has no plugin API for this; ask the user to use {instead} in Helix, or edit \
             the files yourself"
        );
    }
    if lower.contains("neovim") || lower == "nvim" {
        if matches!(action, names::SETTING_GET | names::SETTING_SET) {
            return "Neovim's settings are Lua options in the user's config (init.lua, \
                    vim.o, vim.lsp.config): read or suggest the change there, or ask the user"
                .to_string();
        }
        return format!(
            "This Neovim's Locus plugin does not offer `{action}`: update editors/nvim, or ask \
             the user to do it in Neovim"
        );
    }
    format!(
        "This editor did not declare `{action}` (initializationOptions.editorActions): the VS \
         Code extension and the Neovim plugin of Locus do; otherwise ask the user to do it in \
         their editor"
    )
}

/// Sends `action` and waits for the editor's `data`, at most until just before the call's
/// deadline: an editor that never answers cannot hold a call, and the error names the editor
/// and the action. `E_UNSUPPORTED` means the editor cannot do the action (`-32601`); a closed
/// connection is `E_NO_EDITOR`; an editor that tried and failed answers as [`failed`] says.
async fn ask(
    cx: &Cx,
    editor: &ActionEditor,
    action: &str,
    params: Value,
) -> Result<Value, ToolError> {
    let left = cx.deadline.saturating_duration_since(tokio::time::Instant::now());
    let wait = left.saturating_sub(MARGIN).max(Duration::from_millis(50));
    let name = editor_name(editor).to_string();
    match cx.host.editor_action(action, params, wait).await {
        Ok(data) => Ok(data),
        Err(ActionError::NoEditor) => Err(ToolError::new(
            ErrorCode::NoEditor,
            format!("cannot do `{action}`: the connection to {name} is closed"),
        )
        .with_hint(
            "The editor went away (closed, or its Locus connection restarted) before answering: \
             check with the user whether it did anything, then retry once bridge_status shows \
             an editor connected",
        )
        .with_details(json!({"action": action, "editor": editor.name}))),
        Err(ActionError::Unsupported { message, hint }) => Err(ToolError::new(
            ErrorCode::Unsupported,
            format!("{name} cannot do `{action}`: {message}"),
        )
        .with_hint(hint.unwrap_or_else(|| undeclared_hint(&editor.name, action)))
        .with_details(json!({"action": action, "editor": editor.name}))),
        Err(ActionError::Timeout(waited)) => Err(ToolError::new(
            ErrorCode::Timeout,
            format!("{name} did not answer `{action}` within {} ms", waited.as_millis()),
        )
        .with_hint(
            "The editor may be waiting for the user (a prompt or a dialog) or busy: ask the user \
             to look at it, then check what changed before retrying; a longer timeout is the \
             `locus/timeoutMs` of the call's `_meta` (`locus mcp --timeout MS`)",
        )
        .with_details(
            json!({"action": action, "editor": editor.name, "waitedMs": waited.as_millis() as u64}),
        )),
        Err(ActionError::Failed { message, data }) => {
            Err(failed(&name, editor, action, message, data))
        }
    }
}

/// The editor tried `action` and failed. The code is the one the editor gave when it is one of
/// Locus's (`E_NOT_FOUND`, `E_TIMEOUT` for a language server of its that did not answer, …);
/// else `E_INTERNAL` — a failure inside the editor, not an action it cannot do
/// (`E_UNSUPPORTED` is only for those). The editor's message and hint are kept.
fn failed(
    name: &str,
    editor: &ActionEditor,
    action: &str,
    message: String,
    data: Option<Value>,
) -> ToolError {
    let data = data.unwrap_or(Value::Null);
    let code = data
        .get("code")
        .and_then(Value::as_str)
        .and_then(|c| ErrorCode::ALL.iter().copied().find(|k| k.as_str() == c))
        .unwrap_or(ErrorCode::Internal);
    let hint = match data.get("hint").and_then(Value::as_str) {
        Some(h) => h.to_string(),
        None if code == ErrorCode::Timeout => format!(
            "{name} gave up waiting for one of its own language servers: it may be busy \
             (indexing); check what changed, then retry"
        ),
        None => format!(
            "{name} tried and failed; its message says why. Nothing was changed unless the \
             editor says so: check the files, fix what the message names, or ask the user to \
             do it in the editor"
        ),
    };
    ToolError::new(code, format!("{name} could not do `{action}`: {message}"))
        .with_hint(hint)
        .with_details(
            json!({"action": action, "editor": editor.name, "failedIn": "editor", "data": data}),
        )
}

// ---------------------------------------------------------------------------------------------
// Files, URIs and positions. Tools speak 1-based lines and UTF-16 characters; actions speak LSP
// positions (0-based) in the encoding negotiated with the editor. The conversion happens here,
// against the text the editor has (its buffer when open, else the file on disk). Answers are
// read leniently: an editor may say more or less than the documented shape.

/// A file the tool speaks of: its path and the text the editor has (or the disk's).
struct FileText {
    path: PathBuf,
    doc: Document,
    language_id: Option<String>,
}

/// A path that need not exist yet (a rename's target): absolute, else against the workspace
/// folder holding `beside`, else the first folder, else the working directory.
fn target_path(cx: &Cx, path: &str, beside: &Path) -> PathBuf {
    let given = Path::new(path);
    if given.is_absolute() {
        return given.to_path_buf();
    }
    let folders = cx.host.status().workspace_folders;
    let base = folders
        .iter()
        .filter(|f| beside.starts_with(f))
        .max_by_key(|f| f.components().count())
        .or(folders.first())
        .cloned()
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default();
    base.join(given)
}

fn read(cx: &Cx, path: &Path) -> Result<FileText, ToolError> {
    if let Some((doc, language_id)) = cx.host.document(path) {
        return Ok(FileText { path: path.to_path_buf(), doc, language_id: Some(language_id) });
    }
    let bytes = std::fs::read(path).map_err(|e| {
        ToolError::new(ErrorCode::NotFound, format!("cannot read `{}`: {e}", path.display()))
            .with_details(json!({"path": path.display().to_string()}))
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        ToolError::new(ErrorCode::Unsupported, format!("`{}` is not UTF-8 text", path.display()))
            .with_hint("Locus reads source files in UTF-8 only")
    })?;
    Ok(FileText { path: path.to_path_buf(), doc: Document::new(&text, 0), language_id: None })
}

/// A 1-based line and UTF-16 character as an LSP position in `encoding`.
fn to_lsp(doc: &Document, line: u32, character: u32, encoding: PositionEncoding) -> Value {
    let offset = doc.offset_at(
        Position::new(line.saturating_sub(1), character.saturating_sub(1)),
        PositionEncoding::Utf16,
    );
    let p = doc.position_at(offset, encoding);
    json!({"line": p.line, "character": p.character})
}

/// An LSP position in `encoding` as 1-based line and UTF-16 character (`doc` when the text is
/// known; else the numbers are taken as they are).
fn from_lsp(doc: Option<&Document>, p: &Value, encoding: PositionEncoding) -> Pos {
    let line = p.get("line").and_then(Value::as_u64).unwrap_or(0) as u32;
    let character = p.get("character").and_then(Value::as_u64).unwrap_or(0) as u32;
    match doc {
        Some(doc) if encoding != PositionEncoding::Utf16 => {
            let offset = doc.offset_at(Position::new(line, character), encoding);
            let q = doc.position_at(offset, PositionEncoding::Utf16);
            Pos { line: line + 1, character: q.character + 1 }
        }
        _ => Pos { line: line + 1, character: character + 1 },
    }
}

/// `file://` URI of an absolute path.
fn uri_of(path: &Path) -> String {
    locus_platform::file_uri::uri_of(path)
}

/// The path of a `file:` URI (the URI itself for other schemes).
fn path_of(uri: &str) -> String {
    locus_platform::file_uri::path_of(uri)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| uri.to_string())
}

/// A 1-based position.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based character in UTF-16 code units.
    pub character: u32,
}

/// Edits the editor made in one file.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq, Eq)]
pub struct FileEdits {
    /// The file (a URI when it is not a file on disk).
    pub path: String,
    /// How many text edits it got.
    pub edits: u64,
}

/// What an editor says it changed: `files` (or `changedFiles`) as `[{uri, edits}]` (the
/// documented shape) or as URIs, or a WorkspaceEdit (`changes` or `documentChanges`) under
/// `edit` or as the answer itself.
fn changed_files(data: &Value) -> Vec<FileEdits> {
    let listed = data.get("files").or_else(|| data.get("changedFiles"));
    if let Some(files) = listed.and_then(Value::as_array) {
        return files
            .iter()
            .filter_map(|f| match f {
                Value::String(uri) => Some(FileEdits { path: path_of(uri), edits: 0 }),
                Value::Object(o) => {
                    let uri = o.get("uri").or_else(|| o.get("path")).and_then(Value::as_str)?;
                    let edits = match o.get("edits") {
                        Some(Value::Array(a)) => a.len() as u64,
                        Some(v) => v.as_u64().unwrap_or(0),
                        None => 0,
                    };
                    Some(FileEdits { path: path_of(uri), edits })
                }
                _ => None,
            })
            .collect();
    }
    let edit = data.get("edit").unwrap_or(data);
    let mut out: Vec<FileEdits> = Vec::new();
    let mut add = |uri: &str, n: u64| match out.iter_mut().find(|f| f.path == path_of(uri)) {
        Some(f) => f.edits += n,
        None => out.push(FileEdits { path: path_of(uri), edits: n }),
    };
    if let Some(changes) = edit.get("changes").and_then(Value::as_object) {
        for (uri, edits) in changes {
            add(uri, edits.as_array().map_or(0, |a| a.len() as u64));
        }
    }
    for change in edit.get("documentChanges").and_then(Value::as_array).into_iter().flatten() {
        if let Some(uri) = change.pointer("/textDocument/uri").and_then(Value::as_str) {
            add(uri, change.get("edits").and_then(Value::as_array).map_or(0, |a| a.len() as u64));
        } else if let Some(uri) = change.get("newUri").and_then(Value::as_str) {
            add(uri, 0);
        }
    }
    out
}

/// The editor's total (`edits`, when it counts them as a whole), else the files' sum.
fn total_edits(data: &Value, files: &[FileEdits]) -> u64 {
    data.get("edits").and_then(Value::as_u64).unwrap_or_else(|| files.iter().map(|f| f.edits).sum())
}

fn applied(data: &Value) -> bool {
    data.get("applied").and_then(Value::as_bool).unwrap_or(true)
}

/// `; left unsaved in the editor: a.py` when the editor says it left edited files unsaved
/// (their text on disk is older than the editor's).
fn unsaved_note(answer: &Value) -> String {
    let unsaved: Vec<FileEdits> = answer
        .get("unsaved")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(|u| FileEdits { path: path_of(u), edits: 0 })
                .collect()
        })
        .unwrap_or_default();
    if unsaved.is_empty() {
        return String::new();
    }
    format!("; left unsaved in the editor (the disk has the old text): {}", list(&unsaved))
}

fn list(files: &[FileEdits]) -> String {
    let names: Vec<&str> = files
        .iter()
        .take(5)
        .map(|f| Path::new(&f.path).file_name().and_then(|n| n.to_str()).unwrap_or(&f.path))
        .collect();
    let more = if files.len() > names.len() { ", …" } else { "" };
    format!("{}{more}", names.join(", "))
}

#[cfg(test)]
mod tests;
