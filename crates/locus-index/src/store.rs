//! The symbols of every indexed file and the name maps that find them.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::file::{NO_PARENT, Sym};
use crate::matching::{char_mask, key, word_keys};

/// A symbol: its file's slot and its index in that file's symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct SymRef {
    pub file: u32,
    pub sym: u32,
}

/// The editor's version and length of an open document.
pub(crate) type Stamp = (i32, usize);

/// One indexed file.
pub(crate) struct FileEntry {
    pub path: Arc<Path>,
    /// Shared, so that the symbol cache's writer takes a snapshot without copying them.
    pub syms: Arc<[Sym]>,
    /// The editor's version and length when the symbols come from an open document.
    pub editor: Option<(i32, usize)>,
    bytes: usize,
}

/// A key of the name maps: a lowercase name (or folded word suffix) with its length in
/// characters, ordered by length first, then text. So the keys of one length that start with a
/// prefix are one range, and the prefix and word tiers find their shortest matches (the best
/// scored) with a seek per length instead of collecting and sorting every key of the prefix.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct NameKey {
    pub chars: u32,
    pub text: Box<str>,
}

impl NameKey {
    pub fn new(text: &str) -> NameKey {
        NameKey { chars: text.chars().count() as u32, text: text.into() }
    }
}

/// Names longer than this many bytes share the last bucket of [`Store::flat`].
const LONGEST_BUCKET: usize = 128;

/// The distinct names of one length (in bytes), as fuzzy matching scans them: their letter
/// masks and their text contiguous, so rejecting a name costs one AND, and checking its
/// letters' order reads memory in sequence rather than chasing a pointer per name (which
/// was most of a query's time). [`Store::names`] gives a name's place here.
#[derive(Default)]
pub(crate) struct Bucket {
    pub masks: Vec<u64>,
    /// The names' keys, in the masks' order.
    pub keys: Vec<NameKey>,
    /// The symbols bearing each name (never empty).
    pub refs: Vec<Vec<SymRef>>,
    /// The keys' text end to end, each the bucket's length (empty in the last bucket, whose
    /// names differ in length).
    text: Vec<u8>,
}

impl Bucket {
    fn push(&mut self, b: usize, mask: u64, key: NameKey, first: SymRef) -> u32 {
        if b < LONGEST_BUCKET {
            self.text.extend_from_slice(key.text.as_bytes());
        }
        self.masks.push(mask);
        self.keys.push(key);
        self.refs.push(vec![first]);
        (self.masks.len() - 1) as u32
    }

    /// The text of key `i`, lowercase.
    pub fn key_bytes(&self, b: usize, i: usize) -> &[u8] {
        if b < LONGEST_BUCKET {
            &self.text[i * b..(i + 1) * b]
        } else {
            self.keys[i].text.as_bytes()
        }
    }

    /// Removes entry `at`; returns the key of the entry moved into its place, if one was.
    fn swap_remove(&mut self, b: usize, at: usize) -> Option<&NameKey> {
        if b < LONGEST_BUCKET {
            let last = self.text.len() - b;
            self.text.copy_within(last.., at * b);
            self.text.truncate(last);
        }
        self.masks.swap_remove(at);
        self.keys.swap_remove(at);
        self.refs.swap_remove(at);
        self.keys.get(at)
    }
}

/// The bucket of [`Store::flat`] that holds a key.
pub(crate) fn bucket_of(key: &NameKey) -> usize {
    key.text.len().min(LONGEST_BUCKET)
}

/// Every indexed file's symbols, and maps from names to them.
#[derive(Default)]
pub(crate) struct Store {
    files: Vec<Option<FileEntry>>,
    free: Vec<u32>,
    by_path: HashMap<Arc<Path>, u32>,
    /// Lowercase names, for exact and prefix matches: each name's place in its bucket of
    /// [`Store::flat`], which holds its symbols.
    pub names: BTreeMap<NameKey, u32>,
    /// Folded suffixes from inner word boundaries: word-boundary matches.
    pub words: BTreeMap<NameKey, Vec<SymRef>>,
    /// Every distinct name once, by length in bytes (index 0 holds the empty name),
    /// for fuzzy matching: shortest first, which is the order it scores them in.
    pub flat: Vec<Bucket>,
    pub symbols: usize,
    /// An estimate of the memory held, in bytes.
    pub bytes: usize,
}

/// Bytes a map entry costs beyond its key's text (node share, the slot, one reference).
const ENTRY_OVERHEAD: usize = 48;

