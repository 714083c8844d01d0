//! The event pump: a task per session that reads the adapter's events in order and feeds the
//! state machine, and opens the child sessions `startDebugging` asks for.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use super::Session;
use super::data::{
    BreakOn, ExceptionDetails, Frame, FunctionBreakpoint, Phase, SessionConfig, SourceBreakpoint,
    StopInfo, ThreadInfo, position,
};
use super::state::{State, apply};
use crate::adapter::Launcher;
use crate::def::AdapterDef;
use crate::error::Error;
use crate::ids::AdapterFrame;
use crate::transport::{Client, Incoming, ReverseRequest};
use crate::types;

/// The breakpoints as given, for a child session to start with.
fn specs_of(s: &State) -> (Vec<(PathBuf, Vec<SourceBreakpoint>)>, Vec<FunctionBreakpoint>) {
    let files = s
        .files
        .iter()
        .map(|(path, records)| {
            let specs = records
                .iter()
                .map(|r| SourceBreakpoint {
                    line: r.info.line,
                    condition: r.info.condition.clone(),
                    hit_condition: r.info.hit_condition.clone(),
                    log_message: r.info.log_message.clone(),
                })
                .collect();
            (path.clone(), specs)
        })
        .collect();
    let functions = s
        .functions
        .iter()
        .map(|r| FunctionBreakpoint {
            name: r.info.function.clone().unwrap_or_default(),
            condition: r.info.condition.clone(),
            hit_condition: r.info.hit_condition.clone(),
        })
        .collect();
    (files, functions)
}

/// What a child session is made of: its parent's adapter, command and settings.
#[derive(Clone)]
pub(super) struct Family {
    pub(super) def: AdapterDef,
    pub(super) launcher: Launcher,
    pub(super) config: SessionConfig,
}

/// Opens the child session a `startDebugging` asks for, on a new connection to the same
/// adapter, with the parent's breakpoints, and answers the parent (with the error when it
/// fails).
async fn open_child(
    parent: Client,
    parent_state: Arc<Mutex<State>>,
    changed: Arc<watch::Sender<u64>>,
    family: Family,
    request: ReverseRequest,
) {
    let opened = async {
        let arguments: types::StartDebuggingArguments =
            types::parse("startDebugging", &request.request.arguments).map_err(Error::Protocol)?;
        let connection = parent.connect_again().await?;
        let child = Session::over(connection, &family.def, family.launcher, family.config).await?;
        // The same breakpoints as the parent, as they were given.
        let specs = {
            let s = parent_state.lock().unwrap();
            let mut c = child.state.lock().unwrap();
            c.launched = s.launched;
            c.break_on = s.break_on;
            drop(c);
            specs_of(&s)
        };
        for (path, list) in &specs.0 {
            child.set_breakpoints(path, list).await?;
        }
        if !specs.1.is_empty() {
            child.set_function_breakpoints(&specs.1).await?;
        }
        let command = if arguments.request == "attach" { "attach" } else { "launch" };
        child.begin(command, arguments.configuration, Some(&request)).await?;
        Ok::<Session, Error>(child)
    };
    match opened.await {
        Ok(child) => {
            parent_state.lock().unwrap().children.push(Arc::new(child));
            changed.send_modify(|g| *g += 1);
        }
        Err(e) => request.respond(Err(e.to_string())),
    }
}

/// Starts [`run_events`]. A plain function, so that checking that the task is `Send` happens
/// outside [`Session::over`], which a child session's task calls in turn.
pub(super) fn spawn_events(
    client: Client,
    state: Arc<Mutex<State>>,
    changed: Arc<watch::Sender<u64>>,
    events: mpsc::UnboundedReceiver<Incoming>,
    family: Family,
) {
    tokio::spawn(run_events(client, state, changed, events, family));
}

