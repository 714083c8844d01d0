//! Times the compilation of each top-level pattern of a language's symbol query on its own,
//! to find the patterns that make loading slow:
//! `cargo run --release -p locus-scopes --example query_cost LANGUAGE_ID [TOP_N]`.
use std::time::{Duration, Instant};

use locus_scopes::Registry;

fn main() {
    let id = std::env::args().nth(1).expect("usage: query_cost LANGUAGE_ID [TOP_N]");
    let top: usize = std::env::args().nth(2).and_then(|n| n.parse().ok()).unwrap_or(12);
    let registry = Registry::builtin();
    let lang = registry.by_id(&id).expect("a registered language");
    let entry = registry.entry(lang);
    let grammar = (entry.grammar)();
    let source = locus_scopes::query_source(entry.queries).expect("query source");
    let t = Instant::now();
    tree_sitter::Query::new(&grammar, &source).expect("the query compiles");
    let total = t.elapsed();
    // Split into top-level patterns: balanced (...) or [...] groups, comments skipped.
    let mut patterns = Vec::new();
    let (mut depth, mut start, mut in_str, mut in_comment) = (0i32, None, false, false);
    let bytes = source.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if in_comment {
            in_comment = c != b'\n';
        } else if in_str {
            if c == b'\\' {
                i += 1;
            } else if c == b'"' {
                in_str = false;
            }
        } else {
            match c {
                b';' => in_comment = true,
                b'"' => in_str = true,
                b'(' | b'[' => {
                    if depth == 0 {
                        start = Some(i);
                    }
                    depth += 1;
                }
                b')' | b']' => {
                    depth -= 1;
                    if depth == 0 {
                        // Captures and quantifiers after the closing paren belong to the pattern.
                        let mut end = i + 1;
                        while end < bytes.len() && !matches!(bytes[end], b'\n' | b'(' | b'[' | b';')
                        {
                            end += 1;
                        }
                        patterns.push(&source[start.unwrap()..end]);
                        i = end - 1;
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    let mut costs: Vec<(Duration, &str)> = patterns
        .iter()
        .map(|p| {
            let t = Instant::now();
            let ok = tree_sitter::Query::new(&grammar, p).is_ok();
            (if ok { t.elapsed() } else { Duration::ZERO }, *p)
        })
        .collect();
    costs.sort_by_key(|c| std::cmp::Reverse(c.0));
    let sum: Duration = costs.iter().map(|c| c.0).sum();
    println!(
        "{id}: whole query {total:?}, {} patterns, sum of single-pattern compiles {sum:?}",
        patterns.len()
    );
    for (d, p) in costs.iter().take(top) {
        let line: String = p.split_whitespace().collect::<Vec<_>>().join(" ");
        println!("{d:>10.2?}  {}", &line[..line.len().min(150)]);
    }
}
