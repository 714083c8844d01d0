//! A symbol's name rendered from its captures: the pattern's template, the text normalized
//! and filtered (clipped, a dotted path, comments and inline markup left out).

use locus_doc::Document;

use super::extract::Candidate;
use super::markup::{LinkLabels, strip_markup};
use super::model::Span;
use crate::query::{Filter, LanguageConfig, Normalize, Part, Role};

/// `labels`: the link labels the document defines, for Markdown names (see [`strip_markup`]).
pub(super) fn render_name(
    config: &LanguageConfig,
    doc: &Document,
    labels: &LinkLabels,
    c: &Candidate,
) -> String {
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
            s.push_str(&normalize(&raw, info.normalize, labels));
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

fn normalize(text: &str, how: Normalize, labels: &LinkLabels) -> String {
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
            let text = strip_markup(text, labels).lines().map(str::trim).collect::<String>();
            // An ATX closing sequence: a run of '#' after white space (or alone) at the end.
            let body = text.trim_end().trim_end_matches('#');
            let text =
                if body.is_empty() || body.ends_with(char::is_whitespace) { body } else { &text };
            text.trim().to_string()
        }
    }
}
