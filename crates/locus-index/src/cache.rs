//! The symbol cache: each workspace folder's file symbols on disk, so that a start after the
//! first parses only the files that changed since.
//!
//! **What is trusted.** A file's cached symbols are used when its fingerprint is the one it had
//! when it was read: size, modification and status-change times in nanoseconds, inode and
//! device (on Unix; elsewhere size and modification time). No content hash: it would mean
//! reading every file at every start (the walk only stats them), and the status-change time,
//! which no tool can set back, already changes with every write. A file changed (modified, or
//! its status changed) less than [`SETTLE`] before it was read is not cached at all: a coarse clock could give a second write
//! within the same tick the same fingerprint (git's "racily clean" entries).
//!
//! **When the whole cache is stale.** Its key hashes what decides a file's symbols besides its
//! text: the cache format, Locus's version and the executable's identity ([`Config::cache_version`]),
//! the languages' registry entries, grammars and query texts
//! ([`Registry::hash_index_inputs`], `LOCUS_QUERY_DIR` included), and the index's own settings
//! that change its output (the file size limit, the languages skipped, the name and signature
//! caps). A cache under another key is ignored.
//!
//! **Format.** `MAGIC`, the format number, the key, the payload's length and its SHA-256,
//! then the payload in postcard (serde's compact binary format; see `Cargo.toml`). A cache that
//! is missing is a first start; one that is unreadable, truncated, corrupt or of another key
//! is ignored, said once on stderr, and replaced after the build; never an error.
//!
//! **Writing.** One file per workspace folder, named by a hash of its path's components, in
//! the cache directory (mode 0700 when Locus creates it; an existing one that is not the
//! user's, or that group or others may write to, is not used: [`check_dir`]), written to a new
//! temporary file (mode 0600, `O_EXCL`: a planted link is not followed) and renamed over the
//! old one, on the index's own low-priority thread: after a build that read something new,
//! then at most every [`INTERVAL`] while the index changes; and when a process ends
//! (`Index::save_cache`, also during a build: see there). Never larger than the index's memory
//! cap, and a larger file is not read. Each write removes the caches no start has read or
//! written for a month, and temporary files a killed process left.

use std::collections::HashMap;
use std::fs::Metadata;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use locus_platform::file_identity::FileIdentity;
use locus_platform::private;

use locus_scopes::{Registry, SymbolKind};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::config::Config;
use crate::file::{self, NO_PARENT, Sym};
use crate::warnings::Reporter;

/// The first bytes of a cache file.
const MAGIC: &[u8; 8] = b"LOCUSSYM";
/// The layout of the header and payload; bumped when either changes.
const FORMAT: u32 = 1;
/// Header: magic, format, key, payload length, payload checksum.
const HEADER: usize = 8 + 4 + 32 + 8 + 32;

/// A file modified this recently before it was read is not cached (see the module's docs).
pub(crate) const SETTLE: Duration = Duration::from_secs(2);
/// The least time between two writes of the cache while files change.
pub(crate) const INTERVAL: Duration = Duration::from_secs(30);

/// What identifies a file's content without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Fingerprint {
    size: u64,
    mtime_ns: i64,
    ctime_ns: i64,
    ino: u64,
    dev: u64,
}

impl Fingerprint {
    pub fn of(meta: &Metadata) -> Fingerprint {
        let id = FileIdentity::of(meta);
        Fingerprint {
            size: meta.len(),
            mtime_ns: id.modified_ns,
            ctime_ns: id.changed_ns,
            ino: id.inode,
            dev: id.device,
        }
    }

    /// The fingerprint of a file read now, if it may be cached: changed at least [`SETTLE`]
    /// ago (and not in the future). Changed is the later of the modification and status-change
    /// times: a file written with an old modification time (`tar x`, `rsync -a`, `cp -p`) was
    /// still written just now, and a second such write within the clock's tick would keep its
    /// fingerprint.
    pub fn settled(path: &Path) -> Option<Fingerprint> {
        let meta = std::fs::metadata(path).ok()?;
        let fp = Fingerprint::of(&meta);
        let now = SystemTime::now().duration_since(UNIX_EPOCH).ok()?.as_nanos() as i64;
        let changed = fp.mtime_ns.max(fp.ctime_ns);
        (changed.saturating_add(SETTLE.as_nanos() as i64) <= now).then_some(fp)
    }
}

