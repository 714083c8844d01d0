//! The program's output, kept per stream (stdout, stderr, and the adapter's console) with
//! cursors, so each reader gets only what is new since its last read.
//!
//! **Invariants.** A cursor is an absolute byte offset into each stream, so it stays valid
//! when old output is dropped; each stream keeps at most its cap (the oldest text goes first,
//! at a character boundary) and a read from before what is kept says `truncated`. Telemetry is
//! not output and is dropped.

/// Where a reader is in each stream.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutputCursor {
    /// Bytes of stdout already read.
    pub stdout: usize,
    /// Bytes of stderr already read.
    pub stderr: usize,
    /// Bytes of console output already read.
    pub console: usize,
}

/// What was new since a cursor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutputRead {
    /// The program's stdout.
    pub stdout: String,
    /// The program's stderr (adapters that run programs on a pty send it as stdout).
    pub stderr: String,
    /// The adapter's own messages (`console` and `important`, and unknown categories).
    pub console: String,
    /// Whether some of what was new had already been dropped for space.
    pub truncated: bool,
    /// The cursor to read from next time.
    pub cursor: OutputCursor,
}

#[derive(Debug, Default)]
struct Stream {
    text: String,
    /// Bytes dropped from the front.
    dropped: usize,
}

impl Stream {
    fn push(&mut self, text: &str, cap: usize) {
        self.text.push_str(text);
        if self.text.len() > cap {
            let mut cut = self.text.len() - cap;
            while !self.text.is_char_boundary(cut) {
                cut += 1;
            }
            self.text.drain(..cut);
            self.dropped += cut;
        }
    }

    fn end(&self) -> usize {
        self.dropped + self.text.len()
    }

    /// What follows `from`, and whether some of it was dropped.
    fn since(&self, from: usize) -> (String, bool) {
        let start = from.saturating_sub(self.dropped).min(self.text.len());
        let mut start = start;
        while !self.text.is_char_boundary(start) {
            start += 1;
        }
        (self.text[start..].to_string(), from < self.dropped)
    }
}

#[derive(Debug)]
pub(crate) struct Output {
    stdout: Stream,
    stderr: Stream,
    console: Stream,
    cap: usize,
    /// The session's own reader.
    pub cursor: OutputCursor,
}

impl Output {
    pub fn new(cap: usize) -> Output {
        Output {
            stdout: Stream::default(),
            stderr: Stream::default(),
            console: Stream::default(),
            cap,
            cursor: OutputCursor::default(),
        }
    }

    pub fn push(&mut self, category: Option<&str>, text: &str) {
        let stream = match category {
            Some("telemetry") => return,
            Some("stdout") => &mut self.stdout,
            Some("stderr") => &mut self.stderr,
            _ => &mut self.console,
        };
        stream.push(text, self.cap);
    }

    pub fn since(&self, cursor: OutputCursor) -> OutputRead {
        let (stdout, a) = self.stdout.since(cursor.stdout);
        let (stderr, b) = self.stderr.since(cursor.stderr);
        let (console, c) = self.console.since(cursor.console);
        OutputRead {
            stdout,
            stderr,
            console,
            truncated: a || b || c,
            cursor: OutputCursor {
                stdout: self.stdout.end(),
                stderr: self.stderr.end(),
                console: self.console.end(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readers_get_only_what_is_new_per_stream() {
        let mut o = Output::new(1024);
        o.push(Some("stdout"), "iter 0");
        o.push(Some("telemetry"), "{...}");
        o.push(Some("stderr"), "warn\n");
        let first = o.since(OutputCursor::default());
        assert_eq!((first.stdout.as_str(), first.stderr.as_str()), ("iter 0", "warn\n"));
        o.push(Some("stdout"), "\niter 1\n");
        o.push(None, "Process exited\n");
        let second = o.since(first.cursor);
        assert_eq!(second.stdout, "\niter 1\n");
        assert_eq!(second.stderr, "");
        assert_eq!(second.console, "Process exited\n");
        assert_eq!(
            o.since(second.cursor),
            OutputRead { cursor: second.cursor, ..Default::default() }
        );
    }

    #[test]
    fn old_output_is_dropped_at_character_boundaries() {
        let mut o = Output::new(4);
        o.push(Some("stdout"), "ab✓cd");
        let read = o.since(OutputCursor::default());
        assert!(read.truncated);
        assert_eq!(read.stdout, "cd");
        assert_eq!(read.cursor.stdout, "ab✓cd".len());
    }
}
