//! How the index follows changes: the editor's open documents (their text wins over the
//! disk's), and files and folders changed on disk, from its own watcher or the editor's
//! reports.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Weak;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use locus_scopes::Registry;

use super::build::{Outcome, guarded, outline_file};
use super::{Index, OpenDoc, lock, write};
use crate::file;
use crate::walk;
use locus_platform::process::lower_thread_priority as lower_priority;

impl Index {
    /// Makes the open documents' text win over the disk's: documents new or changed since
    /// the last call are outlined now, and documents no longer open go back to the disk.
    /// Documents outside the folders, or in ignored places, are left out.
    pub fn sync_open(&self, docs: Vec<OpenDoc>) {
        let folders = self.folders();
        let registry = Registry::builtin();
        let mut open = HashSet::new();
        let mut changed = false;
        for d in docs {
            if !folders.iter().any(|f| d.path.starts_with(f)) {
                continue;
            }
            let stamp = (d.doc.version(), d.doc.len_bytes());
            let previous = lock(&self.overlays).get(&d.path).copied();
            if previous.is_none() && !self.admitted(&d.path) {
                continue;
            }
            open.insert(d.path.clone());
            if previous == Some(stamp) {
                continue;
            }
            let language = registry.by_id(&d.language_id).or_else(|| {
                let head = d.doc.slice(0, d.doc.len_bytes().min(256));
                registry.for_path(&d.path, head.lines().next())
            });
            let path = d.path;
            let syms = guarded(&self.config.warnings, &path, || match (language, d.source) {
                (Some(l), _) if !self.config.indexes(l) => Vec::new(),
                // The index query over the editor's tree (not the editor's outline): an open
                // document gives the symbols its text gives on disk.
                (Some(l), Some(source)) if source.has_symbols() => {
                    match locus_scopes::index_outline_of_source(&source) {
                        Some(outline) => file::symbols_of_outline(source.doc(), &outline, l),
                        None => file::symbols_of_doc(d.doc, l),
                    }
                }
                (Some(l), _) => file::symbols_of_doc(d.doc, l),
                (None, _) => Vec::new(),
            })
            .unwrap_or_default();
            // The record and the symbols change together, under both locks, in the order
            // every writer takes them (overlays, then store): a build cannot come between.
            let mut overlays = lock(&self.overlays);
            let mut store = write(&self.store);
            self.insert_capped(&mut store, &path, syms, Some(stamp), &folders);
            overlays.insert(path, stamp);
            changed = true;
        }
        let closed: Vec<PathBuf> = {
            let mut overlays = lock(&self.overlays);
            let closed = overlays.keys().filter(|p| !open.contains(*p)).cloned().collect();
            overlays.retain(|p, _| open.contains(p));
            closed
        };
        if !closed.is_empty() {
            self.apply_paths(closed);
            changed = true;
        }
        if changed {
            self.touch();
        }
    }

    /// A glob for the files this index reads, for an editor's file watcher
    /// (`workspace/didChangeWatchedFiles`).
    pub fn watch_glob(&self) -> String {
        walk::watch_glob(&self.config)
    }

    /// Files or folders changed on disk (`workspace/didChangeWatchedFiles`, or the watcher):
    /// they are read again in the background, within milliseconds.
    pub fn paths_changed(&self, paths: Vec<PathBuf>) {
        if !paths.is_empty() {
            let _ = lock(&self.changes).send(paths);
        }
    }

