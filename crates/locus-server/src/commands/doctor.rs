//! `locus doctor`: what works in this user's set-up and what to do about what does not, one
//! line per check (docs/configuration.md).
//!
//! Each check is `✓` (works), `✗` (set up but broken, or missing where the tool is installed:
//! the line says the fix) or `·` (the editor or agent is not installed here: nothing to do
//! unless the user wants it). `--json` prints the same checks as one JSON object per line.
//!
//! **Invariants.**
//! - Read-only: doctor reads configuration files and lists processes; it never writes a file
//!   (the discovery listing removes files of dead processes, as every listing does).
//! - Discovery and trust are `mcp::discovery`'s (the same rules agents are routed by);
//!   transcript stores are `locus_dialog::Stores`'s; debug adapters are the catalogue's
//!   adapter registry. Nothing here re-implements them.
//! - Every wait is bounded: Neovim's answer (10 s), each sidecar's `bridge_status` (3 s),
//!   another `locus --version` (3 s); the debug adapters are looked up as `debug_start` does.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::commands::{CliError, io_err};
use crate::mcp::discovery;
use crate::process::output_within;

/// Arguments of `locus doctor`.
#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    /// One JSON object per check, one per line (for scripts)
    #[arg(long)]
    json: bool,
    /// The project whose agent configuration files (.mcp.json, .vscode/mcp.json, …) are
    /// checked (default: the current directory)
    #[arg(long, value_name = "DIR")]
    workspace: Option<PathBuf>,
}

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// It works.
    Ok,
    /// Something to fix (the check's `fix` says what).
    Problem,
    /// The editor, agent or adapter is not installed here.
    Absent,
}

impl Status {
    fn mark(self) -> &'static str {
        match self {
            Status::Ok => "✓",
            Status::Problem => "✗",
            Status::Absent => "·",
        }
    }
}

/// One line of the report.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// `locus`, `runtime`, `sidecar`, `editor`, `agent`, `transcripts`, `debug`.
    pub area: &'static str,
    /// What was checked (`Neovim`, `Claude Code`, `debugpy`, …).
    pub name: String,
    /// The outcome.
    pub status: Status,
    /// What was found.
    pub detail: String,
    /// What to do, when something is to be done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Check {
    fn new(area: &'static str, name: impl Into<String>, status: Status, detail: String) -> Check {
        Check { area, name: name.into(), status, detail, fix: None }
    }

    fn fix(mut self, fix: impl Into<String>) -> Check {
        self.fix = Some(fix.into());
        self
    }

    fn line(&self) -> String {
        let fix = self.fix.as_ref().map(|f| format!(" — fix: {f}")).unwrap_or_default();
        format!("{} {}: {}{fix}", self.status.mark(), self.name, self.detail)
    }
}

/// `locus doctor`.
pub fn run(args: &DoctorArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let workspace = match &args.workspace {
        Some(w) => w.clone(),
        None => std::env::current_dir()
            .map_err(|e| CliError::Io(format!("no current directory: {e}")))?,
    };
    let env = Env::from_process(workspace);
    let checks = checks(&env);
    let mut text = String::new();
    for c in &checks {
        if args.json {
            text.push_str(&serde_json::to_string(c).expect("a check serializes"));
        } else {
            text.push_str(&c.line());
        }
        text.push('\n');
    }
    out.write_all(text.as_bytes()).map_err(io_err)
}

/// Where the checks look: the user's home and configuration folders, and the project.
struct Env {
    home: PathBuf,
    config: PathBuf,
    data: PathBuf,
    workspace: PathBuf,
}

impl Env {
    fn from_process(workspace: PathBuf) -> Env {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home =
            locus_platform::folders::home().unwrap_or_else(|| PathBuf::from("/nonexistent-home"));
        let config = var("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config"));
        let data = var("XDG_DATA_HOME").unwrap_or_else(|| home.join(".local/share"));
        Env { home, config, data, workspace }
    }

    /// `path` with the home folder written `~`.
    fn show(&self, path: &Path) -> String {
        match path.strip_prefix(&self.home) {
            Ok(rest) if !self.home.as_os_str().is_empty() => {
                format!("~{}{}", std::path::MAIN_SEPARATOR, rest.display())
            }
            _ => path.display().to_string(),
        }
    }
}

