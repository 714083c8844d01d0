//! [`Index`]: the store, its background build, and how it follows the editor and the disk.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Condvar, Mutex, RwLock, Weak};
use std::time::{Duration, Instant, SystemTime};

use locus_doc::Document;
use locus_scopes::{Registry, Source};
use rayon::prelude::*;

use crate::cache::{Cache, Fingerprint, INTERVAL};
use crate::config::Config;
use crate::file::{self, Sym};
use crate::search::{self, Hit, Query};
use crate::store::Store;
use crate::walk::{self, Read_, Skip};
use crate::warnings::Reporter;

/// How far a build is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Files looked at so far.
    pub files_done: usize,
    /// Files to look at (0 while the folders are still being walked).
    pub files_total: usize,
}

/// Files not indexed, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Not valid UTF-8.
    pub not_utf8: usize,
    /// A NUL byte in the first 8 KiB.
    pub binary: usize,
    /// Larger than [`Config::max_file_bytes`].
    pub too_large: usize,
    /// Generated and minified (very long lines).
    pub minified: usize,
    /// Could not be read, or outlining it failed (the path is logged).
    pub unreadable: usize,
    /// Left out because the index reached its memory cap.
    pub over_cap: usize,
}

impl Skipped {
    /// All skipped files.
    pub fn total(&self) -> usize {
        self.not_utf8
            + self.binary
            + self.too_large
            + self.minified
            + self.unreadable
            + self.over_cap
    }
}

/// What the index holds, for `bridge_status`.
#[derive(Debug, Clone)]
pub struct Status {
    /// The folders indexed.
    pub folders: Vec<PathBuf>,
    /// Files indexed.
    pub files: usize,
    /// Symbols indexed.
    pub symbols: usize,
    /// Files skipped, by reason.
    pub skipped: Skipped,
    /// An estimate of the index's memory, in bytes.
    pub memory_bytes: usize,
    /// When the index last changed.
    pub last_update: Option<SystemTime>,
    /// Set while the index is being built.
    pub building: Option<Progress>,
    /// How long the last full build took.
    pub build_ms: Option<u64>,
    /// Directories watched for changes on disk, or why watching failed.
    pub watching: Result<usize, String>,
    /// Open documents whose text the index uses instead of the disk's.
    pub open_documents: usize,
    /// Set when the memory cap stopped the index: what to do about it.
    pub capped: Option<String>,
    /// Files of the last build whose symbols came from the symbol cache (not parsed).
    pub from_cache: usize,
    /// The latest of what the index could not do (see [`Reporter`]).
    pub warnings: Vec<String>,
}

/// A search's answer.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The best matches, best first.
    pub hits: Vec<Hit>,
    /// Whether more symbols matched than the answer holds.
    pub more: bool,
    /// Set while the index is still being built: the answer holds what is indexed so far.
    pub building: Option<Progress>,
    /// Set when the memory cap left files out.
    pub capped: Option<String>,
}

/// An open document, as the editor has it.
#[derive(Debug)]
pub struct OpenDoc {
    /// Its file.
    pub path: PathBuf,
    /// Its text, unsaved edits included.
    pub doc: Document,
    /// The editor's language id.
    pub language_id: String,
    /// Its parsed source, when the caller keeps one up to date (the editor state does, and
    /// gives a snapshot of it): its tree is used instead of parsing the text again, and only
    /// when the index needs it (a version not seen yet). The symbols are those of the index
    /// query over that tree, as for a file on disk, not the editor's outline; for a language
    /// with an index query of its own that outline is kept in the source per version
    /// (`Source::index_outline`: after an edit, an update of the last one computed), computed
    /// in [`Index::sync_open`]'s caller's thread, outside the index's locks.
    pub source: Option<Source>,
}

