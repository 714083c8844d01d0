//! The command line: argument parsing and the one-shot commands (`context`, `outline`).

use std::collections::HashMap;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use locus_context::{Request, Symbols};
use locus_doc::{Document, Position, PositionEncoding};
use locus_scopes::{Registry, Source};

use crate::proto;

const HELP: &str = "\
locus — a context oracle for editors and AI agents

USAGE:
    locus lsp [--no-mcp] [--mcp-port N] [--log-level LEVEL]
                                       the editor-facing language server on stdio (see docs/editors.md)
    locus mcp [--workspace DIR] [--timeout MS]
                                       MCP on stdio for agents: forwards to the running `locus lsp`
                                       of this workspace, or serves the tools in-process
    locus call TOOL [--param K=V]... [--json '{..}'] [--workspace DIR] [--timeout MS]
                                       call one tool; prints its envelope (exit 1 when it failed)
    locus tools                        the tools, one JSON object per line
    locus status                       the running sidecars (`locus lsp` with MCP), one JSON object per line
    locus context PATH:LINE[:COL]...   editorContext for file positions, one JSON object per line
    locus outline [--tree] PATH        the document's symbols as LSP DocumentSymbol JSON (or an indented tree)
    locus languages                    the languages Locus knows, one JSON object per line
    locus syntax PATH                  the syntax tree, for query authors (named nodes, with fields)
    locus --version | --help

LINE and COL are 1-based; COL counts UTF-16 code units, as VS Code does (default 1).
Errors go to stderr with a non-zero exit; stdout carries only the answer.

`locus lsp` options: --mcp-port N (0 = a random port, the default; 1-65535), --no-mcp,
--log-level error|warn|info|debug|trace (default info; or the LOCUS_LOG environment variable).
Logs go to stderr and to the editor's log.
";

/// A command-line failure, with what the user should do about it.
#[derive(Debug)]
pub enum CliError {
    /// The arguments are wrong: exit code 2.
    Usage(String),
    /// A file could not be read: exit code 1.
    Io(String),
}

impl CliError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Io(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => write!(f, "error: {m}\n\nRun `locus --help` for usage."),
            CliError::Io(m) => write!(f, "error: {m}"),
        }
    }
}

/// Runs the command line `args` (without the program name), writing answers to `out`.
pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let Some((command, rest)) = args.split_first() else {
        return Err(CliError::Usage("no command given".into()));
    };
    let result = match command.as_str() {
        "lsp" => lsp(rest),
        "mcp" => crate::mcp::commands::mcp(rest),
        "call" => crate::mcp::commands::call(rest, out),
        "tools" => crate::mcp::commands::tools(rest, out),
        "status" => crate::mcp::commands::status(rest, out),
        "context" => context(rest, out),
        "outline" => outline(rest, out),
        "languages" => languages(out),
        "syntax" => syntax(rest, out),
        "--version" | "-V" | "version" => {
            writeln!(out, "locus {}", env!("CARGO_PKG_VERSION")).map_err(io_err)
        }
        "--help" | "-h" | "help" => write!(out, "{HELP}").map_err(io_err),
        other => Err(CliError::Usage(format!("unknown command `{other}`"))),
    };
    result
}

/// Walks command-line options written `--flag value` or `--flag=value`.
pub struct Flags<'a> {
    args: &'a [String],
    next: usize,
    current: usize,
}

impl<'a> Flags<'a> {
    /// Walks `args` from the first.
    pub fn new(args: &'a [String]) -> Flags<'a> {
        Flags { args, next: 0, current: 0 }
    }

    /// The next argument, split into the flag and the value written after `=` (`--flag=value`).
    pub fn next_flag(&mut self) -> Option<(&'a str, Option<&'a str>)> {
        let arg = self.args.get(self.next)?.as_str();
        self.current = self.next;
        self.next += 1;
        Some(match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value)),
            _ => (arg, None),
        })
    }

    /// The argument [`Flags::next_flag`] last returned, as written.
    pub fn current(&self) -> &'a str {
        &self.args[self.current]
    }

    /// The value of `flag`: the one written after `=`, else the next argument; `what` names
    /// it in the error when there is none.
    pub fn value(
        &mut self,
        flag: &str,
        inline: Option<&str>,
        what: &str,
    ) -> Result<String, CliError> {
        if let Some(v) = inline {
            return Ok(v.to_string());
        }
        let v = self
            .args
            .get(self.next)
            .cloned()
            .ok_or_else(|| CliError::Usage(format!("`{flag}` needs {what}")))?;
        self.next += 1;
        Ok(v)
    }
}

