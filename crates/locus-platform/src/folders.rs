//! Where Locus keeps what is the user's alone: the cache (the symbol index's files) and the
//! runtime folder (one discovery file per running sidecar, which agents read to find the
//! editor). [`Folders::decide`] is the rule for every system; [`Folders::of_host`] reads
//! the machine and applies it.
//!
//! Hand-written rather than the `dirs` crate: the runtime folder's fallbacks are Locus's own
//! (an agent started without `XDG_RUNTIME_DIR` must still find the editor), and the rule for
//! each system must be testable on any.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::Os;

/// The folders Locus writes to. Every path ends in a folder of Locus's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folders {
    /// The user's home folder, if the environment names one.
    pub home: Option<PathBuf>,
    /// Locus's cache: `$XDG_CACHE_HOME/locus` or `~/.cache/locus` (Linux),
    /// `~/Library/Caches/locus` (macOS, where an absolute `XDG_CACHE_HOME` is honoured too),
    /// `%LOCALAPPDATA%\locus\cache` (Windows). `None` when nothing names a home.
    pub cache: Option<PathBuf>,
    /// The discovery files' folder, always somewhere (see [`Folders::decide`]).
    pub runtime: PathBuf,
}

/// What the folder rule reads of a machine.
pub struct Facts<'a> {
    /// An environment variable, if set.
    pub var: &'a dyn Fn(&str) -> Option<OsString>,
    /// Linux: the user's runtime folder that systemd makes (`/run/user/<uid>`), if it exists
    /// and is the user's.
    pub session_runtime: Option<PathBuf>,
    /// macOS: the user's own temporary folder (`confstr(_CS_DARWIN_USER_TEMP_DIR)`), which does
    /// not depend on the environment.
    pub user_temp: Option<PathBuf>,
    /// The system's temporary folder.
    pub temp: PathBuf,
    /// The user's id or name, to make a shared temporary folder's entry the user's own.
    pub user: String,
}

impl Folders {
    /// The folders on this machine.
    pub fn of_host() -> Folders {
        let var = |name: &str| std::env::var_os(name);
        let facts = Facts {
            var: &var,
            session_runtime: session_runtime_dir(),
            user_temp: user_temp_dir(),
            temp: std::env::temp_dir(),
            user: crate::process::user_id(),
        };
        Folders::decide(Os::HOST, &facts)
    }

