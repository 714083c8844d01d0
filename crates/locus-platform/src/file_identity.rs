//! What tells that a file's content may have changed without reading it: its modification
//! and status-change times and, on Unix, its inode and device (a file replaced by a rename
//! keeps its times but not its inode). Windows gives neither the status-change time nor
//! (on a stable Rust) the file's index, so they read as zero there.

use std::fs::Metadata;

/// A file's identity and times, from its metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FileIdentity {
    /// Last modification, in nanoseconds since the Unix epoch.
    pub modified_ns: i64,
    /// Last status change (Unix `ctime`), in nanoseconds since the epoch; 0 on Windows.
    pub changed_ns: i64,
    /// The inode; 0 on Windows.
    pub inode: u64,
    /// The device; 0 on Windows.
    pub device: u64,
}

impl FileIdentity {
    pub fn of(meta: &Metadata) -> FileIdentity {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let ns = |s: i64, n: i64| s.saturating_mul(1_000_000_000).saturating_add(n);
            FileIdentity {
                modified_ns: ns(meta.mtime(), meta.mtime_nsec()),
                changed_ns: ns(meta.ctime(), meta.ctime_nsec()),
                inode: meta.ino(),
                device: meta.dev(),
            }
        }
        #[cfg(not(unix))]
        {
            let modified =
                meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
            FileIdentity {
                modified_ns: modified.map_or(0, |d| d.as_nanos() as i64),
                ..FileIdentity::default()
            }
        }
    }
}
