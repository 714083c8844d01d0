//! Tests of extraction: gathering in parts on several threads finds what one run finds, and
//! `root.up` patterns confirm seeds.

use super::*;
use crate::{Registry, Source};

/// A candidate as compared: rank, kind, range, names, helpers.
type Seen = (usize, SymbolKind, Span, Vec<Span>, Vec<(u32, Span)>);

/// Every candidate gathered, in a comparable order.
fn summary(g: &Gathered) -> Vec<Seen> {
    let mut v: Vec<_> = g
        .candidates
        .values()
        .chain(g.in_text.iter().map(|(_, c)| c))
        .map(|c| (c.pattern, c.kind, c.range, c.names.clone(), c.helpers.clone()))
        .collect();
    v.sort_by_key(|c| (c.2.start, c.2.end, c.0));
    v
}
/// A document's query run in parts on several threads finds what one run finds, wherever
/// the cuts fall (inside symbols, between them, at a match's edge).
#[test]
#[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
fn gathering_in_parts_equals_one_run() {
    let mut checked = 0;
    for (path, source, config) in fidelity_files() {
        let tree = source.tree().unwrap();
        let doc = source.doc();
        let whole = summary(&gather(&config, &Runtime::default(), tree, doc, None, 0..usize::MAX));
        let n = doc.len_bytes();
        for cuts in [vec![n / 2], vec![n / 3, 2 * n / 3], vec![1, n / 7, n - 1]] {
            let parts = summary(&gather_split(&config, &Runtime::default(), tree, doc, &cuts));
            assert!(whole == parts, "{} cut at {cuts:?}", path.display());
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} files");
}

/// Every real TS, TSX, JS, Python and Markdown file of the tests (fetched from registry
/// packages, and our own odd cases), parsed, with its language's editor query.
fn fidelity_files() -> Vec<(std::path::PathBuf, Source, std::sync::Arc<LanguageConfig>)> {
    let mut out = Vec::new();
    for path in locus_fixture::data::files_of(&["ts", "tsx", "js", "py", "md"]) {
        let text = std::fs::read_to_string(&path).unwrap();
        let language = Registry::builtin().for_path(&path, None).unwrap();
        let source = Source::new(Document::new(&text, 0), Some(language));
        let config = Registry::builtin().config(language).unwrap();
        out.push((path, source, config));
    }
    out
}

/// The `root.up` patterns tried over two threads, each over half of the roots, find what
/// one run finds (every language with such patterns).
#[test]
#[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
fn deferred_patterns_in_two_parts_equal_one_run() {
    let mut checked = 0;
    for (path, source, config) in fidelity_files() {
        let Some(deferred) = &config.deferred else { continue };
        let (tree, doc) = (source.tree().unwrap(), source.doc());
        let seen = |split: bool| {
            let mut g = gather(&config, &Runtime::default(), tree, doc, None, 0..usize::MAX);
            g.take_deferred(&config, deferred, doc, split);
            let (mut skipped, mut extended, mut ignored) =
                (g.skipped.clone(), g.extended.clone(), g.ignored.clone());
            skipped.sort();
            extended.sort();
            ignored.sort();
            (summary(&g), skipped, extended, ignored)
        };
        assert!(seen(false) == seen(true), "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} files");
}

/// A seed is a symbol only where a `root.up` pattern confirms it (SEED_QUERY).
#[test]
fn a_seed_is_a_symbol_only_where_a_root_up_pattern_confirms_it() {
    use crate::query::tests::{SEED_QUERY, javascript};
    let config = LanguageConfig::from_source(&javascript(), SEED_QUERY).unwrap();
    let text = "x = { a: 1, b: \"s\", c: { d: 2 } };\n";
    let doc = Document::new(text, 0);
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&config.language).unwrap();
    let tree = parser.parse(text, None).unwrap();
    let outline = extract(&config, &Runtime::default(), &tree, &doc);
    let names: Vec<&str> = outline.symbols.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a", "d"], "the values of b and c are no numbers");
}
