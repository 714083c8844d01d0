//! `breakpoint_set`, `breakpoint_remove`, `breakpoint_list`, `breakpoint_clear`: the
//! workspace's breakpoints, kept by Locus and sent whole per file to every live session.

use std::path::{Path, PathBuf};

use locus_dap::{BreakpointInfo, Phase};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{
    Breakpoint, Debugger, by_file, dap_error, debug_tool, exactly_one, functions, resolve, spec,
};
use crate::{Cx, Effect, ErrorCode, ToolError, WhenToUse};

/// Parameters of `breakpoint_set`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetParams {
    /// The file (absolute, or relative to the workspace); with `line`. Or give `function`;
    /// with neither, the line of the editor's cursor.
    #[serde(default)]
    #[schemars(example = &"app.py")]
    pub path: Option<String>,
    /// 1-based line in `path`.
    #[serde(default)]
    #[schemars(example = 12, range(min = 1))]
    pub line: Option<u32>,
    /// A function's name, instead of `path` and `line` (where the adapter supports it).
    #[serde(default)]
    #[schemars(example = &"total")]
    pub function: Option<String>,
    /// Stop only when this expression (in the program's language) is true.
    #[serde(default)]
    #[schemars(example = &"i == 2")]
    pub condition: Option<String>,
    /// Stop only when the hit count meets this (`3`, `>= 3`, `% 2`; syntax is the adapter's).
    #[serde(rename = "hitCondition", default)]
    #[schemars(example = &"3")]
    pub hit_condition: Option<String>,
    /// Log this message instead of stopping (a logpoint); `{expression}` is interpolated.
    #[serde(rename = "logMessage", default)]
    #[schemars(example = &"i={i}")]
    pub log_message: Option<String>,
    /// A name of your own for it, to find it again with breakpoint_list.
    #[serde(default)]
    #[schemars(example = &"loop body")]
    pub name: Option<String>,
}

/// Parameters of `breakpoint_remove`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveParams {
    /// The breakpoint's id (from breakpoint_set or breakpoint_list); or give `path` and `line`.
    #[serde(default)]
    #[schemars(example = 1)]
    pub id: Option<u64>,
    /// The breakpoint's file, with `line`.
    #[serde(default)]
    #[schemars(example = &"app.py")]
    pub path: Option<String>,
    /// The breakpoint's 1-based line, with `path`.
    #[serde(default)]
    #[schemars(example = 12, range(min = 1))]
    pub line: Option<u32>,
}

/// Parameters of `breakpoint_list`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    /// Only this file's breakpoints (absolute, or relative to the workspace); all when omitted.
    #[serde(default)]
    #[schemars(example = &"app.py")]
    pub path: Option<String>,
    /// Only the breakpoints given this name with breakpoint_set.
    #[serde(default)]
    #[schemars(example = &"loop body")]
    pub name: Option<String>,
}

/// Parameters of `breakpoint_clear`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathParams {
    /// Only this file's breakpoints (absolute, or relative to the workspace); all when omitted.
    #[serde(default)]
    #[schemars(example = &"app.py")]
    pub path: Option<String>,
}

debug_tool!(
    /// `breakpoint_set`.
    BreakpointSet,
    SetParams,
    spec(
        "breakpoint_set",
        "Set a breakpoint",
        "Set a breakpoint on a file's line or on a function, optionally conditional, hit-counted or logging; answers every breakpoint now set",
        WhenToUse {
            use_for: &[
                "stopping the program where its state matters",
                "logging values without stopping (logMessage)",
            ],
            dont_use_for: &["pausing a running program now (use debug_pause)"],
            patterns: &[
                "set before debug_start (kept for every session) or during one",
                "a condition or hitCondition to stop only at the interesting iteration",
            ],
        },
        false,
        Effect::Changes
    ),
    set,
    all_summary
);

debug_tool!(
    /// `breakpoint_remove`.
    BreakpointRemove,
    RemoveParams,
    spec(
        "breakpoint_remove",
        "Remove a breakpoint",
        "Remove one breakpoint, by its id or by its file and line, from the workspace and every session",
        WhenToUse {
            use_for: &["removing a breakpoint that is no longer useful"],
            dont_use_for: &["removing all of a file's breakpoints (use breakpoint_clear)"],
            patterns: &["ids come from breakpoint_set or breakpoint_list"],
        },
        false,
        Effect::Destroys
    ),
    remove,
    all_summary
);

debug_tool!(
    /// `breakpoint_list`.
    BreakpointList,
    ListParams,
    spec(
        "breakpoint_list",
        "List breakpoints",
        "List the breakpoints with their condition, whether the adapter verified them, the line it set them on and their hit count",
        WhenToUse {
            use_for: &["checking which breakpoints are set and whether they were verified"],
            dont_use_for: &["where the program is stopped (use debug_status)"],
            patterns: &["unverified breakpoints usually sit on a line with no code: move them"],
        },
        false,
        Effect::Reads
    ),
    list,
    all_summary
);

