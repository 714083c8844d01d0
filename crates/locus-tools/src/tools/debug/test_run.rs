//! `debug_test`: debug one test — the test function or method around the editor's cursor (or
//! a line), or one named — under its language's test runner (pytest for Python, `go test
//! -run` for Go). Which functions are tests and how a runner runs one is in the adapter's
//! file (`[test]`); the test is found in Locus's own scopes of the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use locus_dap::{Error as DapError, TestDef};
use locus_doc::Document;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::breakpoints::line_count;
use super::control::{stop_json, wait_for_any_stop};
use super::session::{Launched, one_shot_error, open};
use super::{BreakOnParam, Debugger, dap_error, debug_tool, resolve, spec};
use crate::{Cx, Effect, ErrorCode, ToolError, WhenToUse};

/// `debug_test`'s own timeout (docs/reference/tools.md: a test may take a minute).
pub const TEST_TIMEOUT: Duration = Duration::from_secs(60);

/// The default of its `timeoutMs`: inside [`TEST_TIMEOUT`], so the answer says what runs.
const DEFAULT_TEST_WAIT_MS: u64 = 58_000;

/// How long before the call's deadline the wait for the test's first stop gives up, so the
/// answer can say the test is running.
const WAIT_MARGIN: Duration = Duration::from_millis(500);

/// Parameters of `debug_test`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestParams {
    /// The test file (absolute, or relative to the workspace); the editor's file when omitted.
    #[serde(default)]
    #[schemars(example = &"tests/test_cart.py")]
    pub path: Option<String>,
    /// The test's name (`test_total`, `TestCart::test_total`, `TestTotal`); the test around
    /// `line` (or the editor's cursor) when omitted.
    #[serde(default)]
    #[schemars(example = &"test_total")]
    pub name: Option<String>,
    /// A 1-based line inside the test, instead of the editor's cursor line.
    #[serde(default)]
    #[schemars(example = 12, range(min = 1))]
    pub line: Option<u32>,
    /// Environment variables for the test run, on top of Locus's own.
    #[serde(default)]
    #[schemars(example = &example_env())]
    pub env: Option<BTreeMap<String, String>>,
    /// The debug adapter by name (debugpy, delve); by the file's language when omitted.
    #[serde(default)]
    #[schemars(example = &"debugpy")]
    pub adapter: Option<String>,
    /// How long to wait for the first stop or the test's end, in milliseconds (default
    /// 58000, inside the tool's 60 s timeout).
    #[serde(rename = "timeoutMs", default)]
    #[schemars(example = 30000, range(min = 1, max = 3_600_000))]
    pub timeout_ms: Option<u64>,
    /// Where exceptions stop the program in this session: `uncaught` (where it would crash),
    /// `raised` (at every exception, caught or not) or `never` (`raised` stops at a failing assertion's raise); default: debug_break_on's
    /// choice, else `uncaught`.
    #[serde(rename = "breakOn", default)]
    #[schemars(example = &"uncaught")]
    pub break_on: Option<BreakOnParam>,
}

fn example_env() -> BTreeMap<String, String> {
    BTreeMap::from([("DEBUG".to_string(), "1".to_string())])
}

debug_tool!(
    /// `debug_test`: debug one test.
    DebugTest,
    TestParams,
    {
        let mut s = spec(
            "debug_test",
            "Debug a test",
            "Debug one test under its runner (pytest for Python, go test -run for Go): the test function or method around the editor's cursor, or one named; answers where it first stopped, or whether it passed",
            WhenToUse {
                use_for: &[
                    "finding why a test fails by stopping inside it",
                    "running the test the user is looking at under the debugger",
                ],
                dont_use_for: &["running a whole test suite (use a shell)"],
                patterns: &[
                    "breakpoint_set in the test or the code it calls, then debug_test",
                    "with no breakpoint it runs the test to its end and answers passed",
                ],
            },
            true,
            Effect::Changes,
        );
        s.timeout = TEST_TIMEOUT;
        s
    },
    debug_test,
    test_summary
);