    /// Reads changed paths again, now: files are re-outlined or forgotten, new folders walked.
    pub fn apply_paths(&self, paths: Vec<PathBuf>) {
        let mut listings: HashMap<PathBuf, HashSet<PathBuf>> = HashMap::new();
        let mut admitted_in = |dir: &Path, path: &Path| {
            listings.entry(dir.to_path_buf()).or_insert_with(|| walk::listing(dir)).contains(path)
        };
        let mut seen = HashSet::new();
        // Whether the store changed (a file read again or forgotten): only then is the cache
        // to be written again; a swap file or an ignored file changes nothing.
        let mut changed = false;
        for path in paths {
            if !seen.insert(path.clone()) {
                continue;
            }
            let parent = path.parent().map(Path::to_path_buf).unwrap_or_default();
            let in_known_dir = lock(&self.dirs).contains(&parent);
            if path.is_dir() {
                let known = lock(&self.dirs).contains(&path);
                if !known && in_known_dir && admitted_in(&parent, &path) {
                    let (files, dirs) = walk::walk(std::slice::from_ref(&path), &self.config, 1);
                    self.watch(&dirs);
                    lock(&self.dirs).extend(dirs);
                    for f in files {
                        changed |= self.update_file(&f);
                    }
                }
            } else if path.is_file() {
                if in_known_dir
                    && walk::admits_name(&path, &self.config)
                    && admitted_in(&parent, &path)
                {
                    changed |= self.update_file(&path);
                } else if !lock(&self.overlays).contains_key(&path) {
                    changed |= write(&self.store).remove(&path);
                }
            } else {
                let overlays = lock(&self.overlays);
                let mut store = write(&self.store);
                if !overlays.contains_key(&path) {
                    changed |= store.remove(&path);
                }
                if lock(&self.dirs).remove(&path) {
                    changed = true;
                    store.remove_under(&path, &overlays);
                    lock(&self.dirs).retain(|d| !d.starts_with(&path));
                }
            }
        }
        self.touch();
        if changed {
            self.cache_changed(false);
        }
    }

    fn admitted(&self, path: &Path) -> bool {
        let dirs = lock(&self.dirs);
        if dirs.is_empty() {
            return true;
        }
        let Some(parent) = path.parent() else { return false };
        dirs.contains(parent) && walk::admits_name(path, &self.config)
    }

    /// Reads one file from disk and sets its symbols (or forgets it when skipped); an open
    /// document keeps the editor's text. Returns whether the store changed.
    fn update_file(&self, path: &Path) -> bool {
        let outcome = outline_file(path, &self.config, self.cache.is_some());
        let folders = self.folders();
        let overlays = lock(&self.overlays);
        if overlays.contains_key(path) {
            return false;
        }
        let mut store = write(&self.store);
        match outcome {
            Outcome::Symbols(syms, fingerprint) => {
                let kept = self.insert_capped(&mut store, path, syms, None, &folders);
                self.set_fingerprint(path, fingerprint.filter(|_| kept));
                true
            }
            Outcome::Skipped(_) | Outcome::NotSource => store.remove(path),
        }
    }

    /// Watches `dirs` (each alone: ignored folders are never watched).
    pub(super) fn watch(&self, dirs: &[PathBuf]) {
        if !self.config.watch {
            return;
        }
        use notify::Watcher;
        let mut watcher = lock(&self.watcher);
        if watcher.is_none() {
            let tx = lock(&self.changes).clone();
            let made = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                if let Ok(event) = event
                    && !matches!(event.kind, notify::EventKind::Access(_))
                {
                    let _ = tx.send(event.paths);
                }
            });
            match made {
                Ok(w) => *watcher = Some(w),
                Err(e) => {
                    *lock(&self.watch_error) = Some(format!("cannot watch for changes: {e}"));
                    return;
                }
            }
        }
        let Some(w) = watcher.as_mut() else { return };
        for d in dirs {
            if let Err(e) = w.watch(d, notify::RecursiveMode::NonRecursive) {
                *lock(&self.watch_error) = Some(format!(
                    "cannot watch {} for changes: {e} (files changed on disk are seen only when the editor reports them)",
                    d.display()
                ));
                return;
            }
        }
    }
}

/// The update thread: gathers changed paths for a few milliseconds, then applies them.
pub(super) fn follow_changes(index: &Weak<Index>, rx: &Receiver<Vec<PathBuf>>) {
    lower_priority();
    while let Ok(mut paths) = rx.recv() {
        let deadline = Instant::now() + Duration::from_millis(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left.min(Duration::from_millis(5))) {
                Ok(more) => paths.extend(more),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
            if left.is_zero() {
                break;
            }
        }
        let Some(index) = index.upgrade() else { return };
        // A panic (outlining is already guarded file by file) must not end the updates.
        let first = paths.first().cloned().unwrap_or_default();
        let _ = guarded(&index.config.warnings, &first, || index.apply_paths(paths));
    }
}
