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
}
