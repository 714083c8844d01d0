//! Claude Code's IDE channel (`/ide`): MCP over a WebSocket on 127.0.0.1, found by the CLI
//! through a lock file ([`lock`]), served by [`server`].
//!
//! The CLI asks the IDE for little: it pushes nothing but `ide_connected`, calls
//! `closeAllDiffTabs` at every turn, `openDiff` when an edit needs the user's permission,
//! then `close_tab`, and `getDiagnostics` around edits. The IDE pushes `selection_changed`
//! as the user moves, which the CLI attaches to the next prompt.
//!
//! **Invariants.**
//! - The lock file exists only while the editor is connected, names this process and the
//!   editor's folders, and is removed with the sidecar's discovery file.
//! - A WebSocket upgrade without the token, or from a page of a foreign origin, is refused
//!   before anything else is read.

pub mod lock;
pub mod server;
mod tools;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use lock::Lock;

/// One channel: its port and token, and the lock file it published.
#[derive(Debug)]
pub struct Channel {
    port: u16,
    token: String,
    published: Mutex<Published>,
    /// How many CLIs are connected.
    agents: AtomicUsize,
}

#[derive(Debug, Default)]
struct Published {
    lock: Option<(PathBuf, Lock)>,
    withdrawn: bool,
}

impl Channel {
    /// A channel on `port` behind `token`.
    pub fn new(port: u16, token: String) -> Channel {
        Channel { port, token, published: Mutex::default(), agents: AtomicUsize::new(0) }
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The token a CLI must send.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// How many CLIs are connected now.
    pub fn agents(&self) -> usize {
        self.agents.load(Ordering::Relaxed)
    }

    pub(crate) fn agent_count(&self) -> &AtomicUsize {
        &self.agents
    }

    /// The lock file, once published.
    pub fn lock_file(&self) -> Option<PathBuf> {
        let published = self.published.lock().unwrap_or_else(PoisonError::into_inner);
        published.lock.as_ref().map(|(path, _)| path.clone())
    }

    /// Writes the lock file for the editor `ide_name` on `folders`, when it says something
    /// new; never after [`Channel::withdraw`].
    pub fn publish(&self, folders: &[PathBuf], ide_name: &str) -> io::Result<()> {
        let dir = lock::dir().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                "no home folder and no CLAUDE_CONFIG_DIR: Claude Code's lock file has no place",
            )
        })?;
        self.publish_in(&dir, folders, ide_name)
    }

    /// [`Channel::publish`] into the lock folder `dir`.
    pub fn publish_in(&self, dir: &Path, folders: &[PathBuf], ide_name: &str) -> io::Result<()> {
        let mut published = self.published.lock().unwrap_or_else(PoisonError::into_inner);
        if published.withdrawn {
            return Ok(());
        }
        let lock = Lock {
            pid: std::process::id(),
            workspace_folders: folders.iter().map(|f| f.display().to_string()).collect(),
            ide_name: ide_name.to_string(),
            transport: "ws",
            running_in_windows: locus_platform::Os::HOST == locus_platform::Os::Windows,
            auth_token: self.token.clone(),
        };
        if published.lock.as_ref().is_some_and(|(_, old)| *old == lock) {
            return Ok(());
        }
        let path = lock::write(dir, self.port, &lock)?;
        published.lock = Some((path, lock));
        Ok(())
    }

    /// Removes the lock file for good.
    pub fn withdraw(&self) {
        let mut published = self.published.lock().unwrap_or_else(PoisonError::into_inner);
        published.withdrawn = true;
        if let Some((path, _)) = published.lock.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        self.withdraw();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_names_this_process_and_goes_with_the_channel() {
        let tmp = std::env::temp_dir().join(format!("locus-claude-lock-{}", std::process::id()));
        let dir = tmp.join("ide");
        let channel = Channel::new(4711, "t0k".into());
        channel.publish_in(&dir, &[PathBuf::from("/ws")], "Neovim").unwrap();
        let path = dir.join("4711.lock");
        let lock: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(lock["pid"], std::process::id());
        assert_eq!(lock["workspaceFolders"], serde_json::json!(["/ws"]));
        assert_eq!(lock["ideName"], "Neovim");
        assert_eq!(lock["transport"], "ws");
        assert_eq!(lock["authToken"], "t0k");
        locus_platform::private::check_dir(&dir, false).unwrap();
        channel.withdraw();
        assert!(!path.exists());
        channel.publish_in(&dir, &[PathBuf::from("/ws")], "Neovim").unwrap();
        assert!(!path.exists(), "a withdrawn channel publishes nothing");
        std::fs::remove_dir_all(tmp).unwrap();
    }
}
