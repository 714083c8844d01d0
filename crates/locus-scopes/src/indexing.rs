//! The outline the workspace index takes of a file: parsed, outlined with the language's
//! index query (`index.scm`, else `symbols.scm`), the tree dropped.

use locus_doc::Document;
use tree_sitter::{Parser, Point};

use crate::outline::{self, Outline};
use crate::registry::{Language, Registry};

/// The outline of `doc` as the workspace index takes it: parsed as `language` and outlined
/// with [`Registry::index_config`] by the same engine as the editor's outline, so a symbol
/// carries the kind and containers the editor's query gives at the same place. Empty when
/// the grammar or the query does not load (the editor treats such a file as plain text).
pub fn index_outline(doc: &Document, language: Language) -> Outline {
    let Ok(config) = Registry::builtin().index_config(language) else {
        return Outline::default();
    };
    let mut parser = Parser::new();
    if parser.set_language(config.grammar()).is_err() {
        return Outline::default();
    }
    let rope = doc.rope();
    let len = rope.len_bytes();
    let tree = parser.parse_with_options(
        &mut |byte: usize, _: Point| -> &[u8] {
            if byte >= len {
                return &[];
            }
            let (chunk, chunk_start, _, _) = rope.chunk_at_byte(byte);
            &chunk.as_bytes()[byte - chunk_start..]
        },
        None,
        None,
    );
    match tree {
        Some(tree) => outline::extract(&config, &tree, doc),
        None => Outline::default(),
    }
}
