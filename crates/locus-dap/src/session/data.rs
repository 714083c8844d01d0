//! The plain values the session's API takes and gives back: its settings, breakpoints as
//! asked for and as Locus knows them, stops, threads, frames, scopes, variables and snapshots.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use crate::adapter::Lookup;
use crate::error::Error;
use crate::ids::{FrameId, VarRef};
use crate::transport::ClientConfig;
use crate::types;

/// How a session behaves.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// The connection's settings (request deadline, adapter cwd and env).
    pub client: ClientConfig,
    /// Where to look for the adapter.
    pub lookup: Lookup,
    /// The deadline of the handshake steps (`initialize`, `initialized`, the launch response).
    pub handshake_timeout: Duration,
    /// How many bytes of each output stream to keep.
    pub output_cap: usize,
}

impl SessionConfig {
    /// [`ClientConfig::standard`], the process's `PATH`, 30 s handshakes, 1 MiB of output per
    /// stream.
    pub fn standard() -> SessionConfig {
        SessionConfig {
            client: ClientConfig::standard(),
            lookup: Lookup::default(),
            handshake_timeout: Duration::from_secs(30),
            output_cap: 1024 * 1024,
        }
    }
}

/// Where the session is.
#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    /// Started, not yet configured.
    Starting,
    /// The program runs.
    Running,
    /// The program is stopped.
    Stopped,
    /// The session is over; the error says why.
    Ended(Error),
}

/// A place in the program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeLocation {
    /// The file, when the frame has one.
    pub path: Option<PathBuf>,
    /// 1-based line.
    pub line: i64,
    /// 1-based column.
    pub column: i64,
    /// The function's name.
    pub function: String,
}

/// The last stop.
#[derive(Debug, Clone, PartialEq)]
pub struct StopInfo {
    /// `breakpoint`, `step`, `exception`, `pause`, `entry`, …
    pub reason: String,
    /// The thread that stopped.
    pub thread_id: Option<i64>,
    /// Whether every thread stopped.
    pub all_threads_stopped: bool,
    /// The adapter's description or text (an exception's message).
    pub description: Option<String>,
    /// Locus ids of the breakpoints that caused it.
    pub breakpoints: Vec<u64>,
    /// Where the stopped thread is, when the adapter told.
    pub position: Option<CodeLocation>,
    /// Which stop of the session this is, from 1.
    pub number: u64,
    /// At a stop for an exception: what was raised, as the adapter tells it.
    pub exception: Option<ExceptionDetails>,
}

/// The exception a stop is for: DAP's `exceptionInfo` where the adapter answers it, else the
/// `stopped` event's description and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExceptionDetails {
    /// The exception's type or id (`ValueError`, `Error`, `panic`).
    pub type_name: Option<String>,
    /// Its message.
    pub message: Option<String>,
    /// When the adapter stops for it: `always`, `unhandled`, `userUnhandled`, `never`.
    pub break_mode: Option<String>,
    /// The stack where it was raised, as the adapter formats it.
    pub stack_trace: Option<String>,
}

/// Where exceptions stop the program. The default is VS Code's, `Uncaught`; a [`Session`]
/// starts at `Never` until told ([`Session::set_break_on`]).
///
/// [`Session`]: super::Session
/// [`Session::set_break_on`]: super::Session::set_break_on
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BreakOn {
    /// Where an exception is not caught, as VS Code does by default: a crash.
    #[default]
    Uncaught,
    /// At every exception raised, caught or not.
    Raised,
    /// Never: the program runs to its end (or its crash).
    Never,
}

impl BreakOn {
    /// `uncaught`, `raised`, `never`.
    pub fn as_str(self) -> &'static str {
        match self {
            BreakOn::Uncaught => "uncaught",
            BreakOn::Raised => "raised",
            BreakOn::Never => "never",
        }
    }
}

/// A thread and whether it is stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadInfo {
    /// The adapter's thread id (0 is valid).
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Whether it is stopped.
    pub stopped: bool,
}

