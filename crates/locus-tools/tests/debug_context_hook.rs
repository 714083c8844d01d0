//! `Tool::debug_context`: a family's hook puts a `debugContext` on every envelope of its
//! tools, errors and timeouts included, and tools without it carry none.

use std::sync::Arc;
use std::time::Duration;

use locus_tools::{
    CallOptions, Catalogue, Category, Cx, DEFAULT_TIMEOUT, Detached, ErrorCode, Host, Tool,
    ToolError, ToolSpec, WhenToUse,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Params {
    /// What to do: `ok`, `fail` or `sleep`.
    #[schemars(example = &"ok")]
    what: String,
}

struct WithContext;

impl Tool for WithContext {
    type Params = Params;
    type Output = Value;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "probe_context",
            title: "Probe",
            category: Category::Debug,
            description: "A tool whose family attaches a debugContext",
            when_to_use: WhenToUse { use_for: &["tests"], dont_use_for: &["x"], patterns: &["y"] },
            timeout: DEFAULT_TIMEOUT,
            enabled: true,
            system: false,
            effect: locus_tools::Effect::Reads,
        }
    }

    async fn run(&self, p: Params, _: Cx) -> Result<Value, ToolError> {
        match p.what.as_str() {
            "fail" => Err(ToolError::new(ErrorCode::NotStopped, "running")),
            "sleep" => {
                tokio::time::sleep(Duration::from_secs(60)).await;
                Ok(json!({}))
            }
            _ => Ok(json!({"done": true})),
        }
    }

    fn summary(&self, _: &Value, _: &Cx) -> String {
        "done".into()
    }

    async fn debug_context(&self, _: &Cx) -> Option<Value> {
        Some(json!({"debuggerState": {"sessionId": "s1"}}))
    }
}

#[test]
fn the_hook_rides_on_success_error_and_timeout() {
    let mut c = Catalogue::new();
    c.register(WithContext);
    let catalogue = Arc::new(c);
    let host: Arc<dyn Host> = Arc::new(Detached::new());
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let call = |what: &str, timeout: Option<Duration>| {
        let options = CallOptions { timeout, ..CallOptions::default() };
        let outcome =
            rt.block_on(catalogue.call(&host, "probe_context", json!({"what": what}), options));
        outcome.envelope.to_json()
    };
    let expected = json!({"debuggerState": {"sessionId": "s1"}});
    let v = call("ok", None);
    assert_eq!((&v["ok"], &v["debugContext"]), (&json!(true), &expected), "{v}");
    let v = call("fail", None);
    assert_eq!(v["error"]["code"], "E_NOT_STOPPED");
    assert_eq!(v["debugContext"], expected);
    let v = call("sleep", Some(Duration::from_millis(50)));
    assert_eq!(v["error"]["code"], "E_TIMEOUT");
    assert_eq!(v["debugContext"], expected);
    // A tool of another family (no hook) carries none.
    let v = rt.block_on(
        Arc::new(locus_tools::standard(locus_tools::Options { test_tools: true })).call(
            &host,
            "test_sleep",
            json!({"ms": 0}),
            CallOptions::default(),
        ),
    );
    assert!(v.envelope.debug_context.is_none());
}
