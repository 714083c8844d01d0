//! Discovery files (`docs/configuration.md`): `<runtime dir>/locus/<pid>.json`, mode 0600, one per
//! running sidecar, so that `locus mcp`, `locus call` and `locus status` can find it.
//!
//! Files of processes that are gone are ignored and removed by whoever lists them.
//!
//! **Invariant:** a file routes an agent only if nobody but the user could have written it
//! and it points where a sidecar of the user listens: the directory is the user's and not
//! group- or world-writable, the file is a regular file of the user with mode 0600, the URL is
//! loopback (`127.0.0.0/8`, `::1`, `localhost`), and the pid is a live `locus lsp` of the user.
//! Anything else is refused with a message on stderr naming the file or directory and why
//! (once per process: see [`Refusals`]). A `lastActiveMs` in the future counts as now.

use std::collections::HashSet;
use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// One sidecar, as its discovery file describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// The sidecar's process id (the file is `<pid>.json`).
    pub pid: u32,
    /// The sidecar's URL, `http://127.0.0.1:PORT/mcp`.
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

/// The directory discovery files live in: `$XDG_RUNTIME_DIR/locus`, else the user's runtime
/// directory that systemd makes (`/run/user/<uid>/locus`: Codex starts MCP servers without
/// `XDG_RUNTIME_DIR`, and must still find an editor started in the desktop session), else the
/// user's cache directory (`$XDG_CACHE_HOME/locus`, `~/.cache/locus`), else the system temp
/// dir.
pub fn dir() -> PathBuf {
    use std::os::unix::fs::MetadataExt;
    let nonempty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(runtime) = nonempty("XDG_RUNTIME_DIR") {
        return runtime.join("locus");
    }
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() };
    let session = PathBuf::from(format!("/run/user/{uid}"));
    if fs::metadata(&session).is_ok_and(|m| m.is_dir() && m.uid() == uid) {
        return session.join("locus");
    }
    if let Some(cache) = nonempty("XDG_CACHE_HOME") {
        return cache.join("locus");
    }
    if let Some(home) = nonempty("HOME") {
        return home.join(".cache").join("locus");
    }
    std::env::temp_dir().join(format!("locus-{uid}"))
}

/// Writes `record` to its file atomically (a temporary file renamed over it), mode 0600, in
/// a directory of mode 0700. A directory that agents would refuse (see the module docs) is
/// refused here too, with the reason.
pub fn write(record: &Record) -> io::Result<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    let dir = dir();
    fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir)?;
    if let Err(why) = check_dir(&dir) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("refusing the discovery directory {}: {why}", dir.display()),
        ));
    }
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

/// The live sidecars whose files can be trusted (see the module docs). Files of dead
/// processes are removed; refused files are named on stderr, each once per `said`.
pub fn list(said: &Refusals) -> Vec<Record> {
    list_in(&dir(), said)
}

/// [`list`] for the discovery directory `dir`.
pub fn list_in(dir: &Path, said: &Refusals) -> Vec<Record> {
    let survey = survey_in(dir);
    for why in survey.refused {
        said.say(why);
    }
    survey.records
}

/// The refusals already named on stderr, so that a process that lists the sidecars on every
/// request (`locus mcp`) names each once. Clones share them.
#[derive(Debug, Clone, Default)]
pub struct Refusals(Arc<Mutex<HashSet<String>>>);

impl Refusals {
    /// Names `message` on stderr, unless it was already.
    fn say(&self, message: String) {
        let mut said = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if said.insert(message.clone()) {
            eprintln!("locus: {message}");
        }
    }
}

/// What a discovery directory holds: the trusted records, and why anything else was refused
/// (for `locus doctor`, which reports rather than warns).
#[derive(Debug, Default)]
pub struct Survey {
    /// The live sidecars whose files can be trusted, by pid.
    pub records: Vec<Record>,
    /// One sentence per refused (or removed stale) file or directory.
    pub refused: Vec<String>,
}

