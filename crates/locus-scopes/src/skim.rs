//! Skimming: the text the workspace index parses in place of a file, with what function
//! bodies hold that the index does not keep written as filler statements (`pass`).
//!
//! The index drops what a function body declares (locals, parameters) except nested
//! definitions and the members a method declares (`self.x = …`), yet parsing those bodies is
//! most of the parse of a file. A language's `[index-skim]` (`grammars/<id>.toml`) names the
//! words that open a function (`def`), the words whose presence keeps a statement (`def`,
//! `class`) and the names whose attributes, assigned, declare members (`self`, `cls`).
//! - A body with none of these is blanked: every byte becomes a space (newlines kept, so
//!   every offset, line and column outside it is the file's), and the filler is written at
//!   the body's indentation on the line where its last statement ends, so that the function
//!   still ends on that line (comments after it are left as they are: tree-sitter counts
//!   them in the block).
//! - In a body that holds some, each other simple statement (not a compound statement's
//!   header or clause, not a decorator) is blanked the same way, the filler on its last line:
//!   every block keeps its statements' places, so the members and the rules that look "one
//!   block down" (`queries/python/symbols.scm`) see the structure they would. A class body's
//!   statements, even inside a function, are never touched: they are members.
//! - A text whose lines indent as Python forbids (deeper without a line opening a block, out
//!   to a level no block has) is not skimmed: tree-sitter still finds blocks there, not
//!   always where the indentation says.
//!
//! **Exactness.** The skimmed text is read by the language's lexical rules (`lexer`), here
//! Python's as tree-sitter-python reads them, which is not always as Python does: strings
//! with any run of prefix letters (`t` included), f-string replacement fields read as code
//! with the strings inside them (a field opens at `\{` too; its words from `as` on count for
//! the line) and their format specs as text, numbers, brackets, `#` comments, backslash
//! continuations, indentation in spaces; and lines tree-sitter reads on into the next
//! because the grammar cannot end them there (after an operator, `.`, `and`, `import`, a
//! lambda's `:`, a header without its `:`). Anything outside what the reader follows (a tab
//! or form feed, a lone `\r`, an unterminated string, a bracket closed by the wrong one, a
//! comment inside a field, a character the scanner reads as a space, such a line) skims
//! nothing in the file. The caller parses the skimmed text and takes it only when its tree
//! has no error; otherwise it parses the file itself. So a file that parses without errors
//! gives the index the symbols it would give unskimmed (tested on the corpus and the Python
//! standard library, `crates/locus-index/src/file.rs`). The one difference: a syntax error
//! inside a skimmed body, which the reader does not see, is not seen by the index either;
//! it outlines the file as if the body were well formed, where tree-sitter's error recovery
//! may have changed the symbols around it (pyright, whose outline the editor's follows,
//! keeps them).
//!
//! Target detection errs on the side of keeping: a line that names a target and has, at
//! bracket depth 0 after it, an assignment (`=`, `+=`, …) or a `:` that is not the line's
//! last token (an annotation), or that starts with `for`, `with` or `async` or holds `as`,
//! is kept, and so is the body it is in.

use crate::builtin::SkimEntry;

/// `text` with what its function bodies hold that the index does not keep blanked (see the
/// module's docs), or `None` where nothing is skimmed: no such body or statement, or a text
/// the reader does not follow.
pub(crate) fn skim(text: &str, rules: &SkimEntry) -> Option<String> {
    match rules.lexer {
        "indented" => skim_indented(text, rules),
        _ => None,
    }
}

/// One logical line of an indentation-structured text (a statement, or a compound
/// statement's header), as far as skimming needs it.
#[derive(Debug)]
struct Line {
    /// Where its first physical line starts.
    start: usize,
    /// Its indentation, in spaces.
    indent: usize,
    /// The end of its last token.
    end: usize,
    /// It opens a function: starts with a header word (or `async` and one) and ends in `:`.
    header: bool,
    /// It opens a block: ends in `:`.
    opens: bool,
    /// It starts with a compound statement's word (`if`, `for`, `else`, …, `match`, `case`).
    compound: bool,
    /// A simple statement (or several, `;`-separated): no compound statement's word, no
    /// decorator, no block opened.
    simple: bool,
    /// It keeps the body it is in: holds a keep word, or may assign to a target's attribute.
    keeps: bool,
}

