//! What the workspace index's pruned extraction (`pruned.rs`) may leave out, read from the
//! index query as data: where each pattern may root (its text read by `ancestry.rs`'s pattern
//! reader, the one that tells how far up a pattern reaches), and which patterns are
//! local-only. Apart from `pruned.rs` so that `query.rs` can compute it without the two
//! modules importing each other.

use tree_sitter::{CaptureQuantifier, Language, Node, Query};

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
#[derive(Debug)]
pub(crate) struct Pruning {
    /// By node kind id: some pattern may root at such a node.
    any: Vec<bool>,
    /// By node kind id: a pattern that is not local-only may root at such a node.
    kept: Vec<bool>,
    /// The query's patterns in groups of the same guard, each compiled apart: run at a node
    /// only when its guard holds there.
    pub(crate) groups: Vec<Group>,
}

/// Some patterns of the index query, compiled as a query of their own, and what the text of
/// a node must hold for any of them to match rooted there.
#[derive(Debug)]
pub(crate) struct Group {
    pub(crate) query: Query,
    /// Each of the group's patterns' index in the main query.
    pub(crate) patterns: Vec<usize>,
    /// Each of the group's captures' index in the main query.
    pub(crate) captures: Vec<u32>,
    /// Literal sets: the root's text holds one literal of each, or no pattern of the group
    /// matches there (`#eq? @c "self"` on a capture every match has: `self` is in the text).
    pub(crate) guard: Vec<Vec<String>>,
    /// The group's patterns are local-only ([`PatternFacts::local`]).
    pub(crate) local: bool,
    /// By node kind id: a pattern of the group may root there.
    any: Vec<bool>,
}

impl Group {
    /// Whether a pattern of the group may root at `node` (by kind; the guard and, inside a
    /// callable's body, the local-only rule are the walk's to apply: `pruned.rs`).
    pub(crate) fn roots(&self, node: Node) -> bool {
        self.any.get(node.kind_id() as usize).copied().unwrap_or(true)
    }
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
        compile_part: impl Fn(&[bool]) -> Option<Query> + Sync,
    ) -> Option<Pruning> {
        let count = language.node_kind_count();
        // Per pattern: its guard, and where it roots (by kind id).
        let mut guards: Vec<Vec<Vec<String>>> = Vec::new();
        let mut rooting: Vec<Option<Vec<u16>>> = Vec::new();
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
            let (root, predicates) = crate::ancestry::read_pattern(language, pattern);
            let ids = match root {
                Root::Kinds(kinds) => kind_ids(language, &kinds),
                Root::Anywhere => None,
                // Run at the node alone, the query never matches such a pattern.
                Root::Supertype => return None,
            };
            guards.push(guard(query, i, &predicates));
            rooting.push(ids);
        }
        if let (Some(last), Some(first)) = (last_symbol_maker, first_local)
            && last > first
        {
            return None;
        }
        let keyed: Vec<(bool, &Vec<Vec<String>>)> =
            facts.iter().map(|f| f.local).zip(&guards).collect();
        let mut keys = keyed.clone();
        keys.sort();
        keys.dedup();
        let keeps: Vec<Vec<bool>> =
            keys.iter().map(|key| keyed.iter().map(|k| k == key).collect()).collect();
        // Compiled on two threads: the groups together cost about what the query did.
        let (first, second) = keeps.split_at(keeps.len() / 2);
        let compiled: Vec<Option<Query>> = std::thread::scope(|scope| {
            let other = scope.spawn(|| second.iter().map(|k| compile_part(k)).collect::<Vec<_>>());
            let mut compiled: Vec<Option<Query>> = first.iter().map(|k| compile_part(k)).collect();
            compiled.extend(other.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
            compiled
        });
        let mut groups = Vec::new();
        for ((key, keep), part) in keys.into_iter().zip(keeps).zip(compiled) {
            let part = part?;
            let patterns: Vec<usize> = (0..keep.len()).filter(|&i| keep[i]).collect();
            if part.pattern_count() != patterns.len() {
                return None;
            }
            let captures = part
                .capture_names()
                .iter()
                .map(|name| query.capture_index_for_name(name))
                .collect::<Option<Vec<u32>>>()?;
            // Each pattern compiled alone is the pattern of the main query: the same captures
            // with the same quantifiers (a capture written apart from its pattern's text, which
            // the blanking would drop, shows here).
            for (local, &i) in patterns.iter().enumerate() {
                let mut own = vec![CaptureQuantifier::Zero; query.capture_names().len()];
                for (c, q) in part.capture_quantifiers(local).iter().enumerate() {
                    own[captures[c] as usize] = *q;
                }
                if own.as_slice() != query.capture_quantifiers(i) {
                    return None;
                }
            }
            let mut group_any = vec![false; count];
            for &i in &patterns {
                mark(&mut group_any, &rooting[i]);
            }
            groups.push(Group {
                query: part,
                patterns,
                captures,
                guard: key.1.clone(),
                local: key.0,
                any: group_any,
            });
        }
        // Where some pattern roots, and some that is not local-only: the groups' union.
        let union = |local_too: bool| {
            let mut set = vec![false; count];
            for g in groups.iter().filter(|g| local_too || !g.local) {
                set.iter_mut().zip(&g.any).for_each(|(s, a)| *s |= a);
            }
            set
        };
        Some(Pruning { any: union(true), kept: union(false), groups })
    }

    /// Whether a pattern of the set may root at `node`, inside a callable's body or not.
    pub(crate) fn roots(&self, inside: bool, node: Node) -> bool {
        let set = if inside { &self.kept } else { &self.any };
        // An ERROR node's id lies past the grammar's kinds: any pattern may root there.
        set.get(node.kind_id() as usize).copied().unwrap_or(true)
    }
}

