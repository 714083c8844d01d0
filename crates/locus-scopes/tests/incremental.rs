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

/// Arrays whose items are named by their place (`{index}`): an item added or removed anywhere
/// renames those after it.
const JSON_SEED: &str =
    "{\"a\": [\n  {\"x\": 1},\n  5,\n  [2, {\"y\": 3}],\n  {\"z\": [{}]}\n], \"b\": {}}\n";
const YAML_SEED: &str = "a:\n  - x: 1\n  # c\n  - 5\n  - - y: 2\n    - [3, {z: 4}]\nb: 1\n";
/// Items whose last scalar ends them: typing in it may re-extract the item alone, never where
/// the edit reaches the item's end (it may delete the items after it).
const YAML_ITEMS_SEED: &str =
    "- name: item0\n  value: 0\n- 5\n- name: item2\n  value: 22\n- name: item3\n  value: 3\n";
const TOML_SEED: &str = "[a]\nx = 1\ny = [1, 2, {z = 3}]\n\n[[b]]\nk = \"v\"\n\n[[b]]\nk = 22\n";

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
            Just(", "),
            Just("[1, {\"k\": 2}]"),
            Just("{\"k\": [], \"j\": 1}"),
            Just("\n  - k: 1"),
            Just("- "),
            Just("7"),
            Just(": "),
        ],
        0..6,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn incremental_tree_and_outline_equal_a_fresh_parse(
        (lang, seed) in prop_oneof![Just(("typescript", TS_SEED)), Just(("python", PY_SEED)), Just(("markdown", MD_SEED)), Just(("json", JSON_SEED)), Just(("yaml", YAML_SEED)), Just(("yaml", YAML_ITEMS_SEED)), Just(("toml", TOML_SEED))],
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

/// Real TypeScript, TSX and JavaScript files (fetched from registry packages, and our own odd
/// cases), where the outline update re-extracts a holder or a gap with its query started
/// below the root (`ancestry.rs`).
fn ecma_files() -> Vec<(std::path::PathBuf, String)> {
    // The large declaration file would take minutes here, and holds no function to edit in.
    let large = locus_fixture::data::LARGE_TYPESCRIPT;
    let files: Vec<_> = locus_fixture::data::files_of(&["ts", "tsx", "js"])
        .into_iter()
        .filter(|path| !path.ends_with(large))
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path, text)
        })
        .collect();
    assert!(files.len() >= 30, "only {} files", files.len());
    files
}

/// Fragments that add, rename, hide or reshape symbols where they land: declarations of every
/// kind, braces, JSDoc typedefs, decorators, computed names, `export`, callbacks, destructuring,
/// object types, and plain characters.
fn ecma_fragments() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("x"),
            Just("{"),
            Just("}"),
            Just("("),
            Just(")"),
            Just(";"),
            Just("\n"),
            Just(" "),
            Just("function g() {"),
            Just("const h = () => {"),
            Just("class K { m() {} }"),
            Just("export "),
            Just("@dec "),
            Just("[Symbol.iterator]() {}"),
            Just("get p() { return 1; }"),
            Just("/** @typedef {object} T */\n"),
            Just("x.forEach(function () { const q = 1; });"),
            Just("const { a, b: [c] } = o;"),
            Just("let v: { a: string } = null;"),
            Just("F.prototype.m = function () {};"),
            Just("//"),
            Just("/*"),
            Just("\""),
            Just("`"),
        ],
        0..4,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Edits anywhere in real TS/TSX/JS files (mostly deep inside functions and classes, where
    /// the update's query starts below the root) leave the outline equal to one extracted from
    /// scratch, after every edit.
    #[test]
    #[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
    fn ecma_edits_in_real_files_keep_the_outline_exact(
        file in 0usize..1000,
        edits in proptest::collection::vec((0.0f64..1.0, 0usize..12, ecma_fragments()), 1..6),
    ) {
        let files = ecma_files();
        let (path, text) = &files[file % files.len()];
        let language = Registry::builtin().for_path(path, None);
        let mut source = Source::new(Document::new(text, 0), language);
        let _ = source.outline();
        for (at, delete, insert) in edits {
            let len = source.doc().len_bytes();
            let start = source.doc().floor_char_boundary((at * len as f64) as usize);
            let end = source.doc().floor_char_boundary((start + delete).min(len));
            source.replace_bytes(start, end, &insert);
            let (updated, fresh) = (source.outline(), source.outline_from_scratch());
            prop_assert!(
                *updated == fresh,
                "{} after replacing {}..{} with {:?}: {}",
                path.display(), start, end, insert, difference(&updated, &fresh)
            );
        }
    }
}

