//! Answering a query: the tiers over the name maps, the filters, the container part of
//! `Class.method`, and the order of the answer.
//!
//! **Cost.** A query's cost is bounded by what its answer needs, not by the workspace: the
//! exact tier is one lookup; the prefix and word tiers seek once per key length, shortest
//! (best scored) first, and stop at the length that fills the answer (with a container part,
//! at the first length that cannot score above the answer's floor); the fuzzy tier, which
//! runs only when the others left the answer short, rejects names by a 64-bit letter mask
//! read in sequence, checks the letters' order on the survivors' contiguous text, and scores
//! with nucleo at most [`FUZZY_BUDGET`] of them, the shortest. On the Python standard
//! library (96k symbols, 42k distinct names) a query takes about 60 µs median and 0.6 ms at
//! p99 (`examples/index_dir`; `docs/performance.md`).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashSet};
use std::path::{Path, PathBuf};

use globset::{Glob, GlobMatcher};
use locus_scopes::SymbolKind;

use crate::file::NO_PARENT;
use crate::matching::{self, Fuzzy, fold, key};
use crate::store::{NameKey, Store, SymRef, bucket_of};

/// The most matches one answer holds.
pub const MAX_LIMIT: usize = 200;

/// The most names the fuzzy matcher scores for one query (the shortest candidates).
const FUZZY_BUDGET: usize = 400;

/// What to look for.
#[derive(Debug, Clone)]
pub struct Query {
    /// A name, a part of one, or `Container.name` (`::`, `#` and `->` separate too).
    pub text: String,
    /// Only these kinds (all when empty).
    pub kinds: Vec<SymbolKind>,
    /// Only symbols of files under this folder or matching this glob.
    pub path: Option<PathFilter>,
    /// At most this many matches (1..=[`MAX_LIMIT`]).
    pub limit: usize,
    /// Where the user is: among matches of equal score, the nearest come first.
    pub near: Option<Near>,
}

/// The editor's position, for ranking.
#[derive(Debug, Clone)]
pub struct Near {
    /// The active document.
    pub path: PathBuf,
    /// Its cursor line, 1-based.
    pub line: u32,
}

/// A folder (absolute, or relative to a workspace folder) or a glob over paths relative to
/// a workspace folder (`src/**/*.ts`) or absolute.
#[derive(Debug, Clone)]
pub enum PathFilter {
    /// Files under one of these folders (or these files).
    Under(Vec<PathBuf>),
    /// Files a glob matches.
    Glob(GlobMatcher, Vec<PathBuf>),
}

impl PathFilter {
    /// Reads a `path` parameter: a glob when it has `*`, `?`, `[` or `{`, else a folder.
    pub fn parse(text: &str, folders: &[PathBuf]) -> Result<PathFilter, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("the path filter is empty".into());
        }
        if text.contains(['*', '?', '[', '{']) {
            let glob = Glob::new(text).map_err(|e| format!("`{text}` is not a valid glob: {e}"))?;
            return Ok(PathFilter::Glob(glob.compile_matcher(), folders.to_vec()));
        }
        let given = Path::new(text.trim_end_matches('/'));
        let under = if given.is_absolute() {
            vec![given.to_path_buf()]
        } else {
            folders.iter().map(|f| f.join(given)).collect()
        };
        Ok(PathFilter::Under(under))
    }

    fn admits(&self, path: &Path) -> bool {
        match self {
            PathFilter::Under(dirs) => dirs.iter().any(|d| path.starts_with(d)),
            PathFilter::Glob(glob, folders) => {
                glob.is_match(path)
                    || folders
                        .iter()
                        .filter_map(|f| path.strip_prefix(f).ok())
                        .any(|rel| glob.is_match(rel))
            }
        }
    }
}

