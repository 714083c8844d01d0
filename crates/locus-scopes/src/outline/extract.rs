//! Extraction: the symbol query's matches gathered (on several threads for a large document),
//! then nested, hoisted, joined and merged into the symbols of a tree or of a region of it.

use std::collections::HashMap;

use locus_doc::Document;
use streaming_iterator::StreamingIterator;
use tree_sitter::{CaptureQuantifier, Node, QueryCapture, QueryCursor, TextProvider, Tree};

use super::markup::LinkLabels;
use super::model::{JoinNames, Outline, Reads, Span, Symbol};
use super::name::render_name;
use crate::kind::SymbolKind;
use crate::query::{Deferred, Join, JoinElse, LanguageConfig, Merge, Normalize, Role};
use crate::runtime::Runtime;
use crate::static_condition;

/// Gives tree-sitter the text of a node from the rope, chunk by chunk.
struct RopeText<'a>(&'a Document);

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
    pub(super) pattern: usize,
    pub(crate) kind: SymbolKind,
    range: Span,
    pub(super) names: Vec<Span>,
    pub(super) helpers: Vec<(u32, Span)>,
    /// The extent of the match's captures (and of its root, for a `root.up` pattern): what
    /// the symbol's name, kind and existence depend on.
    reads: Span,
    /// The symbol node's place among its parent's named children, comments left out, for a
    /// pattern whose name says `{index}`.
    pub(super) index: Option<u32>,
}

/// Extracts the symbols of the whole tree.
/// Static conditions are evaluated for `runtime`.
pub(crate) fn extract(
    config: &LanguageConfig,
    runtime: &Runtime,
    tree: &Tree,
    doc: &Document,
) -> Outline {
    match extract_region(config, runtime, tree, doc, None) {
        Some(Extracted { symbols, names, reads, link_labels, .. }) => {
            Outline::new(symbols).with_names(names, reads).with_link_labels(link_labels)
        }
        None => Outline::default(),
    }
}

/// The link labels the document defines, where the language's names depend on them (inline
/// Markdown: `[r]` is a link only where `r` is defined); none elsewhere.
pub(super) fn link_labels(config: &LanguageConfig, tree: &Tree, doc: &Document) -> LinkLabels {
    match config.patterns.iter().any(|p| p.normalize == Normalize::Markup) {
        true => LinkLabels::of(tree, doc),
        false => LinkLabels::default(),
    }
}

/// Whether the language's symbols can stand on their own: no merging by name, no heading
/// levels. (Joins depend on the document: an outline records whether it has any.)
pub(super) fn independent(config: &LanguageConfig) -> bool {
    config.patterns.iter().all(|p| p.merge == Merge::No && p.level.is_none())
}

/// The symbols of a region, and the names joining may tie together.
pub(super) struct Extracted {
    pub(super) symbols: Vec<Symbol>,
    pub(super) names: JoinNames,
    /// The extent of every match that hides or reshapes symbols (`@skip`, `@ignore`,
    /// `@range.extend`) and reaches out of the region: through these, what lies in the region
    /// may act on symbols outside it, or what lies outside on symbols inside. None for the
    /// whole tree.
    pub(super) reach: Vec<Span>,
    /// What the region's symbols read outside their ranges.
    pub(super) reads: Vec<Reads>,
    /// The link labels the whole document defines, where names depend on them (Markdown).
    pub(super) link_labels: LinkLabels,
    /// The symbols found starting just past the region's end, where its query looked (the
    /// next sibling of a gap), by kind and range: not the region's, but what a gap's update
    /// checks against the symbol kept there.
    pub(super) beyond: Vec<(SymbolKind, Span)>,
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
    /// The runtime static conditions are evaluated for.
    pub(crate) runtime: Runtime,
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
        // `#static-true?` / `#static-false?`: the condition must have that value.
        for &(capture, value) in &info.statics {
            let fails = captures.iter().any(|c| {
                c.index == capture
                    && static_condition::evaluate(c.node, doc, &self.runtime) != Some(value)
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
            let runtime = self.runtime;
            let later = scope.spawn(move || {
                let mut part = Gathered { runtime, ..Gathered::default() };
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
    runtime: &Runtime,
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
    gather_from(config, runtime, start.unwrap_or(tree.root_node()), doc, range)
}

/// The matches of the main query in `start`'s subtree whose roots lie in `range`.
fn gather_from<'tree>(
    config: &LanguageConfig,
    runtime: &Runtime,
    start: Node<'tree>,
    doc: &Document,
    range: std::ops::Range<usize>,
) -> Gathered<'tree> {
    let mut cursor = QueryCursor::new();
    cursor.set_byte_range(range);
    let mut gathered = Gathered { runtime: *runtime, ..Gathered::default() };
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
    runtime: &Runtime,
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
                scope.spawn(move || gather_from(config, runtime, tree.root_node(), doc, range))
            })
            .collect();
        let mut whole = gather_from(config, runtime, tree.root_node(), doc, 0..bounds[1]);
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
pub(super) fn extract_region(
    config: &LanguageConfig,
    runtime: &Runtime,
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
        Some(r) => gather(config, runtime, tree, doc, Some(r), r.start..r.end + 2),
        None if split => gather_split(config, runtime, tree, doc, &[doc.len_bytes() / 2]),
        None => gather(config, runtime, tree, doc, None, 0..usize::MAX),
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
        Some(Extracted { symbols, names, reads, link_labels, .. }) => {
            Outline::new(symbols).with_names(names, reads).with_link_labels(link_labels)
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
    start_at_lines(config, doc, &mut candidates);
    extend_levels(
        config,
        doc,
        &mut candidates,
        region.map_or(tree.root_node().end_byte(), |r| r.end),
    );
    // Each name is rendered once, for joining and for its symbol.
    let link_labels = link_labels(config, tree, doc);
    let candidates: Vec<(Candidate, String)> = candidates
        .into_iter()
        .map(|c| {
            let name = render_name(config, doc, &link_labels, &c);
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
    Some(Extracted { symbols, names, reach, reads, beyond, link_labels })
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

/// Starts each symbol of a `range.start "line"` pattern at the start of its line, and drops
/// those with anything but blanks before them there: VS Code's Markdown server finds link
/// definitions line by line (`   [id]: url` from column 0, none after a `>`).
fn start_at_lines(config: &LanguageConfig, doc: &Document, candidates: &mut Vec<Candidate>) {
    candidates.retain_mut(|c| {
        if !config.patterns[c.pattern].from_line_start {
            return true;
        }
        let start = doc.line_start(doc.line_of(c.range.start));
        let blank = doc.slice(start, c.range.start).bytes().all(|b| b == b' ' || b == b'\t');
        c.range.start = start;
        blank
    });
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

#[cfg(test)]
mod tests;
