//! The editor-action tools against a host whose editor answers from a script: parameter forms,
//! position conversion, and every way an editor can fail to act.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use locus_context::EditorContext;
use locus_doc::{Document, PositionEncoding};
use serde_json::{Value, json};

use crate::context_support::context_at as at;
use crate::host::{ActionEditor, ActionError, Detached, Host, HostStatus, Mode};
use crate::{CallOptions, Options, standard};

type Script = dyn Fn(&str, &Value) -> Result<Value, ActionError> + Send + Sync;

struct Editor {
    name: &'static str,
    declared: &'static [&'static str],
    encoding: PositionEncoding,
    context: Option<EditorContext>,
    sent: Mutex<Vec<(String, Value)>>,
    answer: Box<Script>,
    folder: PathBuf,
}

impl Editor {
    fn new(
        folder: &Path,
        answer: impl Fn(&str, &Value) -> Result<Value, ActionError> + Send + Sync + 'static,
    ) -> Editor {
        Editor {
            name: "Neovim",
            declared: &[
                "symbol.rename",
                "file.rename",
                "editor.open_file",
                "diagnostic.collect",
                "setting.get",
                "setting.set",
                "edit.propose",
                "edit.propose.close",
            ],
            encoding: PositionEncoding::Utf8,
            context: None,
            sent: Mutex::new(Vec::new()),
            answer: Box::new(answer),
            folder: folder.to_path_buf(),
        }
    }

    fn sent(&self) -> Vec<(String, Value)> {
        self.sent.lock().unwrap().clone()
    }
}

impl Host for Editor {
    fn editor_context(&self) -> Result<Option<EditorContext>, String> {
        Ok(self.context.clone())
    }
    fn status(&self) -> HostStatus {
        let mut s = Detached::new().status();
        s.mode = Mode::Sidecar;
        s.editors_connected = 1;
        s.editor = Some(self.name.to_string());
        s.workspace_folders = vec![self.folder.clone()];
        s
    }
    fn document(&self, _: &Path) -> Option<(Document, String)> {
        None
    }
    fn warn(&self, _: &str) {}
    fn action_editor(&self) -> Option<ActionEditor> {
        Some(ActionEditor {
            name: self.name.to_string(),
            declared: self.declared.iter().map(|s| s.to_string()).collect(),
            encoding: self.encoding,
        })
    }
    fn editor_action(
        &self,
        action: &str,
        params: Value,
        wait: Duration,
    ) -> BoxFuture<'static, Result<Value, ActionError>> {
        self.sent.lock().unwrap().push((action.to_string(), params.clone()));
        let answer = (self.answer)(action, &params);
        Box::pin(async move {
            if let Err(ActionError::Timeout(_)) = answer {
                tokio::time::sleep(wait).await;
                return Err(ActionError::Timeout(wait));
            }
            answer
        })
    }
}

fn call(host: Arc<dyn Host>, tool: &str, args: Value) -> Value {
    call_with(host, tool, args, CallOptions::default())
}

fn call_with(host: Arc<dyn Host>, tool: &str, args: Value, options: CallOptions) -> Value {
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let catalogue = Arc::new(standard(Options { test_tools: false }));
    rt.block_on(catalogue.call(&host, tool, args, options)).envelope.to_json()
}

/// A folder with `a.py`, whose `greet` is defined once and `run` twice.
fn workspace(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("locus-action-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("a.py"),
        "def héllo_greet(name):\n    return name\n\n\nclass A:\n    def run(self):\n        pass\n\n\nclass B:\n    def run(self):\n        pass\n",
    )
    .unwrap();
    std::fs::canonicalize(&dir).unwrap()
}

/// The editor's context in the file `path` as it is on disk.
fn on_disk(path: &Path, line: u32, character: u32) -> EditorContext {
    at(path, &std::fs::read_to_string(path).unwrap(), line, character)
}

fn ok_rename(_: &str, p: &Value) -> Result<Value, ActionError> {
    let uri = p["uri"].as_str().unwrap_or_default().to_string();
    Ok(
        json!({"applied": true, "files": [{"uri": uri, "edits": 2}, {"uri": "file:///w/b.py", "edits": 1}]}),
    )
}

