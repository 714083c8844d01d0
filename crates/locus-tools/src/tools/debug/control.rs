//! `debug_wait_for_stop`, `debug_continue`, `debug_step_over`, `debug_step_into`,
//! `debug_step_out`, `debug_pause`: running the program between stops, every wait bounded.

use std::sync::Arc;
use std::time::Duration;

use locus_dap::{Error as DapError, Phase, Resume, SourceBreakpoint, StopInfo};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::breakpoints::line_count;
use super::context::{Var, frame0, workspace_id};
use super::{
    DEFAULT_WAIT_MS, Debugger, Live, SessionParams, by_file, cap, dap_error, debug_tool, place,
    resolve, spec,
};
use crate::{Cx, Effect, ErrorCode, ToolError, WhenToUse};

/// Parameters of `debug_wait_for_stop` and the step tools.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WaitParams {
    /// How long to wait for the stop, in milliseconds (default 88000, inside the tool's 90 s
    /// timeout, so the answer says what is still running).
    #[serde(rename = "timeoutMs", default)]
    #[schemars(example = 30000, range(min = 1, max = 3_600_000))]
    pub timeout_ms: Option<u64>,
    /// The session (`s1`, …); the most recent when omitted.
    #[serde(rename = "sessionId", default)]
    #[schemars(example = &"s1")]
    pub session_id: Option<String>,
}

/// Parameters of `debug_continue`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContinueParams {
    /// Wait for the next stop (or the program's end) before answering (default false).
    #[serde(default)]
    #[schemars(example = true)]
    pub wait: Option<bool>,
    /// With `wait`: how long to wait, in milliseconds (default 88000).
    #[serde(rename = "timeoutMs", default)]
    #[schemars(example = 30000, range(min = 1, max = 3_600_000))]
    pub timeout_ms: Option<u64>,
    /// The session (`s1`, …); the most recent when omitted.
    #[serde(rename = "sessionId", default)]
    #[schemars(example = &"s1")]
    pub session_id: Option<String>,
}

/// Parameters of `debug_run_to_cursor`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunToParams {
    /// The file to run to (absolute, or relative to the workspace); with `line`. The editor's
    /// file when omitted.
    #[serde(default)]
    #[schemars(example = &"app.py")]
    pub path: Option<String>,
    /// The 1-based line to run to; the editor's cursor line when omitted.
    #[serde(default)]
    #[schemars(example = 14, range(min = 1))]
    pub line: Option<u32>,
    /// How long to wait, in milliseconds (default 88000).
    #[serde(rename = "timeoutMs", default)]
    #[schemars(example = 30000, range(min = 1, max = 3_600_000))]
    pub timeout_ms: Option<u64>,
    /// The session (`s1`, …); the most recent when omitted.
    #[serde(rename = "sessionId", default)]
    #[schemars(example = &"s1")]
    pub session_id: Option<String>,
}

const STEP_DONT: &[&str] = &["running to the next breakpoint (use debug_continue)"];

debug_tool!(
    /// `debug_wait_for_stop`.
    DebugWaitForStop,
    WaitParams,
    spec(
        "debug_wait_for_stop",
        "Wait for the program to stop",
        "Wait until the program stops (breakpoint, step, exception, pause) and answer where and why; answers at once when it is stopped already",
        WhenToUse {
            use_for: &["waiting for a breakpoint to be hit after debug_start or debug_continue"],
            dont_use_for: &["a program that is stopped and should run on (use debug_continue)"],
            patterns: &[
                "use after debug_start: breakpoint_set, debug_start, debug_wait_for_stop",
                "on E_TIMEOUT the program still runs: wait again or debug_pause",
            ],
        },
        true,
        Effect::Reads
    ),
    wait,
    stop_summary
);

debug_tool!(
    /// `debug_continue`.
    DebugContinue,
    ContinueParams,
    spec(
        "debug_continue",
        "Continue the program",
        "Resume the stopped program until the next breakpoint or its end, optionally waiting for that",
        WhenToUse {
            use_for: &["running on to the next breakpoint", "letting the program finish"],
            dont_use_for: &["one line at a time (use debug_step_over)"],
            patterns: &["use after a stop; wait: true answers the next stop or the exit status"],
        },
        true,
        Effect::Changes
    ),
    resume,
    continue_summary
);

