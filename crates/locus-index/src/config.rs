//! [`Config`]: how the index is built, with its defaults from the environment. The walk, the
//! cache and the index all read it, and it reads none of them (the cache's own file names,
//! [`Config::cache_file`], are said in `cache.rs`).

use std::path::PathBuf;
use std::time::SystemTime;

use locus_scopes::Language;

use crate::warnings::Reporter;

/// Languages whose outlines are data, not definitions: not indexed unless asked.
pub const DATA_LANGUAGES: &[&str] = &["json", "yaml", "toml"];

/// How the index is built.
#[derive(Debug, Clone)]
pub struct Config {
    /// Files larger than this are skipped (counted as too large).
    pub max_file_bytes: u64,
    /// The index stops growing past this estimate of its memory, and says which folders
    /// are the largest.
    pub max_index_bytes: usize,
    /// Language ids not indexed.
    pub skip_languages: Vec<String>,
    /// Threads building the index (the machine's cores by default).
    pub threads: usize,
    /// Whether to watch the folders for changes on disk.
    pub watch: bool,
    /// The directory of the symbol cache (one file per workspace folder), `None` for no
    /// cache. By default `$LOCUS_CACHE_DIR/index`, else the user's cache folder's
    /// `locus/index` (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS,
    /// `%LOCALAPPDATA%\locus\cache` on Windows); `LOCUS_INDEX_CACHE=0` turns it off.
    pub cache_dir: Option<PathBuf>,
    /// What identifies the code that computes symbols, part of the cache's key: a cache
    /// written under another is ignored. By default Locus's version and the running
    /// executable's size and modification time (any rebuild of Locus).
    pub cache_version: String,
    /// Where the index reports what it could not do (see [`Reporter`]).
    pub warnings: Reporter,
}

impl Config {
    /// The defaults: 2 MiB files, 512 MiB of index, data languages skipped, all cores,
    /// watching. `LOCUS_INDEX_MAX_MB` sets the memory cap.
    /// A setting it cannot use is a warning (see [`Config::warnings`]).
    pub fn standard() -> Config {
        let warnings = Reporter::default();
        let cap_mb = match std::env::var("LOCUS_INDEX_MAX_MB") {
            Ok(v) => match v.trim().parse::<usize>() {
                Ok(mb) if mb > 0 => mb,
                _ => {
                    warnings.warn(format!(
                        "LOCUS_INDEX_MAX_MB={v:?} is not a number of MiB above 0; using 512"
                    ));
                    512
                }
            },
            Err(_) => 512,
        };
        Config {
            max_file_bytes: 2 << 20,
            max_index_bytes: cap_mb << 20,
            skip_languages: DATA_LANGUAGES.iter().map(|s| s.to_string()).collect(),
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            watch: true,
            cache_dir: standard_cache_dir(&warnings),
            cache_version: standard_cache_version(),
            warnings,
        }
    }

    pub(crate) fn indexes(&self, language: Language) -> bool {
        !self.skip_languages.iter().any(|s| s == language.id())
    }
}

/// The symbol cache's directory from the environment (see [`Config::cache_dir`]).
fn standard_cache_dir(warnings: &Reporter) -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(v) = std::env::var_os("LOCUS_INDEX_CACHE")
        && matches!(v.to_str().map(str::trim), Some("0" | "off" | "false" | "no"))
    {
        return None;
    }
    if let Some(dir) = var("LOCUS_CACHE_DIR") {
        if dir.is_absolute() {
            return Some(dir.join("index"));
        }
        // Relative to what? The sidecar and a `locus symbols` in a subfolder would each
        // read another cache, perhaps inside the workspace. Whoever set it wanted the
        // cache somewhere else than the default, so there is no cache rather than that.
        warnings.warn(format!(
            "LOCUS_CACHE_DIR={} is not an absolute path; the symbol cache is off",
            dir.display()
        ));
        return None;
    }
    let cache = locus_platform::folders::Folders::of_host().cache;
    if cache.is_none() {
        warnings.warn(
            "no home folder is set (HOME, or USERPROFILE on Windows); the symbol cache is off"
                .to_string(),
        );
    }
    cache.map(|c| c.join("index"))
}

/// Locus's version and the running executable's identity: a rebuilt Locus may outline
/// differently under the same version number, so its caches are not trusted.
fn standard_cache_version() -> String {
    let exe = std::env::current_exe().and_then(std::fs::metadata).map(|m| {
        let modified =
            m.modified().ok().and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok());
        format!("{} bytes, modified {:?}", m.len(), modified.unwrap_or_default())
    });
    format!("locus {} ({})", env!("CARGO_PKG_VERSION"), exe.unwrap_or_else(|e| e.to_string()))
}
