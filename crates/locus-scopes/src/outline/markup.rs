//! Inline Markdown as a heading's name shows it: the text a reader sees, as VS Code's Markdown
//! server renders it (markdown-it with VS Code's math plugin): markup, links, HTML and math
//! left out, and brackets that make no link kept.

use std::collections::HashSet;

use locus_doc::Document;
use tree_sitter::Tree;

/// The link labels a document defines (`[id]: url`), normalized as markdown-it compares them:
/// `[id]` is a link only where `id` is one of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct LinkLabels(HashSet<String>);

impl LinkLabels {
    /// The labels of every link reference definition in `tree`.
    pub(crate) fn of(tree: &Tree, doc: &Document) -> LinkLabels {
        let mut labels = HashSet::new();
        let mut cursor = tree.walk();
        // Definitions are blocks: the walk descends through containers (lists, quotes,
        // sections) and never into a paragraph's or heading's inline text.
        loop {
            let node = cursor.node();
            let descend = match node.kind() {
                "link_reference_definition" => {
                    let mut inner = node.walk();
                    if let Some(label) =
                        node.children(&mut inner).find(|c| c.kind() == "link_label")
                    {
                        let text = doc.slice(label.start_byte(), label.end_byte());
                        labels.insert(normalize_label(&text));
                    }
                    false
                }
                "inline" | "paragraph" | "fenced_code_block" | "indented_code_block" => false,
                _ => true,
            };
            if descend && cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    return LinkLabels(labels);
                }
            }
        }
    }

    fn defines(&self, label: &str) -> bool {
        self.0.contains(&normalize_label(label))
    }
}

