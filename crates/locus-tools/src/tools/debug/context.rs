//! The `debugContext` of DESIGN §4: debuggerState, currentPosition (with the frame's scope
//! chain from Locus's own scopes), localContext (arguments and locals, capped) and a
//! timestamp. What needs the adapter (the stack, the top frame's variables, thread names) is
//! fetched once per stop and cached on the session ([`Live::cache`]), so a stopped session
//! costs one round of requests however many tools are called at that stop. Something that may
//! change the program's state without leaving the stop (an evaluation) reads the variables and
//! threads again ([`refresh`]); the stack stays.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use locus_dap::{BreakpointInfo, FrameId, Phase, Session, Snapshot, ThreadInfo};
use locus_doc::Document;
use serde_json::{Value, json};

use super::{Debugger, Live, cap, dap_error};
use crate::ToolError;
use crate::envelope::rfc3339;

/// How many variables a list shows at most.
pub(crate) const MAX_VARIABLES: usize = 50;

/// A variable of the top frame, its value in full.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Var {
    pub name: String,
    pub type_name: Option<String>,
    pub value: String,
}

/// What a stop's context needs from the adapter, fetched once per stop.
#[derive(Debug, Clone)]
pub(crate) struct Frame0 {
    /// The top frame, whose variables these are.
    pub top: Option<FrameId>,
    pub depth: usize,
    pub arguments: Vec<Var>,
    pub locals: Vec<Var>,
    pub hierarchy: Option<String>,
    pub threads: Vec<ThreadInfo>,
}

/// The number of the stop the program is at, or why it is at none.
fn stop_number(snap: &Snapshot) -> Result<u64, ToolError> {
    match (&snap.phase, &snap.stop) {
        (Phase::Stopped, Some(stop)) => Ok(stop.number),
        (Phase::Ended(e), _) => Err(dap_error(e.clone())),
        _ => {
            Err(dap_error(locus_dap::Error::NotStopped { state: "the program is running".into() }))
        }
    }
}

/// The cached context, when it is about the stop `number`.
fn cached(live: &Live, number: u64) -> Option<Frame0> {
    live.cache.lock().unwrap().as_ref().filter(|(n, _)| *n == number).map(|(_, f)| f.clone())
}

/// The top frame at the current stop, when the stop's context is cached already.
pub(crate) fn cached_top(live: &Live) -> Option<FrameId> {
    let number = stop_number(&live.target().snapshot()).ok()?;
    cached(live, number)?.top
}

/// The top frame's context at the current stop (cached per stop).
pub(crate) async fn frame0(live: &Live) -> Result<Frame0, ToolError> {
    let target = live.target();
    let snap = target.snapshot();
    let number = stop_number(&snap)?;
    if let Some(f) = cached(live, number) {
        return Ok(f);
    }
    let frames = target.stack_trace(None, None).await.map_err(dap_error)?;
    let top = frames.first().map(|f| f.id);
    let (arguments, locals) = match top {
        Some(top) => variables(&target, top).await?,
        None => (Vec::new(), Vec::new()),
    };
    let threads = target.threads().await.unwrap_or(snap.threads);
    let hierarchy = match frames.first().and_then(|f| f.position.path.clone()) {
        Some(path) => {
            let line = frames[0].position.line;
            tokio::task::spawn_blocking(move || scope_hierarchy(&path, line)).await.ok().flatten()
        }
        None => None,
    };
    let f = Frame0 { top, depth: frames.len(), arguments, locals, hierarchy, threads };
    *live.cache.lock().unwrap() = Some((number, f.clone()));
    Ok(f)
}

/// After something that may have changed the program's state without leaving the stop (an
/// evaluation): the cached context's arguments, locals and threads are read again, at once
/// (scopes and variables beside threads); its stack stays, since the evaluation returned to
/// the frame it ran in. Without a cached context for this stop, or when a request fails, the
/// cache is dropped and the next context is fetched whole.
pub(crate) async fn refresh(live: &Live) {
    let target = live.target();
    let number = stop_number(&target.snapshot()).ok();
    let Some((number, mut f)) = number.and_then(|n| Some((n, cached(live, n)?))) else {
        *live.cache.lock().unwrap() = None;
        return;
    };
    let Some(top) = f.top else {
        *live.cache.lock().unwrap() = None;
        return;
    };
    let (vars, threads) = tokio::join!(variables(&target, top), target.threads());
    let mut cache = live.cache.lock().unwrap();
    // Kept only for the stop it was read at, whatever happened meanwhile.
    match (vars, threads, stop_number(&target.snapshot())) {
        (Ok((arguments, locals)), Ok(threads), Ok(now)) if now == number => {
            f.arguments = arguments;
            f.locals = locals;
            f.threads = threads;
            *cache = Some((number, f));
        }
        _ => *cache = None,
    }
}