    /// The folders `os` gives a user whose machine reads as `facts`.
    ///
    /// The runtime folder, first that applies:
    /// - Linux and other Unix: `$XDG_RUNTIME_DIR/locus`; the session's `/run/user/<uid>/locus`
    ///   (Codex starts MCP servers without `XDG_RUNTIME_DIR`); the cache folder; the system
    ///   temp folder's `locus-<uid>`.
    /// - macOS: the user's temporary folder's `locus` (the same for a GUI editor and a
    ///   terminal agent, whatever their environment); `$TMPDIR/locus`; the cache folder; the
    ///   temp folder's `locus-<uid>`.
    /// - Windows: `%LOCALAPPDATA%\locus\run`; the temp folder's `locus-<user>`.
    pub fn decide(os: Os, facts: &Facts) -> Folders {
        let nonempty = |name: &str| (facts.var)(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let absolute = |name: &str| nonempty(name).filter(|p| looks_absolute(os, p));
        let home = home_of(os, facts.var);
        let cache = match os {
            Os::Linux | Os::OtherUnix => absolute("XDG_CACHE_HOME")
                .or_else(|| home.as_ref().map(|h| h.join(".cache")))
                .map(|c| c.join("locus")),
            Os::MacOs => absolute("XDG_CACHE_HOME")
                .or_else(|| home.as_ref().map(|h| h.join("Library").join("Caches")))
                .map(|c| c.join("locus")),
            Os::Windows => local_app_data(os, facts, home.as_ref()).map(|d| d.join("cache")),
        };
        let last_resort = facts.temp.join(format!("locus-{}", facts.user));
        let runtime = match os {
            Os::Linux | Os::OtherUnix => absolute("XDG_RUNTIME_DIR")
                .map(|r| r.join("locus"))
                .or_else(|| facts.session_runtime.as_ref().map(|r| r.join("locus")))
                .or_else(|| cache.clone()),
            Os::MacOs => facts
                .user_temp
                .clone()
                .or_else(|| absolute("TMPDIR"))
                .map(|t| t.join("locus"))
                .or_else(|| cache.clone()),
            Os::Windows => local_app_data(os, facts, home.as_ref()).map(|d| d.join("run")),
        };
        Folders { home, cache, runtime: runtime.unwrap_or(last_resort) }
    }
}

/// The user's home folder on this machine, as [`Folders::home`] names it.
pub fn home() -> Option<PathBuf> {
    home_of(Os::HOST, &|name| std::env::var_os(name))
}

/// The home folder: `USERPROFILE` (else `HOMEDRIVE` and `HOMEPATH`) on Windows, where `HOME`
/// is Git Bash's or MSYS's rather than the profile; `HOME` elsewhere.
fn home_of(os: Os, var: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let nonempty = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    match os {
        Os::Windows => nonempty("USERPROFILE").or_else(|| {
            let mut joined = nonempty("HOMEDRIVE")?.into_os_string();
            joined.push(nonempty("HOMEPATH")?.into_os_string());
            Some(PathBuf::from(joined))
        }),
        _ => nonempty("HOME"),
    }
}

/// Linux: `/run/user/<uid>`, if it is a folder of the user's.
fn session_runtime_dir() -> Option<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: getuid has no preconditions and cannot fail.
        let uid = unsafe { libc::getuid() };
        let dir = PathBuf::from(format!("/run/user/{uid}"));
        let meta = std::fs::metadata(&dir).ok()?;
        (meta.is_dir() && meta.uid() == uid).then_some(dir)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// macOS: the user's temporary folder, as `confstr(_CS_DARWIN_USER_TEMP_DIR)` names it.
fn user_temp_dir() -> Option<PathBuf> {
    #[cfg(target_os = "macos")]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut buf = vec![0u8; 1024];
        // SAFETY: confstr writes at most `buf.len()` bytes, NUL included, into `buf`.
        let n = unsafe {
            libc::confstr(libc::_CS_DARWIN_USER_TEMP_DIR, buf.as_mut_ptr().cast(), buf.len())
        };
        if n == 0 || n > buf.len() {
            return None;
        }
        buf.truncate(n - 1);
        Some(PathBuf::from(std::ffi::OsStr::from_bytes(&buf)))
    }
    #[cfg(not(target_os = "macos"))]
    None
}

/// Windows: `%LOCALAPPDATA%\locus`, else the profile's `AppData\Local\locus`.
fn local_app_data(os: Os, facts: &Facts, home: Option<&PathBuf>) -> Option<PathBuf> {
    let named = (facts.var)("LOCALAPPDATA")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| looks_absolute(os, p));
    named.or_else(|| home.map(|h| h.join("AppData").join("Local"))).map(|d| d.join("locus"))
}

