//! Editor actions: tools that ask the user's editor to act through its own machinery
//! (`locus/editorAction`, docs/reference/lsp.md) — rename a symbol with its rename provider, move a
//! file with the import updates of its language servers, read and change its settings, open a file,
//! list the problems it shows. Locus never writes a user's file itself.
//!
//! Tools speak 1-based lines and UTF-16 characters; actions speak LSP positions (0-based) in
//! the encoding negotiated with the editor. The conversion happens here, against the text
//! the editor has (its buffer when open, else the file on disk).
//!
//! **Invariants.**
//! - An action goes only to an editor that declared it; any other answers `E_UNSUPPORTED`
//!   with a hint naming what would work, and a process with no editor `E_NO_EDITOR`.
//! - `E_UNSUPPORTED` means the editor cannot do the action (undeclared, or `-32601`); an
//!   editor that tried and failed answers the code it named, else `E_INTERNAL`, with its
//!   message and hint; a closed connection is `E_NO_EDITOR`.
//! - Every wait on the editor ends before the call's deadline, with an error naming the
//!   editor and the action: an editor that never answers cannot hold a call.
//! - Answers are read leniently: an editor may say more or less than the documented shape.

use std::path::{Path, PathBuf};
use std::time::Duration;

use locus_doc::{Document, Position, PositionEncoding};
use locus_scopes::{Registry, Source, Symbol};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::host::{ActionEditor, ActionError, Mode};
use crate::{
    Catalogue, Category, Cx, DEFAULT_TIMEOUT, Effect, ErrorCode, Tool, ToolError, ToolSpec,
    WhenToUse, params,
};

/// Registers the editor-action tools.
pub fn register(c: &mut Catalogue) {
    c.register(SymbolRename)
        .register(FileRename)
        .register(SettingGet)
        .register(SettingSet)
        .register(EditorOpenFile)
        .register(DiagnosticCollect);
}

/// The action names editors declare and `locus/editorAction` sends (docs/reference/lsp.md).
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
    pub const EDITOR_OPEN: &str = "editor.open";
    /// The problems the editor shows.
    pub const DIAGNOSTICS_GET: &str = "diagnostics.get";
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
// Asking the editor.

/// The editor that will do `action`, or why none will.
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
    if lower.contains("helix") {
        let instead = match action {
            names::SYMBOL_RENAME => "`<space>r` (rename_symbol) on the symbol",
            names::FILE_RENAME => {
                "`:move NEW_PATH` (it asks the language servers to update imports)"
            }
            names::SETTING_GET | names::SETTING_SET => {
                "`:config-open` (config.toml) or `:set OPTION VALUE`"
            }
            names::EDITOR_OPEN => "`:open PATH`",
            names::DIAGNOSTICS_GET => "`<space>D` (the workspace diagnostics picker)",
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
/// deadline.
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
// Files, URIs and positions.

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
    url::Url::from_file_path(path)
        .map(String::from)
        .unwrap_or_else(|()| format!("file://{}", path.display()))
}

/// The path of a `file:` URI (the URI itself for other schemes).
fn path_of(uri: &str) -> String {
    url::Url::parse(uri)
        .ok()
        .filter(|u| u.scheme() == "file")
        .and_then(|u| u.to_file_path().ok())
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

// ---------------------------------------------------------------------------------------------
// symbol_rename

/// `symbol_rename`: renames a symbol and every reference through the editor's rename.
pub struct SymbolRename;

/// Parameters of `symbol_rename`: the symbol by position (`line` and `character`) or by
/// `name`, exactly one of the two.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenameParams {
    /// The file holding the symbol: absolute, or relative to a workspace folder.
    #[schemars(example = &"src/user.ts", length(min = 1))]
    pub path: String,
    /// 1-based line of the symbol (with `character`; or give `name` instead).
    #[schemars(example = 12, range(min = 1))]
    #[serde(default)]
    pub line: Option<u32>,
    /// 1-based character (UTF-16 code units) on the symbol's name (with `line`).
    #[schemars(example = 7, range(min = 1))]
    #[serde(default)]
    pub character: Option<u32>,
    /// The symbol's name as the file's outline has it (instead of `line`/`character`): one
    /// occurrence is that symbol; of several, the one holding the editor's cursor.
    #[schemars(example = &"findUser", length(min = 1))]
    #[serde(default)]
    pub name: Option<String>,
    /// The new name.
    #[serde(rename = "newName")]
    #[schemars(example = &"findUserById", length(min = 1))]
    pub new_name: String,
}

/// `symbol_rename`'s data.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenameData {
    /// The file the symbol is in.
    pub path: String,
    /// Where the rename was asked (1-based).
    pub position: Pos,
    /// The symbol's name, when known (from `name` or the outline).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_name: Option<String>,
    /// The new name.
    pub new_name: String,
    /// Whether the editor applied the edit.
    pub applied: bool,
    /// The files the editor changed, with their edit counts.
    pub files: Vec<FileEdits>,
    /// Edits in all files.
    pub edits: u64,
    /// The editor's answer as it gave it.
    pub editor: Value,
}

