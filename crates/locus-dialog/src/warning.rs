//! Problems met while reading that did not stop the reading.

use std::fmt;
use std::path::{Path, PathBuf};

/// Something skipped while reading a transcript: a corrupt or incomplete line, an unknown
/// record type, an unreadable file. Warnings travel beside the data; they are never errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The file (or directory) concerned.
    pub path: PathBuf,
    /// The 1-based line, for line-based formats.
    pub line: Option<u64>,
    /// What was skipped and why.
    pub message: String,
}

impl Warning {
    pub(crate) fn new(path: &Path, line: Option<u64>, message: impl Into<String>) -> Warning {
        Warning { path: path.to_path_buf(), line, message: message.into() }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}
