//! The workspace index's extraction of a whole file without running its query over what the
//! index drops anyway: the locals of function bodies.
//!
//! The index keeps, inside a callable's body, only definitions (a nested def or class) and
//! what a pattern hoists out of it (Python's `self.x`, filed under the class): see
//! [`crate::indexing`]. The full query still visits every node of every body with
//! tree-sitter's pattern state machine, most of an index's work after the parse (on the Python
//! standard library, 4.3 s of one thread's CPU against 0.55 s for a bare walk of its 7.5 M
//! nodes). Here the tree is walked once; at each node the query runs rooted at that node
//! alone (`set_max_start_depth(0)`, which descends only as far as that node's own patterns
//! need), and inside a callable's body only at the nodes where a pattern that can still
//! change the index's symbols may root.
//!
//! **What is decided from the query, as data** ([`Pruning::new`]): each pattern's root kinds
//! (read from its text; a wildcard or a supertype roots anywhere), and which patterns are
//! *local-only*: every capture they use makes a symbol of a kind the index drops inside a
//! callable ([`crate::pruning::kept_in_callable`] false), names it or helps; no `@skip`,
//! `@ignore` or `@range.*`, no `hoist`, `keep`. The pruned extraction is refused for the
//! language (the full query runs) unless: every pattern is rooted (`is_pattern_rooted`), none
//! uses `root.up`, `seed`, `join`, `level`, `text.match` or `keep "if-children"`, and every
//! local-only pattern ranks after every other pattern that makes a symbol (so a local-only
//! candidate never wins a node another pattern claims).
//!
//! **Guards.** tree-sitter checks a pattern's text predicates only once a match is complete,
//! so a pattern such as Python's `cls.x` members (rooted at a class, `#eq? @_o "cls"`) walks
//! every method's statements of every class. The query's patterns are therefore compiled in
//! groups ([`crate::pruning::Group`]), by guard (the literals their `#eq?` / `#any-of?`
//! predicates require of a capture every match has) and by being local-only; a group runs at
//! a node only if the node's text holds its guard's literals, which a match's captures,
//! lying inside its root, would put there: a group left out this way has no match there. On
//! the Python standard library this took the extraction from 2.2 to 1.34 s of one thread.
//!
//! **Why it is exact.** A match of the full run is rooted at one node, and running the query at
//! that node alone finds it. The walk runs every group whose guard holds everywhere except
//! inside a region it takes for a callable's body, where it leaves out the local-only groups
//! at every node but those some other pattern made a non-callable symbol of (a class defined
//! in a function, whose members they make) and those whose subtree has an error (a symbol at
//! a zero-width MISSING node may land in a class by its range, which no check below would see
//! missing). So the matches left out are local-only matches rooted in such a region:
//! candidate symbols of kinds the index drops there, that hide, extend and ignore nothing and
//! lose every node another pattern claims. Left out, they change the index's symbols only if
//! one would not be a callable's local after all, or would hold something. Checked on the
//! outline built, where a failed check falls back to the full query ([`extract`]):
//! - each region's node lies, up to trailing extras (comments), inside a symbol (the region
//!   is entered at a node some match made a callable symbol of), and
//! - the innermost symbol holding each region is a callable;
//! - every symbol inside a region that is not a callable lies in a part walked in full (the
//!   walk leaves a callable's context at any node a match made some other kind of symbol of:
//!   a class inside a function) or spans a leaf node (a hoisted `self.x`), so it holds no
//!   left-out symbol;
//! - no member (method, constructor) sits directly in a callable: a left-out local could have
//!   held it (an object literal's method), which the index drops with the local.
//!
//! What is not checked at run time, and holds for the languages that pass the static checks
//! (Python): a left-out local's symbol node holds no other symbol (Python's are identifiers,
//! and `__slots__` strings in a class body), and no local-only pattern rooted in a callable's
//! body reaches into a class defined there (Python's expressions and patterns hold no
//! statements). `the_pruned_extraction_equals_the_full_query` (below) and the
//! `prune_compare` example check the whole result against the full query, symbol for
//! symbol, over the corpus and any directory (the Python standard library: 1,788 files with an
//! index query, of its 1,794 indexed).

