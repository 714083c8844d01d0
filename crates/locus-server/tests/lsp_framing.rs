//! One bad LSP frame must not deafen the editor channel (docs/reference/lsp.md): after a
//! non-numeric, negative or missing `Content-Length`, a body shorter or longer than declared,
//! a `Content-Length` of 10^12, or junk, `locus lsp` resynchronises on the next header and
//! answers the next request. A request sent with a notification's method gets an error, and a
//! message with the method of one of the transport's own stand-ins is refused. A change the
//! mirror cannot place leaves a warning on the document's context.

mod lsp_support;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use lsp_support::Server;
use proptest::prelude::*;
use serde_json::{Value, json};

/// How long a request may take to be answered: generous, for a debug build on a shared
/// machine (answers take milliseconds).
const ANSWER_WITHIN: Duration = Duration::from_secs(10);

fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fn with_length(length: &str, body: &str) -> Vec<u8> {
    format!("Content-Length: {length}\r\n\r\n{body}").into_bytes()
}

const CURSOR: &str = r#"{"jsonrpc":"2.0","method":"locus/didChangeCursor","params":{"textDocument":{"uri":"file:///nowhere.py"},"position":{"line":0,"character":0}}}"#;

fn started() -> Server {
    let mut s = Server::start(&["--no-mcp"]);
    s.initialize(json!({"clientInfo": {"name": "framing"}}));
    s
}

#[test]
fn after_each_kind_of_bad_frame_the_next_request_is_answered() {
    let mut s = started();
    let n = CURSOR.len();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("a non-numeric Content-Length", with_length("twelve", CURSOR)),
        ("a negative Content-Length", with_length("-5", CURSOR)),
        ("no Content-Length", format!("Content-Type: application/json\r\n\r\n{CURSOR}").into()),
        ("an empty Content-Length", with_length("", CURSOR)),
        ("a body shorter than declared", with_length(&(n + 40).to_string(), CURSOR)),
        ("a body much shorter than declared", with_length(&(n + 100_000).to_string(), CURSOR)),
        ("a body longer than declared", with_length(&(n - 10).to_string(), CURSOR)),
        ("a header and no body", with_length("30", "")),
        ("a Content-Length of 10^12", with_length("1000000000000", CURSOR)),
        ("a Content-Length of 10^12 and no body", with_length("1000000000000", "")),
        ("junk", b"\x00\xff\xfe garbage {{{ [[ \"".to_vec()),
        ("a header cut short", b"Content-Len".to_vec()),
        ("junk lines", b"hello world\r\nno: header\r\n\r\n".to_vec()),
        ("a body that is not JSON", frame("not json at all")),
    ];
    for (what, bad) in cases {
        s.send_raw(&bad);
        let started = Instant::now();
        let answer = s.request("locus/getContext", Value::Null);
        let took = started.elapsed();
        println!("after {what}: answered in {took:?}");
        assert_eq!(answer, Ok(Value::Null), "after {what}");
        assert!(took < ANSWER_WITHIN, "after {what}: answered only after {took:?}");
    }
    // A request whose frame is broken gets its error, with its id.
    s.send_raw(&with_length(
        "abc",
        r#"{"jsonrpc":"2.0","id":7001,"method":"locus/getContext","params":null}"#,
    ));
    let e = s.wait_response(7001).unwrap_err();
    assert_eq!(e["code"], -32600, "{e}");
    assert!(e["data"].as_str().unwrap().contains("invalid Content-Length `abc`"), "{e}");
    // A request framed with the wrong length is read as its JSON says, and answered.
    let body = r#"{"jsonrpc":"2.0","id":7002,"method":"locus/getContext","params":null}"#;
    s.send_raw(&with_length(&(body.len() + 25).to_string(), body));
    s.send_raw(&frame(CURSOR));
    assert_eq!(s.wait_response(7002), Ok(Value::Null));
    assert!(s.alive());
    assert!(s.stop().success());
}

