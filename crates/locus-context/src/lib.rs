//! The editorContext: what an agent is told about where the user is working.
//!
//! [`build`] turns a mirrored document, a cursor and a selection into an [`EditorContext`]:
//! plain data with public fields, in editor terms (1-based lines, UTF-16 characters).
//! Serializing it is the protocol edge's job.
//!
//! **Invariants.**
//! - No protocol or serialization types appear here (no LSP, MCP or JSON).
//! - Building a context never fails and never panics: positions are clamped by the mirror.
//! - The scope chain comes from the outline cached for the document's version; it is found
//!   by descending through the symbols around the cursor, not by walking the document.

#![deny(missing_docs)]

use locus_doc::{Document, PositionEncoding};
use locus_scopes::{Outline, Source, Span, SymbolKind};

/// The editorContext carries at most this many characters of a selection: it rides on every
/// answer, so it stays small; `selection.length` tells the whole length.
pub const SELECTION_TEXT_CAP: usize = 2_000;

/// The warning given for a document whose language has no symbol provider.
pub const NO_PROVIDER_WARNING: &str = "No symbol provider registered for this language";

/// Everything about the user's position in one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorContext {
    /// The document.
    pub file: FileInfo,
    /// Where the cursor is.
    pub cursor: Cursor,
    /// What is selected.
    pub selection: Selection,
    /// The symbols around the cursor.
    pub symbols: SymbolsInfo,
    /// Whether the user's focus is in this editor: `Some(false)` while it is elsewhere (a
    /// terminal, the agent's pane, another window) and this is the last text editor they were
    /// in; `None` when nobody said (a file on disk, or an editor that reports no focus).
    pub focused: Option<bool>,
}

/// The document an [`EditorContext`] speaks of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInfo {
    /// Absolute path (or the URI itself for a document that is not a file).
    pub path: String,
    /// The editor's URI, for a document an editor has open (`untitled:Untitled-1` for a
    /// buffer that was never saved).
    pub uri: Option<String>,
    /// The language id (`"plaintext"` when unknown).
    pub language_id: String,
    /// Lines as VS Code counts them.
    pub line_count: usize,
    /// Whether the text differs from what was last saved.
    pub is_dirty: bool,
}

impl FileInfo {
    /// The path of a document that is a file; `None` for a buffer that is not one (an
    /// untitled buffer, whose `path` is its URI).
    pub fn file_path(&self) -> Option<&str> {
        match &self.uri {
            Some(uri) if !uri.starts_with("file:") => None,
            _ => Some(&self.path),
        }
    }
}

/// A 1-based position: line, and character in UTF-16 code units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    /// 1-based line.
    pub line: u32,
    /// 1-based character, counted in UTF-16 code units.
    pub character: u32,
}

/// The primary selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// Nothing is selected.
    Empty,
    /// A non-empty selection, with its text.
    Text {
        /// The selected text, its first [`SELECTION_TEXT_CAP`] characters when it is longer
        /// (then ending with a note of its length).
        text: String,
        /// The length of the whole selected text, in characters.
        length: usize,
        /// Where it starts.
        start: Cursor,
        /// Where it ends.
        end: Cursor,
    },
}

/// Where the symbols came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolSource {
    /// Pushed by the editor from its own language server.
    LanguageServer,
    /// Computed by Locus from the syntax tree.
    TreeSitter,
    /// No provider: no scopes, and a warning.
    None,
}

impl SymbolSource {
    /// The name editorContext uses (`"language-server"`, `"tree-sitter"`, `"none"`).
    pub fn as_str(self) -> &'static str {
        match self {
            SymbolSource::LanguageServer => "language-server",
            SymbolSource::TreeSitter => "tree-sitter",
            SymbolSource::None => "none",
        }
    }
}

/// One containing scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// The symbol's name.
    pub name: String,
    /// Its kind.
    pub kind: SymbolKind,
    /// 1-based first line.
    pub start_line: u32,
    /// 1-based last line.
    pub end_line: u32,
}

impl Scope {
    /// Lines spanned: `end - start + 1`.
    pub fn length(&self) -> u32 {
        self.end_line - self.start_line + 1
    }
}

/// The symbol part of the context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolsInfo {
    /// How many symbols the document has, at every depth.
    pub total_in_document: usize,
    /// The scopes holding the cursor, outermost first.
    pub containing_scopes: Vec<Scope>,
    /// Where the symbols came from.
    pub source: SymbolSource,
    /// Set when there is no symbol provider.
    pub warning: Option<String>,
}

