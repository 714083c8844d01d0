//! Benchmarks of the symbol index: building it over a folder, and searching it.
//!
//! The folder is `$LOCUS_BENCH_INDEX_DIR` when set (for example a copy of the Python standard
//! library, as `benches/stdlib.py` makes), else the large files of `../shared/corpus/large/`.
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
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/large"),
    }
}

fn config() -> Config {
    Config { watch: false, ..Config::standard() }
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

/// Names of the corpus files, and costly ones: a letter (a prefix of thousands of names),
/// fuzzy-only (`chkexpr`, `test_et`), nothing (`zzqx`), a container part with a broad name.
#[divan::bench(args = [
    "check", "Checker", "TypeEvaluator.validateArgs", "getTypeOfExpr", "chkexpr", "zzqx", "e",
    "test_et", "Type.get",
])]
fn search(bencher: divan::Bencher, text: &str) {
    let index = index();
    let query = Query { text: text.into(), kinds: Vec::new(), path: None, limit: 20, near: None };
    bencher.bench(|| divan::black_box(index.search(&query).hits.len()));
}
