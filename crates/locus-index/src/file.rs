//! One file's compact symbols: what an outline leaves once its tree is dropped.

use std::path::Path;

use locus_doc::Document;
use locus_scopes::{Language, Outline, Registry, Symbol, SymbolKind};
use locus_scopes::{callable, kept_in_callable as definition, member};

/// The longest name indexed, in bytes: a longer one (generated code, a heading of a whole
/// paragraph) is indexed under its first 256 bytes, cut at a character boundary, so a prefix
/// of it still finds it; its signature line shows the rest as far as it fits.
pub(crate) const MAX_NAME: usize = 256;

/// No parent: a top-level symbol.
pub(crate) const NO_PARENT: u32 = u32::MAX;

/// The longest signature kept, in bytes (cut at a character boundary, with `…`).
pub(crate) const MAX_SIGNATURE: usize = 160;

/// One symbol of a file, without its tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sym {
    pub name: Box<str>,
    /// The line that holds the name, trimmed (the `def`/`class` line, not a decorator's).
    pub signature: Box<str>,
    /// Index of the container in the same file's symbols, or [`NO_PARENT`].
    pub parent: u32,
    pub kind: SymbolKind,
    /// First and last line of the whole symbol, 1-based.
    pub start: u32,
    pub end: u32,
    /// The line of the name, 1-based.
    pub line: u32,
}

impl Sym {
    /// Bytes this symbol holds, its heap text included.
    pub fn bytes(&self) -> usize {
        size_of::<Sym>() + self.name.len() + self.signature.len()
    }
}

/// The language of a file on disk, by name, extension, then shebang.
pub(crate) fn language_of(path: &Path, text: &str) -> Option<Language> {
    let first = text.lines().next();
    Registry::builtin().for_path(path, first)
}

/// The symbols of `text`, outlined as `language` (document order, parents first): skimmed
/// where the language allows it (`locus_scopes::skimmed_index_outline`: the same symbols,
/// without parsing the function bodies that hold none), else as [`symbols_of_doc`].
pub(crate) fn symbols_of_text(text: &str, language: Language) -> Vec<Sym> {
    if let Some((doc, outline)) = locus_scopes::skimmed_index_outline(text, language) {
        return symbols_of_outline(&doc, &outline, language);
    }
    symbols_of_doc(Document::new(text, 0), language)
}

/// The symbols of a document, outlined as `language` with the language's index query
/// (the editor's `symbols.scm` less its `index.skip` patterns): the editor's engine, so
/// kinds and containers are the editor's, without the work that only finds locals or hides
/// definitions (see the crate's docs).
pub(crate) fn symbols_of_doc(doc: Document, language: Language) -> Vec<Sym> {
    symbols_of_outline(&doc, &locus_scopes::index_outline(&doc, language), language)
}

/// The symbols of a document through the editor's own outline (`symbols.scm`): what
/// [`symbols_of_doc`] must agree with, up to the definitions the editor hides.
#[cfg(test)]
pub(crate) fn symbols_of_doc_as_editor(doc: Document, language: Language) -> Vec<Sym> {
    let source = locus_scopes::Source::new(doc, Some(language));
    if !source.has_symbols() {
        return Vec::new();
    }
    symbols_of_outline(source.doc(), &source.outline(), language)
}

/// The symbols of an outline already computed for `doc`, in `language`.
pub(crate) fn symbols_of_outline(
    doc: &Document,
    outline: &Outline,
    language: Language,
) -> Vec<Sym> {
    let mut out = Vec::with_capacity(outline.total);
    let mut line_buf = String::new();
    let ecma = ECMASCRIPT.contains(&language.id());
    for s in &outline.symbols {
        collect(doc, s, NO_PARENT, None, ecma, &mut out, &mut line_buf);
    }
    out
}

/// The languages whose outline labels accessors `(get) x` / `(set) x` and keeps the quotes of
/// string-literal names (the ECMAScript family's queries, `queries/_ecma`): see
/// [`indexed_name`].
const ECMASCRIPT: &[&str] = &["javascript", "typescript", "typescriptreact"];

fn collect(
    doc: &Document,
    s: &Symbol,
    parent: u32,
    parent_kind: Option<SymbolKind>,
    ecma: bool,
    out: &mut Vec<Sym>,
    line_buf: &mut String,
) {
    // Locals and parameters: declared in a body, and not definitions themselves. Their
    // children (an object literal's members) go with them, but not the definitions within.
    if parent_kind.is_some_and(callable) && !definition(s.kind) {
        kept_within_local(doc, s, parent, parent_kind, ecma, out, line_buf);
        return;
    }
    let start = doc.line_of(s.range.start) as u32 + 1;
    let end = doc.line_of(s.range.end) as u32 + 1;
    let name_line = doc.line_of(s.selection.start);
    let line = name_line as u32 + 1;
    let from = doc.line_start(name_line);
    let to = doc.floor_char_boundary(doc.line_content_end(name_line).min(from + 4 * MAX_SIGNATURE));
    line_buf.clear();
    line_buf.push_str(&doc.slice(from, to));
    let signature = one_line(line_buf);
    let index = out.len() as u32;
    out.push(Sym {
        name: capped(if ecma { indexed_name(s.name.as_str(), s.kind) } else { s.name.as_str() })
            .into(),
        signature: signature.into(),
        parent,
        kind: s.kind,
        start,
        end: end.max(start),
        line,
    });
    for c in &s.children {
        collect(doc, c, index, Some(s.kind), ecma, out, line_buf);
    }
}

