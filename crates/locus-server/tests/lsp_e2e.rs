//! `locus lsp` end to end over stdio: a client opens, edits in each encoding, moves the
//! cursor, selects, pushes symbols, switches editors and loses focus, and checks
//! `locus/getContext` each time; then malformed input and a burst of 10,000 changes.

mod lsp_support;

use lsp_support::{Rng, Server, file_uri, position, splice, temp_dir};
use serde_json::{Value, json};

const PY: &str = "class Greeter:\n    def greet(self, name):\n        msg = f\"héllo {name} 😀!\"\n        return msg\n\n\ndef main():\n    Greeter().greet(\"x\")\n";
const TS: &str = "export class Box {\n  open(): void {\n    console.log('😀 hi');\n  }\n}\n";

fn plugin_caps() -> Value {
    json!({"capabilities": {"experimental": {"locus": {"cursor": true}}}, "clientInfo": {"name": "test-plugin"}})
}

fn doc(uri: &str) -> Value {
    json!({"uri": uri})
}

fn cursor(ctx: &Value) -> (u64, u64) {
    (ctx["cursor"]["line"].as_u64().unwrap(), ctx["cursor"]["character"].as_u64().unwrap())
}

#[test]
fn context_follows_cursor_selection_symbols_and_focus() {
    let dir = temp_dir("e2e-focus");
    let a_path = dir.join("greeter.py");
    std::fs::write(&a_path, PY).unwrap();
    let a = file_uri(&a_path);
    let b = file_uri(&dir.join("box.ts"));
    let mut s = Server::start(&[]);
    let init = s.initialize(plugin_caps());
    let caps = &init["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16", "utf-16 when the client offers nothing");
    assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental sync");
    assert!(
        caps.get("hoverProvider").is_none() || caps["hoverProvider"].is_null(),
        "no stand-ins for a plugin: {caps}"
    );
    assert!(
        caps.get("documentSymbolProvider").is_none() || caps["documentSymbolProvider"].is_null()
    );

    assert_eq!(s.context(Value::Null), Value::Null, "nothing open: null");
    s.open(&a, "python", 1, PY);
    s.open(&b, "typescript", 1, TS);
    let ctx = s.context(Value::Null);
    assert_eq!(
        ctx["file"]["path"],
        dir.join("box.ts").display().to_string(),
        "the last document touched"
    );
    assert_eq!(ctx["file"]["isDirty"], true, "box.ts is not on disk");

    s.notify("locus/didChangeActiveEditor", json!({"textDocument": doc(&a)}));
    let ctx = s.context(json!({}));
    assert_eq!(ctx["file"]["path"], a_path.display().to_string());
    assert_eq!(ctx["file"]["languageId"], "python");
    assert_eq!(ctx["file"]["lineCount"], 9);
    assert_eq!(ctx["file"]["isDirty"], false, "same as the file on disk");
    assert_eq!(cursor(&ctx), (1, 1));

    // The cursor right after the emoji: UTF-16 counts it as two units.
    let line2 = PY.lines().nth(2).unwrap();
    let after_emoji = line2.find('!').unwrap();
    let character = line2[..after_emoji].encode_utf16().count();
    s.notify("locus/didChangeCursor", json!({"textDocument": {"uri": a, "version": 1}, "position": {"line": 2, "character": character}}));
    let ctx = s.context(Value::Null);
    assert_eq!(cursor(&ctx), (3, character as u64 + 1));
    assert_eq!(ctx["symbols"]["scopeHierarchy"], "Class:Greeter > Method:greet");
    assert_eq!(ctx["symbols"]["source"], "tree-sitter");
    assert_eq!(ctx["selection"]["isEmpty"], true);

    // A selection of `def greet`.
    let sel = json!({"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 13}});
    s.notify("locus/didChangeCursor", json!({"textDocument": {"uri": a}, "position": {"line": 1, "character": 13}, "selections": [sel]}));
    let ctx = s.context(Value::Null);
    assert_eq!(ctx["selection"]["isEmpty"], false);
    assert_eq!(ctx["selection"]["text"], "def greet");
    assert_eq!(
        ctx["selection"]["range"],
        json!({"start": {"line": 2, "character": 5}, "end": {"line": 2, "character": 14}})
    );

    // Symbols from the editor's own language server, for version 1.
    let method = json!({"name": "greet(self, name)", "kind": 6, "range": {"start": {"line": 1, "character": 4}, "end": {"line": 3, "character": 18}},
                        "selectionRange": {"start": {"line": 1, "character": 8}, "end": {"line": 1, "character": 13}}});
    let class = json!({"name": "Greeter", "kind": 5, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 18}},
                       "selectionRange": {"start": {"line": 0, "character": 6}, "end": {"line": 0, "character": 13}}, "children": [method]});
    let push =
        |version: i32| json!({"textDocument": {"uri": a, "version": version}, "symbols": [class]});
    s.notify("locus/didChangeSymbols", push(1));
    let ctx = s.context(Value::Null);
    assert_eq!(ctx["symbols"]["source"], "language-server");
    assert_eq!(ctx["symbols"]["scopeHierarchy"], "Class:Greeter > Method:greet(self, name)");
    assert_eq!(ctx["symbols"]["totalInDocument"], 2);

    // An edit: the editor's symbols keep answering, shifted through it (kinds do not flip to
    // tree-sitter's while the user types); the file is dirty now.
    s.change(&a, 2, json!([{"range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}}, "text": "        # note\n"}]));
    let ctx = s.context(Value::Null);
    assert_eq!(ctx["symbols"]["source"], "language-server");
    assert_eq!(
        ctx["symbols"]["immediateScope"]["range"],
        json!({"start": 2, "end": 5, "length": 4})
    );
    assert_eq!(ctx["file"]["isDirty"], true);
    assert_eq!(ctx["file"]["lineCount"], 10);
    // A late push for version 1 is never adopted against version 2; one for 2 is.
    s.notify("locus/didChangeSymbols", push(1));
    assert_eq!(s.context(Value::Null)["symbols"]["immediateScope"]["range"]["end"], 5);
    s.notify("locus/didChangeSymbols", push(2));
    let ctx = s.context(Value::Null);
    assert_eq!(ctx["symbols"]["source"], "language-server");
    assert_eq!(ctx["symbols"]["immediateScope"]["range"]["end"], 4, "the push's own ranges");

    // Switch editors.
    s.notify("locus/didChangeActiveEditor", json!({"textDocument": doc(&b)}));
    s.notify(
        "locus/didChangeCursor",
        json!({"textDocument": {"uri": b}, "position": {"line": 2, "character": 4}}),
    );
    let ctx = s.context(Value::Null);
    assert_eq!(ctx["file"]["languageId"], "typescript");
    assert_eq!(ctx["symbols"]["scopeHierarchy"], "Class:Box > Method:open");

    // No text editor left: null, but an explicit document still answers.
    s.notify("locus/didChangeActiveEditor", json!({"textDocument": null}));
    assert_eq!(s.context(Value::Null), Value::Null);
    let ctx = s.context(json!({"textDocument": doc(&a), "position": {"line": 2, "character": 4}}));
    assert_eq!(ctx["symbols"]["scopeHierarchy"], "Class:Greeter > Method:greet(self, name)");
    assert_eq!(cursor(&ctx), (3, 5));

    // Save: clean again.
    std::fs::write(&a_path, s.text(&a)).unwrap();
    s.notify("textDocument/didSave", json!({"textDocument": doc(&a)}));
    assert_eq!(s.context(json!({"textDocument": doc(&a)}))["file"]["isDirty"], false);

    // Closed documents are gone; asking for one is an error, not a crash.
    s.notify("textDocument/didClose", json!({"textDocument": doc(&b)}));
    let err = s.request("locus/getContext", json!({"textDocument": doc(&b)})).unwrap_err();
    assert_eq!(err["code"], -32602);
    let state = s.request("locus/debugState", Value::Null).unwrap();
    assert_eq!(state["open"], 1);
    assert!(s.stop().success());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Random edits in each position encoding; the mirror must equal the client's text, and
/// cursors given in that encoding come back right in editorContext's UTF-16.
#[test]
fn edits_in_each_encoding_keep_the_mirror_exact() {
    for (offered, expected) in [
        (json!(null), "utf-16"),
        (json!(["utf-16", "utf-8"]), "utf-8"),
        (json!(["utf-32", "utf-16"]), "utf-16"),
        (json!(["utf-32"]), "utf-32"),
    ] {
        let mut s = Server::start(&[]);
        let mut init = plugin_caps();
        if !offered.is_null() {
            init["capabilities"]["general"] = json!({"positionEncodings": offered});
        }
        let result = s.initialize(init);
        assert_eq!(result["capabilities"]["positionEncoding"], expected);
        let uri = "untitled:Untitled-1";
        let mut text = String::from("héllo 😀 wörld\n中文 text\n");
        s.open(uri, "plaintext", 0, &text);
        let pieces = ["a", "é", "😀", "中", "\n", "xy\nz", "", "\r\n"];
        let mut rng = Rng::new(0x5eed ^ expected.len() as u64);
        for version in 1..=300 {
            let len = text.chars().count();
            let a = rng.below(len + 1);
            let b = (a + rng.below(4)).min(len);
            // Never split a "\r\n": the LSP counts it as one line break.
            let chars: Vec<char> = text.chars().collect();
            if (a > 0 && a < len && chars[a - 1] == '\r' && chars[a] == '\n')
                || (b > 0 && b < len && chars[b - 1] == '\r' && chars[b] == '\n')
            {
                continue;
            }
            let new = pieces[rng.below(pieces.len())];
            let range =
                json!({"start": position(&text, a, expected), "end": position(&text, b, expected)});
            s.change(uri, version, json!([{"range": range, "text": new}]));
            text = splice(&text, a, b, new);
            if version % 50 == 0 {
                assert_eq!(s.text(uri), text, "mirror after {version} edits in {expected}");
                // A cursor in the negotiated encoding, reported 1-based in UTF-16.
                let at = rng.below(text.chars().count() + 1);
                if text.chars().nth(at) == Some('\n')
                    && at > 0
                    && text.chars().nth(at - 1) == Some('\r')
                {
                    continue;
                }
                s.notify("locus/didChangeCursor", json!({"textDocument": {"uri": uri, "version": version}, "position": position(&text, at, expected)}));
                let ctx = s.context(Value::Null);
                let utf16 = position(&text, at, "utf-16");
                assert_eq!(
                    ctx["cursor"]["line"],
                    utf16["line"].as_u64().unwrap() + 1,
                    "cursor line in {expected}"
                );
                assert_eq!(
                    ctx["cursor"]["character"],
                    utf16["character"].as_u64().unwrap() + 1,
                    "cursor character in {expected}"
                );
            }
        }
        // A full-document change (full sync) is accepted too.
        text = "replaced 😀\n".into();
        s.change(uri, 1000, json!([{"text": text}]));
        assert_eq!(s.text(uri), text);
        assert!(s.stop().success());
    }
}

#[test]
fn malformed_input_and_a_burst_of_changes_leave_an_exact_mirror() {
    let mut s = Server::start(&[]);
    s.initialize(json!({"capabilities": {}, "clientInfo": {"name": "burst"}}));
    let uri = "file:///nonexistent/burst.ts";
    let mut text = String::from("function f(a: number) {\n  return a + 1; // 😀\n}\n");
    s.open(uri, "typescript", 1, &text);

    // Garbage on the wire: answered with JSON-RPC errors, not a crash.
    s.send_raw(b"Content-Length: 9\r\n\r\nnot json!");
    s.send_raw(
        b"Content-Length: 11\r\nX-Unknown: 1\r\nContent-Type: text/plain\r\n\r\n{\"foo\": 1} ",
    );
    s.send_raw(b"Content-Length: twelve\r\n\r\n");
    s.send_raw(b"\r\n\r\nno headers at all\r\n\r\n");
    s.send(&json!({"jsonrpc": "2.0", "id": 901, "method": 3}));
    assert_eq!(
        s.wait_response(901).unwrap_err()["code"],
        -32600,
        "an invalid request with an id gets its error"
    );
    s.send(&json!({"jsonrpc": "2.0", "id": 900, "method": "locus/getContext", "params": {"textDocument": 5}}));
    assert_eq!(s.wait_response(900).unwrap_err()["code"], -32602);
    let unknown = s
        .request("locus/getContext", json!({"textDocument": {"uri": "file:///not/open.py"}}))
        .unwrap_err();
    assert_eq!(unknown["code"], -32602);
    assert!(unknown["message"].as_str().unwrap().contains("not/open.py"));
    assert_eq!(s.request("locus/noSuchMethod", json!({})).unwrap_err()["code"], -32601);
    assert_eq!(
        s.request("textDocument/hover", json!({"textDocument": 3})).unwrap_err()["code"],
        -32602
    );
    assert_eq!(
        s.request("workspace/executeCommand", json!({"command": "locus.nope", "arguments": []}))
            .unwrap_err()["code"],
        -32602
    );
    assert!(
        s.request(
            "workspace/executeCommand",
            json!({"command": "locus.cursor", "arguments": [{"path": 1}]})
        )
        .is_err()
    );

    // Malformed notifications are dropped (and logged); unknown documents too.
    s.notify("textDocument/didChange", json!({"textDocument": {"uri": uri, "version": 2}}));
    s.notify("textDocument/didChange", json!({"textDocument": {"uri": "file:///not/open.py", "version": 2}, "contentChanges": [{"text": "x"}]}));
    s.notify("textDocument/didOpen", json!({"textDocument": {"uri": "file:///x.py", "text": 12}}));
    s.notify(
        "locus/didChangeCursor",
        json!({"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}}),
    );
    s.notify("locus/didChangeSymbols", json!({"textDocument": {"uri": uri}, "symbols": "nope"}));
    s.notify("locus/didChangeActiveEditor", json!(42));
    s.notify("textDocument/didClose", json!({"textDocument": {"uri": "file:///never/opened"}}));
    assert_eq!(s.text(uri), text, "nothing applied");

    // Versions going backwards still apply (the edits are the truth).
    s.change(uri, 10, json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "// a\n"}]));
    s.change(uri, 3, json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "// b\n"}]));
    text = format!("// b\n// a\n{text}");
    // Positions past the end: a character past a line's end is its end, a line past the end is the end.
    s.change(uri, 4, json!([{"range": {"start": {"line": 2, "character": 500}, "end": {"line": 2, "character": 999}}, "text": " /*eol*/"}]));
    text = text.replacen("number) {\n", "number) { /*eol*/\n", 1);
    s.change(uri, 5, json!([{"range": {"start": {"line": 400, "character": 0}, "end": {"line": 401, "character": 3}}, "text": "// end\n"}]));
    text.push_str("// end\n");
    // An inverted range is refused; the change after it in the same message applies.
    s.change(uri, 6, json!([{"range": {"start": {"line": 1, "character": 3}, "end": {"line": 0, "character": 0}}, "text": "X"},
                            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "Y"}]));
    text = format!("Y{text}");
    assert_eq!(s.text(uri), text);

    // A burst of 10,000 changes written in one go.
    let mut rng = Rng::new(42);
    let mut burst = Vec::new();
    let pieces = ["x", "ab", "😀", "é", "\n", "}", "{", "", "  return 1;\n"];
    for version in 0..10_000 {
        let len = text.chars().count();
        let a = rng.below(len + 1);
        let b = (a + rng.below(3)).min(len);
        let new = pieces[rng.below(pieces.len())];
        let range =
            json!({"start": position(&text, a, "utf-16"), "end": position(&text, b, "utf-16")});
        let message = json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
                             "params": {"textDocument": {"uri": uri, "version": 100 + version}, "contentChanges": [{"range": range, "text": new}]}});
        let body = message.to_string();
        burst.extend_from_slice(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
        text = splice(&text, a, b, new);
    }
    let started = std::time::Instant::now();
    s.send_raw(&burst);
    let ctx = s.context(Value::Null);
    let took = started.elapsed();
    eprintln!("10,000 changes applied and a context answered in {took:?}");
    assert_eq!(ctx["file"]["lineCount"], text.split('\n').count());
    assert_eq!(s.text(uri), text, "mirror exact after the burst");
    assert!(s.alive());
    assert!(s.stop().success());
}

