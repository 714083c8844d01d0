//! `locus call dialog_*` as a user runs it, over a fixture `$HOME` holding a Claude Code and
//! a Codex history for one workspace: the most recent session's first request comes back
//! verbatim.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn write(path: &Path, lines: &[Value]) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    fs::write(path, text).unwrap();
}

/// A home with a Claude Code session (earlier) and a Codex session (later) whose working
/// directory is `workspace`, plus a newer Claude Code session of another folder.
fn fixture(name: &str) -> (Scratch, PathBuf, PathBuf) {
    let root =
        std::env::temp_dir().join(format!("locus-dialog-call-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    let home = root.join("home");
    let workspace = root.join("work space");
    fs::create_dir_all(&workspace).unwrap();
    let workspace = fs::canonicalize(&workspace).unwrap();
    let ws = workspace.to_str().unwrap();
    let escaped: String =
        ws.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    write(
        &home
            .join(".claude/projects")
            .join(&escaped)
            .join("c1a0de00-0000-4000-8000-000000000001.jsonl"),
        &[
            json!({"type": "user", "cwd": ws, "sessionId": "c1a0de00-0000-4000-8000-000000000001", "uuid": "u0", "isMeta": true, "timestamp": "2025-11-01T09:59:00Z",
                "message": {"role": "user", "content": "<local-command-caveat>Caveat: …</local-command-caveat>"}}),
            json!({"type": "user", "cwd": ws, "sessionId": "c1a0de00-0000-4000-8000-000000000001", "uuid": "u1", "timestamp": "2025-11-01T10:00:00Z",
                "message": {"role": "user", "content": "Plan the database migration; keep the old columns until v3."}}),
            json!({"type": "assistant", "cwd": ws, "uuid": "a1", "timestamp": "2025-11-01T10:01:00Z",
                "message": {"role": "assistant", "content": [{"type": "text", "text": "Here is a plan."}]}}),
        ],
    );
    write(
        &home.join(".claude/projects/-elsewhere/c1a0de00-0000-4000-8000-000000000099.jsonl"),
        &[
            json!({"type": "user", "cwd": "/elsewhere", "uuid": "x", "timestamp": "2025-12-01T00:00:00Z",
            "message": {"role": "user", "content": "Not this workspace."}}),
        ],
    );
    write(
        &home.join(".codex/sessions/2025/11/02/rollout-2025-11-02T08-00-00-0199c0de-0000-7000-8000-000000000004.jsonl"),
        &[
            json!({"timestamp": "2025-11-02T08:00:00Z", "type": "session_meta", "payload": {"id": "0199c0de-0000-7000-8000-000000000004", "cwd": ws, "cli_version": "0.50.0"}}),
            json!({"timestamp": "2025-11-02T08:00:00Z", "type": "response_item", "payload": {"type": "message", "role": "user",
                "content": [{"type": "input_text", "text": format!("<environment_context>\n  <cwd>{ws}</cwd>\n</environment_context>")}]}}),
            json!({"timestamp": "2025-11-02T08:00:01Z", "type": "event_msg", "payload": {"type": "user_message",
                "message": "Écris les tests d'intégration — exactement « comme avant », s'il te plaît.\nDeuxième ligne.", "images": []}}),
            json!({"timestamp": "2025-11-02T08:05:00Z", "type": "event_msg", "payload": {"type": "agent_message", "message": "D'accord."}}),
        ],
    );
    (Scratch(root), home, workspace)
}

/// `locus ARGS` in `dir` with only `home` as the user's home.
fn locus(home: &Path, dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_locus"));
    cmd.args(args).current_dir(dir).env("HOME", home).env("XDG_RUNTIME_DIR", home.join("run"));
    for var in [
        "CLAUDE_CONFIG_DIR",
        "CODEX_HOME",
        "GEMINI_CLI_HOME",
        "LOCUS_MEMORY_HOME",
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "VSCODE_PORTABLE",
        "APPDATA",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// Runs `locus call` in `dir` with only `home` as the user's home.
fn locus_call(home: &Path, dir: &Path, args: &[&str]) -> (bool, Value) {
    let mut cmd = locus(home, dir, &["call"]);
    cmd.args(args);
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let envelope = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.success(), envelope)
}

#[test]
fn first_request_of_the_most_recent_session_verbatim() {
    let (_scratch, home, workspace) = fixture("first");
    let (ok, v) = locus_call(&home, &workspace, &["dialog_get_first_request"]);
    assert!(ok, "{v}");
    assert_eq!(v["ok"], true);
    let d = &v["data"];
    assert_eq!(d["source"], "codex", "Codex is the most recent session of the workspace: {v}");
    assert_eq!(d["sessionId"], "0199c0de-0000-7000-8000-000000000004");
    assert_eq!(
        d["firstRequest"],
        "Écris les tests d'intégration — exactement « comme avant », s'il te plaît.\nDeuxième ligne."
    );
    assert_eq!(d["requestsCount"], 1);
    assert_eq!(v["meta"]["tool"], "dialog_get_first_request");

    let (ok, v) = locus_call(
        &home,
        &workspace,
        &["dialog_get_first_request", "--param", "sessionId=c1a0de00-0000-4000-8000-000000000001"],
    );
    assert!(ok, "{v}");
    assert_eq!(
        v["data"]["firstRequest"],
        "Plan the database migration; keep the old columns until v3."
    );
    assert_eq!(v["data"]["source"], "claude-code");
}

#[test]
fn list_and_errors_through_the_command_line() {
    let (_scratch, home, workspace) = fixture("list");
    let (ok, v) = locus_call(&home, &workspace, &["dialog_list_sessions"]);
    assert!(ok, "{v}");
    let sources: Vec<&str> = v["data"]["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, ["codex", "claude-code"], "other folders' sessions are not listed: {v}");

    let (ok, v) = locus_call(&home, &workspace, &["dialog_get_request", "--param", "index=0"]);
    assert!(!ok);
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS");
    assert_eq!(v["error"]["message"], "Index must be 1 or greater");

    let empty = workspace.join("empty");
    fs::create_dir_all(&empty).unwrap();
    let (ok, v) = locus_call(&home.join("nobody"), &empty, &["dialog_get_first_request"]);
    assert!(!ok);
    assert_eq!(v["error"]["code"], "E_NOT_FOUND");
    assert_eq!(v["error"]["message"], "No active dialog found");
}

fn listed(v: &Value) -> Vec<String> {
    v["data"]["sessions"]
        .as_array()
        .unwrap_or_else(|| panic!("no sessions in {v}"))
        .iter()
        .map(|s| format!("{} {}", s["source"].as_str().unwrap(), s["folder"].as_str().unwrap()))
        .collect()
}

/// `--workspace` decides which sessions are the workspace's, wherever `locus call` runs;
/// started from `/` without it, no project's sessions are taken for the current dialog.
#[test]
fn call_honours_workspace_and_the_filesystem_root_holds_no_project() {
    let (_scratch, home, workspace) = fixture("workspace");
    let ws = workspace.to_str().unwrap();
    let root = Path::new("/");
    let (ok, v) = locus_call(&home, root, &["dialog_list_sessions", "--workspace", ws]);
    assert!(ok, "{v}");
    assert_eq!(v["data"]["workspace"], json!([ws]), "{v}");
    assert_eq!(listed(&v), [format!("codex {ws}"), format!("claude-code {ws}")], "{v}");
    let (ok, v) = locus_call(&home, root, &["dialog_get_first_request", "--workspace", ws]);
    assert!(ok, "{v}");
    assert_eq!(v["data"]["sessionId"], "0199c0de-0000-7000-8000-000000000004");

    // From `/` itself: every session lies below it, none is this workspace's.
    let (ok, v) = locus_call(&home, root, &["dialog_list_sessions"]);
    assert!(ok, "{v}");
    assert_eq!(v["data"]["workspace"], json!(["/"]), "{v}");
    assert_eq!(listed(&v), Vec::<String>::new(), "{v}");
    let (ok, v) = locus_call(&home, root, &["dialog_get_first_request"]);
    assert!(!ok);
    assert_eq!(v["error"]["code"], "E_NOT_FOUND", "{v}");
    let hint = v["error"]["hint"].as_str().unwrap();
    assert!(hint.contains("--workspace"), "the hint names the way out: {hint}");
    // A session id still reads any session.
    let (ok, v) = locus_call(
        &home,
        root,
        &["dialog_get_first_request", "--param", "sessionId=c1a0de00-0000-4000-8000-000000000099"],
    );
    assert!(ok, "{v}");
    assert_eq!(v["data"]["firstRequest"], "Not this workspace.");
}

/// `locus mcp --workspace DIR` started from `/` with no sidecar serves the dialog tools for
/// DIR, spoken to over stdio as an MCP client does.
#[test]
fn mcp_in_process_honours_workspace() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    use std::sync::mpsc;
    use std::time::Duration;

    let (_scratch, home, workspace) = fixture("mcp");
    let ws = workspace.to_str().unwrap();
    let mut child = locus(&home, Path::new("/"), &["mcp", "--workspace", ws])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(serde_json::from_str(&line).unwrap_or(Value::Null)).is_err() {
                break;
            }
        }
    });
    let mut send = |m: Value| {
        writeln!(stdin, "{m}").unwrap();
        stdin.flush().unwrap();
    };
    let answer = |id: i64| loop {
        let m = rx.recv_timeout(Duration::from_secs(20)).expect("locus mcp answers");
        if m["id"] == json!(id) {
            return m;
        }
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}),
    );
    let init = answer(1);
    assert_eq!(init["result"]["serverInfo"]["name"], "locus", "{init}");
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}}));
    let call = |id: i64, tool: &str| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": {}}});
    send(call(2, "dialog_list_sessions"));
    let r = answer(2);
    let v = &r["result"]["structuredContent"];
    assert_eq!(listed(v), [format!("codex {ws}"), format!("claude-code {ws}")], "{r}");
    send(call(3, "dialog_get_first_request"));
    let r = answer(3);
    let v = &r["result"]["structuredContent"];
    assert_eq!(v["data"]["sessionId"], "0199c0de-0000-7000-8000-000000000004", "{r}");
    let _ = child.kill();
    let _ = child.wait();
}
