//! `file_rename`: moves a file through the editor, whose language servers update the imports
//! that name it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::{
    EDITOR_ACTION, FileEdits, applied, ask, changed_files, editor_for, list, names, target_path,
    total_edits, unsaved_note, uri_of,
};
use crate::tools::paths;
use crate::{Cx, Effect, ErrorCode, Tool, ToolError, ToolSpec, WhenToUse, params};

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
        let from = paths::resolve_file(&cx, &p.path)?;
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
