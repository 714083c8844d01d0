//! The debug family through the catalogue, in-process, against the real lldb-dap (Debian's
//! `lldb-19`, installed by `scripts/install-debug-adapters.sh`) on a C program built here by
//! gcc with `-g -O0`. A missing lldb-dap or gcc fails the test; it never skips.

mod debug_support;

use debug_support::Harness;
use locus_dap::testing;
use serde_json::json;

#[test]
fn the_debugging_workflow_on_lldb_dap() {
    testing::require("lldb-dap-19");
    let source = testing::program("loop.c");
    let binary = testing::build_c("loop.c");
    let h = Harness::new();
    let call = |name: &str, args| h.ok(name, args);

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
