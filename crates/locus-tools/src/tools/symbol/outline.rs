//! `symbol_outline`: a file's symbol tree, folded to fit the answer budget.

use locus_context::NO_PROVIDER_WARNING;
use locus_doc::Document;
use locus_scopes::{Symbol, SymbolKind};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

mod fold;

use super::{FileFacts, LineRange, Pos, blocking, load};
use crate::{
    Category, Cx, DEFAULT_TIMEOUT, Effect, ErrorCode, Tool, ToolError, ToolSpec, WhenToUse,
};

/// `symbol_outline`: the document's symbol tree.
pub struct SymbolOutline;

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
    /// Only the symbols overlapping these 1-based lines, with the symbols that contain them:
    /// how to unfold a symbol a folded answer shows (pass its `range`).
    #[serde(default)]
    #[schemars(example = Lines { start: 120, end: 180 })]
    pub range: Option<Lines>,
    /// Skip this many top-level symbols: how to read on when an answer has `nextOffset`.
    #[serde(default)]
    #[schemars(example = 120)]
    pub offset: Option<u32>,
}

/// 1-based lines, both ends included.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Lines {
    /// First line.
    #[schemars(range(min = 1))]
    pub start: u32,
    /// Last line.
    #[schemars(range(min = 1))]
    pub end: u32,
}

/// One symbol of an outline.
#[derive(Debug, Clone, Serialize, JsonSchema)]
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
    /// How many nested symbols this answer folds away (`maxDepth`, or the answer budget):
    /// call again with `range` set to this symbol's lines to see them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folded: Option<usize>,
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
    /// `kinds`, `maxSymbols`, `range`, `offset` or the answer budget left some out.
    pub shown: usize,
    /// The top-level symbols, each with its children.
    pub symbols: Vec<OutlineSymbol>,
    /// More top-level symbols follow: call again with `offset` set to this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<usize>,
    /// Set when the whole outline was over the answer budget: what this answer leaves out,
    /// and how to get it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<String>,
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
        "a large file's outline comes folded to fit: unfold a symbol with `range` = its lines",
    ],
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
            let mut data = OutlineData {
                file: loaded.facts(),
                source,
                total_in_document: total,
                shown: 0,
                symbols: Vec::new(),
                next_offset: None,
                cut: None,
                warning,
            };
            let context = cx.editor_context.as_deref().map(crate::editor_context_json);
            let room = crate::budget::room(cx.answer_budget, &context);
            fold::fit(&mut data, symbols, limits.offset, room);
            Ok(data)
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
        let more = match d.next_offset {
            Some(offset) => format!("{more}; more from offset {offset}"),
            None => more.to_string(),
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

/// What part of an outline to answer.
struct Limits {
    max_depth: u32,
    kinds: Option<Vec<SymbolKind>>,
    max_symbols: usize,
    /// 0-based lines, both ends included.
    lines: Option<(usize, usize)>,
    offset: usize,
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
        let lines = match p.range {
            None => None,
            Some(Lines { start, end }) if start == 0 || end < start => {
                return Err(ToolError::new(
                    ErrorCode::InvalidParams,
                    format!("parameter `range`: lines {start} to {end} are not a range"),
                )
                .with_hint("`range` is 1-based lines with start <= end, as a symbol's `range`")
                .with_details(json!({"parameter": "range", "start": start, "end": end})));
            }
            Some(Lines { start, end }) => Some((start as usize - 1, end as usize - 1)),
        };
        Ok(Limits {
            max_depth: p.max_depth.unwrap_or(u32::MAX),
            kinds,
            max_symbols: p.max_symbols.map_or(usize::MAX, |n| n as usize),
            lines,
            offset: p.offset.map_or(0, |n| n as usize),
        })
    }

    /// The symbols within the limits, in document order.
    fn apply(&self, doc: &Document, symbols: &[Symbol]) -> Vec<OutlineSymbol> {
        let mut budget = self.max_symbols;
        self.level(doc, symbols, 1).into_iter().filter_map(|s| capped(s, &mut budget)).collect()
    }

    /// The symbols of one level at `depth` (1 = top level) whose kind is wanted or that
    /// contain one that is, within `lines`; below `max_depth` they are folded.
    fn level(&self, doc: &Document, symbols: &[Symbol], depth: u32) -> Vec<OutlineSymbol> {
        symbols
            .iter()
            .filter(|s| {
                self.lines.is_none_or(|(first, last)| {
                    doc.line_of(s.range.start) <= last && first <= doc.line_of(s.range.end)
                })
            })
            .filter_map(|s| {
                let children = self.level(doc, &s.children, depth + 1);
                let wanted = self.kinds.as_ref().is_none_or(|k| k.contains(&s.kind));
                (wanted || !children.is_empty()).then(|| {
                    let mut symbol = outline_symbol(doc, s, children);
                    if depth >= self.max_depth {
                        fold::fold_children(&mut symbol);
                    }
                    symbol
                })
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

fn outline_symbol(doc: &Document, s: &Symbol, children: Vec<OutlineSymbol>) -> OutlineSymbol {
    let (start, end) = (doc.line_of(s.range.start) as u32 + 1, doc.line_of(s.range.end) as u32 + 1);
    let at = locus_context::cursor_at(doc, s.selection.start);
    OutlineSymbol {
        name: s.name.clone(),
        kind: s.kind.name(),
        range: LineRange { start, end, length: end - start + 1 },
        selection_start: Pos { line: at.line, character: at.character },
        children,
        folded: None,
    }
}
