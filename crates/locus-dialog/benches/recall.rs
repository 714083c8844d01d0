//! Recall on a 100 MB Claude Code transcript (run: `cargo bench -p locus-dialog`).
//!
//! The transcript is generated in a temporary `$HOME`: long sessions are mostly tool
//! output, so each turn is a request, a few tool calls with sizeable results, and a reply,
//! with a compaction now and then.
//!
//! - `first_call`: a fresh index reads the whole file (target: ≤ 1 s);
//! - `repeated_call`: the index is warm and the file unchanged (target: ≤ 20 ms median);
//! - `append_then_call`: one request was appended since the last call.
//!
//! Before the timings, peak memory (`VmHWM` in `/proc/self/status`, reset through
//! `/proc/self/clear_refs`) is printed around a first call and around repeated calls, to
//! show that memory stays flat instead of growing with the file.

use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use divan::{Bencher, black_box};
use locus_dialog::{Recall, Stores, Workspace};

const WORKSPACE: &str = "/home/bench/project";
const TARGET_BYTES: u64 = 100 * 1024 * 1024;

struct Fixture {
    home: PathBuf,
    transcript: PathBuf,
    requests: usize,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let home = std::env::temp_dir().join(format!("locus-dialog-bench-{}", std::process::id()));
        let dir = home.join(".claude/projects/-home-bench-project");
        fs::create_dir_all(&dir).unwrap();
        let transcript = dir.join("5e55e55e-0000-4000-8000-000000000100.jsonl");
        let requests = generate(&transcript);
        Fixture { home, transcript, requests }
    })
}

fn line(out: &mut impl Write, value: serde_json::Value) -> u64 {
    let text = value.to_string();
    writeln!(out, "{text}").unwrap();
    text.len() as u64 + 1
}

/// Writes turns until the file reaches 100 MiB; returns how many requests it holds.
fn generate(path: &Path) -> usize {
    let mut out = BufWriter::new(File::create(path).unwrap());
    let mut written = 0u64;
    let mut turn = 0usize;
    let filler = "fn price_in_cents(amount: u64) -> u64 { amount * 100 } // ".repeat(40);
    while written < TARGET_BYTES {
        turn += 1;
        let ts = |second: usize| {
            format!("2025-11-01T{:02}:{:02}:{:02}.000Z", (turn / 60) % 24, turn % 60, second % 60)
        };
        let common = serde_json::json!({"cwd": WORKSPACE, "sessionId": "5e55e55e-0000-4000-8000-000000000100", "version": "2.0.14", "gitBranch": "main", "isSidechain": false, "userType": "external"});
        let with = |mut v: serde_json::Value| {
            for (k, x) in common.as_object().unwrap() {
                v[k] = x.clone();
            }
            v
        };
        written += line(
            &mut out,
            with(
                serde_json::json!({"type": "user", "uuid": format!("u{turn}"), "timestamp": ts(0),
            "message": {"role": "user", "content": format!("Request {turn}: make the totals of invoice {turn} exact, in cents — never floats. ✓")}}),
            ),
        );
        for call in 0..4 {
            written += line(
                &mut out,
                with(
                    serde_json::json!({"type": "assistant", "uuid": format!("a{turn}-{call}"), "timestamp": ts(call * 2 + 1),
                "message": {"role": "assistant", "content": [{"type": "text", "text": "Let me look."}, {"type": "tool_use", "id": format!("t{turn}-{call}"), "name": "Read", "input": {"file_path": "/home/bench/project/src/lib.rs"}}]}}),
                ),
            );
            let output = &filler[..filler.len() - (turn * 7 + call * 13) % 500];
            written += line(
                &mut out,
                with(
                    serde_json::json!({"type": "user", "uuid": format!("r{turn}-{call}"), "timestamp": ts(call * 2 + 2),
                "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": format!("t{turn}-{call}"), "content": output}]},
                "toolUseResult": {"type": "text", "file": {"filePath": "/home/bench/project/src/lib.rs", "content": output}}}),
                ),
            );
        }
        written += line(
            &mut out,
            with(
                serde_json::json!({"type": "assistant", "uuid": format!("f{turn}"), "timestamp": ts(10),
            "message": {"role": "assistant", "content": [{"type": "text", "text": "Done: totals are integers now. ".repeat(20)}]}}),
            ),
        );
        if turn.is_multiple_of(200) {
            written += line(
                &mut out,
                with(
                    serde_json::json!({"type": "system", "subtype": "compact_boundary", "timestamp": ts(11), "compactMetadata": {"trigger": "auto", "preTokens": 150000}}),
                ),
            );
            written += line(
                &mut out,
                with(
                    serde_json::json!({"type": "user", "isCompactSummary": true, "timestamp": ts(12), "message": {"role": "user", "content": "This session is being continued from a previous conversation that ran out of context."}}),
                ),
            );
        }
    }
    out.flush().unwrap();
    turn
}

