//! What the tests that play an editor share: the editorContext an editor reports for a file
//! and a cursor. The library's own unit tests include this file too (`lib.rs`).

use std::path::Path;

use locus_context::{EditorContext, Request, Symbols};
use locus_doc::{Document, Position, PositionEncoding};

/// The editorContext an editor reports for `text` as the file `path`, the cursor on a 1-based
/// line and UTF-16 character.
pub fn context_at(path: &Path, text: &str, line: u32, character: u32) -> EditorContext {
    let doc = Document::new(text, 0);
    let cursor = doc.offset_at(Position::new(line - 1, character - 1), PositionEncoding::Utf16);
    let language = locus_scopes::Registry::builtin().for_path(path, text.lines().next());
    let source = locus_scopes::Source::new(doc, language);
    let path = path.display().to_string();
    let request = Request {
        path: &path,
        language_id: None,
        is_dirty: false,
        cursor,
        selection: None,
        symbols: Symbols::Syntax,
    };
    locus_context::build(&source, &request)
}
