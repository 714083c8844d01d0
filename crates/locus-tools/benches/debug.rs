//! Locus's own cost per debug tool call — the envelope, the debugContext, the bookkeeping —
//! measured against an in-process scripted adapter that answers at once
//! (`locus_dap::testing::fake_adapter`, over loopback TCP as `debugpy --listen` is), so what
//! is measured is Locus plus loopback. The target is ≤ 1 ms median per call.
//!
//! Each benchmark calls the tool through the catalogue as `locus mcp` does, on a session
//! attached to the fake and stopped at a breakpoint:
//! - `debug_status`: no adapter request (the stop's context is cached);
//! - `expression_evaluate`: `evaluate` alone for a plain read (`acc + item * 10`): the top
//!   frame and the stop's context come from the cache;
//! - `variable_list`: `stackTrace`, `scopes`, `variables`;
//! - `debug_step_over`: `next`, the `stopped` event and its `stackTrace`, the context before
//!   and after (changedVariables).
//!
//! Beside them, against the real debugpy (stopped at a breakpoint of `cart.py`): the whole
//! `expression_evaluate` through the catalogue (`debugpy_tool_evaluate`), and the adapter's
//! own time for the same expression — one DAP `evaluate` request on a session of locus-dap
//! (`debugpy_raw_evaluate`); and an evaluation that may change state (`acc = acc` in the
//! `repl` context, `debugpy_tool_evaluate_assignment`), after which the stop's variables and
//! threads are read again (`scopes`, `variables` beside `threads`).
//!
//! Run: `cargo bench -p locus-tools --bench debug`.

use std::sync::{Arc, LazyLock};

use divan::Bencher;
use locus_dap::{Lookup, Registry, testing};
use locus_tools::tools::debug;
use locus_tools::{CallOptions, Catalogue, Detached, Host};
use serde_json::{Value, json};

struct Fixture {
    rt: tokio::runtime::Runtime,
    catalogue: Arc<Catalogue>,
    host: Arc<dyn Host>,
}

impl Fixture {
    fn call(&self, name: &str, args: Value) -> Value {
        let outcome =
            self.rt.block_on(self.catalogue.call(&self.host, name, args, CallOptions::default()));
        let v = outcome.envelope.to_json();
        assert_eq!(v["ok"], true, "{name}: {v:#}");
        v
    }
}

static FIXTURE: LazyLock<Fixture> = LazyLock::new(|| {
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let port = rt.block_on(testing::fake_adapter());
    let mut c = Catalogue::new();
    debug::register_with(&mut c, Lookup::default(), Registry::builtin());
    let f = Fixture { rt, catalogue: Arc::new(c), host: Arc::new(Detached::new()) };
    let address = format!("127.0.0.1:{port}");
    f.call("debug_attach", json!({"address": address, "adapter": "debugpy"}));
    let v = f.call("debug_wait_for_stop", json!({"timeoutMs": 5000}));
    assert_eq!(v["debugContext"]["localContext"]["locals"][0]["name"], "acc", "{v:#}");
    f
});

/// A real debugpy session stopped at a breakpoint: through the catalogue, and straight over
/// locus-dap for the adapter's own time.
struct Debugpy {
    tools: Fixture,
    session: locus_dap::Session,
    frame: locus_dap::FrameId,
}

static DEBUGPY: LazyLock<Debugpy> = LazyLock::new(|| {
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let program = testing::program("cart.py");
    let mut c = Catalogue::new();
    debug::register_with(&mut c, testing::lookup(), Registry::builtin());
    let tools = Fixture { rt, catalogue: Arc::new(c), host: Arc::new(Detached::new()) };
    tools.call("breakpoint_set", json!({"path": program, "line": 11}));
    tools.call("debug_start", json!({"program": program}));
    tools.call("debug_wait_for_stop", json!({"timeoutMs": 30000}));
    let (session, frame) = tools.rt.block_on(async {
        let mut config = locus_dap::SessionConfig::standard();
        config.lookup = testing::lookup();
        let registry = Registry::builtin();
        let session =
            locus_dap::Session::start(registry.get("debugpy").unwrap(), config).await.unwrap();
        session.set_breakpoints(&program, &[locus_dap::SourceBreakpoint::at(11)]).await.unwrap();
        session.launch(&json!({"program": program})).await.unwrap();
        session.wait_for_stop(0, std::time::Duration::from_secs(30)).await.unwrap();
        let frame = session.stack_trace(None, Some(1)).await.unwrap()[0].id;
        (session, frame)
    });
    Debugpy { tools, session, frame }
});

#[divan::bench]
fn debugpy_tool_evaluate(b: Bencher) {
    let d = &*DEBUGPY;
    b.bench(|| d.tools.call("expression_evaluate", json!({"expression": "acc + item * 10"})));
}

#[divan::bench]
fn debugpy_tool_evaluate_assignment(b: Bencher) {
    let d = &*DEBUGPY;
    b.bench(|| {
        d.tools.call("expression_evaluate", json!({"expression": "acc = acc", "context": "repl"}))
    });
}

#[divan::bench]
fn debugpy_raw_evaluate(b: Bencher) {
    let d = &*DEBUGPY;
    b.bench(|| {
        d.tools.rt.block_on(d.session.evaluate("acc + item * 10", Some(d.frame), "watch")).unwrap()
    });
}

fn main() {
    divan::main();
}

#[divan::bench]
fn debug_status(b: Bencher) {
    let f = &*FIXTURE;
    b.bench(|| f.call("debug_status", json!({})));
}

#[divan::bench]
fn expression_evaluate(b: Bencher) {
    let f = &*FIXTURE;
    b.bench(|| f.call("expression_evaluate", json!({"expression": "acc + item * 10"})));
}

#[divan::bench]
fn variable_list(b: Bencher) {
    let f = &*FIXTURE;
    b.bench(|| f.call("variable_list", json!({})));
}

#[divan::bench]
fn debug_step_over(b: Bencher) {
    let f = &*FIXTURE;
    b.bench(|| f.call("debug_step_over", json!({"timeoutMs": 5000})));
}