/// Every check, in report order.
fn checks(env: &Env) -> Vec<Check> {
    let mut all = vec![binary(env)];
    all.push(runtime_dir(env));
    all.extend(sidecars(env));
    all.push(neovim(env));
    all.push(helix(env));
    all.push(vscode(env));
    all.extend(agents(env));
    all.extend(transcripts(env));
    all.extend(adapters());
    all
}

/// The program `name` on `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    locus_platform::program::find(Path::new(name), None)
}

fn binary(env: &Env) -> Check {
    let version = env!("CARGO_PKG_VERSION");
    let me = std::env::current_exe().ok().and_then(|p| locus_platform::path::canonicalize(p).ok());
    let shown = me.as_deref().map_or_else(|| "(unknown path)".to_string(), |p| env.show(p));
    let name = format!("locus {version}");
    match on_path("locus") {
        None => Check::new("locus", name, Status::Problem, format!("{shown}, but no `locus` is on PATH"))
            .fix(if locus_platform::Os::HOST == locus_platform::Os::Windows {
                "editors and agents start `locus` by name: put its folder on PATH (Settings, \"Edit environment variables for your account\")"
            } else {
                "editors and agents start `locus` by name: put its folder on PATH, or link it into ~/.local/bin"
            }),
        Some(found) if locus_platform::path::canonicalize(&found).ok() == me => {
            Check::new("locus", name, Status::Ok, format!("{shown} (the `locus` on PATH)"))
        }
        Some(found) => {
            let theirs = output_within(&found, &["--version"], Duration::from_secs(3))
                .map(|v| v.trim().to_string())
                .unwrap_or_else(|| "an unknown version".into());
            let status = if theirs == format!("locus {version}") { Status::Ok } else { Status::Problem };
            let check = Check::new(
                "locus",
                name,
                status,
                format!("{shown}; the `locus` on PATH is {} ({theirs})", env.show(&found)),
            );
            if status == Status::Ok {
                check
            } else {
                check.fix("editors and agents run the one on PATH: install this build there, or put its folder first on PATH")
            }
        }
    }
}

fn runtime_dir(env: &Env) -> Check {
    let dir = discovery::dir();
    let name = "runtime directory";
    let shown = env.show(&dir);
    match std::fs::symlink_metadata(&dir) {
        Err(_) => Check::new(
            "runtime",
            name,
            Status::Ok,
            format!(
                "{shown} does not exist yet; the first `locus lsp` creates it ({})",
                locus_platform::private::PROTECTION
            ),
        ),
        Ok(meta) => match discovery::check_dir(&dir) {
            Ok(()) => Check::new(
                "runtime",
                name,
                Status::Ok,
                format!("{shown}: yours, {}", locus_platform::private::describe_dir(&meta)),
            ),
            Err(why) => Check::new("runtime", name, Status::Problem, format!("{shown}: {why}"))
                .fix(format!(
                    "agents refuse it: `chmod 700 {}` if it is yours; otherwise set XDG_RUNTIME_DIR to a directory of your own",
                    dir.display()
                )),
        },
    }
}

/// Whether the sidecar answers `bridge_status` over MCP within a few seconds; why not.
/// Asks the sidecar of `record` for `bridge_status`; its data when it answers well.
fn answers(record: &discovery::Record) -> Result<Value, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(async {
        let asked = tokio::time::timeout(Duration::from_secs(3), async {
            let up = crate::mcp::proxy::connect(record, "locus-doctor").await?;
            let request = rmcp::model::CallToolRequestParams::new("bridge_status");
            let r = up.client.peer().call_tool(request).await.map_err(|e| e.to_string());
            let _ = up.client.cancel().await;
            r
        })
        .await;
        match asked {
            Ok(Ok(r)) if r.structured_content.as_ref().is_some_and(|e| e["ok"] == true) => {
                Ok(r.structured_content.map(|e| e["data"].clone()).unwrap_or_default())
            }
            Ok(Ok(_)) => Err("it answered without a successful envelope".into()),
            Ok(Err(e)) => Err(e),
            Err(_) => Err("it did not answer within 3 s".into()),
        }
    })
}

