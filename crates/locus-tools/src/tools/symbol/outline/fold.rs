//! Fitting an outline into the answer budget. A symbol that does not fit is folded, counting
//! the nested symbols it hides; the tree unfolds breadth first while the budget lasts, and
//! when even the top level alone is too large, it pages (`nextOffset`). The answer says what
//! it left out and how to unfold it.

use std::collections::VecDeque;

use super::{OutlineData, OutlineSymbol};
use crate::budget::json_len;

/// Room kept for the answer's own `cut` note.
const NOTE_ROOM: usize = 420;

/// Folds the children of `symbol` away, counting them in `folded`.
pub(super) fn fold_children(symbol: &mut OutlineSymbol) {
    let hidden = hidden_below(&symbol.children);
    symbol.children.clear();
    if hidden > 0 {
        symbol.folded = Some(symbol.folded.unwrap_or(0) + hidden);
    }
}

/// Fills `data` with `symbols` from top-level `offset` on, as much as `room` bytes allow: the
/// whole tree when it fits; else every top-level symbol folded, then unfolded breadth first
/// (the top level's children in document order, then theirs) while the budget lasts; and when
/// even the folded top level is too large, a page of it.
pub(super) fn fit(data: &mut OutlineData, symbols: Vec<OutlineSymbol>, offset: usize, room: usize) {
    let top_level = symbols.len();
    data.symbols = symbols.into_iter().skip(offset).collect();
    data.shown = shown(&data.symbols);
    let full = json_len(data);
    if full <= room {
        return;
    }
    let whole = std::mem::take(&mut data.symbols);
    let whole_count = shown(&whole);
    data.symbols = folded_to(&whole, 1);
    if json_len(data) + NOTE_ROOM <= room {
        unfold_breadth_first(data, &whole, room - NOTE_ROOM);
        data.shown = shown(&data.symbols);
        data.cut = Some(note(full, whole_count, None));
        return;
    }
    // Even the top level alone is too large: it pages.
    let top = std::mem::take(&mut data.symbols);
    let mut used = json_len(data) + NOTE_ROOM + 40;
    for symbol in top {
        let size = json_len(&symbol) + 1;
        if used + size > room && !data.symbols.is_empty() {
            break;
        }
        used += size;
        data.symbols.push(symbol);
    }
    data.shown = shown(&data.symbols);
    let next = offset + data.symbols.len();
    data.next_offset = (next < top_level).then_some(next);
    data.cut = Some(note(full, whole_count, data.next_offset));
}

/// Unfolds the folded symbols of `data` (a copy of `whole` folded at the top level) breadth
/// first, each to its children folded, while `data` stays within `room` bytes. The symbol
/// where the budget runs out shows as many of its children as fit, and folds the rest.
fn unfold_breadth_first(data: &mut OutlineData, whole: &[OutlineSymbol], room: usize) {
    let mut queue: VecDeque<Vec<usize>> = (0..whole.len()).map(|i| vec![i]).collect();
    while let Some(path) = queue.pop_front() {
        let original = at(whole, &path);
        if original.children.is_empty() {
            continue;
        }
        let children = folded_to(&original.children, 1);
        let fits = |data: &mut OutlineData, kept: usize| {
            let node = at_mut(&mut data.symbols, &path);
            node.children = children[..kept].to_vec();
            node.folded = hidden(original, kept);
            json_len(data) <= room
        };
        let all = children.len();
        if fits(data, all) {
            queue.extend((0..all).map(|i| [path.as_slice(), &[i]].concat()));
            continue;
        }
        // The budget runs out here: as many children as fit, then no more unfolding.
        let (mut good, mut bad) = (0, all);
        while bad - good > 1 {
            let mid = good + (bad - good) / 2;
            if fits(data, mid) { good = mid } else { bad = mid }
        }
        fits(data, good);
        return;
    }
}

/// What `original` hides when only its first `kept` children show (folded themselves).
fn hidden(original: &OutlineSymbol, kept: usize) -> Option<usize> {
    let count = original.folded.unwrap_or(0) + hidden_below(&original.children[kept..]);
    (count > 0).then_some(count)
}

fn at<'a>(mut level: &'a [OutlineSymbol], path: &[usize]) -> &'a OutlineSymbol {
    let (last, parents) = path.split_last().expect("a path names a symbol");
    for &i in parents {
        level = &level[i].children;
    }
    &level[*last]
}

fn at_mut<'a>(mut level: &'a mut [OutlineSymbol], path: &[usize]) -> &'a mut OutlineSymbol {
    let (last, parents) = path.split_last().expect("a path names a symbol");
    for &i in parents {
        level = &mut level[i].children;
    }
    &mut level[*last]
}

/// What a folded answer says of itself.
fn note(full: usize, whole: usize, next: Option<usize>) -> String {
    let kb = full.div_ceil(1024);
    let mut note = format!(
        "The whole outline ({whole} symbols, {kb} KB) is over the answer budget, so it is \
         shown breadth first, as deep as the budget allows: a symbol's `folded` counts the \
         nested symbols under it; call again with `range` set to its lines to see them."
    );
    if let Some(next) = next {
        note.push_str(&format!(
            " The top level continues: call again with `offset` {next} for the symbols after these."
        ));
    }
    note
}

/// The symbols at every depth of an answer, folded ones not counted.
fn shown(symbols: &[OutlineSymbol]) -> usize {
    symbols.iter().map(|s| 1 + shown(&s.children)).sum()
}

/// The symbols hidden if `children` were folded away: themselves, theirs, and what they
/// fold already.
fn hidden_below(children: &[OutlineSymbol]) -> usize {
    children.iter().map(|c| 1 + c.folded.unwrap_or(0) + hidden_below(&c.children)).sum()
}

/// A copy of `symbols` with every symbol at `depth` folded.
fn folded_to(symbols: &[OutlineSymbol], depth: usize) -> Vec<OutlineSymbol> {
    symbols
        .iter()
        .map(|s| {
            let mut copy = OutlineSymbol { children: Vec::new(), ..s.clone() };
            if depth <= 1 {
                copy.children = s.children.clone();
                fold_children(&mut copy);
            } else {
                copy.children = folded_to(&s.children, depth - 1);
            }
            copy
        })
        .collect()
}
