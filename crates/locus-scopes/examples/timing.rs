//! Prints parse and symbol-extraction times for a file: `cargo run --release -p locus-scopes --example timing FILE`.
use std::time::Instant;

use locus_doc::Document;
use locus_scopes::{Registry, Source};

fn main() {
    let path = std::env::args().nth(1).expect("usage: timing FILE");
    let text = std::fs::read_to_string(&path).unwrap();
    let lang = Registry::builtin().for_path(std::path::Path::new(&path), None);
    let t = Instant::now();
    let _ = Registry::builtin().config(lang.unwrap());
    println!("query compile: {:?}", t.elapsed());
    for _ in 0..3 {
        let t = Instant::now();
        let source = Source::new(Document::new(&text, 0), lang);
        let parse = t.elapsed();
        let t = Instant::now();
        let n = source.outline().total;
        println!("parse: {parse:?}  extract: {:?}  ({n} symbols)", t.elapsed());
    }
    // The extraction alone, 9 times: run under `taskset -c 0` for one thread's cost, the figure
    // to compare two queries by on a busy machine (the minimum).
    let mut runs: Vec<std::time::Duration> = (0..9)
        .map(|_| {
            let source = Source::new(Document::new(&text, 0), lang);
            let t = Instant::now();
            let _ = source.outline();
            t.elapsed()
        })
        .collect();
    runs.sort();
    println!("extract alone, 9 runs: min {:?}, median {:?}", runs[0], runs[4]);
    // One-character edits in the middle of the file: reparse, then the outline update.
    let mut source = Source::new(Document::new(&text, 0), lang);
    let _ = source.outline();
    let at = source.doc().line_content_end(source.doc().line_of(text.len() / 2));
    for i in 0..6 {
        let t = Instant::now();
        if i % 2 == 0 {
            source.replace_bytes(at, at, " ");
        } else {
            source.replace_bytes(at, at + 1, "");
        }
        let edit = t.elapsed();
        let t = Instant::now();
        let n = source.outline().total;
        println!("edit+reparse: {edit:?}  outline update: {:?}  ({n} symbols)", t.elapsed());
    }
}
