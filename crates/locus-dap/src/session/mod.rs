//! One debug session over a [`Client`]: the handshake in the order that does not deadlock,
//! breakpoints kept by Locus, execution control, inspection with Locus's own ids, and a state
//! machine fed by the adapter's events.
//!
//! **Invariants.**
//! - The handshake is `initialize` → `launch`/`attach` sent but not awaited → the
//!   `initialized` event → breakpoints, function breakpoints, exception breakpoints →
//!   `configurationDone` (when supported) → the `launch`/`attach` response. debugpy, CodeLLDB
//!   and js-debug answer `launch` only after `configurationDone`; Delve and lldb-dap before.
//! - Breakpoints are Locus's: the full set of each file is kept and sent whole
//!   (`setBreakpoints` replaces a file's set), with Locus ids that survive re-sends of the same
//!   line and are never reused. Hit counts are counted from `stopped.hitBreakpointIds`, or by
//!   the top frame's location when the adapter gives no ids.
//! - Frame and variable references are Locus's ([`FrameId`], [`VarRef`]) and die on every
//!   resume, whether Locus asked for it or a `continued` event said so.
//! - Waiting for a step waits for the `stopped` event, not the step's response.
//! - The session ends once: on `terminated`, on `disconnect`, or when the adapter dies; every
//!   waiter then gets [`Error::SessionEnded`] (with the exit code when known) or the
//!   connection's error, within the transport's grace (well under a second).
//! - A `startDebugging` reverse request (js-debug) opens a child session on a new connection
//!   to the same adapter, with the parent's breakpoints, and the parent is answered once the
//!   child is configured; later breakpoint changes on the parent reach its children. The
//!   program's stops live in the child ([`Session::child`]), its output in the parent.
//! - No MCP and no editor types: the tool layer turns [`Snapshot`]s and [`Error`]s into
//!   envelopes.
//!
//! This file is the API. The task that reads the adapter's events and feeds the state is in
//! `pump.rs`, the state it feeds in `state.rs`, and the values the API takes and gives back
//! in `data.rs`.

mod data;
mod memo;
mod pump;
mod state;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::watch;

pub use data::{
    BreakOn, BreakpointInfo, CodeLocation, ExceptionDetails, Frame, FunctionBreakpoint, Phase,
    Resume, ScopeInfo, SessionConfig, Snapshot, SourceBreakpoint, StopInfo, ThreadInfo,
    VariableInfo,
};

use data::position;
use pump::{Family, spawn_events};
use state::{Record, State, apply};

use crate::adapter::Launcher;
use crate::def::AdapterDef;
use crate::error::Error;
use crate::ids::{AdapterFrame, FrameId, Ids, VarRef};
use crate::output::{Output, OutputCursor, OutputRead};
use crate::transport::{Client, ReverseRequest};
use crate::types;

/// A debug session. Dropping it ends the adapter and the program it launched.
pub struct Session {
    client: Client,
    def: AdapterDef,
    launcher: Launcher,
    config: SessionConfig,
    state: Arc<Mutex<State>>,
    /// Bumped after every change of the state; waiters subscribe to it.
    changed: Arc<watch::Sender<u64>>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").field("adapter", &self.def.name).finish_non_exhaustive()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.kill_debuggee();
        self.client.shutdown(Error::SessionEnded {
            reason: "the session was closed".into(),
            exit_code: None,
        });
    }
}

impl Session {
    /// Finds and starts the adapter and sends `initialize`.
    pub async fn start(def: &AdapterDef, config: SessionConfig) -> Result<Session, Error> {
        // Resolution may run Python to ask for a module: off the async threads.
        let (owned, lookup) = (def.clone(), config.lookup.clone());
        let launcher =
            tokio::task::spawn_blocking(move || owned.resolve(&lookup)).await.map_err(|e| {
                Error::Spawn {
                    adapter: def.name.clone(),
                    message: format!("resolving the adapter failed: {e}"),
                    stderr: String::new(),
                }
            })??;
        let client = Client::start(&launcher, config.client.clone()).await?;
        Session::over(client, def, launcher, config).await
    }

