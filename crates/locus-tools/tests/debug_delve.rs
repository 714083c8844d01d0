//! The debug family through the catalogue, in-process, against the real Delve (`dlv dap`, a
//! TCP adapter; Debian's `delve` and `golang-go`, installed by
//! `scripts/install-debug-adapters.sh`) on a Go module. A missing Delve fails the test; it
//! never skips.

mod debug_support;

use debug_support::{Harness, Workflow};
use locus_dap::testing;
use serde_json::json;

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn the_debugging_workflow_on_delve() {
    testing::require("dlv");
    let module = testing::program("go");
    let source = module.join("main.go");
    let h = Harness::new();
    // Delve sends no exit code: the program's end is `exited` (checked by `run`) with an
    // unknown status, so there is no exit status to check.
    Workflow {
        source: &source,
        line: 11,
        // The adapter by the file's language; Delve builds the module in its folder.
        start: json!({"program": source, "cwd": module}),
        adapter: "delve",
        first_stop_ms: 60000,
        scope_hierarchy: Some("Function:total"),
        expression: "acc + item * 10",
    }
    .run(&h);
    h.ok("debug_stop", json!({}));
}
