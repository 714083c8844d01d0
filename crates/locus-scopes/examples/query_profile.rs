//! Where a symbol query spends its time on a file: the whole query's run, then each pattern's
//! share (the query run with only that pattern enabled), most expensive first:
//! `cargo run --release -p locus-scopes --example query_profile FILE [TOP_N]`.
//! With `LOCUS_QUERY_DIR=queries` the query files are read from disk, so edits need no rebuild.
use std::time::{Duration, Instant};

use locus_scopes::Registry;
use streaming_iterator::StreamingIterator;
use tree_sitter::{Parser, Query, QueryCursor, Tree};

fn run(query: &Query, tree: &Tree, text: &[u8]) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut count = 0;
    for _ in 0..3 {
        let t = Instant::now();
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(query, tree.root_node(), text);
        count = 0;
        while matches.next().is_some() {
            count += 1;
        }
        best = best.min(t.elapsed());
    }
    (best, count)
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: query_profile FILE [TOP_N]");
    let top: usize = std::env::args().nth(2).and_then(|n| n.parse().ok()).unwrap_or(15);
    let text = std::fs::read_to_string(&path).unwrap();
    let registry = Registry::builtin();
    let lang = registry.for_path(std::path::Path::new(&path), None).expect("a known language");
    let entry = registry.entry(lang);
    let grammar = (entry.grammar)();
    // QUERY_FILE=path: time that query text instead of the language's.
    let source = match std::env::var_os("QUERY_FILE") {
        Some(f) => std::fs::read_to_string(f).unwrap(),
        None => locus_scopes::query_source(entry.queries).expect("query source"),
    };
    let mut parser = Parser::new();
    parser.set_language(&grammar).unwrap();
    let t = Instant::now();
    let tree = parser.parse(&text, None).unwrap();
    println!("parse {:?}", t.elapsed());
    let t = Instant::now();
    let query = Query::new(&grammar, &source).expect("the query compiles");
    println!("compile {:?}, {} patterns", t.elapsed(), query.pattern_count());
    // `root.up` patterns are not searched for across the document: leave them out of the text
    // (blanked, so that lines stay where they are), as the loader does. Not disabled: tree-sitter
    // still tries a disabled pattern's slot at every node when some pattern's root is a wildcard.
    let mut main = source.clone().into_bytes();
    for i in 0..query.pattern_count() {
        let (start, end) = (query.start_byte_for_pattern(i), query.end_byte_for_pattern(i));
        if source[start..end].contains("root.up") {
            main[start..end].iter_mut().filter(|b| **b != b'\n').for_each(|b| *b = b' ');
        }
    }
    let source = String::from_utf8(main).expect("whole characters became spaces");
    let query = Query::new(&grammar, &source).expect("the query compiles");
    let (whole, n) = run(&query, &tree, text.as_bytes());
    println!("whole query: {whole:?} ({n} matches)");
    // The two halves of the document, one after the other (what two threads would share).
    let half = text.len() / 2;
    for range in [0..half, half..usize::MAX] {
        let t = Instant::now();
        let mut cursor = QueryCursor::new();
        cursor.set_byte_range(range.clone());
        let mut matches = cursor.matches(&query, tree.root_node(), text.as_bytes());
        let mut n = 0;
        while matches.next().is_some() {
            n += 1;
        }
        println!("bytes {range:?}: {:?} ({n} matches)", t.elapsed());
    }
    let mut none = Query::new(&grammar, &source).unwrap();
    for j in 0..query.pattern_count() {
        none.disable_pattern(j);
    }
    println!("no pattern enabled (the walk alone): {:?}", run(&none, &tree, text.as_bytes()).0);
    if std::env::var_os("ONLY_WHOLE").is_some() {
        return;
    }
    let mut costs = Vec::new();
    for i in 0..query.pattern_count() {
        // WITHOUT=1: the query with only this pattern disabled (what removing it saves).
        let without = std::env::var_os("WITHOUT").is_some();
        let mut alone = Query::new(&grammar, &source).unwrap();
        for j in 0..query.pattern_count() {
            if (j != i) != without {
                alone.disable_pattern(j);
            }
        }
        let (d, n) = run(&alone, &tree, text.as_bytes());
        let start = query.start_byte_for_pattern(i);
        let end = query.end_byte_for_pattern(i);
        let line: String = source[start..end].split_whitespace().collect::<Vec<_>>().join(" ");
        let line_no = source[..start].lines().count() + 1;
        costs.push((d, n, i, line_no, line));
    }
    if std::env::var_os("WITHOUT").is_some() {
        costs.sort_by_key(|c| c.0);
    } else {
        costs.sort_by_key(|c| std::cmp::Reverse(c.0));
    }
    let sum: Duration = costs.iter().map(|c| c.0).sum();
    println!("sum of patterns alone: {sum:?}");
    for (d, n, i, line_no, p) in costs.iter().take(top) {
        let cut = p.char_indices().nth(140).map_or(p.len(), |(b, _)| b);
        println!("{d:>10.2?} {n:>6} #{i:<3} l{line_no:<4} {}", &p[..cut]);
    }
}
