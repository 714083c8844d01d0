//! What the workspace index's pruned extraction (`pruned.rs`) may leave out, read from the
//! index query as data: where each pattern may root (from its text), and which patterns are
//! local-only. Apart from `pruned.rs` so that `query.rs` can compute it without the two
//! modules importing each other.

use tree_sitter::{Language, Node, Query};

use crate::kind::SymbolKind;

/// Kinds that may hold statements: what is declared directly inside one is a local, which the
/// index drops unless [`kept_in_callable`].
pub fn callable(kind: SymbolKind) -> bool {
    matches!(kind, SymbolKind::Function | SymbolKind::Method | SymbolKind::Constructor)
}

/// Kinds the index keeps inside a callable's body: nested definitions. (What a pattern hoists
/// out of the body, Python's `self.x`, is filed under the class instead.)
pub fn kept_in_callable(kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::Function
            | SymbolKind::Method
            | SymbolKind::Constructor
            | SymbolKind::Class
            | SymbolKind::Struct
            | SymbolKind::Interface
            | SymbolKind::Enum
            | SymbolKind::Module
            | SymbolKind::Namespace
    )
}

/// Kinds that are members of what holds them: an object literal's methods, which go with the
/// local that holds the literal.
pub fn member(kind: SymbolKind) -> bool {
    matches!(kind, SymbolKind::Method | SymbolKind::Constructor)
}

/// What the pruning needs to know of one pattern of the query.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PatternFacts {
    /// It uses a property the pruned extraction does not follow (`root.up`, `seed`, `join`,
    /// `level`, `text.match`, `keep`): the language keeps the full query.
    pub refuses: bool,
    /// Every capture it uses makes a symbol of a kind the index drops in a callable, names it
    /// or helps; no `@skip`, `@ignore`, `@range.*`, no `hoist`.
    pub local: bool,
    /// It has a `@symbol` capture.
    pub makes_symbol: bool,
}

/// Where the index query may root, and where that matters inside a callable's body.
#[derive(Debug, Clone)]
pub(crate) struct Pruning {
    /// By node kind id: some pattern may root at such a node.
    any: Vec<bool>,
    /// By node kind id: a pattern that is not local-only may root at such a node.
    kept: Vec<bool>,
}

impl Pruning {
    /// The pruning of the main query `query` compiled from `text`, whose patterns are
    /// `facts`, or `None` when the pruned extraction cannot be shown to equal the full one
    /// (see `pruned.rs`).
    pub(crate) fn new(
        language: &Language,
        query: &Query,
        text: &str,
        facts: &[PatternFacts],
    ) -> Option<Pruning> {
        let count = language.node_kind_count();
        let mut any = vec![false; count];
        let mut kept = vec![false; count];
        let mut last_symbol_maker: Option<usize> = None;
        let mut first_local: Option<usize> = None;
        for (i, f) in facts.iter().enumerate() {
            if f.refuses {
                return None;
            }
            let local = f.local;
            if local && f.makes_symbol {
                first_local.get_or_insert(i);
            } else if f.makes_symbol {
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

    /// Whether a pattern of the set may root at `node`, inside a callable's body or not.
    pub(crate) fn roots(&self, inside: bool, node: Node) -> bool {
        let set = if inside { &self.kept } else { &self.any };
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
