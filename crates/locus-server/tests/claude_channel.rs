//! Claude Code's IDE channel through a live `locus lsp`, with a WebSocket client that speaks as
//! the CLI does (its headers, subprotocol and messages): the lock file, the token, MCP's
//! initialize, `selection_changed` as the editor's cursor moves, and `openDiff` reviewed by
//! the editor (`edit.propose`) without Locus writing the file. The real CLI is driven by
//! `tests/e2e/test_ide_channels.py`.

mod lsp_support;
mod mcp_support;

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lsp_support::{Server, file_uri};
use mcp_support::{Dirs, WAIT};
use serde_json::{Value, json};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// `locus lsp` initialized by the editor `client` with `options`.
fn editor(dirs: &Dirs, client: &str, options: Value) -> Server {
    let env: Vec<(&str, String)> = dirs.env();
    let env_refs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut s = Server::start_with_env(&[], &env_refs);
    let folder = file_uri(&dirs.workspace);
    s.initialize(json!({
        "rootUri": folder,
        "workspaceFolders": [{"uri": folder, "name": "ws"}],
        "capabilities": {"experimental": {"locus": {"cursor": true}}},
        "clientInfo": {"name": client},
        "initializationOptions": options,
    }));
    s
}

/// A sidecar whose editor (`client`) reviews edits, and its lock file once written.
fn start(dirs: &Dirs, client: &str) -> (Server, PathBuf, Value) {
    let s = editor(dirs, client, json!({"editorActions": ["edit.propose", "edit.propose.close"]}));
    let dir = dirs.root.join("claude").join("ide");
    let deadline = Instant::now() + WAIT;
    loop {
        let lock = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .find(|e| e.path().extension().is_some_and(|x| x == "lock"));
        if let Some(lock) = lock
            && let Ok(v) = serde_json::from_slice::<Value>(&std::fs::read(lock.path()).unwrap())
        {
            return (s, lock.path(), v);
        }
        assert!(Instant::now() < deadline, "no lock file in {}", dir.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn port_of(lock: &Path) -> u16 {
    lock.file_stem().unwrap().to_str().unwrap().parse().unwrap()
}

/// Opens the WebSocket as the CLI does; the HTTP status of a refusal otherwise.
fn connect(port: u16, token: Option<&str>) -> Result<Socket, u16> {
    let mut request = format!("ws://127.0.0.1:{port}").into_client_request().unwrap();
    request.headers_mut().insert("Sec-WebSocket-Protocol", "mcp".parse().unwrap());
    if let Some(token) = token {
        request.headers_mut().insert("X-Claude-Code-Ide-Authorization", token.parse().unwrap());
    }
    match tungstenite::connect(request) {
        Ok((socket, response)) => {
            assert_eq!(response.headers()["sec-websocket-protocol"], "mcp");
            if let MaybeTlsStream::Plain(tcp) = socket.get_ref() {
                tcp.set_read_timeout(Some(Duration::from_millis(100))).unwrap();
            }
            Ok(socket)
        }
        Err(tungstenite::Error::Http(response)) => Err(response.status().as_u16()),
        Err(e) => panic!("connecting: {e}"),
    }
}

fn send(ws: &mut Socket, message: Value) {
    ws.send(Message::text(message.to_string())).unwrap();
}

/// The next message that `pick` accepts, within [`WAIT`]; the others are dropped.
fn next(ws: &mut Socket, pick: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        assert!(Instant::now() < deadline, "no such message within {WAIT:?}");
        match ws.read() {
            Ok(Message::Text(t)) => {
                let v: Value = serde_json::from_str(&t).unwrap();
                if pick(&v) {
                    return v;
                }
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => panic!("reading: {e}"),
        }
    }
}

fn initialize(ws: &mut Socket) -> Value {
    send(
        ws,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "claude-code", "version": "2.1.332"}}}),
    );
    let answer = next(ws, |m| m["id"] == 0);
    send(ws, json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(ws, json!({"jsonrpc": "2.0", "method": "ide_connected", "params": {"pid": 1}}));
    answer
}

