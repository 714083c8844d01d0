//! Answering a query: the tiers over the name maps, the filters, the container part of
//! `Class.method`, and the order of the answer.

use std::collections::HashSet;
use std::ops::Bound;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobMatcher};
use locus_scopes::SymbolKind;

use crate::file::NO_PARENT;
use crate::matching::{self, Fuzzy, fold, key};
use crate::store::{Store, SymRef};

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
    let mut search =
        Search { store, q, found: &mut found, distinct: HashSet::new(), limit, more: false };
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
    ranked.sort_by(|a, b| {
        b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)).then_with(|| {
            let (sa, sb) = (store.sym(a.0), store.sym(b.0));
            sa.name
                .len()
                .cmp(&sb.name.len())
                .then_with(|| store.file(a.0.file).path.cmp(&store.file(b.0.file).path))
                .then(sa.line.cmp(&sb.line))
        })
    });
    ranked.truncate(limit);
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
    limit: usize,
    /// Set when a tier stopped early: more matches exist than the answer holds.
    more: bool,
}

impl Search<'_> {
    /// The tiers, best first. Without a container part, each tier's scores lie below the
    /// previous one's, and within the prefix and word tiers a shorter key scores higher: so
    /// once `limit` symbols are found at some score, whatever comes after cannot outrank
    /// them and the search stops at the end of that score's keys.
    fn tiers(&mut self, name: &str, container: Option<&str>, fuzzy: bool) {
        let store = self.store;
        let container = container.map(ContainerQuery::new);
        let early = container.is_none();
        let k = key(name);
        if let Some(slot) = store.names.get(k.as_str()) {
            for &r in &slot.refs {
                let score = matching::exact(&store.sym(r).name, name);
                self.accept(r, score, container.as_ref());
            }
        }
        let qlen = name.chars().count();
        let mut prefixed: Vec<(usize, &[SymRef])> = store
            .names
            .range::<str, _>((Bound::Excluded(k.as_str()), Bound::Unbounded))
            .take_while(|(key, _)| key.starts_with(k.as_str()))
            .map(|(key, slot)| (key.chars().count(), slot.refs.as_slice()))
            .collect();
        if self.by_length(&mut prefixed, early, |len| matching::prefix(len, qlen), &container) {
            return;
        }
        let folded = fold(name);
        if !folded.is_empty() {
            let flen = folded.chars().count();
            let mut worded: Vec<(usize, &[SymRef])> = store
                .words
                .range::<str, _>((Bound::Included(folded.as_str()), Bound::Unbounded))
                .take_while(|(key, _)| key.starts_with(folded.as_str()))
                .map(|(key, refs)| (key.chars().count(), refs.as_slice()))
                .collect();
            if self.by_length(&mut worded, early, |len| matching::word(len, flen), &container) {
                return;
            }
        }
        // Fuzzy matches only fill an answer the better tiers left short.
        if !fuzzy || (early && self.distinct.len() >= self.limit) {
            return;
        }
        let mut fuzzy = Fuzzy::new(name);
        let mask = fuzzy.mask;
        let ascii = k.is_ascii();
        // Names that hold the query's letters in order, borne by a symbol the kind and path
        // filters admit: cheap checks, so every name is looked at. The matcher then scores the
        // shortest of them, at most FUZZY_BUDGET (the best fuzzy matches are short: nucleo
        // charges every gap), which bounds a query's cost whatever the workspace's size.
        let filtered = !self.q.kinds.is_empty() || self.q.path.is_some();
        let mut candidates: Vec<(usize, usize)> = store
            .flat
            .iter()
            .enumerate()
            .filter(|(_, f)| f.mask & mask == mask && (!ascii || matching::subsequence(&f.key, &k)))
            .filter(|(_, f)| {
                !filtered
                    || store
                        .names
                        .get(&*f.key)
                        .is_some_and(|slot| slot.refs.iter().any(|&r| self.admits(r)))
            })
            .map(|(i, f)| (f.key.len(), i))
            .collect();
        if candidates.len() > FUZZY_BUDGET {
            candidates.select_nth_unstable(FUZZY_BUDGET);
            candidates.truncate(FUZZY_BUDGET);
            self.more = true;
        }
        for (_, i) in candidates {
            let flat = &store.flat[i];
            let Some(score) = fuzzy.score(&store.sym(flat.first).name) else { continue };
            let Some(slot) = store.names.get(&*flat.key) else { continue };
            for &r in &slot.refs {
                self.accept(r, score, container.as_ref());
            }
        }
    }

    /// Accepts the keys' symbols, shortest key first; with `early`, stops after the length
    /// at which `limit` symbols are found and says so (true).
    fn by_length(
        &mut self,
        keys: &mut [(usize, &[SymRef])],
        early: bool,
        score: impl Fn(usize) -> f32,
        container: &Option<ContainerQuery>,
    ) -> bool {
        keys.sort_by_key(|k| k.0);
        let mut i = 0;
        while i < keys.len() {
            let len = keys[i].0;
            let s = score(len);
            while i < keys.len() && keys[i].0 == len {
                for &r in keys[i].1 {
                    self.accept(r, s, container.as_ref());
                }
                i += 1;
            }
            if early && self.distinct.len() >= self.limit {
                self.more |= i < keys.len();
                return true;
            }
        }
        false
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
        self.distinct.insert(r);
    }
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
            } else if s.name.to_lowercase().contains(&self.lower) {
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
