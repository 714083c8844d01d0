//! `debug_*`, `breakpoint_*`, `watch_*`, `stack_list`, `variable_list`, `expression_evaluate`,
//! `output_read`, `thread_list`: debugging over DAP (`locus-dap`) as a person does in an IDE.
//!
//! **Where sessions live.** In the process that runs the catalogue: one [`Debugger`] per
//! catalogue, created by [`register`] and shared by the family's tools. Sessions are named
//! `s1`, `s2`, … in start order; every tool's `sessionId` defaults to the most recent one.
//! A session whose program exited stays listed (with its exit status) until `debug_stop`.
//!
//! **Breakpoints are the workspace's.** Set with or without a session, kept here with ids of
//! their own (never reused), sent whole per file to every live session and to every session
//! that starts; a breakpoint's `verified`, adjusted line and hit count come from the most
//! recent session that knows it (`verified: false` until one confirms).
//!
//! **debugContext.** Every tool of the family answers [`crate::Tool::debug_context`] from the
//! same state while a session exists (errors included): see `context.rs`.
//!
//! **Invariants.** Every wait is bounded (the tool's own timeout, or a shorter one inside it
//! so the answer can say what still runs); no adapter's name in the code (adapters are data in
//! `locus-dap`); frame and variable ids are locus-dap's, so staleness is always detected.

mod attach;
mod breakpoints;
mod context;
mod control;
mod exceptions;
mod inspect;
mod launch_json;
mod session;
mod test_run;
mod traffic;
mod watches;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use locus_dap::{OutputCursor, Session};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{Catalogue, Category, Cx, Effect, ErrorCode, ToolError, ToolSpec, WhenToUse};

pub use locus_dap::{Lookup, Registry};

/// How long the waiting debug tools may run by default (docs/reference/tools.md).
pub const WAIT_TIMEOUT: Duration = Duration::from_secs(90);

/// The default of a waiting tool's own `timeoutMs`: just inside [`WAIT_TIMEOUT`], so the
/// tool's answer (not the catalogue's) says what is still running.
pub const DEFAULT_WAIT_MS: u64 = 88_000;

/// Registers the debug family over one shared [`Debugger`]. `lookup` says where adapters
/// are looked for (the process's `PATH` and `LOCUS_DAP_PYTHON` by default).
pub fn register(catalogue: &mut Catalogue, lookup: Lookup) {
    register_with(catalogue, lookup, Registry::builtin());
}

/// [`register`] with adapters of one's own (user adapter files, tests).
pub fn register_with(catalogue: &mut Catalogue, lookup: Lookup, registry: Registry) {
    let d = Arc::new(Debugger { inner: Mutex::new(Inner::default()), lookup, registry });
    catalogue
        .register(session::DebugStart(d.clone()))
        .register(attach::DebugAttach(d.clone()))
        .register(test_run::DebugTest(d.clone()))
        .register(session::DebugStop(d.clone()))
        .register(session::DebugRestart(d.clone()))
        .register(session::DebugStatus(d.clone()))
        .register(session::DebugListSessions(d.clone()))
        .register(breakpoints::BreakpointSet(d.clone()))
        .register(breakpoints::BreakpointRemove(d.clone()))
        .register(breakpoints::BreakpointList(d.clone()))
        .register(breakpoints::BreakpointClear(d.clone()))
        .register(control::DebugWaitForStop(d.clone()))
        .register(control::DebugContinue(d.clone()))
        .register(control::DebugStepOver(d.clone()))
        .register(control::DebugStepInto(d.clone()))
        .register(control::DebugStepOut(d.clone()))
        .register(control::DebugRunToCursor(d.clone()))
        .register(control::DebugPause(d.clone()))
        .register(inspect::StackList(d.clone()))
        .register(inspect::VariableList(d.clone()))
        .register(inspect::VariableSet(d.clone()))
        .register(inspect::ExpressionEvaluate(d.clone()))
        .register(inspect::OutputRead(d.clone()))
        .register(inspect::ThreadList(d.clone()))
        .register(exceptions::DebugBreakOn(d.clone()))
        .register(traffic::DebugTraffic(d.clone()))
        .register(watches::WatchAdd(d.clone()))
        .register(watches::WatchRemove(d.clone()))
        .register(watches::WatchList(d));
}

