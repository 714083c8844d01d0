//! Fidelity: what a user sees from Locus's scopes against what VS Code's own providers give.
//!
//! The references under `tests/fidelity/reference/<lang>/` were produced by the real
//! language servers (`scripts/regenerate-reference.sh`: tsserver converted as VS Code's
//! TypeScript extension does, pyright, VS Code's Markdown server). For every reference file
//! this test samples many positions (three per line — first non-blank character, middle, end —
//! and every symbol boundary of both outlines), computes the containing scopes at each by
//! DESIGN §3's rule (`Outline::chain_at` over the reference outline and over Locus's), and
//! compares two things:
//!
//! - the **chain**: kinds and names, outermost first;
//! - the **chain with ranges**: the same, plus each scope's line range as editorContext
//!   reports it (whole lines, 1-based, `start-end`).
//!
//! Both must agree at ≥ 99.5% of positions per language, on all files together, on the shared
//! corpus alone and on the real files of other projects under `tests/fidelity/files/` alone
//! (the files named `<owner>__<project>__<path>`). The figures are printed per language and per
//! group. `LOCUS_FIDELITY_REPORT=path` writes every disagreement there, and a per-file
//! summary, for query authors.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use locus_doc::{Document, Position, PositionEncoding};
use locus_scopes::{Outline, Registry, Source, Span, Symbol, SymbolKind};
use serde::Deserialize;

/// The least share of positions that must agree, for each metric, language and group.
const REQUIRED: f64 = 0.995;

/// The languages that must have references, in the order the summary prints them.
const LANGUAGES: [&str; 5] = ["ts", "tsx", "js", "py", "md"];

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

/// Where a reference's source file comes from; the figures are reported per group.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Group {
    /// `../shared/corpus/` (with `large/`).
    Corpus,
    /// Real files of other projects under `tests/fidelity/files/` (`owner__project__path`).
    New,
    /// Our own small files of odd cases under `tests/fidelity/files/`.
    Own,
}

impl Group {
    fn label(self) -> &'static str {
        match self {
            Group::Corpus => "corpus",
            Group::New => "new files",
            Group::Own => "own cases",
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Where the source of a reference file lives, and which group it belongs to.
fn source_of(lang: &str, name: &str) -> (PathBuf, Group) {
    let shared = root().join("../shared/corpus");
    assert!(
        shared.is_dir(),
        "../shared/corpus is missing: the fidelity test needs the shared corpus beside the repo"
    );
    for candidate in [shared.join(lang).join(name), shared.join("large").join(name)] {
        if candidate.is_file() {
            return (candidate, Group::Corpus);
        }
    }
    let own = root().join("tests/fidelity/files").join(lang).join(name);
    if own.is_file() {
        let group = if name.contains("__") { Group::New } else { Group::Own };
        return (own, group);
    }
    panic!("no source file for reference {lang}/{name}");
}

/// The reference's symbols as an outline over `doc`: LSP positions become byte offsets (as
/// VS Code's walk compares positions), siblings sorted by start, then end descending, then
/// the provider's order.
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

/// The positions sampled in a document: first non-blank character, middle and end of every
/// line, and every boundary of both outlines' symbols.
fn sample(doc: &Document, outlines: [&Outline; 2]) -> BTreeSet<usize> {
    let mut points = BTreeSet::new();
    for line in 0..doc.line_count() {
        let start = doc.line_start(line);
        let end = doc.line_content_end(line);
        let first =
            start + doc.slice(start, end).find(|c: char| !c.is_whitespace()).unwrap_or(end - start);
        points.extend([first, end, doc.floor_char_boundary((first + end) / 2)]);
    }
    for outline in outlines {
        boundaries(&outline.symbols, &mut points);
    }
    points
}

/// One scope as the user sees it: kind, name and whole-line range (1-based).
struct Seen {
    kind: SymbolKind,
    name: String,
    lines: (usize, usize),
}

fn seen(doc: &Document, outline: &Outline, offset: usize) -> Vec<Seen> {
    outline
        .chain_at(offset)
        .into_iter()
        .map(|s| Seen {
            kind: s.kind,
            name: s.name.clone(),
            lines: (doc.line_of(s.range.start) + 1, doc.line_of(s.range.end) + 1),
        })
        .collect()
}

fn same_chain(a: &[Seen], b: &[Seen]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.kind == b.kind && a.name == b.name)
}

fn same_ranges(a: &[Seen], b: &[Seen]) -> bool {
    same_chain(a, b) && a.iter().zip(b).all(|(a, b)| a.lines == b.lines)
}

fn render(chain: &[Seen]) -> String {
    if chain.is_empty() {
        return "<file>".to_string();
    }
    chain
        .iter()
        .map(|s| format!("{}:{} ({}-{})", s.kind, s.name, s.lines.0, s.lines.1))
        .collect::<Vec<_>>()
        .join(" > ")
}

#[derive(Default, Clone, Copy)]
struct Tally {
    files: usize,
    positions: usize,
    chain: usize,
    ranges: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.files += other.files;
        self.positions += other.positions;
        self.chain += other.chain;
        self.ranges += other.ranges;
    }

