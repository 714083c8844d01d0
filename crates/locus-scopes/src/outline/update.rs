//! Incremental update: an outline brought up to date after an edit by re-extracting the
//! smallest gap or holder that provably gives what a whole extraction would.

use locus_doc::Document;
use tree_sitter::{Node, Tree};

use super::extract::{Extracted, extract, extract_region, independent, link_labels};
use super::model::{Outline, Reads, Span, Symbol};
use crate::ancestry::any_overlapping_below;
use crate::kind::SymbolKind;
use crate::query::{Join, LanguageConfig, Merge};
use crate::runtime::Runtime;

/// Brings an outline up to date after edits, re-extracting as little as it can.
///
/// `outline` is the previous version's, already shifted to the new text's offsets; `dirty`
/// covers every byte whose syntax may have changed. The smallest symbol that strictly holds
/// `dirty` (and whose name lies outside it) is re-extracted; if it comes back the same (one
/// symbol, same name, kind and extent) only its children are replaced. Otherwise the next
/// symbol out is tried; a change between top-level symbols re-extracts just that gap; and
/// anything else falls back to the whole document. First, `dirty` grows to all a symbol reads
/// outside its range when it touches that (see [`Reads`]): a callback whose callee alone was
/// edited is re-extracted with its call.
///
/// Where symbols merge by name (Python: one symbol per name and scope), a gap is re-extracted
/// alone only at the top level, and only when that is provably what the whole document gives:
/// the statements the edit reaches lie inside the gap, no hiding rule (unreachable code,
/// static conditions, `global`) reaches across its edges, and no fresh name is a sibling's.
/// Inside a holder such a language takes the holder path.
///
/// Static conditions are evaluated for `runtime`.
pub(crate) fn update(
    config: &LanguageConfig,
    runtime: &Runtime,
    tree: &Tree,
    doc: &Document,
    outline: Outline,
    changed: Changed,
) -> Outline {
    update_traced(config, runtime, tree, doc, outline, changed).0
}

/// What edits changed since the outline an update starts from, in the new text's offsets.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Changed {
    /// Every byte whose syntax may have changed.
    pub(crate) dirty: Span,
    /// The bytes the edits themselves wrote (within `dirty`).
    pub(crate) edited: Span,
    /// Whether the earlier tree had an error (then no edit is trusted to be unseen).
    pub(crate) from_error: bool,
}

/// How [`update`] brought an outline up to date.
#[derive(Debug, PartialEq)]
enum Route {
    /// Only the gap between two siblings was re-extracted.
    Gap,
    /// A holder was re-extracted.
    Holder,
    /// No match could see the edit: the outline moved across it is the new one.
    Unseen,
    /// The whole document was, for the reason given when a merging language's gap was refused.
    Whole(Option<Refusal>),
}

/// Why a gap was not re-extracted alone in a language whose symbols merge by name.
#[derive(Debug, PartialEq, Clone, Copy)]
enum Refusal {
    /// A top-level statement the edit reaches extends past the gap.
    Statement,
    /// A rule that hides symbols reaches across the gap's edges.
    Reach,
    /// A fresh symbol bears a sibling's name.
    Name,
}

