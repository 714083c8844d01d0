//! Every difference between the systems Locus runs on — Linux, macOS and Windows — behind one
//! small API, so that no other crate carries a `cfg` for an operating system:
//!
//! - [`path`]: canonical paths as users and editors write them;
//! - [`folders`]: where the user's caches and the discovery files live;
//! - [`file_uri`]: `file:` URIs and the paths they name (drive letters, UNC, `\`);
//! - [`file_identity`]: what tells a file's content changed without reading it;
//! - [`heap`]: the C allocator's tuning where Locus knows more than it (glibc);
//! - [`private`]: files and folders only the user may read, and the checks that a file found
//!   there was written by the user;
//! - [`process`]: whether a process lives, what it runs, how it ended, a thread's priority;
//! - [`group`]: a process tree that ends with Locus, even when Locus is killed;
//! - [`program`]: finding a program on `PATH`;
//! - [`signals`]: the requests to terminate that a process should answer by cleaning up.
//!
//! The decisions that differ by system (which folder, which fallback) are pure functions of an
//! [`Os`] and what was read of the machine, so that their tests run for every system on any.

pub mod file_identity;
pub mod file_uri;
pub mod folders;
pub mod group;
pub mod heap;
pub mod path;
pub mod private;
pub mod process;
pub mod program;
pub mod signals;

/// The operating systems whose rules differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Linux,
    MacOs,
    Windows,
    /// Another Unix (the BSDs): Linux's rules, without what only Linux has.
    OtherUnix,
}

impl Os {
    /// The system this binary was built for.
    pub const HOST: Os = if cfg!(target_os = "linux") {
        Os::Linux
    } else if cfg!(target_os = "macos") {
        Os::MacOs
    } else if cfg!(windows) {
        Os::Windows
    } else {
        Os::OtherUnix
    };
}
