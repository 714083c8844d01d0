//! Editor actions (`locus/editorAction`, docs/reference/lsp.md) through a live `locus lsp`: an LSP
//! client declares actions in `initializationOptions.editorActions` and answers the requests the
//! tools send — with a result, with `-32601` and a hint, or never — while an MCP client (and
//! `locus call`) calls the tools.

mod lsp_support;
mod mcp_support;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use lsp_support::{Server, file_uri};
use mcp_support::{Dirs, call, envelope, http_client, locus, wait_record};
use rmcp::model::{CallToolRequestParams, MetaObject, RequestMetaObject};
use serde_json::{Value, json};

const PY: &str = "def héllo(name):\n    return name\n\n\nclass A:\n    def run(self):\n        return héllo('x')\n";

/// A sidecar whose editor declared `actions` and negotiated UTF-8.
fn start(dirs: &Dirs, actions: &[&str]) -> (Server, Value) {
    let env: Vec<(&str, String)> = dirs.env();
    let env_refs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut s = Server::start_with_env(&[], &env_refs);
    let folder = file_uri(&dirs.workspace);
    s.initialize(json!({
        "rootUri": folder,
        "workspaceFolders": [{"uri": folder, "name": "ws"}],
        "capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]},
                         "experimental": {"locus": {"cursor": true}}},
        "clientInfo": {"name": "action-editor"},
        "initializationOptions": {"editorActions": actions},
    }));
    let record = wait_record(dirs, s.pid(), |r| r["editor"] == "action-editor");
    (s, record)
}

/// Runs `work` on another thread while this one plays the editor: each `locus/editorAction`
/// request goes to `answer` (`None`: never answered). Returns what `work` returned and the
/// actions the editor was asked for.
fn with_editor<T: Send + 'static>(
    s: &mut Server,
    answer: impl Fn(&str, &Value) -> Option<Value>,
    work: impl FnOnce() -> T + Send + 'static,
) -> (T, Vec<Value>) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(work());
    });
    let mut asked = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(out) = rx.try_recv() {
            return (out, asked);
        }
        assert!(Instant::now() < deadline, "the tool call did not finish");
        let Some(m) = s.recv(Duration::from_millis(20)) else { continue };
        if m["method"] != "locus/editorAction" {
            continue;
        }
        asked.push(m["params"].clone());
        let action = m["params"]["action"].as_str().unwrap_or_default().to_string();
        if let Some(mut reply) = answer(&action, &m["params"]["params"]) {
            reply["jsonrpc"] = json!("2.0");
            reply["id"] = m["id"].clone();
            s.send(&reply);
        }
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

/// Calls `tool` over MCP (HTTP) with an optional timeout in `_meta`.
fn mcp_call(record: &Value, tool: &'static str, args: Value, timeout_ms: Option<u64>) -> Value {
    let record = record.clone();
    runtime().block_on(async move {
        let client = http_client(&record).await;
        let result = match timeout_ms {
            None => call(&client, tool, args).await,
            Some(ms) => {
                let mut request = CallToolRequestParams::new(tool);
                request.arguments = args.as_object().cloned();
                let mut meta = serde_json::Map::new();
                meta.insert("locus/timeoutMs".into(), json!(ms));
                request.meta = Some(RequestMetaObject(MetaObject(meta)));
                client.peer().call_tool(request).await.expect("tools/call answers")
            }
        };
        let e = envelope(&result);
        let _ = client.cancel().await;
        e
    })
}

fn answer(action: &str, params: &Value) -> Option<Value> {
    match action {
        "symbol.rename" => Some(json!({"result": {"ok": true, "data": {"applied": true, "files": [
            {"uri": params["uri"], "edits": 2}, {"uri": "file:///ws/other.py", "edits": 1}]}}})),
        "setting.get" => Some(json!({"error": {"code": -32601, "message": "no settings here",
            "data": {"hint": "edit init.lua"}}})),
        "setting.set" => {
            Some(json!({"error": {"code": -32602, "message": "key must be a dotted name"}}))
        }
        "diagnostic.collect" => Some(json!({"error": {"code": -32603,
            "message": "the problems list is busy", "data": {"hint": "try again in a moment"}}})),
        // VS Code's answer when its rename provider did not rename.
        "file.rename" => {
            Some(json!({"error": {"code": -32803, "message": "the editor did not rename"}}))
        }
        _ => None,
    }
}

