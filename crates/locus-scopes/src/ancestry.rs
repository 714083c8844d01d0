//! Where a region's query may start: the lowest node above a region such that no pattern
//! rooted higher up can change what the region's extraction gives.
//!
//! A query run over a byte range from the tree's root also visits every sibling of each node
//! on the way down, carrying the states of patterns rooted higher up through them: inside a
//! 30k-line TypeScript file that is one huge function, re-extracting one of its 823 inner
//! functions (5 KB) cost about 1 ms, against 0.15 ms for the same query started at that
//! function. Starting lower is exact only where no match rooted above the start can capture
//! a node the region's extraction looks at; that is decided here from the query's text, as
//! data: each capture that acts on symbols (a symbol, its range, `@skip`, `@ignore`,
//! `@range.*`) is kept with the chain of node kinds from its pattern's root down to it.
//!
//! **Why it is exact.** Let S be the start node and r ⊆ S the region. A match missed by
//! starting at S is rooted strictly above S (a pattern of several sibling nodes is rooted at
//! their parent). [`Ancestry::start`] raises S until no acting capture of such a match can
//! land on S or inside it (its chain of kinds fits the path down to S), so every acting
//! capture of a missed match lies on an ancestor of S or on a node disjoint from S. Then:
//! - the candidates, skips and range extensions of nodes inside S are those the full run
//!   gives (they are keyed by node, and no missed match captured one);
//! - a missed candidate spans ancestors of S or nodes beside it, so its range holds r or lies
//!   beside it: it can be in r, or cut r's edge (which refuses the region), only where an
//!   ancestor it captures shares an edge with r, or a zero-width node beside S touches r.
//!   Both raise S (the first) or refuse the start (the second);
//! - an `@ignore` or a `text.match` symbol on an ancestor of S would act inside r: any that
//!   can land on an ancestor raises S above its pattern's root;
//! - `root.up` patterns are tried above found symbols whatever the start, and count as
//!   rooted anywhere above S for the rules above.
//!
//! What it does not keep: the extents of hiding rules that reach out of the region (Python's
//! top-level gap path needs those), so only languages whose symbols stand alone use it.

use tree_sitter::{Language, Node, Query, Tree};

/// A half-open byte range (the region; kept apart from `outline::Span` so that this module
/// imports no other: `query` and `outline` both use it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// What one capture does, for [`Ancestry::add`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Acting {
    /// It only names or helps (`@name`, `@_helper`): no effect on which symbols there are.
    No,
    /// It makes, hides or reshapes the captured node's own symbol.
    Here,
    /// It acts on what lies inside the captured node (`@ignore`, a `text.match` symbol).
    Inward,
}

/// The kinds a pattern's node may have at one depth; `None` for any kind.
type Level = Option<Vec<String>>;

/// One acting capture of a pattern: the kinds from the pattern's root (depth 0) down to the
/// captured node (the last level).
#[derive(Debug, Clone)]
struct Chain {
    levels: Vec<Level>,
    /// An `@ignore`, or the symbol of a `text.match` pattern: it acts on what lies inside the
    /// captured node, wherever that node is.
    inward: bool,
    /// The pattern was not understood: it may capture anything anywhere.
    unknown: bool,
}

/// The acting captures of a language's symbol query, for [`Ancestry::start`].
#[derive(Debug, Clone, Default)]
pub(crate) struct Ancestry {
    chains: Vec<Chain>,
}

