//! Helix 25.07.1 against `locus lsp`, through its protocol. Helix ships from no package
//! registry, so what it sends is recorded as data (`helix/session-25.07.1.jsonl`; its README
//! says how and what) and replayed here message by message, with server requests answered as
//! Helix answers them. After each step the test reads what Locus knows with
//! `locus/getContext`: the cursor the `space L` keymap reports (`locus.cursor`), the edit and
//! the hover standing in for the cursor, the selection of select mode. The keymap in
//! `editors/helix/config.toml` must expand to the commands recorded.

mod lsp_support;

use std::path::Path;

use lsp_support::{Server, temp_dir};
use serde_json::{Value, json};

const SESSION: &str = include_str!("helix/session-25.07.1.jsonl");

/// The recorded messages, for a workspace at `root` (`${WORKSPACE}` in the data) and Helix's
/// process id.
fn session(root: &Path) -> Vec<Value> {
    SESSION
        .lines()
        .map(|line| {
            let line = line
                .replace("${WORKSPACE}", &root.display().to_string())
                .replace("${PID}", &std::process::id().to_string());
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
        })
        .collect()
}

/// Answers the requests Locus sent since the last call as Helix 25.07.1 does: a capability
/// registration with `null`, `workspace/configuration` with `null` per item (no `config` in
/// `languages.toml`), anything else with "method not found".
fn answer_server_requests(s: &mut Server, answered: &mut usize) {
    let pending: Vec<Value> = s.drain()[*answered..]
        .iter()
        .filter(|m| m.get("id").is_some() && m.get("method").is_some())
        .cloned()
        .collect();
    *answered = s.received.len();
    for request in pending {
        let id = request["id"].clone();
        let reply = match request["method"].as_str().unwrap() {
            "client/registerCapability" => json!({"jsonrpc": "2.0", "id": id, "result": null}),
            "workspace/configuration" => {
                let n = request["params"]["items"].as_array().map_or(0, Vec::len);
                json!({"jsonrpc": "2.0", "id": id, "result": vec![Value::Null; n]})
            }
            _ => {
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}})
            }
        };
        s.send(&reply);
    }
}

/// Plays `message`: a notification is sent; a request is sent and its response returned.
fn play(s: &mut Server, message: &Value, answered: &mut usize) -> Option<Result<Value, Value>> {
    s.send(message);
    let response = message.get("id").map(|id| s.wait_response(id.as_i64().unwrap()));
    answer_server_requests(s, answered);
    response
}

/// Where Locus has the cursor (1-based line and column), the selected lines if any, and the
/// scope chain there.
fn seen(s: &mut Server) -> ((u64, u64), Option<(u64, u64)>, String) {
    let ctx = s.context(Value::Null);
    let cursor =
        (ctx["cursor"]["line"].as_u64().unwrap(), ctx["cursor"]["character"].as_u64().unwrap());
    let range = &ctx["selection"]["range"];
    let selection = (!range.is_null()).then(|| {
        (range["start"]["line"].as_u64().unwrap(), range["end"]["line"].as_u64().unwrap())
    });
    (cursor, selection, ctx["symbols"]["scopeHierarchy"].as_str().unwrap_or_default().to_string())
}

fn workspace(name: &str) -> std::path::PathBuf {
    let dir = temp_dir(name);
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    let open = session(&dir).into_iter().find(|m| m["method"] == "textDocument/didOpen").unwrap();
    std::fs::write(dir.join("app.py"), open["params"]["textDocument"]["text"].as_str().unwrap())
        .unwrap();
    dir
}

