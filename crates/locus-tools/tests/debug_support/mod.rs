//! What the debug family's tests share: a catalogue with the debug tools over the real
//! adapters (`locus_dap::testing` finds them, or fails with the install command), called
//! in-process as an MCP client would, and an editor host whose cursor a test places.

#![allow(dead_code, reason = "each test file uses a part of this module")]

#[path = "../context_support/mod.rs"]
mod context_support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use context_support::context_at;
use locus_context::EditorContext;
use locus_dap::{Lookup, Registry, testing};
use locus_doc::Document;
use locus_tools::tools::debug;
use locus_tools::{CallOptions, Catalogue, Detached, Host, HostStatus};
use serde_json::{Value, json};

/// The catalogue's debug family on a runtime of its own.
pub struct Harness {
    pub rt: tokio::runtime::Runtime,
    pub catalogue: Arc<Catalogue>,
    pub host: Arc<dyn Host>,
}

impl Harness {
    /// Every real adapter, on a process with no editor.
    pub fn new() -> Harness {
        Harness::with(testing::lookup(), testing::registry(), Detached::new())
    }

    /// Every real adapter, under this host.
    pub fn on(host: impl Host + 'static) -> Harness {
        Harness::with(testing::lookup(), testing::registry(), host)
    }

    pub fn with(lookup: Lookup, registry: Registry, host: impl Host + 'static) -> Harness {
        let mut c = Catalogue::new();
        debug::register_with(&mut c, lookup, registry);
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        Harness { rt, catalogue: Arc::new(c), host: Arc::new(host) }
    }

    /// A call's envelope, whatever it says.
    pub fn call(&self, name: &str, args: Value) -> Value {
        let outcome =
            self.rt.block_on(self.catalogue.call(&self.host, name, args, CallOptions::default()));
        eprintln!("{name}: {}", outcome.summary);
        outcome.envelope.to_json()
    }

    /// A call that must succeed.
    pub fn ok(&self, name: &str, args: Value) -> Value {
        let v = self.call(name, args);
        assert_eq!(v["ok"], true, "{name}: {v:#}");
        v
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        // End whatever session a failed test left, so no debuggee outlives it.
        for _ in 0..4 {
            if self.call("debug_stop", json!({}))["ok"] != true {
                break;
            }
        }
    }
}

/// The variable `name` of a list.
pub fn var<'a>(list: &'a Value, name: &str) -> &'a Value {
    list.as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {list}"))
}

/// An editor with one file open, its cursor on a 1-based line, in a workspace folder.
pub struct Editor {
    pub file: PathBuf,
    pub line: u32,
    pub folder: PathBuf,
}

impl Host for Editor {
    fn editor_context(&self) -> Result<Option<EditorContext>, String> {
        let text = std::fs::read_to_string(&self.file).map_err(|e| e.to_string())?;
        Ok(Some(context_at(&self.file, &text, self.line, 4)))
    }
    fn status(&self) -> HostStatus {
        let mut status = Detached::new().status();
        status.workspace_folders = vec![self.folder.clone()];
        status
    }
    fn document(&self, _: &Path) -> Option<(Document, String)> {
        None
    }
    fn warn(&self, _: &str) {}
}

/// Whether a process runs (a zombie, waiting for a parent that is not us, has ended).
pub fn alive(pid: i64) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
}

/// The debugging workflow every adapter runs on its copy of the same loop (`total` sums
/// `items` = 3, 4, 5 into `acc`): a breakpoint on the loop's first line, start, the first stop
/// there with `acc` at 0, an evaluation of `acc` plus ten times the item (30), a step over to
/// the next line that changes `acc` from 0 to 3, then the breakpoint cleared and the program
/// run to its end. Each adapter's file gives its program and lines, and checks what is its
/// own on the envelopes `run` returns.
pub struct Workflow<'a> {
    /// The source file the breakpoint goes in.
    pub source: &'a Path,
    /// The breakpoint's 1-based line; the step over ends on the next one.
    pub line: u32,
    /// `debug_start`'s arguments.
    pub start: Value,
    /// The adapter `debug_start` picks.
    pub adapter: &'a str,
    /// How long the first stop may take (a build may come first).
    pub first_stop_ms: u64,
    /// The scope chain at the stop, when the adapter's function names are plain.
    pub scope_hierarchy: Option<&'a str>,
    /// `acc` plus ten times the current item, in the program's language.
    pub expression: &'a str,
}

/// What a workflow's run answered, for each adapter's own checks.
pub struct Ran {
    /// `debug_wait_for_stop`'s envelope at the first stop.
    pub stop: Value,
    /// `debug_continue`'s envelope when the program has ended.
    pub end: Value,
}

impl Workflow<'_> {
    /// Runs the workflow, checking what every adapter must do alike. The session stays (ended)
    /// for the caller's checks; the caller ends it with `debug_stop`.
    pub fn run(&self, h: &Harness) -> Ran {
        let call = |name: &str, args| h.ok(name, args);
        call("breakpoint_set", json!({"path": self.source, "line": self.line}));
        let v = call("debug_start", self.start.clone());
        assert_eq!(v["data"]["adapter"], self.adapter, "{v:#}");
        let stop = call("debug_wait_for_stop", json!({"timeoutMs": self.first_stop_ms}));
        assert_eq!(stop["data"]["position"]["line"], self.line, "{stop:#}");
        let ctx = &stop["debugContext"];
        if let Some(scopes) = self.scope_hierarchy {
            assert_eq!(ctx["currentPosition"]["scopeHierarchy"], scopes, "{ctx:#}");
        }
        assert_eq!(ctx["debuggerState"]["currentBreakpoint"]["hitCount"], 1, "{ctx:#}");
        let locals = ctx["localContext"]["locals"].as_array().unwrap();
        assert!(locals.iter().any(|l| l["name"] == "acc" && l["value"] == "0"), "{ctx:#}");
        let v = call("expression_evaluate", json!({"expression": self.expression}));
        assert_eq!(v["data"]["result"], "30", "{v:#}");
        let v = call("debug_step_over", json!({}));
        assert_eq!(v["data"]["to"]["line"], self.line + 1, "{v:#}");
        assert_eq!(
            v["data"]["changedVariables"],
            json!([{"name": "acc", "before": "0", "after": "3"}])
        );
        call("breakpoint_clear", json!({}));
        let end = call("debug_continue", json!({"wait": true, "timeoutMs": 30000}));
        assert_eq!(end["data"]["state"], "exited", "{end:#}");
        Ran { stop, end }
    }
}
