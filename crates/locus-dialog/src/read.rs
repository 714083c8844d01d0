//! Reading transcript files: line logs incrementally, whole files by streaming, and cheap
//! probes for the working directory.
//!
//! **Invariant:** files are only ever opened for reading.
//! **Invariant:** a line log is never held whole in memory: it is read line by line through
//! a buffer, and when a file only grew, only the appended bytes are read.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use crate::line::LineFormat;
use crate::model::{Format, Track, Transcript};
use crate::warning::Warning;

/// How many warnings one file keeps; the rest are counted.
const MAX_WARNINGS: usize = 20;
/// Bytes compared at the start and at the old end of a grown file to make sure it was
/// appended to, not rewritten.
const FINGERPRINT: usize = 4096;

/// A parser for each line-based format.
fn line_format(format: Format) -> Box<dyn LineFormat> {
    match format {
        Format::ClaudeJsonl => Box::new(crate::format::claude::Claude::default()),
        Format::CodexRollout => Box::new(crate::format::codex::Codex::default()),
        Format::GeminiJsonl => Box::new(crate::format::gemini::Gemini::default()),
        Format::CopilotMutationLog => Box::new(crate::format::copilot::MutationLog::default()),
        Format::CopilotTranscript => Box::new(crate::format::copilot::EventStream::default()),
        Format::GeminiJson | Format::CopilotJson => {
            unreachable!("{} is not a line log", format.name())
        }
    }
}

/// A line log read up to `offset`, with the parser's state, so that appended lines can be
/// read on their own.
pub(crate) struct LineLog {
    format: Format,
    parser: Box<dyn LineFormat>,
    pub transcript: Transcript,
    /// Bytes read so far: always the end of a complete line.
    offset: u64,
    /// Lines read so far.
    lines: u64,
    /// The file's first bytes and the bytes just before `offset`, as last read.
    head: Vec<u8>,
    tail: Vec<u8>,
    warnings: Vec<Warning>,
    more_warnings: usize,
    /// A warning about an incomplete last line, replaced on every read.
    pending: Option<Warning>,
}

impl LineLog {
    pub fn new(format: Format) -> LineLog {
        LineLog {
            format,
            parser: line_format(format),
            transcript: Transcript::default(),
            offset: 0,
            lines: 0,
            head: Vec::new(),
            tail: Vec::new(),
            warnings: Vec::new(),
            more_warnings: 0,
            pending: None,
        }
    }

    pub fn track(&self) -> &Track {
        self.parser.track(&self.transcript)
    }

    /// The warnings met so far, the count of those not kept, and the incomplete-line one.
    pub fn warnings(&self) -> impl Iterator<Item = Warning> + '_ {
        let path = self.warnings.first().map(|w| w.path.clone());
        let more = (self.more_warnings > 0).then(|| {
            Warning::new(
                path.as_deref().unwrap_or(Path::new("")),
                None,
                format!("{} more warnings not shown", self.more_warnings),
            )
        });
        self.warnings.iter().cloned().chain(more).chain(self.pending.clone())
    }

    /// Brings the log up to date with a file now `size` bytes long: reads only what was
    /// appended when the file just grew, everything again when it was rewritten.
    pub fn update(&mut self, path: &Path, size: u64) -> io::Result<()> {
        let mut file = File::open(path)?;
        if self.offset > 0 && (size < self.offset || !self.unchanged_prefix(&mut file)?) {
            *self = LineLog::new(self.format);
        }
        self.pending = None;
        if size <= self.offset {
            return Ok(());
        }
        file.seek(SeekFrom::Start(self.offset))?;
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let mut buf = Vec::new();
        let mut notes = Vec::new();
        loop {
            buf.clear();
            let n = reader.read_until(b'\n', &mut buf)?;
            if n == 0 {
                break;
            }
            let complete = buf.last() == Some(&b'\n');
            let line = trim_line(&buf);
            let number = self.lines + 1;
            // A last line without its line break is still being written (or was cut
            // short). Take it only when it already is a whole JSON value.
            if !complete && serde_json::from_slice::<serde::de::IgnoredAny>(line).is_err() {
                self.pending = Some(Warning::new(
                    path,
                    Some(number),
                    "incomplete last line skipped (the file is being written, or was cut short)",
                ));
                break;
            }
            if !line.iter().all(u8::is_ascii_whitespace) {
                notes.clear();
                if let Err(e) = self.parser.line(line, &mut self.transcript, &mut notes) {
                    self.warn(path, number, format!("line skipped: {e}"));
                }
                for note in notes.drain(..) {
                    self.warn(path, number, note);
                }
            }
            self.offset += n as u64;
            self.lines += 1;
        }
        self.parser.finish(&mut self.transcript);
        let mut file = reader.into_inner();
        self.head = read_at(&mut file, 0, self.offset.min(FINGERPRINT as u64) as usize)?;
        let tail_len = self.offset.min(FINGERPRINT as u64);
        self.tail = read_at(&mut file, self.offset - tail_len, tail_len as usize)?;
        Ok(())
    }

    fn warn(&mut self, path: &Path, line: u64, message: String) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(Warning::new(path, Some(line), message));
        } else {
            self.more_warnings += 1;
        }
    }

    /// Whether the bytes read last time are still there: the same first bytes and the same
    /// bytes before the old end.
    fn unchanged_prefix(&self, file: &mut File) -> io::Result<bool> {
        if read_at(file, 0, self.head.len())? != self.head {
            return Ok(false);
        }
        let start = self.offset - self.tail.len() as u64;
        Ok(read_at(file, start, self.tail.len())? == self.tail)
    }
}