/// What a block's statements are to skimming: a function's (each may be written as the
/// filler), a compound statement's inside one (as its enclosing block's), or anything else's
/// (a class body: never).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Block {
    Function,
    Compound,
    Other,
}

fn skim_indented(text: &str, rules: &SkimEntry) -> Option<String> {
    let b = text.as_bytes();
    // A lone `\r` is a line break to the document's lines and not to the reader.
    let next = b.iter().skip(1).chain([&b'\n']);
    if b.iter().zip(next).any(|(&c, &n)| c == b'\r' && n != b'\n') {
        return None;
    }
    let lines = logical_lines(b, rules)?;
    if !consistent(&lines) {
        return None;
    }
    let mut out: Option<Vec<u8>> = None;
    // Writes the filler in place of `from..to` (whole lines up to a token's end), at
    // `indent` on the line `to` is on; false where that line has no room for it (`)` closing
    // a call).
    let mut fill = |from: usize, to: usize, indent: usize| {
        let last_line = b[..to].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        if to - last_line < indent + rules.filler.len() {
            return false;
        }
        let bytes = out.get_or_insert_with(|| b.to_vec());
        for c in &mut bytes[from..to] {
            if *c != b'\n' && *c != b'\r' {
                *c = b' ';
            }
        }
        let at = last_line + indent;
        bytes[at..at + rules.filler.len()].copy_from_slice(rules.filler.as_bytes());
        true
    };
    // The blocks around the line, innermost last, with their headers' indentation.
    let mut blocks: Vec<(usize, Block)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        while blocks.last().is_some_and(|&(indent, _)| indent >= line.indent) {
            blocks.pop();
        }
        if line.header {
            let body_end =
                i + 1 + lines[i + 1..].iter().take_while(|l| l.indent > line.indent).count();
            let body = &lines[i + 1..body_end];
            // A whole body holding nothing kept is one filler. No header inside: a nested `def`
            // is a keep word.
            if let Some((first, last)) = body.first().zip(body.last())
                && !body.iter().any(|l| l.keeps)
                && fill(first.start, last.end, first.indent)
            {
                i = body_end;
                continue;
            }
            blocks.push((line.indent, Block::Function));
        } else if line.opens {
            blocks.push((line.indent, if line.compound { Block::Compound } else { Block::Other }));
        } else if line.simple
            && !line.keeps
            && blocks.iter().rev().find(|(_, b)| *b != Block::Compound).map(|(_, b)| *b)
                == Some(Block::Function)
        {
            // A statement of a body that holds something kept elsewhere: written as the
            // filler alone, so the body's blocks stay as they were.
            fill(line.start, line.end, line.indent);
        }
        i += 1;
    }
    // Blanking whole runs of bytes between line starts and token ends, and writing ASCII,
    // keeps the text UTF-8.
    out.map(|bytes| String::from_utf8(bytes).expect("blanked whole characters"))
}

/// Whether the lines indent as Python requires: deeper only after a line that opens a block,
/// and back out only to a level an enclosing block has. Elsewhere tree-sitter's scanner
/// still finds blocks, but not always where a reader of the indentation would (a line
/// dedented to a level no block has stays in the block it left).
fn consistent(lines: &[Line]) -> bool {
    let mut levels = vec![0];
    let mut opened = false;
    for line in lines {
        let top = *levels.last().unwrap_or(&0);
        if line.indent > top {
            if !opened {
                return false;
            }
            levels.push(line.indent);
        } else {
            while levels.last().is_some_and(|&l| l > line.indent) {
                levels.pop();
            }
            if levels.last() != Some(&line.indent) || opened {
                return false;
            }
        }
        opened = line.opens;
    }
    true
}