async fn debug_test(d: &Debugger, p: TestParams, cx: &Cx) -> Result<Value, ToolError> {
    let editor = cx.editor_context.as_deref();
    let editor_file = editor.and_then(|c| c.file.file_path()).map(|f| resolve(cx, f));
    let path = match (&p.path, &editor_file) {
        (Some(path), _) => resolve(cx, path),
        (None, Some(file)) => file.clone(),
        (None, None) => {
            return Err(ToolError::new(ErrorCode::NoEditor, "no test file: no editor is active")
                .with_hint("Give `path` (and `name` or `line`), or ask the user to put the cursor in the test")
                .with_details(json!({"parameters": ["path", "name", "line"]})));
        }
    };
    let count = line_count(&path)?;
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let language = locus_scopes::Registry::builtin().for_path(&path, text.lines().next());
    let def = match (&p.adapter, language) {
        (Some(name), _) => d.registry.get(name),
        (None, Some(language)) => d.registry.for_language(language.id()),
        (None, None) => {
            Err(locus_dap::Error::UnknownAdapter(format!("the file {}", path.display())))
        }
    }
    .map_err(dap_error)?
    .clone();
    let Some(test_def) = def.test.clone() else {
        let runners: Vec<String> = d
            .registry
            .all()
            .iter()
            .filter_map(|a| {
                Some(format!("{} ({})", a.test.as_ref()?.runner, a.languages.join(", ")))
            })
            .collect();
        return Err(ToolError::new(
            ErrorCode::Unsupported,
            format!("debug_test knows no test runner for {} ({})", path.display(), def.name),
        )
        .with_hint(format!(
            "Test runners Locus drives: {}; for another, debug_start the runner as a program",
            runners.join(", ")
        )));
    };
    let name = match &p.name {
        Some(name) => {
            // A runner told a name it does not have runs nothing and may say it passed (`go
            // test -run ^Typo$` prints PASS): check the name against the file's tests first.
            let tests = tests_in(&text, &path, &test_def);
            if !names_a_test(name, &tests) {
                return Err(ToolError::new(
                    ErrorCode::NotFound,
                    format!("`{}` has no test named `{name}`", path.display()),
                )
                .with_hint(if tests.is_empty() {
                    format!(
                        "The file has no test functions (named {}…); give the test file's path",
                        test_def.function_prefix
                    )
                } else {
                    format!("Its tests: {}", tests.join(", "))
                })
                .with_details(json!({"parameter": "name", "received": name, "tests": tests})));
            }
            if let Some(subtests) = missing_subtest(&text, &path, &test_def, name) {
                return Err(ToolError::new(
                    ErrorCode::NotFound,
                    format!("`{}` has no subtest `{name}`", path.display()),
                )
                .with_hint(format!("Its subtests: {}", subtests.join(", ")))
                .with_details(json!({"parameter": "name", "received": name, "tests": subtests})));
            }
            name.clone()
        }
        None => {
            let cursor_line = editor
                .filter(|_| editor_file.as_deref() == Some(path.as_path()))
                .map(|c| c.cursor.line);
            let Some(line) = p.line.or(cursor_line) else {
                return Err(ToolError::new(
                    ErrorCode::InvalidParams,
                    format!("which test of `{}`? give `name` or `line`", path.display()),
                )
                .with_hint(
                    "Give the test's `name`, a `line` inside it, or put the editor's cursor in it",
                )
                .with_details(json!({"parameters": ["name", "line"]})));
            };
            // `line` is at least 1 by its schema; the cursor's line is 1-based too.
            crate::params::line_within("line", line.max(1), count, &path.display().to_string())?;
            let line = line.max(1);
            test_at(&text, &path, line, &test_def)?
        }
    };
    if cx.host.one_shot() {
        return Err(one_shot_error());
    }
    let dir = path.parent().map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
    let workspace = cx
        .host
        .status()
        .workspace_folders
        .into_iter()
        .find(|f| path.starts_with(f))
        .unwrap_or_else(|| dir.clone());
    let mut overrides = json!({});
    if let Some(env) = &p.env {
        overrides["env"] = json!(env);
    }
    let arguments = def.test_arguments(&name, &path, &workspace, &overrides).map_err(dap_error)?;
    let launched = Launched {
        def,
        attach: false,
        server: None,
        arguments,
        // The adapter runs in the test's folder (Delve builds the package there).
        cwd: Some(dir),
        command_line: format!("{} {name}", test_def.runner),
        program: Some(path.display().to_string()),
        break_on: p.break_on.map(Into::into),
    };
    let mut data = open(d, launched, None).await?;
    data["test"] = json!({"name": name, "file": path, "runner": test_def.runner});
    let live = d.session(data["sessionId"].as_str())?;
    // Counted from now, after the adapter started (Delve builds the test first): the wait
    // ends before the call's deadline, so a test that does not stop answers `running`.
    let requested = Duration::from_millis(p.timeout_ms.unwrap_or(DEFAULT_TEST_WAIT_MS));
    let left = cx.deadline.saturating_duration_since(tokio::time::Instant::now());
    let after = first_stop_wait(requested, left);
    match wait_for_any_stop(&live, after).await {
        Ok(stop) => {
            let stop = stop_json(d, &live, &stop);
            for (k, v) in stop.as_object().into_iter().flatten() {
                data[k] = v.clone();
            }
        }
        Err(DapError::SessionEnded { exit_code, reason }) => {
            // What the runner printed tells a pass when the adapter gives no exit code
            // (Delve); read from the start, leaving output_read's own cursor alone.
            let out = live.session.read_output_since(Default::default());
            let printed = format!("{}{}", out.stdout, out.stderr);
            // pytest exits 4 (usage error: no such test) or 5 (no tests collected); `go test
            // -run` of no test prints "no tests to run" and PASS.
            if (matches!(exit_code, Some(4 | 5)) && test_def.runner.contains("pytest"))
                || (exit_code.is_none_or(|c| c == 0) && printed.contains("no tests to run"))
            {
                // The run is over and ran nothing: its session goes too.
                let _ = live.session.disconnect(Duration::from_secs(2)).await;
                d.remove(&live.id);
                let tests = tests_in(&text, &path, &test_def);
                return Err(ToolError::new(
                    ErrorCode::NotFound,
                    format!(
                        "{} ran no test named `{name}` in `{}`",
                        test_def.runner,
                        path.display()
                    ),
                )
                .with_hint(format!("The file's tests: {}", tests.join(", ")))
                .with_details(json!({
                    "parameter": "name",
                    "received": name,
                    "tests": tests,
                    "exitStatus": exit_code,
                })));
            }
            // The runner itself did not start (`No module named pytest`): that is no test
            // result, and the fix is an install.
            if exit_code != Some(0)
                && let Some(why) = runner_missing(&printed)
            {
                let _ = live.session.disconnect(Duration::from_secs(2)).await;
                d.remove(&live.id);
                return Err(ToolError::new(
                    ErrorCode::LaunchFailed,
                    format!("{} could not start: {why}", test_def.runner),
                )
                .with_hint(install_hint(&test_def.runner))
                .with_details(
                    json!({"runner": test_def.runner, "exitStatus": exit_code, "output": why}),
                ));
            }
            let passed = match exit_code {
                Some(code) => Some(code == 0),
                None if printed.contains("--- FAIL") || printed.contains("\nFAIL") => Some(false),
                None if printed.contains("\nPASS") || printed.starts_with("PASS") => Some(true),
                None => None,
            };
            data["state"] = json!("exited");
            data["exitStatus"] = json!(exit_code);
            data["passed"] = json!(passed);
            data["reason"] = json!(reason);
        }
        Err(DapError::WaitTimeout { .. }) => {
            data["state"] = json!("running");
            data["waitedMs"] = json!(after.as_millis() as u64);
        }
        Err(e) => return Err(dap_error(e)),
    }
    Ok(data)
}

