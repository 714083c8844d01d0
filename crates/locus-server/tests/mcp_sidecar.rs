//! The sidecar of a live `locus lsp`, fed by an LSP client: editorContext over
//! streamable HTTP, discovery, security, `locus mcp` forwarding (and finding a restarted
//! editor), `locus call`, `locus status`.
#![cfg(unix)]

mod lsp_support;
mod mcp_support;

use std::time::{Duration, Instant};

use lsp_support::{Server, file_uri};
use mcp_support::{
    Dirs, StdioMcp, WAIT, call, envelope, http_client, locus, raw_post, start_sidecar, wait_gone,
    wait_record,
};
use serde_json::{Value, json};

const PY: &str = "class Greeter:\n    def greet(self, name):\n        msg = name\n        return msg\n\n\ndef main():\n    pass\n";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

fn cursor(s: &mut Server, uri: &str, line: u32, character: u32) {
    s.notify(
        "locus/didChangeCursor",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
    );
    // A request after the notifications: when it is answered, they have been applied.
    s.context(json!(null));
}

#[test]
fn editor_context_over_http_follows_the_editor() {
    let dirs = Dirs::new("mcp-follow");
    let path = dirs.workspace.join("greeter.py");
    std::fs::write(&path, PY).unwrap();
    let uri = file_uri(&path);
    let (mut s, record) = start_sidecar(&dirs, &dirs.workspace, "test-editor");
    assert_eq!(record["editor"], "test-editor");
    assert_eq!(record["pid"], s.pid());
    assert!(record["url"].as_str().unwrap().starts_with("http://127.0.0.1:"));
    assert_eq!(record["token"].as_str().unwrap().len(), 64, "256 bits, hex");
    s.open(&uri, "python", 1, PY);
    s.notify("locus/didChangeActiveEditor", json!({"textDocument": {"uri": uri}}));
    cursor(&mut s, &uri, 3, 8);
    let rt = runtime();
    rt.block_on(async {
        let client = http_client(&record).await;
        let e = envelope(&call(&client, "editor_get_context", json!({})).await);
        assert_eq!(e["ok"], true, "{e}");
        assert_eq!(e["data"], json!({}));
        let ctx = &e["editorContext"];
        assert_eq!(ctx["file"]["path"], path.display().to_string());
        assert_eq!(ctx["cursor"], json!({"line": 4, "character": 9}));
        assert_eq!(ctx["symbols"]["scopeHierarchy"], "Class:Greeter > Method:greet");
        assert_eq!(ctx["symbols"]["source"], "tree-sitter");

        cursor(&mut s, &uri, 7, 4);
        let e = envelope(&call(&client, "editor_get_context", json!({})).await);
        assert_eq!(e["editorContext"]["cursor"], json!({"line": 8, "character": 5}));
        assert_eq!(e["editorContext"]["symbols"]["scopeHierarchy"], "Function:main");

        // A slow call keeps the context of its start, whatever the editor does meanwhile.
        let slow = {
            let client = http_client(&record).await;
            tokio::spawn(async move { envelope(&call(&client, "test_sleep", json!({"ms": 600})).await) })
        };
        tokio::time::sleep(Duration::from_millis(200)).await;
        s.change(&uri, 2, json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "import os\n"}]));
        cursor(&mut s, &uri, 0, 3);
        let e = slow.await.unwrap();
        assert_eq!(e["ok"], true, "{e}");
        assert_eq!(e["editorContext"]["cursor"], json!({"line": 8, "character": 5}), "the context of the call's start");
        assert_eq!(e["editorContext"]["file"]["lineCount"], 9);
        let now = envelope(&call(&client, "editor_get_context", json!({})).await);
        assert_eq!(now["editorContext"]["cursor"], json!({"line": 1, "character": 4}));
        assert_eq!(now["editorContext"]["file"]["lineCount"], 10);

        // System tools never carry it.
        for system in ["bridge_status", "mcp_list_tools"] {
            let e = envelope(&call(&client, system, json!({})).await);
            assert_eq!(e["ok"], true, "{e}");
            assert!(e.get("editorContext").is_none(), "{system}: {e}");
        }
        let status = envelope(&call(&client, "bridge_status", json!({})).await);
        assert_eq!(status["data"]["editor"], "test-editor");
        assert_eq!(status["data"]["mode"], "sidecar");
        assert_eq!(status["data"]["documentsOpen"], 1);
        assert_eq!(status["data"]["endpoint"], record["url"]);

        // Focus moves to the agent's pane: the editor stays, with focused: false.
        s.notify("locus/didChangeActiveEditor", json!({"textDocument": {"uri": uri}, "focused": false}));
        s.context(json!(null));
        let e = envelope(&call(&client, "editor_get_context", json!({})).await);
        assert_eq!(e["editorContext"]["focused"], false, "{e}");
        assert!(e["editorContext"]["file"]["path"].as_str().unwrap().ends_with("greeter.py"), "{e}");

        // No text editor left: no editorContext at all, and still a success saying why.
        s.notify("locus/didChangeActiveEditor", json!({"textDocument": null}));
        s.context(json!(null));
        let r = call(&client, "editor_get_context", json!({})).await;
        assert_eq!(r.is_error, Some(false));
        let e = envelope(&r);
        assert_eq!(e["ok"], true, "{e}");
        assert_eq!(e["data"]["noEditor"]["reason"], "no-text-editor", "{e}");
        assert!(e.get("editorContext").is_none(), "{e}");
        let e = envelope(&call(&client, "symbol_outline", json!({"path": "greeter.py"})).await);
        assert_eq!(e["ok"], true, "a relative path resolves against the workspace folder: {e}");
        assert_eq!(e["data"]["file"]["textFrom"], "editor", "the editor's text, edits included");
        assert_eq!(e["data"]["symbols"][0]["range"]["start"], 2);
        assert!(e.get("editorContext").is_none());
    });
    let file = dirs.discovery_file(s.pid());
    s.stop();
    wait_gone(&file);
}