/// [`update`], telling which way it went.
fn update_traced(
    config: &LanguageConfig,
    runtime: &Runtime,
    tree: &Tree,
    doc: &Document,
    mut outline: Outline,
    changed: Changed,
) -> (Outline, Route) {
    let Changed { dirty, edited, from_error } = changed;
    let mut refusal = None;
    // Markdown heading names read the document's link labels: a change of those is a change
    // of any heading's name.
    if link_labels(config, tree, doc) != outline.link_labels {
        return (extract(config, runtime, tree, doc), Route::Whole(None));
    }
    // An edit of what a symbol reads outside its range (a callback's callee) is an edit of
    // all the symbol reads: the symbol is then re-extracted with it. Widened until no other
    // symbol reads the widened span (a callback inside another's call).
    let mut dirty = dirty;
    while let Some(r) = outline.reads.iter().find(|r| r.read_by(dirty)) {
        dirty = Span { start: dirty.start.min(r.outer.start), end: dirty.end.max(r.outer.end) };
    }
    // An edit no match can see (inside an expression, an argument list, a string, a method
    // body's statement that declares nothing, where no pattern roots) changes no symbol: the
    // outline moved across it is the new one, whatever the size of the holders around it
    // (a character typed in a method of mypy's 8,000-line `TypeChecker` once re-extracted the
    // whole class).
    // Error recovery reshapes a tree beyond the changed ranges' reach, in the tree the old
    // outline came from as in the new one: both must be error-free.
    if !from_error && unseen(config, tree, dirty) && !beside(&outline.symbols, dirty) {
        return (outline, Route::Unseen);
    }
    let strictly_holds = |s: &Symbol| {
        s.range.start < dirty.start
            && dirty.end < s.range.end
            && (s.selection.end < dirty.start || s.selection.start > dirty.end)
    };
    // Indices of the symbols strictly holding the dirty span, outermost first.
    let mut path: Vec<usize> = Vec::new();
    let mut level = &outline.symbols;
    while let Some(i) = level.iter().position(&strictly_holds) {
        path.push(i);
        level = &level[i].children;
    }
    // Between two children of the innermost holder (or two top-level symbols): re-extract the
    // gap only. Not where symbols depend on their siblings by heading level; where they merge
    // by name, only between top-level symbols and only where `statements_within` and
    // `gap_refusal` prove the gap's symbols the same as a whole extraction's.
    let merging = !independent(config);
    // Not where an item added or removed renumbers the items after it, outside the gap (a
    // name by place, `{index}`): the holder is then re-extracted whole. Nor inside a symbol
    // found in a token's text (a JSDoc `@typedef` in its comment): it ends where the text
    // inside it says, which only its whole re-extraction sees.
    if config.patterns.iter().all(|p| p.level.is_none())
        && !renumbers(config, tree, dirty, from_error)
        && (!merging || path.is_empty())
        && !outline.names.joinable()
        && self_contained(&outline.symbols, &path)
        && (path.is_empty() || !in_one_token(tree, symbol_at(&outline.symbols, &path).range))
    {
        let (children, lo, hi) = match path.is_empty() {
            true => (&outline.symbols, 0, doc.len_bytes()),
            false => {
                let holder = symbol_at(&outline.symbols, &path);
                (
                    &holder.children,
                    holder.selection.end.max(holder.range.start + 1),
                    holder.range.end - 1,
                )
            }
        };
        let touches =
            children.iter().any(|s| s.range.start <= dirty.end && dirty.start <= s.range.end);
        if !touches {
            // Siblings may overlap (a hoisted `self.x` lies inside its method), so the gap's
            // edges are the nearest ends before and starts after, not neighbours in the list.
            let after = children.partition_point(|s| s.range.start < dirty.start);
            let start = children
                .iter()
                .filter(|s| s.range.end < dirty.start)
                .map(|s| s.range.end + 1)
                .max()
                .unwrap_or(lo);
            let end = children
                .iter()
                .filter(|s| s.range.start > dirty.end)
                .map(|s| s.range.start.saturating_sub(1))
                .min()
                .unwrap_or(hi);
            let gap = Span { start, end };
            if merging
                && start <= dirty.start
                && dirty.end <= end
                && !statements_within(tree, dirty, gap)
            {
                refusal = Some(Refusal::Statement);
            }
            if start <= dirty.start
                && dirty.end <= end
                && refusal.is_none()
                && let Some(fresh) = extract_region(config, runtime, tree, doc, Some(gap))
                && next_agrees(children.get(after), end, &fresh.beyond)
                && (!merging || {
                    refusal = gap_refusal(tree, dirty, children, &fresh);
                    refusal.is_none()
                })
            {
                let names = std::mem::take(&mut outline.names).union(fresh.names);
                if !names.joinable() {
                    let children = match path.is_empty() {
                        true => &mut outline.symbols,
                        false => &mut symbol_at_mut(&mut outline.symbols, &path).children,
                    };
                    children.splice(after..after, fresh.symbols);
                    let reads = replace_reads(std::mem::take(&mut outline.reads), gap, fresh.reads);
                    let labels = outline.link_labels;
                    let outline = Outline::new(outline.symbols).with_names(names, reads);
                    return (outline.with_link_labels(labels), Route::Gap);
                }
                outline.names = names;
            }
        }
    }
    // Re-extract the innermost holder that comes back unchanged itself, then the next one out.
    // In a language that names items by their place and whose symbols depend on nothing but
    // their own match (`plain_places`), a holder may also be a symbol whose selection is its
    // whole range (a JSON array item): the edit lies in its selection, but its re-extraction
    // must still give it back unchanged, name included, to be taken. Without it, a keystroke
    // in one item of a 10,000-item array re-extracted the whole array.
    // There, in a text without errors in either version, a holder may also end where the
    // changed syntax does, if the edits themselves lie strictly inside it: typing inside the
    // last scalar of a YAML item (`value: 25|00`) changes that scalar up to the item's end,
    // and without this re-extracted the whole document (48 ms a keystroke in a 5,000-item
    // sequence). An edit reaching the holder's end may have removed or added the items after
    // it, renumbering them, which the holder's own re-extraction cannot see; what a holder
    // gives back is still checked unchanged, range included.
    let relaxed = plain_places(config);
    let clean = relaxed && !from_error && !tree.root_node().has_error();
    let holds = |s: &Symbol| {
        strictly_holds(s)
            || (relaxed
                && s.selection == s.range
                && s.range.start < dirty.start
                && dirty.end < s.range.end)
            || (clean
                && s.range.start < dirty.start
                && dirty.end <= s.range.end
                && edited.end < s.range.end
                && (s.selection == s.range
                    || s.selection.end < dirty.start
                    || s.selection.start > dirty.end))
    };
    let mut holders: Vec<usize> = Vec::new();
    let mut level = &outline.symbols;
    while let Some(i) = level.iter().position(holds) {
        holders.push(i);
        level = &level[i].children;
    }
    for depth in (1..=holders.len()).rev() {
        if !self_contained(&outline.symbols, &holders[..depth]) {
            continue;
        }
        let target = symbol_at(&outline.symbols, &holders[..depth]);
        let region = target.range;
        // Never costlier than from scratch: a holder of most of the document (a Python class
        // of 8,000 lines) re-extracted alone walks nearly all of it on one thread, and the
        // query cursor visits every node a pattern rooted above the region may still match
        // (mypy's `TypeChecker`: about 90 ms, against 55 ms for the whole file on two
        // threads). Outer holders are larger still.
        if 2 * (region.end - region.start) > doc.len_bytes() {
            break;
        }
        let Some(Extracted { symbols: fresh, names, reads, .. }) =
            extract_region(config, runtime, tree, doc, Some(region))
        else {
            continue;
        };
        if let [one] = fresh.as_slice()
            && one.name == target.name
            && one.kind == target.kind
            && one.range == target.range
            && one.selection == target.selection
        {
            let [one] = <[Symbol; 1]>::try_from(fresh).ok().unwrap();
            symbol_at_mut(&mut outline.symbols, &holders[..depth]).children = one.children;
            let names = std::mem::take(&mut outline.names).union(names);
            let reads = replace_reads(std::mem::take(&mut outline.reads), region, reads);
            let labels = outline.link_labels;
            let outline = Outline::new(outline.symbols).with_names(names, reads);
            return (outline.with_link_labels(labels), Route::Holder);
        }
    }
    (extract(config, runtime, tree, doc), Route::Whole(refusal))
}

