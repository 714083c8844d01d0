//! A small LSP client for the end-to-end tests: spawns `locus lsp` and speaks JSON-RPC over
//! its stdio. Every wait has a deadline, so a hung server fails the test instead of hanging it.

#![allow(dead_code, reason = "each test binary and bench uses a different part of this client")]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};
use serde_json::{Value, json};

pub const DEADLINE: Duration = Duration::from_secs(60);

pub struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications and requests the server sent, in order.
    pub received: Vec<Value>,
}

/// Reads one `Content-Length` framed message; `None` at end of stream.
fn read_frame(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            length = v.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Server {
    /// Starts `locus lsp` with `args`; its stderr goes to this process's stderr.
    pub fn start(args: &[&str]) -> Server {
        Server::start_with_env(args, &[])
    }

    pub fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Server {
        Server::start_exe(Path::new(env!("CARGO_BIN_EXE_locus")), args, env)
    }

    /// [`Server::start_with_env`] from the binary at `exe` (a copy under another name).
    pub fn start_exe(exe: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut cmd = Command::new(exe);
        cmd.arg("lsp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if !env.iter().any(|(k, _)| *k == "LOCUS_LOG") {
            cmd.env("LOCUS_LOG", "warn");
        }
        // No symbol cache (it would be written to the user's ~/.cache); a test may set one.
        cmd.env("LOCUS_INDEX_CACHE", "0");
        for (k, v) in env {
            cmd.env(k, v);
        }
        // A binary just copied (a renamed `locus`) can be "text file busy" for a moment: a
        // test on another thread that forks before its exec holds the copy's write descriptor.
        let started = Instant::now();
        let mut child = loop {
            match cmd.spawn() {
                Err(e)
                    if e.kind() == std::io::ErrorKind::ExecutableFileBusy
                        && started.elapsed() < Duration::from_secs(5) =>
                {
                    std::thread::sleep(Duration::from_millis(20));
                }
                spawned => break spawned.expect("spawning locus lsp"),
            }
        };
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_frame(&mut reader) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Server { child, stdin, incoming, next_id: 1, received: Vec::new() }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes raw bytes (for malformed-input tests).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("writing to locus lsp");
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, message: &Value) {
        let body = message.to_string();
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.send_raw(frame.as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its response: `Ok(result)` or `Err(error object)`.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = json!({"jsonrpc": "2.0", "id": id, "method": method});
        if !params.is_null() {
            message["params"] = params;
        }
        self.send(&message);
        self.wait_response(id)
    }

    pub fn wait_response(&mut self, id: i64) -> Result<Value, Value> {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(m) if m.get("id") == Some(&json!(id)) && m.get("method").is_none() => {
                    return match m.get("error") {
                        Some(e) => Err(e.clone()),
                        None => Ok(m.get("result").cloned().unwrap_or(Value::Null)),
                    };
                }
                Ok(m) => self.received.push(m),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no response to request {id} within {DEADLINE:?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("locus lsp closed its output before answering request {id}")
                }
            }
        }
    }

    /// The next message from the server within `wait`, kept in `received` too (editor action).
    pub fn recv(&mut self, wait: Duration) -> Option<Value> {
        let m = self.incoming.recv_timeout(wait).ok()?;
        self.received.push(m.clone());
        Some(m)
    }

    /// Messages that arrived without being waited for (log messages, mostly).
    pub fn drain(&mut self) -> &[Value] {
        while let Ok(m) = self.incoming.try_recv() {
            self.received.push(m);
        }
        &self.received
    }

    /// `initialize` + `initialized`; returns the initialize result.
    pub fn initialize(&mut self, params: Value) -> Value {
        let mut p = json!({"processId": null, "rootUri": null, "capabilities": {}});
        if let (Some(base), Some(extra)) = (p.as_object_mut(), params.as_object()) {
            for (k, v) in extra {
                base.insert(k.clone(), v.clone());
            }
        }
        let result = self.request("initialize", p).expect("initialize succeeds");
        self.notify("initialized", json!({}));
        result
    }

    pub fn open(&mut self, uri: &str, language: &str, version: i32, text: &str) {
        self.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": language, "version": version, "text": text}}));
    }

    pub fn change(&mut self, uri: &str, version: i32, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        );
    }

    pub fn context(&mut self, params: Value) -> Value {
        self.request("locus/getContext", params).expect("getContext succeeds")
    }

    pub fn text(&mut self, uri: &str) -> String {
        let r = self
            .request("locus/debugText", json!({"textDocument": {"uri": uri}}))
            .expect("debugText succeeds");
        r["text"].as_str().unwrap().to_string()
    }

    /// `shutdown` + `exit`; returns the exit status.
    pub fn stop(mut self) -> ExitStatus {
        self.request("shutdown", Value::Null).expect("shutdown succeeds");
        self.notify("exit", Value::Null);
        self.wait()
    }

    /// Waits for the process to end (closing its stdin first).
    pub fn wait(&mut self) -> ExitStatus {
        self.stdin.take();
        self.wait_with_stdin_open()
    }

    /// Waits for the process to end, its stdin left open (as some editors leave it).
    pub fn wait_with_stdin_open(&mut self) -> ExitStatus {
        let deadline = Instant::now() + DEADLINE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "locus lsp did not exit within {DEADLINE:?}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// The resident set size in KiB (Linux).
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A fresh temporary directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("locus-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A position in `text` at char index `at`, in `encoding`. Lines break at `\n`, `\r\n` and a
/// lone `\r`, as in the LSP; `at` must not fall inside a `\r\n`.
pub fn position(text: &str, at: usize, encoding: &str) -> Value {
    let chars: Vec<char> = text.chars().collect();
    let mut line = 0;
    let mut character = 0;
    for (i, &c) in chars.iter().enumerate().take(at) {
        if c == '\n' || (c == '\r' && chars.get(i + 1) != Some(&'\n')) {
            line += 1;
            character = 0;
        } else if c == '\r' {
            // The first half of a "\r\n": the '\n' breaks the line.
        } else {
            character += match encoding {
                "utf-8" => c.len_utf8(),
                "utf-16" => c.len_utf16(),
                _ => 1,
            };
        }
    }
    json!({"line": line, "character": character})
}

/// Replaces chars `a..b` of `text` with `new`.
pub fn splice(text: &str, a: usize, b: usize, new: &str) -> String {
    let start = text.char_indices().nth(a).map_or(text.len(), |(i, _)| i);
    let end = text.char_indices().nth(b).map_or(text.len(), |(i, _)| i);
    format!("{}{new}{}", &text[..start], &text[end..])
}

/// A deterministic pseudo-random generator (proptest's ChaCha, from a seed), so failures
/// reproduce.
pub struct Rng(TestRng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        Rng(TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { self.0.random_range(0..n) }
    }
}
