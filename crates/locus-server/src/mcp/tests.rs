//! Fast tests of the MCP edge: an rmcp client talks to the server over an in-memory duplex
//! pipe, with the tools over a real editor state.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use locus_doc::{Position, PositionEncoding, Range};
use locus_tools::{
    Catalogue, Category, Cx, DEFAULT_TIMEOUT, Host, Options, Tool, ToolError, ToolSpec, WhenToUse,
};
use rmcp::model::{CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest};
use rmcp::service::{PeerRequestOptions, RunningService};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

use super::host::{EditorHost, SidecarInfo};
use super::server::{LocusServer, TIMEOUT_META};
use crate::state::{Change, CursorUpdate, Shared};

type Client = RunningService<RoleClient, ()>;

async fn connect(server: LocusServer) -> Client {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_io).await.expect("the client connects")
}

fn editor(state: &Shared) -> Arc<dyn Host> {
    let info = Arc::new(SidecarInfo {
        started: SystemTime::now(),
        url: "http://127.0.0.1:0/mcp".into(),
        editor: std::sync::Mutex::new(Some("test editor".into())),
        last_active_ms: 0.into(),
        link: std::sync::Mutex::new(None),
        served_channels: std::sync::Mutex::new(Vec::new()),
    });
    Arc::new(EditorHost::new(state.clone(), info, Default::default()))
}

fn server(catalogue: Catalogue, host: Arc<dyn Host>, timeout: Option<Duration>) -> LocusServer {
    LocusServer::new(Arc::new(catalogue), host, timeout)
}

fn all_tools() -> Catalogue {
    locus_tools::standard(Options { test_tools: true })
}

async fn call(client: &Client, name: &str, args: Value) -> CallToolResult {
    let mut request = CallToolRequestParams::new(name.to_string());
    request.arguments = args.as_object().cloned();
    client.peer().call_tool(request).await.expect("tools/call answers")
}

fn envelope(result: &CallToolResult) -> &Value {
    result.structured_content.as_ref().expect("every result carries the envelope")
}

const TS: &str = "export class UserService {\n  findUser(id: string) {\n    return id;\n  }\n}\n";
const URI: &str = "file:///nonexistent-locus/src/user.ts";

fn put_cursor(state: &Shared, line: u32, character: u32) {
    let update = CursorUpdate {
        version: None,
        position: Position::new(line, character),
        selections: vec![],
        encoding: PositionEncoding::Utf16,
    };
    state.with(|s| s.set_cursor(URI, update)).unwrap();
}