    /// A session with an adapter already listening at `host:port` (a program's own debug
    /// server, `debugpy --listen`), sending `initialize`. Locus started no process: ending the
    /// session only closes the connection.
    pub async fn connect(
        def: &AdapterDef,
        host: &str,
        port: u16,
        config: SessionConfig,
    ) -> Result<Session, Error> {
        let client = Client::connect(&def.name, host, port, config.client.clone()).await?;
        let launcher = Launcher {
            adapter: def.name.clone(),
            program: PathBuf::from(format!("{host}:{port}")),
            args: Vec::new(),
            transport: crate::def::TransportDef::Tcp(crate::def::TcpDef {
                port: crate::def::PortSource::Argument,
                listening: None,
            }),
        };
        Session::over(client, def, launcher, config).await
    }

    /// A session over a connection someone else opened (a fake adapter in tests, or a child
    /// connection), sending `initialize`.
    pub async fn over(
        client: Client,
        def: &AdapterDef,
        launcher: Launcher,
        config: SessionConfig,
    ) -> Result<Session, Error> {
        let events = client.subscribe();
        let changed = Arc::new(watch::channel(0).0);
        let state = Arc::new(Mutex::new(State {
            phase: Phase::Starting,
            initialized: false,
            capabilities: Value::Null,
            stop: None,
            stops: 0,
            threads: BTreeMap::new(),
            files: BTreeMap::new(),
            functions: Vec::new(),
            // No exception stops unless asked ([`Session::set_break_on`]): the library sends
            // what its user chose; the tools choose `uncaught`, as VS Code does.
            break_on: BreakOn::Never,
            last_breakpoint: 0,
            exit_code: None,
            pid: None,
            launched: false,
            program: None,
            ids: Ids::default(),
            memo: Default::default(),
            output: Output::new(config.output_cap),
            children: Vec::new(),
            unattributed: Vec::new(),
        }));
        let family =
            Family { def: def.clone(), launcher: launcher.clone(), config: config.clone() };
        spawn_events(client.clone(), state.clone(), changed.clone(), events, family);
        let session = Session { client, def: def.clone(), launcher, config, state, changed };
        let arguments = json!({
            "clientID": "locus",
            "clientName": "Locus",
            "adapterID": def.name,
            "locale": "en",
            "pathFormat": "path",
            "linesStartAt1": true,
            "columnsStartAt1": true,
            "supportsVariableType": true,
            "supportsVariablePaging": true,
            "supportsRunInTerminalRequest": true,
            "supportsStartDebuggingRequest": true,
            "supportsProgressReporting": false,
            "supportsInvalidatedEvent": false,
        });
        let capabilities = session
            .client
            .request_within("initialize", arguments, session.config.handshake_timeout)
            .await?;
        session.state.lock().unwrap().capabilities = capabilities;
        Ok(session)
    }

    /// The adapter's name.
    pub fn adapter(&self) -> &str {
        &self.def.name
    }

    /// The adapter's process id, when Locus started it.
    pub fn adapter_pid(&self) -> Option<u32> {
        self.client.adapter_pid()
    }

    /// The connection, for requests this API does not wrap.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The newest child session, when the adapter asked for one with `startDebugging`
    /// (js-debug runs the program in a child: its stops, threads, stack and variables are the
    /// child's, while the program's output arrives on this session).
    pub fn child(&self) -> Option<Arc<Session>> {
        self.state.lock().unwrap().children.last().cloned()
    }

    /// Waits until a child session is open (see [`Session::child`]).
    pub async fn wait_for_child(&self, timeout: Duration) -> Result<Arc<Session>, Error> {
        self.wait_until("a child debug session", timeout, |s| match s.children.last() {
            Some(child) => Some(Ok(child.clone())),
            None => s.ended().map(Err),
        })
        .await
    }

    /// Launches the program: the adapter file's launch defaults with `arguments` merged over
    /// them, in the handshake order of the module head.
    pub async fn launch(&self, arguments: &Value) -> Result<(), Error> {
        self.state.lock().unwrap().launched = true;
        self.begin("launch", self.def.launch_arguments(arguments), None).await
    }

    /// Attaches to a program, as [`Session::launch`] does with the attach defaults.
    pub async fn attach(&self, arguments: &Value) -> Result<(), Error> {
        self.begin("attach", self.def.attach_arguments(arguments), None).await
    }

