//! `locus mcp` when the sidecar it forwards to dies during a call (docs/configuration.md):
//! the call is answered with an error within a second of the death, never later than its
//! timeout, and the next call is served in-process (or by a new sidecar).
#![cfg(unix)]

mod lsp_support;
mod mcp_support;

use std::time::{Duration, Instant};

use mcp_support::{Dirs, StdioMcp, start_sidecar, wait_gone, wait_marker};
use serde_json::json;

/// The sidecar is killed with `signal` while `test_sleep` runs on it.
fn killed_mid_call(signal: i32, name: &str) {
    let dirs = Dirs::new(name);
    let (mut s, _) = start_sidecar(&dirs, &dirs.workspace, "doomed-editor");
    let pid = s.pid();
    let mut mcp = StdioMcp::start(&dirs, &dirs.workspace, &[]);
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["data"]["pid"], pid, "forwarded: {r}");
    let marker = dirs.root.join("arrived");
    let args = json!({"ms": 20000, "marker": marker});
    let id = mcp.send("tools/call", json!({"name": "test_sleep", "arguments": args}));
    // The call is under way on the sidecar: it wrote the sidecar's pid to the marker.
    assert_eq!(wait_marker(&marker), [pid], "the call runs on the sidecar");
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
    let marker = dirs.root.join("arrived");
    let marker_param = format!("marker={}", marker.display());
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_locus"));
    cmd.args(["call", "test_sleep", "--param", "ms=20000", "--param", &marker_param])
        .current_dir(&dirs.workspace)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in dirs.env() {
        cmd.env(k, v);
    }
    let child = cmd.spawn().unwrap();
    // The call is under way on the sidecar: it wrote the sidecar's pid to the marker.
    assert_eq!(wait_marker(&marker), [pid], "the call runs on the sidecar");
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

/// A relay on 127.0.0.1 to `target` (`host:port`) that passes connections through until a
/// call of `test_sleep` goes by: the sidecar's answer to it is read to its end (the call has run)
/// and dropped, that connection closed, and every later connection closed at once; an
/// answer lost on the way while the sidecar lives. Returns the relay's `host:port`.
fn answer_losing_relay(target: String) -> String {
    use std::io::{Read, Write};
    use std::net::{Shutdown, TcpListener, TcpStream};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let lost = Arc::new(AtomicBool::new(false));
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(client) = client else { break };
            if lost.load(Ordering::SeqCst) {
                let _ = client.shutdown(Shutdown::Both);
                continue;
            }
            let Ok(server) = TcpStream::connect(&target) else { continue };
            let calling = Arc::new(AtomicBool::new(false));
            let (mut c_in, mut s_out) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            let seen = calling.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 16384];
                let mut tail = Vec::new();
                while let Ok(n) = c_in.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    tail.extend_from_slice(&buf[..n]);
                    if tail.windows(10).any(|w| w == b"test_sleep") {
                        seen.store(true, Ordering::SeqCst);
                    }
                    let keep = tail.len().saturating_sub(16);
                    tail.drain(..keep);
                    if s_out.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                let _ = s_out.shutdown(Shutdown::Write);
            });
            let (mut s_in, mut c_out) = (server, client);
            let lost = lost.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 16384];
                let mut dropped = Vec::new();
                while let Ok(n) = s_in.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    if calling.load(Ordering::SeqCst) {
                        // The answer to the call: read until it is whole, then lose it.
                        dropped.extend_from_slice(&buf[..n]);
                        if dropped.windows(17).any(|w| w == b"structuredContent") {
                            lost.store(true, Ordering::SeqCst);
                            break;
                        }
                        continue;
                    }
                    if c_out.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                let _ = c_out.shutdown(Shutdown::Both);
                let _ = s_in.shutdown(Shutdown::Both);
            });
        }
    });
    addr
}

/// Directories whose discovery file names the live sidecar of `record` (`pid`), but at an
/// [`answer_losing_relay`] before it: for the `locus mcp` and `locus call` that use them.
fn through_losing_relay(record: &serde_json::Value, pid: u32, name: &str) -> Dirs {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    let url = record["url"].as_str().unwrap();
    let (authority, path) = url.strip_prefix("http://").unwrap().split_once('/').unwrap();
    let relay = answer_losing_relay(authority.to_string());
    let mut relayed = record.clone();
    relayed["url"] = json!(format!("http://{relay}/{path}"));
    let caller = Dirs::new(name);
    std::fs::DirBuilder::new().mode(0o700).create(caller.discovery_dir()).unwrap();
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(caller.discovery_file(pid))
        .unwrap();
    std::io::Write::write_all(&mut file, relayed.to_string().as_bytes()).unwrap();
    caller
}

/// `locus call` whose request reached a live sidecar but whose answer was lost does not run
/// the call again in-process (it may have acted on the sidecar: a rename the editor made):
/// it answers `E_INTERNAL` saying so, and the call ran once, on the sidecar.
#[test]
fn locus_call_does_not_run_again_in_process_a_call_whose_answer_was_lost() {
    let dirs = Dirs::new("call-answer-lost");
    let (mut s, record) = start_sidecar(&dirs, &dirs.workspace, "lossy-editor");
    let pid = s.pid();
    let caller = through_losing_relay(&record, pid, "call-answer-lost-caller");
    let marker = dirs.root.join("ran");
    let marker_param = format!("marker={}", marker.display());
    let (code, stdout, stderr) = mcp_support::locus(
        &caller,
        &dirs.workspace,
        &["call", "test_sleep", "--param", "ms=0", "--param", &marker_param],
    );
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let envelope: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let error = &envelope["error"];
    assert_eq!(error["code"], "E_INTERNAL", "{envelope}\n{stderr}");
    assert_eq!(error["details"]["sidecarPid"], pid, "{envelope}");
    assert_eq!(error["details"]["reason"], "answerLost", "{envelope}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("may have taken effect"), "{message}");
    // It ran once, on the sidecar, and not again in `locus call`.
    assert_eq!(wait_marker(&marker), [pid], "{stderr}");
    assert!(s.alive());
    drop(s);
}

/// `locus mcp` too: a forwarded call whose answer was lost while the sidecar lives answers
/// `E_INTERNAL` (it may have taken effect), ran once, on the sidecar, and the stream goes on.
#[test]
fn locus_mcp_does_not_run_again_in_process_a_call_whose_answer_was_lost() {
    let dirs = Dirs::new("mcp-answer-lost");
    let (mut s, record) = start_sidecar(&dirs, &dirs.workspace, "lossy-editor");
    let pid = s.pid();
    let caller = through_losing_relay(&record, pid, "mcp-answer-lost-caller");
    let mut mcp = StdioMcp::start(&caller, &dirs.workspace, &[]);
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["data"]["pid"], pid, "forwarded through the relay: {r}");
    let marker = dirs.root.join("ran");
    let r = mcp.call("test_sleep", json!({"ms": 0, "marker": marker}));
    assert_eq!(r["isError"], true, "{r}");
    let error = &r["structuredContent"]["error"];
    assert_eq!(error["code"], "E_INTERNAL", "{r}");
    assert_eq!(error["details"]["sidecarPid"], pid, "{r}");
    assert_eq!(error["details"]["reason"], "answerLost", "{r}");
    assert!(error["message"].as_str().unwrap().contains("may have taken effect"), "{r}");
    assert_eq!(wait_marker(&marker), [pid], "it ran once, on the sidecar");
    // The relay now refuses connections: the next call is served in-process.
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["ok"], true, "{r}");
    assert!(s.alive());
    assert!(mcp.close().success());
}
