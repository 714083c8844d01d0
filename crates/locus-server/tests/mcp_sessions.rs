//! MCP sessions are bounded (`LOCUS_MCP_MAX_SESSIONS` in docs/configuration.md): thousands of
//! `initialize` calls that are never closed leave at most the cap of live sessions, idle sessions
//! are evicted, and the memory goes back to the system.

mod lsp_support;
mod mcp_support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use lsp_support::Server;
use mcp_support::{Dirs, WAIT, wait_record};
use serde_json::json;

/// The idle time the test gives the sidecar (`LOCUS_MCP_SESSION_IDLE_MS`).
const IDLE_MS: u64 = 3000;

/// How near the baseline RSS must come back once idle sessions are gone, and how far above it
/// the peak may go with the cap in force. Generous, as other suites run beside this one: before
/// the cap, 3,000 sessions took RSS about 150 MiB up and kept it there.
const BACK_NEAR: f64 = 16.0;
const PEAK_BOUND: f64 = 60.0;

/// One POST to the sidecar; returns the status and the `Mcp-Session-Id` header, if any.
fn post(url: &str, token: &str, session: Option<&str>, body: &str) -> (u16, Option<String>) {
    let rest = url.strip_prefix("http://").unwrap();
    let (authority, path) = rest.split_once('/').unwrap();
    let mut stream = TcpStream::connect(authority).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let mut request = format!(
        "POST /{path} HTTP/1.1\r\nHost: {authority}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if let Some(id) = session {
        request.push_str(&format!("Mcp-Session-Id: {id}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    let code = status.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let mut session_id = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':')
            && k.eq_ignore_ascii_case("mcp-session-id")
        {
            session_id = Some(v.trim().to_string());
        }
    }
    // The body (an SSE stream that ends with the response, then the connection closes).
    let mut rest = Vec::new();
    let _ = reader.read_to_end(&mut rest);
    (code, session_id)
}

fn initialize(url: &str, token: &str) -> (u16, Option<String>) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "many", "version": "0"}}})
    .to_string();
    post(url, token, None, &body)
}

fn list_tools(url: &str, token: &str, session: &str) -> u16 {
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    post(url, token, Some(session), &initialized);
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string();
    post(url, token, Some(session), &body).0
}

fn rss_mib(s: &Server) -> f64 {
    s.rss_kib() as f64 / 1024.0
}

#[test]
fn thousands_of_sessions_are_capped_evicted_and_their_memory_returned() {
    let dirs = Dirs::new("mcp-sessions");
    let mut env = dirs.env();
    env.push(("LOCUS_MCP_SESSION_IDLE_MS", IDLE_MS.to_string()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut s = Server::start_with_env(&[], &env);
    s.initialize(json!({"clientInfo": {"name": "sessions"}}));
    let record = wait_record(&dirs, s.pid(), |r| r["editor"] == "sessions");
    let (url, token) = (record["url"].as_str().unwrap(), record["token"].as_str().unwrap());

    // Warm up (the runtime's threads, rmcp's first allocations), then the baseline.
    for _ in 0..50 {
        assert_eq!(initialize(url, token).0, 200);
    }
    let (_, first) = initialize(url, token);
    let first = first.expect("a session id");
    assert_eq!(list_tools(url, token, &first), 200, "a live session answers");
    std::thread::sleep(Duration::from_millis(IDLE_MS + 1500));
    let baseline = rss_mib(&s);

    let started = Instant::now();
    let mut peak: f64 = 0.0;
    for i in 0..3000 {
        let (status, id) = initialize(url, token);
        assert_eq!(status, 200, "initialize {i}");
        assert!(id.is_some());
        if i % 250 == 0 {
            peak = peak.max(rss_mib(&s));
        }
    }
    peak = peak.max(rss_mib(&s));
    println!(
        "3000 initialize calls in {:?}: RSS {baseline:.1} MiB before, peak {peak:.1} MiB",
        started.elapsed()
    );
    // The cap holds: the oldest sessions were evicted already.
    let (_, recent) = initialize(url, token);
    let recent = recent.unwrap();
    assert_eq!(list_tools(url, token, &recent), 200, "the newest session is live");

    // Idle sessions go, and the memory with them (handed back over the next sweeps). Nothing
    // touches the sessions meanwhile: a request would make them busy again.
    std::thread::sleep(Duration::from_millis(IDLE_MS + 1500));
    let deadline = Instant::now() + WAIT;
    let after = loop {
        let now = rss_mib(&s);
        if now < baseline + BACK_NEAR || Instant::now() > deadline {
            break now;
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    println!("after the idle time: RSS {after:.1} MiB (baseline {baseline:.1} MiB)");
    assert!(
        after < baseline + BACK_NEAR,
        "RSS {after:.1} MiB is not back near the baseline {baseline:.1} MiB (peak {peak:.1})"
    );
    assert!(
        peak < baseline + PEAK_BOUND,
        "the cap bounds the peak: {peak:.1} MiB over {baseline:.1}"
    );
    s.stop();
}

/// `locus mcp` whose session the sidecar closed while it sat idle opens a new one by itself:
/// the agent's next call is forwarded as before.
#[test]
fn locus_mcp_comes_back_after_its_idle_session_was_closed() {
    let dirs = Dirs::new("mcp-sessions-back");
    let mut env = dirs.env();
    env.push(("LOCUS_MCP_SESSION_IDLE_MS", "300".to_string()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut s = Server::start_with_env(&[], &env);
    s.initialize(json!({
        "rootUri": lsp_support::file_uri(&dirs.workspace),
        "workspaceFolders": [{"uri": lsp_support::file_uri(&dirs.workspace), "name": "ws"}],
        "clientInfo": {"name": "idle-editor"},
    }));
    wait_record(&dirs, s.pid(), |r| !r["workspaceFolders"].as_array().unwrap().is_empty());
    let mut mcp = mcp_support::StdioMcp::start(&dirs, &dirs.workspace, &[]);
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["data"]["pid"], s.pid(), "{r}");
    // Long enough for the sweep (every 75 ms here) to close the idle session.
    std::thread::sleep(Duration::from_millis(1500));
    let started = Instant::now();
    let r = mcp.call("bridge_status", json!({}));
    println!("the call after the session was closed took {:?}", started.elapsed());
    assert_eq!(r["structuredContent"]["data"]["pid"], s.pid(), "still forwarded: {r}");
    assert!(mcp.close().success());
    s.stop();
}