/// The workspace symbol index. Cheap to share (`Arc`); every method may be called from any
/// thread.
pub struct Index {
    config: Config,
    folders: RwLock<Vec<PathBuf>>,
    store: RwLock<Store>,
    /// Bumped when the folders change: a build of an older generation stops.
    generation: AtomicU64,
    building: AtomicBool,
    done: AtomicUsize,
    total: AtomicUsize,
    built: (Mutex<bool>, Condvar),
    skipped: Mutex<Skipped>,
    capped: Mutex<Option<String>>,
    last_update: Mutex<Option<SystemTime>>,
    build_ms: AtomicU64,
    /// Directories the walk visited (what the ignore rules admit), and their watches.
    dirs: Mutex<HashSet<PathBuf>>,
    watcher: Mutex<Option<notify::RecommendedWatcher>>,
    watch_error: Mutex<Option<String>>,
    /// Why folders given were not indexed (the file system's root, the home folder).
    refused: Mutex<Option<String>>,
    /// Open documents whose text replaces the disk's: path → (version, length).
    overlays: Mutex<HashMap<PathBuf, (i32, usize)>>,
    changes: Mutex<Sender<Vec<PathBuf>>>,
    /// The symbol cache, unless it is off.
    cache: Option<Arc<Cache>>,
    /// Files of the last build taken from the cache.
    from_cache: AtomicUsize,
    /// The generation of the build that has taken every usable file of the cache into the
    /// store (0: none yet): from then on a write during the build (`save_cache`) loses nothing
    /// the cache held.
    cache_taken: AtomicU64,
}

impl Drop for Index {
    fn drop(&mut self) {
        if let Some(cache) = &self.cache {
            lock(&cache.writes).closed = true;
            cache.wake.notify_all();
        }
    }
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index").field("folders", &self.folders()).finish()
    }
}

impl Index {
    /// An index of `folders`, built in the background from now on.
    pub fn start(folders: Vec<PathBuf>, config: Config) -> Arc<Index> {
        let (tx, rx) = channel();
        let cache = Cache::new(&config);
        let index = Arc::new(Index {
            config,
            folders: RwLock::new(Vec::new()),
            store: RwLock::new(Store::default()),
            generation: AtomicU64::new(0),
            building: AtomicBool::new(false),
            done: AtomicUsize::new(0),
            total: AtomicUsize::new(0),
            built: (Mutex::new(false), Condvar::new()),
            skipped: Mutex::new(Skipped::default()),
            capped: Mutex::new(None),
            last_update: Mutex::new(None),
            build_ms: AtomicU64::new(0),
            dirs: Mutex::new(HashSet::new()),
            watcher: Mutex::new(None),
            watch_error: Mutex::new(None),
            refused: Mutex::new(None),
            overlays: Mutex::new(HashMap::new()),
            changes: Mutex::new(tx),
            cache: cache.clone(),
            from_cache: AtomicUsize::new(0),
            cache_taken: AtomicU64::new(0),
        });
        if let Some(cache) = cache {
            let weak = Arc::downgrade(&index);
            let spawned = std::thread::Builder::new()
                .name("locus-index-cache".into())
                .spawn(move || write_cache(&cache, &weak));
            if let Err(e) = spawned {
                index.config.warnings.warn(format!("cannot start the symbol cache's writer: {e}"));
            }
        }
        let weak = Arc::downgrade(&index);
        let spawned = std::thread::Builder::new()
            .name("locus-index-updates".into())
            .spawn(move || follow_changes(&weak, &rx));
        if let Err(e) = spawned {
            *lock(&index.watch_error) = Some(format!("cannot start the update thread: {e}"));
        }
        index.set_folders(folders);
        index
    }

    /// The folders indexed.
    pub fn folders(&self) -> Vec<PathBuf> {
        read(&self.folders).clone()
    }

    /// Indexes these folders instead (a full rebuild in the background) when they differ.
    /// The file system's root and the home folder are refused (an editor opened on them
    /// would have the index read the whole disk): the answers say so.
    pub fn set_folders(self: &Arc<Self>, folders: Vec<PathBuf>) {
        let (folders, refused) = refuse_roots(folders);
        *lock(&self.refused) = (!refused.is_empty()).then(|| {
            let names: Vec<String> = refused.iter().map(|f| f.display().to_string()).collect();
            format!(
                "the symbol index does not index {} (the file system's root or the home folder: \
                 it would read the whole disk); open the project's own folder in the editor",
                names.join(", ")
            )
        });
        {
            let mut current = write(&self.folders);
            if *current == folders && self.generation.load(Ordering::SeqCst) > 0 {
                return;
            }
            *current = folders.clone();
        }
        let generation = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        self.building.store(true, Ordering::SeqCst);
        *lock(&self.built.0) = false;
        let index = self.clone();
        let spawned =
            std::thread::Builder::new().name("locus-index-build".into()).spawn(move || {
                if index.build(&folders, generation) {
                    index.cache_changed(true);
                }
            });
        if let Err(e) = spawned {
            *lock(&self.watch_error) = Some(format!("cannot start the index build: {e}"));
            self.finish_build();
        }
    }