/// The arguments and locals of the frame `top`, as its scopes hold them.
async fn variables(target: &Session, top: FrameId) -> Result<(Vec<Var>, Vec<Var>), ToolError> {
    let mut arguments = Vec::new();
    let mut locals = Vec::new();
    let scopes = target.scopes(top).await.map_err(dap_error)?;
    // Locals are the scopes the adapter marks so (js-debug has a block's and the
    // function's), else the first one named so; arguments when the adapter splits them.
    let hinted = |s: &locus_dap::ScopeInfo, hint: &str| {
        s.presentation_hint.as_deref() == Some(hint) && !s.expensive
    };
    let marked: Vec<&locus_dap::ScopeInfo> =
        scopes.iter().filter(|s| hinted(s, "locals")).collect();
    let locals_scopes = if marked.is_empty() {
        scopes.iter().filter(|s| s.name.to_lowercase().starts_with("local")).take(1).collect()
    } else {
        marked
    };
    let chosen = scopes
        .iter()
        .filter(|s| hinted(s, "arguments"))
        .map(|s| (true, s))
        .chain(locals_scopes.into_iter().map(|s| (false, s)));
    for (is_args, scope) in chosen {
        let Some(reference) = scope.variables else { continue };
        let vars = target.variables(reference).await.map_err(dap_error)?;
        let vars = vars
            .into_iter()
            // debugpy lists groups (`special variables`, `function variables`) as locals.
            .filter(|v| !v.name.contains(' '))
            .map(|v| Var { name: v.name, type_name: v.type_name, value: v.value });
        if is_args {
            arguments.extend(vars);
        } else {
            locals.extend(vars);
        }
    }
    Ok((arguments, locals))
}

/// The scope chain (`Class:Cart > Method:total`) at a 1-based line of a file on disk, as
/// editorContext's `scopeHierarchy`; `None` when the file cannot be read.
pub(crate) fn scope_hierarchy(path: &Path, line: i64) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let language = locus_scopes::Registry::builtin().for_path(path, text.lines().next());
    let doc = Document::new(&text, 0);
    let start = doc.line_start(usize::try_from(line - 1).ok()?);
    // The first character of the line's code: a frame's line is a statement, inside its scope.
    let indent = text[start..].chars().take_while(|c| *c == ' ' || *c == '\t').count();
    let source = locus_scopes::Source::new(doc, language);
    let chain: Vec<String> = source
        .scopes_at(start + indent)
        .iter()
        .map(|s| format!("{}:{}", s.kind.name(), s.name))
        .collect();
    Some(chain.join(" > "))
}

/// Variables capped for a context or a list: at most `MAX_VARIABLES`, each value 200
/// characters; and whether anything was cut.
pub(crate) fn capped(vars: &[Var]) -> (Vec<Value>, bool) {
    let mut truncated = vars.len() > MAX_VARIABLES;
    let list = vars
        .iter()
        .take(MAX_VARIABLES)
        .map(|v| {
            let (value, cut) = cap(&v.value);
            truncated |= cut;
            json!({"name": v.name, "type": v.type_name, "value": value})
        })
        .collect();
    (list, truncated)
}

/// The workspace's id of a session's breakpoint (same file and line, or same function).
pub(crate) fn workspace_id(d: &Debugger, info: &BreakpointInfo) -> Option<u64> {
    d.breakpoints()
        .iter()
        .find(|b| match (&info.path, &info.function) {
            (Some(path), _) => b.path.as_ref() == Some(path) && i64::from(b.line) == info.line,
            (None, Some(f)) => b.function.as_ref() == Some(f),
            _ => false,
        })
        .map(|b| b.id)
}

