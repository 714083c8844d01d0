//! `debug_attach` through the catalogue against real adapters: debugpy by the address of a
//! program started with `python -m debugpy --listen`, and lldb-dap by the process id of a
//! running C program. Stopping an attached session leaves the program running.

mod debug_support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use debug_support::{Harness, alive};
use locus_dap::testing;
use serde_json::json;

/// Kills a program the test started, whatever happens.
struct Program(std::process::Child);

impl Drop for Program {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The attached program stops at the breakpoint on `line`, where its `ticks` counter can be
/// evaluated; the breakpoint cleared and the session stopped, the program goes on running.
fn stops_at_then_goes_on(h: &Harness, line: u32, pid: u32) {
    let v = h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    assert_eq!(v["data"]["position"]["line"], line, "{v:#}");
    let v = h.ok("expression_evaluate", json!({"expression": "ticks >= 0"}));
    assert_eq!(v["data"]["result"], "true", "{v:#}");
    h.ok("breakpoint_clear", json!({}));
    h.ok("debug_stop", json!({}));
    std::thread::sleep(Duration::from_millis(300));
    assert!(alive(i64::from(pid)), "a detached program goes on");
}

/// `debug_attach` to `adapter` at `127.0.0.1:port`, which must answer: a program opens its
/// port once its runtime has started, so the attach is tried again until it answers (30 s).
fn attach_when_listening(h: &Harness, port: u16, adapter: &str) -> serde_json::Value {
    let address = format!("127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(30);
    let v = loop {
        let v = h.call("debug_attach", json!({"address": address, "adapter": adapter}));
        if v["ok"] == true || Instant::now() > deadline {
            break v;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(v["ok"], true, "{v:#}");
    v
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn attach_to_a_python_program_by_its_debug_servers_address() {
    let program = testing::program("cart.py");
    let port = free_port();
    let mut child = Program(
        Command::new(testing::python())
            .args(["-m", "debugpy", "--listen", &format!("127.0.0.1:{port}"), "--wait-for-client"])
            .arg(&program)
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let h = Harness::new();
    h.ok("breakpoint_set", json!({"path": program, "line": 11}));
    let v = attach_when_listening(&h, port, "debugpy");
    assert_eq!(v["data"]["attached"], true);
    assert_eq!(v["data"]["adapter"], "debugpy");
    assert_eq!(v["data"]["pid"], child.0.id(), "{v:#}");
    let v = h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    assert_eq!(v["data"]["position"]["line"], 11, "{v:#}");
    assert_eq!(v["debugContext"]["debuggerState"]["currentBreakpoint"]["hitCount"], 1);
    let v = h.ok("expression_evaluate", json!({"expression": "acc + item * 10"}));
    assert_eq!(v["data"]["result"], "30");
    // Stopping detaches: the program runs on to its own end.
    h.ok("breakpoint_clear", json!({}));
    h.ok("debug_stop", json!({}));
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.0.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the program did not run on after the detach");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(5), "it ran to its end");
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn attach_to_a_native_program_by_its_pid() {
    testing::require("lldb-dap-19");
    let source = testing::program("ticks.c");
    let binary = testing::build_c("ticks.c");
    let child = Program(Command::new(&binary).stdout(Stdio::null()).spawn().unwrap());
    let pid = child.0.id();
    let h = Harness::new();
    h.ok("breakpoint_set", json!({"path": source, "line": 7}));
    // The adapter by the process's executable: a native program is lldb-dap's.
    let v = h.ok("debug_attach", json!({"pid": pid}));
    assert_eq!(v["data"]["adapter"], "lldb-dap", "{v:#}");
    assert_eq!(v["data"]["pid"], pid);
    assert!(v["data"]["targetCommandLine"].as_str().unwrap().contains("ticks"), "{v:#}");
    stops_at_then_goes_on(&h, 7, pid);

    // Bad targets say what is wrong.
    let v = h.call("debug_attach", json!({"pid": 4_000_000}));
    assert_eq!(v["error"]["code"], "E_NOT_FOUND", "{v:#}");
    let v = h.call("debug_attach", json!({"address": "nowhere"}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{v:#}");
    let v = h.call("debug_attach", json!({"address": "127.0.0.1:9", "adapter": "delve"}));
    assert_eq!(v["error"]["code"], "E_UNSUPPORTED", "{v:#}");
    let v = h.call("debug_attach", json!({"pid": pid, "address": "127.0.0.1:9"}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{v:#}");
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn attach_to_a_go_program_by_its_pid() {
    testing::require("dlv");
    testing::require("go");
    let module = testing::program("go");
    let dir = std::env::temp_dir().join(format!("locus-go-ticks-{}", std::process::id()));
    let binary = dir.join("ticks");
    let built = Command::new("go")
        .args(["build", "-gcflags=all=-N -l", "-o"])
        .arg(&binary)
        .arg("./ticks")
        .current_dir(&module)
        .status()
        .unwrap();
    assert!(built.success(), "go build failed");
    let child = Program(Command::new(&binary).spawn().unwrap());
    let pid = child.0.id();
    let h = Harness::new();
    h.ok("breakpoint_set", json!({"path": module.join("ticks/main.go"), "line": 9}));
    // A Go binary says so in its build information: Delve.
    let v = h.ok("debug_attach", json!({"pid": pid}));
    assert_eq!(v["data"]["adapter"], "delve", "{v:#}");
    stops_at_then_goes_on(&h, 9, pid);
    drop(child);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn attach_to_a_node_program_by_its_inspector_address() {
    testing::require("node");
    let program = testing::program("ticks.js");
    let port = free_port();
    let child = Program(
        Command::new("node")
            .arg(format!("--inspect=127.0.0.1:{port}"))
            .arg(&program)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let pid = child.0.id();
    let h = Harness::new();
    h.ok("breakpoint_set", json!({"path": program, "line": 4}));
    attach_when_listening(&h, port, "js-debug");
    stops_at_then_goes_on(&h, 4, pid);
}