    /// The handshake with `command` (`launch` or `attach`) and its arguments as given. A
    /// child session answers its parent's `startDebugging` once it is configured, before its
    /// own launch response, which an adapter may hold back until then.
    async fn begin(
        &self,
        command: &str,
        arguments: Value,
        parent: Option<&ReverseRequest>,
    ) -> Result<(), Error> {
        let timeout = self.config.handshake_timeout;
        let mut response = Box::pin(self.client.send(command, &arguments)?.wait(timeout));
        let mut answered = None;
        let initialized = self.wait_until("the `initialized` event", timeout, |s| {
            if s.initialized { Some(Ok(())) } else { s.ended().map(Err) }
        });
        tokio::pin!(initialized);
        loop {
            tokio::select! {
                result = &mut initialized => { result?; break; }
                result = &mut response, if answered.is_none() => {
                    // An adapter may refuse the launch before it ever sends `initialized`.
                    answered = Some(result?);
                }
            }
        }
        self.configure().await?;
        if let Some(parent) = parent {
            parent.respond(Ok(Value::Null));
        }
        if answered.is_none() {
            response.await?;
        }
        let mut state = self.state.lock().unwrap();
        if state.phase == Phase::Starting {
            state.phase = Phase::Running;
        }
        Ok(())
    }

    /// Sends every breakpoint Locus keeps, then `configurationDone`.
    async fn configure(&self) -> Result<(), Error> {
        let files: Vec<PathBuf> = self.state.lock().unwrap().files.keys().cloned().collect();
        for path in files {
            self.send_file_breakpoints(&path).await?;
        }
        let (functions, capabilities) = {
            let s = self.state.lock().unwrap();
            (!s.functions.is_empty(), s.capabilities.clone())
        };
        if functions {
            self.send_function_breakpoints().await?;
        }
        let done = capabilities["supportsConfigurationDoneRequest"].as_bool() == Some(true);
        if capabilities["exceptionBreakpointFilters"].is_array() || !done {
            self.send_exception_filters().await?;
        }
        if done {
            self.client.request("configurationDone", Value::Null).await?;
        }
        Ok(())
    }

    /// Sets where exceptions stop the program, now (when the session is configured) and in
    /// its children; answers the filters it sent: those of the adapter file for `break_on`
    /// that the adapter declares.
    pub async fn set_break_on(&self, break_on: BreakOn) -> Result<Vec<String>, Error> {
        let send = {
            let mut s = self.state.lock().unwrap();
            if let Some(e) = s.ended() {
                return Err(e);
            }
            s.break_on = break_on;
            s.initialized
        };
        let filters = if send { self.send_exception_filters().await? } else { self.filters() };
        for child in self.children() {
            Box::pin(child.set_break_on(break_on)).await?;
        }
        Ok(filters)
    }

    /// Where exceptions stop the program.
    pub fn break_on(&self) -> BreakOn {
        self.state.lock().unwrap().break_on
    }

