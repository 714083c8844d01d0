//! The connection to one debug adapter: starting it (stdio, or TCP with the port printed by the
//! adapter or passed to it), one reader task, one writer task, requests matched to responses,
//! events fanned out, reverse requests answered, and the adapter's stderr kept for errors.
//!
//! **Invariants.**
//! - Our `seq` starts at 1 and increases by one per message we send, requests and responses
//!   alike; it is assigned and queued under one lock, so the adapter sees them in order.
//!   Responses are matched by `request_seq` only; the adapter's `seq` is never used.
//! - Every request has a deadline ([`Error::Timeout`]); a late response is dropped.
//! - Every reverse request is answered: `runInTerminal` by starting the process (or an error
//!   when the configuration forbids it), `startDebugging` by whoever takes the
//!   [`ReverseRequest`] from the event stream, or with an error when every copy of it is
//!   dropped unanswered, any other command with an error.
//! - The connection ends exactly once, with one error that every pending request, every later
//!   request and every subscriber receives: [`Error::AdapterExited`] when the process exited
//!   (within a short grace after its exit even if something else holds its pipes open),
//!   [`Error::StreamClosed`] when only the stream closed, or the reason [`Client::shutdown`]
//!   was given. Both carry the tail of the adapter's stderr.
//! - The adapter runs in a process group of its own, killed as a whole on shutdown and when
//!   the last [`Client`] is dropped, so adapters and the programs they launched do not outlive
//!   the session.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use locus_platform::group::{self, ProcessGroup};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot, watch};

use crate::adapter::Launcher;
use crate::def::{PortSource, TransportDef};
use crate::error::Error;
use crate::protocol::{self, Decoded, Event, Message, Request, Response};
use crate::traffic::{Direction, Traffic, TrafficPage};
use crate::types::{self, RunInTerminalArguments};

/// How a client behaves. There is no `Default`: callers say what they want
/// ([`ClientConfig::standard`] is the usual choice).
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// The deadline of a request that names none.
    pub request_timeout: Duration,
    /// How long to wait for a TCP adapter to print its port or accept the connection.
    pub connect_timeout: Duration,
    /// How many bytes of the adapter's stderr to keep for error messages.
    pub stderr_tail: usize,
    /// Whether `runInTerminal` starts the process (with its output discarded).
    pub run_in_terminal: bool,
    /// The adapter's working directory (Delve needs the Go module's folder).
    pub cwd: Option<PathBuf>,
    /// Variables added to the adapter's environment.
    pub env: Vec<(String, String)>,
}

impl ClientConfig {
    /// 30 s requests, 10 s to connect, 8 KiB of stderr, `runInTerminal` allowed.
    pub fn standard() -> ClientConfig {
        ClientConfig {
            request_timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            stderr_tail: 8 * 1024,
            run_in_terminal: true,
            cwd: None,
            env: Vec::new(),
        }
    }
}

/// What a subscriber receives, in the order the adapter sent it.
#[derive(Debug, Clone)]
pub enum Incoming {
    /// An event, unknown ones included (the subscriber ignores what it does not know).
    Event(Event),
    /// A `startDebugging` reverse request: answer it with [`ReverseRequest::respond`].
    StartDebugging(ReverseRequest),
    /// The connection ended; nothing follows.
    Closed(Error),
}

/// A reverse request waiting for its answer. Copies share one answer; when the last copy is
/// dropped unanswered, the adapter gets an error response.
#[derive(Debug, Clone)]
pub struct ReverseRequest {
    /// The request as the adapter sent it.
    pub request: Request,
    answer: Arc<Answer>,
}

impl ReverseRequest {
    /// Answers the request (once; later answers are ignored).
    pub fn respond(&self, result: Result<Value, String>) {
        self.answer.send(&self.request, result);
    }
}

#[derive(Debug)]
struct Answer {
    outbox: Arc<Outbox>,
    request: Request,
    done: Mutex<bool>,
}

