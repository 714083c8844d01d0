//! Every tool has its metadata, and its input schema and its validation agree.

mod context_support;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use context_support::context_at;
use locus_context::EditorContext;
use locus_doc::Document;
use locus_tools::{
    CallOptions, CancellationToken, Catalogue, Category, Detached, ErrorCode, Host, HostStatus,
    Mode, Options, editor_context_json, params, standard,
};
use serde_json::{Map, Value, json};

fn all_tools() -> Arc<Catalogue> {
    Arc::new(standard(Options { test_tools: true }))
}

#[test]
fn every_tool_has_its_metadata() {
    let catalogue = all_tools();
    let mut problems = Vec::new();
    for entry in catalogue.all() {
        let s = entry.spec();
        let mut bad = |what: &str| problems.push(format!("{}: {what}", s.name));
        let name_ok = s.name.split('_').count() >= 2
            && s.name.split('_').all(|w| {
                !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            });
        if !name_ok {
            bad("name is not thing_action snake_case");
        }
        if s.title.is_empty() {
            bad("no title");
        }
        if s.description.len() < 20 || s.description.ends_with('.') {
            bad("description missing, too short, or ends with a period");
        }
        let w = s.when_to_use;
        if w.use_for.is_empty() || w.dont_use_for.is_empty() || w.patterns.is_empty() {
            bad("when_to_use lacks USE FOR, DON'T USE FOR or PATTERNS");
        }
        if s.timeout.is_zero() {
            bad("zero timeout");
        }
        if (s.category == Category::System) != s.system {
            bad("system tools and the system category must coincide");
        }
        let schema = entry.input_schema();
        if schema.get("type") != Some(&json!("object")) || !schema.contains_key("properties") {
            bad("input schema is not an object schema with properties");
        }
        if schema.get("additionalProperties") != Some(&json!(false)) {
            bad("input schema accepts unknown parameters (add #[serde(deny_unknown_fields)])");
        }
        for p in entry.params() {
            if p.description.is_empty() {
                bad(&format!("parameter `{}` has no description (doc comment)", p.name));
            }
            if p.example.is_none() {
                bad(&format!("parameter `{}` has no example (#[schemars(example = …)])", p.name));
            }
        }
    }
    assert!(problems.is_empty(), "tools lacking metadata:\n{}", problems.join("\n"));
}

/// The description and guidance of docs/reference/tools.md, word for word: agents rely on them.
#[test]
fn editor_get_context_keeps_its_published_description() {
    let catalogue = all_tools();
    let s = catalogue.get("editor_get_context").unwrap().spec();
    assert_eq!(
        s.description,
        "Get current editor cursor position, selection, and containing symbol context"
    );
    assert_eq!(
        s.when_to_use.text(),
        "USE FOR: understanding where the user is working, getting the method/class context before making edits; \
         DON'T USE FOR: navigating to other files, searching code; \
         PATTERNS: call at the start of editing workflows, check context before scoped operations"
    );
    assert_eq!(s.timeout, Duration::from_secs(30));
    assert!(catalogue.get("bridge_status").unwrap().spec().system);
    assert!(catalogue.get("mcp_list_tools").unwrap().spec().system);
    assert!(!standard(Options { test_tools: false }).get("test_sleep").unwrap().spec().enabled);
}

/// A valid value of the property's type: its example.
fn example_args(entry: &locus_tools::Entry, only_required: bool) -> Map<String, Value> {
    entry
        .params()
        .iter()
        .filter(|p| p.required || !only_required)
        .map(|p| (p.name.clone(), p.example.clone().unwrap()))
        .collect()
}

/// A value of a different JSON type than the property allows.
fn wrong_type(p: &Value) -> Value {
    let types: Vec<&str> = match p.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    [json!("text"), json!(7), json!(true), json!([1]), json!({"a": 1})]
        .into_iter()
        .find(|v| {
            !types.iter().any(|t| match *t {
                "string" => v.is_string(),
                "integer" | "number" => v.is_number(),
                "boolean" => v.is_boolean(),
                "array" => v.is_array(),
                "object" => v.is_object(),
                "null" => v.is_null(),
                _ => true,
            })
        })
        .unwrap()
}

