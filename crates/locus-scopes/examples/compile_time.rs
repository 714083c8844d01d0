//! Times the compilation of query files against a language's grammar, several runs each
//! (minimum and median), to compare two ways of writing a query:
//! `cargo run --release -p locus-scopes --example compile_time LANGUAGE_ID FILE... [-n RUNS]`.
//! A FILE of `-` is the language's own query (inheritance resolved).
use std::time::{Duration, Instant};

use locus_scopes::Registry;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let runs = match args.iter().position(|a| a == "-n") {
        Some(i) => {
            let n = args[i + 1].parse().expect("-n RUNS");
            args.drain(i..i + 2);
            n
        }
        None => 7,
    };
    let id = args.first().expect("usage: compile_time LANGUAGE_ID FILE... [-n RUNS]").clone();
    let registry = Registry::builtin();
    let lang = registry.by_id(&id).expect("a registered language");
    let entry = registry.entry(lang);
    let grammar = (entry.grammar)();
    for file in &args[1..] {
        let source = if file == "-" {
            locus_scopes::query_source(entry.queries).expect("query source")
        } else {
            std::fs::read_to_string(file).expect("a query file")
        };
        let mut times: Vec<Duration> = (0..runs)
            .map(|_| {
                let t = Instant::now();
                if let Err(e) = tree_sitter::Query::new(&grammar, &source) {
                    panic!("{file}: {e}");
                }
                t.elapsed()
            })
            .collect();
        times.sort();
        println!("{file}: min {:.1?}, median {:.1?}", times[0], times[times.len() / 2]);
    }
}
