//! `locus lsp`: the editor-facing language server on stdio.

use crate::commands::CliError;
use crate::lsp::Level;

/// Options of `locus lsp`.
#[derive(Debug, clap::Args)]
pub struct LspArgs {
    /// Do not serve MCP (agents then cannot reach this editor's state)
    #[arg(long)]
    no_mcp: bool,
    /// The MCP port on 127.0.0.1 (0, the default, picks a free one)
    #[arg(long, value_name = "N", value_parser = port)]
    mcp_port: Option<u16>,
    /// What to log, to stderr and the editor's log [default: info, or $LOCUS_LOG]
    #[arg(long, value_name = "LEVEL", ignore_case = true, value_parser = level())]
    log_level: Option<Level>,
    /// The tools the sidecar offers agents: families (editor, symbol, dialog, debug, system)
    /// and tool names, comma-separated, `-name` to remove one [default: all]
    #[arg(long, value_name = "LIST", value_parser = crate::commands::tool_selection)]
    tools: Option<locus_tools::ToolSelection>,
    /// Accepted and ignored: vscode-languageclient adds it to the command it starts
    #[arg(long, hide = true)]
    stdio: bool,
}

/// The level names, for `--help` and completions (`warning` is accepted for `warn`).
fn level() -> impl clap::builder::TypedValueParser<Value = Level> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let names = Level::ALL.map(|l| match l {
        Level::Warn => PossibleValue::new(l.as_str()).alias("warning"),
        _ => PossibleValue::new(l.as_str()),
    });
    PossibleValuesParser::new(names).map(|s| s.parse::<Level>().expect("a listed level name"))
}

fn port(v: &str) -> Result<u16, String> {
    v.trim().parse::<u16>().map_err(|_| {
        "the port must be a whole number from 1 to 65535 (or 0 for a random port)".to_string()
    })
}

impl LspArgs {
    /// The server's options. `env_log` is the value of `LOCUS_LOG`, if set; `--log-level`
    /// wins over it.
    pub fn options(&self, env_log: Option<&str>) -> Result<crate::lsp::Options, CliError> {
        let log_level = match (&self.log_level, env_log) {
            (Some(l), _) => *l,
            (None, Some(v)) if !v.trim().is_empty() => {
                v.parse().map_err(|e: String| CliError::Usage(format!("LOCUS_LOG: {e}")))?
            }
            _ => Level::Info,
        };
        if self.no_mcp && self.mcp_port.is_some() {
            eprintln!("locus: warning: `--mcp-port` has no effect with `--no-mcp`");
        }
        let mcp_port = if self.no_mcp { None } else { Some(self.mcp_port.unwrap_or(0)) };
        if self.no_mcp && self.tools.is_some() {
            eprintln!("locus: warning: `--tools` has no effect with `--no-mcp`");
        }
        Ok(crate::lsp::Options { mcp_port, log_level, tools: self.tools.clone() })
    }
}

/// `locus lsp`: serves until the editor says `exit` or closes the pipe.
pub fn run(args: &LspArgs) -> Result<(), CliError> {
    let env_log = std::env::var("LOCUS_LOG").ok();
    let options = args.options(env_log.as_deref())?;
    match crate::lsp::run(options) {
        Ok(true) => Ok(()),
        Ok(false) => {
            Err(CliError::Io("the editor closed the connection without a shutdown request".into()))
        }
        Err(e) => Err(CliError::Io(format!("the language server failed: {e}"))),
    }
}
