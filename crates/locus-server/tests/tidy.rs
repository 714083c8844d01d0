//! The house rules that a reviewer would otherwise have to remember: crates depend only down
//! the layers, protocol crates stay at the edge, no crate's top-level modules import each
//! other in a circle, and no tracked file points outside the repository. Reads the
//! workspace's files; runs nothing but `git ls-files`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The workspace crates each crate may depend on (normal dependencies). Dev-dependencies may
/// add `locus-fixture`. Keep in step with docs/ARCHITECTURE.md.
const LAYERS: &[(&str, &[&str])] = &[
    ("locus-doc", &[]),
    ("locus-fixture", &[]),
    ("locus-dialog", &[]),
    // The DAP client: a protocol crate at the edge, a leaf; the tool layer may drive it.
    ("locus-dap", &[]),
    ("locus-scopes", &["locus-doc"]),
    ("locus-context", &["locus-doc", "locus-scopes"]),
    // The workspace symbol index: outlines of every file, no protocol types.
    ("locus-index", &["locus-doc", "locus-scopes"]),
    (
        "locus-tools",
        &["locus-doc", "locus-scopes", "locus-context", "locus-index", "locus-dialog", "locus-dap"],
    ),
    // locus-dialog: `locus doctor` reports the transcript stores where they are looked for.
    (
        "locus-server",
        &[
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

/// The top-level modules of a crate's `src/` that each top-level module names through
/// `crate::x` (anywhere in its code, comments aside) or, in a top-level file, `super::x`.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let top = rel.components().next().unwrap().as_os_str().to_string_lossy();
        let module = top.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let top_level_file = rel.components().count() == 1;
        let text = std::fs::read_to_string(&file).unwrap();
        let edges = graph.entry(module.clone()).or_default();
        for line in text.lines() {
            let code = line.split("//").next().unwrap();
            let mut prefixes = vec!["crate::"];
            if top_level_file {
                prefixes.push("super::");
            }
            for prefix in prefixes {
                for (i, _) in code.match_indices(prefix) {
                    let before = code[..i].chars().next_back();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        continue;
                    }
                    let rest = &code[i + prefix.len()..];
                    let name: String =
                        rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    if !name.is_empty() && name != module && name != "tests" {
                        edges.insert(name);
                    }
                }
            }
        }
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for edges in graph.values_mut() {
        edges.retain(|e| modules.contains(e));
    }
    graph
}

/// A circle in `graph`, if there is one, as the modules along it.
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
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
        for next in &graph[node] {
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

#[test]
fn no_crate_has_an_import_circle_between_its_modules() {
    for (krate, _) in LAYERS {
        let graph = module_graph(&workspace().join("crates").join(krate).join("src"));
        if let Some(circle) = find_circle(&graph) {
            panic!("{krate}: the modules import each other in a circle: {}", circle.join(" -> "));
        }
    }
}

#[test]
fn the_circle_check_sees_a_circle() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("read".to_string(), ["format".to_string()].into()),
        ("format".to_string(), ["time".to_string(), "read".to_string()].into()),
        ("time".to_string(), BTreeSet::new()),
    ]
    .into();
    assert_eq!(find_circle(&graph).unwrap(), ["format", "read", "format"]);
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