use locus_doc::Document;
use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, QueryCapture, QueryCursor, TextProvider, Tree};

use crate::outline::{self, Gathered, Outline, Symbol};
use crate::pruning::{Pruning, callable, member};
use crate::query::LanguageConfig;
use crate::runtime::Runtime;

/// A region the walk took for a callable's body: the node, and where its content ends
/// (trailing extras, comments, left out).
struct Region {
    start: usize,
    end: usize,
}

/// The index's outline of the whole tree, by the pruned walk where the language allows it
/// (and its checks pass), else by the full query: the same either way (see the module's docs).
pub(crate) fn extract(config: &LanguageConfig, tree: &Tree, doc: &Document) -> Outline {
    match &config.pruning {
        Some(pruning) => extract_pruned(config, pruning, tree, doc)
            .unwrap_or_else(|| outline::extract(config, &Runtime::default(), tree, doc)),
        None => outline::extract(config, &Runtime::default(), tree, doc),
    }
}

/// The pruned walk's outline, `None` where the language does not allow it or a check refuses
/// it.
pub(crate) fn extract_if_pruned(
    config: &LanguageConfig,
    tree: &Tree,
    doc: &Document,
) -> Option<Outline> {
    extract_pruned(config, config.pruning.as_ref()?, tree, doc)
}

/// The pruned walk's outline, or `None` when a check refuses it.
fn extract_pruned(
    config: &LanguageConfig,
    pruning: &Pruning,
    tree: &Tree,
    doc: &Document,
) -> Option<Outline> {
    let mut gathered = Gathered::default();
    let mut cursor = QueryCursor::new();
    cursor.set_max_start_depth(Some(0));
    // The text in one piece: predicates and guards read it without walking the rope.
    let flat = doc.rope().to_string();
    let text = flat.as_bytes();
    let mut regions: Vec<Region> = Vec::new();
    let mut captures: Vec<QueryCapture> = Vec::new();
    // Starts of the nodes where the walk left a callable's context.
    let mut full: Vec<(usize, usize)> = Vec::new();
    let mut walk = tree.walk();
    // Whether each node on the path (the current one last) lies in a callable's body.
    let mut context: Vec<bool> = vec![false];
    loop {
        let node = walk.node();
        let inside = *context.last().expect("the root's context");
        if pruning.roots(inside, node) {
            // The patterns that are not local-only first: inside a callable's body, the
            // local-only ones run only at a node those made some other kind of symbol of (a
            // class there: the members they make are its own, not the callable's locals).
            for local in [false, true] {
                // (Where the tree has an error, they run as the full query would: a symbol
                // at a zero-width MISSING node can land in a class by its range, which no
                // check on the outline would see missing.)
                if local
                    && inside
                    && !node.has_error()
                    && gathered.candidates.get(&node.id()).is_none_or(|c| callable(c.kind))
                {
                    break;
                }
                for group in pruning.groups.iter().filter(|g| g.local == local) {
                    if !group.roots(node) || !guard_holds(text, node, &group.guard) {
                        continue;
                    }
                    let mut matches = cursor.matches(&group.query, node, FlatText(text));
                    while let Some(m) = matches.next() {
                        captures.clear();
                        captures.extend(m.captures().iter().map(|c| QueryCapture {
                            node: c.node,
                            index: group.captures[c.index as usize],
                        }));
                        let rank = config.rank[group.patterns[m.pattern_index]];
                        gathered.take(config, doc, rank, &captures, None);
                    }
                }
            }
        }
        if node.child_count() > 0 {
            let mut below = inside;
            if let Some(c) = gathered.candidates.get(&node.id()) {
                below = callable(c.kind);
                if below && !inside {
                    regions.push(Region { start: node.start_byte(), end: content_end(node) });
                } else if !below && inside {
                    full.push((node.start_byte(), node.end_byte()));
                }
            }
            walk.goto_first_child();
            context.push(below);
            continue;
        }
        loop {
            if walk.goto_next_sibling() {
                break;
            }
            if !walk.goto_parent() {
                return checked(config, tree, doc, gathered, &regions, &full);
            }
            context.pop();
        }
    }
}

/// How many symbol-against-region comparisons [`checked`] may make (about 0.1 s) before the
/// full query is cheaper.
const MAX_CHECK_COMPARISONS: usize = 50_000_000;