/// A line breakpoint to set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceBreakpoint {
    /// 1-based line.
    pub line: i64,
    /// Stop only when this expression is true.
    pub condition: Option<String>,
    /// Stop only when the hit count meets this (syntax up to the adapter).
    pub hit_condition: Option<String>,
    /// Log this message (with `{expressions}`) instead of stopping.
    pub log_message: Option<String>,
}

impl SourceBreakpoint {
    /// A plain breakpoint on a line.
    pub fn at(line: i64) -> SourceBreakpoint {
        SourceBreakpoint { line, condition: None, hit_condition: None, log_message: None }
    }
}

/// A function breakpoint to set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionBreakpoint {
    /// The function's name.
    pub name: String,
    /// Stop only when this expression is true.
    pub condition: Option<String>,
    /// Stop only when the hit count meets this.
    pub hit_condition: Option<String>,
}

/// A breakpoint as Locus knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreakpointInfo {
    /// Locus's id, never reused within the session.
    pub id: u64,
    /// The file, for a line breakpoint.
    pub path: Option<PathBuf>,
    /// The function, for a function breakpoint.
    pub function: Option<String>,
    /// The line asked for (0 for a function breakpoint).
    pub line: i64,
    /// The line the adapter set it on, when it told.
    pub actual_line: Option<i64>,
    /// The condition.
    pub condition: Option<String>,
    /// The hit condition.
    pub hit_condition: Option<String>,
    /// The log message of a logpoint.
    pub log_message: Option<String>,
    /// Whether the adapter confirmed it.
    pub verified: bool,
    /// The adapter's message (why it is unverified, or where it moved).
    pub message: Option<String>,
    /// How many stops it caused, counted by Locus.
    pub hit_count: u64,
}

/// A stack frame with Locus's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Locus's id, valid until the program resumes.
    pub id: FrameId,
    /// Where it is.
    pub position: CodeLocation,
}

/// A scope of a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeInfo {
    /// `Locals`, `Globals`, …
    pub name: String,
    /// `arguments`, `locals`, `registers`, when the adapter tells.
    pub presentation_hint: Option<String>,
    /// Its variables, valid until the program resumes.
    pub variables: Option<VarRef>,
    /// Whether fetching it is costly.
    pub expensive: bool,
}

/// A variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariableInfo {
    /// Its name.
    pub name: String,
    /// Its value as text.
    pub value: String,
    /// Its type, when the adapter tells.
    pub type_name: Option<String>,
    /// Its children, valid until the program resumes.
    pub children: Option<VarRef>,
    /// The expression that reads it, when given.
    pub evaluate_name: Option<String>,
}

/// How to resume.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// `continue`.
    Continue,
    /// `next` (step over).
    Next,
    /// `stepIn`.
    StepIn,
    /// `stepOut`.
    StepOut,
}

impl Resume {
    pub(super) fn command(self) -> &'static str {
        match self {
            Resume::Continue => "continue",
            Resume::Next => "next",
            Resume::StepIn => "stepIn",
            Resume::StepOut => "stepOut",
        }
    }
}

/// The session's state at one moment.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The adapter's name.
    pub adapter: String,
    /// The adapter's command line.
    pub adapter_command: String,
    /// Where the session is.
    pub phase: Phase,
    /// The last stop (kept while the program runs, for context).
    pub stop: Option<StopInfo>,
    /// The threads Locus knows.
    pub threads: Vec<ThreadInfo>,
    /// Every breakpoint, line breakpoints by file then line, then function breakpoints.
    pub breakpoints: Vec<BreakpointInfo>,
    /// The program's exit code, when the adapter told it.
    pub exit_code: Option<i64>,
    /// The program's process id, when the adapter told it.
    pub pid: Option<i64>,
    /// The program's name, when the adapter told it.
    pub program: Option<String>,
    /// The adapter's capabilities (the `initialize` response's body).
    pub capabilities: Value,
}

pub(super) fn position(frame: &types::StackFrame) -> CodeLocation {
    CodeLocation {
        path: frame.source.as_ref().and_then(|s| s.path.as_ref()).map(PathBuf::from),
        line: frame.line,
        column: frame.column,
        function: frame.name.clone(),
    }
}