    /// The exception filters for the session's `break_on` that the adapter declares.
    fn filters(&self) -> Vec<String> {
        let s = self.state.lock().unwrap();
        let wanted = match s.break_on {
            BreakOn::Uncaught => &self.def.exceptions.uncaught,
            BreakOn::Raised => &self.def.exceptions.raised,
            BreakOn::Never => return Vec::new(),
        };
        let declared: Vec<&str> = s.capabilities["exceptionBreakpointFilters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f["filter"].as_str())
            .collect();
        wanted.iter().filter(|f| declared.contains(&f.as_str())).cloned().collect()
    }

    async fn send_exception_filters(&self) -> Result<Vec<String>, Error> {
        let filters = self.filters();
        self.client.request("setExceptionBreakpoints", json!({"filters": filters})).await?;
        Ok(filters)
    }

    /// Replaces the breakpoints of one file (an empty list clears them) and answers them as
    /// they now are. Before the handshake's `initialized` they are kept and sent then.
    pub async fn set_breakpoints(
        &self,
        path: &Path,
        breakpoints: &[SourceBreakpoint],
    ) -> Result<Vec<BreakpointInfo>, Error> {
        let send = {
            let mut s = self.state.lock().unwrap();
            if let Some(e) = s.ended() {
                return Err(e);
            }
            let old = s.files.remove(path).unwrap_or_default();
            let mut records = Vec::new();
            for bp in breakpoints {
                let kept = old.iter().find(|r| r.info.line == bp.line);
                let (id, hit_count) = match kept {
                    Some(r) => (r.info.id, r.info.hit_count),
                    None => {
                        s.last_breakpoint += 1;
                        (s.last_breakpoint, 0)
                    }
                };
                records.push(Record {
                    info: BreakpointInfo {
                        id,
                        path: Some(path.to_path_buf()),
                        function: None,
                        line: bp.line,
                        actual_line: None,
                        condition: bp.condition.clone(),
                        hit_condition: bp.hit_condition.clone(),
                        log_message: bp.log_message.clone(),
                        verified: false,
                        message: None,
                        hit_count,
                    },
                    adapter_id: None,
                });
            }
            if !records.is_empty() || s.initialized {
                s.files.insert(path.to_path_buf(), records);
            }
            s.initialized
        };
        if send {
            self.send_file_breakpoints(path).await?;
        }
        for child in self.children() {
            Box::pin(child.set_breakpoints(path, breakpoints)).await?;
        }
        let s = self.state.lock().unwrap();
        Ok(s.files.get(path).into_iter().flatten().map(|r| r.info.clone()).collect())
    }

    async fn send_file_breakpoints(&self, path: &Path) -> Result<(), Error> {
        let list: Vec<Value> = {
            let s = self.state.lock().unwrap();
            s.files
                .get(path)
                .into_iter()
                .flatten()
                .map(|r| source_breakpoint_json(&r.info))
                .collect()
        };
        let body = self
            .client
            .request(
                "setBreakpoints",
                json!({
                    "source": {"path": path, "name": path.file_name().map(|n| n.to_string_lossy())},
                    "breakpoints": list,
                    "lines": list.iter().map(|b| b["line"].clone()).collect::<Vec<_>>(),
                    "sourceModified": false,
                }),
            )
            .await?;
        let answered: Vec<types::Breakpoint> =
            types::parse("setBreakpoints", &body["breakpoints"]).map_err(Error::Protocol)?;
        let mut s = self.state.lock().unwrap();
        if let Some(records) = s.files.get_mut(path) {
            for (record, bp) in records.iter_mut().zip(answered) {
                apply(record, &bp);
            }
            if records.is_empty() {
                s.files.remove(path);
            }
        }
        s.attribute_late();
        Ok(())
    }

    /// Replaces every function breakpoint.
    pub async fn set_function_breakpoints(
        &self,
        breakpoints: &[FunctionBreakpoint],
    ) -> Result<Vec<BreakpointInfo>, Error> {
        let send = {
            let mut s = self.state.lock().unwrap();
            if let Some(e) = s.ended() {
                return Err(e);
            }
            if s.initialized
                && !breakpoints.is_empty()
                && s.capabilities["supportsFunctionBreakpoints"].as_bool() != Some(true)
            {
                return Err(Error::Unsupported(format!(
                    "{} does not support function breakpoints",
                    self.def.name
                )));
            }
            let old = std::mem::take(&mut s.functions);
            for bp in breakpoints {
                let kept = old.iter().find(|r| r.info.function.as_deref() == Some(&bp.name));
                let (id, hit_count) = match kept {
                    Some(r) => (r.info.id, r.info.hit_count),
                    None => {
                        s.last_breakpoint += 1;
                        (s.last_breakpoint, 0)
                    }
                };
                s.functions.push(Record {
                    info: BreakpointInfo {
                        id,
                        path: None,
                        function: Some(bp.name.clone()),
                        line: 0,
                        actual_line: None,
                        condition: bp.condition.clone(),
                        hit_condition: bp.hit_condition.clone(),
                        log_message: None,
                        verified: false,
                        message: None,
                        hit_count,
                    },
                    adapter_id: None,
                });
            }
            s.initialized
        };
        if send {
            self.send_function_breakpoints().await?;
        }
        for child in self.children() {
            Box::pin(child.set_function_breakpoints(breakpoints)).await?;
        }
        Ok(self.state.lock().unwrap().functions.iter().map(|r| r.info.clone()).collect())
    }

    async fn send_function_breakpoints(&self) -> Result<(), Error> {
        let list: Vec<Value> = {
            let s = self.state.lock().unwrap();
            s.functions
                .iter()
                .map(|r| {
                    let mut b = json!({"name": r.info.function});
                    if let Some(c) = &r.info.condition {
                        b["condition"] = c.clone().into();
                    }
                    if let Some(h) = &r.info.hit_condition {
                        b["hitCondition"] = h.clone().into();
                    }
                    b
                })
                .collect()
        };
        let body =
            self.client.request("setFunctionBreakpoints", json!({"breakpoints": list})).await?;
        let answered: Vec<types::Breakpoint> =
            types::parse("setFunctionBreakpoints", &body["breakpoints"])
                .map_err(Error::Protocol)?;
        let mut s = self.state.lock().unwrap();
        for (record, bp) in s.functions.iter_mut().zip(answered) {
            apply(record, &bp);
        }
        s.attribute_late();
        Ok(())
    }

    fn children(&self) -> Vec<Arc<Session>> {
        self.state.lock().unwrap().children.clone()
    }

    /// Every breakpoint as Locus knows it now.
    pub fn breakpoints(&self) -> Vec<BreakpointInfo> {
        let s = self.state.lock().unwrap();
        s.files.values().flatten().chain(&s.functions).map(|r| r.info.clone()).collect()
    }

    /// Resumes the program (one thread for steps, every thread for `continue` as adapters
    /// do) and answers the number of stops so far, for [`Session::wait_for_stop`]. Every
    /// reference dies now.
    pub async fn resume(&self, how: Resume, thread: Option<i64>) -> Result<u64, Error> {
        let (thread, before) = {
            let mut s = self.state.lock().unwrap();
            if let Some(e) = s.ended() {
                return Err(e);
            }
            if s.phase != Phase::Stopped {
                return Err(Error::NotStopped { state: describe(&s.phase) });
            }
            let thread = thread.or(s.stop.as_ref().and_then(|st| st.thread_id)).or(s
                .threads
                .keys()
                .next()
                .copied());
            let Some(thread) = thread else {
                return Err(Error::NotStopped { state: "no thread is known".into() });
            };
            s.resumed(None);
            (thread, s.stops)
        };
        self.bump();
        if let Err(e) = self.client.request(how.command(), json!({"threadId": thread})).await {
            // Refused: the program is still stopped where it was (its references are gone).
            let mut s = self.state.lock().unwrap();
            if !e.is_end() && s.ended().is_none() && s.stops == before {
                s.phase = Phase::Stopped;
                if let Some(t) = s.threads.get_mut(&thread) {
                    t.stopped = true;
                }
            }
            drop(s);
            self.bump();
            return Err(e);
        }
        Ok(before)
    }

    /// Resumes with a step (or `continue`) and waits for the next stop.
    pub async fn step(
        &self,
        how: Resume,
        thread: Option<i64>,
        timeout: Duration,
    ) -> Result<StopInfo, Error> {
        let before = self.resume(how, thread).await?;
        self.wait_for_stop(before, timeout).await
    }

    /// Asks the program to pause (all threads when `thread` is `None`).
    pub async fn pause(&self, thread: Option<i64>) -> Result<(), Error> {
        if let Some(e) = self.state.lock().unwrap().ended() {
            return Err(e);
        }
        let known = self.state.lock().unwrap().threads.keys().next().copied();
        let thread = match (thread, known) {
            (Some(t), _) | (None, Some(t)) => t,
            // No `thread` event yet: ask the adapter (adapters pause every thread anyway).
            (None, None) => self.threads().await?.first().map_or(0, |t| t.id),
        };
        self.client.request("pause", json!({"threadId": thread})).await.map(drop)
    }

    /// The number of stops so far (give it to [`Session::wait_for_stop`] to wait for a
    /// later one).
    pub fn stops(&self) -> u64 {
        self.state.lock().unwrap().stops
    }

    /// Waits until the program is stopped by a stop after the `after`th, or the session ends.
    pub async fn wait_for_stop(&self, after: u64, timeout: Duration) -> Result<StopInfo, Error> {
        self.wait_until("the program to stop", timeout, |s| {
            if let Some(e) = s.ended() {
                return Some(Err(e));
            }
            match &s.stop {
                Some(stop) if s.phase == Phase::Stopped && stop.number > after => {
                    Some(Ok(stop.clone()))
                }
                _ => None,
            }
        })
        .await
    }

    /// Waits until the session has ended and answers why.
    pub async fn wait_for_end(&self, timeout: Duration) -> Result<Error, Error> {
        self.wait_until("the session to end", timeout, |s| s.ended().map(Ok)).await
    }

    async fn wait_until<T>(
        &self,
        what: &str,
        timeout: Duration,
        mut check: impl FnMut(&State) -> Option<Result<T, Error>>,
    ) -> Result<T, Error> {
        let mut changed = self.changed.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if let Some(result) = check(&self.state.lock().unwrap()) {
                return result;
            }
            match tokio::time::timeout_at(deadline, changed.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => unreachable!("the session holds the sender"),
                Err(_) => {
                    return Err(Error::WaitTimeout { what: what.to_string(), after: timeout });
                }
            }
        }
    }

