//! `symbol_search`: find symbols by name across the workspace, from the live index
//! (`locus-index`): files as ripgrep finds them, outlined as the editor context does, open
//! documents' unsaved text included.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use locus_context::EditorContext;
use locus_index::{Index, Near, PathFilter, Query};
use locus_scopes::SymbolKind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::symbol::LineRange;
use crate::{
    Category, Cx, DEFAULT_TIMEOUT, Effect, ErrorCode, Tool, ToolError, ToolSpec, WhenToUse,
};

/// `symbol_search`: workspace symbols by name.
pub struct SymbolSearch;

/// How many matches an answer holds unless `limit` says otherwise.
const DEFAULT_LIMIT: usize = 20;

/// How long a call waits for an index still being built before answering with what it has.
const WAIT_FOR_BUILD: Duration = Duration::from_secs(3);

/// The same for a process that ends with the call (`locus call`, `locus symbols` with no
/// sidecar): it has nothing to give later, so it waits for the whole index, within the
/// catalogue's default timeout.
const ONE_SHOT_WAIT: Duration = Duration::from_secs(25);

/// How long before the call's deadline the wait for the build gives up, so that the answer
/// (what is indexed so far) still reaches the caller in time.
const DEADLINE_MARGIN: Duration = Duration::from_millis(300);

/// Parameters of `symbol_search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    /// A symbol name, the start of one, words of it (`userName` finds `getUserName`), a fuzzy
    /// abbreviation, or `Container.name` (`Ledger.balance`; `::`, `#` and `->` work too).
    #[schemars(example = &"Ledger.balance", length(min = 1))]
    pub query: String,
    /// Only symbols of these kinds: LSP SymbolKind names (`Class`, `Method`, `Function`,
    /// `Interface` …), comma-separated (default: every kind).
    #[serde(default)]
    #[schemars(example = &"Class,Method")]
    pub kind: Option<String>,
    /// Only symbols in this folder (absolute, or relative to a workspace folder) or in files
    /// matching this glob (`src/**/*.ts`, relative to a workspace folder).
    #[serde(default)]
    #[schemars(example = &"src/**/*.py")]
    pub path: Option<String>,
    /// At most this many matches (default 20, at most 200).
    #[serde(default)]
    #[schemars(example = 20, range(min = 1, max = 200))]
    pub limit: Option<u32>,
    /// Skip this many of the best matches: the previous answer's `nextOffset`. The best 200
    /// are reachable; past them, narrow with `kind`, `path` or a container.
    #[serde(default)]
    #[schemars(example = 20, range(min = 0, max = 199))]
    pub offset: Option<u32>,
}

/// One match.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    /// The symbol's name.
    pub name: String,
    /// The LSP SymbolKind name.
    pub kind: &'static str,
    /// Its containers, outermost first, as `Kind:Name` (`["Class:Ledger"]`).
    pub container_chain: Vec<String>,
    /// Its file, absolute.
    pub path: String,
    /// The lines it spans, 1-based (a decorated definition starts at its first decorator).
    pub range: LineRange,
    /// The line of its name, 1-based.
    pub line: u32,
    /// That line, trimmed (cut at 160 bytes).
    pub signature: String,
    /// 1 for an exact match (0.95 in another case), then prefix (0.75–0.9), word boundary
    /// (0.55–0.7) and fuzzy (0.1–0.5) matches; a container part scales it.
    pub score: f64,
    /// Whether it comes from the text of a document open in the editor (unsaved edits
    /// included) rather than from the disk.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub from_editor: bool,
}

/// How far the index is while it is being built.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Indexing {
    /// Files looked at so far.
    pub files_done: usize,
    /// Files to look at (0 while the folders are still being walked).
    pub files_total: usize,
}

/// `symbol_search`'s data.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchData {
    /// The query as given.
    pub query: String,
    /// The matches, best first; among equal scores, the nearest to the editor's cursor first.
    pub symbols: Vec<SearchHit>,
    /// Whether more symbols matched than `symbols` holds.
    pub more: bool,
    /// Where the next page starts, when more of the best 200 matches are left (the limit was
    /// reached, or the answer budget ended the page): pass it as `offset`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<usize>,
    /// Present while the index is still being built: `symbols` holds what it has so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indexing: Option<Indexing>,
    /// Set when the index reached its memory cap and left files out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