#[test]
fn security_token_origin_host_and_file_mode() {
    let dirs = Dirs::new("mcp-security");
    let (mut s, record) = start_sidecar(&dirs, &dirs.workspace, "sec");
    let url = record["url"].as_str().unwrap();
    let token = record["token"].as_str().unwrap();
    let bearer = format!("Bearer {token}");
    let port = url.trim_start_matches("http://127.0.0.1:").split('/').next().unwrap();
    assert_eq!(raw_post(url, &[]), 401, "no token");
    assert_eq!(raw_post(url, &[("Authorization", "Bearer 0000")]), 401, "wrong token");
    assert_eq!(
        raw_post(url, &[("Authorization", &format!("Bearer {}x", token))]),
        401,
        "longer token"
    );
    assert_eq!(raw_post(url, &[("Authorization", token)]), 401, "not a bearer token");
    assert_eq!(
        raw_post(url, &[("Authorization", &bearer), ("Origin", "http://evil.example")]),
        403,
        "foreign Origin"
    );
    assert_eq!(
        raw_post(url, &[("Authorization", &bearer), ("Origin", "null")]),
        403,
        "opaque Origin"
    );
    let evil_host = format!("evil.example:{port}");
    assert_eq!(
        raw_post(url, &[("Authorization", &bearer), ("Host", &evil_host)]),
        403,
        "DNS rebinding: foreign Host"
    );
    assert_eq!(
        raw_post(url, &[("Authorization", &bearer), ("Host", "192.168.1.2")]),
        403,
        "non-loopback Host"
    );
    assert_eq!(raw_post(url, &[("Authorization", &bearer)]), 200, "the token alone is enough");
    let local_origin = format!("http://localhost:{port}");
    assert_eq!(
        raw_post(url, &[("Authorization", &bearer), ("Origin", &local_origin)]),
        200,
        "a loopback Origin"
    );

    use std::os::unix::fs::PermissionsExt;
    let file = dirs.discovery_file(s.pid());
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the discovery file holds the token");
    let dir_mode = std::fs::metadata(dirs.discovery_dir()).unwrap().permissions().mode() & 0o777;
    assert_eq!(dir_mode, 0o700);

    // SIGTERM: the file goes with the process.
    let pid = s.pid() as i32;
    // SAFETY: kill only sends a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let status = s.wait();
    assert!(!status.success());
    wait_gone(&file);
}

