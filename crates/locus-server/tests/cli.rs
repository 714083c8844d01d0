//! The command line as a user runs it: the `locus` binary, its stdout, stderr and exit code.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn locus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_locus")).args(args).current_dir(root()).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Parses one JSON object per line, with the machine-specific root replaced by `$ROOT`.
fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    let text = stdout(o).replace(&root().display().to_string(), "$ROOT");
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn context_of_a_typescript_position() {
    let out = locus(&["context", "tests/fidelity/files/ts/odd_cases.ts:60:11"]);
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_json_snapshot!(json_lines(&out));
}

#[test]
fn context_answers_in_argument_order_across_files() {
    let out = locus(&[
        "context",
        "tests/scopes/markdown/guide.md:24:1",
        "tests/fidelity/files/py/odd_cases.py:1:1",
        "tests/scopes/markdown/guide.md:1:1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = json_lines(&out);
    let hierarchies: Vec<_> = lines
        .iter()
        .map(|l| l["symbols"]["scopeHierarchy"].as_str().unwrap().to_string())
        .collect();
    insta::assert_debug_snapshot!(hierarchies);
    assert_eq!(lines[1]["file"]["languageId"], "python");
}

#[test]
fn plain_text_gets_a_warning_and_no_scopes() {
    let out = locus(&["context", "Cargo.lock:3"]);
    // Cargo.lock is registered as TOML; a file with no language is plain text.
    assert!(out.status.success());
    let out = locus(&["context", ".gitignore:1:1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_json_snapshot!(json_lines(&out)[0]["symbols"]);
}

#[test]
fn positions_past_the_end_are_clamped_not_errors() {
    let out = locus(&["context", "tests/scopes/javascript/router.js:9999:9999"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let ctx = &json_lines(&out)[0];
    assert_eq!(ctx["cursor"]["line"], ctx["file"]["lineCount"]);
}

#[test]
fn bad_arguments_name_the_argument_and_exit_2() {
    for (args, needle) in [
        (vec!["context"], "<PATH:LINE[:COL]>"),
        (vec!["context", "src/app.ts"], "`src/app.ts`: no line number"),
        (vec!["context", "a.ts:x"], "`a.ts:x`: line `x` is not a positive whole number"),
        (vec!["context", "a.ts:0:1"], "`a.ts:0:1`: line is 1-based"),
        (vec!["context", "a.ts:3:0"], "`a.ts:3:0`: column is 1-based"),
        (vec!["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        (vec!["outline"], "<PATH>"),
        (vec!["outline", "--deep", "a.ts"], "unexpected argument '--deep'"),
        (vec![], "Usage: locus <COMMAND>"),
    ] {
        let out = locus(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    }
}

#[test]
fn unreadable_files_exit_1_and_print_nothing() {
    let out = locus(&["context", "tests/scopes/javascript/router.js:1", "no/such/file.ts:1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot read `no/such/file.ts`"), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "partial output on error");
}

#[test]
fn outline_as_tree_and_as_document_symbols() {
    let out = locus(&["outline", "--tree", "tests/scopes/typescript/service.ts"]);
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_snapshot!(stdout(&out));
    let out = locus(&["outline", "tests/scopes/markdown/guide.md"]);
    let symbols: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(symbols[0]["name"], "# 🚀 Getting Started");
    assert_eq!(symbols[0]["kind"], "String");
    assert_eq!(symbols[0]["range"]["start"], serde_json::json!({"line": 3, "character": 0}));
}

#[test]
fn every_subcommand_answers_help_with_its_own_options() {
    for (command, option) in [
        ("lsp", "--mcp-port"),
        ("mcp", "--workspace"),
        ("call", "--param"),
        ("context", "PATH:LINE[:COL]"),
        ("outline", "--tree"),
        ("syntax", "PATH"),
        ("tools", "Usage: locus tools"),
        ("status", "Usage: locus status"),
        ("languages", "Usage: locus languages"),
        ("completions", "bash"),
    ] {
        let out = locus(&[command, "--help"]);
        assert!(out.status.success(), "{command} --help: {}", stderr(&out));
        assert!(stdout(&out).contains(option), "{command} --help:\n{}", stdout(&out));
        let out = locus(&["help", command]);
        assert!(stdout(&out).contains(option), "help {command}:\n{}", stdout(&out));
    }
    let out = locus(&["--help"]);
    assert!(out.status.success());
    for command in ["lsp", "mcp", "call", "tools", "status", "context", "outline", "completions"] {
        assert!(stdout(&out).contains(command), "--help lists {command}:\n{}", stdout(&out));
    }
    for args in [&["--version"][..], &["version"]] {
        let out = locus(args);
        assert_eq!(stdout(&out), format!("locus {}\n", env!("CARGO_PKG_VERSION")), "{args:?}");
    }
}

#[test]
fn mistyped_commands_and_options_get_a_suggestion() {
    for (args, tip) in [
        (&["contxt", "a.ts:1"][..], "similar subcommand exists: 'context'"),
        (&["lsp", "--mcp-prt", "3"], "similar argument exists: '--mcp-port'"),
        (&["call", "editor_get_context", "--parm", "a=b"], "similar argument exists: '--param'"),
        (&["outline", "--tre", "a.ts"], "similar argument exists: '--tree'"),
    ] {
        let out = locus(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(tip), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    }
}

#[test]
fn completion_scripts_for_bash_zsh_and_fish() {
    for (shell, needle) in
        [("bash", "complete -F _locus"), ("zsh", "#compdef locus"), ("fish", "complete -c locus")]
    {
        let out = locus(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(script.contains(needle), "{shell}: no `{needle}`");
        for word in ["context", "outline", "mcp-port", "workspace"] {
            assert!(script.contains(word), "{shell} completes {word}");
        }
    }
    let out = locus(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("possible values: bash"), "{}", stderr(&out));
}

/// `locus tools | head -1`: the reader stops early; Locus ends quietly with 0, as a filter does.
#[test]
fn a_reader_that_stops_early_is_no_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_locus"))
        .arg("tools")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Closed before the listing (well over a pipe's 64 KiB) can be written whole.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}
