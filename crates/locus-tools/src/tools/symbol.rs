//! `symbol_*`: document symbols and scope chains for any file, no editor needed. When the
//! editor has the file open, its text (unsaved edits included) is used instead of the disk's.

use std::path::PathBuf;

use locus_context::{NO_PROVIDER_WARNING, Request, Symbols};
use locus_doc::{Document, Position, PositionEncoding};
use locus_scopes::{Registry, Source, Symbol, SymbolKind};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::{
    Category, Cx, DEFAULT_TIMEOUT, Effect, ErrorCode, Tool, ToolError, ToolSpec, WhenToUse,
};

/// `symbol_outline`: the document's symbol tree.
pub struct SymbolOutline;

/// `symbol_scope_at`: the scopes around a position.
pub struct SymbolScopeAt;

/// Parameters of `symbol_outline`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutlineParams {
    /// The file: absolute, or relative to a workspace folder (then the working directory).
    #[schemars(example = &"src/user.ts", length(min = 1))]
    pub path: String,
    /// How many levels of nesting to answer: 1 = the top-level symbols only (default: all).
    #[serde(rename = "maxDepth", default)]
    #[schemars(example = 2, range(min = 1))]
    pub max_depth: Option<u32>,
    /// Only symbols of these kinds (LSP names such as `Class`, `Method`, `Function`), with
    /// the symbols that contain them (default: every kind).
    #[serde(default)]
    #[schemars(example = ["Class", "Method", "Function"])]
    pub kinds: Option<Vec<String>>,
    /// At most this many symbols, counted at every depth in document order (default: all).
    #[serde(rename = "maxSymbols", default)]
    #[schemars(example = 200, range(min = 1))]
    pub max_symbols: Option<u32>,
}

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

/// A symbol's lines, 1-based, `length = end - start + 1`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LineRange {
    /// First line.
    pub start: u32,
    /// Last line.
    pub end: u32,
    /// Lines spanned.
    pub length: u32,
}

/// A 1-based position.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based UTF-16 character.
    pub character: u32,
}

/// The file a symbol answer speaks of.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileFacts {
    /// Absolute path.
    pub path: String,
    /// Language id (`plaintext` when unknown).
    pub language_id: String,
    /// Lines as VS Code counts them.
    pub line_count: usize,
    /// Whether the text came from the editor's buffer (`editor`) or the disk (`disk`).
    pub text_from: &'static str,
}

/// One symbol of an outline.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutlineSymbol {
    /// Its name.
    pub name: String,
    /// The LSP SymbolKind name.
    pub kind: &'static str,
    /// The lines it spans.
    pub range: LineRange,
    /// Where its name starts.
    pub selection_start: Pos,
    /// Nested symbols.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<OutlineSymbol>,
}

/// `symbol_outline`'s data.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutlineData {
    /// The file.
    pub file: FileFacts,
    /// `tree-sitter`, or `none` when the language has no symbol provider.
    pub source: &'static str,
    /// Symbols at every depth.
    pub total_in_document: usize,
    /// Symbols in this answer at every depth: fewer than `totalInDocument` when `maxDepth`,
    /// `kinds` or `maxSymbols` left some out.
    pub shown: usize,
    /// The top-level symbols, each with its children.
    pub symbols: Vec<OutlineSymbol>,
    /// Set when the language has no symbol provider.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
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

const OUTLINE_WHEN: WhenToUse = WhenToUse {
    use_for: &[
        "seeing the structure of a file before reading or editing it",
        "finding where a class or function starts and ends",
    ],
    dont_use_for: &[
        "the user's current position (use editor_get_context)",
        "searching across files",
    ],
    patterns: &[
        "outline a file, then read only the symbol you need",
        "on a large file, ask for maxDepth 1 or 2 (or only some kinds) first",
    ],
};

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

impl Tool for SymbolOutline {
    type Params = OutlineParams;
    type Output = OutlineData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "symbol_outline",
            title: "Outline a file",
            category: Category::Symbol,
            description: "Get the symbol tree (classes, functions, methods, headings …) of a file, with 1-based line ranges",
            when_to_use: OUTLINE_WHEN,
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: false,
            effect: Effect::Reads,
        }
    }

    async fn run(&self, p: OutlineParams, cx: Cx) -> Result<OutlineData, ToolError> {
        let limits = Limits::of(&p)?;
        blocking(move || {
            let loaded = load(&cx, &p.path)?;
            let doc = loaded.source.doc();
            let (source, total, symbols, warning) = if loaded.source.has_symbols() {
                let outline = loaded.source.outline();
                let symbols = limits.apply(doc, &outline.symbols);
                ("tree-sitter", outline.total, symbols, None)
            } else {
                ("none", 0, Vec::new(), Some(NO_PROVIDER_WARNING.to_string()))
            };
            Ok(OutlineData {
                file: loaded.facts(),
                source,
                total_in_document: total,
                shown: count(&symbols),
                symbols,
                warning,
            })
        })
        .await
    }

    fn data_schema(&self) -> Option<Map<String, Value>> {
        Some(crate::params::output_schema_for::<OutlineData>())
    }

    fn summary(&self, d: &OutlineData, _: &Cx) -> String {
        let top: Vec<String> =
            d.symbols.iter().take(8).map(|s| format!("{}:{}", s.kind, s.name)).collect();
        let more = if d.symbols.len() > top.len() { ", …" } else { "" };
        let shown = if d.shown < d.total_in_document {
            format!(" ({} shown)", d.shown)
        } else {
            String::new()
        };
        format!(
            "{} ({}): {} symbols{shown}; top level: {}{more}",
            d.file.path,
            d.file.language_id,
            d.total_in_document,
            top.join(", ")
        )
    }
}

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

