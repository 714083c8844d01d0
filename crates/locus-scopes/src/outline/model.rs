//! What an outline holds: spans, symbols, the outline with the scope chain at an offset, and
//! what an update needs to know of it (the names joining may tie, what symbols read).

use std::collections::{BTreeMap, BTreeSet};

use super::markup::LinkLabels;
use crate::kind::SymbolKind;
use crate::query::Join;

/// A half-open byte range of the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// Whether `offset` lies in the span, counting its end as inside (as editors do for a
    /// cursor right after the last character).
    pub fn contains_offset(self, offset: usize) -> bool {
        self.start <= offset && offset <= self.end
    }

    /// Whether `other` lies wholly inside this span.
    pub fn contains(self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }
}

/// One document symbol: what an editor's outline shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// The name as the outline shows it.
    pub name: String,
    /// The LSP kind.
    pub kind: SymbolKind,
    /// The whole extent of the symbol.
    pub range: Span,
    /// The part to highlight when the symbol is picked: its name.
    pub selection: Span,
    /// Nested symbols, in document order.
    pub children: Vec<Symbol>,
}

/// All symbols of one document version. Two outlines are equal when their symbols are.
#[derive(Debug, Clone, Default)]
pub struct Outline {
    /// The top-level symbols, in document order.
    pub symbols: Vec<Symbol>,
    /// How many symbols there are at every depth.
    pub total: usize,
    /// The names that joining may tie together (tsserver's ES5 classes: `join` in
    /// `queries/README.md`); while none can join, symbols stand on their own and an edit
    /// between two of them is re-extracted alone. Conservative: names may outlive their text.
    pub(super) names: JoinNames,
    /// What symbols (and would-be symbols) read outside their own range: an edit there
    /// re-extracts them (see [`Reads`]).
    pub(super) reads: Vec<Reads>,
    /// The link labels the document defined (Markdown): heading names depend on them, so an
    /// edit that changes them re-extracts the whole document.
    pub(super) link_labels: LinkLabels,
}

/// A symbol whose match reads text outside its range, or a node a `root.up` pattern is tried
/// above: its name, kind, or whether it is a symbol at all may change when only `outer` is
/// edited (a callback named from its call's callee, a function from the member it is assigned
/// to). [`update`] widens an edit that touches `outer` without lying inside `inner` to all of
/// `outer`, so the symbol is re-extracted with it. An edit inside `inner` re-extracts the
/// symbol anyway (it holds or touches the edit).
///
/// [`update`]: super::update::update
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reads {
    /// What the match (or the pattern tried) looks at: its captures' extent, or its root.
    pub(super) outer: Span,
    /// The symbol's range, or the node a `root.up` pattern may make a symbol of.
    pub(super) inner: Span,
}

impl Reads {
    /// Whether an edit of `dirty` may change what this symbol is, without re-extracting it
    /// for holding or touching it.
    pub(super) fn read_by(self, dirty: Span) -> bool {
        self.outer.start <= dirty.end
            && dirty.start <= self.outer.end
            && !(self.inner.start < dirty.start && dirty.end < self.inner.end)
            && !dirty.contains(self.outer)
    }
}

impl PartialEq for Outline {
    fn eq(&self, other: &Outline) -> bool {
        self.symbols == other.symbols && self.total == other.total
    }
}

impl Eq for Outline {}

impl Outline {
    /// The symbols as text, one a line, indented by depth: kind, name, range and selection in
    /// bytes. For comparing two outlines exactly (`examples/outline_dump`, the index's
    /// recorded outlines in `locus-index`'s tests).
    pub fn dump(&self) -> String {
        fn lines(out: &mut String, symbols: &[Symbol], depth: usize) {
            use std::fmt::Write as _;
            for s in symbols {
                let (r, n) = (s.range, s.selection);
                let _ = writeln!(
                    out,
                    "{:depth$}{:?} {:?} {}-{} {}-{}",
                    "", s.kind, s.name, r.start, r.end, n.start, n.end
                );
                lines(out, &s.children, depth + 1);
            }
        }
        let mut out = String::new();
        lines(&mut out, &self.symbols, 0);
        out
    }
}

/// The names joining may tie together in some region, by the rules of the `join` function
/// of `extract.rs`: a `static` group joins only a name a function or a `prototype` group declared; a
/// `prototype` group joins (or is swallowed by) any earlier sibling of its name, and an
/// `export` goes after one; a function or value joins an earlier `prototype` group. So where
/// no static group's name is a function's or a prototype group's, and no prototype or export
/// group's name is borne by a second symbol, no join can happen.
#[derive(Debug, Clone, Default)]
pub(super) struct JoinNames {
    /// Names of `static` groups.
    statics: BTreeSet<String>,
    /// Names of `prototype` and `export` groups.
    anys: BTreeSet<String>,
    /// Names that functions and `prototype` groups declare (what a static group can join).
    declared: BTreeSet<String>,
    /// How many symbols bear each name.
    all: BTreeMap<String, u32>,
}