#[test]
fn a_recorded_helix_session_reports_the_cursor_edits_hover_and_selection() {
    let dir = workspace("helix-session");
    let mut s = Server::start(&[]);
    let mut answered = 0;
    let mut steps = session(&dir).into_iter();
    let mut next = |s: &mut Server, method: &str, answered: &mut usize| {
        let message = steps.next().unwrap_or_else(|| panic!("the session ended before {method}"));
        assert_eq!(message["method"], method, "the recorded session's order");
        play(s, &message, answered)
    };

    let init = next(&mut s, "initialize", &mut answered).unwrap().unwrap();
    let caps = &init["capabilities"];
    // Helix offers utf-8 first: positions below count bytes.
    assert_eq!(caps["positionEncoding"], "utf-8");
    // Helix sends `workspace/executeCommand` only for a command a server lists.
    assert_eq!(
        caps["executeCommandProvider"]["commands"],
        json!(["locus.cursor", "locus.mention", "locus.accept", "locus.reject"])
    );
    // Hover goes to every server; Locus answers none, so Helix shows only the real server's.
    assert_eq!(caps["hoverProvider"], true);
    next(&mut s, "initialized", &mut answered);
    next(&mut s, "textDocument/didOpen", &mut answered);

    // `space L` in normal mode on `message` (line 3, column 9).
    assert_eq!(next(&mut s, "workspace/executeCommand", &mut answered), Some(Ok(Value::Null)));
    let (cursor, selection, scopes) = seen(&mut s);
    assert_eq!((cursor, selection), ((3, 9), None));
    assert!(scopes.starts_with("Class:Greeter > Method:greet"), "{scopes}");

    // `x` typed at the end of line 3: the edit stands in for the cursor, after the `x`.
    next(&mut s, "textDocument/didChange", &mut answered);
    assert_eq!(seen(&mut s).0, (3, 35));
    let ctx = s.context(Value::Null);
    assert_eq!(ctx["file"]["isDirty"], true);
    assert!(s.text(&format!("file://{}/app.py", dir.display())).contains("+ namex\n"));
    // Helix asks for completion after a pause in insert mode; Locus offers nothing.
    assert_eq!(next(&mut s, "textDocument/completion", &mut answered), Some(Ok(Value::Null)));

    // `space k` on `message`: the hover is the cursor, and answers nothing.
    assert_eq!(next(&mut s, "textDocument/hover", &mut answered), Some(Ok(Value::Null)));
    assert_eq!(seen(&mut s).0, (3, 9));

    // `space L` in select mode over lines 2-3.
    assert_eq!(next(&mut s, "workspace/executeCommand", &mut answered), Some(Ok(Value::Null)));
    let (cursor, selection, scopes) = seen(&mut s);
    // Whole lines 2 and 3: the range ends where line 4 starts.
    assert_eq!((cursor, selection), ((3, 5), Some((2, 4))));
    assert_eq!(scopes, "Class:Greeter > Method:greet");
    let selected = s.context(Value::Null)["selection"]["text"].clone();
    assert_eq!(selected, "    def greet(self, name):\n        message = \"hello \" + namex\n");

    // `:q!`: shutdown, exit, and the process ends cleanly.
    assert_eq!(next(&mut s, "shutdown", &mut answered), Some(Ok(Value::Null)));
    next(&mut s, "exit", &mut answered);
    assert!(s.wait().success());
    // The file on disk is untouched: the edit lives in the mirror only.
    assert!(!std::fs::read_to_string(dir.join("app.py")).unwrap().contains("namex"));
}

/// Outside any repository Helix sends no `rootUri` and no workspace folders, only `rootPath`
/// (its working directory): `%{buffer_name}` is relative to that, and must still resolve.
#[test]
fn without_a_root_marker_the_root_path_is_the_workspace() {
    let dir = workspace("helix-no-root");
    std::fs::remove_dir(dir.join(".git")).unwrap();
    let mut s = Server::start(&[]);
    let mut answered = 0;
    for message in session(&dir) {
        let mut message = message;
        if message["method"] == "initialize" {
            message["params"]["rootUri"] = Value::Null;
            message["params"]["workspaceFolders"] = json!([]);
        }
        let method = message["method"].as_str().unwrap_or_default().to_string();
        let response = play(&mut s, &message, &mut answered);
        if method == "workspace/executeCommand" {
            assert_eq!(response, Some(Ok(Value::Null)), "the buffer name resolves");
            assert_eq!(seen(&mut s).0, (3, 9));
            break;
        }
    }
    assert!(s.stop().success());
}

/// The keymap of `editors/helix/config.toml`, expanded as Helix expands `%{…}` before it
/// splits the arguments, is the command recorded in the session.
#[test]
fn the_keymap_expands_to_the_recorded_commands() {
    let config: toml::Table = toml::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../editors/helix/config.toml"),
        )
        .unwrap(),
    )
    .unwrap();
    let binding = |mode: &str| config["keys"][mode]["space"]["L"].as_str().unwrap().to_string();
    let commands: Vec<Value> = session(Path::new("/ws"))
        .into_iter()
        .filter(|m| m["method"] == "workspace/executeCommand")
        .map(|m| m["params"].clone())
        .collect();
    let values = [
        (
            "normal",
            [("buffer_name", "app.py"), ("cursor_line", "3"), ("cursor_column", "9")].as_slice(),
        ),
        (
            "select",
            [
                ("buffer_name", "app.py"),
                ("cursor_line", "3"),
                ("cursor_column", "5"),
                ("selection_line_start", "2"),
                ("selection_line_end", "3"),
            ]
            .as_slice(),
        ),
    ];
    for ((mode, values), recorded) in values.into_iter().zip(&commands) {
        let mut line = binding(mode);
        for (name, value) in values {
            line = line.replace(&format!("%{{{name}}}"), value);
        }
        let rest = line.strip_prefix(":lsp-workspace-command ").expect("a workspace command");
        let (name, argument) = rest.split_once(' ').unwrap();
        assert_eq!(name, recorded["command"], "{mode}");
        let argument: Value = serde_json::from_str(argument).unwrap();
        assert_eq!(json!([argument]), recorded["arguments"], "{mode}");
    }
}