    fn bump(&self) {
        self.changed.send_modify(|g| *g += 1);
    }

    /// The threads, fetched from the adapter.
    pub async fn threads(&self) -> Result<Vec<ThreadInfo>, Error> {
        let body = self.client.request("threads", Value::Null).await?;
        let threads: Vec<types::Thread> =
            types::parse("threads", &body["threads"]).map_err(Error::Protocol)?;
        let mut s = self.state.lock().unwrap();
        let all_stopped = s.phase == Phase::Stopped
            && s.stop.as_ref().is_some_and(|st| st.all_threads_stopped || st.thread_id.is_none());
        let old = std::mem::take(&mut s.threads);
        for t in threads {
            let stopped = all_stopped || old.get(&t.id).is_some_and(|o| o.stopped);
            s.threads.insert(t.id, ThreadInfo { id: t.id, name: t.name, stopped });
        }
        Ok(s.threads.values().cloned().collect())
    }

    /// The stack of a thread (the stopped one by default), top first, with Locus's frame ids.
    pub async fn stack_trace(
        &self,
        thread: Option<i64>,
        levels: Option<u32>,
    ) -> Result<Vec<Frame>, Error> {
        let thread = {
            let s = self.state.lock().unwrap();
            if let Some(e) = s.ended() {
                return Err(e);
            }
            if s.phase != Phase::Stopped {
                return Err(Error::NotStopped { state: describe(&s.phase) });
            }
            thread.or(s.stop.as_ref().and_then(|st| st.thread_id)).or(s
                .threads
                .keys()
                .next()
                .copied())
        };
        let thread =
            thread.ok_or_else(|| Error::NotStopped { state: "no thread is known".into() })?;
        let stop = {
            let s = self.state.lock().unwrap();
            if let Some(frames) = s.memo.stack(thread, levels) {
                return Ok(frames);
            }
            s.stops
        };
        let mut arguments = json!({"threadId": thread, "startFrame": 0});
        if let Some(levels) = levels {
            arguments["levels"] = levels.into();
        }
        let body = self.client.request("stackTrace", arguments).await?;
        let frames: Vec<types::StackFrame> =
            types::parse("stackTrace", &body["stackFrames"]).map_err(Error::Protocol)?;
        let mut s = self.state.lock().unwrap();
        if s.phase != Phase::Stopped {
            return Err(Error::NotStopped { state: describe(&s.phase) });
        }
        let frames: Vec<Frame> = frames
            .into_iter()
            .map(|f| Frame {
                id: s.ids.frame(AdapterFrame { id: f.id, thread }),
                position: position(&f),
            })
            .collect();
        // Kept for this stop only: not when another stop came while the request was out.
        if levels.is_none() && s.stops == stop {
            s.memo.stacks.insert(thread, frames.clone());
        }
        // The stop's own stack request failed (js-debug under load): its place and its
        // breakpoint come from this one.
        if s.stops == stop
            && let Some(top) = frames.first()
        {
            s.locate_stop(thread, &top.position);
        }
        Ok(frames)
    }

