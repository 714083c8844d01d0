//! JSON shapes of the external contracts, converted from core types: outlines and ranges here,
//! the editorContext (`docs/reference/editor-context.md`) through the envelope's serializer.

use locus_doc::{Document, PositionEncoding};
use locus_scopes::{Outline, Span, Symbol};
use serde_json::{Value, json};

/// The editorContext object: the envelope's shape, made in `locus-tools`, so that every way
/// out (the envelope, `locus/getContext`, `locus context`) writes the same.
pub use locus_tools::editor_context_json as editor_context;

/// An LSP range (0-based) for a byte span, in `encoding`.
pub fn range(doc: &Document, span: Span, encoding: PositionEncoding) -> Value {
    let p = |o| {
        let p = doc.position_at(o, encoding);
        json!({"line": p.line, "character": p.character})
    };
    json!({"start": p(span.start), "end": p(span.end)})
}

/// LSP `DocumentSymbol[]` (kinds by name), positions in `encoding`.
pub fn document_symbols(doc: &Document, outline: &Outline, encoding: PositionEncoding) -> Value {
    fn one(doc: &Document, s: &Symbol, encoding: PositionEncoding) -> Value {
        json!({
            "name": s.name, "kind": s.kind.name(),
            "range": range(doc, s.range, encoding),
            "selectionRange": range(doc, s.selection, encoding),
            "children": s.children.iter().map(|c| one(doc, c, encoding)).collect::<Vec<_>>(),
        })
    }
    Value::Array(outline.symbols.iter().map(|s| one(doc, s, encoding)).collect())
}

/// The outline as an indented tree, one symbol a line: `Kind name  [first-last]` (1-based lines).
pub fn outline_tree(doc: &Document, outline: &Outline) -> String {
    fn walk(doc: &Document, symbols: &[Symbol], depth: usize, out: &mut String) {
        for s in symbols {
            let (a, b) = (doc.line_of(s.range.start) + 1, doc.line_of(s.range.end) + 1);
            out.push_str(&format!("{}{} {}  [{a}-{b}]\n", "  ".repeat(depth), s.kind, s.name));
            walk(doc, &s.children, depth + 1, out);
        }
    }
    let mut out = String::new();
    walk(doc, &outline.symbols, 0, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use locus_doc::PositionEncoding;

    use crate::state::{ContextQuery, EditorState};

    fn file_of(uri: &str) -> serde_json::Value {
        let mut s = EditorState::new();
        s.open(uri, "markdown", 1, "# Notes\n");
        let query = ContextQuery { uri: None, position: None, encoding: PositionEncoding::Utf16 };
        let ctx = s.context(query).unwrap().expect("the buffer is the active editor");
        super::editor_context(&ctx)["file"].clone()
    }

    #[test]
    fn untitled_buffers_have_a_name_and_no_path() {
        let file = file_of("untitled:Untitled-1");
        assert_eq!(file["path"], serde_json::Value::Null, "{file}");
        assert_eq!(file["name"], "Untitled-1");
        assert_eq!(file["uri"], "untitled:Untitled-1");
        let file = file_of("file:///w/docs/a%20b.md");
        assert_eq!((&file["path"], &file["name"]), (&"/w/docs/a b.md".into(), &"a b.md".into()));
        assert_eq!(file["uri"], "file:///w/docs/a%20b.md");
    }
}