    /// Waits until the build under way ends, at most `timeout`; returns whether it ended.
    pub fn wait_built(&self, timeout: Duration) -> bool {
        let (done, cv) = &self.built;
        let guard = lock(done);
        let (guard, _) = cv
            .wait_timeout_while(guard, timeout, |built| !*built)
            .unwrap_or_else(|e| e.into_inner());
        *guard
    }

    /// How far the build is, while one runs.
    pub fn progress(&self) -> Option<Progress> {
        self.building.load(Ordering::SeqCst).then(|| Progress {
            files_done: self.done.load(Ordering::Relaxed),
            files_total: self.total.load(Ordering::Relaxed),
        })
    }

    /// Searches the index.
    pub fn search(&self, query: &Query) -> Answer {
        let store = read(&self.store);
        let (hits, more) = search::run(&store, query);
        Answer { hits, more, building: self.progress(), capped: self.warning() }
    }

    /// What the index holds.
    pub fn status(&self) -> Status {
        let (files, symbols, memory_bytes) = {
            let s = read(&self.store);
            (s.files(), s.symbols, s.bytes)
        };
        let watching = match &*lock(&self.watch_error) {
            Some(e) => Err(e.clone()),
            None => Ok(lock(&self.dirs).len()),
        };
        let build_ms = self.build_ms.load(Ordering::Relaxed);
        Status {
            folders: self.folders(),
            files,
            symbols,
            skipped: *lock(&self.skipped),
            memory_bytes,
            last_update: *lock(&self.last_update),
            building: self.progress(),
            build_ms: (build_ms > 0).then_some(build_ms),
            watching: if self.config.watch { watching } else { Err("not asked to".into()) },
            open_documents: lock(&self.overlays).len(),
            capped: self.warning(),
            from_cache: self.from_cache.load(Ordering::Relaxed),
            warnings: self.config.warnings.kept(),
        }
    }

    /// Why folders were refused, or the memory cap's message.
    fn warning(&self) -> Option<String> {
        lock(&self.refused).clone().or_else(|| lock(&self.capped).clone())
    }

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

    /// Sets a file's symbols unless the index is past its memory cap (the file is then left
    /// out, counted, and the cap's message set); returns whether they were set.
    fn insert_capped(
        &self,
        store: &mut Store,
        path: &Path,
        syms: Vec<Sym>,
        editor: Option<(i32, usize)>,
        folders: &[PathBuf],
    ) -> bool {
        if store.bytes - store.bytes_of(path) > self.config.max_index_bytes {
            store.remove(path);
            lock(&self.skipped).over_cap += 1;
            if lock(&self.capped).is_none() {
                let largest: Vec<String> = store
                    .largest_folders(folders)
                    .into_iter()
                    .take(5)
                    .map(|(f, b)| format!("{} ({} MiB)", f.display(), b >> 20))
                    .collect();
                *lock(&self.capped) = Some(format!(
                    "the symbol index reached its memory cap of {} MiB and left files out; the largest folders: {}; add the ones that are not your code to a .ignore file, or raise LOCUS_INDEX_MAX_MB",
                    self.config.max_index_bytes >> 20,
                    largest.join(", ")
                ));
            }
            return false;
        }
        store.insert(path, syms, editor);
        true
    }

    fn touch(&self) {
        *lock(&self.last_update) = Some(SystemTime::now());
    }

    /// Records the fingerprint of the disk text a file's symbols come from (`None`: they may
    /// not be cached). Called with the store's lock held, after the store changed.
    fn set_fingerprint(&self, path: &Path, fingerprint: Option<Fingerprint>) {
        if let Some(cache) = &self.cache {
            let mut fps = lock(&cache.fingerprints);
            match fingerprint {
                Some(fp) => fps.insert(path.to_path_buf(), fp),
                None => fps.remove(path),
            };
        }
    }

    /// The store changed: the cache is written again, `now` or within [`INTERVAL`].
    fn cache_changed(&self, now: bool) {
        if let Some(cache) = &self.cache {
            let mut w = lock(&cache.writes);
            w.dirty = true;
            w.now |= now;
            cache.wake.notify_all();
        }
    }