#[test]
fn discovery_file_removed_when_stdin_closes_and_stale_files_ignored() {
    let dirs = Dirs::new("mcp-stdin");
    let (mut s, _) = start_sidecar(&dirs, &dirs.workspace, "closer");
    let file = dirs.discovery_file(s.pid());
    assert!(file.exists());
    // A stale file of a process that is gone: ignored and cleaned by whoever lists.
    let dead = dirs.discovery_file(999_999_999);
    std::fs::write(&dead, json!({"pid": 999_999_999u32, "url": "http://127.0.0.1:9/mcp", "token": "x",
        "workspaceFolders": [dirs.workspace], "editor": "ghost", "version": "0", "startedAt": "", "lastActiveMs": u64::MAX}).to_string()).unwrap();
    let (code, out, _) = locus(&dirs, &dirs.workspace, &["status"]);
    assert_eq!(code, 0);
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert_eq!(lines[0]["pid"], s.pid());
    assert_eq!(lines[0]["status"]["editor"], "closer");
    assert!(lines[0].get("token").is_none(), "status never prints the token");
    assert!(!dead.exists(), "the stale file was removed");

    s.wait();
    wait_gone(&file);
    let (_, out, err) = locus(&dirs, &dirs.workspace, &["status"]);
    assert_eq!(out, "");
    assert!(err.contains("no running sidecar"), "{err}");
}

#[test]
fn locus_mcp_forwards_and_finds_a_restarted_editor() {
    let dirs = Dirs::new("mcp-forward");
    let path = dirs.workspace.join("greeter.py");
    std::fs::write(&path, PY).unwrap();
    let uri = file_uri(&path);
    let sub = dirs.workspace.join("pkg");
    std::fs::create_dir_all(&sub).unwrap();
    // No sidecar: everything in-process, no live editor state.
    let mut mcp = StdioMcp::start(&dirs, &sub, &[]);
    let listed = mcp.request("tools/list", json!({}));
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"editor_get_context") && names.contains(&"symbol_scope_at"),
        "{names:?}"
    );
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["data"]["mode"], "in-process");
    let r = mcp.call("symbol_scope_at", json!({"path": path, "line": 4, "character": 9}));
    assert_eq!(r["structuredContent"]["data"]["scopeHierarchy"], "Class:Greeter > Method:greet");
    assert!(r["structuredContent"].get("editorContext").is_none());

    // An editor starts: the next call goes to it.
    let (mut a, _) = start_sidecar(&dirs, &dirs.workspace, "editor-a");
    a.open(&uri, "python", 1, PY);
    cursor(&mut a, &uri, 6, 2);
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["data"]["pid"], a.pid(), "{r}");
    let r = mcp.call("editor_get_context", json!({}));
    assert_eq!(
        r["structuredContent"]["editorContext"]["symbols"]["scopeHierarchy"], "Function:main",
        "{r}"
    );
    assert_eq!(r["isError"], false);
    assert!(r["content"][0]["text"].as_str().unwrap().starts_with("Cursor at "));

    // A deeper workspace folder wins over a shallower one.
    let (b, _) = start_sidecar(&dirs, &sub, "editor-b");
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["data"]["editor"], "editor-b", "{r}");
    drop(b);

    // The editor restarts: the next call finds the new sidecar, no restart of `locus mcp`.
    let old = a.pid();
    a.stop();
    wait_gone(&dirs.discovery_file(old));
    let (c, _) = start_sidecar(&dirs, &dirs.workspace, "editor-c");
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["data"]["pid"], c.pid(), "{r}");
    assert_eq!(r["structuredContent"]["data"]["editor"], "editor-c");
    drop(c);
    wait_gone(&dirs.discovery_file(old));
    let status = mcp.close();
    assert!(status.success(), "locus mcp exits cleanly when stdin closes");
}