/// A file of the store as the writer takes it: its path, its symbols, their fingerprint.
pub(crate) type Snapshot = (Arc<Path>, Arc<[Sym]>, Fingerprint);

/// Files' symbols read from a cache, by path.
pub(crate) type Loaded = HashMap<PathBuf, (Fingerprint, Vec<Sym>)>;

/// The cache of one index: where it lives, its key, the fingerprints of the files indexed
/// from disk, and the writer's state.
pub(crate) struct Cache {
    dir: PathBuf,
    version: String,
    key: OnceLock<[u8; 32]>,
    max_bytes: usize,
    /// The fingerprint each file had when the symbols the store holds for it were read.
    pub fingerprints: Mutex<HashMap<PathBuf, Fingerprint>>,
    pub writes: Mutex<Writes>,
    pub wake: Condvar,
    /// Held while a write runs: whoever clears [`Writes::dirty`] holds it until written.
    pub writing: Mutex<()>,
    said_read: AtomicBool,
    said_write: AtomicBool,
    /// Where a cache that cannot be read or written is reported.
    warnings: Reporter,
}

/// What the writer thread is asked.
#[derive(Default)]
pub(crate) struct Writes {
    /// The store changed since the last write.
    pub dirty: bool,
    /// Write without waiting for [`INTERVAL`] (a build just ended).
    pub now: bool,
    /// The index is gone: the writer stops.
    pub closed: bool,
    pub last: Option<Instant>,
}

impl Config {
    /// The file that holds the symbol cache of a workspace folder under this configuration
    /// (whether or not it exists yet), `None` when the cache is off.
    pub fn cache_file(&self, folder: &Path) -> Option<PathBuf> {
        Some(Cache::file_of(self.cache_dir.as_deref()?, folder))
    }
}

impl Cache {
    /// The cache of `config`, `None` when it is off or its directory exists but is not
    /// trusted (see [`check_dir`]; reported to [`Config::warnings`]).
    pub fn new(config: &Config) -> Option<Arc<Cache>> {
        let dir = config.cache_dir.clone()?;
        if dir.exists()
            && let Err(why) = check_dir(&dir)
        {
            config.warnings.warn(format!(
                "the symbol cache directory {} is not used ({why}); the index works without \
                 it, every start reads every file",
                dir.display()
            ));
            return None;
        }
        Some(Arc::new(Cache {
            dir,
            version: config.cache_version.clone(),
            key: OnceLock::new(),
            max_bytes: config.max_index_bytes,
            fingerprints: Mutex::new(HashMap::new()),
            writes: Mutex::new(Writes::default()),
            wake: Condvar::new(),
            writing: Mutex::new(()),
            said_read: AtomicBool::new(false),
            said_write: AtomicBool::new(false),
            warnings: config.warnings.clone(),
        }))
    }

    /// The key of this index's caches (computed once: it reads the query texts).
    fn key(&self, config: &Config) -> [u8; 32] {
        *self.key.get_or_init(|| {
            let mut h = Sha256Hasher(Sha256::new());
            ("locus-index symbol cache", FORMAT, &self.version).hash(&mut h);
            (config.max_file_bytes, file::MAX_NAME, file::MAX_SIGNATURE).hash(&mut h);
            let mut skipped: Vec<&String> = config.skip_languages.iter().collect();
            skipped.sort();
            skipped.hash(&mut h);
            Registry::builtin().hash_index_inputs(&mut h);
            h.0.finalize().into()
        })
    }