    /// Forgets the scopes and variables read at this stop: something may have changed them
    /// without the program resuming (an evaluation that may act). The stack stays.
    pub fn forget_values(&self) {
        self.state.lock().unwrap().memo.forget_values();
    }

    /// The scopes of a frame.
    pub async fn scopes(&self, frame: FrameId) -> Result<Vec<ScopeInfo>, Error> {
        let adapter = {
            let s = self.state.lock().unwrap();
            if let Some(scopes) = s.memo.scopes.get(&frame) {
                return Ok(scopes.clone());
            }
            s.ids.resolve_frame(frame)?
        };
        let body = self.client.request("scopes", json!({"frameId": adapter.id})).await?;
        let scopes: Vec<types::Scope> =
            types::parse("scopes", &body["scopes"]).map_err(Error::Protocol)?;
        let mut s = self.state.lock().unwrap();
        // A resume while the request was out makes its references stale at once.
        s.ids.resolve_frame(frame)?;
        let scopes: Vec<ScopeInfo> = scopes
            .into_iter()
            .map(|sc| ScopeInfo {
                variables: s.ids.reference(sc.variables_reference),
                name: sc.name,
                presentation_hint: sc.presentation_hint,
                expensive: sc.expensive,
            })
            .collect();
        s.memo.scopes.insert(frame, scopes.clone());
        Ok(scopes)
    }

