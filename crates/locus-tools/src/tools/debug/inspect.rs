//! `stack_list`, `variable_list`, `expression_evaluate`, `output_read`, `thread_list`: what the
//! stopped program holds. Frame and variable ids are locus-dap's own, valid until the program
//! resumes (then `E_STALE_REFERENCE`); paging and caps are Locus's, since most adapters ignore
//! DAP's.

use locus_dap::{FrameId, Session, VarRef};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::context::{self, MAX_VARIABLES};
use super::{Debugger, SessionParams, cap, dap_error, debug_tool, spec};
use crate::{Cx, Effect, ErrorCode, ToolError, WhenToUse};

/// Parameters of `stack_list`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackParams {
    /// The thread (from thread_list); the stopped thread when omitted.
    #[serde(rename = "threadId", default)]
    #[schemars(example = 1)]
    pub thread_id: Option<i64>,
    /// At most this many frames, top first (default: all).
    #[serde(default)]
    #[schemars(example = 20, range(min = 1))]
    pub levels: Option<u32>,
    /// The session (`s1`, …); the most recent when omitted.
    #[serde(rename = "sessionId", default)]
    #[schemars(example = &"s1")]
    pub session_id: Option<String>,
}

/// Parameters of `variable_list`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VariablesParams {
    /// A structured value's `variablesReference` (from an earlier variable_list or
    /// expression_evaluate), to list its members; or give `scope`.
    #[serde(rename = "variablesReference", default)]
    #[schemars(example = 7, range(min = 1))]
    pub variables_reference: Option<u64>,
    /// A scope of the frame by name (`Locals`, `Globals`, …); the frame's first scope when
    /// neither this nor `variablesReference` is given.
    #[serde(default)]
    #[schemars(example = &"Locals")]
    pub scope: Option<String>,
    /// The frame (an id from stack_list); the top frame when omitted.
    #[serde(rename = "frameId", default)]
    #[schemars(example = 1, range(min = 1))]
    pub frame_id: Option<u64>,
    /// The first variable to answer, 0-based (default 0).
    #[serde(default)]
    #[schemars(example = 0)]
    pub start: Option<u32>,
    /// How many variables to answer (default and most 50).
    #[serde(default)]
    #[schemars(example = 50, range(min = 1, max = 50))]
    pub count: Option<u32>,
    /// The session (`s1`, …); the most recent when omitted.
    #[serde(rename = "sessionId", default)]
    #[schemars(example = &"s1")]
    pub session_id: Option<String>,
}

/// Parameters of `variable_set`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetVariableParams {
    /// The variable's name, as variable_list shows it.
    #[schemars(example = &"acc", length(min = 1))]
    pub name: String,
    /// The new value, as an expression in the program's language.
    #[schemars(example = &"42", length(min = 1))]
    pub value: String,
    /// The container holding the variable (a `variablesReference` from variable_list); or
    /// give `scope`.
    #[serde(rename = "variablesReference", default)]
    #[schemars(example = 7, range(min = 1))]
    pub variables_reference: Option<u64>,
    /// The scope holding it, by name (`Locals`, …); the frame's first scope when neither this
    /// nor `variablesReference` is given.
    #[serde(default)]
    #[schemars(example = &"Locals")]
    pub scope: Option<String>,
    /// The frame (an id from stack_list); the top frame when omitted.
    #[serde(rename = "frameId", default)]
    #[schemars(example = 1, range(min = 1))]
    pub frame_id: Option<u64>,
    /// The session (`s1`, …); the most recent when omitted.
    #[serde(rename = "sessionId", default)]
    #[schemars(example = &"s1")]
    pub session_id: Option<String>,
}

/// Parameters of `expression_evaluate`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluateParams {
    /// The expression, in the program's language.
    #[schemars(example = &"acc + item * 10", length(min = 1))]
    pub expression: String,
    /// The frame to evaluate in (an id from stack_list); the top frame when omitted.
    #[serde(rename = "frameId", default)]
    #[schemars(example = 1, range(min = 1))]
    pub frame_id: Option<u64>,
    /// The DAP context: `watch` (default), `repl` (debugger commands), `hover`, `clipboard`.
    #[serde(default)]
    #[schemars(example = &"watch")]
    pub context: Option<String>,
    /// The session (`s1`, …); the most recent when omitted.
    #[serde(rename = "sessionId", default)]
    #[schemars(example = &"s1")]
    pub session_id: Option<String>,
}

