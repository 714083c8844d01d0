//! The document mirror: the text of one open document, kept equal to the editor's buffer.
//!
//! A [`Document`] holds its text in a rope and applies LSP-style edits (a range plus new
//! text) given in any of the three LSP position encodings ([`PositionEncoding`]).
//! Every edit returns a [`TextEdit`] in bytes, which the syntax layer feeds to tree-sitter
//! so the syntax tree follows the text incrementally.
//!
//! **Invariants.**
//! - The one internal offset unit is the UTF-8 byte offset. UTF-16 and UTF-32 exist only
//!   in [`Document::offset_at`] and [`Document::position_at`], which the protocol edge calls.
//! - Lines break on `\n`, `\r\n` and a lone `\r`, and on nothing else (not U+2028), the way
//!   VS Code and the LSP count lines. A text of `n` line breaks has `n + 1` lines.
//! - Positions are clamped, never rejected: a line past the end means the end of the text, a
//!   character past the end of a line means the end of that line (before its line break), and
//!   a character inside a UTF-16 surrogate pair or a UTF-8 sequence means the start of that
//!   character. So no position can panic or split a character.
//! - This crate does no IO and knows no protocol types.

#![deny(missing_docs)]

use std::fmt;

use ropey::Rope;

/// How the `character` of a [`Position`] counts: the LSP `positionEncoding`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PositionEncoding {
    /// UTF-8 code units (bytes).
    Utf8,
    /// UTF-16 code units, the LSP default and what VS Code counts.
    #[default]
    Utf16,
    /// Unicode scalar values.
    Utf32,
}

impl PositionEncoding {
    /// The LSP name of this encoding (`"utf-8"`, `"utf-16"`, `"utf-32"`).
    pub fn as_lsp_str(self) -> &'static str {
        match self {
            PositionEncoding::Utf8 => "utf-8",
            PositionEncoding::Utf16 => "utf-16",
            PositionEncoding::Utf32 => "utf-32",
        }
    }

    /// Parses an LSP encoding name; `None` for an unknown one.
    pub fn from_lsp_str(s: &str) -> Option<Self> {
        match s {
            "utf-8" => Some(PositionEncoding::Utf8),
            "utf-16" => Some(PositionEncoding::Utf16),
            "utf-32" => Some(PositionEncoding::Utf32),
            _ => None,
        }
    }

    /// How many code units of this encoding `c` takes.
    pub fn len_of(self, c: char) -> usize {
        match self {
            PositionEncoding::Utf8 => c.len_utf8(),
            PositionEncoding::Utf16 => c.len_utf16(),
            PositionEncoding::Utf32 => 1,
        }
    }
}

/// A zero-based position: a line and a character offset in some [`PositionEncoding`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Position {
    /// Zero-based line.
    pub line: u32,
    /// Zero-based offset within the line, in code units of the encoding in use.
    pub character: u32,
}

impl Position {
    /// A position from a zero-based line and character.
    pub fn new(line: u32, character: u32) -> Self {
        Position { line, character }
    }
}

/// A range between two [`Position`]s, start inclusive, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Range {
    /// Where the range starts.
    pub start: Position,
    /// Where the range ends.
    pub end: Position,
}

/// A point as tree-sitter wants it: a row and a byte column within that row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Point {
    /// Zero-based row (the LSP line; see [`Document::point_at`]).
    pub row: usize,
    /// Byte offset within the row.
    pub column: usize,
}

/// One applied edit, in bytes and points: exactly what an incremental parser needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TextEdit {
    /// Byte where the replaced text started.
    pub start_byte: usize,
    /// Byte where the replaced text ended, before the edit.
    pub old_end_byte: usize,
    /// Byte where the inserted text ends, after the edit.
    pub new_end_byte: usize,
    /// Point of `start_byte`.
    pub start_point: Point,
    /// Point of `old_end_byte` in the old text.
    pub old_end_point: Point,
    /// Point of `new_end_byte` in the new text.
    pub new_end_point: Point,
}

/// Why an edit was refused. The document is unchanged when one is returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocError {
    /// The range's end lies before its start.
    InvertedRange {
        /// The offending range.
        range: Range,
    },
}

impl fmt::Display for DocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DocError::InvertedRange { range } => write!(
                f,
                "edit range ends ({}:{}) before it starts ({}:{})",
                range.end.line, range.end.character, range.start.line, range.start.character
            ),
        }
    }
}

impl std::error::Error for DocError {}

/// The text of one document and its version.
#[derive(Debug, Clone)]
pub struct Document {
    rope: Rope,
    version: i32,
}

impl Document {
    /// A document holding `text` at `version`.
    pub fn new(text: &str, version: i32) -> Self {
        Document { rope: Rope::from_str(text), version }
    }

    /// The version the editor gave with the last change.
    pub fn version(&self) -> i32 {
        self.version
    }

    /// Sets the version (the editor sends one with each change).
    pub fn set_version(&mut self, version: i32) {
        self.version = version;
    }

    /// The rope, for readers that walk the text in chunks.
    pub fn rope(&self) -> &Rope {
        &self.rope
    }

    /// The whole text as one string.
    pub fn text(&self) -> String {
        self.rope.to_string()
    }

    /// The length of the text in bytes.
    pub fn len_bytes(&self) -> usize {
        self.rope.len_bytes()
    }

    /// The number of lines as VS Code counts them: line breaks plus one (an empty text has one line).
    pub fn line_count(&self) -> usize {
        self.rope.len_lines()
    }