    /// Writes the symbol cache now if the index changed since it was last written, after a
    /// write under way ends (for a clean shutdown, a one-shot process that ends, and tests);
    /// does nothing when the cache is off. While a build runs, what it has so far is written
    /// (a process that ends before its build does still warms the cache), once the build has
    /// taken every usable file of the cache into the index: the files not read yet are then
    /// those the cache lacked or held stale, so the write loses nothing the next start could
    /// use. Before that (the folders still being walked) nothing is written and the cache on
    /// disk stays as it was.
    pub fn save_cache(&self) {
        self.try_save_cache(true);
    }

    /// [`Index::save_cache`]; returns false when a build runs and nothing was written (always
    /// unless `partial`).
    fn try_save_cache(&self, partial: bool) -> bool {
        let Some(cache) = &self.cache else { return true };
        let _writing = lock(&cache.writing);
        {
            let mut w = lock(&cache.writes);
            if self.building.load(Ordering::SeqCst) {
                let generation = self.generation.load(Ordering::SeqCst);
                if !partial || self.cache_taken.load(Ordering::SeqCst) != generation {
                    return false;
                }
                // `dirty` stays: the build's end writes the whole store.
            } else {
                if !w.dirty {
                    return true;
                }
                w.dirty = false;
                w.now = false;
                w.last = Some(Instant::now());
            }
        }
        // A snapshot: the symbols are shared, so the store's lock is held for a moment.
        let files: Vec<_> = {
            let store = read(&self.store);
            let fps = lock(&cache.fingerprints);
            store
                .disk_files()
                .filter_map(|(p, syms)| Some((p.clone(), syms.clone(), *fps.get(&**p)?)))
                .collect()
        };
        cache.write(&self.folders(), &files, &self.config);
        true
    }

