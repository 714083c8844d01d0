//! Loading a language's `symbols.scm`: inheritance, compilation and validation.
//!
//! The workspace index gets its own compilation of the file: without the patterns marked
//! `index.skip`, with `index.merge` for `merge` ([`LanguageConfig::load_index`]). A file that
//! sets no `index.*` property serves the index as it is.
//!
//! The vocabulary a query may use is closed and documented in `queries/README.md`:
//! - `@symbol.<kind>`: the node a symbol spans, `<kind>` a snake_case LSP kind;
//! - `@name`: the node(s) whose text names the symbol and whose span is its selection range;
//! - `@range.start`: node(s) the symbol's range is extended back to (decorators, `export`);
//! - `@range.end`: node(s) the symbol's range is extended forward to (a trailing `;`);
//! - `@range.extend`: in a pattern with no symbol capture, the symbol node whose range the
//!   pattern's `@range.start` extends (so one pattern serves every declaration kind);
//! - `@skip`: a node that must not become a symbol, whatever other pattern matches it;
//! - `@ignore`: a node inside which nothing becomes a symbol (decorators, default values);
//! - `@_anything`: a helper capture, for predicates and name templates.
//!
//! Properties (`#set! key "value"`): `name` (a template, `{name}` and `{_helper}` expand to
//! captured text, several nodes joined by `, ` or by the separator in `{_helper|.}`;
//! `{index}` is the symbol node's place among its parent's named children, comments left out;
//! `{_helper:path}` keeps the dotted name ending an expression, `{_helper:clip}` cuts it to
//! 150 characters and `...`),
//! `hoist "true"` (attach the symbol beside its container instead of inside it),
//! `range.trim "comment"` (trailing nodes of that kind do not count in the range), `keep "if-children"` (drop the symbol unless it has children), `merge
//! "first"` / `merge "typed"` (same-named sibling symbols from such patterns become one: the
//! last typed one if any, else the first) and
//! `name.normalize` (`"trim"`, `"collapse"`, `"markup"`, `"unbreak"`), `level "N"` (a heading level: the
//! symbol's range extends to the next symbol of the same or a higher level, or the end) and
//! `join` / `join.else` (same-named siblings joined into one class, as tsserver's ES5 classes)
//! and `text.match` (symbols found in a node's text by a regular expression: JSDoc `@typedef`)
//! and `root.up "N"` (a pattern tried only N levels above symbols other patterns found, compiled
//! as a second query: patterns rooted far above their symbol are slow to search for everywhere)
//! and `seed "true"` (a pattern that makes no symbol, only places where `root.up` patterns are
//! tried).
//! Predicates besides tree-sitter's text predicates: `#kind-eq?` / `#not-kind-eq?`, and
//! `#static-true?` / `#static-false?` (a static condition's value, `static_condition.rs`).

use std::fmt;

use tree_sitter::{CaptureQuantifier, Query, QueryPredicateArg};

use crate::ancestry::{Acting, Ancestry, Touch};
use crate::builtin::{LanguageEntry, QUERY_FILES};
use crate::kind::SymbolKind;
use crate::pruning::{PatternFacts, Pruning, kept_in_callable};

/// A query file failed to load or compile. Only its language is affected.
#[derive(Debug, Clone)]
pub struct QueryError {
    /// The language id.
    pub language: String,
    /// The query file, relative to `queries/`.
    pub file: String,
    /// What is wrong, with the line where tree-sitter reports one.
    pub message: String,
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "queries/{} (language {}): {}", self.file, self.language, self.message)
    }
}

impl std::error::Error for QueryError {}

/// What a capture means to the symbol extractor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Symbol(SymbolKind),
    Name,
    RangeStart,
    RangeEnd,
    RangeExtend,
    Skip,
    Ignore,
    Helper,
}

/// How a name's raw text is cleaned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Normalize {
    /// Trim surrounding white space.
    Trim,
    /// Trim, and fold every run of white space (line breaks included) into one space.
    Collapse,
    /// Like `Collapse`, after stripping inline markup: emphasis, code spans, links, images, tags.
    Markup,
    /// Trim, and remove every line break (with a backslash just before it, a line continuation)
    /// keeping all other white space, as tsserver spells names (`[`a\nb`]` → `[`ab`]`).
    Unbreak,
}

/// How same-named sibling symbols collapse into one (pyright's one symbol per name and scope).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Merge {
    /// Never merged.
    No,
    /// An untyped declaration: of same-named ones, the first stays unless a typed one exists.
    First,
    /// A typed declaration (definition, annotation): of same-named ones, the last typed one stays.
    Typed,
    /// `First`, for a symbol hoisted into its container: it counts after every declaration made
    /// by the container itself, as pyright binds method bodies after the class body (a
    /// class-level `x = …` declares `x` before `self.x = …` in `__init__` does).
    LateFirst,
    /// `Typed`, for a symbol hoisted into its container (see `LateFirst`).
    LateTyped,
}

/// How a symbol takes part in joining same-named siblings (tsserver's ES5 classes): see
/// `queries/README.md`, property `join`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Join {
    /// Takes no part (but can still be the first sibling of a name, which drops joiners).
    No,
    /// A function declaration: declares its name, and becomes a class when members join it.
    Function,
    /// Another possible constructor (a variable): becomes a class when members join it.
    Value,
    /// A member group that declares its name and joins whatever sibling of that name came first.
    Prototype,
    /// A member group that joins only a name declared before it (by `function` or `prototype`).
    Static,
    /// Joins nothing, but goes when a sibling before it has its name (`exports.F = F`).
    Export,
}

