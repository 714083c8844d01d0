//! The debug family through the catalogue, in-process, against the real lldb-dap (Debian's
//! `lldb-19`, installed by `scripts/install-debug-adapters.sh`) on a C program built here by
//! gcc with `-g -O0`. A missing lldb-dap or gcc fails the test; it never skips.

mod debug_support;

use debug_support::{Harness, Workflow};
use locus_dap::testing;
use serde_json::json;

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn the_debugging_workflow_on_lldb_dap() {
    testing::require("lldb-dap-19");
    let source = testing::program("loop.c");
    let binary = testing::build_c("loop.c");
    let h = Harness::new();
    let ran = Workflow {
        source: &source,
        line: 6,
        // A binary says nothing of its language: the adapter is named.
        start: json!({"program": binary, "adapter": "lldb-dap"}),
        adapter: "lldb-dap",
        first_stop_ms: 30000,
        // lldb-dap names functions with their signature: checked below by part.
        scope_hierarchy: None,
        expression: "acc + items[i] * 10",
    }
    .run(&h);
    let at = &ran.stop["debugContext"]["currentPosition"];
    assert!(at["function"].as_str().unwrap().contains("total"), "{at:#}");
    assert!(at["scopeHierarchy"].as_str().unwrap().contains("total"), "{at:#}");
    assert_eq!(ran.end["data"]["exitStatus"], 5);
    h.ok("debug_stop", json!({}));
    let _ = std::fs::remove_dir_all(binary.parent().unwrap());
}
