//! The client and the session against scripted fakes: an in-process adapter over a duplex
//! stream (framing, seq, timeouts, closed streams, reverse requests, the handshake order),
//! and small processes for the process paths (an adapter that dies, one that is killed, TCP
//! adapters that print their port or take it as an argument).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use locus_dap::{
    BreakOn, Client, ClientConfig, Error, Incoming, Launcher, Phase, PortSource, Registry, Resume,
    Session, SessionConfig, SourceBreakpoint, TcpDef, TransportDef,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream};

const BOUND: Duration = Duration::from_secs(5);

/// The adapter's end of an in-process connection.
struct Fake {
    read: BufReader<tokio::io::ReadHalf<DuplexStream>>,
    write: tokio::io::WriteHalf<DuplexStream>,
}

impl Fake {
    /// The next message the client sent.
    async fn recv(&mut self) -> Value {
        tokio::time::timeout(BOUND, async {
            let mut length = 0;
            loop {
                let mut line = String::new();
                self.read.read_line(&mut line).await.unwrap();
                assert!(!line.is_empty(), "the client closed the stream");
                if line == "\r\n" {
                    break;
                }
                let (name, value) = line.split_once(':').unwrap();
                assert_eq!(name, "Content-Length");
                length = value.trim().parse().unwrap();
            }
            let mut body = vec![0; length];
            self.read.read_exact(&mut body).await.unwrap();
            serde_json::from_slice(&body).unwrap()
        })
        .await
        .expect("the client sent nothing")
    }

    async fn send_raw(&mut self, bytes: &[u8]) {
        self.write.write_all(bytes).await.unwrap();
        self.write.flush().await.unwrap();
    }

    async fn send(&mut self, message: Value) {
        self.send_raw(&frame(&message)).await;
    }

    async fn respond(&mut self, request: &Value, body: Value) {
        self.send(json!({"seq": 0, "type": "response", "request_seq": request["seq"],
            "success": true, "command": request["command"], "body": body}))
            .await;
    }

    async fn event(&mut self, event: &str, body: Value) {
        self.send(json!({"seq": 0, "type": "event", "event": event, "body": body})).await;
    }
}

fn frame(message: &Value) -> Vec<u8> {
    let body = serde_json::to_vec(message).unwrap();
    [format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes(), body].concat()
}

fn config() -> ClientConfig {
    let mut config = ClientConfig::standard();
    config.request_timeout = BOUND;
    config
}

fn pair_with(config: ClientConfig) -> (Client, Fake) {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(ours);
    let client = Client::from_streams("fake", read, write, config);
    let (read, write) = tokio::io::split(theirs);
    (client, Fake { read: BufReader::new(read), write })
}

fn pair() -> (Client, Fake) {
    pair_with(config())
}

#[tokio::test]
async fn responses_are_matched_by_request_seq_whatever_their_order_and_chunks() {
    let (client, mut fake) = pair();
    let a = client.send("threads", &Value::Null).unwrap();
    let b = client.send("stackTrace", &json!({"threadId": 0})).unwrap();
    let ra = fake.recv().await;
    let rb = fake.recv().await;
    assert_eq!((ra["seq"].as_i64(), ra["type"].as_str()), (Some(1), Some("request")));
    assert_eq!((rb["seq"].as_i64(), rb["command"].as_str()), (Some(2), Some("stackTrace")));
    assert_eq!(rb["arguments"]["threadId"], 0);
    // The second is answered first, whole; the first after junk, one byte at a time.
    fake.respond(&rb, json!({"stackFrames": []})).await;
    let late = frame(&json!({"seq": 0, "type": "response", "request_seq": 1, "success": true,
        "command": "threads", "body": {"threads": [{"id": 0, "name": "main"}]}}));
    fake.send_raw(b"adapter noise\n").await;
    for byte in late {
        fake.send_raw(&[byte]).await;
    }
    assert_eq!(b.wait(BOUND).await.unwrap(), json!({"stackFrames": []}));
    assert_eq!(a.wait(BOUND).await.unwrap()["threads"][0]["name"], "main");
}

