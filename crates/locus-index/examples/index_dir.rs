//! Builds the index of the folders given and prints what it holds and how long it took;
//! with `--query Q` (repeatable) searches too. For trying the index by hand, and for timing
//! queries: `--queries-from FILE` (one query a line) times each, `--rounds N` times (the
//! whole file each round), and prints the median, p99 and max with the slowest queries;
//! `--adversarial` times a built-in set of costly queries too (single letters, `_`, `test_`,
//! long nonsense, long names).
//!
//! `cargo run --release -p locus-index --example index_dir -- FOLDER --queries-from F`

use std::time::{Duration, Instant};

use locus_index::{Config, Index, Query};

/// Queries that make the tiers work hardest: a letter or `_` is the prefix of thousands of
/// names, `test_` of thousands more; nonsense reaches the fuzzy tier and matches nothing;
/// long names reach it with many letters to place.
const ADVERSARIAL: &[&str] = &[
    "a",
    "e",
    "s",
    "t",
    "x",
    "z",
    "_",
    "__",
    "A",
    "T",
    "te",
    "test_",
    "test_et",
    "get",
    "set_",
    "_a",
    "init",
    "self",
    "qqqq",
    "zzqx",
    "xyzzy_plugh",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "test_this_name_does_not_exist_anywhere",
    "abcdefghijklmnopqrstuvwxyz",
    "tst",
    "tstcs",
    "ArgumentParser",
    "ArgParse",
    "agp",
    "HTTPServer",
    "httpsrv",
    "os.path",
    "x.y",
    "._",
    "Test.test_",
    "a.b",
    "tests.test_a",
    "eeeeeeee",
    "etaoinshrdlu",
];

fn main() {
    let mut folders = Vec::new();
    let mut queries = Vec::new();
    let mut rounds = 1;
    let mut adversarial = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--query" {
            queries.extend(args.next());
        } else if a == "--queries-from" {
            let file = args.next().expect("a file of queries, one a line");
            let text = std::fs::read_to_string(file).expect("readable");
            queries.extend(text.lines().map(String::from));
        } else if a == "--rounds" {
            rounds = args.next().and_then(|n| n.parse().ok()).expect("a number of rounds");
        } else if a == "--adversarial" {
            adversarial = true;
        } else {
            folders.push(std::fs::canonicalize(&a).expect("a folder"));
        }
    }
    let started = Instant::now();
    // Without the symbol cache: this times a build that reads every file (and leaves no
    // cache in the user's ~/.cache).
    let index = Index::start(folders, Config { cache_dir: None, ..Config::standard() });
    index.wait_built(Duration::from_secs(600));
    let built = started.elapsed();
    let s = index.status();
    println!(
        "built in {:?}: {} files ({} from the symbol cache), {} symbols, {:?} skipped, {} MiB estimated",
        built,
        s.files,
        s.from_cache,
        s.symbols,
        s.skipped,
        s.memory_bytes >> 20
    );
    // As a session ends (the server does this at the editor's shutdown): the symbol cache
    // is written if the build read anything new, so the next run starts from it.
    let t = Instant::now();
    index.save_cache();
    println!("symbol cache saved in {:?}", t.elapsed());
    if queries.len() <= 50 && !adversarial {
        for q in &queries {
            let t = Instant::now();
            let answer = index.search(&query(q));
            let took = t.elapsed();
            println!("{q}: {} hits (more: {}) in {took:?}", answer.hits.len(), answer.more);
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
        return;
    }
    if !queries.is_empty() {
        time("queries", &index, &queries, rounds);
    }
    if adversarial {
        let set: Vec<String> = ADVERSARIAL.iter().map(|s| s.to_string()).collect();
        time("adversarial", &index, &set, rounds.max(20));
    }
}

fn query(text: &str) -> Query {
    Query { text: text.into(), kinds: Vec::new(), path: None, limit: 10, near: None }
}

/// Times every query `rounds` times; prints the median, p99 and max of all, the spread of
/// the rounds' p99, the load average, and the slowest queries.
fn time(label: &str, index: &Index, queries: &[String], rounds: usize) {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mut all = Vec::new();
    let mut p99s = Vec::new();
    for _ in 0..rounds {
        let mut times = Vec::with_capacity(queries.len());
        for q in queries {
            let t = Instant::now();
            std::hint::black_box(index.search(&query(q)));
            times.push((t.elapsed(), q.as_str()));
        }
        times.sort();
        p99s.push(times[times.len() * 99 / 100].0);
        all.extend(times);
    }
    all.sort();
    p99s.sort();
    let n = all.len();
    println!(
        "{label}: {} queries x {rounds} rounds: median {:?} p99 {:?} max {:?}; p99 per round {:?}..{:?}, median {:?}; load {}",
        queries.len(),
        all[n / 2].0,
        all[n * 99 / 100].0,
        all[n - 1].0,
        p99s[0],
        p99s[p99s.len() - 1],
        p99s[p99s.len() / 2],
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
    // The slowest queries by their median over the rounds (a single slow run is often the
    // machine's preemption, not the query).
    let mut by_query: std::collections::HashMap<&str, Vec<Duration>> = Default::default();
    for (t, q) in &all {
        by_query.entry(q).or_default().push(*t);
    }
    let mut medians: Vec<(Duration, Duration, &str)> =
        by_query.into_iter().map(|(q, v)| (v[v.len() / 2], v[v.len() - 1], q)).collect();
    medians.sort();
    for (median, max, q) in medians.iter().rev().take(8) {
        println!("  {q}: median {median:?}, max {max:?}");
    }
}
