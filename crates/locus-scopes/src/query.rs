//! Loading a language's `symbols.scm`: inheritance, compilation and validation.
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
//! `{_helper:path}` keeps the dotted name ending an expression, `{_helper:clip}` cuts it to
//! 150 characters and `...`),
//! `hoist "true"` (attach the symbol beside its container instead of inside it),
//! `range.trim "comment"` (trailing nodes of that kind do not count in the range), `keep "if-children"` (drop the symbol unless it has children), `merge
//! "first"` / `merge "typed"` (same-named sibling symbols from such patterns become one: the
//! last typed one if any, else the first) and
//! `name.normalize` (`"trim"`, `"collapse"`, `"markup"`, `"unbreak"`), `level "N"` (a heading level: the
//! symbol's range extends to the next symbol of the same or a higher level, or the end) and
//! `join` / `join.else` (same-named siblings joined into one class, as tsserver's ES5 classes)
//! and `text.match` (symbols found in a node's text by a regular expression: JSDoc `@typedef`).

use std::fmt;

use tree_sitter::Query;

use crate::builtin::{LanguageEntry, QUERY_FILES};
use crate::kind::SymbolKind;

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
    pub join: Join,
    pub join_else: JoinElse,
    /// Symbols found in the node's text: one per match, named by the group `name`.
    pub text_match: Option<regex::Regex>,
}

/// A language's compiled grammar and symbol query.
pub struct LanguageConfig {
    /// The language id.
    pub id: &'static str,
    pub(crate) language: tree_sitter::Language,
    pub(crate) query: Query,
    pub(crate) roles: Vec<Role>,
    pub(crate) patterns: Vec<PatternInfo>,
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
        let file = format!("{}/{SYMBOLS_FILE}", entry.queries);
        let err = |message: String| QueryError {
            language: entry.id.to_string(),
            file: file.clone(),
            message,
        };
        let source = read_query(entry.queries, SYMBOLS_FILE).map_err(err)?;
        let language = (entry.grammar)();
        let query = Query::new(&language, &source).map_err(|e| {
            err(format!(
                "line {}, column {}: {:?} error: {}",
                e.row + 1,
                e.column + 1,
                e.kind,
                e.message
            ))
        })?;
        let roles = query
            .capture_names()
            .iter()
            .map(|name| {
                capture_role(name).ok_or_else(|| {
                    err(format!(
                        "unknown capture @{name}; see queries/README.md for the allowed names"
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut patterns = Vec::with_capacity(query.pattern_count());
        for i in 0..query.pattern_count() {
            patterns.push(pattern_info(&query, i).map_err(|m| {
                err(format!("pattern at byte {}: {m}", query.start_byte_for_pattern(i)))
            })?);
        }
        Ok(LanguageConfig { id: entry.id, language, query, roles, patterns })
    }

    /// The tree-sitter grammar.
    pub fn grammar(&self) -> &tree_sitter::Language {
        &self.language
    }
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

fn pattern_info(query: &Query, pattern: usize) -> Result<PatternInfo, String> {
    let mut info = PatternInfo {
        template: None,
        keep_if_children: false,
        merge: Merge::No,
        normalize: Normalize::Trim,
        level: None,
        hoist: false,
        trim: None,
        join: Join::No,
        join_else: JoinElse::Stay,
        text_match: None,
    };
    for prop in query.property_settings(pattern) {
        let value = prop.value.as_deref().unwrap_or("");
        match &*prop.key {
            "name" => info.template = Some(parse_template(query, value)?),
            "keep" if value == "if-children" => info.keep_if_children = true,
            "merge" if value == "first" => info.merge = Merge::First,
            "merge" if value == "typed" => info.merge = Merge::Typed,
            "hoist" if value == "true" => info.hoist = true,
            "range.trim" if !value.is_empty() => info.trim = Some(value.to_string()),
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
    Ok(info)
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
