//! The input side of the wire, made safe for tower-lsp.
//!
//! tower-lsp's reader stops for good at the first message it cannot decode (bad JSON, a
//! body that is not a JSON-RPC message, an unknown header), which would end the server.
//! [`sanitize`] sits between stdin and tower-lsp: it frames messages itself, passes valid
//! ones through untouched and replaces each invalid one with a `locus/invalidMessage`
//! notification, which the edge answers with the JSON-RPC error the sender is owed.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tower_lsp_server::jsonrpc::{Request, Response};

use super::Ctx;

/// The method of the stand-in for an invalid message.
pub const INVALID_MESSAGE: &str = "locus/invalidMessage";

/// Bodies larger than this are skipped rather than read into memory.
const MAX_BODY: usize = 1 << 30;

/// Copies framed messages from `input` to `output` until `input` ends, replacing invalid
/// ones (see the module docs). Dropping `output` at the end tells the server the input ended.
pub async fn sanitize<I, O>(input: I, mut output: O, ctx: Arc<Ctx>)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut line = Vec::new();
    loop {
        // Headers: lines up to an empty one. Blank lines before any header are skipped.
        let mut length: Option<Result<usize, String>> = None;
        let mut headers = 0;
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches(['\r', '\n']);
            if text.is_empty() {
                if headers > 0 {
                    break;
                }
                continue;
            }
            headers += 1;
            if let Some((name, value)) = text.split_once(':')
                && name.trim().eq_ignore_ascii_case("content-length")
            {
                length = Some(value.trim().parse::<usize>().map_err(|_| value.trim().to_string()));
            }
        }
        let length = match length {
            Some(Ok(n)) => n,
            Some(Err(bad)) => {
                ctx.log.warn(format_args!(
                    "skipping a message with an invalid Content-Length `{bad}`"
                ));
                continue;
            }
            None => {
                ctx.log.warn(format_args!("skipping a header block without Content-Length"));
                continue;
            }
        };
        if length > MAX_BODY {
            ctx.log.warn(format_args!(
                "skipping a message of {length} bytes (the limit is {MAX_BODY})"
            ));
            let mut rest = (&mut reader).take(length as u64);
            if tokio::io::copy(&mut rest, &mut tokio::io::sink()).await.is_err() {
                return;
            }
            continue;
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).await.is_err() {
            return;
        }
        let body = match check(&body) {
            Ok(()) => body,
            Err((id, code, why)) => {
                ctx.log.warn(format_args!("invalid message ({why}): {}", preview(&body)));
                json!({"jsonrpc": "2.0", "method": INVALID_MESSAGE, "params": {"id": id, "code": code, "message": why}})
                    .to_string()
                    .into_bytes()
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

/// Whether tower-lsp can decode `body`; if not, the id to answer, the JSON-RPC error code
/// and why.
fn check(body: &[u8]) -> Result<(), (Value, i64, String)> {
    let Ok(text) = std::str::from_utf8(body) else {
        return Err((Value::Null, -32700, "the body is not UTF-8".into()));
    };
    if serde_json::from_str::<Response>(text).is_ok()
        || serde_json::from_str::<Request>(text).is_ok()
    {
        return Ok(());
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
    }
}