/// The lowest node below `root` that strictly holds `dirty` (starts before it and ends after
/// it): the node X of [`unseen`] and [`renumbers`]; `None` when no node does.
fn lowest_holder(root: Node, dirty: Span) -> Option<Node> {
    let mut x = root.descendant_for_byte_range(dirty.start, dirty.end)?;
    while !(x.start_byte() < dirty.start && dirty.end < x.end_byte()) {
        x = x.parent()?;
    }
    Some(x)
}

/// Whether `span` lies strictly inside one leaf of the tree, as a symbol found in a comment's
/// text (`text.match`) does; a symbol made of nodes spans at least one whole.
fn in_one_token(tree: &Tree, span: Span) -> bool {
    tree.root_node().descendant_for_byte_range(span.start, span.end).is_some_and(|n| {
        n.child_count() == 0 && (n.start_byte(), n.end_byte()) != (span.start, span.end)
    })
}

/// Whether the symbols a gap's query found just past its end (`beyond`) are the kept sibling
/// there, `next`, or its descendants, with `next` among them when it starts right after the
/// gap's `end`, where the query looked. A match may
/// bind nodes of the gap it does not capture (the `const` of `for (const value of …)` before
/// the symbol `value`): an edit of them makes or unmakes the sibling, which the gap's
/// symbols and reads do not show; its query, which looks one byte past the gap, does.
fn next_agrees(next: Option<&Symbol>, end: usize, beyond: &[(SymbolKind, Span)]) -> bool {
    fn kept(s: &Symbol, kind: SymbolKind, range: Span) -> bool {
        (s.kind == kind && s.range == range) || s.children.iter().any(|c| kept(c, kind, range))
    }
    let Some(next) = next else { return beyond.is_empty() };
    beyond.iter().all(|&(kind, range)| kept(next, kind, range))
        && (next.range.start > end + 1 || beyond.contains(&(next.kind, next.range)))
}

