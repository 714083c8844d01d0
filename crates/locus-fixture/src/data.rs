//! Real-world files for tests and benchmarks: files of npm and PyPI packages and of the
//! Python standard library, pinned in `tests/data/sources.toml` and fetched outside the
//! clone by `scripts/fetch-test-data.py`, which checks each by hash.
//!
//! Tests that read them are `#[ignore]`d, so a plain `cargo test` needs nothing beyond the
//! toolchain; `scripts/test.sh` fetches the data and runs them. A missing file panics with the
//! command that fetches it: such a test never passes without its data.

use std::path::PathBuf;

/// The large TypeScript file benchmarks and scale tests open (label of `ts`): TypeScript's
/// `lib.dom.d.ts`, about 39,000 lines of declarations.
pub const LARGE_TYPESCRIPT: &str = "typescript__lib_lib.dom.d.ts";

/// The large Python file benchmarks and scale tests open (label of `py`): mypy's `checker.py`,
/// about 10,000 lines, most of them one class.
pub const LARGE_PYTHON: &str = "mypy__mypy_checker.py";

/// The data folder: `$LOCUS_TEST_DATA`, else `$XDG_CACHE_HOME/locus/test-data`, else
/// `~/.cache/locus/test-data` (as `scripts/fetch-test-data.py` decides).
pub fn data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("LOCUS_TEST_DATA").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .expect("neither LOCUS_TEST_DATA, XDG_CACHE_HOME nor HOME is set");
    cache.join("locus/test-data")
}

/// The folder of fetched files, one folder per language (`ts`, `tsx`, `js`, `py`, `md`)
/// holding each file under its label. Panics when it was never fetched.
pub fn files_dir() -> PathBuf {
    let dir = data_dir().join("files");
    assert!(
        dir.is_dir(),
        "{} is missing: run scripts/fetch-test-data.py (scripts/test.sh does)",
        dir.display()
    );
    dir
}

/// The fetched file `label` of language `lang`. Panics when it is missing.
pub fn file(lang: &str, label: &str) -> PathBuf {
    let path = files_dir().join(lang).join(label);
    assert!(
        path.is_file(),
        "{} is missing: run scripts/fetch-test-data.py (is {lang}/{label} in tests/data/sources.toml?)",
        path.display()
    );
    path
}

/// The text of the fetched file `label` of language `lang`.
pub fn read(lang: &str, label: &str) -> String {
    let path = file(lang, label);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every fetched file of the languages `langs`, and the repository's own fidelity files of
/// odd cases (`tests/fidelity/files/<lang>/`), sorted: real source for tests that run over
/// many files.
pub fn files_of(langs: &[&str]) -> Vec<PathBuf> {
    let own = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fidelity/files");
    let fetched = files_dir();
    let mut files = Vec::new();
    for lang in langs {
        for dir in [own.join(lang), fetched.join(lang)] {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            files.extend(entries.map(|e| e.expect("a readable folder").path()));
        }
    }
    files.sort();
    files
}
