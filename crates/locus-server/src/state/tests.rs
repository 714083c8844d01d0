use std::time::Duration;

use super::document::AWAKE_TEXT_BUDGET;
use super::*;
use locus_context::SymbolSource;
use locus_scopes::{Registry, Source, SymbolKind};

const PY: &str =
    "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n";

fn pos(line: u32, character: u32) -> Position {
    Position::new(line, character)
}

fn insert(at: Position, text: &str) -> Change {
    Change { range: Some(Range { start: at, end: at }), text: text.into() }
}

fn ctx(s: &mut EditorState, uri: Option<&str>) -> Option<EditorContext> {
    s.context(ContextQuery { uri, position: None, encoding: PositionEncoding::Utf16 }).unwrap()
}

fn chain(c: &EditorContext) -> String {
    c.symbols.hierarchy()
}

fn cursor_at(line: u32, character: u32) -> CursorUpdate {
    CursorUpdate {
        version: None,
        position: pos(line, character),
        selections: Vec::new(),
        encoding: PositionEncoding::Utf16,
    }
}

#[test]
fn edits_in_each_encoding_keep_the_mirror_exact() {
    let mut s = EditorState::new();
    s.open("untitled:a", "plaintext", 1, "héllo 😀 world\n");
    // Right after the emoji: utf-8 byte 11, utf-16 unit 8, utf-32 character 7.
    s.change("untitled:a", Some(2), &[insert(pos(0, 11), "A")], PositionEncoding::Utf8).unwrap();
    s.change("untitled:a", Some(3), &[insert(pos(0, 9), "B")], PositionEncoding::Utf16).unwrap();
    s.change("untitled:a", Some(4), &[insert(pos(0, 9), "C")], PositionEncoding::Utf32).unwrap();
    assert_eq!(s.text("untitled:a").unwrap(), (4, "héllo 😀ABC world\n".to_string()));
}

#[test]
fn without_a_plugin_the_last_edit_is_the_cursor() {
    let mut s = EditorState::new();
    s.open("untitled:p.py", "python", 1, PY);
    s.change(
        "untitled:p.py",
        Some(2),
        &[insert(pos(5, 8), "x = 0\n        ")],
        PositionEncoding::Utf16,
    )
    .unwrap();
    let c = ctx(&mut s, None).unwrap();
    assert_eq!((c.cursor.line, c.cursor.character), (7, 9));
    assert_eq!(chain(&c), "Class:A > Method:g");
    assert_eq!(c.symbols.source, SymbolSource::TreeSitter);
}

#[test]
fn with_a_plugin_edits_shift_the_cursor() {
    let mut s = EditorState::new();
    s.set_cursor_plugin(true);
    s.open("untitled:p.py", "python", 1, PY);
    s.set_cursor("untitled:p.py", cursor_at(2, 8)).unwrap();
    // A line inserted above the cursor moves it down; an edit after it does not move it.
    s.change(
        "untitled:p.py",
        Some(2),
        &[insert(pos(0, 0), "import os\n")],
        PositionEncoding::Utf16,
    )
    .unwrap();
    s.change("untitled:p.py", Some(3), &[insert(pos(6, 0), "# tail\n")], PositionEncoding::Utf16)
        .unwrap();
    let c = ctx(&mut s, None).unwrap();
    assert_eq!((c.cursor.line, c.cursor.character), (4, 9));
    assert_eq!(chain(&c), "Class:A > Method:f");
}

#[test]
fn a_cursor_ahead_of_the_mirror_waits_for_its_version() {
    let mut s = EditorState::new();
    s.set_cursor_plugin(true);
    s.open("untitled:p.py", "python", 1, PY);
    // The editor typed a line and moved on before its didChange arrived.
    s.set_cursor("untitled:p.py", CursorUpdate { version: Some(2), ..cursor_at(6, 3) }).unwrap();
    s.change("untitled:p.py", Some(2), &[insert(pos(6, 0), "zzzz\n")], PositionEncoding::Utf16)
        .unwrap();
    let c = ctx(&mut s, None).unwrap();
    assert_eq!((c.cursor.line, c.cursor.character), (7, 4));
}