/// The definitions declared, at any depth, in a dropped local's value: a function or class in
/// the function a local holds (`const setup = () => { function f() { class Mock {} } }`) is a
/// nested definition all the same, kept (with what it holds, as [`collect`] keeps it) under
/// the body's owner, `parent`. The members of an object literal (a method of `const o = {
/// m() {} }`) go with the local; what is defined inside them is looked for the same way.
fn kept_within_local(
    doc: &Document,
    local: &Symbol,
    parent: u32,
    parent_kind: Option<SymbolKind>,
    ecma: bool,
    out: &mut Vec<Sym>,
    line_buf: &mut String,
) {
    for c in &local.children {
        if definition(c.kind) && !member(c.kind) {
            collect(doc, c, parent, parent_kind, ecma, out, line_buf);
        } else {
            kept_within_local(doc, c, parent, parent_kind, ecma, out, line_buf);
        }
    }
}

/// The name an ECMAScript symbol is found by (other languages' names are the outline's as
/// they are: a TOML or YAML key `"quoted key"` keeps its quotes, a Markdown heading
/// `## (get) started` its words). The outline labels an accessor as VS Code does,
/// `(get) balance`, `(set) balance`, and keeps the quotes of a string-literal name
/// (`'setBreakpoints': …`, `declare module '@scope/pkg'`); the index keeps the name itself, so
/// that `balance` and `Ledger.balance` find it as tsserver's `navto` (Ctrl+T) does. The kind
/// and the signature (`get balance() {`) still show the rest. A member named by a property
/// access (`[Symbol.asyncIterator]() {…}`, as the outline and tsserver's navigation tree label
/// it) is found by that property's name, `asyncIterator`, as navto names it.
fn indexed_name(name: &str, kind: SymbolKind) -> &str {
    let name = name.strip_prefix("(get) ").or_else(|| name.strip_prefix("(set) ")).unwrap_or(name);
    if matches!(kind, SymbolKind::Method | SymbolKind::Property | SymbolKind::Field)
        && let Some((object, property)) = name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .and_then(|n| n.rsplit_once('.'))
        && object.split('.').chain([property]).all(identifier)
    {
        return property;
    }
    for quote in ['\'', '"'] {
        if let Some(inner) = name.strip_prefix(quote).and_then(|n| n.strip_suffix(quote))
            && !inner.is_empty()
        {
            return inner;
        }
    }
    name
}