#[tokio::test]
async fn a_request_without_an_answer_times_out_and_the_connection_goes_on() {
    let (client, mut fake) = pair();
    let started = Instant::now();
    let err = client.request_within("evaluate", json!({}), Duration::from_millis(200)).await;
    assert_eq!(
        err.unwrap_err(),
        Error::Timeout { command: "evaluate".into(), after: Duration::from_millis(200) }
    );
    assert!(started.elapsed() < BOUND);
    let ignored = fake.recv().await;
    // The late answer is dropped; the next request is answered as usual.
    fake.respond(&ignored, json!({"result": "late"})).await;
    let next = tokio::spawn({
        let client = client.clone();
        async move { client.request("threads", Value::Null).await }
    });
    let request = fake.recv().await;
    assert_eq!(request["seq"], 2);
    fake.respond(&request, json!({"threads": []})).await;
    assert_eq!(next.await.unwrap().unwrap(), json!({"threads": []}));
}

#[tokio::test]
async fn a_failed_request_carries_the_adapters_message() {
    let (client, mut fake) = pair();
    let pending = client.send("evaluate", &json!({"expression": "zz"})).unwrap();
    let request = fake.recv().await;
    fake.send(json!({"type": "response", "request_seq": request["seq"], "success": false,
        "command": "evaluate", "message": "error",
        "body": {"error": {"id": 1, "format": "name 'zz' is not defined"}}}))
        .await;
    assert_eq!(
        pending.wait(BOUND).await.unwrap_err(),
        Error::Failed { command: "evaluate".into(), message: "name 'zz' is not defined".into() }
    );
}

#[tokio::test]
async fn a_closed_stream_ends_pending_requests_subscribers_and_later_requests() {
    let (client, fake) = pair();
    let mut events = client.subscribe();
    let pending = client.send("threads", &Value::Null).unwrap();
    drop(fake);
    let err = pending.wait(BOUND).await.unwrap_err();
    assert!(matches!(err, Error::StreamClosed { .. }), "{err:?}");
    assert_eq!(err.code(), "E_SESSION_ENDED");
    assert!(matches!(events.recv().await, Some(Incoming::Closed(e)) if e == err));
    assert!(events.recv().await.is_none());
    assert_eq!(client.request("threads", Value::Null).await.unwrap_err(), err);
    assert!(matches!(client.subscribe().recv().await, Some(Incoming::Closed(_))));
}

#[tokio::test]
async fn events_reach_every_subscriber_unknown_ones_included() {
    let (client, mut fake) = pair();
    let mut one = client.subscribe();
    let mut two = client.subscribe();
    fake.event("debugpySockets", json!({"sockets": []})).await;
    fake.send(json!({"type": "event", "event": "loadedSource"})).await;
    for sub in [&mut one, &mut two] {
        for name in ["debugpySockets", "loadedSource"] {
            match tokio::time::timeout(BOUND, sub.recv()).await.unwrap() {
                Some(Incoming::Event(e)) => assert_eq!(e.event, name),
                other => panic!("{other:?}"),
            }
        }
    }
}

#[tokio::test]
async fn reverse_requests_are_always_answered() {
    let (client, mut fake) = pair();
    let mut events = client.subscribe();
    // runInTerminal starts the process and answers its pid, with our own seq.
    fake.send(json!({"seq": 0, "type": "request", "command": "runInTerminal",
        "arguments": {"kind": "integrated", "cwd": "/", "args": ["true"]}}))
        .await;
    let answer = fake.recv().await;
    assert_eq!(
        (answer["type"].as_str(), answer["success"].as_bool()),
        (Some("response"), Some(true))
    );
    assert_eq!(answer["seq"], 1);
    assert!(answer["body"]["processId"].as_u64().is_some_and(|p| p > 0), "{answer}");
    // startDebugging goes to the subscribers; dropped unanswered, it is refused.
    fake.send(json!({"seq": 7, "type": "request", "command": "startDebugging",
        "arguments": {"request": "launch", "configuration": {"type": "pwa-node"}}}))
        .await;
    match tokio::time::timeout(BOUND, events.recv()).await.unwrap() {
        Some(Incoming::StartDebugging(r)) => assert_eq!(r.request.arguments["request"], "launch"),
        other => panic!("{other:?}"),
    }
    let answer = fake.recv().await;
    assert_eq!(
        (answer["request_seq"].as_i64(), answer["success"].as_bool()),
        (Some(7), Some(false))
    );
    assert_eq!(answer["seq"], 2);
    // Anything else is refused by name.
    fake.send(json!({"seq": 8, "type": "request", "command": "teleport"})).await;
    let answer = fake.recv().await;
    assert_eq!(answer["success"], false);
    assert!(answer["message"].as_str().unwrap().contains("teleport"));
}

