//! Scope files: every `^` expectation under `tests/scopes/<language>/` (see its README).

use std::path::Path;

use locus_doc::Document;
use locus_scopes::{Registry, Source};

/// The chain at `offset` as the scope files write it.
pub fn chain_text(source: &Source, offset: usize) -> String {
    let outline = source.outline();
    let chain = outline.chain_at(offset);
    if chain.is_empty() {
        return "<file>".to_string();
    }
    chain.iter().map(|s| format!("{}:{}", s.kind, s.name)).collect::<Vec<_>>().join(" > ")
}

#[test]
fn scope_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/scopes");
    let registry = Registry::builtin();
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let id = dir.file_name().unwrap().to_string_lossy().into_owned();
        let lang = registry
            .by_id(&id)
            .unwrap_or_else(|| panic!("tests/scopes/{id}: no such language in grammars/"));
        let comment = registry
            .entry(lang)
            .comment
            .unwrap_or_else(|| panic!("grammars/{id}.toml has no comment token"));
        let mut files: Vec<_> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let source = Source::new(Document::new(&text, 0), Some(lang));
            assert!(source.error().is_none(), "{}", source.error().unwrap());
            let annotations = locus_fixture::annotations(&text, comment);
            assert!(!annotations.is_empty(), "{} has no ^ expectations", file.display());
            for a in annotations {
                checked += 1;
                let actual = chain_text(&source, a.offset);
                if actual != a.expected {
                    failures.push(format!(
                        "{}:{}\n  expected: {}\n  actual:   {actual}",
                        file.display(),
                        a.line,
                        a.expected
                    ));
                }
            }
        }
    }
    println!("{checked} expectations checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} scope expectations failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_language_has_scope_files_and_loading_queries() {
    let registry = Registry::builtin();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/scopes");
    for lang in registry.languages() {
        let id = lang.id();
        if let Err(e) = registry.config(lang) {
            panic!("{e}");
        }
        let dir = root.join(id);
        let files = std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
        assert!(files > 0, "{id}: add at least one scope file under tests/scopes/{id}/");
    }
}
