//! JSON shapes of the external contracts (`docs/reference/editor-context.md`), converted from core types.
//! This is the only place that knows how Locus's data looks on the wire.

use locus_context::{Cursor, EditorContext, Scope, Selection};
use locus_doc::{Document, PositionEncoding};
use locus_scopes::{Outline, Span, Symbol};
use serde_json::{Value, json};

/// The editorContext object.
pub fn editor_context(ctx: &EditorContext) -> Value {
    let scope = |s: &Scope| {
        json!({"name": s.name, "kind": s.kind.name(),
               "range": {"start": s.start_line, "end": s.end_line, "length": s.length()}})
    };
    let cursor = |c: &Cursor| json!({"line": c.line, "character": c.character});
    let selection = match &ctx.selection {
        Selection::Empty => json!({"isEmpty": true, "text": null, "range": null}),
        Selection::Text { text, length, start, end } => {
            json!({"isEmpty": false, "text": text, "length": length,
                   "range": {"start": cursor(start), "end": cursor(end)}})
        }
    };
    let s = &ctx.symbols;
    let mut symbols = json!({
        "totalInDocument": s.total_in_document,
        "containingScopes": s.containing_scopes.iter().map(scope).collect::<Vec<_>>(),
        "immediateScope": s.immediate_scope().map(scope),
        "scopeHierarchy": s.hierarchy(),
        "source": s.source.as_str(),
    });
    if let Some(w) = &s.warning {
        symbols["warning"] = json!(w);
    }
    let mut file = json!({"path": ctx.file.path, "name": file_name(&ctx.file),
                          "languageId": ctx.file.language_id,
                          "lineCount": ctx.file.line_count, "isDirty": ctx.file.is_dirty});
    if let Some(uri) = &ctx.file.uri {
        file["uri"] = json!(uri);
        // A buffer that is not a file (`untitled:Untitled-1`) has no path: its name says
        // which buffer it is.
        if !uri.starts_with("file:") {
            file["path"] = Value::Null;
        }
    }
    let mut out = json!({
        "file": file,
        "cursor": cursor(&ctx.cursor),
        "selection": selection,
        "symbols": symbols,
    });
    if let Some(focused) = ctx.focused {
        out["focused"] = json!(focused);
    }
    out
}

/// What an editor's tab shows: a file's base name, or the part of another URI after its scheme
/// and any slashes (`untitled:Untitled-1` → `Untitled-1`).
fn file_name(file: &locus_context::FileInfo) -> String {
    let whole = match &file.uri {
        Some(uri) if !uri.starts_with("file:") => {
            uri.split_once(':').map_or(uri.as_str(), |(_, rest)| rest)
        }
        _ => file.path.as_str(),
    };
    let trimmed = whole.trim_end_matches('/');
    trimmed.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or(trimmed).to_string()
}

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