/// The line of a runner's output that says the runner itself is missing: Python's `No module
/// named pytest`, a shell's `command not found`, Go's `executable file not found`.
fn runner_missing(printed: &str) -> Option<String> {
    const SIGNS: [&str; 3] = ["No module named", "command not found", "executable file not found"];
    printed
        .lines()
        .find(|line| SIGNS.iter().any(|sign| line.contains(sign)))
        .map(|line| line.trim().to_string())
}

/// How to install a runner.
fn install_hint(runner: &str) -> String {
    if runner.contains("pytest") {
        "Install pytest into the Python the tests run with (`python -m pip install pytest`), \
         then call debug_test again"
            .to_string()
    } else {
        format!("Install {runner} where the program runs, then call debug_test again")
    }
}

/// How long to wait for the test's first stop: what was asked, but ending [`WAIT_MARGIN`]
/// before the call's deadline (`left` away), and never less than a moment.
fn first_stop_wait(requested: Duration, left: Duration) -> Duration {
    requested.min(left.saturating_sub(WAIT_MARGIN)).max(Duration::from_millis(50))
}

/// The name of the test around a 1-based line, as the runner names it: the innermost
/// function or method whose name has the test prefix, qualified by the classes around it
/// when the runner joins them (`TestCart::test_total`).
fn test_at(text: &str, path: &Path, line: u32, test: &TestDef) -> Result<String, ToolError> {
    let language = locus_scopes::Registry::builtin().for_path(path, text.lines().next());
    let doc = Document::new(text, 0);
    let start = doc.line_start(line as usize - 1);
    // The first character of the line's code, inside the scope the line belongs to.
    let indent = text[start..].chars().take_while(|c| *c == ' ' || *c == '\t').count();
    let chain = locus_scopes::Source::new(doc, language).scopes_at(start + indent);
    let is_function = |kind: &str| matches!(kind, "Function" | "Method");
    let found = chain
        .iter()
        .rposition(|s| is_function(s.kind.name()) && s.name.starts_with(&test.function_prefix));
    let described = || {
        chain
            .iter()
            .map(|s| format!("{}:{}", s.kind.name(), s.name))
            .collect::<Vec<_>>()
            .join(" > ")
    };
    let Some(at) = found else {
        return Err(ToolError::new(
            ErrorCode::NotFound,
            format!(
                "line {line} of `{}` is not inside a test function (a function named {}…){}",
                path.display(),
                test.function_prefix,
                if chain.is_empty() {
                    String::new()
                } else {
                    format!(": it is in {}", described())
                }
            ),
        )
        .with_hint("Put the cursor (or `line`) inside a test function, or give the test's `name`")
        .with_details(json!({"line": line, "scopeHierarchy": described()})));
    };
    let classes: Vec<&str> =
        chain[..at].iter().filter(|s| s.kind.name() == "Class").map(|s| s.name.as_str()).collect();
    match &test.separator {
        Some(sep) => {
            let mut parts = classes;
            parts.push(&chain[at].name);
            Ok(parts.join(sep))
        }
        None if classes.is_empty() => Ok(chain[at].name.clone()),
        None => Err(ToolError::new(
            ErrorCode::NotFound,
            format!("`{}` is a method; {} runs only functions", chain[at].name, test.runner),
        )
        .with_details(json!({"line": line, "scopeHierarchy": described()}))),
    }
}

