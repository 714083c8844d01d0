//! The input side of the wire, made safe for tower-lsp.
//!
//! tower-lsp's reader stops for good at the first message it cannot decode (bad JSON, a
//! body that is not a JSON-RPC message, an unknown header), which would end the server.
//! [`sanitize`] sits between stdin and tower-lsp: it frames messages itself, passes valid
//! ones through untouched and replaces each invalid one with a `locus/invalidMessage`
//! notification, which the edge answers with the JSON-RPC error the sender is owed.
//!
//! **Invariant:** one bad frame never deafens the channel. The reader resynchronises on the
//! next header, which it recognises as `Content-Length:` followed by digits and a line break
//! anywhere in the stream: valid JSON cannot hold that (a string cannot hold a raw line
//! break, and the words are not JSON outside one), so it is never found inside a body.
//! - A header that is not `Name: value` lines (junk, the tail of a body longer than
//!   declared): the bytes up to the next header are skipped.
//! - A `Content-Length` that is missing, not a number, negative or over [`MAX_BODY`]: the
//!   body is read as far as its JSON goes (or up to the next header) and skipped; a request
//!   gets an error with its id.
//! - A body shorter or longer than declared: read as its JSON says, up to the next header
//!   (a warning says so); a body that is not JSON gets the parse error it always got.
//!
//! A request sent with a notification's method gets an error with its id (`-32600`): it would
//! otherwise be handled as the notification and never answered.
//!
//! A `textDocument/didOpen` (the whole text of a file, a megabyte or more) is decoded here
//! once: its params wait in [`Ctx`]'s `opened` and tower-lsp gets a small
//! [`OPENED`] notification in its place, in the same position in the stream, so the edge
//! applies it in order without tower-lsp decoding the text a second time (its untagged
//! message type buffers the body and tries a response first: 3–5 ms on the 30k-line file).

use std::sync::Arc;

use serde::de::IgnoredAny;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tower_lsp_server::jsonrpc::{Request, Response};

use super::Ctx;
use super::wire::{self, DidOpen};

/// The method of the stand-in for an invalid message.
pub const INVALID_MESSAGE: &str = "locus/invalidMessage";

/// The method of the stand-in for a `didOpen` decoded here; its params are `{"key": n}`, the
/// key of the decoded params in [`Ctx::opened`].
pub const OPENED: &str = "locus/internal/didOpen";

/// A `Content-Length` above this is refused (the body is skipped as if it had none).
const MAX_BODY: usize = 1 << 30;

/// A header block longer than this is junk.
const MAX_HEADER: usize = 8 << 10;

/// A body whose length is unknown is parsed as JSON, to find where it ends, up to this size;
/// past it, the reader skips to the next header.
const MAX_SEARCH: usize = 64 << 20;

/// How much is read at once.
const READ_CHUNK: usize = 1 << 16;

/// The client-to-server notifications of LSP 3.17 and Locus: sent as a request (with an id),
/// each is answered with an error instead of being handled in silence.
const NOTIFICATIONS: &[&str] = &[
    "initialized",
    "exit",
    "$/cancelRequest",
    "$/setTrace",
    "$/progress",
    "textDocument/didOpen",
    "textDocument/didChange",
    "textDocument/didClose",
    "textDocument/didSave",
    "textDocument/willSave",
    "notebookDocument/didOpen",
    "notebookDocument/didChange",
    "notebookDocument/didSave",
    "notebookDocument/didClose",
    "workspace/didChangeConfiguration",
    "workspace/didChangeWorkspaceFolders",
    "workspace/didChangeWatchedFiles",
    "workspace/didCreateFiles",
    "workspace/didRenameFiles",
    "workspace/didDeleteFiles",
    "window/workDoneProgress/cancel",
    "locus/didChangeCursor",
    "locus/didChangeActiveEditor",
    "locus/didChangeSymbols",
];