/// The agents' own IDE channels of a sidecar's `bridge_status`, as a part of its line:
/// "; IDE channels: claude (port 4711, 1 connected), gemini (port 4712)".
fn agent_channels(status: &Value) -> String {
    let Some(list) = status["agentChannels"].as_array().filter(|l| !l.is_empty()) else {
        return "; no agent IDE channel".to_string();
    };
    let each: Vec<String> = list
        .iter()
        .map(|c| {
            let connected = match c["agentsConnected"].as_u64().unwrap_or(0) {
                0 => String::new(),
                n => format!(", {n} connected"),
            };
            format!("{} (port {}{connected})", c["agent"].as_str().unwrap_or("?"), c["port"])
        })
        .collect();
    format!("; IDE channels: {}", each.join(", "))
}

fn sidecars(env: &Env) -> Vec<Check> {
    let survey = discovery::survey_in(&discovery::dir());
    let mut checks = Vec::new();
    for r in &survey.records {
        let folders: Vec<String> = r.workspace_folders.iter().map(|f| env.show(f)).collect();
        let folders = if folders.is_empty() { "no folder".to_string() } else { folders.join(", ") };
        let editor = r.editor.as_deref().unwrap_or("an editor that has not introduced itself");
        let mut detail = format!("{editor} on {folders}, MCP at {}", r.url);
        let name = format!("sidecar pid {}", r.pid);
        let mine = env!("CARGO_PKG_VERSION");
        let status = match answers(r) {
            Ok(status) => status,
            Err(why) => {
                checks.push(
                    Check::new("sidecar", name, Status::Problem, format!("{detail}; MCP: {why}"))
                        .fix("agents reach this editor through it: restart the editor's language server (or the editor)"),
                );
                continue;
            }
        };
        detail.push_str(&agent_channels(&status));
        checks.push(if r.version == mine {
            Check::new("sidecar", name, Status::Ok, detail)
        } else {
            Check::new(
                "sidecar",
                name,
                Status::Problem,
                format!("{detail}; it runs Locus {}, this is {mine}", r.version),
            )
            .fix("restart the editor (or its language server) to run this version")
        });
    }
    for why in survey.refused {
        checks.push(
            Check::new("sidecar", "discovery file", Status::Problem, why)
                .fix("agents ignore it; remove it if it is not yours, or restart the editor"),
        );
    }
    if checks.is_empty() {
        checks.push(
            Check::new(
                "sidecar",
                "sidecars",
                Status::Absent,
                "no editor runs Locus now; agents get no live editor state".into(),
            )
            .fix("open a file of the project in an editor set up for Locus (docs/editors.md)"),
        );
    }
    checks
}

fn neovim(env: &Env) -> Check {
    let Some(nvim) = on_path("nvim") else {
        return Check::new("editor", "Neovim", Status::Absent, "nvim is not on PATH".into());
    };
    // Neovim's own answer, with the user's configuration: is the plugin on the runtimepath?
    let lua = "io.stdout:write(table.concat(vim.api.nvim_get_runtime_file('lua/locus/init.lua', true), '\\n'))";
    let args = ["--headless", "-i", "NONE", "-c", &format!("lua {lua}"), "-c", "qa!"];
    match output_within(&nvim, &args, Duration::from_secs(10)) {
        None => Check::new("editor", "Neovim", Status::Problem, format!("{} did not answer within 10 s", env.show(&nvim)))
            .fix("run `nvim --headless -c qa` to see what your configuration does at start-up"),
        Some(found) => match found.lines().find(|l| !l.trim().is_empty()) {
            Some(plugin) => {
                let dir = Path::new(plugin.trim()).parent().and_then(Path::parent).and_then(Path::parent);
                let shown = dir.map_or_else(|| plugin.to_string(), |d| env.show(d));
                Check::new("editor", "Neovim", Status::Ok, format!("the plugin is on the runtimepath ({shown}); `:checkhealth locus` checks the rest"))
            }
            None => Check::new("editor", "Neovim", Status::Problem, "the Locus plugin is not on the runtimepath".into())
                .fix("add `vim.opt.runtimepath:append('/path/to/locus/editors/nvim')` and `require('locus').setup()` to your init.lua (docs/editors.md)"),
        },
    }
}

