//! `--tools`: the families and tools a server offers, on `locus mcp` in-process, on the
//! sidecar of `locus lsp`, and through `locus mcp` forwarding to a sidecar that offers more.

mod lsp_support;
mod mcp_support;

use std::process::Command;

use mcp_support::{Dirs, StdioMcp, call, envelope, http_client, start_sidecar_with};
use serde_json::{Value, json};

fn names(list: &Value) -> Vec<String> {
    let tools = list["result"]["tools"].as_array().expect("a tools/list result");
    tools.iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
}

/// A refused call: an error envelope saying the tool is not offered and how to offer it.
fn assert_not_offered(envelope: &Value, tool: &str) {
    assert_eq!(envelope["ok"], false, "{envelope}");
    assert_eq!(envelope["error"]["code"], "E_UNSUPPORTED", "{envelope}");
    let message = envelope["error"]["message"].as_str().unwrap();
    assert!(message.contains(&format!("`{tool}` is not offered")), "{message}");
    assert!(envelope["error"]["hint"].as_str().unwrap().contains("--tools"), "{envelope}");
}

#[test]
fn in_process_only_the_chosen_families_and_tools_are_listed_and_called() {
    let dirs = Dirs::new("tools-in-process");
    let mut mcp = StdioMcp::start(
        &dirs,
        &dirs.workspace,
        &["--tools", "symbol,-symbol_search,bridge_status"],
    );
    let listed = names(&mcp.request("tools/list", json!({})));
    assert_eq!(listed, ["symbol_outline", "symbol_scope_at", "bridge_status"]);
    assert_not_offered(
        &mcp.call("debug_start", json!({"program": "x.py"}))["structuredContent"],
        "debug_start",
    );
    assert_not_offered(
        &mcp.call("symbol_search", json!({"query": "x"}))["structuredContent"],
        "symbol_search",
    );
    // What is offered still works.
    let status = mcp.call("bridge_status", json!({}));
    assert_eq!(status["structuredContent"]["ok"], true, "{status}");
    assert!(mcp.close().success());
}

#[test]
fn the_sidecar_offers_its_selection_and_locus_mcp_narrows_it_further() {
    let dirs = Dirs::new("tools-sidecar");
    let (_editor, record) = start_sidecar_with(
        &dirs,
        &dirs.workspace,
        "tools-editor",
        &["--tools", "editor,symbol,system"],
    );
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = http_client(&record).await;
        let listed = client.peer().list_all_tools().await.unwrap();
        assert!(
            listed.iter().all(|t| !t.name.starts_with("debug_") && !t.name.starts_with("dialog_"))
        );
        assert!(listed.iter().any(|t| t.name == "editor_get_context"));
        assert_not_offered(
            &envelope(&call(&client, "debug_status", json!({})).await),
            "debug_status",
        );
    });
    // `locus mcp --tools symbol` forwards to that sidecar and lists only the symbol tools of
    // what it offers; a tool the sidecar offers but `--tools` leaves out is refused here.
    let mut mcp = StdioMcp::start(&dirs, &dirs.workspace, &["--tools", "symbol"]);
    assert_eq!(
        names(&mcp.request("tools/list", json!({}))),
        ["symbol_outline", "symbol_scope_at", "symbol_search"]
    );
    assert_not_offered(
        &mcp.call("editor_get_context", json!({}))["structuredContent"],
        "editor_get_context",
    );
    let outline = mcp.call("symbol_outline", json!({"path": "nothing.py"}));
    assert_ne!(outline["structuredContent"]["error"]["code"], "E_UNSUPPORTED", "{outline}");
}

#[test]
fn an_unknown_family_is_refused_at_start_naming_the_families() {
    for command in ["mcp", "lsp"] {
        let out = Command::new(env!("CARGO_BIN_EXE_locus"))
            .args([command, "--tools", "editor,debugger"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(
                "`debugger` is neither a family of tools (editor, symbol, dialog, debug, system)"
            ),
            "{command}: {stderr}"
        );
    }
}
