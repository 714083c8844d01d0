//! The debug family through the catalogue, in-process, against the real Delve (`dlv dap`, a
//! TCP adapter; Debian's `delve` and `golang-go`, installed by
//! `scripts/install-debug-adapters.sh`) on a Go module. A missing Delve fails the test; it
//! never skips.

mod debug_support;

use debug_support::Harness;
use locus_dap::testing;
use serde_json::json;

#[test]
fn the_debugging_workflow_on_delve() {
    testing::require("dlv");
    let module = testing::program("go");
    let source = module.join("main.go");
    let h = Harness::new();
    let call = |name: &str, args| h.ok(name, args);

    call("breakpoint_set", json!({"path": source, "line": 11}));
    // The adapter by the file's language; Delve builds the module in its folder.
    let v = call("debug_start", json!({"program": source, "cwd": module}));
    assert_eq!(v["data"]["adapter"], "delve");
    let v = call("debug_wait_for_stop", json!({"timeoutMs": 60000}));
    assert_eq!(v["data"]["position"]["line"], 11, "{v:#}");
    let ctx = &v["debugContext"];
    assert_eq!(ctx["currentPosition"]["scopeHierarchy"], "Function:total", "{ctx:#}");
    assert_eq!(ctx["debuggerState"]["currentBreakpoint"]["hitCount"], 1, "{ctx:#}");
    let locals = ctx["localContext"]["locals"].as_array().unwrap();
    assert!(locals.iter().any(|l| l["name"] == "acc" && l["value"] == "0"), "{ctx:#}");
    let v = call("expression_evaluate", json!({"expression": "acc + item * 10"}));
    assert_eq!(v["data"]["result"], "30");
    let v = call("debug_step_over", json!({}));
    assert_eq!(v["data"]["to"]["line"], 12);
    assert_eq!(
        v["data"]["changedVariables"],
        json!([{"name": "acc", "before": "0", "after": "3"}])
    );
    call("breakpoint_clear", json!({}));
    // Delve sends no exit code: the program's end is `exited` with an unknown status.
    let v = call("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
    assert_eq!(v["data"]["state"], "exited", "{v:#}");
    call("debug_stop", json!({}));
}
