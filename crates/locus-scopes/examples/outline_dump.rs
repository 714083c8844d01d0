//! Prints the outline of every file given (one symbol a line: depth, kind, name, range and
//! selection in bytes), for comparing two versions of a query exactly:
//! `LOCUS_QUERY_DIR=queries cargo run --release -p locus-scopes --example outline_dump FILE... > a`.
//! A file whose outline updated after edits differs from its outline from scratch is reported.
use std::fmt::Write as _;

use locus_doc::Document;
use locus_scopes::{Registry, Source};

fn main() {
    let mut out = String::new();
    for path in std::env::args().skip(1) {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let lang = Registry::builtin().for_path(std::path::Path::new(&path), text.lines().next());
        let source = Source::new(Document::new(&text, 0), lang);
        if let Some(e) = source.error() {
            panic!("{path}: {e}");
        }
        writeln!(out, "== {path}").unwrap();
        out.push_str(&source.outline().dump());
    }
    print!("{out}");
}
