//! Symbols pushed by the editor (from its own language server), turned into an [`Outline`]
//! against the text they were computed for, and carried through later edits.
//!
//! **The policy** (one source per document, so kinds do not flip while the user types):
//! a push is adopted only for the exact version it describes; from then on it answers for the
//! document, its ranges shifted through every later edit (as the editor's own outline and
//! breadcrumbs keep showing the last symbols until the language server answers again), until
//! the next adopted push replaces it. Tree-sitter answers only for documents the editor has
//! not (yet) pushed usable symbols for. A symbol typed since the last push is missing until
//! the next one, rather than showing up with tree-sitter's kinds between two keystrokes.
//!
//! **Invariants.**
//! - A push is adopted only against the text of its own version: one for a version the mirror
//!   has not reached waits (and the previous push keeps answering meanwhile); one for an
//!   older version is dropped.
//! - The adopted outline's spans are always in bytes of the current text: edits are recorded
//!   as they apply and folded into the spans before the outline is read.

use std::sync::Arc;

use locus_doc::{Document, PositionEncoding, Range, TextEdit};
use locus_scopes::{Outline, Span, Symbol, SymbolKind};

/// What happened to a symbol push.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolsOutcome {
    /// The push matches the document's version and is in use.
    Used,
    /// The push is for a version the mirror has not reached yet; used when it does.
    Pending,
    /// The push is for an older version than the mirror's and was dropped.
    Stale {
        /// The document's version.
        current: i32,
    },
}

/// Edits recorded before they are folded into the adopted outline; past this many the fold
/// happens at once, so a long typing session between pushes costs bounded memory.
const MAX_RECORDED_EDITS: usize = 256;

/// Symbols the editor pushed for one document.
#[derive(Debug, Clone, Default)]
pub(super) struct Pushed {
    /// The adopted push, and the edits made since that its spans do not include yet.
    adopted: Option<(Arc<Outline>, Vec<TextEdit>)>,
    /// A push for a version the mirror has not reached yet.
    waiting: Option<Waiting>,
}

#[derive(Debug, Clone)]
struct Waiting {
    version: i32,
    symbols: Vec<RawSymbol>,
    encoding: PositionEncoding,
}

impl Pushed {
    /// Takes a push of `symbols` for `version` of a document whose current text is `doc`.
    pub(super) fn push(
        &mut self,
        doc: &Document,
        version: i32,
        symbols: Vec<RawSymbol>,
        encoding: PositionEncoding,
    ) -> SymbolsOutcome {
        let current = doc.version();
        if version < current {
            return SymbolsOutcome::Stale { current };
        }
        if version > current {
            self.waiting = Some(Waiting { version, symbols, encoding });
            return SymbolsOutcome::Pending;
        }
        self.adopted = Some((Arc::new(to_outline(doc, &symbols, encoding)), Vec::new()));
        self.waiting = None;
        SymbolsOutcome::Used
    }

    /// Records an edit just applied to the document: the adopted outline's spans follow it.
    pub(super) fn after_edit(&mut self, edit: &TextEdit) {
        if let Some((outline, edits)) = &mut self.adopted {
            edits.push(*edit);
            if edits.len() >= MAX_RECORDED_EDITS {
                fold(outline, edits);
            }
        }
    }

    /// The document (now `doc`) reached `version`: a waiting push for exactly that version is
    /// adopted, one for a later version keeps waiting, and one for an earlier version is
    /// dropped (with its memory).
    pub(super) fn after_change(&mut self, doc: &Document, version: i32) {
        match self.waiting.take() {
            Some(w) if w.version == version => {
                self.adopted =
                    Some((Arc::new(to_outline(doc, &w.symbols, w.encoding)), Vec::new()));
            }
            Some(w) if w.version > version => self.waiting = Some(w),
            _ => {}
        }
    }

    /// The adopted outline, in bytes of the current text, if the editor pushed one.
    pub(super) fn current(&mut self) -> Option<Arc<Outline>> {
        let (outline, edits) = self.adopted.as_mut()?;
        if !edits.is_empty() {
            fold(outline, edits);
        }
        Some(outline.clone())
    }
}

/// Folds recorded edits into the outline's spans, in the order they were applied.
fn fold(outline: &mut Arc<Outline>, edits: &mut Vec<TextEdit>) {
    fn shift(symbols: &mut [Symbol], edits: &[TextEdit]) {
        for s in symbols {
            s.range = shift_span(s.range, edits);
            s.selection = shift_span(s.selection, edits);
            if !s.range.contains(s.selection) {
                s.selection = s.range;
            }
            shift(&mut s.children, edits);
        }
    }
    shift(&mut Arc::make_mut(outline).symbols, edits);
    edits.clear();
}