impl Answer {
    fn send(&self, request: &Request, result: Result<Value, String>) {
        let mut done = self.done.lock().unwrap();
        if !*done {
            *done = true;
            let _ = self
                .outbox
                .send(|seq| protocol::response_value(seq, request.seq, &request.command, result));
        }
    }
}

impl Drop for Answer {
    fn drop(&mut self) {
        let request = self.request.clone();
        self.send(&request, Err(format!("{} was not handled by Locus", request.command)));
    }
}

/// Our side's sequence counter and the queue to the writer task, and the traffic both ways.
#[derive(Debug)]
struct Outbox {
    next_seq: Mutex<i64>,
    tx: mpsc::UnboundedSender<Vec<u8>>,
    traffic: Mutex<Traffic>,
}

impl Outbox {
    /// Builds a message with the next `seq` and queues it; `Err` when the writer is gone.
    fn send(&self, build: impl FnOnce(i64) -> Value) -> Result<i64, ()> {
        let mut next = self.next_seq.lock().unwrap();
        let seq = *next;
        let message = build(seq);
        self.tx.send(protocol::encode(&message)).map_err(|_| ())?;
        self.traffic.lock().unwrap().record(Direction::Sent, &message);
        *next += 1;
        Ok(seq)
    }
}

type Reply = oneshot::Sender<Result<Response, Error>>;

struct Inner {
    adapter: String,
    outbox: Arc<Outbox>,
    pending: Mutex<HashMap<i64, Reply>>,
    subscribers: Mutex<Vec<mpsc::UnboundedSender<Incoming>>>,
    closed: Mutex<Option<Error>>,
    stderr: Arc<Mutex<Tail>>,
    /// The adapter's process tree, when Locus started it.
    group: Option<ProcessGroup>,
    /// The programs started for `runInTerminal`, each a tree of its own.
    terminals: Mutex<Vec<(tokio::process::Child, ProcessGroup)>>,
    config: ClientConfig,
    /// Where a second connection goes (`startDebugging` on a TCP adapter).
    address: Option<SocketAddr>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.kill();
    }
}

impl Inner {
    fn kill(&self) {
        if let Some(group) = &self.group {
            group.kill();
        }
        for (child, group) in self.terminals.lock().unwrap().iter_mut() {
            group.kill();
            let _ = child.start_kill();
        }
    }

    /// Ends the connection with `error`, once: every waiter and subscriber gets it.
    fn close(&self, error: Error) {
        {
            let mut closed = self.closed.lock().unwrap();
            if closed.is_some() {
                return;
            }
            *closed = Some(error.clone());
        }
        for (_, reply) in self.pending.lock().unwrap().drain() {
            let _ = reply.send(Err(error.clone()));
        }
        for sub in self.subscribers.lock().unwrap().drain(..) {
            let _ = sub.send(Incoming::Closed(error.clone()));
        }
    }

    fn closed(&self) -> Option<Error> {
        self.closed.lock().unwrap().clone()
    }

    fn publish(&self, incoming: Incoming) {
        self.subscribers.lock().unwrap().retain(|s| s.send(incoming.clone()).is_ok());
    }

    fn stderr_tail(&self) -> String {
        self.stderr.lock().unwrap().text()
    }
}

/// A connection to a debug adapter. Cheap to clone; all clones share the connection.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client").field("adapter", &self.inner.adapter).finish_non_exhaustive()
    }
}

/// A request sent and not yet answered.
#[derive(Debug)]
pub struct PendingResponse {
    command: String,
    rx: oneshot::Receiver<Result<Response, Error>>,
    inner: Weak<Inner>,
    seq: i64,
}

impl PendingResponse {
    /// The response's body, or the error the request ended in, within `timeout`.
    pub async fn wait(self, timeout: Duration) -> Result<Value, Error> {
        let PendingResponse { command, rx, inner, seq } = self;
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(Ok(response))) if response.success => Ok(response.body),
            Ok(Ok(Ok(response))) => Err(Error::Failed { command, message: response.error_text() }),
            Ok(Ok(Err(error))) => Err(error),
            Ok(Err(_)) => Err(inner
                .upgrade()
                .and_then(|i| i.closed())
                .unwrap_or(Error::StreamClosed { stderr: String::new() })),
            Err(_) => {
                if let Some(inner) = inner.upgrade() {
                    inner.pending.lock().unwrap().remove(&seq);
                }
                Err(Error::Timeout { command, after: timeout })
            }
        }
    }
}