#[test]
fn each_action_is_named_after_its_tool() {
    use super::names::*;
    let catalogue = standard(Options { test_tools: false });
    let actions = [
        SYMBOL_RENAME,
        FILE_RENAME,
        SETTING_GET,
        SETTING_SET,
        EDITOR_OPEN_FILE,
        DIAGNOSTIC_COLLECT,
        EDIT_PROPOSE,
    ];
    for action in actions {
        let tool = action.replacen('.', "_", 1);
        assert!(catalogue.get(&tool).is_some(), "`{action}` names no tool (`{tool}`)");
    }
}

#[test]
fn no_editor_answers_e_no_editor_with_what_would_work() {
    let dir = workspace("none");
    let host: Arc<dyn Host> = Arc::new(Detached::new());
    for (tool, args) in [
        (
            "symbol_rename",
            json!({"path": dir.join("a.py"), "line": 1, "character": 5, "newName": "x"}),
        ),
        ("editor_open_file", json!({"path": dir.join("a.py")})),
        ("diagnostic_collect", json!({})),
        ("setting_get", json!({"key": "editor.tabSize"})),
    ] {
        let v = call(host.clone(), tool, args);
        assert_eq!(v["error"]["code"], "E_NO_EDITOR", "{tool}: {v}");
        let hint = v["error"]["hint"].as_str().unwrap();
        assert!(hint.contains("VS Code") && hint.contains("Neovim"), "{hint}");
    }
}

#[test]
fn rename_by_position_converts_to_the_editors_encoding() {
    let dir = workspace("pos");
    let editor = Arc::new(Editor::new(&dir, ok_rename));
    // Line 1, UTF-16 character 7 is the `_` after `héllo` (é: 1 UTF-16 unit, 2 bytes).
    let v = call(
        editor.clone(),
        "symbol_rename",
        json!({"path": "a.py", "line": 1, "character": 10, "newName": "hi"}),
    );
    assert_eq!(v["ok"], true, "{v}");
    let sent = editor.sent();
    assert_eq!(sent[0].0, "symbol.rename");
    assert_eq!(sent[0].1["position"], json!({"line": 0, "character": 10}));
    assert_eq!(sent[0].1["newName"], "hi");
    assert!(sent[0].1["uri"].as_str().unwrap().starts_with("file:///"));
    assert_eq!(v["data"]["edits"], 3);
    assert_eq!(v["data"]["files"][1], json!({"path": "/w/b.py", "edits": 1}));
    assert_eq!(v["data"]["position"], json!({"line": 1, "character": 10}));
}

#[test]
fn rename_by_name_finds_the_one_symbol() {
    let dir = workspace("name");
    let editor = Arc::new(Editor::new(&dir, ok_rename));
    let v = call(
        editor.clone(),
        "symbol_rename",
        json!({"path": "a.py", "name": "héllo_greet", "newName": "hi"}),
    );
    assert_eq!(v["ok"], true, "{v}");
    // `def ` is 4 bytes: the name starts at character 4 in any encoding.
    assert_eq!(editor.sent()[0].1["position"], json!({"line": 0, "character": 4}));
    assert_eq!(v["data"]["oldName"], "héllo_greet");
}

#[test]
fn rename_by_name_of_several_takes_the_one_holding_the_cursor() {
    let dir = workspace("several");
    let mut editor = Editor::new(&dir, ok_rename);
    editor.context = Some(on_disk(&dir.join("a.py"), 12, 9));
    let editor = Arc::new(editor);
    let v = call(
        editor.clone(),
        "symbol_rename",
        json!({"path": "a.py", "name": "run", "newName": "go"}),
    );
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(editor.sent()[0].1["position"], json!({"line": 10, "character": 8}));

    // The cursor elsewhere: the candidates, with their lines.
    let mut editor = Editor::new(&dir, ok_rename);
    editor.context = Some(on_disk(&dir.join("a.py"), 1, 1));
    let v = call(
        Arc::new(editor),
        "symbol_rename",
        json!({"path": "a.py", "name": "run", "newName": "go"}),
    );
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("lines 6, 11"), "{v}");
    assert_eq!(v["error"]["details"]["candidates"][1]["line"], 11);

    let v = call(
        Arc::new(Editor::new(&dir, ok_rename)),
        "symbol_rename",
        json!({"path": "a.py", "name": "nope", "newName": "go"}),
    );
    assert_eq!(v["error"]["code"], "E_NOT_FOUND", "{v}");
}