/// An ECMAScript identifier, as far as a computed member name needs (ASCII letters, digits,
/// `_` and `$`, not starting with a digit; anything else keeps the outline's label).
fn identifier(s: &str) -> bool {
    s.chars().next().is_some_and(|c| !c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A name cut to [`MAX_NAME`] bytes at a character boundary.
fn capped(name: &str) -> &str {
    let mut cut = name.len().min(MAX_NAME);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    &name[..cut]
}

/// A line trimmed of its break and surrounding blanks, cut to [`MAX_SIGNATURE`] bytes.
fn one_line(line: &str) -> String {
    let line = line.trim_end_matches(['\n', '\r']).trim();
    if line.len() <= MAX_SIGNATURE {
        return line.to_string();
    }
    let mut cut = MAX_SIGNATURE;
    while !line.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}…", &line[..cut])
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use locus_scopes::IndexExtraction::{FullQuery, Pruned, PrunedOnly};
    use proptest::prelude::RngExt;
    use proptest::test_runner::{RngAlgorithm, TestRng};

    use super::*;

    #[test]
    fn accessors_are_indexed_by_their_name() {
        let text = "class Ledger {\n  get balance(): number { return 0; }\n  set balance(v: number) {}\n}\n";
        expect_test::expect![[r#"
            Class:Ledger in - 1-4 @1 `class Ledger {`
            Property:balance in Ledger 2-2 @2 `get balance(): number { return 0; }`
            Property:balance in Ledger 3-3 @3 `set balance(v: number) {}`
        "#]]
        .assert_eq(&render(text, "typescript"));
    }

    #[test]
    fn string_literal_names_are_indexed_without_their_quotes() {
        let text = "declare module '@scope/pkg' {}\ninterface Requests {\n  'setBreakpoints': number;\n  \"goto\": string;\n}\nenum Sandbox { 'allow-scripts' = 1 }\n";
        expect_test::expect![[r#"
            Module:@scope/pkg in - 1-1 @1 `declare module '@scope/pkg' {}`
            Interface:Requests in - 2-5 @2 `interface Requests {`
            Property:setBreakpoints in Requests 3-3 @3 `'setBreakpoints': number;`
            Property:goto in Requests 4-4 @4 `"goto": string;`
            Enum:Sandbox in - 6-6 @6 `enum Sandbox { 'allow-scripts' = 1 }`
            Variable:allow-scripts in Sandbox 6-6 @6 `enum Sandbox { 'allow-scripts' = 1 }`
        "#]]
        .assert_eq(&render(text, "typescript"));
    }

    #[test]
    fn classes_inside_a_locals_function_are_kept() {
        let text = "describe('layouts', () => {\n  const setup = async () => {\n    const container = 1;\n    class Mock {\n      emitter = 1;\n    }\n  };\n});\n";
        expect_test::expect![[r#"
            Function:describe('layouts') callback in - 1-8 @1 `describe('layouts', () => {`
            Class:Mock in describe('layouts') callback 4-6 @4 `class Mock {`
            Property:emitter in Mock 5-5 @5 `emitter = 1;`
        "#]]
        .assert_eq(&render(text, "typescript"));
    }

    #[test]
    fn definitions_at_any_depth_inside_a_locals_function_are_kept() {
        let text = "describe('x', () => {\n  const setup = () => {\n    function f() {\n      class Mock {\n        run() {}\n      }\n      const local = 1;\n    }\n    const o = {\n      m() {\n        function g() {}\n      },\n    };\n  };\n});\n";
        expect_test::expect![[r#"
            Function:describe('x') callback in - 1-15 @1 `describe('x', () => {`
            Function:f in describe('x') callback 3-8 @3 `function f() {`
            Class:Mock in f 4-6 @4 `class Mock {`
            Method:run in Mock 5-5 @5 `run() {}`
            Function:g in describe('x') callback 11-11 @11 `function g() {}`
        "#]]
        .assert_eq(&render(text, "typescript"));
    }

    #[test]
    fn names_outside_ecmascript_keep_their_quotes_and_parentheses() {
        let text = "# \"Quoted\"\n\n## (get) started\n";
        expect_test::expect![[r#"
            String:# "Quoted" in - 1-4 @1 `# "Quoted"`
            String:## (get) started in # "Quoted" 3-4 @3 `## (get) started`
        "#]]
        .assert_eq(&render(text, "markdown"));
        let text = "\"quoted key\" = 1\n'(get) x' = 2\n";
        expect_test::expect![[r#"
            Number:"quoted key" in - 1-1 @1 `"quoted key" = 1`
            Number:'(get) x' in - 2-2 @2 `'(get) x' = 2`
        "#]]
        .assert_eq(&render(text, "toml"));
        let text = "\"quoted\": 1\n'(set) y': 2\n";
        expect_test::expect![[r#"
            Number:"quoted" in - 1-1 @1 `"quoted": 1`
            Number:'(set) y' in - 2-2 @2 `'(set) y': 2`
        "#]]
        .assert_eq(&render(text, "yaml"));
    }

    #[test]
    fn members_named_by_a_property_access_are_indexed_by_the_property() {
        let text = "class Q {\n  async *[Symbol.asyncIterator]() {}\n  get [Symbol.toStringTag]() { return 'Q'; }\n  [key]() {}\n}\n";
        expect_test::expect![[r#"
            Class:Q in - 1-5 @1 `class Q {`
            Method:asyncIterator in Q 2-2 @2 `async *[Symbol.asyncIterator]() {}`
            Property:toStringTag in Q 3-3 @3 `get [Symbol.toStringTag]() { return 'Q'; }`
            Method:[key] in Q 4-4 @4 `[key]() {}`
        "#]]
        .assert_eq(&render(text, "typescript"));
    }

    fn render(text: &str, lang: &str) -> String {
        let language = Registry::builtin().by_id(lang).unwrap();
        let syms = symbols_of_text(text, language);
        syms.iter()
            .map(|s| {
                let parent = if s.parent == NO_PARENT {
                    "-".to_string()
                } else {
                    syms[s.parent as usize].name.to_string()
                };
                format!(
                    "{}:{} in {parent} {}-{} @{} `{}`\n",
                    s.kind, s.name, s.start, s.end, s.line, s.signature
                )
            })
            .collect()
    }

    #[test]
    fn python_locals_are_dropped_and_nested_definitions_kept() {
        let text = "class Ledger:\n    @property\n    def balance(self):\n        total = 0\n        def inner():\n            pass\n        return total\n\nLIMIT = 3\n";
        expect_test::expect![[r#"
            Class:Ledger in - 1-7 @1 `class Ledger:`
            Method:balance in Ledger 2-7 @3 `def balance(self):`
            Function:inner in balance 5-6 @5 `def inner():`
            Constant:LIMIT in - 9-9 @9 `LIMIT = 3`
        "#]]
        .assert_eq(&render(text, "python"));
    }

    #[test]
    fn python_definitions_the_editor_hides_are_indexed_with_the_editors_kinds() {
        // pyright lists none of these: code after an always-true `raise` guard, the branch a
        // static condition rules out, the earlier of two same-named definitions.
        let text = "import sys\n\nif sys.platform != 'win32':\n    raise ImportError('win32 only')\n\nclass Proactor:\n    def run(self):\n        pass\n\nif sys.version_info >= (3, 8):\n    def spawn():\n        pass\nelse:\n    def spawn():\n        pass\n\nclass Box:\n    @property\n    def size(self):\n        return self._size\n\n    @size.setter\n    def size(self, value):\n        self._size = value\n";
        expect_test::expect![[r#"
            Class:Proactor in - 6-8 @6 `class Proactor:`
            Method:run in Proactor 7-8 @7 `def run(self):`
            Function:spawn in - 11-12 @11 `def spawn():`
            Function:spawn in - 14-15 @14 `def spawn():`
            Class:Box in - 17-24 @17 `class Box:`
            Method:size in Box 18-20 @19 `def size(self):`
            Method:size in Box 22-24 @23 `def size(self, value):`
            Variable:_size in Box 24-24 @24 `self._size = value`
        "#]]
        .assert_eq(&render(text, "python"));
    }

    /// A symbol with its container chain (names and kinds), as the index keeps it; the lines
    /// and signature of definitions only (see the test below).
    fn keyed(syms: &[Sym]) -> Vec<String> {
        syms.iter()
            .map(|s| {
                let mut chain = Vec::new();
                let mut p = s.parent;
                while p != NO_PARENT {
                    let c = &syms[p as usize];
                    chain.push(format!("{}:{}", c.kind, c.name));
                    p = c.parent;
                }
                chain.reverse();
                if !definition(s.kind) {
                    return format!("{}:{} [{}]", s.kind, s.name, chain.join(" > "));
                }
                format!(
                    "{}:{} [{}] {}-{} @{} `{}`",
                    s.kind,
                    s.name,
                    chain.join(" > "),
                    s.start,
                    s.end,
                    s.line,
                    s.signature
                )
            })
            .collect()
    }

    /// Every symbol the editor's outline gives the index is also given, identically (kind,
    /// container chain, lines, signature), by the index query, on every real file of every
    /// language that has an index query. The index query may give more: the definitions the
    /// editor hides (the `index.skip` patterns of `queries/python/symbols.scm`). A variable
    /// (one per name and scope, the first binding) is compared by name, kind and containers:
    /// where the editor deems its first binding unreachable (`if sys.platform == "win32": x =
    /// …`), the index keeps that one.
    #[test]
    #[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
    fn the_index_query_gives_every_symbol_the_editors_outline_gives() {
        let dirs = real_files();
        let files = index_query_files(&dirs);
        assert!(files.iter().any(|(_, l)| l.id() == "python"), "no Python file under {dirs:?}");
        let (mut shared, mut extra) = (0, 0);
        for (path, language) in &files {
            let text = std::fs::read_to_string(path).unwrap();
            let editor = keyed(&symbols_of_doc_as_editor(Document::new(&text, 0), *language));
            let index = keyed(&symbols_of_text(&text, *language));
            let mut left: std::collections::HashMap<&str, usize> = Default::default();
            for k in &index {
                *left.entry(k).or_default() += 1;
            }
            for k in &editor {
                let n = left.get_mut(k.as_str());
                assert!(
                    n.as_ref().is_some_and(|n| **n > 0),
                    "{}: the editor's outline gives the index {k}, the index query does not",
                    path.display()
                );
                *n.unwrap() -= 1;
            }
            shared += editor.len();
            extra += index.len() - editor.len();
        }
        eprintln!(
            "{} files: {shared} symbols as the editor gives them, {extra} more from the index query",
            files.len()
        );
    }

    /// The real files the tests read: those fetched from registry packages
    /// (`locus_fixture::data`) and our own fidelity files.
    fn real_files() -> Vec<std::path::PathBuf> {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        vec![locus_fixture::data::files_dir(), root.join("../../tests/fidelity/files")]
    }

    /// The folders the environment variable `var` names (`DIR[:DIR…]`), else
    /// [`real_files`].
    fn compare_dirs(var: &str) -> Vec<std::path::PathBuf> {
        match std::env::var_os(var) {
            Some(d) => std::env::split_paths(&d).collect(),
            None => real_files(),
        }
    }

    /// Every file under `dirs` in a language with an index query, sorted.
    fn index_query_files(dirs: &[std::path::PathBuf]) -> Vec<(std::path::PathBuf, Language)> {
        let registry = Registry::builtin();
        let mut files = Vec::new();
        let mut stack = dirs.to_vec();
        while let Some(dir) = stack.pop() {
            let entries = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
            for e in entries.flatten() {
                let path = e.path();
                if path.is_dir() {
                    stack.push(path);
                } else if let Some(l) = registry.for_path(&path, None)
                    && registry.has_index_query(l)
                {
                    files.push((path, l));
                }
            }
        }
        files.sort_by(|a, b| a.0.cmp(&b.0));
        files
    }

    /// What one file gives the index by the full query and by the pruned extraction (`None`
    /// where it refuses the file), with one thread's time for each (parse excluded).
    struct BothWays {
        full: Vec<Sym>,
        pruned: Option<Vec<Sym>>,
        full_time: Duration,
        pruned_time: Duration,
    }

    fn both_ways(text: &str, language: Language) -> BothWays {
        let doc = Document::new(text, 0);
        let tree = locus_scopes::index_parse(&doc, language).expect("the grammar loads");
        let t = Instant::now();
        let full = locus_scopes::index_outline_of_tree(&doc, language, &tree, FullQuery);
        let full_time = t.elapsed();
        let t = Instant::now();
        let pruned = locus_scopes::index_outline_of_tree(&doc, language, &tree, PrunedOnly);
        let pruned_time = t.elapsed();
        BothWays {
            full: symbols_of_outline(&doc, &full.expect("the query loads"), language),
            pruned: pruned.map(|p| symbols_of_outline(&doc, &p, language)),
            full_time,
            pruned_time,
        }
    }

    /// The pruned extraction gives the index exactly the symbols (name, kind, parent, lines,
    /// signature, order) the index query run over the whole tree gives, on every registry and
    /// fidelity file of a language with an index query; and it applies (its checks pass) on
    /// them all. `LOCUS_PRUNE_COMPARE_DIR=DIR[:DIR…]` compares every such file under those
    /// directories instead (the Python standard library: 1,788 files, 185,196 symbols), and
    /// prints one thread's time for the full query and the pruned extraction (parse
    /// excluded): run it with `--release --no-capture`.
    #[test]
    #[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
    fn the_pruned_extraction_gives_the_symbols_of_the_full_query() {
        let dirs = compare_dirs("LOCUS_PRUNE_COMPARE_DIR");
        let files = index_query_files(&dirs);
        assert!(files.len() >= 20, "only {} files with an index query under {dirs:?}", files.len());
        let (mut symbols, mut refused) = (0, Vec::new());
        let (mut full_time, mut pruned_time) = (Duration::ZERO, Duration::ZERO);
        for (path, language) in &files {
            let Ok(text) = std::fs::read_to_string(path) else { continue };
            let both = both_ways(&text, *language);
            full_time += both.full_time;
            pruned_time += both.pruned_time;
            symbols += both.full.len();
            match both.pruned {
                Some(p) => assert_eq!(
                    p,
                    both.full,
                    "{}: the pruned extraction's symbols differ from the full query's",
                    path.display()
                ),
                None => refused.push(path.display().to_string()),
            }
        }
        eprintln!(
            "{} files, {symbols} symbols, the same by both; the pruned extraction refused {}; \
             one thread: full query {:.3} s, pruned {:.3} s (parse excluded)",
            files.len(),
            refused.len(),
            full_time.as_secs_f64(),
            pruned_time.as_secs_f64()
        );
        assert!(refused.is_empty(), "the pruned extraction refused {refused:?}");
    }

    /// Files with syntax errors, where a symbol at a zero-width MISSING node lands in a class
    /// by its range (found by a review's random mutations of Python files): the pruned
    /// extraction, where it applies, gives the full query's symbols there too.
    #[test]
    fn the_pruned_extraction_follows_the_full_query_in_broken_files() {
        let python = Registry::builtin().by_id("python").unwrap();
        for text in ["def _(:\n class F:\n :_", ")\n def g(:\n  class F:\n  =1"] {
            let BothWays { full, pruned, .. } = both_ways(text, python);
            assert!(full.iter().any(|s| s.name.is_empty()), "{text:?}: {full:?}");
            if let Some(p) = pruned {
                assert_eq!(p, full, "{text:?}");
            }
        }
    }

    /// The pruned extraction, where it applies, gives the full query's symbols on broken
    /// files too: every real Python file, each cut down to its first 1,500 bytes
    /// and mutated 200 times ([`mutated_python_files`]). (The MISSING-node case of the test
    /// above, which a review's mutations found once in about 2,000 files, is rarer than these
    /// reach: that test keeps it.)
    #[test]
    #[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
    fn the_pruned_extraction_follows_the_full_query_in_mutated_files() {
        let python = Registry::builtin().by_id("python").unwrap();
        let (mut compared, mut differ) = (0, Vec::new());
        mutated_python_files(|text| {
            let BothWays { full, pruned, .. } = both_ways(text, python);
            let Some(pruned) = pruned else { return };
            compared += 1;
            if pruned != full {
                differ.push(text.to_string());
            }
        });
        assert!(compared >= 100, "only {compared} mutated files were pruned");
        assert!(
            differ.is_empty(),
            "{} of {compared} differ, the first: {:?}",
            differ.len(),
            differ[0]
        );
    }

    /// Every Python corpus and fidelity file, cut down to its first 1,500 bytes and mutated
    /// 200 times (a span deleted, or a fragment that leaves something unclosed or misplaced
    /// inserted at a random place), from a fixed seed, each given to `check`.
    fn mutated_python_files(mut check: impl FnMut(&str)) {
        const FRAGMENTS: &[&str] = &[
            "(",
            ")",
            ":",
            "\n",
            "\n  ",
            "\n    ",
            "=1",
            " = ",
            "def g(",
            "class F:",
            "\n class F:\n",
            "self.",
            "cls.x = 1\n",
            "@d\n",
            "if x:\n",
            "try:\n",
            "\"",
            "'''",
            "[",
            "lambda:",
            "__slots__ = ('a',)\n",
            "global x\n",
            ",",
        ];
        const MUTATIONS: usize = 200;
        let dirs = real_files();
        let files: Vec<_> =
            index_query_files(&dirs).into_iter().filter(|(_, l)| l.id() == "python").collect();
        assert!(files.len() >= 5, "only {} Python files under {dirs:?}", files.len());
        // A fixed sequence: proptest's deterministic ChaCha generator.
        let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        let mut next = move |n: usize| rng.random_range(0..n.max(1));
        for (path, _) in &files {
            let whole = std::fs::read_to_string(path).unwrap();
            let mut end = whole.len().min(1500);
            while !whole.is_char_boundary(end) {
                end -= 1;
            }
            for _ in 0..MUTATIONS {
                let mut text = whole[..end].to_string();
                for _ in 0..1 + next(3) {
                    let mut at = next(text.len() + 1);
                    while !text.is_char_boundary(at) {
                        at -= 1;
                    }
                    if next(2) == 0 {
                        let mut to = (at + 1 + next(40)).min(text.len());
                        while !text.is_char_boundary(to) {
                            to += 1;
                        }
                        text.replace_range(at..to, "");
                    } else {
                        text.insert_str(at, FRAGMENTS[next(FRAGMENTS.len())]);
                    }
                }
                check(&text);
            }
        }
    }

    /// What skimming gives a file against its whole parse: `None` where nothing is skimmed;
    /// else whether the whole parse has an error, and both symbol lists.
    fn skimmed_and_whole(text: &str, language: Language) -> Option<(bool, Vec<Sym>, Vec<Sym>)> {
        let (doc, outline) = locus_scopes::skimmed_index_outline(text, language)?;
        let skimmed = symbols_of_outline(&doc, &outline, language);
        // The whole parse, outlined as `symbols_of_doc` does (the pruned extraction).
        let doc = Document::new(text, 0);
        let tree = locus_scopes::index_parse(&doc, language).unwrap();
        let outline = locus_scopes::index_outline_of_tree(&doc, language, &tree, Pruned).unwrap();
        let whole = symbols_of_outline(&doc, &outline, language);
        Some((tree.root_node().has_error(), skimmed, whole))
    }

    /// Skimming (the function bodies that hold nothing the index keeps parsed as `pass`) gives
    /// the index exactly the symbols of the whole parse (names, kinds, parents, lines,
    /// signatures, order) on every real Python file, and skims most of them.
    /// `LOCUS_SKIM_COMPARE_DIR=DIR[:DIR…]` compares every Python file under those folders
    /// instead (the standard library) and prints the files that differ; only files whose whole
    /// parse has an error may (a syntax error inside a skimmed body is not seen: `skim.rs`).
    #[test]
    #[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
    fn skimming_gives_the_symbols_of_the_whole_parse() {
        let dirs = compare_dirs("LOCUS_SKIM_COMPARE_DIR");
        let files: Vec<_> =
            index_query_files(&dirs).into_iter().filter(|(_, l)| l.id() == "python").collect();
        let (mut skimmed, mut symbols, mut broken) = (0, 0, Vec::new());
        for (path, language) in &files {
            let Ok(text) = std::fs::read_to_string(path) else { continue };
            let Some((error, skim, whole)) = skimmed_and_whole(&text, *language) else {
                continue;
            };
            skimmed += 1;
            symbols += whole.len();
            if skim != whole {
                assert!(
                    error,
                    "{}: skimming changed the symbols of a file without errors",
                    path.display()
                );
                broken.push(path.display().to_string());
            }
        }
        eprintln!(
            "{} Python files, {skimmed} skimmed, {symbols} symbols; differing (syntax errors): {broken:?}",
            files.len()
        );
        if std::env::var_os("LOCUS_SKIM_COMPARE_DIR").is_none() {
            assert!(skimmed * 2 > files.len(), "only {skimmed} of {} files skimmed", files.len());
            assert!(broken.is_empty(), "{broken:?}");
        }
    }

    /// Texts where tree-sitter reads Python otherwise than Python does, or than a simple
    /// reader would, from a review that looked for them (each differed before the reader
    /// followed tree-sitter there, or is a neighbour of one that did): f-string fields opened
    /// at `\{`, `t`-string and long prefixes, `\N{…}` holding quotes, a line continued
    /// before its first token, a form feed, a lone `\r`, characters the scanner reads as
    /// spaces (U+200B, U+FEFF, U+00A0, U+3000), and lines tree-sitter joins because the
    /// grammar cannot end them there (`self.` + newline + `x = 1`). Each is either not skimmed
    /// or skimmed to the whole parse's symbols.
    #[test]
    fn skimming_follows_tree_sitters_reading_of_odd_texts() {
        let python = Registry::builtin().by_id("python").unwrap();
        for (name, text) in [
            ("backtick", "def f():\n    return 1\nx = `y`\n"),
            ("bom_start", "\u{feff}def f():\n    return 1\n"),
            (
                "case_list",
                "class A:\n    def f(self):\n        match y:\n            case [self.a, *b]:\n                pass\n",
            ),
            (
                "case_tuple",
                "class A:\n    def f(self):\n        match y:\n            case (self.a, b):\n                pass\n",
            ),
            ("comp_attr", "class A:\n    def f(self):\n        z = [0 for self.a in y]\n"),
            (
                "comp_listpattern",
                "class A:\n    def f(self):\n        z = {0 for [self.a, b] in y}\n",
            ),
            (
                "comp_patternlist",
                "class A:\n    def f(self):\n        z = [0 for self.a, b in y]\n",
            ),
            (
                "comp_tuplepattern",
                "class A:\n    def f(self):\n        z = [0 for (self.a, b) in y]\n",
            ),
            (
                "cont_depth_cls",
                "class A:\n    def f(cls):\n        if a:\n            if b:\n                pass\n    \\\n                cls.x = 1\n",
            ),
            (
                "cont_depth_self",
                "class A:\n    def f(this):\n        if a:\n            if b:\n                pass\n    \\\n                self.x = 1\n",
            ),
            (
                "cont_depth_self2",
                "class A:\n    def f(this):\n        if a:\n            return\n    \\\n    self.x = 1\n",
            ),
            (
                "cr_after_pass",
                "def f():\n    x = \"\"\"\nabcdefgh\rij\"\"\"\n\ndef g():\n    pass\n",
            ),
            ("cr_escaped", "def f():\n    x = \"abcdefgh\\\rij\"\n\ndef g():\n    pass\n"),
            (
                "cr_in_triple",
                "class A:\n    def f(self):\n        y = \"\"\"\n\r      abc\"\"\"\n    def g(self):\n        pass\n",
            ),
            ("cr_in_triple2", "def f():\n    y = \"\"\"\n  \r       abc\"\"\"\n"),
            (
                "cr_overwritten",
                "def f():\n    x = \"\"\"\nabcde\rfghij\"\"\"\n\ndef g():\n    pass\n",
            ),
            ("del_list", "class A:\n    def f(self):\n        del [self.a, b]\n"),
            ("del_tuple", "class A:\n    def f(self):\n        del (self.a, b)\n"),
            (
                "f_escbrace_self",
                "class A:\n    def f(self):\n        x = f\"\\{'\"'}\"; self.a = 1  # '\n",
            ),
            (
                "fb_prefix",
                "class A:\n    def f(self):\n        x = fb\"{'\"'}\"; self.a = 1  # '\n",
            ),
            ("feff_self", "class A:\n    def f(self):\n        \u{feff}self.a = 1\n"),
            ("ff_after_continuation", "def f():\n    x = 1\n    \\\n\u{c}yy = 22222222\n"),
            (
                "ff_after_continuation_cls",
                "class A:\n    def f(self):\n        x = 1\n        \\\n\u{c}    def g(self): pass\n",
            ),
            ("genexp_pl", "class A:\n    def f(self):\n        z = sum(0 for self.a, b in y)\n"),
            ("ideo_space_self", "class A:\n    def f(self):\n        x=1;\u{3000}self.a = 1\n"),
            ("join_dot", "class A:\n    def f(self):\n        self.\n        x = 1\n"),
            ("join_extent", "def f():\n    x = a.\nb = 1\n"),
            ("join_for", "class A:\n    def f(self):\n        for\n        self.x in y: pass\n"),
            ("join_plus_extent", "def f():\n    x = 1 +\n2\ny = 3\n"),
            (
                "join_with_as",
                "class A:\n    def f(self):\n        with a as\n        self.x: pass\n",
            ),
            (
                "lambda_comp",
                "class A:\n    def f(self):\n        z = lambda: [0 for self.a, b in y]\n",
            ),
            (
                "named_escape",
                "class A:\n    def f(self):\n        x = \"\\N{\"{\"x\"}\"; self.a = 1  # \"\n",
            ),
            ("nbsp_def", "def f():\n    x = 1\n    \u{a0}def g():\n        pass\n"),
            ("nbsp_def2", "def f():\n    x = 1\n    \u{a0}def g(): pass\n"),
            ("nested_comment", "def f():\n    if x:\n        y = 1\n        # c\nz = 2\n"),
            (
                "nested_comp",
                "class A:\n    def f(self):\n        z = [0 for q in y for self.a, b in q]\n",
            ),
            ("print_chevron", "class A:\n    def f(self):\n        print >>self.a, b\n"),
            (
                "rf_bracket_extent",
                "def f():\n    x = rf\"\\{\"(\" }\"\ny = 1\nz = rf\"\\{\")\" }\"\n",
            ),
            (
                "rf_escbrace_self",
                "class A:\n    def f(self):\n        x = rf\"\\{'\"'}\"; self.a = 1  # '\n",
            ),
            (
                "rf_hides_def",
                "def f():\n    x = rf\"\\{'''\"'''}\"\n    def g():\n        pass\n    y = 1  # '''\n",
            ),
            ("rf_hides_def_single", "def f():\n    x = rf'\\{\"'\"}'\n    class G: pass  # \"\n"),
            (
                "rt_prefix",
                "class A:\n    def f(self):\n        x = Rt\"{'\"'}\"; self.a = 1  # '\n",
            ),
            ("t_bracket_extent", "def f():\n    x = t\"{\"(\" }\"\ny = 1\nz = t\"{\")\" }\"\n"),
            ("tstring_hides_def", "def f():\n    x = t\"{'\"'}\"\n    def g(): pass  # '\n"),
            (
                "tstring_hides_def2",
                "def f():\n    x = t\"{'''\"'''}\"\n    def g():\n        pass\n    y = 1  # '''\n",
            ),
            (
                "tstring_hides_self",
                "class A:\n    def f(self):\n        x = t\"{'\"'}\"; self.a = 1  # '\n",
            ),
            ("zwsp_class", "def f():\n    x = 1\n    \u{200b}class G: pass\n"),
            ("zwsp_self", "class A:\n    def f(self):\n        x = 1;\u{200b}self.a = 1\n"),
            // From a second review: `as` inside a field, a number run into `as`, quotes in a
            // format spec.
            ("fstr_as", "class A:\n    def f(self):\n        return f\"{c as self.a}\"\n"),
            (
                "tstr_as_nested",
                "class A:\n    def f(self):\n        self.k = 1\n        x = t\"{f'{c as self.a}'}\"\n",
            ),
            ("fspec_as", "class A:\n    def f(self):\n        return f\"{x:{c as self.a}}\"\n"),
            ("num_as", "class A:\n    def f(self):\n        return (1as self.a)\n"),
            (
                "fspec_quote",
                "class A:\n    def f(self, x):\n        s = f'{x:\">10}' + \"a\"; self.b = 1; t = \"}'\"  # \"\n",
            ),
            (
                "fspec_triple",
                "class A:\n    def f(self, x):\n        s = f'''{x:\"\"\"}'''\n        def g(): pass\n        t = \"\"\"}'''\"\"\"  # \"\"\"\n",
            ),
        ] {
            if let Some((error, skimmed, whole)) = skimmed_and_whole(text, python) {
                assert!(error || skimmed == whole, "{name}: {text:?}\n{skimmed:?}\n{whole:?}");
            }
        }
    }

    /// Strings nested in replacement fields deeper than the reader follows (35,000 levels, a
    /// 210 KB file under the size limit) are not skimmed, and do not exhaust the stack.
    #[test]
    fn deeply_nested_fstrings_are_not_skimmed() {
        let python = Registry::builtin().by_id("python").unwrap();
        let deep =
            |n: usize| format!("def f():\n    return {}1{}\n", "f'{".repeat(n), "}'".repeat(n));
        assert!(locus_scopes::skimmed_index_outline(&deep(35_000), python).is_none());
        assert!(locus_scopes::skimmed_index_outline(&deep(8), python).is_some());
    }

    /// Skimming gives the whole parse's symbols on broken files too, wherever the whole parse
    /// has no error or the skimmed one has (then the file is parsed whole): the mutated files
    /// of [`mutated_python_files`]. Where only the whole parse has an error, inside a skimmed
    /// body, the two may differ; counted, not compared.
    #[test]
    #[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
    fn skimming_follows_the_whole_parse_in_mutated_files() {
        let python = Registry::builtin().by_id("python").unwrap();
        let (mut compared, mut unseen, mut unseen_differ, mut differ) = (0, 0, 0, Vec::new());
        mutated_python_files(|text| {
            let Some((error, skimmed, whole)) = skimmed_and_whole(text, python) else { return };
            if error {
                unseen += 1;
                unseen_differ += usize::from(skimmed != whole);
                return;
            }
            compared += 1;
            if skimmed != whole {
                differ.push(text.to_string());
            }
        });
        eprintln!(
            "{compared} skimmed mutated files compared; {unseen} with an error only the whole \
             parse has, {unseen_differ} of them with other symbols"
        );
        assert!(compared >= 40, "only {compared} mutated files were skimmed and compared");
        assert!(
            differ.is_empty(),
            "{} of {compared} differ, the first: {:?}",
            differ.len(),
            differ[0]
        );
    }

    #[test]
    fn long_names_are_indexed_by_their_first_bytes() {
        let text = format!("def a{}():\n    pass\n", "é".repeat(20_000));
        let syms = symbols_of_text(&text, Registry::builtin().by_id("python").unwrap());
        assert_eq!(syms.len(), 1);
        assert_eq!(*syms[0].name, text[4..4 + 255]);
        assert_eq!(syms[0].name.len(), MAX_NAME - 1);
    }

    #[test]
    fn long_lines_are_cut_at_a_character_boundary() {
        let long = format!("def f({}):", "é".repeat(200));
        let cut = one_line(&long);
        assert!(cut.len() <= MAX_SIGNATURE + "…".len());
        assert!(cut.ends_with('…'));
    }
}
