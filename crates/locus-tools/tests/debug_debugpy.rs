//! The debug family through the catalogue, in-process, against the real debugpy (installed by
//! `scripts/install-test-peers.sh` into `$LOCUS_PEERS_DIR/venv`, default `target/peers/venv`).
//! A missing debugpy fails these tests with the install command; they never skip.

mod debug_support;

use std::path::PathBuf;

use debug_support::{Editor, Harness, alive, var};
use locus_dap::{Lookup, testing};
use locus_tools::Detached;
use serde_json::json;

fn program() -> String {
    testing::program("cart.py").display().to_string()
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn the_debugging_workflow_through_the_catalogue() {
    let h = Harness::new();
    let program = program();

    // A breakpoint before any session: kept by Locus, unverified, no debugContext.
    let v = h.ok("breakpoint_set", json!({"path": program, "line": 11}));
    assert!(v.get("debugContext").is_none(), "{v:#}");
    let bp = v["data"]["breakpoint"]["id"].as_u64().unwrap();
    assert_eq!(v["data"]["allBreakpoints"][0]["verified"], false);

    let v = h.ok("debug_start", json!({"program": program}));
    let d = &v["data"];
    assert_eq!(d["sessionId"], "s1");
    assert_eq!(d["adapter"], "debugpy");
    assert_eq!(d["targetCommandLine"], program);
    assert!(d["pid"].as_i64().is_some(), "debug_start answers the debuggee's pid: {d:#}");
    assert!(v["debugContext"]["debuggerState"]["sessionId"] == "s1", "{v:#}");

    // Stopped at the breakpoint: where, why, the hit count, the scope chain, the locals.
    let v = h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    assert_eq!(v["data"]["reason"], "breakpoint", "{v:#}");
    assert_eq!(v["data"]["position"]["line"], 11);
    assert_eq!(v["data"]["breakpoints"][0]["id"], bp);
    let ctx = &v["debugContext"];
    let state = &ctx["debuggerState"];
    assert_eq!(state["running"], false);
    assert_eq!(state["exited"], false);
    assert_eq!(state["stopReason"], "breakpoint");
    assert!(state["pid"].as_i64().is_some(), "{state:#}");
    assert_eq!(state["currentThread"]["line"], 11);
    assert_eq!(state["currentThread"]["function"], "total");
    assert_eq!(state["currentBreakpoint"]["id"], bp);
    assert_eq!(state["currentBreakpoint"]["hitCount"], 1);
    assert_eq!(ctx["currentPosition"]["file"], program);
    assert_eq!(ctx["currentPosition"]["scopeHierarchy"], "Class:Cart > Method:total");
    let local = &ctx["localContext"];
    assert_eq!(var(&local["locals"], "acc")["value"], "0", "{local:#}");
    assert_eq!(var(&local["locals"], "item")["value"], "3");
    assert_eq!(local["stackDepth"], 3, "{local:#}");
    assert_eq!(local["truncated"], false);
    assert!(ctx["timestamp"].as_str().unwrap().ends_with('Z'));
    let v = h.ok("breakpoint_list", json!({}));
    assert_eq!(v["data"]["allBreakpoints"][0]["verified"], true, "{v:#}");
    assert_eq!(v["data"]["allBreakpoints"][0]["hitCount"], 1);

    // Stack, variables (paged), members of a structured value, evaluate.
    let v = h.ok("stack_list", json!({}));
    let frames = v["data"]["frames"].as_array().unwrap().clone();
    assert_eq!(frames[0]["function"], "total");
    assert_eq!(frames[1]["function"], "main");
    let v = h.ok("variable_list", json!({}));
    assert_eq!(v["data"]["scope"]["name"], "Locals", "{v:#}");
    let vars = v["data"]["variables"].clone();
    assert_eq!(var(&vars, "acc")["value"], "0");
    let self_ref = var(&vars, "self")["variablesReference"].as_u64().unwrap();
    assert!(self_ref > 0);
    let v = h.ok("variable_list", json!({"variablesReference": self_ref}));
    assert!(var(&v["data"]["variables"], "items")["value"].as_str().unwrap().contains("3, 4, 5"));
    let v = h.ok("variable_list", json!({"start": 1, "count": 1}));
    assert_eq!(v["data"]["count"], 1);
    assert_eq!(v["data"]["truncated"], true, "{v:#}");
    let v = h.ok("variable_list", json!({"frameId": frames[1]["id"], "scope": "locals"}));
    assert!(var(&v["data"]["variables"], "cart")["value"].as_str().unwrap().contains("Cart"));
    let v = h.ok("expression_evaluate", json!({"expression": "acc + item * 10"}));
    assert_eq!(v["data"]["result"], "30");
    assert_eq!(v["data"]["context"], "watch");
    let v = h.call("expression_evaluate", json!({"expression": "no_such_name"}));
    assert_eq!(v["ok"], false);
    assert!(v["debugContext"]["debuggerState"]["sessionId"] == "s1", "errors carry it: {v:#}");
    // An evaluation that changes the program's state: the debugContext has the new locals.
    let v = h.ok("expression_evaluate", json!({"expression": "acc = 7", "context": "repl"}));
    assert_eq!(var(&v["debugContext"]["localContext"]["locals"], "acc")["value"], "7", "{v:#}");
    let v = h.ok("expression_evaluate", json!({"expression": "acc = 0", "context": "repl"}));
    assert_eq!(var(&v["debugContext"]["localContext"]["locals"], "acc")["value"], "0", "{v:#}");

    // Set a variable, then put it back: the debugContext follows.
    let v = h.ok("variable_set", json!({"name": "acc", "value": "100"}));
    assert_eq!(v["data"]["value"], "100");
    assert_eq!(var(&v["debugContext"]["localContext"]["locals"], "acc")["value"], "100");
    h.ok("variable_set", json!({"name": "acc", "value": "0", "scope": "Locals"}));

    // Step over: from line 11 to 12, `acc` changed; references from before are stale.
    let v = h.ok("debug_step_over", json!({}));
    let d = &v["data"];
    assert_eq!(d["stepType"], "over");
    assert_eq!(d["from"]["line"], 11);
    assert_eq!(d["to"]["line"], 12);
    assert_eq!(d["changedVariables"], json!([{"name": "acc", "before": "0", "after": "3"}]));
    assert_eq!(v["debugContext"]["currentPosition"]["line"], 12);
    assert_eq!(v["debugContext"]["debuggerState"]["nextInProgress"], false);
    let v = h.call("variable_list", json!({"variablesReference": self_ref}));
    assert_eq!(v["error"]["code"], "E_STALE_REFERENCE", "{v:#}");
    let v = h.call("variable_list", json!({"frameId": frames[0]["id"]}));
    assert_eq!(v["error"]["code"], "E_STALE_REFERENCE", "{v:#}");

    // A conditional breakpoint on the same line keeps its id; continue to it.
    let v = h.ok("breakpoint_set", json!({"path": program, "line": 11, "condition": "i == 2"}));
    assert_eq!(v["data"]["breakpoint"]["id"], bp);
    assert_eq!(v["data"]["count"], 1);
    let v = h.ok("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
    assert_eq!(v["data"]["state"], "stopped", "{v:#}");
    let v = h.ok("expression_evaluate", json!({"expression": "i"}));
    assert_eq!(v["data"]["result"], "2", "the condition held");
    assert_eq!(v["debugContext"]["debuggerState"]["currentBreakpoint"]["hitCount"], 2);

    // Output: only what is new at each read.
    let v = h.ok("output_read", json!({}));
    assert!(v["data"]["stdout"].as_str().unwrap().contains("iter 1 acc=7"), "{v:#}");
    let v = h.ok("output_read", json!({}));
    assert_eq!(v["data"]["stdout"], "");

    let v = h.ok("thread_list", json!({}));
    assert!(v["data"]["threads"].as_array().unwrap().iter().any(|t| t["stopped"] == true));

    // Clear and run to the end: `sys.exit(5)` first stops as an uncaught SystemExit (as in
    // VS Code), then the exit status, in the answer and in debug_status.
    h.ok("breakpoint_clear", json!({}));
    let v = h.ok("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
    assert_eq!(v["debugContext"]["exception"]["type"], "SystemExit", "{v:#}");
    let v = h.ok("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
    assert_eq!(v["data"]["state"], "exited", "{v:#}");
    assert_eq!(v["data"]["exitStatus"], 5);
    let v = h.ok("debug_status", json!({}));
    assert_eq!(v["data"]["exited"], true);
    assert_eq!(v["data"]["exitStatus"], 5);
    assert_eq!(v["debugContext"]["debuggerState"]["exitStatus"], 5);
    let v = h.call("debug_wait_for_stop", json!({"timeoutMs": 5000}));
    assert_eq!(v["error"]["code"], "E_SESSION_ENDED", "{v:#}");
    assert_eq!(v["error"]["details"]["exitCode"], 5);
    let v = h.ok("output_read", json!({}));
    assert!(v["data"]["stderr"].as_str().unwrap().contains("done"), "{v:#}");

    let v = h.ok("debug_list_sessions", json!({}));
    assert_eq!(v["data"]["sessions"][0]["state"], "ended");
    h.ok("debug_stop", json!({}));
    let v = h.call("debug_status", json!({}));
    assert_eq!(v["error"]["code"], "E_NO_SESSION");
    assert_eq!(v["error"]["hint"], "Start a debug session first using debug_start");
    assert!(v.get("debugContext").is_none());
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn stop_on_entry_pause_and_a_second_session() {
    let h = Harness::new();
    let program = program();
    let v = h.ok("debug_start", json!({"program": program, "stopOnEntry": true}));
    assert_eq!(v["data"]["sessionId"], "s1");
    let v = h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    assert_eq!(v["data"]["reason"], "entry", "{v:#}");
    // A step while running is refused with the state; pausing a stopped program says so.
    let v = h.ok("debug_pause", json!({}));
    assert_eq!(v["data"]["alreadyStopped"], true);
    h.ok("debug_continue", json!({}));
    let v = h.call("debug_step_over", json!({}));
    // The program may have ended already; either way it is not a stop.
    let code = v["error"]["code"].as_str().unwrap_or_default().to_string();
    assert!(code == "E_NOT_STOPPED" || code == "E_SESSION_ENDED", "{v:#}");
    // A second session is s2 and the default; s1 stays reachable by id.
    let v = h.ok("debug_start", json!({"program": program, "stopOnEntry": true}));
    assert_eq!(v["data"]["sessionId"], "s2");
    let v = h.ok("debug_status", json!({"sessionId": "s1"}));
    assert_eq!(v["data"]["sessionId"], "s1");
    let v = h.call("debug_status", json!({"sessionId": "s9"}));
    assert_eq!(v["error"]["code"], "E_NOT_FOUND");
    let v = h.ok("debug_list_sessions", json!({}));
    assert_eq!(v["data"]["count"], 2);
    h.ok("debug_stop", json!({"sessionId": "s2"}));
    h.ok("debug_stop", json!({"sessionId": "s1"}));
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn errors_without_a_session_and_bad_breakpoints() {
    let h = Harness::new();
    let program = program();
    for tool in ["debug_status", "debug_wait_for_stop", "variable_list", "debug_continue"] {
        let v = h.call(tool, json!({}));
        assert_eq!(v["error"]["code"], "E_NO_SESSION", "{tool}: {v:#}");
        assert!(v.get("debugContext").is_none());
    }
    let v = h.call("breakpoint_set", json!({"path": program, "line": 99}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS");
    assert!(v["error"]["message"].as_str().unwrap().contains("which has 24 lines"), "{v:#}");
    let v = h.call("breakpoint_set", json!({"path": program, "line": 3, "function": "main"}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS");
    assert!(v["error"]["message"].as_str().unwrap().contains("`function`"), "{v:#}");
    let v = h.call("breakpoint_set", json!({"condition": "x"}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS");
    let v = h.call("debug_start", json!({}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS");
    assert!(v["error"]["message"].as_str().unwrap().contains("`program` or `module`"));
    let v = h.call("breakpoint_remove", json!({"id": 42}));
    assert_eq!(v["error"]["code"], "E_NOT_FOUND");
    h.ok("breakpoint_set", json!({"path": program, "line": 11, "name": "loop body"}));
    h.ok("breakpoint_set", json!({"path": program, "line": 13}));
    let v = h.ok("breakpoint_list", json!({"name": "loop body"}));
    assert_eq!(v["data"]["count"], 1, "{v:#}");
    assert_eq!(v["data"]["allBreakpoints"][0]["line"], 11);
    let v = h.ok("breakpoint_remove", json!({"path": program, "line": 13}));
    assert_eq!(v["data"]["count"], 1);
    h.ok("breakpoint_clear", json!({"path": program}));
    let v = h.ok("breakpoint_set", json!({"function": "main"}));
    assert_eq!(v["data"]["breakpoint"]["function"], "main");
    let v = h.ok("breakpoint_remove", json!({"id": v["data"]["breakpoint"]["id"]}));
    assert_eq!(v["data"]["count"], 0);
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn a_missing_adapter_names_its_install_command() {
    let lookup = Lookup { python: None, path: Some("/nonexistent".into()) };
    let h = Harness::with(lookup, testing::registry(), Detached::new());
    let v = h.call("debug_start", json!({"program": program()}));
    assert_eq!(v["error"]["code"], "E_ADAPTER_NOT_FOUND", "{v:#}");
    assert_eq!(v["error"]["hint"], "Install it: python3 -m pip install debugpy");
    let v = h.call("debug_start", json!({"program": program(), "adapter": "cobol"}));
    assert_eq!(v["error"]["code"], "E_ADAPTER_NOT_FOUND", "{v:#}");
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn a_one_shot_process_refuses_to_start_a_session() {
    let h = Harness::with(testing::lookup(), testing::registry(), Detached::one_shot());
    let v = h.call("debug_start", json!({"program": program()}));
    assert_eq!(v["error"]["code"], "E_UNSUPPORTED", "{v:#}");
    assert!(v["error"]["hint"].as_str().unwrap().contains("locus mcp"));
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn hit_counts_conditions_and_logpoints_on_a_loop() {
    let h = Harness::new();
    let program = program();
    // A logpoint on the print line, and a breakpoint that stops at every iteration.
    h.ok("breakpoint_set", json!({"path": program, "line": 12, "logMessage": "logged i={i}"}));
    let v = h.ok("breakpoint_set", json!({"path": program, "line": 11}));
    let bp = v["data"]["breakpoint"]["id"].clone();
    h.ok("debug_start", json!({"program": program}));
    h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    for _ in 0..2 {
        let v = h.ok("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
        assert_eq!(v["data"]["position"]["line"], 11, "{v:#}");
    }
    let v = h.ok("debug_status", json!({}));
    assert_eq!(v["data"]["currentBreakpoint"]["id"], bp);
    assert_eq!(v["data"]["currentBreakpoint"]["hitCount"], 3, "{v:#}");
    let v = h.ok("breakpoint_list", json!({"path": program}));
    let listed = v["data"]["allBreakpoints"].as_array().unwrap();
    assert_eq!(listed.len(), 2);
    assert!(listed.iter().any(|b| b["hitCount"] == 3));
    let v = h.ok("output_read", json!({}));
    let out = format!("{}{}", v["data"]["stdout"], v["data"]["console"]);
    assert!(out.contains("logged i=1"), "the logpoint logs: {v:#}");
    h.ok("debug_stop", json!({}));

    // hitCondition: the adapter stops at the third hit only.
    h.ok("breakpoint_clear", json!({}));
    h.ok("breakpoint_set", json!({"path": program, "line": 11, "hitCondition": "3"}));
    h.ok("debug_start", json!({"program": program}));
    h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    let v = h.ok("expression_evaluate", json!({"expression": "i"}));
    assert_eq!(v["data"]["result"], "2", "{v:#}");
    assert_eq!(v["debugContext"]["debuggerState"]["currentBreakpoint"]["hitCount"], 1);
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn a_killed_adapter_ends_the_session_and_the_next_one_works() {
    let h = Harness::new();
    let program = program();
    h.ok("breakpoint_set", json!({"path": program, "line": 11}));
    let v = h.ok("debug_start", json!({"program": program}));
    let adapter = v["data"]["adapterPid"].as_i64().unwrap();
    h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    let killed = std::process::Command::new("kill").args(["-9", &adapter.to_string()]).status();
    assert!(killed.unwrap().success());
    // A request of the dead session fails once the connection is seen closed. (Not
    // stack_list: the stop's stack is kept, and answered until the end is seen.)
    let v = h.call("expression_evaluate", json!({"expression": "acc"}));
    assert_eq!(v["error"]["code"], "E_SESSION_ENDED", "{v:#}");
    // The contract is 1 s; this bound only guards against a hang.
    assert!(v["meta"]["durationMs"].as_f64().unwrap() < 5000.0, "{v:#}");
    assert_eq!(v["debugContext"]["debuggerState"]["exited"], true);
    assert!(v["debugContext"]["debuggerState"]["error"].as_str().unwrap().contains("signal 9"));
    h.ok("debug_stop", json!({}));
    let v = h.ok("debug_start", json!({"program": program}));
    assert_eq!(v["data"]["sessionId"], "s2");
    let v = h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    assert_eq!(v["data"]["position"]["line"], 11);
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn a_busy_program_times_out_waiting_then_pauses() {
    let h = Harness::new();
    let program = testing::program("busy.py");
    h.ok("debug_start", json!({"program": program}));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let mut out = String::new();
    while !out.contains("busy") {
        assert!(std::time::Instant::now() < deadline, "the program did not start: {out}");
        std::thread::sleep(std::time::Duration::from_millis(50));
        out.push_str(h.ok("output_read", json!({}))["data"]["stdout"].as_str().unwrap());
    }
    let v = h.call("debug_wait_for_stop", json!({"timeoutMs": 300}));
    assert_eq!(v["error"]["code"], "E_TIMEOUT", "{v:#}");
    assert!(v["error"]["message"].as_str().unwrap().contains("still running"), "{v:#}");
    assert!(v["error"]["hint"].as_str().unwrap().contains("debug_wait_for_stop again"));
    assert_eq!(v["debugContext"]["debuggerState"]["running"], true);
    let v = h.call("variable_list", json!({}));
    assert_eq!(v["error"]["code"], "E_NOT_STOPPED", "{v:#}");
    assert!(v["error"]["details"]["state"].as_str().unwrap().contains("running"));
    let v = h.ok("debug_pause", json!({}));
    assert_eq!(v["data"]["reason"], "pause", "{v:#}");
    let v = h.ok("expression_evaluate", json!({"expression": "n > 0"}));
    assert_eq!(v["data"]["result"], "True");
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn a_breakpoint_with_no_place_goes_on_the_editors_cursor() {
    let program = program();
    let folder = PathBuf::from(&program).parent().unwrap().to_path_buf();
    let h = Harness::on(Editor { file: program.clone().into(), line: 11, folder });
    let v = h.ok("breakpoint_set", json!({}));
    assert_eq!(v["data"]["breakpoint"]["path"], program, "{v:#}");
    assert_eq!(v["data"]["breakpoint"]["line"], 11);
    let h = Harness::new();
    let v = h.call("breakpoint_set", json!({}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{v:#}");
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn restart_runs_the_program_again_under_the_same_id() {
    let h = Harness::new();
    let program = program();
    h.ok("breakpoint_set", json!({"path": program, "line": 11}));
    h.ok("debug_start", json!({"program": program, "args": ["--flag"]}));
    h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    let v = h.ok("expression_evaluate", json!({"expression": "sys.argv[1]"}));
    assert_eq!(v["data"]["result"], "'--flag'");
    h.ok("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
    let first = h.ok("debug_status", json!({}))["data"]["pid"].clone();
    let v = h.ok("debug_restart", json!({}));
    assert_eq!(v["data"]["sessionId"], "s1");
    assert_eq!(v["data"]["restarted"], true);
    assert_ne!(v["data"]["pid"], first, "a new program");
    let v = h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    assert_eq!(v["data"]["position"]["line"], 11);
    assert_eq!(v["debugContext"]["debuggerState"]["currentBreakpoint"]["hitCount"], 1);
    let v = h.ok("expression_evaluate", json!({"expression": "sys.argv[1]"}));
    assert_eq!(v["data"]["result"], "'--flag'", "started as before");
    assert_eq!(h.ok("debug_list_sessions", json!({}))["data"]["count"], 1);
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn run_to_a_line_leaves_no_breakpoint_behind() {
    let h = Harness::new();
    let program = program();
    h.ok("debug_start", json!({"program": program, "stopOnEntry": true}));
    h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    let v = h.ok("debug_run_to_cursor", json!({"path": program, "line": 13, "timeoutMs": 30000}));
    assert_eq!(v["data"]["reachedTarget"], true, "{v:#}");
    assert_eq!(v["data"]["position"]["line"], 13);
    assert_eq!(
        v["debugContext"]["localContext"]["locals"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == "acc")
            .unwrap()["value"],
        "12"
    );
    assert_eq!(h.ok("breakpoint_list", json!({}))["data"]["count"], 0);
    // No breakpoint stops the rest of the run: the program ends (past its SystemExit).
    let v = h.ok("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
    assert_eq!(v["debugContext"]["exception"]["type"], "SystemExit", "{v:#}");
    let v = h.ok("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
    assert_eq!(v["data"]["state"], "exited", "{v:#}");
    let v = h.call("debug_run_to_cursor", json!({"line": 13}));
    assert_eq!(v["error"]["code"], "E_NO_EDITOR", "{v:#}");
}

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Fifty start/stop cycles through the catalogue leave no adapter or program running, and
/// the process's memory flat: RSS after the 50th cycle within 4 MiB of RSS after the 10th
/// (by then allocator pools and caches are warm; a leak of a session's state, its output
/// buffers or its tasks would pass that over 40 sessions).
#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn fifty_sequential_sessions_leave_no_process_behind_and_no_growth() {
    let h = Harness::new();
    let program = program();
    let mut pids = Vec::new();
    let mut rss = Vec::new();
    for round in 1..=50 {
        let v = h.ok("debug_start", json!({"program": program, "stopOnEntry": true}));
        pids.push(v["data"]["adapterPid"].as_i64().unwrap());
        pids.extend(v["data"]["pid"].as_i64());
        h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
        h.ok("debug_stop", json!({}));
        if round % 10 == 0 {
            rss.push(rss_kib());
        }
    }
    eprintln!("RSS after every 10 sessions (KiB): {rss:?}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let left: Vec<i64> = pids.iter().copied().filter(|p| alive(*p)).collect();
        if left.is_empty() {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "processes left behind: {left:?}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(h.ok("debug_list_sessions", json!({}))["data"]["count"], 0);
    let growth = rss[4].saturating_sub(rss[0]);
    assert!(
        growth < 4 * 1024,
        "RSS grew by {growth} KiB from the 10th to the 50th session: {rss:?}"
    );
}
