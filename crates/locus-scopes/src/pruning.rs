//! What the workspace index's pruned extraction (`pruned.rs`) may leave out, read from the
//! index query as data: where each pattern may root (its text read by `ancestry.rs`'s pattern
//! reader, the one that tells how far up a pattern reaches), and which patterns are
//! local-only. Apart from `pruned.rs` so that `query.rs` can compute it without the two
//! modules importing each other.

use tree_sitter::{Language, Node, Query};

use crate::ancestry::Root;
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
            // A pattern of several sibling nodes roots at their parent, whatever its kind: not
            // found by running the query at one node.
            if !query.is_pattern_rooted(i) {
                return None;
            }
            let ids = match crate::ancestry::root_kinds(language, pattern) {
                Root::Kinds(kinds) => kind_ids(language, &kinds),
                Root::Anywhere => None,
                // Run at the node alone, the query never matches such a pattern.
                Root::Supertype => return None,
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

/// Every id of the named node kinds `kinds` (aliases share names); `None` (any) for a name
/// the grammar does not have (or a supertype, which [`Root::Supertype`] refuses first).
fn kind_ids(language: &Language, kinds: &[String]) -> Option<Vec<u16>> {
    let mut ids = Vec::new();
    for name in kinds {
        let before = ids.len();
        for id in 0..language.node_kind_count() as u16 {
            if language.node_kind_for_id(id) == Some(name.as_str())
                && language.node_kind_is_named(id)
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