impl Ancestry {
    /// Reads the acting captures of `query`'s patterns from `text`, the source it was compiled
    /// from. `acting(i, c)` says what capture `c` does in pattern `i`; `kinds(i)` gives pattern
    /// `i`'s `#kind-eq?` tests (capture index, kinds).
    pub(crate) fn add(
        &mut self,
        language: &Language,
        query: &Query,
        text: &str,
        acting: impl Fn(usize, usize) -> Acting,
        kinds: impl Fn(usize) -> Vec<(u32, Vec<String>)>,
    ) {
        let names = query.capture_names();
        for i in 0..query.pattern_count() {
            let source = &text[query.start_byte_for_pattern(i)..query.end_byte_for_pattern(i)];
            let mut parser = PatternParser::new(source, language);
            if !parser.read_all() {
                // Not understood: count the pattern as able to capture anything anywhere.
                self.chains.push(Chain { levels: vec![None; 64], inward: true, unknown: true });
                parser.out.clear();
            }
            let tests = kinds(i);
            // `#kind-eq?` narrows the kinds of the nodes its capture takes.
            let kinds_of = |item: usize| -> Option<Vec<String>> {
                let mut kinds: Option<Vec<String>> = None;
                for (name, _) in parser.attached.iter().filter(|(_, at)| *at == item) {
                    for (capture, allowed) in &tests {
                        if names[*capture as usize] == name.as_str() {
                            kinds = Some(match kinds {
                                None => allowed.clone(),
                                Some(k) => k.into_iter().filter(|k| allowed.contains(k)).collect(),
                            });
                        }
                    }
                }
                kinds
            };
            let rooted = query.is_pattern_rooted(i);
            for (name, chain) in &parser.out {
                let Some(index) = names.iter().position(|n| n == name) else { continue };
                let act = acting(i, index);
                if act == Acting::No {
                    continue;
                }
                let mut levels: Vec<Level> = chain
                    .iter()
                    .map(|(item, level)| match (kinds_of(*item), level) {
                        (None, level) => level.clone(),
                        (Some(k), None) => Some(k),
                        (Some(k), Some(l)) => {
                            Some(k.into_iter().filter(|k| l.contains(k)).collect())
                        }
                    })
                    .collect();
                if !rooted {
                    // Sibling nodes: their parent is the root.
                    levels.insert(0, None);
                }
                let inward = act == Acting::Inward;
                self.chains.push(Chain { levels, inward, unknown: false });
            }
        }
    }

    /// The node to start a query over `region` from, with the tree's root meaning no gain;
    /// `None` when no start below the root is exact.
    pub(crate) fn start<'tree>(&self, tree: &'tree Tree, region: Span) -> Option<Node<'tree>> {
        let root = tree.root_node();
        let mut start = root.descendant_for_byte_range(region.start, region.end)?;
        'raise: loop {
            if start.id() == root.id() {
                return None;
            }
            let mut path = vec![start];
            let mut node = start;
            while let Some(parent) = node.parent() {
                path.push(parent);
                node = parent;
            }
            path.reverse();
            // Strict ancestors, from the root down: the highest one a chain needs wins.
            for j in 0..path.len() - 1 {
                if self.chains.iter().any(|c| c.lands(&path[j..], region)) {
                    start = path[j];
                    continue 'raise;
                }
            }
            break;
        }
        let touches = |at_start: bool| zero_width_beside(start, at_start);
        if (start.start_byte() == region.start && touches(true))
            || (start.end_byte() == region.end && touches(false))
        {
            return None;
        }
        Some(start)
    }
}

impl Ancestry {
    /// Whether some acting capture, in a match rooted at `path[0]`, can land on `path`'s last
    /// node: its chain is as deep as `path` and its kinds fit the path's, level by level.
    pub(crate) fn fits(&self, path: &[Node]) -> bool {
        self.chains.iter().any(|c| {
            c.unknown
                || c.levels.len() == path.len()
                    && c.levels.iter().zip(path).all(|(level, node)| match level {
                        None => true,
                        Some(kinds) => kinds.iter().any(|k| k == node.kind()),
                    })
        })
    }
}