#[test]
fn schema_and_validation_agree() {
    let catalogue = all_tools();
    let mut problems = Vec::new();
    for entry in catalogue.all() {
        let name = entry.spec().name;
        let schema = entry.input_schema().clone();
        let props = schema["properties"].as_object().unwrap().clone();
        let call_checks = |args: Value| params_outcome(&catalogue, name, args);
        // Every parameter the schema names has a hint, and the other way round.
        let hinted: Vec<&str> = entry.params().iter().map(|p| p.name.as_str()).collect();
        let named: Vec<&str> = props.keys().map(String::as_str).collect();
        if hinted != named {
            problems.push(format!("{name}: hints {hinted:?} vs schema {named:?}"));
        }
        // Examples (all, and required only) pass the schema and deserialize.
        for only_required in [false, true] {
            let args = Value::Object(example_args(entry, only_required));
            if let Err(e) = entry.deserializes(args.clone()) {
                problems.push(format!("{name}: the examples {args} do not deserialize: {e}"));
            }
            if let Err(e) = params::check(&schema, &args) {
                problems
                    .push(format!("{name}: the examples {args} fail the schema: {}", e.message));
            }
            if let Some(e) = call_checks(args.clone()) {
                problems.push(format!("{name}: the examples {args} fail validation: {e}"));
            }
        }
        // A missing required parameter, a wrong type and an unknown field: the schema and
        // the deserializer both refuse, and the error names the parameter.
        for p in entry.params() {
            let mut without = example_args(entry, false);
            without.remove(&p.name);
            if entry.deserializes(Value::Object(without.clone())).is_ok() == p.required {
                problems.push(format!(
                    "{name}: the schema says `{}` is required: {}, serde disagrees",
                    p.name, p.required
                ));
            }
            if p.required {
                let args = without;
                match call_checks(Value::Object(args)) {
                    Some(m) if m.contains(&format!("`{}`", p.name)) && m.contains("missing") => {}
                    other => problems.push(format!("{name}: missing `{}` gave {other:?}", p.name)),
                }
            }
            // A parameter that takes any JSON value (a setting's value) has no wrong type.
            if p.expected == "any value" {
                continue;
            }
            let mut args = example_args(entry, false);
            args.insert(p.name.clone(), wrong_type(&props[&p.name]));
            match call_checks(Value::Object(args.clone())) {
                Some(m)
                    if m.contains(&format!("`{}`", p.name))
                        && m.contains("expected")
                        && m.contains("e.g.") => {}
                other => {
                    problems.push(format!("{name}: wrong type for `{}` gave {other:?}", p.name))
                }
            }
            // The deserializer agrees that the mistyped value is invalid.
            if entry.deserializes(Value::Object(args)).is_ok() {
                problems.push(format!(
                    "{name}: serde accepts a mistyped `{}` the schema refuses",
                    p.name
                ));
            }
        }
        let mut args = example_args(entry, false);
        args.insert("no_such_parameter".into(), json!(1));
        if entry.deserializes(Value::Object(args.clone())).is_ok() {
            problems.push(format!("{name}: serde accepts an unknown parameter the schema refuses"));
        }
        match call_checks(Value::Object(args)) {
            Some(m) if m.contains("unknown parameter `no_such_parameter`") => {}
            other => problems.push(format!("{name}: an unknown parameter gave {other:?}")),
        }
    }
    assert!(problems.is_empty(), "schema and validation disagree:\n{}", problems.join("\n"));
}

/// The E_INVALID_PARAMS message for `args`, or `None` when validation passes.
fn params_outcome(catalogue: &Arc<Catalogue>, name: &str, args: Value) -> Option<String> {
    let entry = catalogue.get(name).unwrap();
    params::check(entry.input_schema(), &args).err().map(|e| {
        assert_eq!(e.code, ErrorCode::InvalidParams);
        e.message
    })
}

struct FakeEditor {
    context: Option<EditorContext>,
}

impl Host for FakeEditor {
    fn editor_context(&self) -> Result<Option<EditorContext>, String> {
        Ok(self.context.clone())
    }
    fn status(&self) -> HostStatus {
        let mut s = Detached::new().status();
        s.mode = Mode::Sidecar;
        s.editors_connected = 1;
        s
    }
    fn document(&self, _: &Path) -> Option<(Document, String)> {
        None
    }
    fn warn(&self, _: &str) {}
}

fn call(host: Arc<dyn Host>, name: &str, args: Value, options: CallOptions) -> Value {
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(all_tools().call(&host, name, args, options)).envelope.to_json()
}