#[test]
fn rename_takes_exactly_one_form() {
    let dir = workspace("forms");
    let editor = Arc::new(Editor::new(&dir, ok_rename));
    for args in [
        json!({"path": "a.py", "newName": "x"}),
        json!({"path": "a.py", "line": 1, "character": 5, "name": "run", "newName": "x"}),
        json!({"path": "a.py", "line": 1, "newName": "x"}),
        json!({"path": "a.py", "line": 1, "character": 5, "newName": " "}),
        json!({"path": "a.py", "line": 99, "character": 1, "newName": "x"}),
    ] {
        let v = call(editor.clone(), "symbol_rename", args.clone());
        assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{args}: {v}");
    }
    let v = call(
        editor.clone(),
        "symbol_rename",
        json!({"path": "a.py", "line": 99, "character": 1, "newName": "x"}),
    );
    assert!(v["error"]["message"].as_str().unwrap().contains("has 13 lines"), "{v}");
    assert!(editor.sent().is_empty(), "nothing reaches the editor");
}

#[test]
fn undeclared_actions_answer_unsupported_with_the_editors_way() {
    let dir = workspace("undeclared");
    let mut helix = Editor::new(&dir, ok_rename);
    helix.name = "helix";
    helix.declared = &[];
    let helix = Arc::new(helix);
    let v = call(
        helix.clone(),
        "symbol_rename",
        json!({"path": "a.py", "line": 1, "character": 5, "newName": "x"}),
    );
    assert_eq!(v["error"]["code"], "E_UNSUPPORTED", "{v}");
    let hint = v["error"]["hint"].as_str().unwrap();
    assert!(
        hint.starts_with("Helix has no plugin API for this") && hint.contains("<space>r"),
        "{hint}"
    );
    assert!(helix.sent().is_empty(), "an undeclared action is never sent");

    let mut nvim = Editor::new(&dir, ok_rename);
    nvim.declared = &["symbol.rename"];
    let v = call(Arc::new(nvim), "setting_get", json!({"key": "editor.tabSize"}));
    assert_eq!(v["error"]["code"], "E_UNSUPPORTED", "{v}");
    assert!(v["error"]["hint"].as_str().unwrap().contains("init.lua"), "{v}");
}

#[test]
fn the_editors_refusals_and_silence_become_clear_errors() {
    let dir = workspace("errors");
    let refuses = Arc::new(Editor::new(&dir, |_, _| {
        Err(ActionError::Unsupported { message: "no".into(), hint: Some("do it by hand".into()) })
    }));
    let v = call(refuses, "setting_get", json!({"key": "k"}));
    assert_eq!(
        (v["error"]["code"].as_str(), v["error"]["hint"].as_str()),
        (Some("E_UNSUPPORTED"), Some("do it by hand")),
        "{v}"
    );

    let fails = Arc::new(Editor::new(&dir, |_, _| {
        Err(ActionError::Failed {
            message: "cannot rename a keyword".into(),
            data: Some(json!({"code": "E_INVALID_PARAMS"})),
        })
    }));
    let v = call(
        fails,
        "symbol_rename",
        json!({"path": "a.py", "line": 1, "character": 1, "newName": "x"}),
    );
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("cannot rename a keyword"));

    let silent = Arc::new(Editor::new(&dir, |_, _| Err(ActionError::Timeout(Duration::ZERO))));
    let options =
        CallOptions { timeout: Some(Duration::from_millis(800)), ..CallOptions::default() };
    let v = call_with(silent, "editor_open_file", json!({"path": "a.py", "line": 2}), options);
    assert_eq!(v["error"]["code"], "E_TIMEOUT", "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("Neovim did not answer `editor.open_file` within"), "{message}");
}

