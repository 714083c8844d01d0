//! editorContext edge cases: no grammar, positions past the end, inside a surrogate pair,
//! empty files, selections.

use locus_context::{NO_PROVIDER_WARNING, Request, Selection, SymbolSource, Symbols, build};
use locus_doc::{Document, Position, PositionEncoding};
use locus_scopes::{Registry, Source, Span};

fn source(text: &str, lang: Option<&str>) -> Source {
    Source::new(Document::new(text, 1), lang.map(|l| Registry::builtin().by_id(l).unwrap()))
}

fn request(cursor: usize) -> Request<'static> {
    Request {
        path: "/w/f",
        language_id: None,
        is_dirty: false,
        cursor,
        selection: None,
        symbols: Symbols::Syntax,
    }
}

#[test]
fn plain_text_has_a_warning_and_no_scopes() {
    let ctx = build(&source("hello\nworld\n", None), &request(3));
    assert_eq!(ctx.file.language_id, "plaintext");
    assert_eq!(ctx.symbols.source, SymbolSource::None);
    assert_eq!(ctx.symbols.warning.as_deref(), Some(NO_PROVIDER_WARNING));
    assert!(ctx.symbols.containing_scopes.is_empty());
    assert_eq!(ctx.file.line_count, 3);
}

#[test]
fn positions_past_the_end_and_inside_surrogates_clamp() {
    let text = "function f() {\n  const x = '😀';\n}\n";
    let src = source(text, Some("typescript"));
    let ctx = build(&src, &request(10_000));
    assert_eq!((ctx.cursor.line, ctx.cursor.character), (4, 1));
    // A UTF-16 column in the middle of the emoji's surrogate pair snaps to its start.
    let inside = src.doc().offset_at(Position::new(1, 14), PositionEncoding::Utf16);
    let ctx = build(&src, &request(inside + 1));
    assert_eq!((ctx.cursor.line, ctx.cursor.character), (2, 14));
    assert_eq!(ctx.symbols.hierarchy(), "Function:f > Variable:x");
}

#[test]
fn empty_file() {
    for lang in [None, Some("typescript"), Some("markdown")] {
        let ctx = build(&source("", lang), &request(0));
        assert_eq!((ctx.cursor.line, ctx.cursor.character, ctx.file.line_count), (1, 1, 1));
        assert!(ctx.symbols.containing_scopes.is_empty());
    }
}

#[test]
fn selection_text_and_range() {
    let src = source("let a = 1;\nlet b = 2;\n", Some("javascript"));
    let mut req = request(4);
    req.selection = Some(Span { start: 15, end: 4 });
    let ctx = build(&src, &req);
    let Selection::Text { text, start, end, .. } = ctx.selection else {
        panic!("expected a selection")
    };
    assert_eq!(text, "a = 1;\nlet ");
    assert_eq!((start.line, start.character, end.line, end.character), (1, 5, 2, 5));
}

#[test]
fn scope_ranges_are_whole_lines_one_based() {
    let src = source("class A {\n  m() {\n    return 1;\n  }\n}\n", Some("typescript"));
    let ctx = build(&src, &request(26));
    let scopes = &ctx.symbols.containing_scopes;
    assert_eq!(ctx.symbols.hierarchy(), "Class:A > Method:m");
    assert_eq!((scopes[0].start_line, scopes[0].end_line, scopes[0].length()), (1, 5, 5));
    assert_eq!(ctx.symbols.immediate_scope().unwrap().name, "m");
}
