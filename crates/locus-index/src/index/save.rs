//! Writing the symbol cache: the writer thread, which writes after a build and at most every
//! [`INTERVAL`] while the index changes, and [`Index::save_cache`] for a process that ends.

use std::path::Path;
use std::sync::Weak;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{Index, lock, read};
use crate::cache::{Cache, Fingerprint, INTERVAL};
use locus_platform::process::lower_thread_priority as lower_priority;

impl Index {
    /// Records the fingerprint of the disk text a file's symbols come from (`None`: they may
    /// not be cached). Called with the store's lock held, after the store changed.
    pub(super) fn set_fingerprint(&self, path: &Path, fingerprint: Option<Fingerprint>) {
        if let Some(cache) = &self.cache {
            let mut fps = lock(&cache.fingerprints);
            match fingerprint {
                Some(fp) => fps.insert(path.to_path_buf(), fp),
                None => fps.remove(path),
            };
        }
    }

    /// The store changed: the cache is written again, `now` or within [`INTERVAL`].
    pub(super) fn cache_changed(&self, now: bool) {
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
}

/// How often the cache's writer looks again while a build defers a write.
const BUILDING_POLL: Duration = Duration::from_millis(200);

/// The cache's writer thread: writes it when asked `now` (a build ended), else at most every
/// [`INTERVAL`] while the index changes; ends with the index.
pub(super) fn write_cache(cache: &Cache, index: &Weak<Index>) {
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