/// Parses the options of `locus lsp`. `env_log` is the value of `LOCUS_LOG`, if set.
pub fn lsp_options(
    args: &[String],
    env_log: Option<&str>,
) -> Result<crate::lsp::Options, CliError> {
    use crate::lsp::Level;
    let mut mcp = true;
    let mut port: Option<u16> = None;
    let mut level: Option<Level> = None;
    let mut flags = Flags::new(args);
    while let Some((flag, inline)) = flags.next_flag() {
        match flag {
            "--no-mcp" if inline.is_none() => mcp = false,
            "--mcp-port" => {
                let v = flags.value(flag, inline, "a port number")?;
                port = Some(v.trim().parse::<u16>().map_err(|_| {
                    CliError::Usage(format!("`--mcp-port {v}`: the port must be a whole number from 1 to 65535 (or 0 for a random port)"))
                })?);
            }
            "--log-level" => {
                let v = flags.value(flag, inline, "a level")?;
                level = Some(
                    v.parse()
                        .map_err(|e: String| CliError::Usage(format!("`--log-level`: {e}")))?,
                );
            }
            // vscode-languageclient adds `--stdio` to the command it starts.
            "--stdio" if inline.is_none() => {}
            other => {
                return Err(CliError::Usage(format!("unknown option `{other}` for `locus lsp`")));
            }
        }
    }
    let log_level = match (level, env_log) {
        (Some(l), _) => l,
        (None, Some(v)) if !v.trim().is_empty() => {
            v.parse().map_err(|e: String| CliError::Usage(format!("LOCUS_LOG: {e}")))?
        }
        _ => Level::Info,
    };
    if !mcp && port.is_some() {
        eprintln!("locus: warning: `--mcp-port` has no effect with `--no-mcp`");
    }
    Ok(crate::lsp::Options {
        mcp_port: if mcp { Some(port.unwrap_or(0)) } else { None },
        log_level,
    })
}

fn lsp(args: &[String]) -> Result<(), CliError> {
    let env_log = std::env::var("LOCUS_LOG").ok();
    let options = lsp_options(args, env_log.as_deref())?;
    match crate::lsp::run(options) {
        Ok(true) => Ok(()),
        Ok(false) => {
            Err(CliError::Io("the editor closed the connection without a shutdown request".into()))
        }
        Err(e) => Err(CliError::Io(format!("the language server failed: {e}"))),
    }
}

fn io_err(e: std::io::Error) -> CliError {
    CliError::Io(format!("writing output: {e}"))
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
pub fn parse_location(arg: &str) -> Result<Location, CliError> {
    let bad = |why: &str| {
        CliError::Usage(format!("`{arg}`: {why}; expected PATH:LINE[:COL], e.g. src/app.ts:12:8"))
    };
    let number = |s: &str, what: &str| -> Result<u32, CliError> {
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

/// Reads a file and parses it in the language its name (or shebang) says.
pub fn load(path: &Path) -> Result<Source, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::Io(format!("cannot read `{}`: {e}", path.display())))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| CliError::Io(format!("`{}` is not UTF-8 text", path.display())))?;
    let language = Registry::builtin().for_path(path, text.lines().next());
    Ok(Source::new(Document::new(&text, 0), language))
}

fn absolute(path: &Path) -> String {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()).display().to_string()
}

fn context(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    if args.is_empty() {
        return Err(CliError::Usage("`locus context` needs at least one PATH:LINE[:COL]".into()));
    }
    let locations = args.iter().map(|a| parse_location(a)).collect::<Result<Vec<_>, _>>()?;
    let mut sources: HashMap<PathBuf, Source> = HashMap::new();
    for loc in &locations {
        if !sources.contains_key(&loc.path) {
            sources.insert(loc.path.clone(), load(&loc.path)?);
        }
    }
    let mut text = String::new();
    for loc in &locations {
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
    out.write_all(text.as_bytes()).map_err(io_err)
}

fn outline(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let tree = args.iter().any(|a| a == "--tree");
    let paths: Vec<_> = args.iter().filter(|a| *a != "--tree").collect();
    let [path] = paths.as_slice() else {
        return Err(CliError::Usage(
            "`locus outline` takes one PATH (and optionally --tree)".into(),
        ));
    };
    if let Some(flag) = path.strip_prefix("--") {
        return Err(CliError::Usage(format!("unknown option `--{flag}` for `locus outline`")));
    }
    let source = load(Path::new(path))?;
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

fn languages(out: &mut dyn Write) -> Result<(), CliError> {
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

fn syntax(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let [path] = args else {
        return Err(CliError::Usage("`locus syntax` takes one PATH".into()));
    };
    let source = load(Path::new(path))?;
    let Some(tree) = source.tree() else {
        return Err(CliError::Usage(format!("`{path}` has no grammar (plain text)")));
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
