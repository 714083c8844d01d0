//! Benchmarks on the large files fetched from registry packages (`locus_fixture::data`; run:
//! `scripts/fetch-test-data.py`, then `cargo bench -p locus-context`).
//!
//! - cold open: parse and compute all symbols of a 30k-line TypeScript and a 10k-line Python file;
//! - context: an editorContext on an already-parsed document;
//! - edit then context: a one-character edit, its incremental reparse, and the next context.

use divan::{Bencher, black_box};
use locus_context::{Request, Symbols, build};
use locus_doc::Document;
use locus_scopes::{Registry, Source};

fn main() {
    divan::main();
}

fn large_file(name: &str) -> String {
    let lang = if name == PY { "py" } else { "ts" };
    locus_fixture::data::read(lang, name)
}

const TS: &str = locus_fixture::data::LARGE_TYPESCRIPT;
const PY: &str = locus_fixture::data::LARGE_PYTHON;

fn open(name: &str, lang: &str) -> Source {
    Source::new(Document::new(&large_file(name), 0), Registry::builtin().by_id(lang))
}

fn request(cursor: usize) -> Request<'static> {
    Request {
        path: "/bench",
        language_id: None,
        is_dirty: false,
        cursor,
        selection: None,
        symbols: Symbols::Syntax,
    }
}

#[divan::bench(args = [(TS, "typescript"), (PY, "python")], sample_count = 20)]
fn cold_open(bencher: Bencher, (name, lang): (&str, &str)) {
    let text = large_file(name);
    let language = Registry::builtin().by_id(lang);
    let _ = Registry::builtin().config(language.unwrap());
    bencher.bench(|| {
        let source = Source::new(Document::new(&text, 0), language);
        black_box(source.outline().total)
    });
}

/// Cursor offsets spread over the file, most of them deep inside functions.
fn cursors(source: &Source, n: usize) -> Vec<usize> {
    let len = source.doc().len_bytes();
    (1..=n).map(|i| len * i / (n + 1)).collect()
}

#[divan::bench(args = [(TS, "typescript"), (PY, "python")])]
fn context_on_parsed_document(bencher: Bencher, (name, lang): (&str, &str)) {
    let source = open(name, lang);
    let _ = source.outline();
    let cursors = cursors(&source, 64);
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % cursors.len();
        black_box(build(&source, &request(cursors[i])))
    });
}

#[divan::bench(args = [(TS, "typescript"), (PY, "python")], sample_count = 50)]
fn edit_then_context(bencher: Bencher, (name, lang): (&str, &str)) {
    let mut source = open(name, lang);
    let _ = source.outline();
    // Type inside a function in the middle of the file: insert a character, then delete it.
    let at = source.doc().len_bytes() / 2;
    let at = source.doc().line_content_end(source.doc().line_of(at));
    let mut inserted = false;
    bencher.bench_local(|| {
        if inserted {
            source.replace_bytes(at, at + 1, "");
        } else {
            source.replace_bytes(at, at, " ");
        }
        inserted = !inserted;
        black_box(build(&source, &request(at)))
    });
}