/// The debuggerState of DESIGN §4.
pub(crate) fn debugger_state(
    d: &Debugger,
    live: &Live,
    snap: &Snapshot,
    parent: &Snapshot,
    threads: &[ThreadInfo],
) -> Value {
    let stopped = snap.phase == Phase::Stopped;
    let stop = snap.stop.as_ref().filter(|_| stopped);
    let exit_code = snap.exit_code.or(parent.exit_code);
    // A closed connection is the end even before the session's event task has said so (a
    // request can fail with it first).
    let closed = live.session.client().closed();
    let ended = match (&snap.phase, &parent.phase, &closed) {
        (Phase::Ended(e), _, _) | (_, Phase::Ended(e), _) | (_, _, Some(e)) => Some(e),
        _ => None,
    };
    let current_thread = stop.map(|s| {
        let p = s.position.as_ref();
        json!({
            "id": s.thread_id,
            "file": p.and_then(|p| p.path.as_ref()).map(|p| p.display().to_string()),
            "line": p.map(|p| p.line),
            "function": p.map(|p| p.function.clone()),
        })
    });
    let current_breakpoint = stop.and_then(|s| s.breakpoints.first()).and_then(|id| {
        let info = snap.breakpoints.iter().find(|b| b.id == *id)?;
        Some(json!({
            "id": workspace_id(d, info),
            "file": info.path.as_ref().map(|p| p.display().to_string()),
            "line": info.actual_line.unwrap_or(info.line),
            "functionName": stop.and_then(|s| s.position.as_ref()).map(|p| p.function.clone())
                .or(info.function.clone()),
            "condition": info.condition,
            "hitCount": info.hit_count,
            "disabled": false,
        }))
    });
    let stopped_thread = stop.and_then(|s| s.thread_id);
    json!({
        "sessionId": live.id,
        "adapter": parent.adapter,
        "adapterPid": live.session.adapter_pid(),
        "pid": snap.pid.or(parent.pid),
        "targetCommandLine": live.command_line,
        "running": matches!(snap.phase, Phase::Running | Phase::Starting) && ended.is_none(),
        "exited": ended.is_some(),
        "exitStatus": exit_code,
        "stopReason": stop.map(|s| s.reason.clone()),
        "threads": threads.iter().map(|t| {
            let mut v = json!({"id": t.id, "name": t.name, "stopped": t.stopped});
            if stopped_thread == Some(t.id) && let Some(b) = &current_breakpoint {
                v["breakpoint"] = b["id"].clone();
            }
            v
        }).collect::<Vec<_>>(),
        "currentThread": current_thread,
        "currentBreakpoint": current_breakpoint,
        "nextInProgress": *live.stepping.lock().unwrap() && !stopped && ended.is_none(),
        "error": ended.filter(|_| exit_code.is_none()).map(|e| e.to_string()),
    })
}

/// The whole debugContext of a session now.
pub(crate) async fn debug_context(d: &Debugger, live: &Live) -> Value {
    let target = live.target();
    let frame = frame0(live).await.ok();
    let snap = target.snapshot();
    let parent = live.session.snapshot();
    let threads = frame.as_ref().map(|f| f.threads.clone()).unwrap_or(snap.threads.clone());
    let state = debugger_state(d, live, &snap, &parent, &threads);
    let stop = snap.stop.as_ref().filter(|_| snap.phase == Phase::Stopped);
    let position = stop.and_then(|s| s.position.as_ref()).map(|p| {
        json!({
            "file": p.path.as_ref().map(|p| p.display().to_string()),
            "line": p.line,
            "column": p.column,
            "function": p.function,
            "scopeHierarchy": frame.as_ref().and_then(|f| f.hierarchy.clone()),
        })
    });
    let local = frame.as_ref().map(|f| {
        let (arguments, a_cut) = capped(&f.arguments);
        let (locals, l_cut) = capped(&f.locals);
        json!({"arguments": arguments, "locals": locals, "stackDepth": f.depth,
               "truncated": a_cut || l_cut})
    });
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    json!({
        "debuggerState": state,
        "currentPosition": position,
        "localContext": local,
        "timestamp": rfc3339(now),
    })
}
