//! Canonical paths as users and editors write them. On Windows the system's canonical form
//! is verbatim (`\\?\C:\x`), which no editor sends and no agent expects; it is kept only
//! where the plain form would name another file (a path too long, a reserved name).

use std::io;
use std::path::{Path, PathBuf};

/// `path` absolute, with links resolved, in the form editors use.
pub fn canonicalize(path: impl AsRef<Path>) -> io::Result<PathBuf> {
    dunce::canonicalize(path)
}