#[test]
fn a_request_with_a_notifications_method_gets_an_error() {
    let mut s = started();
    let uri = "file:///nonexistent/as-request.py";
    let open = json!({"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": "x = 1\n"}});
    for (id, method, params) in [
        (8001, "textDocument/didOpen", open.clone()),
        (8002, "initialized", json!({})),
        (
            8003,
            "locus/didChangeCursor",
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
        ),
        (8004, "$/cancelRequest", json!({"id": 1})),
        (8005, "exit", Value::Null),
    ] {
        s.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let e = s.wait_response(id).unwrap_err();
        assert_eq!(e["code"], -32600, "{method}: {e}");
        assert!(e["data"].as_str().unwrap().contains("is a notification"), "{method}: {e}");
    }
    // Not applied: the document was never opened.
    assert!(s.request("locus/debugText", json!({"textDocument": {"uri": uri}})).is_err());
    assert!(s.alive(), "`exit` sent as a request does not end the server");
    assert!(s.stop().success());
}

#[test]
fn the_transports_own_stand_ins_are_refused_from_a_client() {
    let mut s = started();
    // As notifications: left out, logged. A forged `locus/internal/didOpen` would otherwise
    // take a decoded `didOpen` by its key.
    s.send(&json!({"jsonrpc": "2.0", "method": "locus/internal/didOpen", "params": {"key": 0}}));
    s.send(&json!({"jsonrpc": "2.0", "method": "locus/invalidMessage", "params": {"id": 77}}));
    // As a request: method not found, with its id.
    s.send(&json!({"jsonrpc": "2.0", "id": 8101, "method": "locus/internal/didOpen", "params": {"key": 0}}));
    let e = s.wait_response(8101).unwrap_err();
    assert_eq!(e["code"], -32601, "{e}");
    assert!(e["data"].as_str().unwrap().contains("a client may not send it"), "{e}");
    // No error was sent for the forged invalid message's id.
    assert!(s.drain().iter().all(|m| m.get("id") != Some(&json!(77))), "{:?}", s.drain());
    // The next document opens as ever, its decoded text taken under its own key.
    let uri = "file:///nonexistent/after-forgery.py";
    s.open(uri, "python", 1, "x = 1\n");
    s.send(&json!({"jsonrpc": "2.0", "method": "locus/internal/didOpen", "params": {"key": 1}}));
    assert_eq!(s.text(uri), "x = 1\n");
    assert!(s.stop().success());
}

