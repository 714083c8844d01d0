//! Incremental reparsing: after any sequence of edits, a `Source` edited in place agrees with
//! a fresh parse of the same text.
//!
//! - Its outline, updated incrementally, always equals the outline extracted from scratch
//!   from its tree.
//! - Its tree equals a fresh parse whenever the text has no syntax error. With errors,
//!   tree-sitter's recovery depends on the parse history, so an incrementally reparsed tree
//!   may legitimately differ from a fresh one there (tree-sitter does not promise otherwise).

use locus_doc::{Document, Position, PositionEncoding, Range};
use locus_scopes::{Registry, Source};
use proptest::prelude::*;

const TS_SEED: &str = "export class A {\n  m(x: number) {\n    const y = [1, 2].map(v => v * x);\n    return y; // 😀\r\n  }\n}\nfunction f() { return { a: 1 }; }\n";

const PY_SEED: &str = "import os\nX = 1\n\nclass A:\n    y: int = 0\n\n    def m(self, a, b=2):\n        self.z = a\n        for i in range(b):\n            pass\n        return a\n\ndef f():\n    return [x for x in X]\n";
const MD_SEED: &str = "# Title 🚀\n\nText.\n\n## Sub\n\n```\n# not a heading\n```\n\n### Deep\n\nSetext\n---\n\n[ref]: http://x\n";

fn fragments() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("{"),
            Just("}"),
            Just("("),
            Just(")"),
            Just("\n"),
            Just("\r\n"),
            Just(" "),
            Just("x"),
            Just("const z = 1;"),
            Just("class B {"),
            Just("function g() {"),
            Just("=>"),
            Just("😀"),
            Just("\""),
            Just("//"),
            Just("é"),
            Just(";"),
            Just("def h(x):\n    "),
            Just("# "),
            Just("## H\n"),
            Just("    "),
            Just("self.w = 1\n"),
            Just("```"),
            Just("---\n"),
        ],
        0..6,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn incremental_tree_and_outline_equal_a_fresh_parse(
        (lang, seed) in prop_oneof![Just(("typescript", TS_SEED)), Just(("python", PY_SEED)), Just(("markdown", MD_SEED))],
        edits in proptest::collection::vec((0u32..16, 0u32..40, 0u32..3, 0u32..12, fragments(), any::<bool>()), 1..16),
    ) {
        let lang = Registry::builtin().by_id(lang).unwrap();
        let mut source = Source::new(Document::new(seed, 0), Some(lang));
        for (i, (line, character, dl, dc, text, look)) in edits.into_iter().enumerate() {
            let start = Position::new(line, character);
            let end = Position::new(line + dl, if dl == 0 { character + dc } else { dc });
            source.apply_change(Some(Range { start, end }), &text, PositionEncoding::Utf16).unwrap();
            source.set_version(i as i32 + 1);
            // Look at the outline between some edits, so both paths (one edit, several
            // edits between looks) of the incremental update are exercised.
            if look {
                let _ = source.outline();
            }
        }
        prop_assert_eq!(&*source.outline(), &source.outline_from_scratch());
        let fresh = Source::new(Document::new(&source.doc().text(), 0), Some(lang));
        let (a, b) = (source.tree().unwrap().root_node(), fresh.tree().unwrap().root_node());
        if !b.has_error() {
            prop_assert_eq!(a.to_sexp(), b.to_sexp());
            prop_assert_eq!(a.byte_range(), b.byte_range());
            prop_assert_eq!(&*source.outline(), &*fresh.outline());
        }
    }
}

/// A Python module whose top level holds what pyright's rules look across statements for:
/// names declared twice, a static `if` with an `else`, a `try` importing with a fallback,
/// `global`, a class with a hoisted `self.w`.
const PY_MODULE_SEED: &str = "import sys\nfrom typing import TYPE_CHECKING\nX = 1\n\ndef a():\n    return 1\n\nif TYPE_CHECKING:\n    T = int\nelse:\n    U = str\n\nclass B:\n    z = 0\n    def m(self):\n        self.w = 1\n\ntry:\n    import json\nexcept ImportError:\n    json = None\n\ndef c(y):\n    global X\n    X = y\nY: int = 2\n";

/// Whole module-level statements (mostly) that add, rename, shadow or hide symbols: new defs
/// with fresh and colliding names, typed and plain rebindings, `raise`, static `assert` and
/// `if` conditions that hide what follows, `global`, `__slots__`, a top-level `self.x`.
fn module_statements() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("def a():\n    pass\n"),
            Just("def n():\n    pass\n"),
            Just("async def c(q):\n    return q\n"),
            Just("X = 3\n"),
            Just("X: int = 3\n"),
            Just("Y = 4\n"),
            Just("new = 5\n"),
            Just("T: Final = 1\n"),
            Just("raise SystemExit\n"),
            Just("return\n"),
            Just("assert sys.platform == 'win32'\n"),
            Just("assert TYPE_CHECKING\n"),
            Just("if TYPE_CHECKING:\n    raise X\n"),
            Just("if sys.platform == 'linux':\n    raise ImportError\n"),
            Just("if TYPE_CHECKING:\n    Z = 1\nelse:\n    W = 2\n"),
            Just("if sys.version_info < (3, 8):\n    n = 1\n"),
            Just("if TYPE_CHECKING:\n"),
            Just("else:\n"),
            Just("    "),
            Just("global X\n"),
            Just("class B:\n    pass\n"),
            Just("class D:\n    __slots__ = ('s',)\n"),
            Just("def f(self):\n    self.q = 1\n"),
            Just("try:\n    import a\nexcept E:\n    a = None\n"),
            Just("\n"),
            Just("x"),
            Just("# "),
            Just(":"),
        ],
        0..4,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Module-level Python edits (where the outline update may re-extract just the gap between
    /// two top-level symbols) leave the outline equal to one extracted from scratch.
    #[test]
    fn python_module_edits_keep_the_outline_exact(
        edits in proptest::collection::vec(
            (0u32..28, prop_oneof![3 => Just(0u32), 1 => 0u32..14], 0u32..3, 0u32..14, module_statements(), any::<bool>(), any::<bool>()),
            1..12,
        ),
    ) {
        let lang = Registry::builtin().by_id("python").unwrap();
        let mut source = Source::new(Document::new(PY_MODULE_SEED, 0), Some(lang));
        for (i, (line, character, dl, dc, text, delete, look)) in edits.into_iter().enumerate() {
            let start = Position::new(line, character);
            // Mostly insertions; some replace a few lines or characters.
            let end = match (delete, dl) {
                (false, _) => start,
                (true, 0) => Position::new(line, character + dc),
                (true, dl) => Position::new(line + dl, dc),
            };
            source.apply_change(Some(Range { start, end }), &text, PositionEncoding::Utf16).unwrap();
            source.set_version(i as i32 + 1);
            if look {
                let _ = source.outline();
            }
        }
        prop_assert_eq!(&*source.outline(), &source.outline_from_scratch());
    }
}