impl Tool for SymbolRename {
    type Params = RenameParams;
    type Output = RenameData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "symbol_rename",
            title: "Rename a symbol",
            description: "Rename a symbol and all its references through the editor's own rename (its language server), by position or by name; the editor applies the edits",
            when_to_use: WhenToUse {
                use_for: &[
                    "renaming a function, method, class or variable across files",
                    "renames that must catch every reference the language server knows",
                ],
                dont_use_for: &[
                    "renaming files (use file_rename)",
                    "text replacement in comments or strings",
                ],
                patterns: &[
                    "symbol_outline the file, then rename by name",
                    "diagnostic_collect after renaming to see what broke",
                ],
            },
            effect: Effect::Destroys,
            ..EDITOR_ACTION
        }
    }

    fn data_schema(&self) -> Option<Map<String, Value>> {
        Some(params::output_schema_for::<Self::Output>())
    }

    async fn run(&self, p: RenameParams, cx: Cx) -> Result<RenameData, ToolError> {
        if p.new_name.trim().is_empty() {
            return Err(ToolError::new(ErrorCode::InvalidParams, "`newName` is empty")
                .with_details(json!({"parameter": "newName"})));
        }
        let by_position = p.line.is_some() || p.character.is_some();
        let (line, character, old_name) = match (by_position, &p.name) {
            (true, Some(_)) | (false, None) => {
                return Err(ToolError::new(
                    ErrorCode::InvalidParams,
                    "give the symbol either by position (`line` and `character`) or by `name`, exactly one of the two",
                )
                .with_hint("E.g. {\"path\": \"src/user.ts\", \"line\": 12, \"character\": 7, \"newName\": \"x\"} or {\"path\": \"src/user.ts\", \"name\": \"findUser\", \"newName\": \"x\"}")
                .with_details(json!({"alternatives": [["line", "character"], ["name"]]})));
            }
            (true, None) => {
                let (Some(line), Some(character)) = (p.line, p.character) else {
                    let missing = if p.line.is_none() { "line" } else { "character" };
                    return Err(ToolError::new(
                        ErrorCode::InvalidParams,
                        format!(
                            "missing `{missing}`: a position needs both `line` and `character`"
                        ),
                    )
                    .with_details(json!({"parameter": missing})));
                };
                (line, character, None)
            }
            (false, Some(name)) => (0, 0, Some(name.clone())),
        };
        let editor = editor_for(&cx, names::SYMBOL_RENAME)?;
        let path = params::resolve_file(&cx, &p.path)?;
        let file = read(&cx, &path)?;
        let (line, character) = match &old_name {
            None => {
                params::line_within(
                    "line",
                    line,
                    file.doc.line_count(),
                    &file.path.display().to_string(),
                )?;
                (line, character)
            }
            Some(name) => find_by_name(&cx, &file, name)?,
        };
        let params = json!({
            "uri": uri_of(&path),
            "position": to_lsp(&file.doc, line, character, editor.encoding),
            "newName": p.new_name,
        });
        let answer = ask(&cx, &editor, names::SYMBOL_RENAME, params).await?;
        let files = changed_files(&answer);
        Ok(RenameData {
            path: path.display().to_string(),
            position: Pos { line, character },
            old_name,
            new_name: p.new_name,
            applied: applied(&answer),
            edits: total_edits(&answer, &files),
            files,
            editor: answer,
        })
    }

    fn summary(&self, d: &RenameData, _: &Cx) -> String {
        let what = d.old_name.as_deref().map(|n| format!("`{n}`")).unwrap_or_else(|| {
            format!("the symbol at {}:{}", d.position.line, d.position.character)
        });
        if !d.applied {
            return format!("{what} was not renamed: the editor did not apply the edit");
        }
        format!(
            "Renamed {what} to `{}`: {} edits in {} files ({}){}",
            d.new_name,
            d.edits,
            d.files.len(),
            list(&d.files),
            unsaved_note(&d.editor)
        )
    }
}