    /// Builds the index of `folders`; returns whether it read files the cache lacks (or the
    /// cache holds files that are gone), so the cache should be written.
    fn build(self: &Arc<Self>, folders: &[PathBuf], generation: u64) -> bool {
        // The walk's threads and the outlining pool are started from here: they inherit it.
        lower_priority();
        // Whatever happens below (a panic included), a build still current ends as built.
        let _finish = FinishBuild { index: self, generation };
        let started = Instant::now();
        let current = || self.generation.load(Ordering::SeqCst) == generation;
        self.done.store(0, Ordering::SeqCst);
        self.total.store(0, Ordering::SeqCst);
        let threads = self.config.threads.max(1);
        // The cache is read while the folders are walked.
        let ((files, dirs), mut cached) = std::thread::scope(|s| {
            let loader = self.cache.as_ref().map(|c| s.spawn(|| c.load(folders, &self.config)));
            let walked = walk::walk(folders, &self.config, threads);
            (walked, loader.and_then(|l| l.join().ok()).unwrap_or_default())
        });
        if !current() {
            return false;
        }
        {
            // The open documents stay, with the editor's symbols: reset under both locks
            // (overlays, then store), so no sync comes between; those outside the new
            // folders go back to nothing.
            let mut overlays = lock(&self.overlays);
            let mut store = write(&self.store);
            let mut fresh = Store::default();
            if let Some(cache) = &self.cache {
                lock(&cache.fingerprints).clear();
            }
            overlays.retain(|path, _| {
                if !folders.iter().any(|f| path.starts_with(f)) {
                    return false;
                }
                if let Some((syms, editor)) = store.entry(path) {
                    fresh.insert(path, syms, editor);
                }
                true
            });
            *store = fresh;
        }
        *lock(&self.skipped) = Skipped::default();
        *lock(&self.capped) = None;
        self.total.store(files.len(), Ordering::SeqCst);
        *lock(&self.dirs) = dirs.iter().cloned().collect();
        *lock(&self.watcher) = None;
        self.watch(&dirs);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("locus-index-{i}"))
            .start_handler(|_| lower_priority())
            .build();
        // Files whose fingerprint is the one cached: their symbols, without reading them;
        // the others are read.
        let mut hits = Vec::new();
        let mut files: Vec<(u64, PathBuf)> = files
            .into_iter()
            .filter_map(|p| {
                let meta = std::fs::metadata(&p).ok();
                let fp = meta.as_ref().map(Fingerprint::of);
                match cached.remove(&p) {
                    Some((was, syms)) if Some(was) == fp => {
                        hits.push((p, syms, was));
                        None
                    }
                    _ => Some((meta.map_or(0, |m| m.len()), p)),
                }
            })
            .collect();
        // Cached files the walk no longer finds (deleted, or ignored now).
        let mut stale = !cached.is_empty();
        drop(cached);
        // Counted as they are taken: an open document keeps the editor's symbols, and a file
        // over the memory cap is left out.
        self.from_cache.store(0, Ordering::Relaxed);
        let mut hits = hits.into_iter().peekable();
        while hits.peek().is_some() && current() {
            let batch: Vec<_> = hits.by_ref().take(64).collect();
            let n = batch.len();
            let overlays = lock(&self.overlays);
            let mut store = write(&self.store);
            for (path, syms, fp) in batch {
                if !overlays.contains_key(&path) {
                    let kept = self.insert_capped(&mut store, &path, syms, None, folders);
                    self.set_fingerprint(&path, kept.then_some(fp));
                    if kept {
                        self.from_cache.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            drop((store, overlays));
            self.done.fetch_add(n, Ordering::Relaxed);
        }
        if current() {
            // Every usable cached file is in the store: a write from now on keeps them.
            self.cache_taken.store(generation, Ordering::SeqCst);
        }
        // Largest files first, one file a task: the pool's threads take the next file as
        // they finish, so no large file starts last and leaves a core idle at the end.
        files.sort_unstable_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let fresh = AtomicBool::new(false);
        let work = |(_, path): &(u64, PathBuf)| {
            if !current() {
                return;
            }
            let outcome = outline_file(path, &self.config, self.cache.is_some());
            if self.commit(vec![(path, outcome)], folders) {
                fresh.store(true, Ordering::Relaxed);
            }
            self.done.fetch_add(1, Ordering::Relaxed);
        };
        match pool {
            Ok(pool) => pool.install(|| files.par_iter().with_max_len(1).for_each(work)),
            Err(_) => files.iter().for_each(work),
        }
        stale |= fresh.into_inner();
        if current() {
            self.build_ms.store(started.elapsed().as_millis().max(1) as u64, Ordering::Relaxed);
            self.touch();
            if stale && let Some(cache) = &self.cache {
                // Marked before the build is reported built, so that a save asked as soon
                // as it is (a one-shot process, a test) writes; the writer is woken after.
                lock(&cache.writes).dirty = true;
            }
        }
        current() && stale
    }

    fn finish_build(&self) {
        self.building.store(false, Ordering::SeqCst);
        let (done, cv) = &self.built;
        *lock(done) = true;
        cv.notify_all();
    }

    /// Inserts a batch of outlined files (open documents keep the editor's text); returns
    /// whether one of them may be cached.
    fn commit(&self, outcomes: Vec<(&PathBuf, Outcome)>, folders: &[PathBuf]) -> bool {
        let mut skipped = Skipped::default();
        let mut cacheable = false;
        {
            let overlays = lock(&self.overlays);
            let mut store = write(&self.store);
            for (path, outcome) in outcomes {
                match outcome {
                    Outcome::Symbols(syms, fingerprint) => {
                        if overlays.contains_key(path.as_path()) {
                            continue;
                        }
                        let kept = self.insert_capped(&mut store, path, syms, None, folders);
                        let fingerprint = fingerprint.filter(|_| kept);
                        cacheable |= fingerprint.is_some();
                        self.set_fingerprint(path, fingerprint);
                    }
                    Outcome::Skipped(Skip::NotUtf8) => skipped.not_utf8 += 1,
                    Outcome::Skipped(Skip::Binary) => skipped.binary += 1,
                    Outcome::Skipped(Skip::TooLarge) => skipped.too_large += 1,
                    Outcome::Skipped(Skip::Minified) => skipped.minified += 1,
                    Outcome::Skipped(Skip::Unreadable) => skipped.unreadable += 1,
                    Outcome::NotSource => {}
                }
            }
        }
        let mut total = lock(&self.skipped);
        total.not_utf8 += skipped.not_utf8;
        total.binary += skipped.binary;
        total.too_large += skipped.too_large;
        total.minified += skipped.minified;
        total.unreadable += skipped.unreadable;
        cacheable
    }

    /// Watches `dirs` (each alone: ignored folders are never watched).
    fn watch(&self, dirs: &[PathBuf]) {
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

/// What reading and outlining a file gave.
enum Outcome {
    /// With the file's fingerprint from before it was read, when it may be cached.
    Symbols(Vec<Sym>, Option<Fingerprint>),
    Skipped(Skip),
    NotSource,
}

/// Reads and outlines a file; a panic doing so skips the file (counted as unreadable, the
/// path logged) instead of stopping the index.
fn outline_file(path: &Path, config: &Config, cached: bool) -> Outcome {
    // Taken before the read: a write after it changes the fingerprint, so symbols are never
    // recorded under a fingerprint newer than their text.
    let fingerprint = if cached { Fingerprint::settled(path) } else { None };
    guarded(&config.warnings, path, || match walk::read(path, config) {
        Read_::Text(text, language) => {
            Outcome::Symbols(file::symbols_of_text(&text, language), fingerprint)
        }
        Read_::Skipped(why) => Outcome::Skipped(why),
        Read_::NotSource => Outcome::NotSource,
    })
    .unwrap_or(Outcome::Skipped(Skip::Unreadable))
}

/// Runs `f` for `path`; a panic is caught and reported with the path (`None`).
fn guarded<T>(warnings: &Reporter, path: &Path, f: impl FnOnce() -> T) -> Option<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => Some(v),
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            warnings.warn(format!("outlining {} failed, skipped: {why}", path.display()));
            None
        }
    }
}

/// Ends the build of `generation` when dropped, if it is still the current one.
struct FinishBuild<'a> {
    index: &'a Index,
    generation: u64,
}

