//! The errors a DAP client or session can end in, each with the stable code of the tool
//! envelope (docs/reference/error-codes.md) and a hint that says what to do next.
//!
//! **Invariant:** every error that comes from the adapter's side carries the tail of the
//! adapter's stderr when there is one, because that is where adapters explain themselves.
//! Errors are `Clone`: one closed connection fails every waiter with the same error.

use std::time::Duration;

/// What went wrong talking to a debug adapter.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// No answer to a request before its deadline.
    #[error("the adapter did not answer `{command}` within {} ms", after.as_millis())]
    Timeout {
        /// The request's command.
        command: String,
        /// How long Locus waited.
        after: Duration,
    },
    /// A wait for the program (a stop, the `initialized` event) ran out of time; the program
    /// is still running.
    #[error("{what} did not happen within {} ms", after.as_millis())]
    WaitTimeout {
        /// What was awaited ("the program to stop").
        what: String,
        /// How long Locus waited.
        after: Duration,
    },
    /// The connection to the adapter closed while the adapter process was still running (or
    /// its status is unknown, as for an adapter Locus did not start).
    #[error("the connection to the debug adapter closed{}", stderr_suffix(stderr))]
    StreamClosed {
        /// The tail of the adapter's stderr.
        stderr: String,
    },
    /// The adapter process exited (or was killed).
    #[error("the debug adapter exited ({status}){}", stderr_suffix(stderr))]
    AdapterExited {
        /// "exit code 1", "killed by signal 9".
        status: String,
        /// The tail of the adapter's stderr.
        stderr: String,
    },
    /// The adapter answered a request with `success: false`.
    #[error("the adapter refused `{command}`: {message}")]
    Failed {
        /// The request's command.
        command: String,
        /// The adapter's message (its `body.error.format` when it gives one).
        message: String,
    },
    /// The adapter could not be started or reached.
    #[error("cannot start the debug adapter {adapter}: {message}{}", stderr_suffix(stderr))]
    Spawn {
        /// The adapter's name.
        adapter: String,
        /// What failed.
        message: String,
        /// The tail of the adapter's stderr.
        stderr: String,
    },
    /// The adapter sent something that is not DAP.
    #[error("the debug adapter sent an invalid message: {0}")]
    Protocol(String),
    /// No command of the adapter's file could be found on this machine.
    #[error("debug adapter {adapter} not found (tried {})", tried.join(", "))]
    AdapterNotFound {
        /// The adapter's name.
        adapter: String,
        /// What was looked for.
        tried: Vec<String>,
        /// The command that installs it.
        install: String,
    },
    /// No adapter is registered under this name or for this language.
    #[error("no debug adapter for {0}")]
    UnknownAdapter(String),
    /// An adapter file is invalid.
    #[error("invalid adapter file {file}: {message}")]
    Config {
        /// The file (or the built-in name).
        file: String,
        /// The parse error.
        message: String,
    },
    /// A frame or variable reference from before the program last resumed.
    #[error("{kind} {id} is stale: the program has resumed since it was listed")]
    StaleReference {
        /// "frame", "variables reference".
        kind: &'static str,
        /// Locus's id.
        id: u64,
    },
    /// A reference Locus never handed out in this session.
    #[error("unknown {kind} {id}")]
    UnknownReference {
        /// "frame", "variables reference", "breakpoint".
        kind: &'static str,
        /// The id given.
        id: u64,
    },
    /// The request needs a stopped program.
    #[error("the program is not stopped ({state})")]
    NotStopped {
        /// What it is doing instead.
        state: String,
    },
    /// The session is over: the program ended, or the adapter died or was disconnected.
    #[error("the debug session has ended: {reason}")]
    SessionEnded {
        /// Why, in words ("the program exited with code 3", "the debug adapter exited …").
        reason: String,
        /// The program's exit code, when the adapter told it.
        exit_code: Option<i64>,
    },
    /// The adapter does not offer what was asked.
    #[error("{0}")]
    Unsupported(String),
}

impl Error {
    /// The stable error code of the tool envelope.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Timeout { .. } | Error::WaitTimeout { .. } => "E_TIMEOUT",
            Error::StreamClosed { .. }
            | Error::AdapterExited { .. }
            | Error::SessionEnded { .. } => "E_SESSION_ENDED",
            Error::AdapterNotFound { .. } | Error::UnknownAdapter(_) => "E_ADAPTER_NOT_FOUND",
            Error::StaleReference { .. } => "E_STALE_REFERENCE",
            Error::UnknownReference { .. } => "E_NOT_FOUND",
            Error::NotStopped { .. } => "E_NOT_STOPPED",
            Error::Unsupported(_) => "E_UNSUPPORTED",
            Error::Failed { .. } => "E_INVALID_PARAMS",
            Error::Spawn { .. } | Error::Protocol(_) | Error::Config { .. } => "E_INTERNAL",
        }
    }

    /// What to do next, in words an agent can act on.
    pub fn hint(&self) -> String {
        match self {
            Error::Timeout { .. } => {
                "The adapter is busy or hung; check the session's status, or stop it and start again".into()
            }
            Error::WaitTimeout { .. } => {
                "The program is still running; wait for the stop again, or pause it".into()
            }
            Error::StreamClosed { .. } | Error::AdapterExited { .. } => {
                "The debug adapter is gone; start a new debug session".into()
            }
            Error::SessionEnded { .. } => "Start a new debug session to debug again".into(),
            Error::Failed { .. } => "Check the request's arguments against the adapter's message".into(),
            Error::Spawn { .. } => "Check that the adapter runs by itself, then start again".into(),
            Error::Protocol(_) => "This is a bug in the adapter or in Locus; start a new session".into(),
            Error::AdapterNotFound { install, .. } => format!("Install it: {install}"),
            Error::UnknownAdapter(_) => {
                "Name one of the built-in adapters: debugpy, delve, lldb-dap, js-debug".into()
            }
            Error::Config { .. } => "Fix the adapter file; unknown keys are not allowed".into(),
            Error::StaleReference { .. } => {
                "References live only while the program is stopped; list the frames or variables again".into()
            }
            Error::UnknownReference { .. } => "List the frames or variables again and use an id from that answer".into(),
            Error::NotStopped { .. } => "Pause the program, or wait for it to stop, first".into(),
            Error::Unsupported(_) => "Use another request, or another adapter".into(),
        }
    }

    /// True when the session can no longer be used.
    pub fn is_end(&self) -> bool {
        matches!(
            self,
            Error::StreamClosed { .. } | Error::AdapterExited { .. } | Error::SessionEnded { .. }
        )
    }
}

fn stderr_suffix(stderr: &str) -> String {
    let tail = stderr.trim();
    if tail.is_empty() { String::new() } else { format!("; its stderr ends with: {tail}") }
}