/// Copies framed messages from `input` to `output` until `input` ends, replacing invalid
/// ones (see the module docs). Dropping `output` at the end tells the server the input ended.
pub async fn sanitize<I, O>(input: I, mut output: O, ctx: Arc<Ctx>)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let mut frames = Frames::new(input);
    loop {
        let frame = frames.next().await;
        for note in frames.notes.drain(..) {
            ctx.log.warn(format_args!("{note}"));
        }
        let body = match frame {
            None => return,
            Some(Frame::Message(body)) => match check(&body) {
                Ok(Checked::Pass) => body,
                Ok(Checked::Dropped(why)) => {
                    ctx.log.warn(format_args!("ignored a notification ({why})"));
                    continue;
                }
                Ok(Checked::Opened(opened)) => {
                    let key = ctx.stash_opened(opened);
                    json!({"jsonrpc": "2.0", "method": OPENED, "params": {"key": key}})
                        .to_string()
                        .into_bytes()
                }
                Err((id, code, why)) => {
                    ctx.log.warn(format_args!("invalid message ({why}): {}", preview(&body)));
                    invalid(id, code, &why)
                }
            },
            Some(Frame::Broken { why, body }) => {
                let id = body.as_deref().and_then(id_of);
                let shown = body.as_deref().map(preview).unwrap_or_default();
                ctx.log.warn(format_args!("skipped a message: {why} {shown}"));
                match id {
                    Some(id) => invalid(id, -32600, &why),
                    None => continue,
                }
            }
        };
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        if output.write_all(header.as_bytes()).await.is_err()
            || output.write_all(&body).await.is_err()
        {
            return;
        }
        if output.flush().await.is_err() {
            return;
        }
    }
}

/// The stand-in message for an invalid one.
fn invalid(id: Value, code: i64, why: &str) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "method": INVALID_MESSAGE, "params": {"id": id, "code": code, "message": why}})
        .to_string()
        .into_bytes()
}

/// The id of a JSON-RPC request in `body`, if it has one.
fn id_of(body: &[u8]) -> Option<Value> {
    let v: Value = serde_json::from_slice(body).ok()?;
    match v.get("id")? {
        id @ (Value::Number(_) | Value::String(_)) => Some(id.clone()),
        _ => None,
    }
}

/// What the reader found.
#[derive(Debug, PartialEq)]
enum Frame {
    /// A body to pass on (checked by [`check`]).
    Message(Vec<u8>),
    /// A message whose header was unusable, skipped; its body when its JSON was whole.
    Broken { why: String, body: Option<Vec<u8>> },
}

/// How far a body of unknown length goes.
enum Extent {
    /// One whole JSON value of this many bytes.
    Value(usize),
    /// The next header begins here, before any whole value.
    Cut(usize),
    /// What follows is not JSON, and no header is in sight.
    NotJson,
}

/// A header block's parse.
enum Header {
    /// Not enough bytes yet.
    Need,
    /// Not a header block.
    Junk,
    /// A header block of this many bytes, and what its `Content-Length` says.
    Block(usize, Result<usize, String>),
}

/// Where the next header is.
enum Marker {
    Found(usize),
    /// A header may begin here: more bytes will tell.
    Maybe(usize),
    None,
}

/// The framing reader (see the module docs).
struct Frames<R> {
    input: R,
    buf: Vec<u8>,
    /// Bytes of `buf` already consumed.
    pos: usize,
    /// Warnings for the log.
    notes: Vec<String>,
}

impl<R: AsyncRead + Unpin> Frames<R> {
    fn new(input: R) -> Frames<R> {
        Frames { input, buf: Vec::new(), pos: 0, notes: Vec::new() }
    }