#[test]
fn diagnostics_are_one_based_utf16_and_carry_no_editor_context() {
    let dir = workspace("diag");
    let uri = url::Url::from_file_path(dir.join("a.py")).unwrap().to_string();
    let mut editor = Editor::new(&dir, move |_, _| {
        // Byte 10 of line 0 (after `def héllo`) is UTF-16 character 9.
        Ok(json!([{"uri": uri, "diagnostics": [
            {"range": {"start": {"line": 0, "character": 10}, "end": {"line": 0, "character": 16}}, "severity": 2, "message": "unused", "source": "pyright"},
            {"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 1}}, "message": "bad"}]},
            {"uri": "file:///elsewhere.py", "diagnostics": []}]))
    });
    editor.context = Some(at(Path::new("/x.py"), "x = 1\n", 1, 1));
    let editor = Arc::new(editor);
    let v = call(editor.clone(), "diagnostic_collect", json!({"path": "a.py"}));
    assert_eq!(v["ok"], true, "{v}");
    assert!(v.get("editorContext").is_none(), "{v}");
    assert_eq!(editor.sent()[0].1["uri"].as_str().map(|u| u.ends_with("/a.py")), Some(true));
    let files = v["data"]["files"].as_array().unwrap();
    assert_eq!(files.len(), 1, "files without problems are left out");
    let first = &files[0]["diagnostics"][0];
    assert_eq!(first["start"], json!({"line": 1, "character": 10}));
    assert_eq!(first["severity"], "warning");
    assert_eq!(files[0]["diagnostics"][1]["severity"], "error");
    assert_eq!(v["data"]["counts"], json!({"error": 1, "warning": 1, "information": 0, "hint": 0}));
    // Other editor tools still carry it.
    let v = call(editor, "editor_open_file", json!({"path": "a.py"}));
    assert!(v.get("editorContext").is_some(), "{v}");
}

#[test]
fn file_rename_and_settings_send_the_documented_params() {
    let dir = workspace("files");
    std::fs::write(dir.join("b.py"), "").unwrap();
    let editor = Arc::new(Editor::new(&dir, |action, p| match action {
        "file.rename" => Ok(
            json!({"applied": true, "importsUpdated": true, "files": [{"uri": "file:///w/c.py", "edits": 1}]}),
        ),
        "setting.set" => {
            Ok(json!({"key": p["key"], "scope": p["scope"], "value": p["value"], "previous": 4}))
        }
        _ => Ok(json!({"value": 4})),
    }));
    let v = call(editor.clone(), "file_rename", json!({"path": "a.py", "newPath": "b.py"}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "an existing target is refused: {v}");
    let v = call(editor.clone(), "file_rename", json!({"path": "a.py", "newPath": "sub/c.py"}));
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["data"]["importsUpdated"], true);
    assert_eq!(v["data"]["to"], dir.join("sub/c.py").display().to_string());
    let sent = editor.sent();
    assert_eq!(sent[0].1["updateImports"], true);
    assert!(sent[0].1["newUri"].as_str().unwrap().ends_with("/sub/c.py"));
    assert!(std::fs::metadata(dir.join("a.py")).is_ok(), "Locus itself moved nothing");

    let v = call(editor.clone(), "setting_set", json!({"key": "editor.tabSize", "value": 2}));
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(
        editor.sent()[1].1,
        json!({"key": "editor.tabSize", "value": 2, "scope": "workspace"})
    );
    assert_eq!(v["data"]["previous"], 4);
    let v = call(editor.clone(), "setting_get", json!({"key": "editor.tabSize", "scope": "user"}));
    assert_eq!(v["data"], json!({"key": "editor.tabSize", "value": 4}), "{v}");
    assert_eq!(editor.sent()[2].1, json!({"key": "editor.tabSize", "scope": "user"}));
    let v = call(editor, "setting_get", json!({"key": "k", "scope": "global"}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{v}");
}

#[test]
fn answers_in_the_vs_code_extensions_shape_are_read() {
    let dir = workspace("vscode");
    let editor = Arc::new(Editor::new(&dir, |action, _| match action {
        "symbol.rename" => Ok(
            json!({"applied": true, "newName": "x", "files": ["file:///w/a.ts", "file:///w/b.ts"], "edits": 5}),
        ),
        _ => {
            Ok(json!({"renamed": true, "importsUpdated": true, "changedFiles": ["file:///w/c.ts"]}))
        }
    }));
    let v = call(
        editor.clone(),
        "symbol_rename",
        json!({"path": "a.py", "line": 1, "character": 5, "newName": "x"}),
    );
    assert_eq!(v["data"]["edits"], 5, "{v}");
    assert_eq!(v["data"]["files"][1]["path"], "/w/b.ts");
    let v = call(editor, "file_rename", json!({"path": "a.py", "newPath": "z.py"}));
    assert_eq!(
        (&v["data"]["importsUpdated"], &v["data"]["files"][0]["path"]),
        (&json!(true), &json!("/w/c.ts")),
        "{v}"
    );
}

#[test]
fn the_summary_says_which_files_the_editor_left_unsaved() {
    let dir = workspace("unsaved");
    let editor: Arc<dyn Host> = Arc::new(Editor::new(&dir, |_, _| {
        Ok(
            json!({"applied": true, "files": [{"uri": "file:///w/a.py", "edits": 1}], "unsaved": ["file:///w/a.py"]}),
        )
    }));
    let rt =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let catalogue = Arc::new(standard(Options { test_tools: false }));
    let args = json!({"path": "a.py", "line": 1, "character": 5, "newName": "x"});
    let outcome =
        rt.block_on(catalogue.call(&editor, "symbol_rename", args, CallOptions::default()));
    assert_eq!(
        outcome.summary,
        "Renamed the symbol at 1:5 to `x`: 1 edits in 1 files (a.py); left unsaved in the editor (the disk has the old text): a.py"
    );
}

/// `E_UNSUPPORTED` is only for what the editor cannot do: an editor that tried and failed
/// answers the code it named, else `E_INTERNAL`, keeping its message and hint; a language
/// server of the editor's that did not answer is `E_TIMEOUT`; a closed connection
/// `E_NO_EDITOR`.
#[test]
fn an_editor_that_tried_and_failed_is_not_unsupported() {
    let dir = workspace("failed");
    let rename = json!({"path": "a.py", "line": 1, "character": 5, "newName": "x"});

    // VS Code's -32803 "did not rename", or an internal error of the editor's.
    let fails = Arc::new(Editor::new(&dir, |_, _| {
        Err(ActionError::Failed { message: "the rename was not applied".into(), data: None })
    }));
    let v = call(fails, "symbol_rename", rename.clone());
    assert_eq!(v["error"]["code"], "E_INTERNAL", "{v}");
    let message = v["error"]["message"].as_str().unwrap();
    assert_eq!(message, "Neovim could not do `symbol.rename`: the rename was not applied");
    assert!(v["error"]["hint"].as_str().unwrap().contains("tried and failed"), "{v}");
    assert_eq!(v["error"]["details"]["failedIn"], "editor", "{v}");

    // The editor's hint is kept.
    let hinted = Arc::new(Editor::new(&dir, |_, _| {
        Err(ActionError::Failed {
            message: "pyright: internal error".into(),
            data: Some(json!({"hint": "restart pyright (:LspRestart)"})),
        })
    }));
    let v = call(hinted, "symbol_rename", rename.clone());
    assert_eq!(
        (v["error"]["code"].as_str(), v["error"]["hint"].as_str()),
        (Some("E_INTERNAL"), Some("restart pyright (:LspRestart)")),
        "{v}"
    );

    // One of the editor's language servers did not answer it in time (Neovim says E_TIMEOUT).
    let slow = Arc::new(Editor::new(&dir, |_, _| {
        Err(ActionError::Failed {
            message: "pyright did not answer workspace/willRenameFiles within 15000 ms".into(),
            data: Some(json!({"code": "E_TIMEOUT"})),
        })
    }));
    let v = call(slow, "file_rename", json!({"path": "a.py", "newPath": "b.py"}));
    assert_eq!(v["error"]["code"], "E_TIMEOUT", "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("15000 ms"), "{v}");
    assert!(v["error"]["hint"].as_str().unwrap().contains("language servers"), "{v}");

    // The connection closed before the answer.
    let gone = Arc::new(Editor::new(&dir, |_, _| Err(ActionError::NoEditor)));
    let v = call(gone, "editor_open_file", json!({"path": "a.py"}));
    assert_eq!(v["error"]["code"], "E_NO_EDITOR", "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("connection to Neovim is closed"));
}

/// The path and line checks are the catalogue's own (`paths::resolve_file`,
/// `params::line_within`): each place looked is listed once, a folder is refused by name, and
/// a line past the end names the file's line count.
#[test]
fn paths_and_lines_are_checked_as_every_tool_checks_them() {
    // The workspace folder is the working directory: one place to look, listed once.
    let cwd = std::env::current_dir().unwrap();
    let editor = Arc::new(Editor::new(&cwd, |_, _| Ok(json!({}))));
    let v = call(editor.clone(), "editor_open_file", json!({"path": "no-such-file.py"}));
    assert_eq!(v["error"]["code"], "E_NOT_FOUND", "{v}");
    assert_eq!(
        v["error"]["details"]["looked"],
        json!([cwd.join("no-such-file.py").display().to_string()]),
        "{v}"
    );
    let v = call(editor.clone(), "editor_open_file", json!({"path": "src"}));
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{v}");
    assert!(v["error"]["message"].as_str().unwrap().ends_with("is a folder, not a file"), "{v}");
    assert!(editor.sent().is_empty(), "nothing was asked of the editor");

    let dir = workspace("lines");
    let editor = Arc::new(Editor::new(&dir, |_, _| Ok(json!({}))));
    let v = call(
        editor.clone(),
        "symbol_rename",
        json!({"path": "a.py", "line": 99, "character": 1, "newName": "x"}),
    );
    assert_eq!(v["error"]["code"], "E_INVALID_PARAMS", "{v}");
    assert_eq!(
        (&v["error"]["details"]["parameter"], &v["error"]["details"]["lineCount"]),
        (&json!("line"), &json!(13)),
        "{v}"
    );
    assert!(v["error"]["message"].as_str().unwrap().contains("past the end"), "{v}");
    let v = call(editor.clone(), "editor_open_file", json!({"path": "a.py", "line": 14}));
    assert_eq!(v["error"]["details"]["received"], 14, "{v}");
    assert!(editor.sent().is_empty(), "nothing was asked of the editor");
}

#[test]
fn a_proposal_comes_back_as_the_user_left_it_and_nothing_is_written() {
    let dir = workspace("propose");
    std::fs::write(dir.join("a.py"), "old\n").unwrap();
    let editor = Arc::new(Editor::new(&dir, |_, p| {
        Ok(match p["newText"].as_str() {
            Some("reject me\n") => json!({"accepted": false}),
            _ => json!({"accepted": true, "text": "new, edited\n"}),
        })
    }));
    let v = call(editor.clone(), "edit_propose", json!({"path": "a.py", "newContent": "new\n"}));
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["data"]["accepted"], true);
    assert_eq!(v["data"]["content"], "new, edited\n");
    assert_eq!(v["data"]["edited"], true);
    let (action, sent) = &editor.sent()[0];
    assert_eq!(action, "edit.propose");
    assert!(sent["uri"].as_str().unwrap().ends_with("/a.py"), "{sent}");
    assert_eq!(sent["newText"], "new\n");
    assert_eq!(std::fs::read_to_string(dir.join("a.py")).unwrap(), "old\n", "Locus wrote the file");

    let v =
        call(editor.clone(), "edit_propose", json!({"path": "b.py", "newContent": "reject me\n"}));
    assert_eq!(v["data"]["accepted"], false, "a new file may be proposed: {v}");
    assert!(v["data"].get("content").is_none());
    assert!(!dir.join("b.py").exists());
}