#[test]
fn editors_without_a_plugin_use_requests_and_edits_as_the_cursor() {
    let dir = temp_dir("e2e-standin");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let path = dir.join("src/app.py");
    std::fs::write(&path, PY).unwrap();
    let uri = file_uri(&path);
    let mut s = Server::start(&[]);
    let init = s.initialize(json!({"clientInfo": {"name": "helix"}, "workspaceFolders": [{"uri": file_uri(&dir), "name": "proj"}]}));
    let caps = &init["capabilities"];
    for cap in [
        "hoverProvider",
        "completionProvider",
        "signatureHelpProvider",
        "documentHighlightProvider",
        "codeActionProvider",
    ] {
        assert!(!caps[cap].is_null(), "{cap} declared for an editor without a plugin");
    }
    assert!(caps["documentSymbolProvider"].is_null(), "no duplicate outline entries");
    assert_eq!(
        caps["executeCommandProvider"]["commands"],
        json!(["locus.cursor", "locus.mention", "locus.accept", "locus.reject"])
    );
    s.open(&uri, "python", 1, PY);

    // A hover stands in for the cursor and answers nothing (no popup).
    let hover = s
        .request(
            "textDocument/hover",
            json!({"textDocument": doc(&uri), "position": {"line": 3, "character": 10}}),
        )
        .unwrap();
    assert_eq!(hover, Value::Null);
    assert_eq!(cursor(&s.context(Value::Null)), (4, 11));
    let completion = s
        .request(
            "textDocument/completion",
            json!({"textDocument": doc(&uri), "position": {"line": 7, "character": 4}}),
        )
        .unwrap();
    assert_eq!(completion, Value::Null);
    assert_eq!(s.context(Value::Null)["symbols"]["scopeHierarchy"], "Function:main");

    // The last edit stands in too: the cursor is where the typing ended.
    s.change(&uri, 2, json!([{"range": {"start": {"line": 3, "character": 18}, "end": {"line": 3, "character": 18}}, "text": " or name"}]));
    let ctx = s.context(Value::Null);
    assert_eq!(cursor(&ctx), (4, 27));
    assert_eq!(ctx["symbols"]["scopeHierarchy"], "Class:Greeter > Method:greet");

    // A code action's range is the selection.
    let range = json!({"start": {"line": 6, "character": 4}, "end": {"line": 6, "character": 8}});
    let actions = s
        .request(
            "textDocument/codeAction",
            json!({"textDocument": doc(&uri), "range": range, "context": {"diagnostics": []}}),
        )
        .unwrap();
    assert_eq!(actions, Value::Null);
    assert_eq!(s.context(Value::Null)["selection"]["text"], "main");

    // `locus.cursor` from a keymap: 1-based line and column, the column in characters, a path
    // relative to the workspace folder.
    let r = s.request("workspace/executeCommand", json!({"command": "locus.cursor", "arguments": [{"path": "src/app.py", "line": 3, "column": 31}]}));
    assert_eq!(r.unwrap(), Value::Null);
    let ctx = s.context(Value::Null);
    // Column 31 in characters is just past the emoji: 32 in UTF-16.
    assert_eq!(cursor(&ctx), (3, 32));
    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "locus.cursor", "arguments": [path.display().to_string(), 2, 5]}),
    );
    assert!(r.is_ok());
    assert_eq!(cursor(&s.context(Value::Null)), (2, 5));
    let lines = json!([{"path": "src/app.py", "line": 2, "column": 1, "selection": {"startLine": 2, "endLine": 3}}]);
    s.request("workspace/executeCommand", json!({"command": "locus.cursor", "arguments": lines}))
        .unwrap();
    assert_eq!(
        s.context(Value::Null)["selection"]["text"],
        "    def greet(self, name):\n        msg = f\"héllo {name} 😀!\"\n"
    );
    let missing = s.request(
        "workspace/executeCommand",
        json!({"command": "locus.cursor", "arguments": [{"path": "src/missing.py", "line": 1}]}),
    );
    assert_eq!(missing.unwrap_err()["code"], -32602);
    assert!(s.stop().success());

    // Neovim gets no stand-ins (they would become `K`, tagfunc and omnifunc there).
    let mut s = Server::start(&[]);
    let init = s.initialize(json!({"clientInfo": {"name": "Neovim"}}));
    assert!(init["capabilities"]["hoverProvider"].is_null());
    assert!(init["capabilities"]["definitionProvider"].is_null());
    assert!(s.stop().success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn logs_reach_the_editor_and_exit_without_shutdown_fails() {
    let mut s = Server::start_with_env(&["--log-level", "debug"], &[]);
    s.initialize(json!({}));
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": "file:///nope.py", "version": 2}, "contentChanges": []}),
    );
    s.request("locus/debugState", Value::Null).unwrap();
    // Log messages travel on their own; give them a moment.
    let mut logs: Vec<String> = Vec::new();
    for _ in 0..100 {
        logs = s
            .drain()
            .iter()
            .filter(|m| m["method"] == "window/logMessage")
            .map(|m| m["params"]["message"].as_str().unwrap_or_default().to_string())
            .collect();
        if logs.iter().any(|m| m.contains("file:///nope.py")) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(logs.iter().any(|m| m.contains("initialize")), "{logs:?}");
    assert!(logs.iter().any(|m| m.contains("file:///nope.py")), "{logs:?}");
    // `exit` without `shutdown`: the LSP asks for exit code 1.
    s.notify("exit", Value::Null);
    assert!(!s.wait().success());

    // Closing the pipe ends the server too.
    let mut s = Server::start(&[]);
    s.initialize(json!({}));
    assert!(!s.wait().success());
}

#[test]
fn exit_ends_the_server_though_the_editor_keeps_the_pipe_open() {
    // The LSP says the server exits on `exit`; an editor may keep stdin open after it.
    let mut s = Server::start(&[]);
    s.initialize(json!({}));
    s.request("shutdown", Value::Null).expect("shutdown succeeds");
    s.notify("exit", Value::Null);
    assert!(s.wait_with_stdin_open().success());
}

#[test]
fn command_line_options_are_validated() {
    let run = |args: &[&str], env: Option<&str>| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_locus"));
        cmd.arg("lsp").args(args).stdin(std::process::Stdio::null());
        match env {
            Some(v) => cmd.env("LOCUS_LOG", v),
            None => cmd.env_remove("LOCUS_LOG"),
        };
        let out = cmd.output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned(), out.stdout)
    };
    for bad in [
        &["--mcp-port", "70000"][..],
        &["--mcp-port", "-1"],
        &["--mcp-port", "http"],
        &["--mcp-port"],
        &["--log-level", "loud"],
        &["--frobnicate"],
    ] {
        let (code, err, out) = run(bad, None);
        assert_eq!(code, Some(2), "{bad:?}: {err}");
        assert!(err.contains("error:"), "{bad:?}: {err}");
        assert!(out.is_empty(), "stdout carries only LSP");
    }
    let (code, err, _) = run(&[], Some("chatty"));
    assert_eq!(code, Some(2));
    assert!(err.contains("LOCUS_LOG"), "{err}");
    // Good options start a server that stops when its input closes.
    for good in [
        &["--no-mcp"][..],
        &["--mcp-port", "0"],
        &["--mcp-port=65535", "--log-level=trace"],
        &["--stdio"],
    ] {
        let (code, err, _) = run(good, None);
        assert_eq!(code, Some(1), "{good:?}: ends without shutdown when stdin closes: {err}");
        assert!(!err.contains("unknown option"), "{err}");
    }
}