debug_tool!(
    /// `breakpoint_clear`.
    BreakpointClear,
    PathParams,
    spec(
        "breakpoint_clear",
        "Clear breakpoints",
        "Remove every breakpoint of one file, or every breakpoint of the workspace when no path is given",
        WhenToUse {
            use_for: &["starting over with breakpoints", "letting the program run to its end"],
            dont_use_for: &["removing one breakpoint (use breakpoint_remove)"],
            patterns: &["breakpoint_clear then debug_continue runs the program to its end"],
        },
        false,
        Effect::Destroys
    ),
    clear,
    all_summary
);

/// The breakpoint as an answer shows it, with what the most recent live session says.
fn view(b: &Breakpoint, known: &[BreakpointInfo]) -> Value {
    let info = known.iter().find(|i| match (&b.path, &b.function) {
        (Some(path), _) => i.path.as_ref() == Some(path) && i.line == i64::from(b.line),
        (None, Some(f)) => i.function.as_ref() == Some(f),
        _ => false,
    });
    json!({
        "id": b.id,
        "path": b.path.as_ref().map(|p| p.display().to_string()),
        "line": b.path.as_ref().map(|_| b.line),
        "function": b.function,
        "condition": b.condition,
        "hitCondition": b.hit_condition,
        "logMessage": b.log_message,
        "verified": info.is_some_and(|i| i.verified),
        "actualLine": info.and_then(|i| i.actual_line),
        "message": info.and_then(|i| i.message.clone()),
        "hitCount": info.map_or(0, |i| i.hit_count),
        "name": b.name,
    })
}

/// What sessions know of their breakpoints: the most recent live session's.
fn known(d: &Debugger) -> Vec<BreakpointInfo> {
    d.sessions()
        .iter()
        .rev()
        .map(|l| l.target().snapshot())
        .find(|s| !matches!(s.phase, Phase::Ended(_)))
        .map(|s| s.breakpoints)
        .unwrap_or_default()
}

fn answer(d: &Debugger, only: Option<&Path>, named: Option<&str>, new: Option<u64>) -> Value {
    let known = known(d);
    let all: Vec<Value> = d
        .breakpoints()
        .iter()
        .filter(|b| only.is_none_or(|p| b.path.as_deref() == Some(p)))
        .filter(|b| named.is_none_or(|n| b.name.as_deref() == Some(n)))
        .map(|b| view(b, &known))
        .collect();
    let mut data = json!({"allBreakpoints": all, "count": all.len()});
    if let Some(id) = new {
        data["breakpoint"] = all.iter().find(|b| b["id"] == id).cloned().unwrap_or(Value::Null);
    }
    data
}

/// Sends the workspace's breakpoints of `path` (or its function breakpoints) to every live
/// session.
async fn push(d: &Debugger, path: Option<&Path>) -> Result<(), ToolError> {
    let list = d.breakpoints();
    for live in d.sessions() {
        if matches!(live.session.snapshot().phase, Phase::Ended(_)) {
            continue;
        }
        let result = match path {
            Some(path) => {
                let specs = by_file(&list).remove(path).unwrap_or_default();
                live.session.set_breakpoints(path, &specs).await.map(drop)
            }
            None => live.session.set_function_breakpoints(&functions(&list)).await.map(drop),
        };
        match result {
            Err(e) if !e.is_end() => return Err(dap_error(e)),
            _ => {}
        }
    }
    Ok(())
}

pub(crate) fn line_count(path: &Path) -> Result<usize, ToolError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        ToolError::new(ErrorCode::NotFound, format!("cannot read `{}`: {e}", path.display()))
            .with_hint("Pass the file's path, absolute or relative to the workspace folder")
            .with_details(json!({"path": path.display().to_string()}))
    })?;
    Ok(locus_doc::Document::new(&text, 0).line_count())
}