/// The text's logical lines (blank and comment-only lines left out), or `None` where the
/// text leaves what the reader follows.
fn logical_lines(b: &[u8], rules: &SkimEntry) -> Option<Vec<Line>> {
    let mut lines = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        match b.get(i) {
            None => break,
            // Indentation in tabs or form feeds: columns the reader does not count.
            Some(b'\t' | 0x0c) => return None,
            Some(b'\n') => i += 1,
            Some(b'\r') => i = newline(b, i)?,
            Some(b'#') => i = comment_end(b, i),
            Some(_) => {
                let mut lexer = LineLexer::new(b, rules);
                let (line, next) = lexer.line(start, i)?;
                lines.push(line);
                i = next;
            }
        }
    }
    Some(lines)
}

/// The end of the `#` comment at `i`: its line's newline, or the text's end.
fn comment_end(b: &[u8], i: usize) -> usize {
    i + b[i..].iter().take_while(|&&c| c != b'\n' && c != b'\r').count()
}

/// The offset after the newline at `i` (`\n` or `\r\n`); `None` for a lone `\r`.
fn newline(b: &[u8], i: usize) -> Option<usize> {
    match (b[i], b.get(i + 1)) {
        (b'\n', _) => Some(i + 1),
        (b'\r', Some(b'\n')) => Some(i + 2),
        _ => None,
    }
}

/// Reads one logical line token by token.
struct LineLexer<'a> {
    b: &'a [u8],
    rules: &'a SkimEntry,
    /// The closing brackets expected, innermost last.
    brackets: Vec<u8>,
    /// The first two words (identifiers or keywords).
    words: [Option<&'a [u8]>; 2],
    /// A target name was seen.
    target: bool,
    /// A `:` at depth 0 after a target: keeps the body if another token follows.
    annotation: bool,
    /// The word `as` was seen.
    saw_as: bool,
    /// The word `lambda` was seen.
    saw_lambda: bool,
    /// A `:` at depth 0 was seen.
    saw_colon: bool,
    keeps: bool,
    /// What the last token was: whether the line may end after it.
    last: Last,
}

/// The last token of a line so far, as far as whether tree-sitter ends the line after it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Last {
    /// No token yet.
    Nothing,
    /// A name (not a keyword that needs more), a number, a string, a closing bracket, `...`
    /// or `;`.
    Complete,
    /// `:`.
    Colon,
    /// `*` (`from m import *`).
    Star,
    /// `,` (`x = 1,` is a tuple; `import a,` goes on).
    Comma,
    /// Any other operator (`.` included), or a keyword that needs more (`and`, `in`,
    /// `import`, `lambda`, …).
    Open,
}

/// Keywords a line cannot end with: tree-sitter's scanner emits no newline where the grammar
/// cannot take one, and reads on into the next line (`self.` + newline + `x = 1` is
/// `self.x = 1` to it, without an error).
const OPEN_KEYWORDS: &[&[u8]] = &[
    b"and",
    b"or",
    b"not",
    b"in",
    b"is",
    b"if",
    b"elif",
    b"else",
    b"lambda",
    b"import",
    b"from",
    b"as",
    b"assert",
    b"del",
    b"global",
    b"nonlocal",
    b"for",
    b"while",
    b"with",
    b"async",
    b"await",
    b"except",
    b"def",
    b"class",
    b"try",
    b"finally",
];

/// Words that start a compound statement's header, which ends in `:` (a line starting with
/// one and holding no `:` is read on into the next line).
const HEADERS: &[&[u8]] = &[
    b"if", b"elif", b"else", b"while", b"for", b"with", b"try", b"except", b"finally", b"def",
    b"class", b"async",
];

impl<'a> LineLexer<'a> {
    fn new(b: &'a [u8], rules: &'a SkimEntry) -> Self {
        LineLexer {
            b,
            rules,
            brackets: Vec::new(),
            words: [None, None],
            target: false,
            annotation: false,
            saw_as: false,
            saw_lambda: false,
            saw_colon: false,
            keeps: false,
            last: Last::Nothing,
        }
    }