/// Whether `path` is absolute on `os` (decided by its text, so that a Windows path is judged
/// as Windows would on any host).
fn looks_absolute(os: Os, path: &std::path::Path) -> bool {
    let text = path.to_string_lossy();
    match os {
        Os::Windows => {
            let b = text.as_bytes();
            (b.len() >= 3
                && b[0].is_ascii_alphabetic()
                && b[1] == b':'
                && matches!(b[2], b'\\' | b'/'))
                || text.starts_with("\\\\")
        }
        _ => text.starts_with('/'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts<'a>(var: &'a dyn Fn(&str) -> Option<OsString>) -> Facts<'a> {
        Facts {
            var,
            session_runtime: None,
            user_temp: None,
            temp: PathBuf::from("/tmp"),
            user: "1000".into(),
        }
    }

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v))
    }

    #[test]
    fn linux_follows_xdg_then_the_session_then_the_cache() {
        let var = env(&[("HOME", "/home/u"), ("XDG_RUNTIME_DIR", "/run/user/1000")]);
        let f = Folders::decide(Os::Linux, &facts(&var));
        assert_eq!(f.runtime, PathBuf::from("/run/user/1000/locus"));
        assert_eq!(f.cache, Some(PathBuf::from("/home/u/.cache/locus")));

        let var = env(&[("HOME", "/home/u")]);
        let mut with_session = facts(&var);
        with_session.session_runtime = Some(PathBuf::from("/run/user/1000"));
        assert_eq!(
            Folders::decide(Os::Linux, &with_session).runtime,
            PathBuf::from("/run/user/1000/locus")
        );
        assert_eq!(
            Folders::decide(Os::Linux, &facts(&var)).runtime,
            PathBuf::from("/home/u/.cache/locus")
        );

        // A relative XDG folder is invalid and ignored.
        let var = env(&[("HOME", "/home/u"), ("XDG_CACHE_HOME", "rel"), ("XDG_RUNTIME_DIR", "r")]);
        let f = Folders::decide(Os::Linux, &facts(&var));
        assert_eq!(f.cache, Some(PathBuf::from("/home/u/.cache/locus")));
        assert_eq!(f.runtime, PathBuf::from("/home/u/.cache/locus"));
    }

    #[test]
    fn without_a_home_the_runtime_folder_is_the_users_entry_in_temp() {
        let var = env(&[]);
        let f = Folders::decide(Os::Linux, &facts(&var));
        assert_eq!((f.home, f.cache), (None, None));
        assert_eq!(f.runtime, PathBuf::from("/tmp/locus-1000"));
    }

    #[test]
    fn macos_uses_library_caches_and_the_users_temp_folder() {
        let var = env(&[("HOME", "/Users/u"), ("TMPDIR", "/var/folders/x/T/")]);
        let mut mac = facts(&var);
        let f = Folders::decide(Os::MacOs, &mac);
        assert_eq!(f.cache, Some(PathBuf::from("/Users/u/Library/Caches/locus")));
        assert_eq!(f.runtime, PathBuf::from("/var/folders/x/T/locus"));
        // The folder confstr names wins over the environment, which an agent may have reset.
        mac.user_temp = Some(PathBuf::from("/var/folders/y/T"));
        assert_eq!(
            Folders::decide(Os::MacOs, &mac).runtime,
            PathBuf::from("/var/folders/y/T/locus")
        );
        // XDG_RUNTIME_DIR means nothing on macOS; an explicit XDG_CACHE_HOME is honoured.
        let var = env(&[("HOME", "/Users/u"), ("XDG_RUNTIME_DIR", "/r"), ("XDG_CACHE_HOME", "/c")]);
        let f = Folders::decide(Os::MacOs, &facts(&var));
        assert_eq!(f.cache, Some(PathBuf::from("/c/locus")));
        assert_eq!(f.runtime, PathBuf::from("/c/locus"));
    }

    fn windows_facts<'a>(var: &'a dyn Fn(&str) -> Option<OsString>) -> Facts<'a> {
        Facts { temp: PathBuf::from(r"C:\Temp"), user: "u".into(), ..facts(var) }
    }

    #[test]
    fn windows_uses_local_app_data() {
        let var =
            env(&[("USERPROFILE", r"C:\Users\u"), ("LOCALAPPDATA", r"C:\Users\u\AppData\Local")]);
        let win = windows_facts(&var);
        let f = Folders::decide(Os::Windows, &win);
        assert_eq!(f.home, Some(PathBuf::from(r"C:\Users\u")));
        assert_eq!(
            f.cache,
            Some(PathBuf::from(r"C:\Users\u\AppData\Local").join("locus").join("cache"))
        );
        assert_eq!(f.runtime, PathBuf::from(r"C:\Users\u\AppData\Local").join("locus").join("run"));
        // HOME (set by Git Bash or MSYS) is not the profile.
        let var = env(&[("HOME", "/home/u"), ("HOMEDRIVE", "D:"), ("HOMEPATH", r"\Users\u")]);
        let win = windows_facts(&var);
        let f = Folders::decide(Os::Windows, &win);
        assert_eq!(f.home, Some(PathBuf::from(r"D:\Users\u")));
        assert_eq!(
            f.cache,
            Some(
                PathBuf::from(r"D:\Users\u")
                    .join("AppData")
                    .join("Local")
                    .join("locus")
                    .join("cache")
            )
        );
        // Nothing names a home: the temp folder's entry of the user.
        let var = env(&[]);
        let win = windows_facts(&var);
        assert_eq!(
            Folders::decide(Os::Windows, &win).runtime,
            PathBuf::from(r"C:\Temp").join("locus-u")
        );
    }
}
