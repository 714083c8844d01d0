//! Symbols pushed by the editor (from its own language server), turned into an [`Outline`]
//! against the text they were computed for.
//!
//! **Invariants.**
//! - Pushed symbols answer only for the exact text they describe: [`Pushed::Ready`] is tied
//!   to the document's generation (which, unlike the editor's version, never repeats), and
//!   any later change drops it, so the syntax tree answers until the editor pushes again.
//! - A push for a version the mirror has not reached waits ([`Pushed::Pending`]) and is used
//!   when the mirror reaches exactly that version; a push for an older version is dropped.

use std::sync::Arc;

use locus_doc::{Document, PositionEncoding, Range};
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

/// Symbols the editor pushed for one document.
#[derive(Debug, Clone)]
pub(super) enum Pushed {
    None,
    /// Converted against the text of `generation`; valid only while the document is there.
    Ready {
        generation: u64,
        outline: Arc<Outline>,
    },
    /// For a version the mirror has not reached yet.
    Pending {
        version: i32,
        symbols: Vec<RawSymbol>,
        encoding: PositionEncoding,
    },
}

impl Pushed {
    /// Takes a push of `symbols` for `version` of a document whose current text is `doc`,
    /// at `generation`; returns the new state (`None`: keep the old one) and the outcome.
    pub(super) fn push(
        doc: &Document,
        generation: u64,
        version: i32,
        symbols: Vec<RawSymbol>,
        encoding: PositionEncoding,
    ) -> (Option<Pushed>, SymbolsOutcome) {
        let current = doc.version();
        if version < current {
            return (None, SymbolsOutcome::Stale { current });
        }
        if version > current {
            return (Some(Pushed::Pending { version, symbols, encoding }), SymbolsOutcome::Pending);
        }
        let outline = Arc::new(to_outline(doc, &symbols, encoding));
        (Some(Pushed::Ready { generation, outline }), SymbolsOutcome::Used)
    }

    /// The state after a change brought the document (now `doc`, at `generation`) to
    /// `version`: a waiting push for exactly that version is used, one for a later version
    /// keeps waiting, and anything else is dropped (with its memory).
    pub(super) fn after_change(self, doc: &Document, generation: u64, version: i32) -> Pushed {
        match self {
            Pushed::Pending { version: v, symbols, encoding } if v == version => {
                Pushed::Ready { generation, outline: Arc::new(to_outline(doc, &symbols, encoding)) }
            }
            keep @ Pushed::Pending { version: v, .. } if v > version => keep,
            _ => Pushed::None,
        }
    }

    /// The pushed outline, if it describes the text at `generation`.
    pub(super) fn current(&self, generation: u64) -> Option<Arc<Outline>> {
        match self {
            Pushed::Ready { generation: g, outline } if *g == generation => Some(outline.clone()),
            _ => None,
        }
    }
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