/// Whether the language names items by their place (`{index}`) and its symbols depend on
/// nothing but their own match: no merging, hoisting or joining by name, no symbol kept only
/// for its children, no heading levels, no symbols found in text, no `root.up` patterns. There
/// a symbol re-extracted alone and found unchanged leaves every other symbol as it was.
fn plain_places(config: &LanguageConfig) -> bool {
    config.patterns.iter().any(|p| p.names_by_index())
        && config.deferred.is_none()
        && config.patterns.iter().all(|p| {
            p.merge == Merge::No
                && !p.hoist
                && p.join == Join::No
                && !p.keep_if_children
                && p.level.is_none()
                && p.text_match.is_none()
        })
}

/// Whether an edit whose changed syntax `dirty` covers may have added or removed a child of a
/// node whose children are named by their place (`{index}`: a pattern's `place_parents`),
/// renaming those after it: such a node is the lowest node X strictly holding `dirty` or one
/// below it overlapping `dirty` (X's ancestors keep their children). Yes where either tree has
/// an error. Looks at most at 4,096 nodes; past it, says yes.
fn renumbers(config: &LanguageConfig, tree: &Tree, dirty: Span, from_error: bool) -> bool {
    let parents: Vec<&str> =
        config.patterns.iter().flat_map(|p| p.place_parents.iter().map(String::as_str)).collect();
    if parents.is_empty() {
        return false;
    }
    // Error recovery reshapes a tree beyond the changed ranges' reach (an ERROR node is a
    // child that counts), in the old tree as in the new: only error-free trees are trusted.
    if from_error || tree.root_node().has_error() {
        return true;
    }
    let x = lowest_holder(tree.root_node(), dirty).unwrap_or(tree.root_node());
    let renumbered = |node: &Node| parents.iter().any(|k| *k == "_" || *k == node.kind());
    renumbered(&x) || any_overlapping_below(x, (dirty.start, dirty.end), 4096, renumbered)
}