/// One match.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The symbol's name.
    pub name: String,
    /// Its kind.
    pub kind: SymbolKind,
    /// Its containers, outermost first.
    pub containers: Vec<(SymbolKind, String)>,
    /// Its file.
    pub path: PathBuf,
    /// First and last line of the whole symbol, 1-based.
    pub start: u32,
    /// Last line.
    pub end: u32,
    /// The line of its name, 1-based.
    pub line: u32,
    /// That line, trimmed.
    pub signature: String,
    /// 1 for an exact match of name and case, down to about 0.1 for a weak fuzzy match.
    pub score: f32,
    /// Whether it comes from an open document's text (unsaved edits included).
    pub from_editor: bool,
}

/// Runs a query over the store; returns the best matches and whether there were more.
pub(crate) fn run(store: &Store, q: &Query) -> (Vec<Hit>, bool) {
    let limit = q.limit.clamp(1, MAX_LIMIT);
    let text = q.text.trim();
    if text.is_empty() {
        return (Vec::new(), false);
    }
    let mut found: Vec<(SymRef, f32)> = Vec::new();
    let mut search = Search {
        store,
        q,
        found: &mut found,
        distinct: HashSet::new(),
        top: BinaryHeap::new(),
        limit,
        more: false,
    };
    match split(text) {
        // `Ledger.balance`: the name by its container; the whole text only as a name that
        // holds the separator (a Markdown heading), never fuzzily.
        Some((container, name)) => {
            search.tiers(text, None, false);
            search.tiers(name, Some(container), true);
        }
        None => search.tiers(text, None, true),
    }
    let more = search.more;
    // A symbol found by two tiers keeps its best score.
    found.sort_by(|a, b| (a.0.file, a.0.sym).cmp(&(b.0.file, b.0.sym)).then(b.1.total_cmp(&a.1)));
    found.dedup_by_key(|f| f.0);
    let more = more || found.len() > limit;
    let mut ranked: Vec<(SymRef, f32, (u8, u32))> =
        found.into_iter().map(|(r, s)| (r, s, nearness(store, r, q.near.as_ref()))).collect();
    // Best score first, then the nearest, the shortest name, the path and the line (the
    // symbol's place last, so that no two compare equal and the answer never depends on the
    // order found). Only the first `limit` are sorted: a fuzzy query finds thousands, and
    // comparing paths was a fifth of its time.
    let order = |a: &(SymRef, f32, (u8, u32)), b: &(SymRef, f32, (u8, u32))| {
        b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)).then_with(|| {
            let (sa, sb) = (store.sym(a.0), store.sym(b.0));
            sa.name
                .len()
                .cmp(&sb.name.len())
                .then_with(|| store.file(a.0.file).path.cmp(&store.file(b.0.file).path))
                .then(sa.line.cmp(&sb.line))
                .then((a.0.file, a.0.sym).cmp(&(b.0.file, b.0.sym)))
        })
    };
    if ranked.len() > limit {
        ranked.select_nth_unstable_by(limit - 1, order);
        ranked.truncate(limit);
    }
    ranked.sort_unstable_by(order);
    let hits = ranked.into_iter().map(|(r, score, _)| hit(store, r, score)).collect();
    (hits, more)
}

/// `Ledger.balance` → (`Ledger`, `balance`), on the last separator.
fn split(text: &str) -> Option<(&str, &str)> {
    ["::", "->", ".", "#"]
        .iter()
        .filter_map(|sep| text.rfind(sep).map(|i| (i, sep.len())))
        .max_by_key(|&(i, _)| i)
        .map(|(i, n)| (text[..i].trim(), text[i + n..].trim()))
        .filter(|(c, n)| !c.is_empty() && !n.is_empty())
}

struct Search<'a> {
    store: &'a Store,
    q: &'a Query,
    found: &'a mut Vec<(SymRef, f32)>,
    /// The distinct symbols in `found` (a symbol two tiers find is there twice).
    distinct: HashSet<SymRef>,
    /// The `limit` best scores distinct symbols were first found with (a min-heap of the
    /// scores' bits, which order as the scores do, all being positive): once full, its least
    /// is a floor under the answer's last score, and keys that cannot score above it are
    /// not looked at (with a container part, where the early stop does not hold).
    top: BinaryHeap<Reverse<u32>>,
    limit: usize,
    /// Set when a tier stopped early: more matches exist than the answer holds.
    more: bool,
}