/// A symbol of `file`'s outline by name: the one occurrence, or of several the one whose
/// range holds the editor's cursor; its name's 1-based line and character.
fn find_by_name(cx: &Cx, file: &FileText, name: &str) -> Result<(u32, u32), ToolError> {
    let registry = Registry::builtin();
    let language = file.language_id.as_deref().and_then(|id| registry.by_id(id)).or_else(|| {
        registry
            .for_path(&file.path, file.doc.slice(0, file.doc.len_bytes().min(256)).lines().next())
    });
    let source = Source::new(file.doc.clone(), language);
    if !source.has_symbols() {
        return Err(ToolError::new(
            ErrorCode::Unsupported,
            format!("Locus has no outline of `{}` to find `{name}` in", file.path.display()),
        )
        .with_hint("Give the symbol by position (`line` and `character`) instead"));
    }
    let outline = source.outline();
    let mut found: Vec<&Symbol> = Vec::new();
    fn walk<'a>(symbols: &'a [Symbol], name: &str, found: &mut Vec<&'a Symbol>) {
        for s in symbols {
            if s.name == name {
                found.push(s);
            }
            walk(&s.children, name, found);
        }
    }
    walk(&outline.symbols, name, &mut found);
    let doc = &file.doc;
    let at = |s: &Symbol| {
        let p = doc.position_at(s.selection.start, PositionEncoding::Utf16);
        (p.line + 1, p.character + 1)
    };
    match found.as_slice() {
        [] => Err(ToolError::new(
            ErrorCode::NotFound,
            format!("no symbol named `{name}` in `{}`", file.path.display()),
        )
        .with_hint("symbol_outline lists the file's symbols; or give the symbol by position (`line` and `character`)")
        .with_details(json!({"name": name, "path": file.path.display().to_string()}))),
        [one] => Ok(at(one)),
        several => {
            // The one holding the editor's cursor, innermost first.
            if let Some(cursor) = cursor_offset(cx, file)
                && let Some(s) = several
                    .iter()
                    .filter(|s| s.range.contains_offset(cursor))
                    .min_by_key(|s| s.range.end - s.range.start)
            {
                return Ok(at(s));
            }
            let candidates: Vec<Value> = several
                .iter()
                .map(|s| {
                    let (line, character) = at(s);
                    json!({"name": s.name, "kind": s.kind.name(), "line": line, "character": character})
                })
                .collect();
            let lines: Vec<String> = candidates.iter().map(|c| c["line"].to_string()).collect();
            Err(ToolError::new(
                ErrorCode::InvalidParams,
                format!(
                    "`{name}` names {} symbols in `{}` (lines {}), and the editor's cursor is in none of them",
                    several.len(),
                    file.path.display(),
                    lines.join(", ")
                ),
            )
            .with_hint("Give the one you mean by position: `line` and `character` of one of the candidates")
            .with_details(json!({"candidates": candidates})))
        }
    }
}

/// The editor's cursor as a byte offset of `file`, when the active editor shows it.
fn cursor_offset(cx: &Cx, file: &FileText) -> Option<usize> {
    let ctx = cx.editor_context.as_deref()?;
    let path = ctx.pointer("/file/path")?.as_str()?;
    let same =
        Path::new(path) == file.path || std::fs::canonicalize(path).is_ok_and(|p| p == file.path);
    if !same {
        return None;
    }
    let line = ctx.pointer("/cursor/line")?.as_u64()? as u32;
    let character = ctx.pointer("/cursor/character")?.as_u64()? as u32;
    Some(file.doc.offset_at(
        Position::new(line.saturating_sub(1), character.saturating_sub(1)),
        PositionEncoding::Utf16,
    ))
}

// ---------------------------------------------------------------------------------------------
// file_rename

/// `file_rename`: moves a file through the editor, which updates the imports.
pub struct FileRename;

