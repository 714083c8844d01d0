//! `locus symbols QUERY`: workspace symbol search (the `symbol_search` tool) on the command
//! line, answered by the running sidecar of the workspace when there is one (its index is
//! warm and sees the editor's unsaved text), else in-process (the index is built first).

use std::io::Write;

use serde_json::{Map, Value, json};

use crate::commands::agent::{self, Target};
use crate::commands::{CliError, io_err};

/// Arguments of `locus symbols`.
#[derive(Debug, clap::Args)]
pub struct SymbolsArgs {
    /// A name, the start of one, words of it, an abbreviation, or Container.name
    #[arg(value_name = "QUERY")]
    query: String,
    /// Only these kinds: LSP SymbolKind names, comma-separated (Class,Method)
    #[arg(long, value_name = "K")]
    kind: Option<String>,
    /// Only in this folder, or in files matching this glob (src/**/*.ts)
    #[arg(long, value_name = "PATH")]
    path: Option<String>,
    /// At most this many matches (default 20, at most 200)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=200))]
    limit: Option<u32>,
    #[command(flatten)]
    target: Target,
}

/// Prints one JSON object per match, best first; a note on stderr while the sidecar's index
/// is still being built, and when nothing matches.
pub fn symbols(args: &SymbolsArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let mut params = Map::new();
    params.insert("query".into(), json!(args.query));
    if let Some(k) = &args.kind {
        params.insert("kind".into(), json!(k));
    }
    if let Some(p) = &args.path {
        params.insert("path".into(), json!(p));
    }
    if let Some(n) = args.limit {
        params.insert("limit".into(), json!(n));
    }
    let envelope = agent::envelope_of("symbol_search", params, &args.target)?;
    if envelope["ok"] != json!(true) {
        let code = envelope["error"]["code"].as_str().unwrap_or("E_INTERNAL");
        let message = envelope["error"]["message"].as_str().unwrap_or("the search failed");
        let hint =
            envelope["error"]["hint"].as_str().map(|h| format!(" ({h})")).unwrap_or_default();
        return Err(match code {
            "E_INVALID_PARAMS" => CliError::Usage(format!("{message}{hint}")),
            _ => CliError::Io(format!("{code}: {message}{hint}")),
        });
    }
    let data = &envelope["data"];
    if let Some(i) = data.get("indexing") {
        eprintln!(
            "locus: the index is still being built ({} of {} files): the answer may miss symbols",
            i["filesDone"], i["filesTotal"]
        );
    }
    if let Some(w) = data.get("warning").and_then(Value::as_str) {
        eprintln!("locus: warning: {w}");
    }
    let symbols = data["symbols"].as_array().map_or(&[][..], Vec::as_slice);
    if symbols.is_empty() {
        // Said on stderr, so that an empty answer is not mistaken for a failed one; the
        // status stays 0, as for any answer (exit codes are for errors, docs/configuration.md).
        let filters: Vec<String> = [("--kind", &args.kind), ("--path", &args.path)]
            .into_iter()
            .filter_map(|(flag, v)| v.as_ref().map(|v| format!(" {flag} {v}")))
            .collect();
        let within = if filters.is_empty() {
            String::new()
        } else {
            format!(" with{}", filters.join(" and"))
        };
        eprintln!("locus: no symbol matches `{}`{within}", args.query);
    }
    let mut text = String::new();
    for symbol in symbols {
        text.push_str(&symbol.to_string());
        text.push('\n');
    }
    out.write_all(text.as_bytes()).map_err(io_err)
}
