//! Where a cold index build's time goes, single-threaded: reading the files, parsing them
//! (tree-sitter), a bare `TreeCursor` walk over every node of every tree (what any walk of
//! the whole tree costs at least: the floor under a query), outlining them with the index's
//! query (what the index runs) and with the editor's outline (the symbol query and the
//! outline's rules), in CPU time of the one thread.
//!
//! `cargo run --release -p locus-index --example index_phases -- FOLDER`

use std::time::{Duration, Instant};

/// The calling thread's CPU time: steadier than wall time on a busy machine (wall time
/// where the system does not tell).
fn cpu() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    locus_platform::process::thread_cpu_time()
        .unwrap_or_else(|| START.get_or_init(Instant::now).elapsed())
}

use locus_doc::Document;
use locus_scopes::{Registry, Source};

fn main() {
    let folder = std::env::args().nth(1).expect("a folder");
    let registry = Registry::builtin();
    let t = Instant::now();
    let files: Vec<_> = ignore::WalkBuilder::new(&folder)
        .build()
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| {
            let l = registry.for_path(e.path(), None)?;
            (l.id() == "python").then(|| (e.into_path(), l))
        })
        .collect();
    let walk = t.elapsed();
    let (mut read, mut parse, mut outline) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut walk_nodes, mut index_query) = (Duration::ZERO, Duration::ZERO);
    let (mut lines, mut symbols, mut nodes, mut indexed) = (0, 0, 0u64, 0);
    for (path, language) in &files {
        let t = cpu();
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        lines += text.lines().count();
        let doc = Document::new(&text, 0);
        read += cpu() - t;
        let t = cpu();
        let source = Source::new(doc, Some(*language));
        parse += cpu() - t;
        let t = cpu();
        if let Some(tree) = source.tree() {
            let mut cursor = tree.walk();
            'nodes: loop {
                nodes += 1;
                if cursor.goto_first_child() || cursor.goto_next_sibling() {
                    continue;
                }
                loop {
                    if !cursor.goto_parent() {
                        break 'nodes;
                    }
                    if cursor.goto_next_sibling() {
                        break;
                    }
                }
            }
        }
        walk_nodes += cpu() - t;
        let t = cpu();
        indexed += locus_scopes::index_outline_of_source(&source).map_or(0, |o| o.total);
        index_query += cpu() - t;
        let t = cpu();
        symbols += source.outline().total;
        outline += cpu() - t;
    }
    println!(
        "{} files, {lines} lines, {nodes} nodes, {indexed} index-query symbols, {symbols} outline symbols; \
         walk the folder {walk:?}, read {read:?}, parse {parse:?}, cursor walk over every node {walk_nodes:?}, \
         index query {index_query:?}, editor outline {outline:?}",
        files.len()
    );
}