/// Parameters of `file_rename`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileRenameParams {
    /// The file to rename: absolute, or relative to a workspace folder.
    #[schemars(example = &"src/user.ts", length(min = 1))]
    pub path: String,
    /// Its new path: absolute, or relative to the workspace folder holding `path`.
    #[serde(rename = "newPath")]
    #[schemars(example = &"src/models/user.ts", length(min = 1))]
    pub new_path: String,
}

/// `file_rename`'s data.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileRenameData {
    /// The old path.
    pub from: String,
    /// The new path.
    pub to: String,
    /// Whether the editor applied the rename.
    pub applied: bool,
    /// Whether the editor updated imports (`null` when it did not say).
    pub imports_updated: Option<bool>,
    /// The files whose text the editor changed (imports), with their edit counts.
    pub files: Vec<FileEdits>,
    /// Edits in all files.
    pub edits: u64,
    /// The editor's answer as it gave it.
    pub editor: Value,
}

impl Tool for FileRename {
    type Params = FileRenameParams;
    type Output = FileRenameData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "file_rename",
            title: "Rename a file",
            description: "Rename or move a file through the editor, which has its language servers update the imports that name it",
            when_to_use: WhenToUse {
                use_for: &[
                    "moving or renaming a source file while keeping imports right",
                    "renames the user should see in their editor at once",
                ],
                dont_use_for: &[
                    "renaming a symbol (use symbol_rename)",
                    "files outside the workspace",
                ],
                patterns: &["rename, then diagnostic_collect to check that nothing broke"],
            },
            effect: Effect::Destroys,
            ..EDITOR_ACTION
        }
    }

    fn data_schema(&self) -> Option<Map<String, Value>> {
        Some(params::output_schema_for::<Self::Output>())
    }

    async fn run(&self, p: FileRenameParams, cx: Cx) -> Result<FileRenameData, ToolError> {
        if p.new_path.is_empty() {
            return Err(ToolError::new(ErrorCode::InvalidParams, "`newPath` is empty")
                .with_details(json!({"parameter": "newPath"})));
        }
        let editor = editor_for(&cx, names::FILE_RENAME)?;
        let from = params::resolve_file(&cx, &p.path)?;
        let to = target_path(&cx, &p.new_path, &from);
        if to.exists() {
            return Err(ToolError::new(
                ErrorCode::InvalidParams,
                format!("`newPath` `{}` exists already", to.display()),
            )
            .with_hint("Pick a path that does not exist; Locus never overwrites a file")
            .with_details(json!({"parameter": "newPath", "path": to.display().to_string()})));
        }
        let params = json!({"oldUri": uri_of(&from), "newUri": uri_of(&to), "updateImports": true});
        let answer = ask(&cx, &editor, names::FILE_RENAME, params).await?;
        let files = changed_files(&answer);
        Ok(FileRenameData {
            from: from.display().to_string(),
            to: to.display().to_string(),
            applied: applied(&answer),
            imports_updated: answer.get("importsUpdated").and_then(Value::as_bool),
            edits: total_edits(&answer, &files),
            files,
            editor: answer,
        })
    }

    fn summary(&self, d: &FileRenameData, _: &Cx) -> String {
        if !d.applied {
            return format!("{} was not renamed: the editor did not apply the rename", d.from);
        }
        let imports = match d.imports_updated {
            Some(true) if d.files.is_empty() => {
                "; imports updated (none needed changes)".to_string()
            }
            Some(true) => format!("; imports updated: {} edits in {}", d.edits, list(&d.files)),
            Some(false) => "; imports not updated".to_string(),
            None if d.edits > 0 => format!("; {} edits in {}", d.edits, list(&d.files)),
            None => String::new(),
        };
        format!("Renamed {} to {}{imports}{}", d.from, d.to, unsaved_note(&d.editor))
    }
}

// ---------------------------------------------------------------------------------------------
// setting_get, setting_set

/// `setting_get`: reads one of the editor's settings.
pub struct SettingGet;
/// `setting_set`: changes one of the editor's settings.
pub struct SettingSet;

/// A settings scope.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The user's settings, for every workspace.
    User,
    /// This workspace's settings.
    Workspace,
}

/// Parameters of `setting_get`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingGetParams {
    /// The setting's key, as the editor names it.
    #[schemars(example = &"editor.tabSize", length(min = 1))]
    pub key: String,
    /// `user` or `workspace` (default: the value in effect).
    #[serde(default)]
    #[schemars(example = &"workspace", extend("enum" = ["user", "workspace"]))]
    pub scope: Option<String>,
}