#[tokio::test]
async fn run_in_terminal_can_be_refused() {
    let mut config = config();
    config.run_in_terminal = false;
    let (_client, mut fake) = pair_with(config);
    fake.send(json!({"seq": 3, "type": "request", "command": "runInTerminal",
        "arguments": {"cwd": "/", "args": ["true"]}}))
        .await;
    let answer = fake.recv().await;
    assert_eq!(
        (answer["request_seq"].as_i64(), answer["success"].as_bool()),
        (Some(3), Some(false))
    );
}

fn fake_launcher() -> Launcher {
    Launcher {
        adapter: "debugpy".into(),
        program: "fake".into(),
        args: Vec::new(),
        transport: TransportDef::Stdio,
    }
}

/// An adapter that answers `launch` only after `configurationDone`, as debugpy does, uses
/// id 0 for its breakpoint and thread 0 (js-debug), and sends seq 0 (Delve, lldb-dap).
#[tokio::test]
async fn the_handshake_does_not_deadlock_and_hits_are_counted_by_id() {
    let (client, mut fake) = pair();
    let script = tokio::spawn(async move {
        let mut seen = Vec::new();
        let init = fake.recv().await;
        assert_eq!(init["arguments"]["linesStartAt1"], true);
        assert_eq!(init["arguments"]["pathFormat"], "path");
        assert_eq!(init["arguments"]["supportsRunInTerminalRequest"], true);
        fake.respond(&init, json!({"supportsConfigurationDoneRequest": true})).await;
        let launch = fake.recv().await;
        assert_eq!(launch["arguments"]["console"], "internalConsole", "the file's defaults");
        assert_eq!(launch["arguments"]["program"], "/w/app.py");
        fake.event("initialized", Value::Null).await;
        loop {
            let request = fake.recv().await;
            let command = request["command"].as_str().unwrap().to_string();
            seen.push(command.clone());
            match command.as_str() {
                "setBreakpoints" => {
                    assert_eq!(request["arguments"]["source"]["path"], "/w/app.py");
                    fake.respond(
                        &request,
                        json!({"breakpoints": [{"id": 0, "verified": true, "line": 7}]}),
                    )
                    .await;
                }
                "configurationDone" => {
                    fake.respond(&request, Value::Null).await;
                    fake.respond(&launch, Value::Null).await;
                    break;
                }
                _ => fake.respond(&request, Value::Null).await,
            }
        }
        fake.event("thread", json!({"reason": "started", "threadId": 0})).await;
        fake.event(
            "stopped",
            json!({"reason": "breakpoint", "threadId": 0, "hitBreakpointIds": [0]}),
        )
        .await;
        let top = fake.recv().await;
        assert_eq!(top["command"], "stackTrace");
        fake.respond(
            &top,
            json!({"stackFrames": [{"id": 0, "name": "f", "line": 7, "column": 1,
            "source": {"path": "/w/app.py"}}]}),
        )
        .await;
        let next = fake.recv().await;
        assert_eq!(
            (next["command"].as_str(), next["arguments"]["threadId"].as_i64()),
            (Some("next"), Some(0))
        );
        fake.respond(&next, Value::Null).await;
        fake.event("continued", json!({"threadId": 0, "allThreadsContinued": true})).await;
        fake.event("stopped", json!({"reason": "step", "threadId": 0})).await;
        let top = fake.recv().await;
        fake.respond(
            &top,
            json!({"stackFrames": [{"id": 0, "name": "f", "line": 8, "column": 1,
            "source": {"path": "/w/app.py"}}]}),
        )
        .await;
        (seen, fake)
    });
    let registry = Registry::builtin();
    let mut config = SessionConfig::standard();
    config.handshake_timeout = BOUND;
    let session = Session::over(client, registry.get("debugpy").unwrap(), fake_launcher(), config)
        .await
        .unwrap();
    let app = Path::new("/w/app.py");
    session.set_breakpoints(app, &[SourceBreakpoint::at(7)]).await.unwrap();
    session.launch(&json!({"program": "/w/app.py"})).await.unwrap();
    let stop = session.wait_for_stop(0, BOUND).await.unwrap();
    assert_eq!((stop.thread_id, stop.breakpoints.as_slice()), (Some(0), &[1][..]));
    assert_eq!(session.breakpoints()[0].hit_count, 1);
    assert_eq!(session.breakpoints()[0].actual_line, Some(7));
    let step = session.step(Resume::Next, None, BOUND).await.unwrap();
    assert_eq!(step.position.unwrap().line, 8);
    assert_eq!(session.breakpoints()[0].hit_count, 1, "a step is not a hit");
    let (seen, fake) = script.await.unwrap();
    assert_eq!(seen, ["setBreakpoints", "configurationDone"]);
    // The adapter goes away: the session ends, and so does every waiter.
    let stops = session.stops();
    drop(fake);
    let err = session.wait_for_stop(stops, BOUND).await.unwrap_err();
    assert!(err.is_end(), "{err:?}");
    assert!(matches!(session.snapshot().phase, Phase::Ended(_)));
}