    /// The text between two byte offsets (clamped to the text and to character boundaries).
    pub fn slice(&self, start: usize, end: usize) -> String {
        let len = self.len_bytes();
        let start = self.floor_char_boundary(start.min(len));
        let end = self.floor_char_boundary(end.min(len)).max(start);
        self.rope.byte_slice(start..end).to_string()
    }

    /// The zero-based line holding byte `offset` (clamped to the text).
    pub fn line_of(&self, offset: usize) -> usize {
        self.rope.byte_to_line(offset.min(self.len_bytes()))
    }

    /// The byte offset where zero-based `line` starts; the end of the text for a line past the end.
    pub fn line_start(&self, line: usize) -> usize {
        if line >= self.line_count() {
            return self.len_bytes();
        }
        self.rope.line_to_byte(line)
    }

    /// The byte offset where the content of `line` ends, before its line break.
    pub fn line_content_end(&self, line: usize) -> usize {
        if line >= self.line_count() {
            return self.len_bytes();
        }
        let start = self.rope.line_to_byte(line);
        let slice = self.rope.line(line);
        let mut len = slice.len_bytes();
        // Strip one line break: "\r\n", "\n" or "\r".
        if len > 0 && slice.byte(len - 1) == b'\n' {
            len -= 1;
            if len > 0 && slice.byte(len - 1) == b'\r' {
                len -= 1;
            }
        } else if len > 0 && slice.byte(len - 1) == b'\r' {
            len -= 1;
        }
        start + len
    }

    /// Converts a position in `encoding` to a byte offset, clamping as the crate docs say.
    pub fn offset_at(&self, pos: Position, encoding: PositionEncoding) -> usize {
        let line = pos.line as usize;
        if line >= self.line_count() {
            return self.len_bytes();
        }
        let start = self.line_start(line);
        let end = self.line_content_end(line);
        let wanted = pos.character as usize;
        let mut units = 0usize;
        let mut offset = start;
        for c in self.rope.byte_slice(start..end).chars() {
            let w = encoding.len_of(c);
            if units + w > wanted {
                // Inside a multi-unit character: its start.
                return offset;
            }
            units += w;
            offset += c.len_utf8();
            if units == wanted {
                return offset;
            }
        }
        offset.min(end)
    }

    /// Converts a byte offset to a position in `encoding`. An offset inside a character
    /// counts from that character's start; an offset past the end is the end of the text.
    pub fn position_at(&self, offset: usize, encoding: PositionEncoding) -> Position {
        let offset = self.floor_char_boundary(offset.min(self.len_bytes()));
        let line = self.rope.byte_to_line(offset);
        let start = self.rope.line_to_byte(line);
        let character = match encoding {
            PositionEncoding::Utf8 => offset - start,
            PositionEncoding::Utf16 => {
                let slice = self.rope.byte_slice(start..offset);
                slice.len_utf16_cu()
            }
            PositionEncoding::Utf32 => self.rope.byte_slice(start..offset).len_chars(),
        };
        Position { line: line as u32, character: character as u32 }
    }

    /// The largest character boundary at or before `offset`.
    pub fn floor_char_boundary(&self, offset: usize) -> usize {
        let offset = offset.min(self.len_bytes());
        let char_idx = self.rope.byte_to_char(offset);
        self.rope.char_to_byte(char_idx)
    }

    /// The tree-sitter point (row counted by `\n`, byte column) of a byte offset.
    pub fn point_at(&self, offset: usize) -> Point {
        let offset = offset.min(self.len_bytes());
        let line = self.rope.byte_to_line(offset);
        let line_start = self.rope.line_to_byte(line);
        // The row is the LSP line. tree-sitter counts rows by '\n' only, so after a lone '\r'
        // the two differ; that is harmless because Locus reads only byte offsets from trees.
        Point { row: line, column: offset - line_start }
    }

    /// Replaces the text in `range` (given in `encoding`) with `text`, or the whole text when
    /// `range` is `None` (a full-document change). Returns the edit in bytes.
    pub fn apply_change(
        &mut self,
        range: Option<Range>,
        text: &str,
        encoding: PositionEncoding,
    ) -> Result<TextEdit, DocError> {
        let (start, end) = match range {
            None => (0, self.len_bytes()),
            Some(r) => {
                if r.end < r.start {
                    return Err(DocError::InvertedRange { range: r });
                }
                (self.offset_at(r.start, encoding), self.offset_at(r.end, encoding))
            }
        };
        Ok(self.replace_bytes(start, end.max(start), text))
    }

    /// Replaces the bytes `start..end` (snapped to character boundaries) with `text`.
    pub fn replace_bytes(&mut self, start: usize, end: usize, text: &str) -> TextEdit {
        let start = self.floor_char_boundary(start);
        let end = self.floor_char_boundary(end).max(start);
        let start_point = self.point_at(start);
        let old_end_point = self.point_at(end);
        let start_char = self.rope.byte_to_char(start);
        let end_char = self.rope.byte_to_char(end);
        if end_char > start_char {
            self.rope.remove(start_char..end_char);
        }
        if !text.is_empty() {
            self.rope.insert(start_char, text);
        }
        let new_end_byte = start + text.len();
        TextEdit {
            start_byte: start,
            old_end_byte: end,
            new_end_byte,
            start_point,
            old_end_point,
            new_end_point: self.point_at(new_end_byte),
        }
    }
}

#[cfg(test)]
mod tests;