impl<'a> Search<'a> {
    /// The tiers, best first. Without a container part, each tier's scores lie below the
    /// previous one's, and within the prefix and word tiers a shorter key scores higher: so
    /// once `limit` symbols are found at some score, whatever comes after cannot outrank
    /// them and the search stops at the end of that score's keys.
    fn tiers(&mut self, name: &str, container: Option<&str>, fuzzy: bool) {
        let store = self.store;
        let container = container.map(ContainerQuery::new);
        let early = container.is_none();
        let k = NameKey::new(&key(name));
        if let Some(&at) = store.names.get(&k) {
            for &r in store.name_refs(&k, at) {
                let score = matching::exact(&store.sym(r).name, name);
                self.accept(r, score, container.as_ref());
            }
        }
        let qlen = name.chars().count();
        let refs = |key: &NameKey, &at: &u32| store.name_refs(key, at);
        let prefix = |len| matching::prefix(len, qlen);
        // Longer keys only: the one of the query's length is the exact match.
        if self.by_length(&store.names, refs, &k, k.chars + 1, prefix, &container) {
            return;
        }
        let folded = NameKey::new(&fold(name));
        if !folded.text.is_empty() {
            let flen = folded.chars as usize;
            let word = |len| matching::word(len, flen);
            let from = folded.chars;
            if self.by_length(&store.words, word_refs, &folded, from, word, &container) {
                return;
            }
        }
        // Fuzzy matches only fill an answer the better tiers left short.
        if !fuzzy
            || (early && self.distinct.len() >= self.limit)
            || self.floor().is_some_and(|f| f > matching::FUZZY_MAX)
        {
            return;
        }
        self.fuzzy(name, &k, container.as_ref());
    }

    /// The fuzzy tier. Names that hold the query's letters (a mask AND over a flat array)
    /// in order (a byte loop on the survivors), borne by a symbol the kind and path filters
    /// admit, are gathered shortest first, at most FUZZY_BUDGET of them (the best fuzzy
    /// matches are short: nucleo charges every gap), and only those are scored by the
    /// matcher: a query's cost stays bounded whatever the workspace's size, and the scan stops
    /// as soon as the budget is full.
    fn fuzzy(&mut self, name: &str, k: &NameKey, container: Option<&ContainerQuery>) {
        let store = self.store;
        let mut fuzzy = Fuzzy::new(name);
        let mask = fuzzy.mask;
        let ascii = k.text.is_ascii();
        let filtered = !self.q.kinds.is_empty() || self.q.path.is_some();
        // A match places each of the query's characters on one of the name's: shorter names
        // cannot match (an ASCII query's bytes are its characters).
        let shortest = if ascii { bucket_of(k) } else { 0 };
        let mut candidates: Vec<(usize, usize)> = Vec::new();
        for (b, bucket) in store.flat.iter().enumerate().skip(shortest) {
            if candidates.len() >= FUZZY_BUDGET {
                self.more = true;
                break;
            }
            for (i, &m) in bucket.masks.iter().enumerate() {
                if m & mask != mask
                    || (ascii && !matching::subsequence(bucket.key_bytes(b, i), k.text.as_bytes()))
                    || (filtered && !bucket.refs[i].iter().any(|&r| self.admits(r)))
                {
                    continue;
                }
                candidates.push((b, i));
            }
        }
        if candidates.len() > FUZZY_BUDGET {
            candidates.truncate(FUZZY_BUDGET);
            self.more = true;
        }
        for (b, i) in candidates {
            let refs = &store.flat[b].refs[i];
            let Some(score) = fuzzy.score(&store.sym(refs[0]).name) else { continue };
            for &r in refs {
                self.accept(r, score, container);
            }
        }
    }

