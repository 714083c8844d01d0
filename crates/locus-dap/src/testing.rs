//! What the tests of locus-dap and of the debug tools share (the `testing` feature, for
//! dev-dependencies only): the test programs in `crates/locus-dap/tests/programs`, and the
//! real adapters as `scripts/install-test-peers.sh` and `scripts/install-debug-adapters.sh`
//! install them. A missing peer panics with the command that installs it: tests never skip.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::adapter::{Lookup, Registry};

/// The repository's root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// A test program (or folder) by its path under `crates/locus-dap/tests/programs`, canonical.
pub fn program(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs").join(name);
    path.canonicalize().unwrap_or_else(|e| panic!("test program {}: {e}", path.display()))
}

/// Where the test peers are installed: `$LOCUS_PEERS_DIR`, else `target/peers`.
pub fn peers() -> PathBuf {
    std::env::var_os("LOCUS_PEERS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target/peers"))
}

/// The test venv's Python, which has debugpy and pytest.
pub fn python() -> PathBuf {
    let python = peers().join("venv/bin/python");
    let ok = Command::new(&python)
        .args(["-c", "import debugpy.adapter, pytest"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "debugpy or pytest is not installed in {}: run scripts/install-test-peers.sh",
        peers().join("venv").display()
    );
    python
}

/// Where adapters are looked for: the process's `PATH`, and the test venv's Python first.
pub fn lookup() -> Lookup {
    Lookup { path: None, python: Some(python()) }
}

/// The js-debug server script.
pub fn js_debug_server() -> PathBuf {
    let server = peers().join("js-debug/package/dist/vendor/js-debug/vsDebugServer.cjs");
    assert!(
        server.is_file(),
        "js-debug is not installed at {}: run scripts/install-debug-adapters.sh",
        server.display()
    );
    server
}

/// The built-in adapters, with js-debug's server named (the built-in file finds it through
/// `LOCUS_JS_DEBUG_SERVER`, which tests do not set process-wide).
pub fn registry() -> Registry {
    let builtin = Registry::builtin();
    let server = js_debug_server().display().to_string();
    let texts: Vec<(String, String)> = crate::adapter::builtin_texts()
        .iter()
        .map(|(name, text)| {
            (format!("{name}.toml"), text.replace("${env:LOCUS_JS_DEBUG_SERVER}", &server))
        })
        .collect();
    let registry = Registry::from_texts(texts.iter().map(|(n, t)| (n.as_str(), t.as_str())))
        .expect("the built-in files parse");
    assert_eq!(registry.all().len(), builtin.all().len());
    registry
}

/// Checks that a program is on `PATH`, else panics with the install script.
pub fn require(program: &str) {
    let found = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()));
    assert!(found, "{program} is not installed: run scripts/install-debug-adapters.sh");
}

/// Builds a C test program with `gcc -g -O0` into a fresh folder; answers the binary.
pub fn build_c(name: &str) -> PathBuf {
    require("gcc");
    let source = program(name);
    let dir = std::env::temp_dir().join(format!(
        "locus-dap-c-{}-{}",
        std::process::id(),
        source.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join(source.file_stem().unwrap());
    let built = Command::new("gcc")
        .args(["-g", "-O0", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap_or_else(|e| panic!("gcc: {e}; run scripts/install-debug-adapters.sh"));
    assert!(built.success(), "gcc failed to build {}", source.display());
    binary
}

/// Starts an in-process scripted adapter on a loopback port and answers the port: a DAP
/// server, as `debugpy --listen` is, for measuring Locus's own cost per request with an
/// adapter that takes no time. Every connection gets the same script: `initialize`, then on
/// `attach` or `launch` the `initialized` event; after `configurationDone` the program is
/// stopped at a breakpoint in `total` of `programs/cart.py` (line 11, locals `acc`, `item`,
/// `self`); `evaluate` answers `"30"`; steps and `continue` stop again at once; `disconnect`
/// ends the connection. Needs a Tokio runtime.
pub async fn fake_adapter() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let program = program("cart.py");
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let _ = stream.set_nodelay(true);
            tokio::spawn(serve_fake(stream, program.clone()));
        }
    });
    port
}

