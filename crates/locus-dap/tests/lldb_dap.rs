//! End to end against the real lldb-dap (Debian's `lldb-19`, installed by
//! `scripts/install-debug-adapters.sh`) on `tests/programs/loop.c`, built here by gcc with
//! `-g -O0`. A missing lldb-dap or gcc fails the test with the install command; it never skips.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use locus_dap::{Error, Registry, Resume, Session, SessionConfig, SourceBreakpoint, testing};
use serde_json::json;
use support::{locals, value};

const WAIT: Duration = Duration::from_secs(30);

/// The program's source and its binary, built by gcc.
fn build() -> (PathBuf, PathBuf) {
    testing::require("lldb-dap-19");
    (testing::program("loop.c"), testing::build_c("loop.c"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
async fn the_debugging_workflow_on_lldb_dap() {
    let (source, binary) = build();
    let registry = Registry::builtin();
    let session =
        match Session::start(registry.get("lldb-dap").unwrap(), SessionConfig::standard()).await {
            Ok(s) => s,
            Err(e) => panic!("{e}. {} (or run scripts/install-debug-adapters.sh)", e.hint()),
        };
    let set = session.set_breakpoints(&source, &[SourceBreakpoint::at(6)]).await.unwrap();
    let bp = set[0].id;
    session
        .launch(&json!({"program": binary, "cwd": binary.parent(), "stopOnEntry": false}))
        .await
        .unwrap();

    let stop = session.wait_for_stop(0, WAIT).await.unwrap();
    assert_eq!(stop.reason, "breakpoint");
    let at = stop.position.clone().unwrap();
    assert_eq!((at.path.as_deref(), at.line), (Some(source.as_path()), 6));
    assert!(at.function.contains("total"), "{at:?}");
    assert_eq!(stop.breakpoints, [bp]);
    assert_eq!(session.snapshot().breakpoints[0].hit_count, 1);

    let vars = locals(&session).await;
    assert_eq!(value(&vars, "acc"), "0");
    assert_eq!(value(&vars, "i"), "0");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert!(frames[1].position.function.contains("main"), "{frames:?}");
    let sum = session.evaluate("acc + items[i] * 10", Some(frames[0].id), "watch").await.unwrap();
    assert_eq!(sum.value, "30");

    let step = session.step(Resume::Next, None, WAIT).await.unwrap();
    assert_eq!(step.position.as_ref().unwrap().line, 7);
    assert_eq!(value(&locals(&session).await, "acc"), "3");
    assert_eq!(session.scopes(frames[0].id).await.unwrap_err().code(), "E_STALE_REFERENCE");

    let cond = SourceBreakpoint { condition: Some("i == 2".into()), ..SourceBreakpoint::at(6) };
    session.set_breakpoints(&source, &[cond]).await.unwrap();
    let stop = session.step(Resume::Continue, None, WAIT).await.unwrap();
    assert_eq!(stop.position.as_ref().unwrap().line, 6);
    assert_eq!(value(&locals(&session).await, "i"), "2", "the condition held");
    assert_eq!(session.snapshot().breakpoints[0].hit_count, 2);

    session.set_breakpoints(&source, &[]).await.unwrap();
    let before = session.resume(Resume::Continue, None).await.unwrap();
    let end = session.wait_for_stop(before, WAIT).await.unwrap_err();
    assert_eq!(
        end,
        Error::SessionEnded { reason: "the program exited with code 5".into(), exit_code: Some(5) }
    );
    let output = session.read_output();
    let all = format!("{}{}", output.stdout, output.stderr);
    assert!(all.contains("iter 2 acc=12"), "{output:?}");
    session.disconnect(Duration::from_secs(5)).await.unwrap();
    let _ = std::fs::remove_dir_all(binary.parent().unwrap());
}