    /// Accepts the symbols of the keys of `map` that start with `prefix` and have at least
    /// `from` characters, shortest key first (the length gives the score); without a
    /// container part, stops after the length at which `limit` symbols are found and says so
    /// (true), as it does when the remaining keys cannot score above the answer's floor. Each
    /// length costs one seek in the map, whatever the number of keys the prefix starts.
    fn by_length<V>(
        &mut self,
        map: &'a BTreeMap<NameKey, V>,
        refs: impl Fn(&'a NameKey, &'a V) -> &'a [SymRef],
        prefix: &NameKey,
        from: u32,
        score: impl Fn(usize) -> f32,
        container: &Option<ContainerQuery>,
    ) -> bool {
        let early = container.is_none();
        let mut len = from;
        while let Some((at, keys)) = with_prefix(map, prefix, len) {
            len = at;
            let s = score(len as usize);
            if self.floor().is_some_and(|f| f > s) {
                // Neither these keys nor any after them (longer keys, lower tiers) can
                // make the answer.
                self.more = true;
                return true;
            }
            for (key, v) in keys {
                for &r in refs(key, v) {
                    self.accept(r, s, container.as_ref());
                }
            }
            if early && self.distinct.len() >= self.limit {
                self.more |= with_prefix(map, prefix, len + 1).is_some();
                return true;
            }
            len += 1;
        }
        false
    }

    /// A score the answer's last match is known to reach, once `limit` symbols are found.
    fn floor(&self) -> Option<f32> {
        (self.top.len() >= self.limit).then(|| self.top.peek().map_or(0.0, |b| f32::from_bits(b.0)))
    }

    /// Whether the kind and path filters admit a symbol.
    fn admits(&self, r: SymRef) -> bool {
        let store = self.store;
        if !self.q.kinds.is_empty() && !self.q.kinds.contains(&store.sym(r).kind) {
            return false;
        }
        match &self.q.path {
            Some(filter) => filter.admits(&store.file(r.file).path),
            None => true,
        }
    }

    fn accept(&mut self, r: SymRef, score: f32, container: Option<&ContainerQuery>) {
        let store = self.store;
        if !self.admits(r) {
            return;
        }
        let score = match container {
            None => score,
            Some(c) => match c.factor(store, r) {
                Some(f) => score * f,
                None => return,
            },
        };
        self.found.push((r, score));
        if self.distinct.insert(r) {
            self.top.push(Reverse(score.to_bits()));
            if self.top.len() > self.limit {
                self.top.pop();
            }
        }
    }
}

/// The keys of `map` that start with `prefix` and have the fewest characters, at least
/// `from`: that length and those keys, or `None` when no longer key has the prefix. One seek
/// per length some key of the map has, from `from` up to the answer: a length whose keys do
/// not start with the prefix is left by jumping to the next key's length, never by trying
/// each length in turn (names are not capped in length, see `file.rs`).
fn with_prefix<'m, V>(
    map: &'m BTreeMap<NameKey, V>,
    prefix: &NameKey,
    from: u32,
) -> Option<(u32, impl Iterator<Item = (&'m NameKey, &'m V)> + use<'m, V>)> {
    let mut len = from.max(prefix.chars);
    loop {
        // The prefix itself, as a key of `len` characters, sorts before every such key that
        // starts with it and after every other such key that sorts before them.
        let least = NameKey { chars: len, text: prefix.text.clone() };
        let mut keys = map.range(least..).peekable();
        let (first, _) = keys.peek()?;
        if first.chars == len && first.text.starts_with(&*prefix.text) {
            let text = prefix.text.clone();
            return Some((
                len,
                keys.take_while(move |(key, _)| key.chars == len && key.text.starts_with(&*text)),
            ));
        }
        len = if first.chars > len { first.chars } else { len + 1 };
    }
}

fn word_refs<'s>(_: &'s NameKey, refs: &'s Vec<SymRef>) -> &'s [SymRef] {
    refs
}

/// The container part of a query, lowercase.
struct ContainerQuery {
    lower: String,
}

impl ContainerQuery {
    fn new(text: &str) -> ContainerQuery {
        // `a.b.C.method`: the container nearest the name is what must match.
        let last = split(text).map_or(text, |(_, n)| n);
        ContainerQuery { lower: last.to_lowercase() }
    }

