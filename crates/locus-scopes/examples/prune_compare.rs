//! One thread's CPU for the workspace index's extraction of every file of some directories in
//! a language with an index query: the parse, the index query run over the whole tree, and
//! the pruned extraction the index uses (`pruned.rs`), each summed over the files:
//! `taskset -c 0 cargo run --release -p locus-scopes --example prune_compare DIR...`.
//! That both give the index the same symbols is checked by `locus-index`'s test
//! `the_pruned_extraction_gives_the_symbols_of_the_full_query` (`LOCUS_PRUNE_COMPARE_DIR=DIR`
//! for any directory).
use std::path::PathBuf;
use std::time::{Duration, Instant};

use locus_doc::Document;
use locus_scopes::IndexExtraction::{FullQuery, PrunedOnly};
use locus_scopes::Registry;

fn main() {
    let dirs: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    assert!(!dirs.is_empty(), "usage: prune_compare DIR...");
    let registry = Registry::builtin();
    let mut files = Vec::new();
    let mut stack = dirs;
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).unwrap().flatten() {
                stack.push(e.path());
            }
        } else if let Some(l) = registry.for_path(&p, None)
            && registry.has_index_query(l)
        {
            files.push((p, l));
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    // The query compiles once per process: not counted.
    if let Some((_, l)) = files.first() {
        let _ = registry.index_config(*l);
    }
    let (mut parse, mut full, mut pruned) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut compared, mut refused) = (0, 0);
    for (path, language) in &files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let doc = Document::new(&text, 0);
        let t = Instant::now();
        let Some(tree) = locus_scopes::index_parse(&doc, *language) else { continue };
        parse += t.elapsed();
        let t = Instant::now();
        let b = locus_scopes::index_outline_of_tree(&doc, *language, &tree, PrunedOnly);
        pruned += t.elapsed();
        let t = Instant::now();
        let _ = locus_scopes::index_outline_of_tree(&doc, *language, &tree, FullQuery);
        full += t.elapsed();
        compared += 1;
        if b.is_none() {
            refused += 1;
            println!("refused: {}", path.display());
        }
    }
    println!(
        "{compared} files ({refused} refused by the pruned extraction): parse {:.3} s, full \
         query {:.3} s, pruned extraction {:.3} s",
        parse.as_secs_f64(),
        full.as_secs_f64(),
        pruned.as_secs_f64(),
    );
}