impl Client {
    /// Starts the adapter and connects to it.
    pub async fn start(launcher: &Launcher, config: ClientConfig) -> Result<Client, Error> {
        let spawn_error = |message: String| Error::Spawn {
            adapter: launcher.adapter.clone(),
            message,
            stderr: String::new(),
        };
        let (port, args) = match &launcher.transport {
            TransportDef::Tcp(tcp) if tcp.port == PortSource::Argument => {
                let port = free_port().map_err(|e| spawn_error(format!("no free port: {e}")))?;
                let args =
                    launcher.args.iter().map(|a| a.replace("{port}", &port.to_string())).collect();
                (Some(port), args)
            }
            _ => (None, launcher.args.clone()),
        };
        let mut command = tokio::process::Command::new(&launcher.program);
        command
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        group::prepare(command.as_std_mut());
        if let Some(cwd) = &config.cwd {
            command.current_dir(cwd);
        }
        command.envs(config.env.iter().map(|(k, v)| (k, v)));
        let mut child = command
            .spawn()
            .map_err(|e| spawn_error(format!("{}: {e}", launcher.command_line())))?;
        let pid = child.id().ok_or_else(|| spawn_error("it exited at once".into()))?;
        let group = ProcessGroup::adopt(pid);
        let stderr = Arc::new(Mutex::new(Tail::new(config.stderr_tail)));
        let stderr_done = spawn_stderr(child.stderr.take().unwrap(), stderr.clone());
        let (exit_tx, exit_rx) = watch::channel(None);
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        tokio::spawn(async move {
            let status = match child.wait().await {
                Ok(s) => locus_platform::process::describe_exit(s),
                Err(e) => format!("status unknown: {e}"),
            };
            let _ = exit_tx.send(Some(status));
        });
        // On failure the adapter's tree is killed when `parts`, which holds it, is dropped.
        let failed = |message: String, stderr: &Arc<Mutex<Tail>>| Error::Spawn {
            adapter: launcher.adapter.clone(),
            message,
            stderr: stderr.lock().unwrap().text(),
        };
        let parts = Parts {
            adapter: launcher.adapter.clone(),
            stderr,
            stderr_done,
            group: Some(group),
            exit: exit_rx,
            config,
        };
        match &launcher.transport {
            TransportDef::Stdio => Ok(Client::assemble(parts, stdout, stdin, None, None)),
            TransportDef::Tcp(tcp) => {
                let mut lines = BufReader::new(stdout).lines();
                let port = match (port, &tcp.listening) {
                    (Some(port), _) => port,
                    (None, listening) => {
                        let marker = listening.clone().unwrap_or_default();
                        let found = tokio::time::timeout(parts.config.connect_timeout, async {
                            while let Ok(Some(line)) = lines.next_line().await {
                                if line.contains(&marker)
                                    && let Some(port) = port_in(&line)
                                {
                                    return Ok(port);
                                }
                            }
                            Err("it exited before printing its port")
                        })
                        .await;
                        match found {
                            Ok(Ok(port)) => port,
                            Ok(Err(why)) => return Err(failed(why.into(), &parts.stderr)),
                            Err(_) => {
                                return Err(failed(
                                    format!(
                                        "it printed no line with {marker:?} within {} ms",
                                        parts.config.connect_timeout.as_millis()
                                    ),
                                    &parts.stderr,
                                ));
                            }
                        }
                    }
                };
                let address = SocketAddr::from(([127, 0, 0, 1], port));
                let stream = match connect(address, parts.config.connect_timeout).await {
                    Ok(s) => s,
                    Err(e) => {
                        return Err(failed(
                            format!("cannot connect to {address}: {e}"),
                            &parts.stderr,
                        ));
                    }
                };
                let (read, write) = stream.into_split();
                Ok(Client::assemble(parts, read, write, Some(lines), Some(address)))
            }
        }
    }