async fn serve_fake(stream: tokio::net::TcpStream, program: PathBuf) {
    use serde_json::{Value, json};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use crate::protocol::{Decoded, Decoder, encode};

    let (mut read, mut write) = stream.into_split();
    let mut decoder = Decoder::default();
    let mut buf = vec![0u8; 64 * 1024];
    let mut seq = 0;
    let mut held: Option<Value> = None;
    let mut out = Vec::new();
    let mut message = |kind: &str, mut body: Value| {
        seq += 1;
        body["seq"] = seq.into();
        body["type"] = kind.into();
        encode(&body)
    };
    let response = |request: &Value, body: Value| {
        json!({"request_seq": request["seq"], "success": true, "command": request["command"],
               "body": body})
    };
    let event = |name: &str, body: Value| json!({"event": name, "body": body});
    let stopped = |reason: &str| {
        event(
            "stopped",
            json!({"reason": reason, "threadId": 1, "allThreadsStopped": true,
                                "hitBreakpointIds": if reason == "breakpoint" { json!([1]) } else { json!([]) }}),
        )
    };
    loop {
        let n = match read.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        decoder.push(&buf[..n]);
        while let Some(decoded) = decoder.next() {
            let Decoded::Message(request) = decoded else { continue };
            let command = request["command"].as_str().unwrap_or_default().to_string();
            let answer = match command.as_str() {
                "initialize" => json!({"supportsConfigurationDoneRequest": true,
                                       "supportsSetVariable": true}),
                "attach" | "launch" => {
                    held = Some(request.clone());
                    out.extend(message("event", event("initialized", Value::Null)));
                    continue;
                }
                "setBreakpoints" => {
                    let lines = request["arguments"]["breakpoints"].as_array().cloned();
                    let list: Vec<Value> = lines
                        .unwrap_or_default()
                        .iter()
                        .enumerate()
                        .map(|(i, b)| json!({"id": i + 1, "verified": true, "line": b["line"]}))
                        .collect();
                    json!({"breakpoints": list})
                }
                "threads" => json!({"threads": [{"id": 1, "name": "MainThread"}]}),
                "stackTrace" => json!({"stackFrames": [
                    {"id": 1, "name": "total", "line": 11, "column": 13, "source": {"path": program}},
                    {"id": 2, "name": "main", "line": 18, "column": 5, "source": {"path": program}},
                ], "totalFrames": 2}),
                "scopes" => json!({"scopes": [
                    {"name": "Locals", "variablesReference": 10, "presentationHint": "locals", "expensive": false},
                ]}),
                "variables" => json!({"variables": [
                    {"name": "acc", "value": "0", "type": "int", "variablesReference": 0},
                    {"name": "item", "value": "3", "type": "int", "variablesReference": 0},
                    {"name": "self", "value": "<Cart>", "type": "Cart", "variablesReference": 11},
                ]}),
                "evaluate" => json!({"result": "30", "type": "int", "variablesReference": 0}),
                _ => Value::Null,
            };
            out.extend(message("response", response(&request, answer)));
            match command.as_str() {
                "configurationDone" => {
                    if let Some(attach) = held.take() {
                        out.extend(message("response", response(&attach, Value::Null)));
                    }
                    out.extend(message(
                        "event",
                        event(
                            "process",
                            json!({"name": program, "systemProcessId": std::process::id()}),
                        ),
                    ));
                    out.extend(message(
                        "event",
                        event("thread", json!({"reason": "started", "threadId": 1})),
                    ));
                    out.extend(message("event", stopped("breakpoint")));
                }
                "next" | "stepIn" | "stepOut" => out.extend(message("event", stopped("step"))),
                "continue" => out.extend(message("event", stopped("breakpoint"))),
                "disconnect" => {
                    let _ = write.write_all(&out).await;
                    return;
                }
                _ => {}
            }
        }
        if !out.is_empty() && write.write_all(&std::mem::take(&mut out)).await.is_err() {
            return;
        }
    }
}
