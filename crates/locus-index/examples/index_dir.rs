//! Builds the index of the folders given and prints what it holds and how long it took;
//! with `--query Q` (repeatable) searches too. For trying the index by hand.

use std::time::{Duration, Instant};

use locus_index::{Config, Index, Query};

fn main() {
    let mut folders = Vec::new();
    let mut queries = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--query" {
            queries.extend(args.next());
        } else if a == "--queries-from" {
            let file = args.next().expect("a file of queries, one a line");
            let text = std::fs::read_to_string(file).expect("readable");
            queries.extend(text.lines().map(String::from));
        } else {
            folders.push(std::fs::canonicalize(&a).expect("a folder"));
        }
    }
    let started = Instant::now();
    let index = Index::start(folders, Config::standard());
    index.wait_built(Duration::from_secs(600));
    let s = index.status();
    println!(
        "built in {:?}: {} files, {} symbols, {:?} skipped, {} MiB estimated",
        started.elapsed(),
        s.files,
        s.symbols,
        s.skipped,
        s.memory_bytes >> 20
    );
    let quiet = queries.len() > 50;
    let mut times = Vec::new();
    for q in queries {
        let t = Instant::now();
        let query = Query { text: q.clone(), kinds: Vec::new(), path: None, limit: 10, near: None };
        let answer = index.search(&query);
        times.push((t.elapsed(), q.clone()));
        if quiet {
            continue;
        }
        println!("{q}: {} hits (more: {}) in {:?}", answer.hits.len(), answer.more, t.elapsed());
        for h in answer.hits {
            println!(
                "  {:.3} {}:{} {} {:?} {}",
                h.score,
                h.path.display(),
                h.line,
                h.kind,
                h.containers,
                h.name
            );
        }
    }
    if quiet {
        times.sort();
        let n = times.len();
        println!(
            "median {:?} p99 {:?} max {:?}",
            times[n / 2].0,
            times[n * 99 / 100].0,
            times[n - 1].0
        );
        for (t, q) in times.iter().rev().take(15) {
            println!("  {t:?} {q}");
        }
    }
}
