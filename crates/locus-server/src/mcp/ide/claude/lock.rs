//! The lock file Claude Code finds its IDE by: `<config>/ide/<port>.lock`, where `<config>` is
//! `$CLAUDE_CONFIG_DIR`, else `~/.claude`. The CLI reads `pid` (a dead one's file it
//! deletes), `workspaceFolders` (it connects when one holds its working folder),
//! `ideName`, `transport` and `authToken`; the port is the file's name.

use std::path::PathBuf;

use serde::Serialize;

/// What the lock file says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Lock {
    /// This process, which the CLI checks is alive.
    pub pid: u32,
    /// The editor's workspace folders.
    pub workspace_folders: Vec<String>,
    /// The editor's name, which the CLI shows ("Connected to Neovim").
    pub ide_name: String,
    /// Always `"ws"`: anything else makes the CLI try an older transport.
    pub transport: &'static str,
    /// Whether paths are Windows paths.
    pub running_in_windows: bool,
    /// The token the CLI sends in `X-Claude-Code-Ide-Authorization`.
    pub auth_token: String,
}

/// The folder of the lock files, if there is a home folder or `$CLAUDE_CONFIG_DIR`.
pub fn dir() -> Option<PathBuf> {
    let config = match std::env::var_os("CLAUDE_CONFIG_DIR").filter(|v| !v.is_empty()) {
        Some(config) => PathBuf::from(config),
        None => locus_platform::folders::home()?.join(".claude"),
    };
    Some(config.join("ide"))
}
