//! The envelope's `debugContext` (docs/reference/envelope.md): debuggerState, currentPosition (with
//! the frame's scope chain from Locus's own scopes), localContext (arguments and locals, capped),
//! the exception a stop is for, the watches' values, and a timestamp. What needs the adapter (the
//! stack, the top frame's variables, thread names, the watches) is fetched once per stop, the
//! requests in flight together, and cached on the session ([`Live::cache`]), so a stopped session
//! costs one round of requests however many tools are called at that stop. Something that may change the
//! program's state without leaving the stop (an evaluation) reads the variables and threads again
//! ([`refresh`]); the stack stays.
//!
//! The cache counts the evaluations that may change the program's state ([`StopCache`]): one
//! empties it before it is sent and again when it returns, and a context read is kept only when
//! no such evaluation began after the read did. A tool called during an evaluation reads the
//! adapter itself rather than the old locals, and of two evaluations that end out of order the
//! older one's locals are dropped rather than written over the newer.

use std::path::Path;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use locus_dap::{BreakpointInfo, FrameId, Phase, Session, Snapshot, ThreadInfo};
use locus_doc::Document;
use serde_json::{Value, json};

use super::watches::Watch;
use super::{Debugger, Live, cap, cap_at, dap_error};
use crate::ToolError;
use crate::envelope::rfc3339;

/// How old the thread names may be before a stop asks for them again, behind its answer.
const THREADS_AGE: std::time::Duration = std::time::Duration::from_secs(1);

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
    /// The watches' values in the top frame.
    pub watches: Vec<WatchValue>,
}

/// A watch's value at a stop, or why it has none.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WatchValue {
    pub id: u64,
    pub expression: String,
    pub value: Result<Var, String>,
}

/// A watch's value as debugContext and `watch_list` show it (capped like other values).
pub(crate) fn watch_json(w: &WatchValue) -> Value {
    match &w.value {
        Ok(v) => {
            let (value, truncated) = cap(&v.value);
            let mut j = json!({"id": w.id, "expression": w.expression, "value": value, "type": v.type_name});
            if truncated {
                j["truncated"] = json!(true);
            }
            j
        }
        Err(e) => json!({"id": w.id, "expression": w.expression, "error": e}),
    }
}

