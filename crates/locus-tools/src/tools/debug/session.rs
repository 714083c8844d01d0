//! `debug_start`, `debug_stop`, `debug_status`, `debug_list_sessions`.

use std::collections::BTreeMap;
use std::time::Duration;

use std::path::PathBuf;

use locus_dap::{AdapterDef, Phase, Session, SessionConfig};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::context::debugger_state;
use super::{
    BreakOnParam, Debugger, SessionParams, by_file, dap_error, debug_tool, exactly_one, functions,
    resolve, spec,
};
use crate::{Cx, Effect, ErrorCode, ToolError, WhenToUse};

/// Parameters of `debug_start`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartParams {
    /// The program to debug (a file, or a package folder for Go; absolute or relative to the
    /// workspace); give this or `module`.
    #[serde(default)]
    #[schemars(example = &"app.py")]
    pub program: Option<String>,
    /// A module to run instead of a file (Python's `-m`); give this or `program`.
    #[serde(default)]
    #[schemars(example = &"http.server")]
    pub module: Option<String>,
    /// The name of a configuration in the workspace's `.vscode/launch.json` (JSONC;
    /// `${workspaceFolder}`, `${file}`, `${lineNumber}`, `${env:X}` are replaced); instead of
    /// `program` or `module`. `args`, `env`, `cwd` and `stopOnEntry` given here override it.
    #[serde(default)]
    #[schemars(example = &"Python: Current File")]
    pub configuration: Option<String>,
    /// The program's command-line arguments.
    #[serde(default)]
    #[schemars(example = &["--verbose"])]
    pub args: Option<Vec<String>>,
    /// Environment variables for the program, on top of Locus's own.
    #[serde(default)]
    #[schemars(example = &example_env())]
    pub env: Option<BTreeMap<String, String>>,
    /// The program's working directory (default: the workspace folder).
    #[serde(default)]
    #[schemars(example = &".")]
    pub cwd: Option<String>,
    /// Stop at the program's first line (default false).
    #[serde(rename = "stopOnEntry", default)]
    #[schemars(example = false)]
    pub stop_on_entry: Option<bool>,
    /// The debug adapter by name (debugpy, delve, lldb-dap, js-debug); by the program's
    /// language when omitted.
    #[serde(default)]
    #[schemars(example = &"debugpy")]
    pub adapter: Option<String>,
    /// Where exceptions stop the program in this session: `uncaught` (where it would crash),
    /// `raised` (at every exception, caught or not) or `never`; default: debug_break_on's
    /// choice, else `uncaught`.
    #[serde(rename = "breakOn", default)]
    #[schemars(example = &"uncaught")]
    pub break_on: Option<BreakOnParam>,
}

/// How long `debug_start` waits for the adapter to tell the debuggee's pid.
const PID_WAIT: Duration = Duration::from_secs(2);

fn example_env() -> BTreeMap<String, String> {
    BTreeMap::from([("DEBUG".to_string(), "1".to_string())])
}

/// No parameters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

debug_tool!(
    /// `debug_start`: launch a program under a debug adapter.
    DebugStart,
    StartParams,
    spec(
        "debug_start",
        "Start debugging",
        "Launch a program, a module or a .vscode/launch.json configuration under its debug adapter (debugpy, Delve, lldb-dap, js-debug) and answer the new session's id, pid and command line",
        WhenToUse {
            use_for: &[
                "running a program to a breakpoint to see its runtime state",
                "finding why a program misbehaves instead of guessing",
            ],
            dont_use_for: &["running a program without debugging (use a shell)"],
            patterns: &[
                "breakpoint_set, then debug_start, then debug_wait_for_stop",
                "stopOnEntry: true to step from the first line",
            ],
        },
        true,
        Effect::Changes
    ),
    start,
    start_summary
);

debug_tool!(
    /// `debug_stop`: end a session.
    DebugStop,
    SessionParams,
    spec(
        "debug_stop",
        "Stop debugging",
        "End a debug session: disconnect from the adapter and end the program it launched",
        WhenToUse {
            use_for: &["ending a session when done, or before starting over"],
            dont_use_for: &["pausing the program (use debug_pause)"],
            patterns: &["use after debug_start; breakpoints stay for the next session"],
        },
        false,
        Effect::Destroys
    ),
    stop,
    stop_summary
);

debug_tool!(
    /// `debug_restart`: the same program again.
    DebugRestart,
    SessionParams,
    spec(
        "debug_restart",
        "Restart debugging",
        "End a debug session's program and launch it again, as it was started, under the same session id",
        WhenToUse {
            use_for: &["running the program again after changing breakpoints or code"],
            dont_use_for: &["another program (use debug_stop, then debug_start)"],
            patterns: &["use after debug_start; breakpoints are sent again, hit counts start over"],
        },
        true,
        Effect::Destroys
    ),
    restart,
    start_summary
);

