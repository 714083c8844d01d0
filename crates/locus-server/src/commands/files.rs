//! The commands that answer for files on disk, with no editor: `locus context`, `outline`,
//! `languages` and `syntax`.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use locus_context::{Request, Symbols};
use locus_doc::{Document, Position, PositionEncoding};
use locus_scopes::{Registry, Source};

use crate::commands::{CliError, io_err};
use crate::proto;

/// Arguments of `locus context`.
#[derive(Debug, clap::Args)]
pub struct ContextArgs {
    /// Positions: LINE and COL are 1-based, COL counts UTF-16 code units (default 1)
    #[arg(value_name = "PATH:LINE[:COL]", required = true, value_parser = parse_location)]
    locations: Vec<Location>,
}

/// Arguments of `locus outline`.
#[derive(Debug, clap::Args)]
pub struct OutlineArgs {
    /// Print a readable indented tree instead of LSP DocumentSymbol JSON
    #[arg(long)]
    tree: bool,
    /// The file
    #[arg(value_name = "PATH")]
    path: PathBuf,
}

/// Arguments of `locus syntax`.
#[derive(Debug, clap::Args)]
pub struct SyntaxArgs {
    /// The file
    #[arg(value_name = "PATH")]
    path: PathBuf,
}

/// One `PATH:LINE[:COL]` argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file.
    pub path: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based UTF-16 column.
    pub column: u32,
}

/// Parses `PATH:LINE[:COL]`. The path may itself contain colons: numbers are taken from the end.
pub fn parse_location(arg: &str) -> Result<Location, String> {
    let bad = |why: &str| format!("`{arg}`: {why}; expected PATH:LINE[:COL], e.g. src/app.ts:12:8");
    let number = |s: &str, what: &str| -> Result<u32, String> {
        match s.parse::<u32>() {
            Ok(0) => Err(bad(&format!("{what} is 1-based, 0 is not a valid {what}"))),
            Ok(n) => Ok(n),
            Err(_) => Err(bad(&format!("{what} `{s}` is not a positive whole number"))),
        }
    };
    let mut parts = arg.rsplitn(3, ':').collect::<Vec<_>>();
    parts.reverse();
    let (path, line, column) = match parts.as_slice() {
        [path, line, col] if line.chars().all(|c| c.is_ascii_digit()) && !line.is_empty() => {
            (path.to_string(), number(line, "line")?, number(col, "column")?)
        }
        [a, b, line] => (format!("{a}:{b}"), number(line, "line")?, 1),
        [path, line] => (path.to_string(), number(line, "line")?, 1),
        _ => return Err(bad("no line number")),
    };
    if path.is_empty() {
        return Err(bad("the path is empty"));
    }
    Ok(Location { path: PathBuf::from(path), line, column })
}

/// Reads a file and parses it in the language its name (or shebang) says. A Python file's
/// static conditions are evaluated for the Python of the current directory, the project
/// pyright would analyse it in.
pub fn load(path: &Path) -> Result<Source, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::Io(format!("cannot read `{}`: {e}", path.display())))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| CliError::Io(format!("`{}` is not UTF-8 text", path.display())))?;
    let language = Registry::builtin().for_path(path, text.lines().next());
    let mut source = Source::new(Document::new(&text, 0), language);
    if language.is_some_and(|l| l.id() == "python") {
        let here = std::env::current_dir().unwrap_or_default();
        source.set_runtime(crate::state::python_runtime(&here));
    }
    Ok(source)
}

fn absolute(path: &Path) -> String {
    locus_platform::path::canonicalize(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

/// `locus context`: the editorContext of each position, one JSON object per line.
pub fn context(args: &ContextArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let locations = &args.locations;
    // The first file's query compiles (about 70 ms for TypeScript) while its text is read and
    // parsed; `Source::new` waits for it if it is not done by then.
    let registry = Registry::builtin();
    if let Some(language) = locations.first().and_then(|l| registry.for_path(&l.path, None)) {
        std::thread::spawn(move || registry.config(language));
    }
    let mut sources: HashMap<PathBuf, Source> = HashMap::new();
    for loc in locations {
        if !sources.contains_key(&loc.path) {
            sources.insert(loc.path.clone(), load(&loc.path)?);
        }
    }
    let mut text = String::new();
    for loc in locations {
        let source = &sources[&loc.path];
        let position = Position::new(loc.line - 1, loc.column - 1);
        let cursor = source.doc().offset_at(position, PositionEncoding::Utf16);
        let path = absolute(&loc.path);
        let ctx = locus_context::build(
            source,
            &Request {
                path: &path,
                language_id: None,
                is_dirty: false,
                cursor,
                selection: None,
                symbols: Symbols::Syntax,
            },
        );
        text.push_str(&proto::editor_context(&ctx).to_string());
        text.push('\n');
    }
    // The process ends after this command: freeing the syntax trees (several milliseconds for
    // a large file) is left to the exit.
    std::mem::forget(sources);
    out.write_all(text.as_bytes()).map_err(io_err)
}

/// `locus outline`: the document's symbols.
pub fn outline(args: &OutlineArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let tree = args.tree;
    let source = load(&args.path)?;
    if let Some(e) = source.error() {
        eprintln!("locus: warning: {e}");
    }
    let outline = source.outline();
    let text = if tree {
        proto::outline_tree(source.doc(), &outline)
    } else {
        let mut s =
            proto::document_symbols(source.doc(), &outline, PositionEncoding::Utf16).to_string();
        s.push('\n');
        s
    };
    out.write_all(text.as_bytes()).map_err(io_err)
}

/// `locus languages`: the registered languages, one JSON object per line.
pub fn languages(out: &mut dyn Write) -> Result<(), CliError> {
    let registry = Registry::builtin();
    let mut text = String::new();
    for lang in registry.languages() {
        let e = registry.entry(lang);
        let status = match registry.config(lang) {
            Ok(_) => "ok".to_string(),
            Err(err) => err.to_string(),
        };
        let line = serde_json::json!({"id": e.id, "aliases": e.aliases, "extensions": e.extensions, "queries": status});
        text.push_str(&line.to_string());
        text.push('\n');
    }
    out.write_all(text.as_bytes()).map_err(io_err)
}

/// `locus syntax`: the syntax tree, for query authors.
pub fn syntax(args: &SyntaxArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let path = &args.path;
    let source = load(path)?;
    let Some(tree) = source.tree() else {
        return Err(CliError::Usage(format!("`{}` has no grammar (plain text)", path.display())));
    };
    let mut text = String::new();
    let mut cursor = tree.walk();
    let mut depth = 0usize;
    loop {
        let node = cursor.node();
        if node.is_named() {
            let field = cursor.field_name().map(|f| format!("{f}: ")).unwrap_or_default();
            let (s, e) = (node.start_position(), node.end_position());
            text.push_str(&format!(
                "{}{field}{} [{}:{} - {}:{}]\n",
                "  ".repeat(depth),
                node.kind(),
                s.row + 1,
                s.column + 1,
                e.row + 1,
                e.column + 1
            ));
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return out.write_all(text.as_bytes()).map_err(io_err);
            }
            depth -= 1;
        }
    }
}