    /// The logical line whose first physical line starts at `start` and whose first token is
    /// at `first`, with the offset after it.
    fn line(&mut self, start: usize, first: usize) -> Option<(Line, usize)> {
        let b = self.b;
        let mut i = first;
        let mut end = first;
        loop {
            let Some(&c) = b.get(i) else {
                if !self.brackets.is_empty() {
                    return None;
                }
                break;
            };
            match c {
                b' ' | b'\t' => {
                    i += 1;
                    continue;
                }
                // The scanner resets its column at a form feed.
                0x0c => return None,
                b'\n' | b'\r' => {
                    i = newline(b, i)?;
                    if self.brackets.is_empty() {
                        break;
                    }
                    continue;
                }
                b'#' => {
                    i = comment_end(b, i);
                    continue;
                }
                // A continuation line; before any token, the scanner counts the indentation
                // on both sides of it, Python only the first's.
                b'\\' => {
                    if self.last == Last::Nothing || !matches!(b.get(i + 1), Some(b'\n' | b'\r')) {
                        return None;
                    }
                    i = newline(b, i + 1)?;
                    continue;
                }
                _ => {}
            }
            if self.annotation {
                self.keeps = true;
            }
            i = self.token(i)?;
            end = i;
        }
        let is = |w: Option<&[u8]>, set: &[&str]| {
            w.is_some_and(|w| set.iter().any(|s| s.as_bytes() == w))
        };
        let [w0, w1] = self.words;
        // Whether the line starts a header (`def` and `class` included), which needs its `:`.
        let header_word = w0.is_some_and(|w| HEADERS.contains(&w));
        let open = match self.last {
            Last::Nothing => false,
            Last::Complete => header_word && !self.saw_colon,
            // `match x:` and `case y:` open blocks too (soft keywords, names elsewhere).
            Last::Colon => {
                self.saw_lambda
                    || !(header_word || w0.is_some_and(|w| w == b"match" || w == b"case"))
            }
            Last::Star => w0 != Some(b"from"),
            Last::Comma => {
                self.saw_lambda
                    || w0.is_some_and(|w| {
                        [&b"import"[..], b"from", b"global", b"nonlocal", b"assert", b"raise"]
                            .contains(&w)
                    })
            }
            Last::Open => true,
        };
        if open {
            return None;
        }
        let opens = self.last == Last::Colon;
        let header = opens
            && (is(w0, self.rules.headers) || (w0 == Some(b"async") && is(w1, self.rules.headers)));
        if self.target && (self.saw_as || is(w0, &["for", "with", "async"])) {
            self.keeps = true;
        }
        // `def` and `class` open blocks of their own kind; `async` goes with `def`, `for`, `with`.
        let compound = w0.is_some_and(|w| {
            (HEADERS.contains(&w) && w != b"def" && w != b"class") || w == b"match" || w == b"case"
        }) && !header;
        let simple = !opens && !compound && b[first] != b'@';
        let indent = first - start;
        Some((Line { start, indent, end, header, opens, compound, simple, keeps: self.keeps }, i))
    }