/// Whether no match of the query can differ after an edit whose changed syntax `dirty` covers
/// (see [`crate::ancestry::Touch`] for why): the lowest node X strictly holding `dirty` is
/// such that no pattern rooted at X or above can bind X or anything below it, nor read the
/// text of an ancestor of X, and no pattern may root at a changed node below X; and every
/// range trimmed of trailing comments (`range.trim`) that could end inside X
/// ends as before: the last leaf of X and of each ancestor, not of a trimmed kind, lies after
/// `dirty` (so it and what follows it are the old tree's). Not for languages whose ranges
/// depend on lines (`level`): a heading's section ends at the line before the next one.
fn unseen(config: &LanguageConfig, tree: &Tree, dirty: Span) -> bool {
    if config.patterns.iter().any(|p| p.level.is_some()) {
        return false;
    }
    let root = tree.root_node();
    // Error recovery reshapes a tree beyond the changed ranges' reach (zero-width MISSING
    // nodes, ERROR nodes regrouping what follows): only an error-free tree is trusted here.
    if root.has_error() {
        return false;
    }
    let Some(x) = lowest_holder(root, dirty) else { return false };
    // From the root down to X, each node with the field it is in.
    let mut path: Vec<(Node, Option<&str>)> = vec![(root, None)];
    let mut cursor = root.walk();
    while cursor.node().id() != x.id() {
        let holds = |n: Node| n.start_byte() <= x.start_byte() && x.end_byte() <= n.end_byte();
        if !cursor.goto_first_child() {
            return false;
        }
        while !holds(cursor.node()) {
            if !cursor.goto_next_sibling() {
                return false;
            }
        }
        path.push((cursor.node(), cursor.field_name()));
    }
    // A pattern rooted at X or above it, or at a changed node below X (a `:=` typed into an
    // argument list makes a variable), may match differently.
    if config.touch.touched(&path) || config.touch.roots_below(x, (dirty.start, dirty.end), 4096) {
        return false;
    }
    let path: Vec<Node> = path.into_iter().map(|(n, _)| n).collect();
    let mut trims: Vec<&str> = config.patterns.iter().filter_map(|p| p.trim.as_deref()).collect();
    trims.sort_unstable();
    trims.dedup();
    // A leaf ends where it ends; a trailing comment edited stays one (X keeps its kind).
    trims.iter().all(|kind| {
        path.iter().all(|&node| {
            node.child_count() == 0
                || last_leaf(node, kind).is_some_and(|l| {
                    l.start_byte() >= dirty.end
                        || (x.kind() == *kind
                            && x.child_count() == 0
                            && l.end_byte() <= x.start_byte())
                })
        })
    })
}

/// Whether a symbol touches `dirty` without strictly holding it: one whose text the edit
/// removed (moved across it, it shrank to where the edit ended) or reached. The old tree's
/// nodes there are gone, so nothing says no pattern bound them: such an edit is not taken as
/// unseen, whatever the new tree's path says.
fn beside(symbols: &[Symbol], dirty: Span) -> bool {
    symbols.iter().any(|s| {
        let holds = s.range.start < dirty.start && dirty.end < s.range.end;
        let apart = s.range.end < dirty.start || dirty.end < s.range.start;
        (!holds && !apart)
            || (holds && !(s.selection.end < dirty.start || dirty.end < s.selection.start)
                || holds && beside(&s.children, dirty))
    })
}

/// The last leaf of `node` not of `kind` (what `trimmed_end` in `extract.rs` ends at), if any.
fn last_leaf<'tree>(mut node: Node<'tree>, kind: &str) -> Option<Node<'tree>> {
    let mut cursor = node.walk();
    loop {
        let last = node.children(&mut cursor).filter(|c| c.kind() != kind).last()?;
        if last.child_count() == 0 {
            return Some(last);
        }
        node = last;
    }
}

/// The outline's `reads` with those of the symbols inside `region` replaced by `fresh`, what
/// the region's extraction found.
fn replace_reads(mut reads: Vec<Reads>, region: Span, fresh: Vec<Reads>) -> Vec<Reads> {
    reads.retain(|r| !region.contains(r.inner));
    reads.extend(fresh);
    reads
}