/// What a member group (`join "prototype"` / `"static"`) does when it has nothing to join.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JoinElse {
    /// It stays, a symbol of its own.
    Stay,
    /// It goes, and its children take its place, except a member that holds its name.
    Unwrap,
}

/// A piece of a name template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Part {
    Literal(String),
    /// A capture's text; several captured nodes are joined by the separator.
    Capture(u32, String, Filter),
    /// `{index}`: the symbol node's place among its parent's named children, extras
    /// (comments) left out, from 0 (a JSON array item is named by it).
    Index,
}

/// A transformation of one capture's text in a name template (`{_callee:path}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Filter {
    /// The text as captured (after the pattern's `name.normalize`).
    None,
    /// The dotted name that ends an expression: white space removed, split at top-level dots,
    /// the trailing run of identifier-like parts kept, a leading `this`/`super` dropped
    /// (`this.items.forEach` → `items.forEach`, `load().then` → `then`).
    Path,
    /// At most 150 characters (UTF-16 code units), then `...`: tsserver's limit on names.
    Clip,
}

impl PatternInfo {
    /// Whether the pattern names its symbol by its place among its siblings (`{index}`).
    pub(crate) fn names_by_index(&self) -> bool {
        self.template.as_ref().is_some_and(|t| t.contains(&Part::Index))
    }
}

/// What one pattern of the query says beyond its captures.
#[derive(Debug, Clone)]
pub(crate) struct PatternInfo {
    pub template: Option<Vec<Part>>,
    pub keep_if_children: bool,
    pub merge: Merge,
    pub normalize: Normalize,
    /// A heading level: the symbol extends to the next symbol of the same or a higher level.
    pub level: Option<u8>,
    pub hoist: bool,
    /// A node kind (`comment`) that does not count at the end of the symbol's range.
    pub trim: Option<String>,
    /// `range.start "line"`: the range starts at the start of its line, and the symbol is kept
    /// only where nothing but blanks stand there before it.
    pub from_line_start: bool,
    pub join: Join,
    pub join_else: JoinElse,
    /// Symbols found in the node's text: one per match, named by the group `name`.
    pub text_match: Option<regex::Regex>,
    /// `root.up "N"`: the pattern is not searched for across the document; it is tried only at
    /// the node N levels above each node another pattern made a symbol of its kind.
    pub up: Option<u32>,
    /// `seed "true"`: the pattern makes no symbol; its symbol nodes are only where `root.up`
    /// patterns of their kind are tried (a cheap stand-in for patterns costly to compile).
    pub seed: bool,
    /// `#kind-eq?` / `#not-kind-eq?`: the captured node's kind must (not) be one of these.
    pub kinds: Vec<KindTest>,
    /// `#static-true?` / `#static-false?`: the captured condition must have this value for the
    /// runtime the document is analysed for (`static_condition.rs`); each is (capture, value).
    pub statics: Vec<(u32, bool)>,
    /// For a name by place (`{index}`): the kinds the symbol node's parent may have, `"_"`
    /// for any; the update re-extracts only the gap between two symbols where no node of
    /// these kinds may have gained or lost a child (`outline::update::renumbers`).
    pub place_parents: Vec<String>,
    /// Whether the pattern's capture indices are those of the deferred query.
    pub deferred: bool,
    /// The pattern's index in its own compiled query.
    pub local: usize,
}

/// A `#kind-eq?` predicate: the nodes of a capture must have (or, negated, not have) one of
/// these kinds.
#[derive(Debug, Clone)]
pub(crate) struct KindTest {
    pub capture: u32,
    pub negate: bool,
    pub kinds: Vec<String>,
}

/// The patterns of a symbol query that carry `root.up`, compiled apart: they are tried only
/// at given nodes, never searched for across the whole document.
pub(crate) struct Deferred {
    pub query: Query,
    pub roles: Vec<Role>,
    /// Each pattern's rank: its position among all patterns of the file.
    pub rank: Vec<usize>,
    /// The chains of node kinds from each pattern's root down to its `@symbol` capture: where
    /// a pattern tried above a symbol could match (`Ancestry::fits`).
    pub symbols: Ancestry,
}

/// What a symbol query is compiled for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// The editor's outline: every pattern as written.
    Editor,
    /// The workspace index: the patterns marked `index.skip` left out, `index.merge` taken
    /// for `merge` (see `queries/README.md`).
    Index,
}

/// A language's compiled grammar and symbol query.
pub struct LanguageConfig {
    /// The language id.
    pub id: &'static str,
    pub(crate) language: tree_sitter::Language,
    pub(crate) query: Query,
    pub(crate) roles: Vec<Role>,
    /// The `root.up` patterns, if any.
    pub(crate) deferred: Option<Deferred>,
    /// Each pattern of `query`'s rank among all patterns of the file (what "first pattern
    /// wins" compares): the identity when there are no deferred patterns.
    pub(crate) rank: Vec<usize>,
    /// Every pattern, by rank.
    pub(crate) patterns: Vec<PatternInfo>,
    /// The acting captures of every pattern, for starting a region's query below the root.
    pub(crate) ancestry: Ancestry,
    /// Every node of every pattern, for telling an edit no match can see (`outline::update`).
    pub(crate) touch: Touch,
    /// For the index's query: where the pruned extraction runs it (`pruned.rs`), if it may.
    pub(crate) pruning: Option<Pruning>,
}

