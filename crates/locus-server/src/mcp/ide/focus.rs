//! What the user is looking at, as the agents' IDE channels describe it: the active file, its
//! cursor or selection (0-based lines, UTF-16 columns, as LSP counts) and the selected text.

use locus_doc::{Position, PositionEncoding};

use crate::state::Snapshot;

/// The largest selected text a channel sends; the agents keep far less (Claude Code 2,000
/// characters), and a whole large file at every selection change would cost every agent.
const MAX_TEXT: usize = 64 * 1024;

/// The user's focus in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Focus {
    /// The file's path.
    pub path: String,
    /// Its `file://` URI, as the editor spells it.
    pub uri: String,
    /// The selection's start, or the cursor.
    pub start: Position,
    /// The selection's end, or the cursor.
    pub end: Position,
    /// The selected text (at most [`MAX_TEXT`] bytes); empty without a selection.
    pub text: String,
}

impl Focus {
    /// The active document's focus, if it is a file.
    pub fn of(snapshot: &Snapshot) -> Option<Focus> {
        let active = snapshot.active.as_deref()?;
        let d = snapshot.documents.iter().find(|d| d.uri == active)?;
        if !d.uri.starts_with("file:") {
            return None;
        }
        let (from, to) = d.selection.map_or((d.cursor, d.cursor), |s| (s.start, s.end));
        let mut cut = to.min(from + MAX_TEXT);
        cut = d.doc.floor_char_boundary(cut);
        Some(Focus {
            path: d.path.clone(),
            uri: d.uri.clone(),
            start: d.doc.position_at(from, PositionEncoding::Utf16),
            end: d.doc.position_at(to, PositionEncoding::Utf16),
            text: if from < to { d.doc.slice(from, cut) } else { String::new() },
        })
    }

    /// Whether nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}
