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
    pub syms: Box<[Sym]>,
    /// The editor's version and length when the symbols come from an open document.
    pub editor: Option<(i32, usize)>,
    bytes: usize,
}

/// The symbols with the same lowercase name, and the letters of that name.
pub(crate) struct NameSlot {
    pub refs: Vec<SymRef>,
    /// Its place in [`Store::flat`].
    flat: u32,
}

/// A distinct name as fuzzy matching scans it: contiguous, so a scan of every name costs
/// microseconds, not a walk of the map's nodes.
pub(crate) struct FlatName {
    pub mask: u64,
    /// The lowercase key, and one symbol that bears the name (its original case).
    pub key: Box<str>,
    pub first: SymRef,
}

/// Every indexed file's symbols, and maps from names to them.
#[derive(Default)]
pub(crate) struct Store {
    files: Vec<Option<FileEntry>>,
    free: Vec<u32>,
    by_path: HashMap<Arc<Path>, u32>,
    /// Lowercase names: exact and prefix matches, and the names fuzzy matching scans.
    pub names: BTreeMap<Box<str>, NameSlot>,
    /// Folded suffixes from inner word boundaries: word-boundary matches.
    pub words: BTreeMap<Box<str>, Vec<SymRef>>,
    /// Every distinct name once, for fuzzy matching.
    pub flat: Vec<FlatName>,
    pub symbols: usize,
    /// An estimate of the memory held, in bytes.
    pub bytes: usize,
}

/// Bytes a map entry costs beyond its key's text (node share, the slot, one reference).
const ENTRY_OVERHEAD: usize = 48;

impl Store {
    pub fn file(&self, id: u32) -> &FileEntry {
        self.files[id as usize].as_ref().expect("a reference names a live file")
    }

    pub fn sym(&self, r: SymRef) -> &Sym {
        &self.file(r.file).syms[r.sym as usize]
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
            let k = key(&s.name);
            bytes += s.bytes() + 8;
            match self.names.get_mut(k.as_str()) {
                Some(slot) => slot.refs.push(r),
                None => {
                    bytes += 2 * k.len() + ENTRY_OVERHEAD + size_of::<FlatName>();
                    let flat = self.flat.len() as u32;
                    let mask = char_mask(&s.name);
                    self.flat.push(FlatName { mask, key: k.as_str().into(), first: r });
                    self.names.insert(k.into(), NameSlot { refs: vec![r], flat });
                }
            }
            for w in word_keys(&s.name) {
                bytes += 8;
                match self.words.get_mut(w.as_str()) {
                    Some(refs) => refs.push(r),
                    None => {
                        bytes += w.len() + ENTRY_OVERHEAD;
                        self.words.insert(w.into(), vec![r]);
                    }
                }
            }
        }
        self.symbols += syms.len();
        self.bytes += bytes;
        let path: Arc<Path> = path.into();
        self.by_path.insert(path.clone(), id);
        self.files[id as usize] =
            Some(FileEntry { path, syms: syms.into_boxed_slice(), editor, bytes });
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

    /// Forgets a file; returns whether it was indexed.
    pub fn remove(&mut self, path: &Path) -> bool {
        let Some(id) = self.by_path.remove(path) else { return false };
        let entry = self.files[id as usize].take().expect("indexed files have entries");
        let mut names = BTreeSet::new();
        let mut words = BTreeSet::new();
        for s in &entry.syms {
            names.insert(key(&s.name));
            words.extend(word_keys(&s.name));
        }
        for k in names {
            let Some(slot) = self.names.get_mut(k.as_str()) else { continue };
            slot.refs.retain(|r| r.file != id);
            match slot.refs.first() {
                Some(&first) => self.flat[slot.flat as usize].first = first,
                None => {
                    let at = slot.flat as usize;
                    self.names.remove(k.as_str());
                    self.flat.swap_remove(at);
                    if let Some(moved) = self.flat.get(at)
                        && let Some(slot) = self.names.get_mut(&*moved.key)
                    {
                        slot.flat = at as u32;
                    }
                }
            }
        }
        for w in words {
            if let Some(refs) = self.words.get_mut(w.as_str()) {
                refs.retain(|r| r.file != id);
                if refs.is_empty() {
                    self.words.remove(w.as_str());
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