debug_tool!(
    /// `debug_status`: the debuggerState.
    DebugStatus,
    SessionParams,
    spec(
        "debug_status",
        "Debug session status",
        "Get a debug session's state: running or stopped and where, the stop reason, threads, the breakpoint hit, and whether and how the program exited",
        WhenToUse {
            use_for: &[
                "checking whether the program is stopped, running or exited",
                "reading the exit status after the program ended",
            ],
            dont_use_for: &["variables (use variable_list)", "waiting for a stop (use debug_wait_for_stop)"],
            patterns: &["use after debug_start; every debug tool's debugContext has the same state"],
        },
        false,
        Effect::Reads
    ),
    status,
    status_summary
);

debug_tool!(
    /// `debug_list_sessions`: every session.
    DebugListSessions,
    NoParams,
    spec(
        "debug_list_sessions",
        "List debug sessions",
        "List the debug sessions of this Locus process with their adapter, program and state",
        WhenToUse {
            use_for: &["finding a session's id when several run at once"],
            dont_use_for: &["one session's details (use debug_status)"],
            patterns: &["tools default to the most recent session; pass sessionId for another"],
        },
        false,
        Effect::Reads
    ),
    list,
    list_summary
);

async fn start(d: &Debugger, p: StartParams, cx: &Cx) -> Result<Value, ToolError> {
    let which = exactly_one(
        &[
            ("program", p.program.is_some()),
            ("module", p.module.is_some()),
            ("configuration", p.configuration.is_some()),
        ],
        "what to debug",
    )?;
    if which == 2 {
        return start_configuration(d, p, cx).await;
    }
    let registry = &d.registry;
    let workspace = cx.host.status().workspace_folders.into_iter().next();
    let program = p.program.as_deref().map(|prog| resolve(cx, prog));
    if let Some(path) = &program
        && !path.exists()
    {
        return Err(ToolError::new(
            ErrorCode::NotFound,
            format!("no program `{}`", path.display()),
        )
        .with_hint("Pass the program's path, absolute or relative to the workspace folder")
        .with_details(json!({"program": path.display().to_string()})));
    }
    let def = match (&p.adapter, &program) {
        (Some(name), _) => registry.get(name),
        (None, Some(path)) => {
            let head = std::fs::read_to_string(path).ok();
            let first = head.as_deref().and_then(|t| t.lines().next());
            match locus_scopes::Registry::builtin().for_path(path, first) {
                Some(language) => registry.for_language(language.id()),
                None => {
                    Err(locus_dap::Error::UnknownAdapter(format!("the file {}", path.display())))
                }
            }
        }
        // A module is Python's `-m`.
        (None, None) => registry.for_language("python"),
    }
    .map_err(dap_error)?
    .clone();
    if cx.host.one_shot() {
        return Err(one_shot_error());
    }
    let cwd = p
        .cwd
        .as_deref()
        .map(|c| resolve(cx, c))
        .or(workspace)
        .or_else(|| program.as_ref().and_then(|p| p.parent().map(ToOwned::to_owned)));
    let mut launch = json!({});
    let mut command_line = Vec::new();
    match which {
        0 => {
            let path = program.clone().expect("checked");
            launch["program"] = json!(path);
            command_line.push(path.display().to_string());
        }
        _ => {
            let module = p.module.clone().expect("checked");
            launch["module"] = json!(module);
            command_line.push(format!("-m {module}"));
        }
    }
    if let Some(args) = &p.args {
        launch["args"] = json!(args);
        command_line.extend(args.iter().cloned());
    }
    if let Some(env) = &p.env {
        launch["env"] = json!(env);
    }
    if let Some(cwd) = &cwd {
        launch["cwd"] = json!(cwd);
    }
    if let Some(stop) = p.stop_on_entry {
        launch["stopOnEntry"] = json!(stop);
    }

    let launched = Launched {
        def,
        attach: false,
        server: None,
        arguments: launch,
        cwd,
        command_line: command_line.join(" "),
        program: program.map(|p| p.display().to_string()).or(p.module),
        break_on: p.break_on.map(Into::into),
    };
    open(d, launched, None).await
}

