//! Test fixtures: source snippets with markup for where the cursor is and what to expect.
//!
//! - `$0` marks the cursor. [`cursor`] strips it and returns the byte offset.
//! - An annotation line is a comment whose text starts with `^`, for example
//!   `#   ^ Class:Foo > Method:bar`: the caret's column points into the nearest line above
//!   that is not itself an annotation, and the rest of the line is the expected answer.
//!   Annotation lines stay in the text (they are comments of the language).

#![deny(missing_docs)]

pub mod data;

/// The cursor marker.
pub const CURSOR: &str = "$0";

/// Strips the single `$0` from `fixture`; returns the text and the marker's byte offset.
///
/// Panics (it is test code) when there is not exactly one marker, naming the fixture.
pub fn cursor(fixture: &str) -> (String, usize) {
    let offset =
        fixture.find(CURSOR).unwrap_or_else(|| panic!("fixture has no $0 cursor:\n{fixture}"));
    let text = format!("{}{}", &fixture[..offset], &fixture[offset + CURSOR.len()..]);
    assert!(!text.contains(CURSOR), "fixture has more than one $0:\n{fixture}");
    (text, offset)
}

/// One `^` annotation: a byte offset in the text and the expected answer written after the caret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// Byte offset of the character above the caret.
    pub offset: usize,
    /// 1-based line of that character, for messages.
    pub line: usize,
    /// The text after the caret, trimmed.
    pub expected: String,
}

/// Finds the annotations in `text`, whose line comments start with `comment` (`"//"`, `"#"`,
/// `"<!--"`). A trailing `-->` is dropped from the expectation.
pub fn annotations(text: &str, comment: &str) -> Vec<Annotation> {
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        lines.push((offset, line.trim_end_matches(['\n', '\r'])));
        offset += line.len();
    }
    let mut out = Vec::new();
    let mut target: Option<usize> = None;
    for (i, &(_, line)) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let is_annotation =
            trimmed.strip_prefix(comment).is_some_and(|rest| rest.trim_start().starts_with('^'));
        if !is_annotation {
            target = Some(i);
            continue;
        }
        let Some(t) = target else { continue };
        let caret_col = line.find('^').expect("annotation has a caret");
        let (t_start, t_line) = lines[t];
        // Columns count characters, so the caret sits under the character it points at.
        let byte_in_line = t_line
            .char_indices()
            .nth(line[..caret_col].chars().count())
            .map_or(t_line.len(), |(b, _)| b);
        let expected = line[caret_col..]
            .trim_start_matches('^')
            .trim()
            .trim_end_matches("-->")
            .trim()
            .to_string();
        out.push(Annotation { offset: t_start + byte_in_line, line: t + 1, expected });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_is_stripped() {
        assert_eq!(cursor("ab$0c"), ("abc".to_string(), 2));
    }

    #[test]
    fn annotations_point_at_the_line_above() {
        let text = "def f():\n    x = 1\n#   ^ Function:f > Variable:x\n";
        let a = annotations(text, "#");
        assert_eq!(
            a,
            vec![Annotation { offset: 13, line: 2, expected: "Function:f > Variable:x".into() }]
        );
    }
}
