//! 1,000 open documents stay cheap, and closing them gives the memory back.

mod lsp_support;

use lsp_support::Server;
use serde_json::{Value, json};

#[test]
#[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
fn a_thousand_documents_open_and_close() {
    let mut texts = Vec::new();
    for (dir, language) in
        [("ts", "typescript"), ("py", "python"), ("md", "markdown"), ("js", "javascript")]
    {
        for path in locus_fixture::data::files_of(&[dir]) {
            texts.push((
                language,
                path.extension().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&path).unwrap(),
            ));
        }
    }
    texts.sort();
    let mut s = Server::start(&[]);
    s.initialize(json!({}));
    s.request("locus/debugState", Value::Null).unwrap();
    let baseline = s.rss_kib();
    let uri = |i: usize| format!("file:///mem/{i}.{}", texts[i % texts.len()].1);
    let started = std::time::Instant::now();
    for i in 0..1000 {
        let (language, _, text) = &texts[i % texts.len()];
        s.open(&uri(i), language, 1, text);
    }
    // Every document answers, with its symbols (a file may have none: click's
    // `_winconsole.py` asserts it runs on Windows, so pyright, and Locus, list nothing).
    let mut with_symbols = 0;
    for i in (0..1000).step_by(7) {
        let ctx = s.context(
            json!({"textDocument": {"uri": uri(i)}, "position": {"line": 40, "character": 2}}),
        );
        assert_eq!(ctx["file"]["path"], format!("/mem/{i}.{}", texts[i % texts.len()].1));
        with_symbols += usize::from(ctx["symbols"]["totalInDocument"].as_u64().unwrap() > 0);
    }
    assert!(with_symbols > 1000 / 7 * 9 / 10, "only {with_symbols} documents with symbols");
    let state = s.request("locus/debugState", Value::Null).unwrap();
    assert_eq!(state["open"], 1000);
    let open = s.rss_kib();
    eprintln!("1,000 documents opened in {:?}", started.elapsed());
    for i in 0..1000 {
        s.notify("textDocument/didClose", json!({"textDocument": {"uri": uri(i)}}));
    }
    let state = s.request("locus/debugState", Value::Null).unwrap();
    assert_eq!(state["open"], 0);
    let closed = s.rss_kib();
    eprintln!("RSS: baseline {baseline} KiB, 1,000 open {open} KiB, all closed {closed} KiB");
    let grown = open.saturating_sub(baseline);
    assert!(grown > 0);
    assert!(
        closed < baseline + grown / 2,
        "closing gives back at least half: {baseline} -> {open} -> {closed} KiB"
    );
    assert!(s.stop().success());
}
