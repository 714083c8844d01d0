//! The shared handle on the editor state.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::EditorState;

/// A handle on the one editor state of this process; clones share it. Every access takes the
/// lock for the duration of one call, so readers see whole edits only.
#[derive(Clone, Default)]
pub struct Shared {
    inner: Arc<Mutex<EditorState>>,
}

impl Shared {
    /// A fresh, empty state.
    pub fn new() -> Shared {
        Shared::default()
    }

    /// Runs `f` with the state locked. A panic in an earlier holder does not poison it: the
    /// state's own invariants hold between any two statements that could panic.
    pub fn with<R>(&self, f: impl FnOnce(&mut EditorState) -> R) -> R {
        f(&mut lock(&self.inner))
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}