/// A label as markdown-it compares it: brackets off, white space collapsed, case folded.
fn normalize_label(label: &str) -> String {
    let label = label.strip_prefix('[').and_then(|l| l.strip_suffix(']')).unwrap_or(label);
    label.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// The link whose text opens with the `[` at `open`: its text and where it ends. An inline
/// link (`[t](u)`) always is one; a reference (`[t][r]`, `[t][]`, `[t]`) only where the
/// document defines its label, as markdown-it's link rule decides.
fn link_at(chars: &[char], open: usize, labels: &LinkLabels) -> Option<(String, usize)> {
    let close = find_bracket(chars, open)?;
    let text: String = chars[open + 1..close].iter().collect();
    let after = close + 1;
    match chars.get(after) {
        Some('(') => {
            let end =
                chars[after..].iter().position(|&c| c == ')').map_or(after, |p| after + p + 1);
            Some((text, end))
        }
        Some('[') => {
            let end = find_bracket(chars, after)?;
            let label: String = chars[after + 1..end].iter().collect();
            let label = if label.trim().is_empty() { &text } else { &label };
            labels.defines(label).then_some((text, end + 1))
        }
        _ => labels.defines(&text).then_some((text, after)),
    }
}

/// Strips inline markup, keeping the text a reader sees: `**a**` → `a`, `` `c` `` → `c`,
/// `[t](u)` → `t`, `[t][r]` and `[r]` → `t` and `r` where the document defines `r`,
/// `![alt](src)` → `alt`, `<b>` tags dropped, `\*` → `*`, math dropped.
pub(super) fn strip_markup(text: &str, labels: &LinkLabels) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() && chars[i + 1].is_ascii_punctuation() => {
                out.push(chars[i + 1]);
                i += 2;
            }
            '`' => {
                // A code span: its content verbatim, trimmed of one space each side.
                let ticks = chars[i..].iter().take_while(|&&c| c == '`').count();
                let body_start = i + ticks;
                let close = (body_start..chars.len()).find(|&j| {
                    chars[j..].iter().take_while(|&&c| c == '`').count() == ticks
                        && (j == 0 || chars[j - 1] != '`')
                });
                match close {
                    Some(j) => {
                        let body: String = chars[body_start..j].iter().collect();
                        let body = if body.len() >= 2
                            && body.starts_with(' ')
                            && body.ends_with(' ')
                            && body.trim() != ""
                        {
                            body[1..body.len() - 1].to_string()
                        } else {
                            body
                        };
                        out.push_str(&body);
                        i = j + ticks;
                    }
                    None => {
                        out.extend(&chars[i..body_start]);
                        i = body_start;
                    }
                }
            }
            '*' | '_' | '~' => {
                // Emphasis delimiters; an intraword '_' is text.
                let prev_alnum = i > 0 && chars[i - 1].is_alphanumeric();
                let next_alnum = chars.get(i + 1).is_some_and(|c| c.is_alphanumeric());
                if c == '_' && prev_alnum && next_alnum {
                    out.push(c);
                }
                i += 1;
            }
            '!' if chars.get(i + 1) == Some(&'[') => i += 1,
            '$' => match math_at(&chars, i) {
                // Math renders to no text in a heading's name.
                Dollars::Math(end) => i = end,
                Dollars::Text(n) => {
                    out.extend(&chars[i..i + n]);
                    i += n;
                }
            },
            '[' => match link_at(&chars, i, labels) {
                // A link keeps its text; brackets that make no link are text themselves.
                Some((text, end)) => {
                    out.push_str(&strip_markup(&text, labels));
                    i = end;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            },
            '<' if chars[i..].starts_with(&['<', '!', '-', '-']) => {
                // An HTML comment (`<!-- omit in toc -->`) renders to nothing; unclosed, it is
                // text.
                let close =
                    (i + 4..chars.len()).find(|&j| chars[j..].starts_with(&['-', '-', '>']));
                match close {
                    Some(j) => i = j + 3,
                    None => {
                        out.push(c);
                        i += 1;
                    }
                }
            }
            '<' => {
                // An HTML tag or autolink: drop tags, keep autolink text.
                match chars[i..].iter().position(|&c| c == '>') {
                    Some(p)
                        if chars[i + 1..i + p].iter().all(|c| {
                            !c.is_whitespace()
                                || chars.get(i + 1).is_some_and(|c| c.is_alphabetic() || *c == '/')
                        }) =>
                    {
                        let inner: String = chars[i + 1..i + p].iter().collect();
                        if inner.contains("://") || inner.contains('@') {
                            out.push_str(&inner);
                        }
                        i += p + 1;
                    }
                    _ => {
                        out.push(c);
                        i += 1;
                    }
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// What the `$` at `i` is to VS Code's math plugin (`@vscode/markdown-it-katex`).
enum Dollars {
    /// Math, ending just before this index.
    Math(usize),
    /// This many dollars of text.
    Text(usize),
}

/// Reads the `$` at `i` as VS Code's math plugin does: `$$…$$` is math when neither delimiter
/// touches another `$` or follows a backslash; `$…$` when the opening one does not follow a
/// letter, digit, `_`, `$` or backslash and the closing one (the first unescaped `$` after it)
/// is not followed by a letter, digit, `_` or `$`. Where a delimiter fails, its dollars are
/// text and reading goes on just after them (`$: → $derived/$effect` is all text).
fn math_at(chars: &[char], i: usize) -> Dollars {
    let at = |p: usize| chars.get(p).copied();
    let before = |p: usize| p.checked_sub(1).and_then(at);
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    // The first `str` at or after `from` not escaped by an odd run of backslashes.
    let find = |from: usize, pattern: &[char]| {
        (from..chars.len()).find(|&m| {
            chars[m..].starts_with(pattern)
                && chars[..m].iter().rev().take_while(|&&c| c == '\\').count() % 2 == 0
        })
    };
    if at(i + 1) == Some('$') {
        let delimiter = |p: usize| {
            !matches!(before(p), Some('$' | '\\'))
                && at(p + 1) == Some('$')
                && at(p + 2) != Some('$')
        };
        if !delimiter(i) {
            return Dollars::Text(2);
        }
        return match find(i + 2, &['$', '$']) {
            Some(m) if m == i + 2 => Dollars::Text(4),
            Some(m) if delimiter(m) => Dollars::Math(m + 2),
            _ => Dollars::Text(2),
        };
    }
    let opens = !matches!(before(i), Some('$' | '\\')) && !word(before(i));
    if !opens {
        return Dollars::Text(1);
    }
    match find(i + 1, &['$']) {
        Some(m) if at(m + 1) != Some('$') && !word(at(m + 1)) => Dollars::Math(m + 1),
        _ => Dollars::Text(1),
    }
}

fn find_bracket(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0;
    for (j, &c) in chars.iter().enumerate().skip(open) {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}
