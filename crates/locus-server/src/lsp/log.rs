//! Logging for `locus lsp`: to stderr, and to the editor's log (`window/logMessage`) once
//! a client is attached. One level filters both; `--log-level` or `LOCUS_LOG` sets it.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use tokio::sync::mpsc::UnboundedSender;
use tower_lsp_server::ls_types::MessageType;

/// How much to log, least first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Failures only.
    Error,
    /// Input Locus had to refuse or repair (unknown documents, malformed messages, …).
    Warn,
    /// Start, stop, and what the editor announced (the default).
    Info,
    /// Every message handled.
    Debug,
    /// Everything, including texts' sizes and timings.
    Trace,
}

impl Level {
    /// The names `--log-level` accepts.
    pub const NAMES: &'static str = "error, warn, info, debug, trace";

    /// Every level, least first.
    pub const ALL: [Level; 5] =
        [Level::Error, Level::Warn, Level::Info, Level::Debug, Level::Trace];

    /// The level's name, as `--log-level` and `LOCUS_LOG` take it.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warn => "warn",
            Level::Info => "info",
            Level::Debug => "debug",
            Level::Trace => "trace",
        }
    }

    fn message_type(self) -> MessageType {
        match self {
            Level::Error => MessageType::ERROR,
            Level::Warn => MessageType::WARNING,
            Level::Info => MessageType::INFO,
            Level::Debug | Level::Trace => MessageType::LOG,
        }
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Level, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "error" => Ok(Level::Error),
            "warn" | "warning" => Ok(Level::Warn),
            "info" => Ok(Level::Info),
            "debug" => Ok(Level::Debug),
            "trace" => Ok(Level::Trace),
            _ => Err(format!("unknown log level `{s}`; expected one of {}", Level::NAMES)),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The logger of one server.
pub struct Log {
    level: Level,
    client: OnceLock<UnboundedSender<(MessageType, String)>>,
}

impl Log {
    /// A logger writing messages at `level` and above.
    pub fn new(level: Level) -> Log {
        Log { level, client: OnceLock::new() }
    }

    /// From now on, messages also go to the editor through `tx`.
    pub fn attach(&self, tx: UnboundedSender<(MessageType, String)>) {
        let _ = self.client.set(tx);
    }

    /// Whether messages at `level` are written.
    pub fn enabled(&self, level: Level) -> bool {
        level <= self.level
    }

    /// Writes one message at `level`.
    pub fn log(&self, level: Level, args: fmt::Arguments<'_>) {
        if !self.enabled(level) {
            return;
        }
        let message = args.to_string();
        // One write per line, so lines from two threads never interleave.
        let line = format!("locus lsp [{level}] {message}\n");
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        if let Some(tx) = self.client.get() {
            let _ = tx.send((level.message_type(), message));
        }
    }

    /// An error.
    pub fn error(&self, args: fmt::Arguments<'_>) {
        self.log(Level::Error, args);
    }

    /// A warning.
    pub fn warn(&self, args: fmt::Arguments<'_>) {
        self.log(Level::Warn, args);
    }

    /// Information.
    pub fn info(&self, args: fmt::Arguments<'_>) {
        self.log(Level::Info, args);
    }

    /// Detail.
    pub fn debug(&self, args: fmt::Arguments<'_>) {
        self.log(Level::Debug, args);
    }
}