impl Chain {
    /// Whether this capture, in a match rooted at `path[0]`, can matter to a region inside
    /// `path`'s last node S: it can land on S or below, or on an ancestor of S where it acts
    /// inward or its node shares an edge with the region.
    fn lands(&self, path: &[Node], region: Span) -> bool {
        let n = path.len() - 1;
        let depth = self.levels.len() - 1;
        let fits = (0..=depth.min(n)).all(|k| match &self.levels[k] {
            None => true,
            Some(kinds) => kinds.iter().any(|kind| kind == path[k].kind()),
        });
        if !fits {
            return false;
        }
        if depth >= n {
            return true;
        }
        let node = path[depth];
        self.inward || node.start_byte() == region.start || node.end_byte() == region.end
    }
}

/// One level of a [`Touch`] chain: the kinds a node may have, and the field it must be in.
type Step = (Level, Option<String>);

/// Where an edit can change what a query's matches say, read from the query's text as data:
/// every node of every pattern (captured or not) with its chain of node kinds from the
/// pattern's root, and every capture whose text is read (a name, a helper, one a predicate
/// names).
///
/// **Why it is exact.** Let X be a node that strictly holds every byte whose syntax changed,
/// so that (tree-sitter's changed ranges) X and its ancestors keep their kinds and fields, and
/// their children outside X's subtree, in the same order; only X's subtree differs, and the
/// texts of X and its ancestors. A match binds nodes by kind, field and order, and reads the
/// text of its captures only. If no pattern rooted at an ancestor of X or at X can bind X or
/// a node below it (no chain fits the path down to X and reaches X's depth), no pattern may
/// root at a node below X that overlaps the changed bytes (one that does not has the old
/// subtree, so the old matches: [`Touch::roots_below`]), and no capture whose text is read can
/// bind an ancestor of X, every match of the new tree is one of the old tree's, moved across
/// the edit, and the other way round: the symbols are the same, and
/// so are their ranges, moved across the edit (a symbol's node is an ancestor of X or lies
/// beside it), but for a range trimmed of trailing comments, which the update checks apart.
#[derive(Debug, Clone, Default)]
pub(crate) struct Touch {
    /// Each chain, and whether its node's text is read.
    chains: Vec<(Vec<Step>, bool)>,
    /// The kinds some pattern may root at (for matches rooted inside X's subtree).
    roots: std::collections::HashSet<String>,
    /// Some pattern may root at a node of any kind (a wildcard, a supertype, an anonymous
    /// node, or several sibling nodes).
    roots_anywhere: bool,
    /// Some pattern was not understood: any edit may change its matches.
    unknown: bool,
}

impl Touch {
    /// Reads `query`'s patterns from `text`, the source it was compiled from; `reads(i, c)`
    /// says whether capture `c`'s text is read in pattern `i` (its role), beside predicates.
    pub(crate) fn add(
        &mut self,
        language: &Language,
        query: &Query,
        text: &str,
        reads: impl Fn(usize, usize) -> bool,
    ) {
        let names = query.capture_names();
        for i in 0..query.pattern_count() {
            let source = &text[query.start_byte_for_pattern(i)..query.end_byte_for_pattern(i)];
            let mut parser = PatternParser::new(source, language);
            if !parser.read_all() {
                self.unknown = true;
            }
            let rooted = query.is_pattern_rooted(i);
            match parser.root() {
                Root::Kinds(kinds) if rooted => self.roots.extend(kinds),
                _ => self.roots_anywhere = true,
            }
            let fields = std::mem::take(&mut parser.fields);
            let mut push = |chain: &[(usize, Level)], read: bool| {
                let mut levels: Vec<Step> =
                    chain.iter().map(|(id, l)| (l.clone(), fields.get(id).cloned())).collect();
                if !rooted {
                    // Sibling nodes: their parent is the root.
                    levels.insert(0, (None, None));
                }
                self.chains.push((levels, read));
            };
            for chain in &parser.nodes {
                push(chain, false);
            }
            for (name, chain) in &parser.out {
                let read = parser.read.contains(name)
                    || names.iter().position(|n| n == name).is_none_or(|c| reads(i, c));
                if read {
                    push(chain, true);
                }
            }
        }
    }