#[test]
fn tools_reach_the_editor_and_its_answers_come_back() {
    let dirs = Dirs::new("actions-rename");
    let path = dirs.workspace.join("h.py");
    std::fs::write(&path, PY).unwrap();
    let actions =
        ["symbol.rename", "setting.get", "setting.set", "editor.open_file", "diagnostic.collect"];
    let (mut s, record) = start(&dirs, &actions);

    // By name: `héllo` is defined once; the position goes out 0-based in UTF-8.
    let r = record.clone();
    let (e, asked) = with_editor(&mut s, answer, move || {
        mcp_call(
            &r,
            "symbol_rename",
            json!({"path": "h.py", "name": "héllo", "newName": "hello"}),
            None,
        )
    });
    assert_eq!(e["ok"], true, "{e}");
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0]["action"], "symbol.rename");
    assert_eq!(asked[0]["params"]["position"], json!({"line": 0, "character": 4}));
    assert_eq!(asked[0]["params"]["uri"], file_uri(&path));
    assert_eq!(e["data"]["edits"], 3);
    assert_eq!(e["data"]["files"][0]["path"], path.display().to_string());

    // By position, UTF-16 character 19 of line 7 (after `return h`, past the é) is byte 20.
    let r = record.clone();
    let (e, asked) = with_editor(&mut s, answer, move || {
        mcp_call(
            &r,
            "symbol_rename",
            json!({"path": "h.py", "line": 7, "character": 19, "newName": "x"}),
            None,
        )
    });
    assert_eq!(e["ok"], true, "{e}");
    assert_eq!(asked[0]["params"]["position"], json!({"line": 6, "character": 19}));

    // -32601 with a hint: E_UNSUPPORTED with the editor's hint, through `locus call`.
    let (d, w) = (
        Dirs {
            root: dirs.root.clone(),
            runtime: dirs.runtime.clone(),
            workspace: dirs.workspace.clone(),
        },
        dirs.workspace.clone(),
    );
    let ((code, out, err), _) = with_editor(&mut s, answer, move || {
        locus(&d, &w, &["call", "setting_get", "--param", "key=editor.tabSize"])
    });
    let e: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{code} {out} {err}"));
    assert_eq!(e["error"]["code"], "E_UNSUPPORTED", "{e}");
    assert_eq!(e["error"]["hint"], "edit init.lua");

    // -32602: the agent's params, E_INVALID_PARAMS with the editor's message.
    let r = record.clone();
    let (e, _) = with_editor(&mut s, answer, move || {
        mcp_call(&r, "setting_set", json!({"key": "a b", "value": 1}), None)
    });
    assert_eq!(e["error"]["code"], "E_INVALID_PARAMS", "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("dotted name"), "{e}");

    // Another error (-32603): the editor tried and failed, which is not E_UNSUPPORTED (that is
    // for actions it cannot do): E_INTERNAL with the editor's message and hint.
    let r = record.clone();
    let (e, _) =
        with_editor(&mut s, answer, move || mcp_call(&r, "diagnostic_collect", json!({}), None));
    assert_eq!(e["error"]["code"], "E_INTERNAL", "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("the problems list is busy"), "{e}");
    assert_eq!(e["error"]["hint"], "try again in a moment", "{e}");
    assert_eq!(e["error"]["details"]["failedIn"], "editor", "{e}");
    assert!(e.get("editorContext").is_none());

    // Not declared: refused without asking the editor.
    let r = record.clone();
    let (e, asked) = with_editor(&mut s, answer, move || {
        mcp_call(&r, "file_rename", json!({"path": "h.py", "newPath": "g.py"}), None)
    });
    assert_eq!(e["error"]["code"], "E_UNSUPPORTED", "{e}");
    assert!(asked.is_empty(), "{asked:?}");
    assert!(path.exists(), "Locus moved nothing");
    s.stop();

    let (mut vs, vs_record) = start(&dirs, &["file.rename"]);
    // -32803 (VS Code: the WorkspaceEdit was not applied): a failure, E_INTERNAL with the
    // editor's message, never E_UNSUPPORTED.
    let (e, asked) = with_editor(&mut vs, answer, move || {
        mcp_call(&vs_record, "file_rename", json!({"path": "h.py", "newPath": "g.py"}), None)
    });
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(e["error"]["code"], "E_INTERNAL", "{e}");
    assert_eq!(
        e["error"]["message"],
        "action-editor could not do `file.rename`: the editor did not rename",
        "{e}"
    );
    assert!(e["error"]["hint"].as_str().unwrap().contains("tried and failed"), "{e}");
    vs.stop();
}

#[test]
fn an_editor_that_never_answers_costs_the_call_its_timeout_only() {
    let dirs = Dirs::new("actions-silent");
    std::fs::write(dirs.workspace.join("h.py"), PY).unwrap();
    let (mut s, record) = start(&dirs, &["editor.open_file", "symbol.rename"]);
    let r = record.clone();
    let started = Instant::now();
    let (e, asked) = with_editor(&mut s, answer, move || {
        mcp_call(&r, "editor_open_file", json!({"path": "h.py", "line": 2}), Some(1500))
    });
    let took = started.elapsed();
    assert_eq!(e["error"]["code"], "E_TIMEOUT", "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("action-editor did not answer `editor.open_file` within"),
        "{e}"
    );
    assert_eq!(
        asked[0]["params"],
        json!({"uri": file_uri(&dirs.workspace.join("h.py")), "line": 1, "character": 0})
    );
    assert!(took < Duration::from_secs(10), "bounded by the call's timeout: {took:?}");
    // The editor is told that the request is given up.
    let asked_id = s
        .received
        .iter()
        .find(|m| m["method"] == "locus/editorAction")
        .map(|m| m["id"].clone())
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !s
        .received
        .iter()
        .any(|m| m["method"] == "$/cancelRequest" && m["params"]["id"] == asked_id)
    {
        assert!(Instant::now() < deadline, "no $/cancelRequest for {asked_id}");
        s.recv(Duration::from_millis(50));
    }
    // The server goes on: the next action is answered.
    let r = record.clone();
    let (e, _) = with_editor(&mut s, answer, move || {
        mcp_call(
            &r,
            "symbol_rename",
            json!({"path": "h.py", "line": 1, "character": 5, "newName": "x"}),
            None,
        )
    });
    assert_eq!(e["ok"], true, "{e}");
    s.stop();
}

#[test]
fn an_editor_that_declared_nothing_is_told_so() {
    let dirs = Dirs::new("actions-none");
    std::fs::write(dirs.workspace.join("h.py"), PY).unwrap();
    let (mut s, record) = start(&dirs, &[]);
    let r = record.clone();
    let (e, asked) = with_editor(&mut s, answer, move || {
        mcp_call(&r, "symbol_rename", json!({"path": "h.py", "name": "run", "newName": "go"}), None)
    });
    assert_eq!(e["error"]["code"], "E_UNSUPPORTED", "{e}");
    assert!(e["error"]["hint"].as_str().unwrap().contains("editorActions"), "{e}");
    assert!(asked.is_empty());
    s.stop();
}
