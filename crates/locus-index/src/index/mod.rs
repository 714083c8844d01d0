//! [`Index`], the workspace symbol index: its state, its API and the plain data it answers
//! with. Building it is `build.rs`'s, following the editor and the disk `watch.rs`'s, and
//! writing the symbol cache `save.rs`'s.

mod build;
mod save;
mod watch;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use locus_doc::Document;
use locus_scopes::Source;

use crate::cache::Cache;
use crate::config::Config;
use crate::search::{self, Hit, Query};
use crate::store::Store;
use save::write_cache;
use watch::follow_changes;

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
    /// The latest of what the index could not do (see [`Reporter`](crate::Reporter)).
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

    fn touch(&self) {
        *lock(&self.last_update) = Some(SystemTime::now());
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
