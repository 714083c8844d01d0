//! What the real adapters' tests share: reading a stopped program's locals, and its output
//! as it comes.

#![allow(dead_code, reason = "each test file uses a part of this module")]

use std::time::{Duration, Instant};

use locus_dap::{Session, VariableInfo};

/// The value of the variable `name`.
pub fn value<'a>(vars: &'a [VariableInfo], name: &str) -> &'a str {
    &vars.iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no {name} in {vars:?}")).value
}

/// The variables of the top frame's scope named `Locals` (debugpy, Delve, lldb-dap).
pub async fn locals(session: &Session) -> Vec<VariableInfo> {
    let frames = session.stack_trace(None, None).await.unwrap();
    let scopes = session.scopes(frames[0].id).await.unwrap();
    let locals = scopes.iter().find(|s| s.name == "Locals").expect("a Locals scope");
    session.variables(locals.variables.unwrap()).await.unwrap()
}

/// The program's stdout read from `session` until it holds `text` or `within` has passed
/// (output read from a pipe of its own may come a moment after the program's end); all of it,
/// for the caller's checks.
pub async fn stdout_until(session: &Session, text: &str, within: Duration) -> String {
    let deadline = Instant::now() + within;
    let mut stdout = String::new();
    while !stdout.contains(text) && Instant::now() < deadline {
        stdout.push_str(&session.read_output().stdout);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stdout
}