    /// The variables of a scope or structured variable.
    pub async fn variables(&self, reference: VarRef) -> Result<Vec<VariableInfo>, Error> {
        let adapter = {
            let s = self.state.lock().unwrap();
            if let Some(variables) = s.memo.variables.get(&reference) {
                return Ok(variables.clone());
            }
            s.ids.resolve_reference(reference)?
        };
        let body = self.client.request("variables", json!({"variablesReference": adapter})).await?;
        let variables: Vec<types::Variable> =
            types::parse("variables", &body["variables"]).map_err(Error::Protocol)?;
        let mut s = self.state.lock().unwrap();
        s.ids.resolve_reference(reference)?;
        let variables: Vec<VariableInfo> = variables
            .into_iter()
            .map(|v| VariableInfo {
                children: s.ids.reference(v.variables_reference),
                name: v.name,
                value: v.value,
                type_name: v.type_name,
                evaluate_name: v.evaluate_name,
            })
            .collect();
        s.memo.variables.insert(reference, variables.clone());
        Ok(variables)
    }

    /// Evaluates an expression in a frame (or globally), in a DAP context (`watch` for
    /// expressions, `repl` for debugger commands).
    pub async fn evaluate(
        &self,
        expression: &str,
        frame: Option<FrameId>,
        context: &str,
    ) -> Result<VariableInfo, Error> {
        let mut arguments = json!({"expression": expression, "context": context});
        if let Some(frame) = frame {
            let adapter = self.state.lock().unwrap().ids.resolve_frame(frame)?;
            arguments["frameId"] = adapter.id.into();
        }
        let body = self.client.request("evaluate", arguments).await?;
        let result: types::EvaluateResponse =
            types::parse("evaluate", &body).map_err(Error::Protocol)?;
        let mut s = self.state.lock().unwrap();
        Ok(VariableInfo {
            name: expression.to_string(),
            value: result.result,
            type_name: result.type_name,
            children: s.ids.reference(result.variables_reference),
            evaluate_name: Some(expression.to_string()),
        })
    }

    /// Sets a variable of a container to a value given as an expression.
    pub async fn set_variable(
        &self,
        container: VarRef,
        name: &str,
        value: &str,
    ) -> Result<VariableInfo, Error> {
        let adapter = self.state.lock().unwrap().ids.resolve_reference(container)?;
        if self.state.lock().unwrap().capabilities["supportsSetVariable"].as_bool() != Some(true) {
            return Err(Error::Unsupported(format!(
                "{} does not support setting variables",
                self.def.name
            )));
        }
        let body = self
            .client
            .request(
                "setVariable",
                json!({"variablesReference": adapter, "name": name, "value": value}),
            )
            .await?;
        let result: types::SetVariableResponse =
            types::parse("setVariable", &body).map_err(Error::Protocol)?;
        let mut s = self.state.lock().unwrap();
        // Other values may follow from this one (a property, an alias): all are read again.
        s.memo.forget_values();
        Ok(VariableInfo {
            name: name.to_string(),
            value: result.value,
            type_name: result.type_name,
            children: s.ids.reference(result.variables_reference.unwrap_or(0)),
            evaluate_name: None,
        })
    }

