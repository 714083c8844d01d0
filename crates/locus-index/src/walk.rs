//! Finding and reading the workspace's files, as ripgrep finds them.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ignore::{ParallelVisitor, ParallelVisitorBuilder, WalkBuilder, WalkState};
use locus_scopes::{Language, Registry};

use crate::config::Config;

/// Why a file was not indexed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Skip {
    NotUtf8,
    Binary,
    TooLarge,
    Minified,
    Unreadable,
}

/// What reading a file gave.
pub(crate) enum Read_ {
    Text(String, Language),
    /// Not a file of an indexed language (an extensionless file without a known shebang).
    NotSource,
    Skipped(Skip),
}

/// How many bytes are checked for a NUL (binary files), as ripgrep does.
const BINARY_PROBE: usize = 8 << 10;
/// A file whose average line is longer than this, past [`MINIFIED_MIN_BYTES`], is minified.
const MINIFIED_AVERAGE_LINE: usize = 400;
const MINIFIED_MIN_BYTES: usize = 16 << 10;

/// The files and directories of `folders` that the walk admits: files whose name or extension
/// belongs to an indexed language (or that have no extension: their shebang decides), and
/// every directory visited (ignored ones are not). Both sorted.
pub(crate) fn walk(
    folders: &[PathBuf],
    config: &Config,
    threads: usize,
) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let Some((first, rest)) = folders.split_first() else { return (Vec::new(), Vec::new()) };
    let mut builder = WalkBuilder::new(first);
    for f in rest {
        builder.add(f);
    }
    builder.threads(threads);
    let found = Mutex::new((Vec::new(), Vec::new()));
    let mut visitors = Visitors { found: &found, config };
    builder.build_parallel().visit(&mut visitors);
    let (mut files, mut dirs) = found.into_inner().unwrap_or_else(|e| e.into_inner());
    files.sort();
    dirs.sort();
    (files, dirs)
}

/// The entries of `dir` (which the walk visited) that the ignore rules applying there
/// admit: the directory walked one level deep, as the full walk would see it.
pub(crate) fn listing(dir: &Path) -> std::collections::HashSet<PathBuf> {
    WalkBuilder::new(dir)
        .max_depth(Some(1))
        .build()
        .flatten()
        .filter(|e| e.depth() == 1)
        .map(ignore::DirEntry::into_path)
        .collect()
}

type Found = Mutex<(Vec<PathBuf>, Vec<PathBuf>)>;

struct Visitors<'s> {
    found: &'s Found,
    config: &'s Config,
}

impl<'s> ParallelVisitorBuilder<'s> for Visitors<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Visitor {
            found: self.found,
            config: self.config,
            files: Vec::new(),
            dirs: Vec::new(),
        })
    }
}

/// One walking thread's findings, handed over when the walk drops it.
struct Visitor<'s> {
    found: &'s Found,
    config: &'s Config,
    files: Vec<PathBuf>,
    dirs: Vec<PathBuf>,
}

impl ParallelVisitor for Visitor<'_> {
    fn visit(&mut self, entry: Result<ignore::DirEntry, ignore::Error>) -> WalkState {
        if let Ok(entry) = entry {
            match entry.file_type() {
                Some(t) if t.is_dir() => self.dirs.push(entry.into_path()),
                Some(t) if t.is_file() && admits_name(entry.path(), self.config) => {
                    self.files.push(entry.into_path())
                }
                _ => {}
            }
        }
        WalkState::Continue
    }
}

impl Drop for Visitor<'_> {
    fn drop(&mut self) {
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        found.0.append(&mut self.files);
        found.1.append(&mut self.dirs);
    }
}

/// A glob for the files of the indexed languages, for an editor's file watcher
/// (`**/*.{py,ts,…}`): the common extensions the registry gives an indexed language.
pub(crate) fn watch_glob(config: &Config) -> String {
    const COMMON: &[&str] = &[
        "py", "pyi", "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "rs", "go", "java",
        "kt", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "cs", "rb", "php", "lua", "sh", "bash",
        "zsh", "swift", "scala", "md", "markdown", "css", "scss", "html", "vue", "svelte", "ex",
        "exs", "hs", "ml", "zig", "dart", "r", "sql",
    ];
    let registry = Registry::builtin();
    let exts: Vec<&str> = COMMON
        .iter()
        .copied()
        .filter(|e| {
            let probe = PathBuf::from(format!("probe.{e}"));
            registry.for_path(&probe, None).is_some_and(|l| config.indexes(l))
        })
        .collect();
    format!("**/*.{{{}}}", exts.join(","))
}

/// Whether a file's name may be of an indexed language (before reading it).
pub(crate) fn admits_name(path: &Path, config: &Config) -> bool {
    match Registry::builtin().for_path(path, None) {
        Some(language) => config.indexes(language),
        None => path.extension().is_none(),
    }
}

/// Reads a file and decides whether it is indexed.
pub(crate) fn read(path: &Path, config: &Config) -> Read_ {
    let Ok(meta) = std::fs::metadata(path) else { return Read_::Skipped(Skip::Unreadable) };
    if meta.len() > config.max_file_bytes {
        return Read_::Skipped(Skip::TooLarge);
    }
    let registry = Registry::builtin();
    let by_name = registry.for_path(path, None);
    if by_name.is_none() {
        // No extension: only a shebang can make it source; read the first line alone.
        let mut head = [0u8; 128];
        let n = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)).unwrap_or(0);
        // The first line only: the prefix may end inside a character, which must not hide it.
        let head = &head[..n];
        let line = &head[..memchr::memchr(b'\n', head).unwrap_or(head.len())];
        let first = match std::str::from_utf8(line) {
            Ok(t) => Some(t),
            Err(e) => std::str::from_utf8(&line[..e.valid_up_to()]).ok(),
        };
        match first.and_then(|l| registry.for_path(path, Some(l))) {
            Some(l) if config.indexes(l) => {}
            _ => return Read_::NotSource,
        }
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(_) => return Read_::Skipped(Skip::Unreadable),
    };
    if memchr::memchr(0, &bytes[..bytes.len().min(BINARY_PROBE)]).is_some() {
        return Read_::Skipped(Skip::Binary);
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(_) => return Read_::Skipped(Skip::NotUtf8),
    };
    if minified(&text) {
        return Read_::Skipped(Skip::Minified);
    }
    let language = by_name.or_else(|| crate::file::language_of(path, &text));
    match language {
        Some(l) if config.indexes(l) => Read_::Text(text, l),
        _ => Read_::NotSource,
    }
}

/// Whether a text looks generated and minified: long, with few, very long lines.
pub(crate) fn minified(text: &str) -> bool {
    if text.len() < MINIFIED_MIN_BYTES {
        return false;
    }
    let lines = memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1;
    text.len() / lines > MINIFIED_AVERAGE_LINE
}
