//! Fidelity: Locus's scope chains against the ones VS Code's own providers give.
//!
//! The references under `tests/fidelity/reference/<lang>/` were produced by the real
//! language servers (`scripts/regenerate-reference.sh`: tsserver converted as VS Code's
//! TypeScript extension does, pyright, VS Code's Markdown server). For every reference file
//! this test samples many positions (three per line, and every symbol's boundaries on both
//! sides), computes the containing-scope chain (kinds and names, outermost first) from the
//! reference and from Locus, and requires them to agree at ≥ 97% of positions per language.
//!
//! `LOCUS_FIDELITY_REPORT=path` writes every disagreement there, for query authors.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use locus_doc::{Document, Position, PositionEncoding};
use locus_scopes::{Outline, Registry, Source, Span, Symbol, SymbolKind};
use serde::Deserialize;

const REQUIRED: f64 = 0.97;

#[derive(Deserialize)]
struct RefPos {
    line: u32,
    character: u32,
}

#[derive(Deserialize)]
struct RefRange {
    start: RefPos,
    end: RefPos,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RefSymbol {
    name: String,
    kind: String,
    range: RefRange,
    selection_range: RefRange,
    #[serde(default)]
    children: Vec<RefSymbol>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Where the source of a reference file lives: the shared corpus or our own files.
fn source_of(lang: &str, name: &str) -> PathBuf {
    let shared = root().join("../shared/corpus");
    assert!(
        shared.is_dir(),
        "../shared/corpus is missing: the fidelity test needs the shared corpus beside the repo"
    );
    for candidate in [
        shared.join(lang).join(name),
        shared.join("large").join(name),
        root().join("tests/fidelity/files").join(lang).join(name),
    ] {
        if candidate.is_file() {
            return candidate;
        }
    }
    panic!("no source file for reference {lang}/{name}");
}

fn convert(doc: &Document, symbols: &[RefSymbol]) -> Vec<Symbol> {
    let offset =
        |p: &RefPos| doc.offset_at(Position::new(p.line, p.character), PositionEncoding::Utf16);
    let span = |r: &RefRange| Span { start: offset(&r.start), end: offset(&r.end) };
    let mut out: Vec<Symbol> = symbols
        .iter()
        .map(|s| Symbol {
            name: s.name.clone(),
            kind: SymbolKind::from_name(&s.kind)
                .unwrap_or_else(|| panic!("unknown kind {}", s.kind)),
            range: span(&s.range),
            selection: span(&s.selection_range),
            children: convert(doc, &s.children),
        })
        .collect();
    out.sort_by_key(|s| (s.range.start, std::cmp::Reverse(s.range.end)));
    out
}

fn boundaries(symbols: &[Symbol], out: &mut BTreeSet<usize>) {
    for s in symbols {
        out.extend([s.range.start, s.range.end, s.selection.start, s.selection.end]);
        boundaries(&s.children, out);
    }
}

fn chain(outline: &Outline, offset: usize) -> String {
    outline
        .chain_at(offset)
        .iter()
        .map(|s| format!("{}:{}", s.kind, s.name))
        .collect::<Vec<_>>()
        .join(" > ")
}

#[derive(Default)]
struct Tally {
    positions: usize,
    agree: usize,
    files: usize,
}

#[test]
fn scope_chains_agree_with_vscode_providers() {
    let reference_dir = root().join("tests/fidelity/reference");
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut report = String::new();
    let mut langs: Vec<_> =
        std::fs::read_dir(&reference_dir).unwrap().map(|e| e.unwrap().path()).collect();
    langs.sort();
    for lang_dir in langs {
        let lang = lang_dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<_> =
            std::fs::read_dir(&lang_dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for reference in files {
            let name = reference.file_stem().unwrap().to_string_lossy().into_owned(); // drops ".json"
            let path = source_of(&lang, &name);
            let text = std::fs::read_to_string(&path).unwrap();
            let language = Registry::builtin()
                .for_path(&path, text.lines().next())
                .expect("a registered language");
            let source = Source::new(Document::new(&text, 0), Some(language));
            assert!(source.error().is_none(), "{}", source.error().unwrap());
            let theirs: Vec<RefSymbol> =
                serde_json::from_str(&std::fs::read_to_string(&reference).unwrap()).unwrap();
            let theirs = Outline::new(convert(source.doc(), &theirs));
            let ours = source.outline();

            let doc = source.doc();
            let mut points = BTreeSet::new();
            for line in 0..doc.line_count() {
                let start = doc.line_start(line);
                let end = doc.line_content_end(line);
                let first = start
                    + doc
                        .slice(start, end)
                        .find(|c: char| !c.is_whitespace())
                        .unwrap_or(end - start);
                points.extend([first, end, doc.floor_char_boundary((first + end) / 2)]);
            }
            boundaries(&theirs.symbols, &mut points);
            boundaries(&ours.symbols, &mut points);

            let tally = tallies.entry(lang.clone()).or_default();
            tally.files += 1;
            for &p in &points {
                let (a, b) = (chain(&theirs, p), chain(&ours, p));
                tally.positions += 1;
                if a == b {
                    tally.agree += 1;
                } else {
                    let pos = doc.position_at(p, PositionEncoding::Utf16);
                    writeln!(
                        report,
                        "{lang}/{name}:{}:{}\n  vscode: {a}\n  locus:  {b}",
                        pos.line + 1,
                        pos.character + 1
                    )
                    .unwrap();
                }
            }
        }
    }
    if let Ok(path) = std::env::var("LOCUS_FIDELITY_REPORT") {
        std::fs::write(path, &report).unwrap();
    }
    let mut summary = String::new();
    let mut failed = Vec::new();
    for (lang, t) in &tallies {
        let rate = t.agree as f64 / t.positions as f64;
        writeln!(
            summary,
            "{lang}: {:.2}% of {} positions in {} files",
            rate * 100.0,
            t.positions,
            t.files
        )
        .unwrap();
        if rate < REQUIRED {
            failed.push(lang.clone());
        }
    }
    println!("{summary}");
    for lang in ["ts", "tsx", "js", "py", "md"] {
        assert!(tallies.contains_key(lang), "no reference files for {lang}");
    }
    assert!(failed.is_empty(), "agreement below {}% for {failed:?}:\n{summary}", REQUIRED * 100.0);
}
