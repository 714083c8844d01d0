//! MCP costs, on a large TypeScript file (`locus_fixture::data::LARGE_TYPESCRIPT`) open in a live `locus lsp`:
//! - `editor_get_context` round trips over streamable HTTP on loopback while an editor
//!   streams edits and cursor moves (one every 2 ms): median and p99, over a fresh connection
//!   per request and over one kept-alive connection, side by side;
//! - the cost capturing the editorContext adds to a tool: `test_sleep {ms: 0}` with an active
//!   editor against the same call with none (the envelope's own `durationMs`), and the capture
//!   itself in process (`capture_editor_context`, divan);
//! - 50 concurrent clients × 200 calls each, fresh connections and kept-alive ones, while the
//!   edits stream on: errors, p50/p99, throughput.
//! - what an agent's IDE channel computes every 50 ms while it is connected (`ide::pace`): the
//!   editor state's snapshot and the user's focus (Claude Code), or the open files' context
//!   (Gemini CLI), with 20 files open, the large one active and 200 of its lines selected.
//!
//! Run: `cargo bench -p locus-server --bench mcp` (the report prints first, then divan's table).

#[allow(dead_code, unused_imports, reason = "the bench uses only part of the state module")]
#[path = "../src/state/mod.rs"]
mod state;

#[path = "../src/process.rs"]
mod process;

#[allow(dead_code, unused_imports, reason = "the bench uses only part of proto")]
#[path = "../src/proto.rs"]
mod proto;

#[allow(dead_code, reason = "the bench uses only part of the focus")]
#[path = "../src/mcp/ide/focus.rs"]
mod focus;

#[path = "../src/mcp/ide/gemini/context.rs"]
mod gemini_context;

#[allow(unused_imports, reason = "the bench uses only part of the test client")]
#[path = "../tests/lsp_support/mod.rs"]
mod lsp_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use divan::Bencher;
use locus_doc::{Position, PositionEncoding};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};

const LARGE: &str = locus_fixture::data::LARGE_TYPESCRIPT;
const LINE: u32 = 14999;
const COLUMN: u32 = 8;

fn large_text() -> String {
    locus_fixture::data::read("ts", LARGE)
}

fn main() {
    report();
    divan::main();
}

type Client = rmcp::service::RunningService<rmcp::RoleClient, ClientConfig>;

async fn client(record: &Value) -> Client {
    client_with(record, false).await
}

/// A connection per request (`pooled: false`), or connections kept alive between requests, as
/// the MCP SDKs do.
async fn client_with(record: &Value, pooled: bool) -> Client {
    let builder = reqwest::Client::builder().no_proxy();
    let http = if pooled { builder } else { builder.pool_max_idle_per_host(0) }.build().unwrap();
    let config =
        StreamableHttpClientTransportConfig::with_uri(record["url"].as_str().unwrap().to_string())
            .auth_header(record["token"].as_str().unwrap().to_string());
    ClientConfig::default()
        .serve(StreamableHttpClientTransport::with_client(http, config))
        .await
        .unwrap()
}

async fn call(client: &Client, name: &str, args: Value) -> Result<Value, String> {
    let mut request = CallToolRequestParams::new(name.to_string());
    request.arguments = args.as_object().cloned();
    let r = client.peer().call_tool(request).await.map_err(|e| e.to_string())?;
    r.structured_content.ok_or_else(|| "no envelope".to_string())
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn summary(label: &str, mut ms: Vec<f64>) {
    ms.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "{label}: n={} median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        ms.len(),
        percentile(&ms, 0.5),
        percentile(&ms, 0.9),
        percentile(&ms, 0.99),
        ms[ms.len() - 1]
    );
}

/// Sends one-character edits and cursor moves to the editor state, every 2 ms, until `stop`.
fn stream_edits(
    mut s: lsp_support::Server,
    uri: String,
    stop: Arc<AtomicBool>,
) -> (lsp_support::Server, u64) {
    let mut i = 0u64;
    while !stop.load(Ordering::Relaxed) {
        i += 1;
        let (end, text) = if i % 2 == 1 { (COLUMN, "x") } else { (COLUMN + 1, "") };
        s.change(&uri, i as i32 + 1, json!([{"range": {"start": {"line": LINE, "character": COLUMN}, "end": {"line": LINE, "character": end}}, "text": text}]));
        s.notify("locus/didChangeCursor", json!({"textDocument": {"uri": uri}, "position": {"line": LINE, "character": COLUMN + (i % 2) as u32}}));
        std::thread::sleep(Duration::from_millis(2));
    }
    (s, i)
}

