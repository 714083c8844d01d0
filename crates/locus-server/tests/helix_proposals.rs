//! Proposed edits in an editor with no diff view (Helix): Locus shows the proposal as a
//! document of its own (`window/showDocument`, which Helix 25.07 answers without declaring
//! it), the user edits it in the editor and runs `locus.accept`, and the agent's
//! `edit_propose` gets the text as the user left it; the user's file is never written.

mod lsp_support;
mod mcp_support;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use lsp_support::{Server, file_uri};
use mcp_support::{Dirs, WAIT, call, envelope, http_client, wait_record};
use serde_json::{Value, json};

fn helix(dirs: &Dirs) -> Server {
    let mut env: Vec<(&str, String)> = dirs.env();
    env.push(("XDG_CACHE_HOME", dirs.root.join("cache").display().to_string()));
    let env_refs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut s = Server::start_with_env(&[], &env_refs);
    let folder = file_uri(&dirs.workspace);
    s.initialize(json!({"rootUri": folder, "workspaceFolders": [{"uri": folder, "name": "ws"}],
        "capabilities": {"window": {"workDoneProgress": true}}, "clientInfo": {"name": "helix"}}));
    s
}

/// Runs `edit_propose` on another thread; the answer comes on the channel.
fn propose(record: &Value, path: &str, content: &str) -> mpsc::Receiver<Value> {
    let (tx, rx) = mpsc::channel();
    let (record, args) = (record.clone(), json!({"path": path, "newContent": content}));
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let e = runtime.block_on(async {
            let client = http_client(&record).await;
            envelope(&call(&client, "edit_propose", args).await)
        });
        let _ = tx.send(e);
    });
    rx
}

/// Waits for Locus's `window/showDocument`, answers it as Helix does, returns its URI.
fn shown(s: &mut Server) -> String {
    let deadline = Instant::now() + WAIT;
    loop {
        assert!(Instant::now() < deadline, "Locus did not ask the editor to show the proposal");
        let Some(m) = s.recv(Duration::from_millis(50)) else { continue };
        if m["method"] == "window/showDocument" {
            assert_eq!(m["params"]["takeFocus"], false, "beside the file, in a split: {m}");
            s.send(&json!({"jsonrpc": "2.0", "id": m["id"], "result": {"success": true}}));
            return m["params"]["uri"].as_str().unwrap().to_string();
        }
    }
}

#[test]
fn a_proposal_is_a_document_the_user_edits_and_accepts_by_command() {
    let dirs = Dirs::new("helix-proposal");
    let file = dirs.workspace.join("app.py");
    std::fs::write(&file, "x = 1\n").unwrap();
    let mut s = helix(&dirs);
    let record = wait_record(&dirs, s.pid(), |r| r["editor"] == "helix");

    let answer = propose(&record, "app.py", "x = 2\n");
    let uri = shown(&mut s);
    assert!(uri.ends_with("/app.py") && uri.contains("/proposals/"), "{uri}");
    let proposal = locus_platform::file_uri::path_of(&uri).unwrap();
    assert_eq!(std::fs::read_to_string(&proposal).unwrap(), "x = 2\n");
    // Helix opens it, the user edits it, then runs the command.
    s.open(&uri, "python", 0, "x = 2\n");
    s.change(&uri, 1, json!([{"text": "x = 2  # checked\n"}]));
    assert_eq!(
        s.request("workspace/executeCommand", json!({"command": "locus.accept"})),
        Ok(Value::Null)
    );
    let e = answer.recv_timeout(WAIT).expect("edit_propose answered");
    assert_eq!(e["ok"], true, "{e}");
    assert_eq!(e["data"]["accepted"], true);
    assert_eq!(e["data"]["content"], "x = 2  # checked\n");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 1\n", "the user's file was written");
    assert!(!proposal.exists(), "the proposal's file outlived the decision");

    let answer = propose(&record, "app.py", "x = 3\n");
    shown(&mut s);
    assert_eq!(
        s.request("workspace/executeCommand", json!({"command": "locus.reject"})),
        Ok(Value::Null)
    );
    let e = answer.recv_timeout(WAIT).expect("edit_propose answered");
    assert_eq!(e["data"]["accepted"], false, "{e}");
    // With nothing waiting, the command says so.
    let err =
        s.request("workspace/executeCommand", json!({"command": "locus.accept"})).unwrap_err();
    assert!(err["message"].as_str().unwrap().contains("no proposed change"), "{err}");
}
