//! The house rules that a reviewer would otherwise have to remember: crates depend only down
//! the layers, protocol crates stay at the edge, no crate's top-level modules import each
//! other in a circle (re-exports followed to where an item is defined), and no tracked file
//! points outside the repository. Reads the workspace's files; runs nothing but `git ls-files`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The workspace crates each crate may depend on (normal dependencies). Dev-dependencies may
/// add `locus-fixture`. Keep in step with docs/ARCHITECTURE.md.
const LAYERS: &[(&str, &[&str])] = &[
    // Every difference between operating systems, beneath everything.
    ("locus-platform", &[]),
    ("locus-doc", &[]),
    ("locus-fixture", &[]),
    ("locus-dialog", &["locus-platform"]),
    // The DAP client: a protocol crate at the edge, a leaf; the tool layer may drive it.
    ("locus-dap", &["locus-platform"]),
    ("locus-scopes", &["locus-platform", "locus-doc"]),
    ("locus-context", &["locus-platform", "locus-doc", "locus-scopes"]),
    // The workspace symbol index: outlines of every file, no protocol types.
    ("locus-index", &["locus-platform", "locus-doc", "locus-scopes"]),
    (
        "locus-tools",
        &[
            "locus-platform",
            "locus-doc",
            "locus-scopes",
            "locus-context",
            "locus-index",
            "locus-dialog",
            "locus-dap",
        ],
    ),
    // locus-dialog: `locus doctor` reports the transcript stores where they are looked for.
    (
        "locus-server",
        &[
            "locus-platform",
            "locus-doc",
            "locus-scopes",
            "locus-context",
            "locus-index",
            "locus-dialog",
            "locus-tools",
        ],
    ),
];

/// Protocol and serialization-at-the-edge crates, allowed only in the binary.
const EDGE_ONLY: &[&str] = &["tower-lsp-server", "rmcp", "axum", "reqwest", "clap"];

/// Crates at the protocol edge that the core crates (below the tools) never depend on.
const EDGE_CRATES: &[&str] = &["locus-dap"];
const CORE: &[&str] =
    &["locus-doc", "locus-scopes", "locus-context", "locus-index", "locus-dialog"];

fn manifest(krate: &str) -> toml::Table {
    let path = workspace().join("crates").join(krate).join("Cargo.toml");
    std::fs::read_to_string(&path).unwrap().parse().unwrap()
}

fn names(table: &toml::Table, section: &str) -> BTreeSet<String> {
    table
        .get(section)
        .and_then(|d| d.as_table())
        .into_iter()
        .flatten()
        .map(|(k, _)| k.clone())
        .collect()
}