    /// A query any edit may touch (one not read).
    pub(crate) fn unknown() -> Touch {
        Touch { unknown: true, ..Touch::default() }
    }

    /// Whether some pattern may root at a node below `x` that overlaps `changed` (the bytes
    /// whose syntax changed): such a match may be new, or gone (a node outside `changed` has
    /// the same subtree as before, so its matches are the old ones). Looks at most at
    /// `budget` nodes; past it, says yes.
    pub(crate) fn roots_below(&self, x: Node, changed: (usize, usize), budget: usize) -> bool {
        if self.unknown || self.roots_anywhere {
            return true;
        }
        any_overlapping_below(x, changed, budget, |node| self.roots.contains(node.kind()))
    }

    /// Whether some match may differ when only the subtree of `path`'s last node X changed
    /// (with the texts of X and its ancestors): `path` runs from the root down to X, each node
    /// with the field it is in.
    pub(crate) fn touched(&self, path: &[(Node, Option<&str>)]) -> bool {
        if self.unknown {
            return true;
        }
        let n = path.len() - 1;
        self.chains.iter().any(|(levels, read)| {
            let depth = levels.len() - 1;
            (0..=n).any(|j| {
                let m = n - j;
                let fits = (0..=depth.min(m)).all(|k| {
                    let (node, field) = path[j + k];
                    // The root's field is its parent's business: not checked.
                    let in_field =
                        k == 0 || levels[k].1.as_deref().is_none_or(|f| Some(f) == field);
                    in_field
                        && match &levels[k].0 {
                            None => true,
                            Some(kinds) => kinds.iter().any(|kind| kind == node.kind()),
                        }
                });
                fits && (depth >= m || *read)
            })
        })
    }
}

/// Whether `hit` holds for some node below `x` that overlaps `span` (bytes), walking down
/// only through such nodes (one outside `span` has the subtree it had before an edit that
/// changed only `span`). Looks at most at `budget` nodes; past it, says yes.
pub(crate) fn any_overlapping_below(
    x: Node,
    span: (usize, usize),
    budget: usize,
    hit: impl Fn(&Node) -> bool,
) -> bool {
    let overlaps = |n: &Node| n.start_byte() <= span.1 && span.0 <= n.end_byte();
    let mut stack: Vec<Node> = vec![x];
    let mut seen = 0usize;
    while let Some(node) = stack.pop() {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor).filter(overlaps) {
            seen += 1;
            if seen > budget || hit(&child) {
                return true;
            }
            stack.push(child);
        }
    }
    false
}

/// Whether a zero-width node (what error recovery inserts) lies just before `node` (or just
/// after it), outside it.
fn zero_width_beside(node: Node, before: bool) -> bool {
    let at = if before { node.start_byte() } else { node.end_byte() };
    let mut current = node;
    while let Some(parent) = current.parent() {
        let mut sibling = if before { current.prev_sibling() } else { current.next_sibling() };
        while let Some(s) = sibling {
            let edge = if before { s.end_byte() } else { s.start_byte() };
            if edge != at {
                break;
            }
            // Down the side facing `node`: a zero-width node there touches `at`.
            let mut d = s;
            loop {
                if d.start_byte() == d.end_byte() {
                    return true;
                }
                let next =
                    if before { d.child(d.child_count().wrapping_sub(1)) } else { d.child(0) };
                match next {
                    Some(c) if (if before { c.end_byte() } else { c.start_byte() }) == at => d = c,
                    _ => break,
                }
            }
            // A sibling of non-zero width ends (or starts) here: nothing further out touches.
            if s.start_byte() != s.end_byte() {
                break;
            }
            sibling = if before { s.prev_sibling() } else { s.next_sibling() };
        }
        current = parent;
        let edge = if before { current.start_byte() } else { current.end_byte() };
        if edge != at {
            break;
        }
    }
    false
}