debug_tool!(
    /// `stack_list`.
    StackList,
    StackParams,
    spec(
        "stack_list",
        "List stack frames",
        "List the stopped thread's stack frames, top first, with their function, file, line and a frame id for variable_list and expression_evaluate",
        WhenToUse {
            use_for: &["seeing how the program got where it stopped", "picking a caller's frame to inspect"],
            dont_use_for: &["the top frame's locals alone (the debugContext has them)"],
            patterns: &["use after a stop; frame ids die when the program resumes"],
        },
        false,
        Effect::Reads
    ),
    stack,
    stack_summary
);

debug_tool!(
    /// `variable_list`.
    VariableList,
    VariablesParams,
    spec(
        "variable_list",
        "List variables",
        "List the variables of a frame's scope or the members of a structured value, paged, with values capped at 200 characters",
        WhenToUse {
            use_for: &["reading local variables at a stop", "expanding a list, dict or object"],
            dont_use_for: &["computing something from them (use expression_evaluate)"],
            patterns: &[
                "use after a stop; variablesReference > 0 means the value has members",
                "references die when the program resumes: list again",
            ],
        },
        false,
        Effect::Reads
    ),
    variables,
    variables_summary
);

debug_tool!(
    /// `variable_set`.
    VariableSet,
    SetVariableParams,
    spec(
        "variable_set",
        "Set a variable",
        "Change a variable of the stopped program (a local, or a member of a structured value) and answer its new value",
        WhenToUse {
            use_for: &["testing a fix by changing a value before the program goes on"],
            dont_use_for: &["reading values (use variable_list or expression_evaluate)"],
            patterns: &["use after a stop; the adapter must support it (debugpy, lldb-dap, Delve do)"],
        },
        false,
        Effect::Destroys
    ),
    set_variable,
    set_summary
);

debug_tool!(
    /// `expression_evaluate`.
    ExpressionEvaluate,
    EvaluateParams,
    spec(
        "expression_evaluate",
        "Evaluate an expression",
        "Evaluate an expression in a stopped frame of the program and answer its value and type",
        WhenToUse {
            use_for: &["checking a hypothesis about the program's state", "reading a value too long for debugContext"],
            dont_use_for: &["listing every variable (use variable_list)"],
            patterns: &["use after a stop; context repl only for debugger commands"],
        },
        false,
        Effect::Changes
    ),
    evaluate,
    evaluate_summary
);

debug_tool!(
    /// `output_read`.
    OutputRead,
    SessionParams,
    spec(
        "output_read",
        "Read program output",
        "Read what the debugged program wrote to stdout and stderr, and the adapter's console messages, since the last output_read",
        WhenToUse {
            use_for: &["seeing the program's prints and logpoint messages"],
            dont_use_for: &["variables (use variable_list)"],
            patterns: &["use after debug_start; each read answers only what is new"],
        },
        false,
        Effect::Consumes
    ),
    output,
    output_summary
);

debug_tool!(
    /// `thread_list`.
    ThreadList,
    SessionParams,
    spec(
        "thread_list",
        "List threads",
        "List the program's threads with their ids and whether each is stopped",
        WhenToUse {
            use_for: &["finding a thread's id for stack_list in a threaded program"],
            dont_use_for: &["the stopped thread's stack (use stack_list)"],
            patterns: &["use after debug_start"],
        },
        false,
        Effect::Reads
    ),
    threads,
    threads_summary
);

async fn stack(d: &Debugger, p: StackParams, _: &Cx) -> Result<Value, ToolError> {
    let live = d.session(p.session_id.as_deref())?;
    let frames = live.target().stack_trace(p.thread_id, p.levels).await.map_err(dap_error)?;
    let frames: Vec<Value> = frames
        .iter()
        .map(|f| {
            json!({
                "id": f.id.0,
                "function": f.position.function,
                "file": f.position.path.as_ref().map(|p| p.display().to_string()),
                "line": f.position.line,
                "column": f.position.column,
            })
        })
        .collect();
    Ok(json!({"frames": frames, "count": frames.len()}))
}