const WHEN: WhenToUse = WhenToUse {
    use_for: &[
        "finding where a class, function or method is defined, by name, across the workspace",
        "a member by its class (`Ledger.balance`), or all symbols of a kind under a folder",
        "names half remembered: prefixes, words of a camelCase or snake_case name, abbreviations",
    ],
    dont_use_for: &[
        "text that is not a symbol name, or every use of a name (use grep)",
        "the structure of one file (use symbol_outline)",
    ],
    patterns: &[
        "search the name, then symbol_outline or read the file at `range`",
        "narrow a common name with kind or path, or with its container (`Class.method`)",
    ],
};

impl Tool for SymbolSearch {
    type Params = SearchParams;
    type Output = SearchData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "symbol_search",
            title: "Search workspace symbols",
            category: Category::Symbol,
            description: "Find classes, functions, methods and other symbols by name across the workspace (exact, prefix, word, fuzzy, `Class.method`), with kind, container chain, file, line range and signature; unsaved editor text included",
            when_to_use: WHEN,
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: false,
            effect: Effect::Reads,
        }
    }

    fn data_schema(&self) -> Option<Map<String, Value>> {
        Some(crate::params::output_schema_for::<SearchData>())
    }

    async fn run(&self, p: SearchParams, cx: Cx) -> Result<SearchData, ToolError> {
        let query_text = p.query.trim().to_string();
        if query_text.is_empty() {
            return Err(ToolError::new(ErrorCode::InvalidParams, "`query` is empty")
                .with_hint("Give a symbol name or part of one, e.g. Ledger.balance"));
        }
        let kinds = parse_kinds(p.kind.as_deref())?;
        let limit = p.limit.map_or(DEFAULT_LIMIT, |l| l as usize).clamp(1, locus_index::MAX_LIMIT);
        let offset = p.offset.map_or(0, |o| o as usize).min(locus_index::MAX_LIMIT - 1);
        let wanted = (offset + limit).min(locus_index::MAX_LIMIT);
        let near = near(cx.editor_context.as_deref());
        let one_shot = cx.host.one_shot();
        let host = cx.host.clone();
        let path = p.path.clone();
        let cancel = cx.cancel.clone();
        let deadline = cx.deadline;
        let answer = tokio::task::spawn_blocking(move || {
            let index: Arc<Index> = host.symbol_index(true).ok_or_else(|| {
                ToolError::new(ErrorCode::Unsupported, "this process has no symbol index")
                    .with_hint("Run the search through `locus mcp` or `locus symbols`")
            })?;
            let path = match path {
                Some(text) => Some(PathFilter::parse(&text, &index.folders()).map_err(|e| {
                    ToolError::new(ErrorCode::InvalidParams, e)
                        .with_hint("Give a folder (src/app) or a glob (src/**/*.ts)")
                        .with_details(json!({"parameter": "path", "value": text}))
                })?),
                None => None,
            };
            // Never past the call's deadline: the answer (with how far the build is) must
            // be back before the caller gives up.
            let wait = if one_shot { ONE_SHOT_WAIT } else { WAIT_FOR_BUILD };
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let until = std::time::Instant::now() + wait.min(left.saturating_sub(DEADLINE_MARGIN));
            while !index.wait_built(Duration::from_millis(50)) {
                if cancel.is_cancelled() || std::time::Instant::now() >= until {
                    break;
                }
            }
            if one_shot {
                // The process ends with this answer: the symbol cache its build read is
                // written now (nothing when it read nothing new), so the next start is fast;
                // a build still running past the wait writes what it has so far (every cached
                // file it took, and those read since: `Index::save_cache`).
                index.save_cache();
            }
            let query = Query { text: query_text, kinds, path, limit: wanted, near };
            Ok::<_, ToolError>(index.search(&query))
        })
        .await
        .map_err(|e| {
            ToolError::new(ErrorCode::Internal, format!("the search's worker failed: {e}"))
        })??;
        let mut data = SearchData {
            query: p.query,
            symbols: answer.hits.into_iter().skip(offset).map(hit).collect(),
            more: answer.more,
            next_offset: None,
            indexing: answer
                .building
                .map(|b| Indexing { files_done: b.files_done, files_total: b.files_total }),
            warning: answer.capped,
        };
        let context = cx.editor_context.as_deref().map(crate::editor_context_json);
        fit(&mut data, offset, crate::budget::room(cx.answer_budget, &context));
        Ok(data)
    }

    fn summary(&self, d: &SearchData, _: &Cx) -> String {
        let mut text = match d.symbols.is_empty() {
            true => format!("no symbol matches `{}`", d.query),
            false => {
                let shown: Vec<String> = d
                    .symbols
                    .iter()
                    .take(5)
                    .map(|s| format!("{}:{} ({}:{})", s.kind, s.name, s.path, s.line))
                    .collect();
                let more = if d.symbols.len() > shown.len() || d.more { ", …" } else { "" };
                format!(
                    "{} match(es) for `{}`: {}{more}",
                    d.symbols.len(),
                    d.query,
                    shown.join(", ")
                )
            }
        };
        if let Some(next) = d.next_offset {
            text.push_str(&format!("; more from offset {next}"));
        }
        if let Some(i) = &d.indexing {
            text.push_str(&format!(
                " (still indexing: {} of {} files)",
                i.files_done, i.files_total
            ));
        }
        text
    }
}