    /// How well a symbol's containers match: 1 when the nearest is named so, less for a
    /// farther one or a prefix; `None` when none matches.
    fn factor(&self, store: &Store, r: SymRef) -> Option<f32> {
        let file = store.file(r.file);
        let mut at = file.syms[r.sym as usize].parent;
        let mut best: Option<f32> = None;
        let mut nearest = true;
        while at != NO_PARENT {
            let s = &file.syms[at as usize];
            let f = if eq_lower(&s.name, &self.lower) {
                if nearest { 1.0 } else { 0.97 }
            } else if nearest && starts_lower(&s.name, &self.lower) {
                0.9
            } else if contains_lower(&s.name, &self.lower) {
                0.8
            } else {
                0.0
            };
            if f > best.unwrap_or(0.0) {
                best = Some(f);
            }
            nearest = false;
            at = s.parent;
        }
        best
    }
}

fn eq_lower(name: &str, lower: &str) -> bool {
    if name.is_ascii() { name.eq_ignore_ascii_case(lower) } else { name.to_lowercase() == lower }
}

fn starts_lower(name: &str, lower: &str) -> bool {
    if name.is_ascii() {
        name.len() >= lower.len()
            && name.is_char_boundary(lower.len())
            && name[..lower.len()].eq_ignore_ascii_case(lower)
    } else {
        name.to_lowercase().starts_with(lower)
    }
}

/// Whether `name`, lowercased, contains `lower`; without allocating for ASCII names (every
/// symbol of a container query's candidates may be asked).
fn contains_lower(name: &str, lower: &str) -> bool {
    if name.is_ascii() && lower.is_ascii() {
        lower.is_empty()
            || name
                .as_bytes()
                .windows(lower.len())
                .any(|w| w.eq_ignore_ascii_case(lower.as_bytes()))
    } else {
        name.to_lowercase().contains(lower)
    }
}

/// How far a symbol is from the user: the same file first (by line distance), then by how
/// many folders its path shares with the active document's.
fn nearness(store: &Store, r: SymRef, near: Option<&Near>) -> (u8, u32) {
    let Some(near) = near else { return (0, 0) };
    let path = &store.file(r.file).path;
    if **path == *near.path {
        return (0, store.sym(r).line.abs_diff(near.line));
    }
    let shared = path.components().zip(near.path.components()).take_while(|(a, b)| a == b).count();
    (1, u32::MAX - shared as u32)
}

