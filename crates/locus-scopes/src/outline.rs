//! Document symbols from a syntax tree and a symbol query, and the scope chain at an offset.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use locus_doc::Document;
use streaming_iterator::StreamingIterator;
use tree_sitter::{CaptureQuantifier, Node, QueryCapture, QueryCursor, TextProvider, Tree};

use crate::ancestry::any_overlapping_below;
use crate::kind::SymbolKind;
use crate::query::{
    Deferred, Filter, Join, JoinElse, LanguageConfig, Merge, Normalize, Part, Role,
};

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
    names: JoinNames,
    /// What symbols (and would-be symbols) read outside their own range: an edit there
    /// re-extracts them (see [`Reads`]).
    reads: Vec<Reads>,
}

/// A symbol whose match reads text outside its range, or a node a `root.up` pattern is tried
/// above: its name, kind, or whether it is a symbol at all may change when only `outer` is
/// edited (a callback named from its call's callee, a function from the member it is assigned
/// to). [`update`] widens an edit that touches `outer` without lying inside `inner` to all of
/// `outer`, so the symbol is re-extracted with it. An edit inside `inner` re-extracts the
/// symbol anyway (it holds or touches the edit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reads {
    /// What the match (or the pattern tried) looks at: its captures' extent, or its root.
    outer: Span,
    /// The symbol's range, or the node a `root.up` pattern may make a symbol of.
    inner: Span,
}

