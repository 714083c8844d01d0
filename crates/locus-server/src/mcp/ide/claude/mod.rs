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
use std::path::PathBuf;

use super::Channel;

/// Writes the channel's lock file for the editor `ide_name` on `folders`.
pub fn publish(channel: &Channel, folders: &[PathBuf], ide_name: &str) -> io::Result<()> {
    let dir = lock::dir().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            "no home folder and no CLAUDE_CONFIG_DIR: Claude Code's lock file has no place",
        )
    })?;
    let lock = lock::Lock {
        pid: std::process::id(),
        workspace_folders: folders.iter().map(|f| f.display().to_string()).collect(),
        ide_name: ide_name.to_string(),
        transport: "ws",
        running_in_windows: locus_platform::Os::HOST == locus_platform::Os::Windows,
        auth_token: channel.token().to_string(),
    };
    let bytes = serde_json::to_vec(&lock).expect("a lock serializes");
    channel.publish(&dir, &format!("{}.lock", channel.port()), bytes)
}