/// The tests of a file, named as the runner names them (`test_one`, `TestCart::test_total`):
/// the functions and methods with the test prefix, not those nested in a function, and no
/// methods when the runner runs only functions.
fn tests_in(text: &str, path: &Path, test: &TestDef) -> Vec<String> {
    fn walk(
        symbols: &[locus_scopes::Symbol],
        classes: &mut Vec<String>,
        test: &TestDef,
        out: &mut Vec<String>,
    ) {
        for s in symbols {
            match s.kind.name() {
                "Function" | "Method" => {
                    if !s.name.starts_with(&test.function_prefix) {
                        continue;
                    }
                    match &test.separator {
                        Some(sep) => {
                            let mut parts = classes.clone();
                            parts.push(s.name.clone());
                            out.push(parts.join(sep));
                        }
                        None if classes.is_empty() => out.push(s.name.clone()),
                        None => {}
                    }
                }
                "Class" => {
                    classes.push(s.name.clone());
                    walk(&s.children, classes, test, out);
                    classes.pop();
                }
                _ => {}
            }
        }
    }
    let language = locus_scopes::Registry::builtin().for_path(path, text.lines().next());
    let outline = locus_scopes::Source::new(Document::new(text, 0), language).outline();
    let mut out = Vec::new();
    walk(&outline.symbols, &mut Vec::new(), test, &mut out);
    out
}