/// Without `hitBreakpointIds` (Delve with a hit condition), hits are counted by location.
#[tokio::test]
async fn hits_are_counted_by_location_when_the_adapter_names_no_breakpoint() {
    let (client, mut fake) = pair();
    tokio::spawn(async move {
        let init = fake.recv().await;
        fake.respond(&init, json!({"supportsConfigurationDoneRequest": true})).await;
        let launch = fake.recv().await;
        fake.respond(&launch, Value::Null).await;
        fake.event("initialized", Value::Null).await;
        loop {
            let request = fake.recv().await;
            match request["command"].as_str().unwrap() {
                "setBreakpoints" => {
                    fake.respond(&request, json!({"breakpoints": [{"id": 5, "verified": true}]}))
                        .await
                }
                "configurationDone" => {
                    fake.respond(&request, Value::Null).await;
                    break;
                }
                _ => fake.respond(&request, Value::Null).await,
            }
        }
        fake.event("stopped", json!({"reason": "breakpoint", "threadId": 1})).await;
        let top = fake.recv().await;
        fake.respond(
            &top,
            json!({"stackFrames": [{"id": 1000, "name": "main.main", "line": 12,
            "column": 1, "source": {"path": "/w/main.go"}}]}),
        )
        .await;
        let threads = fake.recv().await;
        fake.respond(&threads, json!({"threads": [{"id": 1, "name": "main"}]})).await;
        fake.event("terminated", Value::Null).await;
        // The courtesy disconnect after `terminated`.
        let disconnect = fake.recv().await;
        assert_eq!(disconnect["command"], "disconnect");
        fake.respond(&disconnect, Value::Null).await;
        std::future::pending::<()>().await;
    });
    let registry = Registry::builtin();
    let session = Session::over(
        client,
        registry.get("delve").unwrap(),
        fake_launcher(),
        SessionConfig::standard(),
    )
    .await
    .unwrap();
    session.set_breakpoints(Path::new("/w/main.go"), &[SourceBreakpoint::at(12)]).await.unwrap();
    session.launch(&json!({"program": "/w"})).await.unwrap();
    let stop = session.wait_for_stop(0, BOUND).await.unwrap();
    assert_eq!(stop.breakpoints, [1]);
    assert_eq!(session.breakpoints()[0].hit_count, 1);
    let threads = session.threads().await.unwrap();
    assert!(threads[0].stopped, "{threads:?}");
    let end = session.wait_for_end(BOUND).await.unwrap();
    assert_eq!(
        end,
        Error::SessionEnded {
            reason: "the debug adapter ended the session".into(),
            exit_code: None
        }
    );
}

