//! `debug_break_on`: where exceptions stop the program, for the workspace's sessions (as VS
//! Code's "Uncaught Exceptions" and "Raised Exceptions" checkboxes are). The adapters' filter
//! ids are data in `adapters/*.toml` (`[exceptions]`); `debug_start`, `debug_attach` and
//! `debug_test` may say otherwise for their own session.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{BreakOnParam, Debugger, dap_error, debug_tool, spec};
use crate::{Cx, Effect, ToolError, WhenToUse};

/// Parameters of `debug_break_on`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BreakOnParams {
    /// `uncaught` (stop where an exception would end the program: the default), `raised`
    /// (stop at every exception, caught or not) or `never`.
    #[serde(rename = "breakOn")]
    #[schemars(example = &"raised")]
    pub break_on: BreakOnParam,
}

debug_tool!(
    /// `debug_break_on`: where exceptions stop the program.
    DebugBreakOn,
    BreakOnParams,
    spec(
        "debug_break_on",
        "Break on exceptions",
        "Choose where exceptions stop the program (uncaught: where it would crash; raised: at every exception, caught or not; never), in every live debug session and those started after",
        WhenToUse {
            use_for: &[
                "stopping where an exception is raised, to see the state that caused a crash or an error",
                "letting a program that raises and catches exceptions run through them",
            ],
            dont_use_for: &["stopping at a line (use breakpoint_set)"],
            patterns: &[
                "uncaught is the default: a crash stops with the exception in debugContext",
                "raised before debug_start to stop at an exception that is caught and logged",
            ],
        },
        false,
        Effect::Changes
    ),
    break_on,
    break_on_summary
);

async fn break_on(d: &Debugger, p: BreakOnParams, _: &Cx) -> Result<Value, ToolError> {
    let break_on = locus_dap::BreakOn::from(p.break_on);
    d.inner.lock().unwrap().break_on = break_on;
    let mut sessions = Vec::new();
    for live in d.sessions() {
        if matches!(live.session.snapshot().phase, locus_dap::Phase::Ended(_)) {
            continue;
        }
        let filters = live.session.set_break_on(break_on).await.map_err(dap_error)?;
        sessions.push(json!({"sessionId": live.id, "filters": filters}));
    }
    Ok(json!({"breakOn": break_on.as_str(), "sessions": sessions}))
}

fn break_on_summary(d: &Value) -> String {
    let n = d["sessions"].as_array().map_or(0, Vec::len);
    format!(
        "Exceptions stop the program: {} ({n} live session(s) updated)",
        d["breakOn"].as_str().unwrap_or("?")
    )
}