fn stack_summary(d: &Value) -> String {
    let frames: Vec<String> = d["frames"]
        .as_array()
        .into_iter()
        .flatten()
        .take(5)
        .map(|f| {
            format!(
                "#{} {} ({}:{})",
                f["id"],
                f["function"].as_str().unwrap_or("?"),
                f["file"].as_str().unwrap_or("?"),
                f["line"]
            )
        })
        .collect();
    format!("{} frames: {}", d["count"], frames.join(" <- "))
}

async fn variables(d: &Debugger, p: VariablesParams, _: &Cx) -> Result<Value, ToolError> {
    let (_, target) = d.target(p.session_id.as_deref())?;
    let (reference, scope_info) =
        container(&target, p.variables_reference, p.scope.as_deref(), p.frame_id).await?;
    let all = target.variables(reference).await.map_err(dap_error)?;
    let start = p.start.unwrap_or(0) as usize;
    let count = p.count.map_or(MAX_VARIABLES, |c| (c as usize).min(MAX_VARIABLES));
    let mut truncated = false;
    let page: Vec<Value> = all
        .iter()
        .skip(start)
        .take(count)
        .map(|v| {
            let (value, cut) = cap(&v.value);
            truncated |= cut;
            json!({
                "name": v.name,
                "value": value,
                "type": v.type_name,
                "variablesReference": v.children.map_or(0, |r| r.0),
                "evaluateName": v.evaluate_name,
            })
        })
        .collect();
    let more = start + page.len() < all.len();
    Ok(json!({
        "variables": page,
        "total": all.len(),
        "start": start,
        "count": page.len(),
        "truncated": truncated || more,
        "nextStart": if more { Some(start + page.len()) } else { None },
        "scope": scope_info,
    }))
}

/// The container a variable tool names: a `variablesReference`, or a scope of a frame (by
/// name, else the first) of a frame (by id, else the top one); with what the scope is.
async fn container(
    target: &Session,
    variables_reference: Option<u64>,
    scope: Option<&str>,
    frame_id: Option<u64>,
) -> Result<(VarRef, Value), ToolError> {
    if variables_reference.is_some() && (scope.is_some() || frame_id.is_some()) {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            "give `variablesReference`, or `scope` and `frameId`, not both",
        )
        .with_details(json!({"alternatives": ["variablesReference", "scope"]})));
    }
    let mut scope_info = Value::Null;
    let reference = match variables_reference {
        Some(r) => VarRef(r),
        None => {
            let (frame, position) = match frame_id {
                Some(f) => (FrameId(f), None),
                None => {
                    let top = target.stack_trace(None, Some(1)).await.map_err(dap_error)?;
                    let top = top.into_iter().next().ok_or_else(|| {
                        ToolError::new(ErrorCode::NotFound, "the stopped thread has no frames")
                    })?;
                    (top.id, Some(top.position))
                }
            };
            let scopes = target.scopes(frame).await.map_err(dap_error)?;
            let names: Vec<&str> = scopes.iter().map(|s| s.name.as_str()).collect();
            let chosen = match scope {
                Some(name) => scopes.iter().find(|s| s.name.eq_ignore_ascii_case(name)),
                None => scopes.first(),
            };
            let Some(chosen) = chosen else {
                return Err(ToolError::new(
                    ErrorCode::InvalidParams,
                    format!("the frame has no scope `{}`", scope.unwrap_or_default()),
                )
                .with_hint(format!("Its scopes: {}", names.join(", ")))
                .with_details(json!({"parameter": "scope", "scopes": names})));
            };
            scope_info = json!({
                "name": chosen.name,
                "frameId": frame.0,
                "function": position.as_ref().map(|p| p.function.clone()),
                "file": position.as_ref().and_then(|p| p.path.as_ref()).map(|p| p.display().to_string()),
                "line": position.as_ref().map(|p| p.line),
                "scopes": names,
            });
            chosen.variables.ok_or_else(|| {
                ToolError::new(
                    ErrorCode::NotFound,
                    format!("scope `{}` has no variables", chosen.name),
                )
            })?
        }
    };
    Ok((reference, scope_info))
}