    /// Reads the token at `i` (not a space, newline or comment); the offset after it.
    fn token(&mut self, i: usize) -> Option<usize> {
        let b = self.b;
        let c = b[i];
        let at = |k: usize| b.get(k).copied().unwrap_or(0);
        if is_word_byte(c) && !c.is_ascii_digit() {
            let j = word_end(b, i);
            let word = &b[i..j];
            if let Some(fields) = string_prefix(word, at(j)) {
                return self.string(j, fields);
            }
            // Only letters, digits and `_`: the scanner reads some other characters as spaces
            // (U+200B, U+FEFF, U+00A0, …), which would split the word.
            if !word.is_ascii()
                && !std::str::from_utf8(word).ok()?.chars().all(|c| c.is_alphanumeric() || c == '_')
            {
                return None;
            }
            self.word(word);
            return Some(j);
        }
        if c.is_ascii_digit() || (c == b'.' && at(i + 1).is_ascii_digit()) {
            self.last = Last::Complete;
            return number_end(b, i);
        }
        self.last = match c {
            b')' | b']' | b'}' | b';' => Last::Complete,
            b'.' if at(i + 1) == b'.' && at(i + 2) == b'.' => {
                self.last = Last::Complete;
                return Some(i + 3);
            }
            b':' if at(i + 1) != b'=' => Last::Colon,
            b',' => Last::Comma,
            b'*' if at(i + 1) != b'*' && at(i + 1) != b'=' => Last::Star,
            _ => Last::Open,
        };
        let depth0 = self.brackets.is_empty();
        let assign = |this: &mut Self| {
            if depth0 && this.target {
                this.keeps = true;
            }
        };
        Some(match c {
            b'\'' | b'"' => return self.string(i, false),
            b'(' | b'[' | b'{' => {
                self.brackets.push(match c {
                    b'(' => b')',
                    b'[' => b']',
                    _ => b'}',
                });
                i + 1
            }
            b')' | b']' | b'}' => {
                if self.brackets.pop() != Some(c) {
                    return None;
                }
                i + 1
            }
            b'=' if at(i + 1) == b'=' => i + 2,
            b'=' => {
                assign(self);
                i + 1
            }
            b'!' if at(i + 1) == b'=' => i + 2,
            b':' if at(i + 1) == b'=' => i + 2,
            b':' => {
                self.saw_colon |= depth0;
                if depth0 && self.target {
                    self.annotation = true;
                }
                i + 1
            }
            b'-' if at(i + 1) == b'>' => i + 2,
            // `<<=`, `>>=`, `**=`, `//=`: augmented assignments; `<<`, `>>`, `<=`, `>=`,
            // `<>`, `**`, `//`: operators.
            b'<' | b'>' | b'*' | b'/' if at(i + 1) == c => {
                if at(i + 2) == b'=' {
                    assign(self);
                    i + 3
                } else {
                    i + 2
                }
            }
            b'<' | b'>' => i + 1 + usize::from(matches!(at(i + 1), b'=' | b'>')),
            b'+' | b'-' | b'*' | b'/' | b'%' | b'@' | b'&' | b'|' | b'^' => {
                if at(i + 1) == b'=' {
                    assign(self);
                    i + 2
                } else {
                    i + 1
                }
            }
            b'.' | b',' | b';' | b'~' => i + 1,
            // `$`, `?`, a backtick, a control character, a lone `!`: no Python token.
            _ => return None,
        })
    }

    fn word(&mut self, word: &'a [u8]) {
        self.last = if OPEN_KEYWORDS.contains(&word) { Last::Open } else { Last::Complete };
        // A lambda whose `:` may end the line (not one inside brackets).
        self.saw_lambda |= word == b"lambda" && self.brackets.is_empty();
        if let Some(slot) = self.words.iter_mut().find(|w| w.is_none()) {
            *slot = Some(word);
        }
        let is = |set: &[&str]| set.iter().any(|s| s.as_bytes() == word);
        if is(self.rules.keep) {
            self.keeps = true;
        }
        if is(self.rules.targets) {
            self.target = true;
        }
        if word == b"as" {
            self.saw_as = true;
        }
    }

    /// Reads the string literal whose opening quote is at `i`; the offset after it.
    fn string(&mut self, i: usize, f: bool) -> Option<usize> {
        let mut words = FieldWords::default();
        let end = string_end(self.b, i, f, &mut words, MAX_NESTING)?;
        // tree-sitter reads a field as any expression: `f"{c as self.a}"` declares a member
        // to the query as `with c as self.a` does.
        for word in words.0 {
            self.word(word);
        }
        self.last = Last::Complete;
        Some(end)
    }
}

/// How deep strings may nest in replacement fields (`f"{f'{x}'}"`) before the reader gives
/// up: a bound on its recursion (tree-sitter's scanner keeps at most 255 open strings).
const MAX_NESTING: usize = 64;

/// The words read inside replacement fields that tell on their line: `as` and the names
/// after it (`f"{c as self.a}"`).
#[derive(Default)]
struct FieldWords<'a>(Vec<&'a [u8]>);

