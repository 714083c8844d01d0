//! Helpers for the MCP end-to-end tests: a `locus lsp` sidecar with its own runtime
//! directory, its discovery file, an rmcp client over streamable HTTP, and `locus mcp` on
//! stdio driven line by line.

#![allow(dead_code, reason = "each test binary uses a different part of this support module")]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, CallToolResult, ClientConfig};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

use crate::lsp_support::{Server, file_uri, temp_dir};

pub const WAIT: Duration = Duration::from_secs(20);

/// A test's own directories: the runtime dir discovery files go in, and a workspace.
pub struct Dirs {
    pub root: PathBuf,
    pub runtime: PathBuf,
    pub workspace: PathBuf,
}

impl Dirs {
    pub fn new(name: &str) -> Dirs {
        let root = temp_dir(name);
        let runtime = root.join("run");
        let workspace = root.join("ws");
        std::fs::create_dir_all(&runtime).unwrap();
        std::fs::create_dir_all(&workspace).unwrap();
        let workspace = std::fs::canonicalize(&workspace).unwrap();
        Dirs { root, runtime, workspace }
    }

    /// The environment every process of the test gets.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("XDG_RUNTIME_DIR", self.runtime.display().to_string()),
            // Claude Code's lock files, which every sidecar of an editor other than VS Code
            // writes: here, not in the user's ~/.claude.
            ("CLAUDE_CONFIG_DIR", self.root.join("claude").display().to_string()),
            // Gemini CLI's discovery files go in the temporary folder's gemini/ide.
            ("TMPDIR", self.root.join("tmp").display().to_string()),
            ("LOCUS_TEST_TOOLS", "1".into()),
            // No symbol cache: it would be written to the user's ~/.cache.
            ("LOCUS_INDEX_CACHE", "0".into()),
        ]
    }

    pub fn discovery_dir(&self) -> PathBuf {
        self.runtime.join("locus")
    }

    pub fn discovery_file(&self, pid: u32) -> PathBuf {
        self.discovery_dir().join(format!("{pid}.json"))
    }
}

/// A `locus lsp` whose editor has initialized with `folder` as its workspace.
pub fn start_sidecar(dirs: &Dirs, folder: &Path, client: &str) -> (Server, Value) {
    start_sidecar_with(dirs, folder, client, &[])
}

/// [`start_sidecar`] with `args` on `locus lsp`'s command line.
pub fn start_sidecar_with(
    dirs: &Dirs,
    folder: &Path,
    client: &str,
    args: &[&str],
) -> (Server, Value) {
    let env: Vec<(&str, String)> = dirs.env();
    let env_refs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut s = Server::start_with_env(args, &env_refs);
    s.initialize(json!({
        "rootUri": file_uri(folder),
        "workspaceFolders": [{"uri": file_uri(folder), "name": "ws"}],
        "capabilities": {"experimental": {"locus": {"cursor": true}}},
        "clientInfo": {"name": client},
    }));
    let record =
        wait_record(dirs, s.pid(), |r| !r["workspaceFolders"].as_array().unwrap().is_empty());
    (s, record)
}