    fn data(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    fn take(&mut self, n: usize) -> Vec<u8> {
        let taken = self.data()[..n].to_vec();
        self.pos += n;
        taken
    }

    /// Reads more; false at the end of the input.
    async fn fill(&mut self) -> bool {
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        self.buf.reserve(READ_CHUNK);
        matches!(self.input.read_buf(&mut self.buf).await, Ok(n) if n > 0)
    }

    /// The next frame; `None` at the end of the input.
    async fn next(&mut self) -> Option<Frame> {
        loop {
            // Line breaks and spaces between messages.
            loop {
                let blank = self.data().iter().take_while(|b| b.is_ascii_whitespace()).count();
                self.pos += blank;
                if !self.data().is_empty() {
                    break;
                }
                if !self.fill().await {
                    return None;
                }
            }
            let header = loop {
                match parse_header(self.data()) {
                    Header::Need => {
                        if !self.fill().await {
                            return None;
                        }
                    }
                    other => break other,
                }
            };
            match header {
                Header::Need => unreachable!("waited for above"),
                Header::Junk => {
                    let skipped = self.resync(1).await?;
                    self.notes.push(format!(
                        "skipped {skipped} bytes that were not a message header, up to the next one"
                    ));
                }
                Header::Block(size, Ok(length)) => {
                    self.pos += size;
                    return self.body(length).await;
                }
                Header::Block(size, Err(why)) => {
                    self.pos += size;
                    return Some(match self.extent().await? {
                        Extent::Value(k) => Frame::Broken { why, body: Some(self.take(k)) },
                        Extent::Cut(m) => {
                            self.pos += m;
                            Frame::Broken { why, body: None }
                        }
                        Extent::NotJson => {
                            let skipped = self.resync(0).await?;
                            Frame::Broken {
                                why: format!("{why}; skipped {skipped} bytes to the next header"),
                                body: None,
                            }
                        }
                    });
                }
            }
        }
    }

    /// The body of a message declared `length` bytes long.
    async fn body(&mut self, length: usize) -> Option<Frame> {
        let mut scanned = 0;
        loop {
            if self.data().len() >= length {
                if is_json(&self.data()[..length]) {
                    return Some(Frame::Message(self.take(length)));
                }
                break;
            }
            // The next header before the declared end: this body was shorter.
            if let Marker::Found(_) = find_marker(self.data(), scanned) {
                break;
            }
            scanned = self.data().len().saturating_sub(MARKER_SPAN);
            if !self.fill().await {
                return None;
            }
        }
        Some(match self.extent().await? {
            Extent::Value(k) => {
                self.notes.push(format!(
                    "a message declared {length} bytes but its JSON had {k}: read as its JSON says"
                ));
                Frame::Message(self.take(k))
            }
            Extent::Cut(m) => {
                self.notes.push(format!(
                    "a message declared {length} bytes but the next header came after {m}"
                ));
                Frame::Message(self.take(m))
            }
            // Not JSON at all: as declared (the parse error is the sender's answer).
            Extent::NotJson => Frame::Message(self.take(length.min(self.data().len()))),
        })
    }

    /// Finds how far the body at the start of the data goes: one whole JSON value, or up to
    /// the next header, whichever ends first.
    async fn extent(&mut self) -> Option<Extent> {
        let mut scanned = 0;
        let mut parsed_at = 0;
        loop {
            let data = self.data();
            let marker = match find_marker(data, scanned) {
                Marker::Found(m) => Some(m),
                _ => None,
            };
            let region = &data[..marker.unwrap_or(data.len())];
            // Parsing again only when the data doubled, or seems to end a value, keeps
            // the work linear in the body's size.
            let ends_value =
                region.trim_ascii_end().last().is_some_and(|b| matches!(b, b'}' | b']'));
            if marker.is_some() || ends_value || region.len() >= 2 * parsed_at.max(1) {
                parsed_at = region.len();
                match first_value(region) {
                    Parsed::Value(k) => return Some(Extent::Value(k)),
                    Parsed::NotJson => {
                        return Some(marker.map_or(Extent::NotJson, Extent::Cut));
                    }
                    Parsed::Incomplete => {}
                }
            }
            if let Some(m) = marker {
                return Some(Extent::Cut(m));
            }
            if data.len() > MAX_SEARCH {
                return Some(Extent::NotJson);
            }
            scanned = data.len().saturating_sub(MARKER_SPAN);
            if !self.fill().await {
                return None;
            }
        }
    }

    /// Skips to the next header, looking from byte `from` on; returns how many bytes were
    /// skipped.
    async fn resync(&mut self, from: usize) -> Option<usize> {
        let mut skipped = 0;
        loop {
            let start = if skipped == 0 { from } else { 0 };
            match find_marker(self.data(), start) {
                Marker::Found(m) => {
                    self.pos += m;
                    return Some(skipped + m);
                }
                Marker::Maybe(m) => {
                    self.pos += m;
                    skipped += m;
                }
                Marker::None => {
                    let drop = self.data().len().saturating_sub(MARKER_SPAN).max(start);
                    let drop = drop.min(self.data().len());
                    self.pos += drop;
                    skipped += drop;
                }
            }
            if !self.fill().await {
                return None;
            }
        }
    }
}

/// The longest marker [`find_marker`] recognises: `content-length:`, spaces, 20 digits,
/// spaces, a line break.
const MARKER_SPAN: usize = 64;

const MARKER: &[u8] = b"content-length:";

/// The first header at or after `from`: `Content-Length:` (any case), optional spaces,
/// digits, optional spaces, and `\n` or `\r\n`.
fn find_marker(data: &[u8], from: usize) -> Marker {
    let mut i = from;
    while i < data.len() {
        let Some(at) = data[i..].iter().position(|b| b.eq_ignore_ascii_case(&b'c')) else {
            return Marker::None;
        };
        let at = i + at;
        match marker_at(&data[at..]) {
            Some(true) => return Marker::Found(at),
            None => return Marker::Maybe(at),
            Some(false) => i = at + 1,
        }
    }
    Marker::None
}

/// Whether `data` begins with a marker: `None` when it ends too soon to tell.
fn marker_at(data: &[u8]) -> Option<bool> {
    let head = &data[..data.len().min(MARKER.len())];
    if !head.eq_ignore_ascii_case(&MARKER[..head.len()]) {
        return Some(false);
    }
    if head.len() < MARKER.len() {
        return None;
    }
    let mut rest = data[MARKER.len()..].iter();
    let mut digits = 0;
    let mut seen_space_after = false;
    loop {
        let &b = rest.next()?;
        match b {
            b' ' | b'\t' if digits == 0 => {}
            b' ' | b'\t' => seen_space_after = true,
            b'0'..=b'9' if !seen_space_after && digits < 20 => digits += 1,
            b'\r' if digits > 0 => return rest.next().map(|&b| b == b'\n'),
            b'\n' => return Some(digits > 0),
            _ => return Some(false),
        }
    }
}

/// Parses a header block at the start of `data`.
fn parse_header(data: &[u8]) -> Header {
    let mut at = 0;
    let mut length = None;
    loop {
        let Some(nl) = data[at..].iter().position(|b| *b == b'\n') else {
            return if data.len() > MAX_HEADER { Header::Junk } else { Header::Need };
        };
        let line = &data[at..at + nl];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        at += nl + 1;
        if at > MAX_HEADER {
            return Header::Junk;
        }
        if line.is_empty() {
            break;
        }
        let Some(colon) = line.iter().position(|b| *b == b':') else { return Header::Junk };
        let (name, value) = (&line[..colon], &line[colon + 1..]);
        if name.is_empty() || !name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-') {
            return Header::Junk;
        }
        if contains_ignore_case(&line[1..], MARKER) {
            // Junk glued to the next message's header (`xyzContent-Length: 5`,
            // `Content-Length: 1Content-Length: 5`).
            return Header::Junk;
        }
        if name.eq_ignore_ascii_case(b"content-length") {
            let value = String::from_utf8_lossy(value).trim().to_string();
            length = Some(match value.parse::<u64>() {
                Ok(n) if n <= MAX_BODY as u64 => Ok(n as usize),
                Ok(n) => Err(format!("Content-Length {n} is over the limit of {MAX_BODY} bytes")),
                Err(_) => Err(format!("invalid Content-Length `{value}`")),
            });
        }
    }
    Header::Block(at, length.unwrap_or_else(|| Err("no Content-Length header".into())))
}

