//! The commands for agents: `locus mcp`, `locus call`, `locus tools`, `locus status`.
//! They reach the sidecar of a workspace through `mcp::proxy`, or serve the tools in-process.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use locus_tools::{CallOptions, Catalogue, Detached, Host};
use rmcp::model::CallToolRequestParams;
use serde_json::{Map, Value, json};

use crate::commands::{CliError, io_err};
use crate::mcp::discovery;
use crate::mcp::proxy::{self, Proxy, Watched};
use crate::mcp::server::{LocusServer, TIMEOUT_META, effective_timeout};

/// Where `locus mcp` and `locus call` send their calls.
#[derive(Debug, Clone, Default, PartialEq, Eq, clap::Args)]
pub struct Target {
    /// Use the sidecar whose workspace holds DIR instead of the current directory
    #[arg(long, value_name = "DIR", value_parser = workspace_dir)]
    pub workspace: Option<PathBuf>,
    /// Timeout in milliseconds of tools on the default 30 s (tools with their own keep it)
    #[arg(long, value_name = "MS", value_parser = timeout_ms)]
    pub timeout: Option<Duration>,
    /// The most bytes of JSON an answer may take; larger ones are folded or cut, saying how
    /// to get the rest [default: 32768]
    #[arg(long, value_name = "BYTES", value_parser = answer_budget)]
    pub answer_budget: Option<usize>,
}

/// Arguments of `locus mcp`.
#[derive(Debug, Clone, Default, PartialEq, Eq, clap::Args)]
pub struct McpArgs {
    /// The tools offered: families (editor, symbol, dialog, debug, system) and tool names,
    /// comma-separated, `-name` to remove one [default: all]
    #[arg(long, value_name = "LIST", value_parser = crate::commands::tool_selection)]
    pub tools: Option<locus_tools::ToolSelection>,
    #[command(flatten)]
    pub target: Target,
}

fn answer_budget(v: &str) -> Result<usize, String> {
    let bytes = v.trim().parse::<usize>().map_err(|_| "expected a whole number of bytes")?;
    locus_tools::budget::check(bytes)
}

fn workspace_dir(v: &str) -> Result<PathBuf, String> {
    let dir = PathBuf::from(v);
    if !dir.is_dir() {
        return Err("not a directory".into());
    }
    Ok(locus_platform::path::canonicalize(&dir).unwrap_or(dir))
}

fn timeout_ms(v: &str) -> Result<Duration, String> {
    let ms = v.trim().parse::<u64>().ok().filter(|ms| *ms > 0);
    let ms = ms.ok_or("expected a positive whole number of milliseconds, e.g. 30000")?;
    Ok(Duration::from_millis(ms))
}

impl Target {
    fn dir(&self) -> Result<PathBuf, CliError> {
        if let Some(w) = &self.workspace {
            return Ok(w.clone());
        }
        let cwd = std::env::current_dir()
            .map_err(|e| CliError::Io(format!("no current directory: {e}")))?;
        let listed = std::env::var("WORKSPACE_FOLDER_PATHS").ok();
        Ok(workspace_of(cwd, std::env::home_dir().as_deref(), listed.as_deref()))
    }
}

/// The workspace of a process started in `cwd`: `cwd` itself, unless it is `/` or the home
/// folder and the client named its workspace folders in `WORKSPACE_FOLDER_PATHS` (Cursor
/// starts stdio servers from `/` and lists the open folders there, comma-separated): then the
/// first of those that is a folder.
fn workspace_of(cwd: PathBuf, home: Option<&Path>, listed: Option<&str>) -> PathBuf {
    let nowhere = cwd == Path::new("/") || home.is_some_and(|h| cwd == h);
    let named = listed
        .into_iter()
        .flat_map(|l| l.split(','))
        .map(|p| PathBuf::from(p.trim()))
        .find(|p| p.is_absolute() && p.is_dir());
    match named {
        Some(folder) if nowhere => folder,
        _ => cwd,
    }
}

