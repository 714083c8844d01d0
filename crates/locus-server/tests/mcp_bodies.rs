//! Bad MCP bodies against the real binary (docs/reference/envelope.md): a body that is not JSON
//! answers HTTP 400 with a JSON-RPC parse error, not 415; `tools/call` with `arguments: [...]` or
//! without a name answers invalid params (-32602), not method not found; and a bounded property
//! test throws garbage bodies at the sidecar and garbage lines at `locus mcp`, then
//! checks that a valid call is answered correctly and the process lives (cargo-fuzz needs nightly,
//! which these machines lack).

mod lsp_support;
mod mcp_support;

use std::io::{Read, Write};
use std::net::TcpStream;

use mcp_support::{Dirs, StdioMcp, WAIT, start_sidecar};
use proptest::prelude::*;
use serde_json::{Value, json};

/// An HTTP answer: status, the session id header, and the JSON-RPC message of the body (an
/// SSE stream's `data:` line, or the JSON body itself).
#[derive(Debug)]
struct Answer {
    status: u16,
    session: Option<String>,
    message: Option<Value>,
    /// The whole body, for failure messages.
    #[allow(dead_code, reason = "read through Debug in failure messages")]
    body: String,
}

/// POSTs `body` to the sidecar of `record` over a fresh connection.
fn post(record: &Value, session: Option<&str>, body: &[u8]) -> Answer {
    let url = record["url"].as_str().unwrap();
    let rest = url.strip_prefix("http://").unwrap();
    let (authority, path) = rest.split_once('/').unwrap();
    let mut stream = TcpStream::connect(authority).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let mut head = format!(
        "POST /{path} HTTP/1.1\r\nHost: {authority}\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         MCP-Protocol-Version: 2025-06-18\r\nContent-Length: {}\r\nConnection: close\r\n",
        record["token"].as_str().unwrap(),
        body.len()
    );
    if let Some(s) = session {
        head.push_str(&format!("Mcp-Session-Id: {s}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("the sidecar answers and closes the connection");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let session = head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("mcp-session-id").then(|| v.trim().to_string())
    });
    let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        dechunk(body)
    } else {
        body.to_string()
    };
    let message = body
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(str::trim)
        .find(|d| !d.is_empty())
        .or(Some(body.trim()))
        .and_then(|d| serde_json::from_str(d).ok());
    Answer { status, session, message, body }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else { break };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// Opens an MCP session on the sidecar over raw HTTP; returns its id.
fn initialize(record: &Value) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bodies", "version": "0"}}});
    let a = post(record, None, init.to_string().as_bytes());
    assert_eq!(a.status, 200, "{a:?}");
    let session = a.session.expect("initialize answers a session id");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let a = post(record, Some(&session), initialized.to_string().as_bytes());
    assert_eq!(a.status, 202, "{a:?}");
    session
}

/// A valid `bridge_status` call on the session, which must be answered as usual.
fn answered_correctly(record: &Value, session: &str, pid: u32) -> Result<(), String> {
    let call = json!({"jsonrpc": "2.0", "id": 99, "method": "tools/call",
        "params": {"name": "bridge_status", "arguments": {}}});
    let a = post(record, Some(session), call.to_string().as_bytes());
    let m = a.message.as_ref().ok_or_else(|| format!("no message: {a:?}"))?;
    if a.status != 200 || m["id"] != 99 || m["result"]["structuredContent"]["data"]["pid"] != pid {
        return Err(format!("a wrong answer to a valid call: {a:?}"));
    }
    Ok(())
}