fn workspace() -> Workspace {
    Workspace::new(&[WORKSPACE])
}

fn memory() -> Recall {
    Recall::new(Stores::under_home(&fixture().home))
}

/// Peak resident memory so far, in KiB.
fn peak_kib() -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Resets the peak to the current resident size (Linux 4.0+).
fn reset_peak() {
    let _ = fs::write("/proc/self/clear_refs", "5");
}

fn main() {
    let f = fixture();
    let size = fs::metadata(&f.transcript).unwrap().len();
    eprintln!(
        "transcript: {} ({:.1} MiB, {} requests)",
        f.transcript.display(),
        size as f64 / 1048576.0,
        f.requests
    );

    reset_peak();
    let before = peak_kib();
    let m = memory();
    let start = Instant::now();
    let first = m.first_request(&workspace(), None).unwrap();
    let elapsed = start.elapsed();
    let after_first = peak_kib();
    assert_eq!(first.value.total_requests, f.requests);
    reset_peak();
    for _ in 0..100 {
        black_box(m.first_request(&workspace(), None).unwrap());
    }
    let after_repeated = peak_kib();
    if let (Some(b), Some(a), Some(r)) = (before, after_first, after_repeated) {
        eprintln!(
            "first call {:.0} ms; peak RSS {b} KiB before, {a} KiB after the first call (+{} KiB for a {} KiB file), {r} KiB over 100 repeated calls",
            elapsed.as_secs_f64() * 1000.0,
            a.saturating_sub(b),
            size / 1024
        );
    }
    drop(m);

    divan::main();
    let _ = fs::remove_dir_all(&f.home);
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn first_call(bencher: Bencher) {
    let ws = workspace();
    bencher.with_inputs(memory).bench_values(|m| black_box(m.first_request(&ws, None).unwrap()));
}

#[divan::bench(sample_count = 100)]
fn repeated_call(bencher: Bencher) {
    let ws = workspace();
    let m = memory();
    m.first_request(&ws, None).unwrap();
    bencher.bench(|| black_box(m.first_request(&ws, None).unwrap()));
}

#[divan::bench(sample_count = 100)]
fn repeated_list(bencher: Bencher) {
    let ws = workspace();
    let m = memory();
    m.list_sessions(&ws, None, None);
    bencher.bench(|| black_box(m.list_sessions(&ws, None, Some(20))));
}

#[divan::bench(sample_count = 50, sample_size = 1)]
fn append_then_call(bencher: Bencher) {
    let ws = workspace();
    let m = memory();
    m.first_request(&ws, None).unwrap();
    let counter = std::sync::atomic::AtomicUsize::new(0);
    bencher
        .with_inputs(|| {
            let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let record = serde_json::json!({"type": "user", "cwd": WORKSPACE, "uuid": format!("extra{n}"), "timestamp": "2025-11-02T00:00:00.000Z",
                "message": {"role": "user", "content": format!("one more request {n}")}});
            let mut file = OpenOptions::new().append(true).open(&fixture().transcript).unwrap();
            writeln!(file, "{record}").unwrap();
        })
        .bench_values(|()| black_box(m.request(&ws, 1, None).unwrap()));
}