/// Whether a language server or MCP server entry starts `locus` with `sub` (`lsp`, `mcp`).
fn starts_locus(command: Option<&str>, args: &[String], sub: &str) -> bool {
    let Some(command) = command else { return false };
    let base = Path::new(command).file_name().and_then(|n| n.to_str()).unwrap_or(command);
    base == "locus" && args.first().is_some_and(|a| a == sub)
}

fn helix(env: &Env) -> Check {
    let files =
        [env.config.join("helix/languages.toml"), env.workspace.join(".helix/languages.toml")];
    let installed = on_path("hx").is_some() || env.config.join("helix").is_dir();
    let mut served: Vec<String> = Vec::new();
    let mut unparsable = Vec::new();
    let mut declared_in = None;
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        let table: toml::Table = match toml::from_str(&text) {
            Ok(t) => t,
            Err(e) => {
                unparsable.push(format!("{}: {}", env.show(file), e.message()));
                continue;
            }
        };
        let servers = table.get("language-server").and_then(|s| s.as_table());
        let locus_names: Vec<&String> = servers
            .into_iter()
            .flatten()
            .filter(|(_, s)| {
                let args: Vec<String> = s
                    .get("args")
                    .and_then(|a| a.as_array())
                    .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
                    .unwrap_or_default();
                starts_locus(s.get("command").and_then(|c| c.as_str()), &args, "lsp")
            })
            .map(|(name, _)| name)
            .collect();
        if !locus_names.is_empty() {
            declared_in.get_or_insert_with(|| env.show(file));
        }
        for language in table.get("language").and_then(|l| l.as_array()).into_iter().flatten() {
            let lists_locus = language
                .get("language-servers")
                .and_then(|l| l.as_array())
                .into_iter()
                .flatten()
                .any(|s| {
                    let name = s.as_str().or_else(|| s.get("name").and_then(|n| n.as_str()));
                    name.is_some_and(|n| n == "locus" || locus_names.iter().any(|l| *l == n))
                });
            if lists_locus && let Some(name) = language.get("name").and_then(|n| n.as_str()) {
                served.push(name.to_string());
            }
        }
    }
    let snippet = "add editors/helix/languages.toml's `[language-server.locus]` and the languages' `language-servers` to ~/.config/helix/languages.toml (docs/editors.md)";
    if let Some(bad) = unparsable.first() {
        return Check::new("editor", "Helix", Status::Problem, format!("cannot read {bad}"))
            .fix("fix the TOML; Helix ignores the whole file too");
    }
    match (declared_in, served.is_empty()) {
        (Some(file), false) => Check::new("editor", "Helix", Status::Ok, format!("locus serves {} ({file})", served.join(", "))),
        (Some(file), true) => Check::new("editor", "Helix", Status::Problem, format!("{file} declares locus, but no language lists it in `language-servers`"))
            .fix("add \"locus\" after your language server in each language's `language-servers` (editors/helix/languages.toml)"),
        (None, _) if installed => Check::new("editor", "Helix", Status::Problem, "no language server starts `locus lsp` in languages.toml".into()).fix(snippet),
        (None, _) => Check::new("editor", "Helix", Status::Absent, "hx is not on PATH and there is no ~/.config/helix".into()),
    }
}

