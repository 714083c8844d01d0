//! Generates the language table from `grammars/*.toml` and embeds `queries/**/*.scm`.
//!
//! Each registry file names a grammar crate and the constant that holds its language; the
//! generated code links that constant, so nothing is fetched or compiled at run time.
//! Registry files are strict: an unknown key fails the build with the file's name.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Entry {
    id: String,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    extensions: Vec<String>,
    #[serde(default)]
    file_names: Vec<String>,
    #[serde(default)]
    shebangs: Vec<String>,
    #[serde(default)]
    comment: Option<String>,
    grammar: Grammar,
    #[serde(default)]
    queries: Option<String>,
    #[serde(default)]
    index_skim: Option<Skim>,
}

/// `[index-skim]`: the function bodies the workspace index may parse as `pass` (`skim.rs`).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Skim {
    lexer: String,
    filler: String,
    headers: Vec<String>,
    keep: Vec<String>,
    targets: Vec<String>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Grammar {
    #[serde(rename = "crate")]
    krate: String,
    constant: String,
}

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap()).join("../..");
    let grammars = root.join("grammars");
    let queries = root.join("queries");
    println!("cargo:rerun-if-changed={}", grammars.display());
    println!("cargo:rerun-if-changed={}", queries.display());

    let mut entries = BTreeMap::new();
    for file in sorted_files(&grammars, "toml") {
        println!("cargo:rerun-if-changed={}", file.display());
        let text = fs::read_to_string(&file).unwrap();
        let entry: Entry = toml::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: invalid grammar registry entry: {e}", file.display()));
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        assert_eq!(stem, entry.id, "{}: the file must be named after its id", file.display());
        entries.insert(entry.id.clone(), entry);
    }

    let mut out = String::from(
        "/// The built-in registry, generated from `grammars/*.toml`.\npub(crate) static BUILTIN: &[LanguageEntry] = &[\n",
    );
    for e in entries.values() {
        let krate = e.grammar.krate.replace('-', "_");
        let skim = match &e.index_skim {
            Some(s) => {
                // The lexical rules `skim.rs` knows.
                assert!(
                    ["indented"].contains(&s.lexer.as_str()),
                    "{}: index-skim: unknown lexer {:?}",
                    e.id,
                    s.lexer
                );
                format!(
                    "Some(SkimEntry {{ lexer: {:?}, filler: {:?}, headers: &{:?}, keep: &{:?}, targets: &{:?} }})",
                    s.lexer, s.filler, s.headers, s.keep, s.targets
                )
            }
            None => "None".into(),
        };
        writeln!(
            out,
            "    LanguageEntry {{ id: {:?}, aliases: &{:?}, extensions: &{:?}, file_names: &{:?}, shebangs: &{:?}, comment: {:?}, queries: {:?}, index_skim: {skim}, grammar: || tree_sitter::Language::new({krate}::{}) }},",
            e.id, e.aliases, e.extensions, e.file_names, e.shebangs, e.comment,
            e.queries.clone().unwrap_or_else(|| e.id.clone()), e.grammar.constant,
        )
        .unwrap();
    }
    out.push_str("];\n\n/// Every query file under `queries/`, by path relative to it.\npub(crate) static QUERY_FILES: &[(&str, &str)] = &[\n");
    for dir in sorted_dirs(&queries) {
        for file in sorted_files(&dir, "scm") {
            let rel = file.strip_prefix(&queries).unwrap().to_string_lossy().replace('\\', "/");
            writeln!(out, "    ({rel:?}, include_str!({:?})),", file.canonicalize().unwrap())
                .unwrap();
        }
    }
    out.push_str("];\n");
    fs::write(PathBuf::from(env::var("OUT_DIR").unwrap()).join("builtin.rs"), out).unwrap();
}

fn sorted_files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}
