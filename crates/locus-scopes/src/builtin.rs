//! What `grammars/*.toml` and `queries/` say, as compiled into the binary: one
//! [`LanguageEntry`] per registry file and every query file's text. The tables are generated
//! by `build.rs`; this module only declares their types, so that both the query loader
//! (`query.rs`) and the registry (`registry.rs`) read them from below.

/// One registered language, as written in `grammars/<id>.toml`.
#[derive(Debug)]
pub struct LanguageEntry {
    /// The language id editors use (`"typescriptreact"`).
    pub id: &'static str,
    /// Other ids that mean this language (`"tsx"`).
    pub aliases: &'static [&'static str],
    /// File extensions, without the dot.
    pub extensions: &'static [&'static str],
    /// Whole file names (`"Rakefile"`).
    pub file_names: &'static [&'static str],
    /// Interpreter names on a `#!` line.
    pub shebangs: &'static [&'static str],
    /// The line-comment token, for fixtures and docs.
    pub comment: Option<&'static str>,
    /// The directory under `queries/` holding this language's query files.
    pub queries: &'static str,
    /// Returns the tree-sitter grammar.
    pub grammar: fn() -> tree_sitter::Language,
}

include!(concat!(env!("OUT_DIR"), "/builtin.rs"));
