//! `editor_open_file`: opens a file in the user's editor and reveals a line.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::{EDITOR_ACTION, ask, editor_for, names, read, uri_of};
use crate::tools::paths;
use crate::{Cx, Effect, Tool, ToolError, ToolSpec, WhenToUse, params};

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
        let editor = editor_for(&cx, names::EDITOR_OPEN_FILE)?;
        let path = paths::resolve_file(&cx, &p.path)?;
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
        ask(&cx, &editor, names::EDITOR_OPEN_FILE, params).await?;
        Ok(OpenData { path: path.display().to_string(), line: p.line })
    }

    fn summary(&self, d: &OpenData, _: &Cx) -> String {
        match d.line {
            Some(line) => format!("Opened {}:{line} in the editor", d.path),
            None => format!("Opened {} in the editor", d.path),
        }
    }
}
