//! End to end against the real Delve (`dlv dap`, Debian's `delve` with `golang-go`, installed
//! by `scripts/install-debug-adapters.sh`) on `tests/programs/go`: a TCP adapter whose port
//! is printed, `seq: 0` everywhere, no `exited` event, and the program's output on dlv's own
//! stdout. A missing dlv fails the test with the install command; it never skips.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use locus_dap::{Registry, Resume, Session, SessionConfig, SourceBreakpoint, testing};
use serde_json::json;
use support::{locals, stdout_until, value};

/// Building the program is part of the launch: generous.
const WAIT: Duration = Duration::from_secs(60);

fn module() -> PathBuf {
    testing::require("dlv");
    testing::program("go")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
async fn the_debugging_workflow_on_delve() {
    let module = module();
    let source = module.join("main.go");
    let mut config = SessionConfig::standard();
    // Delve runs in the module's folder; the build goes into a cache of its own.
    config.client.cwd = Some(module.clone());
    let cache = std::env::temp_dir().join("locus-dap-go-cache");
    config.client.env.push(("GOCACHE".into(), cache.display().to_string()));
    config.handshake_timeout = WAIT;
    config.client.request_timeout = WAIT;
    let registry = Registry::builtin();
    let session = match Session::start(registry.get("delve").unwrap(), config).await {
        Ok(s) => s,
        Err(e) => panic!("{e}. {} (or run scripts/install-debug-adapters.sh)", e.hint()),
    };
    let set = session.set_breakpoints(&source, &[SourceBreakpoint::at(11)]).await.unwrap();
    let bp = set[0].id;
    let output = std::env::temp_dir().join(format!("locus-dap-delve-{}", std::process::id()));
    session.launch(&json!({"program": module, "output": output})).await.unwrap();

    let stop = session.wait_for_stop(0, WAIT).await.unwrap();
    assert_eq!(stop.reason, "breakpoint");
    let at = stop.position.clone().unwrap();
    assert_eq!((at.path.as_deref(), at.line), (Some(source.as_path()), 11));
    assert_eq!(at.function, "main.total");
    assert_eq!(stop.breakpoints, [bp]);
    assert_eq!(session.snapshot().breakpoints[0].hit_count, 1);

    let vars = locals(&session).await;
    assert_eq!(value(&vars, "acc"), "0");
    assert_eq!(value(&vars, "item"), "3");
    let frames = session.stack_trace(None, None).await.unwrap();
    let sum = session.evaluate("acc + item*10", Some(frames[0].id), "watch").await.unwrap();
    assert_eq!(sum.value, "30");

    let step = session.step(Resume::Next, None, WAIT).await.unwrap();
    assert_eq!(step.position.as_ref().unwrap().line, 12);
    assert_eq!(value(&locals(&session).await, "acc"), "3");
    assert_eq!(session.scopes(frames[0].id).await.unwrap_err().code(), "E_STALE_REFERENCE");

    // A hit condition: Delve then names no breakpoint, and Locus counts the stop by location.
    let third = SourceBreakpoint { hit_condition: Some("3".into()), ..SourceBreakpoint::at(11) };
    session.set_breakpoints(&source, &[third]).await.unwrap();
    let stop = session.step(Resume::Continue, None, WAIT).await.unwrap();
    assert_eq!(stop.position.as_ref().unwrap().line, 11);
    assert_eq!(value(&locals(&session).await, "item"), "5", "the third hit");
    assert_eq!(session.snapshot().breakpoints[0].hit_count, 2);

    session.set_breakpoints(&source, &[]).await.unwrap();
    let before = session.resume(Resume::Continue, None).await.unwrap();
    let end = session.wait_for_stop(before, WAIT).await.unwrap_err();
    assert_eq!(end.code(), "E_SESSION_ENDED");
    // Delve sends no `exited`: the exit code is unknown, not invented.
    assert_eq!(session.snapshot().exit_code, None);
    // The program's output came on dlv's stdout, forwarded as output.
    // It is read from a pipe of its own, so it may come a moment after the end.
    let stdout = stdout_until(&session, "iter 2 acc=12", Duration::from_secs(5)).await;
    assert!(stdout.starts_with("iter 0 acc=3\n"), "{stdout:?}");
    assert!(stdout.contains("iter 2 acc=12"), "{stdout:?}");
    session.disconnect(Duration::from_secs(5)).await.unwrap();
    let _ = std::fs::remove_file(output);
}
