//! One reader per transcript format generation.
//!
//! Each line-based reader folds lines into a [`crate::model::Transcript`]; whole-file
//! formats are read by streaming deserialization. All readers share the notion of a
//! message part below, since the tools agree on little else.

pub(crate) mod claude;
pub(crate) mod codex;
pub(crate) mod copilot;
pub(crate) mod gemini;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::text::user_words;

/// What one part of a message's content is, as far as recall cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Part {
    /// Text (Claude `text`, Codex `input_text`, Gemini `{text}`, or a bare string).
    Text(String),
    /// An image (Claude `image`, Codex `input_image`, Gemini inline or file data of an
    /// image type): counted, never copied.
    Image,
    /// A tool's result (Claude `tool_result`, Gemini `functionResponse`).
    ToolResult,
    /// Anything else (documents, function calls, thinking, unknown kinds).
    Other,
}

#[derive(Deserialize)]
struct RawPart {
    #[serde(rename = "type")]
    kind: Option<String>,
    text: Option<String>,
    #[serde(rename = "inlineData")]
    inline_data: Option<Mime>,
    #[serde(rename = "fileData")]
    file_data: Option<Mime>,
    #[serde(rename = "functionResponse")]
    function_response: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
struct Mime {
    #[serde(rename = "mimeType")]
    mime_type: Option<String>,
}

/// Reads message content that is a string, one part, or a list of parts (each a string
/// or an object), without copying the parts it does not need (tool output, image bytes).
pub(crate) fn parse_parts(raw: &RawValue) -> Result<Vec<Part>, serde_json::Error> {
    let text = raw.get().trim_start();
    if text.starts_with('[') {
        let items: Vec<&RawValue> = serde_json::from_str(text)?;
        items.into_iter().map(part).collect()
    } else if text.starts_with("null") {
        Ok(Vec::new())
    } else {
        Ok(vec![part(raw)?])
    }
}

fn part(raw: &RawValue) -> Result<Part, serde_json::Error> {
    let text = raw.get().trim_start();
    if text.starts_with('"') {
        return Ok(Part::Text(serde_json::from_str(text)?));
    }
    if !text.starts_with('{') {
        return Ok(Part::Other);
    }
    let p: RawPart = serde_json::from_str(text)?;
    let is_image_mime = |m: &Option<Mime>| {
        m.as_ref().and_then(|m| m.mime_type.as_deref()).is_some_and(|t| t.starts_with("image/"))
    };
    Ok(match p.kind.as_deref() {
        Some("tool_result" | "function_call_output") => Part::ToolResult,
        _ if p.function_response.is_some() => Part::ToolResult,
        Some("image" | "input_image" | "image_url") => Part::Image,
        _ if is_image_mime(&p.inline_data) || is_image_mime(&p.file_data) => Part::Image,
        None | Some("text" | "input_text") => match p.text {
            Some(t) => Part::Text(t),
            None => Part::Other,
        },
        Some(_) => Part::Other,
    })
}

/// The user's words in a list of parts, and how many images came with them: text parts
/// that are harness wrappers are dropped, reminders are stripped, images are counted.
/// `None` when nothing the user wrote or pasted is left.
pub(crate) fn words(parts: &[Part]) -> Option<(String, u32)> {
    let mut texts = Vec::new();
    let mut images = 0;
    for part in parts {
        match part {
            Part::Text(s) => texts.extend(user_words(s)),
            Part::Image => images += 1,
            Part::ToolResult | Part::Other => {}
        }
    }
    if texts.is_empty() && images == 0 {
        return None;
    }
    Some((texts.join("\n"), images))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(json: &str) -> Vec<Part> {
        let raw: &RawValue = serde_json::from_str(json).unwrap();
        parse_parts(raw).unwrap()
    }

    #[test]
    fn every_shape_of_content() {
        assert_eq!(parts(r#""hi""#), vec![Part::Text("hi".into())]);
        assert_eq!(
            parts(
                r#"[{"type":"text","text":"a"},{"type":"image","source":{"type":"base64","data":"AAAA"}},"b"]"#
            ),
            vec![Part::Text("a".into()), Part::Image, Part::Text("b".into())]
        );
        assert_eq!(
            parts(r#"[{"type":"tool_result","tool_use_id":"x","content":"out"}]"#),
            vec![Part::ToolResult]
        );
        assert_eq!(parts(r#"{"text":"g"}"#), vec![Part::Text("g".into())]);
        assert_eq!(
            parts(r#"[{"inlineData":{"mimeType":"image/png","data":"AA"}}]"#),
            vec![Part::Image]
        );
        assert_eq!(
            parts(
                r#"[{"type":"input_text","text":"c"},{"type":"input_image","image_url":"data:"}]"#
            ),
            vec![Part::Text("c".into()), Part::Image]
        );
    }
}