fn contains_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle))
}

/// Whether `body` is one JSON value (and nothing else but whitespace).
fn is_json(body: &[u8]) -> bool {
    serde_json::from_slice::<IgnoredAny>(body).is_ok()
}

enum Parsed {
    /// A whole value of this many bytes (from the start of the data).
    Value(usize),
    Incomplete,
    NotJson,
}

/// The first JSON object or array at the start of `data` (after whitespace).
fn first_value(data: &[u8]) -> Parsed {
    match data.iter().find(|b| !b.is_ascii_whitespace()) {
        None => return Parsed::Incomplete,
        Some(b'{' | b'[') => {}
        Some(_) => return Parsed::NotJson,
    }
    let mut values = serde_json::Deserializer::from_slice(data).into_iter::<IgnoredAny>();
    match values.next() {
        Some(Ok(_)) => Parsed::Value(values.byte_offset()),
        Some(Err(e)) if e.is_eof() => Parsed::Incomplete,
        Some(Err(_)) => Parsed::NotJson,
        None => Parsed::Incomplete,
    }
}

/// Whether tower-lsp can decode `body`, and may handle it (with the params of a `didOpen`
/// notification, decoded); if not, the id to answer, the JSON-RPC error code and why.
/// What [`check`] makes of a message that can be decoded.
#[derive(Debug)]
enum Checked {
    /// It goes to tower-lsp as it came.
    Pass,
    /// A `didOpen`, decoded: [`OPENED`] goes in its place.
    Opened(DidOpen),
    /// A notification no client may send (the method of one of the transport's own
    /// stand-ins): left out, and logged with the reason.
    Dropped(String),
}

