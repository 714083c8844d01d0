//! Benchmarks of the symbol index: building it over a folder, and searching it.
//!
//! The folder is `$LOCUS_BENCH_INDEX_DIR` when set (for example a copy of the Python standard
//! library, as `benches/stdlib.py` makes), else the real files fetched from registry packages
//! (`scripts/fetch-test-data.py`).
//! `cargo bench -p locus-index`. Whole-process figures (cold index of the standard library,
//! RSS, query latency through MCP, edit to found) come from `benches/stdlib.py`.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use locus_index::{Config, Index, Query};

fn main() {
    divan::main();
}

fn folder() -> PathBuf {
    match std::env::var_os("LOCUS_BENCH_INDEX_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => locus_fixture::data::files_dir(),
    }
}

fn config() -> Config {
    // No symbol cache: every build parses, as a first start does.
    Config { watch: false, cache_dir: None, ..Config::standard() }
}

fn index() -> &'static Arc<Index> {
    static INDEX: OnceLock<Arc<Index>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let index = Index::start(vec![folder()], config());
        assert!(index.wait_built(Duration::from_secs(600)), "the index was not built");
        index
    })
}

#[divan::bench(sample_count = 3, sample_size = 1)]
fn build() {
    let index = Index::start(vec![folder()], config());
    assert!(index.wait_built(Duration::from_secs(600)));
    divan::black_box(index.status().symbols);
}

/// Names of the large files, and costly ones: a letter (a prefix of thousands of names),
/// fuzzy-only (`chkexpr`, `test_et`), nothing (`zzqx`), a container part with a broad name.
#[divan::bench(args = [
    "check", "Checker", "HTMLElement.addEventListener", "getElementsByTagName", "chkexpr", "zzqx", "e",
    "test_et", "Type.get",
])]
fn search(bencher: divan::Bencher, text: &str) {
    let index = index();
    let query = Query { text: text.into(), kinds: Vec::new(), path: None, limit: 20, near: None };
    bencher.bench(|| divan::black_box(index.search(&query).hits.len()));
}

/// An index built over the fetched Python files, the path of `checker.py` there and its text.
fn checker_indexed() -> (Arc<Index>, PathBuf, String) {
    let path = locus_fixture::data::file("py", locus_fixture::data::LARGE_PYTHON);
    let text = std::fs::read_to_string(&path).unwrap();
    let path = std::fs::canonicalize(&path).unwrap();
    let index = Index::start(vec![path.parent().unwrap().to_path_buf()], config());
    assert!(index.wait_built(Duration::from_secs(600)));
    (index, path, text)
}

/// `sync_open` of the 10k-line `checker.py`, open with a parsed source, at a new version each
/// time (as after an edit): the index query's full extraction over the editor's tree, what
/// the first `symbol_search` after an edit pays in the tool call's thread (the editor's own
/// outline is another query's and is not reused).
#[divan::bench(sample_count = 20, sample_size = 1)]
fn sync_open_python(bencher: divan::Bencher) {
    use locus_doc::Document;
    use locus_index::OpenDoc;
    use locus_scopes::{Registry, Source};
    let (index, path, text) = checker_indexed();
    let language = Registry::builtin().by_id("python");
    let open = |version| {
        let doc = Document::new(&text, version);
        let source = Source::new(doc.clone(), language);
        OpenDoc { path: path.clone(), doc, language_id: "python".into(), source: Some(source) }
    };
    index.sync_open(vec![open(0)]);
    assert_eq!(index.status().open_documents, 1, "checker.py was not taken as open");
    let mut version = 0;
    bencher
        .with_inputs(|| {
            version += 1;
            open(version)
        })
        .bench_local_values(|d| index.sync_open(vec![d]));
}

/// `sync_open` of the open `checker.py` after an edit of the editor's source (a snapshot of
/// each version, as the sidecar syncs it): the index outline is updated from the previous
/// version's around the change (`Source::index_outline`), not extracted again. The edit is a
/// character typed in a method body in the middle of the file (then removed by the next
/// edit), or a new `def` typed at the end of the file.
#[divan::bench(args = ["method body", "module end"])]
fn sync_open_python_edited(bencher: divan::Bencher, place: &str) {
    use locus_doc::Document;
    use locus_index::OpenDoc;
    use locus_scopes::{Registry, Source};
    let (index, path, text) = checker_indexed();
    let mut source = Source::new(Document::new(&text, 0), Registry::builtin().by_id("python"));
    let body = text.find("lit = literal_hash(lvalue)\n").expect("a line of checker.py");
    let open = |source: &Source| OpenDoc {
        path: path.clone(),
        doc: source.doc().clone(),
        language_id: "python".into(),
        source: Some(source.snapshot()),
    };
    index.sync_open(vec![open(&source)]);
    let mut version = 0;
    bencher
        .with_inputs(|| {
            version += 1;
            match (place, version % 2) {
                ("method body", 1) => source.replace_bytes(body, body, "x"),
                ("method body", _) => source.replace_bytes(body, body + 1, ""),
                _ => {
                    let end = source.doc().len_bytes();
                    source.replace_bytes(end, end, &format!("def typed_{version}():\n    pass\n"))
                }
            };
            source.set_version(version);
            open(&source)
        })
        .bench_local_values(|d| index.sync_open(vec![d]));
}
