//! The tool catalogue: what agents can call, described once.
//!
//! Each tool is a type implementing [`Tool`]: its [`ToolSpec`] (name `thing_action`,
//! category, description, when to use it, timeout, enabled, system), its parameter type
//! (whose JSON Schema is the input schema and whose `Deserialize` is the validation) and its
//! handler over core types. [`Catalogue::call`] runs one: it captures the editorContext when
//! the call starts, validates, runs under the timeout and the client's cancellation, and
//! answers with the [`Envelope`] (`docs/reference/envelope.md`).
//!
//! **Invariants.**
//! - No protocol types (LSP, MCP): the MCP edge in `locus-server` maps tools and envelopes
//!   onto rmcp's types. JSON appears only as tool input and output (`serde_json::Value`).
//! - One source of truth per tool: every listing (tools/list, `mcp_list_tools`,
//!   `locus tools`) is derived from the [`Catalogue`].
//! - A call never fails outside the envelope: unknown tools, bad parameters, timeouts,
//!   cancellation and panics (in a tool, or in capturing its context) all become error
//!   envelopes with a code and a hint; the next call works.
//! - Every tool's output schema is the envelope's, derived once at registration
//!   ([`Entry::output_schema`]), with the tool's `data` schema where it gives one.
//! - System tools never carry an editorContext; a failed capture is logged, not returned.

#![deny(missing_docs)]

pub mod budget;
mod catalogue;
mod editor_context;
mod envelope;
mod host;
pub mod params;
pub mod reference;
mod selection;
mod spec;
pub mod tools;

/// The editorContext an editor reports, for the unit tests: the integration tests' own helper.
#[cfg(test)]
#[path = "../tests/context_support/mod.rs"]
mod context_support;

pub use catalogue::{CallOptions, Catalogue, Cx, Entry, Outcome, Tool};
pub use editor_context::to_json as editor_context_json;
pub use envelope::{
    Cut, CutPlace, Envelope, ErrorBody, ErrorCode, FORMAT_VERSION, Meta, ToolError, rfc3339,
};
pub use host::{ActionEditor, ActionError, AgentChannel, Detached, Host, HostStatus, Mode};
pub use selection::ToolSelection;
pub use spec::{Category, DEFAULT_TIMEOUT, Effect, ParamHint, ToolSpec, WhenToUse};
pub use tokio_util::sync::CancellationToken;
pub use tools::{Options, standard};