/// A stop that names a breakpoint by an id whose `setBreakpoints` answer is not read yet (a
/// js-debug child under load): attributed by location at once when the line is the one asked
/// for, else by id once the answer comes; counted once either way.
#[tokio::test]
async fn a_stop_before_the_breakpoints_answer_is_attributed_once() {
    for (asked, moved_to) in [(12, 12), (11, 12)] {
        let (client, mut fake) = pair();
        let script = tokio::spawn(async move {
            let init = fake.recv().await;
            fake.respond(&init, json!({"supportsConfigurationDoneRequest": true})).await;
            let launch = fake.recv().await;
            fake.event("initialized", Value::Null).await;
            let set = fake.recv().await;
            assert_eq!(set["command"], "setBreakpoints");
            // The program stops before the breakpoints are answered.
            fake.event(
                "stopped",
                json!({"reason": "breakpoint", "threadId": 0, "hitBreakpointIds": [7]}),
            )
            .await;
            let top = fake.recv().await;
            assert_eq!(top["command"], "stackTrace");
            fake.respond(
                &top,
                json!({"stackFrames": [{"id": 1, "name": "total", "line": moved_to, "column": 1,
                "source": {"path": "/w/loop.js"}}]}),
            )
            .await;
            fake.respond(
                &set,
                json!({"breakpoints": [{"id": 7, "verified": true, "line": moved_to}]}),
            )
            .await;
            let done = fake.recv().await;
            assert_eq!(done["command"], "configurationDone");
            fake.respond(&done, Value::Null).await;
            fake.respond(&launch, Value::Null).await;
            fake
        });
        let registry = Registry::builtin();
        let mut config = SessionConfig::standard();
        config.handshake_timeout = BOUND;
        let session =
            Session::over(client, registry.get("js-debug").unwrap(), fake_launcher(), config)
                .await
                .unwrap();
        session
            .set_breakpoints(Path::new("/w/loop.js"), &[SourceBreakpoint::at(asked)])
            .await
            .unwrap();
        session.launch(&json!({"program": "/w/loop.js"})).await.unwrap();
        session.wait_for_stop(0, BOUND).await.unwrap();
        let _fake = script.await.unwrap();
        let snapshot = session.snapshot();
        assert_eq!(snapshot.stop.unwrap().breakpoints, [1], "asked {asked}, stopped at {moved_to}");
        assert_eq!(snapshot.breakpoints[0].hit_count, 1, "asked {asked}, stopped at {moved_to}");
    }
}

fn process(program: &str, args: &[&str], transport: TransportDef) -> Launcher {
    Launcher {
        adapter: "scripted".into(),
        program: PathBuf::from(program),
        args: args.iter().map(|a| a.to_string()).collect(),
        transport,
    }
}

