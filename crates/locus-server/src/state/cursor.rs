//! Where the user is: which document has focus, and each document's cursor and selections.
//!
//! **Invariants.**
//! - A [`Mark::At`] is in bytes of its document's current text. After an edit it is shifted
//!   by the edit when the editor reports its cursor itself, and placed where the edit left
//!   the editor's cursor when it does not (the last edit stands in for the cursor; see
//!   `typing_cursor`).
//! - A cursor given for a version the mirror has not reached waits as [`Mark::Pending`]; it
//!   is resolved against the text once the mirror gets there, and until then the position
//!   is read against the text we have, clamped.
//! - [`Focus::Explicit`] names a document key (it may not be open yet: editors announce focus
//!   before they open) and whether the user's focus is in it; focus moving to a terminal, a
//!   panel or another window keeps the document (`focused: false`), as VS Code keeps its
//!   `activeTextEditor`. [`Focus::Implicit`] means the last document touched stands in.

use locus_doc::{Document, PositionEncoding, Range, TextEdit};
use locus_scopes::Span;

use super::CursorUpdate;

/// Where the active editor comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Focus {
    /// The editor never said: the last document touched stands in.
    Implicit,
    /// The editor said which text editor the user was last in (a document key; `None`: no
    /// text editor is left open), and whether their focus is still there.
    Explicit { key: Option<String>, focused: bool },
}

/// The cursor of one document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Mark {
    /// Nothing known yet: the start of the document stands in.
    Unknown,
    /// Known, in bytes of the current text; selections primary first.
    At { offset: usize, selections: Vec<Span> },
    /// Given for a version the mirror has not reached yet.
    Pending { update: CursorUpdate, version: i32 },
}

impl Mark {
    /// The cursor and primary selection in bytes of `doc`, the document's current text.
    pub(super) fn resolve(&self, doc: &Document) -> (usize, Option<Span>) {
        match self {
            Mark::Unknown => (0, None),
            Mark::At { offset, selections } => (
                doc.floor_char_boundary(*offset),
                selections.first().copied().filter(|s| s.start != s.end),
            ),
            // The editor is ahead of the mirror: the best guess is the position against the
            // text we have, clamped.
            Mark::Pending { update, .. } => resolve(doc, update),
        }
    }

    /// The mark for a cursor the editor reported, against `doc`, the current text.
    pub(super) fn place(doc: &Document, update: CursorUpdate) -> Mark {
        match update.version {
            Some(v) if v > doc.version() => Mark::Pending { version: v, update },
            _ => {
                let (offset, selection) = resolve(doc, &update);
                let mut selections: Vec<Span> =
                    update.selections.iter().map(|r| span_of(doc, *r, update.encoding)).collect();
                if selections.is_empty() {
                    selections.extend(selection);
                }
                Mark::At { offset, selections }
            }
        }
    }

    /// The mark after `edit`, which made `doc` (the text after it); `plugin` says whether the
    /// editor reports its cursor itself.
    pub(super) fn after_edit(self, edit: &TextEdit, doc: &Document, plugin: bool) -> Mark {
        match self {
            Mark::At { offset, mut selections } if plugin => {
                for s in &mut selections {
                    *s = Span { start: shift(s.start, edit), end: shift(s.end, edit) };
                }
                Mark::At { offset: shift(offset, edit), selections }
            }
            pending @ Mark::Pending { .. } => pending,
            // Without a plugin the last edit stands in for the cursor.
            _ if !plugin => Mark::At { offset: typing_cursor(doc, edit), selections: Vec::new() },
            other => other,
        }
    }

    /// A waiting mark resolved once the mirror reaches its version (`version`, now).
    pub(super) fn caught_up(self, doc: &Document, version: i32) -> Mark {
        match self {
            Mark::Pending { version: v, update } if v <= version => {
                Mark::place(doc, CursorUpdate { version: None, ..update })
            }
            other => other,
        }
    }
}

fn span_of(doc: &Document, r: Range, encoding: PositionEncoding) -> Span {
    let (a, b) = (doc.offset_at(r.start, encoding), doc.offset_at(r.end, encoding));
    Span { start: a.min(b), end: a.max(b) }
}

fn resolve(doc: &Document, update: &CursorUpdate) -> (usize, Option<Span>) {
    let offset = doc.offset_at(update.position, update.encoding);
    let selection = update
        .selections
        .first()
        .map(|r| span_of(doc, *r, update.encoding))
        .filter(|s| s.start != s.end);
    (offset, selection)
}

/// Pairs editors close as the user opens them (auto-pairs), opener then closer.
const PAIRS: [(char, char); 6] =
    [('(', ')'), ('[', ']'), ('{', '}'), ('"', '"'), ('\'', '\''), ('`', '`')];

/// Inserted texts longer than this are taken as they come (their end is the cursor): the
/// shapes below are keystrokes, never pastes of whole files.
const TYPED_BYTES: usize = 256;

/// Where the editor's cursor is after `edit` (which made `doc`), for editors that do not
/// say: where the edit left it. That is the end of the inserted text, less what the editor
/// inserted *after* its cursor, which two shapes of edit have (every editor that auto-pairs
/// makes them, Helix, VS Code and Zed alike):
/// - an auto-pair: the inserted text ends with an opener and its closer (`(` typed, `()`
///   inserted): the cursor is between them;
/// - a line break between a pair (Enter in `{|}`): the inserted text is only whitespace with
///   two or more line breaks, right after an opener and right before its closer; the closer
///   goes down a line and the cursor stays on the new, indented line in between, before the
///   inserted text's last line break.
///
/// An edit that only deletes leaves the cursor where the deleted text was.
fn typing_cursor(doc: &Document, edit: &TextEdit) -> usize {
    let (start, end) = (edit.start_byte, edit.new_end_byte);
    if end <= start || end - start > TYPED_BYTES {
        return end;
    }
    let inserted = doc.slice(start, end);
    let mut tail = inserted.chars().rev();
    if let (Some(last), Some(before)) = (tail.next(), tail.next())
        && PAIRS.contains(&(before, last))
    {
        return end - last.len_utf8();
    }
    let line_breaks = inserted.matches('\n').count() + inserted.matches('\r').count()
        - inserted.matches("\r\n").count();
    if line_breaks >= 2 && inserted.chars().all(char::is_whitespace) {
        let opener = doc.slice(start.saturating_sub(4), start).chars().next_back();
        let closer = doc.slice(end, end + 4).chars().next();
        if let (Some(opener), Some(closer)) = (opener, closer)
            && PAIRS[..3].contains(&(opener, closer))
            && let Some(mut last_break) = inserted.rfind(['\n', '\r'])
        {
            // The last line break starts at its `\r` when it is `\r\n`.
            if inserted[last_break..].starts_with('\n') && inserted[..last_break].ends_with('\r') {
                last_break -= 1;
            }
            return start + last_break;
        }
    }
    end
}

/// Where an offset goes when `edit` is applied: before the edit it stays, after it shifts,
/// inside the replaced text it moves to the end of the new text (where a typing cursor is).
fn shift(offset: usize, edit: &TextEdit) -> usize {
    if offset < edit.start_byte {
        offset
    } else if offset > edit.old_end_byte {
        offset - edit.old_end_byte + edit.new_end_byte
    } else {
        edit.new_end_byte
    }
}
