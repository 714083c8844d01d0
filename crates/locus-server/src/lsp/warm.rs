//! Query compilation ahead of need. Compiling a language's symbol query is the largest part of
//! the first answer for a file (tree-sitter analyses every pattern against the grammar: about
//! 100 ms for TypeScript), and it happens once per process. So when an editor connects, a
//! background thread compiles the queries of the languages the workspace holds most files
//! of, before the editor opens one; a document opened meanwhile waits only for the rest of its
//! own language's compilation (the registry compiles each language once, whoever asks first).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use locus_scopes::{Language, Registry};

/// Directory entries looked at, at most, across all folders: the scan is a guess, not an index.
const MAX_ENTRIES: usize = 2_000;

/// Compiles, on a background thread, the queries of the languages found in `folders` (their
/// files and those one directory down), the most common first.
pub fn start(folders: Vec<PathBuf>) {
    let spawned = std::thread::Builder::new().name("locus-warm-queries".into()).spawn(move || {
        let registry = Registry::builtin();
        for language in likely_languages(&folders) {
            // A query that fails to load is reported when a document of it is opened.
            let _ = registry.config(language);
        }
    });
    if let Err(e) = spawned {
        eprintln!("locus: cannot start compiling queries ahead: {e}");
    }
}

/// The languages of the files in `folders` and their direct subfolders (hidden ones and
/// `node_modules`-like dependency folders skipped), the most frequent first.
fn likely_languages(folders: &[PathBuf]) -> Vec<Language> {
    let registry = Registry::builtin();
    let mut counts: HashMap<&'static str, (Language, usize)> = HashMap::new();
    let mut seen = 0;
    let mut count = |path: &Path| {
        if let Some(language) = registry.for_path(path, None) {
            counts.entry(language.id()).or_insert((language, 0)).1 += 1;
        }
    };
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(folder) else { continue };
        for entry in entries.flatten().take(MAX_ENTRIES.saturating_sub(seen)) {
            seen += 1;
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || matches!(&*name, "node_modules" | "target" | "vendor") {
                continue;
            }
            if path.is_dir() {
                let Ok(inner) = std::fs::read_dir(&path) else { continue };
                for entry in inner.flatten().take(MAX_ENTRIES.saturating_sub(seen)) {
                    seen += 1;
                    count(&entry.path());
                }
            } else {
                count(&path);
            }
        }
    }
    let mut found: Vec<(Language, usize)> = counts.into_values().collect();
    found.sort_by_key(|&(language, n)| (std::cmp::Reverse(n), language.id()));
    found.into_iter().map(|(language, _)| language).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_s_most_common_languages_come_first() {
        let dir = std::env::temp_dir().join(format!("locus-warm-{}", std::process::id()));
        let src = dir.join("src");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::create_dir_all(dir.join("node_modules/x")).unwrap();
        for name in ["src/a.py", "src/b.py", "README.md", "node_modules/x/i.js", ".hidden.ts"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let ids: Vec<&str> =
            likely_languages(std::slice::from_ref(&dir)).into_iter().map(|l| l.id()).collect();
        assert_eq!(ids, ["python", "markdown"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