/// Runs file reading and parsing off the async workers.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r,
        Err(e) => {
            Err(ToolError::new(ErrorCode::Internal, format!("the tool's worker failed: {e}")))
        }
    }
}

struct Loaded {
    path: PathBuf,
    language_id: String,
    source: Source,
    from_editor: bool,
}

impl Loaded {
    fn facts(&self) -> FileFacts {
        FileFacts {
            path: self.path.display().to_string(),
            language_id: self.language_id.clone(),
            line_count: self.source.doc().line_count(),
            text_from: if self.from_editor { "editor" } else { "disk" },
        }
    }
}

fn load(cx: &Cx, path: &str) -> Result<Loaded, ToolError> {
    let path = crate::params::resolve_file(cx, path)?;
    let registry = Registry::builtin();
    if let Some((doc, language_id)) = cx.host.document(&path) {
        let language = registry.by_id(&language_id).or_else(|| {
            let head = doc.slice(0, doc.len_bytes().min(256));
            registry.for_path(&path, head.lines().next())
        });
        let source = Source::new(doc, language);
        return Ok(Loaded { path, language_id, source, from_editor: true });
    }
    let bytes = std::fs::read(&path).map_err(|e| {
        ToolError::new(ErrorCode::NotFound, format!("cannot read `{}`: {e}", path.display()))
            .with_details(json!({"path": path.display().to_string()}))
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        ToolError::new(ErrorCode::Unsupported, format!("`{}` is not UTF-8 text", path.display()))
            .with_hint("Locus reads source files in UTF-8 only")
    })?;
    let language = registry.for_path(&path, text.lines().next());
    let language_id =
        language.map(|l| l.id().to_string()).unwrap_or_else(|| "plaintext".to_string());
    Ok(Loaded {
        path,
        language_id,
        source: Source::new(Document::new(&text, 0), language),
        from_editor: false,
    })
}

/// A line given to a tool past the end of the file is refused (docs/reference/envelope.md), not
/// clamped.
fn past_the_end(loaded: &Loaded, line: u32) -> Result<(), ToolError> {
    let lines = loaded.source.doc().line_count();
    crate::params::line_within("line", line, lines, &loaded.path.display().to_string())
}

/// What part of an outline to answer.
struct Limits {
    max_depth: u32,
    kinds: Option<Vec<SymbolKind>>,
    max_symbols: usize,
}

impl Limits {
    fn of(p: &OutlineParams) -> Result<Limits, ToolError> {
        let kinds = match &p.kinds {
            None => None,
            Some(names) => Some(
                names
                    .iter()
                    .map(|n| {
                        SymbolKind::ALL
                            .iter()
                            .copied()
                            .find(|k| k.name().eq_ignore_ascii_case(n.trim()))
                            .ok_or_else(|| unknown_kind(n))
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        Ok(Limits {
            max_depth: p.max_depth.unwrap_or(u32::MAX),
            kinds,
            max_symbols: p.max_symbols.map_or(usize::MAX, |n| n as usize),
        })
    }

    /// The symbols within the limits, in document order.
    fn apply(&self, doc: &Document, symbols: &[Symbol]) -> Vec<OutlineSymbol> {
        let mut budget = self.max_symbols;
        self.level(doc, symbols, 1).into_iter().filter_map(|s| capped(s, &mut budget)).collect()
    }

    /// The symbols of one level at `depth` (1 = top level) whose kind is wanted or that
    /// contain one that is.
    fn level(&self, doc: &Document, symbols: &[Symbol], depth: u32) -> Vec<OutlineSymbol> {
        if depth > self.max_depth {
            return Vec::new();
        }
        symbols
            .iter()
            .filter_map(|s| {
                let children = self.level(doc, &s.children, depth + 1);
                let wanted = self.kinds.as_ref().is_none_or(|k| k.contains(&s.kind));
                (wanted || !children.is_empty()).then(|| outline_symbol(doc, s, children))
            })
            .collect()
    }
}

fn unknown_kind(name: &str) -> ToolError {
    let names: Vec<&str> = SymbolKind::ALL.iter().map(|k| k.name()).collect();
    ToolError::new(
        ErrorCode::InvalidParams,
        format!("parameter `kinds`: `{name}` is not a symbol kind"),
    )
    .with_hint(format!("Symbol kinds are the LSP's: {}", names.join(", ")))
    .with_details(json!({"parameter": "kinds", "received": name, "expected": names}))
}

/// `s` and its descendants in pre-order while `budget` lasts.
fn capped(mut s: OutlineSymbol, budget: &mut usize) -> Option<OutlineSymbol> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let children = std::mem::take(&mut s.children);
    s.children = children.into_iter().filter_map(|c| capped(c, budget)).collect();
    Some(s)
}

/// Symbols in `symbols` at every depth.
fn count(symbols: &[OutlineSymbol]) -> usize {
    symbols.iter().map(|s| 1 + count(&s.children)).sum()
}

fn outline_symbol(doc: &Document, s: &Symbol, children: Vec<OutlineSymbol>) -> OutlineSymbol {
    let (start, end) = (doc.line_of(s.range.start) as u32 + 1, doc.line_of(s.range.end) as u32 + 1);
    let at = locus_context::cursor_at(doc, s.selection.start);
    OutlineSymbol {
        name: s.name.clone(),
        kind: s.kind.name(),
        range: LineRange { start, end, length: end - start + 1 },
        selection_start: Pos { line: at.line, character: at.character },
        children,
    }
}