/// The lines where two outlines differ (one symbol a line: depth, kind, name, range), for
/// failure messages.
fn difference(a: &locus_scopes::Outline, b: &locus_scopes::Outline) -> String {
    fn lines(symbols: &[locus_scopes::Symbol], depth: usize, out: &mut Vec<String>) {
        for s in symbols {
            out.push(format!("{depth} {:?} {} {:?} {:?}", s.kind, s.name, s.range, s.selection));
            lines(&s.children, depth + 1, out);
        }
    }
    let (mut x, mut y) = (Vec::new(), Vec::new());
    lines(&a.symbols, 0, &mut x);
    lines(&b.symbols, 0, &mut y);
    let only = |p: &[String], q: &[String]| {
        p.iter().filter(|l| !q.contains(l)).cloned().collect::<Vec<_>>().join("\n    ")
    };
    format!("only in the update:\n    {}\nonly from scratch:\n    {}", only(&x, &y), only(&y, &x))
}

/// One-character edits at a hundred places of every real TS/TSX/JS file (typed, then deleted,
/// as an editor streams them): each update equals the outline extracted from scratch.
#[test]
#[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
fn one_character_edits_across_real_files_keep_the_outline_exact() {
    let mut checked = 0;
    for (path, text) in ecma_files() {
        let language = Registry::builtin().for_path(&path, None);
        let mut source = Source::new(Document::new(&text, 0), language);
        let _ = source.outline();
        for i in 1..100 {
            let at = source.doc().floor_char_boundary(text.len() * i / 100);
            for (end, text) in [(at, "x"), (at + 1, "")] {
                source.replace_bytes(at, end, text);
                let (updated, fresh) = (source.outline(), source.outline_from_scratch());
                assert!(
                    *updated == fresh,
                    "{} at {at}, {text:?}: {}",
                    path.display(),
                    difference(&updated, &fresh)
                );
            }
            checked += 2;
        }
    }
    assert!(checked > 5000, "{checked}");
}

/// Replaces the first `old` of `text` with `new` in a `Source` of `language` whose outline was
/// taken before, and gives the updated outline's dump, checked against one from scratch.
fn edited(language: &str, text: &str, old: &str, new: &str) -> String {
    let language = Registry::builtin().by_id(language).unwrap();
    let mut source = Source::new(Document::new(text, 0), Some(language));
    let _ = source.outline();
    let start = text.find(old).expect("the text to replace");
    source.replace_bytes(start, start + old.len(), new);
    let (updated, fresh) = (source.outline(), source.outline_from_scratch());
    assert!(*updated == fresh, "{old:?} -> {new:?}: {}", difference(&updated, &fresh));
    updated.dump()
}

/// A callback is named from its call's callee, outside the function: editing the callee alone
/// renames it (it kept its old name: the edit touched neither it nor its siblings).
#[test]
fn a_callback_is_renamed_when_only_its_callee_is_edited() {
    let text = "function f() {\n  x.forEach(function () {\n    const q = 1;\n  });\n}\n";
    let dump = edited("typescript", text, "forEach", "forEachy");
    assert!(dump.contains("\"x.forEachy() callback\""), "{dump}");
    // A callee ending in a call names nothing; once it ends in a name, it does.
    let text = "function f() {\n  x.y()(function () {\n    const q = 1;\n  });\n}\n";
    let dump = edited("typescript", text, "y()", "y");
    assert!(dump.contains("\"x.y() callback\""), "{dump}");
    let text = "function f() {\n  x.y(function () {\n    const q = 1;\n  });\n}\n";
    let dump = edited("typescript", text, "x.y", "x.y()");
    assert!(dump.contains("\"<function>\""), "{dump}");
    // Nested: the inner callback's call is inside the outer callback's.
    let text = "a.b(c.d(() => {\n  const q = 1;\n}));\n";
    let dump = edited("javascript", text, "c.d", "c.e");
    assert!(dump.contains("\"c.e() callback\""), "{dump}");
}

/// A callback's name holds its call's string arguments: editing one renames it.
#[test]
fn a_callback_is_renamed_when_only_a_string_argument_is_edited() {
    let text = "describe('etagToModuleMap', () => {\n  it('works', () => {\n    const q = 1;\n  });\n});\n";
    let dump = edited("typescript", text, "etagToModuleMap", "etag");
    assert!(dump.contains("\"describe('etag') callback\""), "{dump}");
    let dump = edited("typescript", text, "'works'", "'works', 'twice'");
    assert!(dump.contains("\"it('works', 'twice') callback\""), "{dump}");
    // A string argument after the function counts too.
    let text = "function f() {\n  g(() => {\n    const q = 1;\n  }, 'after');\n}\n";
    let dump = edited("javascript", text, "'after'", "'later'");
    assert!(dump.contains("\"g('later') callback\""), "{dump}");
}