    /// A client over streams someone else opened (an adapter Locus did not start, or a fake
    /// in tests). The connection's end is [`Error::StreamClosed`].
    pub fn from_streams(
        adapter: &str,
        read: impl AsyncRead + Unpin + Send + 'static,
        write: impl AsyncWrite + Unpin + Send + 'static,
        config: ClientConfig,
    ) -> Client {
        let (_, exit) = watch::channel(None);
        let parts = Parts {
            adapter: adapter.to_string(),
            stderr: Arc::new(Mutex::new(Tail::new(config.stderr_tail))),
            stderr_done: watch::channel(true).1,
            group: None,
            exit,
            config,
        };
        Client::assemble(parts, read, write, None, None)
    }

    /// A connection to an adapter that is already listening at `host:port` and that Locus
    /// did not start (debugpy's `--listen` server inside a running program). Retried until
    /// the configured connect deadline; its end is [`Error::StreamClosed`].
    pub async fn connect(
        adapter: &str,
        host: &str,
        port: u16,
        config: ClientConfig,
    ) -> Result<Client, Error> {
        let failed = |message: String| Error::Spawn {
            adapter: adapter.to_string(),
            message,
            stderr: String::new(),
        };
        // The name's lookup counts against the same connect deadline: a resolver that never
        // answers cannot hold the call.
        let started = tokio::time::Instant::now();
        let address =
            tokio::time::timeout(config.connect_timeout, tokio::net::lookup_host((host, port)))
                .await
                .map_err(|_| {
                    failed(format!(
                        "cannot resolve {host}: no answer in {} ms",
                        config.connect_timeout.as_millis()
                    ))
                })?
                .map_err(|e| failed(format!("cannot resolve {host}: {e}")))?
                .next()
                .ok_or_else(|| failed(format!("{host} has no address")))?;
        let left = config.connect_timeout.saturating_sub(started.elapsed());
        let stream = connect(address, left)
            .await
            .map_err(|e| failed(format!("cannot connect to {host}:{port}: {e}")))?;
        let (read, write) = stream.into_split();
        let (_, exit) = watch::channel(None);
        let parts = Parts {
            adapter: adapter.to_string(),
            stderr: Arc::new(Mutex::new(Tail::new(config.stderr_tail))),
            stderr_done: watch::channel(true).1,
            group: None,
            exit,
            config,
        };
        Ok(Client::assemble(parts, read, write, None, Some(address)))
    }

    /// A second connection to the same TCP adapter, as `startDebugging` needs for js-debug's
    /// child sessions. The adapter process stays owned by this client.
    pub async fn connect_again(&self) -> Result<Client, Error> {
        let Some(address) = self.inner.address else {
            return Err(Error::Unsupported(format!(
                "{} talks over stdio; a child session needs a TCP adapter",
                self.inner.adapter
            )));
        };
        let stream = connect(address, self.inner.config.connect_timeout).await.map_err(|e| {
            Error::Spawn {
                adapter: self.inner.adapter.clone(),
                message: format!("cannot connect to {address}: {e}"),
                stderr: self.inner.stderr_tail(),
            }
        })?;
        let (read, write) = stream.into_split();
        Ok(Client::from_streams(&self.inner.adapter, read, write, self.inner.config.clone()))
    }