/// Two editors on one folder: agents follow the one the user last touched (an edit or a
/// cursor move), not the one whose focus event came last; a long-lived `locus mcp` follows
/// when the user switches.
#[test]
fn two_editors_on_one_folder_route_to_the_one_touched_last() {
    let dirs = Dirs::new("mcp-two");
    let path = dirs.workspace.join("greeter.py");
    std::fs::write(&path, PY).unwrap();
    let uri = file_uri(&path);
    let (mut a, _) = start_sidecar(&dirs, &dirs.workspace, "editor-a");
    let (mut b, _) = start_sidecar(&dirs, &dirs.workspace, "editor-b");
    for s in [&mut a, &mut b] {
        s.open(&uri, "python", 1, PY);
        s.notify("locus/didChangeActiveEditor", json!({"textDocument": {"uri": uri}}));
    }
    let mut mcp = StdioMcp::start(&dirs, &dirs.workspace, &[]);
    let route = |mcp: &mut StdioMcp| {
        let r = mcp.call("bridge_status", json!({}));
        r["structuredContent"]["data"]["editor"].as_str().unwrap_or_default().to_string()
    };
    let active = |dirs: &Dirs, pid: u32| {
        let text = std::fs::read_to_string(dirs.discovery_file(pid)).unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["lastActiveMs"].as_u64().unwrap()
    };
    // The user moves the cursor in A, later than anything B did.
    std::thread::sleep(Duration::from_millis(1100));
    cursor(&mut a, &uri, 6, 2);
    let b_before = active(&dirs, b.pid());
    wait_record(&dirs, a.pid(), |r| r["lastActiveMs"].as_u64().unwrap() > b_before);
    assert_eq!(route(&mut mcp), "editor-a");
    // B only gains focus (the user glances at its window): agents stay with A.
    b.notify("locus/didChangeActiveEditor", json!({"textDocument": {"uri": uri}, "focused": true}));
    a.notify(
        "locus/didChangeActiveEditor",
        json!({"textDocument": {"uri": uri}, "focused": false}),
    );
    std::thread::sleep(Duration::from_millis(1200));
    assert!(active(&dirs, b.pid()) < active(&dirs, a.pid()), "a focus event is not a touch");
    assert_eq!(route(&mut mcp), "editor-a");
    // The user types in B: the same `locus mcp` follows.
    b.change(&uri, 2, json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "# b\n"}]));
    let a_now = active(&dirs, a.pid());
    wait_record(&dirs, b.pid(), |r| r["lastActiveMs"].as_u64().unwrap() > a_now);
    assert_eq!(route(&mut mcp), "editor-b");
    let r = mcp.call("editor_get_context", json!({}));
    assert_eq!(r["structuredContent"]["editorContext"]["file"]["isDirty"], true, "B's text: {r}");
    assert!(mcp.close().success());
}

#[test]
fn locus_mcp_cancellation_and_timeout() {
    let dirs = Dirs::new("mcp-cancel");
    for forwarded in [false, true] {
        let sidecar = forwarded.then(|| start_sidecar(&dirs, &dirs.workspace, "cancel-editor"));
        let mut mcp = StdioMcp::start(&dirs, &dirs.workspace, &["--timeout", "300"]);
        let r = mcp.call("test_sleep", json!({"ms": 5000}));
        assert_eq!(
            r["structuredContent"]["error"]["code"], "E_TIMEOUT",
            "forwarded {forwarded}: {r}"
        );
        assert_eq!(r["structuredContent"]["error"]["details"]["timeoutMs"], 300);
        if let Some((s, _)) = &sidecar {
            let r = mcp.call("bridge_status", json!({}));
            assert_eq!(r["structuredContent"]["data"]["pid"], s.pid());
        }
        // notifications/cancelled: the request ends without an answer, the server goes on.
        let id = mcp.send("tools/call", json!({"name": "test_sleep", "arguments": {"ms": 200}}));
        mcp.notify("notifications/cancelled", json!({"requestId": id, "reason": "test"}));
        let next = mcp.request("tools/call", json!({"name": "bridge_status", "arguments": {}}));
        assert_eq!(next["result"]["structuredContent"]["ok"], true);
        drop(mcp);
        drop(sidecar);
    }
}