/// The outline from the pruned walk's matches, if the checks of the module's docs pass.
fn checked(
    config: &LanguageConfig,
    tree: &Tree,
    doc: &Document,
    gathered: Gathered,
    regions: &[Region],
    full: &[(usize, usize)],
) -> Option<Outline> {
    // The checks below compare every symbol with every region and fully walked part: bounded,
    // so that a file of 100,000 one-line functions is not billions of comparisons; past the
    // bound the full query (linear) runs instead.
    let comparisons = (regions.len() + full.len()).saturating_mul(gathered.candidates.len());
    if comparisons > MAX_CHECK_COMPARISONS {
        return None;
    }
    let outline = outline::extract_gathered(config, tree, doc, gathered);
    let mut ok = true;
    for r in regions {
        ok &= covered(&outline.symbols, r);
    }
    check_level(&outline.symbols, None, regions, full, tree, &mut ok);
    ok.then_some(outline)
}

/// Whether the innermost symbol that holds the region is a callable.
fn covered(level: &[Symbol], r: &Region) -> bool {
    let holds = |s: &&Symbol| s.range.start <= r.start && r.end <= s.range.end;
    match level.iter().find(holds) {
        Some(s) if s.children.iter().any(|c| holds(&c)) => covered(&s.children, r),
        Some(s) => callable(s.kind),
        None => false,
    }
}

/// Checks the symbols of one level (children of `parent`): no member right inside a callable;
/// inside a region, a symbol that is not a callable lies in a part walked in full or spans a
/// leaf node.
fn check_level(
    level: &[Symbol],
    parent: Option<&Symbol>,
    regions: &[Region],
    full: &[(usize, usize)],
    tree: &Tree,
    ok: &mut bool,
) {
    for s in level {
        if !*ok {
            return;
        }
        if parent.is_some_and(|p| callable(p.kind)) && member(s.kind) {
            *ok = false;
            return;
        }
        let in_region = regions.iter().any(|r| r.start <= s.range.start && s.range.end <= r.end);
        if in_region && !callable(s.kind) {
            let walked_full = full.iter().any(|&(a, b)| a <= s.range.start && s.range.end <= b);
            let leaf = tree
                .root_node()
                .descendant_for_byte_range(s.range.start, s.range.end)
                .is_some_and(|n| {
                    n.start_byte() == s.range.start
                        && n.end_byte() == s.range.end
                        && n.child_count() == 0
                });
            if !walked_full && !leaf {
                *ok = false;
                return;
            }
        }
        check_level(&s.children, Some(s), regions, full, tree, ok);
    }
}

/// The document's text in one piece, as the query's text provider: a node's bytes, clamped to
/// the text (as `RopeText` clamps), so a tree that does not match the text cannot panic.
#[derive(Clone, Copy)]
struct FlatText<'a>(&'a [u8]);

impl<'a> TextProvider<&'a [u8]> for FlatText<'a> {
    type I = std::iter::Once<&'a [u8]>;

    fn text(&mut self, node: Node) -> Self::I {
        std::iter::once(node_text(self.0, node))
    }
}

/// `node`'s bytes in `text`, clamped to it.
fn node_text<'a>(text: &'a [u8], node: Node) -> &'a [u8] {
    let end = node.end_byte().min(text.len());
    &text[node.start_byte().min(end)..end]
}

/// Whether `node`'s text (in `text`) holds one literal of each set of `guard`.
fn guard_holds(text: &[u8], node: Node, guard: &[Vec<String>]) -> bool {
    let text = node_text(text, node);
    guard.iter().all(|set| set.iter().any(|l| memchr::memmem::find(text, l.as_bytes()).is_some()))
}

/// Where a node's content ends: the end of its last leaf that is not an extra (a comment).
fn content_end(node: Node) -> usize {
    let mut n = node;
    loop {
        let mut i = n.child_count();
        while i > 0 && n.child(i - 1).is_some_and(|c| c.is_extra()) {
            i -= 1;
        }
        match i.checked_sub(1).and_then(|i| n.child(i)) {
            Some(c) => n = c,
            None => return n.end_byte(),
        }
    }
}
