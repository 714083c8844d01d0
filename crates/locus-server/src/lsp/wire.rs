//! The params of the messages Locus handles itself, read leniently (unknown fields ignored,
//! optional ones defaulted), and their conversion to editor-state terms.

use locus_doc::{Position, PositionEncoding, Range};
use locus_scopes::SymbolKind;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::state::{Change, RawSymbol, nest_symbols};

/// Parses `params` as `T`; missing params count as `null`.
pub fn parse<T: DeserializeOwned>(params: Option<Value>) -> Result<T, String> {
    serde_json::from_value(params.unwrap_or(Value::Null)).map_err(|e| e.to_string())
}

#[derive(Debug, Deserialize, Clone, Copy)]
pub struct WirePosition {
    pub line: u32,
    pub character: u32,
}

impl From<WirePosition> for Position {
    fn from(p: WirePosition) -> Position {
        Position::new(p.line, p.character)
    }
}

#[derive(Debug, Deserialize, Clone, Copy)]
pub struct WireRange {
    pub start: WirePosition,
    pub end: WirePosition,
}

impl From<WireRange> for Range {
    fn from(r: WireRange) -> Range {
        Range { start: r.start.into(), end: r.end.into() }
    }
}

#[derive(Debug, Deserialize)]
pub struct DocumentId {
    pub uri: String,
    #[serde(default)]
    pub version: Option<i32>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenedDocument {
    pub uri: String,
    #[serde(default)]
    pub language_id: String,
    #[serde(default)]
    pub version: i32,
    pub text: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DidOpen {
    pub text_document: OpenedDocument,
}

#[derive(Debug, Deserialize)]
pub struct ContentChange {
    #[serde(default)]
    pub range: Option<WireRange>,
    pub text: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DidChange {
    pub text_document: DocumentId,
    pub content_changes: Vec<ContentChange>,
}

impl DidChange {
    pub fn changes(self) -> Vec<Change> {
        self.content_changes
            .into_iter()
            .map(|c| Change { range: c.range.map(Range::from), text: c.text })
            .collect()
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DidClose {
    pub text_document: DocumentId,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DidSave {
    pub text_document: DocumentId,
    #[serde(default)]
    pub text: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DidChangeCursor {
    pub text_document: DocumentId,
    pub position: WirePosition,
    #[serde(default)]
    pub selections: Vec<WireRange>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DidChangeActiveEditor {
    /// The last text editor the user was in; `null` (or absent) only when no text editor is
    /// left open.
    #[serde(default)]
    pub text_document: Option<DocumentId>,
    /// Whether the user's focus is in that editor (absent: it is). `false` while focus is in
    /// a terminal, a panel, the agent's pane or another window: the editor stays active.
    #[serde(default)]
    pub focused: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DidChangeSymbols {
    pub text_document: DocumentId,
    pub symbols: Vec<Value>,
    /// Locus's extension: the encoding of the symbols' positions when it is not the one
    /// negotiated with Locus (the editor's language server may use another).
    #[serde(default)]
    pub position_encoding: Option<String>,
}

impl DidChangeSymbols {
    /// The symbols, `DocumentSymbol[]` or `SymbolInformation[]`; entries that are neither are
    /// skipped and counted.
    pub fn symbols(&self) -> (Vec<RawSymbol>, usize) {
        let mut skipped = 0;
        let mut flat = false;
        let mut out = Vec::new();
        for v in &self.symbols {
            if v.get("location").is_some() {
                flat = true;
            }
            match symbol(v, &mut skipped) {
                Some(s) => out.push(s),
                None => skipped += 1,
            }
        }
        if flat {
            out = nest_symbols(out);
        }
        (out, skipped)
    }
}

fn symbol(v: &Value, skipped: &mut usize) -> Option<RawSymbol> {
    let name = v.get("name")?.as_str()?.to_string();
    let kind = match v.get("kind")? {
        Value::Number(n) => SymbolKind::from_number(n.as_u64()?)?,
        Value::String(s) => SymbolKind::from_name(s)?,
        _ => return None,
    };
    let range_value = v.get("range").or_else(|| v.get("location").and_then(|l| l.get("range")))?;
    let range: WireRange = serde_json::from_value(range_value.clone()).ok()?;
    let selection = v
        .get("selectionRange")
        .and_then(|r| serde_json::from_value::<WireRange>(r.clone()).ok())
        .map(Range::from);
    let children = match v.get("children") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|c| {
                let s = symbol(c, skipped);
                if s.is_none() {
                    *skipped += 1;
                }
                s
            })
            .collect(),
        _ => Vec::new(),
    };
    Some(RawSymbol { name, kind, range: range.into(), selection, children })
}

#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct GetContext {
    #[serde(default)]
    pub text_document: Option<DocumentId>,
    #[serde(default)]
    pub position: Option<WirePosition>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DebugText {
    pub text_document: DocumentId,
}

/// One argument of `locus.cursor`: 1-based line and column, the column counted in Unicode
/// characters (code points).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CursorArgument {
    pub path: String,
    pub line: u32,
    #[serde(default = "one")]
    pub column: u32,
    #[serde(default)]
    pub selection: Option<CursorSelection>,
}

fn one() -> u32 {
    1
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum CursorSelection {
    /// `{start: {line, column}, end: {line, column}}`, 1-based.
    Range { start: LineColumn, end: LineColumn },
    /// `{startLine, endLine}`, 1-based and inclusive: whole lines (Helix's
    /// `%{selection_line_start}` and `%{selection_line_end}`).
    Lines {
        #[serde(rename = "startLine")]
        start_line: u32,
        #[serde(rename = "endLine")]
        end_line: u32,
    },
}

#[derive(Debug, Deserialize, Clone, Copy)]
pub struct LineColumn {
    pub line: u32,
    #[serde(default = "one")]
    pub column: u32,
}

impl LineColumn {
    /// The 0-based UTF-32 position.
    pub fn position(self) -> Position {
        Position::new(self.line.saturating_sub(1), self.column.saturating_sub(1))
    }
}

/// The encoding of `locus.cursor` columns.
pub const CURSOR_COMMAND_ENCODING: PositionEncoding = PositionEncoding::Utf32;

impl CursorArgument {
    /// Reads one argument: an object, or `[path, line, column?]` flattened into the list.
    pub fn parse_all(arguments: &[Value]) -> Result<Vec<CursorArgument>, String> {
        if arguments.is_empty() {
            return Err("`locus.cursor` needs an argument: {\"path\", \"line\", \"column\"}".into());
        }
        if let Some(Value::String(path)) = arguments.first() {
            // The flat form: "path", line, column.
            let number = |i: usize, what: &str| -> Result<u32, String> {
                match arguments.get(i) {
                    None if i == 2 => Ok(1),
                    Some(v) => v
                        .as_u64()
                        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                        .map(|n| n as u32)
                        .ok_or_else(|| {
                            format!("`locus.cursor`: {what} `{v}` is not a whole number")
                        }),
                    None => Err(format!("`locus.cursor`: missing {what}")),
                }
            };
            return Ok(vec![CursorArgument {
                path: path.clone(),
                line: number(1, "line")?,
                column: number(2, "column")?,
                selection: None,
            }]);
        }
        arguments
            .iter()
            .map(|a| {
                serde_json::from_value::<CursorArgument>(a.clone())
                    .map_err(|e| format!("`locus.cursor`: {e}"))
            })
            .collect()
    }

    /// The cursor position, 0-based UTF-32.
    pub fn position(&self) -> Position {
        LineColumn { line: self.line, column: self.column }.position()
    }

    /// The selection, 0-based UTF-32.
    pub fn selection(&self) -> Option<Range> {
        match self.selection.as_ref()? {
            CursorSelection::Range { start, end } => {
                Some(Range { start: start.position(), end: end.position() })
            }
            CursorSelection::Lines { start_line, end_line } => {
                let (a, b) = ((*start_line).min(*end_line), (*start_line).max(*end_line));
                Some(Range {
                    start: Position::new(a.saturating_sub(1), 0),
                    end: Position::new(b, 0),
                })
            }
        }
    }
}
