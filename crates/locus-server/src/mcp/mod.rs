//! The MCP edge: the tool catalogue (`locus-tools`) served to agents.
//!
//! - [`server`]: the catalogue as an rmcp `ServerHandler` (tools/list, tools/call), the same
//!   for every transport.
//! - [`sidecar`]: inside `locus lsp`, streamable HTTP on 127.0.0.1 with a bearer token,
//!   Origin/Host checks and the discovery file; tools read the live editor state ([`host`]).
//! - [`sessions`]: the sidecar's HTTP sessions, capped, evicted when idle.
//! - [`ide`]: the agents' own IDE channels (Claude Code's `/ide`), served beside the sidecar.
//! - [`proxy`]: `locus mcp` on stdio, forwarding to the sidecar that serves the workspace
//!   (found again for every request), or serving in-process without one.
//! - [`commands`]: `locus mcp`, `locus call`, `locus tools`, `locus status`.
//!
//! **Invariants.**
//! - stdout belongs to the protocol (`locus mcp`) or to JSON answers (`call`, `tools`,
//!   `status`); logs go to stderr only.
//! - Every tool answer is the envelope of `docs/reference/envelope.md` in `structuredContent`, with a
//!   one-line summary in `content[0].text` and `isError = !ok`.

pub mod discovery;
pub mod host;
pub mod ide;
pub mod proxy;
pub mod server;
pub mod sessions;
pub mod sidecar;
#[cfg(test)]
mod tests;

pub use sidecar::Sidecar;

/// Starts the sidecar of `locus lsp` on `port` (0 = random). A failure (the port is
/// taken, the runtime directory is not writable) is reported on stderr, returned as the
/// reason, and leaves the language server running without MCP. Success is not printed:
/// editors file a server's stderr as errors, so the LSP logs the sidecar's URL through
/// the editor's log instead.
pub fn start_sidecar(
    port: u16,
    state: crate::state::Shared,
    tools: Option<locus_tools::ToolSelection>,
) -> Result<std::sync::Arc<Sidecar>, String> {
    Sidecar::start(port, state, tools).map_err(|e| {
        eprintln!("locus: mcp: disabled: {e}");
        e.to_string()
    })
}
