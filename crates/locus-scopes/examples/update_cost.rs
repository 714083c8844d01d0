//! Times one-character edits at several places of a file, as an editor streams them: the
//! incremental reparse (the editor's thread) and the outline update of the new version (what
//! a context call waits for), medians and spread over alternating insert/delete pairs.
//!
//! `cargo run --release -p locus-scopes --example update_cost -- FILE [--edits N] [--mid]
//! [LINE:COLUMN…]` (0-based LSP positions; without any, ten lines spread over the file, at the
//! first non-blank column, or with `--mid` in the middle of the line's text, and the MCP
//! bench's place, line 14999 column 12, where the file has it). `--edits` sets how many edits
//! each place gets (400). After each place's edits both outlines, the editor's and the
//! workspace index's, are checked against ones extracted from scratch (they must be
//! identical); the index's is timed too.

use std::time::{Duration, Instant};

use locus_doc::{Document, Position, PositionEncoding, Range};
use locus_scopes::{Registry, Source};

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let path = args.next().expect("usage: update_cost FILE [--edits N] [--mid] [LINE:COLUMN…]");
    let mut edits = 400;
    let mut mid = false;
    while let Some(flag) = args.next_if(|a| a.starts_with("--")) {
        match flag.as_str() {
            "--edits" => edits = args.next().and_then(|n| n.parse().ok()).expect("--edits N"),
            "--mid" => mid = true,
            other => panic!("unknown flag {other}"),
        }
    }
    let text = std::fs::read_to_string(&path).expect("a readable file");
    let language = Registry::builtin().for_path(std::path::Path::new(&path), None);
    let mut source = Source::new(Document::new(&text, 0), language);
    let _ = source.outline();
    let _ = source.index_outline();
    let lines: Vec<&str> = text.lines().collect();
    let mut places: Vec<(u32, u32)> = args
        .map(|a| {
            let (l, c) = a.split_once(':').expect("LINE:COLUMN");
            (l.parse().unwrap(), c.parse().unwrap())
        })
        .collect();
    if places.is_empty() {
        for i in 1..=10 {
            let mut line = lines.len() * i / 11;
            while lines[line].trim().is_empty() {
                line += 1;
            }
            let indent = lines[line].len() - lines[line].trim_start().len();
            let column = match mid {
                // A char boundary near the middle of the text (columns count UTF-16 units;
                // the corpus lines measured are ASCII).
                true => indent + (lines[line].len() - indent) / 2,
                false => indent,
            };
            places.push((line as u32, column as u32));
        }
        if lines.len() > 14999 {
            places.push((14999, 12));
        }
    }
    println!("{path}: {} lines, {} symbols", lines.len(), source.outline().total);
    for (line, column) in places {
        let (mut reparse, mut update, mut index) = (Vec::new(), Vec::new(), Vec::new());
        let at = Position::new(line, column);
        for i in 0..edits {
            let t = Instant::now();
            let (end, insert) =
                if i % 2 == 0 { (at, "x") } else { (Position::new(line, column + 1), "") };
            source
                .apply_change(Some(Range { start: at, end }), insert, PositionEncoding::Utf16)
                .unwrap();
            reparse.push(t.elapsed());
            let t = Instant::now();
            std::hint::black_box(source.outline().total);
            update.push(t.elapsed());
            let t = Instant::now();
            std::hint::black_box(source.index_outline().total);
            index.push(t.elapsed());
        }
        let (updated, fresh) = (source.index_outline(), source.index_outline_from_scratch());
        if *updated != fresh {
            panic!(
                "the updated index outline differs from scratch after edits at {line}:{column}:\n{}",
                diff(&updated.dump(), &fresh.dump())
            );
        }
        let (updated, fresh) = (source.outline(), source.outline_from_scratch());
        if *updated != fresh {
            let (a, b) = (flat(&updated.symbols), flat(&fresh.symbols));
            let only = |p: &[String], q: &[String]| {
                p.iter().filter(|l| !q.contains(l)).cloned().collect::<Vec<_>>().join("; ")
            };
            let message = format!(
                "the updated outline differs from scratch after edits at {line}:{column}: \
                 only updated: {}; only from scratch: {}",
                only(&a, &b),
                only(&b, &a)
            );
            panic!("{message}");
        }
        let chain: Vec<String> = {
            let offset = source.doc().line_start(line as usize) + column as usize;
            source.scopes_at(offset).iter().map(|s| format!("{:?}:{}", s.kind, s.name)).collect()
        };
        println!(
            "line {} col {column} [{}]: reparse {}  update {}  index {}",
            line + 1,
            chain.join(" > "),
            spread(reparse),
            spread(update),
            spread(index)
        );
    }
}

/// Median, p10 and p90 of `v`.
fn spread(mut v: Vec<Duration>) -> String {
    v.sort();
    let at = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3;
    format!("median {:.3} ms (p10 {:.3}, p90 {:.3})", at(0.5), at(0.1), at(0.9))
}

/// The lines only one of two dumps has.
fn diff(a: &str, b: &str) -> String {
    let only = |p: &str, q: &str| {
        let q: Vec<&str> = q.lines().collect();
        p.lines().filter(|l| !q.contains(l)).collect::<Vec<_>>().join("\n")
    };
    format!("only updated:\n{}\nonly from scratch:\n{}", only(a, b), only(b, a))
}

/// One line per symbol: kind, name and range.
fn flat(symbols: &[locus_scopes::Symbol]) -> Vec<String> {
    symbols
        .iter()
        .flat_map(|s| {
            std::iter::once(format!("{:?} {} {:?}", s.kind, s.name, s.range))
                .chain(flat(&s.children))
        })
        .collect()
}