/// Every watch evaluated in `frame` at once (the requests in flight together).
async fn evaluate_watches(
    target: &Session,
    frame: Option<FrameId>,
    watches: &[Watch],
) -> Vec<WatchValue> {
    let evaluations = watches.iter().map(|w| async move {
        let value = match frame {
            Some(frame) => target
                .evaluate(&w.expression, Some(frame), "watch")
                .await
                .map(|v| Var { name: w.expression.clone(), type_name: v.type_name, value: v.value })
                .map_err(|e| e.to_string()),
            None => Err("no frame to evaluate in".to_string()),
        };
        WatchValue { id: w.id, expression: w.expression.clone(), value }
    });
    futures_util::future::join_all(evaluations).await
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

/// A stop's cached context ([`Frame0`]) and the count of changes that make a context read
/// before them stale.
#[derive(Debug, Default)]
pub(crate) struct StopCache(Mutex<CacheSlot>);

#[derive(Debug, Default)]
struct CacheSlot {
    /// The stop the context is about, and the context.
    context: Option<(u64, Frame0)>,
    /// Bumped by every change to the program's state made at a stop (an evaluation that may
    /// act, a variable set).
    generation: u64,
}

impl StopCache {
    /// The cached context, when it is about the stop `number`.
    pub fn get(&self, number: u64) -> Option<Frame0> {
        let slot = self.0.lock().unwrap();
        slot.context.as_ref().filter(|(n, _)| *n == number).map(|(_, f)| f.clone())
    }

    /// The generation a read starting now belongs to; its result is kept by [`Self::store`]
    /// only if no change began meanwhile.
    pub fn generation(&self) -> u64 {
        self.0.lock().unwrap().generation
    }

    /// Something is about to change (or has changed) the program's state: the context cached
    /// so far is taken out (so no one reads it meanwhile) and returned, and reads begun before
    /// now will not be stored. Returns the new generation beside it.
    pub fn change(&self) -> (u64, Option<(u64, Frame0)>) {
        let mut slot = self.0.lock().unwrap();
        slot.generation += 1;
        (slot.generation, slot.context.take())
    }

    /// Keeps `context`, read for the stop `number` in `generation`, unless a change began after
    /// that read did. Returns whether it was kept.
    pub fn store(&self, generation: u64, number: u64, context: Frame0) -> bool {
        let mut slot = self.0.lock().unwrap();
        let current = slot.generation == generation;
        if current {
            slot.context = Some((number, context));
        }
        current
    }
}

/// The cached context, when it is about the stop `number`.
fn cached(live: &Live, number: u64) -> Option<Frame0> {
    live.cache.get(number)
}

/// The top frame at the current stop, when the stop's context is cached already.
pub(crate) fn cached_top(live: &Live) -> Option<FrameId> {
    let number = stop_number(&live.target().snapshot()).ok()?;
    cached(live, number)?.top
}

/// The top frame's context at the current stop (cached per stop). After the stack, the
/// variables, the threads and the watches are asked for at once.
pub(crate) async fn frame0(d: &Debugger, live: &Live) -> Result<Frame0, ToolError> {
    let target = live.target();
    let snap = target.snapshot();
    let number = stop_number(&snap)?;
    if let Some(f) = cached(live, number) {
        return Ok(f);
    }
    let generation = live.cache.generation();
    let frames = target.stack_trace(None, None).await.map_err(dap_error)?;
    let top = frames.first().map(|f| f.id);
    let watches = d.watches();
    let vars = async {
        match top {
            Some(top) => variables(&target, top).await,
            None => Ok((Vec::new(), Vec::new())),
        }
    };
    // Thread names are asked for with the rest while one is unknown (the first stop, a thread
    // the adapter has just announced). Otherwise the known ones answer now, and are asked for
    // again behind this answer when the last ask is over a second old: debugpy answers one
    // request at a time, so the names would cost a step a round trip, and a refresh behind
    // every answer would delay the next call of an agent that does not pause.
    let stopped = snap.stop.as_ref().and_then(|s| s.thread_id);
    let named = !snap.threads.is_empty()
        && snap.threads.iter().all(|t| !t.name.is_empty())
        && stopped.is_none_or(|id| snap.threads.iter().any(|t| t.id == id));
    let threads = async {
        match named {
            true => Ok(snap.threads.clone()),
            false => target.threads().await,
        }
    };
    // The scope chain of the top frame, from Locus's own scopes, meanwhile.
    let place = frames.first().and_then(|f| f.position.path.clone().map(|p| (p, f.position.line)));
    let hierarchy = async {
        let (path, line) = place?;
        tokio::task::spawn_blocking(move || scope_hierarchy(&path, line)).await.ok().flatten()
    };
    let (vars, threads, watches, hierarchy) =
        tokio::join!(vars, threads, evaluate_watches(&target, top, &watches), hierarchy);
    let (arguments, locals) = vars?;
    let threads = threads.unwrap_or(snap.threads);
    if named && live.threads_asked.lock().unwrap().is_none_or(|at| at.elapsed() > THREADS_AGE) {
        *live.threads_asked.lock().unwrap() = Some(std::time::Instant::now());
        let behind = target.clone();
        tokio::spawn(async move {
            let _ = behind.threads().await;
        });
    } else if !named {
        *live.threads_asked.lock().unwrap() = Some(std::time::Instant::now());
    }
    let f = Frame0 { top, depth: frames.len(), arguments, locals, hierarchy, threads, watches };
    live.cache.store(generation, number, f.clone());
    Ok(f)
}

/// Before an evaluation that may change the program's state: the stop's cached context is
/// taken out, so that no tool reads its locals while the evaluation runs (they read the
/// adapter), and returned for [`refresh`] to build on.
pub(crate) fn before_change(live: &Live) -> Option<(u64, Frame0)> {
    live.target().forget_values();
    live.cache.change().1
}

/// After something that may have changed the program's state without leaving the stop (an
/// evaluation), given the context [`before_change`] took: its arguments, locals and threads are
/// read again, at once (scopes and variables beside threads); its stack stays, since the
/// evaluation returned to the frame it ran in. The result is kept only when it is still about
/// this stop and no other change began after this read did; without a context to build on, or
/// when a request fails, nothing is kept and the next context is fetched whole.
pub(crate) async fn refresh(d: &Debugger, live: &Live, taken: Option<(u64, Frame0)>) {
    // Reads begun during the evaluation saw the state before it: they are not kept.
    let (generation, _) = live.cache.change();
    let target = live.target();
    target.forget_values();
    let Some((number, mut f)) = taken else { return };
    let Some(top) = f.top else { return };
    if stop_number(&target.snapshot()).ok() != Some(number) {
        return;
    }
    let watches = d.watches();
    let (vars, threads, watches) = tokio::join!(
        variables(&target, top),
        target.threads(),
        evaluate_watches(&target, Some(top), &watches)
    );
    // Kept only for the stop it was read at, whatever happened meanwhile.
    if let (Ok((arguments, locals)), Ok(threads), Ok(now)) =
        (vars, threads, stop_number(&target.snapshot()))
        && now == number
    {
        f.arguments = arguments;
        f.locals = locals;
        f.threads = threads;
        f.watches = watches;
        live.cache.store(generation, number, f);
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

/// The debugContext's debuggerState (docs/agents.md, "Debugging").
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
    let frame = frame0(d, live).await.ok();
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
    let mut context = json!({
        "debuggerState": state,
        "currentPosition": position,
        "localContext": local,
        "timestamp": rfc3339(now),
    });
    if let Some(e) = stop.and_then(|s| s.exception.as_ref()) {
        // The stack where it was raised is the point of the stop: more of it than a value.
        let (stack, _) = e.stack_trace.as_deref().map(|t| cap_at(t, 2_000)).unzip();
        context["exception"] = json!({
            "type": e.type_name, "message": e.message, "breakMode": e.break_mode, "stackTrace": stack,
        });
    }
    if let Some(f) = frame.as_ref().filter(|f| !f.watches.is_empty()) {
        context["watches"] = f.watches.iter().map(watch_json).collect();
    }
    context
}

#[cfg(test)]
mod tests {
    use super::{Frame0, StopCache, Var};

    fn context(local: &str) -> Frame0 {
        let var = Var { name: "acc".into(), type_name: None, value: local.into() };
        Frame0 {
            top: None,
            depth: 1,
            arguments: Vec::new(),
            locals: vec![var],
            hierarchy: None,
            threads: Vec::new(),
            watches: Vec::new(),
        }
    }

    fn local(cache: &StopCache, stop: u64) -> Option<String> {
        cache.get(stop).map(|f| f.locals[0].value.clone())
    }

    #[test]
    fn an_evaluation_takes_the_stops_context_out_while_it_runs() {
        let cache = StopCache::default();
        assert!(cache.store(cache.generation(), 1, context("1")));
        assert_eq!(local(&cache, 1).as_deref(), Some("1"));
        assert_eq!(local(&cache, 2), None, "another stop's context is not this one's");
        // A state-changing evaluation begins: no one reads the old locals meanwhile.
        let (_, taken) = cache.change();
        assert_eq!(taken.map(|(n, _)| n), Some(1));
        assert_eq!(local(&cache, 1), None);
    }

    #[test]
    fn a_read_begun_before_a_change_is_not_kept() {
        let cache = StopCache::default();
        // A tool reads the context while an evaluation is sent ...
        let read = cache.generation();
        cache.change();
        // ... and finishes after it: what it read may be older than the evaluation.
        assert!(!cache.store(read, 1, context("old")));
        assert_eq!(local(&cache, 1), None);
    }

    #[test]
    fn of_two_evaluations_ending_out_of_order_the_newer_locals_stay() {
        let cache = StopCache::default();
        // Evaluation A returns and starts reading the locals again ...
        let (a, _) = cache.change();
        // ... evaluation B is sent and returns, and reads them again too.
        cache.change();
        let (b, _) = cache.change();
        // B's read ends first, then A's, which began before B acted.
        assert!(cache.store(b, 1, context("after b")));
        assert!(!cache.store(a, 1, context("after a only")));
        assert_eq!(local(&cache, 1).as_deref(), Some("after b"));
    }
}
