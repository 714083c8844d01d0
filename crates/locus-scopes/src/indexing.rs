//! The outline the workspace index takes of a file: parsed, outlined with the language's
//! index query (`symbols.scm` less its `index.skip` patterns), the tree dropped.

use std::sync::Arc;

use locus_doc::Document;
use tree_sitter::Parser;

use crate::outline::Outline;
use crate::registry::{Language, Registry};
use crate::runtime::Runtime;
use crate::source::{self, Source};

/// The outline of `doc` as the workspace index takes it: parsed as `language` and outlined
/// with [`Registry::index_config`] by the same engine as the editor's outline, so a symbol
/// carries the kind and containers the editor's query gives at the same place. Empty when
/// the grammar or the query does not load (the editor treats such a file as plain text).
pub fn index_outline(doc: &Document, language: Language) -> Outline {
    outline_by(doc, language, |config, tree| crate::pruned::extract(config, tree, doc))
        .unwrap_or_default()
}

/// The index's outline of a file's `text` parsed skimmed (`skim.rs`: the bodies of functions
/// that hold nothing the index keeps read as one filler statement), with the skimmed text's
/// document, whose offsets and lines are the file's. `None` where the language does not skim,
/// nothing in `text` is skimmed, or the skimmed text's tree has an error (the caller then
/// takes [`index_outline`] of the text itself): so a file that parses without error gives
/// the index the symbols of its unskimmed outline, and a file with errors outside its
/// skimmed bodies too. A kept symbol's lines and name are never in a skimmed body: a body
/// that holds a definition or declares a member is not skimmed.
pub fn skimmed_index_outline(text: &str, language: Language) -> Option<(Document, Outline)> {
    let rules = Registry::builtin().entry(language).index_skim.as_ref()?;
    let doc = Document::new(&crate::skim::skim(text, rules)?, 0);
    let outline = outline_by(&doc, language, |config, tree| {
        (!tree.root_node().has_error()).then(|| crate::pruned::extract(config, tree, &doc))
    })??;
    Some((doc, outline))
}

/// How [`index_outline_of_tree`] extracts: what the index does, or one of its two ways alone
/// (for comparisons and measurements: `examples/prune_compare.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexExtraction {
    /// The pruned extraction where it applies and its checks pass, else the full query.
    Pruned,
    /// The pruned extraction alone: `None` where it does not apply or a check refuses it.
    PrunedOnly,
    /// The index query run over the whole tree.
    FullQuery,
}

/// The index's outline of `doc`, already parsed as `tree` by [`index_parse`], extracted as
/// `how` says. `None` when the query does not load, or for [`IndexExtraction::PrunedOnly`]
/// where the pruned extraction does not apply or refuses.
pub fn index_outline_of_tree(
    doc: &Document,
    language: Language,
    tree: &tree_sitter::Tree,
    how: IndexExtraction,
) -> Option<Outline> {
    let config = Registry::builtin().index_config(language).ok()?;
    match how {
        IndexExtraction::Pruned => Some(crate::pruned::extract(&config, tree, doc)),
        IndexExtraction::PrunedOnly => crate::pruned::extract_if_pruned(&config, tree, doc),
        IndexExtraction::FullQuery => {
            Some(crate::outline::extract(&config, &Runtime::default(), tree, doc))
        }
    }
}

/// The tree of `doc` parsed as `language` for the index; `None` when the grammar or the
/// index query does not load.
pub fn index_parse(doc: &Document, language: Language) -> Option<tree_sitter::Tree> {
    outline_by(doc, language, |_, tree| tree.clone())
}

/// `extract` of `doc` parsed with the index's configuration for `language`; `None` when the
/// grammar or the query does not load (the editor treats such a file as plain text).
fn outline_by<T>(
    doc: &Document,
    language: Language,
    extract: impl FnOnce(&crate::query::LanguageConfig, &tree_sitter::Tree) -> T,
) -> Option<T> {
    let config = Registry::builtin().index_config(language).ok()?;
    let mut parser = Parser::new();
    parser.set_language(config.grammar()).ok()?;
    source::parse(&mut parser, doc, None).map(|tree| extract(&config, &tree))
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
