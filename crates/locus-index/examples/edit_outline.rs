//! Times what an edit in the editor costs before the index can find it: the incremental
//! reparse of the edited document and the update of its outline (the editor context's), for
//! an edit like `benches/stdlib.py`'s (a new function appended to a large Python file).
//!
//! `cargo run --release -p locus-index --example edit_outline -- FILE [EDITS]`

use std::time::Instant;

use locus_doc::Document;
use locus_scopes::{Registry, Source};

fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let edits: usize = std::env::args().nth(2).map_or(40, |n| n.parse().expect("a number"));
    let text = std::fs::read_to_string(&path).expect("readable");
    let language = Registry::builtin().for_path(std::path::Path::new(&path), None);
    let t = Instant::now();
    let mut source = Source::new(Document::new(&text, 1), language);
    let parse = t.elapsed();
    let t = Instant::now();
    let symbols = source.outline().total;
    println!("parse {parse:?}, outline {:?} ({symbols} symbols)", t.elapsed());
    let (mut reparse, mut update, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..edits {
        let end = source.doc().len_bytes();
        let t = Instant::now();
        source.replace_bytes(end, end, &format!("def typed_in_editor_{i}():\n    pass\n"));
        reparse.push(t.elapsed());
        let t = Instant::now();
        std::hint::black_box(source.outline().total);
        update.push(t.elapsed());
        let t = Instant::now();
        std::hint::black_box(source.outline_from_scratch().total);
        scratch.push(t.elapsed());
    }
    for (label, mut v) in
        [("reparse", reparse), ("outline update", update), ("from scratch", scratch)]
    {
        v.sort();
        println!(
            "{label}: median {:?} p90 {:?} max {:?}",
            v[v.len() / 2],
            v[v.len() * 9 / 10],
            v[v.len() - 1]
        );
    }
}
