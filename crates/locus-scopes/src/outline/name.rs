//! A symbol's name rendered from its captures: the pattern's template, the text normalized
//! and filtered (clipped, a dotted path, comments and inline markup left out).

use locus_doc::Document;

use super::extract::Candidate;
use super::model::Span;
use crate::query::{Filter, LanguageConfig, Normalize, Part, Role};

pub(super) fn render_name(config: &LanguageConfig, doc: &Document, c: &Candidate) -> String {
    let info = &config.patterns[c.pattern];
    // `uncomment`: the text without its comments, for the `:path` filter (comments between
    // the parts of a dotted name, `headers⏎ // Split into pairs⏎ .reduce`, are not part of it:
    // tsserver names that callback `headers.reduce() callback`).
    let text_of = |spans: &mut dyn Iterator<Item = Span>, sep: &str, uncomment: bool| -> String {
        let mut s = String::new();
        for (i, span) in spans.enumerate() {
            if i > 0 {
                s.push_str(sep);
            }
            let raw = doc.slice(span.start, span.end);
            let raw = if uncomment { strip_comments(&raw) } else { raw };
            s.push_str(&normalize(&raw, info.normalize));
        }
        s
    };
    match &info.template {
        None => text_of(&mut c.names.iter().copied(), "", false),
        Some(parts) => {
            let mut out = String::new();
            for part in parts {
                match part {
                    Part::Literal(l) => out.push_str(l),
                    Part::Index => out.push_str(&c.index.unwrap_or(0).to_string()),
                    Part::Capture(index, sep, filter) => {
                        let uncomment = matches!(filter, Filter::Path);
                        let text = if config.roles_for(info)[*index as usize] == Role::Name {
                            text_of(&mut c.names.iter().copied(), sep, uncomment)
                        } else {
                            text_of(
                                &mut c.helpers.iter().filter(|(i, _)| i == index).map(|(_, s)| *s),
                                sep,
                                uncomment,
                            )
                        };
                        match filter {
                            Filter::None => out.push_str(&text),
                            Filter::Path => out.push_str(&path(&text)),
                            Filter::Clip => out.push_str(&clip(&text)),
                        }
                    }
                }
            }
            out
        }
    }
}

/// At most 150 UTF-16 code units of `text`, then `...` when it was longer (see [`Filter::Clip`]).
fn clip(text: &str) -> String {
    const MAX: usize = 150;
    if text.encode_utf16().count() <= MAX {
        return text.to_string();
    }
    let mut units = 0;
    let mut out = String::new();
    for c in text.chars() {
        units += c.len_utf16();
        if units > MAX {
            break;
        }
        out.push(c);
    }
    out.push_str("...");
    out
}

/// The dotted name ending an expression (see [`Filter::Path`]).
fn path(text: &str) -> String {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    // Split at dots outside brackets and parentheses.
    let mut parts: Vec<&str> = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in compact.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '.' if depth == 0 => {
                parts.push(&compact[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&compact[start..]);
    // `a?.b` is a member access; `a!.b` (a non-null assertion) is not a name, like a call.
    let is_name = |p: &str| {
        let p = p.trim_end_matches('?');
        let mut chars = p.trim_start_matches('#').chars();
        chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    };
    let keep = parts.iter().rev().take_while(|p| is_name(p)).count();
    let mut kept: Vec<&str> =
        parts[parts.len() - keep..].iter().map(|p| p.trim_end_matches('?')).collect();
    // `this` and `super` are keywords, not names (tsserver keeps `self.run`, drops `this.`).
    if kept.len() > 1 && matches!(kept[0], "this" | "super") {
        kept.remove(0);
    }
    kept.join(".")
}

/// `text` without its `//` and `/* */` comments, those outside string literals (for
/// [`Filter::Path`]).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            out.push(c);
            if c == '\\' {
                out.extend(chars.next());
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('/', Some('/')) => while chars.next_if(|&c| c != '\n').is_some() {},
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push(' ');
            }
            ('"' | '\'' | '`', _) => {
                quote = Some(c);
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

fn normalize(text: &str, how: Normalize) -> String {
    match how {
        Normalize::Trim => text.trim().to_string(),
        Normalize::Collapse => text.split_whitespace().collect::<Vec<_>>().join(" "),
        Normalize::Unbreak => {
            let mut out = String::with_capacity(text.len());
            let mut chars = text.trim().chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if matches!(chars.peek(), Some('\n' | '\r' | '\u{2028}' | '\u{2029}')) => {
                    }
                    '\r' if chars.peek() == Some(&'\n') => {}
                    '\n' | '\r' | '\u{2028}' | '\u{2029}' => {}
                    c => out.push(c),
                }
            }
            out
        }
        // Lines of a multi-line heading join with nothing between them, as markdown-it's
        // soft breaks render to no text; white space inside a line stays as written.
        Normalize::Markup => {
            let text = strip_markup(text).lines().map(str::trim).collect::<String>();
            // An ATX closing sequence: a run of '#' after white space (or alone) at the end.
            let body = text.trim_end().trim_end_matches('#');
            let text =
                if body.is_empty() || body.ends_with(char::is_whitespace) { body } else { &text };
            text.trim().to_string()
        }
    }
}

/// Strips inline markup, keeping the text a reader sees: `**a**` → `a`, `` `c` `` → `c`,
/// `[t](u)` and `[t][r]` → `t`, `![alt](src)` → `alt`, `<b>` tags dropped, `\*` → `*`.
fn strip_markup(text: &str) -> String {
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
            '[' => {
                // [text](url) or [text][ref]: keep text.
                if let Some(close) = find_bracket(&chars, i) {
                    let inner: String = chars[i + 1..close].iter().collect();
                    let after = close + 1;
                    let skip_to = match chars.get(after) {
                        Some('(') => {
                            chars[after..].iter().position(|&c| c == ')').map(|p| after + p + 1)
                        }
                        Some('[') => {
                            chars[after..].iter().position(|&c| c == ']').map(|p| after + p + 1)
                        }
                        _ => Some(after),
                    };
                    out.push_str(&strip_markup(&inner));
                    i = skip_to.unwrap_or(after);
                } else {
                    out.push(c);
                    i += 1;
                }
            }
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
            !matches!(before(p), Some('$' | '\\')) && at(p + 1) == Some('$') && at(p + 2) != Some('$')
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