/// Ends the page where `room` bytes end (a page of 200 long signatures is about 32 KB, past
/// what Codex passes whole) and says where the next one starts.
fn fit(data: &mut SearchData, offset: usize, room: usize) {
    // Room for `nextOffset` itself.
    let whole = crate::budget::json_len(data);
    data.more |= crate::budget::end_page(&mut data.symbols, whole, room.saturating_sub(24));
    let end = offset + data.symbols.len();
    if data.more && end < locus_index::MAX_LIMIT {
        data.next_offset = Some(end);
    }
}

/// `Class,Method` → kinds; an unknown name is refused with the list of valid ones.
fn parse_kinds(text: Option<&str>) -> Result<Vec<SymbolKind>, ToolError> {
    let Some(text) = text else { return Ok(Vec::new()) };
    let mut kinds = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let kind = SymbolKind::ALL.iter().find(|k| k.name().eq_ignore_ascii_case(part));
        match kind {
            Some(&k) => kinds.push(k),
            None => {
                let valid: Vec<&str> = SymbolKind::ALL.iter().map(|k| k.name()).collect();
                return Err(ToolError::new(
                    ErrorCode::InvalidParams,
                    format!("`{part}` is not a symbol kind"),
                )
                .with_hint(format!("Use LSP SymbolKind names: {}", valid.join(", ")))
                .with_details(json!({"parameter": "kind", "value": part, "valid": valid})));
            }
        }
    }
    Ok(kinds)
}

/// The editor's file and cursor line, from the editorContext captured for the call.
fn near(context: Option<&EditorContext>) -> Option<Near> {
    let context = context?;
    Some(Near { path: PathBuf::from(context.file.file_path()?), line: context.cursor.line })
}

fn hit(h: locus_index::Hit) -> SearchHit {
    SearchHit {
        name: h.name,
        kind: h.kind.name(),
        container_chain: h.containers.iter().map(|(k, n)| format!("{}:{n}", k.name())).collect(),
        path: h.path.display().to_string(),
        range: LineRange { start: h.start, end: h.end, length: h.end - h.start + 1 },
        line: h.line,
        signature: h.signature,
        score: (f64::from(h.score) * 1000.0).round() / 1000.0,
        from_editor: h.from_editor,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn kinds_are_parsed_case_insensitively_and_unknown_ones_refused() {
        assert_eq!(
            parse_kinds(Some("class, Method")).unwrap(),
            [SymbolKind::Class, SymbolKind::Method]
        );
        let e = parse_kinds(Some("Klass")).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert!(e.message.contains("Klass"));
    }

    #[test]
    fn the_cursor_comes_from_the_editor_context() {
        let text = "x = 1\n".repeat(20);
        let ctx = crate::context_support::context_at(Path::new("/w/a.py"), &text, 12, 3);
        let n = near(Some(&ctx)).unwrap();
        assert_eq!((n.path, n.line), (PathBuf::from("/w/a.py"), 12));
        assert!(near(None).is_none());
    }
}
