//! The `locus` command line: clap's definition of every subcommand and the dispatch to
//! `commands/`. The one place that knows the whole command tree; it sits above the commands,
//! which never import from here.

use std::io::Write;

use clap::{CommandFactory, Parser, Subcommand};

use crate::commands::CliError;
use crate::commands::agent::{self, CallArgs, McpArgs};
use crate::commands::doctor::{self, DoctorArgs};
use crate::commands::files::{self, ContextArgs, OutlineArgs, SyntaxArgs};
use crate::commands::io_err;
use crate::commands::lsp::{self, LspArgs};
use crate::commands::manifest::{self, ToolsFormat};
use crate::commands::symbols::{self, SymbolsArgs};

/// locus — a context oracle for editors and AI agents
#[derive(Debug, Parser)]
#[command(
    name = "locus",
    version,
    arg_required_else_help = true,
    after_help = "\
LINE and COL are 1-based; COL counts UTF-16 code units, as VS Code does.
stdout carries only the answer (JSON); errors go to stderr with exit code 2 for bad
arguments and 1 for anything else. `locus COMMAND --help` shows a command's options."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// The editor-facing language server on stdio; also serves MCP to agents on 127.0.0.1
    #[command(
        after_help = "Logs go to stderr and to the editor's log. Editor set-up: docs/editors.md."
    )]
    Lsp(LspArgs),
    /// MCP on stdio for agents: forwards to the `locus lsp` of this workspace, or serves
    /// the tools in-process when no editor runs
    Mcp(McpArgs),
    /// Call one tool; prints its envelope as JSON (exit 1 when the tool failed)
    #[command(after_help = "\
Examples:
  locus call editor_get_context
  locus call symbol_scope_at --param path=src/app.ts --param line=12
  locus call symbol_outline --json '{\"path\": \"src/app.ts\"}'")]
    Call(CallArgs),
    /// The tools, one JSON object per line
    Tools {
        /// `vscode`: the `contributes.languageModelTools` block of the VS Code extension
        #[arg(long, value_enum, default_value_t = ToolsFormat::Lines)]
        format: ToolsFormat,
    },
    /// The running sidecars (`locus lsp` with MCP), one JSON object per line
    Status,
    /// Check the set-up: one line per check, ✓ or ✗ with the fix (`--json` for scripts)
    Doctor(DoctorArgs),
    /// The editorContext of file positions, one JSON object per line, in argument order
    Context(ContextArgs),
    /// A document's symbols as LSP DocumentSymbol JSON (or an indented tree)
    Outline(OutlineArgs),
    /// Workspace symbols matching QUERY (the symbol_search tool), one JSON object per line
    #[command(after_help = "\
Examples:
  locus symbols Ledger.balance
  locus symbols parse --kind Function,Method --path 'src/**/*.py'

Answered by the running `locus lsp` of the workspace when there is one, else in-process.")]
    Symbols(SymbolsArgs),
    /// The languages Locus knows, one JSON object per line
    Languages,
    /// The syntax tree (named nodes, with fields), for query authors
    Syntax(SyntaxArgs),
    /// A completion script for the shell, printed to stdout
    #[command(after_help = "\
Install, e.g.:
  bash: locus completions bash > ~/.local/share/bash-completion/completions/locus
  zsh:  locus completions zsh > \"${fpath[1]}/_locus\"
  fish: locus completions fish > ~/.config/fish/completions/locus.fish")]
    Completions {
        /// The shell
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// The version (as `--version`)
    #[command(hide = true)]
    Version,
}

/// Runs the command line `args` (without the program name), writing answers, `--help` and
/// `--version` to `out`.
pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let argv = std::iter::once("locus".to_string()).chain(args.iter().cloned());
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        // `--help` and `--version` are answers, not errors.
        Err(e) if !e.use_stderr() => {
            let text = e.render().to_string();
            return writeln!(out, "{}", text.trim_end()).map_err(io_err);
        }
        Err(e) => return Err(CliError::Parse(e)),
    };
    match cli.command {
        Command::Lsp(args) => lsp::run(&args),
        Command::Mcp(args) => agent::mcp(&args),
        Command::Call(args) => agent::call(&args, out),
        Command::Tools { format: ToolsFormat::Lines } => agent::tools(out),
        Command::Tools { format: ToolsFormat::Vscode } => manifest::vscode(out),
        Command::Status => agent::status(out),
        Command::Doctor(args) => doctor::run(&args, out),
        Command::Context(args) => files::context(&args, out),
        Command::Outline(args) => files::outline(&args, out),
        Command::Symbols(args) => symbols::symbols(&args, out),
        Command::Languages => files::languages(out),
        Command::Syntax(args) => files::syntax(&args, out),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "locus", &mut script);
            out.write_all(&script).map_err(io_err)
        }
        Command::Version => writeln!(out, "locus {}", env!("CARGO_PKG_VERSION")).map_err(io_err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_tree_is_consistent() {
        Cli::command().debug_assert();
    }
}