fn variables_summary(d: &Value) -> String {
    let items: Vec<String> = d["variables"]
        .as_array()
        .into_iter()
        .flatten()
        .take(10)
        .map(|v| {
            format!(
                "{} = {}",
                v["name"].as_str().unwrap_or("?"),
                v["value"].as_str().unwrap_or("?")
            )
        })
        .collect();
    format!("{} of {} variables: {}", d["count"], d["total"], items.join(", "))
}

async fn evaluate(d: &Debugger, p: EvaluateParams, _: &Cx) -> Result<Value, ToolError> {
    let (live, target) = d.target(p.session_id.as_deref())?;
    let context = p.context.as_deref().unwrap_or("watch");
    if !["watch", "repl", "hover", "clipboard", "variables"].contains(&context) {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!("parameter `context` is {context:?}: expected watch, repl, hover or clipboard"),
        )
        .with_details(json!({"parameter": "context", "example": "watch"})));
    }
    // The top frame: the stop's cached context knows it, else the adapter is asked.
    let frame = match (p.frame_id, context::cached_top(&live)) {
        (Some(f), _) => Some(FrameId(f)),
        (None, Some(top)) => Some(top),
        (None, None) => {
            target.stack_trace(None, Some(1)).await.map_err(dap_error)?.first().map(|f| f.id)
        }
    };
    let acting = may_change_state(&p.expression, context);
    let taken = if acting { context::before_change(&live) } else { None };
    let v = target.evaluate(&p.expression, frame, context).await;
    if acting {
        context::refresh(d, &live, taken).await;
    }
    let v = v.map_err(dap_error)?;
    let (value, truncated) = if v.value.chars().count() > 10_000 {
        let (c, _) = cap(&v.value);
        (c, true)
    } else {
        (v.value.clone(), false)
    };
    Ok(json!({
        "expression": p.expression,
        "result": value,
        "type": v.type_name,
        "variablesReference": v.children.map_or(0, |r| r.0),
        "context": context,
        "truncated": truncated,
    }))
}

async fn set_variable(d: &Debugger, p: SetVariableParams, _: &Cx) -> Result<Value, ToolError> {
    let (live, target) = d.target(p.session_id.as_deref())?;
    let (reference, scope) =
        container(&target, p.variables_reference, p.scope.as_deref(), p.frame_id).await?;
    let v = target.set_variable(reference, &p.name, &p.value).await.map_err(dap_error)?;
    // The stop's cached locals are out of date now.
    live.cache.change();
    let (value, truncated) = cap(&v.value);
    Ok(json!({
        "name": p.name,
        "value": value,
        "type": v.type_name,
        "variablesReference": v.children.map_or(0, |r| r.0),
        "truncated": truncated,
        "scope": scope,
    }))
}

fn set_summary(d: &Value) -> String {
    format!("{} = {}", d["name"].as_str().unwrap_or("?"), d["value"].as_str().unwrap_or("?"))
}

