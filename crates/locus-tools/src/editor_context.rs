//! The editorContext's JSON shape (docs/reference/editor-context.md), made from the typed
//! [`EditorContext`] only where it leaves Locus: the envelope, `locus/getContext` and
//! `locus context`.

use locus_context::{Cursor, EditorContext, FileInfo, Scope, Selection};
use serde::{Serialize, Serializer};
use serde_json::{Value, json};

/// The editorContext object.
pub fn to_json(ctx: &EditorContext) -> Value {
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
    // A buffer that is not a file (`untitled:Untitled-1`) has no path: its name says which
    // buffer it is.
    let mut file = json!({"path": ctx.file.file_path(), "name": file_name(&ctx.file),
                          "languageId": ctx.file.language_id,
                          "lineCount": ctx.file.line_count, "isDirty": ctx.file.is_dirty});
    if let Some(uri) = &ctx.file.uri {
        file["uri"] = json!(uri);
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

/// The envelope's `editorContext` member, in the shape of [`to_json`].
pub(crate) fn serialize<S: Serializer>(
    ctx: &Option<EditorContext>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    ctx.as_ref().map(to_json).serialize(serializer)
}

/// What an editor's tab shows: a file's base name, or the part of another URI after its scheme
/// and any slashes (`untitled:Untitled-1` → `Untitled-1`).
fn file_name(file: &FileInfo) -> String {
    let other_uri = file.uri.as_deref().filter(|uri| !uri.starts_with("file:"));
    let whole = match other_uri {
        Some(uri) => uri.split_once(':').map_or(uri, |(_, rest)| rest),
        // A path's last component, as the system separates them (`\` too on Windows).
        None => match std::path::Path::new(&file.path).file_name() {
            Some(name) => return name.to_string_lossy().into_owned(),
            None => file.path.as_str(),
        },
    };
    let trimmed = whole.trim_end_matches('/');
    trimmed.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or(trimmed).to_string()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::json;

    #[test]
    fn a_file_has_its_path_and_an_untitled_buffer_none() {
        let mut ctx =
            crate::context_support::context_at(Path::new("/w/a.py"), "def f():\n    pass\n", 2, 5);
        let v = super::to_json(&ctx);
        assert_eq!(v["file"]["path"], "/w/a.py");
        assert_eq!(v["file"]["name"], "a.py");
        assert_eq!(v["cursor"], json!({"line": 2, "character": 5}));
        assert_eq!(v["symbols"]["scopeHierarchy"], "Function:f");
        assert!(v["file"].get("uri").is_none() && v.get("focused").is_none(), "{v}");
        ctx.file.uri = Some("untitled:Untitled-1".into());
        ctx.file.path = "untitled:Untitled-1".into();
        ctx.focused = Some(false);
        let v = super::to_json(&ctx);
        assert_eq!((&v["file"]["path"], &v["file"]["name"]), (&json!(null), &json!("Untitled-1")));
        assert_eq!(
            (&v["file"]["uri"], &v["focused"]),
            (&json!("untitled:Untitled-1"), &json!(false))
        );
    }
}