/// Sets the entries of `ids` in `set`, or all of them for `None` (any kind).
fn mark(set: &mut [bool], ids: &Option<Vec<u16>>) {
    match ids {
        Some(ids) => ids.iter().for_each(|&id| set[id as usize] = true),
        None => set.iter_mut().for_each(|b| *b = true),
    }
}

/// Pattern `i`'s guard: for each `#eq? @c "text"` and `#any-of? @c "a" "b"` among its
/// `predicates` (their texts, as `ancestry::read_pattern` reads them: comments left out) on a
/// capture that every match of the pattern has (quantifier one or one-or-more), the literals
/// one of which the capture's text is; a match's captures lie inside its root, so the root's
/// text holds one of each set. Sorted, so that patterns with the same guard compare equal. A
/// literal with an escape is left out (no guard from it).
fn guard(query: &Query, i: usize, predicates: &[String]) -> Vec<Vec<String>> {
    static PREDICATE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"^#(eq|any-of)\?\s+@([\w.]+)((?:\s+"[^"\\]*")+)\s*\)$"#)
            .expect("a valid regex")
    });
    static LITERAL: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r#""([^"\\]*)""#).expect("a valid regex"));
    let quantifiers = query.capture_quantifiers(i);
    let mut sets: Vec<Vec<String>> = Vec::new();
    for found in predicates.iter().filter_map(|p| PREDICATE.captures(p)) {
        let Some(capture) = query.capture_index_for_name(&found[2]) else { continue };
        if !matches!(
            quantifiers.get(capture as usize),
            Some(CaptureQuantifier::One | CaptureQuantifier::OneOrMore)
        ) {
            continue;
        }
        let mut set: Vec<String> =
            LITERAL.captures_iter(&found[3]).map(|l| l[1].to_string()).collect();
        if set.is_empty() || set.iter().any(String::is_empty) {
            continue;
        }
        set.sort();
        set.dedup();
        sets.push(set);
    }
    sets.sort();
    sets.dedup();
    sets
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The guard of the query's only pattern.
    fn guard_of(pattern: &str) -> Vec<Vec<String>> {
        let language: Language = tree_sitter_python::LANGUAGE.into();
        let query = Query::new(&language, pattern).expect("a valid query");
        guard(&query, 0, &crate::ancestry::read_pattern(&language, pattern).1)
    }

    fn sets(sets: &[&[&str]]) -> Vec<Vec<String>> {
        sets.iter().map(|s| s.iter().map(|l| l.to_string()).collect()).collect()
    }

    #[test]
    fn a_guard_holds_the_literals_a_capture_every_match_has_must_equal() {
        // `#eq?` with a literal, and `#any-of?` (one of them), sorted.
        assert_eq!(
            guard_of(
                r#"((attribute object: (identifier) @o attribute: (identifier) @n)
                   (#eq? @o "self") (#any-of? @n "b" "a"))"#
            ),
            sets(&[&["a", "b"], &["self"]])
        );
        // Every alternative has the capture: still one per match.
        assert_eq!(
            guard_of(
                r#"([(assignment left: (identifier) @o) (augmented_assignment left: (identifier) @o)]
                   (#eq? @o "x"))"#
            ),
            sets(&[&["x"]])
        );
    }

    #[test]
    fn no_guard_from_what_does_not_require_a_literal() {
        // Two captures compared, a negation, a regular expression.
        for pattern in [
            r#"((assignment left: (identifier) @a right: (identifier) @b) (#eq? @a @b))"#,
            r#"((assignment left: (identifier) @a) (#not-eq? @a "x"))"#,
            r#"((assignment left: (identifier) @a) (#not-any-of? @a "x" "y"))"#,
            r#"((assignment left: (identifier) @a) (#match? @a "^x$"))"#,
        ] {
            assert_eq!(guard_of(pattern), sets(&[]), "{pattern}");
        }
        // A capture a match may lack (optional, or in one alternative only): the predicate
        // holds without it, so it requires nothing.
        for pattern in [
            r#"((assignment left: (identifier) @a right: (identifier)? @b) (#eq? @b "x"))"#,
            r#"([(assignment left: (identifier) @b) (augmented_assignment)] (#eq? @b "x"))"#,
        ] {
            assert_eq!(guard_of(pattern), sets(&[]), "{pattern}");
        }
        // A predicate in a comment, inside the pattern or after it, is none.
        assert_eq!(
            guard_of("((identifier) @a ; not (#eq? @a \"x\")\n (#eq? @a \"y\")) ; (#eq? @a \"z\")"),
            sets(&[&["y"]])
        );
        // A literal with an escape, or an empty one, is left out.
        assert_eq!(guard_of(r#"((identifier) @a (#eq? @a "a\"b"))"#), sets(&[]));
        assert_eq!(guard_of(r#"((identifier) @a (#eq? @a ""))"#), sets(&[]));
    }
}