debug_tool!(
    /// `debug_step_over`.
    DebugStepOver,
    WaitParams,
    spec(
        "debug_step_over",
        "Step over",
        "Run the current line of the stopped thread, stepping over calls, and answer from where to where and which local variables changed",
        WhenToUse {
            use_for: &["following the program line by line", "seeing what one line changes"],
            dont_use_for: STEP_DONT,
            patterns: &["use after a stop; changedVariables says what the line did"],
        },
        true,
        Effect::Changes
    ),
    step_over,
    step_summary
);

debug_tool!(
    /// `debug_step_into`.
    DebugStepInto,
    WaitParams,
    spec(
        "debug_step_into",
        "Step into",
        "Step into the call on the current line of the stopped thread (or to the next line), and answer from where to where",
        WhenToUse {
            use_for: &["following a call into the function it calls"],
            dont_use_for: STEP_DONT,
            patterns: &["use after a stop; debug_step_out returns to the caller"],
        },
        true,
        Effect::Changes
    ),
    step_into,
    step_summary
);

debug_tool!(
    /// `debug_step_out`.
    DebugStepOut,
    WaitParams,
    spec(
        "debug_step_out",
        "Step out",
        "Run until the current function returns to its caller, and answer from where to where",
        WhenToUse {
            use_for: &["leaving a function whose rest is not interesting"],
            dont_use_for: STEP_DONT,
            patterns: &["use after a stop, often after debug_step_into"],
        },
        true,
        Effect::Changes
    ),
    step_out,
    step_summary
);

debug_tool!(
    /// `debug_run_to_cursor`.
    DebugRunToCursor,
    RunToParams,
    spec(
        "debug_run_to_cursor",
        "Run to cursor",
        "Resume the stopped program until it reaches a line (the editor's cursor line by default) or stops elsewhere first, without leaving a breakpoint behind",
        WhenToUse {
            use_for: &["skipping ahead to the line the user is looking at", "running to a line once"],
            dont_use_for: &["stopping there every time (use breakpoint_set)"],
            patterns: &["use after a stop; reachedTarget says whether it stopped on that line"],
        },
        true,
        Effect::Changes
    ),
    run_to,
    continue_summary
);

debug_tool!(
    /// `debug_pause`.
    DebugPause,
    SessionParams,
    spec(
        "debug_pause",
        "Pause the program",
        "Pause the running program where it is and answer where it stopped",
        WhenToUse {
            use_for: &["finding where a busy or hung program is", "stopping to inspect without a breakpoint"],
            dont_use_for: &["a program that is stopped already"],
            patterns: &["use after debug_start or debug_continue, when debug_wait_for_stop times out"],
        },
        true,
        Effect::Changes
    ),
    pause,
    stop_summary
);

fn timeout(ms: Option<u64>) -> Duration {
    Duration::from_millis(ms.unwrap_or(DEFAULT_WAIT_MS))
}

/// A stop as tools answer it.
pub(crate) fn stop_json(d: &Debugger, live: &Live, stop: &StopInfo) -> Value {
    let snap = live.target().snapshot();
    let breakpoints: Vec<Value> = stop
        .breakpoints
        .iter()
        .filter_map(|id| snap.breakpoints.iter().find(|b| b.id == *id))
        .map(|b| json!({"id": workspace_id(d, b), "hitCount": b.hit_count}))
        .collect();
    json!({
        "state": "stopped",
        "reason": stop.reason,
        "threadId": stop.thread_id,
        "description": stop.description,
        "position": stop.position.as_ref().map(place),
        "breakpoints": breakpoints,
        "stopNumber": stop.number,
    })
}

/// A wait that the program's end answers: `E_SESSION_ENDED` with the exit code, or an
/// `E_TIMEOUT` that says the program still runs.
fn wait_error(e: DapError, after: Duration) -> ToolError {
    match e {
        DapError::WaitTimeout { .. } => {
            let mut err = dap_error(e);
            err.message =
                format!("the program is still running: no stop within {} ms", after.as_millis());
            err
        }
        e => dap_error(e),
    }
}