/// `debug_start {configuration}`: a launch.json configuration, with the call's own `args`,
/// `env`, `cwd` and `stopOnEntry` over it.
async fn start_configuration(d: &Debugger, p: StartParams, cx: &Cx) -> Result<Value, ToolError> {
    let name = p.configuration.as_deref().expect("checked");
    let config = super::launch_json::configuration(cx, &d.registry, name)?;
    if p.adapter.as_deref().is_some_and(|a| a != config.def.name) {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!(
                "configuration `{name}` is for {}, not {}",
                config.def.name,
                p.adapter.as_deref().unwrap_or_default()
            ),
        )
        .with_details(json!({"parameter": "adapter"})));
    }
    if cx.host.one_shot() {
        return Err(one_shot_error());
    }
    let mut arguments = config.arguments;
    if let Some(args) = &p.args {
        arguments["args"] = json!(args);
    }
    if let Some(env) = &p.env {
        arguments["env"] = json!(env);
    }
    if let Some(cwd) = &p.cwd {
        arguments["cwd"] = json!(resolve(cx, cwd));
    }
    if let Some(stop) = p.stop_on_entry {
        arguments["stopOnEntry"] = json!(stop);
    }
    let target = ["program", "module"].iter().find_map(|k| arguments[*k].as_str());
    let mut command_line: Vec<String> = target.map(String::from).into_iter().collect();
    command_line.extend(
        arguments["args"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a.as_str())
            .map(String::from),
    );
    let cwd = arguments["cwd"].as_str().map(PathBuf::from).or(Some(config.folder));
    let launched = Launched {
        program: target.map(String::from),
        def: config.def,
        attach: config.attach,
        server: None,
        arguments,
        cwd,
        command_line: if command_line.is_empty() {
            name.to_string()
        } else {
            command_line.join(" ")
        },
        break_on: p.break_on.map(Into::into),
    };
    let mut data = open(d, launched, None).await?;
    data["configuration"] = json!(name);
    Ok(data)
}

/// `E_UNSUPPORTED` for a one-shot `locus call`, whose process ends with the call.
pub(crate) fn one_shot_error() -> ToolError {
    ToolError::new(
        ErrorCode::Unsupported,
        "debugging needs a process that outlives the call: the session would end with this \
         `locus call`",
    )
    .with_hint(
        "Debug through `locus mcp` (the agent's MCP server) or with an editor running \
         `locus lsp`, whose sidecar keeps the session",
    )
}

/// How a session was started, for `debug_restart`.
#[derive(Debug, Clone)]
pub(crate) struct Launched {
    pub(crate) def: AdapterDef,
    /// An `attach` request rather than a `launch`.
    pub(crate) attach: bool,
    /// The adapter's own DAP server to connect to (`debugpy --listen`), instead of starting
    /// the adapter.
    pub(crate) server: Option<(String, u16)>,
    /// The request's arguments (the adapter's defaults are merged under them).
    pub(crate) arguments: Value,
    /// Where the adapter runs.
    pub(crate) cwd: Option<PathBuf>,
    pub(crate) command_line: String,
    pub(crate) program: Option<String>,
    /// Where exceptions stop it, when the call said (else the workspace's choice).
    pub(crate) break_on: Option<locus_dap::BreakOn>,
}

/// Starts the adapter, sends the workspace's breakpoints, launches, and registers the session
/// (as a new one, or in place of the session named `replace`).
pub(crate) async fn open(
    d: &Debugger,
    launched: Launched,
    replace: Option<&str>,
) -> Result<Value, ToolError> {
    let mut config = SessionConfig::standard();
    config.lookup = d.lookup.clone();
    // The adapter runs where the program does (Delve builds the package of its folder).
    config.client.cwd = launched.cwd.clone();
    let session = match &launched.server {
        Some((host, port)) => Session::connect(&launched.def, host, *port, config).await,
        None => Session::start(&launched.def, config).await,
    }
    .map_err(dap_error)?;
    let breakpoints = d.breakpoints();
    let break_on = launched.break_on.unwrap_or_else(|| d.break_on());
    let configured = async {
        session.set_break_on(break_on).await?;
        for (path, list) in by_file(&breakpoints) {
            session.set_breakpoints(&path, &list).await?;
        }
        let functions = functions(&breakpoints);
        if !functions.is_empty() {
            session.set_function_breakpoints(&functions).await?;
        }
        if launched.attach {
            session.attach(&launched.arguments).await
        } else {
            session.launch(&launched.arguments).await
        }
    };
    if let Err(e) = configured.await {
        let _ = session.disconnect(Duration::from_secs(2)).await;
        return Err(dap_error(e));
    }
    let live = d.add(session, launched.clone(), replace);
    // The debuggee's pid comes in a `process` event, which adapters send about when they
    // answer the launch: wait for it a little (locus-dap has no wait for it), never long.
    let deadline = tokio::time::Instant::now() + PID_WAIT;
    while live.target().snapshot().pid.or(live.session.snapshot().pid).is_none()
        && !matches!(live.session.snapshot().phase, Phase::Ended(_))
        && tokio::time::Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let snap = live.session.snapshot();
    Ok(json!({
        "sessionId": live.id,
        "adapter": launched.def.name,
        "adapterCommand": snap.adapter_command,
        "adapterPid": live.session.adapter_pid(),
        "pid": snap.pid.or(live.target().snapshot().pid),
        "program": snap.program.or(launched.program),
        "targetCommandLine": live.command_line,
        "cwd": launched.cwd,
        "breakpointsSent": breakpoints.len(),
        "attached": launched.attach,
        "state": phase_name(&snap.phase),
    }))
}