fn report() {
    let root = std::env::temp_dir().join(format!("locus-bench-mcp-{}", std::process::id()));
    let runtime_dir = root.join("run");
    std::fs::create_dir_all(&runtime_dir).unwrap();
    let runtime_dir_s = runtime_dir.display().to_string();
    let env = [("XDG_RUNTIME_DIR", runtime_dir_s.as_str()), ("LOCUS_TEST_TOOLS", "1")];
    let mut s = lsp_support::Server::start_with_env(&[], &env);
    s.initialize(json!({"rootUri": "file:///bench", "capabilities": {"experimental": {"locus": {"cursor": true}}}, "clientInfo": {"name": "bench"}}));
    let uri = "file:///bench/lib.dom.d.ts".to_string();
    s.open(&uri, "typescript", 1, &large_text());
    s.notify("locus/didChangeActiveEditor", json!({"textDocument": {"uri": uri}}));
    s.notify(
        "locus/didChangeCursor",
        json!({"textDocument": {"uri": uri}, "position": {"line": LINE, "character": COLUMN}}),
    );
    s.context(json!(null));
    let file = runtime_dir.join("locus").join(format!("{}.json", s.pid()));
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    println!(
        "MCP benchmarks: {LARGE} ({} lines) open in `locus lsp`, cursor at line {}",
        large_text().lines().count(),
        LINE + 1
    );

    let s_pid = s.pid();
    // 1. Round trips while edits stream in.
    let stop = Arc::new(AtomicBool::new(false));
    let streamer = {
        let stop = stop.clone();
        let uri = uri.clone();
        std::thread::spawn(move || stream_edits(s, uri, stop))
    };
    let (round_trips, server_side, depth) = rt.block_on(async {
        let mut results = Vec::new();
        let mut server_side = Vec::new();
        let mut depth = String::new();
        for pooled in [false, true] {
            let c = client_with(&record, pooled).await;
            for _ in 0..200 {
                call(&c, "editor_get_context", json!({})).await.unwrap();
            }
            let mut ms = Vec::new();
            for _ in 0..3000 {
                let t = Instant::now();
                let e = call(&c, "editor_get_context", json!({})).await.unwrap();
                ms.push(t.elapsed().as_secs_f64() * 1000.0);
                server_side.push(e["meta"]["durationMs"].as_f64().unwrap());
                depth = e["editorContext"]["symbols"]["scopeHierarchy"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
            }
            results.push(ms);
        }
        (results, server_side, depth)
    });
    let [fresh, kept]: [Vec<f64>; 2] = round_trips.try_into().unwrap();
    summary("editor_get_context over HTTP while edits stream in, fresh connections", fresh);
    summary("editor_get_context over HTTP while edits stream in, kept alive", kept);
    summary("  of which inside the tool call (envelope durationMs, capture included)", server_side);

    // 2. 50 concurrent clients × 200 calls, while the edits stream on.
    let server_pid = s_pid;
    for pooled in [false, true] {
        let (server_cpu, client_cpu) = (cpu_seconds(server_pid), cpu_seconds(std::process::id()));
        let (latencies, errors, elapsed) = rt.block_on(many_clients(&record, pooled));
        let server_cpu = cpu_seconds(server_pid) - server_cpu;
        let client_cpu = cpu_seconds(std::process::id()) - client_cpu;
        let n = latencies.len() + errors;
        let how = if pooled { "kept alive" } else { "fresh connections" };
        summary(
            &format!("50 clients x 200 editor_get_context calls, {how} (round trip)"),
            latencies,
        );
        println!(
            "  errors: {errors} of {n}; {:.0} calls/s over {:.2} s",
            n as f64 / elapsed.as_secs_f64(),
            elapsed.as_secs_f64()
        );
        println!(
            "  CPU per call: server {:.3} ms (edits and outline updates included), clients {:.3} ms (the edit stream included)",
            server_cpu * 1000.0 / n as f64,
            client_cpu * 1000.0 / n as f64
        );
    }
    stop.store(true, Ordering::Relaxed);
    let (mut s, edits) = streamer.join().unwrap();
    println!("  ({edits} edits + cursor moves streamed meanwhile; context: {depth})");
    s.context(json!(null));
    let capture_with = rt.block_on(async {
        let c = client(&record).await;
        let mut with = Vec::new();
        for _ in 0..3000 {
            let e = call(&c, "test_sleep", json!({"ms": 0})).await.unwrap();
            assert!(e.get("editorContext").is_some());
            with.push(e["meta"]["durationMs"].as_f64().unwrap());
        }
        with
    });

    // 3. What capturing adds: the same tool with no active editor (nothing to capture).
    s.notify("locus/didChangeActiveEditor", json!({"textDocument": null}));
    s.context(json!(null));
    let capture_without = rt.block_on(async {
        let c = client(&record).await;
        let mut without = Vec::new();
        for _ in 0..3000 {
            let e = call(&c, "test_sleep", json!({"ms": 0})).await.unwrap();
            assert!(e.get("editorContext").is_none());
            without.push(e["meta"]["durationMs"].as_f64().unwrap());
        }
        without
    });
    let median = |mut v: Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        percentile(&v, 0.5)
    };
    let (w, wo) = (median(capture_with), median(capture_without));
    println!(
        "capture cost (server-side durationMs of test_sleep 0): median {w:.4} ms with an editor, {wo:.4} ms without: +{:.4} ms",
        w - wo
    );

    s.stop();
    let _ = std::fs::remove_dir_all(&root);
    println!();
}

