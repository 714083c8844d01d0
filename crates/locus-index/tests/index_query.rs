//! `queries/python/index.scm` is `symbols.scm` with rules taken out (see its header): this
//! keeps the two in step. Every pattern of the index query is a pattern of the editor's, in the
//! same order, up to the properties listed in [`REMOVED`]; every pattern of the editor's is in
//! the index query or named by an entry of [`EXCLUDED`], which says why it is left out. A rule
//! added to or changed in `symbols.scm` fails here until `index.scm` follows or the exclusion
//! list says why not.

use std::path::PathBuf;

/// Token sequences the index query may drop from a pattern it keeps: `merge "typed"` keeps
/// the last of a def, class or annotated assignment of one name; the index keeps every def
/// and class instead (variables, annotated ones included, still merge as in the editor).
const REMOVED: &[&str] = &["( #set! merge \"typed\" )"];

/// Patterns of `symbols.scm` the index query leaves out, each named by a piece of its text
/// (tokens joined by one space), with the reason. Each must name at least one pattern of
/// `symbols.scm` and none of `index.scm`.
const EXCLUDED: &[(&str, &str)] = &[
    // Unreachable code: pyright binds nothing after return/raise/continue/break, nor in a
    // branch a static condition rules out; the index keeps those definitions (and the regular
    // expressions were a third of the build's query time).
    ("( block [ ( return_statement ) ( raise_statement )", "statements after return/raise"),
    ("( #match? @_c \"(^|\\\\sand\\\\s+)", "a false static condition"),
    ("( #match? @_c \"(^|\\\\sor\\\\s+)", "a true static condition"),
    ("( #match? @_c \"^\\\\(?\\\\s*(sys", "all `and` operands true"),
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
fn the_python_index_query_is_the_editors_without_the_listed_rules() {
    let editor = patterns(&read("symbols.scm"));
    let index = patterns(&read("index.scm"));
    assert!(editor.len() > 20 && index.len() > 10, "{} and {} patterns", editor.len(), index.len());
    let stripped: Vec<String> = editor
        .iter()
        .map(|p| REMOVED.iter().fold(p.clone(), |p, r| p.replace(&format!(" {r}"), "")))
        .collect();
    // Every index pattern is an editor pattern, in the editor's order.
    let mut at = 0;
    let mut kept = vec![false; editor.len()];
    for p in &index {
        let Some(i) = (at..editor.len()).position(|i| editor[i] == *p || stripped[i] == *p) else {
            panic!(
                "index.scm has a pattern symbols.scm does not have (after it, up to {REMOVED:?}):\n{p}"
            );
        };
        kept[at + i] = true;
        at += i + 1;
    }
    // Every editor pattern left out is excluded, for a stated reason.
    for (p, kept) in editor.iter().zip(kept) {
        if !kept {
            assert!(
                EXCLUDED.iter().any(|(piece, _)| p.contains(piece)),
                "symbols.scm has a pattern index.scm lacks and no exclusion names:\n{p}"
            );
        }
    }
    for (piece, why) in EXCLUDED {
        assert!(editor.iter().any(|p| p.contains(piece)), "the exclusion {why:?} names no pattern");
        assert!(
            !index.iter().any(|p| p.contains(piece)),
            "the exclusion {why:?} names a pattern index.scm has"
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