#[test]
fn editor_context_rides_on_tools_but_not_on_system_tools() {
    let context = context_at(Path::new("/x.ts"), "let a = 1;\nlet b = 2;\nlet c = 3;\n", 3, 1);
    let ctx = editor_context_json(&context);
    assert_eq!((&ctx["file"]["path"], &ctx["cursor"]["line"]), (&json!("/x.ts"), &json!(3)));
    let host: Arc<dyn Host> = Arc::new(FakeEditor { context: Some(context) });
    let v = call(host.clone(), "editor_get_context", json!({}), CallOptions::default());
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["data"], json!({}));
    assert_eq!(v["editorContext"], ctx);
    for system in ["bridge_status", "mcp_list_tools"] {
        let v = call(host.clone(), system, Value::Null, CallOptions::default());
        assert_eq!(v["ok"], true, "{v}");
        assert!(v.get("editorContext").is_none(), "{system}: {v}");
    }
    // Errors still carry the context captured at the start.
    let v = call(
        host.clone(),
        "symbol_outline",
        json!({"path": "/no/such/file.ts"}),
        CallOptions::default(),
    );
    assert_eq!(v["error"]["code"], "E_NOT_FOUND");
    assert_eq!(v["editorContext"], ctx);
    // No active editor: no editorContext member at all, and editor_get_context still
    // succeeds, saying why in its data (no editor is not an error).
    let none: Arc<dyn Host> = Arc::new(FakeEditor { context: None });
    let v = call(none, "editor_get_context", json!({}), CallOptions::default());
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["data"]["noEditor"]["reason"], "no-text-editor", "{v}");
    assert!(v.get("editorContext").is_none());
}

#[test]
fn a_failed_capture_is_not_the_tools_error() {
    struct Broken;
    impl Host for Broken {
        fn editor_context(&self) -> Result<Option<EditorContext>, String> {
            Err("the state is gone".into())
        }
        fn status(&self) -> HostStatus {
            Detached::new().status()
        }
        fn document(&self, _: &Path) -> Option<(Document, String)> {
            None
        }
        fn warn(&self, _: &str) {}
    }
    let dir = std::env::temp_dir().join(format!("locus-tools-capture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a.py");
    std::fs::write(&file, "class A:\n    def f(self):\n        pass\n").unwrap();
    let v = call(
        Arc::new(Broken),
        "symbol_scope_at",
        json!({"path": file, "line": 3, "character": 9}),
        CallOptions::default(),
    );
    assert_eq!(v["ok"], true, "{v}");
    assert!(v.get("editorContext").is_none());
    assert_eq!(v["data"]["scopeHierarchy"], "Class:A > Method:f");
}

#[test]
fn timeouts_and_cancellation() {
    let host: Arc<dyn Host> = Arc::new(Detached::new());
    let options =
        CallOptions { timeout: Some(Duration::from_millis(50)), ..CallOptions::default() };
    let v = call(host.clone(), "test_sleep", json!({"ms": 5000}), options);
    assert_eq!(v["error"]["code"], "E_TIMEOUT", "{v}");
    assert!(v["meta"]["durationMs"].as_f64().unwrap() < 2000.0);

    let cancel = CancellationToken::new();
    let options = CallOptions { cancel: cancel.clone(), ..CallOptions::default() };
    let trigger = cancel.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        trigger.cancel();
    });
    let v = call(host.clone(), "test_sleep", json!({"ms": 5000}), options);
    assert_eq!(v["error"]["code"], "E_CANCELLED", "{v}");
}

#[test]
fn invalid_params_name_the_parameter_the_type_and_an_example() {
    let host: Arc<dyn Host> = Arc::new(Detached::new());
    let v = call(
        host.clone(),
        "symbol_scope_at",
        json!({"path": "a.ts", "line": "ten"}),
        CallOptions::default(),
    );
    let e = &v["error"];
    assert_eq!(e["code"], "E_INVALID_PARAMS");
    assert_eq!(
        e["message"],
        "parameter `line` has the wrong type (string \"ten\"): expected integer >= 1, e.g. 46"
    );
    assert_eq!(
        e["details"],
        json!({"parameter": "line", "expected": "integer >= 1", "example": 46, "received": "string"})
    );
    assert!(!e["hint"].as_str().unwrap().is_empty());
    let v = call(host.clone(), "symbol_scope_at", json!({"line": 1}), CallOptions::default());
    assert_eq!(
        v["error"]["message"],
        "parameter `path` is missing: expected string, e.g. \"src/user.ts\""
    );
    let v = call(
        host.clone(),
        "symbol_scope_at",
        json!({"path": "a", "line": 0}),
        CallOptions::default(),
    );
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS");
    assert_eq!(
        v["error"]["message"],
        "parameter `line` is 0, less than 1: expected integer >= 1, e.g. 46"
    );
    // Below the type's own bound too: said in numbers, not as the Rust type (`uint32`).
    let v = call(
        host.clone(),
        "symbol_scope_at",
        json!({"path": "a", "line": -1}),
        CallOptions::default(),
    );
    assert_eq!(
        v["error"]["message"],
        "parameter `line` is -1, less than 1: expected integer >= 1, e.g. 46"
    );
    let v = call(host.clone(), "symbol_search", json!({"query": ""}), CallOptions::default());
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS");
    assert!(
        v["error"]["message"].as_str().unwrap().starts_with("parameter `query` is empty"),
        "{v}"
    );
    let v =
        call(host.clone(), "editor_get_context", json!({"verbose": true}), CallOptions::default());
    assert_eq!(v["error"]["message"], "unknown parameter `verbose`: this tool takes no parameters");
    let v = call(host, "no_such_tool", json!({}), CallOptions::default());
    assert_eq!(v["error"]["code"], "E_NOT_FOUND");
}