/// Where a span of the text before `edits` lies after them. A span grows to hold an edit that
/// touches its end (typing at the end of a function stays in it), and its start moves past
/// text inserted exactly there; an edit that swallows a span leaves it empty at the edit.
fn shift_span(span: Span, edits: &[TextEdit]) -> Span {
    let mut span = span;
    for e in edits {
        let moved = |o: usize| o - e.old_end_byte + e.new_end_byte;
        span.start = if span.start < e.start_byte {
            span.start
        } else if span.start >= e.old_end_byte {
            moved(span.start)
        } else {
            e.start_byte
        };
        span.end = if span.end < e.start_byte {
            span.end
        } else if span.end >= e.old_end_byte {
            moved(span.end)
        } else {
            e.new_end_byte
        };
        span.end = span.end.max(span.start);
    }
    span
}

/// A symbol as the editor gave it: positions in the editor's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawSymbol {
    /// The name.
    pub name: String,
    /// The kind.
    pub kind: SymbolKind,
    /// The whole extent.
    pub range: Range,
    /// The name's extent, when given.
    pub selection: Option<Range>,
    /// Nested symbols.
    pub children: Vec<RawSymbol>,
}

/// Converts pushed symbols to an outline of `doc`: siblings sorted by start (as the outline
/// requires), inverted ranges turned around, selections clamped into their symbol.
fn to_outline(doc: &Document, symbols: &[RawSymbol], encoding: PositionEncoding) -> Outline {
    Outline::new(convert(doc, symbols, encoding))
}

fn convert(doc: &Document, symbols: &[RawSymbol], encoding: PositionEncoding) -> Vec<Symbol> {
    let span = |r: Range| {
        let (a, b) = (doc.offset_at(r.start, encoding), doc.offset_at(r.end, encoding));
        Span { start: a.min(b), end: a.max(b) }
    };
    let mut out: Vec<Symbol> = symbols
        .iter()
        .map(|s| {
            let range = span(s.range);
            let selection =
                s.selection.map(span).filter(|sel| range.contains(*sel)).unwrap_or(range);
            Symbol {
                name: s.name.clone(),
                kind: s.kind,
                range,
                selection,
                children: convert(doc, &s.children, encoding),
            }
        })
        .collect();
    out.sort_by(|a, b| a.range.start.cmp(&b.range.start).then(b.range.end.cmp(&a.range.end)));
    out
}

/// Nests flat symbols (LSP `SymbolInformation[]`) by range containment.
pub fn nest(flat: Vec<RawSymbol>) -> Vec<RawSymbol> {
    let mut flat = flat;
    flat.sort_by(|a, b| a.range.start.cmp(&b.range.start).then(b.range.end.cmp(&a.range.end)));
    // A stack of open ancestors; each symbol becomes a child of the innermost that contains it.
    let mut roots: Vec<RawSymbol> = Vec::new();
    let mut stack: Vec<RawSymbol> = Vec::new();
    let contains =
        |outer: &Range, inner: &Range| outer.start <= inner.start && inner.end <= outer.end;
    for s in flat {
        while let Some(top) = stack.last() {
            if contains(&top.range, &s.range) {
                break;
            }
            let done = stack.pop().expect("non-empty");
            match stack.last_mut() {
                Some(parent) => parent.children.push(done),
                None => roots.push(done),
            }
        }
        stack.push(s);
    }
    while let Some(done) = stack.pop() {
        match stack.last_mut() {
            Some(parent) => parent.children.push(done),
            None => roots.push(done),
        }
    }
    roots
}

#[cfg(test)]
mod tests {
    use super::*;
    use locus_doc::Position;

    fn sym(name: &str, a: (u32, u32), b: (u32, u32)) -> RawSymbol {
        RawSymbol {
            name: name.into(),
            kind: SymbolKind::Function,
            range: Range { start: Position::new(a.0, a.1), end: Position::new(b.0, b.1) },
            selection: None,
            children: Vec::new(),
        }
    }

    #[test]
    fn flat_symbols_nest_by_containment() {
        let nested = nest(vec![
            sym("b", (1, 0), (2, 0)),
            sym("a", (0, 0), (5, 0)),
            sym("c", (3, 0), (4, 0)),
            sym("d", (6, 0), (7, 0)),
        ]);
        let shape: Vec<_> = nested
            .iter()
            .map(|s| {
                (s.name.as_str(), s.children.iter().map(|c| c.name.as_str()).collect::<Vec<_>>())
            })
            .collect();
        assert_eq!(shape, vec![("a", vec!["b", "c"]), ("d", vec![])]);
    }

    #[test]
    fn siblings_are_sorted_and_ranges_clamped() {
        let doc = Document::new("one\ntwo\nthree\n", 1);
        let outline = to_outline(
            &doc,
            &[sym("late", (2, 0), (2, 5)), sym("early", (0, 0), (99, 0))],
            PositionEncoding::Utf16,
        );
        assert_eq!(outline.symbols[0].name, "early");
        assert_eq!(outline.symbols[0].range.end, doc.len_bytes());
        assert_eq!(outline.total, 2);
    }
}
