//! `symbol_scope_at`: the chain of symbols around a position of any file.

use locus_context::{Request, Symbols};
use locus_doc::{Position, PositionEncoding};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{FileFacts, LineRange, Loaded, Pos, blocking, load};
use crate::{Category, Cx, DEFAULT_TIMEOUT, Effect, Tool, ToolError, ToolSpec, WhenToUse};

/// `symbol_scope_at`: the scopes around a position.
pub struct SymbolScopeAt;

/// Parameters of `symbol_scope_at`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScopeAtParams {
    /// The file: absolute, or relative to a workspace folder (then the working directory).
    #[schemars(example = &"src/user.ts", length(min = 1))]
    pub path: String,
    /// 1-based line, as in editorContext.
    #[schemars(example = 46, range(min = 1))]
    pub line: u32,
    /// 1-based character in UTF-16 code units, as in editorContext (default 1).
    #[schemars(example = 9, range(min = 1))]
    #[serde(default = "first_character")]
    pub character: u32,
}

fn first_character() -> u32 {
    1
}

/// A scope of a chain.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ScopeOut {
    /// Its name.
    pub name: String,
    /// The LSP SymbolKind name.
    pub kind: &'static str,
    /// The lines it spans.
    pub range: LineRange,
}

/// `symbol_scope_at`'s data.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScopeAtData {
    /// The file.
    pub file: FileFacts,
    /// The position asked for, clamped to the document.
    pub position: Pos,
    /// Outermost first; `[]` at top level.
    pub containing_scopes: Vec<ScopeOut>,
    /// The innermost scope, `null` at top level.
    pub immediate_scope: Option<ScopeOut>,
    /// `Class:UserService > Method:findUser`.
    pub scope_hierarchy: String,
    /// Symbols at every depth.
    pub total_in_document: usize,
    /// `tree-sitter`, or `none`.
    pub source: &'static str,
    /// Set when the language has no symbol provider.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

const SCOPE_WHEN: WhenToUse = WhenToUse {
    use_for: &[
        "knowing which class/function a line belongs to",
        "naming the enclosing symbol of a diagnostic, diff hunk or stack frame",
    ],
    dont_use_for: &[
        "the user's cursor (use editor_get_context)",
        "a whole file's structure (use symbol_outline)",
    ],
    patterns: &["map file:line references to symbols before editing them"],
};

impl Tool for SymbolScopeAt {
    type Params = ScopeAtParams;
    type Output = ScopeAtData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "symbol_scope_at",
            title: "Scope chain at a position",
            category: Category::Symbol,
            description: "Get the chain of symbols (outermost first) containing a 1-based line and character of a file",
            when_to_use: SCOPE_WHEN,
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: false,
            effect: Effect::Reads,
        }
    }

    async fn run(&self, p: ScopeAtParams, cx: Cx) -> Result<ScopeAtData, ToolError> {
        blocking(move || {
            let loaded = load(&cx, &p.path)?;
            let doc = loaded.source.doc();
            past_the_end(&loaded, p.line)?;
            let position = Position::new(p.line - 1, p.character - 1);
            let cursor = doc.offset_at(position, PositionEncoding::Utf16);
            let path = loaded.path.display().to_string();
            let request = Request {
                path: &path,
                language_id: Some(&loaded.language_id),
                is_dirty: false,
                cursor,
                selection: None,
                symbols: Symbols::Syntax,
            };
            let ctx = locus_context::build(&loaded.source, &request);
            let scope = |s: &locus_context::Scope| ScopeOut {
                name: s.name.clone(),
                kind: s.kind.name(),
                range: LineRange { start: s.start_line, end: s.end_line, length: s.length() },
            };
            let symbols = &ctx.symbols;
            Ok(ScopeAtData {
                file: loaded.facts(),
                position: Pos { line: ctx.cursor.line, character: ctx.cursor.character },
                containing_scopes: symbols.containing_scopes.iter().map(scope).collect(),
                immediate_scope: symbols.immediate_scope().map(scope),
                scope_hierarchy: symbols.hierarchy(),
                total_in_document: symbols.total_in_document,
                source: symbols.source.as_str(),
                warning: symbols.warning.clone(),
            })
        })
        .await
    }

    fn data_schema(&self) -> Option<Map<String, Value>> {
        Some(crate::params::output_schema_for::<ScopeAtData>())
    }

    fn summary(&self, d: &ScopeAtData, _: &Cx) -> String {
        let place = if d.scope_hierarchy.is_empty() {
            "top level".to_string()
        } else {
            d.scope_hierarchy.clone()
        };
        format!("{}:{}:{} is in {place}", d.file.path, d.position.line, d.position.character)
    }
}

/// A line given to a tool past the end of the file is refused (docs/reference/envelope.md), not
/// clamped.
fn past_the_end(loaded: &Loaded, line: u32) -> Result<(), ToolError> {
    let lines = loaded.source.doc().line_count();
    crate::params::line_within("line", line, lines, &loaded.path.display().to_string())
}