    fn assemble(
        parts: Parts,
        read: impl AsyncRead + Unpin + Send + 'static,
        write: impl AsyncWrite + Unpin + Send + 'static,
        stdout_lines: Option<tokio::io::Lines<BufReader<tokio::process::ChildStdout>>>,
        address: Option<SocketAddr>,
    ) -> Client {
        let (tx, rx) = mpsc::unbounded_channel();
        let started = parts.group.is_some();
        let inner = Arc::new(Inner {
            adapter: parts.adapter,
            outbox: Arc::new(Outbox {
                next_seq: Mutex::new(1),
                tx,
                traffic: Mutex::new(Traffic::new()),
            }),
            pending: Mutex::new(HashMap::new()),
            subscribers: Mutex::new(Vec::new()),
            closed: Mutex::new(None),
            stderr: parts.stderr,
            group: parts.group,
            terminals: Mutex::new(Vec::new()),
            config: parts.config,
            address,
        });
        tokio::spawn(write_loop(write, rx));
        tokio::spawn(read_loop(
            Arc::downgrade(&inner),
            read,
            parts.exit.clone(),
            parts.stderr_done,
        ));
        if started {
            tokio::spawn(watch_exit(Arc::downgrade(&inner), parts.exit));
        }
        if let Some(lines) = stdout_lines {
            tokio::spawn(forward_stdout(Arc::downgrade(&inner), lines));
        }
        Client { inner }
    }

    /// The adapter's name.
    pub fn adapter(&self) -> &str {
        &self.inner.adapter
    }

    /// The adapter's process id, when Locus started it.
    pub fn adapter_pid(&self) -> Option<u32> {
        self.inner.group.as_ref().map(ProcessGroup::id)
    }

    /// The last bytes of the adapter's stderr.
    pub fn stderr_tail(&self) -> String {
        self.inner.stderr_tail()
    }

    /// At most `limit` messages of the recent traffic, both ways, from the index `from` on
    /// (or the oldest kept): for diagnosing an adapter.
    pub fn traffic(&self, from: u64, limit: usize) -> TrafficPage {
        self.inner.outbox.traffic.lock().unwrap().page(from, limit)
    }

    /// Why the connection ended, once it has.
    pub fn closed(&self) -> Option<Error> {
        self.inner.closed()
    }

    /// A stream of everything the adapter sends from now on (events, `startDebugging`), ending
    /// with [`Incoming::Closed`]. Subscribe before sending the request whose events matter.
    pub fn subscribe(&self) -> mpsc::UnboundedReceiver<Incoming> {
        let (tx, rx) = mpsc::unbounded_channel();
        match self.inner.closed() {
            Some(error) => {
                let _ = tx.send(Incoming::Closed(error));
            }
            None => self.inner.subscribers.lock().unwrap().push(tx),
        }
        rx
    }

    /// Sends a request without waiting for its answer (`launch`, whose answer some adapters
    /// hold back until `configurationDone`).
    pub fn send(&self, command: &str, arguments: &Value) -> Result<PendingResponse, Error> {
        if let Some(error) = self.inner.closed() {
            return Err(error);
        }
        let (reply, rx) = oneshot::channel();
        let mut pending = self.inner.pending.lock().unwrap();
        let seq = self
            .inner
            .outbox
            .send(|seq| protocol::request_value(seq, command, arguments))
            .map_err(|()| {
                self.inner.closed().unwrap_or(Error::StreamClosed { stderr: self.stderr_tail() })
            })?;
        pending.insert(seq, reply);
        drop(pending);
        // The connection may have closed between the check and the insertion.
        if let Some(error) = self.inner.closed() {
            self.inner.pending.lock().unwrap().remove(&seq);
            return Err(error);
        }
        Ok(PendingResponse {
            command: command.to_string(),
            rx,
            inner: Arc::downgrade(&self.inner),
            seq,
        })
    }

    /// Sends a request and waits for its body, within the configured deadline.
    pub async fn request(&self, command: &str, arguments: Value) -> Result<Value, Error> {
        self.request_within(command, arguments, self.inner.config.request_timeout).await
    }

    /// Sends a request and waits for its body, within `timeout`.
    pub async fn request_within(
        &self,
        command: &str,
        arguments: Value,
        timeout: Duration,
    ) -> Result<Value, Error> {
        self.send(command, &arguments)?.wait(timeout).await
    }

    /// Ends the connection with `reason` and kills the adapter's process group and the
    /// processes `runInTerminal` started.
    pub fn shutdown(&self, reason: Error) {
        self.inner.close(reason);
        self.inner.kill();
    }
}