/// Bytes a distinct name costs in [`Store::flat`] beyond its key's text.
const FLAT_ENTRY: usize = size_of::<u64>() + size_of::<NameKey>() + size_of::<Vec<SymRef>>();

impl Store {
    pub fn file(&self, id: u32) -> &FileEntry {
        self.files[id as usize].as_ref().expect("a reference names a live file")
    }

    pub fn sym(&self, r: SymRef) -> &Sym {
        &self.file(r.file).syms[r.sym as usize]
    }

    /// The symbols of a name of [`Store::names`], given its place.
    pub fn name_refs(&self, key: &NameKey, at: u32) -> &[SymRef] {
        &self.flat[bucket_of(key)].refs[at as usize]
    }

    pub fn files(&self) -> usize {
        self.by_path.len()
    }

    /// The container chain of a symbol, outermost first.
    pub fn chain(&self, r: SymRef) -> Vec<&Sym> {
        let file = self.file(r.file);
        let mut chain = Vec::new();
        let mut at = file.syms[r.sym as usize].parent;
        while at != NO_PARENT {
            let s = &file.syms[at as usize];
            chain.push(s);
            at = s.parent;
        }
        chain.reverse();
        chain
    }

    /// Sets a file's symbols, replacing what it had.
    pub fn insert(&mut self, path: &Path, syms: Vec<Sym>, editor: Option<(i32, usize)>) {
        self.remove(path);
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                self.files.push(None);
                (self.files.len() - 1) as u32
            }
        };
        let mut bytes = path.as_os_str().len() + size_of::<FileEntry>() + 64;
        for (i, s) in syms.iter().enumerate() {
            let r = SymRef { file: id, sym: i as u32 };
            let k = NameKey::new(&key(&s.name));
            bytes += s.bytes() + 8;
            match self.names.get(&k) {
                Some(&at) => self.flat[bucket_of(&k)].refs[at as usize].push(r),
                None => {
                    bytes += 3 * k.text.len() + ENTRY_OVERHEAD + FLAT_ENTRY;
                    let b = bucket_of(&k);
                    if self.flat.len() <= b {
                        self.flat.resize_with(b + 1, Bucket::default);
                    }
                    let at = self.flat[b].push(b, char_mask(&s.name), k.clone(), r);
                    self.names.insert(k, at);
                }
            }
            for w in word_keys(&s.name) {
                bytes += 8;
                let w = NameKey::new(&w);
                match self.words.get_mut(&w) {
                    Some(refs) => refs.push(r),
                    None => {
                        bytes += w.text.len() + ENTRY_OVERHEAD;
                        self.words.insert(w, vec![r]);
                    }
                }
            }
        }
        self.symbols += syms.len();
        self.bytes += bytes;
        let path: Arc<Path> = path.into();
        self.by_path.insert(path.clone(), id);
        self.files[id as usize] = Some(FileEntry { path, syms: syms.into(), editor, bytes });
    }

    /// The bytes a file's entry holds (0 when it is not indexed).
    pub fn bytes_of(&self, path: &Path) -> usize {
        self.by_path.get(path).map_or(0, |&id| self.file(id).bytes)
    }

    /// A copy of a file's symbols, with the editor's stamp when they come from an open
    /// document.
    pub fn entry(&self, path: &Path) -> Option<(Vec<Sym>, Option<Stamp>)> {
        let id = *self.by_path.get(path)?;
        let f = self.file(id);
        Some((f.syms.to_vec(), f.editor))
    }

    /// Every file whose symbols come from the disk (not from an open document), with them.
    pub fn disk_files(&self) -> impl Iterator<Item = (&Arc<Path>, &Arc<[Sym]>)> {
        self.files.iter().flatten().filter(|f| f.editor.is_none()).map(|f| (&f.path, &f.syms))
    }

    /// Forgets a file; returns whether it was indexed.
    pub fn remove(&mut self, path: &Path) -> bool {
        let Some(id) = self.by_path.remove(path) else { return false };
        let entry = self.files[id as usize].take().expect("indexed files have entries");
        let mut names = BTreeSet::new();
        let mut words = BTreeSet::new();
        for s in entry.syms.iter() {
            names.insert(NameKey::new(&key(&s.name)));
            words.extend(word_keys(&s.name).iter().map(|w| NameKey::new(w)));
        }
        for k in names {
            let Some(&at) = self.names.get(&k) else { continue };
            let (b, at) = (bucket_of(&k), at as usize);
            let refs = &mut self.flat[b].refs[at];
            refs.retain(|r| r.file != id);
            if refs.is_empty() {
                self.names.remove(&k);
                if let Some(moved) = self.flat[b].swap_remove(b, at)
                    && let Some(slot) = self.names.get_mut(moved)
                {
                    *slot = at as u32;
                }
            }
        }
        for w in words {
            if let Some(refs) = self.words.get_mut(&w) {
                refs.retain(|r| r.file != id);
                if refs.is_empty() {
                    self.words.remove(&w);
                }
            }
        }
        self.symbols -= entry.syms.len();
        self.bytes -= entry.bytes;
        self.free.push(id);
        true
    }

    /// Forgets every file under `dir`, except those in `keep` (open documents).
    pub fn remove_under<V>(&mut self, dir: &Path, keep: &HashMap<PathBuf, V>) {
        let under: Vec<PathBuf> = self
            .by_path
            .keys()
            .filter(|p| p.starts_with(dir) && !keep.contains_key(&***p))
            .map(|p| p.to_path_buf())
            .collect();
        for p in under {
            self.remove(&p);
        }
    }

    /// Index memory by folder one level below each of `roots`, largest first.
    pub fn largest_folders(&self, roots: &[PathBuf]) -> Vec<(PathBuf, usize)> {
        let mut by: HashMap<PathBuf, usize> = HashMap::new();
        for (path, &id) in &self.by_path {
            let root = roots.iter().find(|r| path.starts_with(r));
            let folder = match root {
                Some(r) => {
                    match path.strip_prefix(r).ok().and_then(|rel| rel.components().next()) {
                        Some(first) if path.parent() != Some(r.as_path()) => r.join(first),
                        _ => r.clone(),
                    }
                }
                None => path.parent().map(Path::to_path_buf).unwrap_or_default(),
            };
            *by.entry(folder).or_default() += self.file(id).bytes;
        }
        let mut v: Vec<(PathBuf, usize)> = by.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        v
    }
}