async fn restart(d: &Debugger, p: SessionParams, _: &Cx) -> Result<Value, ToolError> {
    let live = d.session(p.session_id.as_deref())?;
    let _ = live.session.disconnect(Duration::from_secs(5)).await;
    let mut data = open(d, live.launched.clone(), Some(&live.id)).await.inspect_err(|_| {
        d.remove(&live.id);
    })?;
    data["restarted"] = json!(true);
    Ok(data)
}

fn start_summary(d: &Value) -> String {
    format!(
        "Started debug session {} ({}): {} [pid {}], {}",
        d["sessionId"].as_str().unwrap_or("?"),
        d["adapter"].as_str().unwrap_or("?"),
        d["targetCommandLine"].as_str().unwrap_or("?"),
        d["pid"],
        d["state"].as_str().unwrap_or("?")
    )
}

pub(crate) fn phase_name(phase: &Phase) -> &'static str {
    match phase {
        Phase::Starting => "starting",
        Phase::Running => "running",
        Phase::Stopped => "stopped",
        Phase::Ended(_) => "ended",
    }
}

async fn stop(d: &Debugger, p: SessionParams, _: &Cx) -> Result<Value, ToolError> {
    let live = d.session(p.session_id.as_deref())?;
    let before = live.session.snapshot();
    let result = live.session.disconnect(Duration::from_secs(5)).await;
    d.remove(&live.id);
    result.map_err(dap_error)?;
    Ok(json!({
        "sessionId": live.id,
        "stopped": true,
        "exitStatus": before.exit_code,
        "wasState": phase_name(&before.phase),
    }))
}

fn stop_summary(d: &Value) -> String {
    format!("Stopped debug session {}", d["sessionId"].as_str().unwrap_or("?"))
}

async fn status(d: &Debugger, p: SessionParams, _: &Cx) -> Result<Value, ToolError> {
    let (live, target) = d.target(p.session_id.as_deref())?;
    let snap = target.snapshot();
    let parent = live.session.snapshot();
    let threads = snap.threads.clone();
    Ok(debugger_state(d, &live, &snap, &parent, &threads))
}

fn status_summary(d: &Value) -> String {
    let state = if d["exited"] == true {
        format!("exited (status {})", d["exitStatus"])
    } else if d["running"] == true {
        "running".to_string()
    } else {
        let t = &d["currentThread"];
        format!(
            "stopped ({}) at {}:{} in {}",
            d["stopReason"].as_str().unwrap_or("?"),
            t["file"].as_str().unwrap_or("?"),
            t["line"],
            t["function"].as_str().unwrap_or("?")
        )
    };
    format!(
        "Session {} ({}): {state}",
        d["sessionId"].as_str().unwrap_or("?"),
        d["adapter"].as_str().unwrap_or("?")
    )
}

async fn list(d: &Debugger, _: NoParams, _: &Cx) -> Result<Value, ToolError> {
    let sessions: Vec<Value> = d
        .sessions()
        .iter()
        .map(|live| {
            let snap = live.target().snapshot();
            let parent = live.session.snapshot();
            json!({
                "sessionId": live.id,
                "adapter": parent.adapter,
                "targetCommandLine": live.command_line,
                "pid": snap.pid.or(parent.pid),
                "state": phase_name(&snap.phase),
                "exitStatus": snap.exit_code.or(parent.exit_code),
            })
        })
        .collect();
    Ok(json!({"sessions": sessions, "count": sessions.len()}))
}

fn list_summary(d: &Value) -> String {
    let items: Vec<String> = d["sessions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            format!(
                "{} {} ({})",
                s["sessionId"].as_str().unwrap_or("?"),
                s["targetCommandLine"].as_str().unwrap_or("?"),
                s["state"].as_str().unwrap_or("?")
            )
        })
        .collect();
    if items.is_empty() {
        "No debug sessions".to_string()
    } else {
        format!("{} debug sessions: {}", items.len(), items.join("; "))
    }
}