async fn set(d: &Debugger, mut p: SetParams, cx: &Cx) -> Result<Value, ToolError> {
    // Neither alternative: the line the user's cursor is on, when an editor is active.
    if p.path.is_none()
        && p.line.is_none()
        && p.function.is_none()
        && let Some(ctx) = cx.editor_context.as_deref()
        && let Some(path) = ctx.file.file_path()
    {
        p.path = Some(path.to_string());
        p.line = Some(ctx.cursor.line);
    }
    let by_line = p.path.is_some() || p.line.is_some();
    exactly_one(
        &[("path and line", by_line), ("function", p.function.is_some())],
        "where to stop",
    )?;
    let mut target: Option<PathBuf> = None;
    if by_line {
        let (Some(path), Some(line)) = (&p.path, p.line) else {
            return Err(ToolError::new(
                ErrorCode::InvalidParams,
                "a line breakpoint needs both `path` and `line`",
            )
            .with_details(json!({"alternatives": ["path and line", "function"]})));
        };
        let path = resolve(cx, path);
        let count = line_count(&path)?;
        if line as usize > count {
            return Err(ToolError::new(
                ErrorCode::InvalidParams,
                format!(
                    "line {line} is past the end of `{}`, which has {count} lines",
                    path.display()
                ),
            )
            .with_hint("Lines are 1-based; pick a line with code on it")
            .with_details(json!({"parameter": "line", "line": line, "lineCount": count})));
        }
        target = Some(path);
    }
    let (id, before) = {
        let mut inner = d.inner.lock().unwrap();
        let before = inner.breakpoints.clone();
        let same = inner.breakpoints.iter().position(|b| match (&target, &p.function) {
            (Some(path), _) => b.path.as_ref() == Some(path) && Some(b.line) == p.line,
            (None, Some(f)) => b.function.as_ref() == Some(f),
            _ => false,
        });
        let id = match same {
            Some(i) => inner.breakpoints.remove(i).id,
            None => {
                inner.last_breakpoint += 1;
                inner.last_breakpoint
            }
        };
        inner.breakpoints.push(Breakpoint {
            id,
            path: target.clone(),
            function: p.function.clone(),
            line: p.line.unwrap_or(0),
            condition: p.condition.clone(),
            hit_condition: p.hit_condition.clone(),
            log_message: p.log_message.clone(),
            name: p.name.clone(),
        });
        inner.breakpoints.sort_by(|a, b| (&a.path, a.line, a.id).cmp(&(&b.path, b.line, b.id)));
        (id, before)
    };
    if let Err(e) = push(d, target.as_deref()).await {
        d.inner.lock().unwrap().breakpoints = before;
        let _ = push(d, target.as_deref()).await;
        return Err(e);
    }
    Ok(answer(d, None, None, Some(id)))
}

async fn remove(d: &Debugger, p: RemoveParams, cx: &Cx) -> Result<Value, ToolError> {
    let by_line = p.path.is_some() || p.line.is_some();
    exactly_one(&[("id", p.id.is_some()), ("path and line", by_line)], "which breakpoint")?;
    let path = p.path.as_deref().map(|path| resolve(cx, path));
    let removed = {
        let mut inner = d.inner.lock().unwrap();
        let at = inner.breakpoints.iter().position(|b| match p.id {
            Some(id) => b.id == id,
            None => b.path == path && Some(b.line) == p.line,
        });
        at.map(|i| inner.breakpoints.remove(i))
    };
    let Some(removed) = removed else {
        let what = match p.id {
            Some(id) => format!("no breakpoint has id {id}"),
            None => format!(
                "no breakpoint at {}:{}",
                path.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
                p.line.map(|l| l.to_string()).unwrap_or_else(|| "?".into())
            ),
        };
        return Err(ToolError::new(ErrorCode::NotFound, what)
            .with_hint("breakpoint_list shows the breakpoints and their ids"));
    };
    push(d, removed.path.as_deref()).await?;
    let mut data = answer(d, None, None, None);
    data["removed"] = json!(removed.id);
    Ok(data)
}

async fn list(d: &Debugger, p: ListParams, cx: &Cx) -> Result<Value, ToolError> {
    let path = p.path.as_deref().map(|path| resolve(cx, path));
    Ok(answer(d, path.as_deref(), p.name.as_deref(), None))
}

async fn clear(d: &Debugger, p: PathParams, cx: &Cx) -> Result<Value, ToolError> {
    let path = p.path.as_deref().map(|path| resolve(cx, path));
    let removed: Vec<Breakpoint> = {
        let mut inner = d.inner.lock().unwrap();
        let (gone, kept) =
            inner.breakpoints.drain(..).partition(|b| path.is_none() || b.path == path);
        inner.breakpoints = kept;
        gone
    };
    let mut files: Vec<Option<PathBuf>> = removed.iter().map(|b| b.path.clone()).collect();
    files.sort();
    files.dedup();
    for file in files {
        push(d, file.as_deref()).await?;
    }
    let mut data = answer(d, None, None, None);
    data["removed"] = json!(removed.len());
    Ok(data)
}

fn all_summary(d: &Value) -> String {
    let items: Vec<String> = d["allBreakpoints"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|b| {
            let place = match b["function"].as_str() {
                Some(f) => format!("function {f}"),
                None => format!("{}:{}", b["path"].as_str().unwrap_or("?"), b["line"]),
            };
            let verified = if b["verified"] == true { "verified" } else { "unverified" };
            format!("#{} {place} ({verified})", b["id"])
        })
        .collect();
    match items.len() {
        0 => "No breakpoints set".to_string(),
        n => format!("{n} breakpoints: {}", items.join(", ")),
    }
}
