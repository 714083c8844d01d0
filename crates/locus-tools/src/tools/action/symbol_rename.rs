//! `symbol_rename`: renames a symbol and every reference through the editor's rename
//! provider, the symbol given by position or by its name in the file's outline.

use std::path::Path;

use locus_context::Cursor;
use locus_doc::{Position, PositionEncoding};
use locus_scopes::{Registry, Source, Symbol};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::{
    EDITOR_ACTION, FileEdits, FileText, Pos, applied, ask, changed_files, editor_for, list, names,
    read, to_lsp, total_edits, unsaved_note, uri_of,
};
use crate::tools::paths;
use crate::{Cx, Effect, ErrorCode, Tool, ToolError, ToolSpec, WhenToUse, params};

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
        let path = paths::resolve_file(&cx, &p.path)?;
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
    let path = ctx.file.file_path()?;
    let same = Path::new(path) == file.path
        || locus_platform::path::canonicalize(path).is_ok_and(|p| p == file.path);
    if !same {
        return None;
    }
    let Cursor { line, character } = ctx.cursor;
    Some(file.doc.offset_at(
        Position::new(line.saturating_sub(1), character.saturating_sub(1)),
        PositionEncoding::Utf16,
    ))
}
