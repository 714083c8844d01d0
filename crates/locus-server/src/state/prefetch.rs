//! Outlines computed ahead of need, off the editor's thread and outside the state's lock.
//!
//! After an edit to a document whose context was asked within the last [`RECENT`] (an agent
//! or the editor's extension reads it: the active document under an agent's calls, mostly),
//! the new version's outline is updated on one background thread, so that a context asked a
//! moment later usually finds it ready instead of paying the update. Documents only the
//! symbol index reads are not updated here: the index outlines them itself, later, on its own
//! low-priority threads.
//!
//! **Cost.** The update is the one a reader would run (the version's outline is computed
//! once, whoever asks first, and the others wait for it), so this adds no work for a version
//! someone reads; for one nobody reads (the user keeps typing after the agent's last call)
//! it is spent for nothing, for up to [`RECENT`] after the last read. One update is about
//! 0.1–0.7 ms after a one-character edit inside a function of the 30k-line TS file (0.38 ms
//! at the MCP bench's place; 1.2–1.9 ms before the region's query started below the root,
//! `locus-scopes`' `ancestry.rs`), more where a callback's call sends it up; a Python
//! edit at module level re-extracts only the gap between two top-level symbols when that is
//! provably a whole extraction's (about 0.1–0.2 ms), else the whole outline (about 100 ms on
//! the 10k-line `checker.py`, 22–25 ms on `argparse.py`; an edit inside a method then its
//! context take about 9.4 ms on `checker.py`; see docs/performance.md). The thread runs at
//! a lower priority (nice 10, as the index's threads) so it never delays the editor's
//! messages on a busy machine.
//!
//! **Queue.** One pending update per document, at most [`MAX_WAITING`] documents: a newer
//! snapshot of a document replaces its waiting one (each update folds in every edit since
//! the last computed outline), and past the bound the document waiting longest is dropped
//! (its next reader updates the outline itself).
//!
//! **Invariants.** The editor's thread only hands over a snapshot (O(1) but for the bounded
//! queue's scan) and never waits for an update; a panic while updating is caught (the next
//! reader extracts the outline afresh).

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use locus_scopes::Source;

use super::document::DirtyCheck;

/// How long after a document's last context its edits are still outlined in the background.
pub(super) const RECENT: Duration = Duration::from_secs(30);

/// How many documents may wait for their update at once.
const MAX_WAITING: usize = 8;

/// The background updates of one editor state: its thread, started at the first update
/// handed over, and ended when the state is dropped.
#[derive(Default)]
pub(super) struct Prefetch {
    /// `None` until the first update; then the thread's queue, or `None` inside if the thread
    /// could not be started (readers then update outlines themselves, as they would anyway).
    worker: Option<Option<Arc<Slot>>>,
    /// How many updates of each document were handed over, for the tests.
    #[cfg(test)]
    handed_over: std::collections::HashMap<String, usize>,
}

type Job = (Source, DirtyCheck);

struct Slot {
    next: Mutex<Queue>,
    ready: Condvar,
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<(String, Job)>,
    /// The state is gone: the thread ends.
    closed: bool,
}

impl Prefetch {
    /// Updates `source`'s outline soon, on the background thread, and answers `dirty` (which
    /// hashes the whole text when its length is the saved one's); replaces the snapshot of
    /// the same document (`key`) handed over before that the thread has not started on.
    pub(super) fn outline(&mut self, key: &str, source: Source, dirty: DirtyCheck) {
        #[cfg(test)]
        {
            *self.handed_over.entry(key.to_string()).or_default() += 1;
        }
        let Some(slot) = self.worker.get_or_insert_with(start) else { return };
        let mut next = slot.next.lock().unwrap_or_else(PoisonError::into_inner);
        wait_in(&mut next.jobs, key, (source, dirty));
        drop(next);
        slot.ready.notify_one();
    }

    /// How many updates of the document `key` were handed to the background thread.
    #[cfg(test)]
    pub(super) fn updates_of(&self, key: &str) -> usize {
        self.handed_over.get(key).copied().unwrap_or(0)
    }
}

impl Drop for Prefetch {
    fn drop(&mut self) {
        if let Some(Some(slot)) = &self.worker {
            slot.next.lock().unwrap_or_else(PoisonError::into_inner).closed = true;
            slot.ready.notify_one();
        }
    }
}

/// Puts `job` in `queue` as `key`'s one waiting job, in place of the one waiting already, or
/// last, dropping the longest waiting past [`MAX_WAITING`].
fn wait_in<T>(queue: &mut VecDeque<(String, T)>, key: &str, job: T) {
    match queue.iter_mut().find(|(k, _)| k == key) {
        Some((_, waiting)) => *waiting = job,
        None => {
            if queue.len() >= MAX_WAITING {
                queue.pop_front();
            }
            queue.push_back((key.to_string(), job));
        }
    }
}

/// Starts the thread; `None` if it cannot be started.
fn start() -> Option<Arc<Slot>> {
    let slot = Arc::new(Slot { next: Mutex::new(Queue::default()), ready: Condvar::new() });
    let thread_slot = slot.clone();
    std::thread::Builder::new()
        .name("locus-outline".to_string())
        .spawn(move || {
            locus_platform::process::lower_thread_priority();
            let slot = thread_slot;
            loop {
                let (source, dirty) = {
                    let mut next = slot.next.lock().unwrap_or_else(PoisonError::into_inner);
                    loop {
                        if next.closed {
                            return;
                        }
                        match next.jobs.pop_front() {
                            Some((_, job)) => break job,
                            None => {
                                next = slot.ready.wait(next).unwrap_or_else(PoisonError::into_inner)
                            }
                        }
                    }
                };
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    source.outline();
                    dirty.get();
                }));
            }
        })
        .ok()
        .map(|_| slot)
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::{MAX_WAITING, wait_in};

    #[test]
    fn each_document_waits_once_and_the_queue_is_bounded() {
        let mut queue = VecDeque::new();
        wait_in(&mut queue, "a", 1);
        wait_in(&mut queue, "b", 1);
        // A's newer version replaces its waiting one, in its place; B's is not dropped.
        wait_in(&mut queue, "a", 2);
        assert_eq!(queue, [("a".to_string(), 2), ("b".to_string(), 1)]);
        for i in 0..MAX_WAITING {
            wait_in(&mut queue, &format!("d{i}"), 0);
        }
        assert_eq!(queue.len(), MAX_WAITING);
        // The longest waiting went first.
        assert!(!queue.iter().any(|(k, _)| k == "a" || k == "b"));
        assert_eq!(queue.back().unwrap().0, format!("d{}", MAX_WAITING - 1));
    }
}