    /// The cache file of a workspace folder, named by a hash of its path as the index has it,
    /// not of its canonical path: the cache holds that path's files under it, so a folder
    /// opened through a symbolic link and by its real path has a cache for each (one file
    /// would be rewritten by each start and refused by the other's as another folder's).
    /// The hash is of the path's components (`/a/b/`, `/a//b` and `/a/./b` are `/a/b`, as
    /// `Path`'s equality has them), not of its bytes.
    pub fn file_of(dir: &Path, folder: &Path) -> PathBuf {
        let normal: PathBuf = folder.components().collect();
        let digest = Sha256::digest(normal.as_os_str().as_encoded_bytes());
        let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
        dir.join(format!("{hex}.symbols"))
    }

    /// The cached symbols of `folders`' files. A cache that cannot be used is said once and
    /// ignored.
    pub fn load(&self, folders: &[PathBuf], config: &Config) -> Loaded {
        let key = self.key(config);
        let mut out = Loaded::new();
        for folder in folders {
            let path = Cache::file_of(&self.dir, folder);
            // Never more than the index's memory cap (what a write never exceeds) is read.
            let bytes = match std::fs::metadata(&path) {
                Ok(m) if m.len() > self.max_bytes as u64 => {
                    self.say_read(
                        &path,
                        &format!("{} MiB, over the index's memory cap", m.len() >> 20),
                    );
                    continue;
                }
                _ => std::fs::read(&path),
            };
            let bytes = match bytes {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => {
                    self.say_read(&path, &format!("cannot be read: {e}"));
                    continue;
                }
            };
            match decode(&bytes, &key, folder, &mut out) {
                // Marked as used: caches unused for a month are removed (`remove_leftovers`).
                Ok(()) => {
                    let now = SystemTime::now();
                    let _ = std::fs::File::options()
                        .write(true)
                        .open(&path)
                        .and_then(|f| f.set_modified(now));
                }
                Err(why) => self.say_read(&path, &why),
            }
        }
        out
    }

    fn say_read(&self, path: &Path, why: &str) {
        if !self.said_read.swap(true, Ordering::Relaxed) {
            self.warnings.warn(format!(
                "the symbol cache {} is ignored ({why}); every file is read again",
                path.display()
            ));
        }
    }

    /// Writes each folder's cache from a snapshot of the store's disk files; whatever fails
    /// is said once.
    pub fn write(&self, folders: &[PathBuf], files: &[Snapshot], config: &Config) {
        if let Err(why) = self.try_write(folders, files, config)
            && !self.said_write.swap(true, Ordering::Relaxed)
        {
            self.warnings.warn(format!(
                "the symbol cache is not written ({why}); the index works without it, every \
                 start reads every file"
            ));
        }
    }