#[test]
fn crates_depend_only_down_the_layers() {
    let listed: BTreeSet<_> = LAYERS.iter().map(|(c, _)| c.to_string()).collect();
    let present: BTreeSet<_> = std::fs::read_dir(workspace().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(listed, present, "every crate has a place in LAYERS (tests/tidy.rs)");
    for (krate, allowed) in LAYERS {
        let m = manifest(krate);
        for dep in names(&m, "dependencies") {
            if dep.starts_with("locus-") {
                assert!(allowed.contains(&dep.as_str()), "{krate} may not depend on {dep}");
            }
            if CORE.contains(krate) {
                assert!(
                    !EDGE_CRATES.contains(&dep.as_str()),
                    "{dep} is at the edge, not in {krate}"
                );
            }
            if *krate != "locus-server" {
                assert!(
                    !EDGE_ONLY.contains(&dep.as_str()),
                    "{dep} belongs at the edge, not in {krate}"
                );
            }
        }
        for dep in names(&m, "dev-dependencies") {
            // A crate's dev-dependency on itself only turns on a feature for its own tests
            // (locus-dap's `testing`): the same crate, not an edge between layers.
            if dep.starts_with("locus-") && dep != "locus-fixture" && dep != *krate {
                assert!(allowed.contains(&dep.as_str()), "{krate} (dev) may not depend on {dep}");
            }
        }
        assert!(m.get("lints").is_some(), "{krate}: [lints] workspace = true");
    }
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A module's path from the crate's root (`[]` for the root itself).
type ModPath = Vec<String>;

/// The text of `code` with comments, string literals and character literals blanked out
/// (newlines kept, so offsets still give line numbers).
fn code_only(code: &str) -> String {
    let b = code.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        let prev_ident = i > 0 && ident(b[i - 1]);
        if b[i..].starts_with(b"//") {
            let end = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if b[i..].starts_with(b"/*") {
            let (mut depth, mut j) = (1, i + 2);
            while j < b.len() && depth > 0 {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if !prev_ident && (b[i] == b'r' || b[i..].starts_with(b"br")) && {
            let j = i + if b[i] == b'b' { 2 } else { 1 };
            let hashes = b[j..].iter().take_while(|&&c| c == b'#').count();
            b.get(j + hashes) == Some(&b'"')
        } {
            // A raw string: no escapes, ends at a quote followed by as many `#`.
            let j = i + if b[i] == b'b' { 2 } else { 1 };
            let hashes = b[j..].iter().take_while(|&&c| c == b'#').count();
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let body = j + hashes + 1;
            let end = b[body..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |n| body + n + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'\'' {
            // A character literal (`'x'`, `'\n'`, `'{'`), else a lifetime or a label.
            let end = if b.get(i + 1) == Some(&b'\\') {
                // The escaped character may itself be a quote: look past it.
                b.get(i + 3..)
                    .and_then(|rest| rest.iter().position(|&c| c == b'\''))
                    .map(|n| i + 3 + n + 1)
            } else {
                let width = code[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + width) == Some(&b'\'')).then_some(i + 2 + width)
            };
            match end {
                Some(end) => {
                    blank(&mut out, i, end);
                    i = end;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The tokens of `code` (already [`code_only`]) that paths and modules are made of:
/// identifiers, `::`, and single punctuation characters, each with its byte offset.
fn tokens(code: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            let n = b[i..]
                .iter()
                .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80)
                .count();
            out.push((i, &code[i..i + n]));
            i += n;
        } else if b[i..].starts_with(b"::") {
            out.push((i, "::"));
            i += 2;
        } else {
            out.push((i, &code[i..i + 1]));
            i += 1;
        }
    }
    out
}

fn is_ident(token: &str) -> bool {
    token.starts_with(|c: char| c.is_alphabetic() || c == '_')
}

/// One leaf of a `use` tree or a path: its segments as written, and the name it binds
/// (`None` for a glob, `_`, or a path that is not imported).
#[derive(Debug, Clone)]
struct Leaf {
    segments: Vec<String>,
    binds: Option<String>,
    glob: bool,
}

/// Parses a path or a `use` tree from `tokens[at]` on; returns its leaves and the index after
/// it. `prefix` holds the segments before a group.
fn use_tree(tokens: &[(usize, &str)], mut at: usize, prefix: &[String]) -> (Vec<Leaf>, usize) {
    let tok = |i: usize| tokens.get(i).map(|t| t.1);
    let mut segments = prefix.to_vec();
    loop {
        match tok(at) {
            Some("{") => {
                let mut leaves = Vec::new();
                at += 1;
                while let Some(t) = tok(at) {
                    if t == "}" {
                        at += 1;
                        break;
                    }
                    if t == "," {
                        at += 1;
                        continue;
                    }
                    let (more, next) = use_tree(tokens, at, &segments);
                    leaves.extend(more);
                    if next == at {
                        at += 1;
                    } else {
                        at = next;
                    }
                }
                return (leaves, at);
            }
            Some("*") => {
                return (vec![Leaf { segments, binds: None, glob: true }], at + 1);
            }
            Some(t) if is_ident(t) => {
                if t == "self" && !segments.is_empty() && tok(at + 1) != Some("::") {
                    // `a::{self}`: the module `a` itself.
                } else {
                    segments.push(t.to_string());
                }
                at += 1;
                if tok(at) == Some("::") {
                    at += 1;
                    continue;
                }
                let mut binds = segments.last().cloned();
                if tok(at) == Some("as") {
                    binds = tok(at + 1).filter(|a| *a != "_").map(str::to_string);
                    at += 2;
                }
                return (vec![Leaf { segments, binds, glob: false }], at);
            }
            _ => return (Vec::new(), at),
        }
    }
}

/// What a module's own text says: the names its `use` items bind (as written, resolved
/// later), the modules it glob-imports, and the items it defines.
#[derive(Debug, Default)]
struct Module {
    uses: BTreeMap<String, Vec<String>>,
    globs: Vec<Vec<String>>,
    items: BTreeSet<String>,
}

/// A path to a module or item somewhere in the crate's code, with where it was written.
#[derive(Debug)]
struct PathUse {
    /// The module whose code holds it (for `self::` and `super::`).
    module: ModPath,
    segments: Vec<String>,
    /// Whether it is in an item under `#[cfg(test)]`.
    test: bool,
    file: String,
    line: usize,
}

/// A crate's modules, read from its `src/` files, enough to follow a path to the module
/// that defines what it names: through submodules and through re-exports (`pub use` in
/// `lib.rs` or a `mod.rs`, or any other `use`).
#[derive(Debug, Default)]
struct Crate {
    modules: BTreeMap<ModPath, Module>,
    paths: Vec<PathUse>,
    /// Modules declared under `#[cfg(test)]` (`#[cfg(test)] mod tests;`).
    test_modules: BTreeSet<ModPath>,
}

/// The words an item can start with, after its attributes.
const ITEM_STARTS: &[&str] = &[
    "pub",
    "mod",
    "fn",
    "struct",
    "enum",
    "trait",
    "type",
    "const",
    "static",
    "union",
    "impl",
    "use",
    "macro_rules",
    "extern",
    "unsafe",
    "async",
];

impl Crate {
    /// Reads `files` (paths relative to `src/`, and their text).
    fn read(files: &BTreeMap<PathBuf, String>) -> Crate {
        let mut krate = Crate::default();
        let root = if files.contains_key(Path::new("lib.rs")) { "lib.rs" } else { "main.rs" };
        for (rel, text) in files {
            let mut module: ModPath =
                rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            let last = module.pop().unwrap();
            let top_file = module.is_empty() && ["lib.rs", "main.rs"].contains(&last.as_str());
            if top_file && rel != Path::new(root) {
                continue; // the binary beside a library: a crate of its own
            }
            if !top_file && last != "mod.rs" {
                module.push(last.trim_end_matches(".rs").to_string());
            }
            krate.read_file(&rel.display().to_string(), module, text);
        }
        krate
    }

    fn read_file(&mut self, file: &str, module: ModPath, text: &str) {
        let code = code_only(text);
        let line_of = |offset: usize| code[..offset].matches('\n').count() + 1;
        let tokens = tokens(&code);
        let tok = |i: usize| tokens.get(i).map(|t| t.1);
        // The modules open at this point (inline `mod x { … }` nest), each with the brace
        // depth its items are at.
        let mut open: Vec<(ModPath, usize)> = vec![(module.clone(), 0)];
        self.modules.entry(module).or_default();
        // An item under `#[cfg(test)]`: seen the attribute, then inside the item (at the
        // depth it starts at, and whether its body opened).
        let mut cfg_test = false;
        let mut test_item: Option<(usize, bool)> = None;
        let mut depth = 0;
        let mut i = 0;
        while i < tokens.len() {
            let t = tokens[i].1;
            let (current, item_depth) = open.last().cloned().unwrap();
            let at_items = depth == item_depth;
            if at_items
                && ["#", "[", "cfg", "(", "test", ")", "]"]
                    .iter()
                    .enumerate()
                    .all(|(k, w)| tok(i + k) == Some(*w))
            {
                cfg_test = true;
                i += 7;
                continue;
            }
            if cfg_test && at_items && ITEM_STARTS.contains(&t) {
                cfg_test = false;
                test_item = Some((depth, false));
            }
            match t {
                "{" => {
                    if let Some((d, opened)) = &mut test_item
                        && *d == depth
                    {
                        *opened = true;
                    }
                    depth += 1;
                }
                "}" => {
                    depth -= 1;
                    if depth < item_depth {
                        open.pop();
                    }
                    if test_item == Some((depth, true)) {
                        test_item = None;
                    }
                }
                ";" if test_item == Some((depth, false)) => test_item = None,
                "mod" if at_items && tok(i + 1).is_some_and(is_ident) => {
                    let name = tok(i + 1).unwrap().to_string();
                    self.modules.entry(current.clone()).or_default().items.insert(name.clone());
                    let mut inner = current.clone();
                    inner.push(name);
                    if test_item.is_some() {
                        self.test_modules.insert(inner.clone());
                    }
                    if tok(i + 2) == Some("{") {
                        if let Some((_, opened)) = &mut test_item {
                            *opened = true;
                        }
                        self.modules.entry(inner.clone()).or_default();
                        open.push((inner, depth + 1));
                        depth += 1;
                        i += 3;
                        continue;
                    }
                }
                "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "union"
                    if at_items && tok(i + 1).is_some_and(is_ident) =>
                {
                    let name = tok(i + 1).unwrap().to_string();
                    self.modules.entry(current.clone()).or_default().items.insert(name);
                }
                "macro_rules" if at_items && tok(i + 1) == Some("!") => {
                    if let Some(name) = tok(i + 2).filter(|n| is_ident(n)) {
                        let name = name.to_string();
                        self.modules.entry(current.clone()).or_default().items.insert(name);
                    }
                }
                "use" if at_items => {
                    let (leaves, _) = use_tree(&tokens, i + 1, &[]);
                    let m = self.modules.entry(current.clone()).or_default();
                    for leaf in leaves {
                        if leaf.glob {
                            m.globs.push(leaf.segments);
                        } else if let Some(name) = leaf.binds {
                            m.uses.insert(name, leaf.segments);
                        }
                    }
                }
                "crate" | "super" | "self"
                    if tok(i + 1) == Some("::") && (i == 0 || tok(i - 1) != Some("::")) =>
                {
                    let (leaves, next) = use_tree(&tokens, i, &[]);
                    for leaf in leaves {
                        self.paths.push(PathUse {
                            module: current.clone(),
                            segments: leaf.segments,
                            test: test_item.is_some(),
                            file: file.to_string(),
                            line: line_of(tokens[i].0),
                        });
                    }
                    i = next.max(i + 1);
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// `segments` as written in `module`, from the crate's root; `None` for a path into
    /// another crate.
    fn absolute(&self, module: &[String], segments: &[String], hops: usize) -> Option<ModPath> {
        let first = segments.first()?;
        let mut base: ModPath = module.to_vec();
        let rest = match first.as_str() {
            "crate" => {
                base.clear();
                &segments[1..]
            }
            "self" => &segments[1..],
            "super" => {
                let supers = segments.iter().take_while(|s| *s == "super").count();
                for _ in 0..supers {
                    base.pop();
                }
                &segments[supers..]
            }
            _ => {
                let mut child = base.clone();
                child.push(first.clone());
                if self.modules.contains_key(&child) {
                    segments
                } else {
                    let target = self.modules.get(module)?.uses.get(first)?;
                    if hops > 16 {
                        return None;
                    }
                    let mut p = self.absolute(module, target, hops + 1)?;
                    p.extend(segments[1..].iter().cloned());
                    return Some(p);
                }
            }
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The module that defines what the crate-rooted `path` names: submodules are entered,
    /// re-exports followed. A name found nowhere is taken as defined in the module reached.
    fn defining(&self, path: &[String], hops: usize) -> ModPath {
        let mut module: ModPath = Vec::new();
        for (i, segment) in path.iter().enumerate() {
            let mut child = module.clone();
            child.push(segment.clone());
            if self.modules.contains_key(&child) {
                module = child;
                continue;
            }
            let Some(m) = self.modules.get(&module) else { return module };
            if m.items.contains(segment) || hops > 16 {
                return module;
            }
            let follow = |target: Option<ModPath>| {
                target.map(|mut p| {
                    p.extend(path[i + 1..].iter().cloned());
                    self.defining(&p, hops + 1)
                })
            };
            if let Some(target) = m.uses.get(segment) {
                return follow(self.absolute(&module, target, 0)).unwrap_or(module);
            }
            for glob in &m.globs {
                let Some(mut from) = self.absolute(&module, glob, 0) else { continue };
                let Some(g) = self.modules.get(&from) else { continue };
                let mut child = from.clone();
                child.push(segment.clone());
                if self.modules.contains_key(&child)
                    || g.items.contains(segment)
                    || g.uses.contains_key(segment)
                {
                    from.push(segment.clone());
                    return follow(Some(from)).unwrap_or(module);
                }
            }
            return module;
        }
        module
    }
}

/// Why one top-level module depends on another: the first path that says so.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Because {
    file: String,
    line: usize,
    written: String,
    defined_in: String,
}

/// The top-level modules of a crate whose `src/` files are `files` (relative paths and
/// text), each with the top-level modules its code names through `crate::`, `super::` or
/// `self::` paths, followed through submodules and re-exports to the module that defines
/// what they name (so `crate::Config`, re-exported by `lib.rs` from `index`, is `index`).
/// Code under `#[cfg(test)]` is left out: a module's tests may use the whole crate.
fn graph_of(files: &BTreeMap<PathBuf, String>) -> BTreeMap<String, BTreeMap<String, Because>> {
    let krate = Crate::read(files);
    let mut graph: BTreeMap<String, BTreeMap<String, Because>> = BTreeMap::new();
    for module in krate.modules.keys() {
        if module.len() == 1 && !module[0].is_empty() {
            graph.entry(module[0].clone()).or_default();
        }
    }
    for p in &krate.paths {
        // Test code may reach anything: the layering is the shipped code's.
        if p.test || krate.test_modules.iter().any(|m| p.module.starts_with(m)) {
            continue;
        }
        let Some(from) = p.module.first() else { continue };
        let Some(absolute) = krate.absolute(&p.module, &p.segments, 0) else { continue };
        let defining = krate.defining(&absolute, 0);
        let Some(to) = defining.first() else { continue };
        if to == from || to == "tests" || !graph.contains_key(to) {
            continue;
        }
        let because = Because {
            file: p.file.clone(),
            line: p.line,
            written: p.segments.join("::"),
            defined_in: defining.join("::"),
        };
        graph.get_mut(from).unwrap().entry(to.clone()).or_insert(because);
    }
    graph
}

/// [`graph_of`] the crate whose sources are in `src`.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeMap<String, Because>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let files = files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f.strip_prefix(src).unwrap().to_path_buf(), text)
        })
        .collect();
    graph_of(&files)
}

/// A circle in `graph`, if there is one, as the modules along it.
fn find_circle<T>(graph: &BTreeMap<String, BTreeMap<String, T>>) -> Option<Vec<String>> {
    fn visit<T>(
        node: &str,
        graph: &BTreeMap<String, BTreeMap<String, T>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.to_string());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph[node].keys() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

/// The circle in a crate's module graph, one line per step saying which path makes it.
fn circle_message(
    krate: &str,
    graph: &BTreeMap<String, BTreeMap<String, Because>>,
) -> Option<String> {
    let circle = find_circle(graph)?;
    let mut message =
        format!("{krate}: the modules import each other in a circle: {}", circle.join(" -> "));
    for step in circle.windows(2) {
        let b = &graph[&step[0]][&step[1]];
        message.push_str(&format!(
            "\n  {} -> {}: src/{}:{} names `{}`, defined in `crate::{}`",
            step[0], step[1], b.file, b.line, b.written, b.defined_in
        ));
    }
    Some(message)
}

#[test]
fn no_crate_has_an_import_circle_between_its_modules() {
    for (krate, _) in LAYERS {
        let graph = module_graph(&workspace().join("crates").join(krate).join("src"));
        if let Some(message) = circle_message(krate, &graph) {
            panic!("{message}");
        }
    }
}

#[test]
fn the_circle_check_sees_a_circle() {
    let graph: BTreeMap<String, BTreeMap<String, ()>> = [
        ("read".to_string(), [("format".to_string(), ())].into()),
        ("format".to_string(), [("time".to_string(), ()), ("read".to_string(), ())].into()),
        ("time".to_string(), BTreeMap::new()),
    ]
    .into();
    assert_eq!(find_circle(&graph).unwrap(), ["format", "read", "format"]);
}

/// A crate made of `files`, as `(path under src/, text)`.
fn sources(files: &[(&str, &str)]) -> BTreeMap<PathBuf, String> {
    files.iter().map(|(p, t)| (PathBuf::from(p), t.to_string())).collect()
}

#[test]
fn the_circle_check_follows_re_exports_to_the_defining_module() {
    // `walk` names `crate::Config`, which `lib.rs` re-exports from `index`, which imports
    // `walk`: a circle, though no path names `crate::index` from `walk`.
    let files = sources(&[
        ("lib.rs", "mod index;\nmod walk;\npub use index::{Config, Index};\n"),
        ("index/mod.rs", "mod build;\npub use build::Config;\npub struct Index;\n"),
        ("index/build.rs", "use crate::walk;\npub struct Config;\n"),
        (
            "walk.rs",
            "// crate::nothing here\nuse crate::Config;\nfn f() { let _ = \"crate::x\"; }\n",
        ),
    ]);
    let graph = graph_of(&files);
    assert_eq!(graph["walk"].keys().collect::<Vec<_>>(), ["index"]);
    let message = circle_message("demo", &graph).expect("the circle is seen");
    assert!(
        message
            .starts_with("demo: the modules import each other in a circle: index -> walk -> index"),
        "{message}"
    );
    assert!(
        message.contains(
            "walk -> index: src/walk.rs:2 names `crate::Config`, defined in `crate::index::build`"
        ),
        "{message}"
    );
    // With `Config` in a module of its own, below both, there is none.
    let files = sources(&[
        ("lib.rs", "mod config;\nmod index;\nmod walk;\npub use config::Config;\n"),
        ("config.rs", "pub struct Config;\n"),
        ("index.rs", "use crate::{walk, Config};\nuse super::config;\n"),
        ("walk.rs", "use crate::Config;\nmod tests { use super::super::Config; }\nmod extra;\n"),
        // Code under `#[cfg(test)]` may use the whole crate.
        (
            "walk/extra.rs",
            "#[cfg(test)]\n#[allow(dead_code)]\nfn helper() { crate::index::g(); }\n\
             #[cfg(test)]\nmod more;\n#[cfg(test)] mod inline { use crate::index; }\n",
        ),
        ("walk/extra/more.rs", "fn f() { crate::index::g(); }\n"),
    ]);
    let graph = graph_of(&files);
    assert_eq!(graph["index"].keys().collect::<Vec<_>>(), ["config", "walk"]);
    assert_eq!(graph["walk"].keys().collect::<Vec<_>>(), ["config"]);
    assert_eq!(circle_message("demo", &graph), None);
}

/// The kinds of file whose text the project writes: code, docs, scripts, queries, manifests.
const WRITTEN: &[&str] = &["rs", "md", "py", "sh", "lua", "ts", "mjs", "toml", "scm", "json"];

/// Tracked files that are data, not the project's words: the language servers' recorded
/// answers, and npm's lock files.
fn is_data(path: &str) -> bool {
    path.starts_with("tests/fidelity/reference/") || path.ends_with("package-lock.json")
}

/// The files git tracks, relative to the workspace root.
fn tracked_files() -> Vec<String> {
    let out = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(workspace())
        .output()
        .expect("git runs (this check lists the files git tracks)");
    assert!(out.status.success(), "git ls-files: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .expect("tracked paths are UTF-8")
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Why `line` points outside the repository, if it does: at the design document kept beside
/// it (by name, or by its numbered sections), at an issue by its number, or at the folders
/// next to the clone. Whatever a reader needs must be said here, or in `docs/`. The needles
/// are put together from pieces, so that this file passes its own check.
fn outside_reference(line: &str) -> Option<&'static str> {
    let upper = ["DES", "IGN"].concat();
    let lower = line.to_lowercase();
    if lower.contains(&format!("{}.md", upper.to_lowercase())) {
        return Some("names the design document");
    }
    // The name alone, in capitals, as the design document was cited.
    for (i, _) in line.match_indices(&upper) {
        let before = line[..i].chars().next_back();
        let after = line[i + upper.len()..].chars().next();
        if !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char) {
            return Some("cites the design document");
        }
    }
    // A numbered section: the sign, at most one space, a digit.
    for (i, sign) in lower.match_indices('\u{a7}') {
        let rest = lower[i + sign.len()..].strip_prefix(' ').unwrap_or(&lower[i + sign.len()..]);
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            return Some("cites a numbered section of the design document");
        }
    }
    // An issue by number: the whole word (not the end of "tissue"), singular or plural, then
    // spaces, `_`, `-` or `/`, an optional `#`, and a digit.
    let issue = ["iss", "ue"].concat();
    for (i, _) in lower.match_indices(&issue) {
        if lower[..i].chars().next_back().is_some_and(is_word_char) {
            continue;
        }
        let rest = &lower[i + issue.len()..];
        let rest = rest.strip_prefix('s').unwrap_or(rest);
        let after_separator = rest.trim_start_matches([' ', '_', '-', '/']);
        if after_separator.len() == rest.len() {
            continue;
        }
        let number = after_separator.strip_prefix('#').unwrap_or(after_separator);
        if number.starts_with(|c: char| c.is_ascii_digit()) {
            return Some("cites an issue by its number");
        }
    }
    let shared = ["sha", "red/"].concat();
    if lower.contains(&format!("../{shared}")) {
        return Some("points at a folder beside the clone");
    }
    for folder in ["corpus", "vendor", "notes"] {
        if lower.contains(&format!("{shared}{folder}")) {
            return Some("points at a folder beside the clone");
        }
    }
    None
}

/// Every tracked file's name, and every line of the files the project writes, stands on its
/// own: what it once cited is said in its own words or in `docs/`.
#[test]
fn no_reference_leaves_the_repository() {
    let root = workspace();
    let mut found = Vec::new();
    for path in tracked_files() {
        if is_data(&path) {
            continue;
        }
        if let Some(why) = outside_reference(&path) {
            found.push(format!("{path}: its name {why}"));
        }
        let kind = path.rsplit_once('.').map(|(_, ext)| ext);
        if !kind.is_some_and(|k| WRITTEN.contains(&k)) {
            continue;
        }
        // A tracked file deleted in the working tree has nothing left to check.
        let Ok(bytes) = std::fs::read(root.join(&path)) else { continue };
        for (n, line) in String::from_utf8_lossy(&bytes).lines().enumerate() {
            if let Some(why) = outside_reference(line) {
                found.push(format!("{path}:{}: {why}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "say it in this repository's own words, or point to its docs/ (docs/reference/*.md \
         holds the contracts):\n{}",
        found.join("\n")
    );
}

/// What names an operating system in Rust code: a `cfg` on one, or its own API.
const OS_SPECIFIC: &[&str] = &[
    "cfg(unix)",
    "cfg(windows)",
    "cfg(not(unix))",
    "cfg(not(windows))",
    "target_os",
    "target_family",
    "cfg!(unix)",
    "cfg!(windows)",
    "libc::",
    "windows_sys::",
    "std::os::unix",
    "std::os::windows",
    // Verbatim `\\?\` paths on Windows: use locus_platform::path::canonicalize.
    "fs::canonicalize",
];

/// The shipped code of `text`: without its `#[cfg(test)]` module, which by the house's
/// custom closes a file.
fn shipped(text: &str) -> &str {
    match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => text,
    }
}

/// Every difference between operating systems is in locus-platform: no other crate's shipped
/// code names one (tests may, to test what only one system has).
#[test]
fn only_the_platform_crate_names_an_operating_system() {
    let root = workspace();
    let mut found = Vec::new();
    for krate in LAYERS.iter().map(|(k, _)| *k).filter(|k| *k != "locus-platform") {
        let mut files = Vec::new();
        rust_files(&root.join("crates").join(krate).join("src"), &mut files);
        for file in files {
            if file.file_name().is_some_and(|n| n == "tests.rs" || n == "testing.rs")
                || file.components().any(|c| c.as_os_str() == "tests")
            {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let code = code_only(&text);
            let code: String = shipped(&code).chars().filter(|c| !c.is_whitespace()).collect();
            for needle in OS_SPECIFIC {
                if code.contains(needle) {
                    found
                        .push(format!("{}: {needle}", file.strip_prefix(&root).unwrap().display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "move what differs by system into locus-platform:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_reference_check_sees_references_and_nothing_else() {
    let design = ["DES", "IGN"].concat();
    let issue = ["Iss", "ue"].concat();
    let shared = ["sha", "red"].concat();
    let section = '\u{a7}';
    for line in [
        format!("the envelope ({design} {section}4)"),
        format!("see {}.md", design.to_lowercase()),
        format!("{design}'s target"),
        format!("{issue} 11 {section} 4: Helix"),
        format!("({}s 11 and 14)", issue.to_lowercase()),
        format!("{} #12", issue.to_lowercase()),
        format!("tests/scopes/python/{}_11.py", issue.to_lowercase()),
        format!("the files of `../{shared}/corpus/large/`"),
        format!("{shared}/notes/today.md"),
    ] {
        assert!(outside_reference(&line).is_some(), "not seen: {line}");
    }
    for line in [
        "a tissue 3 cm wide",
        "the issue the user reports",
        "## Design",
        "DESIGNS and REDESIGN",
        "a \u{a7} sign alone",
        "shared/state.rs",
    ] {
        assert_eq!(outside_reference(line), None, "seen in: {line}");
    }
}
