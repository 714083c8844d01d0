//! Finding a program as a shell would: a path with a folder in it is taken as it is, a bare
//! name is looked up on `PATH`. On Windows a name without an extension also matches the
//! extensions `PATHEXT` lists (`.exe`, `.cmd`, …).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The program `program` names, looked up on `path` (else the process's `PATH`) if it is a
/// bare name.
pub fn find(program: &Path, path: Option<&OsStr>) -> Option<PathBuf> {
    if program.components().count() > 1 {
        return candidates(program).into_iter().find(|p| is_executable(p));
    }
    let from_env = std::env::var_os("PATH");
    let path = path.or(from_env.as_deref())?;
    std::env::split_paths(path)
        .flat_map(|dir| candidates(&dir.join(program)))
        .find(|p| is_executable(p))
}

/// Whether `path` is a file the system would run.
pub fn is_executable(path: &Path) -> bool {
    let Ok(meta) = path.metadata() else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// The files `path` may mean: itself, and on Windows, without an extension, itself with each
/// of `PATHEXT`'s.
fn candidates(path: &Path) -> Vec<PathBuf> {
    let mut all = vec![path.to_path_buf()];
    if cfg!(windows) && path.extension().is_none() {
        let exts = std::env::var("PATHEXT").unwrap_or_else(|_| ".COM;.EXE;.BAT;.CMD".into());
        for ext in exts.split(';').filter(|e| e.starts_with('.')) {
            let mut name = path.as_os_str().to_os_string();
            name.push(ext.to_ascii_lowercase());
            all.push(PathBuf::from(name));
        }
    }
    all
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_bare_name_is_looked_up_on_the_path_given() {
        let sh = find(Path::new("sh"), Some(OsStr::new("/nonexistent:/bin:/usr/bin"))).unwrap();
        assert!(sh.ends_with("sh") && sh.is_absolute(), "{}", sh.display());
        assert_eq!(find(Path::new("sh"), Some(OsStr::new("/nonexistent"))), None);
        assert_eq!(find(Path::new("/bin/sh"), None), Some(PathBuf::from("/bin/sh")));
        // A file that is not executable is no program.
        assert_eq!(find(Path::new("passwd"), Some(OsStr::new("/etc"))), None);
    }
}
