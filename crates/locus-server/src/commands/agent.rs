//! The MCP commands of the command line: `locus mcp`, `locus call`, `locus tools`,
//! `locus status`.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use locus_tools::{CallOptions, Catalogue, Detached, Host};
use rmcp::model::CallToolRequestParams;
use serde_json::{Map, Value, json};

use super::discovery;
use super::proxy::{self, Proxy};
use super::server::{LocusServer, TIMEOUT_META};
use crate::cli::CliError;

/// Options shared by `locus mcp` and `locus call`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Target {
    /// `--workspace DIR`: find the sidecar serving this directory instead of the current one.
    pub workspace: Option<PathBuf>,
    /// `--timeout MS`: overrides every tool's timeout.
    pub timeout: Option<Duration>,
}

impl Target {
    /// Takes `--workspace DIR` and `--timeout MS` (also `--flag=value`) out of `args`.
    fn take(args: &[String], command: &str) -> Result<(Target, Vec<String>), CliError> {
        let mut target = Target::default();
        let mut rest = Vec::new();
        let mut flags = crate::cli::Flags::new(args);
        while let Some((flag, inline)) = flags.next_flag() {
            match flag {
                "--workspace" => {
                    let dir = PathBuf::from(flags.value(flag, inline, "a directory")?);
                    if !dir.is_dir() {
                        return Err(CliError::Usage(format!(
                            "`--workspace {}`: not a directory",
                            dir.display()
                        )));
                    }
                    target.workspace = Some(std::fs::canonicalize(&dir).unwrap_or(dir));
                }
                "--timeout" => {
                    let v = flags.value(flag, inline, "milliseconds")?;
                    let ms = v.trim().parse::<u64>().ok().filter(|ms| *ms > 0).ok_or_else(|| {
                        CliError::Usage(format!("`--timeout {v}`: expected a positive whole number of milliseconds, e.g. 30000"))
                    })?;
                    target.timeout = Some(Duration::from_millis(ms));
                }
                _ => rest.push(flags.current().to_string()),
            }
        }
        let _ = command;
        Ok((target, rest))
    }

    fn dir(&self) -> Result<PathBuf, CliError> {
        match &self.workspace {
            Some(w) => Ok(w.clone()),
            None => std::env::current_dir()
                .map_err(|e| CliError::Io(format!("no current directory: {e}"))),
        }
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Io(format!("cannot start the async runtime: {e}")))
}

fn io_err(e: std::io::Error) -> CliError {
    CliError::Io(format!("writing output: {e}"))
}

/// `locus mcp [--workspace DIR] [--timeout MS]`.
pub fn mcp(args: &[String]) -> Result<(), CliError> {
    let (target, rest) = Target::take(args, "mcp")?;
    if let Some(other) = rest.first() {
        return Err(CliError::Usage(format!("unknown option `{other}` for `locus mcp`")));
    }
    let dir = target.dir()?;
    let proxy = Proxy::new(dir, target.timeout);
    runtime()?.block_on(proxy::serve_stdio(proxy)).map_err(CliError::Io)
}