impl Reads {
    /// Whether an edit of `dirty` may change what this symbol is, without re-extracting it
    /// for holding or touching it.
    fn read_by(self, dirty: Span) -> bool {
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
/// below: a `static` group joins only a name a function or a `prototype` group declared; a
/// `prototype` group joins (or is swallowed by) any earlier sibling of its name, and an
/// `export` goes after one; a function or value joins an earlier `prototype` group. So where
/// no static group's name is a function's or a prototype group's, and no prototype or export
/// group's name is borne by a second symbol, no join can happen.
#[derive(Debug, Clone, Default)]
pub(crate) struct JoinNames {
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
    fn add(&mut self, name: String, join: Join) {
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
    fn joinable(&self) -> bool {
        self.statics.iter().any(|n| self.declared.contains(n))
            || self.anys.iter().any(|n| self.all.get(n).is_some_and(|&k| k > 1))
    }

    /// Adds the names of another region (in place: a document's names are many, a region's
    /// few).
    fn union(mut self, other: JoinNames) -> JoinNames {
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
        Outline { total: count(&symbols), symbols, names: JoinNames::default(), reads: Vec::new() }
    }

    fn with_names(mut self, names: JoinNames, reads: Vec<Reads>) -> Outline {
        self.names = names;
        self.reads = reads;
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

/// Gives tree-sitter the text of a node from the rope, chunk by chunk.
pub(crate) struct RopeText<'a>(pub &'a Document);

impl<'a> TextProvider<&'a [u8]> for RopeText<'a> {
    type I = std::iter::Map<ropey::iter::Chunks<'a>, fn(&'a str) -> &'a [u8]>;

    fn text(&mut self, node: Node) -> Self::I {
        let rope = self.0.rope();
        let end = node.end_byte().min(rope.len_bytes());
        let start = node.start_byte().min(end);
        rope.byte_slice(start..end).chunks().map(str::as_bytes as fn(&'a str) -> &'a [u8])
    }
}

/// A symbol found by a pattern, before names are rendered and the tree is built.
pub(crate) struct Candidate {
    pattern: usize,
    pub(crate) kind: SymbolKind,
    range: Span,
    names: Vec<Span>,
    helpers: Vec<(u32, Span)>,
    /// The extent of the match's captures (and of its root, for a `root.up` pattern): what
    /// the symbol's name, kind and existence depend on.
    reads: Span,
    /// The symbol node's place among its parent's named children, comments left out, for a
    /// pattern whose name says `{index}`.
    index: Option<u32>,
}

/// Extracts the symbols of the whole tree.
pub fn extract(config: &LanguageConfig, tree: &Tree, doc: &Document) -> Outline {
    match extract_region(config, tree, doc, None) {
        Some(Extracted { symbols, names, reads, .. }) => {
            Outline::new(symbols).with_names(names, reads)
        }
        None => Outline::default(),
    }
}

/// Whether the language's symbols can stand on their own: no merging by name, no heading
/// levels. (Joins depend on the document: an outline records whether it has any.)
fn independent(config: &LanguageConfig) -> bool {
    config.patterns.iter().all(|p| p.merge == Merge::No && p.level.is_none())
}

/// The symbols of a region, and the names joining may tie together.
pub(crate) struct Extracted {
    pub(crate) symbols: Vec<Symbol>,
    names: JoinNames,
    /// The extent of every match that hides or reshapes symbols (`@skip`, `@ignore`,
    /// `@range.extend`) and reaches out of the region: through these, what lies in the region
    /// may act on symbols outside it, or what lies outside on symbols inside. None for the
    /// whole tree.
    reach: Vec<Span>,
    /// What the region's symbols read outside their ranges.
    reads: Vec<Reads>,
    /// The symbols found starting just past the region's end, where its query looked (the
    /// next sibling of a gap), by kind and range: not the region's, but what a gap's update
    /// checks against the symbol kept there.
    beyond: Vec<(SymbolKind, Span)>,
}

/// What the matches of a query say, gathered before symbols are built.
#[derive(Default)]
pub(crate) struct Gathered<'tree> {
    /// Symbol candidates by node id.
    pub(crate) candidates: HashMap<usize, Candidate>,
    /// The node of every symbol match of the main query, with its kind (where `root.up`
    /// patterns are tried).
    found: Vec<(Node<'tree>, SymbolKind)>,
    skipped: Vec<usize>,
    extended: Vec<(usize, Span)>,
    ignored: Vec<Span>,
    /// Symbols found inside a node's text (`text.match`), several per node, with the node's id,
    /// and the nodes done.
    in_text: Vec<(usize, Candidate)>,
    texts_done: Vec<usize>,
    /// The extent (first capture's start to last capture's end) of every match holding a
    /// `@skip`, `@ignore` or `@range.extend` capture: what such a rule looks at and acts on.
    reach: Vec<Span>,
    /// Each root a `root.up` pattern was tried at, with the node it may make a symbol of.
    tried: Vec<Reads>,
    /// The place of each named child of a parent an `{index}` name was read in, by node id:
    /// all of a parent's children are counted the first time, so a long array is walked
    /// once, not once per item.
    places: HashMap<usize, u32>,
}

impl<'tree> Gathered<'tree> {
    /// Takes one match of the pattern ranked `rank`.
    pub(crate) fn take(
        &mut self,
        config: &LanguageConfig,
        doc: &Document,
        rank: usize,
        captures: &[QueryCapture<'tree>],
        root: Option<Span>,
    ) {
        let info = &config.patterns[rank];
        let roles = config.roles_for(info);
        // `#kind-eq?`: every node of the capture must (not) be of one of the kinds.
        for test in &info.kinds {
            let fails = captures.iter().any(|c| {
                c.index == test.capture
                    && test.kinds.iter().any(|k| k == c.node.kind()) == test.negate
            });
            if fails {
                return;
            }
        }
        let mut symbol: Option<(Node, SymbolKind)> = None;
        let mut names = Vec::new();
        let mut helpers = Vec::new();
        let mut range_start: Option<usize> = None;
        let mut range_end: Option<usize> = None;
        let mut extend: Option<usize> = None;
        let mut acts = false;
        for cap in captures {
            let span = Span { start: cap.node.start_byte(), end: cap.node.end_byte() };
            match roles[cap.index as usize] {
                Role::Symbol(kind) => symbol = Some((cap.node, kind)),
                Role::Name => names.push(span),
                Role::RangeStart => {
                    range_start = Some(range_start.map_or(span.start, |s| s.min(span.start)))
                }
                Role::RangeEnd => range_end = Some(range_end.map_or(span.end, |e| e.max(span.end))),
                Role::RangeExtend => {
                    acts = true;
                    extend = Some(cap.node.id())
                }
                Role::Skip => {
                    acts = true;
                    self.skipped.push(cap.node.id())
                }
                Role::Ignore => {
                    acts = true;
                    self.ignored.push(span)
                }
                Role::Helper => helpers.push((cap.index, span)),
            }
        }
        let start = captures.iter().map(|c| c.node.start_byte()).min().unwrap_or(0);
        let end = captures.iter().map(|c| c.node.end_byte()).max().unwrap_or(0);
        if acts {
            self.reach.push(Span { start, end });
        }
        let reads = match root {
            Some(r) => Span { start: start.min(r.start), end: end.max(r.end) },
            None => Span { start, end },
        };
        let Some((node, kind)) = symbol else {
            if let Some(id) = extend {
                self.extended.push((
                    id,
                    Span { start: range_start.unwrap_or(usize::MAX), end: range_end.unwrap_or(0) },
                ));
            }
            return;
        };
        if !info.deferred {
            self.found.push((node, kind));
        }
        if info.seed {
            return;
        }
        if let Some(regex) = &info.text_match {
            if !self.texts_done.contains(&node.id()) {
                self.texts_done.push(node.id());
                let start = node.start_byte();
                let text = doc.slice(start, node.end_byte());
                for found in regex.captures_iter(&text) {
                    let (Some(whole), Some(name)) = (found.get(0), found.name("name")) else {
                        continue;
                    };
                    self.in_text.push((
                        node.id(),
                        Candidate {
                            pattern: rank,
                            kind,
                            range: Span { start: start + whole.start(), end: start + whole.end() },
                            names: vec![Span {
                                start: start + name.start(),
                                end: start + name.end(),
                            }],
                            helpers: Vec::new(),
                            reads,
                            index: None,
                        },
                    ));
                }
            }
            return;
        }
        let index = info.names_by_index().then(|| self.place(node));
        let end = match &info.trim {
            Some(kind) => trimmed_end(node, kind),
            None => node.end_byte(),
        };
        let mut range = Span { start: node.start_byte(), end };
        if let Some(start) = range_start {
            range.start = range.start.min(start);
        }
        if let Some(end) = range_end {
            range.end = range.end.max(end);
        }
        self.offer(
            config,
            node.id(),
            Candidate { pattern: rank, kind, range, names, helpers, reads, index },
        );
    }

    /// `node`'s place among its parent's named children that are not extras (comments), from
    /// 0; an extra's is the place of the next child that counts.
    fn place(&mut self, node: Node<'tree>) -> u32 {
        if let Some(&place) = self.places.get(&node.id()) {
            return place;
        }
        // Once per parent (`Node::parent` walks down from the root).
        let Some(parent) = node.parent() else { return 0 };
        let mut cursor = parent.walk();
        let mut place = 0;
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                if child.is_named() {
                    self.places.insert(child.id(), place);
                    place += u32::from(!child.is_extra());
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        self.places.get(&node.id()).copied().unwrap_or(0)
    }

    /// Adds a symbol candidate for a node: of several patterns, the first written wins.
    fn offer(&mut self, config: &LanguageConfig, id: usize, candidate: Candidate) {
        match self.candidates.get_mut(&id) {
            // tree-sitter may match one pattern at one node several times, each match holding
            // some of the nodes a quantified capture (`(string)+ @_args`) can take: the
            // symbol's quantified helpers gather them all, in document order.
            Some(existing) if existing.pattern == candidate.pattern => {
                let info = &config.patterns[candidate.pattern];
                let quantifiers = config.query_for(info).capture_quantifiers(info.local);
                for (index, span) in candidate.helpers {
                    let quantified = matches!(
                        quantifiers[index as usize],
                        CaptureQuantifier::OneOrMore | CaptureQuantifier::ZeroOrMore
                    );
                    if quantified && !existing.helpers.contains(&(index, span)) {
                        existing.helpers.push((index, span));
                        existing.helpers.sort_by_key(|&(i, s)| (i, s.start));
                    }
                }
                existing.reads = Span {
                    start: existing.reads.start.min(candidate.reads.start),
                    end: existing.reads.end.max(candidate.reads.end),
                };
            }
            Some(existing) if existing.pattern < candidate.pattern => {}
            _ => {
                self.candidates.insert(id, candidate);
            }
        }
    }

    /// Adds what another part of the document gathered (the parts may overlap: a match found
    /// by both counts once).
    fn merge(&mut self, config: &LanguageConfig, other: Gathered<'tree>) {
        for (id, candidate) in other.candidates {
            self.offer(config, id, candidate);
        }
        self.found.extend(other.found);
        self.skipped.extend(other.skipped);
        self.extended.extend(other.extended);
        self.ignored.extend(other.ignored);
        self.reach.extend(other.reach);
        self.tried.extend(other.tried);
        let done = self.texts_done.clone();
        self.in_text.extend(other.in_text.into_iter().filter(|(id, _)| !done.contains(id)));
        self.texts_done.extend(other.texts_done.into_iter().filter(|id| !done.contains(id)));
    }

    /// Tries the `root.up` patterns where they may match: at the node N levels above each node
    /// another pattern (or a `seed` pattern) made a symbol of the pattern's kind, and of a node
    /// kind its `#kind-eq?` allows its symbol. Their matches count only where their symbol is
    /// such a node: they refine symbols found otherwise, never add any.
    ///
    /// With `split`, the roots are tried on two threads, each over half of them in order, and
    /// the second half's findings are merged after the first's: the same as one run, as in
    /// [`gather_split`] (every root is tried once, by one part, against every symbol found).
    fn take_deferred(
        &mut self,
        config: &LanguageConfig,
        deferred: &Deferred,
        doc: &Document,
        split: bool,
    ) {
        // (levels up, symbol kind, the node kinds its `#kind-eq?` allows the symbol) of each
        // deferred pattern, and where each may match.
        let mut wanted: Vec<(u32, SymbolKind, Option<&[String]>)> = Vec::new();
        for (local, &rank) in deferred.rank.iter().enumerate() {
            let info = &config.patterns[rank];
            let quantifiers = deferred.query.capture_quantifiers(local);
            for (index, (q, role)) in quantifiers.iter().zip(&deferred.roles).enumerate() {
                let node_kinds = info
                    .kinds
                    .iter()
                    .find(|t| t.capture as usize == index && !t.negate)
                    .map(|t| t.kinds.as_slice());
                if let (true, Role::Symbol(kind), Some(up)) =
                    (*q != CaptureQuantifier::Zero, role, info.up)
                    && !wanted.contains(&(up, *kind, node_kinds))
                {
                    wanted.push((up, *kind, node_kinds));
                }
            }
        }
        let mut roots: Vec<Node<'tree>> = Vec::new();
        let mut seen: std::collections::HashSet<usize> = std::collections::HashSet::new();
        let mut symbols: std::collections::HashSet<usize> = std::collections::HashSet::new();
        for &(node, kind) in &self.found {
            for &(up, k, node_kinds) in &wanted {
                if k != kind || node_kinds.is_some_and(|n| !n.iter().any(|n| n == node.kind())) {
                    continue;
                }
                symbols.insert(node.id());
                // The path from the root tried down to the node.
                let mut path = vec![node];
                for _ in 0..up {
                    match path.last().and_then(|n| n.parent()) {
                        Some(parent) => path.push(parent),
                        None => break,
                    }
                }
                path.reverse();
                let root = (path.len() == up as usize + 1).then_some(path[0]);
                // What lies in the root but outside the node matters to the node only where
                // some pattern can match through the kinds on the path (`x.y(…)`, not `[…]`).
                if let Some(root) = root
                    && deferred.symbols.fits(&path)
                {
                    self.tried.push(Reads {
                        outer: Span { start: root.start_byte(), end: root.end_byte() },
                        inner: Span { start: node.start_byte(), end: node.end_byte() },
                    });
                }
                if let Some(root) = root
                    && seen.insert(root.id())
                {
                    roots.push(root);
                }
            }
        }
        let try_roots = |roots: &[Node<'tree>], into: &mut Gathered<'tree>| {
            let mut cursor = QueryCursor::new();
            cursor.set_max_start_depth(Some(0));
            for &root in roots {
                let mut matches = cursor.matches(&deferred.query, root, RopeText(doc));
                while let Some(m) = matches.next() {
                    let refines = m.captures().iter().any(|c| {
                        matches!(deferred.roles[c.index as usize], Role::Symbol(_))
                            && symbols.contains(&c.node.id())
                    });
                    if refines {
                        let span = Span { start: root.start_byte(), end: root.end_byte() };
                        let rank = deferred.rank[m.pattern_index];
                        into.take(config, doc, rank, m.captures(), Some(span));
                    }
                }
            }
        };
        if !split || roots.len() < 2 {
            try_roots(&roots, self);
            return;
        }
        let (first, second) = roots.split_at(roots.len() / 2);
        let later = std::thread::scope(|scope| {
            let later = scope.spawn(|| {
                let mut part = Gathered::default();
                try_roots(second, &mut part);
                part
            });
            try_roots(first, self);
            later.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
        });
        self.merge(config, later);
    }
}

/// From this many bytes on, a whole document's query runs on two threads, each over half of
/// it: the query cursor's walk is most of an extraction (about 60 ms of 70 on a 30k-line
/// TypeScript file) and the editor is waiting for the first answer.
const PARALLEL_MIN: usize = 256 * 1024;

/// How many threads may run at once (read once).
fn parallelism() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *N.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The matches of the main query whose roots lie in `range` (in-progress matches run on past
/// its end, so every match rooted in the range is found), or, for a region `range.start..
/// region.end + 1` of a language whose symbols stand alone, at least every match that can
/// change what the region's extraction gives: the query then starts at the lowest node above
/// the region where that is provably so (`ancestry.rs`), not at the root, and skips the
/// siblings of every node on the way down (about 1 ms of 1.3 for a function inside a
/// 30k-line TypeScript file that is one huge function).
fn gather<'tree>(
    config: &LanguageConfig,
    tree: &'tree Tree,
    doc: &Document,
    region: Option<Span>,
    range: std::ops::Range<usize>,
) -> Gathered<'tree> {
    // The query starts at the lowest node `region` allows; the byte range may reach past it.
    let start = match (independent(config), region) {
        (true, Some(r)) => {
            config.ancestry.start(tree, crate::ancestry::Span { start: r.start, end: r.end })
        }
        _ => None,
    };
    gather_from(config, start.unwrap_or(tree.root_node()), doc, range)
}

/// The matches of the main query in `start`'s subtree whose roots lie in `range`.
fn gather_from<'tree>(
    config: &LanguageConfig,
    start: Node<'tree>,
    doc: &Document,
    range: std::ops::Range<usize>,
) -> Gathered<'tree> {
    let mut cursor = QueryCursor::new();
    cursor.set_byte_range(range);
    let mut gathered = Gathered::default();
    let mut matches = cursor.matches(&config.query, start, RopeText(doc));
    while let Some(m) = matches.next() {
        gathered.take(config, doc, config.rank[m.pattern_index], m.captures(), None);
    }
    gathered
}

/// [`gather`] over the whole document in parts cut at `cuts` (ascending), each on its own
/// thread: the same as one run, since every match is rooted in some part and a match found by
/// two parts counts once.
fn gather_split<'tree>(
    config: &LanguageConfig,
    tree: &'tree Tree,
    doc: &Document,
    cuts: &[usize],
) -> Gathered<'tree> {
    let bounds: Vec<usize> =
        std::iter::once(0).chain(cuts.iter().copied()).chain([usize::MAX]).collect();
    std::thread::scope(|scope| {
        // The first part runs here, the others on threads of their own.
        let parts: Vec<_> = bounds
            .windows(2)
            .skip(1)
            .map(|b| {
                let range = b[0]..b[1];
                scope.spawn(move || gather_from(config, tree.root_node(), doc, range))
            })
            .collect();
        let mut whole = gather_from(config, tree.root_node(), doc, 0..bounds[1]);
        for part in parts {
            whole.merge(config, part.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        whole
    })
}

/// Extracts the symbols lying wholly inside `region` (the whole tree for `None`), as a forest.
/// Patterns rooted outside the region still apply: the query sees every node around it.
/// `None` when the region cuts a symbol off from where it belongs: a `hoist` symbol whose
/// container lies outside the region.
pub(crate) fn extract_region(
    config: &LanguageConfig,
    tree: &Tree,
    doc: &Document,
    region: Option<Span>,
) -> Option<Extracted> {
    let split = region.is_none() && doc.len_bytes() >= PARALLEL_MIN && parallelism() > 1;
    let mut gathered = match region {
        // One byte past the end: tree-sitter's byte range leaves out a node that starts at its
        // end, and an empty one there (a MISSING identifier tree-sitter's recovery inserts after
        // a def) lies inside the region, as a whole extraction places it. And the node that
        // starts right after the region (a gap's next sibling): a rule in the region may grow
        // it into the region (`@range.start` on a decorator typed before a method), which
        // then straddles the edge and refuses the region.
        Some(r) => gather(config, tree, doc, Some(r), r.start..r.end + 2),
        None if split => gather_split(config, tree, doc, &[doc.len_bytes() / 2]),
        None => gather(config, tree, doc, None, 0..usize::MAX),
    };
    if let Some(deferred) = &config.deferred {
        gathered.take_deferred(config, deferred, doc, split);
    }
    finish(config, tree, doc, region, gathered)
}

/// The outline of the whole tree from the matches `gathered` holds (the pruned extraction's,
/// `pruned.rs`): what [`extract`] builds from the main query's.
pub(crate) fn extract_gathered(
    config: &LanguageConfig,
    tree: &Tree,
    doc: &Document,
    gathered: Gathered,
) -> Outline {
    match finish(config, tree, doc, None, gathered) {
        Some(Extracted { symbols, names, reads, .. }) => {
            Outline::new(symbols).with_names(names, reads)
        }
        None => Outline::default(),
    }
}

/// Builds the symbols of a region (the whole tree for `None`) from what its matches say.
fn finish(
    config: &LanguageConfig,
    tree: &Tree,
    doc: &Document,
    region: Option<Span>,
    gathered: Gathered,
) -> Option<Extracted> {
    let Gathered { candidates, skipped, extended, ignored, in_text, reach, tried, .. } = gathered;
    let mut reach = reach;
    reach.retain(|s| region.is_some_and(|r| !r.contains(*s)));
    let mut candidates = candidates;
    let mut ignored = ignored;
    let in_text = in_text.into_iter().map(|(_, c)| c);
    for id in skipped {
        candidates.remove(&id);
    }
    for (id, span) in extended {
        match candidates.get_mut(&id) {
            Some(c) => {
                c.range.start = c.range.start.min(span.start);
                c.range.end = c.range.end.max(span.end);
            }
            // A symbol outside the region whose range grows into it (a decorator typed before
            // a method, `@range.start` in the region, the method past its end): the region cut
            // it off, and only a wider extraction can give it.
            None if region.is_some_and(|r| r.start <= span.end && span.start <= r.end) => {
                return None;
            }
            None => {}
        }
    }
    let mut candidates: Vec<Candidate> = candidates.into_values().chain(in_text).collect();
    let mut beyond = Vec::new();
    if let Some(r) = region {
        // A symbol straddling an edge of the region belongs to neither side: the region cut
        // it off, and only a wider extraction can give it.
        let straddles = |c: &Candidate| {
            let holds = |at: usize| c.range.start < at && at < c.range.end;
            (holds(r.start) && c.range.end <= r.end) || (holds(r.end) && c.range.start >= r.start)
        };
        if candidates.iter().any(straddles) {
            return None;
        }
        beyond = candidates
            .iter()
            .filter(|c| c.range.start > r.end)
            .map(|c| (c.kind, c.range))
            .collect::<Vec<_>>();
        candidates.retain(|c| r.contains(c.range));
    }
    // What this region's symbols (and would-be symbols) read outside themselves; the others'
    // are the outline's already.
    let mut reads: Vec<Reads> =
        tried.into_iter().filter(|t| region.is_none_or(|r| r.contains(t.inner))).collect();
    reads.extend(candidates.iter().filter(|c| !c.range.contains(c.reads)).map(|c| Reads {
        outer: Span { start: c.reads.start.min(c.range.start), end: c.reads.end.max(c.range.end) },
        inner: c.range,
    }));
    reads.sort_by_key(|r| (r.outer.start, r.outer.end, r.inner.start, r.inner.end));
    reads.dedup();
    if !ignored.is_empty() {
        ignored.sort();
        // Keep only outermost ignored spans, so one binary search finds the container.
        let mut outer: Vec<Span> = Vec::with_capacity(ignored.len());
        for span in ignored {
            match outer.last() {
                Some(last) if last.contains(span) => {}
                _ => outer.push(span),
            }
        }
        candidates.retain(|c| {
            let i = outer.partition_point(|s| s.start <= c.range.start);
            !(i > 0 && outer[i - 1].contains(c.range))
        });
    }
    extend_levels(
        config,
        doc,
        &mut candidates,
        region.map_or(tree.root_node().end_byte(), |r| r.end),
    );
    // Each name is rendered once, for joining and for its symbol.
    let candidates: Vec<(Candidate, String)> = candidates
        .into_iter()
        .map(|c| {
            let name = render_name(config, doc, &c);
            (c, name)
        })
        .collect();
    let mut names = JoinNames::default();
    for (c, name) in &candidates {
        // Counted by the rendered name, which is what `join` compares.
        let join = config.patterns[c.pattern].join;
        if join != Join::No || !c.names.is_empty() {
            names.add(name.clone(), join);
        }
    }
    let symbols = build(config, candidates, region.is_some())?;
    Some(Extracted { symbols, names, reach, reads, beyond })
}

/// Brings an outline up to date after edits, re-extracting as little as it can.
///
/// `outline` is the previous version's, already shifted to the new text's offsets; `dirty`
/// covers every byte whose syntax may have changed. The smallest symbol that strictly holds
/// `dirty` (and whose name lies outside it) is re-extracted; if it comes back the same (one
/// symbol, same name, kind and extent) only its children are replaced. Otherwise the next
/// symbol out is tried; a change between top-level symbols re-extracts just that gap; and
/// anything else falls back to the whole document. First, `dirty` grows to all a symbol reads
/// outside its range when it touches that (see [`Reads`]): a callback whose callee alone was
/// edited is re-extracted with its call.
///
/// Where symbols merge by name (Python: one symbol per name and scope), a gap is re-extracted
/// alone only at the top level, and only when that is provably what the whole document gives:
/// the statements the edit reaches lie inside the gap, no hiding rule (unreachable code,
/// static conditions, `global`) reaches across its edges, and no fresh name is a sibling's.
/// Inside a holder such a language takes the holder path.
///
/// `edited` covers the bytes the edits themselves wrote (within `dirty`).
pub(crate) fn update(
    config: &LanguageConfig,
    tree: &Tree,
    doc: &Document,
    outline: Outline,
    dirty: Span,
    edited: Span,
    from_error: bool,
) -> Outline {
    update_traced(config, tree, doc, outline, dirty, edited, from_error).0
}

/// How [`update`] brought an outline up to date.
#[derive(Debug, PartialEq)]
enum Route {
    /// Only the gap between two siblings was re-extracted.
    Gap,
    /// A holder was re-extracted.
    Holder,
    /// No match could see the edit: the outline moved across it is the new one.
    Unseen,
    /// The whole document was, for the reason given when a merging language's gap was refused.
    Whole(Option<Refusal>),
}

/// Why a gap was not re-extracted alone in a language whose symbols merge by name.
#[derive(Debug, PartialEq, Clone, Copy)]
enum Refusal {
    /// A top-level statement the edit reaches extends past the gap.
    Statement,
    /// A rule that hides symbols reaches across the gap's edges.
    Reach,
    /// A fresh symbol bears a sibling's name.
    Name,
}

/// [`update`], telling which way it went.
fn update_traced(
    config: &LanguageConfig,
    tree: &Tree,
    doc: &Document,
    mut outline: Outline,
    dirty: Span,
    edited: Span,
    from_error: bool,
) -> (Outline, Route) {
    let mut refusal = None;
    // An edit of what a symbol reads outside its range (a callback's callee) is an edit of
    // all the symbol reads: the symbol is then re-extracted with it. Widened until no other
    // symbol reads the widened span (a callback inside another's call).
    let mut dirty = dirty;
    while let Some(r) = outline.reads.iter().find(|r| r.read_by(dirty)) {
        dirty = Span { start: dirty.start.min(r.outer.start), end: dirty.end.max(r.outer.end) };
    }
    // An edit no match can see (inside an expression, an argument list, a string, a method
    // body's statement that declares nothing, where no pattern roots) changes no symbol: the
    // outline moved across it is the new one, whatever the size of the holders around it
    // (a character typed in a method of mypy's 8,000-line `TypeChecker` once re-extracted the
    // whole class).
    // Error recovery reshapes a tree beyond the changed ranges' reach, in the tree the old
    // outline came from as in the new one: both must be error-free.
    if !from_error && unseen(config, tree, dirty) && !beside(&outline.symbols, dirty) {
        return (outline, Route::Unseen);
    }
    let strictly_holds = |s: &Symbol| {
        s.range.start < dirty.start
            && dirty.end < s.range.end
            && (s.selection.end < dirty.start || s.selection.start > dirty.end)
    };
    // Indices of the symbols strictly holding the dirty span, outermost first.
    let mut path: Vec<usize> = Vec::new();
    let mut level = &outline.symbols;
    while let Some(i) = level.iter().position(&strictly_holds) {
        path.push(i);
        level = &level[i].children;
    }
    // Between two children of the innermost holder (or two top-level symbols): re-extract the
    // gap only. Not where symbols depend on their siblings by heading level; where they merge
    // by name, only between top-level symbols and only where `statements_within` and
    // `gap_refusal` prove the gap's symbols the same as a whole extraction's.
    let merging = !independent(config);
    // Not where an item added or removed renumbers the items after it, outside the gap (a
    // name by place, `{index}`): the holder is then re-extracted whole.
    if config.patterns.iter().all(|p| p.level.is_none())
        && !renumbers(config, tree, dirty, from_error)
        && (!merging || path.is_empty())
        && !outline.names.joinable()
        && self_contained(&outline.symbols, &path)
    {
        let (children, lo, hi) = match path.is_empty() {
            true => (&outline.symbols, 0, doc.len_bytes()),
            false => {
                let holder = symbol_at(&outline.symbols, &path);
                (
                    &holder.children,
                    holder.selection.end.max(holder.range.start + 1),
                    holder.range.end - 1,
                )
            }
        };
        let touches =
            children.iter().any(|s| s.range.start <= dirty.end && dirty.start <= s.range.end);
        if !touches {
            // Siblings may overlap (a hoisted `self.x` lies inside its method), so the gap's
            // edges are the nearest ends before and starts after, not neighbours in the list.
            let after = children.partition_point(|s| s.range.start < dirty.start);
            let start = children
                .iter()
                .filter(|s| s.range.end < dirty.start)
                .map(|s| s.range.end + 1)
                .max()
                .unwrap_or(lo);
            let end = children
                .iter()
                .filter(|s| s.range.start > dirty.end)
                .map(|s| s.range.start.saturating_sub(1))
                .min()
                .unwrap_or(hi);
            let gap = Span { start, end };
            if merging
                && start <= dirty.start
                && dirty.end <= end
                && !statements_within(tree, dirty, gap)
            {
                refusal = Some(Refusal::Statement);
            }
            if start <= dirty.start
                && dirty.end <= end
                && refusal.is_none()
                && let Some(fresh) = extract_region(config, tree, doc, Some(gap))
                && next_agrees(children.get(after), end, &fresh.beyond)
                && (!merging || {
                    refusal = gap_refusal(tree, dirty, children, &fresh);
                    refusal.is_none()
                })
            {
                let names = std::mem::take(&mut outline.names).union(fresh.names);
                if !names.joinable() {
                    let children = match path.is_empty() {
                        true => &mut outline.symbols,
                        false => &mut symbol_at_mut(&mut outline.symbols, &path).children,
                    };
                    children.splice(after..after, fresh.symbols);
                    let reads = replace_reads(std::mem::take(&mut outline.reads), gap, fresh.reads);
                    return (Outline::new(outline.symbols).with_names(names, reads), Route::Gap);
                }
                outline.names = names;
            }
        }
    }
    // Re-extract the innermost holder that comes back unchanged itself, then the next one out.
    // In a language that names items by their place and whose symbols depend on nothing but
    // their own match (`plain_places`), a holder may also be a symbol whose selection is its
    // whole range (a JSON array item): the edit lies in its selection, but its re-extraction
    // must still give it back unchanged, name included, to be taken. Without it, a keystroke
    // in one item of a 10,000-item array re-extracted the whole array.
    // There, in a text without errors in either version, a holder may also end where the
    // changed syntax does, if the edits themselves lie strictly inside it: typing inside the
    // last scalar of a YAML item (`value: 25|00`) changes that scalar up to the item's end,
    // and without this re-extracted the whole document (48 ms a keystroke in a 5,000-item
    // sequence). An edit reaching the holder's end may have removed or added the items after
    // it, renumbering them, which the holder's own re-extraction cannot see; what a holder
    // gives back is still checked unchanged, range included.
    let relaxed = plain_places(config);
    let clean = relaxed && !from_error && !tree.root_node().has_error();
    let holds = |s: &Symbol| {
        strictly_holds(s)
            || (relaxed
                && s.selection == s.range
                && s.range.start < dirty.start
                && dirty.end < s.range.end)
            || (clean
                && s.range.start < dirty.start
                && dirty.end <= s.range.end
                && edited.end < s.range.end
                && (s.selection == s.range
                    || s.selection.end < dirty.start
                    || s.selection.start > dirty.end))
    };
    let mut holders: Vec<usize> = Vec::new();
    let mut level = &outline.symbols;
    while let Some(i) = level.iter().position(holds) {
        holders.push(i);
        level = &level[i].children;
    }
    for depth in (1..=holders.len()).rev() {
        if !self_contained(&outline.symbols, &holders[..depth]) {
            continue;
        }
        let target = symbol_at(&outline.symbols, &holders[..depth]);
        let region = target.range;
        // Never costlier than from scratch: a holder of most of the document (a Python class
        // of 8,000 lines) re-extracted alone walks nearly all of it on one thread, and the
        // query cursor visits every node a pattern rooted above the region may still match
        // (mypy's `TypeChecker`: about 90 ms, against 55 ms for the whole file on two
        // threads). Outer holders are larger still.
        if 2 * (region.end - region.start) > doc.len_bytes() {
            break;
        }
        let Some(Extracted { symbols: fresh, names, reads, .. }) =
            extract_region(config, tree, doc, Some(region))
        else {
            continue;
        };
        if let [one] = fresh.as_slice()
            && one.name == target.name
            && one.kind == target.kind
            && one.range == target.range
            && one.selection == target.selection
        {
            let [one] = <[Symbol; 1]>::try_from(fresh).ok().unwrap();
            symbol_at_mut(&mut outline.symbols, &holders[..depth]).children = one.children;
            let names = std::mem::take(&mut outline.names).union(names);
            let reads = replace_reads(std::mem::take(&mut outline.reads), region, reads);
            return (Outline::new(outline.symbols).with_names(names, reads), Route::Holder);
        }
    }
    (extract(config, tree, doc), Route::Whole(refusal))
}

/// The lowest node below `root` that strictly holds `dirty` (starts before it and ends after
/// it): the node X of [`unseen`] and [`renumbers`]; `None` when no node does.
fn lowest_holder(root: Node, dirty: Span) -> Option<Node> {
    let mut x = root.descendant_for_byte_range(dirty.start, dirty.end)?;
    while !(x.start_byte() < dirty.start && dirty.end < x.end_byte()) {
        x = x.parent()?;
    }
    Some(x)
}

/// Whether the symbols a gap's query found just past its end (`beyond`) are the kept sibling
/// there, `next`, or its descendants, with `next` among them when it starts right after the
/// gap's `end`, where the query looked. A match may
/// bind nodes of the gap it does not capture (the `const` of `for (const value of …)` before
/// the symbol `value`): an edit of them makes or unmakes the sibling, which the gap's
/// symbols and reads do not show; its query, which looks one byte past the gap, does.
fn next_agrees(next: Option<&Symbol>, end: usize, beyond: &[(SymbolKind, Span)]) -> bool {
    fn kept(s: &Symbol, kind: SymbolKind, range: Span) -> bool {
        (s.kind == kind && s.range == range) || s.children.iter().any(|c| kept(c, kind, range))
    }
    let Some(next) = next else { return beyond.is_empty() };
    beyond.iter().all(|&(kind, range)| kept(next, kind, range))
        && (next.range.start > end + 1 || beyond.contains(&(next.kind, next.range)))
}

/// Whether the language names items by their place (`{index}`) and its symbols depend on
/// nothing but their own match: no merging, hoisting or joining by name, no symbol kept only
/// for its children, no heading levels, no symbols found in text, no `root.up` patterns. There
/// a symbol re-extracted alone and found unchanged leaves every other symbol as it was.
fn plain_places(config: &LanguageConfig) -> bool {
    config.patterns.iter().any(|p| p.names_by_index())
        && config.deferred.is_none()
        && config.patterns.iter().all(|p| {
            p.merge == Merge::No
                && !p.hoist
                && p.join == Join::No
                && !p.keep_if_children
                && p.level.is_none()
                && p.text_match.is_none()
        })
}

/// Whether an edit whose changed syntax `dirty` covers may have added or removed a child of a
/// node whose children are named by their place (`{index}`: a pattern's `place_parents`),
/// renaming those after it: such a node is the lowest node X strictly holding `dirty` or one
/// below it overlapping `dirty` (X's ancestors keep their children). Yes where either tree has
/// an error. Looks at most at 4,096 nodes; past it, says yes.
fn renumbers(config: &LanguageConfig, tree: &Tree, dirty: Span, from_error: bool) -> bool {
    let parents: Vec<&str> =
        config.patterns.iter().flat_map(|p| p.place_parents.iter().map(String::as_str)).collect();
    if parents.is_empty() {
        return false;
    }
    // Error recovery reshapes a tree beyond the changed ranges' reach (an ERROR node is a
    // child that counts), in the old tree as in the new: only error-free trees are trusted.
    if from_error || tree.root_node().has_error() {
        return true;
    }
    let x = lowest_holder(tree.root_node(), dirty).unwrap_or(tree.root_node());
    let renumbered = |node: &Node| parents.iter().any(|k| *k == "_" || *k == node.kind());
    renumbered(&x) || any_overlapping_below(x, (dirty.start, dirty.end), 4096, renumbered)
}

/// Whether no match of the query can differ after an edit whose changed syntax `dirty` covers
/// (see [`crate::ancestry::Touch`] for why): the lowest node X strictly holding `dirty` is
/// such that no pattern rooted at X or above can bind X or anything below it, nor read the
/// text of an ancestor of X, and no pattern may root at a changed node below X; and every
/// range trimmed of trailing comments (`range.trim`) that could end inside X
/// ends as before: the last leaf of X and of each ancestor, not of a trimmed kind, lies after
/// `dirty` (so it and what follows it are the old tree's). Not for languages whose ranges
/// depend on lines (`level`): a heading's section ends at the line before the next one.
fn unseen(config: &LanguageConfig, tree: &Tree, dirty: Span) -> bool {
    if config.patterns.iter().any(|p| p.level.is_some()) {
        return false;
    }
    let root = tree.root_node();
    // Error recovery reshapes a tree beyond the changed ranges' reach (zero-width MISSING
    // nodes, ERROR nodes regrouping what follows): only an error-free tree is trusted here.
    if root.has_error() {
        return false;
    }
    let Some(x) = lowest_holder(root, dirty) else { return false };
    // From the root down to X, each node with the field it is in.
    let mut path: Vec<(Node, Option<&str>)> = vec![(root, None)];
    let mut cursor = root.walk();
    while cursor.node().id() != x.id() {
        let holds = |n: Node| n.start_byte() <= x.start_byte() && x.end_byte() <= n.end_byte();
        if !cursor.goto_first_child() {
            return false;
        }
        while !holds(cursor.node()) {
            if !cursor.goto_next_sibling() {
                return false;
            }
        }
        path.push((cursor.node(), cursor.field_name()));
    }
    // A pattern rooted at X or above it, or at a changed node below X (a `:=` typed into an
    // argument list makes a variable), may match differently.
    if config.touch.touched(&path) || config.touch.roots_below(x, (dirty.start, dirty.end), 4096) {
        return false;
    }
    let path: Vec<Node> = path.into_iter().map(|(n, _)| n).collect();
    let mut trims: Vec<&str> = config.patterns.iter().filter_map(|p| p.trim.as_deref()).collect();
    trims.sort_unstable();
    trims.dedup();
    // A leaf ends where it ends; a trailing comment edited stays one (X keeps its kind).
    trims.iter().all(|kind| {
        path.iter().all(|&node| {
            node.child_count() == 0
                || last_leaf(node, kind).is_some_and(|l| {
                    l.start_byte() >= dirty.end
                        || (x.kind() == *kind
                            && x.child_count() == 0
                            && l.end_byte() <= x.start_byte())
                })
        })
    })
}

/// Whether a symbol touches `dirty` without strictly holding it: one whose text the edit
/// removed (moved across it, it shrank to where the edit ended) or reached. The old tree's
/// nodes there are gone, so nothing says no pattern bound them: such an edit is not taken as
/// unseen, whatever the new tree's path says.
fn beside(symbols: &[Symbol], dirty: Span) -> bool {
    symbols.iter().any(|s| {
        let holds = s.range.start < dirty.start && dirty.end < s.range.end;
        let apart = s.range.end < dirty.start || dirty.end < s.range.start;
        (!holds && !apart)
            || (holds && !(s.selection.end < dirty.start || dirty.end < s.selection.start)
                || holds && beside(&s.children, dirty))
    })
}

/// The last leaf of `node` not of `kind` (what [`trimmed_end`] ends at), if any.
fn last_leaf<'tree>(mut node: Node<'tree>, kind: &str) -> Option<Node<'tree>> {
    let mut cursor = node.walk();
    loop {
        let last = node.children(&mut cursor).filter(|c| c.kind() != kind).last()?;
        if last.child_count() == 0 {
            return Some(last);
        }
        node = last;
    }
}

/// The outline's `reads` with those of the symbols inside `region` replaced by `fresh`, what
/// the region's extraction found.
fn replace_reads(mut reads: Vec<Reads>, region: Span, fresh: Vec<Reads>) -> Vec<Reads> {
    reads.retain(|r| !region.contains(r.inner));
    reads.extend(fresh);
    reads
}

/// Whether every top-level statement (child of the tree's root) the edit reaches lies wholly
/// inside the gap. A rule acting between parts of one statement (code after a `return` is
/// unreachable, `global x` hides the later `x = …`, a static `if` hides its `else`) then acts
/// only inside the re-extracted text, before the edit and after it.
fn statements_within(tree: &Tree, dirty: Span, gap: Span) -> bool {
    let root = tree.root_node();
    let mut cursor = root.walk();
    root.children(&mut cursor).all(|c| {
        let span = Span { start: c.start_byte(), end: c.end_byte() };
        span.end < dirty.start || dirty.end < span.start || gap.contains(span)
    })
}

/// Why a gap's fresh symbols, spliced among `siblings` (the top level), might not be what a
/// whole extraction gives where symbols merge by name (one per name and scope); `None` when
/// they are, given [`statements_within`]:
/// - every hiding rule reaching out of the gap lies within one top-level statement the edit
///   does not reach (a static `if` whose `else` ends where the gap begins): the edit changed
///   nothing it looks at. One reaching out otherwise may hide a symbol outside the gap because
///   of the gap (a static `assert` or `if … raise` hiding the rest of the module), or one in
///   the gap because of what lies before it: refused. This takes a rule between top-level
///   statements to capture the statement that drives it, as Python's do (its condition);
/// - no fresh symbol bears a sibling's name, so merging pairs none across the gap. (A name
///   hidden by merging always has a shown sibling of that name at its level, so no hidden
///   declaration outside the gap shares a fresh name either; and the gap held no shown symbol
///   before the edit, so none it held can have lost a merge it won.)
///
/// What the edit removed acted, before it, on its own statement (inside the gap) or, through
/// a rule between top-level statements, on the statements after it: Python's such rules (a
/// static `assert`, an `if` that always raises) hide every later one, so those held no symbol
/// and the gap runs to the end of the document.
fn gap_refusal(
    tree: &Tree,
    dirty: Span,
    siblings: &[Symbol],
    fresh: &Extracted,
) -> Option<Refusal> {
    let root = tree.root_node();
    let apart = |r: &Span| {
        let mut cursor = root.walk();
        let statement =
            root.children(&mut cursor).find(|c| c.start_byte() <= r.start && r.end <= c.end_byte());
        statement.is_some_and(|c| c.end_byte() < dirty.start || dirty.end < c.start_byte())
    };
    if !fresh.reach.iter().all(apart) {
        return Some(Refusal::Reach);
    }
    let names: std::collections::HashSet<&str> = siblings.iter().map(|s| s.name.as_str()).collect();
    fresh.symbols.iter().any(|s| names.contains(s.name.as_str())).then_some(Refusal::Name)
}

/// Whether the symbol at `path` holds all that was extracted from inside it: no sibling
/// overlaps it, as one hoisted out of it (`hoist`) would. A hoisted symbol depends on its
/// container (a `self.x` exists only inside a method), not only on its own text, so any edit
/// inside the holder may add, change or remove it. The top level always holds all.
fn self_contained(top: &[Symbol], path: &[usize]) -> bool {
    let Some((&last, rest)) = path.split_last() else { return true };
    let siblings = if rest.is_empty() { top } else { &symbol_at(top, rest).children };
    let target = siblings[last].range;
    siblings.iter().enumerate().all(|(i, s)| {
        i == last
            || (s.range.end <= target.start || target.end <= s.range.start)
                && !target.contains(s.range)
    })
}

fn symbol_at<'a>(mut level: &'a [Symbol], path: &[usize]) -> &'a Symbol {
    let (last, rest) = path.split_last().expect("a non-empty path");
    for &i in rest {
        level = &level[i].children;
    }
    &level[*last]
}