/// Parameters of `setting_set`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingSetParams {
    /// The setting's key, as the editor names it.
    #[schemars(example = &"editor.tabSize", length(min = 1))]
    pub key: String,
    /// The new value, any JSON value (`null` removes it from that scope).
    #[schemars(example = 2)]
    pub value: Value,
    /// `user` or `workspace` (default `workspace`).
    #[serde(default)]
    #[schemars(example = &"workspace", extend("enum" = ["user", "workspace"]))]
    pub scope: Option<String>,
}

/// What a setting tool answers: the editor's answer (`{key, scope, value, …}`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct SettingData(pub Value);

const SETTING_WHEN: WhenToUse = WhenToUse {
    use_for: &[
        "reading how the user's editor is configured (indentation, formatter, language options)",
        "changing an editor setting the user asked for",
    ],
    dont_use_for: &[
        "project configuration files (edit them as files)",
        "settings the user did not ask to change",
    ],
    patterns: &["setting_get before setting_set, and say what the value was"],
};

/// `user` or `workspace` (the schema says so too; this is the check).
fn scope_of(scope: Option<&str>) -> Result<Option<Scope>, ToolError> {
    match scope {
        None => Ok(None),
        Some("user") => Ok(Some(Scope::User)),
        Some("workspace") => Ok(Some(Scope::Workspace)),
        Some(other) => Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!("`scope` is `{other}`: expected `user` or `workspace`"),
        )
        .with_details(json!({"parameter": "scope"}))),
    }
}

fn setting_key(key: &str) -> Result<(), ToolError> {
    if key.trim().is_empty() {
        return Err(ToolError::new(ErrorCode::InvalidParams, "`key` is empty")
            .with_details(json!({"parameter": "key"})));
    }
    Ok(())
}

impl Tool for SettingGet {
    type Params = SettingGetParams;
    type Output = SettingData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "setting_get",
            title: "Read an editor setting",
            description: "Read one of the editor's settings by key, in effect or in the user or workspace scope",
            when_to_use: SETTING_WHEN,
            effect: Effect::Reads,
            ..EDITOR_ACTION
        }
    }

    fn data_schema(&self) -> Option<Map<String, Value>> {
        Some(params::output_schema_for::<Self::Output>())
    }

    async fn run(&self, p: SettingGetParams, cx: Cx) -> Result<SettingData, ToolError> {
        setting_key(&p.key)?;
        let scope = scope_of(p.scope.as_deref())?;
        let editor = editor_for(&cx, names::SETTING_GET)?;
        let mut params = json!({"key": p.key});
        if let Some(scope) = scope {
            params["scope"] = json!(scope);
        }
        let answer = ask(&cx, &editor, names::SETTING_GET, params).await?;
        Ok(SettingData(with_key(answer, &p.key)))
    }

    fn summary(&self, d: &SettingData, _: &Cx) -> String {
        let scope =
            d.0.get("scope").and_then(Value::as_str).map(|s| format!(" ({s})")).unwrap_or_default();
        format!(
            "{}{scope} = {}",
            d.0["key"].as_str().unwrap_or("?"),
            d.0.get("value").unwrap_or(&Value::Null)
        )
    }
}

impl Tool for SettingSet {
    type Params = SettingSetParams;
    type Output = SettingData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "setting_set",
            title: "Change an editor setting",
            description: "Change one of the editor's settings in the workspace (default) or user scope",
            when_to_use: SETTING_WHEN,
            effect: Effect::Destroys,
            ..EDITOR_ACTION
        }
    }

    fn data_schema(&self) -> Option<Map<String, Value>> {
        Some(params::output_schema_for::<Self::Output>())
    }

    async fn run(&self, p: SettingSetParams, cx: Cx) -> Result<SettingData, ToolError> {
        setting_key(&p.key)?;
        let scope = scope_of(p.scope.as_deref())?.unwrap_or(Scope::Workspace);
        let editor = editor_for(&cx, names::SETTING_SET)?;
        let params = json!({"key": p.key, "value": p.value, "scope": scope});
        let answer = ask(&cx, &editor, names::SETTING_SET, params).await?;
        let mut data = with_key(answer, &p.key);
        if data.get("scope").is_none() {
            data["scope"] = json!(scope);
        }
        if data.get("value").is_none() {
            data["value"] = p.value;
        }
        Ok(SettingData(data))
    }

    fn summary(&self, d: &SettingData, _: &Cx) -> String {
        let was = d.0.get("previous").map(|v| format!(" (was {v})")).unwrap_or_default();
        format!(
            "Set {} ({}) to {}{was}",
            d.0["key"].as_str().unwrap_or("?"),
            d.0["scope"].as_str().unwrap_or("?"),
            d.0.get("value").unwrap_or(&Value::Null)
        )
    }
}