/// The offset after the string literal whose opening quote is at `i`, with replacement
/// fields if `f`, the words of interest in them put in `words`; `None` where the reader does
/// not follow it, or strings nest deeper than `nesting` allows.
fn string_end<'a>(
    b: &'a [u8],
    i: usize,
    f: bool,
    words: &mut FieldWords<'a>,
    nesting: usize,
) -> Option<usize> {
    let nesting = nesting.checked_sub(1)?;
    let q = b[i];
    let triple = b.get(i..i + 3) == Some(&[q, q, q][..]);
    let mut j = i + if triple { 3 } else { 1 };
    loop {
        let c = *b.get(j)?;
        match c {
            b'\\' => match (b.get(j + 1), b.get(j + 2)) {
                // tree-sitter opens a field at `\{` (Python 3.12 too) and ends one at `\}`.
                (Some(b'{' | b'}'), _) if f => j += 1,
                // A named escape, whose name tree-sitter reads up to the `}`, quotes and all.
                (Some(b'N'), Some(b'{')) => {
                    let close = j + 3 + b[j + 3..].iter().position(|&c| c == b'}')?;
                    if b[j + 3..close].iter().any(|c| matches!(c, b'\'' | b'"' | b'\n' | b'\r')) {
                        return None;
                    }
                    j = close + 1;
                }
                // An escaped newline (`\r\n` is one).
                _ => j += if b.get(j + 1..j + 3) == Some(b"\r\n") { 3 } else { 2 },
            },
            b'\n' | b'\r' if !triple => return None,
            _ if c == q => {
                if !triple {
                    return Some(j + 1);
                }
                if b.get(j..j + 3) == Some(&[q, q, q][..]) {
                    return Some(j + 3);
                }
                j += 1;
            }
            b'{' if f && b.get(j + 1) == Some(&b'{') => j += 2,
            b'{' if f => j = replacement_field(b, j + 1, triple, words, nesting)?,
            _ => j += 1,
        }
    }
}

/// The offset after the `}` that closes the f-string replacement field whose text starts at
/// `i`. Its expression is read as code: strings inside it whatever their quotes (tree-sitter,
/// like Python 3.12, allows the field's own), brackets, words (`as` and what follows it go
/// to `words`); after a `:` outside brackets, its format spec is text (quotes and all) up to
/// the `}`, with fields of its own (`{x:>{width}}`). `None` where it holds a comment, a
/// backslash, a `:=` outside brackets (Python reads a format spec `=…`), a number run
/// into letters, or a newline in a one-line string.
fn replacement_field<'a>(
    b: &'a [u8],
    mut i: usize,
    triple: bool,
    words: &mut FieldWords<'a>,
    nesting: usize,
) -> Option<usize> {
    let mut brackets = 0usize;
    let mut after_as = false;
    loop {
        let c = *b.get(i)?;
        // A string, its prefix's end and whether it has fields of its own.
        let mut string = (matches!(c, b'\'' | b'"')).then_some((i, false));
        if is_word_byte(c) && !c.is_ascii_digit() {
            let end = word_end(b, i);
            let word = &b[i..end];
            match string_prefix(word, b.get(end).copied().unwrap_or(0)) {
                Some(fields) => string = Some((end, fields)),
                None => {
                    if word == b"as" || after_as {
                        words.0.push(word);
                        after_as = true;
                    }
                    i = end;
                    continue;
                }
            }
        }
        if let Some((quote, fields)) = string {
            let end = string_end(b, quote, fields, words, nesting)?;
            if !triple && b[i..end].iter().any(|c| matches!(c, b'\n' | b'\r')) {
                return None;
            }
            i = end;
            continue;
        }
        if c.is_ascii_digit() {
            i = number_end(b, i)?;
            continue;
        }
        match c {
            b'#' | b'\\' => return None,
            b'\n' | b'\r' if !triple => return None,
            b'(' | b'[' | b'{' => brackets += 1,
            b')' | b']' => brackets = brackets.checked_sub(1)?,
            b'}' if brackets > 0 => brackets -= 1,
            b'}' => return Some(i + 1),
            b':' if brackets == 0 && b.get(i + 1) == Some(&b'=') => return None,
            b':' if brackets == 0 => return format_spec(b, i + 1, triple, words, nesting),
            _ => {}
        }
        i += 1;
    }
}

