//! Typed views of the DAP bodies Locus reads. Each is lenient as the envelope is: unknown
//! fields are ignored and optional fields default, so an adapter's extras never fail a
//! message. Ids here are the adapter's own; the session layer maps frames and references to
//! Locus's ids before anyone outside sees them.

use serde::Deserialize;
use serde_json::Value;

/// Reads a typed view of a body, naming the body on failure.
pub fn parse<T: for<'de> Deserialize<'de>>(what: &str, body: &Value) -> Result<T, String> {
    T::deserialize(body).map_err(|e| format!("{what}: {e}"))
}

/// The body of a `stopped` event.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StoppedEvent {
    /// `breakpoint`, `step`, `exception`, `pause`, `entry`, `goto`, `function breakpoint`, …
    pub reason: String,
    /// Shown to the user when given.
    pub description: Option<String>,
    /// The thread that stopped (0 is a valid id: js-debug uses it).
    pub thread_id: Option<i64>,
    /// Whether every thread stopped.
    pub all_threads_stopped: bool,
    /// Extra text (an exception's message).
    pub text: Option<String>,
    /// The adapter's ids of the breakpoints that caused the stop.
    pub hit_breakpoint_ids: Option<Vec<i64>>,
}

/// The body of a `continued` event.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ContinuedEvent {
    /// The thread that continued.
    pub thread_id: Option<i64>,
    /// Whether all threads continued; absent means only `thread_id`, but Locus treats any
    /// resume as invalidating every reference.
    pub all_threads_continued: Option<bool>,
}

/// The body of an `output` event.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct OutputEvent {
    /// `console` (the default), `important`, `stdout`, `stderr`, `telemetry`.
    pub category: Option<String>,
    /// The text, in arbitrary chunks (not lines).
    pub output: String,
}

/// The body of a `thread` event.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ThreadEvent {
    /// `started` or `exited`.
    pub reason: String,
    /// The thread.
    pub thread_id: i64,
}

/// The body of a `process` event.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProcessEvent {
    /// The program's name.
    pub name: String,
    /// Its process id, when the adapter tells it.
    pub system_process_id: Option<i64>,
    /// `launch`, `attach`, `attachForSuspendedLaunch`.
    pub start_method: Option<String>,
}

/// The body of a `breakpoint` event.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BreakpointEvent {
    /// `changed`, `new`, `removed`.
    pub reason: String,
    /// The breakpoint as the adapter now sees it.
    pub breakpoint: Breakpoint,
}

/// A breakpoint as the adapter reports it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Breakpoint {
    /// The adapter's id (0 is a valid id: debugpy uses it).
    pub id: Option<i64>,
    /// Whether it could be set.
    pub verified: bool,
    /// Why it is not verified, or where it moved.
    pub message: Option<String>,
    /// The line it is actually set on.
    pub line: Option<i64>,
    /// The file it is set in.
    pub source: Option<Source>,
}

/// A source file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Source {
    /// Its short name.
    pub name: Option<String>,
    /// Its path, when it is a file.
    pub path: Option<String>,
    /// A reference for sources without a path (fetched with `source`).
    pub source_reference: Option<i64>,
}

/// A thread.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Thread {
    /// The adapter's thread id (persists across stops).
    pub id: i64,
    /// Its name.
    pub name: String,
}

/// A stack frame, with the adapter's id.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StackFrame {
    /// The adapter's frame id (valid only while stopped).
    pub id: i64,
    /// The function's name.
    pub name: String,
    /// Its file.
    pub source: Option<Source>,
    /// 1-based line.
    pub line: i64,
    /// 1-based column.
    pub column: i64,
}

/// A scope of a frame, with the adapter's reference.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Scope {
    /// `Locals`, `Globals`, …
    pub name: String,
    /// `arguments`, `locals`, `registers`, when given.
    pub presentation_hint: Option<String>,
    /// The adapter's reference to its variables.
    pub variables_reference: i64,
    /// Whether fetching it is costly.
    pub expensive: bool,
}

/// A variable, with the adapter's reference to its children (0: none).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Variable {
    /// Its name.
    pub name: String,
    /// Its value as text.
    pub value: String,
    /// Its type, when the adapter tells.
    #[serde(rename = "type")]
    pub type_name: Option<String>,
    /// The adapter's reference to its children, 0 when it has none.
    pub variables_reference: i64,
    /// The expression that reads it, when given.
    pub evaluate_name: Option<String>,
}

/// The body of an `evaluate` response.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EvaluateResponse {
    /// The value as text.
    pub result: String,
    /// Its type, when the adapter tells.
    #[serde(rename = "type")]
    pub type_name: Option<String>,
    /// The adapter's reference to its children, 0 when it has none.
    pub variables_reference: i64,
}

/// The body of a `setVariable` response.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SetVariableResponse {
    /// The new value as text.
    pub value: String,
    /// Its type, when the adapter tells.
    #[serde(rename = "type")]
    pub type_name: Option<String>,
    /// The adapter's reference to its children, 0 when it has none.
    pub variables_reference: Option<i64>,
}

/// The arguments of a `runInTerminal` reverse request.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunInTerminalArguments {
    /// `integrated` or `external`.
    pub kind: Option<String>,
    /// The working directory.
    pub cwd: String,
    /// The program and its arguments.
    pub args: Vec<String>,
    /// Variables to set (a `null` value unsets one).
    pub env: Option<serde_json::Map<String, Value>>,
}

/// The arguments of a `startDebugging` reverse request.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StartDebuggingArguments {
    /// The child session's launch or attach arguments.
    pub configuration: Value,
    /// `launch` or `attach`.
    pub request: String,
}