/// Arguments of `locus call`.
#[derive(Debug, clap::Args)]
pub struct CallArgs {
    /// The tool (`locus tools` lists them)
    #[arg(value_name = "TOOL")]
    tool: String,
    /// A parameter, its value typed by the tool's input schema (repeatable)
    #[arg(short = 'p', long = "param", value_name = "KEY=VALUE", value_parser = key_value)]
    params: Vec<(String, String)>,
    /// Parameters as a JSON object; --param values are added over it
    #[arg(long, value_name = "JSON", value_parser = json_object)]
    json: Vec<Map<String, Value>>,
    #[command(flatten)]
    target: Target,
}

fn key_value(kv: &str) -> Result<(String, String), String> {
    let (k, v) = kv.split_once('=').ok_or("expected KEY=VALUE, e.g. --param line=12")?;
    Ok((k.trim().to_string(), v.to_string()))
}

fn json_object(text: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err("takes a JSON object, e.g. '{\"path\": \"src/app.ts\"}'".into()),
        Err(e) => Err(format!("not valid JSON: {e}")),
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Io(format!("cannot start the async runtime: {e}")))
}

/// `locus mcp`: MCP on stdio, forwarded to the sidecar of the workspace or served in-process.
pub fn mcp(args: &McpArgs) -> Result<(), CliError> {
    let target = &args.target;
    let dir = target.dir()?;
    let proxy = Proxy::new(dir, target.timeout, target.answer_budget, args.tools.clone());
    runtime()?.block_on(proxy::serve_stdio(proxy)).map_err(CliError::Io)
}

/// `locus call`: one tool call; prints its envelope, and fails (exit 1) when the tool did.
pub fn call(args: &CallArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let catalogue = Arc::new(locus_tools::standard(locus_tools::Options::from_env()));
    let tool = &args.tool;
    let mut json_args = Map::new();
    for map in &args.json {
        json_args.extend(map.clone());
    }
    for (k, v) in &args.params {
        let value = typed(&catalogue, tool, k, v);
        json_args.insert(k.clone(), value);
    }
    let target = &args.target;
    let dir = target.dir()?;
    let envelope = runtime()?.block_on(call_anywhere(catalogue, &dir, tool, json_args, target));
    let mut text = serde_json::to_string_pretty(&envelope).expect("JSON serializes");
    text.push('\n');
    out.write_all(text.as_bytes()).map_err(io_err)?;
    if envelope["ok"] == json!(true) {
        Ok(())
    } else {
        let code = envelope["error"]["code"].as_str().unwrap_or("E_INTERNAL");
        let message = envelope["error"]["message"].as_str().unwrap_or("the tool failed");
        Err(CliError::Io(format!("{tool}: {code}: {message}")))
    }
}

/// A `--param` value typed by the tool's input schema: numbers and booleans where the
/// parameter takes them, JSON for arrays and objects, else the string itself.
pub fn typed(catalogue: &Catalogue, tool: &str, key: &str, raw: &str) -> Value {
    let schema = catalogue
        .get(tool)
        .and_then(|e| e.input_schema().get("properties").and_then(|p| p.get(key)).cloned());
    let types: Vec<String> = match schema.as_ref().and_then(|s| s.get("type")) {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts.iter().filter_map(|t| t.as_str().map(String::from)).collect(),
        _ => Vec::new(),
    };
    let has = |t: &str| types.iter().any(|x| x == t);
    let trimmed = raw.trim();
    if has("integer")
        && let Ok(n) = trimmed.parse::<i64>()
    {
        return json!(n);
    }
    if has("number")
        && let Ok(n) = trimmed.parse::<f64>()
    {
        return json!(n);
    }
    if has("boolean") && matches!(trimmed, "true" | "false") {
        return json!(trimmed == "true");
    }
    if has("null") && trimmed == "null" {
        return Value::Null;
    }
    if has("string") {
        return json!(raw);
    }
    if (types.is_empty() || has("array") || has("object"))
        && let Ok(v) = serde_json::from_str::<Value>(trimmed)
        && !v.is_string()
    {
        return v;
    }
    json!(raw)
}