/// The offset after the `}` that closes a replacement field whose format spec starts at `i`:
/// text up to it (tree-sitter's `[^{}\n]+`), with nested fields.
fn format_spec<'a>(
    b: &'a [u8],
    mut i: usize,
    triple: bool,
    words: &mut FieldWords<'a>,
    nesting: usize,
) -> Option<usize> {
    loop {
        match *b.get(i)? {
            b'{' => i = replacement_field(b, i + 1, triple, words, nesting.checked_sub(1)?)?,
            b'}' => return Some(i + 1),
            b'\n' | b'\r' => return None,
            _ => i += 1,
        }
    }
}

/// The offset after the number starting at `i`, or `None` where letters run on from it in a
/// way no number does (`1as` is `1` and `as` to tree-sitter): the reader would miss the word.
fn number_end(b: &[u8], i: usize) -> Option<usize> {
    let len = b[i..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'.')
        .count();
    let run = b[i..i + len].to_ascii_lowercase();
    let digits = |prefix: &[u8], ok: fn(u8) -> bool| {
        run.strip_prefix(prefix)
            .is_some_and(|r| !r.is_empty() && r.iter().all(|&c| ok(c) || c == b'_'))
    };
    let valid = digits(b"0x", |c| c.is_ascii_hexdigit())
        || digits(b"0o", |c| (b'0'..=b'7').contains(&c))
        || digits(b"0b", |c| c == b'0' || c == b'1')
        || {
            // Decimal: digits, `_`, `.`, one exponent `e` (its sign is an operator to the
            // reader), a final `j` (imaginary) or `l` (Python 2's long).
            let body = run.strip_suffix(b"j").or_else(|| run.strip_suffix(b"l")).unwrap_or(&run);
            body.iter().filter(|&&c| c == b'e').count() <= 1
                && body.iter().all(|&c| c.is_ascii_digit() || matches!(c, b'_' | b'.' | b'e'))
        };
    valid.then_some(i + len)
}

/// Whether `c` may be part of a word (a name, a keyword, a string's prefix; bytes of
/// non-ASCII characters included).
fn is_word_byte(c: u8) -> bool {
    c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80
}

/// The end of the word starting at `i`.
fn word_end(b: &[u8], i: usize) -> usize {
    i + b[i..].iter().take_while(|&&c| is_word_byte(c)).count()
}