/// The answer as an object with `key` (an editor may answer the bare value).
fn with_key(answer: Value, key: &str) -> Value {
    match answer {
        Value::Object(mut o) => {
            o.entry("key").or_insert_with(|| json!(key));
            Value::Object(o)
        }
        other => json!({"key": key, "value": other}),
    }
}

// ---------------------------------------------------------------------------------------------
// editor_open_file

/// `editor_open_file`: opens a file in the editor and shows a line.
pub struct EditorOpenFile;

/// Parameters of `editor_open_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenParams {
    /// The file to open: absolute, or relative to a workspace folder.
    #[schemars(example = &"src/user.ts", length(min = 1))]
    pub path: String,
    /// 1-based line to put the cursor on and reveal (default: where the editor had it).
    #[serde(default)]
    #[schemars(example = 46, range(min = 1))]
    pub line: Option<u32>,
}

/// `editor_open_file`'s data.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OpenData {
    /// The file opened.
    pub path: String,
    /// The line shown, when one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

impl Tool for EditorOpenFile {
    type Params = OpenParams;
    type Output = OpenData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "editor_open_file",
            title: "Open a file in the editor",
            description: "Open a file in the user's editor and reveal a line, moving the cursor there",
            when_to_use: WhenToUse {
                use_for: &[
                    "showing the user the code you are talking about",
                    "taking the user to a file and line after a change",
                ],
                dont_use_for: &["reading a file (read it directly)", "opening many files at once"],
                patterns: &["open the file at the line you changed and tell the user why"],
            },
            effect: Effect::Changes,
            ..EDITOR_ACTION
        }
    }

    fn data_schema(&self) -> Option<Map<String, Value>> {
        Some(params::output_schema_for::<Self::Output>())
    }

    async fn run(&self, p: OpenParams, cx: Cx) -> Result<OpenData, ToolError> {
        let editor = editor_for(&cx, names::EDITOR_OPEN)?;
        let path = params::resolve_file(&cx, &p.path)?;
        let mut params = json!({"uri": uri_of(&path)});
        if let Some(line) = p.line {
            let file = read(&cx, &path)?;
            params::line_within(
                "line",
                line,
                file.doc.line_count(),
                &file.path.display().to_string(),
            )?;
            params["line"] = json!(line - 1);
            params["character"] = json!(0);
        }
        ask(&cx, &editor, names::EDITOR_OPEN, params).await?;
        Ok(OpenData { path: path.display().to_string(), line: p.line })
    }

    fn summary(&self, d: &OpenData, _: &Cx) -> String {
        match d.line {
            Some(line) => format!("Opened {}:{line} in the editor", d.path),
            None => format!("Opened {} in the editor", d.path),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// diagnostic_collect

/// `diagnostic_collect`: the problems the editor shows.
pub struct DiagnosticCollect;

/// Parameters of `diagnostic_collect`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiagnosticParams {
    /// Only this file's problems: absolute, or relative to a workspace folder (default: every
    /// file's).
    #[serde(default)]
    #[schemars(example = &"src/user.ts", length(min = 1))]
    pub path: Option<String>,
}

/// One problem, 1-based.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Problem {
    /// `error`, `warning`, `information` or `hint`.
    pub severity: &'static str,
    /// What is wrong.
    pub message: String,
    /// Where it starts.
    pub start: Pos,
    /// Where it ends.
    pub end: Pos,
    /// Who reported it (`Pylance`, `ts`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The reporter's code for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<Value>,
}

/// The problems of one file.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FileProblems {
    /// The file (a URI when it is not a file on disk).
    pub path: String,
    /// Its problems, in the editor's order.
    pub diagnostics: Vec<Problem>,
}