#[test]
fn bad_bodies_answer_400_and_bad_params_minus_32602_over_http() {
    let dirs = Dirs::new("mcp-bodies-http");
    let (s, record) = start_sidecar(&dirs, &dirs.workspace, "bodies-editor");
    let session = initialize(&record);
    for (what, body, code) in [
        ("not JSON", &b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\""[..], -32700),
        ("binary junk", &b"\x00\xff\xfe"[..], -32700),
        ("JSON but no message", &b"{\"hello\": 1}"[..], -32600),
        ("an empty body", &b""[..], -32700),
    ] {
        let a = post(&record, Some(&session), body);
        assert_eq!(a.status, 400, "{what}: {a:?}");
        let m = a.message.as_ref().unwrap_or_else(|| panic!("{what}: no JSON-RPC error: {a:?}"));
        assert_eq!(m["error"]["code"], code, "{what}: {a:?}");
    }
    for (what, params, needle) in [
        (
            "arguments as an array",
            json!({"name": "bridge_status", "arguments": [1, 2]}),
            "`arguments` must be a JSON object",
        ),
        ("no name", json!({"arguments": {}}), "needs `name`"),
        ("a numeric name", json!({"name": 7}), "`name` must be a string"),
    ] {
        let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": params});
        let a = post(&record, Some(&session), call.to_string().as_bytes());
        let m = a.message.as_ref().unwrap_or_else(|| panic!("{what}: no message: {a:?}"));
        assert_eq!(m["id"], 5, "{what}: {a:?}");
        assert_eq!(m["error"]["code"], -32602, "{what}: {a:?}");
        assert!(m["error"]["message"].as_str().unwrap().contains(needle), "{what}: {a:?}");
    }
    let a = post(&record, Some(&session), br#"{"jsonrpc":"2.0","id":6,"method":"no/such"}"#);
    assert_eq!(a.message.as_ref().unwrap()["error"]["code"], -32601, "{a:?}");
    answered_correctly(&record, &session, s.pid()).unwrap();
}

/// A panic inside a tool (docs/reference/envelope.md, "A bug in a tool") answers that call
/// `E_INTERNAL`; the sidecar lives on, its editor state intact, and the next call works:
/// over HTTP to the sidecar, and through `locus mcp` forwarding to it.
#[test]
fn a_panicking_tool_fails_only_its_own_call() {
    let dirs = Dirs::new("mcp-bodies-panic");
    let (mut s, record) = start_sidecar(&dirs, &dirs.workspace, "panic-editor");
    let session = initialize(&record);
    let boom = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "test_sleep", "arguments": {"ms": 0, "panic": "a bug in a tool"}}});
    for _ in 0..2 {
        let a = post(&record, Some(&session), boom.to_string().as_bytes());
        let m = a.message.as_ref().unwrap_or_else(|| panic!("no answer: {a:?}"));
        assert_eq!(m["result"]["isError"], true, "{a:?}");
        let error = &m["result"]["structuredContent"]["error"];
        assert_eq!(error["code"], "E_INTERNAL", "{a:?}");
        assert!(error["message"].as_str().unwrap().contains("a bug in a tool"), "{a:?}");
        answered_correctly(&record, &session, s.pid()).unwrap();
    }
    let mut mcp = StdioMcp::start(&dirs, &dirs.workspace, &[]);
    let r = mcp.call("test_sleep", json!({"ms": 0, "panic": "a bug in a tool"}));
    assert_eq!(r["structuredContent"]["error"]["code"], "E_INTERNAL", "{r}");
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["data"]["pid"], s.pid(), "{r}");
    assert!(s.alive());
    assert!(mcp.close().success());
}