fn vscode(env: &Env) -> Check {
    let dirs = [
        env.home.join(".vscode/extensions"),
        env.home.join(".vscode-insiders/extensions"),
        env.home.join(".vscode-oss/extensions"),
        env.home.join(".vscode-server/extensions"),
        env.data.join("code-server/extensions"),
    ];
    let mut found = Vec::new();
    let mut any_dir = false;
    for dir in &dirs {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        any_dir = true;
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.to_ascii_lowercase().contains("locus")
                && e.path().join("package.json").is_file()
            {
                found.push(env.show(&e.path()));
            }
        }
    }
    let installed =
        any_dir || ["code", "code-server", "codium"].iter().any(|c| on_path(c).is_some());
    if !found.is_empty() {
        Check::new(
            "editor",
            "VS Code",
            Status::Ok,
            format!("the extension is installed ({})", found.join(", ")),
        )
    } else if installed {
        Check::new("editor", "VS Code", Status::Problem, "the Locus extension is not installed".into())
            .fix("install it from editors/vscode (`code --install-extension locus-*.vsix`; docs/editors.md)")
    } else {
        Check::new(
            "editor",
            "VS Code",
            Status::Absent,
            "no VS Code, VS Code Server or code-server here".into(),
        )
    }
}

/// An agent's configuration: where it may name Locus, and how to add it.
struct Agent {
    name: &'static str,
    /// Whether the agent is installed (its program on PATH, or its home folder).
    installed: bool,
    /// JSON files and the member holding their servers (`mcpServers`, `servers`).
    json: Vec<(PathBuf, &'static [&'static str])>,
    /// TOML files with `[mcp_servers.*]` (Codex).
    toml: Vec<PathBuf>,
    fix: &'static str,
    /// The most tools the agent offers its model, across all its servers, where it has a
    /// known cap (Cursor: 40; Copilot in VS Code: 128 a request).
    tool_limit: Option<usize>,
}

