//! Discovery files (`docs/configuration.md`): `<runtime dir>/locus/<pid>.json`, mode 0600, one per
//! running sidecar, so that `locus mcp`, `locus call` and `locus status` can find it.
//!
//! Files of processes that are gone are ignored and removed by whoever lists them.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// One sidecar, as its discovery file describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// The sidecar's process id (the file is `<pid>.json`).
    pub pid: u32,
    /// The MCP endpoint, `http://127.0.0.1:PORT/mcp`.
    pub url: String,
    /// The bearer token every request must carry.
    pub token: String,
    /// The editor's workspace folders (empty until the editor initializes).
    pub workspace_folders: Vec<PathBuf>,
    /// The editor's name, once it introduced itself.
    pub editor: Option<String>,
    /// Locus's version.
    pub version: String,
    /// When the sidecar started (RFC 3339).
    pub started_at: String,
    /// When the editor last sent anything, in milliseconds since the Unix epoch (updated at
    /// most once a second): breaks ties between sidecars serving the same folder.
    #[serde(default)]
    pub last_active_ms: u64,
}

/// The directory discovery files live in: `$XDG_RUNTIME_DIR/locus`, else the user's cache
/// directory (`$XDG_CACHE_HOME/locus`, `~/.cache/locus`), else the system temp dir.
pub fn dir() -> PathBuf {
    let nonempty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(runtime) = nonempty("XDG_RUNTIME_DIR") {
        return runtime.join("locus");
    }
    if let Some(cache) = nonempty("XDG_CACHE_HOME") {
        return cache.join("locus");
    }
    if let Some(home) = nonempty("HOME") {
        return home.join(".cache").join("locus");
    }
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    std::env::temp_dir().join(format!("locus-{uid}"))
}

/// Writes `record` to its file atomically (a temporary file renamed over it), mode 0600, in
/// a directory of mode 0700.
pub fn write(record: &Record) -> io::Result<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
    let dir = dir();
    fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir)?;
    let path = dir.join(format!("{}.json", record.pid));
    let tmp = dir.join(format!(".{}.json.tmp", record.pid));
    let mut file =
        fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&tmp)?;
    // An existing temporary file keeps its old mode: set it again.
    file.set_permissions(fs::Permissions::from_mode(0o600))?;
    file.write_all(&serde_json::to_vec_pretty(record).expect("a record serializes"))?;
    file.write_all(b"\n")?;
    file.sync_all()?;
    drop(file);
    fs::rename(&tmp, &path)?;
    Ok(path)
}

/// Whether process `pid` exists and has not exited. A zombie (exited, not yet reaped by its
/// parent) counts as gone: a killed sidecar stays one until its editor reaps it.
pub fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let r = unsafe { libc::kill(pid, 0) };
    let exists = r == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    exists && !exited(pid)
}

/// Whether `/proc` says process `pid` has exited (state `Z` or `X`); false where there is
/// no `/proc`.
fn exited(pid: libc::pid_t) -> bool {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
    // The state follows the command name, which is in parentheses and may hold any byte.
    let state = stat.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next());
    matches!(state, Some('Z' | 'X'))
}

/// The live sidecars. Files of dead processes are removed; unreadable files are skipped.
pub fn list() -> Vec<Record> {
    let Ok(entries) = fs::read_dir(dir()) else { return Vec::new() };
    let mut records = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(pid) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".json"))
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if !alive(pid) {
            let _ = fs::remove_file(&path);
            continue;
        }
        let Ok(bytes) = fs::read(&path) else { continue };
        match serde_json::from_slice::<Record>(&bytes) {
            Ok(record) if record.pid == pid => records.push(record),
            _ => {}
        }
    }
    records.sort_by_key(|r| r.pid);
    records
}

/// The sidecar that serves `dir`: among those with a workspace folder holding `dir`, the
/// deepest folder wins, then the most recently active editor.
pub fn choose<'a>(records: &'a [Record], dir: &Path) -> Option<&'a Record> {
    let dir = normalize(dir);
    records
        .iter()
        .filter_map(|r| {
            let depth = r
                .workspace_folders
                .iter()
                .map(|f| normalize(f))
                .filter(|f| dir.starts_with(f))
                .map(|f| f.components().count())
                .max()?;
            Some((depth, r.last_active_ms, r))
        })
        .max_by_key(|(depth, active, r)| (*depth, *active, r.pid))
        .map(|(_, _, r)| r)
}

fn normalize(p: &Path) -> PathBuf {
    fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(pid: u32, folders: &[&str], active: u64) -> Record {
        Record {
            pid,
            url: String::new(),
            token: String::new(),
            workspace_folders: folders.iter().map(PathBuf::from).collect(),
            editor: None,
            version: String::new(),
            started_at: String::new(),
            last_active_ms: active,
        }
    }

    #[test]
    fn deepest_folder_wins_then_most_recent() {
        let rs = vec![
            record(1, &["/nonexistent-locus/w"], 10),
            record(2, &["/nonexistent-locus/w/pkg"], 5),
            record(3, &["/nonexistent-locus/w/pkg", "/elsewhere"], 7),
            record(4, &["/nonexistent-locus/other"], 99),
        ];
        let pick = |d: &str| choose(&rs, Path::new(d)).map(|r| r.pid);
        assert_eq!(pick("/nonexistent-locus/w/pkg/src"), Some(3));
        assert_eq!(pick("/nonexistent-locus/w/docs"), Some(1));
        assert_eq!(pick("/nonexistent-locus/w"), Some(1));
        assert_eq!(
            pick("/nonexistent-locus/wx"),
            None,
            "a folder is a path prefix by components, not characters"
        );
        assert_eq!(pick("/"), None);
    }
}