#[test]
fn locus_call_types_params_by_schema_and_prints_the_envelope() {
    let dirs = Dirs::new("mcp-call");
    let path = dirs.workspace.join("greeter.py");
    std::fs::write(&path, PY).unwrap();
    let uri = file_uri(&path);
    // In-process first.
    let (code, out, _) = locus(
        &dirs,
        &dirs.workspace,
        &[
            "call",
            "symbol_scope_at",
            "--param",
            "path=greeter.py",
            "--param",
            "line=4",
            "--param",
            "character=9",
        ],
    );
    assert_eq!(code, 0, "{out}");
    let e: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(e["data"]["scopeHierarchy"], "Class:Greeter > Method:greet");
    assert!(e.get("editorContext").is_none());
    let (code, out, err) = locus(
        &dirs,
        &dirs.workspace,
        &[
            "call",
            "symbol_scope_at",
            "--json",
            "{\"path\": \"greeter.py\"}",
            "--param",
            "line=three",
        ],
    );
    assert_eq!(code, 1);
    let e: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(e["error"]["code"], "E_INVALID_PARAMS");
    assert!(err.contains("E_INVALID_PARAMS"), "{err}");
    let (code, _, err) = locus(&dirs, &dirs.workspace, &["call"]);
    assert_eq!(code, 2, "{err}");

    // With a sidecar: its editorContext rides along.
    let (mut s, _) = start_sidecar(&dirs, &dirs.workspace, "call-editor");
    s.open(&uri, "python", 1, PY);
    cursor(&mut s, &uri, 3, 8);
    let (code, out, err) =
        locus(&dirs, &dirs.workspace, &["call", "symbol_outline", "--param", "path=greeter.py"]);
    assert_eq!(code, 0, "{err}");
    let e: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(e["editorContext"]["symbols"]["scopeHierarchy"], "Class:Greeter > Method:greet");
    assert_eq!(e["data"]["symbols"][0]["name"], "Greeter");
    let (code, out, _) = locus(
        &dirs,
        &dirs.workspace,
        &["call", "test_sleep", "--param", "ms=2000", "--timeout", "100"],
    );
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["error"]["code"], "E_TIMEOUT");
    let other = dirs.root.join("elsewhere");
    std::fs::create_dir_all(&other).unwrap();
    let ws = dirs.workspace.display().to_string();
    let (code, out, _) = locus(&dirs, &other, &["call", "bridge_status", "--workspace", &ws]);
    assert_eq!(code, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap()["data"]["pid"],
        s.pid(),
        "--workspace chooses the sidecar"
    );
    let (_, out, _) = locus(&dirs, &other, &["call", "bridge_status"]);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap()["data"]["mode"],
        "in-process",
        "no sidecar serves that directory"
    );
    s.stop();
}

#[test]
fn mcp_port_and_no_mcp() {
    let dirs = Dirs::new("mcp-port");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let env: Vec<(&str, String)> = dirs.env();
    let env_refs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let port_arg = port.to_string();
    let mut s = Server::start_with_env(&["--mcp-port", &port_arg], &env_refs);
    s.initialize(json!({"rootUri": file_uri(&dirs.workspace), "clientInfo": {"name": "fixed"}}));
    let record = wait_record(&dirs, s.pid(), |r| r["editor"] == "fixed");
    assert_eq!(record["url"], format!("http://127.0.0.1:{port}/mcp"));
    let url = format!("http://127.0.0.1:{port}/mcp");
    let file = dirs.discovery_file(s.pid());
    let mut status = mcp_status(&mut s);
    // The agents' channels, each on its own port, and the files they are found by.
    let channels = status.as_object_mut().unwrap().remove("channels").unwrap();
    let claude_port = channels[0]["port"].as_u64().unwrap();
    let gemini_port = channels[1]["port"].as_u64().unwrap();
    let lock = dirs.root.join("claude").join("ide").join(format!("{claude_port}.lock"));
    let gemini = dirs
        .root
        .join("tmp")
        .join("gemini")
        .join("ide")
        .join(format!("gemini-ide-server-{}-{gemini_port}.json", s.pid()));
    assert_eq!(
        channels,
        json!([{"agent": "claude", "port": claude_port, "file": lock},
               {"agent": "gemini", "port": gemini_port, "file": gemini}])
    );
    assert_eq!(
        status,
        json!({"state": "listening", "url": url, "port": port, "discoveryFile": file})
    );
    // The port is taken now: a second editor's Locus says so, and keeps serving the editor.
    let mut taken = Server::start_with_env(&["--mcp-port", &port_arg], &env_refs);
    taken.initialize(
        json!({"rootUri": file_uri(&dirs.workspace), "clientInfo": {"name": "second"}}),
    );
    let status = mcp_status(&mut taken);
    assert_eq!((&status["state"], &status["port"]), (&json!("failed"), &json!(port)), "{status}");
    assert!(status["message"].as_str().unwrap().contains(&port_arg), "{status}");
    assert!(taken.context(Value::Null).is_null(), "the language server still answers");
    taken.stop();
    // At `shutdown` the discovery file goes at once (editors may kill the server after `exit`).
    s.request("shutdown", Value::Null).unwrap();
    assert!(!dirs.discovery_file(s.pid()).exists(), "withdrawn at shutdown");
    std::thread::sleep(Duration::from_millis(700));
    assert!(!dirs.discovery_file(s.pid()).exists(), "and not written again");
    s.notify("exit", Value::Null);
    assert!(s.wait().success());

    let mut s = Server::start_with_env(&["--no-mcp"], &env_refs);
    s.initialize(json!({"rootUri": file_uri(&dirs.workspace), "clientInfo": {"name": "none"}}));
    assert_eq!(mcp_status(&mut s), json!({"state": "disabled"}));
    assert!(!dirs.discovery_file(s.pid()).exists(), "--no-mcp writes no discovery file");
    s.stop();

    let (code, _, err) = locus(&dirs, &dirs.workspace, &["lsp", "--mcp-port", "70000"]);
    assert_eq!(code, 2);
    assert!(err.contains("1 to 65535"), "{err}");
}

