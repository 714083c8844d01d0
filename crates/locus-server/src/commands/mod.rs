//! The commands of the command line, one module per family, each with its `clap::Args`.
//!
//! `cli.rs` (above) composes these into the `locus` command and dispatches; the commands
//! reach down into the edges (`lsp`, `mcp`) and the engine crates, never back up into `cli`.
//! Every command writes its answer to the `out` it is given (stdout in the binary): JSON, one
//! object per line where a command answers several things. Errors are returned, never printed
//! here (warnings that do not stop a command go to stderr).

pub mod agent;
pub mod doctor;
pub mod files;
pub mod lsp;
pub mod manifest;
pub mod symbols;

use std::fmt;

/// A command-line failure, with what the user should do about it.
#[derive(Debug)]
pub enum CliError {
    /// The arguments are wrong: exit code 2.
    Usage(String),
    /// clap rejected the command line; its message already says what to do. Exit code 2.
    Parse(clap::Error),
    /// A file could not be read, a tool failed, or output could not be written: exit code 1.
    Io(String),
    /// The reader of the output stopped reading (`locus tools | head`): not an error, as for
    /// any Unix filter; the process ends quietly with exit code 0.
    ClosedOutput,
}

impl CliError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Parse(e) => e.exit_code(),
            CliError::Io(_) => 1,
            CliError::ClosedOutput => 0,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => write!(f, "error: {m}\n\nRun `locus --help` for usage."),
            // Plain text: the rendered message without terminal colours.
            CliError::Parse(e) => write!(f, "{}", e.render().to_string().trim_end()),
            CliError::Io(m) => write!(f, "error: {m}"),
            CliError::ClosedOutput => write!(f, "the output was closed"),
        }
    }
}

/// Writing the answer failed (a closed pipe, a full disk).
pub(crate) fn io_err(e: std::io::Error) -> CliError {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return CliError::ClosedOutput;
    }
    CliError::Io(format!("writing output: {e}"))
}

/// Parses `--tools` (of `locus mcp` and `locus lsp`) against every tool Locus ships.
pub(crate) fn tool_selection(v: &str) -> Result<locus_tools::ToolSelection, String> {
    let catalogue = locus_tools::standard(locus_tools::Options::from_env());
    locus_tools::ToolSelection::parse(v, &catalogue.families())
}
