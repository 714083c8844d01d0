//! End to end against the real debugpy (installed by `scripts/install-test-peers.sh` into
//! `$LOCUS_PEERS_DIR/venv`, default `target/peers/venv`): the whole debugging workflow on
//! `tests/programs/loop.py`, stale references, and a killed adapter. A missing debugpy fails
//! these tests with the install command; they never skip.

mod support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use locus_dap::{
    Error, Phase, Registry, Resume, Session, SessionConfig, SourceBreakpoint, testing,
};
use serde_json::json;
use support::{locals, value};

const WAIT: Duration = Duration::from_secs(30);

fn program() -> PathBuf {
    testing::program("loop.py")
}

async fn start() -> Session {
    let mut config = SessionConfig::standard();
    config.lookup.python = Some(testing::python());
    let registry = Registry::builtin();
    Session::start(registry.get("debugpy").unwrap(), config).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
async fn the_debugging_workflow_on_debugpy() {
    let session = start().await;
    let program = program();
    // Set before launch: kept by Locus and sent when the adapter is initialized.
    let set = session.set_breakpoints(&program, &[SourceBreakpoint::at(7)]).await.unwrap();
    assert_eq!(set.len(), 1);
    let bp = set[0].id;
    session.launch(&json!({"program": program, "cwd": program.parent()})).await.unwrap();

    // Stopped at the breakpoint, counted by Locus.
    let stop = session.wait_for_stop(0, WAIT).await.unwrap();
    assert_eq!(stop.reason, "breakpoint");
    let at = stop.position.clone().unwrap();
    assert_eq!((at.path.as_deref(), at.line), (Some(program.as_path()), 7));
    assert_eq!(at.function, "total");
    assert_eq!(stop.breakpoints, [bp]);
    let snapshot = session.snapshot();
    assert_eq!(snapshot.phase, Phase::Stopped);
    assert!(snapshot.breakpoints[0].verified, "{snapshot:?}");
    assert_eq!(snapshot.breakpoints[0].hit_count, 1);
    assert!(snapshot.pid.is_some(), "debugpy tells the program's pid");

    // Stack, scopes, variables.
    let threads = session.threads().await.unwrap();
    assert!(threads.iter().any(|t| t.stopped), "{threads:?}");
    let frames = session.stack_trace(None, None).await.unwrap();
    assert_eq!(frames[0].position.function, "total");
    assert_eq!(frames[1].position.function, "main");
    let vars = locals(&session).await;
    assert_eq!(value(&vars, "acc"), "0");
    assert_eq!(value(&vars, "item"), "3");
    let items = vars.iter().find(|v| v.name == "items").unwrap();
    let children = session.variables(items.children.unwrap()).await.unwrap();
    assert!(children.iter().any(|c| c.value == "5"), "{children:?}");

    // Evaluate in the top frame.
    let sum = session.evaluate("acc + item * 10", Some(frames[0].id), "watch").await.unwrap();
    assert_eq!(sum.value, "30");
    let err = session.evaluate("no_such_name", Some(frames[0].id), "watch").await.unwrap_err();
    assert!(matches!(err, Error::Failed { .. }), "{err:?}");

    // Step over: the line advances and `acc` changes; the old references are stale.
    let old_frame = frames[0].id;
    let old_ref = items.children.unwrap();
    let step = session.step(Resume::Next, None, WAIT).await.unwrap();
    assert_eq!(step.reason, "step");
    assert_eq!(step.position.as_ref().unwrap().line, 8);
    let vars = locals(&session).await;
    assert_eq!(value(&vars, "acc"), "3");
    assert_eq!(session.scopes(old_frame).await.unwrap_err().code(), "E_STALE_REFERENCE");
    assert_eq!(session.variables(old_ref).await.unwrap_err().code(), "E_STALE_REFERENCE");

    // A conditional breakpoint (same line, same Locus id) and a logpoint.
    let set = session
        .set_breakpoints(
            &program,
            &[
                SourceBreakpoint { condition: Some("i == 2".into()), ..SourceBreakpoint::at(7) },
                SourceBreakpoint {
                    log_message: Some("logged i={i}".into()),
                    ..SourceBreakpoint::at(8)
                },
            ],
        )
        .await
        .unwrap();
    assert_eq!(set[0].id, bp, "a breakpoint kept on its line keeps its id");
    assert!(set.iter().all(|b| b.verified), "{set:?}");
    let stop = session.step(Resume::Continue, None, WAIT).await.unwrap();
    assert_eq!(stop.position.as_ref().unwrap().line, 7);
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    let i = session.evaluate("i", Some(frames[0].id), "watch").await.unwrap();
    assert_eq!(i.value, "2", "the condition held");
    assert_eq!(session.snapshot().breakpoints[0].hit_count, 2);

    // Output so far, read with the cursor: only what is new each time.
    let first = session.read_output();
    assert!(first.stdout.contains("iter 0 acc=3"), "{first:?}");
    assert!(first.stdout.contains("iter 1 acc=7"), "{first:?}");
    let logged = format!("{}{}", first.stdout, first.console);
    assert!(logged.contains("logged i=1"), "the logpoint logs: {first:?}");

    // Clear, continue to the end: the exit code is the program's.
    session.set_breakpoints(&program, &[]).await.unwrap();
    assert!(session.breakpoints().is_empty());
    let before = session.resume(Resume::Continue, None).await.unwrap();
    let end = session.wait_for_stop(before, WAIT).await.unwrap_err();
    assert_eq!(
        end,
        Error::SessionEnded { reason: "the program exited with code 5".into(), exit_code: Some(5) }
    );
    assert_eq!(end.code(), "E_SESSION_ENDED");
    assert_eq!(session.snapshot().exit_code, Some(5));

    let rest = session.read_output();
    assert!(!rest.stdout.contains("iter 0"), "already read: {rest:?}");
    assert!(rest.stdout.contains("iter 2 acc=12"), "{rest:?}");
    assert!(rest.stderr.contains("done"), "{rest:?}");
    assert_eq!(session.read_output().stdout, "");
    session.disconnect(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
async fn a_killed_adapter_ends_the_session_and_every_waiter() {
    let session = start().await;
    let program = program();
    session.set_breakpoints(&program, &[SourceBreakpoint::at(7)]).await.unwrap();
    session.launch(&json!({"program": program})).await.unwrap();
    session.wait_for_stop(0, WAIT).await.unwrap();
    let debuggee = session.snapshot().pid.unwrap();

    let stops = session.stops();
    let adapter = session.adapter_pid().unwrap();
    let killed = Instant::now();
    locus_platform::process::kill(adapter);
    let err = session.wait_for_stop(stops, WAIT).await.unwrap_err();
    let took = killed.elapsed();
    eprintln!("a killed debugpy was reported after {} ms: {err}", took.as_millis());
    assert!(took < Duration::from_secs(5), "reported after {took:?}; the contract is 1 s");
    assert_eq!(err.code(), "E_SESSION_ENDED");
    assert!(err.to_string().contains("signal 9"), "{err}");
    assert!(matches!(session.snapshot().phase, Phase::Ended(_)));
    // Every later request fails at once with the same reason.
    let again = session.threads().await.unwrap_err();
    assert_eq!(again, err);

    // Dropping the session ends the program the adapter launched.
    drop(session);
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(debuggee) {
        assert!(Instant::now() < deadline, "the debuggee {debuggee} outlived its session");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether a process runs (a zombie has ended).
fn alive(pid: i64) -> bool {
    u32::try_from(pid).is_ok_and(locus_platform::process::alive)
}

/// `console: integratedTerminal` makes debugpy ask Locus to start the program with the
/// `runInTerminal` reverse request (debugpy refuses the launch when the client cannot);
/// Locus starts it and answers its pid.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
async fn debugpy_runs_the_program_through_run_in_terminal() {
    let session = start().await;
    let program = program();
    session.set_breakpoints(&program, &[SourceBreakpoint::at(7)]).await.unwrap();
    let arguments =
        json!({"program": program, "console": "integratedTerminal", "redirectOutput": null});
    session.launch(&arguments).await.unwrap();
    let stop = session.wait_for_stop(0, WAIT).await.unwrap();
    assert_eq!(stop.position.unwrap().line, 7);
    assert_eq!(value(&locals(&session).await, "item"), "3");
    session.set_breakpoints(&program, &[]).await.unwrap();
    let before = session.resume(Resume::Continue, None).await.unwrap();
    let end = session.wait_for_stop(before, WAIT).await.unwrap_err();
    assert_eq!(end.code(), "E_SESSION_ENDED");
    assert_eq!(session.snapshot().exit_code, Some(5));
    // The program wrote to the terminal Locus gave it (discarded), not to output events.
    let output = session.read_output();
    assert!(!output.stdout.contains("iter 0"), "{output:?}");
}

/// Sessions started and stopped one after another leave no adapter and no program behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
async fn sequential_sessions_leave_no_process_behind() {
    let program = program();
    let mut groups = Vec::new();
    let mut programs = Vec::new();
    for round in 0..4 {
        let session = start().await;
        groups.push(session.adapter_pid().unwrap());
        session.set_breakpoints(&program, &[SourceBreakpoint::at(7)]).await.unwrap();
        session.launch(&json!({"program": program})).await.unwrap();
        session.wait_for_stop(0, WAIT).await.unwrap();
        programs.push(session.snapshot().pid.unwrap());
        if round % 2 == 0 {
            session.disconnect(Duration::from_secs(5)).await.unwrap();
        } else {
            drop(session);
        }
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left: Vec<i64> = live_processes()
            .into_iter()
            .filter(|(pid, pgid)| {
                groups.iter().any(|g| i64::from(*g) == *pgid) || programs.contains(pid)
            })
            .map(|(pid, _)| pid)
            .collect();
        if left.is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "processes left behind: {left:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// (pid, process group) of every running process, zombies left out.
fn live_processes() -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i64>() else { continue };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.first().is_some_and(|s| *s != "Z")
            && let Some(pgid) = fields.get(2).and_then(|g| g.parse().ok())
        {
            out.push((pid, pgid));
        }
    }
    out
}

/// A busy program is paused where it runs, and `disconnect` ends it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
async fn a_busy_program_pauses_and_disconnect_ends_it() {
    let session = start().await;
    let program = testing::program("busy.py").canonicalize().unwrap();
    session.launch(&json!({"program": program})).await.unwrap();
    assert_eq!(session.snapshot().phase, Phase::Running);
    assert_eq!(session.resume(Resume::Next, None).await.unwrap_err().code(), "E_NOT_STOPPED");
    // Paused once it is in its loop.
    let deadline = Instant::now() + WAIT;
    let mut stdout = String::new();
    while !stdout.contains("busy") {
        assert!(Instant::now() < deadline, "the program did not start");
        tokio::time::sleep(Duration::from_millis(20)).await;
        stdout.push_str(&session.read_output().stdout);
    }
    session.pause(None).await.unwrap();
    let stop = session.wait_for_stop(0, WAIT).await.unwrap();
    assert_eq!(stop.reason, "pause");
    assert_eq!(stop.position.as_ref().unwrap().path.as_deref(), Some(program.as_path()));
    let frames = session.stack_trace(None, Some(1)).await.unwrap();
    let n = session.evaluate("n", Some(frames[0].id), "watch").await.unwrap();
    assert!(n.value.parse::<u64>().unwrap() > 0, "{n:?}");
    let pid = session.snapshot().pid.unwrap();
    session.disconnect(Duration::from_secs(5)).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(pid) {
        assert!(Instant::now() < deadline, "the program {pid} outlived disconnect");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