/// Whether `word`, followed by `next`, is a string's prefix as tree-sitter reads one: any run
/// of `r`, `b`, `u`, `f` and `t` (Python 3.14's template strings), in any case, right before
/// the quote (Python allows fewer: what tree-sitter reads as a string must be one here too);
/// if so, whether the string has replacement fields (`f` or `t`).
fn string_prefix(word: &[u8], next: u8) -> Option<bool> {
    (matches!(next, b'\'' | b'"') && word.iter().all(|c| b"rRbBuUfFtT".contains(c)))
        .then(|| word.iter().any(|c| matches!(c, b'f' | b'F' | b't' | b'T')))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PYTHON: SkimEntry = SkimEntry {
        lexer: "indented",
        filler: "pass",
        headers: &["def"],
        keep: &["def", "class"],
        targets: &["self", "cls"],
    };

    fn skimmed(text: &str) -> Option<String> {
        let out = skim(text, &PYTHON);
        if let Some(out) = &out {
            assert_eq!(out.len(), text.len());
            let lines = |t: &str| t.match_indices('\n').map(|(i, _)| i).collect::<Vec<_>>();
            assert_eq!(lines(out), lines(text), "newlines stay where they are");
        }
        out
    }

    #[test]
    fn a_body_with_nothing_kept_becomes_the_filler_on_its_last_line() {
        let text = "def f(a):\n    \"\"\"Doc.\"\"\"\n    x = a + 1\n    return x\n\ny = 2\n";
        assert_eq!(
            skimmed(text).unwrap(),
            "def f(a):\n              \n             \n    pass    \n\ny = 2\n"
        );
    }

    #[test]
    fn trailing_comments_and_later_code_are_left_as_they_are() {
        let text = "def f():\n    return g(1,\n             2)  # two\n    # after\nz = 1\n";
        assert_eq!(
            skimmed(text).unwrap(),
            "def f():\n               \n    pass         # two\n    # after\nz = 1\n"
        );
    }

    #[test]
    fn bodies_that_hold_definitions_or_assign_members_are_kept() {
        for body in [
            "def g(): pass",
            "class C: pass",
            "self.x = 1",
            "self.x: int",
            "self.x += 1",
            "self.a, self.b = 1, 2",
            "cls.registry = {}",
            "for self.i in range(3): pass",
            "with open(p) as self.f: pass",
            "x = 1; self.y = 2",
            "self.x[0] = 1",
            // Errs on keeping: a `:` after a target that is not the line's last token.
            "if self.x: return",
        ] {
            let text = format!("def f(self):\n    {body}\n");
            assert_eq!(skimmed(&text), None, "{body}");
        }
    }

    #[test]
    fn bodies_that_only_read_members_or_name_words_alike_are_skimmed() {
        for body in [
            "return self.x",
            "y = self.x + 1",
            "self.run(default=1)",
            "if self.x:\n        return",
            "subclass = define(classes)",
            "s = 'def class self.x = 1'",
            "s = f'{self.x!r:>{width}}'",
            "s = f'{d[\"k\"]}' + f'{d['k']}' + f\"{'}'}\"",
            "t = (self.x ==\n         1)",
            "a[self.i == 1] if self.x else None",
        ] {
            let text = format!("def f(self):\n    {body}\n");
            assert!(skimmed(&text).is_some(), "{body}");
        }
    }

    #[test]
    fn nested_functions_are_skimmed_inside_a_kept_body() {
        let text = "def f():\n    def g():\n        return 1\n    return g\n";
        assert_eq!(
            skimmed(text).unwrap(),
            "def f():\n    def g():\n        pass    \n    pass    \n"
        );
    }

    /// In a body that holds something kept, each other statement becomes the filler: its
    /// blocks stay (so do the members they declare and the rules that look one block down),
    /// a class's statements stay whole.
    #[test]
    fn the_other_statements_of_a_kept_body_become_the_filler() {
        let text = "def __init__(self, a):\n    \"\"\"Doc.\"\"\"\n    if a:\n        self.a = a\n        log(a)\n    else:\n        raise ValueError(a)\n    class Local:\n        field = 1\n    return None\n";
        assert_eq!(
            skimmed(text).unwrap(),
            "def __init__(self, a):\n    pass      \n    if a:\n        self.a = a\n        pass  \n    else:\n        pass               \n    class Local:\n        field = 1\n    pass       \n"
        );
    }

    #[test]
    fn async_functions_and_methods_are_skimmed() {
        let text = "class A:\n    async def f(self):\n        await self.g()\n";
        assert_eq!(
            skimmed(text).unwrap(),
            "class A:\n    async def f(self):\n        pass          \n"
        );
    }

    #[test]
    fn a_last_line_too_short_for_the_filler_keeps_its_body() {
        assert_eq!(skimmed("def f():\n    return g(\n        1\n)\n"), None);
    }

    #[test]
    fn texts_the_reader_does_not_follow_skim_nothing() {
        for text in [
            "def f():\n\treturn 1\n",
            "def f():\n    s = 'open\n",
            "def f():\n    return (1]\n",
            "def f():\n    return f'{x'\n",
            "def f():\n    return f'{x # c}'\n",
            "def f():\n    return `x`\n",
            "def f():\n    return 1\r",
            "def f():\n    return (1\n",
        ] {
            assert_eq!(skimmed(text), None, "{text:?}");
        }
    }

    #[test]
    fn crlf_and_continuations_and_multibyte_text_are_followed() {
        let text = "def f():\r\n    x = 'é' + \\\r\n        \"ü\"\r\n    return x\r\n";
        let out = skimmed(text).unwrap();
        assert!(out.ends_with("\r\n    pass    \r\n"), "{out:?}");
        assert_eq!(out.matches("\r\n").count(), 4);
    }
}
