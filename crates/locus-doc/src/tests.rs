use proptest::prelude::*;

use super::*;

fn pos(line: u32, character: u32) -> Position {
    Position::new(line, character)
}

#[test]
fn lines_break_like_vscode() {
    assert_eq!(Document::new("", 0).line_count(), 1);
    assert_eq!(Document::new("a\n", 0).line_count(), 2);
    assert_eq!(Document::new("a\r\nb\rc\nd", 0).line_count(), 4);
    // U+2028 is not a line break for LSP.
    assert_eq!(Document::new("a\u{2028}b", 0).line_count(), 1);
}

#[test]
fn utf16_columns_count_surrogate_pairs() {
    let doc = Document::new("a😀b\nx", 0);
    assert_eq!(doc.offset_at(pos(0, 1), PositionEncoding::Utf16), 1);
    // Inside the surrogate pair: snaps to the emoji's start.
    assert_eq!(doc.offset_at(pos(0, 2), PositionEncoding::Utf16), 1);
    assert_eq!(doc.offset_at(pos(0, 3), PositionEncoding::Utf16), 5);
    assert_eq!(doc.offset_at(pos(0, 2), PositionEncoding::Utf32), 5);
    assert_eq!(doc.offset_at(pos(0, 3), PositionEncoding::Utf8), 1);
    assert_eq!(doc.position_at(5, PositionEncoding::Utf16), pos(0, 3));
    assert_eq!(doc.position_at(5, PositionEncoding::Utf32), pos(0, 2));
}

#[test]
fn positions_past_the_end_clamp() {
    let doc = Document::new("ab\r\ncd", 0);
    assert_eq!(doc.offset_at(pos(0, 99), PositionEncoding::Utf16), 2);
    assert_eq!(doc.offset_at(pos(9, 0), PositionEncoding::Utf16), 6);
    assert_eq!(doc.position_at(999, PositionEncoding::Utf16), pos(1, 2));
}

#[test]
fn edits_apply_in_every_encoding() {
    let mut doc = Document::new("héllo 😀 world", 1);
    let edit = doc
        .apply_change(
            Some(Range { start: pos(0, 6), end: pos(0, 8) }),
            "🎉",
            PositionEncoding::Utf16,
        )
        .unwrap();
    assert_eq!(doc.text(), "héllo 🎉 world");
    assert_eq!((edit.start_byte, edit.old_end_byte, edit.new_end_byte), (7, 11, 11));
    doc.apply_change(
        Some(Range { start: pos(0, 1), end: pos(0, 2) }),
        "e",
        PositionEncoding::Utf32,
    )
    .unwrap();
    assert_eq!(doc.text(), "hello 🎉 world");
    doc.apply_change(None, "new", PositionEncoding::Utf8).unwrap();
    assert_eq!(doc.text(), "new");
}

#[test]
fn inverted_ranges_are_refused_and_change_nothing() {
    let mut doc = Document::new("abc", 1);
    let err = doc
        .apply_change(
            Some(Range { start: pos(0, 2), end: pos(0, 1) }),
            "x",
            PositionEncoding::Utf16,
        )
        .unwrap_err();
    assert!(err.to_string().contains("before it starts"));
    assert_eq!(doc.text(), "abc");
}

/// A plain-string model of the editor: the reference the mirror must equal.
struct Model {
    text: String,
}

impl Model {
    fn lines(&self) -> Vec<(usize, usize)> {
        // (content start, content end) byte ranges of each line, VS Code style.
        let b = self.text.as_bytes();
        let mut out = Vec::new();
        let mut start = 0;
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'\n' {
                out.push((start, i));
                start = i + 1;
            } else if b[i] == b'\r' {
                out.push((start, i));
                if i + 1 < b.len() && b[i + 1] == b'\n' {
                    i += 1;
                }
                start = i + 1;
            }
            i += 1;
        }
        out.push((start, b.len()));
        out
    }

    fn offset(&self, p: Position, enc: PositionEncoding) -> usize {
        let lines = self.lines();
        let Some(&(s, e)) = lines.get(p.line as usize) else { return self.text.len() };
        let mut units = 0;
        for (i, c) in self.text[s..e].char_indices() {
            if units >= p.character as usize || units + enc.len_of(c) > p.character as usize {
                return s + i;
            }
            units += enc.len_of(c);
        }
        e
    }
}

fn arb_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("a"),
            Just("é"),
            Just("😀"),
            Just("\n"),
            Just("\r\n"),
            Just("\r"),
            Just(" "),
            Just("𝕏"),
            Just("ab"),
            Just("\t"),
        ],
        0..12,
    )
    .prop_map(|v| v.concat())
}

fn arb_encoding() -> impl Strategy<Value = PositionEncoding> {
    prop_oneof![
        Just(PositionEncoding::Utf8),
        Just(PositionEncoding::Utf16),
        Just(PositionEncoding::Utf32)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any sequence of edits, in any encoding, keeps the mirror equal to the model.
    #[test]
    fn any_edit_sequence_keeps_the_mirror_exact(
        initial in arb_text(),
        edits in proptest::collection::vec(
            (0u32..6, 0u32..8, 0u32..6, 0u32..8, arb_text(), arb_encoding()), 1..24),
    ) {
        let mut doc = Document::new(&initial, 0);
        let mut model = Model { text: initial.clone() };
        for (i, (l1, c1, l2, c2, text, enc)) in edits.into_iter().enumerate() {
            let (a, b) = (pos(l1, c1), pos(l2, c2));
            let (start, end) = if a <= b { (a, b) } else { (b, a) };
            let ms = model.offset(start, enc);
            let me = model.offset(end, enc).max(ms);
            let edit = doc.apply_change(Some(Range { start, end }), &text, enc).unwrap();
            model.text.replace_range(ms..me, &text);
            doc.set_version(i as i32 + 1);
            prop_assert_eq!(doc.text(), model.text.clone());
            prop_assert_eq!((edit.start_byte, edit.old_end_byte), (ms, me));
            prop_assert_eq!(doc.line_count(), model.lines().len());
        }
    }

    /// Converting a position to an offset and back lands on the same character boundary.
    #[test]
    fn offsets_round_trip(text in arb_text(), enc in arb_encoding()) {
        let doc = Document::new(&text, 0);
        for (offset, _) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
            let p = doc.position_at(offset, enc);
            // '\n' after '\r' is inside a line break: it maps to the end of that line.
            if offset > 0 && text.as_bytes()[offset - 1] == b'\r' && text.as_bytes().get(offset) == Some(&b'\n') {
                continue;
            }
            prop_assert_eq!(doc.offset_at(p, enc), offset);
        }
    }
}