    fn try_write(
        &self,
        folders: &[PathBuf],
        files: &[Snapshot],
        config: &Config,
    ) -> Result<(), String> {
        if folders.is_empty() {
            return Ok(());
        }
        let key = self.key(config);
        private::create_dir(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        check_dir(&self.dir).map_err(|why| format!("{}: {why}", self.dir.display()))?;
        for folder in folders {
            let Some(folder_text) = folder.to_str() else { continue };
            // A file belongs to the innermost folder holding it.
            let owner = |p: &Path| {
                folders.iter().filter(|f| p.starts_with(f)).max_by_key(|f| f.as_os_str().len())
            };
            let records: Vec<FileOut<'_>> = files
                .iter()
                .filter(|(p, _, _)| owner(p) == Some(folder))
                .filter_map(|(p, syms, fp)| {
                    Some(FileOut { path: p.to_str()?, fp: *fp, syms: SymsOut(syms) })
                })
                .collect();
            let payload = postcard::to_stdvec(&PayloadOut { folder: folder_text, files: records })
                .map_err(|e| format!("cannot encode it: {e}"))?;
            if payload.len() + HEADER > self.max_bytes {
                return Err(format!(
                    "{} MiB for {}, over the index's memory cap",
                    payload.len() >> 20,
                    folder.display()
                ));
            }
            let mut bytes = Vec::with_capacity(HEADER + payload.len());
            bytes.extend_from_slice(MAGIC);
            bytes.extend_from_slice(&FORMAT.to_le_bytes());
            bytes.extend_from_slice(&key);
            bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
            bytes.extend_from_slice(&Sha256::digest(&payload));
            bytes.extend_from_slice(&payload);
            let path = Cache::file_of(&self.dir, folder);
            write_atomic(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(())
    }
}

/// Checks a cache file and adds its files to `out`; says why when it cannot be used.
fn decode(bytes: &[u8], key: &[u8; 32], folder: &Path, out: &mut Loaded) -> Result<(), String> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err("not a symbol cache, or truncated".into());
    }
    let format = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if format != FORMAT {
        return Err(format!("format {format}, this Locus writes {FORMAT}"));
    }
    if bytes[12..44] != key[..] {
        return Err("written by another version of Locus, its queries or its settings".into());
    }
    let len = u64::from_le_bytes(bytes[44..52].try_into().expect("8 bytes"));
    let payload = &bytes[HEADER..];
    if payload.len() as u64 != len {
        return Err("truncated".into());
    }
    if Sha256::digest(payload)[..] != bytes[52..84] {
        return Err("corrupt: its checksum does not match".into());
    }
    let data: PayloadIn<'_> = postcard::from_bytes(payload).map_err(|e| format!("corrupt: {e}"))?;
    if Path::new(data.folder) != folder {
        return Err(format!("it belongs to {}", data.folder));
    }
    let mut files = Vec::with_capacity(data.files.len());
    for f in data.files {
        let path = PathBuf::from(f.path);
        if !path.starts_with(folder) {
            return Err(format!("corrupt: {} is outside the folder", path.display()));
        }
        let mut syms = Vec::with_capacity(f.syms.len());
        for (i, s) in f.syms.into_iter().enumerate() {
            let kind = SymbolKind::from_number(u64::from(s.kind))
                .ok_or_else(|| format!("corrupt: symbol kind {}", s.kind))?;
            // Parents come first: the store walks container chains by these indices.
            if s.parent != NO_PARENT && s.parent as usize >= i {
                return Err("corrupt: a symbol's container follows it".into());
            }
            syms.push(Sym {
                name: s.name.into(),
                signature: s.signature.into(),
                parent: s.parent,
                kind,
                start: s.start,
                end: s.end,
                line: s.line,
            });
        }
        files.push((path, (f.fp, syms)));
    }
    out.extend(files);
    Ok(())
}

#[derive(Serialize)]
struct PayloadOut<'a> {
    folder: &'a str,
    files: Vec<FileOut<'a>>,
}

#[derive(Serialize)]
struct FileOut<'a> {
    path: &'a str,
    fp: Fingerprint,
    syms: SymsOut<'a>,
}

/// A file's symbols, serialized as a sequence of [`SymRec`] without copying them.
struct SymsOut<'a>(&'a [Sym]);

impl Serialize for SymsOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|s| SymRec {
            name: &s.name,
            signature: &s.signature,
            parent: s.parent,
            kind: s.kind.number(),
            start: s.start,
            end: s.end,
            line: s.line,
        }))
    }
}

#[derive(Deserialize)]
struct PayloadIn<'a> {
    folder: &'a str,
    #[serde(borrow)]
    files: Vec<FileIn<'a>>,
}

#[derive(Deserialize)]
struct FileIn<'a> {
    path: &'a str,
    fp: Fingerprint,
    #[serde(borrow)]
    syms: Vec<SymRec<'a>>,
}

/// One symbol on disk: [`Sym`] with its kind as the LSP number.
#[derive(Serialize, Deserialize)]
struct SymRec<'a> {
    name: &'a str,
    signature: &'a str,
    parent: u32,
    kind: u8,
    start: u32,
    end: u32,
    line: u32,
}

/// `std::hash::Hash` into SHA-256, for the cache's key (`Hash` impls are deterministic for a
/// given build, which the key includes anyway).
struct Sha256Hasher(Sha256);

impl Hasher for Sha256Hasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    fn finish(&self) -> u64 {
        let d = self.0.clone().finalize();
        u64::from_le_bytes(d[..8].try_into().expect("8 bytes"))
    }
}