#[test]
fn symbol_tools_read_files_from_disk() {
    let dir = std::env::temp_dir().join(format!("locus-tools-symbols-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("user.ts");
    std::fs::write(
        &file,
        "export class UserService {\n  findUser(id: string) {\n    return id;\n  }\n}\n",
    )
    .unwrap();
    let host: Arc<dyn Host> = Arc::new(Detached::new());
    let v = call(host.clone(), "symbol_outline", json!({"path": file}), CallOptions::default());
    assert_eq!(v["ok"], true, "{v}");
    let d = &v["data"];
    assert_eq!(d["file"]["languageId"], "typescript");
    assert_eq!(d["source"], "tree-sitter");
    assert_eq!(d["symbols"][0]["name"], "UserService");
    assert_eq!(d["symbols"][0]["range"], json!({"start": 1, "end": 5, "length": 5}));
    assert_eq!(d["symbols"][0]["children"][0]["name"], "findUser");
    assert_eq!(
        d["symbols"][0]["children"][0]["selectionStart"],
        json!({"line": 2, "character": 3})
    );
    let v = call(
        host,
        "symbol_scope_at",
        json!({"path": file, "line": 3, "character": 5}),
        CallOptions::default(),
    );
    let d = &v["data"];
    assert_eq!(d["scopeHierarchy"], "Class:UserService > Method:findUser", "{v}");
    assert_eq!(d["immediateScope"]["range"], json!({"start": 2, "end": 4, "length": 3}));
}

/// No schema carries a `format` JSON Schema does not define: schemars names Rust's number
/// types there (`uint32`, `double`, …), and agents' validators warn about every one (Claude
/// Code printed `unknown format "uint32" ignored in schema` for nearly every tool). Their
/// bounds are `minimum` and `maximum` instead.
#[test]
fn no_schema_names_a_rust_number_type_as_its_format() {
    fn formats(v: &Value, at: &str, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                if let Some(Value::String(f)) = map.get("format") {
                    out.push(format!("{at}: {f}"));
                }
                for (k, v) in map {
                    formats(v, &format!("{at}/{k}"), out);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    formats(v, &format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let catalogue = all_tools();
    let mut found = Vec::new();
    let mut bounded = 0;
    for entry in catalogue.enabled() {
        let name = &entry.spec().name;
        let input = Value::Object((**entry.input_schema()).clone());
        formats(&input, &format!("{name} input"), &mut found);
        formats(
            &Value::Object((**entry.output_schema()).clone()),
            &format!("{name} output"),
            &mut found,
        );
        bounded += input.to_string().matches("\"maximum\":4294967295").count();
    }
    assert!(found.is_empty(), "{found:#?}");
    assert!(bounded > 10, "the u32 parameters keep their bound ({bounded})");
}

/// What each call does to the world is what agents ask the user about: the tools that remove,
/// overwrite or restart something say so, and a read that consumes is not idempotent.
#[test]
fn tools_that_destroy_say_so_and_a_consuming_read_is_not_idempotent() {
    use locus_tools::Effect;
    let catalogue = all_tools();
    let effect = |name: &str| catalogue.get(name).unwrap().spec().effect;
    for name in [
        "debug_restart",
        "debug_stop",
        "variable_set",
        "setting_set",
        "file_rename",
        "symbol_rename",
        "breakpoint_clear",
        "breakpoint_remove",
    ] {
        assert_eq!(effect(name), Effect::Destroys, "{name}");
        assert!(effect(name).destructive() && !effect(name).read_only(), "{name}");
    }
    let read = effect("output_read");
    assert!(read.read_only() && !read.idempotent());
    for name in ["symbol_outline", "editor_get_context", "stack_list", "dialog_get_requests"] {
        assert!(effect(name).read_only() && effect(name).idempotent(), "{name}");
    }
    for entry in catalogue.enabled() {
        let e = entry.spec().effect;
        assert!(!(e.read_only() && e.destructive()), "{}", entry.spec().name);
    }
}