impl SymbolsInfo {
    /// The innermost scope, if any.
    pub fn immediate_scope(&self) -> Option<&Scope> {
        self.containing_scopes.last()
    }

    /// `Class:UserService > Method:findUser`, or the empty string at top level.
    pub fn hierarchy(&self) -> String {
        self.containing_scopes
            .iter()
            .map(|s| format!("{}:{}", s.kind, s.name))
            .collect::<Vec<_>>()
            .join(" > ")
    }
}

/// Symbols the editor's own language server supplied for the document's current version.
#[derive(Debug, Clone, Copy)]
pub enum Symbols<'a> {
    /// Use the editor's symbols.
    Editor(&'a Outline),
    /// Use the syntax tree's.
    Syntax,
}

/// What to build a context for.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The document's path.
    pub path: &'a str,
    /// Its language id as the editor names it (falls back to the registry's id, then `plaintext`).
    pub language_id: Option<&'a str>,
    /// Whether it differs from the saved file.
    pub is_dirty: bool,
    /// The cursor, as a byte offset (clamped).
    pub cursor: usize,
    /// The primary selection in bytes, if any (an empty one counts as none).
    pub selection: Option<Span>,
    /// Where the symbols come from.
    pub symbols: Symbols<'a>,
}

/// Builds the editorContext of `source` for `request`.
pub fn build(source: &Source, request: &Request<'_>) -> EditorContext {
    let doc = source.doc();
    let cursor = doc.floor_char_boundary(request.cursor);
    let language_id = request
        .language_id
        .map(str::to_string)
        .or_else(|| source.language().map(|l| l.id().to_string()))
        .unwrap_or_else(|| "plaintext".to_string());
    let file = FileInfo {
        path: request.path.to_string(),
        uri: None,
        language_id,
        line_count: doc.line_count(),
        is_dirty: request.is_dirty,
    };
    let selection = match request.selection {
        Some(span) if span.start != span.end => {
            let (a, b) = (span.start.min(span.end), span.start.max(span.end));
            let (text, length) = capped_selection(doc.slice(a, b));
            Selection::Text { text, length, start: cursor_at(doc, a), end: cursor_at(doc, b) }
        }
        _ => Selection::Empty,
    };
    let symbols = match request.symbols {
        Symbols::Editor(outline) => {
            symbols_info(doc, outline, cursor, SymbolSource::LanguageServer)
        }
        Symbols::Syntax if source.has_symbols() => {
            symbols_info(doc, &source.outline(), cursor, SymbolSource::TreeSitter)
        }
        Symbols::Syntax => SymbolsInfo {
            total_in_document: 0,
            containing_scopes: Vec::new(),
            source: SymbolSource::None,
            warning: Some(NO_PROVIDER_WARNING.to_string()),
        },
    };
    EditorContext { file, cursor: cursor_at(doc, cursor), selection, symbols, focused: None }
}

/// A selection's text within [`SELECTION_TEXT_CAP`], and its whole length in characters.
fn capped_selection(text: String) -> (String, usize) {
    let length = text.chars().count();
    if length <= SELECTION_TEXT_CAP {
        return (text, length);
    }
    let head: String = text.chars().take(SELECTION_TEXT_CAP).collect();
    (format!("{head}… [cut: {SELECTION_TEXT_CAP} of {length} characters]"), length)
}

fn symbols_info(
    doc: &Document,
    outline: &Outline,
    cursor: usize,
    source: SymbolSource,
) -> SymbolsInfo {
    let containing_scopes = outline
        .chain_at(cursor)
        .into_iter()
        .map(|s| Scope {
            name: s.name.clone(),
            kind: s.kind,
            start_line: doc.line_of(s.range.start) as u32 + 1,
            end_line: doc.line_of(s.range.end) as u32 + 1,
        })
        .collect();
    SymbolsInfo { total_in_document: outline.total, containing_scopes, source, warning: None }
}

/// The 1-based UTF-16 cursor of a byte offset.
pub fn cursor_at(doc: &Document, offset: usize) -> Cursor {
    let p = doc.position_at(offset, PositionEncoding::Utf16);
    Cursor { line: p.line + 1, character: p.character + 1 }
}