impl Drop for FinishBuild<'_> {
    fn drop(&mut self) {
        if self.index.generation.load(Ordering::SeqCst) == self.generation {
            self.index.finish_build();
        }
    }
}

/// The folders without the file system's root and the home folder, and those left out.
fn refuse_roots(folders: Vec<PathBuf>) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    let same = |a: &Path, b: &Path| {
        a == b
            || matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    };
    folders.into_iter().partition(|f| {
        let root = f.parent().is_none();
        let is_home = home.as_deref().is_some_and(|h| same(f, h));
        !root && !is_home
    })
}

/// The update thread: gathers changed paths for a few milliseconds, then applies them.
fn follow_changes(index: &Weak<Index>, rx: &Receiver<Vec<PathBuf>>) {
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

/// How often the cache's writer looks again while a build defers a write.
const BUILDING_POLL: Duration = Duration::from_millis(200);

/// The cache's writer thread: writes it when asked `now` (a build ended), else at most every
/// [`INTERVAL`] while the index changes; ends with the index.
fn write_cache(cache: &Cache, index: &Weak<Index>) {
    lower_priority();
    let mut w = lock(&cache.writes);
    loop {
        if w.closed {
            return;
        }
        let since = w.last.map_or(INTERVAL, |t| t.elapsed());
        if w.dirty && (w.now || since >= INTERVAL) {
            drop(w);
            let Some(index) = index.upgrade() else { return };
            let saved = index.try_save_cache(false);
            drop(index);
            w = lock(&cache.writes);
            if !saved {
                // A build runs: its end asks again (or this looks again soon).
                w = cache.wake.wait_timeout(w, BUILDING_POLL).unwrap_or_else(|e| e.into_inner()).0;
            }
        } else if w.dirty {
            w = cache.wake.wait_timeout(w, INTERVAL - since).unwrap_or_else(|e| e.into_inner()).0;
        } else {
            w = cache.wake.wait(w).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Lowers the calling thread's priority, so that building the index never delays the
/// editor's messages on a busy machine.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only changes a nice value; with `who = 0` Linux applies it to the
    // calling thread alone (the nice value is per thread there).
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn read<T>(l: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(l: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_outlining_a_file_is_caught_and_the_build_still_ends() {
        let warnings = Reporter::default();
        assert_eq!(guarded(&warnings, Path::new("/x.py"), || 7), Some(7));
        assert!(
            guarded(&warnings, Path::new("/x.py"), || -> u8 { panic!("a bad grammar") }).is_none()
        );
        assert_eq!(warnings.kept(), ["outlining /x.py failed, skipped: a bad grammar"]);
        // A build that unwinds still ends as built.
        let index = Index::start(Vec::new(), Config { watch: false, ..Config::standard() });
        assert!(index.wait_built(Duration::from_secs(30)));
        let generation = index.generation.load(Ordering::SeqCst) + 1;
        index.generation.store(generation, Ordering::SeqCst);
        index.building.store(true, Ordering::SeqCst);
        *lock(&index.built.0) = false;
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _finish = FinishBuild { index: &index, generation };
            panic!("a build that fails");
        }));
        assert!(unwound.is_err());
        assert!(index.wait_built(Duration::from_secs(1)) && index.progress().is_none());
    }
}
