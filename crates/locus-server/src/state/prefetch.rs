//! Outlines computed ahead of need, off the editor's thread and outside the state's lock.
//!
//! After an edit to a document whose outline is in use (someone read it since it was opened),
//! the new version's outline is updated on one background thread, so that a context asked a
//! moment later usually finds it ready instead of paying the update (a millisecond or more
//! on a large file). The update is the one a reader would run (the version's outline is
//! computed once, whoever asks first, and the others wait for it), so this adds no work
//! beyond versions nobody reads: while edits come faster than updates, only the newest
//! version waiting is updated (a newer one replaces it), and each update folds in every edit
//! since the last computed outline.
//!
//! **Invariants.** The editor's thread only hands over a snapshot (O(1)) and never waits; a
//! panic while updating is caught (the next reader extracts the outline afresh).

use std::sync::{Condvar, Mutex, OnceLock, PoisonError};

use locus_scopes::Source;

use super::document::DirtyCheck;

struct Slot {
    next: Mutex<Option<(Source, DirtyCheck)>>,
    ready: Condvar,
}

static SLOT: OnceLock<Option<&'static Slot>> = OnceLock::new();

/// Updates `source`'s outline soon, on the background thread, and answers `dirty` (which
/// hashes the whole text when its length is the saved one's); replaces a snapshot handed over
/// before that the thread has not started on.
pub(super) fn outline(source: Source, dirty: DirtyCheck) {
    let Some(slot) = SLOT.get_or_init(start) else { return };
    *slot.next.lock().unwrap_or_else(PoisonError::into_inner) = Some((source, dirty));
    slot.ready.notify_one();
}

/// Starts the thread; `None` if it cannot be started (readers then update outlines
/// themselves, as they would anyway).
fn start() -> Option<&'static Slot> {
    let slot: &'static Slot =
        Box::leak(Box::new(Slot { next: Mutex::new(None), ready: Condvar::new() }));
    std::thread::Builder::new()
        .name("locus-outline".to_string())
        .spawn(move || {
            loop {
                let (source, dirty) = {
                    let mut next = slot.next.lock().unwrap_or_else(PoisonError::into_inner);
                    loop {
                        match next.take() {
                            Some(job) => break job,
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