    /// What the program wrote since the session's own last read (and advances it).
    pub fn read_output(&self) -> OutputRead {
        let mut s = self.state.lock().unwrap();
        let read = s.output.since(s.output.cursor);
        s.output.cursor = read.cursor;
        read
    }

    /// What the program wrote since `cursor`, for readers that keep their own.
    pub fn read_output_since(&self, cursor: OutputCursor) -> OutputRead {
        self.state.lock().unwrap().output.since(cursor)
    }

    /// The session's state now.
    pub fn snapshot(&self) -> Snapshot {
        let s = self.state.lock().unwrap();
        Snapshot {
            adapter: self.def.name.clone(),
            adapter_command: self.launcher.command_line(),
            phase: s.phase.clone(),
            stop: s.stop.clone(),
            threads: s.threads.values().cloned().collect(),
            breakpoints: s
                .files
                .values()
                .flatten()
                .chain(&s.functions)
                .map(|r| r.info.clone())
                .collect(),
            exit_code: s.exit_code,
            pid: s.pid,
            program: s.program.clone(),
            capabilities: s.capabilities.clone(),
        }
    }

    /// Ends the session: `disconnect` (ending a launched program), bounded by `timeout`, then
    /// the adapter's process group is killed whatever it answered. A session that has ended
    /// already is only cleaned up.
    pub async fn disconnect(&self, timeout: Duration) -> Result<(), Error> {
        // Children first, as VS Code ends them: js-debug leaves a parent's `disconnect`
        // unanswered while its child is paused at an exception. Their errors are the parent's
        // to report only if it fails too.
        for child in self.children() {
            let _ = Box::pin(child.disconnect(timeout)).await;
        }
        // After `terminated` the courtesy `disconnect` has been sent already (`run_events`).
        let (ended, launched) = {
            let s = self.state.lock().unwrap();
            (s.ended().is_some(), s.launched)
        };
        let result = if self.client.closed().is_none() && !ended {
            // A program Locus attached to is left running, as an IDE leaves it.
            self.client
                .request_within(
                    "disconnect",
                    json!({"restart": false, "terminateDebuggee": launched}),
                    timeout,
                )
                .await
                .map(drop)
        } else {
            Ok(())
        };
        self.kill_debuggee();
        let reason =
            Error::SessionEnded { reason: "the session was stopped".into(), exit_code: None };
        self.state.lock().unwrap().end(reason.clone());
        self.client.shutdown(reason);
        match result {
            Err(e) if !e.is_end() => Err(e),
            _ => Ok(()),
        }
    }

    /// Ends the session at once: kills the adapter's process group and the program.
    pub fn kill(&self) {
        self.kill_debuggee();
        self.client.shutdown(Error::SessionEnded {
            reason: "the session was killed".into(),
            exit_code: None,
        });
    }

    /// Kills a program Locus launched, unless it already exited (its pid could be reused).
    fn kill_debuggee(&self) {
        let s = self.state.lock().unwrap();
        if let (true, Some(pid), None) = (s.launched, s.pid, s.exit_code)
            && let Ok(pid) = u32::try_from(pid)
            && !matches!(&s.phase, Phase::Ended(Error::SessionEnded { .. }))
        {
            locus_platform::process::kill(pid);
        }
    }
}

fn describe(phase: &Phase) -> String {
    match phase {
        Phase::Starting => "the session is starting".into(),
        Phase::Running => "the program is running".into(),
        Phase::Stopped => "the program is stopped".into(),
        Phase::Ended(e) => e.to_string(),
    }
}

fn source_breakpoint_json(info: &BreakpointInfo) -> Value {
    let mut b = json!({"line": info.line});
    if let Some(c) = &info.condition {
        b["condition"] = c.clone().into();
    }
    if let Some(h) = &info.hit_condition {
        b["hitCondition"] = h.clone().into();
    }
    if let Some(l) = &info.log_message {
        b["logMessage"] = l.clone().into();
    }
    b
}
