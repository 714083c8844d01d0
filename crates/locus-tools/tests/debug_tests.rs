//! `debug_test` and launch.json configurations through the catalogue against real adapters:
//! the pytest test around the editor's cursor and one named (debugpy), the Go test around the
//! cursor and one named (Delve), and `debug_start {configuration}` from a JSONC launch.json.

mod debug_support;

use debug_support::{Editor, Harness};
use locus_dap::testing;
use serde_json::json;

const NO_BYTECODE: &str = "PYTHONDONTWRITEBYTECODE";

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn the_pytest_test_around_the_cursor_and_one_by_name() {
    let file = testing::program("test_cart.py");
    let folder = file.parent().unwrap().to_path_buf();
    // The cursor on `result = total(...)` inside test_total.
    let h = Harness::on(Editor { file: file.clone(), line: 9, folder });
    h.ok("breakpoint_set", json!({"path": file, "line": 4}));
    let v = h.ok("debug_test", json!({"env": {NO_BYTECODE: "1"}}));
    let d = &v["data"];
    assert_eq!(d["test"]["name"], "test_total", "{v:#}");
    assert_eq!(d["test"]["runner"], "pytest");
    assert_eq!(d["state"], "stopped", "{v:#}");
    assert_eq!(d["position"]["line"], 4);
    let ctx = &v["debugContext"];
    assert_eq!(ctx["currentPosition"]["scopeHierarchy"], "Function:total", "{ctx:#}");
    assert_eq!(ctx["debuggerState"]["currentBreakpoint"]["hitCount"], 1);
    h.ok("breakpoint_clear", json!({}));
    let v = h.ok("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
    assert_eq!(
        (v["data"]["state"].as_str(), v["data"]["exitStatus"].as_i64()),
        (Some("exited"), Some(0)),
        "{v:#}"
    );
    h.ok("debug_stop", json!({}));

    // A method by name, with no breakpoint: it runs to its end and fails.
    let v = h.ok(
        "debug_test",
        json!({"path": file, "name": "TestCart::test_wrong", "env": {NO_BYTECODE: "1"}}),
    );
    assert_eq!(v["data"]["state"], "exited", "{v:#}");
    assert_eq!(v["data"]["passed"], false, "{v:#}");
    assert_eq!(v["data"]["exitStatus"], 1);
    h.ok("debug_stop", json!({}));

    // A name the file has no test of: not found, before anything runs, listing its tests.
    let v = h.call("debug_test", json!({"path": file, "name": "test_typo"}));
    assert_eq!(v["error"]["code"], "E_NOT_FOUND", "{v:#}");
    assert!(v["error"]["hint"].as_str().unwrap().contains("TestCart::test_wrong"), "{v:#}");
    // A parametrized case pytest does not have: pytest exits 4, not a failure.
    let v = h.call(
        "debug_test",
        json!({"path": file, "name": "test_total[nope]", "env": {NO_BYTECODE: "1"}}),
    );
    assert_eq!(v["error"]["code"], "E_NOT_FOUND", "{v:#}");
    assert_eq!(v["error"]["details"]["exitStatus"], 4, "{v:#}");
    let v = h.ok("debug_list_sessions", json!({}));
    assert_eq!(v["data"]["count"], 0, "{v:#}");

    // A line outside every test.
    let v = h.call("debug_test", json!({"path": file, "line": 2}));
    assert_eq!(v["error"]["code"], "E_NOT_FOUND", "{v:#}");
    assert!(v["error"]["message"].as_str().unwrap().contains("Function:total"), "{v:#}");
    let v = h.call("debug_test", json!({"path": testing::program("loop.js")}));
    assert_eq!(v["error"]["code"], "E_UNSUPPORTED", "{v:#}");
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn the_go_test_around_the_cursor_and_one_by_name() {
    testing::require("dlv");
    let module = testing::program("go");
    let file = module.join("main_test.go");
    let h = Harness::on(Editor { file: file.clone(), line: 6, folder: module.clone() });
    h.ok("breakpoint_set", json!({"path": module.join("main.go"), "line": 11}));
    let v = h.ok("debug_test", json!({}));
    let d = &v["data"];
    assert_eq!(d["test"]["name"], "TestTotal", "{v:#}");
    assert_eq!(d["state"], "stopped", "{v:#}");
    assert_eq!(d["position"]["line"], 11);
    assert_eq!(v["debugContext"]["currentPosition"]["scopeHierarchy"], "Function:total");
    h.ok("breakpoint_clear", json!({}));
    let v = h.ok("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
    assert_eq!(v["data"]["state"], "exited", "{v:#}");
    h.ok("debug_stop", json!({}));

    let v = h.ok("debug_test", json!({"name": "TestWrong"}));
    assert_eq!(v["data"]["state"], "exited", "{v:#}");
    assert_eq!(v["data"]["passed"], false, "{v:#}");
    h.ok("debug_stop", json!({}));

    // `go test -run ^TestTypo$` would print PASS: the name is checked first.
    let v = h.call("debug_test", json!({"name": "TestTypo"}));
    assert_eq!(v["error"]["code"], "E_NOT_FOUND", "{v:#}");
    assert!(v["error"]["hint"].as_str().unwrap().contains("TestTotal"), "{v:#}");
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn a_launch_json_configuration_by_name() {
    let dir = std::env::temp_dir().join(format!("locus-launch-json-{}", std::process::id()));
    std::fs::create_dir_all(dir.join(".vscode")).unwrap();
    let program = dir.join("cart.py");
    std::fs::copy(testing::program("cart.py"), &program).unwrap();
    std::fs::write(
        dir.join(".vscode/launch.json"),
        r#"{
  // As VS Code writes it: comments and trailing commas.
  "version": "0.2.0",
  "configurations": [
    {
      "name": "Cart",
      "type": "debugpy",
      "request": "launch",
      "program": "${file}",
      "args": ["${lineNumber}", "${env:LOCUS_SURELY_UNSET}"],
      "cwd": "${workspaceFolder}",
      "console": "integratedTerminal",
    },
    {"name": "Broken", "type": "debugpy", "request": "launch", "program": "${input:which}"},
  ],
}"#,
    )
    .unwrap();
    let dir = dir.canonicalize().unwrap();
    let program = program.canonicalize().unwrap();
    let h = Harness::on(Editor { file: program.clone(), line: 11, folder: dir.clone() });
    h.ok("breakpoint_set", json!({}));
    let v = h.ok("debug_start", json!({"configuration": "Cart"}));
    assert_eq!(v["data"]["adapter"], "debugpy", "{v:#}");
    assert_eq!(v["data"]["configuration"], "Cart");
    let v = h.ok("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    assert_eq!(v["data"]["position"]["line"], 11, "{v:#}");
    let v = h.ok("expression_evaluate", json!({"expression": "sys.argv[1:]"}));
    assert_eq!(v["data"]["result"], "['11', '']", "{v:#}");
    let v = h.ok("expression_evaluate", json!({"expression": "__import__('os').getcwd()"}));
    assert_eq!(v["data"]["result"], format!("'{}'", dir.display()));
    h.ok("debug_stop", json!({}));

    let v = h.call("debug_start", json!({"configuration": "Nope"}));
    assert_eq!(v["error"]["code"], "E_NOT_FOUND", "{v:#}");
    assert!(v["error"]["hint"].as_str().unwrap().contains("Cart, Broken"), "{v:#}");
    let v = h.call("debug_start", json!({"configuration": "Broken"}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{v:#}");
    assert!(v["error"]["message"].as_str().unwrap().contains("${input:which}"), "{v:#}");
    let v = h.call("debug_start", json!({"configuration": "Cart", "program": "x.py"}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{v:#}");
    let _ = std::fs::remove_dir_all(&dir);
}