fn symbol_at_mut<'a>(mut level: &'a mut [Symbol], path: &[usize]) -> &'a mut Symbol {
    let (last, rest) = path.split_last().expect("a non-empty path");
    for &i in rest {
        level = &mut level[i].children;
    }
    &mut level[*last]
}

/// Moves every offset of `symbols` across an edit of `start..old_end` into `start..new_end`.
pub(crate) fn shift(symbols: &mut [Symbol], start: usize, old_end: usize, new_end: usize) {
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

/// Where `node` ends when trailing descendants of `kind` (comments) do not count: the end of
/// the last leaf that is not of that kind.
fn trimmed_end(mut node: Node, kind: &str) -> usize {
    let mut cursor = node.walk();
    loop {
        // One forward pass per level: `Node::child(i)` walks from the first child each time,
        // so scanning back with it was quadratic in the trailing comments (a file ending in
        // 20k comment lines took seconds).
        let Some(last) = node.children(&mut cursor).filter(|c| c.kind() != kind).last() else {
            return node.end_byte();
        };
        if last.child_count() == 0 {
            return last.end_byte();
        }
        node = last;
    }
}

/// Gives each symbol that has a heading level its whole section, as VS Code's Markdown server
/// does: from the start of its line to the end of the line before the next symbol of the same
/// or a higher (smaller) level (without that line's break), or to `end`.
fn extend_levels(
    config: &LanguageConfig,
    doc: &Document,
    candidates: &mut [Candidate],
    end: usize,
) {
    let mut levelled: Vec<(usize, u8)> = candidates
        .iter()
        .enumerate()
        .filter_map(|(i, c)| config.patterns[c.pattern].level.map(|l| (i, l)))
        .collect();
    levelled.sort_by_key(|&(i, _)| candidates[i].range.start);
    // A stack of open headings: each closes when a heading of its level or higher starts.
    let mut open: Vec<(usize, u8)> = Vec::new();
    for &(i, level) in &levelled {
        let line = doc.line_of(candidates[i].range.start);
        candidates[i].range.start = doc.line_start(line);
        // The line before this heading; a heading on the first line closes nothing.
        let before = doc.line_content_end(line.saturating_sub(1));
        while let Some(&(j, l)) = open.last() {
            if l < level {
                break;
            }
            candidates[j].range.end = before.max(candidates[j].range.start);
            open.pop();
        }
        open.push((i, level));
    }
    for (j, _) in open {
        candidates[j].range.end = end;
    }
}

/// A symbol under construction, in a flat arena.
struct Node_ {
    candidate: Candidate,
    name: String,
    children: Vec<usize>,
}

/// Nests the candidates (each with its rendered name) by range and assembles the symbols.
fn build(
    config: &LanguageConfig,
    mut candidates: Vec<(Candidate, String)>,
    partial: bool,
) -> Option<Vec<Symbol>> {
    candidates.sort_by(|(a, _), (b, _)| {
        a.range
            .start
            .cmp(&b.range.start)
            .then(b.range.end.cmp(&a.range.end))
            .then(a.pattern.cmp(&b.pattern))
    });
    let mut arena: Vec<Node_> = Vec::with_capacity(candidates.len());
    let mut roots = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    for (candidate, name) in candidates {
        while let Some(&top) = stack.last() {
            if arena[top].candidate.range.contains(candidate.range) {
                break;
            }
            stack.pop();
        }
        let index = arena.len();
        arena.push(Node_ { candidate, name, children: Vec::new() });
        match stack.last() {
            Some(&parent) => arena[parent].children.push(index),
            None if partial && config.patterns[arena[index].candidate.pattern].hoist => {
                return None;
            }
            None => roots.push(index),
        }
        stack.push(index);
    }
    Some(assemble(config, &mut arena, &roots))
}

/// Turns arena nodes into symbols, applying `hoist`, `keep` and `merge` from the bottom up.
fn assemble(config: &LanguageConfig, arena: &mut [Node_], indices: &[usize]) -> Vec<Symbol> {
    merge(join(assemble_level(config, arena, indices)))
}

/// One level's symbols with their merge and join modes, hoisted grandchildren included, before
/// `join` and `merge`.
fn assemble_level(
    config: &LanguageConfig,
    arena: &mut [Node_],
    indices: &[usize],
) -> Vec<(Symbol, Merge, (Join, JoinElse))> {
    let mut level: Vec<(Symbol, Merge, (Join, JoinElse))> = Vec::with_capacity(indices.len());
    let mut hoisted = false;
    for &i in indices {
        let child_indices = std::mem::take(&mut arena[i].children);
        let (lifted, kept): (Vec<usize>, Vec<usize>) = child_indices
            .into_iter()
            .partition(|&c| config.patterns[arena[c].candidate.pattern].hoist);
        let children = assemble(config, arena, &kept);
        if !lifted.is_empty() {
            hoisted = true;
            // A hoisted symbol merges with its same-named siblings in the container, after the
            // container's own declarations: the first stays, unless its pattern says
            // `merge "typed"` (the last typed one wins).
            let lifted = assemble_level(config, arena, &lifted);
            level.extend(lifted.into_iter().map(|(s, m, _)| {
                let m = if m == Merge::Typed { Merge::LateTyped } else { Merge::LateFirst };
                (s, m, (Join::No, JoinElse::Stay))
            }));
        }
        let node = &mut arena[i];
        let info = &config.patterns[node.candidate.pattern];
        if info.keep_if_children && children.is_empty() {
            continue;
        }
        let selection = match (node.candidate.names.first(), node.candidate.names.last()) {
            (Some(first), Some(last)) => Span { start: first.start, end: last.end },
            _ => node.candidate.range,
        };
        let selection =
            if node.candidate.range.contains(selection) { selection } else { node.candidate.range };
        let symbol = Symbol {
            name: std::mem::take(&mut node.name),
            kind: node.candidate.kind,
            range: node.candidate.range,
            selection,
            children,
        };
        level.push((symbol, info.merge, (info.join, info.join_else)));
    }
    if hoisted {
        level.sort_by_key(|(s, _, _)| (s.range.start, std::cmp::Reverse(s.range.end)));
    }
    level
}

/// Joins member groups (`join "prototype"` / `"static"`) into the first earlier sibling of the
/// same name, as tsserver's navigation tree merges an ES5 class (`function F() {}` followed by
/// `F.prototype.m = function () {}`) and VS Code shows it:
/// - a `function` or `value` sibling becomes a Class whose first child is a `constructor`
///   spanning the sibling itself; another member group becomes a Class; the group's children
///   move into the class;
/// - any other sibling of that name (an ES `class`) swallows the group: it is dropped with all
///   it holds;
/// - a group follows on the class's range only when the sibling before it is the class's last
///   part; otherwise it becomes another part, a Class symbol of the same name spanning the
///   group (VS Code makes one symbol per span of a navigation item);
/// - a child of the group that holds the group's name is its member (`F.t` of `F.t = {…}`):
///   then only that child joins, the rest is lost;
/// - an `export` symbol goes when a sibling before it has its name (tsserver drops an
///   assignment declaration it cannot merge: `exports.F = F` after `function F() {}`);
/// - a `static` group joins only a name declared before it (by a `function` or a `prototype`
///   group); with nothing to join, a group stays or unwraps as `join.else` says (unwrapping
///   drops the member that holds its name and leaves the other children in its place).
fn join(level: Vec<(Symbol, Merge, (Join, JoinElse))>) -> Vec<(Symbol, Merge)> {
    let is_group = |j: Join| matches!(j, Join::Prototype | Join::Static);
    if !level.iter().any(|(_, _, (j, _))| is_group(*j) || *j == Join::Export) {
        return level.into_iter().map(|(s, m, _)| (s, m)).collect();
    }
    // Each output entry remembers its join mode and whether it has become a class already.
    let mut out: Vec<(Symbol, Merge, Join, bool)> = Vec::with_capacity(level.len());
    let mut first: HashMap<String, usize> = HashMap::new();
    let mut declared: std::collections::HashSet<String> = std::collections::HashSet::new();
    // For a class's first part: the index of its last part.
    let mut last_part: HashMap<usize, usize> = HashMap::new();
    // The output entry the previous sibling became (or joined), if any.
    let mut previous: Option<usize> = None;
    // For a class's first part: the names of its static values (`F.x = 1`, a Variable).
    let mut static_values: HashMap<usize, std::collections::HashSet<String>> = HashMap::new();
    for (symbol, merge, (join, otherwise)) in level {
        if join == Join::Export && first.contains_key(&symbol.name) {
            previous = None;
            continue;
        }
        if join == Join::Function {
            declared.insert(symbol.name.clone());
        }
        // A function or value after a member group of its name (or the class it made) joins
        // that class as a part holding its constructor.
        let host_joins = matches!(join, Join::Function | Join::Value)
            && first
                .get(&symbol.name)
                .is_some_and(|&t| out[t].2 == Join::Prototype || out[t].3 && out[t].2 != Join::No);
        let (symbol, join) = if host_joins {
            let mut part = symbol;
            let constructor = Symbol {
                name: "constructor".to_string(),
                kind: SymbolKind::Constructor,
                range: part.range,
                selection: part.range,
                children: std::mem::take(&mut part.children),
            };
            part.children = vec![constructor];
            (part, Join::Prototype)
        } else {
            (symbol, join)
        };
        if !is_group(join) {
            let index = out.len();
            first.entry(symbol.name.clone()).or_insert(index);
            out.push((symbol, merge, join, false));
            previous = Some(index);
            continue;
        }
        let tracked = join == Join::Prototype || declared.contains(&symbol.name);
        if join == Join::Prototype {
            declared.insert(symbol.name.clone());
        }
        let target = first.get(&symbol.name).copied().filter(|_| tracked);
        let Some(target) = target else {
            match otherwise {
                JoinElse::Stay => {
                    first.insert(symbol.name.clone(), out.len());
                    previous = Some(out.len());
                    out.push((symbol, merge, join, false));
                }
                JoinElse::Unwrap => {
                    previous = None;
                    let name = symbol.selection;
                    for child in symbol.children.into_iter().filter(|c| !c.range.contains(name)) {
                        first.entry(child.name.clone()).or_insert(out.len());
                        previous = Some(out.len());
                        out.push((child, Merge::No, Join::No, false));
                    }
                }
            }
            continue;
        };
        if !matches!(out[target].2, Join::Function | Join::Value | Join::Prototype) {
            // An ES class (or anything else of that name) swallows the group.
            previous = None;
            continue;
        }
        if !out[target].3 {
            let entry = &mut out[target];
            let old = &mut entry.0;
            if entry.2 != Join::Prototype {
                let constructor = Symbol {
                    name: "constructor".to_string(),
                    kind: SymbolKind::Constructor,
                    range: old.range,
                    selection: old.range,
                    children: std::mem::take(&mut old.children),
                };
                old.children = vec![constructor];
            }
            old.kind = SymbolKind::Class;
            entry.3 = true;
        }
        // A member written on the left (`F.t = …`, holding the group's name) is all that joins:
        // what its right side holds is lost, as VS Code loses navigation children that lie
        // outside their parent's span.
        let mut symbol = symbol;
        if symbol.children.iter().any(|c| c.range.contains(symbol.selection)) {
            let name = symbol.selection;
            symbol.children.retain(|c| c.range.contains(name));
        }
        // A prototype value (`F.prototype.x = v`, a Property) after a static value of its name
        // (`F.x = 1`) is no symbol: tsserver merges it into the earlier one, which keeps its own
        // span only (request.js: `Request.debug = …` then `Request.prototype.debug = debug`).
        let statics = static_values.entry(target).or_default();
        if join == Join::Prototype {
            symbol
                .children
                .retain(|c| c.kind != SymbolKind::Property || !statics.contains(&c.name));
        } else {
            statics.extend(
                symbol
                    .children
                    .iter()
                    .filter(|c| c.kind == SymbolKind::Variable)
                    .map(|c| c.name.clone()),
            );
        }
        let part = *last_part.get(&target).unwrap_or(&target);
        if previous == Some(part) {
            let class = &mut out[part].0;
            class.range.end = class.range.end.max(symbol.range.end);
            // A prototype value right after a function member of its name (`F.x = function
            // () {}` then `F.prototype.x = x`) makes that function a class of that name holding
            // its constructor and the value, as tsserver merges an ES5 class (events.js).
            if join == Join::Prototype
                && let [value] = &symbol.children[..]
                && value.kind == SymbolKind::Property
                && let Some(function) = class.children.last_mut()
                && function.kind == SymbolKind::Function
                && function.name == value.name
            {
                let constructor = Symbol {
                    name: "constructor".to_string(),
                    kind: SymbolKind::Constructor,
                    range: function.range,
                    selection: function.range,
                    children: std::mem::take(&mut function.children),
                };
                function.kind = SymbolKind::Class;
                function.range.end = function.range.end.max(value.range.end);
                function.children = vec![constructor];
                function.children.extend(symbol.children);
                previous = Some(part);
                continue;
            }
            class.children.extend(symbol.children);
            class.children.sort_by_key(|s| (s.range.start, std::cmp::Reverse(s.range.end)));
        } else {
            let index = out.len();
            let name = out[target].0.name.clone();
            out.push((
                Symbol {
                    name,
                    kind: SymbolKind::Class,
                    range: symbol.range,
                    selection: symbol.range,
                    children: symbol.children,
                },
                Merge::No,
                Join::No,
                true,
            ));
            last_part.insert(target, index);
        }
        previous = last_part.get(&target).copied().or(Some(target));
    }
    out.into_iter().map(|(s, m, _, _)| (s, m)).collect()
}

/// Collapses same-named symbols whose patterns ask for merging: the last typed one stays if
/// there is one, else the first.
fn merge(level: Vec<(Symbol, Merge)>) -> Vec<Symbol> {
    if level.iter().all(|(_, m)| *m == Merge::No) {
        return level.into_iter().map(|(s, _)| s).collect();
    }
    let mut winner: HashMap<&str, (usize, bool)> = HashMap::new();
    // Declarations in the order pyright binds them: the container's own, then hoisted ones.
    let late = |m: Merge| matches!(m, Merge::LateFirst | Merge::LateTyped);
    let order = (0..level.len())
        .filter(|&i| !late(level[i].1))
        .chain((0..level.len()).filter(|&i| late(level[i].1)));
    for i in order {
        let (s, m) = &level[i];
        let typed = matches!(m, Merge::Typed | Merge::LateTyped);
        match m {
            Merge::No => {}
            _ => {
                let entry = winner.entry(s.name.as_str()).or_insert((i, typed));
                if typed {
                    *entry = (i, true);
                }
            }
        }
    }
    let keep: Vec<bool> = level
        .iter()
        .enumerate()
        .map(|(i, (s, m))| *m == Merge::No || winner.get(s.name.as_str()).is_some_and(|w| w.0 == i))
        .collect();
    level.into_iter().zip(keep).filter_map(|((s, _), k)| k.then_some(s)).collect()
}

fn render_name(config: &LanguageConfig, doc: &Document, c: &Candidate) -> String {
    let info = &config.patterns[c.pattern];
    // `uncomment`: the text without its comments, for the `:path` filter (comments between
    // the parts of a dotted name, `headers⏎ // Split into pairs⏎ .reduce`, are not part of it:
    // tsserver names that callback `headers.reduce() callback`).
    let text_of = |spans: &mut dyn Iterator<Item = Span>, sep: &str, uncomment: bool| -> String {
        let mut s = String::new();
        for (i, span) in spans.enumerate() {
            if i > 0 {
                s.push_str(sep);
            }
            let raw = doc.slice(span.start, span.end);
            let raw = if uncomment { strip_comments(&raw) } else { raw };
            s.push_str(&normalize(&raw, info.normalize));
        }
        s
    };
    match &info.template {
        None => text_of(&mut c.names.iter().copied(), "", false),
        Some(parts) => {
            let mut out = String::new();
            for part in parts {
                match part {
                    Part::Literal(l) => out.push_str(l),
                    Part::Index => out.push_str(&c.index.unwrap_or(0).to_string()),
                    Part::Capture(index, sep, filter) => {
                        let uncomment = matches!(filter, Filter::Path);
                        let text = if config.roles_for(info)[*index as usize] == Role::Name {
                            text_of(&mut c.names.iter().copied(), sep, uncomment)
                        } else {
                            text_of(
                                &mut c.helpers.iter().filter(|(i, _)| i == index).map(|(_, s)| *s),
                                sep,
                                uncomment,
                            )
                        };
                        match filter {
                            Filter::None => out.push_str(&text),
                            Filter::Path => out.push_str(&path(&text)),
                            Filter::Clip => out.push_str(&clip(&text)),
                        }
                    }
                }
            }
            out
        }
    }
}

/// At most 150 UTF-16 code units of `text`, then `...` when it was longer (see [`Filter::Clip`]).
fn clip(text: &str) -> String {
    const MAX: usize = 150;
    if text.encode_utf16().count() <= MAX {
        return text.to_string();
    }
    let mut units = 0;
    let mut out = String::new();
    for c in text.chars() {
        units += c.len_utf16();
        if units > MAX {
            break;
        }
        out.push(c);
    }
    out.push_str("...");
    out
}

/// The dotted name ending an expression (see [`Filter::Path`]).
fn path(text: &str) -> String {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    // Split at dots outside brackets and parentheses.
    let mut parts: Vec<&str> = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in compact.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '.' if depth == 0 => {
                parts.push(&compact[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&compact[start..]);
    // `a?.b` is a member access; `a!.b` (a non-null assertion) is not a name, like a call.
    let is_name = |p: &str| {
        let p = p.trim_end_matches('?');
        let mut chars = p.trim_start_matches('#').chars();
        chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    };
    let keep = parts.iter().rev().take_while(|p| is_name(p)).count();
    let mut kept: Vec<&str> =
        parts[parts.len() - keep..].iter().map(|p| p.trim_end_matches('?')).collect();
    // `this` and `super` are keywords, not names (tsserver keeps `self.run`, drops `this.`).
    if kept.len() > 1 && matches!(kept[0], "this" | "super") {
        kept.remove(0);
    }
    kept.join(".")
}

/// `text` without its `//` and `/* */` comments, those outside string literals (for
/// [`Filter::Path`]).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            out.push(c);
            if c == '\\' {
                out.extend(chars.next());
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('/', Some('/')) => while chars.next_if(|&c| c != '\n').is_some() {},
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push(' ');
            }
            ('"' | '\'' | '`', _) => {
                quote = Some(c);
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

fn normalize(text: &str, how: Normalize) -> String {
    match how {
        Normalize::Trim => text.trim().to_string(),
        Normalize::Collapse => text.split_whitespace().collect::<Vec<_>>().join(" "),
        Normalize::Unbreak => {
            let mut out = String::with_capacity(text.len());
            let mut chars = text.trim().chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if matches!(chars.peek(), Some('\n' | '\r' | '\u{2028}' | '\u{2029}')) => {
                    }
                    '\r' if chars.peek() == Some(&'\n') => {}
                    '\n' | '\r' | '\u{2028}' | '\u{2029}' => {}
                    c => out.push(c),
                }
            }
            out
        }
        // Lines of a multi-line heading join with nothing between them, as markdown-it's
        // soft breaks render to no text; white space inside a line stays as written.
        Normalize::Markup => {
            let text = strip_markup(text).lines().map(str::trim).collect::<String>();
            // An ATX closing sequence: a run of '#' after white space (or alone) at the end.
            let body = text.trim_end().trim_end_matches('#');
            let text =
                if body.is_empty() || body.ends_with(char::is_whitespace) { body } else { &text };
            text.trim().to_string()
        }
    }
}

/// Strips inline markup, keeping the text a reader sees: `**a**` → `a`, `` `c` `` → `c`,
/// `[t](u)` and `[t][r]` → `t`, `![alt](src)` → `alt`, `<b>` tags dropped, `\*` → `*`.
fn strip_markup(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() && chars[i + 1].is_ascii_punctuation() => {
                out.push(chars[i + 1]);
                i += 2;
            }
            '`' => {
                // A code span: its content verbatim, trimmed of one space each side.
                let ticks = chars[i..].iter().take_while(|&&c| c == '`').count();
                let body_start = i + ticks;
                let close = (body_start..chars.len()).find(|&j| {
                    chars[j..].iter().take_while(|&&c| c == '`').count() == ticks
                        && (j == 0 || chars[j - 1] != '`')
                });
                match close {
                    Some(j) => {
                        let body: String = chars[body_start..j].iter().collect();
                        let body = if body.len() >= 2
                            && body.starts_with(' ')
                            && body.ends_with(' ')
                            && body.trim() != ""
                        {
                            body[1..body.len() - 1].to_string()
                        } else {
                            body
                        };
                        out.push_str(&body);
                        i = j + ticks;
                    }
                    None => {
                        out.extend(&chars[i..body_start]);
                        i = body_start;
                    }
                }
            }
            '*' | '_' | '~' => {
                // Emphasis delimiters; an intraword '_' is text.
                let prev_alnum = i > 0 && chars[i - 1].is_alphanumeric();
                let next_alnum = chars.get(i + 1).is_some_and(|c| c.is_alphanumeric());
                if c == '_' && prev_alnum && next_alnum {
                    out.push(c);
                }
                i += 1;
            }
            '!' if chars.get(i + 1) == Some(&'[') => i += 1,
            '$' => {
                // Inline math ($…$, no space inside either dollar, no digit after the closing one) renders to no text.
                let close = (i + 1..chars.len()).find(|&j| chars[j] == '$' && chars[j - 1] != '\\');
                match close {
                    Some(j)
                        if j > i + 1
                            && !chars[i + 1].is_whitespace()
                            && !chars[j - 1].is_whitespace()
                            && !chars.get(j + 1).is_some_and(|c| c.is_ascii_digit()) =>
                    {
                        i = j + 1
                    }
                    _ => {
                        out.push(c);
                        i += 1;
                    }
                }
            }
            '[' => {
                // [text](url) or [text][ref]: keep text.
                if let Some(close) = find_bracket(&chars, i) {
                    let inner: String = chars[i + 1..close].iter().collect();
                    let after = close + 1;
                    let skip_to = match chars.get(after) {
                        Some('(') => {
                            chars[after..].iter().position(|&c| c == ')').map(|p| after + p + 1)
                        }
                        Some('[') => {
                            chars[after..].iter().position(|&c| c == ']').map(|p| after + p + 1)
                        }
                        _ => Some(after),
                    };
                    out.push_str(&strip_markup(&inner));
                    i = skip_to.unwrap_or(after);
                } else {
                    out.push(c);
                    i += 1;
                }
            }
            '<' => {
                // An HTML tag or autolink: drop tags, keep autolink text.
                match chars[i..].iter().position(|&c| c == '>') {
                    Some(p)
                        if chars[i + 1..i + p].iter().all(|c| {
                            !c.is_whitespace()
                                || chars.get(i + 1).is_some_and(|c| c.is_alphabetic() || *c == '/')
                        }) =>
                    {
                        let inner: String = chars[i + 1..i + p].iter().collect();
                        if inner.contains("://") || inner.contains('@') {
                            out.push_str(&inner);
                        }
                        i += p + 1;
                    }
                    _ => {
                        out.push(c);
                        i += 1;
                    }
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

fn find_bracket(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0;
    for (j, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Registry, Source};

    /// A candidate as compared: rank, kind, range, names, helpers.
    type Seen = (usize, SymbolKind, Span, Vec<Span>, Vec<(u32, Span)>);

    /// Every candidate gathered, in a comparable order.
    fn summary(g: &Gathered) -> Vec<Seen> {
        let mut v: Vec<_> = g
            .candidates
            .values()
            .chain(g.in_text.iter().map(|(_, c)| c))
            .map(|c| (c.pattern, c.kind, c.range, c.names.clone(), c.helpers.clone()))
            .collect();
        v.sort_by_key(|c| (c.2.start, c.2.end, c.0));
        v
    }

    /// Replaces `start..end` of a Python `before` with `text`; updates the outline as an editor
    /// would (the previous one shifted, the edited bytes dirty) and says which way the update
    /// went, checking that it equals an extraction from scratch.
    fn python_update(before: &str, old: &str, new: &str) -> Route {
        let start = before.find(old).expect("the text to replace");
        python_edit(before, start, start + old.len(), new)
    }

    /// [`python_update`] of the bytes `start..end`.
    fn python_edit(before: &str, start: usize, end: usize, new: &str) -> Route {
        edit_traced("python", before, start, end, new).1
    }

    /// `edit` (`start..end` replaced by `text`) of `before` in `language`, the outline updated
    /// as an editor would: checked against an extraction from scratch, and returned.
    fn edit_outline(language: &str, before: &str, start: usize, end: usize, text: &str) -> Outline {
        edit_traced(language, before, start, end, text).0
    }

    /// [`edit_outline`], with the way the update went.
    fn edit_traced(
        language: &str,
        before: &str,
        start: usize,
        end: usize,
        text: &str,
    ) -> (Outline, Route) {
        let after = format!("{}{text}{}", &before[..start], &before[end..]);
        let language = Registry::builtin().by_id(language).unwrap();
        let config = Registry::builtin().config(language).unwrap();
        let previous = Source::new(Document::new(before, 0), Some(language));
        let mut outline = (*previous.outline()).clone();
        outline.shift(start, end, start + text.len());
        let source = Source::new(Document::new(&after, 0), Some(language));
        let (tree, doc) = (source.tree().unwrap(), source.doc());
        let dirty = Span { start, end: start + text.len() };
        let from_error = previous.tree().unwrap().root_node().has_error();
        let (updated, route) = update_traced(&config, tree, doc, outline, dirty, dirty, from_error);
        assert_eq!(updated, extract(&config, tree, doc), "{route:?} after {text:?} in {after:?}");
        (updated, route)
    }

    /// An edit inside an item named by its place re-extracts that item alone: its name comes
    /// from no part of it, so the edit in its selection (its whole range) does not send the
    /// update out to the array, and the item's re-extraction checks the name all the same.
    #[test]
    fn an_edit_inside_an_item_named_by_its_place_re_extracts_the_item() {
        let items: Vec<String> =
            (0..50).map(|i| format!("{{\"k\": {i}, \"v\": [{{}}]}}")).collect();
        let json = format!("{{\"a\": [\n  {}\n]}}\n", items.join(",\n  "));
        let start = json.find("\"k\": 40").unwrap() + 6;
        let (outline, route) = edit_traced("json", &json, start, start + 2, "4");
        assert_eq!(route, Route::Holder);
        let item = &outline.symbols[0].children[40];
        assert_eq!((item.name.as_str(), item.children[0].name.as_str()), ("40", "k"));
        // An item split in two is not that item any more: the array is re-extracted.
        let (outline, _) = edit_traced("json", &json, start + 2, start + 2, "}, {\"n\": 1");
        assert_eq!(outline.symbols[0].children.len(), 51);
        assert_eq!(names(&outline.symbols[0].children[41].children), "n v[0]");
    }

    /// Typing inside the last scalar of a block sequence's item changes the syntax up to the
    /// item's end (tree-sitter reports the whole scalar changed): the item, ending where the
    /// change does, is re-extracted alone, not the whole sequence; but not where the edit
    /// itself reaches the item's end, which may remove the items after it.
    #[test]
    fn an_edit_inside_the_last_scalar_of_an_item_re_extracts_the_item() {
        let yaml: String = (0..200).map(|i| format!("- name: item{i}\n  value: {i}\n")).collect();
        let scalar = yaml.find("value: 150").unwrap() + 7;
        let language = Registry::builtin().by_id("yaml").unwrap();
        let config = Registry::builtin().config(language).unwrap();
        let previous = Source::new(Document::new(&yaml, 0), Some(language));
        let update = |at: usize, old_end: usize, text: &str, dirty: Span| {
            let after = format!("{}{text}{}", &yaml[..at], &yaml[old_end..]);
            let mut outline = (*previous.outline()).clone();
            outline.shift(at, old_end, at + text.len());
            let source = Source::new(Document::new(&after, 0), Some(language));
            let (tree, doc) = (source.tree().unwrap(), source.doc());
            let edited = Span { start: at, end: at + text.len() };
            let (updated, route) = update_traced(&config, tree, doc, outline, dirty, edited, false);
            assert_eq!(updated, extract(&config, tree, doc), "{route:?} after {text:?}");
            (updated, route)
        };
        // `15|0` → `1570`: the whole scalar changed.
        let (outline, route) =
            update(scalar + 2, scalar + 2, "7", Span { start: scalar, end: scalar + 4 });
        assert_eq!(route, Route::Holder);
        assert_eq!(names(&outline.symbols[150..151]), "150[name value]");
    }

    /// An edit from the end of an item that deletes the item after it renumbers the items
    /// after that: the item ending where the edit starts is not re-extracted alone, though it
    /// comes back unchanged (found by random edits: `- 5` deleted with the comment before it).
    #[test]
    fn an_edit_from_the_end_of_an_item_deleting_the_next_renumbers_the_rest() {
        let yaml = "a:\n  - x: 1\n    w: 22\n  # c\n  - 5\n  - - y: 2\n  - name: item\nb: 1\n";
        let language = Registry::builtin().by_id("yaml").unwrap();
        let mut source = Source::new(Document::new(yaml, 0), Some(language));
        let _ = source.outline();
        let range = locus_doc::Range {
            start: locus_doc::Position::new(3, 3),
            end: locus_doc::Position::new(4, 5),
        };
        source.apply_change(Some(range), "", locus_doc::PositionEncoding::Utf16).unwrap();
        source.set_version(1);
        assert_eq!(*source.outline(), source.outline_from_scratch());
        assert_eq!(names(&source.outline().symbols), "a[0[x w] 1[0[y]] 2[name]] b");
    }

    /// The names of an outline's symbols, children in brackets.
    fn names(symbols: &[Symbol]) -> String {
        let each = symbols.iter().map(|s| match s.children.is_empty() {
            true => s.name.to_string(),
            false => format!("{}[{}]", s.name, names(&s.children)),
        });
        each.collect::<Vec<_>>().join(" ")
    }

    /// An item named by its place (`{index}`) is renamed when an item is added before it,
    /// away from any symbol (a scalar between two objects): the update re-extracts the
    /// holder whole, not the gap alone, which kept the old name.
    #[test]
    fn an_item_added_before_renumbers_the_items_after_it() {
        for (language, before, at, text, expected) in [
            ("json", "{\"a\": [{\"x\": 1}, 5, {\"y\": 2}]}\n", "5, ", "9, ", "a[0[x] 3[y]]"),
            ("json", "[\n  {\"x\": 1},\n  5,\n  {\"y\": 2}\n]\n", "  5,", "  9,\n", "0[x] 3[y]"),
            ("yaml", "a:\n  - x: 1\n  - 5\n  - y: 2\n", "  - 5", "  - 9\n", "a[0[x] 3[y]]"),
            ("toml", "a = [\n  {x = 1},\n  5,\n  {y = 2},\n]\n", "  5,", "  9,\n", "a[0[x] 3[y]]"),
        ] {
            let start = before.find(at).unwrap();
            let outline = edit_outline(language, before, start, start, text);
            assert_eq!(names(&outline.symbols), expected, "{language}");
            // And back.
            let after = format!("{}{text}{}", &before[..start], &before[start..]);
            let outline = edit_outline(language, &after, start, start + text.len(), "");
            assert_eq!(names(&outline.symbols), expected.replace('3', "2"), "{language}");
        }
    }

    /// In broken text, error recovery adds or removes children beyond the changed bytes (an
    /// ERROR node counts as an item): the gap alone is not re-extracted there. Found by a
    /// review's random edits; the TOML case (a pair broken by an edit between its key and its
    /// `=` stayed a symbol) failed before `{index}` too.
    #[test]
    fn edits_that_break_the_text_keep_names_by_place_exact() {
        let json = "{\"a\":[1,/1 [2, {{}";
        let outline = edit_outline("json", json, 9, 15, "\n");
        assert_eq!(names(&outline.symbols), "a[1]");
        let outline = edit_outline("toml", "name = \"a\"\n", 5, 5, "1");
        assert_eq!(names(&outline.symbols), "");
    }

    /// `{index}` counts every item, however many (no pattern per index), and no comment.
    #[test]
    fn items_are_named_by_their_place_comments_left_out() {
        let items: Vec<String> = (0..40).map(|i| format!("{{\"k\": {i}}}")).collect();
        let json = format!("[\n  // a comment\n  {},\n  7,\n  [1]\n]\n", items.join(",\n  "));
        let language = Registry::builtin().by_id("json").unwrap();
        let source = Source::new(Document::new(&json, 0), Some(language));
        let outline = source.outline();
        let got: Vec<&str> = outline.symbols.iter().map(|s| s.name.as_str()).collect();
        let mut expected: Vec<String> = (0..40).map(|i| i.to_string()).collect();
        expected.push("41".into());
        assert_eq!(got, expected);
        let yaml = "a:\n  # a comment\n  - 1\n  # another\n  - x: 1\n  - - 2\n    - y: 3\n  - [4, {z: 5}]\n  - {w: 6}\n";
        let language = Registry::builtin().by_id("yaml").unwrap();
        let source = Source::new(Document::new(yaml, 0), Some(language));
        assert_eq!(names(&source.outline().symbols), "a[1[x] 2[1[y]] 3[1[z]] 4[w]]");
    }

    const MODULE: &str = "import sys\nfrom typing import TYPE_CHECKING\nX = 1\n\ndef a():\n    return 1\n\nif TYPE_CHECKING:\n    T = int\nelse:\n    U = str\n\n# here\n\ndef c(y):\n    return y\n";

    /// A new top-level def with a fresh name is re-extracted alone; so is one appended.
    #[test]
    fn merging_gap_takes_a_fresh_top_level_def() {
        assert_eq!(python_update(MODULE, "# here\n", "def n():\n    pass\n"), Route::Gap);
        assert_eq!(
            python_update(
                MODULE,
                "# here\n",
                "N: int = 1\nclass K:\n    def m(self):\n        self.w = 1\n"
            ),
            Route::Gap
        );
        let end = MODULE.len();
        assert_eq!(python_edit(MODULE, end, end, "def z():\n    pass\n"), Route::Gap);
    }

    /// A fresh name that a sibling bears merges with it: the whole document.
    #[test]
    fn merging_gap_refuses_a_colliding_name() {
        assert_eq!(
            python_update(MODULE, "# here\n", "def a():\n    pass\n"),
            Route::Whole(Some(Refusal::Name))
        );
        assert_eq!(
            python_update(MODULE, "# here\n", "X: int = 2\n"),
            Route::Whole(Some(Refusal::Name))
        );
        assert_eq!(python_update(MODULE, "# here\n", "T = 2\n"), Route::Whole(Some(Refusal::Name)));
        // `U` is declared only in a branch pyright never takes: no symbol, no collision.
        assert_eq!(python_update(MODULE, "# here\n", "U = 2\n"), Route::Gap);
    }

    /// A statement hiding what follows it (a static `assert`, an `if` that always raises), or
    /// anything after one, reaches across the gap: the whole document.
    #[test]
    fn merging_gap_refuses_what_hides_other_statements() {
        for hiding in
            ["assert sys.platform == 'win32'\n", "if TYPE_CHECKING:\n    raise ImportError\n"]
        {
            assert_eq!(
                python_update(MODULE, "# here\n", hiding),
                Route::Whole(Some(Refusal::Reach))
            );
            // Below it, nothing has a symbol: the gap runs from it to the end, and what is
            // typed there stays hidden.
            let below = format!("{hiding}# there\n");
            let hidden = MODULE.replace("# here\n", &below);
            assert_eq!(python_update(&hidden, "# there\n", "def n():\n    pass\n"), Route::Gap);
            // Removed, it hides nothing any more: the gap runs to the end.
            assert_eq!(python_update(&hidden, hiding, ""), Route::Gap);
        }
        // A module-level `raise` hides nothing for pyright here (only inside a block).
        assert_eq!(python_update(MODULE, "# here\n", "raise SystemExit\n"), Route::Gap);
    }

    /// An edit inside a statement holding symbols outside the gap (the static `if`'s
    /// condition decides whether its `else` declares `U`): the whole document.
    #[test]
    fn merging_gap_refuses_an_edit_in_a_statement_past_the_gap() {
        assert_eq!(
            python_update(MODULE, "TYPE_CHECKING:", "TYPE_CHECKINGx:"),
            Route::Whole(Some(Refusal::Statement))
        );
        // The value of a top-level variable, or its annotation (typed declarations win merges).
        assert_eq!(python_update(MODULE, "= 1\n", "= 2\n"), Route::Whole(Some(Refusal::Statement)));
        assert_eq!(
            python_update(MODULE, "= 1\n", ": int = 1\n"),
            Route::Whole(Some(Refusal::Statement))
        );
    }

    /// A document's query run in parts on several threads finds what one run finds, wherever
    /// the cuts fall (inside symbols, between them, at a match's edge).
    #[test]
    #[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
    fn gathering_in_parts_equals_one_run() {
        let mut checked = 0;
        for (path, source, config) in fidelity_files() {
            let tree = source.tree().unwrap();
            let doc = source.doc();
            let whole = summary(&gather(&config, tree, doc, None, 0..usize::MAX));
            let n = doc.len_bytes();
            for cuts in [vec![n / 2], vec![n / 3, 2 * n / 3], vec![1, n / 7, n - 1]] {
                let parts = summary(&gather_split(&config, tree, doc, &cuts));
                assert!(whole == parts, "{} cut at {cuts:?}", path.display());
            }
            checked += 1;
        }
        assert!(checked >= 20, "only {checked} files");
    }

    /// Every real TS, TSX, JS, Python and Markdown file of the tests (fetched from registry
    /// packages, and our own odd cases), parsed, with its language's editor query.
    fn fidelity_files() -> Vec<(std::path::PathBuf, Source, std::sync::Arc<LanguageConfig>)> {
        let mut out = Vec::new();
        for path in locus_fixture::data::files_of(&["ts", "tsx", "js", "py", "md"]) {
            let text = std::fs::read_to_string(&path).unwrap();
            let language = Registry::builtin().for_path(&path, None).unwrap();
            let source = Source::new(Document::new(&text, 0), Some(language));
            let config = Registry::builtin().config(language).unwrap();
            out.push((path, source, config));
        }
        out
    }

    /// The `root.up` patterns tried over two threads, each over half of the roots, find what
    /// one run finds (every language with such patterns).
    #[test]
    #[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
    fn deferred_patterns_in_two_parts_equal_one_run() {
        let mut checked = 0;
        for (path, source, config) in fidelity_files() {
            let Some(deferred) = &config.deferred else { continue };
            let (tree, doc) = (source.tree().unwrap(), source.doc());
            let seen = |split: bool| {
                let mut g = gather(&config, tree, doc, None, 0..usize::MAX);
                g.take_deferred(&config, deferred, doc, split);
                let (mut skipped, mut extended, mut ignored) =
                    (g.skipped.clone(), g.extended.clone(), g.ignored.clone());
                skipped.sort();
                extended.sort();
                ignored.sort();
                (summary(&g), skipped, extended, ignored)
            };
            assert!(seen(false) == seen(true), "{}", path.display());
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} files");
    }

    /// A seed is a symbol only where a `root.up` pattern confirms it (SEED_QUERY).
    #[test]
    fn a_seed_is_a_symbol_only_where_a_root_up_pattern_confirms_it() {
        use crate::query::tests::{SEED_QUERY, javascript};
        let config = LanguageConfig::from_source(&javascript(), SEED_QUERY).unwrap();
        let text = "x = { a: 1, b: \"s\", c: { d: 2 } };\n";
        let doc = Document::new(text, 0);
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&config.language).unwrap();
        let tree = parser.parse(text, None).unwrap();
        let outline = extract(&config, &tree, &doc);
        let names: Vec<&str> = outline.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a", "d"], "the values of b and c are no numbers");
    }
}