fn open_user_ts(state: &Shared) {
    state.with(|s| {
        s.open(URI, "typescript", 1, TS);
        s.set_active(Some(URI), true);
    });
    put_cursor(state, 2, 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_carries_the_guidance() {
    let client = connect(server(all_tools(), Arc::new(locus_tools::Detached::new()), None)).await;
    let tools = client.peer().list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for expected in [
        "editor_get_context",
        "symbol_outline",
        "symbol_scope_at",
        "bridge_status",
        "mcp_list_tools",
    ] {
        assert!(names.contains(&expected), "{expected} missing from {names:?}");
    }
    let t = tools.iter().find(|t| t.name == "editor_get_context").unwrap();
    // The description every client shows carries when_to_use.
    let description = t.description.as_deref().unwrap();
    assert!(
        description.starts_with(
            "Get current editor cursor position, selection, and containing symbol context.\n\nUSE FOR: understanding where the user is working"
        ),
        "{description}"
    );
    // `_meta` says only what neither the description nor the schemas say.
    let meta = serde_json::to_value(&t.meta).unwrap();
    assert_eq!(
        meta,
        json!({"locus/category": "editor", "locus/timeoutMs": 30000, "locus/system": false})
    );
    assert_eq!(t.annotations.as_ref().unwrap().read_only_hint, Some(true));
    let scope_at = tools.iter().find(|t| t.name == "symbol_scope_at").unwrap();
    assert_eq!(scope_at.input_schema["properties"]["line"]["examples"], json!([46]));
    assert_eq!(scope_at.input_schema["required"], json!(["path", "line"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn editor_get_context_reflects_the_cursor() {
    let state = Shared::new();
    open_user_ts(&state);
    let client = connect(server(all_tools(), editor(&state), None)).await;
    let result = call(&client, "editor_get_context", json!({})).await;
    assert_eq!(result.is_error, Some(false));
    let e = envelope(&result);
    assert_eq!(e["ok"], true);
    assert_eq!(e["data"], json!({}));
    let ctx = &e["editorContext"];
    assert_eq!(ctx["file"]["path"], "/nonexistent-locus/src/user.ts");
    assert_eq!(ctx["cursor"], json!({"line": 3, "character": 5}));
    assert_eq!(ctx["symbols"]["scopeHierarchy"], "Class:UserService > Method:findUser");
    let text = result.content[0].as_text().unwrap().text.clone();
    assert_eq!(
        text,
        "Cursor at /nonexistent-locus/src/user.ts:3:5 in Class:UserService > Method:findUser"
    );

    put_cursor(&state, 0, 0);
    let e = envelope(&call(&client, "editor_get_context", json!({})).await).clone();
    assert_eq!(e["editorContext"]["cursor"], json!({"line": 1, "character": 1}));
    assert_eq!(e["editorContext"]["symbols"]["scopeHierarchy"], "Class:UserService");

    // Every tool carries it; system tools do not.
    let e = envelope(
        &call(&client, "symbol_outline", json!({"path": "/nonexistent-locus/src/user.ts"})).await,
    )
    .clone();
    assert_eq!(
        e["data"]["file"]["textFrom"], "editor",
        "an open document is read from the editor: {e}"
    );
    assert!(e.get("editorContext").is_some());
    for system in ["bridge_status", "mcp_list_tools"] {
        let e = envelope(&call(&client, system, json!({})).await).clone();
        assert_eq!(e["ok"], true, "{e}");
        assert!(e.get("editorContext").is_none(), "{system}: {e}");
    }
    let status = envelope(&call(&client, "bridge_status", json!({})).await).clone();
    assert_eq!(status["data"]["activeEditor"], "/nonexistent-locus/src/user.ts");
    assert_eq!(status["data"]["documentsOpen"], 1);
    assert_eq!(status["data"]["editorsConnected"], 1);

    // No text editor left: no editorContext at all, and editor_get_context says why in its
    // data (Codex shows its model only that) and its summary, while succeeding.
    state.with(|s| s.set_active(None, false));
    let result = call(&client, "editor_get_context", json!({})).await;
    assert_eq!(result.is_error, Some(false));
    let e = envelope(&result);
    assert_eq!(e["ok"], true, "{e}");
    assert_eq!(e["data"]["noEditor"]["reason"], "no-text-editor", "{e}");
    assert!(e.get("editorContext").is_none(), "{e}");
    let text = result.content[0].as_text().map(|t| t.text.clone()).unwrap_or_default();
    assert!(text.starts_with("No editor is active"), "{text}");
}

/// The envelope's members and its editorContext as the agent reads them, byte for byte: a
/// file with a selection inside a method, then an untitled buffer while the user's focus is
/// elsewhere. The expected text is read as JSON first, so its members come in the order this
/// build's `serde_json` keeps (sorted, or as written when `preserve_order` is on).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_editor_context_reaches_the_agent_byte_for_byte() {
    let state = Shared::new();
    open_user_ts(&state);
    let update = CursorUpdate {
        version: None,
        position: Position::new(2, 10),
        selections: vec![Range { start: Position::new(2, 4), end: Position::new(2, 10) }],
        encoding: PositionEncoding::Utf16,
    };
    state.with(|s| s.set_cursor(URI, update)).unwrap();
    let client = connect(server(all_tools(), editor(&state), None)).await;
    let result = call(&client, "editor_get_context", json!({})).await;
    assert_eq!(
        result.content[0].as_text().unwrap().text,
        "Cursor at /nonexistent-locus/src/user.ts:3:11 in Class:UserService > Method:findUser, 6 characters selected"
    );
    let e = envelope(&result).clone();
    let members = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    let written = json!({"ok": 0, "type": 0, "data": 0, "editorContext": 0, "meta": 0});
    assert_eq!(members(&e), members(&written));
    assert_eq!(
        e["editorContext"].to_string(),
        as_read(concat!(
            r#"{"file":{"path":"/nonexistent-locus/src/user.ts","name":"user.ts","languageId":"typescript","lineCount":6,"isDirty":true,"uri":"file:///nonexistent-locus/src/user.ts"},"#,
            r#""cursor":{"line":3,"character":11},"#,
            r#""selection":{"isEmpty":false,"text":"return","length":6,"range":{"start":{"line":3,"character":5},"end":{"line":3,"character":11}}},"#,
            r#""symbols":{"totalInDocument":2,"containingScopes":[{"name":"UserService","kind":"Class","range":{"start":1,"end":5,"length":5}},{"name":"findUser","kind":"Method","range":{"start":2,"end":4,"length":3}}],"#,
            r#""immediateScope":{"name":"findUser","kind":"Method","range":{"start":2,"end":4,"length":3}},"scopeHierarchy":"Class:UserService > Method:findUser","source":"tree-sitter"},"#,
            r#""focused":true}"#,
        ))
    );
    state.with(|s| {
        s.open("untitled:Untitled-1", "plaintext", 1, "notes\n");
        s.set_active(Some("untitled:Untitled-1"), false);
    });
    let result = call(&client, "editor_get_context", json!({})).await;
    assert_eq!(result.content[0].as_text().unwrap().text, "Cursor at ?:1:1 at top level");
    let e = envelope(&result).clone();
    assert_eq!(
        e["editorContext"].to_string(),
        as_read(concat!(
            r#"{"file":{"path":null,"name":"Untitled-1","languageId":"plaintext","lineCount":2,"isDirty":true,"uri":"untitled:Untitled-1"},"#,
            r#""cursor":{"line":1,"character":1},"selection":{"isEmpty":true,"text":null,"range":null},"#,
            r#""symbols":{"totalInDocument":0,"containingScopes":[],"immediateScope":null,"scopeHierarchy":"","source":"none","warning":"No symbol provider registered for this language"},"#,
            r#""focused":false}"#,
        ))
    );
}

/// `text` as this build's `serde_json` writes it again.
fn as_read(text: &str) -> String {
    serde_json::from_str::<Value>(text).expect("the expected text is JSON").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_call_keeps_the_context_of_its_start() {
    let state = Shared::new();
    open_user_ts(&state);
    let client = Arc::new(connect(server(all_tools(), editor(&state), None)).await);
    let slow = {
        let client = client.clone();
        tokio::spawn(async move { call(&client, "test_sleep", json!({"ms": 400})).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    // An edit and a cursor move while the call runs.
    let change = Change {
        range: Some(Range { start: Position::new(0, 0), end: Position::new(0, 0) }),
        text: "// moved\n".into(),
    };
    state.with(|s| s.change(URI, Some(2), &[change], PositionEncoding::Utf16)).unwrap();
    put_cursor(&state, 0, 3);
    let result = slow.await.unwrap();
    let e = envelope(&result);
    assert_eq!(e["ok"], true, "{e}");
    assert_eq!(e["editorContext"]["cursor"], json!({"line": 3, "character": 5}));
    assert_eq!(e["editorContext"]["file"]["lineCount"], 6);
    assert_eq!(
        e["editorContext"]["symbols"]["scopeHierarchy"],
        "Class:UserService > Method:findUser"
    );
    let now = envelope(&call(&client, "editor_get_context", json!({})).await).clone();
    assert_eq!(now["editorContext"]["cursor"], json!({"line": 1, "character": 4}));
    assert_eq!(now["editorContext"]["file"]["lineCount"], 7);
}

/// A tool that waits until it is dropped, and says so.
struct Hang {
    dropped: Arc<AtomicBool>,
}

struct SetOnDrop(Arc<AtomicBool>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl Tool for Hang {
    type Params = locus_tools::tools::NoParams;
    type Output = Value;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "test_hang",
            title: "Hang",
            category: Category::Test,
            description: "Wait until cancelled, for the cancellation test",
            when_to_use: WhenToUse {
                use_for: &["tests"],
                dont_use_for: &["anything else"],
                patterns: &["none"],
            },
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: false,
            effect: locus_tools::Effect::Reads,
        }
    }

    async fn run(&self, _: Self::Params, _: Cx) -> Result<Value, ToolError> {
        let _guard = SetOnDrop(self.dropped.clone());
        std::future::pending::<()>().await;
        Ok(Value::Null)
    }

    fn summary(&self, _: &Value, _: &Cx) -> String {
        String::new()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notifications_cancelled_stops_the_tool() {
    let dropped = Arc::new(AtomicBool::new(false));
    let mut catalogue = all_tools();
    catalogue.register(Hang { dropped: dropped.clone() });
    let client = connect(server(catalogue, Arc::new(locus_tools::Detached::new()), None)).await;
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(CallToolRequestParams::new(
        "test_hang",
    )));
    let handle = client
        .peer()
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!dropped.load(Ordering::SeqCst));
    handle.cancel(Some("test".into())).await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while !dropped.load(Ordering::SeqCst) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the tool was not stopped by notifications/cancelled"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The server is still serving.
    let e = envelope(&call(&client, "bridge_status", json!({})).await).clone();
    assert_eq!(e["ok"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeouts_from_the_server_and_from_the_request() {
    let client = connect(server(
        all_tools(),
        Arc::new(locus_tools::Detached::new()),
        Some(Duration::from_millis(50)),
    ))
    .await;
    let e = envelope(&call(&client, "test_sleep", json!({"ms": 3000})).await).clone();
    assert_eq!(e["error"]["code"], "E_TIMEOUT", "{e}");
    assert_eq!(e["error"]["details"]["timeoutMs"], 50);

    let client = connect(server(all_tools(), Arc::new(locus_tools::Detached::new()), None)).await;
    let mut request = CallToolRequestParams::new("test_sleep");
    request.arguments = json!({"ms": 3000}).as_object().cloned();
    let mut meta = serde_json::Map::new();
    meta.insert(TIMEOUT_META.into(), json!(80));
    request.meta = Some(rmcp::model::RequestMetaObject(rmcp::model::MetaObject(meta)));
    let result = client.peer().call_tool(request).await.unwrap();
    assert_eq!(envelope(&result)["error"]["details"]["timeoutMs"], 80);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_params_are_tool_errors_with_a_hint() {
    let client = connect(server(all_tools(), Arc::new(locus_tools::Detached::new()), None)).await;
    let result = call(&client, "symbol_scope_at", json!({"path": "x.ts", "line": "ten"})).await;
    assert_eq!(result.is_error, Some(true));
    let e = envelope(&result);
    assert_eq!(e["type"], "error");
    assert_eq!(e["error"]["code"], "E_INVALID_PARAMS");
    assert_eq!(e["error"]["details"]["parameter"], "line");
    assert!(
        result.content[0].as_text().unwrap().text.starts_with("E_INVALID_PARAMS: parameter `line`")
    );
    let e = envelope(&call(&client, "nope_nothing", json!({})).await).clone();
    assert_eq!(e["error"]["code"], "E_NOT_FOUND");
}

/// `locus mcp --timeout` replaces the catalogue's default only: the waiting debug tools keep
/// their 90 s, and a call's own `_meta` timeout wins over both (docs/reference/envelope.md).
#[test]
fn the_timeout_option_replaces_only_the_default() {
    use super::server::effective_timeout;
    let catalogue = locus_tools::standard(Options::from_env());
    let option = Some(Duration::from_millis(200));
    let own = Some(Duration::from_secs(5));
    assert_eq!(effective_timeout(&catalogue, "symbol_outline", None, option), option);
    assert_eq!(effective_timeout(&catalogue, "debug_wait_for_stop", None, option), None);
    assert_eq!(effective_timeout(&catalogue, "debug_wait_for_stop", own, option), own);
    assert_eq!(effective_timeout(&catalogue, "symbol_outline", own, option), own);
    assert_eq!(effective_timeout(&catalogue, "symbol_outline", None, None), None);
}

// The small edges, through an rmcp client.

/// A tool with a bug: it panics.
struct Panics;

impl Tool for Panics {
    type Params = locus_tools::tools::NoParams;
    type Output = Value;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "test_panic",
            title: "Panic",
            category: Category::Test,
            description: "Panic, for the test that a bug in a tool fails only its own call",
            when_to_use: WhenToUse {
                use_for: &["tests"],
                dont_use_for: &["anything else"],
                patterns: &["none"],
            },
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: false,
            effect: locus_tools::Effect::Reads,
        }
    }

    async fn run(&self, _: Self::Params, _: Cx) -> Result<Value, ToolError> {
        tokio::task::yield_now().await;
        panic!("a bug in test_panic")
    }

    fn summary(&self, _: &Value, _: &Cx) -> String {
        String::new()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_tool_answers_e_internal_and_the_next_call_works() {
    let state = Shared::new();
    open_user_ts(&state);
    let mut catalogue = all_tools();
    catalogue.register(Panics);
    let client = connect(server(catalogue, editor(&state), None)).await;
    for _ in 0..2 {
        let result = call(&client, "test_panic", json!({})).await;
        assert_eq!(result.is_error, Some(true));
        let e = envelope(&result);
        assert_eq!(e["error"]["code"], "E_INTERNAL", "{e}");
        assert!(e["error"]["message"].as_str().unwrap().contains("a bug in test_panic"), "{e}");
        // The envelope is whole: the context of the call's start rides on it.
        assert_eq!(e["editorContext"]["cursor"], json!({"line": 3, "character": 5}), "{e}");
        // The next call works, and the editor state is as it was.
        let e = envelope(&call(&client, "editor_get_context", json!({})).await).clone();
        assert_eq!(e["ok"], true, "{e}");
        assert_eq!(
            e["editorContext"]["symbols"]["scopeHierarchy"],
            "Class:UserService > Method:findUser"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_has_an_output_schema_of_the_envelope() {
    let client = connect(server(all_tools(), Arc::new(locus_tools::Detached::new()), None)).await;
    let tools = client.peer().list_all_tools().await.unwrap();
    for t in &tools {
        let schema =
            t.output_schema.as_ref().unwrap_or_else(|| panic!("{} has no outputSchema", t.name));
        assert_eq!(schema["type"], "object", "{}", t.name);
        assert_eq!(schema["required"], json!(["ok", "type", "meta"]), "{}", t.name);
        for member in ["data", "error", "editorContext", "debugContext", "meta"] {
            assert!(schema["properties"].get(member).is_some(), "{}: no {member}", t.name);
        }
        let description = t.description.as_deref().unwrap_or_default();
        assert!(description.contains("USE FOR: "), "{}: {description}", t.name);
    }
    // A tool's own data schema, where it gives one (recursive types through `$defs`).
    let outline = tools.iter().find(|t| t.name == "symbol_outline").unwrap();
    let schema = outline.output_schema.as_ref().unwrap();
    assert_eq!(
        schema["properties"]["data"]["required"],
        json!(["file", "source", "totalInDocument", "shown", "symbols"])
    );
    assert_eq!(
        schema["$defs"]["OutlineSymbol"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/OutlineSymbol"
    );
}

/// A scratch directory with a 25-line Python file.
fn scratch_python() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("locus-item6-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::from(
        "class Shop:\n    def buy(self):\n        return 1\n\n    def sell(self):\n        pass\n\n",
    );
    while text.lines().count() < 23 {
        text.push_str("x = 1\n");
    }
    text.push_str("def last():\n    pass");
    assert_eq!(text.lines().count(), 25);
    std::fs::write(dir.join("shop.py"), text).unwrap();
    std::fs::canonicalize(dir).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_past_the_end_and_out_of_range_name_the_parameter() {
    let dir = scratch_python();
    let path = dir.join("shop.py").display().to_string();
    let client = connect(server(all_tools(), Arc::new(locus_tools::Detached::new()), None)).await;
    let e = envelope(&call(&client, "symbol_scope_at", json!({"path": path, "line": 9999})).await)
        .clone();
    assert_eq!(e["error"]["code"], "E_INVALID_PARAMS", "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("which has 25 lines"), "{e}");
    assert_eq!(e["error"]["details"]["lineCount"], 25, "{e}");
    assert_eq!(e["error"]["details"]["parameter"], "line", "{e}");
    // The last line is still a line.
    let e = envelope(&call(&client, "symbol_scope_at", json!({"path": path, "line": 25})).await)
        .clone();
    assert_eq!(e["data"]["scopeHierarchy"], "Function:last", "{e}");
    let e = envelope(
        &call(&client, "symbol_scope_at", json!({"path": path, "line": 1u64 << 40})).await,
    )
    .clone();
    assert_eq!(e["error"]["code"], "E_INVALID_PARAMS", "{e}");
    assert_eq!(e["error"]["details"]["parameter"], "line", "{e}");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("parameter `line` is 1099511627776, more than 4294967295"),
        "{e}"
    );
    // An optional parameter given as null is omitted, as the schema allows.
    let e = envelope(&call(&client, "mcp_list_tools", json!({"category": null})).await).clone();
    assert_eq!(e["ok"], true, "{e}");
    let e = envelope(
        &call(&client, "symbol_scope_at", json!({"path": path, "line": 3, "character": null}))
            .await,
    )
    .clone();
    assert_eq!(e["data"]["scopeHierarchy"], "Class:Shop > Method:buy", "{e}");
    // A required one is not.
    let e = envelope(&call(&client, "symbol_scope_at", json!({"path": path, "line": null})).await)
        .clone();
    assert_eq!(e["error"]["details"]["parameter"], "line", "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_found_lists_each_place_looked_once() {
    let dir = scratch_python();
    let cwd = std::env::current_dir().unwrap();
    let state = Shared::new();
    // The workspace folder is the working directory, as when an editor starts Locus in it.
    state.with(|s| s.set_folders(vec![cwd.clone(), dir.clone(), cwd.clone()]));
    let client = connect(server(all_tools(), editor(&state), None)).await;
    let e = envelope(&call(&client, "symbol_outline", json!({"path": "no/such.py"})).await).clone();
    assert_eq!(e["error"]["code"], "E_NOT_FOUND", "{e}");
    let looked: Vec<&str> = e["error"]["details"]["looked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let expected = [cwd.join("no/such.py"), dir.join("no/such.py")];
    let expected: Vec<String> = expected.iter().map(|p| p.display().to_string()).collect();
    assert_eq!(looked, expected, "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn symbol_outline_takes_depth_kind_and_count_limits() {
    let dir = scratch_python();
    let path = dir.join("shop.py").display().to_string();
    let client = connect(server(all_tools(), Arc::new(locus_tools::Detached::new()), None)).await;
    let outline = |args: Value| {
        let client = &client;
        async move { envelope(&call(client, "symbol_outline", args).await).clone() }
    };
    let names = |symbols: &Value| -> Vec<String> {
        fn walk(s: &Value, depth: usize, out: &mut Vec<String>) {
            for s in s.as_array().into_iter().flatten() {
                out.push(format!(
                    "{}{}:{}",
                    "  ".repeat(depth),
                    s["kind"].as_str().unwrap(),
                    s["name"].as_str().unwrap()
                ));
                walk(&s["children"], depth + 1, out);
            }
        }
        let mut out = Vec::new();
        walk(symbols, 0, &mut out);
        out
    };
    let all = outline(json!({"path": path})).await;
    assert_eq!(all["data"]["totalInDocument"], all["data"]["shown"], "{all}");
    let top = outline(json!({"path": path, "maxDepth": 1})).await;
    assert_eq!(
        names(&top["data"]["symbols"]),
        ["Class:Shop", "Variable:x", "Function:last"],
        "{top}"
    );
    assert_eq!(top["data"]["shown"], 3);
    let methods = outline(json!({"path": path, "kinds": ["method"]})).await;
    assert_eq!(
        names(&methods["data"]["symbols"]),
        ["Class:Shop", "  Method:buy", "  Method:sell"],
        "{methods}"
    );
    let first = outline(json!({"path": path, "maxSymbols": 2})).await;
    assert_eq!(names(&first["data"]["symbols"]), ["Class:Shop", "  Method:buy"], "{first}");
    assert_eq!(first["data"]["shown"], 2);
    let bad = outline(json!({"path": path, "kinds": ["Method", "Gizmo"]})).await;
    assert_eq!(bad["error"]["code"], "E_INVALID_PARAMS", "{bad}");
    assert_eq!(bad["error"]["details"]["parameter"], "kinds", "{bad}");
    let bad = outline(json!({"path": path, "maxDepth": 0})).await;
    assert_eq!(bad["error"]["details"]["parameter"], "maxDepth", "{bad}");
}
