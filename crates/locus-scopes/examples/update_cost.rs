//! Times one-character edits at several places of a file, as an editor streams them: the
//! incremental reparse (the editor's thread) and the outline update of the new version (what
//! a context call waits for), medians and spread over alternating insert/delete pairs.
//!
//! `cargo run --release -p locus-scopes --example update_cost -- FILE [LINE:COLUMN…]`
//! (0-based LSP positions; without any, ten lines spread over the file, first non-blank
//! column, and the MCP bench's place, line 14999 column 12). After each place's edits the
//! updated outline is checked against one extracted from scratch (it must be identical).

use std::time::{Duration, Instant};

use locus_doc::{Document, Position, PositionEncoding, Range};
use locus_scopes::{Registry, Source};

const EDITS: usize = 400;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: update_cost FILE [LINE:COLUMN…]");
    let text = std::fs::read_to_string(&path).expect("a readable file");
    let language = Registry::builtin().for_path(std::path::Path::new(&path), None);
    let mut source = Source::new(Document::new(&text, 0), language);
    let _ = source.outline();
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
            let column = lines[line].len() - lines[line].trim_start().len();
            places.push((line as u32, column as u32));
        }
        places.push((14999, 12));
    }
    println!("{path}: {} lines, {} symbols", lines.len(), source.outline().total);
    for (line, column) in places {
        let (mut reparse, mut update) = (Vec::new(), Vec::new());
        let at = Position::new(line, column);
        for i in 0..EDITS {
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
            "line {} col {column} [{}]: reparse {}  update {}",
            line + 1,
            chain.join(" > "),
            spread(reparse),
            spread(update)
        );
    }
}

/// Median, p10 and p90 of `v`.
fn spread(mut v: Vec<Duration>) -> String {
    v.sort();
    let at = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3;
    format!("median {:.3} ms (p10 {:.3}, p90 {:.3})", at(0.5), at(0.1), at(0.9))
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
