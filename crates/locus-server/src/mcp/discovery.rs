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
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use locus_platform::folders::Folders;
use locus_platform::{private, process};
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
    /// When the sidecar started, in milliseconds since the Unix epoch (0 in files of older
    /// versions): a process that started later reuses the pid.
    #[serde(default)]
    pub started_ms: u64,
    /// When the editor last sent anything, in milliseconds since the Unix epoch (updated at
    /// most once a second): breaks ties between sidecars serving the same folder.
    #[serde(default)]
    pub last_active_ms: u64,
}

/// The directory discovery files live in: the user's runtime folder (`Folders::runtime`:
/// `$XDG_RUNTIME_DIR/locus`, else `/run/user/<uid>/locus`, else the cache folder on Linux;
/// the user's temporary folder's `locus` on macOS; `%LOCALAPPDATA%\locus\run` on Windows).
pub fn dir() -> PathBuf {
    Folders::of_host().runtime
}

/// Writes `record` to its file atomically (a temporary file renamed over it), readable by the
/// user alone, in a directory only the user may write to. A directory that agents would
/// refuse (see the module docs) is refused here too, with the reason.
pub fn write(record: &Record) -> io::Result<PathBuf> {
    let dir = dir();
    private::create_dir(&dir)?;
    if let Err(why) = check_dir(&dir) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("refusing the discovery directory {}: {why}", dir.display()),
        ));
    }
    let path = dir.join(format!("{}.json", record.pid));
    let mut bytes = serde_json::to_vec_pretty(record).expect("a record serializes");
    bytes.push(b'\n');
    private::write_replacing(&path, &bytes)?;
    Ok(path)
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
        if !process::alive(pid) {
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
    let mut file =
        private::open_untrusted(path).map_err(|e| untrusted(format!("cannot open it: {e}")))?;
    let meta = file.metadata().map_err(|e| untrusted(format!("cannot stat it: {e}")))?;
    private::check_file(&meta).map_err(untrusted)?;
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
    sidecar_of_user(pid, record.started_ms).map_err(Refusal::Stale)?;
    Ok(record)
}

/// Whether `dir` can hold trusted files: a directory (not a link) of the user that neither
/// the group nor others may write to.
pub fn check_dir(dir: &Path) -> Result<(), String> {
    private::check_dir(dir, false)
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

/// Whether `pid` is a `locus lsp` of this user: the process is the user's, its executable
/// (or, where that is unreadable, its first argument) is named `locus` or `locus…`
/// (`locus-nightly`, a copy beside a release's others) or is this process's own executable
/// file, and it has an `lsp` argument. Where the system does not show other processes
/// (Windows), liveness is all that is checked. A file failing this is removed as stale (its
/// pid reused), so the name test errs on the side of Locus: an editor started from a renamed
/// binary was once taken for another program, and `locus status` deleted its live sidecar's
/// file. The agents' channel files Locus writes are judged by the same rule.
pub(crate) fn sidecar_of_user(pid: u32, started_ms: u64) -> Result<(), String> {
    let Some(info) = process::inspect(pid) else {
        return if process::alive(pid) { Ok(()) } else { Err(format!("pid {pid} is gone")) };
    };
    if info.mine == Some(false) {
        return Err(format!("pid {pid} belongs to {}, not to you", info.owner));
    }
    // Windows reuses ids at once: a process younger than the file is another.
    let started = info.started.and_then(|t| t.duration_since(UNIX_EPOCH).ok());
    if let Some(started) = started
        && started_ms > 0
        && started.as_millis() as u64 > started_ms + 1000
    {
        return Err(format!("pid {pid} started after its sidecar wrote this file"));
    }
    let base = |p: &std::ffi::OsStr| -> String {
        let text = p.to_string_lossy();
        let name = text.rsplit(['/', '\\']).next().unwrap_or(&text).to_string();
        // A binary replaced while it runs (a rebuild) reads as `locus (deleted)`.
        name.strip_suffix(" (deleted)").map(str::to_string).unwrap_or(name)
    };
    let args = info.args.as_deref().unwrap_or_default();
    let named_locus = match &info.executable {
        Some(exe) => base(exe.as_os_str()).starts_with("locus"),
        None => args.first().is_some_and(|a| base(a).starts_with("locus")),
    } || info.runs_this_executable;
    let what = || {
        let line = match &info.executable {
            Some(exe) if args.is_empty() => exe.display().to_string(),
            _ => args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "),
        };
        match line.char_indices().nth(60) {
            Some((at, _)) => format!("{}…", &line[..at]),
            None => line,
        }
    };
    if !named_locus {
        return Err(format!("pid {pid} is `{}`, not Locus", what()));
    }
    // Where the system hides the arguments, the name is all there is.
    if info.args.is_some() && !args.iter().skip(1).any(|a| a == "lsp") {
        return Err(format!("pid {pid} is `{}`, not `locus lsp`", what()));
    }
    Ok(())
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
    locus_platform::path::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
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
            started_ms: 0,
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

    #[cfg(unix)]
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