/// A function assigned to a member is named from the member, outside the function.
#[test]
fn an_assigned_function_is_renamed_when_only_its_member_is_edited() {
    let text = "function f() {\n  o['a b'] = function () {\n    const q = 1;\n  };\n}\n";
    let dump = edited("javascript", text, "a b", "a c");
    assert!(dump.contains("\"'a c'\""), "{dump}");
    let dump = edited("javascript", text, "'a b'", "k");
    assert!(dump.contains("\"[k]\""), "{dump}");
    let text = "function f() {\n  o.p = () => {\n    const q = 1;\n  };\n  r = () => 1;\n}\n";
    let dump = edited("typescript", text, "o.p", "o.pq");
    assert!(dump.contains("\"pq\""), "{dump}");
    let dump = edited("typescript", text, "r =", "s =");
    assert!(dump.contains("\"s\""), "{dump}");
    // `||` names the right operand the same way.
    let text = "function f() {\n  a.reduce || function () {\n    const q = 1;\n  };\n}\n";
    let dump = edited("javascript", text, "reduce", "fold");
    assert!(dump.contains("\"fold\""), "{dump}");
}

/// Python names and kinds read text outside their symbol too: a constant is one by its
/// `Final` annotation, a `__slots__` entry by the name it is assigned to, a `self.x`
/// attribute by the method's first parameter. Editing that text alone changes them.
#[test]
fn python_symbols_change_when_only_the_text_they_read_is_edited() {
    let text =
        "x: Final = 1\n\nclass A:\n    y: Final = 2\n\n    def m(self):\n        self.w = 1\n";
    let dump = edited("python", text, "Final = 1", "int = 1");
    assert!(dump.starts_with("Variable \"x\""), "{dump}");
    let dump = edited("python", text, "Final = 2", "int = 2");
    assert!(dump.contains("Variable \"y\""), "{dump}");
    let dump = edited("python", text, "m(self)", "m(this)");
    assert!(!dump.contains("\"w\""), "{dump}");
    let text = "class D:\n    __slots__ = ('s',)\n\n    def m(self):\n        pass\n";
    let dump = edited("python", text, "__slots__", "__slotz__");
    assert!(!dump.contains("\"s\""), "{dump}");
}

/// An edit whose changed syntax lies below every node a pattern rooted above it binds can
/// still make a symbol, by a pattern rooted at a changed node: a `:=` typed into an argument
/// list, a capture into a class pattern, a callback into a call's arguments (each kept the old
/// outline before, the edit taken as unseen). And the other way: the symbol goes with them.
#[test]
fn a_symbol_made_below_the_changed_syntaxs_holder_appears_and_goes() {
    let text = "print(y == 1)\n";
    let dump = edited("python", text, "y == 1", "y := 1");
    assert!(dump.contains("\"y\""), "{dump}");
    let dump = edited("python", "print(y := 1)\n", "y := 1", "y == 1");
    assert!(!dump.contains("\"y\""), "{dump}");
    let text = "class A:\n    def m(self, s):\n        return foo(s)\n";
    let dump = edited("python", text, "foo(s)", "foo(x := s)");
    assert!(dump.contains("\"x\""), "{dump}");
    let text = "match p:\n    case P(x=0):\n        pass\n";
    let dump = edited("python", text, "x=0", "x=a");
    assert!(dump.contains("\"a\""), "{dump}");
    let text = "function f() {\n  run(1, 2);\n}\n";
    let dump = edited("typescript", text, "1, 2", "1, () => { const q = 1; }");
    assert!(dump.contains("callback"), "{dump}");
}

/// A function an ES5 class's member group joins is renamed inside a holder: the group no
/// longer joins it.
#[test]
fn an_es5_class_follows_its_function_renamed() {
    let text = "function outer() {\n  function F() {}\n  F.prototype.m = function () {};\n}\n";
    let dump = edited("javascript", text, "F()", "G()");
    assert!(dump.contains("\"G\""), "{dump}");
}

/// An `if` that always raises hides the rest of the module, text the parser could not read
/// included (an `ERROR` node, which a query's `(_)` does not match): breaking that `if` then
/// brings back every symbol after it, not only those up to the next one shown. Found by
/// `python_module_edits_keep_the_outline_exact`.
#[test]
fn breaking_a_raising_if_in_a_text_with_errors_brings_back_what_it_hid() {
    let lang = Registry::builtin().by_id("python").unwrap();
    let mut source = Source::new(Document::new(PY_MODULE_SEED, 0), Some(lang));
    let edits = [
        ((15, 0), (15, 0), "return\n"),
        ((0, 0), (1, 0), "class B:\n    pass\ndef a():\n    pass\n"),
        ((15, 0), (17, 9), "X: int = 3\nif TYPE_CHECKING:\n    raise X\n"),
        ((16, 0), (16, 1), ""),
    ];
    for (i, ((sl, sc), (el, ec), text)) in edits.into_iter().enumerate() {
        let range = Range { start: Position::new(sl, sc), end: Position::new(el, ec) };
        source.apply_change(Some(range), text, PositionEncoding::Utf16).unwrap();
        source.set_version(i as i32 + 1);
        if i == 2 {
            let _ = source.outline();
        }
    }
    let (updated, fresh) = (source.outline(), source.outline_from_scratch());
    assert!(*updated == fresh, "{}", difference(&updated, &fresh));
}