struct Parts {
    adapter: String,
    stderr: Arc<Mutex<Tail>>,
    stderr_done: watch::Receiver<bool>,
    group: Option<ProcessGroup>,
    exit: watch::Receiver<Option<String>>,
    config: ClientConfig,
}

async fn write_loop(mut write: impl AsyncWrite + Unpin, mut rx: mpsc::UnboundedReceiver<Vec<u8>>) {
    // After a failed write the queue is still drained, so that senders never see the writer
    // gone: the reader, which knows whether the adapter exited, says how the connection ended.
    let mut broken = false;
    while let Some(frame) = rx.recv().await {
        if !broken {
            broken = write.write_all(&frame).await.is_err() || write.flush().await.is_err();
        }
    }
}

/// How long the end of the stream waits for the adapter's exit status and the rest of its
/// stderr, so the error says why. Well inside the 1 s in which a death must be reported.
const END_GRACE: Duration = Duration::from_millis(300);

async fn read_loop(
    inner: Weak<Inner>,
    mut read: impl AsyncRead + Unpin,
    mut exit: watch::Receiver<Option<String>>,
    mut stderr_done: watch::Receiver<bool>,
) {
    let mut decoder = protocol::Decoder::default();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match read.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let Some(inner) = inner.upgrade() else { return };
        decoder.push(&buf[..n]);
        while let Some(decoded) = decoder.next() {
            match decoded {
                Decoded::Message(value) => {
                    inner.outbox.traffic.lock().unwrap().record(Direction::Received, &value);
                    match Message::from_value(value) {
                        Ok(message) => dispatch(&inner, message),
                        Err(why) => {
                            inner.stderr.lock().unwrap().note(&format!("[locus] skipped {why}"))
                        }
                    }
                }
                Decoded::Skipped(why) => {
                    inner.stderr.lock().unwrap().note(&format!("[locus] skipped {why}"))
                }
            }
        }
    }
    let Some(inner) = inner.upgrade() else { return };
    if inner.closed().is_some() {
        return;
    }
    // Tell an exit from a closed stream, and let the last stderr arrive.
    let _ = tokio::time::timeout(END_GRACE, async {
        let _ = exit.wait_for(Option::is_some).await;
        let _ = stderr_done.wait_for(|d| *d).await;
    })
    .await;
    let status = exit.borrow().clone();
    let stderr = inner.stderr_tail();
    inner.close(match status {
        Some(status) => Error::AdapterExited { status, stderr },
        None => Error::StreamClosed { stderr },
    });
}

/// Ends the connection when the adapter process exits, even if the stream stays open (a
/// program it launched may hold its stdout).
async fn watch_exit(inner: Weak<Inner>, mut exit: watch::Receiver<Option<String>>) {
    if exit.wait_for(Option::is_some).await.is_err() {
        return;
    }
    tokio::time::sleep(END_GRACE).await;
    let Some(inner) = inner.upgrade() else { return };
    let status = exit.borrow().clone().unwrap_or_default();
    inner.close(Error::AdapterExited { status, stderr: inner.stderr_tail() });
}

/// A TCP adapter's stdout after its address line is the program's output for some adapters
/// (Delve): it is published as `output` events of category `stdout`.
async fn forward_stdout(
    inner: Weak<Inner>,
    mut lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
) {
    while let Ok(Some(line)) = lines.next_line().await {
        let Some(inner) = inner.upgrade() else { return };
        inner.publish(Incoming::Event(Event {
            event: "output".into(),
            body: json!({"category": "stdout", "output": format!("{line}\n")}),
        }));
    }
}

fn dispatch(inner: &Arc<Inner>, message: Message) {
    match message {
        Message::Response(response) => {
            if let Some(reply) = inner.pending.lock().unwrap().remove(&response.request_seq) {
                let _ = reply.send(Ok(response));
            }
        }
        Message::Event(event) => inner.publish(Incoming::Event(event)),
        Message::Request(request) => {
            let answer = Arc::new(Answer {
                outbox: inner.outbox.clone(),
                request: request.clone(),
                done: Mutex::new(false),
            });
            let reverse = ReverseRequest { request, answer };
            match reverse.request.command.as_str() {
                "runInTerminal" => {
                    let result = run_in_terminal(inner, &reverse.request.arguments);
                    reverse.respond(result);
                }
                "startDebugging" => inner.publish(Incoming::StartDebugging(reverse)),
                other => reverse.respond(Err(format!("Locus does not support {other}"))),
            }
        }
    }
}

