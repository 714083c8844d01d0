//! `diagnostic_collect`: the problems (errors, warnings) the user's editor shows, per file, in
//! 1-based lines and UTF-16 characters.

use std::path::Path;

use locus_doc::PositionEncoding;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::{EDITOR_ACTION, Pos, ask, editor_for, from_lsp, names, path_of, read, uri_of};
use crate::tools::paths;
use crate::{Cx, Effect, Tool, ToolError, ToolSpec, WhenToUse, params};

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
        let editor = editor_for(&cx, names::DIAGNOSTIC_COLLECT)?;
        let mut params = json!({});
        if let Some(path) = &p.path {
            let path = paths::resolve_file(&cx, path)?;
            params["uri"] = json!(uri_of(&path));
        }
        let answer = ask(&cx, &editor, names::DIAGNOSTIC_COLLECT, params).await?;
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