/// The subtests of the test `name` names (`TestX/case`) when `name`'s subtest is not among
/// them: the literal names its body gives the adapter file's `subtest-call` (`t.Run("case",`),
/// with spaces as `_` as go test writes them. `None` when it is among them, when `name` names
/// no subtest, or when the test names none literally (computed names are the runner's to find).
fn missing_subtest(text: &str, path: &Path, test: &TestDef, name: &str) -> Option<Vec<String>> {
    let call = test.subtest_call.as_deref()?;
    let (base, wanted) = name.split_once('/')?;
    let wanted = wanted.split('/').next().unwrap_or(wanted).replace(' ', "_");
    let language = locus_scopes::Registry::builtin().for_path(path, text.lines().next());
    let outline = locus_scopes::Source::new(Document::new(text, 0), language).outline();
    let symbol = outline.symbols.iter().find(|s| s.name == base)?;
    let body = &text[symbol.range.start..symbol.range.end];
    let subtests: Vec<String> = body
        .split(call)
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(n, _)| n.replace(' ', "_")))
        .collect();
    (!subtests.is_empty() && !subtests.contains(&wanted))
        .then(|| subtests.iter().map(|s| format!("{base}/{s}")).collect())
}

/// Whether `name` names one of `tests`, allowing a parametrized case (`test_x[1]`) or a
/// subtest (`TestX/case`).
fn names_a_test(name: &str, tests: &[String]) -> bool {
    let base = name.split('[').next().unwrap_or(name);
    let base = base.split('/').next().unwrap_or(base);
    tests.iter().any(|t| t == name || t == base)
}