/// Whether every top-level statement (child of the tree's root) the edit reaches lies wholly
/// inside the gap. A rule acting between parts of one statement (code after a `return` is
/// unreachable, `global x` hides the later `x = …`, a static `if` hides its `else`) then acts
/// only inside the re-extracted text, before the edit and after it.
fn statements_within(tree: &Tree, dirty: Span, gap: Span) -> bool {
    let root = tree.root_node();
    let mut cursor = root.walk();
    root.children(&mut cursor).all(|c| {
        let span = Span { start: c.start_byte(), end: c.end_byte() };
        span.end < dirty.start || dirty.end < span.start || gap.contains(span)
    })
}

/// Why a gap's fresh symbols, spliced among `siblings` (the top level), might not be what a
/// whole extraction gives where symbols merge by name (one per name and scope); `None` when
/// they are, given [`statements_within`]:
/// - every hiding rule reaching out of the gap lies within one top-level statement the edit
///   does not reach (a static `if` whose `else` ends where the gap begins): the edit changed
///   nothing it looks at. One reaching out otherwise may hide a symbol outside the gap because
///   of the gap (a static `assert` or `if … raise` hiding the rest of the module), or one in
///   the gap because of what lies before it: refused. This takes a rule between top-level
///   statements to capture the statement that drives it, as Python's do (its condition);
/// - no fresh symbol bears a sibling's name, so merging pairs none across the gap. (A name
///   hidden by merging always has a shown sibling of that name at its level, so no hidden
///   declaration outside the gap shares a fresh name either; and the gap held no shown symbol
///   before the edit, so none it held can have lost a merge it won.)
///
/// What the edit removed acted, before it, on its own statement (inside the gap) or, through
/// a rule between top-level statements, on the statements after it: Python's such rules (a
/// static `assert`, an `if` that always raises) hide every later one, unparsed text (`ERROR`)
/// included, so those held no symbol and the gap runs to the end of the document.
fn gap_refusal(
    tree: &Tree,
    dirty: Span,
    siblings: &[Symbol],
    fresh: &Extracted,
) -> Option<Refusal> {
    let root = tree.root_node();
    let apart = |r: &Span| {
        let mut cursor = root.walk();
        let statement =
            root.children(&mut cursor).find(|c| c.start_byte() <= r.start && r.end <= c.end_byte());
        statement.is_some_and(|c| c.end_byte() < dirty.start || dirty.end < c.start_byte())
    };
    if !fresh.reach.iter().all(apart) {
        return Some(Refusal::Reach);
    }
    let names: std::collections::HashSet<&str> = siblings.iter().map(|s| s.name.as_str()).collect();
    fresh.symbols.iter().any(|s| names.contains(s.name.as_str())).then_some(Refusal::Name)
}

/// Whether the symbol at `path` holds all that was extracted from inside it: no sibling
/// overlaps it, as one hoisted out of it (`hoist`) would. A hoisted symbol depends on its
/// container (a `self.x` exists only inside a method), not only on its own text, so any edit
/// inside the holder may add, change or remove it. The top level always holds all.
fn self_contained(top: &[Symbol], path: &[usize]) -> bool {
    let Some((&last, rest)) = path.split_last() else { return true };
    let siblings = if rest.is_empty() { top } else { &symbol_at(top, rest).children };
    let target = siblings[last].range;
    siblings.iter().enumerate().all(|(i, s)| {
        i == last
            || (s.range.end <= target.start || target.end <= s.range.start)
                && !target.contains(s.range)
    })
}

fn symbol_at<'a>(mut level: &'a [Symbol], path: &[usize]) -> &'a Symbol {
    let (last, rest) = path.split_last().expect("a non-empty path");
    for &i in rest {
        level = &level[i].children;
    }
    &level[*last]
}

fn symbol_at_mut<'a>(mut level: &'a mut [Symbol], path: &[usize]) -> &'a mut Symbol {
    let (last, rest) = path.split_last().expect("a non-empty path");
    for &i in rest {
        level = &mut level[i].children;
    }
    &mut level[*last]
}

#[cfg(test)]
mod tests;