fn read_at(file: &mut File, offset: u64, len: usize) -> io::Result<Vec<u8>> {
    file.seek(SeekFrom::Start(offset))?;
    let mut buf = Vec::with_capacity(len);
    file.by_ref().take(len as u64).read_to_end(&mut buf)?;
    Ok(buf)
}

fn trim_line(buf: &[u8]) -> &[u8] {
    let mut end = buf.len();
    while end > 0 && matches!(buf[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    &buf[..end]
}

/// The working directories a Claude Code or Codex transcript names near its start and its
/// end, read without parsing the file: `"cwd": "…"` fields and `<cwd>…</cwd>` tags in the
/// first 8 KiB (up to 64 KiB when those name none) and the last 8 KiB. Enough to tell
/// which workspace a session is about before paying for a full read, at about 16 KiB a
/// file.
pub(crate) fn probe_cwds(path: &Path, size: u64) -> io::Result<Vec<String>> {
    const HEAD: u64 = 8 * 1024;
    const LONG_HEAD: u64 = 64 * 1024;
    const TAIL: u64 = 8 * 1024;
    let mut file = File::open(path)?;
    let mut found = Vec::new();
    let mut head_len = size.min(HEAD);
    scan_cwds(&read_at(&mut file, 0, head_len as usize)?, &mut found);
    if found.is_empty() && size > HEAD {
        head_len = size.min(LONG_HEAD);
        scan_cwds(&read_at(&mut file, 0, head_len as usize)?, &mut found);
    }
    if size > head_len {
        let start = size.saturating_sub(TAIL).max(head_len);
        scan_cwds(&read_at(&mut file, start, (size - start) as usize)?, &mut found);
    }
    Ok(found)
}

fn scan_cwds(bytes: &[u8], found: &mut Vec<String>) {
    let mut add = |s: String| {
        if !s.is_empty() && !found.contains(&s) {
            found.push(s);
        }
    };
    for at in memchr::memmem::find_iter(bytes, b"\"cwd\"") {
        let mut i = at + 5;
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b':') {
            i += 1;
        }
        if let Some(s) = json_string_at(bytes, i) {
            add(s);
        }
    }
    for at in memchr::memmem::find_iter(bytes, b"<cwd>") {
        let start = at + 5;
        if let Some(len) = memchr::memmem::find(&bytes[start..], b"</cwd>") {
            // The tag sits inside a JSON string: unescape its content as one.
            let mut quoted = Vec::with_capacity(len + 2);
            quoted.push(b'"');
            quoted.extend_from_slice(&bytes[start..start + len]);
            quoted.push(b'"');
            if let Ok(s) = serde_json::from_slice::<String>(&quoted) {
                add(s.trim().to_owned());
            }
        }
    }
}

/// The JSON string starting at `bytes[start]` (which must be `"`), decoded.
fn json_string_at(bytes: &[u8], start: usize) -> Option<String> {
    if bytes.get(start) != Some(&b'"') {
        return None;
    }
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return serde_json::from_slice(&bytes[start..=i]).ok(),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cwds_are_found_without_parsing() {
        let text = br#"{"type":"user","cwd":"/home/u/a\"b","x":1}
{"payload":{"cwd" : "/w/\u00e9t\u00e9"}}
{"content":"<environment_context>\n  <cwd>/old/place</cwd>\n</environment_context>"}"#;
        let mut found = Vec::new();
        scan_cwds(text, &mut found);
        assert_eq!(found, vec!["/home/u/a\"b", "/w/été", "/old/place"]);
    }
}
