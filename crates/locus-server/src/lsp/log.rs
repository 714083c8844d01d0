//! Logging for `locus lsp`. One level filters everything; `--log-level` or `LOCUS_LOG` sets it.
//!
//! **Invariants.**
//! - Every message goes to the editor's log (`window/logMessage`); only warnings and errors
//!   also go to stderr. Editors file a server's stderr as errors (Helix's log says `[ERROR]`,
//!   Neovim's `lsp.log` too), so informational lines there would read as failures.
//! - Nothing reaches the editor before it attaches at `initialize` (the LSP forbids it):
//!   earlier messages wait, and are sent when it attaches. Nothing reaches it after
//!   [`Log::close`], which the server calls once the editor said `exit`.
//! - Messages reach the editor in the order they were logged.

use std::fmt;
use std::str::FromStr;
use std::sync::{Mutex, PoisonError};

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

/// A message for the editor: a line of its log (`window/logMessage`), or one shown to the
/// user (`window/showMessage`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToEditor {
    /// Whether the editor shows it to the user (`window/showMessage`) rather than logs it.
    pub show: bool,
    /// Its severity.
    pub typ: MessageType,
    /// The text.
    pub message: String,
}

/// Where messages for the editor go.
pub type EditorSender = UnboundedSender<ToEditor>;

/// How many messages wait for the editor to attach; later ones before it attaches are dropped.
const MAX_WAITING: usize = 256;

/// Where the logger's messages for the editor go, over the server's life.
enum Route {
    /// No editor yet: messages wait (up to [`MAX_WAITING`]).
    Waiting(Vec<ToEditor>),
    /// Sent to the editor.
    Attached(EditorSender),
    /// The editor said `exit`: nothing more is sent.
    Closed,
}

/// The logger of one server.
pub struct Log {
    level: Level,
    route: Mutex<Route>,
}

impl Log {
    /// A logger writing messages at `level` and above.
    pub fn new(level: Level) -> Log {
        Log { level, route: Mutex::new(Route::Waiting(Vec::new())) }
    }

    /// From now on, messages go to the editor through `tx`, the waiting ones first. Does
    /// nothing once closed.
    pub fn attach(&self, tx: EditorSender) {
        let mut route = self.route.lock().unwrap_or_else(PoisonError::into_inner);
        if let Route::Waiting(waiting) = &mut *route {
            for message in waiting.drain(..) {
                let _ = tx.send(message);
            }
            *route = Route::Attached(tx);
        }
    }

    /// From now on nothing goes to the editor (it said `exit`); warnings and errors still go
    /// to stderr.
    pub fn close(&self) {
        *self.route.lock().unwrap_or_else(PoisonError::into_inner) = Route::Closed;
    }

    /// Whether messages at `level` are written.
    pub fn enabled(&self, level: Level) -> bool {
        level <= self.level
    }

    /// Writes one message at `level`.
    pub fn log(&self, level: Level, args: fmt::Arguments<'_>) {
        if self.enabled(level) {
            self.write(level, args.to_string(), false);
        }
    }

    /// Writes one message at `level` and shows it to the user (`window/showMessage`), for
    /// what they asked for and did not get. It is shown whatever the level filter, and
    /// logged as any other message.
    pub fn show(&self, level: Level, args: fmt::Arguments<'_>) {
        self.write(level, args.to_string(), true);
    }

    fn write(&self, level: Level, message: String, show: bool) {
        let logged = self.enabled(level);
        if logged && level <= Level::Warn {
            // One write per line, so lines from two threads never interleave.
            let line = format!("locus lsp [{level}] {message}\n");
            let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        }
        let typ = level.message_type();
        let mut outgoing = Vec::with_capacity(2);
        if show {
            outgoing.push(ToEditor { show: true, typ, message: message.clone() });
        }
        if logged {
            outgoing.push(ToEditor { show: false, typ, message });
        }
        // The lock is held while sending (which never blocks), so messages keep their order.
        let mut route = self.route.lock().unwrap_or_else(PoisonError::into_inner);
        match &mut *route {
            Route::Waiting(waiting) => {
                let room = MAX_WAITING.saturating_sub(waiting.len());
                waiting.extend(outgoing.into_iter().take(room));
            }
            Route::Attached(tx) => {
                for message in outgoing {
                    let _ = tx.send(message);
                }
            }
            Route::Closed => {}
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

#[cfg(test)]
mod tests {
    use super::*;

    fn received(rx: &mut tokio::sync::mpsc::UnboundedReceiver<ToEditor>) -> Vec<ToEditor> {
        std::iter::from_fn(|| rx.try_recv().ok()).collect()
    }

    #[test]
    fn messages_wait_for_the_editor_and_stop_at_close() {
        let log = Log::new(Level::Info);
        log.info(format_args!("before initialize"));
        log.debug(format_args!("filtered out"));
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        log.attach(tx);
        log.warn(format_args!("a warning"));
        log.show(Level::Warn, format_args!("shown"));
        log.close();
        log.error(format_args!("after exit"));
        let got = received(&mut rx);
        let expect = |show, typ, message: &str| ToEditor { show, typ, message: message.into() };
        assert_eq!(
            got,
            vec![
                expect(false, MessageType::INFO, "before initialize"),
                expect(false, MessageType::WARNING, "a warning"),
                expect(true, MessageType::WARNING, "shown"),
                expect(false, MessageType::WARNING, "shown"),
            ]
        );
    }

    #[test]
    fn shown_messages_ignore_the_level_filter() {
        let log = Log::new(Level::Error);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        log.attach(tx);
        log.show(Level::Warn, format_args!("shown"));
        log.info(format_args!("not logged"));
        let got = received(&mut rx);
        assert_eq!(
            got,
            vec![ToEditor { show: true, typ: MessageType::WARNING, message: "shown".into() }]
        );
    }
}
