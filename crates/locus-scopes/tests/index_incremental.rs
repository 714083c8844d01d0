//! The workspace index's outline of an open document ([`Source::index_outline`]) is updated
//! from the previous version's after an edit, as the editor's outline is: after random edits
//! of real Python files it always equals the index query's outline extracted from scratch
//! from the same tree, whichever of the two outlines was looked at between edits.

use locus_doc::Document;
use locus_scopes::{Registry, Source};
use proptest::prelude::*;

/// The repository's own Python test files (scope and fidelity files of odd cases), small to
/// mid-sized, read once.
fn files() -> &'static [String] {
    static FILES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests");
        [
            "scopes/python/compat.py",
            "scopes/python/declarations.py",
            "scopes/python/pipeline.py",
            "scopes/python/models.py",
            "fidelity/files/py/typing_cases.py",
            "fidelity/files/py/odd_cases.py",
        ]
        .iter()
        .map(|f| {
            let path = root.join(f);
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
        .collect()
    })
}

/// Text an edit inserts: statements that add, shadow or hide definitions (the patterns the
/// index skips among them: static conditions, `raise`, `global`, try/else), indentation,
/// and pieces that break the syntax.
fn fragment() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("def a():\n    pass\n"),
            Just("def m(self, q: int = 1):\n        self.w = q\n"),
            Just("class B:\n    pass\n"),
            Just("    @property\n    def p(self):\n        return 1\n"),
            Just("X = 3\n"),
            Just("X: int = 3\n"),
            Just("raise SystemExit\n"),
            Just("return\n"),
            Just("if sys.platform == 'win32':\n    def w():\n        pass\n"),
            Just("if TYPE_CHECKING:\n    T = int\nelse:\n    def T():\n        pass\n"),
            Just("assert sys.version_info < (3, 8)\n"),
            Just("global X\n"),
            Just("try:\n    pass\nexcept E:\n    def e():\n        pass\nelse:\n    def e():\n        pass\n"),
            Just("    "),
            Just("\n"),
            Just(":"),
            Just("("),
            Just("x"),
            Just("# "),
            Just("\"\"\""),
        ],
        0..4,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_index_outline_updated_after_edits_equals_one_from_scratch(
        file in 0usize..6,
        edits in proptest::collection::vec(
            (any::<prop::sample::Index>(), 0usize..80, fragment(), 0u8..4),
            1..10,
        ),
    ) {
        let python = Registry::builtin().by_id("python");
        let mut source = Source::new(Document::new(&files()[file], 0), python);
        let _ = source.index_outline();
        for (i, (at, removed, text, look)) in edits.into_iter().enumerate() {
            let len = source.doc().len_bytes();
            // Mostly at a line start, where whole statements go.
            let mut start = source.doc().floor_char_boundary(at.index(len + 1));
            if look != 3 {
                let line = source.doc().rope().byte_to_line(start);
                start = source.doc().rope().line_to_byte(line);
            }
            let end = source.doc().floor_char_boundary((start + removed % 3 * removed).min(len));
            source.replace_bytes(start, end.max(start), &text);
            source.set_version(i as i32 + 1);
            // Look at either outline, both or neither between edits: each is updated from
            // the last computed version of its own.
            match look {
                0 => {
                    let _ = source.index_outline();
                }
                1 => {
                    let _ = source.outline();
                }
                2 => {
                    let _ = (source.outline(), source.index_outline());
                }
                _ => {}
            }
        }
        let (index, fresh) = (source.index_outline(), source.index_outline_from_scratch());
        prop_assert!(*index == fresh, "index outline:\n{}", diff(&index.dump(), &fresh.dump()));
        let (editor, fresh) = (source.outline(), source.outline_from_scratch());
        prop_assert!(*editor == fresh, "editor outline:\n{}", diff(&editor.dump(), &fresh.dump()));
    }
}