fn run_in_terminal(inner: &Inner, arguments: &Value) -> Result<Value, String> {
    if !inner.config.run_in_terminal {
        return Err("runInTerminal is turned off in Locus".into());
    }
    let args: RunInTerminalArguments = types::parse("runInTerminal", arguments)?;
    let (program, rest) = args.args.split_first().ok_or("runInTerminal without a program")?;
    let mut command = tokio::process::Command::new(program);
    command
        .args(rest)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    group::prepare(command.as_std_mut());
    if !args.cwd.is_empty() {
        command.current_dir(&args.cwd);
    }
    for (k, v) in args.env.unwrap_or_default() {
        match v.as_str() {
            Some(v) => command.env(k, v),
            None => command.env_remove(k),
        };
    }
    let child = command.spawn().map_err(|e| format!("cannot start {program}: {e}"))?;
    let Some(pid) = child.id() else { return Err(format!("{program} exited at once")) };
    inner.terminals.lock().unwrap().push((child, ProcessGroup::adopt(pid)));
    Ok(json!({"processId": pid}))
}

fn spawn_stderr(
    mut stderr: tokio::process::ChildStderr,
    tail: Arc<Mutex<Tail>>,
) -> watch::Receiver<bool> {
    let (done_tx, done_rx) = watch::channel(false);
    tokio::spawn(async move {
        let mut buf = vec![0u8; 8 * 1024];
        while let Ok(n) = stderr.read(&mut buf).await {
            if n == 0 {
                break;
            }
            tail.lock().unwrap().push(&buf[..n]);
        }
        let _ = done_tx.send(true);
    });
    done_rx
}

/// The last `cap` bytes of a stream.
#[derive(Debug)]
struct Tail {
    bytes: std::collections::VecDeque<u8>,
    cap: usize,
}

impl Tail {
    fn new(cap: usize) -> Tail {
        Tail { bytes: Default::default(), cap }
    }

    fn push(&mut self, bytes: &[u8]) {
        self.bytes.extend(bytes);
        let extra = self.bytes.len().saturating_sub(self.cap);
        self.bytes.drain(..extra);
    }

    fn note(&mut self, line: &str) {
        self.push(format!("{line}\n").as_bytes());
    }

    fn text(&self) -> String {
        let (a, b) = self.bytes.as_slices();
        String::from_utf8_lossy(&[a, b].concat()).into_owned()
    }
}

fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The number after the last `:` of a line ("DAP server listening at: 127.0.0.1:41234").
fn port_in(line: &str) -> Option<u16> {
    let after = line.rsplit_once(':')?.1;
    let digits: String = after.trim_start().chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Connects, retrying every 100 ms while the adapter is still starting to listen.
async fn connect(address: SocketAddr, timeout: Duration) -> std::io::Result<tokio::net::TcpStream> {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        match tokio::net::TcpStream::connect(address).await {
            Ok(stream) => return Ok(stream),
            Err(e) if tokio::time::Instant::now() >= deadline => return Err(e),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_are_read_from_address_lines() {
        assert_eq!(port_in("DAP server listening at: 127.0.0.1:41234"), Some(41234));
        assert_eq!(port_in("Debug server listening at 127.0.0.1:9229\r"), Some(9229));
        assert_eq!(port_in("listening at: [::1]:80 (pid 3)"), Some(80));
        assert_eq!(port_in("no port here"), None);
    }

    #[test]
    fn the_stderr_tail_keeps_the_end() {
        let mut t = Tail::new(5);
        t.push(b"abcdefgh");
        t.push(b"ij");
        assert_eq!(t.text(), "fghij");
    }
}