    fn rate(n: usize, of: usize) -> f64 {
        if of == 0 { 1.0 } else { n as f64 / of as f64 }
    }

    fn chain_rate(&self) -> f64 {
        Tally::rate(self.chain, self.positions)
    }

    fn ranges_rate(&self) -> f64 {
        Tally::rate(self.ranges, self.positions)
    }
}

/// Compares one reference file with Locus's outline of its source; appends each disagreement
/// to `report`.
fn compare(lang: &str, name: &str, path: &Path, reference: &Path, report: &mut String) -> Tally {
    let text = std::fs::read_to_string(path).unwrap();
    let language =
        Registry::builtin().for_path(path, text.lines().next()).expect("a registered language");
    let source = Source::new(Document::new(&text, 0), Some(language));
    assert!(source.error().is_none(), "{}", source.error().unwrap());
    let theirs: Vec<RefSymbol> =
        serde_json::from_str(&std::fs::read_to_string(reference).unwrap()).unwrap();
    let doc = source.doc();
    let theirs = Outline::new(convert(doc, &theirs));
    let ours = source.outline();

    let mut tally = Tally { files: 1, ..Tally::default() };
    for p in sample(doc, [&theirs, &ours]) {
        let (a, b) = (seen(doc, &theirs, p), seen(doc, &ours, p));
        tally.positions += 1;
        let chain = same_chain(&a, &b);
        let ranges = chain && same_ranges(&a, &b);
        tally.chain += usize::from(chain);
        tally.ranges += usize::from(ranges);
        if !ranges {
            let pos = doc.position_at(p, PositionEncoding::Utf16);
            let what = if chain { "range" } else { "chain" };
            writeln!(
                report,
                "{lang}/{name}:{}:{} [{what}]\n  vscode: {}\n  locus:  {}",
                pos.line + 1,
                pos.character + 1,
                render(&a),
                render(&b)
            )
            .unwrap();
        }
    }
    tally
}

#[test]
fn scope_chains_and_ranges_agree_with_vscode_providers() {
    let reference_dir = root().join("tests/fidelity/reference");
    // (language, group) → tally, and each file's own tally for the report.
    let mut tallies: BTreeMap<(String, Group), Tally> = BTreeMap::new();
    let mut per_file: Vec<(String, Tally)> = Vec::new();
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
            let (path, group) = source_of(&lang, &name);
            let tally = compare(&lang, &name, &path, &reference, &mut report);
            tallies.entry((lang.clone(), group)).or_default().add(tally);
            per_file.push((format!("{lang}/{name}"), tally));
        }
    }

    // The table: one row per language and group, then the language as a whole.
    let mut summary = String::from(
        "| lang | files | positions | group | chain | chain + ranges |\n\
         | --- | ---: | ---: | --- | ---: | ---: |\n",
    );
    let mut failed = Vec::new();
    let mut check = |lang: &str, group: &str, t: &Tally, summary: &mut String| {
        writeln!(
            summary,
            "| {lang} | {} | {} | {group} | {:.2}% | {:.2}% |",
            t.files,
            t.positions,
            t.chain_rate() * 100.0,
            t.ranges_rate() * 100.0
        )
        .unwrap();
        if t.chain_rate() < REQUIRED || t.ranges_rate() < REQUIRED {
            failed.push(format!("{lang} ({group})"));
        }
    };
    for lang in LANGUAGES {
        assert!(
            tallies.keys().any(|(l, _)| l == lang),
            "no reference files for {lang} under tests/fidelity/reference/{lang}/"
        );
        let mut all = Tally::default();
        for group in [Group::Corpus, Group::New, Group::Own] {
            if let Some(t) = tallies.get(&(lang.to_string(), group)) {
                all.add(*t);
                // Our own odd cases count in the whole, not as a bar of their own.
                if group == Group::Own {
                    writeln!(
                        summary,
                        "| {lang} | {} | {} | {} | {:.2}% | {:.2}% |",
                        t.files,
                        t.positions,
                        group.label(),
                        t.chain_rate() * 100.0,
                        t.ranges_rate() * 100.0
                    )
                    .unwrap();
                } else {
                    check(lang, group.label(), t, &mut summary);
                }
            }
        }
        check(lang, "**all**", &all, &mut summary);
    }
    println!("{summary}");

    if let Ok(path) = std::env::var("LOCUS_FIDELITY_REPORT") {
        let mut out = format!("{summary}\nPer file (chain, chain + ranges):\n");
        for (file, t) in &per_file {
            writeln!(
                out,
                "  {file}: {} positions, {:.2}%, {:.2}%",
                t.positions,
                t.chain_rate() * 100.0,
                t.ranges_rate() * 100.0
            )
            .unwrap();
        }
        out.push_str("\nDisagreements:\n");
        out.push_str(&report);
        std::fs::write(path, out).unwrap();
    }
    assert!(failed.is_empty(), "agreement below {}% for {failed:?}:\n{summary}", REQUIRED * 100.0);
}