/// Calls `tool` as `locus call` does (on the sidecar of the workspace, else in-process) and
/// returns its envelope (`locus symbols`).
pub fn envelope_of(
    tool: &str,
    args: Map<String, Value>,
    target: &Target,
) -> Result<Value, CliError> {
    let catalogue = Arc::new(locus_tools::standard(locus_tools::Options::from_env()));
    let dir = target.dir()?;
    Ok(runtime()?.block_on(call_anywhere(catalogue, &dir, tool, args, target)))
}

/// Calls a tool on the sidecar serving `dir`, or in-process when none does (or it cannot be
/// reached); returns the envelope.
async fn call_anywhere(
    catalogue: Arc<Catalogue>,
    dir: &Path,
    tool: &str,
    args: Map<String, Value>,
    target: &Target,
) -> Value {
    let timeout = target.timeout;
    if let Some(record) = proxy::find(dir, &discovery::Refusals::default()) {
        match proxy::connect(&record, "locus-call").await {
            Ok(up) => {
                let mut request = CallToolRequestParams::new(tool.to_string());
                request.arguments = Some(args.clone());
                let mut meta = Map::new();
                if let Some(t) = timeout {
                    meta.insert(TIMEOUT_META.into(), json!(t.as_millis() as u64));
                }
                if let Some(bytes) = target.answer_budget {
                    meta.insert(locus_tools::budget::BUDGET_META.into(), json!(bytes));
                }
                if !meta.is_empty() {
                    request.meta =
                        Some(rmcp::model::RequestMetaObject(rmcp::model::MetaObject(meta)));
                }
                // One deadline, and the sidecar's pid watched while the call waits: a sidecar
                // that dies mid-call is answered within a liveness poll, as `locus mcp` does.
                let started = std::time::Instant::now();
                let limit =
                    effective_timeout(&catalogue, tool, None, timeout).unwrap_or_else(|| {
                        catalogue
                            .get(tool)
                            .map_or(locus_tools::DEFAULT_TIMEOUT, |e| e.spec().timeout)
                    });
                let deadline =
                    tokio::time::Instant::from_std(started) + limit + proxy::TIMEOUT_GRACE;
                let pid = record.pid;
                let call =
                    async { up.client.peer().call_tool(request).await.map_err(|e| e.to_string()) };
                let watched = proxy::watch(pid, deadline, call).await;
                let _ = tokio::time::timeout(Duration::from_secs(1), up.client.cancel()).await;
                // The request has gone to the sidecar: whatever happens now, it is not run
                // again in-process (it may have acted there, e.g. a rename the editor made).
                return match watched {
                    Watched::Answer(r) => match r.structured_content {
                        Some(envelope) => envelope,
                        None => {
                            eprintln!(
                                "locus: the sidecar of pid {pid} answered `{tool}` without an envelope"
                            );
                            let why = "the sidecar's answer carried no envelope";
                            proxy::lost_answer_envelope(tool, pid, why, started).to_json()
                        }
                    },
                    Watched::Died => {
                        eprintln!("locus: the sidecar of pid {pid} exited during `{tool}`");
                        proxy::sidecar_died_envelope(tool, pid, started).to_json()
                    }
                    Watched::TimedOut => {
                        proxy::timed_out_envelope(tool, limit, pid, started).to_json()
                    }
                    Watched::Failed(e) => {
                        eprintln!("locus: the call to the sidecar of pid {pid} failed: {e}");
                        if proxy::died_soon(pid).await {
                            proxy::sidecar_died_envelope(tool, pid, started).to_json()
                        } else {
                            proxy::lost_answer_envelope(tool, pid, &e, started).to_json()
                        }
                    }
                };
            }
            // Not connected: nothing was sent, so the call runs here.
            Err(e) => eprintln!("locus: {e}; calling in-process"),
        }
    }
    // The process ends with this call: tools that would leave a session behind refuse.
    let host: Arc<dyn Host> = Arc::new(
        Detached::one_shot()
            .in_workspace(dir.to_path_buf())
            .with_runtime_of(crate::state::python_runtime),
    );
    // `--timeout` replaces the catalogue's default here too (docs/reference/envelope.md).
    let options = CallOptions {
        timeout: effective_timeout(&catalogue, tool, None, timeout),
        answer_budget: target.answer_budget,
        ..CallOptions::default()
    };
    let server =
        LocusServer::new(catalogue, host, timeout).with_answer_budget(target.answer_budget);
    server.call(tool, Value::Object(args), options).await.envelope.to_json()
}