/// Parameters of the tools that only name a session (`debug_stop`, `debug_status`,
/// `debug_pause`, `output_read`, …).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionParams {
    /// The session (`s1`, …) from debug_start or debug_list_sessions; the most recent when
    /// omitted.
    #[serde(rename = "sessionId", default)]
    #[schemars(example = &"s1")]
    pub session_id: Option<String>,
}

/// Where exceptions stop the program, as the tools take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BreakOnParam {
    /// Where an exception is not caught (a crash), as VS Code does by default.
    Uncaught,
    /// At every exception raised, caught or not.
    Raised,
    /// Never: the program runs to its end.
    Never,
}

impl From<BreakOnParam> for locus_dap::BreakOn {
    fn from(p: BreakOnParam) -> locus_dap::BreakOn {
        match p {
            BreakOnParam::Uncaught => locus_dap::BreakOn::Uncaught,
            BreakOnParam::Raised => locus_dap::BreakOn::Raised,
            BreakOnParam::Never => locus_dap::BreakOn::Never,
        }
    }
}

/// One session as the family keeps it.
pub(crate) struct Live {
    /// `s1`, `s2`, …
    pub id: String,
    /// The session Locus started (the program's output arrives here).
    pub session: Arc<Session>,
    /// The program's command line, as launched.
    pub command_line: String,
    /// How it was started, for `debug_restart`.
    pub launched: session::Launched,
    /// `output_read`'s cursor.
    pub cursor: Mutex<OutputCursor>,
    /// The stop's cached context.
    pub cache: context::StopCache,
    /// A step was asked for and its stop has not come yet.
    pub stepping: Mutex<bool>,
    /// When the thread names were last asked for (`context.rs`).
    pub threads_asked: Mutex<Option<std::time::Instant>>,
}

impl Live {
    /// The session that holds the program's stops: a child session when the adapter opened
    /// one (`startDebugging`), else the session itself.
    pub fn target(&self) -> Arc<Session> {
        self.session.child().unwrap_or_else(|| self.session.clone())
    }
}

/// A breakpoint as the workspace keeps it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Breakpoint {
    pub id: u64,
    pub path: Option<PathBuf>,
    pub function: Option<String>,
    pub line: u32,
    pub condition: Option<String>,
    pub hit_condition: Option<String>,
    pub log_message: Option<String>,
    /// The user's own name for it.
    pub name: Option<String>,
}

#[derive(Default)]
struct Inner {
    sessions: Vec<Arc<Live>>,
    last_session: u64,
    breakpoints: Vec<Breakpoint>,
    last_breakpoint: u64,
    /// Where exceptions stop the program in sessions that do not say (`debug_break_on`).
    break_on: locus_dap::BreakOn,
    /// The watch expressions, evaluated at every stop.
    watches: Vec<watches::Watch>,
    last_watch: u64,
    /// The session the last call resolved: the one whose debugContext the envelope carries.
    focus: Option<String>,
}

/// The family's shared state: sessions and the workspace's breakpoints.
pub struct Debugger {
    inner: Mutex<Inner>,
    lookup: Lookup,
    registry: Registry,
}

impl Debugger {
    /// The session named, or the most recent one.
    pub(crate) fn session(&self, id: Option<&str>) -> Result<Arc<Live>, ToolError> {
        let mut inner = self.inner.lock().unwrap();
        let found = match id {
            None => inner.sessions.last().cloned().ok_or_else(no_session),
            Some(id) => inner.sessions.iter().find(|s| s.id == id).cloned().ok_or_else(|| {
                let known: Vec<&str> = inner.sessions.iter().map(|s| s.id.as_str()).collect();
                if known.is_empty() {
                    return no_session();
                }
                ToolError::new(ErrorCode::NotFound, format!("no debug session `{id}`"))
                    .with_hint(format!(
                        "Sessions now: {}; debug_list_sessions lists them",
                        known.join(", ")
                    ))
                    .with_details(json!({"sessionId": id, "sessions": known}))
            }),
        };
        if let Ok(live) = &found {
            inner.focus = Some(live.id.clone());
        }
        found
    }

    /// The session named (or the most recent) and the session that holds its program's
    /// stops ([`Live::target`]).
    pub(crate) fn target(&self, id: Option<&str>) -> Result<(Arc<Live>, Arc<Session>), ToolError> {
        let live = self.session(id)?;
        let target = live.target();
        Ok((live, target))
    }

    /// Every session, oldest first.
    pub(crate) fn sessions(&self) -> Vec<Arc<Live>> {
        self.inner.lock().unwrap().sessions.clone()
    }

