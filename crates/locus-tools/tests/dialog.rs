//! The dialog tools over a fixture `$HOME` (the one `locus-dialog` tests with): envelopes,
//! data shapes and error codes as agents see them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use locus_context::EditorContext;
use locus_dialog::{Recall, Stores};
use locus_doc::Document;
use locus_tools::tools::dialog;
use locus_tools::{CallOptions, Catalogue, Detached, Host, HostStatus};
use serde_json::{Value, json};

/// A host without an editor whose workspace is `/home/ada/shop`.
struct Shop;

impl Host for Shop {
    fn editor_context(&self) -> Result<Option<EditorContext>, String> {
        Ok(None)
    }
    fn status(&self) -> HostStatus {
        let mut s = Detached::new().status();
        s.workspace_folders = vec![PathBuf::from("/home/ada/shop")];
        s
    }
    fn document(&self, _: &Path) -> Option<(Document, String)> {
        None
    }
    fn warn(&self, _: &str) {}
}

fn catalogue() -> Arc<Catalogue> {
    let home =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../locus-dialog/tests/fixtures/home");
    let mut c = Catalogue::new();
    dialog::register(&mut c, Arc::new(Recall::new(Stores::under_home(&home))));
    Arc::new(c)
}

fn call(name: &str, args: Value) -> Value {
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let host: Arc<dyn Host> = Arc::new(Shop);
    rt.block_on(catalogue().call(&host, name, args, CallOptions::default())).envelope.to_json()
}

#[test]
fn first_request_of_the_current_dialog() {
    let v = call("dialog_get_first_request", json!({}));
    assert_eq!(v["ok"], true, "{v}");
    let d = &v["data"];
    assert_eq!(d["sessionId"], "0199c0de-0000-7000-8000-000000000004");
    assert_eq!(d["source"], "codex");
    assert_eq!(
        d["firstRequest"],
        "Make checkout idempotent: a retried payment must not charge twice."
    );
    assert_eq!(d["timestamp"], "2025-10-30T09:00:01.000Z");
    assert_eq!(d["requestsCount"], 3);
    assert_eq!(d["compacted"], true);
    assert!(v.get("editorContext").is_none());
}

#[test]
fn a_request_by_index_and_session() {
    let v = call(
        "dialog_get_request",
        json!({"index": 2, "sessionId": "c1a0de00-0000-4000-8000-000000000001"}),
    );
    let d = &v["data"];
    assert_eq!(d["request"], "Here is the mockup [Image #1]; match its layout.", "{v}");
    assert_eq!(d["index"], 2);
    assert_eq!(d["totalRequests"], 5);
    assert_eq!(d["imagesOmitted"], 1);
    assert_eq!(d["source"], "claude-code");
    assert_eq!(
        d["warnings"].as_array().unwrap().len(),
        3,
        "corrupt, unknown and incomplete lines: {v}"
    );
}

#[test]
fn requests_since_the_last_compaction() {
    let v = call(
        "dialog_get_requests",
        json!({"sessionId": "c1a0de00-0000-4000-8000-000000000001", "sinceCompaction": true}),
    );
    let d = &v["data"];
    let indexes: Vec<u64> =
        d["requests"].as_array().unwrap().iter().map(|r| r["index"].as_u64().unwrap()).collect();
    assert_eq!(indexes, [3, 4, 5], "{v}");
    assert_eq!(d["lastCompactedAt"], "2025-10-29T11:00:00.000Z");
    let v = call(
        "dialog_get_requests",
        json!({"sessionId": "c1a0de00-0000-4000-8000-000000000001", "limit": 2}),
    );
    assert_eq!(v["data"]["requests"][0]["index"], 4, "the most recent two: {v}");
}

#[test]
fn sessions_are_listed_newest_first() {
    let v = call("dialog_list_sessions", json!({"limit": 3}));
    let d = &v["data"];
    assert_eq!(d["count"], 3, "{v}");
    let ids: Vec<&str> = d["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["sessionId"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "0199c0de-0000-7000-8000-000000000004",
            "c1a0de00-0000-4000-8000-000000000001",
            "c0b1107a-0000-4000-8000-00000000000a"
        ]
    );
    assert_eq!(d["sessions"][1]["title"], "Cart in cents");
    assert_eq!(d["sessions"][1]["compactions"], 1);
    let v = call("dialog_list_sessions", json!({"source": "gemini"}));
    assert!(
        v["data"]["sessions"].as_array().unwrap().iter().all(|s| s["source"] == "gemini"),
        "{v}"
    );
    let v = call("dialog_list_sessions", json!({"source": "cursor"}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{v}");
}

#[test]
fn errors_have_the_contract_messages() {
    let cases = [
        (
            "dialog_get_request",
            json!({"index": 0}),
            "E_INVALID_PARAMS",
            "Index must be 1 or greater",
        ),
        (
            "dialog_get_request",
            json!({"index": 9}),
            "E_INVALID_PARAMS",
            "Index 9 exceeds total requests (3)",
        ),
        (
            "dialog_get_first_request",
            json!({"sessionId": "nope"}),
            "E_NOT_FOUND",
            "Session not found: nope",
        ),
        (
            "dialog_get_first_request",
            json!({"sessionId": "c1a0de00-0000-4000-8000-0000000000e0"}),
            "E_NOT_FOUND",
            "First request not available",
        ),
        (
            "dialog_get_first_request",
            json!({"sessionId": "c0b1107a-0000-4000-8000-0000000000ff"}),
            "E_UNSUPPORTED",
            "Chat data not available for session",
        ),
    ];
    for (tool, args, code, message) in cases {
        let v = call(tool, args.clone());
        assert_eq!(v["error"]["code"], code, "{tool} {args}: {v}");
        assert_eq!(v["error"]["message"], message, "{tool} {args}: {v}");
        assert!(!v["error"]["hint"].as_str().unwrap().is_empty());
    }
}
