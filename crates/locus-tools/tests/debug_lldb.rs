//! The debug family through the catalogue, in-process, against the real lldb-dap (Debian's
//! `lldb-19`, installed by `scripts/install-debug-adapters.sh`) on a C program built here by
//! gcc with `-g -O0`. A missing lldb-dap or gcc fails the test; it never skips.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use locus_tools::tools::debug::{self, Lookup};
use locus_tools::{CallOptions, Catalogue, Detached, Host};
use serde_json::{Value, json};

fn build() -> (PathBuf, PathBuf) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/debug_programs/loop.c")
        .canonicalize()
        .unwrap();
    let dir = std::env::temp_dir().join(format!("locus-tools-lldb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join("loop");
    let built = std::process::Command::new("gcc")
        .args(["-g", "-O0", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap_or_else(|e| panic!("gcc: {e}; run scripts/install-debug-adapters.sh"));
    assert!(built.success(), "gcc failed to build {}", source.display());
    (source, binary)
}

#[test]
fn the_debugging_workflow_on_lldb_dap() {
    let (source, binary) = build();
    let mut c = Catalogue::new();
    debug::register(&mut c, Lookup::default());
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

    call("breakpoint_set", json!({"path": source, "line": 6}));
    // A binary says nothing of its language: the adapter is named.
    let v = call("debug_start", json!({"program": binary, "adapter": "lldb-dap"}));
    assert_eq!(v["data"]["adapter"], "lldb-dap");
    let v = call("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    assert_eq!(v["data"]["position"]["line"], 6, "{v:#}");
    let ctx = &v["debugContext"];
    assert!(ctx["currentPosition"]["function"].as_str().unwrap().contains("total"), "{ctx:#}");
    assert!(
        ctx["currentPosition"]["scopeHierarchy"].as_str().unwrap().contains("total"),
        "{ctx:#}"
    );
    assert_eq!(ctx["debuggerState"]["currentBreakpoint"]["hitCount"], 1);
    let locals = ctx["localContext"]["locals"].as_array().unwrap();
    assert!(locals.iter().any(|l| l["name"] == "acc" && l["value"] == "0"), "{ctx:#}");
    let v = call("expression_evaluate", json!({"expression": "acc + items[i] * 10"}));
    assert_eq!(v["data"]["result"], "30");
    let v = call("debug_step_over", json!({}));
    assert_eq!(v["data"]["to"]["line"], 7);
    assert_eq!(
        v["data"]["changedVariables"],
        json!([{"name": "acc", "before": "0", "after": "3"}])
    );
    call("breakpoint_clear", json!({}));
    let v = call("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
    assert_eq!(v["data"]["state"], "exited", "{v:#}");
    assert_eq!(v["data"]["exitStatus"], 5);
    call("debug_stop", json!({}));
    let _ = std::fs::remove_dir_all(binary.parent().unwrap());
}