/// Reads `dir` as [`list_in`] does (files of dead processes are removed), returning the
/// refusals instead of printing them.
pub fn survey_in(dir: &Path) -> Survey {
    let mut survey = Survey::default();
    match fs::symlink_metadata(dir) {
        Err(_) => return survey,
        Ok(_) => {
            if let Err(why) = check_dir(dir) {
                survey
                    .refused
                    .push(format!("refusing the discovery directory {}: {why}", dir.display()));
                return survey;
            }
        }
    }
    let Ok(entries) = fs::read_dir(dir) else { return survey };
    let now = now_ms();
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
        match read_trusted(&path, pid) {
            Ok(mut record) => {
                // A time in the future (a skewed clock, or a forgery) must not win every tie.
                record.last_active_ms = record.last_active_ms.min(now);
                survey.records.push(record);
            }
            Err(Refusal::Stale(why)) => {
                // The user's own file, left by a sidecar that was killed, whose pid now
                // belongs to another process.
                let _ = fs::remove_file(&path);
                survey
                    .refused
                    .push(format!("removed the stale discovery file {}: {why}", path.display()));
            }
            Err(Refusal::Untrusted(why)) => {
                survey
                    .refused
                    .push(format!("refusing the discovery file {}: {why}", path.display()));
            }
        }
    }
    survey.records.sort_by_key(|r| r.pid);
    survey
}

/// Why a discovery file is not used.
enum Refusal {
    /// The file is the user's own but its process is not a sidecar any more.
    Stale(String),
    /// The file cannot be trusted.
    Untrusted(String),
}

/// Reads the file of `pid`, checking it as the module docs say.
fn read_trusted(path: &Path, pid: u32) -> Result<Record, Refusal> {
    let untrusted = Refusal::Untrusted;
    // O_NOFOLLOW: a symbolic link is refused rather than followed; the checks below are made
    // on the opened file itself, so it cannot be swapped between check and read.
    let mut file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| untrusted(format!("cannot open it: {e}")))?;
    let meta = file.metadata().map_err(|e| untrusted(format!("cannot stat it: {e}")))?;
    if !meta.is_file() {
        return Err(untrusted("it is not a regular file".into()));
    }
    let me = euid();
    if meta.uid() != me {
        return Err(untrusted(format!("it is owned by uid {}, not by you (uid {me})", meta.uid())));
    }
    let mode = meta.mode() & 0o7777;
    if mode != 0o600 {
        return Err(untrusted(format!(
            "its mode is {mode:04o}, not 0600 (run `chmod 600` on it, or restart the editor)"
        )));
    }
    let mut bytes = Vec::new();
    // A discovery file is a few hundred bytes; a huge one is not read whole.
    (&mut file)
        .take(1 << 20)
        .read_to_end(&mut bytes)
        .map_err(|e| untrusted(format!("cannot read it: {e}")))?;
    let record: Record = serde_json::from_slice(&bytes)
        .map_err(|e| untrusted(format!("it is not a discovery record: {e}")))?;
    if record.pid != pid {
        return Err(untrusted(format!("it names pid {}, not {pid}", record.pid)));
    }
    if !is_loopback_url(&record.url) {
        return Err(untrusted(format!(
            "its URL `{}` is not http on a loopback address (127.0.0.0/8, ::1, localhost)",
            record.url
        )));
    }
    sidecar_of_user(pid).map_err(Refusal::Stale)?;
    Ok(record)
}

/// Whether `dir` can hold trusted files: a directory (not a link) of the user that neither
/// the group nor others may write to.
pub fn check_dir(dir: &Path) -> Result<(), String> {
    let meta = fs::symlink_metadata(dir).map_err(|e| format!("cannot stat it: {e}"))?;
    if !meta.is_dir() {
        return Err("it is not a directory".into());
    }
    let me = euid();
    if meta.uid() != me {
        return Err(format!("it is owned by uid {}, not by you (uid {me})", meta.uid()));
    }
    let mode = meta.mode() & 0o7777;
    if mode & 0o022 != 0 {
        return Err(format!(
            "its mode is {mode:04o}: other users can write to it (run `chmod 700 {}`)",
            dir.display()
        ));
    }
    Ok(())
}

/// Whether `url` is `http://` on a loopback host: `127.0.0.0/8`, `::1` or `localhost`.
pub fn is_loopback_url(url: &str) -> bool {
    let Ok(url) = reqwest::Url::parse(url) else { return false };
    if url.scheme() != "http" || !url.username().is_empty() || url.password().is_some() {
        return false;
    }
    // The URL parser has normalised the host: IPv4 in dotted decimal, IPv6 in brackets,
    // names in lower case.
    let Some(host) = url.host_str() else { return false };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    match host.parse::<std::net::IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => host == "localhost",
    }
}

