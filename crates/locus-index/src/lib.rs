//! The workspace symbol index: every source file of the workspace folders, outlined with the
//! editor context's own engine, kept as compact symbols and searched by name.
//!
//! **Which symbols.** A language's `queries/<id>/symbols.scm`, less the patterns it marks
//! `index.skip` (`Registry::index_config`); what is declared inside a function body is dropped
//! unless it is a definition (a nested function or class). Those patterns are the work that
//! only finds locals and the rules that hide definitions: the index is more
//! inclusive than the editor's outline (Python: definitions pyright deems unreachable, in a
//! branch a static `sys.platform`/`sys.version_info` test rules out, or redefined later in the
//! same scope are all indexed), while every symbol it holds has the kind and container chain
//! the editor's query gives at that place (tested on the corpus, `file.rs`). An open
//! document is outlined with the same query over the editor's tree (or its text, when the
//! editor has no tree for it): opening a file changes which text is indexed, never which
//! symbols a text gives, with one exception: a file on disk is parsed skimmed where its
//! language allows (`locus_scopes::skimmed_index_outline`: what Python function bodies hold
//! that the index does not keep is read as `pass`), which gives the same symbols whenever
//! the file parses without an error, and may differ only where a syntax error lies inside a
//! skimmed statement.
//!
//! **Invariants.**
//! - No protocol types and no JSON: [`Index::search`] answers plain data.
//! - No trees are kept: a file is parsed, outlined and dropped; only its symbols stay (name,
//!   kind, container, lines, the name's line as a one-line signature). A name is the
//!   outline's, cut to its first 256 bytes; only in JavaScript and TypeScript is an accessor's
//!   `(get) `/`(set) ` label or a string-literal name's quotes left out (`file.rs`).
//! - Files are found as ripgrep finds them (the `ignore` crate); files that are not UTF-8,
//!   binary, over the size limit or minified are skipped and counted, never an error.
//! - An open document's text (given by [`Index::sync_open`]) wins over the file on disk.
//! - The symbol cache (`cache.rs`) changes how fast a start is, never an answer: a file's
//!   symbols come from it only when the file's fingerprint and the cache's key (Locus's build,
//!   the queries, the settings) are those they were written under; a cache that is damaged,
//!   foreign or unwritable is ignored, never an error.
//! - Building never blocks a reader for longer than one batch of files is inserted, and runs
//!   on threads of lower priority than the process's others.

#![deny(missing_docs)]

mod cache;
mod config;
mod file;
mod index;
mod matching;
mod search;
mod store;
mod walk;
mod warnings;

pub use config::{Config, DATA_LANGUAGES};
pub use index::{Answer, Index, OpenDoc, Progress, Skipped, Status};
pub use search::{Hit, MAX_LIMIT, Near, PathFilter, Query};
pub use warnings::Reporter;
