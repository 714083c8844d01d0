//! `locus lsp` costs on a large TypeScript file (`locus_fixture::data::LARGE_TYPESCRIPT`):
//! - `did_change_one_char`: one character inserted or deleted, applied to the mirror and
//!   reparsed, in process (the editor-state code the server runs);
//! - `get_context_after_change`: a `locus/getContext` round trip over stdio to the real
//!   binary, right after a one-character `didChange`;
//! - `first_context_after_open`: what a user waits for the first answer about a file the
//!   editor just opened: `didOpen` of the whole file, a cursor, and the first `getContext`
//!   round trip, against a fresh `locus lsp` whose editor connected half a second earlier
//!   (editors take longer than that to open their first buffer; the server compiles the
//!   workspace's likely queries meanwhile).
//!
//! Before the benchmarks it prints resident memory with 1,000 documents of the fetched files open and after
//! closing them. Run: `cargo bench -p locus-server --bench lsp`.

#[allow(dead_code, unused_imports, reason = "the bench uses only part of the state module")]
#[path = "../src/state/mod.rs"]
mod state;

#[path = "../src/process.rs"]
mod process;

#[path = "../tests/lsp_support/mod.rs"]
mod lsp_support;

use divan::Bencher;
use locus_doc::{Position, PositionEncoding, Range};
use serde_json::{Value, json};

const LARGE: &str = locus_fixture::data::LARGE_TYPESCRIPT;
/// `let magicMethodSupported = true;`: typing `x` renames the variable.
const LINE: u32 = 14999;
const COLUMN: u32 = 8;

fn large_text() -> String {
    locus_fixture::data::read("ts", LARGE)
}

fn main() {
    memory_report();
    divan::main();
}

/// One character typed, then deleted, alternately: the document stays the same size.
fn one_char_change(i: u64) -> (Range, &'static str) {
    let at = Position::new(LINE, COLUMN);
    if i.is_multiple_of(2) {
        (Range { start: at, end: at }, "x")
    } else {
        (Range { start: at, end: Position::new(LINE, COLUMN + 1) }, "")
    }
}

#[divan::bench(sample_count = 200, sample_size = 1)]
fn did_change_one_char(bencher: Bencher) {
    let uri = "file:///bench/lib.dom.d.ts";
    let mut s = state::EditorState::new();
    s.open(uri, "typescript", 0, &large_text());
    let mut i = 0u64;
    bencher.bench_local(|| {
        i += 1;
        let (range, text) = one_char_change(i);
        let change = state::Change { range: Some(range), text: text.into() };
        s.change(uri, Some(i as i32), &[change], PositionEncoding::Utf16).unwrap();
        // Parsed now, even if the state would have deferred it.
        s.reparse(uri).unwrap();
    });
}

#[divan::bench(sample_count = 200, sample_size = 1)]
fn get_context_after_change(bencher: Bencher) {
    let path = locus_fixture::data::file("ts", LARGE);
    let uri = format!("file://{}", std::fs::canonicalize(&path).unwrap_or(path).display());
    let mut server = lsp_support::Server::start(&["--no-mcp"]);
    server.initialize(json!({"capabilities": {"experimental": {"locus": {"cursor": true}}}}));
    server.open(&uri, "typescript", 0, &large_text());
    let cursor =
        json!({"textDocument": {"uri": uri}, "position": {"line": LINE, "character": COLUMN}});
    server.notify("locus/didChangeCursor", cursor);
    // The first outline of the document is computed once, here.
    let first = server.context(Value::Null);
    assert_eq!(first["symbols"]["source"], "tree-sitter");
    let mut i = 0u64;
    let server = std::cell::RefCell::new(server);
    bencher
        .with_inputs(|| {
            i += 1;
            let (range, text) = one_char_change(i);
            let range = json!({"start": {"line": range.start.line, "character": range.start.character},
                               "end": {"line": range.end.line, "character": range.end.character}});
            server.borrow_mut().change(&uri, i as i32, json!([{"range": range, "text": text}]));
        })
        .bench_local_values(|()| {
            let ctx = server.borrow_mut().context(Value::Null);
            assert!(ctx["symbols"]["containingScopes"].as_array().is_some_and(|a| !a.is_empty()));
        });
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn first_context_after_open(bencher: Bencher) {
    let path = locus_fixture::data::file("ts", LARGE);
    let path = std::fs::canonicalize(&path).unwrap_or(path);
    let folder = format!("file://{}", path.parent().expect("a folder").display());
    let uri = format!("file://{}", path.display());
    let text = large_text();
    bencher
        .with_inputs(|| {
            let mut server = lsp_support::Server::start(&["--no-mcp"]);
            server.initialize(json!({"rootUri": folder,
                "capabilities": {"experimental": {"locus": {"cursor": true}}}}));
            std::thread::sleep(std::time::Duration::from_millis(500));
            server
        })
        .bench_local_values(|mut server| {
            server.open(&uri, "typescript", 0, &text);
            let cursor =
                json!({"textDocument": {"uri": uri}, "position": {"line": LINE, "character": COLUMN}});
            server.notify("locus/didChangeCursor", cursor);
            let ctx = server.context(Value::Null);
            assert!(ctx["symbols"]["containingScopes"].as_array().is_some_and(|a| !a.is_empty()));
            server
        });
}

/// Resident memory of `locus lsp` with 1,000 documents of the fetched files open, and after closing them.
fn memory_report() {
    let files = locus_fixture::data::files_of(&["ts", "tsx", "js", "py", "md"]);
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|p| {
            (
                p.extension().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(p).unwrap(),
            )
        })
        .collect();
    let language = |ext: &str| match ext {
        "ts" => "typescript",
        "tsx" => "typescriptreact",
        "js" => "javascript",
        "py" => "python",
        _ => "markdown",
    };
    let mut server = lsp_support::Server::start(&["--no-mcp"]);
    server.initialize(json!({}));
    server.request("locus/debugState", Value::Null).unwrap();
    let baseline = server.rss_kib();
    let mut bytes = 0;
    for i in 0..1000 {
        let (ext, text) = &texts[i % texts.len()];
        bytes += text.len();
        server.open(&format!("file:///mem/{i}.{ext}"), language(ext), 1, text);
    }
    // A context per document: every outline computed, as agents would ask.
    for i in 0..1000 {
        let (ext, _) = &texts[i % texts.len()];
        server.context(json!({"textDocument": {"uri": format!("file:///mem/{i}.{ext}")}}));
    }
    let open = server.rss_kib();
    for i in 0..1000 {
        let (ext, _) = &texts[i % texts.len()];
        server.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": format!("file:///mem/{i}.{ext}")}}),
        );
    }
    let state = server.request("locus/debugState", Value::Null).unwrap();
    assert_eq!(state["open"], 0);
    let closed = server.rss_kib();
    println!(
        "memory: baseline {} MiB; 1,000 documents open ({} MiB of text, {} distinct files, outlines computed) {} MiB; after closing them {} MiB",
        baseline / 1024,
        bytes >> 20,
        texts.len(),
        open / 1024,
        closed / 1024
    );
}