/// Whether `pid` is a `locus lsp` of this user: `/proc/<pid>` is the user's, its executable
/// (or, where that link is unreadable, its first argument) is named `locus` or `locus…`
/// (`locus-nightly`, a copy beside a release's others) or is this process's own executable
/// file, and it has an `lsp` argument. On systems without `/proc`, liveness is all that is
/// checked. A file failing this is removed as stale (its pid reused), so the name test errs
/// on the side of Locus: an editor started from a renamed binary was once taken for another
/// program, and `locus status` deleted its live sidecar's file.
fn sidecar_of_user(pid: u32) -> Result<(), String> {
    let proc_dir = PathBuf::from(format!("/proc/{pid}"));
    if !Path::new("/proc/self").exists() {
        return Ok(());
    }
    let meta = fs::metadata(&proc_dir).map_err(|e| format!("pid {pid}: {e}"))?;
    let me = euid();
    if meta.uid() != me {
        return Err(format!("pid {pid} belongs to uid {}, not to you (uid {me})", meta.uid()));
    }
    let cmdline = fs::read(proc_dir.join("cmdline")).unwrap_or_default();
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).filter(|a| !a.is_empty()).collect();
    let base = |p: &[u8]| -> Vec<u8> {
        let name = p.rsplit(|b| *b == b'/').next().unwrap_or(p).to_vec();
        // A binary replaced while it runs (a rebuild) reads as `locus (deleted)`.
        match name.strip_suffix(b" (deleted)") {
            Some(n) => n.to_vec(),
            None => name,
        }
    };
    let exe = fs::read_link(proc_dir.join("exe")).ok();
    let named_locus = match &exe {
        Some(exe) => base(exe.as_os_str().as_encoded_bytes()).starts_with(b"locus"),
        None => args.first().is_some_and(|a| base(a).starts_with(b"locus")),
    } || same_file(&proc_dir.join("exe"), Path::new("/proc/self/exe"));
    let what = || {
        let line = args.iter().map(|a| String::from_utf8_lossy(a)).collect::<Vec<_>>().join(" ");
        match line.char_indices().nth(60) {
            Some((at, _)) => format!("{}…", &line[..at]),
            None => line,
        }
    };
    if !named_locus {
        return Err(format!("pid {pid} is `{}`, not Locus", what()));
    }
    if !args.iter().skip(1).any(|a| *a == b"lsp") {
        return Err(format!("pid {pid} is `{}`, not `locus lsp`", what()));
    }
    Ok(())
}

/// Whether `a` and `b` are the same file (device and inode), following links.
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
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

    #[test]
    fn only_loopback_http_urls() {
        for ok in [
            "http://127.0.0.1:8080/mcp",
            "http://127.1.2.3:1/mcp",
            "http://localhost:9/mcp",
            "http://LOCALHOST:9/mcp",
            "http://[::1]:9/mcp",
            "http://0x7f.1:9/mcp",
        ] {
            assert!(is_loopback_url(ok), "{ok}");
        }
        for bad in [
            "http://10.0.0.1:80/mcp",
            "http://128.0.0.1/mcp",
            "http://evil.example/mcp",
            "http://127.0.0.1.evil.example/mcp",
            "http://localhost.evil/mcp",
            "http://[::2]:1/mcp",
            "http://[::ffff:10.0.0.1]:1/mcp",
            "http://0.0.0.0:1/mcp",
            "https://127.0.0.1/mcp",
            "ftp://127.0.0.1/mcp",
            "http://user@127.0.0.1:1/mcp",
            "127.0.0.1:80",
            "",
        ] {
            assert!(!is_loopback_url(bad), "{bad}");
        }
    }

    #[test]
    fn a_directory_others_can_write_to_lists_nothing() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("locus-disc-unit-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        // This process is alive but is not `locus lsp`: its file is stale and removed.
        let me = std::process::id();
        let file = dir.join(format!("{me}.json"));
        let record = Record { pid: me, url: "http://127.0.0.1:1/mcp".into(), ..record(me, &[], 0) };
        fs::write(&file, serde_json::to_vec(&record).unwrap()).unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
        assert_eq!(check_dir(&dir).unwrap_err().split(':').next(), Some("its mode is 0777"));
        assert!(list_in(&dir, &Refusals::default()).is_empty());
        assert!(file.exists(), "nothing is removed from a directory that is not trusted");
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
        assert!(list_in(&dir, &Refusals::default()).is_empty());
        assert!(!file.exists(), "the user's own file naming a process that is not a sidecar");
        fs::remove_dir_all(&dir).unwrap();
    }
}
