//! Gemini CLI's IDE mode: MCP over streamable HTTP at `http://127.0.0.1:<port>/mcp` behind a
//! bearer token ([`server`]), found by the CLI through a discovery file in the system's
//! temporary folder: `gemini/ide/gemini-ide-server-<pid>-<port>.json`.
//!
//! The IDE pushes `ide/contextUpdate` (the open files, the active one's cursor and
//! selection, [`context`]); the CLI adds it to its next prompt. The CLI calls `openDiff` when
//! an edit needs the user's permission and hears the verdict as `ide/diffAccepted` or
//! `ide/diffRejected`; `closeDiff` withdraws a proposal.
//!
//! **Invariants.**
//! - The discovery file exists only while the editor is connected, names `ideInfo` (so the CLI
//!   needs no guess of which IDE runs it) and the editor's folders, and is removed with the
//!   sidecar's discovery file.
//! - The files of dead processes, and Locus's own files whose process id another program now
//!   has, are removed whenever one is written.
//! - Every request is checked for a loopback `Host`, no foreign `Origin` and the token, as the
//!   sidecar's are.

pub mod context;
pub mod server;

use std::io;
use std::path::PathBuf;

use serde::Serialize;

use super::Channel;

/// What the discovery file says.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Discovery {
    /// Which program wrote the file (`"locus"`): the CLI reads no more than it knows, and
    /// Locus knows its own files apart when it removes stale ones.
    server: &'static str,
    port: u16,
    /// The workspace folders, joined as PATH is (`:`, `;` on Windows).
    workspace_path: String,
    auth_token: String,
    ide_info: IdeInfo,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct IdeInfo {
    name: String,
    display_name: String,
}

/// The folder of the discovery files: `gemini/ide` in the system's temporary folder, where the
/// CLI looks (Node's `os.tmpdir()`, which reads what Rust's `temp_dir` reads).
pub fn dir() -> PathBuf {
    std::env::temp_dir().join("gemini").join("ide")
}

/// Writes the channel's discovery file for the editor `ide_name` on `folders`.
pub fn publish(channel: &Channel, folders: &[PathBuf], ide_name: &str) -> io::Result<()> {
    let workspace_path = std::env::join_paths(folders)
        .map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("a workspace folder cannot be listed: {e}"),
            )
        })?
        .to_string_lossy()
        .into_owned();
    let discovery = Discovery {
        server: "locus",
        port: channel.port(),
        workspace_path,
        auth_token: channel.token().to_string(),
        ide_info: IdeInfo {
            name: ide_name.to_ascii_lowercase(),
            display_name: ide_name.to_string(),
        },
    };
    let bytes = serde_json::to_vec(&discovery).expect("a discovery record serializes");
    let name = format!("gemini-ide-server-{}-{}.json", std::process::id(), channel.port());
    remove_stale(&dir());
    channel.publish(&dir(), &name, bytes)
}

/// Removes the discovery files of processes no longer alive (a killed editor's Locus): the CLI
/// would take one whose folders hold its own and fail to connect, rather than find the live one.
/// A file Locus wrote whose process id now belongs to another program, or to a process that
/// started after the file was written (ids are reused, by another Locus too), is stale too.
fn remove_stale(dir: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix("gemini-ide-server-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        let Some(pid) = pid.filter(|pid| *pid != std::process::id()) else { continue };
        // Locus's own files are judged as its discovery records are, the file's time standing
        // for the time the record holds.
        let path = entry.path();
        if !locus_platform::process::alive(pid)
            || (written_by_locus(&path)
                && crate::mcp::discovery::sidecar_of_user(pid, written_ms(&path)).is_err())
        {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn written_by_locus(file: &std::path::Path) -> bool {
    std::fs::read(file)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .is_some_and(|v| v["server"] == "locus")
}

/// When `file` was last written, in milliseconds since the epoch; 0 when the system does not
/// say (then no start time is compared).
fn written_ms(file: &std::path::Path) -> u64 {
    std::fs::metadata(file)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis() as u64)
}
