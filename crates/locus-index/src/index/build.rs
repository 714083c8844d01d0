//! Building the index in the background: the folders walked, what the symbol cache holds for
//! them taken, every other file read and outlined on a pool of low-priority threads, all
//! under the memory cap.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::{Index, Skipped, lock, write};
use crate::cache::Fingerprint;
use crate::config::Config;
use crate::file::{self, Sym};
use crate::store::Store;
use crate::walk::{self, Read_, Skip};
use crate::warnings::Reporter;
use locus_platform::process::lower_thread_priority as lower_priority;

impl Index {
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

    /// Sets a file's symbols unless the index is past its memory cap (the file is then left
    /// out, counted, and the cap's message set); returns whether they were set.
    pub(super) fn insert_capped(
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
}

/// What reading and outlining a file gave.
pub(super) enum Outcome {
    /// With the file's fingerprint from before it was read, when it may be cached.
    Symbols(Vec<Sym>, Option<Fingerprint>),
    Skipped(Skip),
    NotSource,
}

/// Reads and outlines a file; a panic doing so skips the file (counted as unreadable, the
/// path logged) instead of stopping the index.
pub(super) fn outline_file(path: &Path, config: &Config, cached: bool) -> Outcome {
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
pub(super) fn guarded<T>(warnings: &Reporter, path: &Path, f: impl FnOnce() -> T) -> Option<T> {
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
    let home = locus_platform::folders::home();
    let same = |a: &Path, b: &Path| {
        a == b
            || matches!((locus_platform::path::canonicalize(a), locus_platform::path::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    };
    folders.into_iter().partition(|f| {
        let root = f.parent().is_none();
        let is_home = home.as_deref().is_some_and(|h| same(f, h));
        !root && !is_home
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

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