/// Whether `method` is one of the transport's own stand-ins, which the edge trusts: a
/// client sending one could take another message's decoded `didOpen` out of turn, or have
/// an error sent for any id.
fn reserved(method: &str) -> bool {
    method == INVALID_MESSAGE || method.starts_with("locus/internal/")
}

fn check(body: &[u8]) -> Result<Checked, (Value, i64, String)> {
    let Ok(text) = std::str::from_utf8(body) else {
        return Err((Value::Null, -32700, "the body is not UTF-8".into()));
    };
    // tower-lsp decodes a response if it can, else a request: a request is accepted either
    // way, and a notification sent with an id is refused unless it is a response too. Nearly
    // every message is a request or a notification, so it is decoded once here (trying a
    // response first decoded a `didOpen`'s whole text twice).
    let is_response = || serde_json::from_str::<Response>(text).is_ok();
    if let Ok(request) = serde_json::from_str::<Request>(text) {
        if reserved(request.method()) && !is_response() {
            let why = format!("`{}` is Locus's own; a client may not send it", request.method());
            return match request.id() {
                Some(id) => Err((serde_json::to_value(id).unwrap_or(Value::Null), -32601, why)),
                None => Ok(Checked::Dropped(why)),
            };
        }
        if let Some(id) = request.id()
            && NOTIFICATIONS.contains(&request.method())
            && !is_response()
        {
            let id = serde_json::to_value(id).unwrap_or(Value::Null);
            let why = format!("`{}` is a notification: it is sent without an id", request.method());
            return Err((id, -32600, why));
        }
        if request.id().is_none() && request.method() == "textDocument/didOpen" {
            // Malformed params go through as they came: the edge says what is wrong.
            let (_, _, params) = request.into_parts();
            return Ok(wire::parse::<DidOpen>(params).map_or(Checked::Pass, Checked::Opened));
        }
        return Ok(Checked::Pass);
    }
    if is_response() {
        return Ok(Checked::Pass);
    }
    match serde_json::from_str::<Value>(text) {
        Err(e) => Err((Value::Null, -32700, format!("not JSON: {e}"))),
        Ok(v) => {
            let id = match v.get("id") {
                Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
                _ => Value::Null,
            };
            Err((id, -32600, "not a JSON-RPC 2.0 request, notification or response".into()))
        }
    }
}