#[cfg(test)]
mod tests {
    use locus_scopes::SymbolKind;

    use super::*;

    fn syms(names: &[&str]) -> Vec<Sym> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| Sym {
                name: (*n).into(),
                signature: format!("def {n}():").into(),
                parent: NO_PARENT,
                kind: SymbolKind::Function,
                start: i as u32 + 1,
                end: i as u32 + 1,
                line: i as u32 + 1,
            })
            .collect()
    }

    /// Every name points at its bucket entry, whose key and text are the name's, and whose
    /// symbols bear it; every bucket entry is in the map.
    fn check(store: &Store) {
        let mut entries = 0;
        for (b, bucket) in store.flat.iter().enumerate() {
            assert_eq!(bucket.masks.len(), bucket.keys.len());
            assert_eq!(bucket.refs.len(), bucket.keys.len());
            for (i, k) in bucket.keys.iter().enumerate() {
                entries += 1;
                assert_eq!(bucket_of(k), b);
                assert_eq!(bucket.key_bytes(b, i), k.text.as_bytes());
                assert_eq!(store.names.get(k), Some(&(i as u32)), "{k:?}");
                assert!(!bucket.refs[i].is_empty());
                for &r in &bucket.refs[i] {
                    assert_eq!(key(&store.sym(r).name), &*k.text);
                }
            }
        }
        assert_eq!(entries, store.names.len());
    }

    #[test]
    fn names_buckets_and_their_text_stay_consistent_through_inserts_and_removals() {
        let long = "x".repeat(LONGEST_BUCKET + 5);
        let longer = "y".repeat(LONGEST_BUCKET + 9);
        let mut store = Store::default();
        store.insert(Path::new("/a.py"), syms(&["abc", "Abd", "abe", "zz", &long, "émile"]), None);
        store.insert(Path::new("/b.py"), syms(&["abc", "abf", &longer, "q"]), None);
        check(&store);
        assert_eq!(store.names.len(), 9);
        // a.py's names go but `abc`, which b.py bears too.
        assert!(store.remove(Path::new("/a.py")));
        check(&store);
        assert_eq!(store.names.len(), 4);
        let abc = NameKey::new("abc");
        assert_eq!(store.name_refs(&abc, store.names[&abc]).len(), 1);
        store.insert(Path::new("/a.py"), syms(&["abd", "abc", "zz"]), None);
        store.insert(Path::new("/b.py"), syms(&["zz"]), None);
        check(&store);
        assert_eq!(store.names.len(), 3);
    }
}
