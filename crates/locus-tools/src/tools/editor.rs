//! `editor_*`: the user's live editor.

use locus_context::{Cursor, Selection};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::host::Mode;
use crate::{Category, Cx, DEFAULT_TIMEOUT, Effect, Tool, ToolError, ToolSpec, WhenToUse};

/// `editor_get_context`: where the user is. The answer is the envelope's editorContext.
pub struct EditorGetContext;

/// No parameters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

/// Nothing when an editor is active: the context rides in the envelope. Otherwise why there
/// is none, for agents that read only the envelope (Codex shows its model no summary).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextData {
    /// Present only when no editor is active.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_editor: Option<NoEditor>,
}

/// Why no editor is active, and what to do.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NoEditor {
    /// `no-sidecar` (no `locus lsp` serves this workspace), `not-connected` (its editor has
    /// not connected yet) or `no-text-editor` (no text editor is open).
    pub reason: &'static str,
    /// The same in words, with what to do.
    pub hint: String,
}

impl Tool for EditorGetContext {
    type Params = NoParams;
    type Output = ContextData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "editor_get_context",
            title: "Get editor context",
            category: Category::Editor,
            description: "Get current editor cursor position, selection, and containing symbol context",
            when_to_use: WhenToUse {
                use_for: &[
                    "understanding where the user is working",
                    "getting the method/class context before making edits",
                ],
                dont_use_for: &["navigating to other files", "searching code"],
                patterns: &[
                    "call at the start of editing workflows",
                    "check context before scoped operations",
                ],
            },
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: false,
            effect: Effect::Reads,
        }
    }

    /// Always succeeds: with no editor active the answer says why in `noEditor`, with no
    /// editorContext (docs/reference/editor-context.md: no editor is not an error).
    async fn run(&self, _: NoParams, cx: Cx) -> Result<ContextData, ToolError> {
        if cx.editor_context.is_some() {
            return Ok(ContextData { no_editor: None });
        }
        let status = cx.host.status();
        let (reason, why) = match status.mode {
            Mode::InProcess => ("no-sidecar", "no running `locus lsp` serves this workspace"),
            Mode::Sidecar if status.editors_connected == 0 => {
                ("not-connected", "the editor has not connected yet")
            }
            Mode::Sidecar => ("no-text-editor", "no text editor is open"),
        };
        let hint = format!(
            "No editor is active ({why}). Ask the user to open the file in their editor, or pass \
             a path to symbol_scope_at or symbol_outline"
        );
        Ok(ContextData { no_editor: Some(NoEditor { reason, hint }) })
    }

    fn data_schema(&self) -> Option<serde_json::Map<String, serde_json::Value>> {
        Some(crate::params::output_schema_for::<ContextData>())
    }

    fn summary(&self, data: &ContextData, cx: &Cx) -> String {
        let Some(c) = cx.editor_context.as_deref() else {
            return data.no_editor.as_ref().map_or_else(String::new, |n| n.hint.clone());
        };
        let path = c.file.file_path().unwrap_or("?");
        let Cursor { line, character } = c.cursor;
        let scopes = c.symbols.hierarchy();
        let place =
            if scopes.is_empty() { "at top level".to_string() } else { format!("in {scopes}") };
        let selection = match &c.selection {
            Selection::Text { text, .. } => {
                format!(", {} characters selected", text.chars().count())
            }
            Selection::Empty => String::new(),
        };
        format!("Cursor at {path}:{line}:{character} {place}{selection}")
    }
}
