//! Every answer fits the answer budget, and an answer that was folded or cut says what it
//! left out and how to get it: an outline folds its deep levels and pages its top level.

use std::path::PathBuf;
use std::sync::Arc;

use locus_tools::budget::{DEFAULT_ANSWER_BUDGET, json_len};
use locus_tools::{CallOptions, Detached, Host, Options, standard};
use serde_json::{Value, json};

fn call(name: &str, args: Value, options: CallOptions) -> Value {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let host: Arc<dyn Host> = Arc::new(Detached::new());
    let catalogue = Arc::new(standard(Options { test_tools: false }));
    rt.block_on(catalogue.call(&host, name, args, options)).envelope.to_json()
}

/// A Python file of `classes` classes of three methods, each class followed by a function:
/// ten lines a class.
fn python_file(name: &str, classes: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("locus-budget-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::new();
    for i in 0..classes {
        text.push_str(&format!(
            "class Service{i}:\n    def find(self, key):\n        return key\n    def save(self, item):\n        pass\n    def drop(self):\n        pass\n\ndef helper{i}(a):\n    return a\n"
        ));
    }
    let path = dir.join(format!("{name}.py"));
    std::fs::write(&path, text).unwrap();
    path
}

/// Symbols in an answer, and what their `folded` members count, at every depth.
fn shown_and_folded(symbols: &Value) -> (usize, usize) {
    let mut out = (0, 0);
    for s in symbols.as_array().into_iter().flatten() {
        out.0 += 1;
        out.1 += s["folded"].as_u64().unwrap_or(0) as usize;
        let (shown, folded) = shown_and_folded(&s["children"]);
        out = (out.0 + shown, out.1 + folded);
    }
    out
}

#[test]
fn a_small_outline_is_whole() {
    let path = python_file("small", 20);
    let v = call("symbol_outline", json!({"path": path}), CallOptions::default());
    let d = &v["data"];
    assert_eq!(d["shown"], d["totalInDocument"], "{v}");
    assert!(d.get("cut").is_none() && d.get("nextOffset").is_none());
    assert!(v["meta"].get("cut").is_none());
    assert_eq!(v["meta"]["formatVersion"], 1);
}

#[test]
fn a_large_outline_folds_its_deep_levels_to_fit() {
    // 1,000 classes: 10,000 lines, 8,000 symbols (parameters are Variables, as in VS Code);
    // whole it would be about a megabyte.
    let path = python_file("folds", 1_000);
    let v = call("symbol_outline", json!({"path": path}), CallOptions::default());
    assert!(json_len(&v) <= DEFAULT_ANSWER_BUDGET, "{} bytes", json_len(&v));
    let d = &v["data"];
    assert_eq!(d["totalInDocument"], 8_000);
    let cut = d["cut"].as_str().expect("a folded answer says so");
    assert!(cut.contains("`range`") && cut.contains("breadth first"), "{cut}");
    // Top-level symbols come first; the methods are folded into counts.
    let (shown, folded) = shown_and_folded(&d["symbols"]);
    assert_eq!(d["shown"], shown);
    assert_eq!(d["symbols"][0]["name"], "Service0");
    assert_eq!(d["symbols"][0]["folded"], 5, "three methods and two parameters");
    assert_eq!(d["symbols"][1]["folded"], 1);
    // What is not shown is either folded or after the page.
    let next = d["nextOffset"].as_u64().expect("2,000 top-level symbols page") as usize;
    assert_eq!(d["symbols"].as_array().unwrap().len(), next);
    assert_eq!((shown, folded), (next, 5 * next.div_ceil(2) + next / 2));
    assert!(next > 150, "a page keeps as much as fits, not a little: {next}");
    // The next page starts where this one stopped.
    let v = call("symbol_outline", json!({"path": path, "offset": next}), CallOptions::default());
    let first = &v["data"]["symbols"][0]["name"];
    let expected = if next.is_multiple_of(2) {
        format!("Service{}", next / 2)
    } else {
        format!("helper{}", next / 2)
    };
    assert_eq!(first, &json!(expected), "{}", v["data"]["symbols"][0]);
}

#[test]
fn a_few_large_classes_unfold_breadth_first_as_far_as_the_budget_goes() {
    // Three classes of 400 methods each: the classes, then as many methods as fit.
    let dir = std::env::temp_dir().join(format!("locus-budget-{}-wide", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::new();
    for c in 0..3 {
        text.push_str(&format!("class Big{c}:\n"));
        for m in 0..400 {
            text.push_str(&format!("    def method{m}(self):\n        pass\n"));
        }
    }
    let path = dir.join("wide.py");
    std::fs::write(&path, text).unwrap();
    let v = call("symbol_outline", json!({"path": path}), CallOptions::default());
    assert!(json_len(&v) <= DEFAULT_ANSWER_BUDGET, "{} bytes", json_len(&v));
    let d = &v["data"];
    let classes = d["symbols"].as_array().unwrap();
    assert_eq!(classes.len(), 3, "every top-level symbol is there");
    let first = &classes[0];
    let methods = first["children"].as_array().expect("the first class unfolds");
    assert!(methods.len() > 100, "as many methods as fit: {}", methods.len());
    assert_eq!(first["folded"], 400 - methods.len(), "the rest are counted");
    assert_eq!(classes[1]["folded"], 400, "the budget ran out before the second");
    let (shown, folded) = shown_and_folded(&d["symbols"]);
    assert_eq!(shown + folded, 3 + 1_200, "nothing is lost: shown or counted");
}

#[test]
fn a_folded_symbol_unfolds_by_its_range() {
    let path = python_file("unfold", 1_000);
    let v = call("symbol_outline", json!({"path": path}), CallOptions::default());
    let service = &v["data"]["symbols"][2];
    assert_eq!(service["name"], "Service1");
    let range = json!({"start": service["range"]["start"], "end": service["range"]["end"]});
    let v = call("symbol_outline", json!({"path": path, "range": range}), CallOptions::default());
    let d = &v["data"];
    assert_eq!(d["symbols"].as_array().unwrap().len(), 1, "{v}");
    let methods: Vec<&str> = d["symbols"][0]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(methods, ["find", "save", "drop"]);
    assert!(d.get("cut").is_none());
}

#[test]
fn max_depth_folds_with_counts() {
    let path = python_file("depth", 5);
    let v = call("symbol_outline", json!({"path": path, "maxDepth": 1}), CallOptions::default());
    let d = &v["data"];
    assert_eq!(d["symbols"][0]["folded"], 5, "{v}");
    assert!(d["symbols"][0].get("children").is_none());
    assert_eq!(d["shown"], 10);
    assert!(d.get("cut").is_none(), "an asked-for depth is not a cut");
}

#[test]
fn a_larger_budget_gives_more() {
    let path = python_file("larger", 1_000);
    let options = CallOptions { answer_budget: Some(4 * 1024 * 1024), ..CallOptions::default() };
    let v = call("symbol_outline", json!({"path": path}), options);
    assert_eq!(v["data"]["shown"], 8_000);
    assert!(v["data"].get("cut").is_none());
}

#[test]
fn a_bad_range_is_refused() {
    let path = python_file("badrange", 2);
    let v = call(
        "symbol_outline",
        json!({"path": path, "range": {"start": 9, "end": 3}}),
        CallOptions::default(),
    );
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{v}");
}

/// Calls in the workspace `dir`, on one host (one symbol index) that never saves the symbol
/// cache (it is not one-shot).
fn caller(dir: &std::path::Path) -> impl Fn(&str, Value, CallOptions) -> Value {
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let host: Arc<dyn Host> = Arc::new(Detached::new().in_workspace(dir.to_path_buf()));
    let catalogue = Arc::new(standard(Options { test_tools: false }));
    move |name, args, options| {
        rt.block_on(catalogue.call(&host, name, args, options)).envelope.to_json()
    }
}

#[test]
fn a_search_page_ends_where_the_budget_does_and_says_where_the_next_starts() {
    let path = python_file("search", 1_000);
    let dir = path.parent().unwrap();
    std::fs::write(dir.join(".git"), "").unwrap();
    let codex = CallOptions { answer_budget: Some(11 * 1024), ..CallOptions::default() };
    let args = json!({"query": "Service", "kind": "Class", "limit": 200});
    // A busy machine may not have built the index within the search's own wait: the answer
    // then says `indexing`, and the next call is asked once it is gone.
    let call_in = caller(dir);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while call_in("symbol_search", args.clone(), codex.clone())["data"].get("indexing").is_some() {
        assert!(std::time::Instant::now() < deadline, "the index of one file took over a minute");
    }
    let first = call_in("symbol_search", args.clone(), codex.clone());
    let d = &first["data"];
    let shown = d["symbols"].as_array().unwrap().len();
    assert!(shown > 20 && shown < 200, "{shown} of 200 in 11 KB");
    assert_eq!((d["more"].clone(), d["nextOffset"].clone()), (json!(true), json!(shown)));
    assert!(json_len(&first) <= 11 * 1024 && first["meta"].get("cut").is_none(), "{first}");
    // The next page starts where this one ended: no match twice, none skipped.
    let mut next = args.clone();
    next["offset"] = json!(shown);
    let second = call_in("symbol_search", next, codex);
    let names = |v: &Value| -> Vec<String> {
        v["data"]["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect()
    };
    let whole = call_in(
        "symbol_search",
        args,
        CallOptions { answer_budget: Some(1 << 20), ..CallOptions::default() },
    );
    assert_eq!(whole["data"]["symbols"].as_array().unwrap().len(), 200);
    assert_eq!(
        [names(&first), names(&second)].concat(),
        names(&whole)[..shown + names(&second).len()]
    );
}

#[test]
fn the_tool_list_is_brief_unless_a_category_or_tool_is_asked_for() {
    let brief = call("mcp_list_tools", json!({}), CallOptions::default());
    assert!(
        json_len(&brief) < 11 * 1024,
        "{} bytes: past what Codex passes whole",
        json_len(&brief)
    );
    let first = &brief["data"]["categories"][0]["tools"][0];
    assert_eq!(first["name"], "editor_get_context");
    assert!(first.get("parameters").is_none() && first.get("whenToUse").is_none(), "{first}");
    assert!(brief["data"]["more"].as_str().unwrap().contains("`category` or `tool`"));
    let one = call("mcp_list_tools", json!({"tool": "symbol_outline"}), CallOptions::default());
    assert_eq!(one["data"]["count"], 1, "{one}");
    let tool = &one["data"]["categories"][0]["tools"][0];
    assert!(
        tool["parameters"].as_array().unwrap().iter().any(|p| p["name"] == "maxDepth"),
        "{tool}"
    );
    assert!(tool["whenToUse"].as_str().unwrap().starts_with("USE FOR:"));
    let unknown =
        call("mcp_list_tools", json!({"tool": "symbol_outlines"}), CallOptions::default());
    assert_eq!(unknown["error"]["code"], "E_INVALID_PARAMS", "{unknown}");
}