/// The params of the `locus/mcpStatus` notification the server sends after `initialized`.
fn mcp_status(s: &mut Server) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let found = s.drain().iter().find(|m| m["method"] == "locus/mcpStatus").cloned();
        if let Some(m) = found {
            return m["params"].clone();
        }
        assert!(Instant::now() < deadline, "no locus/mcpStatus: {:?}", s.drain());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The symbol cache is written before the process ends: by the sidecar within `shutdown`
/// (an `exit` sent right after it ends the process), and by `locus mcp` without an editor
/// when its stdin closes. Seen in the cache's contents: a file deleted after the build's own
/// write (the next periodic write is 30 s later) is gone from it only if that last write ran.
#[test]
fn the_symbol_cache_is_written_at_shutdown_and_at_the_end_of_stdin() {
    let dirs = Dirs::new("cache-at-end");
    let ws = &dirs.workspace;
    std::fs::create_dir_all(ws.join(".git")).unwrap();
    std::fs::write(ws.join("kept.py"), "def kept_symbol():\n    pass\n").unwrap();
    let cache = dirs.root.join("cache");
    let cache_env = [("LOCUS_INDEX_CACHE", "1"), ("LOCUS_CACHE_DIR", cache.to_str().unwrap())];
    let cache_bytes = || -> Vec<u8> {
        let files: Vec<_> = std::fs::read_dir(cache.join("index"))
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        let files: Vec<_> =
            files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "symbols")).collect();
        assert!(files.len() <= 1, "{files:?}");
        files.first().map(|f| std::fs::read(f).unwrap()).unwrap_or_default()
    };
    let holds = |bytes: &[u8], name: &str| bytes.windows(name.len()).any(|w| w == name.as_bytes());
    let wait_until = |what: &str, ok: &dyn Fn() -> bool| {
        let deadline = Instant::now() + WAIT;
        while !ok() {
            assert!(Instant::now() < deadline, "{what} within {WAIT:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let found = |mcp: &mut StdioMcp, q: &str| -> Option<bool> {
        let r = mcp.call("symbol_search", json!({"query": q}));
        let data = &r["structuredContent"]["data"];
        (data.get("indexing").is_none())
            .then(|| data["symbols"].as_array().unwrap().iter().any(|s| s["name"] == q))
    };
    for editor in [true, false] {
        let _ = std::fs::remove_dir_all(&cache);
        std::fs::write(ws.join("gone.py"), "def deleted_in_session():\n    pass\n").unwrap();
        // Settled (a file changed under 2 s before its read is not cached).
        std::thread::sleep(Duration::from_millis(2100));
        let mut sidecar = None;
        let mut mcp = if editor {
            let env: Vec<(&str, String)> = dirs.env();
            let mut env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
            env.extend(cache_env);
            let mut s = Server::start_with_env(&[], &env);
            s.initialize(json!({
                "rootUri": file_uri(ws),
                "workspaceFolders": [{"uri": file_uri(ws), "name": "ws"}],
                "clientInfo": {"name": "cache-editor"},
            }));
            wait_record(&dirs, s.pid(), |r| !r["workspaceFolders"].as_array().unwrap().is_empty());
            sidecar = Some(s);
            // Forwards to the sidecar: its index answers.
            StdioMcp::start(&dirs, ws, &[])
        } else {
            StdioMcp::start_with_env(&dirs, ws, &[], &cache_env)
        };
        let deadline = Instant::now() + WAIT;
        while found(&mut mcp, "deleted_in_session") != Some(true) {
            assert!(Instant::now() < deadline, "editor {editor}: the index was not built");
            std::thread::sleep(Duration::from_millis(20));
        }
        wait_until("the build's write", &|| holds(&cache_bytes(), "deleted_in_session"));
        std::fs::remove_file(ws.join("gone.py")).unwrap();
        let deadline = Instant::now() + WAIT;
        while found(&mut mcp, "deleted_in_session") != Some(false) {
            assert!(Instant::now() < deadline, "editor {editor}: the deletion was not seen");
            std::thread::sleep(Duration::from_millis(20));
        }
        match sidecar {
            // shutdown and exit back to back.
            Some(s) => {
                drop(mcp);
                assert!(s.stop().success());
            }
            None => assert!(mcp.close().success()),
        }
        let written = cache_bytes();
        assert!(holds(&written, "kept_symbol"), "editor {editor}");
        assert!(!holds(&written, "deleted_in_session"), "editor {editor}: not written at the end");
    }
}

/// `locus symbols` as a user runs it: with no sidecar it indexes the folder in-process; with
/// the editor's sidecar running it asks that one, so an open buffer's unsaved text is found.
#[test]
fn locus_symbols_in_process_and_through_the_sidecar() {
    let dirs = Dirs::new("mcp-symbols");
    let ledger = dirs.workspace.join("ledger.py");
    let text =
        "class Ledger:\n    def balance(self):\n        return 0\n\n\ndef audit():\n    pass\n";
    std::fs::write(&ledger, text).unwrap();
    let lines = |out: &str| -> Vec<Value> {
        out.lines().map(|l| serde_json::from_str(l).expect("one JSON object a line")).collect()
    };

    let (code, out, err) = locus(&dirs, &dirs.workspace, &["symbols", "Ledger.balance"]);
    assert_eq!(code, 0, "{err}");
    let found = lines(&out);
    assert_eq!(found[0]["name"], "balance", "{out}");
    assert_eq!(found[0]["kind"], "Method");
    assert_eq!(found[0]["containerChain"], json!(["Class:Ledger"]));
    assert_eq!(found[0]["path"], ledger.display().to_string());
    assert_eq!(found[0]["range"], json!({"start": 2, "end": 3, "length": 2}));
    assert_eq!(found[0].get("fromEditor"), None, "said only of an open document's symbols");

    let (code, out, err) = locus(&dirs, &dirs.workspace, &["symbols", "a", "--kind", "Function"]);
    assert_eq!(code, 0, "{err}");
    let names: Vec<Value> = lines(&out).iter().map(|s| s["name"].clone()).collect();
    assert_eq!(names, [json!("audit")], "{out}");

    let (code, out, err) = locus(&dirs, &dirs.workspace, &["symbols", "zzqqxx"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(err.contains("no symbol matches `zzqqxx`"), "{err}");
    let (code, out, err) =
        locus(&dirs, &dirs.workspace, &["symbols", "balance", "--kind", "Class"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(err.contains("no symbol matches `balance` with --kind Class\n"), "{err}");
    let (code, _, err) = locus(&dirs, &dirs.workspace, &["symbols", "a", "--kind", "Clas"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("Clas"), "{err}");

    // The editor's sidecar answers: a method typed into the open buffer, not saved.
    let (mut s, _) = start_sidecar(&dirs, &dirs.workspace, "e");
    let edited = "class Ledger:\n    def unsaved_total(self):\n        return 0\n";
    s.open(&file_uri(&ledger), "python", 1, edited);
    s.context(json!(null));
    let deadline = Instant::now() + WAIT;
    let found = loop {
        let (code, out, err) = locus(&dirs, &dirs.workspace, &["symbols", "unsaved_total"]);
        assert_eq!(code, 0, "{err}");
        if let Some(first) = lines(&out).into_iter().next() {
            break first;
        }
        assert!(Instant::now() < deadline, "the unsaved method was never found: {err}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(found["fromEditor"], true, "{found}");
    assert_eq!(found["containerChain"], json!(["Class:Ledger"]));
    assert_eq!(std::fs::read_to_string(&ledger).unwrap(), text, "the file on disk is untouched");
    s.stop();
}