#[test]
fn a_change_it_cannot_place_is_a_warning_on_the_context_until_the_whole_text() {
    let mut s = started();
    let uri = "file:///nonexistent/unsynced.py";
    let text = "def f():\n    return 1\n";
    s.open(uri, "python", 1, text);
    let warning = |s: &mut Server| {
        let c = s.context(
            json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 4}}),
        );
        c["symbols"].get("warning").cloned()
    };
    assert_eq!(warning(&mut s), None);
    // Past a line's end, and the start of the line after the last: LSP allows both.
    s.change(uri, 2, json!([{"range": {"start": {"line": 0, "character": 50}, "end": {"line": 0, "character": 60}}, "text": " # f"},
                            {"range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}}, "text": "g = 2\n"}]));
    assert_eq!(s.text(uri), "def f(): # f\n    return 1\ng = 2\n");
    assert_eq!(warning(&mut s), None);
    // A line far past the end.
    s.change(uri, 3, json!([{"range": {"start": {"line": 90, "character": 0}, "end": {"line": 90, "character": 0}}, "text": "h = 3\n"}]));
    let w = warning(&mut s).expect("a warning");
    assert!(
        w.as_str().unwrap().contains("may differ from the editor's text since version 3"),
        "{w}"
    );
    // The whole text again: exact, no warning.
    s.change(uri, 4, json!([{"text": text}]));
    assert_eq!(warning(&mut s), None);
    // An inverted range.
    s.change(uri, 5, json!([{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "z"}]));
    let w = warning(&mut s).expect("a warning");
    assert!(w.as_str().unwrap().contains("inverted range"), "{w}");
    assert!(s.stop().success());
}

/// A `locus lsp` spoken to in raw bytes, its stderr silenced (garbage makes it warn a lot).
struct Raw {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
}

impl Raw {
    fn start() -> Raw {
        let mut child = Command::new(env!("CARGO_BIN_EXE_locus"))
            .args(["lsp", "--no-mcp"])
            .env("LOCUS_LOG", "error")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawning locus lsp");
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length:") {
                        length = v.trim().parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("locus lsp frames its output")];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let Ok(v) = serde_json::from_slice::<Value>(&body) else { return };
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take().unwrap();
        let mut raw = Raw { child, stdin, incoming };
        raw.send(&frame(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}"#,
        ));
        assert!(raw.answer(1).is_some(), "initialize is answered");
        raw.send(&frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#));
        raw
    }

    fn send(&mut self, bytes: &[u8]) {
        // A server that exited makes this fail; the missing answer says so.
        let _ = self.stdin.write_all(bytes).and_then(|()| self.stdin.flush());
    }

    /// The response to `id`, if it comes within [`ANSWER_WITHIN`].
    fn answer(&self, id: i64) -> Option<Value> {
        let deadline = Instant::now() + ANSWER_WITHIN;
        loop {
            let left = deadline.checked_duration_since(Instant::now())?;
            let m = self.incoming.recv_timeout(left).ok()?;
            if m["id"] == json!(id) && m.get("method").is_none() {
                return Some(m);
            }
        }
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Bodies a sender might put in a frame: whole messages, cut ones, and text.
fn body() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(CURSOR.to_string()),
        Just(r#"{"jsonrpc":"2.0","id":17,"method":"locus/getContext"}"#.to_string()),
        Just(r#"{"jsonrpc":"2.0","id":18,"result":null}"#.to_string()),
        Just(
            r#"{"jsonrpc":"2.0","id":19,"method":"textDocument/didChange","params":{}}"#
                .to_string()
        ),
        Just(r#"{"jsonrpc":"2.0","#.to_string()),
        Just("[1, 2".to_string()),
        "[ -~]{0,40}",
    ]
}

/// What a `Content-Length` header might say.
fn length() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,3}",
        "[0-9]{4,13}",
        "-[0-9]{1,4}",
        "[a-z ]{0,6}",
        Just("1000000000000".to_string()),
        Just("18446744073709551616".to_string()),
    ]
}

/// One piece of garbage on the wire.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..48),
        (length(), body()).prop_map(|(l, b)| with_length(&l, &b)),
        (body(), -30i64..30)
            .prop_map(|(b, d)| { with_length(&(b.len() as i64 + d).max(0).to_string(), &b) }),
        body().prop_map(|b| format!("Content-Type: text/plain\r\n\r\n{b}").into_bytes()),
        body().prop_map(|b| b.into_bytes()),
        Just(b"Content-Len".to_vec()),
        Just(b"Content-Length: 5\r\nX-Other".to_vec()),
        Just(b"\r\n\r\n".to_vec()),
    ]
}

proptest! {
    // Each case starts a server: a few dozen cases keep the run to seconds; shrinking is
    // bounded as well, since a failing case waits for its answer up to ANSWER_WITHIN.
    #![proptest_config(ProptestConfig {
        cases: 40,
        max_shrink_iters: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn garbage_frames_then_a_valid_request_is_answered(
        pieces in proptest::collection::vec(piece(), 1..6)
    ) {
        let mut raw = Raw::start();
        for p in &pieces {
            raw.send(p);
        }
        raw.send(&frame(r#"{"jsonrpc":"2.0","id":424242,"method":"locus/getContext","params":null}"#));
        let answer = raw.answer(424242);
        prop_assert!(answer.is_some(), "no answer after {:?}", String::from_utf8_lossy(&pieces.concat()));
        let answer = answer.unwrap();
        prop_assert_eq!(&answer["result"], &Value::Null, "{}", answer);
        prop_assert!(answer.get("error").is_none(), "{}", answer);
    }
}