fn preview(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(120)]).into_owned();
    if body.len() > 120 { format!("{text}…") } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_decodable_messages_pass() {
        assert!(check(br#"{"jsonrpc":"2.0","id":1,"method":"x","params":{}}"#).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","method":"x"}"#).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","id":1,"result":null}"#).is_ok());
        assert_eq!(check(b"not json").unwrap_err().1, -32700);
        assert_eq!(check(&[0xff, 0xfe]).unwrap_err().1, -32700);
        let (id, code, _) = check(br#"{"jsonrpc":"2.0","id":7,"method":3}"#).unwrap_err();
        assert_eq!((id, code), (json!(7), -32600));
        assert_eq!(check(br#"{"foo":1}"#).unwrap_err().1, -32600);
        let (id, code, why) =
            check(br#"{"jsonrpc":"2.0","id":"a","method":"textDocument/didOpen"}"#).unwrap_err();
        assert_eq!((id, code), (json!("a"), -32600));
        assert!(why.contains("didOpen"), "{why}");
        assert!(check(br#"{"jsonrpc":"2.0","method":"textDocument/didOpen"}"#).is_ok());
        // A response that also names a notification is a response to tower-lsp.
        assert!(
            check(br#"{"jsonrpc":"2.0","id":1,"method":"textDocument/didOpen","result":null}"#)
                .is_ok()
        );
    }

    #[test]
    fn a_did_open_is_decoded_once_here() {
        let body = br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.ts","languageId":"typescript","version":3,"text":"let a = \"x\";\n"}}}"#;
        let Ok(Checked::Opened(d)) = check(body) else { panic!("not decoded") };
        let d = d.text_document;
        assert_eq!(
            (d.uri.as_str(), d.language_id.as_str(), d.version),
            ("file:///a.ts", "typescript", 3)
        );
        assert_eq!(d.text, "let a = \"x\";\n");
        // Malformed params pass as they came, for the edge to report.
        let body =
            br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{}}}"#;
        assert!(matches!(check(body), Ok(Checked::Pass)));
        // Other notifications and requests are not decoded beyond the check.
        assert!(matches!(
            check(br#"{"jsonrpc":"2.0","method":"textDocument/didClose","params":{}}"#),
            Ok(Checked::Pass)
        ));
    }

    #[test]
    fn a_client_cannot_send_the_transports_own_stand_ins() {
        // As a notification: left out (it would take a decoded `didOpen` out of turn).
        let body = br#"{"jsonrpc":"2.0","method":"locus/internal/didOpen","params":{"key":0}}"#;
        let Ok(Checked::Dropped(why)) = check(body) else { panic!("passed") };
        assert!(why.contains("locus/internal/didOpen"), "{why}");
        let body = br#"{"jsonrpc":"2.0","method":"locus/invalidMessage","params":{"id":5}}"#;
        assert!(matches!(check(body), Ok(Checked::Dropped(_))));
        // As a request: refused with its id.
        let body = br#"{"jsonrpc":"2.0","id":4,"method":"locus/internal/didOpen","params":{}}"#;
        let (id, code, _) = check(body).unwrap_err();
        assert_eq!((id, code), (json!(4), -32601));
        // The same names elsewhere in a message are nothing special.
        let body = br#"{"jsonrpc":"2.0","method":"locus/didChangeCursor","params":{"m":"locus/internal/didOpen"}}"#;
        assert!(matches!(check(body), Ok(Checked::Pass)));
    }

    #[test]
    fn markers() {
        let found = |d: &[u8]| matches!(find_marker(d, 0), Marker::Found(_));
        assert!(found(b"Content-Length: 12\r\n"));
        assert!(found(b"xx}content-LENGTH:12\n"));
        assert!(found(b"Content-Length:  7  \r\n"));
        assert!(!found(b"Content-Length: x\r\n"));
        assert!(!found(b"Content-Length: \r\n"));
        assert!(!found(br#"{"Content-Length: 12": 1}"#), "inside a JSON string, no line break");
        assert!(!found(b"{\"Content-Length:\": 12\n}"), "a pretty-printed key");
        assert!(matches!(find_marker(b"abc Content-Len", 0), Marker::Maybe(4)));
        assert!(matches!(find_marker(b"Content-Length: 12", 0), Marker::Maybe(0)));
        assert!(matches!(find_marker(b"Content-Length: 12\r", 0), Marker::Maybe(0)));
    }

    /// Frames `input` whole, as the reader does.
    fn frames(input: &[u8]) -> Vec<Frame> {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let mut frames = Frames::new(input);
            let mut out = Vec::new();
            while let Some(f) = frames.next().await {
                out.push(f);
            }
            out
        })
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const REQ: &str = r#"{"jsonrpc":"2.0","id":9,"method":"locus/getContext"}"#;

    fn message(body: &str) -> Frame {
        Frame::Message(body.as_bytes().to_vec())
    }

    #[test]
    fn resynchronises_after_each_kind_of_bad_frame() {
        let ok = message(REQ);
        let broken = |why: &str, body: Option<&str>| Frame::Broken {
            why: why.into(),
            body: body.map(|b| b.as_bytes().to_vec()),
        };
        let n = REQ.len();
        let cases: Vec<(String, Vec<Frame>)> = vec![
            (
                format!("Content-Length: abc\r\n\r\n{REQ}{}", frame(REQ)),
                vec![broken("invalid Content-Length `abc`", Some(REQ)), message(REQ)],
            ),
            (
                format!("Content-Length: -5\r\n\r\n{REQ}{}", frame(REQ)),
                vec![broken("invalid Content-Length `-5`", Some(REQ)), message(REQ)],
            ),
            (
                format!("Content-Type: x\r\n\r\n{REQ}{}", frame(REQ)),
                vec![broken("no Content-Length header", Some(REQ)), message(REQ)],
            ),
            (
                format!("Content-Length: 1000000000000\r\n\r\n{REQ}{}", frame(REQ)),
                vec![
                    broken(
                        "Content-Length 1000000000000 is over the limit of 1073741824 bytes",
                        Some(REQ),
                    ),
                    message(REQ),
                ],
            ),
            // Declared longer than the body: the next header ends it.
            (
                format!("Content-Length: {}\r\n\r\n{REQ}{}", n + 30, frame(REQ)),
                vec![message(REQ), message(REQ)],
            ),
            (
                format!("Content-Length: {}\r\n\r\n{REQ}{}", n + 5000, frame(REQ)),
                vec![message(REQ), message(REQ)],
            ),
            // Declared shorter than the body: read as the JSON says.
            (
                format!("Content-Length: {}\r\n\r\n{REQ}{}", n - 10, frame(REQ)),
                vec![message(REQ), message(REQ)],
            ),
            // A body cut short, and junk.
            (
                format!("Content-Length: 10\r\n\r\n{{\"jsonrpc\"{}", frame(REQ)),
                vec![message("{\"jsonrpc\""), message(REQ)],
            ),
            (format!("garbage\x00\x01}}{{{}", frame(REQ)), vec![message(REQ)]),
            (format!("Foo: barContent-Length: 3\r\n{}", frame(REQ)), vec![message(REQ)]),
            (format!("Content-Length: 1{}", frame(REQ)), vec![message(REQ)]),
            (
                format!("Content-Length: abc\r\n\r\nnot json at all {}", frame(REQ)),
                vec![broken("invalid Content-Length `abc`", None), message(REQ)],
            ),
            (
                format!("Content-Length: 9\r\n\r\nnot json!{}", frame(REQ)),
                vec![message("not json!"), message(REQ)],
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(frames(input.as_bytes()), expected, "{input:?}");
        }
        assert_eq!(frames(frame(REQ).as_bytes()), vec![ok]);
    }
}