/// A snapshot and its source share one index outline per version; the index's keeps a def
/// the editor's hides; after an edit the updated index outline has the new def.
#[test]
fn snapshots_share_the_index_outline_and_edits_update_it() {
    let python = Registry::builtin().by_id("python");
    let text = "class A:\n    def m(self):\n        pass\n\nif sys.platform == 'win32':\n    def w():\n        pass\n";
    let mut source = Source::new(Document::new(text, 0), python);
    let snapshot = source.snapshot();
    let first = snapshot.index_outline();
    assert!(std::sync::Arc::ptr_eq(&first, &source.index_outline()));
    // `w` is hidden from the editor (a false static condition), kept by the index.
    let names =
        |o: &locus_scopes::Outline| o.symbols.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&first), ["A", "w"]);
    assert_eq!(names(&source.outline()), ["A"]);
    let end = source.doc().len_bytes();
    source.replace_bytes(end, end, "def f():\n    pass\n");
    assert_eq!(names(&source.index_outline()), ["A", "w", "f"]);
    assert_eq!(*source.index_outline(), source.index_outline_from_scratch());
}

/// mypy's `checker.py` (10k lines, a class of 8,000), three more real files fetched from
/// registry packages and our own two fidelity files above, read once.
fn big_files() -> &'static [String] {
    static FILES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let fetched = [
            locus_fixture::data::LARGE_PYTHON,
            "click__src_click__winconsole.py",
            "click__src_click_exceptions.py",
            "python3.11__statistics.py",
        ]
        .map(|label| locus_fixture::data::read("py", label));
        fetched.into_iter().chain(files()[4..].iter().cloned()).collect()
    })
}

/// What a keystroke or two inside a method does: characters, a member assigned, a name
/// bound, code made unreachable or hidden, a comment, a line broken or joined.
fn keystrokes() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("x"),
        Just(" "),
        Just("("),
        Just(")"),
        Just(":"),
        Just("#"),
        Just("\n"),
        Just("\n        "),
        Just("self.q = 1\n        "),
        Just("cls.r = 2\n        "),
        Just("y = "),
        Just("return\n        "),
        Just("global y\n        "),
        Just("if TYPE_CHECKING:\n            "),
        Just("def n(self):\n            pass\n        "),
    ]
    .prop_map(str::to_string)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Keystrokes inside the methods of big classes (a line indented twice or more, at any
    /// column): both outlines, updated (most without a query: the edit is unseen by every
    /// pattern), equal ones extracted from scratch.
    #[test]
    #[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
    fn keystrokes_inside_big_classes_update_both_outlines_exactly(
        file in 0usize..6,
        edits in proptest::collection::vec(
            (any::<prop::sample::Index>(), any::<prop::sample::Index>(), 0usize..3, keystrokes(), 0u8..4),
            1..8,
        ),
    ) {
        let python = Registry::builtin().by_id("python");
        let mut source = Source::new(Document::new(&big_files()[file], 0), python);
        let _ = (source.outline(), source.index_outline());
        for (i, (line, column, removed, text, look)) in edits.into_iter().enumerate() {
            let doc = source.doc().clone();
            let rope = doc.rope();
            let inside: Vec<usize> = (0..rope.len_lines())
                .filter(|&l| rope.line(l).to_string().starts_with("        "))
                .collect();
            prop_assume!(!inside.is_empty());
            let l = inside[line.index(inside.len())];
            let (start, end) = (rope.line_to_byte(l), rope.line_to_byte(l + 1));
            let at = doc.floor_char_boundary(start + column.index(end - start + 1).min(end - start));
            let to = doc.floor_char_boundary((at + removed).min(end));
            source.replace_bytes(at, to.max(at), &text);
            source.set_version(i as i32 + 1);
            match look {
                0 => {
                    let _ = source.index_outline();
                }
                1 => {
                    let _ = source.outline();
                }
                2 => {
                    let _ = (source.outline(), source.index_outline());
                }
                _ => {}
            }
        }
        let (index, fresh) = (source.index_outline(), source.index_outline_from_scratch());
        prop_assert!(*index == fresh, "index outline:\n{}", diff(&index.dump(), &fresh.dump()));
        let (editor, fresh) = (source.outline(), source.outline_from_scratch());
        prop_assert!(*editor == fresh, "editor outline:\n{}", diff(&editor.dump(), &fresh.dump()));
    }
}

/// The lines only one of two outline dumps has.
fn diff(updated: &str, fresh: &str) -> String {
    let only = |p: &str, q: &str| {
        let q: Vec<&str> = q.lines().collect();
        p.lines().filter(|l| !q.contains(l)).collect::<Vec<_>>().join("\n")
    };
    format!("only updated:\n{}\nonly from scratch:\n{}", only(updated, fresh), only(fresh, updated))
}