impl JoinNames {
    pub(super) fn add(&mut self, name: String, join: Join) {
        match join {
            Join::Static => {
                self.statics.insert(name.clone());
            }
            Join::Prototype => {
                self.anys.insert(name.clone());
                self.declared.insert(name.clone());
            }
            Join::Export => {
                self.anys.insert(name.clone());
            }
            Join::Function => {
                self.declared.insert(name.clone());
            }
            Join::No | Join::Value => {}
        }
        *self.all.entry(name).or_default() += 1;
    }

    /// Whether some join may happen between these symbols.
    pub(super) fn joinable(&self) -> bool {
        self.statics.iter().any(|n| self.declared.contains(n))
            || self.anys.iter().any(|n| self.all.get(n).is_some_and(|&k| k > 1))
    }

    /// Adds the names of another region (in place: a document's names are many, a region's
    /// few).
    pub(super) fn union(mut self, other: JoinNames) -> JoinNames {
        self.statics.extend(other.statics);
        self.anys.extend(other.anys);
        self.declared.extend(other.declared);
        for (name, k) in other.all {
            *self.all.entry(name).or_default() += k;
        }
        self
    }
}

impl Outline {
    /// Builds an outline from top-level symbols.
    pub fn new(symbols: Vec<Symbol>) -> Outline {
        fn count(s: &[Symbol]) -> usize {
            s.iter().map(|s| 1 + count(&s.children)).sum()
        }
        Outline {
            total: count(&symbols),
            symbols,
            names: JoinNames::default(),
            reads: Vec::new(),
            link_labels: LinkLabels::default(),
        }
    }

    pub(super) fn with_names(mut self, names: JoinNames, reads: Vec<Reads>) -> Outline {
        self.names = names;
        self.reads = reads;
        self
    }

    pub(super) fn with_link_labels(mut self, labels: LinkLabels) -> Outline {
        self.link_labels = labels;
        self
    }

    /// Moves every offset across an edit of `start..old_end` into `start..new_end` (see
    /// [`shift`]), the spans symbols read outside them included.
    pub(crate) fn shift(&mut self, start: usize, old_end: usize, new_end: usize) {
        shift(&mut self.symbols, start, old_end, new_end);
        for r in &mut self.reads {
            r.outer = shift_span(r.outer, start, old_end, new_end);
            r.inner = shift_span(r.inner, start, old_end, new_end);
        }
    }

    /// The symbols containing `offset`, outermost first: every symbol whose range contains
    /// it, as VS Code's walk finds them. The walk visits all siblings, not only the first that
    /// contains the offset: pyright files `self.x` attributes under the class beside the
    /// method that assigns them, so on `self.x = …` both the method and the attribute
    /// contain the cursor, and the chain is `Class > Method > Variable`. Siblings are taken
    /// in the outline's order (start ascending, then end descending, then document order);
    /// each containing sibling is followed by its own containing descendants (pre-order).
    ///
    /// Cost: per level, a binary search for the siblings starting at or before `offset`, then
    /// a scan of those.
    pub fn chain_at(&self, offset: usize) -> Vec<&Symbol> {
        let mut chain = Vec::new();
        containing(&self.symbols, offset, &mut chain);
        chain
    }
}

fn containing<'a>(level: &'a [Symbol], offset: usize, chain: &mut Vec<&'a Symbol>) {
    let upto = level.partition_point(|s| s.range.start <= offset);
    for symbol in &level[..upto] {
        if symbol.range.contains_offset(offset) {
            chain.push(symbol);
            containing(&symbol.children, offset, chain);
        }
    }
}

/// Moves every offset of `symbols` across an edit of `start..old_end` into `start..new_end`.
fn shift(symbols: &mut [Symbol], start: usize, old_end: usize, new_end: usize) {
    for s in symbols {
        s.range = shift_span(s.range, start, old_end, new_end);
        s.selection = shift_span(s.selection, start, old_end, new_end);
        shift(&mut s.children, start, old_end, new_end);
    }
}

/// `span` moved across an edit of `start..old_end` into `start..new_end`, as [`shift`] moves a
/// symbol's.
fn shift_span(span: Span, start: usize, old_end: usize, new_end: usize) -> Span {
    let moved = |p: usize, is_end: bool| {
        if p < start || (is_end && p == start) {
            p
        } else if p >= old_end {
            p - old_end + new_end
        } else {
            new_end
        }
    };
    Span { start: moved(span.start, false), end: moved(span.end, true) }
}
