//! What the debug family's tests share: a catalogue with the debug tools over the real
//! adapters (`locus_dap::testing` finds them, or fails with the install command), called
//! in-process as an MCP client would, and an editor host whose cursor a test places.

#![allow(dead_code, reason = "each test file uses a part of this module")]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use locus_dap::{Lookup, Registry, testing};
use locus_tools::tools::debug;
use locus_tools::{BridgeStatus, CallOptions, Catalogue, Detached, Host};
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
    fn editor_context(&self) -> Result<Option<Value>, String> {
        Ok(Some(json!({
            "file": {"path": self.file},
            "cursor": {"line": self.line, "character": 4},
        })))
    }
    fn status(&self) -> BridgeStatus {
        let mut status = Detached::new().status();
        status.workspace_folders = vec![self.folder.clone()];
        status
    }
    fn document(&self, _: &Path) -> Option<(locus_doc::Document, String)> {
        None
    }
    fn warn(&self, _: &str) {}
}

/// Whether a process runs (a zombie, waiting for a parent that is not us, has ended).
pub fn alive(pid: i64) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
}