fn agents(env: &Env) -> Vec<Check> {
    let exists = |p: PathBuf| p.exists();
    let codex_home = std::env::var_os("CODEX_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| env.home.join(".codex"));
    let ws = &env.workspace;
    let list = vec![
        Agent {
            name: "Claude Code",
            installed: on_path("claude").is_some()
                || exists(env.home.join(".claude"))
                || exists(env.home.join(".claude.json")),
            json: vec![
                (env.home.join(".claude.json"), &["mcpServers"]),
                (ws.join(".mcp.json"), &["mcpServers"]),
            ],
            toml: vec![],
            fix: "claude mcp add locus -- locus mcp",
            tool_limit: None,
        },
        Agent {
            name: "Codex",
            installed: on_path("codex").is_some() || exists(codex_home.clone()),
            json: vec![],
            toml: vec![codex_home.join("config.toml")],
            fix: "codex mcp add locus -- locus mcp",
            tool_limit: None,
        },
        Agent {
            name: "Copilot in VS Code",
            installed: exists(ws.join(".vscode"))
                || on_path("code").is_some()
                || exists(env.config.join("Code/User")),
            json: vec![
                (ws.join(".vscode/mcp.json"), &["servers"]),
                (env.config.join("Code/User/mcp.json"), &["servers"]),
            ],
            toml: vec![],
            fix: r#"in .vscode/mcp.json: {"servers": {"locus": {"type": "stdio", "command": "locus", "args": ["mcp", "--workspace", "${workspaceFolder}"]}}}"#,
            tool_limit: Some(128),
        },
        Agent {
            name: "Cursor",
            installed: on_path("cursor").is_some()
                || exists(env.home.join(".cursor"))
                || exists(ws.join(".cursor")),
            json: vec![
                (ws.join(".cursor/mcp.json"), &["mcpServers"]),
                (env.home.join(".cursor/mcp.json"), &["mcpServers"]),
            ],
            toml: vec![],
            fix: r#"in .cursor/mcp.json: {"mcpServers": {"locus": {"command": "locus", "args": ["mcp", "--workspace", "/abs/path/to/project"]}}}"#,
            tool_limit: Some(40),
        },
        Agent {
            name: "Gemini CLI",
            installed: on_path("gemini").is_some() || exists(env.home.join(".gemini")),
            json: vec![
                (env.home.join(".gemini/settings.json"), &["mcpServers"]),
                (ws.join(".gemini/settings.json"), &["mcpServers"]),
            ],
            toml: vec![],
            fix: r#"in ~/.gemini/settings.json: {"mcpServers": {"locus": {"command": "locus", "args": ["mcp"]}}}"#,
            tool_limit: None,
        },
    ];
    list.into_iter().map(|a| agent(env, &a)).collect()
}

/// A configured `locus mcp`: its arguments, and how many other servers the same map holds.
struct Configured {
    args: Vec<String>,
    others: usize,
}

/// Whether a map of MCP servers has one that runs `locus mcp`.
fn locus_server(servers: &Value) -> Option<Configured> {
    let servers = servers.as_object()?;
    servers.values().find_map(|s| {
        let args: Vec<String> = s
            .get("args")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
            .unwrap_or_default();
        starts_locus(s.get("command").and_then(Value::as_str), &args, "mcp")
            .then(|| Configured { args, others: servers.len() - 1 })
    })
}

/// How many tools `locus mcp` with `args` offers (its `--tools`, else all); why not known.
fn offered_tools(args: &[String]) -> Result<usize, String> {
    let mut catalogue = locus_tools::standard(locus_tools::Options { test_tools: false });
    let value = args.iter().enumerate().find_map(|(i, a)| match a.strip_prefix("--tools") {
        Some("") => args.get(i + 1).cloned(),
        Some(rest) => rest.strip_prefix('=').map(String::from),
        None => None,
    });
    if let Some(value) = value {
        catalogue.select(locus_tools::ToolSelection::parse(&value, &catalogue.families())?);
    }
    Ok(catalogue.enabled().count())
}

/// The check of an agent that runs `locus mcp` as `configured`, found in `files`: whether the
/// tools offered fit the agent's cap.
fn fits_limit(a: &Agent, configured: &Configured, files: &str) -> Check {
    let offered = match offered_tools(&configured.args) {
        Ok(n) => n,
        Err(why) => {
            return Check::new(
                "agent",
                a.name,
                Status::Problem,
                format!("runs `locus mcp` ({files}) with a bad --tools: {why}"),
            )
            .fix("locus mcp --help says what --tools takes");
        }
    };
    let detail = format!("runs `locus mcp` ({files}), which offers {offered} tools");
    let Some(limit) = a.tool_limit else { return Check::new("agent", a.name, Status::Ok, detail) };
    // At the cap with another server beside it, some tools are dropped too.
    if offered > limit || (offered == limit && configured.others > 0) {
        let others = configured.others;
        let small = offered_tools(&["--tools".into(), "editor,symbol".into()]).unwrap_or(0);
        return Check::new(
            "agent",
            a.name,
            Status::Problem,
            format!("{detail}; {} offers a model at most {limit} tools across all its servers, and it has {others} other server(s)", a.name),
        )
        .fix(format!("offer fewer: add `--tools editor,symbol` ({small} tools) to the args of `locus mcp`, or `-name` for each tool to leave out"));
    }
    Check::new("agent", a.name, Status::Ok, format!("{detail} (it offers a model at most {limit})"))
}

fn agent(env: &Env, a: &Agent) -> Check {
    let mut found = Vec::new();
    let mut configured = None;
    let mut unreadable = Vec::new();
    for (file, path) in &a.json {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        let value: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                unreadable.push(format!("{}: {e}", env.show(file)));
                continue;
            }
        };
        let servers = path.iter().fold(&value, |v, k| &v[*k]);
        let mut places = vec![servers];
        // Claude Code keeps per-project servers under `projects.<folder>`.
        if let Some(projects) = value.get("projects").and_then(Value::as_object) {
            let ws = env.workspace.display().to_string();
            places.extend(projects.get(&ws).map(|p| &p["mcpServers"]));
        }
        if let Some(c) = places.into_iter().find_map(locus_server) {
            found.push(env.show(file));
            configured.get_or_insert(c);
        }
    }
    for file in &a.toml {
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        match toml::from_str::<toml::Table>(&text) {
            Ok(table) => {
                let servers = table
                    .get("mcp_servers")
                    .map(|s| serde_json::to_value(s).unwrap_or(Value::Null));
                if let Some(c) = servers.as_ref().and_then(locus_server) {
                    found.push(env.show(file));
                    configured.get_or_insert(c);
                }
            }
            Err(e) => unreadable.push(format!("{}: {}", env.show(file), e.message())),
        }
    }
    if let Some(configured) = configured {
        return fits_limit(a, &configured, &found.join(", "));
    }
    if let Some(bad) = unreadable.first() {
        return Check::new("agent", a.name, Status::Problem, format!("cannot read {bad}"))
            .fix(format!("fix the file, then: {}", a.fix));
    }
    if a.installed {
        Check::new("agent", a.name, Status::Problem, "Locus is not in its MCP servers".into())
            .fix(a.fix)
    } else {
        Check::new("agent", a.name, Status::Absent, "not installed here".into()).fix(a.fix)
    }
}