fn hit(store: &Store, r: SymRef, score: f32) -> Hit {
    let file = store.file(r.file);
    let s = &file.syms[r.sym as usize];
    Hit {
        name: s.name.to_string(),
        kind: s.kind,
        containers: store.chain(r).iter().map(|c| (c.kind, c.name.to_string())).collect(),
        path: file.path.to_path_buf(),
        start: s.start,
        end: s.end,
        line: s.line,
        signature: s.signature.to_string(),
        score: (score * 1000.0).round() / 1000.0,
        from_editor: file.editor.is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file::Sym;

    /// A symbol of a test file: name, kind, parent index.
    type TestSym<'a> = (&'a str, SymbolKind, u32);

    /// A store of one file per entry.
    fn store(files: &[(&str, &[TestSym])]) -> Store {
        let mut store = Store::default();
        for (path, syms) in files {
            let syms = syms
                .iter()
                .enumerate()
                .map(|(i, &(name, kind, parent))| Sym {
                    name: name.into(),
                    signature: name.into(),
                    parent,
                    kind,
                    start: i as u32 + 1,
                    end: i as u32 + 1,
                    line: i as u32 + 1,
                })
                .collect();
            store.insert(Path::new(path), syms, None);
        }
        store
    }

    fn names(store: &Store, text: &str, limit: usize) -> (Vec<String>, bool) {
        let q = Query { text: text.into(), kinds: Vec::new(), path: None, limit, near: None };
        let (hits, more) = run(store, &q);
        (hits.into_iter().map(|h| format!("{} {:.3}", h.name, h.score)).collect(), more)
    }

    const F: SymbolKind = SymbolKind::Function;

    #[test]
    fn the_prefix_tier_stops_at_the_length_that_fills_the_answer() {
        let s = store(&[(
            "/a.py",
            &[
                ("abcde", F, NO_PARENT),
                ("abc", F, NO_PARENT),
                ("ab", F, NO_PARENT),
                ("abd", F, NO_PARENT),
                ("xab", F, NO_PARENT),
            ],
        )]);
        assert_eq!(
            names(&s, "ab", 3),
            (vec!["ab 1.000".into(), "abc 0.850".into(), "abd 0.850".into()], true)
        );
        // All of them: the word and fuzzy tiers come after, nothing more.
        let (all, more) = names(&s, "ab", 10);
        assert_eq!(all.len(), 5, "{all:?}");
        assert!(!more);
    }

    /// Once the prefix tier fills the answer, whether there is more is one seek per length
    /// the map holds, not one per length up to the longest name (a 20,000-character name made
    /// every query that filled its answer seek 20,000 times, building a key of each length).
    #[test]
    fn more_after_a_full_prefix_tier_jumps_over_absent_lengths() {
        let long = "b".repeat(20_000);
        let long_a1 = format!("a1{}", "c".repeat(20_000));
        let mut syms: Vec<TestSym> = vec![(long.as_str(), F, NO_PARENT)];
        let short: Vec<String> = (0..50).map(|i| format!("a{i}")).collect();
        syms.extend(short.iter().map(|n| (n.as_str(), F, NO_PARENT)));
        let s = store(&[("/a.py", &syms)]);
        let (hits, more) = names(&s, "a1", 5);
        assert_eq!(hits, ["a1 1.000", "a10 0.850", "a11 0.850", "a12 0.850", "a13 0.850"]);
        assert!(more);
        // All of a1's matches fit: nothing longer starts with it.
        let (hits, more) = names(&s, "a1", 11);
        assert_eq!(hits.len(), 11, "{hits:?}");
        assert!(!more);
        // The long name that starts with the prefix is found past every absent length.
        syms.push((long_a1.as_str(), F, NO_PARENT));
        let s = store(&[("/a.py", &syms)]);
        let (hits, more) = names(&s, "a1", 11);
        assert_eq!(hits.len(), 11, "{hits:?}");
        assert!(more, "the 20,002-character a1… is more");
        let (hits, _) = names(&s, "a1", 12);
        assert!(hits[11].starts_with("a1ccc"), "{hits:?}");
    }

    #[test]
    fn prefix_lengths_count_characters_not_bytes() {
        // `éa` is 2 characters (3 bytes): it scores above the 3-character `eab`'s prefix.
        let s = store(&[("/a.py", &[("ébc", F, NO_PARENT), ("éa", F, NO_PARENT)])]);
        assert_eq!(names(&s, "é", 1), (vec!["éa 0.825".into()], true));
    }

    #[test]
    fn a_container_query_keeps_a_longer_name_whose_container_matches_better() {
        let c = SymbolKind::Class;
        let m = SymbolKind::Method;
        let s = store(&[
            ("/a.py", &[("LedgerBook", c, NO_PARENT), ("balance", m, 0)]),
            ("/b.py", &[("Ledger", c, NO_PARENT), ("balance_total", m, 0)]),
        ]);
        // balance_total: prefix 0.785 in `Ledger` (1.0); balance: 0.814 in `LedgerBook` (0.9).
        assert_eq!(names(&s, "Ledger.bal", 1), (vec!["balance_total 0.785".into()], true));
        assert_eq!(names(&s, "Ledger.bal", 5).0, ["balance_total 0.785", "balance 0.733"]);
    }

    #[test]
    fn fuzzy_candidates_are_the_shortest_names_holding_the_letters_in_order() {
        let s = store(&[(
            "/a.py",
            &[
                ("a_very_long_balance_name", F, NO_PARENT),
                ("balance", F, NO_PARENT),
                ("blnc", F, NO_PARENT),
                ("cnlb", F, NO_PARENT),
            ],
        )]);
        let (found, more) = names(&s, "bln", 10);
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].starts_with("blnc "), "{found:?}");
        assert!(!more);
    }
}
