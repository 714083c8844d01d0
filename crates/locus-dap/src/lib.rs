//! The DAP client at the edge: Locus talks to debug adapters (debugpy, Delve, lldb-dap,
//! js-debug) the way an IDE does, and keeps the debugger's state for the tool layer above.
//!
//! Layers, bottom up (Helix's helix-dap shape; a module imports only from those above it):
//! - `protocol` — `Content-Length` framing by bytes and the loose message envelope.
//! - `types` — typed, lenient views of the bodies Locus reads.
//! - `def` and `adapter` — adapters as data (`adapters/*.toml`, embedded and strict) and
//!   their resolution to a command on this machine, with the install hint when missing.
//! - `traffic` — the recent messages of a connection, both ways, for diagnosing an adapter.
//! - `transport` — [`Client`]: one adapter connection (stdio or TCP), our `seq`, responses by
//!   `request_seq`, deadlines, events fanned out, reverse requests always answered, stderr and
//!   traffic kept.
//! - `ids` and `output` — Locus's own frame and reference ids; output streams with cursors.
//! - `session` — [`Session`]: the handshake order that does not deadlock, breakpoints and hit
//!   counts kept by Locus, stepping, inspection, and the state machine fed by events.
//!
//! **Invariants.**
//! - Strict with our own data, lenient with peers: adapter files reject unknown keys; DAP
//!   messages accept unknown fields and events, `seq: 0`, thread id 0 and breakpoint id 0.
//! - Nothing waits forever: every request and every wait has a deadline, and a dead adapter
//!   ends its session and every waiter within a second.
//! - No MCP, LSP or editor types; no JSON-RPC of Locus's. The tool layer maps [`Error`]s to
//!   envelope codes with [`Error::code`] and [`Error::hint`].
//!
//! ```no_run
//! # async fn demo() -> Result<(), locus_dap::Error> {
//! use std::time::Duration;
//! use locus_dap::{Registry, Session, SessionConfig, SourceBreakpoint};
//! let registry = Registry::builtin();
//! let session = Session::start(registry.get("debugpy")?, SessionConfig::standard()).await?;
//! session.set_breakpoints("/abs/app.py".as_ref(), &[SourceBreakpoint::at(12)]).await?;
//! session.launch(&serde_json::json!({"program": "/abs/app.py"})).await?;
//! let stop = session.wait_for_stop(0, Duration::from_secs(90)).await?;
//! let frames = session.stack_trace(stop.thread_id, None).await?;
//! # Ok(()) }
//! ```

#![deny(missing_docs)]

mod adapter;
mod def;
mod error;
mod ids;
mod output;
mod protocol;
mod session;
#[cfg(feature = "testing")]
pub mod testing;
mod traffic;
mod transport;
pub mod types;

pub use adapter::{AttachTarget, Launcher, Lookup, Registry};
pub use def::{
    AdapterDef, AttachBy, CommandDef, ExceptionsDef, PortSource, TcpDef, TestDef, TransportDef,
};
pub use error::Error;
pub use ids::{FrameId, VarRef};
pub use output::{OutputCursor, OutputRead};
pub use protocol::{Event, Message, Request, Response};
pub use session::{
    BreakOn, BreakpointInfo, CodeLocation, ExceptionDetails, Frame, FunctionBreakpoint, Phase,
    Resume, ScopeInfo, Session, SessionConfig, Snapshot, SourceBreakpoint, StopInfo, ThreadInfo,
    VariableInfo,
};
pub use traffic::{Direction, TrafficEntry, TrafficPage};
pub use transport::{Client, ClientConfig, Incoming, PendingResponse, ReverseRequest};
