//! Document symbols from a syntax tree and a symbol query, and the scope chain at an offset.
//!
//! The model (`model.rs`) is what an outline holds; `extract.rs` builds one from a tree;
//! `update.rs` brings one up to date after an edit, re-extracting as little as it can; and
//! `name.rs` renders a symbol's name from its captures (`markup.rs`: a Markdown heading's).

mod extract;
mod markup;
mod model;
mod name;
mod update;

pub(crate) use extract::{Gathered, extract, extract_gathered};
pub use model::{Outline, Span, Symbol};
pub(crate) use update::{Changed, update};
