//! The sidecar's workspace symbol index (`symbol_search`, `locus symbols`): started in the
//! background when the editor initializes, its folders following the editor's; open
//! documents' text synced from the editor state before each search (so an edit is found at
//! once, and no editor message ever waits for the index); files changed on disk reach it
//! through its own watcher and `workspace/didChangeWatchedFiles`.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use locus_index::{Config, Index, OpenDoc};

use crate::state::Shared;

/// The sidecar's symbol index, once started: the sidecar owns it, and hands clones to the
/// LSP edge and to its MCP host (clones share the one index).
#[derive(Clone, Default)]
pub struct SidecarIndex {
    slot: Arc<Mutex<Option<Arc<Index>>>>,
}

impl SidecarIndex {
    fn slot(&self) -> MutexGuard<'_, Option<Arc<Index>>> {
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts indexing `folders` in the background (or re-targets the running index). What
    /// the index cannot do (a setting, the cache, a file) goes to `warn`, for the caller's
    /// log.
    pub fn start(&self, folders: Vec<PathBuf>, warn: impl Fn(&str) + Send + Sync + 'static) {
        let mut slot = self.slot();
        match &*slot {
            Some(index) => index.set_folders(folders),
            None => {
                let config = Config::standard();
                config.warnings.set_sink(warn);
                *slot = Some(Index::start(folders, config));
            }
        }
    }

    /// The workspace folders changed: the index follows them, if there is one.
    pub fn set_folders(&self, folders: Vec<PathBuf>) {
        if let Some(index) = self.current() {
            index.set_folders(folders);
        }
    }

    /// Files or folders changed on disk, as the editor reports them.
    pub fn paths_changed(&self, paths: Vec<PathBuf>) {
        if let Some(index) = self.current() {
            index.paths_changed(paths);
        }
    }

    /// The editor is shutting down: the symbol cache is written if the index changed since
    /// its last write, before `shutdown` is answered (the `exit` that follows ends the
    /// process, and a write on a thread of its own with it). At most [`SAVE_BOUND`]; returns
    /// false when the write did not end within it (it goes on until the process ends).
    pub async fn save_cache(&self) -> bool {
        save_cache_of(self.current()).await
    }

    /// The index, if one was started.
    pub fn current(&self) -> Option<Arc<Index>> {
        self.slot().clone()
    }

    /// The index with the editor's open documents synced into it (their unsaved text wins
    /// over the disk's). Under the state's lock only snapshots are taken (text and tree
    /// shared); the index outlines a document, in this (the tool call's) thread and outside
    /// the lock, only when it changed since the last sync, with its own query over the
    /// snapshot's tree (so an open file gives the symbols it gives on disk), and no editor
    /// message waits on it.
    pub fn synced(&self, state: &Shared) -> Option<Arc<Index>> {
        let index = self.current()?;
        let docs: Vec<OpenDoc> = state.with(|s| {
            s.outlines()
                .into_iter()
                .filter(|d| !d.path.contains("://"))
                .map(|d| OpenDoc {
                    path: PathBuf::from(d.path),
                    doc: d.doc,
                    language_id: d.language_id,
                    source: d.source,
                })
                .collect()
        });
        index.sync_open(docs);
        Some(index)
    }
}

/// How long the end of a process waits for the symbol cache's write.
const SAVE_BOUND: Duration = Duration::from_secs(2);

/// Writes `index`'s symbol cache (see [`Index::save_cache`]) on a blocking thread, waiting at
/// most [`SAVE_BOUND`]; false when it did not end within it.
pub async fn save_cache_of(index: Option<Arc<Index>>) -> bool {
    let Some(index) = index else { return true };
    let task = tokio::task::spawn_blocking(move || index.save_cache());
    tokio::time::timeout(SAVE_BOUND, task).await.is_ok()
}