/// Where a top-level pattern may root, read from its text by the same reader: the named node
/// kinds its root may have (several for an alternation), anywhere (a wildcard, an anonymous
/// node, `ERROR`, or text the reader does not follow), or at a supertype; and the text of each
/// of its predicates (`#eq? @_o "self")`, from `#` to the closing parenthesis; comments left
/// out). Whether the pattern is rooted at all (one top-level node) is the query's to say
/// (`Query::is_pattern_rooted`). For the index's pruning (`pruning.rs`).
pub(crate) fn read_pattern(language: &Language, pattern: &str) -> (Root, Vec<String>) {
    let mut parser = PatternParser::new(pattern, language);
    match parser.read_all() {
        true => (parser.root(), parser.predicates),
        false => (Root::Anywhere, parser.predicates),
    }
}

/// The kinds of the parent of each `@symbol.*` capture of a top-level pattern, when each lies
/// below another node of the pattern (child patterns bind children), `"_"` for any kind; `None`
/// when one is at the pattern's top. What a name read from the symbol's place among its
/// siblings needs: an edit of the parent's children is then one the pattern's chains see
/// ([`Touch`]), and the update knows which nodes' children to watch (`outline::update::renumbers`).
pub(crate) fn symbol_parent_kinds(language: &Language, pattern: &str) -> Option<Vec<String>> {
    let mut parser = PatternParser::new(pattern, language);
    if !parser.read_all() {
        return None;
    }
    let mut kinds = Vec::new();
    for (_, chain) in parser.out.iter().filter(|(name, _)| name.starts_with("symbol.")) {
        match chain.len().checked_sub(2).map(|i| &chain[i].1) {
            None => return None,
            Some(Some(k)) => kinds.extend(k.iter().cloned()),
            Some(None) => kinds.push("_".to_string()),
        }
    }
    (!kinds.is_empty()).then_some(kinds)
}

/// Where a top-level pattern may root ([`read_pattern`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Root {
    /// At nodes of these named kinds.
    Kinds(Vec<String>),
    /// At any node: a wildcard, an anonymous node, or text the reader does not follow.
    Anywhere,
    /// At a supertype (`(expression)`, `(expression/identifier)`): a query cursor started at
    /// the node itself does not match it (it learns supertypes from the node's ancestors).
    Supertype,
}

/// A reader of one pattern's text, just enough to know each capture's depth and the kinds
/// above it (fields, anchors, quantifiers and predicates do not matter here: leaving them
/// out only makes a chain fit more paths).
struct PatternParser<'a> {
    text: &'a [u8],
    at: usize,
    language: &'a Language,
    /// Each capture with its chain of levels, each level with the item it is.
    out: Vec<(String, Vec<(usize, Level)>)>,
    /// Each capture with the item it is attached to.
    attached: Vec<(String, usize)>,
    /// How many items were read.
    items: usize,
    /// Every node of the pattern (named, anonymous or wildcard), with its chain of levels:
    /// what a match binds, captured or not (for [`Touch`]).
    nodes: Vec<Vec<(usize, Level)>>,
    /// The captures a predicate names (`#eq? @_p "cls"`): their text is read.
    read: Vec<String>,
    /// Each predicate's text, from `#` to its closing parenthesis.
    predicates: Vec<String>,
    /// The field each item must be in (`condition: (_)`), by item.
    fields: std::collections::HashMap<usize, String>,
    /// A top-level node is a supertype (or a `supertype/subtype` pair).
    supertype_root: bool,
    /// The field prefix just read, for the item after it.
    field: Option<String>,
}