async fn wait(d: &Debugger, p: WaitParams, _: &Cx) -> Result<Value, ToolError> {
    let live = d.session(p.session_id.as_deref())?;
    let after = timeout(p.timeout_ms);
    let stop = wait_for_any_stop(&live, after).await.map_err(|e| wait_error(e, after))?;
    Ok(stop_json(d, &live, &stop))
}

/// Waits until the program is stopped (answering at once when it is), in the session or in
/// the child session the adapter may still open to run the program (js-debug).
pub(crate) async fn wait_for_any_stop(live: &Live, after: Duration) -> Result<StopInfo, DapError> {
    let target = live.target();
    if !Arc::ptr_eq(&target, &live.session) {
        return target.wait_for_stop(0, after).await;
    }
    // Whichever comes first, a stop here or a child, whose first stop is then awaited.
    let started = tokio::time::Instant::now();
    tokio::select! {
        stop = target.wait_for_stop(0, after) => stop,
        child = target.wait_for_child(after) => match child {
            Ok(child) => child.wait_for_stop(0, after.saturating_sub(started.elapsed())).await,
            Err(e) => Err(e),
        },
    }
}

async fn resume(d: &Debugger, p: ContinueParams, _: &Cx) -> Result<Value, ToolError> {
    let (live, target) = d.target(p.session_id.as_deref())?;
    let before = target.resume(Resume::Continue, None).await.map_err(dap_error)?;
    if p.wait != Some(true) {
        return Ok(json!({"state": "running"}));
    }
    let after = timeout(p.timeout_ms);
    match target.wait_for_stop(before, after).await {
        Ok(stop) => Ok(stop_json(d, &live, &stop)),
        Err(DapError::SessionEnded { exit_code, reason }) => {
            Ok(json!({"state": "exited", "exitStatus": exit_code, "reason": reason}))
        }
        Err(e) => Err(wait_error(e, after)),
    }
}

async fn step_over(d: &Debugger, p: WaitParams, _: &Cx) -> Result<Value, ToolError> {
    step(d, p, Resume::Next, "over").await
}

async fn step_into(d: &Debugger, p: WaitParams, _: &Cx) -> Result<Value, ToolError> {
    step(d, p, Resume::StepIn, "into").await
}

async fn step_out(d: &Debugger, p: WaitParams, _: &Cx) -> Result<Value, ToolError> {
    step(d, p, Resume::StepOut, "out").await
}