#[test]
fn the_cli_finds_the_editor_and_sees_its_selection() {
    let dirs = Dirs::new("claude-selection");
    let (mut s, lock_path, lock) = start(&dirs, "helix");
    assert_eq!(lock["pid"], s.pid());
    assert_eq!(lock["workspaceFolders"], json!([dirs.workspace.display().to_string()]));
    assert_eq!(lock["ideName"], "Helix");
    assert_eq!(lock["transport"], "ws");
    let token = lock["authToken"].as_str().unwrap();
    let port = port_of(&lock_path);

    assert_eq!(connect(port, None).err(), Some(401), "no token");
    assert_eq!(connect(port, Some("wrong")).err(), Some(401), "a wrong token");
    let mut ws = connect(port, Some(token)).expect("the token opens the channel");
    let init = initialize(&mut ws);
    assert!(init["result"]["capabilities"]["tools"].is_object(), "{init}");
    send(&mut ws, json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let tools = next(&mut ws, |m| m["id"] == 1);
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    for name in
        ["openDiff", "closeAllDiffTabs", "getDiagnostics", "getCurrentSelection", "saveDocument"]
    {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }

    let path = dirs.workspace.join("app.py");
    let text =
        "def greet(name):\n    return f\"hi {name}\"\n\n\ndef main():\n    print(greet(\"x\"))\n";
    std::fs::write(&path, text).unwrap();
    let uri = file_uri(&path);
    s.open(&uri, "python", 1, text);
    s.notify("locus/didChangeCursor", json!({
        "textDocument": {"uri": uri, "version": 1},
        "position": {"line": 1, "character": 4},
        "selections": [{"start": {"line": 0, "character": 0}, "end": {"line": 2, "character": 0}}],
    }));
    let pushed = next(&mut ws, |m| {
        m["method"] == "selection_changed" && m["params"]["selection"]["isEmpty"] == false
    });
    let p = &pushed["params"];
    assert_eq!(p["filePath"], path.display().to_string());
    assert_eq!(p["text"], "def greet(name):\n    return f\"hi {name}\"\n");
    assert_eq!(p["selection"]["start"], json!({"line": 0, "character": 0}));
    assert_eq!(p["selection"]["end"], json!({"line": 2, "character": 0}));

    send(
        &mut ws,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "getCurrentSelection", "arguments": {}}}),
    );
    let current = next(&mut ws, |m| m["id"] == 2);
    let current: Value =
        serde_json::from_str(current["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(current["success"], true);
    assert_eq!(current["text"], p["text"]);

    // Helix cannot be asked to save (it declares no `file.save`): the tool says so.
    send(
        &mut ws,
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "saveDocument", "arguments": {"filePath": path.display().to_string()}}}),
    );
    let save = next(&mut ws, |m| m["id"] == 3);
    let save: Value =
        serde_json::from_str(save["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(save["success"], false, "{save}");
    assert!(
        save["message"].as_str().unwrap().starts_with("helix cannot be asked to save"),
        "{save}"
    );

    drop(ws);
    s.stop();
    assert!(!lock_path.exists(), "the lock file outlived its editor");
}

#[test]
fn a_proposed_edit_is_reviewed_in_the_editor_and_never_written_by_locus() {
    let dirs = Dirs::new("claude-diff");
    let (mut s, lock_path, lock) = start(&dirs, "Neovim");
    let mut ws = connect(port_of(&lock_path), lock["authToken"].as_str()).unwrap();
    initialize(&mut ws);
    let path = dirs.workspace.join("notes.txt");
    std::fs::write(&path, "old\n").unwrap();
    let p = path.display().to_string();

    for (id, verdict, expect) in [
        (
            10,
            json!({"accepted": true, "text": "new, edited by the user\n"}),
            json!(["FILE_SAVED", "new, edited by the user\n"]),
        ),
        (
            11,
            json!({"accepted": false}),
            json!(["DIFF_REJECTED", "✻ [Claude Code] notes.txt (abc123) ⧉"]),
        ),
    ] {
        send(
            &mut ws,
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "openDiff", "arguments": {"old_file_path": p, "new_file_path": p,
            "new_file_contents": "new\n", "tab_name": "✻ [Claude Code] notes.txt (abc123) ⧉"}}}),
        );
        // The editor is asked to review, and answers as the user decided.
        let deadline = Instant::now() + WAIT;
        let asked = loop {
            assert!(Instant::now() < deadline, "the editor was not asked to review");
            if let Some(m) = s.recv(Duration::from_millis(50))
                && m["method"] == "locus/editorAction"
            {
                break m;
            }
        };
        assert_eq!(asked["params"]["action"], "edit.propose");
        assert_eq!(asked["params"]["params"]["uri"], file_uri(&path));
        assert_eq!(asked["params"]["params"]["newText"], "new\n");
        s.send(
            &json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"ok": true, "data": verdict}}),
        );
        let answer = next(&mut ws, |m| m["id"] == id);
        let texts: Vec<&Value> =
            answer["result"]["content"].as_array().unwrap().iter().map(|c| &c["text"]).collect();
        assert_eq!(json!(texts), expect, "{answer}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n", "Locus wrote the file");
    }
}

#[test]
fn vs_code_serves_no_channel_unless_asked() {
    let dirs = Dirs::new("claude-vscode");
    let s = editor(&dirs, "Visual Studio Code", json!({}));
    mcp_support::wait_record(&dirs, s.pid(), |r| r["editor"] == "Visual Studio Code");
    std::thread::sleep(Duration::from_millis(1200));
    let dir = dirs.root.join("claude").join("ide");
    assert!(
        std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0) == 0,
        "VS Code's vendors serve this channel; Locus wrote a lock file"
    );
}
