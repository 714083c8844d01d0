//! The Python index query is `queries/python/symbols.scm` less the patterns it marks
//! `index.skip`, with `index.merge` for `merge` (`queries/README.md`). These tests keep what the
//! index leaves out a reviewed list ([`SKIPPED`]: every marked pattern is named there with its
//! reason, every entry names a marked pattern), keep `index.merge` to definitions, and keep the
//! index's outline of every real Python file the recorded one, byte for byte.

use std::path::PathBuf;

/// Patterns of `symbols.scm` marked `index.skip`, each named by a piece of its text (tokens
/// joined by one space), with the reason. Each must name at least one marked pattern, and
/// every marked pattern must be named.
const SKIPPED: &[(&str, &str)] = &[
    // Unreachable code: pyright binds nothing after return/raise/continue/break, nor in a
    // branch a static condition rules out; the index keeps those definitions (the
    // definitions of every runtime).
    ("( block [ ( return_statement ) ( raise_statement )", "statements after return/raise"),
    ("( #static-false? @_c )", "a false static condition"),
    ("( #static-true? @_c )", "a true static condition"),
    // Locals only: the index drops what a function body declares unless it is a definition.
    ("( global_statement ( identifier ) @_g )", "`global x`: later bindings are not locals"),
    ("( #any-of? @_p \"self\" \"cls\" )", "a reassigned self/cls parameter"),
    ("( ( parameters", "parameters"),
    // Definitions pyright hides: a def or class in a `try`'s `else` beside an `except` one.
    (
        "( else_clause body: ( block [ ( function_definition name: ( identifier ) @_b ) @ignore",
        "a try/else def beside an except def",
    ),
];

/// The top-level patterns of a query file, each as its tokens joined by one space (comments
/// and layout dropped).
fn patterns(text: &str) -> Vec<String> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut depth = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let token = match c {
            ';' => {
                while chars.next_if(|&c| c != '\n').is_some() {}
                continue;
            }
            c if c.is_whitespace() => continue,
            '(' | '[' | ')' | ']' => c.to_string(),
            '"' => {
                let mut s = String::from('"');
                while let Some(c) = chars.next() {
                    s.push(c);
                    if c == '\\' {
                        s.extend(chars.next());
                    } else if c == '"' {
                        break;
                    }
                }
                s
            }
            c => {
                let mut s = String::from(c);
                while let Some(c) = chars.next_if(|&c| !c.is_whitespace() && !"()[]\";".contains(c))
                {
                    s.push(c);
                }
                s
            }
        };
        match token.as_str() {
            "(" | "[" => {
                if depth == 0 {
                    out.push(Vec::new());
                }
                depth += 1;
            }
            ")" | "]" => depth -= 1,
            _ => {}
        }
        out.last_mut().expect("a token before the first pattern").push(token);
    }
    assert_eq!(depth, 0, "unbalanced query");
    out.into_iter().map(|t| t.join(" ")).collect()
}

fn read(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../queries/python").join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_python_index_skips_the_listed_patterns_and_merges_no_definition() {
    let editor = patterns(&read("symbols.scm"));
    assert!(editor.len() > 20, "{} patterns", editor.len());
    let marked: Vec<&String> =
        editor.iter().filter(|p| p.contains("( #set! index.skip ")).collect();
    for p in &marked {
        assert!(
            SKIPPED.iter().any(|(piece, _)| p.contains(piece)),
            "symbols.scm marks a pattern index.skip that no entry of SKIPPED names:\n{p}"
        );
    }
    for (piece, why) in SKIPPED {
        assert!(
            marked.iter().any(|p| p.contains(piece)),
            "the entry {why:?} names no pattern marked index.skip"
        );
    }
    // `index.merge "none"`: every def and class stays in the index (both branches of an `if`,
    // a property's getter and setter); variables still merge as in the editor.
    let unmerged: Vec<&String> = editor.iter().filter(|p| p.contains("index.merge")).collect();
    assert_eq!(unmerged.len(), 7, "{unmerged:#?}");
    for p in unmerged {
        assert!(p.contains("( #set! index.merge \"none\" )"), "{p}");
        assert!(
            p.contains("@symbol.class")
                || p.contains("@symbol.method")
                || p.contains("@symbol.function"),
            "{p}"
        );
    }
}