impl<'a> PatternParser<'a> {
    fn new(text: &'a str, language: &'a Language) -> PatternParser<'a> {
        PatternParser {
            text: text.as_bytes(),
            at: 0,
            language,
            out: vec![],
            attached: vec![],
            items: 0,
            nodes: vec![],
            read: vec![],
            predicates: vec![],
            fields: std::collections::HashMap::new(),
            field: None,
            supertype_root: false,
        }
    }

    /// Skips white space and comments; whether anything is left.
    fn skip_space(&mut self) -> bool {
        while self.at < self.text.len() {
            match self.text[self.at] {
                b';' => {
                    while self.at < self.text.len() && self.text[self.at] != b'\n' {
                        self.at += 1;
                    }
                }
                c if c.is_ascii_whitespace() => self.at += 1,
                _ => return true,
            }
        }
        false
    }

    /// Reads the whole pattern, item after item; false where it is stuck at text it does not
    /// follow (it stops there).
    fn read_all(&mut self) -> bool {
        while self.skip_space() {
            let before = self.at;
            self.item(&[]);
            if self.at == before {
                return false;
            }
        }
        true
    }

    /// Where the pattern read so far may root (see [`read_pattern`]).
    fn root(&self) -> Root {
        if self.supertype_root {
            return Root::Supertype;
        }
        let mut kinds = Vec::new();
        for chain in self.nodes.iter().filter(|chain| chain.len() == 1) {
            match &chain[0].1 {
                Some(k) => kinds.extend(k.iter().cloned()),
                None => return Root::Anywhere,
            }
        }
        if kinds.is_empty() { Root::Anywhere } else { Root::Kinds(kinds) }
    }

    fn peek(&self) -> u8 {
        self.text.get(self.at).copied().unwrap_or(0)
    }

    fn word(&mut self) -> String {
        let start = self.at;
        while self.at < self.text.len()
            && !self.text[self.at].is_ascii_whitespace()
            && !b"()[]\"@:;".contains(&self.text[self.at])
        {
            self.at += 1;
        }
        String::from_utf8_lossy(&self.text[start..self.at]).into_owned()
    }

    fn string(&mut self) {
        self.at += 1;
        while self.at < self.text.len() && self.text[self.at] != b'"' {
            self.at += if self.text[self.at] == b'\\' { 2 } else { 1 };
        }
        self.at += 1;
    }

    /// Skips to the parenthesis closing the one just passed.
    fn close(&mut self) {
        let mut depth = 1;
        while self.at < self.text.len() && depth > 0 {
            match self.text[self.at] {
                b'"' => {
                    self.string();
                    continue;
                }
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
            self.at += 1;
        }
    }

    /// The level of a named node kind: any, for a wildcard, a supertype or `ERROR`.
    fn level(&self, kind: &str) -> Level {
        if kind == "_" || kind.contains('/') || kind == "ERROR" || kind == "MISSING" {
            return None;
        }
        let id = self.language.id_for_node_kind(kind, true);
        if id == 0 || self.language.node_kind_is_supertype(id) {
            return None;
        }
        Some(vec![kind.to_string()])
    }

    /// Reads one item at the depth below `path` (field prefix, node, alternation, group,
    /// string or wildcard, with its quantifiers and captures); the item's level, `Some(None)`
    /// for any kind, `None` when it was no node (a predicate, an anchor, a negated field).
    fn item(&mut self, path: &[(usize, Level)]) -> Option<Level> {
        let id = self.items;
        self.items += 1;
        let field = self.field.take();
        if let Some(f) = &field {
            self.fields.insert(id, f.clone());
        }
        // Whether the item is one node (not a group or an alternation of items, each of which
        // counts on its own).
        let mut node = false;
        let level = match self.peek() {
            b'(' => {
                self.at += 1;
                self.skip_space();
                match self.peek() {
                    b'#' => {
                        let start = self.at;
                        self.close();
                        // The captures the predicate names.
                        let text = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
                        for part in text.split('@').skip(1) {
                            let end = part
                                .find(|c: char| c.is_ascii_whitespace() || c == ')')
                                .unwrap_or(part.len());
                            self.read.push(part[..end].to_string());
                        }
                        self.predicates.push(text);
                        return None;
                    }
                    b'(' | b'[' | b'"' | b'.' | b')' => {
                        // A group of siblings, at this depth.
                        while self.skip_space() && self.peek() != b')' {
                            let before = self.at;
                            self.item(path);
                            if self.at == before {
                                return None;
                            }
                        }
                        self.at += 1;
                        None
                    }
                    _ => {
                        node = true;
                        let kind = self.word();
                        let level = self.level(&kind);
                        if path.is_empty() {
                            let id = self.language.id_for_node_kind(&kind, true);
                            self.supertype_root |= kind.contains('/')
                                || (id != 0 && self.language.node_kind_is_supertype(id));
                        }
                        let mut below = path.to_vec();
                        below.push((id, level.clone()));
                        while self.skip_space() && self.peek() != b')' {
                            let before = self.at;
                            self.item(&below);
                            if self.at == before {
                                return None;
                            }
                        }
                        self.at += 1;
                        level
                    }
                }
            }
            b'[' => {
                self.at += 1;
                let mut kinds = Some(Vec::new());
                while self.skip_space() && self.peek() != b']' {
                    let before = self.at;
                    // A field before the alternation holds each alternative.
                    self.field = field.clone();
                    match (self.item(path), &mut kinds) {
                        (Some(Some(k)), Some(all)) => all.extend(k),
                        (None, _) => {}
                        _ => kinds = None,
                    }
                    if self.at == before {
                        return None;
                    }
                }
                self.at += 1;
                kinds
            }
            b'"' => {
                // An anonymous node: a node the match binds all the same.
                self.string();
                let mut levels = path.to_vec();
                levels.push((id, None));
                self.nodes.push(levels);
                None
            }
            b'.' => {
                self.at += 1;
                return None;
            }
            b'!' => {
                self.at += 1;
                self.word();
                return None;
            }
            _ => {
                let word = self.word();
                if self.peek() == b':' {
                    // A field: the item after it.
                    self.at += 1;
                    self.skip_space();
                    self.field = Some(word);
                    return self.item(path);
                }
                if word != "_" {
                    // A bare word is no node this reader knows (and moves nowhere if empty).
                    return None;
                }
                node = true;
                None
            }
        };
        if node {
            let mut levels = path.to_vec();
            levels.push((id, level.clone()));
            self.nodes.push(levels);
        }
        // Quantifiers and captures.
        loop {
            let before = self.at;
            self.skip_space();
            match self.peek() {
                b'*' | b'+' | b'?' => self.at += 1,
                b'@' => {
                    self.at += 1;
                    let name = self.word();
                    let mut levels = path.to_vec();
                    levels.push((id, level.clone()));
                    self.attached.push((name.clone(), id));
                    self.out.push((name, levels));
                }
                _ => {
                    self.at = before;
                    break;
                }
            }
        }
        Some(level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Registry;

    fn chains(language: &str, text: &str) -> Vec<(String, Vec<Level>)> {
        let language = Registry::builtin().by_id(language).unwrap();
        let grammar = (Registry::builtin().entry(language).grammar)();
        let mut p = PatternParser::new(text, &grammar);
        assert!(p.read_all(), "stuck at {}", &text[p.at..]);
        p.out.into_iter().map(|(n, c)| (n, c.into_iter().map(|(_, l)| l).collect())).collect()
    }

    #[test]
    fn read_pattern_names_where_a_pattern_roots() {
        let grammar =
            (Registry::builtin().entry(Registry::builtin().by_id("python").unwrap()).grammar)();
        let root = |text: &str| read_pattern(&grammar, text).0;
        let kinds = |k: &[&str]| Root::Kinds(k.iter().map(|k| k.to_string()).collect());
        assert_eq!(
            root("((class_definition name: (identifier) @n) @c (#eq? @n \"A\"))"),
            kinds(&["class_definition"])
        );
        assert_eq!(
            root("[(assignment) (for_statement)] @s"),
            kinds(&["assignment", "for_statement"])
        );
        assert_eq!(root("(_ (block)) @s"), Root::Anywhere);
        assert_eq!(root("\"def\" @k"), Root::Anywhere);
        assert_eq!(root("(expression) @e"), Root::Supertype);
        assert_eq!(root("(expression/identifier) @e"), Root::Supertype);
        // A supertype below the root is only a level of the chain.
        assert_eq!(root("(return_statement (expression) @e)"), kinds(&["return_statement"]));
    }

    fn kinds(levels: &[Level]) -> String {
        let level = |l: &Level| l.as_ref().map_or("_".to_string(), |k| k.join("|"));
        levels.iter().map(level).collect::<Vec<_>>().join(" > ")
    }

    /// The start of a region's query over `text`, where `region` is the first occurrence of
    /// `what`: the kind and text of the node, or `None` for the root.
    fn start_of(language: &str, text: &str, what: &str) -> Option<(String, String)> {
        let language = Registry::builtin().by_id(language).unwrap();
        let source = crate::Source::new(locus_doc::Document::new(text, 0), Some(language));
        let config = Registry::builtin().config(language).unwrap();
        let at = text.find(what).unwrap();
        let region = Span { start: at, end: at + what.len() };
        let start = config.ancestry.start(source.tree().unwrap(), region)?;
        Some((start.kind().to_string(), text[start.byte_range()].to_string()))
    }

    /// A function inside a large one starts at itself; where a pattern rooted above can act
    /// inside the region (a computed method name hides what the method holds; a callback's
    /// call, two levels up, makes it a symbol), at that pattern's root.
    #[test]
    fn the_start_is_the_lowest_node_no_pattern_above_reaches_into() {
        let outer = "export function outer() {\n  const a = 1;\n  function inner() {\n    let b = 2;\n  }\n  const c = 3;\n}\n";
        let inner = "function inner() {\n    let b = 2;\n  }";
        assert_eq!(
            start_of("typescript", outer, inner),
            Some(("function_declaration".into(), inner.into()))
        );
        let body = "{\n    let b = 2;\n  }";
        assert_eq!(
            start_of("typescript", outer, body),
            Some(("function_declaration".into(), inner.into())),
            "the function's own patterns look at its body"
        );
        // The class body's own patterns reach into its members (which the method's
        // `@ignore` would have asked for anyway).
        let computed = "class K {\n  [f(x)]() {\n    let b = 2;\n  }\n}\n";
        let class_body = "{\n  [f(x)]() {\n    let b = 2;\n  }\n}";
        assert_eq!(
            start_of("typescript", computed, "{\n    let b"),
            Some(("class_body".into(), class_body.into()))
        );
        let callback = "function f() {\n  x.forEach(() => {\n    let b = 2;\n  });\n}\n";
        assert_eq!(
            start_of("typescript", callback, "() => {\n    let b = 2;\n  }"),
            Some(("call_expression".into(), "x.forEach(() => {\n    let b = 2;\n  })".into()))
        );
        // The whole document: no start below the root.
        assert_eq!(start_of("typescript", outer, outer), None);
    }

    #[test]
    fn chains_follow_the_nesting_of_nodes() {
        let out = chains(
            "typescript",
            r#"((export_statement "default" value: [(function_expression) (arrow_function)] @skip) @symbol.function
  (#set! name "default"))
((comment) @symbol.variable . (comment)* . (_) @_next (#kind-eq? @_next "a" "b"))
(object (spread_element (_) @ignore)) ; a comment (with a parenthesis
(variable_declarator name: (object_pattern (pair_pattern value: (identifier) @name) @symbol.variable))"#,
        );
        let seen: Vec<String> = out.iter().map(|(n, l)| format!("{n}: {}", kinds(l))).collect();
        assert_eq!(
            seen,
            [
                "skip: export_statement > function_expression|arrow_function",
                "symbol.function: export_statement",
                "symbol.variable: comment",
                "_next: _",
                "ignore: object > spread_element > _",
                "name: variable_declarator > object_pattern > pair_pattern > identifier",
                "symbol.variable: variable_declarator > object_pattern > pair_pattern",
            ]
        );
    }
}