fn test_summary(d: &Value) -> String {
    let test = d["test"]["name"].as_str().unwrap_or("?");
    let session = d["sessionId"].as_str().unwrap_or("?");
    match d["state"].as_str() {
        Some("exited") => {
            let verdict = match d["passed"].as_bool() {
                Some(true) => "passed",
                Some(false) => "failed",
                None => "ended",
            };
            format!(
                "Test {test} {verdict} without stopping (session {session}, exit status {})",
                d["exitStatus"]
            )
        }
        Some("running") => format!(
            "Test {test} is running in session {session}; debug_wait_for_stop waits for its first stop"
        ),
        _ => {
            let p = &d["position"];
            format!(
                "Test {test} stopped ({}) at {}:{} in {} (session {session})",
                d["reason"].as_str().unwrap_or("?"),
                p["file"].as_str().unwrap_or("?"),
                p["line"],
                p["function"].as_str().unwrap_or("?")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pytest() -> TestDef {
        locus_dap::Registry::builtin().get("debugpy").unwrap().test.clone().unwrap()
    }

    fn gotest() -> TestDef {
        locus_dap::Registry::builtin().get("delve").unwrap().test.clone().unwrap()
    }

    const PY: &str = "import pytest\n\n\ndef helper():\n    return 1\n\n\ndef test_one():\n    x = helper()\n    assert x == 1\n\n\nclass TestCart:\n    def test_total(self):\n        assert True\n";

    #[test]
    fn the_test_around_a_line_is_named_as_pytest_names_it() {
        let path = Path::new("/w/test_cart.py");
        assert_eq!(test_at(PY, path, 9, &pytest()).unwrap(), "test_one");
        assert_eq!(test_at(PY, path, 8, &pytest()).unwrap(), "test_one");
        assert_eq!(test_at(PY, path, 15, &pytest()).unwrap(), "TestCart::test_total");
        let e = test_at(PY, path, 5, &pytest()).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotFound);
        assert!(e.message.contains("Function:helper"), "{}", e.message);
    }

    #[test]
    fn a_missing_runner_is_told_from_a_failed_test() {
        let printed = "/usr/bin/python3: No module named pytest\n";
        assert_eq!(
            runner_missing(printed).as_deref(),
            Some("/usr/bin/python3: No module named pytest")
        );
        assert_eq!(runner_missing("E   assert 12 == 13\nFAILED test_cart.py::test_total"), None);
        assert!(install_hint("python -m pytest").contains("pip install pytest"));
    }

    #[test]
    fn a_files_tests_are_listed_as_the_runner_names_them() {
        let path = Path::new("/w/test_cart.py");
        let tests = tests_in(PY, path, &pytest());
        assert_eq!(tests, ["test_one", "TestCart::test_total"]);
        assert!(names_a_test("TestCart::test_total", &tests));
        assert!(names_a_test("test_one[1-2]", &tests));
        assert!(!names_a_test("test_typo", &tests));
        assert!(!names_a_test("helper", &tests));
        let go = "package cart\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {}\n\nfunc helper() {}\n";
        let tests = tests_in(go, Path::new("/w/cart_test.go"), &gotest());
        assert_eq!(tests, ["TestTotal"]);
        assert!(names_a_test("TestTotal/empty", &tests));
        assert!(!names_a_test("TestTypo", &tests));
    }

    #[test]
    fn the_wait_for_the_first_stop_ends_before_the_deadline() {
        let ms = Duration::from_millis;
        // Delve took 5 s to build: the default 58 s would pass the 60 s deadline.
        assert_eq!(first_stop_wait(ms(DEFAULT_TEST_WAIT_MS), ms(55_000)), ms(54_500));
        assert_eq!(first_stop_wait(ms(3_000), ms(55_000)), ms(3_000));
        assert_eq!(first_stop_wait(ms(3_000), ms(0)), ms(50));
    }

    #[test]
    fn go_tests_are_functions() {
        let go = "package cart\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif total(nil) != 0 {\n\t\tt.Fatal(\"x\")\n\t}\n}\n";
        let path = Path::new("/w/cart_test.go");
        assert_eq!(test_at(go, path, 6, &gotest()).unwrap(), "TestTotal");
        assert!(test_at(go, path, 1, &gotest()).is_err());
    }

    #[test]
    fn a_go_subtest_the_test_does_not_name_is_missing_with_those_it_does() {
        let text = "package main\n\nimport \"testing\"\n\nfunc TestSplit(t *testing.T) {\n\tt.Run(\"empty input\", func(t *testing.T) {})\n\tt.Run(\"one\", func(t *testing.T) {})\n}\n\nfunc TestPlain(t *testing.T) {}\n";
        let path = Path::new("/w/split_test.go");
        let missing = |name: &str| missing_subtest(text, path, &gotest(), name);
        assert_eq!(
            missing("TestSplit/nope"),
            Some(vec!["TestSplit/empty_input".to_string(), "TestSplit/one".to_string()])
        );
        assert_eq!(missing("TestSplit/empty input"), None, "spaces are underscores to go test");
        assert_eq!(missing("TestSplit/one/deeper"), None);
        assert_eq!(missing("TestPlain/computed"), None, "no literal names: the runner decides");
        assert_eq!(missing("TestSplit"), None);
        assert_eq!(
            missing_subtest(text, path, &pytest(), "TestSplit/nope"),
            None,
            "pytest has no subtests"
        );
    }
}
