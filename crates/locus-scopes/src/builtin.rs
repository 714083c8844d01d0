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
    /// `[index-skim]`: which function bodies the workspace index may parse as `pass`.
    pub index_skim: Option<SkimEntry>,
    /// Returns the tree-sitter grammar.
    pub grammar: fn() -> tree_sitter::Language,
}

/// A language's `[index-skim]` (`skim.rs`): the body of a function whose header starts with
/// one of `headers` is parsed as `pass` by the workspace index where the body holds none of
/// `keep` as a word and assigns to no attribute of `targets`.
#[derive(Debug, Hash)]
pub struct SkimEntry {
    /// The lexical rules the body is found by: `"indented"`, Python's (blocks by indentation
    /// after a header ending in `:`, `#` comments, its string literals and brackets).
    pub lexer: &'static str,
    /// The statement a skimmed body is written as (`pass`): one line, no newline.
    pub filler: &'static str,
    /// The words that open a function (`def`).
    pub headers: &'static [&'static str],
    /// Words whose presence keeps a body: the keywords of what the index keeps inside one.
    pub keep: &'static [&'static str],
    /// Names whose attributes, assigned in a body, declare members (`self`, `cls`).
    pub targets: &'static [&'static str],
}

include!(concat!(env!("OUT_DIR"), "/builtin.rs"));
