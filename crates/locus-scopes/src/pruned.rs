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
//! callable ([`crate::indexing::kept_in_callable`] false), names it or helps; no `@skip`,
//! `@ignore` or `@range.*`, no `hoist`, `keep`. The pruned extraction is refused for the
//! language (the full query runs) unless: every pattern is rooted (`is_pattern_rooted`), none
//! uses `root.up`, `seed`, `join`, `level`, `text.match` or `keep "if-children"`, and every
//! local-only pattern ranks after every other pattern that makes a symbol (so a local-only
//! candidate never wins a node another pattern claims).
//!
//! **Why it is exact.** A match of the full run is rooted at one node, and running the query at
//! that node alone finds it. The walk runs it everywhere except, inside a region it takes for
//! a callable's body, at nodes of a kind only local-only patterns root at. So the matches left
//! out are local-only matches rooted in such a region: candidate symbols of kinds the index
//! drops there, that hide, extend and ignore nothing and lose every node another pattern
//! claims. Left out, they change the index's symbols only if one would not be a callable's
//! local after all, or would hold something. Checked on the outline built, where a failed
//! check falls back to the full query ([`extract`]):
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
//! symbol, over the corpus and any directory (the Python standard library: 1,794 files).

use locus_doc::Document;
use streaming_iterator::StreamingIterator;
use tree_sitter::{CaptureQuantifier, Language, Node, Query, QueryCursor, Tree};

use crate::indexing::{callable, member};
use crate::outline::{self, Gathered, Outline, RopeText, Symbol};
use crate::query::{LanguageConfig, PatternInfo, Role};

/// Where the index query may root, and where that matters inside a callable's body.
#[derive(Debug, Clone)]
pub(crate) struct Pruning {
    /// By node kind id: some pattern may root at such a node.
    any: Vec<bool>,
    /// By node kind id: a pattern that is not local-only may root at such a node.
    kept: Vec<bool>,
}

impl Pruning {
    /// The pruning of the main query `query` compiled from `text`, or `None` when the pruned
    /// extraction cannot be shown to equal the full one (see the module's docs).
    pub(crate) fn new(
        language: &Language,
        query: &Query,
        text: &str,
        roles: &[Role],
        patterns: &[PatternInfo],
    ) -> Option<Pruning> {
        let count = language.node_kind_count();
        let mut any = vec![false; count];
        let mut kept = vec![false; count];
        let mut last_symbol_maker: Option<usize> = None;
        let mut first_local: Option<usize> = None;
        for (i, info) in patterns.iter().enumerate() {
            if info.deferred
                || info.seed
                || info.up.is_some()
                || info.level.is_some()
                || info.text_match.is_some()
                || info.keep_if_children
                || info.join != crate::query::Join::No
            {
                return None;
            }
            let used = query
                .capture_quantifiers(i)
                .iter()
                .zip(roles)
                .filter(|(q, _)| **q != CaptureQuantifier::Zero)
                .map(|(_, r)| *r);
            let mut local = !info.hoist;
            let mut makes_symbol = false;
            for role in used {
                match role {
                    Role::Symbol(kind) => {
                        makes_symbol = true;
                        local &= !crate::indexing::kept_in_callable(kind);
                    }
                    Role::Name | Role::Helper => {}
                    Role::RangeStart
                    | Role::RangeEnd
                    | Role::RangeExtend
                    | Role::Skip
                    | Role::Ignore => local = false,
                }
            }
            if local && makes_symbol {
                first_local.get_or_insert(i);
            } else if makes_symbol {
                last_symbol_maker = Some(i);
            }
            let pattern = &text[query.start_byte_for_pattern(i)..query.end_byte_for_pattern(i)];
            let ids = match root_kinds(pattern)? {
                Roots::Kinds(kinds) => kind_ids(language, &kinds),
                Roots::Any => None,
            };
            for set in [Some(&mut any), (!local).then_some(&mut kept)].into_iter().flatten() {
                match &ids {
                    Some(ids) => ids.iter().for_each(|&id| set[id as usize] = true),
                    None => set.iter_mut().for_each(|b| *b = true),
                }
            }
        }
        if let (Some(last), Some(first)) = (last_symbol_maker, first_local)
            && last > first
        {
            return None;
        }
        Some(Pruning { any, kept })
    }

    fn roots(set: &[bool], node: Node) -> bool {
        // An ERROR node's id lies past the grammar's kinds: any pattern may root there.
        set.get(node.kind_id() as usize).copied().unwrap_or(true)
    }
}

/// Where a top-level pattern may root.
enum Roots {
    /// At nodes of these kinds (name, named).
    Kinds(Vec<(String, bool)>),
    /// At any node: a wildcard, or text this reader does not follow.
    Any,
}

/// Where a top-level pattern may root, read from its text; `None` for a pattern of several
/// sibling nodes (rooted at their parent, whatever its kind: not found by running the query
/// at one node).
fn root_kinds(pattern: &str) -> Option<Roots> {
    let mut reader = Reader { b: pattern.as_bytes(), i: 0 };
    let mut out = Vec::new();
    match reader.item(&mut out) {
        Read::Rooted => Some(Roots::Kinds(out)),
        Read::Any => Some(Roots::Any),
        Read::Siblings => None,
    }
}

/// What reading an item found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    Rooted,
    Any,
    Siblings,
}