/// Whether the cache directory may be trusted: the user's own, and neither the group nor
/// others may write to it (else another user could plant a cache with made-up symbols, or
/// replace one). A symbolic link to such a directory is followed (`~/.cache` is often one).
pub(crate) fn check_dir(dir: &Path) -> Result<(), String> {
    private::check_dir(dir, true)
}

/// Writes `bytes` to `path` through a temporary file renamed over it
/// ([`private::write_replacing`]), then removes what killed writers left.
fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let result = private::write_replacing(path, bytes);
    if result.is_ok() {
        remove_leftovers(path);
    }
    result
}

/// Keeps the cache directory bounded: removes the temporary files a killed process left
/// (older than [`LEFTOVER`]: a live writer's is younger) and the caches of folders not
/// indexed for [`UNUSED`] (a folder deleted or no longer opened; a folder in use is written
/// again whenever its files change).
fn remove_leftovers(path: &Path) {
    let Some(dir) = path.parent() else { return };
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let file = e.file_name();
        let Some(file) = file.to_str() else { continue };
        let age = e
            .metadata()
            .and_then(|m| m.modified())
            .map_or(Duration::ZERO, |t| t.elapsed().unwrap_or_default());
        let leftover = file.ends_with(".tmp") && file.contains(".symbols.") && age > LEFTOVER;
        let unused = file.ends_with(".symbols") && age > UNUSED;
        if leftover || unused {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// How old a temporary file of a write is when its process is surely gone.
const LEFTOVER: Duration = Duration::from_secs(600);
/// How long the cache of a folder that is not indexed is kept.
const UNUSED: Duration = Duration::from_secs(30 * 24 * 3600);

#[cfg(test)]
mod tests {
    use super::*;

    /// Two writes of one cache file at once in one process (two indexes of a folder, as when
    /// the workspace's folders change while the old index writes) both succeed, and the file
    /// left is one of them whole. With one temporary file per process, the second rename found
    /// it gone (ENOENT: "the symbol cache is not written").
    #[test]
    fn two_writes_at_once_in_one_process_both_succeed() {
        let dir = std::env::temp_dir().join(format!("locus-cache-writes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("0123.symbols");
        let contents = [vec![b'a'; 4 << 20], vec![b'b'; 3 << 20]];
        for round in 0..20 {
            let barrier = std::sync::Barrier::new(2);
            let results: Vec<std::io::Result<()>> = std::thread::scope(|s| {
                let writers: Vec<_> = contents
                    .iter()
                    .map(|bytes| {
                        let (barrier, path) = (&barrier, &path);
                        s.spawn(move || {
                            barrier.wait();
                            write_atomic(path, bytes)
                        })
                    })
                    .collect();
                writers.into_iter().map(|w| w.join().unwrap()).collect()
            });
            for r in results {
                r.unwrap_or_else(|e| panic!("round {round}: {e}"));
            }
            let left = std::fs::read(&path).unwrap();
            assert!(contents.contains(&left), "round {round}: a mix of both writes");
        }
        let names: Vec<_> =
            std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(names, ["0123.symbols"], "temporary files left");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A link planted under a temporary file's name (another user guessing the pid) is not
    /// followed: the file it names keeps its text, and the cache file is written whole.
    #[cfg(unix)]
    #[test]
    fn a_link_planted_as_the_temporary_file_is_not_followed() {
        let dir = std::env::temp_dir().join(format!("locus-cache-link-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim");
        std::fs::write(&victim, "mine").unwrap();
        let path = dir.join("0123.symbols");
        // Every name this process's next writes may take (the count is per process: the
        // other test here writes 40 times).
        for n in 0..1000 {
            let tmp = dir.join(format!("0123.symbols.{}.{n}.tmp", std::process::id()));
            std::os::unix::fs::symlink(&victim, tmp).unwrap();
        }
        write_atomic(&path, b"cache").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"mine");
        assert_eq!(std::fs::read(&path).unwrap(), b"cache");
        assert!(!std::fs::symlink_metadata(&path).unwrap().file_type().is_symlink());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
