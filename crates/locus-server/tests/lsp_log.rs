//! Where `locus lsp`'s messages go (docs/configuration.md): editors file everything a server writes
//! to stderr as an error (Helix's log says `[ERROR]`, Neovim's `lsp.log` too), so stderr carries
//! warnings and errors only and the rest reaches the editor's log through `window/logMessage`; a
//! `locus.cursor` that names no open document is shown to the user (`window/showMessage`), since
//! Helix only logs a failed command's error.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{Value, json};

const DEADLINE: Duration = Duration::from_secs(60);

fn send(stdin: &mut ChildStdin, message: Value) {
    let body = message.to_string();
    write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    stdin.flush().unwrap();
}

/// Reads one framed message; `None` at the end of the stream.
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

/// Waits for the response to request `id`, keeping every other message in `seen`.
fn response(incoming: &Receiver<Value>, id: i64, seen: &mut Vec<Value>) -> Value {
    loop {
        let m = incoming.recv_timeout(DEADLINE).expect("locus lsp answered in time");
        if m.get("id") == Some(&json!(id)) && m.get("method").is_none() {
            return m;
        }
        seen.push(m);
    }
}

fn params_of<'a>(seen: &'a [Value], method: &str) -> Vec<&'a Value> {
    seen.iter().filter(|m| m["method"] == method).map(|m| &m["params"]).collect()
}

#[test]
fn stderr_holds_only_warnings_and_a_missed_path_is_shown() {
    let dir = std::env::temp_dir().join(format!("locus-lsp-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("app.py");
    std::fs::write(&file, "def main():\n    pass\n").unwrap();
    let uri = format!("file://{}", file.display());

    let mut child = Command::new(env!("CARGO_BIN_EXE_locus"))
        .args(["lsp", "--no-mcp", "--log-level", "debug"])
        .env("LOCUS_INDEX_CACHE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawning locus lsp");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let (tx, incoming) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        while let Some(m) = read_frame(&mut reader) {
            if tx.send(m).is_err() {
                break;
            }
        }
    });
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });

    let mut seen = Vec::new();
    let folder = format!("file://{}", dir.display());
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "capabilities": {}, "clientInfo": {"name": "helix"},
            "workspaceFolders": [{"uri": folder, "name": "ws"}]}}),
    );
    response(&incoming, 1, &mut seen);
    send(&mut stdin, json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 0, "text": "def main():\n    pass\n"}}}),
    );
    let found = json!({"command": "locus.cursor", "arguments": [{"path": "app.py", "line": 2, "column": 5}]});
    let answer =
        json!({"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand", "params": found});
    send(&mut stdin, answer);
    assert_eq!(response(&incoming, 2, &mut seen)["result"], Value::Null);
    let missed = json!({"command": "locus.cursor", "arguments": [{"path": "nope.py", "line": 1}]});
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 3, "method": "workspace/executeCommand", "params": missed}),
    );
    let error = response(&incoming, 3, &mut seen);
    assert_eq!(error["error"]["code"], -32602, "{error}");
    send(&mut stdin, json!({"jsonrpc": "2.0", "id": 4, "method": "shutdown"}));
    response(&incoming, 4, &mut seen);
    send(&mut stdin, json!({"jsonrpc": "2.0", "method": "exit"}));
    drop(stdin);
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
    seen.extend(incoming.try_iter());
    let stderr = errors.join().unwrap();

    // The miss is shown to the user, as a warning.
    let shown = params_of(&seen, "window/showMessage");
    assert_eq!(shown.len(), 1, "{seen:?}");
    assert_eq!(shown[0]["type"], 2);
    let text = shown[0]["message"].as_str().unwrap();
    assert!(text.starts_with("Locus: no open document has the path `nope.py`"), "{text}");
    // Every level reaches the editor's log, the start-up line included (it waited for
    // `initialize`)…
    let logged: Vec<&str> = params_of(&seen, "window/logMessage")
        .iter()
        .map(|p| p["message"].as_str().unwrap_or_default())
        .collect();
    assert!(logged.iter().any(|m| m.starts_with("locus lsp ") && m.contains("MCP disabled")));
    assert!(logged.iter().any(|m| m.starts_with("initialize: client \"helix\"")), "{logged:?}");
    assert!(logged.iter().any(|m| m.starts_with("locus.cursor: file://")), "{logged:?}");
    // …and only warnings reach stderr, though the level is `debug`: the miss's.
    assert!(stderr.lines().all(|l| l.starts_with("locus lsp [warn] ")), "{stderr}");
    assert!(stderr.contains("no open document has the path `nope.py`"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