    /// Registers a session: a new id, or in place of the session `replace` (a restart).
    fn add(
        &self,
        session: Session,
        launched: session::Launched,
        replace: Option<&str>,
    ) -> Arc<Live> {
        let mut inner = self.inner.lock().unwrap();
        let id = match replace {
            Some(id) => id.to_string(),
            None => {
                inner.last_session += 1;
                format!("s{}", inner.last_session)
            }
        };
        let live = Arc::new(Live {
            id,
            session: Arc::new(session),
            command_line: launched.command_line.clone(),
            launched,
            cursor: Mutex::new(OutputCursor::default()),
            cache: context::StopCache::default(),
            stepping: Mutex::new(false),
            threads_asked: Mutex::new(None),
        });
        match inner.sessions.iter().position(|s| Some(s.id.as_str()) == replace) {
            Some(at) => inner.sessions[at] = live.clone(),
            None => inner.sessions.push(live.clone()),
        }
        inner.focus = Some(live.id.clone());
        live
    }

    fn remove(&self, id: &str) {
        self.inner.lock().unwrap().sessions.retain(|s| s.id != id);
    }

    pub(crate) fn breakpoints(&self) -> Vec<Breakpoint> {
        self.inner.lock().unwrap().breakpoints.clone()
    }

    /// Where exceptions stop the program in sessions that do not say.
    pub(crate) fn break_on(&self) -> locus_dap::BreakOn {
        self.inner.lock().unwrap().break_on
    }

    pub(crate) fn watches(&self) -> Vec<watches::Watch> {
        self.inner.lock().unwrap().watches.clone()
    }

    /// The family's debugContext: of the session the call used (else the most recent), none
    /// without a session.
    pub(crate) async fn context(&self) -> Option<Value> {
        let live = {
            let inner = self.inner.lock().unwrap();
            let focus = inner.focus.as_deref();
            inner
                .sessions
                .iter()
                .find(|s| Some(s.id.as_str()) == focus)
                .or(inner.sessions.last())
                .cloned()
        }?;
        Some(context::debug_context(self, &live).await)
    }
}

/// `E_NO_SESSION`.
pub(crate) fn no_session() -> ToolError {
    ToolError::new(ErrorCode::NoSession, "No active debug session")
}

/// A locus-dap error as an envelope error, with what the agent can do next.
pub(crate) fn dap_error(e: locus_dap::Error) -> ToolError {
    use locus_dap::Error as E;
    let code = match e.code() {
        "E_TIMEOUT" => ErrorCode::Timeout,
        "E_SESSION_ENDED" => ErrorCode::SessionEnded,
        "E_ADAPTER_NOT_FOUND" => ErrorCode::AdapterNotFound,
        "E_STALE_REFERENCE" => ErrorCode::StaleReference,
        "E_NOT_FOUND" => ErrorCode::NotFound,
        "E_NOT_STOPPED" => ErrorCode::NotStopped,
        "E_UNSUPPORTED" => ErrorCode::Unsupported,
        "E_INVALID_PARAMS" => ErrorCode::InvalidParams,
        _ => ErrorCode::Internal,
    };
    let (hint, details) = match &e {
        E::WaitTimeout { after, .. } => (
            "The program is still running: call debug_wait_for_stop again to keep waiting, or \
             debug_pause to stop it where it is"
                .to_string(),
            json!({"running": true, "waitedMs": after.as_millis() as u64}),
        ),
        E::SessionEnded { exit_code, reason } => (
            "The debug session has ended; debug_status shows how, debug_start starts a new one"
                .to_string(),
            json!({"exitCode": exit_code, "reason": reason}),
        ),
        E::NotStopped { state } => (
            "Wait for a stop with debug_wait_for_stop, or stop it with debug_pause".to_string(),
            json!({"state": state}),
        ),
        E::StaleReference { kind, id } => (
            "References live only while the program is stopped where they were listed; list \
             the frames (stack_list) or variables (variable_list) again"
                .to_string(),
            json!({"kind": kind, "id": id}),
        ),
        E::AdapterNotFound { adapter, tried, install } => (
            format!("Install it: {install}"),
            json!({"adapter": adapter, "tried": tried, "install": install}),
        ),
        _ => (e.hint(), json!({})),
    };
    ToolError::new(code, e.to_string()).with_hint(hint).with_details(details)
}