/// Waits until the discovery file of `pid` exists and satisfies `ready`.
pub fn wait_record(dirs: &Dirs, pid: u32, ready: impl Fn(&Value) -> bool) -> Value {
    let path = dirs.discovery_file(pid);
    let deadline = Instant::now() + WAIT;
    loop {
        if let Ok(text) = std::fs::read_to_string(&path)
            && let Ok(v) = serde_json::from_str::<Value>(&text)
            && ready(&v)
        {
            return v;
        }
        assert!(Instant::now() < deadline, "no ready discovery file at {}", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until `path` is gone.
pub fn wait_gone(path: &Path) {
    let deadline = Instant::now() + WAIT;
    while path.exists() {
        assert!(Instant::now() < deadline, "{} was not removed", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub type Client = RunningService<RoleClient, ClientConfig>;

/// An rmcp client of the sidecar, with its token.
pub async fn http_client(record: &Value) -> Client {
    let http = reqwest::Client::builder().no_proxy().pool_max_idle_per_host(0).build().unwrap();
    let config =
        StreamableHttpClientTransportConfig::with_uri(record["url"].as_str().unwrap().to_string())
            .auth_header(record["token"].as_str().unwrap().to_string());
    let transport = StreamableHttpClientTransport::with_client(http, config);
    ClientConfig::default().serve(transport).await.expect("the MCP client connects")
}

pub async fn call(client: &Client, name: &str, args: Value) -> CallToolResult {
    let mut request = CallToolRequestParams::new(name.to_string());
    request.arguments = args.as_object().cloned();
    client.peer().call_tool(request).await.expect("tools/call answers")
}

pub fn envelope(result: &CallToolResult) -> Value {
    result.structured_content.clone().expect("the envelope is in structuredContent")
}

/// `locus mcp` on stdio, spoken to in newline-delimited JSON-RPC.
pub struct StdioMcp {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
    next_id: i64,
}

impl StdioMcp {
    pub fn start(dirs: &Dirs, cwd: &Path, args: &[&str]) -> StdioMcp {
        StdioMcp::start_with_env(dirs, cwd, args, &[])
    }

    /// [`StdioMcp::start`] with `env` set after the test's environment.
    pub fn start_with_env(
        dirs: &Dirs,
        cwd: &Path,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> StdioMcp {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_locus"));
        cmd.arg("mcp")
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (k, v) in dirs.env() {
            cmd.env(k, v);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("spawning locus mcp");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let v: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("locus mcp wrote a non-JSON line {line:?}: {e}"));
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let mut mcp = StdioMcp { child, stdin: None, lines, next_id: 1 };
        mcp.stdin = mcp.child.stdin.take();
        let init = mcp.request("initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}));
        assert_eq!(init["result"]["serverInfo"]["name"], "locus", "{init}");
        mcp.notify("notifications/initialized", json!({}));
        mcp
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.write(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Writes one raw line (for garbage: mcp_bodies.rs).
    pub fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Writes raw bytes and a newline (for garbage that is not UTF-8: mcp_bodies.rs).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Waits for the next message that answers no request (`id: null`).
    pub fn response_without_id(&mut self) -> Value {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let m =
                self.lines.recv_timeout(left).unwrap_or_else(|_| panic!("no answer without an id"));
            if m.get("id") == Some(&Value::Null) {
                return m;
            }
        }
    }

    fn write(&mut self, v: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
    }

    /// Numbers this client's next requests from `first` on.
    pub fn start_ids_at(&mut self, first: i64) {
        self.next_id = first;
    }

    /// Sends a request and returns its id without waiting.
    pub fn send(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.write(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Waits for the response to `id` (other messages are dropped).
    pub fn response(&mut self, id: i64) -> Value {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no response to request {id}"));
            if m["id"] == json!(id) {
                return m;
            }
        }
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        self.response(id)
    }

    /// `tools/call`; returns the result (with the envelope in `structuredContent`).
    pub fn call(&mut self, name: &str, args: Value) -> Value {
        let r = self.request("tools/call", json!({"name": name, "arguments": args}));
        r["result"].clone()
    }

    /// Closes stdin and waits for the exit.
    pub fn close(mut self) -> std::process::ExitStatus {
        self.stdin.take();
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "locus mcp did not exit after stdin closed");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for StdioMcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until the `test_sleep` call given `marker` has started (its process appended its
/// pid to the file); returns the pids written so far, one per call that started.
pub fn wait_marker(marker: &Path) -> Vec<u32> {
    let deadline = Instant::now() + WAIT;
    loop {
        let text = std::fs::read_to_string(marker).unwrap_or_default();
        let pids: Vec<u32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
        if !pids.is_empty() {
            return pids;
        }
        assert!(Instant::now() < deadline, "no call started: {} is empty", marker.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Runs `locus ARGS` in `cwd` with the test's environment; returns (status, stdout, stderr).
pub fn locus(dirs: &Dirs, cwd: &Path, args: &[&str]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_locus"));
    cmd.args(args).current_dir(cwd);
    for (k, v) in dirs.env() {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("running locus");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A raw HTTP/1.1 POST to the sidecar with the given extra headers; returns the status code.
pub fn raw_post(url: &str, headers: &[(&str, &str)]) -> u16 {
    let rest = url.strip_prefix("http://").unwrap();
    let (authority, path) = rest.split_once('/').unwrap();
    let mut stream = std::net::TcpStream::connect(authority).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}})
    .to_string();
    let mut request = format!("POST /{path} HTTP/1.1\r\n");
    let has_host = headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host"));
    if !has_host {
        request.push_str(&format!("Host: {authority}\r\n"));
    }
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str(&format!(
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    stream.write_all(request.as_bytes()).unwrap();
    let mut status_line = String::new();
    BufReader::new(stream).read_line(&mut status_line).unwrap();
    status_line.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0)
}