/// The user and system CPU time a process has used so far, in seconds (Linux's `/proc`).
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name (which may hold spaces) start after its `)`.
    let fields: Vec<&str> =
        stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line (11 and 12 counted from 0 after the
    // name), in clock ticks: 100 a second on Linux.
    (ticks(11) + ticks(12)) / 100.0
}

/// 50 concurrent clients × 200 `editor_get_context` calls: the round trips, the errors and
/// the wall time.
async fn many_clients(record: &Value, pooled: bool) -> (Vec<f64>, usize, Duration) {
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let record = record.clone();
        tasks.push(tokio::spawn(async move {
            let c = client_with(&record, pooled).await;
            let mut ms = Vec::new();
            let mut errors = 0;
            for _ in 0..200 {
                let t = Instant::now();
                match call(&c, "editor_get_context", json!({})).await {
                    Ok(e) if e["ok"] == true && e.get("editorContext").is_some() => {
                        ms.push(t.elapsed().as_secs_f64() * 1000.0)
                    }
                    _ => errors += 1,
                }
            }
            let _ = c.cancel().await;
            (ms, errors)
        }));
    }
    let mut all = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (ms, e) = t.await.unwrap();
        all.extend(ms);
        errors += e;
    }
    (all, errors, started.elapsed())
}

/// The capture itself, in process: the editor state's context for the active editor (lock,
/// scope chain, file facts) and its conversion to JSON, as the sidecar's host does it.
#[divan::bench(sample_count = 500, sample_size = 10)]
fn capture_editor_context(bencher: Bencher) {
    let shared = state::Shared::new();
    let uri = "file:///bench/lib.dom.d.ts";
    shared.with(|s| {
        s.open(uri, "typescript", 0, &large_text());
        s.set_active(Some(uri), true);
        s.set_cursor(
            uri,
            state::CursorUpdate {
                version: None,
                position: Position::new(LINE, COLUMN),
                selections: vec![],
                encoding: PositionEncoding::Utf16,
            },
        )
        .unwrap();
    });
    let query =
        state::ContextQuery { uri: None, position: None, encoding: PositionEncoding::Utf16 };
    // The first context computes the outline; the benchmark measures the steady state.
    shared.with(|s| s.context(query)).unwrap();
    bencher.bench(|| {
        let ctx = shared.with(|s| s.context(query)).unwrap().unwrap();
        proto::editor_context(&ctx)
    });
}

/// An editor state as a channel sees it: 20 files open (the large one and 19 copies of
/// a smaller part of it), the large one active with 200 lines selected.
fn channel_state() -> state::Shared {
    let shared = state::Shared::new();
    let text = large_text();
    let part: String = text.lines().take(2_000).map(|l| format!("{l}\n")).collect();
    let uri = "file:///bench/lib.dom.d.ts";
    shared.with(|s| {
        for i in 0..19 {
            s.open(&format!("file:///bench/part{i}.ts"), "typescript", 0, &part);
        }
        s.open(uri, "typescript", 0, &text);
        s.set_active(Some(uri), true);
        let (start, end) = (Position::new(LINE, 0), Position::new(LINE + 200, 0));
        s.set_cursor(
            uri,
            state::CursorUpdate {
                version: None,
                position: end,
                selections: vec![locus_doc::Range { start, end }],
                encoding: PositionEncoding::Utf16,
            },
        )
        .unwrap();
    });
    shared
}

/// Claude Code's channel, each period: the snapshot and the focus in it.
#[divan::bench(sample_count = 500, sample_size = 10)]
fn channel_focus(bencher: Bencher) {
    let shared = channel_state();
    bencher.bench(|| shared.with(|s| focus::Focus::of(&s.snapshot())));
}

/// Gemini CLI's channel, each period: the snapshot and the open files' context.
#[divan::bench(sample_count = 500, sample_size = 10)]
fn channel_context(bencher: Bencher) {
    let shared = channel_state();
    bencher.bench(|| shared.with(|s| gemini_context::workspace_state(&s.snapshot(), 0)));
}