/// `locus tools`: the enabled tools, one JSON object per line.
pub fn tools(out: &mut dyn Write) -> Result<(), CliError> {
    let catalogue = locus_tools::standard(locus_tools::Options::from_env());
    let mut text = String::new();
    for entry in catalogue.enabled() {
        let s = entry.spec();
        let params: Vec<Value> = entry
            .params()
            .iter()
            .map(|p| json!({"name": p.name, "type": p.expected, "required": p.required, "description": p.description, "example": p.example}))
            .collect();
        let line = json!({
            "name": s.name, "category": s.category.name(), "title": s.title, "description": s.description,
            "whenToUse": s.when_to_use.text(), "parameters": params, "inputSchema": Value::Object((**entry.input_schema()).clone()),
            "timeoutMs": s.timeout.as_millis() as u64, "system": s.system, "readOnly": s.effect.read_only(), "destructive": s.effect.destructive(),
        });
        text.push_str(&line.to_string());
        text.push('\n');
    }
    out.write_all(text.as_bytes()).map_err(io_err)
}

/// `locus status`: the live sidecars, one JSON object per line, each with its
/// `bridge_status` (or why it could not be asked). Tokens are never printed.
pub fn status(out: &mut dyn Write) -> Result<(), CliError> {
    let records = discovery::list(&discovery::Refusals::default());
    if records.is_empty() {
        eprintln!(
            "locus: no running sidecar (`locus lsp`) was found in {}",
            discovery::dir().display()
        );
        return Ok(());
    }
    let lines = runtime()?.block_on(async {
        let mut lines = Vec::new();
        for record in &records {
            let mut line = json!({
                "pid": record.pid, "url": record.url, "workspaceFolders": record.workspace_folders,
                "editor": record.editor, "version": record.version, "startedAt": record.started_at,
                "lastActiveAt": locus_tools::rfc3339(Duration::from_millis(record.last_active_ms)),
            });
            let asked = tokio::time::timeout(Duration::from_secs(3), async {
                let up = proxy::connect(record, "locus-status").await?;
                let r = up
                    .client
                    .peer()
                    .call_tool(CallToolRequestParams::new("bridge_status"))
                    .await
                    .map_err(|e| e.to_string());
                let _ = up.client.cancel().await;
                r
            })
            .await;
            match asked {
                Ok(Ok(r)) => {
                    line["status"] =
                        r.structured_content.map(|e| e["data"].clone()).unwrap_or(Value::Null)
                }
                Ok(Err(e)) => line["error"] = json!(e),
                Err(_) => line["error"] = json!("no answer within 3 s"),
            }
            lines.push(line.to_string());
        }
        lines
    });
    let mut text = lines.join("\n");
    text.push('\n');
    out.write_all(text.as_bytes()).map_err(io_err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_started_from_root_takes_its_first_workspace_folder() {
        let project = std::env::temp_dir();
        let listed = format!("/no/such/folder,{}", project.display());
        let home = Path::new("/home/ada");
        assert_eq!(workspace_of("/".into(), Some(home), Some(&listed)), project);
        assert_eq!(workspace_of(home.into(), Some(home), Some(&listed)), project);
        // Started in a project, that project wins; no list, the working directory stays.
        assert_eq!(
            workspace_of("/srv/app".into(), Some(home), Some(&listed)),
            Path::new("/srv/app")
        );
        assert_eq!(workspace_of("/".into(), Some(home), None), Path::new("/"));
    }
}
