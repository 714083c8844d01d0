//! `locus mcp` when the sidecar it forwards to dies during a call (issue 9, Transports 1):
//! the call is answered with an error within a second of the death, never later than its
//! timeout, and the next call is served in-process (or by a new sidecar).

mod lsp_support;
mod mcp_support;

use std::time::{Duration, Instant};

use mcp_support::{Dirs, StdioMcp, start_sidecar, wait_gone};
use serde_json::json;

/// The sidecar is killed with `signal` while `test_sleep` runs on it.
fn killed_mid_call(signal: i32, name: &str) {
    let dirs = Dirs::new(name);
    let (mut s, _) = start_sidecar(&dirs, &dirs.workspace, "doomed-editor");
    let pid = s.pid();
    let mut mcp = StdioMcp::start(&dirs, &dirs.workspace, &[]);
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["data"]["pid"], pid, "forwarded: {r}");
    let id = mcp.send("tools/call", json!({"name": "test_sleep", "arguments": {"ms": 20000}}));
    // The call is under way on the sidecar (this is a head start, not a measured bound).
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: kill only sends a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(pid as i32, signal) }, 0);
    let killed = Instant::now();
    let response = mcp.response(id);
    let took = killed.elapsed();
    println!("signal {signal}: the call was answered {took:?} after the sidecar's death");
    assert!(took < Duration::from_secs(3), "answered {took:?} after the death: {response}");
    let result = &response["result"];
    assert_eq!(result["isError"], true, "{response}");
    let error = &result["structuredContent"]["error"];
    assert_eq!(error["code"], "E_INTERNAL", "{response}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(&pid.to_string()), "the message names the sidecar: {message}");
    s.wait();
    // The discovery file stays after SIGKILL; the next call ignores and removes it.
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["data"]["mode"], "in-process", "{r}");
    wait_gone(&dirs.discovery_file(pid));
    // A new editor is found again, as between any two calls.
    let (c, _) = start_sidecar(&dirs, &dirs.workspace, "next-editor");
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["data"]["pid"], c.pid(), "{r}");
    drop(c);
    assert!(mcp.close().success());
}

#[test]
fn sidecar_killed_with_sigkill_mid_call_answers_an_error_within_a_second() {
    killed_mid_call(libc::SIGKILL, "mcp-death-kill");
}

#[test]
fn sidecar_terminated_mid_call_answers_an_error_within_a_second() {
    killed_mid_call(libc::SIGTERM, "mcp-death-term");
}

/// A sidecar that stops answering (SIGSTOP: alive, silent) holds a call no longer than the
/// call's timeout.
#[test]
fn a_silent_sidecar_holds_a_call_no_longer_than_its_timeout() {
    let dirs = Dirs::new("mcp-death-stop");
    let (s, _) = start_sidecar(&dirs, &dirs.workspace, "frozen-editor");
    let pid = s.pid();
    let mut mcp = StdioMcp::start(&dirs, &dirs.workspace, &["--timeout", "1000"]);
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["data"]["pid"], pid, "forwarded: {r}");
    // SAFETY: kill only sends a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGSTOP) }, 0);
    let started = Instant::now();
    let r = mcp.call("test_sleep", json!({"ms": 20000}));
    let took = started.elapsed();
    println!("a stopped sidecar: the call with a 1 s timeout was answered after {took:?}");
    // SAFETY: as above.
    unsafe { libc::kill(pid as i32, libc::SIGCONT) };
    assert!(took < Duration::from_secs(6), "answered after {took:?}: {r}");
    assert_eq!(r["isError"], true, "{r}");
    assert_eq!(r["structuredContent"]["error"]["code"], "E_TIMEOUT", "{r}");
    s.stop();
    assert!(mcp.close().success());
}

/// `locus call` forwarding to a sidecar that dies mid-call answers within a second or so of
/// the death (its own liveness watch), with the error naming the sidecar, and exits 1.
#[test]
fn locus_call_answers_when_its_sidecar_dies_mid_call() {
    let dirs = Dirs::new("call-death-kill");
    let (mut s, _) = start_sidecar(&dirs, &dirs.workspace, "doomed-editor");
    let pid = s.pid();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_locus"));
    cmd.args(["call", "test_sleep", "--param", "ms=20000"])
        .current_dir(&dirs.workspace)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in dirs.env() {
        cmd.env(k, v);
    }
    let child = cmd.spawn().unwrap();
    // The call is under way on the sidecar (a head start, not a measured bound).
    std::thread::sleep(Duration::from_millis(800));
    // SAFETY: kill only sends a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGKILL) }, 0);
    let killed = Instant::now();
    let out = child.wait_with_output().unwrap();
    let took = killed.elapsed();
    println!("locus call answered {took:?} after the sidecar's death");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(took < Duration::from_secs(3), "answered {took:?} after the death: {stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let envelope: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(envelope["error"]["code"], "E_INTERNAL", "{envelope}");
    assert_eq!(envelope["error"]["details"]["sidecarPid"], pid, "{envelope}");
    s.wait();
}

/// `locus call --timeout` bounds a call served in-process too (no sidecar runs).
#[test]
fn locus_call_timeout_bounds_an_in_process_call() {
    let dirs = Dirs::new("call-timeout-in-process");
    let started = Instant::now();
    let (code, stdout, _) = mcp_support::locus(
        &dirs,
        &dirs.workspace,
        &["call", "test_sleep", "--param", "ms=20000", "--timeout", "300"],
    );
    assert!(started.elapsed() < Duration::from_secs(10), "{stdout}");
    assert_eq!(code, 1, "{stdout}");
    let envelope: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(envelope["error"]["code"], "E_TIMEOUT", "{envelope}");
    assert_eq!(envelope["error"]["details"]["timeoutMs"], 300, "{envelope}");
}