/// Whether evaluating `expression` may change the program's state, so that the stop's context
/// is read again after it. Everything may but a plain read: names, `.` and `[]`, literals,
/// arithmetic and comparisons, outside the `repl` context (where debugger commands run).
/// A call or anything in parentheses, an assignment (`=`, `+=`, `:=`, ...), `++` or `--`, a
/// backtick (a JavaScript tagged template calls its tag), and the words that act (`new`,
/// `delete`, `del`, `await`, `yield`, `import`, `lambda`) may; so do `for` and `in`, which
/// consume an iterator (`[v for v in gen]`, `x in gen` advance a generator).
/// What this cannot see is code a plain read runs: a property getter, an overloaded operator,
/// a `__getitem__` or `__missing__` (`d["k"]` on a `defaultdict` inserts the key), a Proxy's
/// trap. After those the cached locals may be stale until the next stop, whose context is read
/// afresh.
fn may_change_state(expression: &str, context: &str) -> bool {
    const COMPARISONS: [&str; 6] = ["==", "!=", "<=", ">=", "===", "!=="];
    const ACTING: [&str; 9] =
        ["new", "delete", "del", "await", "yield", "import", "lambda", "for", "in"];
    if context == "repl" || expression.contains(['(', '`']) {
        return true;
    }
    let operator = |c: char| "=!<>+-*/%&|^~:?".contains(c);
    let mut runs = expression.split(|c: char| !operator(c)).filter(|r| !r.is_empty());
    if runs.any(|r| {
        r.contains("++") || r.contains("--") || (r.contains('=') && !COMPARISONS.contains(&r))
    }) {
        return true;
    }
    expression
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| ACTING.contains(&word))
}

fn evaluate_summary(d: &Value) -> String {
    format!("{} = {}", d["expression"].as_str().unwrap_or("?"), d["result"].as_str().unwrap_or("?"))
}

async fn output(d: &Debugger, p: SessionParams, _: &Cx) -> Result<Value, ToolError> {
    let live = d.session(p.session_id.as_deref())?;
    let read = {
        let mut cursor = live.cursor.lock().unwrap();
        let read = live.session.read_output_since(*cursor);
        *cursor = read.cursor;
        read
    };
    Ok(json!({
        "stdout": read.stdout,
        "stderr": read.stderr,
        "console": read.console,
        "truncated": read.truncated,
    }))
}

fn output_summary(d: &Value) -> String {
    let len = |k: &str| d[k].as_str().map_or(0, str::len);
    format!(
        "New output: {} bytes of stdout, {} of stderr, {} of console",
        len("stdout"),
        len("stderr"),
        len("console")
    )
}

async fn threads(d: &Debugger, p: SessionParams, _: &Cx) -> Result<Value, ToolError> {
    let (_, target) = d.target(p.session_id.as_deref())?;
    let threads = target.threads().await.map_err(dap_error)?;
    let stopped_at = target.snapshot().stop.and_then(|s| s.thread_id);
    let list: Vec<Value> = threads
        .iter()
        .map(|t| json!({"id": t.id, "name": t.name, "stopped": t.stopped, "current": stopped_at == Some(t.id)}))
        .collect();
    Ok(json!({"threads": list, "count": list.len()}))
}

fn threads_summary(d: &Value) -> String {
    let items: Vec<String> = d["threads"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| {
            let state = if t["stopped"] == true { "stopped" } else { "running" };
            format!("{} {} ({state})", t["id"], t["name"].as_str().unwrap_or(""))
        })
        .collect();
    format!("{} threads: {}", d["count"], items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::may_change_state;

    #[test]
    fn only_plain_reads_leave_the_stops_context_as_it_was() {
        for read in [
            "acc",
            "acc + item * 10",
            "self.items[i] >= 3",
            "x != y && !done",
            "a->b",
            "i == 2",
            "s[\"key\"]",
            "-1 - -x",
        ] {
            assert!(!may_change_state(read, "watch"), "{read}");
            assert!(!may_change_state(read, "hover"), "{read}");
        }
        for acting in [
            "f()",
            "(a + b) * 2",
            "acc = 7",
            "acc += 1",
            "x := 5",
            "x <<= 2",
            "i++",
            "--i",
            "new Thing",
            "delete o.p",
            "await p",
            "a => a",
            "s[\"k=v\"]",
            "tag`x`",
            "`${a}`",
            "[v for v in gen]",
            "{k: v for k, v in pairs}",
            "x in gen",
            "key in d",
        ] {
            assert!(may_change_state(acting, "watch"), "{acting}");
        }
        assert!(may_change_state("acc", "repl"), "a debugger command may do anything");
        // Documented blind spots: a subscript or attribute read runs no code Locus can see.
        assert!(!may_change_state("d[\"k\"]", "watch"), "a defaultdict's __missing__ is not seen");
        assert!(!may_change_state("index + inner", "watch"), "`in` is a word, not a prefix");
    }
}