impl fmt::Debug for LanguageConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LanguageConfig")
            .field("id", &self.id)
            .field("patterns", &self.patterns.len())
            .finish()
    }
}

/// The name of the one query file every language has.
pub const SYMBOLS_FILE: &str = "symbols.scm";

impl LanguageConfig {
    pub(crate) fn load(entry: &LanguageEntry) -> Result<LanguageConfig, QueryError> {
        let (path, source) = LanguageConfig::read(entry)?;
        LanguageConfig::compile(entry, &path, &source, Purpose::Editor)
    }

    /// Compiles `entry`'s `symbols.scm` for the workspace index: without the patterns that
    /// set `index.skip` (blanked out of the text, so they cost no compile time), with
    /// `index.merge` for `merge`. `None` when no pattern sets an `index.*` property: the
    /// index then uses the editor's own query.
    pub(crate) fn load_index(entry: &LanguageEntry) -> Result<Option<LanguageConfig>, QueryError> {
        let (path, source) = LanguageConfig::read(entry)?;
        LanguageConfig::compile_index(entry, path, &source)
    }

    /// [`LanguageConfig::load_index`] of `source`, read from `path` (for messages).
    fn compile_index(
        entry: &LanguageEntry,
        path: String,
        source: &str,
    ) -> Result<Option<LanguageConfig>, QueryError> {
        let property =
            |key: &str| regex::Regex::new(&format!(r#"\(#set!\s+{key}"#)).expect("a valid regex");
        if !property(r"index\.").is_match(source) {
            return Ok(None);
        }
        let Some(chunks) = top_level_patterns(source) else {
            // Unbalanced: the compiler says where.
            return LanguageConfig::compile(entry, &path, source, Purpose::Index).map(Some);
        };
        let skip = property(r"index\.skip\s");
        let keep: Vec<bool> = chunks.iter().map(|&(s, e)| !skip.is_match(&source[s..e])).collect();
        let text = blank_except(source, &chunks, &keep);
        let config = LanguageConfig::compile(entry, &path, &text, Purpose::Index)?;
        if config.patterns.len() != keep.iter().filter(|k| **k).count() {
            return Err(QueryError {
                language: entry.id.to_string(),
                file: path,
                message: "the patterns with index.skip could not be told apart from the others; \
                          write each as a top-level pattern of its own"
                    .into(),
            });
        }
        Ok(Some(config))
    }

    /// `entry`'s `symbols.scm`, inheritance resolved, and its path for messages.
    fn read(entry: &LanguageEntry) -> Result<(String, String), QueryError> {
        let path = format!("{}/{SYMBOLS_FILE}", entry.queries);
        match read_query(entry.queries, SYMBOLS_FILE) {
            Ok(source) => Ok((path, source)),
            Err(message) => Err(QueryError { language: entry.id.to_string(), file: path, message }),
        }
    }

    /// Compiles `source` as `entry`'s symbol query.
    #[cfg(test)]
    pub(crate) fn from_source(
        entry: &LanguageEntry,
        source: &str,
    ) -> Result<LanguageConfig, QueryError> {
        LanguageConfig::compile(
            entry,
            &format!("{}/{SYMBOLS_FILE}", entry.queries),
            source,
            Purpose::Editor,
        )
    }

    /// Compiles `source`, read from `file` (for messages), as `entry`'s symbol query.
    fn compile(
        entry: &LanguageEntry,
        file: &str,
        source: &str,
        purpose: Purpose,
    ) -> Result<LanguageConfig, QueryError> {
        let err = |message: String| QueryError {
            language: entry.id.to_string(),
            file: file.to_string(),
            message,
        };
        let language = (entry.grammar)();
        let compile = |source: &str| {
            Query::new(&language, source).map_err(|e| {
                err(format!(
                    "line {}, column {}: {:?} error: {}",
                    e.row + 1,
                    e.column + 1,
                    e.kind,
                    e.message
                ))
            })
        };
        let roles_of = |query: &Query| {
            query
                .capture_names()
                .iter()
                .map(|name| {
                    capture_role(name).ok_or_else(|| {
                        err(format!(
                            "unknown capture @{name}; see queries/README.md for the allowed names"
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let infos = |query: &Query, text: &str, deferred: bool| {
            (0..query.pattern_count())
                .map(|i| {
                    let (start, end) =
                        (query.start_byte_for_pattern(i), query.end_byte_for_pattern(i));
                    pattern_info(query, i, deferred, purpose)
                        .and_then(|info| {
                            // The parent's children are what the name reads: a match binds the
                            // parent, so an edit of them is an edit the update sees (`Touch`).
                            if !info.names_by_index() {
                                return Ok(info);
                            }
                            let parents =
                                crate::ancestry::symbol_parent_kinds(&language, &text[start..end]);
                            let Some(place_parents) = parents else {
                                return Err(
                                    "a name with {index} needs the symbol's parent in the \
                                            pattern: `(array (object) @symbol.module)`"
                                        .into(),
                                );
                            };
                            Ok(PatternInfo { place_parents, ..info })
                        })
                        .map_err(|m| err(format!("pattern at byte {start}: {m}")))
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let Some(split) = split_deferred(source) else {
            let query = compile(source)?;
            let roles = roles_of(&query)?;
            let patterns = infos(&query, source, false)?;
            if patterns.iter().any(|p| p.up.is_some()) {
                return Err(err("root.up must be set in a top-level pattern of its own".into()));
            }
            let rank = (0..patterns.len()).collect();
            let mut ancestry = Ancestry::default();
            ancestry_add(&mut ancestry, &language, &query, source, &roles, |i| &patterns[i]);
            let mut touch = Touch::default();
            touch.add(&language, &query, source, |i, c| match roles[c] {
                Role::Name | Role::Helper => true,
                Role::Symbol(_) => patterns[i].text_match.is_some(),
                _ => false,
            });
            let pruning = match purpose {
                Purpose::Index => Pruning::new(
                    &language,
                    &query,
                    source,
                    &pattern_facts(&query, &roles, &patterns),
                    |keep| {
                        // The chosen patterns compiled alone: the others blanked out.
                        let chunks = top_level_patterns(source)?;
                        (chunks.len() == keep.len())
                            .then(|| compile(&blank_except(source, &chunks, keep)).ok())
                            .flatten()
                    },
                ),
                Purpose::Editor => None,
            };
            return Ok(LanguageConfig {
                id: entry.id,
                language,
                query,
                roles,
                deferred: None,
                rank,
                patterns,
                ancestry,
                touch,
                pruning,
            });
        };
        // The two queries compile on two threads: compilation is the larger part of loading.
        let (main, deferred) = std::thread::scope(|scope| {
            let deferred = scope.spawn(|| compile(&split.deferred));
            let main = compile(&split.main);
            (main, deferred.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
        });
        let (query, deferred) = (main?, deferred?);
        let (main_ranks, deferred_ranks): (Vec<usize>, Vec<usize>) =
            (0..split.is_deferred.len()).partition(|&i| !split.is_deferred[i]);
        if query.pattern_count() != main_ranks.len()
            || deferred.pattern_count() != deferred_ranks.len()
        {
            return Err(err(
                "the patterns with root.up could not be told apart from the others; write each \
                 as a top-level pattern of its own"
                    .into(),
            ));
        }
        let roles = roles_of(&query)?;
        let deferred_roles = roles_of(&deferred)?;
        let main_infos = infos(&query, &split.main, false)?;
        let deferred_infos = infos(&deferred, &split.deferred, true)?;
        for (i, info) in deferred_infos.iter().enumerate() {
            let has_symbol = deferred
                .capture_quantifiers(i)
                .iter()
                .zip(&deferred_roles)
                .any(|(q, r)| *q != CaptureQuantifier::Zero && matches!(r, Role::Symbol(_)));
            if info.up.is_none() || !has_symbol {
                return Err(err(format!(
                    "pattern at byte {}: a root.up pattern needs a @symbol capture",
                    deferred.start_byte_for_pattern(i)
                )));
            }
        }
        let mut ancestry = Ancestry::default();
        ancestry_add(&mut ancestry, &language, &query, &split.main, &roles, |i| &main_infos[i]);
        ancestry_add(&mut ancestry, &language, &deferred, &split.deferred, &deferred_roles, |i| {
            &deferred_infos[i]
        });
        let mut symbols = Ancestry::default();
        let is_symbol = |_: usize, capture: usize| match deferred_roles[capture] {
            Role::Symbol(_) => Acting::Here,
            _ => Acting::No,
        };
        let kinds = |i: usize| {
            let tests = deferred_infos[i].kinds.iter().filter(|t| !t.negate);
            tests.map(|t| (t.capture, t.kinds.clone())).collect()
        };
        symbols.add(&language, &deferred, &split.deferred, is_symbol, kinds);
        let mut patterns: Vec<Option<PatternInfo>> = vec![None; split.is_deferred.len()];
        for (info, &r) in main_infos.into_iter().zip(&main_ranks) {
            patterns[r] = Some(info);
        }
        for (info, &r) in deferred_infos.into_iter().zip(&deferred_ranks) {
            patterns[r] = Some(info);
        }
        Ok(LanguageConfig {
            id: entry.id,
            language,
            query,
            roles,
            deferred: Some(Deferred {
                query: deferred,
                roles: deferred_roles,
                rank: deferred_ranks,
                symbols,
            }),
            rank: main_ranks,
            patterns: patterns.into_iter().map(|p| p.expect("every rank filled")).collect(),
            ancestry,
            // Not read: `root.up` patterns bind nodes above the symbols found.
            touch: Touch::unknown(),
            pruning: None,
        })
    }

    /// The compiled query and capture roles a pattern's capture indices refer to.
    pub(crate) fn roles_for(&self, info: &PatternInfo) -> &[Role] {
        match (&self.deferred, info.deferred) {
            (Some(d), true) => &d.roles,
            _ => &self.roles,
        }
    }

    /// The compiled query a pattern belongs to.
    pub(crate) fn query_for(&self, info: &PatternInfo) -> &Query {
        match (&self.deferred, info.deferred) {
            (Some(d), true) => &d.query,
            _ => &self.query,
        }
    }

    /// The tree-sitter grammar.
    pub fn grammar(&self) -> &tree_sitter::Language {
        &self.language
    }
}

/// Adds `query`'s acting captures to `ancestry` (see `ancestry.rs`): a symbol, its range and
/// `@skip` act on their node; `@ignore` and a `text.match` symbol on what lies inside it.
fn ancestry_add<'a>(
    ancestry: &mut Ancestry,
    language: &tree_sitter::Language,
    query: &Query,
    text: &str,
    roles: &[Role],
    info: impl Fn(usize) -> &'a PatternInfo,
) {
    let acting = |i: usize, capture: usize| match roles[capture] {
        Role::Name | Role::Helper => Acting::No,
        Role::Ignore => Acting::Inward,
        Role::Symbol(_) if info(i).text_match.is_some() => Acting::Inward,
        _ => Acting::Here,
    };
    let kinds = |i: usize| {
        info(i).kinds.iter().filter(|t| !t.negate).map(|t| (t.capture, t.kinds.clone())).collect()
    };
    ancestry.add(language, query, text, acting, kinds);
}

fn capture_role(name: &str) -> Option<Role> {
    Some(match name {
        "name" => Role::Name,
        "range.start" => Role::RangeStart,
        "range.extend" => Role::RangeExtend,
        "range.end" => Role::RangeEnd,
        "skip" => Role::Skip,
        "ignore" => Role::Ignore,
        _ if name.starts_with('_') => Role::Helper,
        _ => Role::Symbol(SymbolKind::from_capture_name(name.strip_prefix("symbol.")?)?),
    })
}

fn pattern_info(
    query: &Query,
    pattern: usize,
    deferred: bool,
    purpose: Purpose,
) -> Result<PatternInfo, String> {
    let mut info = PatternInfo {
        up: None,
        seed: false,
        kinds: Vec::new(),
        statics: Vec::new(),
        place_parents: Vec::new(),
        deferred,
        local: pattern,
        template: None,
        keep_if_children: false,
        merge: Merge::No,
        normalize: Normalize::Trim,
        level: None,
        hoist: false,
        trim: None,
        from_line_start: false,
        join: Join::No,
        join_else: JoinElse::Stay,
        text_match: None,
    };
    let mut index_merge = None;
    for prop in query.property_settings(pattern) {
        let value = prop.value.as_deref().unwrap_or("");
        match &*prop.key {
            "name" => info.template = Some(parse_template(query, value)?),
            "keep" if value == "if-children" => info.keep_if_children = true,
            "merge" if value == "first" => info.merge = Merge::First,
            "merge" if value == "typed" => info.merge = Merge::Typed,
            "hoist" if value == "true" => info.hoist = true,
            "seed" if value == "true" => info.seed = true,
            "range.trim" if !value.is_empty() => info.trim = Some(value.to_string()),
            "range.start" if value == "line" => info.from_line_start = true,
            // Blanked out of the index's text: a pattern still holding it was not top-level.
            "index.skip" if !value.is_empty() && purpose == Purpose::Index => {
                return Err("index.skip must be set in a top-level pattern of its own".into());
            }
            "index.skip" if !value.is_empty() => {}
            "index.skip" => {
                return Err("index.skip needs a reason: (#set! index.skip \"…\")".into());
            }
            "index.merge" => {
                index_merge = Some(match value {
                    "first" => Merge::First,
                    "typed" => Merge::Typed,
                    "none" => Merge::No,
                    _ => {
                        return Err(format!(
                            "index.merge must be first, typed or none, not {value:?}"
                        ));
                    }
                })
            }
            "join" => {
                info.join = match value {
                    "function" => Join::Function,
                    "value" => Join::Value,
                    "prototype" => Join::Prototype,
                    "static" => Join::Static,
                    "export" => Join::Export,
                    _ => {
                        return Err(format!(
                            "join must be function, value, prototype, static or export, not {value:?}"
                        ));
                    }
                }
            }
            "text.match" => {
                let regex = regex::Regex::new(value)
                    .map_err(|e| format!("text.match is not a regular expression: {e}"))?;
                if !regex.capture_names().any(|n| n == Some("name")) {
                    return Err("text.match needs a group (?P<name>…) naming each symbol".into());
                }
                info.text_match = Some(regex);
            }
            "root.up" => {
                info.up =
                    Some(value.parse().ok().filter(|&n: &u32| n >= 1).ok_or_else(|| {
                        format!("root.up must be a number of levels, not {value:?}")
                    })?)
            }
            "join.else" => {
                info.join_else = match value {
                    "stay" => JoinElse::Stay,
                    "unwrap" => JoinElse::Unwrap,
                    _ => {
                        return Err(format!("join.else must be stay or unwrap, not {value:?}"));
                    }
                }
            }
            "level" => {
                info.level = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|l| (1..=9).contains(l))
                        .ok_or_else(|| format!("level must be 1 to 9, not {value:?}"))?,
                )
            }
            "name.normalize" => {
                info.normalize = match value {
                    "trim" => Normalize::Trim,
                    "collapse" => Normalize::Collapse,
                    "markup" => Normalize::Markup,
                    "unbreak" => Normalize::Unbreak,
                    _ => {
                        return Err(format!(
                            "name.normalize must be trim, collapse, markup or unbreak, not {value:?}"
                        ));
                    }
                }
            }
            key => {
                return Err(format!(
                    "unknown property #set! {key} {value:?}; see queries/README.md"
                ));
            }
        }
    }
    for predicate in query.general_predicates(pattern) {
        if let Some(value) = match &*predicate.operator {
            "static-true?" => Some(true),
            "static-false?" => Some(false),
            _ => None,
        } {
            let [QueryPredicateArg::Capture(capture)] = &*predicate.args else {
                return Err(format!("#{} takes one capture", predicate.operator));
            };
            info.statics.push((*capture, value));
            continue;
        }
        let negate = match &*predicate.operator {
            "kind-eq?" => false,
            "not-kind-eq?" => true,
            other => {
                return Err(format!("unknown predicate #{other}; see queries/README.md"));
            }
        };
        let (Some(QueryPredicateArg::Capture(capture)), rest) =
            (predicate.args.first(), predicate.args.get(1..).unwrap_or_default())
        else {
            return Err(format!("#{} takes a capture, then node kinds", predicate.operator));
        };
        let kinds = rest
            .iter()
            .map(|a| match a {
                QueryPredicateArg::String(s) => Ok(s.to_string()),
                QueryPredicateArg::Capture(_) => {
                    Err(format!("#{} takes one capture, then node kinds", predicate.operator))
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        if kinds.is_empty() {
            return Err(format!("#{} needs at least one node kind", predicate.operator));
        }
        info.kinds.push(KindTest { capture: *capture, negate, kinds });
    }
    if let (Purpose::Index, Some(merge)) = (purpose, index_merge) {
        info.merge = merge;
    }
    if info.seed && info.up.is_some() {
        return Err("a seed pattern is searched for everywhere: it cannot have root.up".into());
    }
    Ok(info)
}

/// What the index's pruning needs to know of each pattern of `query` (`pruning.rs`).
fn pattern_facts(query: &Query, roles: &[Role], patterns: &[PatternInfo]) -> Vec<PatternFacts> {
    patterns
        .iter()
        .enumerate()
        .map(|(i, info)| {
            let refuses = info.deferred
                || info.seed
                || info.up.is_some()
                || info.level.is_some()
                || info.text_match.is_some()
                || info.keep_if_children
                || info.join != Join::No;
            let (mut local, mut makes_symbol) = (!info.hoist, false);
            let used = query.capture_quantifiers(i).iter().zip(roles);
            for (_, role) in used.filter(|(q, _)| **q != CaptureQuantifier::Zero) {
                match role {
                    Role::Symbol(kind) => {
                        makes_symbol = true;
                        local &= !kept_in_callable(*kind);
                    }
                    Role::Name | Role::Helper => {}
                    _ => local = false,
                }
            }
            PatternFacts { refuses, local, makes_symbol }
        })
        .collect()
}

/// A symbol query split in two: the patterns with `root.up` and the others, each as the
/// whole file's text with the other part blanked out (so that lines and columns stay those of
/// the file), and which top-level pattern, in file order, went where.
struct Split {
    main: String,
    deferred: String,
    is_deferred: Vec<bool>,
}

/// Splits `source` at its top-level patterns, or `None` when no pattern sets `root.up`. The
/// split is checked afterwards by counting each part's compiled patterns.
fn split_deferred(source: &str) -> Option<Split> {
    if !source.contains("root.up") {
        return None;
    }
    let chunks = top_level_patterns(source)?;
    let marker = regex::Regex::new(r#"\(#set!\s+root\.up\s"#).expect("a valid regex");
    let is_deferred: Vec<bool> =
        chunks.iter().map(|&(s, e)| marker.is_match(&source[s..e])).collect();
    let keep =
        |deferred: bool| -> Vec<bool> { is_deferred.iter().map(|&d| d == deferred).collect() };
    Some(Split {
        main: blank_except(source, &chunks, &keep(false)),
        deferred: blank_except(source, &chunks, &keep(true)),
        is_deferred,
    })
}

/// The byte ranges of `source`'s top-level patterns (a balanced `(…)` or `[…]` with the
/// captures and quantifier after it), in order; comments and strings are skipped. `None` when
/// the brackets do not balance (the compiler then says where).
fn top_level_patterns(source: &str) -> Option<Vec<(usize, usize)>> {
    let bytes = source.as_bytes();
    let mut chunks: Vec<(usize, usize)> = Vec::new();
    let (mut i, mut depth, mut start) = (0, 0usize, 0);
    while i < bytes.len() {
        match bytes[i] {
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            b')' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    // What follows the pattern on its line: captures and a quantifier.
                    let mut end = i + 1;
                    loop {
                        let mut j = end;
                        while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
                            j += 1;
                        }
                        match bytes.get(j) {
                            Some(b'*' | b'+' | b'?') => end = j + 1,
                            Some(b'@') => {
                                j += 1;
                                while j < bytes.len()
                                    && (bytes[j].is_ascii_alphanumeric()
                                        || matches!(bytes[j], b'_' | b'.' | b'-'))
                                {
                                    j += 1;
                                }
                                end = j;
                            }
                            _ => break,
                        }
                    }
                    chunks.push((start, end));
                    i = end;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    Some(chunks)
}

/// `source` with everything but the top-level patterns `chunks[i]` with `keep[i]` blanked out
/// (line breaks kept, so lines and columns stay those of the file).
fn blank_except(source: &str, chunks: &[(usize, usize)], keep: &[bool]) -> String {
    let mut out = source.as_bytes().to_vec();
    let mut covered = vec![false; out.len()];
    for (&(s, e), _) in chunks.iter().zip(keep).filter(|(_, k)| **k) {
        covered[s..e].iter_mut().for_each(|c| *c = true);
    }
    for (b, keep) in out.iter_mut().zip(covered) {
        if !keep && *b != b'\n' {
            *b = b' ';
        }
    }
    // Only ASCII bytes were replaced, and only whole characters outside the kept chunks
    // (multi-byte characters become several spaces): still UTF-8.
    String::from_utf8(out).expect("blanked text stays UTF-8")
}

fn parse_template(query: &Query, template: &str) -> Result<Vec<Part>, String> {
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            parts.push(Part::Literal(rest[..open].to_string()));
        }
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| format!("unclosed {{ in name template {template:?}"))?
            + open;
        let (spec, filter) = match rest[open + 1..close].split_once(':') {
            Some((spec, "path")) => (spec, Filter::Path),
            Some((spec, "clip")) => (spec, Filter::Clip),
            Some((_, other)) => {
                return Err(format!(
                    "unknown template filter :{other} in {template:?}; the filters are :path and :clip"
                ));
            }
            None => (&rest[open + 1..close], Filter::None),
        };
        if spec == "index" && filter == Filter::None {
            parts.push(Part::Index);
            rest = &rest[close + 1..];
            continue;
        }
        let (cap, sep) = match spec.split_once('|') {
            Some((cap, sep)) => (cap, sep.to_string()),
            None => (spec, ", ".to_string()),
        };
        let index = query.capture_index_for_name(cap).ok_or_else(|| {
            format!("name template {template:?} names @{cap}, which the pattern does not capture")
        })?;
        parts.push(Part::Capture(index, sep, filter));
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        parts.push(Part::Literal(rest.to_string()));
    }
    Ok(parts)
}

/// The symbol query of a query directory, inheritance resolved: what [`LanguageConfig`]
/// compiles. For tools that study queries (timing, linting).
pub fn query_source(dir: &str) -> Result<String, String> {
    read_query(dir, SYMBOLS_FILE)
}

/// Reads `queries/<dir>/<file>`, replacing each `; inherits: a, b` line by the same file of
/// those directories. Inherited files may not inherit themselves: the list stays flat.
pub(crate) fn read_query(dir: &str, file: &str) -> Result<String, String> {
    let text = embedded(dir, file)?;
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        if let Some(list) = line.trim().strip_prefix("; inherits:") {
            for parent in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                let inherited = embedded(parent, file)?;
                if inherited.lines().any(|l| l.trim().starts_with("; inherits:")) {
                    return Err(format!(
                        "queries/{parent}/{file} inherits in turn; keep inheritance one level deep"
                    ));
                }
                out.push_str(&inherited);
                out.push('\n');
            }
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// The environment variable naming a directory to read query files from instead of the
/// built-in ones: query authors edit and re-run without rebuilding.
pub const QUERY_DIR_ENV: &str = "LOCUS_QUERY_DIR";

fn embedded(dir: &str, file: &str) -> Result<std::borrow::Cow<'static, str>, String> {
    let path = format!("{dir}/{file}");
    if let Some(root) = std::env::var_os(QUERY_DIR_ENV) {
        let full = std::path::Path::new(&root).join(&path);
        return std::fs::read_to_string(&full)
            .map(std::borrow::Cow::Owned)
            .map_err(|e| format!("{} ({QUERY_DIR_ENV}): {e}", full.display()));
    }
    QUERY_FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, t)| std::borrow::Cow::Borrowed(*t))
        .ok_or_else(|| format!("queries/{path} is missing"))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A seed (`pair`) that is a symbol only where the `root.up` pattern confirms it: a pair
    /// whose value is a number.
    pub(crate) const SEED_QUERY: &str = "((pair) @symbol.property (#set! seed \"true\"))\n\
        ((_ (_ key: (_) @name value: (_) @_v) @symbol.property) @_o\n\
          (#kind-eq? @_o \"object\") (#kind-eq? @_v \"number\")\n\
          (#kind-eq? @symbol.property \"pair\") (#set! root.up \"1\"))\n";

    /// The JavaScript grammar with no query of its own, for queries written in a test.
    pub(crate) fn javascript() -> LanguageEntry {
        LanguageEntry {
            id: "javascript",
            aliases: &[],
            extensions: &["js"],
            file_names: &[],
            shebangs: &[],
            comment: Some("//"),
            queries: "javascript",
            index_skim: None,
            grammar: || tree_sitter::Language::new(tree_sitter_javascript::LANGUAGE),
        }
    }

    /// A name by place (`{index}`) reads the parent's children: the parent must be in the
    /// pattern, where the incremental update sees an edit of them.
    #[test]
    fn an_index_name_needs_the_parent_in_the_pattern() {
        let ok = "((array (object) @symbol.module) (#set! name \"{index}\"))";
        assert!(
            LanguageConfig::from_source(&javascript(), ok).unwrap().patterns[0].names_by_index()
        );
        for bad in [
            "((object) @symbol.module (#set! name \"{index}\"))",
            "((array) (object) @symbol.module (#set! name \"{index}\"))",
        ] {
            let Err(e) = LanguageConfig::from_source(&javascript(), bad) else { panic!("{bad}") };
            assert!(e.message.contains("needs the symbol's parent"), "{bad}: {e}");
        }
        // `{index}` with a filter is a capture's name, and there is no such capture.
        let e = LanguageConfig::from_source(
            &javascript(),
            "((array (object) @symbol.module) (#set! name \"{index:clip}\"))",
        )
        .err()
        .unwrap();
        assert!(e.message.contains("@index"), "{e}");
    }

    #[test]
    fn split_keeps_patterns_whole_and_in_place() {
        let source = "; a comment with ( and [\n(a \")\" @x) @y\n((b) @symbol.function (#set! root.up \"2\"))\n[(c) (d)] @z\n";
        let split = split_deferred(source).expect("a root.up pattern");
        assert_eq!(split.is_deferred, vec![false, true, false]);
        assert_eq!(split.main.len(), source.len());
        assert_eq!(split.main.lines().count(), source.lines().count());
        assert!(split.main.contains("(a \")\" @x) @y") && split.main.contains("[(c) (d)] @z"));
        assert!(!split.main.contains("(b)") && split.deferred.contains("(#set! root.up \"2\"))"));
        assert!(!split.deferred.contains("(a") && !split.deferred.contains("(c)"));
        assert!(split_deferred("(a) @x").is_none());
    }

    #[test]
    fn deferred_patterns_rank_where_they_are_written() {
        let config = LanguageConfig::from_source(
            &javascript(),
            "((function_declaration name: (_) @name) @symbol.function)\n\
             ((call_expression arguments: (arguments (arrow_function) @symbol.function)) (#set! name \"cb\") (#set! root.up \"2\"))\n\
             ((arrow_function) @symbol.function (#set! name \"<function>\"))\n",
        )
        .unwrap();
        assert_eq!(config.rank, vec![0, 2]);
        assert_eq!(config.deferred.as_ref().unwrap().rank, vec![1]);
        assert_eq!(config.patterns[1].up, Some(2));
        assert!(config.patterns[1].deferred && config.patterns[1].local == 0);
    }

    #[test]
    fn a_seed_pattern_is_marked_and_cannot_be_a_root_up_pattern() {
        let config = LanguageConfig::from_source(&javascript(), SEED_QUERY).unwrap();
        assert!(config.patterns[0].seed && config.patterns[1].up == Some(1));
        let load = |q: &str| LanguageConfig::from_source(&javascript(), q).unwrap_err().message;
        assert!(
            load("((pair) @symbol.property (#set! seed \"true\") (#set! root.up \"1\"))")
                .contains("cannot have root.up")
        );
    }

    /// The index's query leaves out the patterns marked `index.skip` (a root.up one too) and
    /// takes `index.merge` for `merge`; the editor's keeps every pattern and its `merge`.
    #[test]
    fn the_index_query_skips_marked_patterns_and_takes_index_merge() {
        let source = "((function_declaration name: (_) @name) @symbol.function\n\
             (#set! merge \"typed\") (#set! index.merge \"none\"))\n\
             ((formal_parameters (identifier) @name @symbol.variable) (#set! index.skip \"locals\"))\n\
             ((call_expression arguments: (arguments (arrow_function) @symbol.function)) (#set! name \"cb\") (#set! root.up \"2\") (#set! index.skip \"callbacks\"))\n\
             ((class_declaration name: (_) @name) @symbol.class (#set! merge \"first\"))\n";
        let editor = LanguageConfig::from_source(&javascript(), source).unwrap();
        assert_eq!(editor.patterns.len(), 4);
        assert_eq!(editor.patterns[0].merge, Merge::Typed);
        let index = LanguageConfig::compile_index(&javascript(), "t.scm".into(), source)
            .unwrap()
            .expect("an index query of its own");
        assert_eq!(index.patterns.len(), 2);
        assert!(index.deferred.is_none());
        assert_eq!(index.patterns[0].merge, Merge::No);
        assert_eq!(index.patterns[1].merge, Merge::First);
        let plain = "((class_declaration name: (_) @name) @symbol.class)\n";
        assert!(
            LanguageConfig::compile_index(&javascript(), "t.scm".into(), plain).unwrap().is_none()
        );
        let load = |q: &str| LanguageConfig::from_source(&javascript(), q).unwrap_err().message;
        assert!(
            load("((identifier) @symbol.variable (#set! index.skip \"\"))")
                .contains("needs a reason")
        );
        assert!(
            load("((identifier) @symbol.variable (#set! index.merge \"last\"))")
                .contains("first, typed or none")
        );
    }

    #[test]
    fn bad_root_up_and_unknown_predicates_fail_loading() {
        let load = |q: &str| LanguageConfig::from_source(&javascript(), q).unwrap_err().message;
        assert!(load("((arguments) @_a (#set! root.up \"1\"))").contains("needs a @symbol"));
        assert!(
            load("((identifier) @symbol.variable (#set! root.up \"x\"))")
                .contains("number of levels")
        );
        assert!(
            load("((identifier) @symbol.variable (#frob? @symbol.variable))")
                .contains("unknown predicate #frob?")
        );
        assert!(
            load("((identifier) @symbol.variable (#kind-eq? @symbol.variable))")
                .contains("at least one node kind")
        );
    }
}