#[tokio::test]
async fn an_adapter_that_exits_says_how_with_its_stderr() {
    let launcher =
        process("/bin/sh", &["-c", "echo 'no module named x' >&2; exit 3"], TransportDef::Stdio);
    let client = Client::start(&launcher, config()).await.unwrap();
    let err = client.request("initialize", json!({})).await.unwrap_err();
    match &err {
        Error::AdapterExited { status, stderr } => {
            assert_eq!(status, "exit code 3");
            assert!(stderr.contains("no module named x"), "{stderr}");
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("no module named x"));
}

#[tokio::test]
async fn a_killed_adapter_is_reported_within_a_second() {
    // A process that holds its pipes open until it is killed, with a child that inherits them.
    let launcher =
        process("/bin/sh", &["-c", "sleep 60 & echo ready >&2; sleep 60"], TransportDef::Stdio);
    let client = Client::start(&launcher, config()).await.unwrap();
    let pending = client.send("threads", &Value::Null).unwrap();
    let deadline = Instant::now() + BOUND;
    while !client.stderr_tail().contains("ready") {
        assert!(Instant::now() < deadline, "the scripted adapter did not start");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let pid = client.adapter_pid().unwrap();
    let killed = Instant::now();
    locus_platform::process::kill(pid);
    let err = pending.wait(Duration::from_secs(30)).await.unwrap_err();
    let took = killed.elapsed();
    eprintln!("a killed adapter was reported after {} ms", took.as_millis());
    assert!(took < BOUND, "reported after {took:?}; the contract is 1 s");
    assert_eq!(
        err,
        Error::AdapterExited { status: "killed by signal 9".into(), stderr: "ready\n".into() }
    );
    client.shutdown(err);
}

fn tcp_adapter(args: &[&str], port: PortSource) -> Launcher {
    let script = locus_dap::testing::program("tcp_adapter.py");
    let mut all = vec!["-u".to_string(), script.display().to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    Launcher {
        adapter: "tcp".into(),
        program: PathBuf::from("python3"),
        args: all,
        transport: TransportDef::Tcp(TcpDef {
            port,
            listening: (port == PortSource::Printed).then(|| "listening at".to_string()),
        }),
    }
}

#[tokio::test]
async fn a_tcp_adapter_that_prints_its_port() {
    let client =
        Client::start(&tcp_adapter(&["--listen"], PortSource::Printed), config()).await.unwrap();
    let body = client.request("initialize", json!({})).await.unwrap();
    assert_eq!(body, json!({"echo": "initialize", "connection": 1}));
    // A second connection to the same server, as js-debug's child sessions need.
    let child = client.connect_again().await.unwrap();
    assert_eq!(child.request("launch", json!({})).await.unwrap()["connection"], 2);
    client.shutdown(Error::SessionEnded { reason: "done".into(), exit_code: None });
}

#[tokio::test]
async fn a_tcp_adapter_that_takes_its_port_as_an_argument() {
    let client = Client::start(&tcp_adapter(&["--port", "{port}"], PortSource::Argument), config())
        .await
        .unwrap();
    let body = client.request("threads", Value::Null).await.unwrap();
    assert_eq!(body["echo"], "threads");
    assert!(client.connect_again().await.is_ok());
    client.shutdown(Error::SessionEnded { reason: "done".into(), exit_code: None });
}

#[tokio::test]
async fn a_tcp_adapter_that_never_prints_its_port_fails_with_a_bound() {
    let launcher = process(
        "/bin/sh",
        &["-c", "echo starting; echo oops >&2; sleep 60"],
        TransportDef::Tcp(TcpDef {
            port: PortSource::Printed,
            listening: Some("listening at".into()),
        }),
    );
    let mut config = config();
    config.connect_timeout = Duration::from_millis(500);
    let err = Client::start(&launcher, config).await.unwrap_err();
    assert!(
        matches!(&err, Error::Spawn { message, .. } if message.contains("within 500 ms")),
        "{err:?}"
    );
}

/// Whether a process runs (a zombie has ended).
fn alive(pid: u32) -> bool {
    locus_platform::process::alive(pid)
}

/// An adapter that would outlive Locus (this one waits for its next connection, its pipes
/// still open) dies with the thread that started it, as with a SIGKILLed Locus: the runtime
/// and the client are leaked, so nothing of Locus's ends it; only `PR_SET_PDEATHSIG` can.
#[test]
fn an_adapter_dies_with_the_thread_that_started_it() {
    let pid = std::thread::spawn(|| {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let launcher = tcp_adapter(&["--listen"], PortSource::Printed);
        let client = rt.block_on(Client::start(&launcher, config())).unwrap();
        let pid = client.adapter_pid().unwrap();
        assert!(alive(pid));
        std::mem::forget(client);
        std::mem::forget(rt);
        pid
    })
    .join()
    .unwrap();
    let deadline = Instant::now() + BOUND;
    while alive(pid) {
        assert!(Instant::now() < deadline, "the adapter {pid} outlived the thread that started it");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The exception filters sent are the adapter file's for the session's `breakOn` that the
/// adapter declares; a stop for an exception carries what `exceptionInfo` answers, asked beside
/// the top frame; a change of `breakOn` mid-session is sent at once.
#[tokio::test]
async fn exception_filters_follow_break_on_and_a_crash_stop_carries_the_exception() {
    let (client, mut fake) = pair();
    let script = tokio::spawn(async move {
        let init = fake.recv().await;
        let filters = json!([{"filter": "raised", "label": "Raised"}, {"filter": "uncaught", "label": "Uncaught"}]);
        fake.respond(
            &init,
            json!({"supportsConfigurationDoneRequest": true,
            "supportsExceptionInfoRequest": true, "exceptionBreakpointFilters": filters}),
        )
        .await;
        let launch = fake.recv().await;
        fake.event("initialized", Value::Null).await;
        let mut sent = Vec::new();
        loop {
            let request = fake.recv().await;
            match request["command"].as_str().unwrap() {
                "setExceptionBreakpoints" => {
                    sent.push(request["arguments"]["filters"].clone());
                    fake.respond(&request, Value::Null).await;
                }
                "configurationDone" => {
                    fake.respond(&request, Value::Null).await;
                    fake.respond(&launch, Value::Null).await;
                    break;
                }
                _ => fake.respond(&request, Value::Null).await,
            }
        }
        fake.event(
            "stopped",
            json!({"reason": "exception", "threadId": 1, "description": "ValueError"}),
        )
        .await;
        // The top frame and the exception, both asked before either is answered.
        let (a, b) = (fake.recv().await, fake.recv().await);
        let mut asked = [a["command"].as_str().unwrap(), b["command"].as_str().unwrap()];
        asked.sort_unstable();
        assert_eq!(asked, ["exceptionInfo", "stackTrace"]);
        for request in [a, b] {
            let body = match request["command"].as_str().unwrap() {
                "stackTrace" => {
                    json!({"stackFrames": [{"id": 1, "name": "parse", "line": 5, "column": 1, "source": {"path": "/w/crash.py"}}]})
                }
                _ => {
                    json!({"exceptionId": "ValueError", "description": "bad", "breakMode": "unhandled",
                            "details": {"message": "invalid literal", "typeName": "ValueError", "stackTrace": "  File crash.py, line 5"}})
                }
            };
            fake.respond(&request, body).await;
        }
        let change = fake.recv().await;
        assert_eq!(change["command"], "setExceptionBreakpoints");
        sent.push(change["arguments"]["filters"].clone());
        fake.respond(&change, Value::Null).await;
        (sent, fake)
    });
    let registry = Registry::builtin();
    let mut config = SessionConfig::standard();
    config.handshake_timeout = BOUND;
    let session = Session::over(client, registry.get("debugpy").unwrap(), fake_launcher(), config)
        .await
        .unwrap();
    session.set_break_on(BreakOn::Uncaught).await.unwrap();
    session.launch(&json!({"program": "/w/crash.py"})).await.unwrap();
    let stop = session.wait_for_stop(0, BOUND).await.unwrap();
    assert_eq!(stop.reason, "exception");
    let e = stop.exception.expect("the exception of the stop");
    assert_eq!(
        (e.type_name.as_deref(), e.message.as_deref(), e.break_mode.as_deref()),
        (Some("ValueError"), Some("invalid literal"), Some("unhandled"))
    );
    assert_eq!(session.set_break_on(BreakOn::Raised).await.unwrap(), ["raised", "uncaught"]);
    let (sent, _fake) = script.await.unwrap();
    assert_eq!(sent, [json!(["uncaught"]), json!(["raised", "uncaught"])]);
}
