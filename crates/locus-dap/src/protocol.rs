//! DAP's base protocol: the `Content-Length` framing and the loose message envelope.
//!
//! **Invariants.**
//! - Lengths are bytes, never characters. The decoder takes bytes in whatever chunks they
//!   arrive, keeps what is incomplete, and gives back whole messages in order.
//! - It resynchronises instead of failing: bytes before a header (an adapter's stray print),
//!   a header without a valid `Content-Length` and a body that is not JSON are skipped, and
//!   decoding goes on at the next header.
//! - The envelope is loose: bodies and arguments stay `serde_json::Value`, unknown fields and
//!   a missing or zero `seq` are accepted (Delve and lldb-dap send `seq: 0`); only `type` and
//!   the fields that route a message are required. Typed views live in `types.rs`.

use serde_json::{Value, json};

/// One message from the adapter.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A reverse request (`runInTerminal`, `startDebugging`).
    Request(Request),
    /// The answer to one of our requests.
    Response(Response),
    /// An event.
    Event(Event),
}

/// A request, ours or the adapter's.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The sender's sequence number (the adapter's may be 0).
    pub seq: i64,
    /// The command (`"launch"`).
    pub command: String,
    /// The arguments, `Null` when absent.
    pub arguments: Value,
}

/// A response.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The `seq` of the request it answers.
    pub request_seq: i64,
    /// Whether the request succeeded.
    pub success: bool,
    /// The request's command.
    pub command: String,
    /// The short error text of a failure (`"cancelled"`, or the adapter's words).
    pub message: Option<String>,
    /// The body, `Null` when absent.
    pub body: Value,
}

impl Response {
    /// The best human text of a failed response: `body.error.format` with its `{variables}`
    /// filled in when the adapter gives one, else `message`.
    pub fn error_text(&self) -> String {
        let error = &self.body["error"];
        if let Some(format) = error["format"].as_str() {
            let mut text = format.to_string();
            if let Some(vars) = error["variables"].as_object() {
                for (k, v) in vars {
                    let v = v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string());
                    text = text.replace(&format!("{{{k}}}"), &v);
                }
            }
            return text;
        }
        self.message.clone().unwrap_or_else(|| "no reason given".into())
    }
}

/// An event.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// The event's name (`"stopped"`).
    pub event: String,
    /// The body, `Null` when absent.
    pub body: Value,
}

impl Message {
    /// Reads a message from its JSON value; `Err` names what is missing.
    pub fn from_value(mut value: Value) -> Result<Message, String> {
        let seq = value["seq"].as_i64().unwrap_or(0);
        let string = |v: &Value, field: &str| -> Result<String, String> {
            v[field]
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("a message without `{field}`"))
        };
        match value["type"].as_str() {
            Some("request") => Ok(Message::Request(Request {
                seq,
                command: string(&value, "command")?,
                arguments: value["arguments"].take(),
            })),
            Some("response") => Ok(Message::Response(Response {
                request_seq: value["request_seq"]
                    .as_i64()
                    .ok_or("a response without `request_seq`")?,
                success: value["success"].as_bool().unwrap_or(false),
                command: value["command"].as_str().unwrap_or_default().to_string(),
                message: value["message"].as_str().map(str::to_string),
                body: value["body"].take(),
            })),
            Some("event") => Ok(Message::Event(Event {
                event: string(&value, "event")?,
                body: value["body"].take(),
            })),
            Some(other) => Err(format!("a message of unknown type {other:?}")),
            None => Err("a message without `type`".into()),
        }
    }
}

/// The JSON of a request we send.
pub fn request_value(seq: i64, command: &str, arguments: &Value) -> Value {
    let mut v = json!({"seq": seq, "type": "request", "command": command});
    if !arguments.is_null() {
        v["arguments"] = arguments.clone();
    }
    v
}

/// The JSON of our response to a reverse request.
pub fn response_value(
    seq: i64,
    request_seq: i64,
    command: &str,
    result: Result<Value, String>,
) -> Value {
    let mut v =
        json!({"seq": seq, "type": "response", "request_seq": request_seq, "command": command});
    match result {
        Ok(body) => {
            v["success"] = true.into();
            if !body.is_null() {
                v["body"] = body;
            }
        }
        Err(message) => {
            v["success"] = false.into();
            v["message"] = message.into();
        }
    }
    v
}

/// One framed message: the header, then the JSON, its length counted in bytes.
pub fn encode(message: &Value) -> Vec<u8> {
    let body = serde_json::to_vec(message).expect("a JSON value always serializes");
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(&body);
    out
}

const HEADER: &[u8] = b"content-length:";
/// A header block longer than this without its blank line is junk.
const MAX_HEADER: usize = 1024;

/// What the decoder gives back.
#[derive(Debug, PartialEq)]
pub enum Decoded {
    /// A whole message's JSON.
    Message(Value),
    /// Bytes that were skipped to resynchronise, and why.
    Skipped(String),
}

/// Turns a byte stream into messages. Feed it chunks with [`Decoder::push`], then take
/// what is complete with [`Decoder::next`] until it answers `None`.
#[derive(Debug, Default)]
pub struct Decoder {
    buf: Vec<u8>,
}