async fn step(d: &Debugger, p: WaitParams, how: Resume, kind: &str) -> Result<Value, ToolError> {
    let (live, target) = d.target(p.session_id.as_deref())?;
    let before = frame0(d, &live).await?;
    let from = target.snapshot().stop.and_then(|s| s.position);
    *live.stepping.lock().unwrap() = true;
    let after = timeout(p.timeout_ms);
    let stopped = target.step(how, None, after).await;
    *live.stepping.lock().unwrap() = false;
    let stop = stopped.map_err(|e| wait_error(e, after))?;
    let now = frame0(d, &live).await?;
    let to = stop.position.clone();
    let same_frame = match (&from, &to) {
        (Some(a), Some(b)) => {
            a.path == b.path && a.function == b.function && before.depth == now.depth
        }
        _ => false,
    };
    let changed: Vec<Value> = if same_frame {
        let old = |name: &str| {
            before.arguments.iter().chain(&before.locals).find(|v| v.name == name).cloned()
        };
        now.arguments
            .iter()
            .chain(&now.locals)
            .filter_map(|v: &Var| {
                let was = old(&v.name);
                if was.as_ref().is_some_and(|w| w.value == v.value) {
                    return None;
                }
                Some(json!({
                    "name": v.name,
                    "before": was.map(|w| cap(&w.value).0),
                    "after": cap(&v.value).0,
                }))
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut data = stop_json(d, &live, &stop);
    data["stepType"] = json!(kind);
    data["from"] = from.as_ref().map(place).unwrap_or(Value::Null);
    data["to"] = to.as_ref().map(place).unwrap_or(Value::Null);
    data["changedVariables"] = json!(changed);
    data["sameFrame"] = json!(same_frame);
    Ok(data)
}

async fn run_to(d: &Debugger, p: RunToParams, cx: &Cx) -> Result<Value, ToolError> {
    let live = d.session(p.session_id.as_deref())?;
    let editor = cx.editor_context.as_deref();
    let path = p.path.clone().or_else(|| editor?.file.file_path().map(String::from));
    let line = p.line.or_else(|| editor.map(|c| c.cursor.line));
    let (Some(path), Some(line)) = (path, line) else {
        return Err(ToolError::new(ErrorCode::NoEditor, "no line to run to: no editor is active")
            .with_hint("Give `path` and `line`, or ask the user to put the cursor on the line")
            .with_details(json!({"parameters": ["path", "line"]})));
    };
    let path = resolve(cx, &path);
    let count = line_count(&path)?;
    if line as usize > count {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!("line {line} is past the end of `{}`, which has {count} lines", path.display()),
        )
        .with_details(json!({"parameter": "line", "line": line, "lineCount": count})));
    }
    let target = live.target();
    // A breakpoint of the session only, for this run: the workspace's set is restored after.
    let kept = by_file(&d.breakpoints()).remove(&path).unwrap_or_default();
    let mut once = kept.clone();
    if !kept.iter().any(|b| b.line == i64::from(line)) {
        once.push(SourceBreakpoint::at(i64::from(line)));
        live.session.set_breakpoints(&path, &once).await.map_err(dap_error)?;
    }
    let after = timeout(p.timeout_ms);
    let result = match target.resume(Resume::Continue, None).await {
        Ok(before) => target.wait_for_stop(before, after).await,
        Err(e) => Err(e),
    };
    if once.len() != kept.len() {
        match live.session.set_breakpoints(&path, &kept).await {
            Err(e) if !e.is_end() => return Err(dap_error(e)),
            _ => {}
        }
    }
    match result {
        Ok(stop) => {
            let reached = stop.position.as_ref().is_some_and(|at| {
                at.path.as_deref() == Some(path.as_path()) && at.line == i64::from(line)
            });
            let mut data = stop_json(d, &live, &stop);
            data["reachedTarget"] = json!(reached);
            data["target"] = json!({"file": path, "line": line});
            Ok(data)
        }
        Err(DapError::SessionEnded { exit_code, reason }) => Ok(json!({
            "state": "exited", "exitStatus": exit_code, "reason": reason, "reachedTarget": false,
        })),
        Err(e) => Err(wait_error(e, after)),
    }
}

async fn pause(d: &Debugger, p: SessionParams, _: &Cx) -> Result<Value, ToolError> {
    let (live, target) = d.target(p.session_id.as_deref())?;
    let snap = target.snapshot();
    if let (Phase::Stopped, Some(stop)) = (&snap.phase, &snap.stop) {
        let mut data = stop_json(d, &live, stop);
        data["alreadyStopped"] = json!(true);
        return Ok(data);
    }
    let before = target.stops();
    target.pause(None).await.map_err(dap_error)?;
    let after = Duration::from_secs(10);
    let stop = target.wait_for_stop(before, after).await.map_err(|e| wait_error(e, after))?;
    Ok(stop_json(d, &live, &stop))
}

fn stop_summary(d: &Value) -> String {
    let p = &d["position"];
    format!(
        "Stopped ({}) at {}:{} in {}",
        d["reason"].as_str().unwrap_or("?"),
        p["file"].as_str().unwrap_or("?"),
        p["line"],
        p["function"].as_str().unwrap_or("?")
    )
}

fn continue_summary(d: &Value) -> String {
    match d["state"].as_str() {
        Some("running") => {
            "The program is running; debug_wait_for_stop waits for its next stop".to_string()
        }
        Some("exited") => format!("The program exited with status {}", d["exitStatus"]),
        _ => stop_summary(d),
    }
}

fn step_summary(d: &Value) -> String {
    let changed: Vec<String> = d["changedVariables"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            format!("{}: {} -> {}", c["name"].as_str().unwrap_or("?"), c["before"], c["after"])
        })
        .collect();
    let changed = if changed.is_empty() { "no locals changed".into() } else { changed.join(", ") };
    format!(
        "Stepped {} from line {} to {}:{} in {}; {changed}",
        d["stepType"].as_str().unwrap_or("?"),
        d["from"]["line"],
        d["to"]["file"].as_str().unwrap_or("?"),
        d["to"]["line"],
        d["to"]["function"].as_str().unwrap_or("?")
    )
}