#[test]
fn patterns_are_split_at_the_top_level_with_their_captures() {
    let text = "; a comment (\n(decorator) @ignore\n((a \"x)\\\"\" ; (\n b) (#eq? @a \"y\"))\n[(c) (d)] @x\n";
    assert_eq!(
        patterns(text),
        ["( decorator ) @ignore", "( ( a \"x)\\\"\" b ) ( #eq? @a \"y\" ) )", "[ ( c ) ( d ) ] @x"]
    );
}

/// The Python files the golden outlines cover: the repository's own (fidelity and scope
/// files, which hold the odd cases: static conditions, try/else, `global`, slots) or those
/// fetched from registry packages (`locus_fixture::data`, mypy's large `checker.py` among them).
fn python_files(fetched: bool) -> Vec<(String, PathBuf)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dirs = if fetched {
        vec![("registry", locus_fixture::data::files_dir().join("py"))]
    } else {
        vec![
            ("tests/fidelity/files/py", root.join("tests/fidelity/files/py")),
            ("tests/scopes/python", root.join("tests/scopes/python")),
        ]
    };
    let mut files = Vec::new();
    for (label, dir) in dirs {
        let mut stack = vec![dir.clone()];
        while let Some(d) = stack.pop() {
            let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
            for e in entries.flatten() {
                let path = e.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|x| x == "py") {
                    let rel = path.strip_prefix(&dir).unwrap().display().to_string();
                    files.push((format!("{label}/{rel}"), path));
                }
            }
        }
    }
    files.sort();
    assert!(files.len() >= 5, "only {} Python files", files.len());
    files
}

/// FNV-1a, 64 bits: a digest that stays the same across Rust releases and platforms
/// (`std`'s hashers promise neither), for a golden file that would otherwise hold megabytes.
fn fnv1a(text: &str) -> u64 {
    text.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// The index's outline of every Python file of a set is the one recorded in
/// `tests/index_outlines/` (symbol count and a digest of the whole outline, each
/// symbol's depth, kind, name, range and selection): a change to the Python query that
/// changes what the index sees fails here. Recorded from `queries/python/index.scm`, a copy
/// of `symbols.scm` with rules taken out by hand, before the index query became `symbols.scm`
/// less its `index.skip` patterns, which gives the same outlines byte for byte (and on the
/// 668 files of `/usr/lib/python3.11`). `UPDATE_EXPECT=1 cargo test -p locus-index --test index_query`
/// records them again; `locus-scopes`'s `outline_dump` example shows what changed.
fn index_outlines(fetched: bool) -> String {
    let python = locus_scopes::Registry::builtin().by_id("python").unwrap();
    let mut out = String::new();
    for (label, path) in python_files(fetched) {
        let text = std::fs::read_to_string(&path).unwrap();
        // The index query's whole outline (locals included), as the full query gives it: the
        // index's own extraction leaves out locals it drops anyway (`pruned.rs`; that it gives
        // the same symbols is `file.rs`'s `the_pruned_extraction_gives_the_symbols_of_the_full_query`).
        let doc = locus_doc::Document::new(&text, 0);
        let tree = locus_scopes::index_parse(&doc, python).expect("the grammar loads");
        let outline = locus_scopes::index_outline_of_tree(
            &doc,
            python,
            &tree,
            locus_scopes::IndexExtraction::FullQuery,
        )
        .expect("the query loads");
        let lines = outline.dump();
        out.push_str(&format!(
            "{label} {} {:016x}\n",
            outline.total,
            fnv1a(&format!("{}\n{lines}", outline.total))
        ));
    }
    out
}

#[test]
fn the_python_index_outlines_of_our_own_files_are_the_recorded_ones() {
    expect_test::expect_file!["index_outlines/own.txt"].assert_eq(&index_outlines(false));
}

#[test]
#[ignore = "reads registry packages fetched by scripts/fetch-test-data.py; scripts/test.sh runs it"]
fn the_python_index_outlines_of_the_registry_files_are_the_recorded_ones() {
    expect_test::expect_file!["index_outlines/registry.txt"].assert_eq(&index_outlines(true));
}