impl Decoder {
    /// Appends bytes as they arrived.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next complete message or skipped stretch, or `None` until more bytes arrive.
    pub fn next(&mut self) -> Option<Decoded> {
        let Some(start) = find_ci(&self.buf, HEADER).map(|at| header_start(&self.buf, at)) else {
            // Keep what could be the start of a header; drop the rest as junk.
            let keep = self.buf.len().min(HEADER.len() - 1);
            let junk = self.buf.len() - keep;
            if junk > 0 && !self.buf[..junk].iter().all(u8::is_ascii_whitespace) {
                let skipped = lossy(&self.buf[..junk]);
                self.buf.drain(..junk);
                return Some(Decoded::Skipped(format!("bytes before a header: {skipped}")));
            }
            self.buf.drain(..junk);
            return None;
        };
        if start > 0 {
            let junk = self.buf.drain(..start).collect::<Vec<u8>>();
            if !junk.iter().all(u8::is_ascii_whitespace) {
                return Some(Decoded::Skipped(format!("bytes before a header: {}", lossy(&junk))));
            }
        }
        let Some(end) = find(&self.buf, b"\r\n\r\n") else {
            if self.buf.len() > MAX_HEADER {
                self.buf.drain(..HEADER.len());
                return Some(Decoded::Skipped("a header without its blank line".into()));
            }
            return None;
        };
        let header = String::from_utf8_lossy(&self.buf[..end]).into_owned();
        let length = header.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.trim()
                .eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse::<usize>().ok())?
        });
        let Some(length) = length else {
            self.buf.drain(..end + 4);
            return Some(Decoded::Skipped(format!("a header without a valid length: {header:?}")));
        };
        let body_start = end + 4;
        if self.buf.len() < body_start + length {
            return None;
        }
        let body: Vec<u8> = self.buf.drain(..body_start + length).skip(body_start).collect();
        Some(match serde_json::from_slice(&body) {
            Ok(value) => Decoded::Message(value),
            Err(e) => Decoded::Skipped(format!("a body that is not JSON ({e}): {}", lossy(&body))),
        })
    }
}

/// The start of the header block whose `Content-Length` is at `at`: whole `Name: value`
/// lines just before it belong to it.
fn header_start(buf: &[u8], at: usize) -> usize {
    let mut head = at;
    while head >= 2 && &buf[head - 2..head] == b"\r\n" {
        let line_start =
            buf[..head - 2].windows(2).rposition(|w| w == b"\r\n").map_or(0, |p| p + 2);
        let line = &buf[line_start..head - 2];
        let is_header = line.iter().position(|&b| b == b':').is_some_and(|colon| {
            colon > 0 && line[..colon].iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        });
        if !is_header {
            break;
        }
        head = line_start;
    }
    head
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn find_ci(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

fn lossy(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut cut: String = text.chars().take(200).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(decoder: &mut Decoder) -> Vec<Decoded> {
        std::iter::from_fn(|| decoder.next()).collect()
    }

    #[test]
    fn lengths_are_bytes_and_chunks_may_split_anywhere() {
        let a =
            encode(&json!({"type": "event", "event": "output", "body": {"output": "héllo → ✓"}}));
        let b = encode(&json!({"type": "event", "event": "stopped", "seq": 0}));
        let stream: Vec<u8> = [a.clone(), b.clone()].concat();
        for chunk in 1..stream.len() {
            let mut d = Decoder::default();
            let mut got = Vec::new();
            for piece in stream.chunks(chunk) {
                d.push(piece);
                got.extend(all(&mut d));
            }
            assert_eq!(got.len(), 2, "chunk size {chunk}");
            assert!(matches!(&got[0], Decoded::Message(v) if v["body"]["output"] == "héllo → ✓"));
            assert!(matches!(&got[1], Decoded::Message(v) if v["event"] == "stopped"));
        }
    }

    #[test]
    fn junk_and_bad_headers_are_skipped_and_decoding_goes_on() {
        let mut d = Decoder::default();
        d.push(b"debugpy says hi\n");
        d.push(b"content-length: nope\r\n\r\n");
        d.push(b"Content-Length: 3\r\n\r\n{x}");
        d.push(&encode(&json!({"type": "event", "event": "initialized"})));
        let got = all(&mut d);
        assert!(matches!(&got[0], Decoded::Skipped(s) if s.contains("debugpy says hi")), "{got:?}");
        assert!(matches!(&got[1], Decoded::Skipped(s) if s.contains("valid length")), "{got:?}");
        assert!(matches!(&got[2], Decoded::Skipped(s) if s.contains("not JSON")), "{got:?}");
        assert!(matches!(&got[3], Decoded::Message(v) if v["event"] == "initialized"), "{got:?}");
        assert_eq!(got.len(), 4);
    }

    #[test]
    fn other_headers_are_allowed() {
        let mut d = Decoder::default();
        d.push(b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
        assert_eq!(all(&mut d), [Decoded::Message(json!({}))]);
    }

    #[test]
    fn the_envelope_is_loose() {
        let m = Message::from_value(json!({"type": "response", "request_seq": 4, "success": true,
            "command": "threads", "body": {"threads": []}, "extra": 1}))
        .unwrap();
        assert!(matches!(m, Message::Response(r) if r.request_seq == 4 && r.success));
        let e = Message::from_value(json!({"type": "event", "event": "debugpySockets"})).unwrap();
        assert!(matches!(e, Message::Event(e) if e.body.is_null()));
        assert!(Message::from_value(json!({"type": "response", "success": true})).is_err());
    }

    #[test]
    fn failed_responses_explain_themselves() {
        let r = Response {
            request_seq: 1,
            success: false,
            command: "evaluate".into(),
            message: Some("x".into()),
            body: json!({"error": {"format": "name {n} is not defined", "variables": {"n": "zz"}}}),
        };
        assert_eq!(r.error_text(), "name zz is not defined");
    }
}