#[test]
fn bad_params_answer_minus_32602_over_stdio() {
    let dirs = Dirs::new("mcp-bodies-stdio");
    let mut mcp = StdioMcp::start(&dirs, &dirs.workspace, &[]);
    let r = mcp.request("tools/call", json!({"name": "bridge_status", "arguments": [1]}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = mcp.request("tools/call", json!({"arguments": {}}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(r["error"]["message"].as_str().unwrap().contains("needs `name`"), "{r}");
    let r = mcp.request("no/such", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    // Params rmcp cannot read at all are answered with the request's id, not without one.
    let r = mcp.request("tools/call", json!(7));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(r["error"]["message"].as_str().unwrap().contains("must be an object"), "{r}");
    let r = mcp.request("tools/list", json!("x"));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["ok"], true, "{r}");
    assert!(mcp.close().success());
}

/// A line of stdin that is not UTF-8, or longer than `locus mcp` reads as a message, is
/// answered with an error carrying no id (-32700, -32600), and the stream goes on: the next
/// call is answered.
#[test]
fn a_line_not_utf8_or_too_long_answers_an_error_and_the_stream_goes_on() {
    let dirs = Dirs::new("mcp-bodies-stdio-bytes");
    let mut mcp = StdioMcp::start(&dirs, &dirs.workspace, &[]);
    mcp.send_bytes(b"{\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": \"ping\", \"x\": \"\xff\xfe\"}");
    let r = mcp.response_without_id();
    assert_eq!(r["error"]["code"], -32700, "{r}");
    assert!(r["error"]["message"].as_str().unwrap().contains("UTF-8"), "{r}");
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["ok"], true, "{r}");
    // 16 MiB and one byte of a JSON string: over the cap, read through but not kept.
    let mut long = b"{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"ping\", \"x\": \"".to_vec();
    long.resize((16 << 20) + 1, b'a');
    long.extend_from_slice(b"\"}");
    mcp.send_bytes(&long);
    let r = mcp.response_without_id();
    assert_eq!(r["error"]["code"], -32600, "{r}");
    assert!(r["error"]["message"].as_str().unwrap().contains("longer than"), "{r}");
    let r = mcp.call("bridge_status", json!({}));
    assert_eq!(r["structuredContent"]["ok"], true, "{r}");
    assert!(mcp.close().success());
}

/// A JSON value of any shape, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        Just(json!(1u64 << 40)),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            proptest::collection::btree_map("[a-zA-Z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// What a tool might be called with: real tools and parameters, wrong values.
fn tool_call() -> impl Strategy<Value = Value> {
    let name = prop_oneof![
        Just(json!("symbol_scope_at")),
        Just(json!("symbol_outline")),
        Just(json!("mcp_list_tools")),
        Just(json!("editor_get_context")),
        Just(json!("no_such_tool")),
        json_value(),
    ];
    let key = prop_oneof![
        Just("path".to_string()),
        Just("line".to_string()),
        Just("character".to_string()),
        Just("category".to_string()),
        Just("maxDepth".to_string()),
        Just("kinds".to_string()),
        "[a-z]{1,6}",
    ];
    let arguments = prop_oneof![
        proptest::collection::btree_map(key, json_value(), 0..4)
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        json_value(),
    ];
    (name, arguments, any::<bool>()).prop_map(|(name, arguments, with_args)| {
        let mut params = json!({"name": name});
        if with_args {
            params["arguments"] = arguments;
        }
        params
    })
}

/// One garbage body.
fn body() -> impl Strategy<Value = Vec<u8>> {
    let method = prop_oneof![
        Just("tools/call".to_string()),
        Just("tools/list".to_string()),
        Just("initialize".to_string()),
        Just("ping".to_string()),
        Just("notifications/cancelled".to_string()),
        "[a-z/]{0,12}",
    ];
    let id = prop_oneof![Just(json!(1)), Just(json!("x")), Just(Value::Null), json_value(),];
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..64),
        json_value().prop_map(|v| v.to_string().into_bytes()),
        (id.clone(), tool_call()).prop_map(|(id, params)| {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
                .to_string()
                .into_bytes()
        }),
        (id, method, json_value()).prop_map(|(id, method, params)| {
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
                .to_string()
                .into_bytes()
        }),
        (tool_call(), 0usize..80).prop_map(|(params, cut)| {
            let text = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": params})
                .to_string();
            text.as_bytes()[..cut.min(text.len())].to_vec()
        }),
    ]
}

proptest! {
    // One sidecar and one `locus mcp` serve every case: what is checked is that garbage
    // leaves them answering. The run is bounded (a few seconds); shrinking is bounded too.
    #![proptest_config(ProptestConfig {
        cases: 160,
        max_shrink_iters: 32,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn garbage_bodies_then_a_valid_call_is_answered(
        bodies in proptest::collection::vec(body(), 1..6)
    ) {
        let (record, session, pid) = shared_sidecar();
        for b in &bodies {
            let a = post(record, Some(session), b);
            // An answer, never a crash or a server error.
            prop_assert!(a.status > 0 && a.status < 500, "{:?} for {:?}", a, String::from_utf8_lossy(b));
        }
        let valid = answered_correctly(record, session, *pid);
        prop_assert!(valid.is_ok(), "{:?}", valid);
        let mut mcp = shared_stdio().lock().unwrap_or_else(|e| e.into_inner());
        for b in &bodies {
            // The bytes as they are, invalid UTF-8 included (their own newlines split them
            // into more lines).
            mcp.send_bytes(b);
        }
        let r = mcp.call("bridge_status", json!({}));
        prop_assert_eq!(&r["structuredContent"]["ok"], &json!(true), "{}", r);
    }
}

/// The sidecar every case of the property test talks to (started once per test process, and
/// left to die with it: the test binary's exit closes its stdin).
fn shared_sidecar() -> &'static (Value, String, u32) {
    static SIDECAR: std::sync::OnceLock<(Value, String, u32)> = std::sync::OnceLock::new();
    SIDECAR.get_or_init(|| {
        let dirs = Box::leak(Box::new(Dirs::new("mcp-bodies-fuzz")));
        let (s, record) = start_sidecar(dirs, &dirs.workspace, "fuzzed-editor");
        let pid = s.pid();
        let session = initialize(&record);
        Box::leak(Box::new(s));
        (record, session, pid)
    })
}

fn shared_stdio() -> &'static std::sync::Mutex<StdioMcp> {
    static MCP: std::sync::OnceLock<std::sync::Mutex<StdioMcp>> = std::sync::OnceLock::new();
    MCP.get_or_init(|| {
        let dirs = Box::leak(Box::new(Dirs::new("mcp-bodies-fuzz-stdio")));
        let mut mcp = StdioMcp::start(dirs, &dirs.workspace, &[]);
        // The garbage carries small ids (1, 3, random ones); an error it draws must never be
        // taken for the answer to the test's own request.
        mcp.start_ids_at(1 << 40);
        std::sync::Mutex::new(mcp)
    })
}