/// `diagnostic_collect`'s data.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DiagnosticData {
    /// Files with problems.
    pub files: Vec<FileProblems>,
    /// Problems by severity: `{error, warning, information, hint}`.
    pub counts: Value,
}

impl Tool for DiagnosticCollect {
    type Params = DiagnosticParams;
    type Output = DiagnosticData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "diagnostic_collect",
            title: "Collect the editor's problems",
            description: "List the problems (errors, warnings) the user's editor shows, per file, from its language servers and linters",
            when_to_use: WhenToUse {
                use_for: &[
                    "checking for errors after an edit, a rename or a move",
                    "seeing what the user sees in their problems list",
                ],
                dont_use_for: &[
                    "running the build or the tests",
                    "files the editor has never seen",
                ],
                patterns: &["edit, then diagnostic_collect on the changed files"],
            },
            effect: Effect::Reads,
            ..EDITOR_ACTION
        }
    }

    /// Its answers stand on their own: no editorContext (the seeds list it with the system
    /// tools for that reason).
    fn captures_editor_context(&self) -> bool {
        false
    }

    fn data_schema(&self) -> Option<Map<String, Value>> {
        Some(params::output_schema_for::<Self::Output>())
    }

    async fn run(&self, p: DiagnosticParams, cx: Cx) -> Result<DiagnosticData, ToolError> {
        let editor = editor_for(&cx, names::DIAGNOSTICS_GET)?;
        let mut params = json!({});
        if let Some(path) = &p.path {
            let path = params::resolve_file(&cx, path)?;
            params["uri"] = json!(uri_of(&path));
        }
        let answer = ask(&cx, &editor, names::DIAGNOSTICS_GET, params).await?;
        let entries = match &answer {
            Value::Array(a) => a.clone(),
            other => other.get("files").and_then(Value::as_array).cloned().unwrap_or_default(),
        };
        let encoding = editor.encoding;
        let mut counts = [0u64; 4];
        let mut files = Vec::new();
        for entry in entries {
            let Some(uri) = entry.get("uri").and_then(Value::as_str) else { continue };
            let path = path_of(uri);
            let diagnostics =
                entry.get("diagnostics").and_then(Value::as_array).cloned().unwrap_or_default();
            if diagnostics.is_empty() {
                continue;
            }
            let doc = (encoding != PositionEncoding::Utf16)
                .then(|| read(&cx, Path::new(&path)).ok().map(|f| f.doc))
                .flatten();
            let diagnostics = diagnostics
                .iter()
                .map(|d| {
                    let severity = d.get("severity").and_then(Value::as_u64).unwrap_or(1);
                    counts[(severity.clamp(1, 4) - 1) as usize] += 1;
                    Problem {
                        severity: ["error", "warning", "information", "hint"]
                            [(severity.clamp(1, 4) - 1) as usize],
                        message: d
                            .get("message")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                        start: from_lsp(
                            doc.as_ref(),
                            d.pointer("/range/start").unwrap_or(&Value::Null),
                            encoding,
                        ),
                        end: from_lsp(
                            doc.as_ref(),
                            d.pointer("/range/end").unwrap_or(&Value::Null),
                            encoding,
                        ),
                        source: d.get("source").and_then(Value::as_str).map(str::to_string),
                        code: d.get("code").filter(|c| !c.is_null()).cloned(),
                    }
                })
                .collect();
            files.push(FileProblems { path, diagnostics });
        }
        let counts = json!({"error": counts[0], "warning": counts[1], "information": counts[2], "hint": counts[3]});
        Ok(DiagnosticData { files, counts })
    }

    fn summary(&self, d: &DiagnosticData, _: &Cx) -> String {
        if d.files.is_empty() {
            return "The editor shows no problems".to_string();
        }
        let c = &d.counts;
        let mut first = String::new();
        if let Some(f) = d.files.first()
            && let Some(p) = f.diagnostics.first()
        {
            first = format!(
                "; first: {}:{}: {}",
                f.path,
                p.start.line,
                p.message.lines().next().unwrap_or("")
            );
        }
        format!(
            "{} errors, {} warnings, {} other in {} files{first}",
            c["error"],
            c["warning"],
            c["information"].as_u64().unwrap_or(0) + c["hint"].as_u64().unwrap_or(0),
            d.files.len()
        )
    }
}

#[cfg(test)]
mod tests;
