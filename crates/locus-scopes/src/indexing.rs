//! The outline the workspace index takes of a file: parsed, outlined with the language's
//! index query (`symbols.scm` less its `index.skip` patterns), the tree dropped.

use std::sync::Arc;

use locus_doc::Document;
use tree_sitter::Parser;

use crate::outline::{self, Outline};
use crate::registry::{Language, Registry};
use crate::source::{self, Source};

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
    match source::parse(&mut parser, doc, None) {
        Some(tree) => outline::extract(&config, &tree, doc),
        None => Outline::default(),
    }
}

/// The outline the workspace index takes of an open document the editor already parsed:
/// the same as [`index_outline`] gives for its text, without parsing it again. For a language
/// with an index query of its own ([`Registry::has_index_query`]) it is the source's
/// [`Source::index_outline`] (that query over the source's tree, computed once per version
/// and, after an edit, updated from the last computed one around the change); otherwise it
/// is the source's own outline (shared with the editor). `None` when the source has no tree
/// (plain text, or an edit not parsed yet): the caller parses the text.
pub fn index_outline_of_source(source: &Source) -> Option<Arc<Outline>> {
    let (Some(language), Some(_)) = (source.language(), source.tree()) else {
        return None;
    };
    if !Registry::builtin().has_index_query(language) {
        return Some(source.outline());
    }
    Some(source.index_outline())
}
