//! Symbols and scopes from syntax: the language registry, tree-sitter parsing, and the
//! query-driven extraction of document symbols and of the scope chain at a position.
//!
//! Languages are data: `grammars/<id>.toml` registers a grammar, `queries/<dir>/symbols.scm`
//! says which nodes are symbols (the capture vocabulary is in `queries/README.md`).
//!
//! **Invariants.**
//! - No language is named in Rust: behaviour that differs between languages lives in the
//!   registry and the query files. (A registry entry's `[index-skim]` picks one of the
//!   lexical readers of `skim.rs` by name, as its `grammar` picks a crate; the
//!   `#static-true?` / `#static-false?` predicates evaluate Python's static conditions, in
//!   `static_condition.rs`, against a [`Runtime`].)
//! - Nothing here fails as a whole: a language whose queries do not load is treated as plain
//!   text and [`Source::error`] says why; every other language keeps working.
//! - Offsets are UTF-8 bytes of the [`locus_doc::Document`]; no protocol types appear here.

#![deny(missing_docs)]

mod ancestry;
mod builtin;
mod indexing;
mod kind;
mod outline;
mod pruned;
mod pruning;
mod query;
mod registry;
mod runtime;
mod skim;
mod source;
mod static_condition;

pub use builtin::{LanguageEntry, SkimEntry};
pub use indexing::{
    IndexExtraction, index_outline, index_outline_of_source, index_outline_of_tree, index_parse,
    skimmed_index_outline,
};
pub use kind::SymbolKind;
pub use outline::{Outline, Span, Symbol};
pub use pruning::{callable, kept_in_callable, member};
pub use query::{LanguageConfig, QUERY_DIR_ENV, QueryError, SYMBOLS_FILE, query_source};
pub use registry::{Language, Registry};
pub use runtime::{Platform, Runtime, RuntimeVersion};
pub use source::Source;