/// `locus call TOOL [--param k=v]... [--json '{..}'] [--workspace DIR] [--timeout MS]`.
pub fn call(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let (target, rest) = Target::take(args, "call")?;
    let catalogue = Arc::new(locus_tools::standard(locus_tools::Options::from_env()));
    let mut tool: Option<String> = None;
    let mut json_args = Map::new();
    let mut params: Vec<(String, String)> = Vec::new();
    let mut flags = crate::cli::Flags::new(&rest);
    while let Some((flag, inline)) = flags.next_flag() {
        match flag {
            "--param" | "-p" => {
                let kv = flags.value(flag, inline, "KEY=VALUE")?;
                let Some((k, v)) = kv.split_once('=') else {
                    return Err(CliError::Usage(format!(
                        "`--param {kv}`: expected KEY=VALUE, e.g. --param line=12"
                    )));
                };
                params.push((k.trim().to_string(), v.to_string()));
            }
            "--json" => {
                let text = flags.value(flag, inline, "a JSON object")?;
                match serde_json::from_str::<Value>(&text) {
                    Ok(Value::Object(map)) => json_args.extend(map),
                    Ok(_) => {
                        return Err(CliError::Usage(
                            "`--json` takes a JSON object, e.g. '{\"path\": \"src/app.ts\"}'"
                                .into(),
                        ));
                    }
                    Err(e) => {
                        return Err(CliError::Usage(format!("`--json`: not valid JSON: {e}")));
                    }
                }
            }
            other if other.starts_with('-') => {
                return Err(CliError::Usage(format!("unknown option `{other}` for `locus call`")));
            }
            name if tool.is_none() => tool = Some(name.to_string()),
            extra => {
                return Err(CliError::Usage(format!(
                    "`locus call` takes one TOOL; `{extra}` is extra (parameters go in --param k=v)"
                )));
            }
        }
    }
    let Some(tool) = tool else {
        return Err(CliError::Usage(
            "`locus call` needs a TOOL name; `locus tools` lists them".into(),
        ));
    };
    for (k, v) in params {
        let value = typed(&catalogue, &tool, &k, &v);
        json_args.insert(k, value);
    }
    let dir = target.dir()?;
    let envelope =
        runtime()?.block_on(call_anywhere(catalogue, &dir, &tool, json_args, target.timeout));
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
    if has("integer") {
        if let Ok(n) = trimmed.parse::<i64>() {
            return json!(n);
        }
    }
    if has("number") {
        if let Ok(n) = trimmed.parse::<f64>() {
            return json!(n);
        }
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
    if types.is_empty() || has("array") || has("object") {
        if let Ok(v) = serde_json::from_str::<Value>(trimmed) {
            if !v.is_string() {
                return v;
            }
        }
    }
    json!(raw)
}

/// Calls a tool on the sidecar serving `dir`, or in-process when none does (or it cannot be
/// reached); returns the envelope.
async fn call_anywhere(
    catalogue: Arc<Catalogue>,
    dir: &std::path::Path,
    tool: &str,
    args: Map<String, Value>,
    timeout: Option<Duration>,
) -> Value {
    if let Some(record) = proxy::find(dir) {
        match proxy::connect(&record, "locus-call").await {
            Ok(up) => {
                let mut request = CallToolRequestParams::new(tool.to_string());
                request.arguments = Some(args.clone());
                if let Some(t) = timeout {
                    let mut meta = Map::new();
                    meta.insert(TIMEOUT_META.into(), json!(t.as_millis() as u64));
                    request.meta =
                        Some(rmcp::model::RequestMetaObject(rmcp::model::MetaObject(meta)));
                }
                let result = up.client.peer().call_tool(request).await;
                let _ = up.client.cancel().await;
                match result {
                    Ok(r) => {
                        if let Some(envelope) = r.structured_content {
                            return envelope;
                        }
                        eprintln!(
                            "locus: the sidecar answered without an envelope; calling in-process"
                        );
                    }
                    Err(e) => eprintln!(
                        "locus: the call to the sidecar of pid {} failed: {e}; calling in-process",
                        record.pid
                    ),
                }
            }
            Err(e) => eprintln!("locus: {e}; calling in-process"),
        }
    }
    let host: Arc<dyn Host> = Arc::new(Detached::new());
    let server = LocusServer::new(catalogue, host, timeout);
    server.call(tool, Value::Object(args), CallOptions::default()).await.envelope.to_json()
}

/// `locus tools`: the enabled tools, one JSON object per line.
pub fn tools(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(other) = args.first() {
        return Err(CliError::Usage(format!("unknown option `{other}` for `locus tools`")));
    }
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
            "timeoutMs": s.timeout.as_millis() as u64, "system": s.system, "readOnly": s.read_only,
        });
        text.push_str(&line.to_string());
        text.push('\n');
    }
    out.write_all(text.as_bytes()).map_err(io_err)
}

/// `locus status`: the live sidecars, one JSON object per line, each with its
/// `bridge_status` (or why it could not be asked). Tokens are never printed.
pub fn status(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(other) = args.first() {
        return Err(CliError::Usage(format!("unknown option `{other}` for `locus status`")));
    }
    let records = discovery::list();
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