/// A reader of one pattern's text.
struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn space(&mut self) {
        while self.i < self.b.len() {
            match self.b[self.i] {
                b' ' | b'\t' | b'\n' | b'\r' => self.i += 1,
                b';' => {
                    while self.i < self.b.len() && self.b[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn word(&mut self) -> String {
        let start = self.i;
        while self.i < self.b.len()
            && (self.b[self.i].is_ascii_alphanumeric()
                || matches!(self.b[self.i], b'_' | b'.' | b'-'))
        {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.b[start..self.i]).into_owned()
    }

    /// A string literal's content (the reader at its opening quote).
    fn string(&mut self) -> Option<String> {
        self.i += 1;
        let mut out = Vec::new();
        while self.i < self.b.len() && self.b[self.i] != b'"' {
            if self.b[self.i] == b'\\' {
                self.i += 1;
                out.push(match self.b.get(self.i)? {
                    b'n' => b'\n',
                    b't' => b'\t',
                    b'r' => b'\r',
                    b'0' => 0,
                    c => *c,
                });
            } else {
                out.push(self.b[self.i]);
            }
            self.i += 1;
        }
        self.i += 1;
        String::from_utf8(out).ok()
    }

    /// Skips to just past the bracket closing the one the reader is inside.
    fn close(&mut self) -> Option<()> {
        let mut depth = 1usize;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'"' => {
                    self.string()?;
                    continue;
                }
                b';' => self.space(),
                b'(' | b'[' => depth += 1,
                b')' | b']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        return Some(());
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        None
    }

    /// Skips the captures and quantifier after an item.
    fn suffix(&mut self) {
        loop {
            self.space();
            match self.peek() {
                Some(b'@') => {
                    self.i += 1;
                    self.word();
                }
                Some(b'*' | b'+' | b'?') => self.i += 1,
                _ => return,
            }
        }
    }

    /// Reads one item (a node, a group, an alternation) and adds the kinds its root may have.
    fn item(&mut self, out: &mut Vec<(String, bool)>) -> Read {
        let read = self.item_inner(out).unwrap_or(Read::Any);
        self.suffix();
        read
    }

    fn item_inner(&mut self, out: &mut Vec<(String, bool)>) -> Option<Read> {
        self.space();
        match self.peek()? {
            b'"' => {
                let s = self.string()?;
                out.push((s, false));
            }
            b'[' => {
                self.i += 1;
                loop {
                    self.space();
                    match self.peek()? {
                        b']' => {
                            self.i += 1;
                            break;
                        }
                        _ => match self.item(out) {
                            Read::Rooted => {}
                            other => return Some(other),
                        },
                    }
                }
            }
            b'(' => {
                self.i += 1;
                self.space();
                match self.peek()? {
                    b'(' | b'[' | b'"' => {
                        // A group: its node items (one, for a rooted pattern) and predicates.
                        let mut nodes = 0;
                        loop {
                            self.space();
                            match self.peek()? {
                                b')' => {
                                    self.i += 1;
                                    break;
                                }
                                b'(' if self.b.get(self.i + 1) == Some(&b'#') => {
                                    self.i += 1;
                                    self.close()?;
                                }
                                b'.' => self.i += 1,
                                _ => {
                                    nodes += 1;
                                    if nodes > 1 {
                                        return Some(Read::Siblings);
                                    }
                                    match self.item(out) {
                                        Read::Rooted => {}
                                        other => return Some(other),
                                    }
                                }
                            }
                        }
                    }
                    _ => {
                        let kind = self.word();
                        if kind.is_empty() || kind == "_" || kind == "ERROR" || kind == "MISSING" {
                            return Some(Read::Any);
                        }
                        out.push((kind, true));
                        self.close()?;
                    }
                }
            }
            _ => return Some(Read::Any),
        }
        Some(Read::Rooted)
    }
}

/// Every node kind id named `kinds` (aliases share names); `None` (any) for a supertype or a
/// name the grammar does not have.
fn kind_ids(language: &Language, kinds: &[(String, bool)]) -> Option<Vec<u16>> {
    let mut ids = Vec::new();
    for (name, named) in kinds {
        let before = ids.len();
        for id in 0..language.node_kind_count() as u16 {
            if language.node_kind_for_id(id) == Some(name.as_str())
                && language.node_kind_is_named(id) == *named
            {
                if language.node_kind_is_supertype(id) {
                    return None;
                }
                ids.push(id);
            }
        }
        if ids.len() == before {
            return None;
        }
    }
    Some(ids)
}

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
            .unwrap_or_else(|| outline::extract(config, tree, doc)),
        None => outline::extract(config, tree, doc),
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
    let mut regions: Vec<Region> = Vec::new();
    // Starts of the nodes where the walk left a callable's context.
    let mut full: Vec<(usize, usize)> = Vec::new();
    let mut walk = tree.walk();
    // Whether each node on the path (the current one last) lies in a callable's body.
    let mut context: Vec<bool> = vec![false];
    loop {
        let node = walk.node();
        let inside = *context.last().expect("the root's context");
        let set = if inside { &pruning.kept } else { &pruning.any };
        if Pruning::roots(set, node) {
            let mut matches = cursor.matches(&config.query, node, RopeText(doc));
            while let Some(m) = matches.next() {
                gathered.take(config, doc, config.rank[m.pattern_index], m.captures(), None);
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

/// The outline from the pruned walk's matches, if the checks of the module's docs pass.
fn checked(
    config: &LanguageConfig,
    tree: &Tree,
    doc: &Document,
    gathered: Gathered,
    regions: &[Region],
    full: &[(usize, usize)],
) -> Option<Outline> {
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