#[test]
fn selections_are_reported_with_their_text() {
    let mut s = EditorState::new();
    s.open("untitled:p.py", "python", 1, PY);
    let sel = Range { start: pos(1, 4), end: pos(1, 9) };
    s.set_cursor("untitled:p.py", CursorUpdate { selections: vec![sel], ..cursor_at(1, 9) })
        .unwrap();
    let c = ctx(&mut s, None).unwrap();
    assert!(
        matches!(c.selection, locus_context::Selection::Text { ref text, .. } if text == "def f")
    );
}

#[test]
fn dirty_compares_with_the_saved_text() {
    let dir = std::env::temp_dir().join(format!("locus-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("d.py");
    std::fs::write(&file, PY).unwrap();
    let uri = format!("file://{}", file.display());
    let mut s = EditorState::new();
    s.open(&uri, "python", 1, PY);
    assert!(!ctx(&mut s, Some(&uri)).unwrap().file.is_dirty);
    s.change(&uri, Some(2), &[insert(pos(0, 0), "#")], PositionEncoding::Utf16).unwrap();
    assert!(ctx(&mut s, Some(&uri)).unwrap().file.is_dirty);
    let undo =
        Change { range: Some(Range { start: pos(0, 0), end: pos(0, 1) }), text: String::new() };
    s.change(&uri, Some(3), &[undo], PositionEncoding::Utf16).unwrap();
    assert!(!ctx(&mut s, Some(&uri)).unwrap().file.is_dirty, "back to the saved text");
    s.change(&uri, Some(4), &[insert(pos(0, 0), "#")], PositionEncoding::Utf16).unwrap();
    s.saved(&uri, None).unwrap();
    assert!(!ctx(&mut s, Some(&uri)).unwrap().file.is_dirty);
    // Opened with text that differs from the disk: dirty from the start.
    s.open(&uri, "python", 5, "changed\n");
    assert!(ctx(&mut s, Some(&uri)).unwrap().file.is_dirty);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn raw(
    name: &str,
    kind: SymbolKind,
    a: (u32, u32),
    b: (u32, u32),
    children: Vec<RawSymbol>,
) -> RawSymbol {
    RawSymbol {
        name: name.into(),
        kind,
        range: Range { start: pos(a.0, a.1), end: pos(b.0, b.1) },
        selection: None,
        children,
    }
}

#[test]
fn pushed_symbols_are_adopted_for_their_version_and_follow_edits() {
    let mut s = EditorState::new();
    let uri = "untitled:p.py";
    s.open(uri, "python", 1, PY);
    s.set_cursor(uri, cursor_at(2, 8)).unwrap();
    assert_eq!(ctx(&mut s, None).unwrap().symbols.source, SymbolSource::TreeSitter);
    let pushed = vec![raw(
        "A",
        SymbolKind::Class,
        (0, 0),
        (5, 16),
        vec![raw("f()", SymbolKind::Function, (1, 4), (2, 16), vec![])],
    )];
    // A push for a version the mirror has not reached waits; tree-sitter answers meanwhile.
    assert_eq!(
        s.set_symbols(uri, 2, pushed.clone(), PositionEncoding::Utf16).unwrap(),
        SymbolsOutcome::Pending
    );
    assert_eq!(ctx(&mut s, None).unwrap().symbols.source, SymbolSource::TreeSitter);
    s.change(uri, Some(2), &[insert(pos(5, 0), "#")], PositionEncoding::Utf16).unwrap();
    s.set_cursor(uri, cursor_at(2, 8)).unwrap();
    let c = ctx(&mut s, None).unwrap();
    assert_eq!(
        (chain(&c).as_str(), c.symbols.source),
        ("Class:A > Function:f()", SymbolSource::LanguageServer)
    );
    assert_eq!(c.symbols.total_in_document, 2);
    // Typing keeps the editor's symbols (kinds do not flip to tree-sitter's `Method`), their
    // ranges shifted by the edits: two lines inserted above `f` move it down by two.
    s.change(uri, Some(3), &[insert(pos(1, 0), "    x = 1\n    y = 2\n")], PositionEncoding::Utf16)
        .unwrap();
    s.set_cursor(uri, cursor_at(4, 8)).unwrap();
    let c = ctx(&mut s, None).unwrap();
    assert_eq!(
        (chain(&c).as_str(), c.symbols.source),
        ("Class:A > Function:f()", SymbolSource::LanguageServer)
    );
    let f = &c.symbols.containing_scopes[1];
    assert_eq!((f.start_line, f.end_line), (4, 5), "1-based lines of f after the insert");
    // Typing at the end of `f` keeps the cursor inside it.
    s.change(uri, Some(4), &[insert(pos(4, 16), " + 1")], PositionEncoding::Utf16).unwrap();
    s.set_cursor(uri, cursor_at(4, 20)).unwrap();
    assert_eq!(chain(&ctx(&mut s, None).unwrap()), "Class:A > Function:f()");
    // A push for an older version is never adopted against the new text.
    assert_eq!(
        s.set_symbols(uri, 1, pushed.clone(), PositionEncoding::Utf16).unwrap(),
        SymbolsOutcome::Stale { current: 4 }
    );
    // A push for the current version replaces the adopted one.
    let renamed = vec![raw("B", SymbolKind::Class, (0, 0), (7, 16), vec![])];
    assert_eq!(
        s.set_symbols(uri, 4, renamed, PositionEncoding::Utf16).unwrap(),
        SymbolsOutcome::Used
    );
    assert_eq!(chain(&ctx(&mut s, None).unwrap()), "Class:B");
}

#[test]
fn the_active_editor_follows_the_editor_or_the_last_touch() {
    let mut s = EditorState::new();
    assert!(ctx(&mut s, None).is_none(), "nothing open");
    s.open("untitled:a", "plaintext", 1, "a\n");
    s.open("untitled:b", "plaintext", 1, "b\n");
    assert_eq!(ctx(&mut s, None).unwrap().file.path, "untitled:b", "the last one opened");
    s.change("untitled:a", Some(2), &[insert(pos(0, 0), "x")], PositionEncoding::Utf16).unwrap();
    assert_eq!(ctx(&mut s, None).unwrap().file.path, "untitled:a", "the last one edited");
    s.set_active(Some("untitled:b"), true);
    assert_eq!(ctx(&mut s, None).unwrap().file.path, "untitled:b");
    s.change("untitled:a", Some(3), &[insert(pos(0, 0), "x")], PositionEncoding::Utf16).unwrap();
    assert_eq!(ctx(&mut s, None).unwrap().file.path, "untitled:b", "focus is explicit now");
    s.set_active(None, false);
    assert!(ctx(&mut s, None).is_none(), "no text editor is left");
    // Focus announced before the document opens.
    s.set_active(Some("untitled:c"), true);
    assert!(ctx(&mut s, None).is_none());
    s.open("untitled:c", "plaintext", 1, "c\n");
    assert_eq!(ctx(&mut s, None).unwrap().file.path, "untitled:c");
}

#[test]
fn focus_leaving_the_editor_keeps_the_last_text_editor() {
    let mut s = EditorState::new();
    s.open("file:///w/a.py", "python", 1, "def f():\n    x = 1\n");
    s.set_cursor("file:///w/a.py", cursor_at(1, 5)).unwrap();
    assert_eq!(ctx(&mut s, None).unwrap().focused, None, "the editor never said");
    s.set_active(Some("file:///w/a.py"), true);
    assert_eq!(ctx(&mut s, None).unwrap().focused, Some(true));
    // The user switches to the agent's pane: the editor, cursor and scopes stay.
    s.set_active(Some("file:///w/a.py"), false);
    let c = ctx(&mut s, None).unwrap();
    assert_eq!(
        (c.focused, c.cursor.line, c.symbols.hierarchy().as_str()),
        (Some(false), 2, "Function:f > Variable:x")
    );
    // An editor that only says focus left, without naming a document.
    s.set_active(Some("file:///w/a.py"), true);
    s.set_focused(false);
    assert_eq!(ctx(&mut s, None).unwrap().focused, Some(false));
    s.set_focused(true);
    assert_eq!(ctx(&mut s, None).unwrap().focused, Some(true));
    // A context asked of a document by URI is about that document, not focus.
    let by_uri = s
        .context(ContextQuery {
            uri: Some("file:///w/a.py"),
            position: None,
            encoding: PositionEncoding::Utf16,
        })
        .unwrap()
        .unwrap();
    assert_eq!(by_uri.focused, Some(true), "it is the active editor");
    assert_eq!(by_uri.file.uri.as_deref(), Some("file:///w/a.py"));
}

#[test]
fn user_actions_not_focus_events_count_as_touches() {
    let mut s = EditorState::new();
    assert_eq!(s.last_touch_ms(), 0);
    s.open("file:///w/a.py", "python", 1, "x = 1\n");
    let opened = s.last_touch_ms();
    assert!(opened > 0);
    std::thread::sleep(Duration::from_millis(5));
    s.set_active(Some("file:///w/a.py"), true);
    s.set_focused(false);
    assert_eq!(s.last_touch_ms(), opened, "focus events are not touches");
    s.set_cursor("file:///w/a.py", cursor_at(1, 2)).unwrap();
    assert!(s.last_touch_ms() > opened, "a cursor move is");
}

#[test]
fn unknown_documents_are_errors_and_close_frees() {
    let mut s = EditorState::new();
    let err = s.context(ContextQuery {
        uri: Some("file:///nope"),
        position: None,
        encoding: PositionEncoding::Utf16,
    });
    assert_eq!(err.unwrap_err(), StateError::UnknownDocument("file:///nope".into()));
    assert!(s.change("file:///nope", Some(1), &[], PositionEncoding::Utf16).is_err());
    s.open("file:///tmp/x%20y.py", "python", 1, PY);
    // Another spelling of the same file finds it.
    assert!(s.text("file:///tmp/x y.py").is_some());
    assert_eq!(s.close("file:///tmp/x%20y.py").unwrap(), PY.len());
    assert!(s.is_empty());
    assert!(s.close("file:///tmp/x%20y.py").is_err());
}

#[test]
fn inverted_ranges_are_refused_and_the_rest_applies() {
    let mut s = EditorState::new();
    s.open("untitled:a", "plaintext", 1, "abc\n");
    let bad = Change { range: Some(Range { start: pos(0, 2), end: pos(0, 1) }), text: "X".into() };
    let err = s
        .change("untitled:a", Some(2), &[bad, insert(pos(0, 0), "Y")], PositionEncoding::Utf16)
        .unwrap_err();
    assert!(matches!(err, StateError::BadChanges { ref reasons, .. } if reasons.len() == 1));
    assert_eq!(s.text("untitled:a").unwrap().1, "Yabc\n");
}

#[test]
fn the_cursor_command_finds_documents_by_path() {
    let mut s = EditorState::new();
    s.set_folders(vec![PathBuf::from("/work/proj")]);
    s.open("file:///work/proj/src/app.py", "python", 1, PY);
    let uri = s.set_cursor_by_path(Path::new("src/app.py"), cursor_at(2, 3)).unwrap();
    assert_eq!(uri, "file:///work/proj/src/app.py");
    assert!(s.set_cursor_by_path(Path::new("other.py"), cursor_at(0, 0)).is_err());
    assert_eq!(path_of("file:///a/b%C3%A9.py"), "/a/bé.py");
}

#[test]
fn deferred_reparsing_parses_a_burst_in_one_go_and_stays_exact() {
    let uri = "untitled:burst.py";
    let mut s = EditorState::new();
    s.open(uri, "python", 1, PY);
    // Pretend parsing is slow: edits are only applied to the text.
    s.docs.get_mut(uri).unwrap().parse_cost = Duration::from_secs(1);
    let mut model = PY.to_string();
    let mut seed = 7u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    for version in 2..400 {
        let chars: Vec<char> = model.chars().collect();
        let a = next(chars.len() + 1);
        let b = (a + next(3)).min(chars.len());
        let new = ["x", "\n", "é", "def h():\n    pass\n", ""][next(5)];
        let at = |i: usize| {
            let before: String = chars[..i].iter().collect();
            let line = before.matches('\n').count() as u32;
            let col = before.rsplit('\n').next().unwrap().encode_utf16().count() as u32;
            pos(line, col)
        };
        let change = Change { range: Some(Range { start: at(a), end: at(b) }), text: new.into() };
        s.change(uri, Some(version), &[change], PositionEncoding::Utf16).unwrap();
        model = format!(
            "{}{new}{}",
            chars[..a].iter().collect::<String>(),
            chars[b..].iter().collect::<String>()
        );
        assert!(s.docs[uri].pending.is_some(), "deferred");
        assert_eq!(s.text(uri).unwrap().1, model);
    }
    // A context parses the lot, and the tree is the one a fresh parse gives.
    let c = ctx(&mut s, Some(uri)).unwrap();
    assert!(s.docs[uri].pending.is_none());
    assert_eq!(s.docs[uri].source.doc().text(), model);
    let fresh = Source::new(Document::new(&model, 0), Registry::builtin().by_id("python"));
    assert_eq!(
        s.docs[uri].source.tree().unwrap().root_node().to_sexp(),
        fresh.tree().unwrap().root_node().to_sexp()
    );
    assert_eq!(c.symbols.total_in_document, fresh.outline().total);
}

#[test]
fn least_recently_touched_documents_sleep_and_wake_exact() {
    let mut s = EditorState::new();
    let big: String = (0..(AWAKE_TEXT_BUDGET / PY.len()) / 4 + 1)
        .map(|i| PY.replace("class A", &format!("class A{i}")))
        .collect();
    for i in 0..12 {
        let uri = format!("untitled:{i}.py");
        s.open(&uri, "python", 1, &big);
        assert!(s.docs[&uri].asleep, "parsed on first need, not at open");
        s.reparse(&uri).unwrap();
    }
    let asleep: Vec<_> = (0..12).filter(|i| s.docs[&format!("untitled:{i}.py")].asleep).collect();
    assert!(!asleep.is_empty() && asleep.iter().all(|i| *i < 4), "the oldest sleep: {asleep:?}");
    // A sleeping document still takes edits, exactly, and answers with its symbols.
    let uri = "untitled:0.py";
    s.change(uri, Some(2), &[insert(pos(0, 0), "# hi\n")], PositionEncoding::Utf16).unwrap();
    assert_eq!(s.text(uri).unwrap().1, format!("# hi\n{big}"));
    let c = s
        .context(ContextQuery {
            uri: Some(uri),
            position: Some(pos(3, 8)),
            encoding: PositionEncoding::Utf16,
        })
        .unwrap()
        .unwrap();
    assert_eq!(chain(&c), "Class:A0 > Method:f");
    assert!(!s.docs[uri].asleep);
    assert_eq!(s.docs[uri].source.doc().text(), format!("# hi\n{big}"));
}

/// An auto-paired `()` once left the cursor one character right of the editor's. The
/// cursor after an edit is where the edit left it: between an auto-pair, and on the new line
/// between a pair split by Enter. Each edit is what Helix 25.07.1 sends for the keystroke.
#[test]
fn without_a_plugin_the_cursor_is_where_the_edit_left_it() {
    let uri = "untitled:pairs.py";
    let cursor = |s: &mut EditorState| {
        let c = ctx(s, Some(uri)).unwrap();
        (c.cursor.line, c.cursor.character)
    };
    let mut s = EditorState::new();
    s.open(uri, "python", 1, "print\n");
    // `(` typed after `print`: Helix inserts `()` and its cursor sits on the `)`.
    s.change(uri, Some(2), &[insert(pos(0, 5), "()")], PositionEncoding::Utf8).unwrap();
    assert_eq!(cursor(&mut s), (1, 7));
    // `x` typed there: the plain rule, the end of the insertion.
    s.change(uri, Some(3), &[insert(pos(0, 6), "x")], PositionEncoding::Utf8).unwrap();
    assert_eq!(cursor(&mut s), (1, 8));
    // Quotes pair too, multi-byte text before them counts in characters (UTF-16 here).
    s.change(uri, Some(4), &[insert(pos(0, 7), ", é\"\"")], PositionEncoding::Utf16).unwrap();
    assert_eq!(s.text(uri).unwrap().1, "print(x, é\"\")\n");
    assert_eq!(cursor(&mut s), (1, 12));
    // Enter between `(` and `)`: the indented middle line holds the cursor, the `)` moves down.
    s.open(uri, "python", 1, "f()\n");
    s.change(uri, Some(2), &[insert(pos(0, 2), "\n    \n")], PositionEncoding::Utf8).unwrap();
    assert_eq!(s.text(uri).unwrap().1, "f(\n    \n)\n");
    assert_eq!(cursor(&mut s), (2, 5));
    // The same with CRLF line breaks and the closer's indentation after the last one.
    s.open(uri, "python", 1, "    g{}\r\n");
    s.change(uri, Some(2), &[insert(pos(0, 6), "\r\n        \r\n    ")], PositionEncoding::Utf8)
        .unwrap();
    assert_eq!(cursor(&mut s), (2, 9));
    // Enter anywhere else, or whitespace not between a pair, ends where it ends.
    s.open(uri, "python", 1, "f(a)\n");
    s.change(uri, Some(2), &[insert(pos(0, 3), "\n  \n")], PositionEncoding::Utf8).unwrap();
    assert_eq!(cursor(&mut s), (3, 1));
    // A deletion (Backspace inside `()` deletes both) leaves the cursor where the text was.
    s.open(uri, "python", 1, "f()\n");
    let both = Change { range: Some(Range { start: pos(0, 1), end: pos(0, 3) }), text: "".into() };
    s.change(uri, Some(2), &[both], PositionEncoding::Utf8).unwrap();
    assert_eq!(cursor(&mut s), (1, 2));
}

/// Helix's `%{buffer_name}` is relative to its working directory, or `~/…`.
#[test]
fn the_cursor_command_expands_home_and_resolves_dots() {
    let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) else {
        panic!("HOME must be set for this test");
    };
    let home = PathBuf::from(home);
    let file = home.join("locus-test-not-on-disk/src/app.py");
    let uri = format!("file://{}", file.display());
    let mut s = EditorState::new();
    s.set_folders(vec![PathBuf::from("/work/proj")]);
    s.open(&uri, "python", 1, PY);
    s.open("file:///work/proj/lib/util.py", "python", 1, PY);
    let found =
        s.set_cursor_by_path(Path::new("~/locus-test-not-on-disk/src/app.py"), cursor_at(0, 0));
    assert_eq!(found.unwrap(), uri);
    // `.` and `..` resolve by name: the file need not exist on disk.
    let found = s.set_cursor_by_path(Path::new("./src/../lib/./util.py"), cursor_at(0, 0));
    assert_eq!(found.unwrap(), "file:///work/proj/lib/util.py");
    // A name that matches nothing (Helix's `[scratch]`) is an error naming it.
    let err = s.set_cursor_by_path(Path::new("[scratch]"), cursor_at(0, 0)).unwrap_err();
    assert_eq!(err.to_string(), "no open document has the path `[scratch]`");
}

/// A change the mirror cannot place leaves a warning on the document's context
/// until the editor sends the whole text again; what LSP allows is normalised without one.
#[test]
fn a_change_it_cannot_place_marks_the_document_unsynchronised_until_the_whole_text() {
    let uri = "file:///nonexistent/unsynced.py";
    let warning = |s: &mut EditorState| ctx(s, Some(uri)).unwrap().symbols.warning;
    let range = |a: Position, b: Position| Some(Range { start: a, end: b });
    let mut s = EditorState::new();
    s.open(uri, "python", 1, PY);
    assert_eq!(warning(&mut s), None);
    // A character past its line's end is that end (LSP); the start of the line after the last
    // is the end of the text (LSP's way to include the last line break).
    let eol = Change { range: range(pos(0, 90), pos(0, 99)), text: " # c".into() };
    s.change(uri, Some(2), &[eol], PositionEncoding::Utf16).unwrap();
    let lines = PY.lines().count() as u32 + 1;
    s.change(uri, Some(3), &[insert(pos(lines, 0), "x")], PositionEncoding::Utf16).unwrap();
    assert_eq!(s.text(uri).unwrap().1, format!("{}x", PY.replacen("A:", "A: # c", 1)));
    assert_eq!(warning(&mut s), None, "normalised as LSP says");
    // A line past the end: applied at the end as before, and the document says it may differ.
    s.change(uri, Some(4), &[insert(pos(40, 0), "y")], PositionEncoding::Utf16).unwrap();
    let w = warning(&mut s).expect("a warning");
    assert!(w.contains("since version 4") && w.contains("line 41 of a document of 7 lines"), "{w}");
    // Later ranged changes keep it; the whole text clears it.
    s.change(uri, Some(5), &[insert(pos(0, 0), "#\n")], PositionEncoding::Utf16).unwrap();
    assert!(warning(&mut s).is_some());
    let whole = Change { range: None, text: PY.into() };
    s.change(uri, Some(6), &[whole], PositionEncoding::Utf16).unwrap();
    assert_eq!(warning(&mut s), None);
    // An inverted range is refused, and says so too, until the document is opened again.
    let inverted = Change { range: range(pos(2, 0), pos(1, 0)), text: "z".into() };
    assert!(s.change(uri, Some(7), &[inverted], PositionEncoding::Utf16).is_err());
    assert_eq!(s.text(uri).unwrap().1, PY);
    let w = warning(&mut s).expect("a warning");
    assert!(w.contains("inverted range (3:1 to 2:1)"), "{w}");
    s.open(uri, "python", 8, PY);
    assert_eq!(warning(&mut s), None);
}

#[test]
fn only_documents_whose_context_was_asked_recently_are_outlined_in_the_background() {
    let uri = "untitled:prefetch.py";
    let key = key_of(uri);
    let mut s = EditorState::new();
    s.open(uri, "python", 1, PY);
    let edit = |s: &mut EditorState, version: i32| {
        s.change(uri, Some(version), &[insert(pos(0, 0), "#")], PositionEncoding::Utf16).unwrap();
    };
    // The symbol index reads every open document's outline: that is not a reader of its
    // context, and its edits are not outlined ahead of need.
    s.reparse(uri).unwrap();
    for d in s.outlines() {
        d.source.expect("awake and parsed").outline();
    }
    edit(&mut s, 2);
    edit(&mut s, 3);
    assert_eq!(s.prefetch.updates_of(&key), 0, "nobody read this document's context");
    // Once a context was asked, each edit hands its version over.
    ctx(&mut s, Some(uri)).unwrap();
    edit(&mut s, 4);
    edit(&mut s, 5);
    assert_eq!(s.prefetch.updates_of(&key), 2);
    // Long after the last context, edits are no longer outlined ahead.
    let long_ago = std::time::Instant::now()
        .checked_sub(prefetch::RECENT + Duration::from_secs(1))
        .expect("the machine has been up longer than that");
    s.docs.get_mut(&key).unwrap().context_read = Some(long_ago);
    edit(&mut s, 6);
    assert_eq!(s.prefetch.updates_of(&key), 2);
}

#[test]
fn python_static_conditions_follow_the_workspace_folders_python() {
    let dir = std::env::temp_dir().join(format!("locus-state-runtime-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("pkg")).unwrap();
    std::fs::write(dir.join("pyrightconfig.json"), r#"{"pythonVersion": "3.11"}"#).unwrap();
    let text = "import sys\n\nif sys.version_info >= (3, 12):\n    def new(): ...\nelse:\n    def old(): ...\n";
    let mut s = EditorState::new();
    s.set_folders(vec![dir.clone()]);
    let uri = format!("file://{}/pkg/m.py", dir.display());
    s.open(&uri, "python", 1, text);
    s.set_cursor(&uri, cursor_at(5, 8)).unwrap();
    // Python 3.13, the default, would give `new`.
    assert_eq!(chain(&ctx(&mut s, Some(&uri)).unwrap()), "Function:old");
    let _ = std::fs::remove_dir_all(&dir);
}