/// Feeds the state machine from the adapter's events, in order, until the connection ends.
async fn run_events(
    client: Client,
    state: Arc<Mutex<State>>,
    changed: Arc<watch::Sender<u64>>,
    mut events: mpsc::UnboundedReceiver<Incoming>,
    family: Family,
) {
    let bump = || changed.send_modify(|g| *g += 1);
    while let Some(incoming) = events.recv().await {
        match incoming {
            Incoming::Closed(error) => {
                let mut s = state.lock().unwrap();
                let reason = if s.exit_code.is_some() { s.exit_reason() } else { error };
                s.end(reason);
                drop(s);
                bump();
                return;
            }
            Incoming::StartDebugging(request) => {
                // On a task of its own: the child's handshake must not hold up this session's
                // events, which the adapter may send meanwhile.
                tokio::spawn(open_child(
                    client.clone(),
                    state.clone(),
                    changed.clone(),
                    family.clone(),
                    request,
                ));
            }
            Incoming::Event(event) => {
                on_event(&client, &state, &family.def, &event.event, &event.body).await;
                bump();
            }
        }
    }
}

async fn on_event(
    client: &Client,
    state: &Arc<Mutex<State>>,
    def: &AdapterDef,
    event: &str,
    body: &Value,
) {
    match event {
        "initialized" => state.lock().unwrap().initialized = true,
        "stopped" => {
            let Ok(stopped) = types::parse::<types::StoppedEvent>("stopped", body) else { return };
            let for_exception = stopped.reason == "exception";
            let (break_on, info) = {
                let s = state.lock().unwrap();
                (s.break_on, s.capabilities["supportsExceptionInfoRequest"].as_bool() == Some(true))
            };
            // A crash the adapter stops at whatever it was sent, when no exception should
            // stop the program: it goes on (to its end).
            if for_exception && break_on == BreakOn::Never && def.exceptions.stops_at_crash {
                let _ = client
                    .request_within(
                        "continue",
                        json!({"threadId": stopped.thread_id.unwrap_or(0)}),
                        Duration::from_secs(5),
                    )
                    .await;
                return;
            }
            // What was raised, asked beside the top frame (both in flight at once).
            let exception = async {
                match (for_exception, stopped.thread_id) {
                    (true, Some(thread)) if info => client
                        .request_within(
                            "exceptionInfo",
                            json!({"threadId": thread}),
                            Duration::from_secs(5),
                        )
                        .await
                        .ok()
                        .map(|b| exception_details(&b, &stopped)),
                    (true, _) => Some(exception_details(&Value::Null, &stopped)),
                    _ => None,
                }
            };
            // Where it stopped: the whole stack, whose top frame gives the position and counts
            // hits by location when the adapter names no breakpoint, and which is kept for
            // the stop's context (`memo.rs`) rather than asked for again.
            let stack = async {
                let thread = stopped.thread_id?;
                let body = client
                    .request_within(
                        "stackTrace",
                        json!({"threadId": thread, "startFrame": 0}),
                        Duration::from_secs(5),
                    )
                    .await
                    .ok()?;
                types::parse::<Vec<types::StackFrame>>("stackTrace", &body["stackFrames"]).ok()
            };
            let (stack, exception) = tokio::join!(stack, exception);
            let top = stack.as_ref().and_then(|f| f.first()).map(position);
            let mut s = state.lock().unwrap();
            if s.ended().is_some() {
                return;
            }
            let mut hit = Vec::new();
            s.unattributed.clear();
            match &stopped.hit_breakpoint_ids {
                Some(ids) if !ids.is_empty() => {
                    for r in s.records_mut() {
                        if r.adapter_id.is_some_and(|a| ids.contains(&a)) {
                            r.info.hit_count += 1;
                            hit.push(r.info.id);
                        }
                    }
                    let known: Vec<i64> = s.records_mut().filter_map(|r| r.adapter_id).collect();
                    s.unattributed = ids.iter().copied().filter(|i| !known.contains(i)).collect();
                    // Ids not known yet (the stop came before the breakpoints' answer): by
                    // location now, by id once the answer is read (`attribute_late`).
                    if hit.is_empty() {
                        hit = s.hits_at(top.as_ref(), true);
                    }
                    // Ids that name none of Locus's breakpoints, known or pending (js-debug
                    // re-resolves a breakpoint in a child session under a new id): the
                    // location decides, as for an adapter that names none.
                    if hit.is_empty() && s.unattributed.len() == ids.len() {
                        hit = s.hits_at(top.as_ref(), false);
                    }
                }
                _ if stopped.reason.contains("breakpoint") => hit = s.hits_at(top.as_ref(), false),
                _ => {}
            }
            s.stops += 1;
            let number = s.stops;
            for (id, t) in &mut s.threads {
                if stopped.all_threads_stopped || stopped.thread_id == Some(*id) {
                    t.stopped = true;
                }
            }
            if let Some(thread) = stopped.thread_id {
                s.threads
                    .entry(thread)
                    .or_insert_with(|| ThreadInfo {
                        id: thread,
                        name: String::new(),
                        stopped: true,
                    })
                    .stopped = true;
            }
            if let (Some(thread), Some(stack)) = (stopped.thread_id, stack) {
                let frames = stack
                    .iter()
                    .map(|f| Frame {
                        id: s.ids.frame(AdapterFrame { id: f.id, thread }),
                        position: position(f),
                    })
                    .collect();
                s.memo.stacks.insert(thread, frames);
            }
            s.stop = Some(StopInfo {
                reason: stopped.reason,
                thread_id: stopped.thread_id,
                all_threads_stopped: stopped.all_threads_stopped,
                description: stopped.description.or(stopped.text),
                breakpoints: hit,
                position: top,
                number,
                exception,
            });
            s.phase = Phase::Stopped;
        }
        "continued" => {
            let Ok(c) = types::parse::<types::ContinuedEvent>("continued", body) else { return };
            let only = if c.all_threads_continued == Some(false) { c.thread_id } else { None };
            let mut s = state.lock().unwrap();
            if s.phase != Phase::Starting {
                s.resumed(only);
            }
        }
        "exited" => {
            if let Some(code) = body["exitCode"].as_i64() {
                state.lock().unwrap().exit_code = Some(code);
            }
        }
        "terminated" => {
            let (reason, launched) = {
                let s = state.lock().unwrap();
                (s.exit_reason(), s.launched)
            };
            state.lock().unwrap().end(reason);
            // Delve expects a `disconnect` after `terminated`; it is a courtesy, bounded.
            let client = client.clone();
            tokio::spawn(async move {
                let _ = client
                    .request_within(
                        "disconnect",
                        json!({"restart": false, "terminateDebuggee": launched}),
                        Duration::from_secs(2),
                    )
                    .await;
            });
        }
        "output" => {
            let Ok(o) = types::parse::<types::OutputEvent>("output", body) else { return };
            state.lock().unwrap().output.push(o.category.as_deref(), &o.output);
        }
        "breakpoint" => {
            let Ok(b) = types::parse::<types::BreakpointEvent>("breakpoint", body) else { return };
            let Some(id) = b.breakpoint.id else { return };
            let mut s = state.lock().unwrap();
            for r in s.records_mut() {
                if r.adapter_id == Some(id) {
                    if b.reason == "removed" {
                        r.info.verified = false;
                    } else {
                        apply(r, &b.breakpoint);
                    }
                }
            }
            s.attribute_late();
        }
        "thread" => {
            let Ok(t) = types::parse::<types::ThreadEvent>("thread", body) else { return };
            let mut s = state.lock().unwrap();
            match t.reason.as_str() {
                "started" => {
                    s.threads.entry(t.thread_id).or_insert(ThreadInfo {
                        id: t.thread_id,
                        name: String::new(),
                        stopped: false,
                    });
                }
                "exited" => {
                    s.threads.remove(&t.thread_id);
                }
                _ => {}
            }
        }
        "process" => {
            let Ok(p) = types::parse::<types::ProcessEvent>("process", body) else { return };
            let mut s = state.lock().unwrap();
            s.pid = p.system_process_id.or(s.pid);
            s.program = Some(p.name);
            if p.start_method.as_deref().is_some_and(|m| m != "launch") {
                s.launched = false;
            }
        }
        _ => {}
    }
}

/// The exception of a stop: the `exceptionInfo` answer `body` (null when the adapter gives
/// none), else what the `stopped` event says.
fn exception_details(body: &Value, stopped: &types::StoppedEvent) -> ExceptionDetails {
    let text = |v: &Value| v.as_str().filter(|t| !t.is_empty()).map(String::from);
    let details = &body["details"];
    ExceptionDetails {
        type_name: text(&details["typeName"]).or(text(&body["exceptionId"])),
        message: text(&details["message"])
            .or(text(&body["description"]))
            .or(stopped.text.clone())
            .or(stopped.description.clone()),
        break_mode: text(&body["breakMode"]),
        stack_trace: text(&details["stackTrace"]),
    }
}