/// Finds `path`: absolute, else against each workspace folder, then the working directory;
/// canonical when it exists.
pub(crate) fn resolve(cx: &Cx, path: &str) -> PathBuf {
    let given = Path::new(path);
    let candidates = crate::tools::paths::candidates(cx, given);
    for c in &candidates {
        if c.exists() {
            return locus_platform::path::canonicalize(c).unwrap_or_else(|_| c.clone());
        }
    }
    candidates.into_iter().next().unwrap_or_else(|| given.to_path_buf())
}

/// The metadata every tool of the family shares.
pub(crate) fn spec(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    when_to_use: WhenToUse,
    waits: bool,
    effect: Effect,
) -> ToolSpec {
    ToolSpec {
        name,
        title,
        category: Category::Debug,
        description,
        when_to_use,
        timeout: if waits { WAIT_TIMEOUT } else { crate::DEFAULT_TIMEOUT },
        enabled: true,
        system: false,
        effect,
    }
}

/// A value capped at 200 characters, and whether it was cut.
pub(crate) fn cap(value: &str) -> (String, bool) {
    cap_at(value, 200)
}

/// `value` cut to `max` characters (with `…`), and whether it was.
pub(crate) fn cap_at(value: &str, max: usize) -> (String, bool) {
    match value.char_indices().nth(max) {
        Some((at, _)) => (format!("{}…", &value[..at]), true),
        None => (value.to_string(), false),
    }
}

/// A position as tools answer it.
pub(crate) fn place(p: &locus_dap::CodeLocation) -> Value {
    json!({
        "file": p.path.as_ref().map(|p| p.display().to_string()),
        "line": p.line,
        "function": p.function,
    })
}

/// `{a, b}` maps of the family's params: which of the alternatives were given.
pub(crate) fn exactly_one(given: &[(&str, bool)], what: &str) -> Result<usize, ToolError> {
    let named: Vec<String> = given.iter().map(|(n, _)| format!("`{n}`")).collect();
    let present: Vec<usize> =
        given.iter().enumerate().filter(|(_, (_, g))| *g).map(|(i, _)| i).collect();
    match present.as_slice() {
        [one] => Ok(*one),
        _ => Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!("give exactly one of {} ({what})", named.join(" or ")),
        )
        .with_details(json!({"alternatives": given.iter().map(|(n, _)| *n).collect::<Vec<_>>()}))),
    }
}

/// Keys of the workspace's breakpoints by file, as the sessions get them.
pub(crate) fn by_file(list: &[Breakpoint]) -> BTreeMap<PathBuf, Vec<locus_dap::SourceBreakpoint>> {
    let mut files: BTreeMap<PathBuf, Vec<locus_dap::SourceBreakpoint>> = BTreeMap::new();
    for b in list {
        if let Some(path) = &b.path {
            files.entry(path.clone()).or_default().push(locus_dap::SourceBreakpoint {
                line: i64::from(b.line),
                condition: b.condition.clone(),
                hit_condition: b.hit_condition.clone(),
                log_message: b.log_message.clone(),
            });
        }
    }
    files
}

/// The workspace's function breakpoints, as the sessions get them.
pub(crate) fn functions(list: &[Breakpoint]) -> Vec<locus_dap::FunctionBreakpoint> {
    list.iter()
        .filter_map(|b| {
            Some(locus_dap::FunctionBreakpoint {
                name: b.function.clone()?,
                condition: b.condition.clone(),
                hit_condition: b.hit_condition.clone(),
            })
        })
        .collect()
}

/// Defines a tool of the family: a struct over the shared [`Debugger`] whose run and summary
/// are functions, and whose debugContext is the session's (the call's `sessionId`, else the
/// most recent).
macro_rules! debug_tool {
    ($(#[$doc:meta])* $ty:ident, $params:ty, $spec:expr, $run:path, $summary:path) => {
        $(#[$doc])*
        pub struct $ty(pub(crate) std::sync::Arc<$crate::tools::debug::Debugger>);

        impl $crate::Tool for $ty {
            type Params = $params;
            type Output = serde_json::Value;

            fn spec(&self) -> $crate::ToolSpec {
                $spec
            }

            async fn run(
                &self,
                p: $params,
                cx: $crate::Cx,
            ) -> Result<serde_json::Value, $crate::ToolError> {
                $run(&self.0, p, &cx).await
            }

            fn summary(&self, d: &serde_json::Value, _: &$crate::Cx) -> String {
                $summary(d)
            }

            async fn debug_context(&self, _: &$crate::Cx) -> Option<serde_json::Value> {
                self.0.context().await
            }
        }
    };
}
pub(crate) use debug_tool;