fn transcripts(env: &Env) -> Vec<Check> {
    let stores = locus_dialog::Stores::from_env();
    let count = |dir: &Path| std::fs::read_dir(dir).map(|e| e.flatten().count()).unwrap_or(0);
    let mut checks = Vec::new();
    let kinds: [(&str, &Vec<PathBuf>, &str, &str); 4] = [
        ("Claude Code transcripts", &stores.claude, "projects", "projects"),
        ("Codex transcripts", &stores.codex, "sessions", "dated folders"),
        ("Gemini CLI transcripts", &stores.gemini, "tmp", "projects"),
        ("VS Code chat transcripts", &stores.vscode, "workspaceStorage", "workspaces"),
    ];
    for (name, dirs, sub, unit) in kinds {
        let found: Vec<String> = dirs
            .iter()
            .map(|d| d.join(sub))
            .filter(|d| d.is_dir())
            .map(|d| format!("{} ({} {unit})", env.show(&d), count(&d)))
            .collect();
        checks.push(if found.is_empty() {
            Check::new("transcripts", name, Status::Absent, "none found".into())
        } else {
            Check::new(
                "transcripts",
                name,
                Status::Ok,
                format!("the dialog_* tools read {}", found.join(", ")),
            )
        });
    }
    checks
}

fn adapters() -> Vec<Check> {
    use locus_tools::tools::debug::{Lookup, Registry};
    let registry = Registry::builtin();
    let lookup = Lookup::default();
    registry
        .all()
        .iter()
        .map(|def| {
            let name = format!("debug adapter {}", def.name);
            let languages = def.languages.join(", ");
            match def.resolve(&lookup) {
                Ok(launcher) => Check::new(
                    "debug",
                    name,
                    Status::Ok,
                    format!("{} ({languages})", launcher.command_line()),
                ),
                Err(_) => Check::new(
                    "debug",
                    name,
                    Status::Absent,
                    format!("not found; debugging {languages} needs it"),
                )
                .fix(def.install.clone()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn locus_servers_are_recognised_by_their_command() {
        let servers = json!({
            "other": {"command": "npx", "args": ["x"]},
            "mine": {"command": "/opt/bin/locus", "args": ["mcp", "--workspace", "/p"]},
        });
        let mine = locus_server(&servers).unwrap();
        assert_eq!((mine.args.join(" "), mine.others), ("mcp --workspace /p".to_string(), 1));
        assert!(locus_server(&json!({"locus": {"command": "locus", "args": ["lsp"]}})).is_none());
        assert!(locus_server(&json!([])).is_none());
    }

    #[test]
    fn lines_carry_the_mark_and_the_fix() {
        let c =
            Check::new("agent", "Codex", Status::Problem, "Locus is not in its MCP servers".into())
                .fix("codex mcp add locus -- locus mcp");
        assert_eq!(
            c.line(),
            "✗ Codex: Locus is not in its MCP servers — fix: codex mcp add locus -- locus mcp"
        );
        let v = serde_json::to_value(&c).unwrap();
        assert_eq!(v["status"], "problem");
        assert_eq!(v["area"], "agent");
    }
}
