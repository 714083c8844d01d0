//! The response envelope every tool answers with (`docs/reference/envelope.md`), and the stable
//! error codes with their hints.

use std::fmt;

use locus_context::EditorContext;
use serde::Serialize;
use serde_json::Value;

/// What every tool call returns, on every transport (MCP `structuredContent`, `locus call`).
///
/// `editorContext` and `debugContext` are omitted, never `null`, when there is none.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    /// Whether the tool succeeded.
    pub ok: bool,
    /// `"success"` or `"error"`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The tool's answer (absent on errors).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    /// Why the tool failed (absent on success).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorBody>,
    /// The editorContext captured when the call started, in the JSON shape of
    /// [`crate::editor_context_json`].
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "crate::editor_context::serialize"
    )]
    pub editor_context: Option<EditorContext>,
    /// The debug session's context, for debug tools while a session exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub debug_context: Option<Value>,
    /// Facts about the call itself.
    pub meta: Meta,
}

impl Envelope {
    /// A successful answer.
    pub fn success(data: Value, meta: Meta) -> Envelope {
        Envelope {
            ok: true,
            kind: "success",
            data: Some(data),
            error: None,
            editor_context: None,
            debug_context: None,
            meta,
        }
    }

    /// A failure.
    pub fn failure(error: ToolError, meta: Meta) -> Envelope {
        Envelope {
            ok: false,
            kind: "error",
            data: None,
            error: Some(ErrorBody::from(error)),
            editor_context: None,
            debug_context: None,
            meta,
        }
    }

    /// The envelope as JSON.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("an envelope always serializes")
    }
}

/// Facts about one call.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    /// Unique per call.
    pub request_id: String,
    /// The tool's name as called.
    pub tool: String,
    /// When the call started, RFC 3339 in UTC.
    pub timestamp: String,
    /// How long the call took, in milliseconds.
    pub duration_ms: f64,
    /// The envelope's format version: fields are only ever added within one version.
    pub format_version: u32,
    /// What was cut to fit the answer budget; absent when nothing was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<Cut>,
}

/// The envelope format this build writes (`meta.formatVersion`).
pub const FORMAT_VERSION: u32 = 1;

impl Meta {
    /// The facts of a call to `tool` that started at `timestamp` and took `duration_ms`.
    pub fn new(request_id: String, tool: String, timestamp: String, duration_ms: f64) -> Meta {
        Meta { request_id, tool, timestamp, duration_ms, format_version: FORMAT_VERSION, cut: None }
    }
}

/// What was cut from an answer to fit the budget (`meta.cut`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cut {
    /// The budget the answer was fitted to, in bytes.
    pub budget_bytes: usize,
    /// The size of the whole answer, in bytes.
    pub full_bytes: usize,
    /// The first places cut, in document order.
    pub places: Vec<CutPlace>,
    /// Places cut beyond those listed.
    #[serde(skip_serializing_if = "is_zero")]
    pub more: usize,
    /// How to get what was cut.
    pub hint: String,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One place cut: a string or a list inside `data`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CutPlace {
    /// A JSON pointer into the envelope (`/data/requests/3/text`).
    pub at: String,
    /// How much of it the answer keeps.
    pub kept: usize,
    /// How much there was.
    pub total: usize,
    /// `characters` or `items`.
    pub unit: &'static str,
}

/// The `error` member of a failed envelope.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorBody {
    /// The stable code (`E_INVALID_PARAMS`, …).
    pub code: ErrorCode,
    /// What went wrong.
    pub message: String,
    /// What to do next.
    pub hint: String,
    /// Facts for a program (the parameter, the expected type, …); `{}` when there are none.
    pub details: Value,
}

impl From<ToolError> for ErrorBody {
    fn from(e: ToolError) -> ErrorBody {
        let hint = e.hint.unwrap_or_else(|| e.code.hint().to_string());
        ErrorBody {
            code: e.code,
            message: e.message,
            hint,
            details: e.details.unwrap_or_else(|| Value::Object(Default::default())),
        }
    }
}

macro_rules! codes {
    ($($variant:ident = $name:literal, $hint:literal;)*) => {
        /// The stable error codes. Their names never change; each has a default hint.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ErrorCode { $(#[doc = $hint] $variant,)* }

        impl ErrorCode {
            /// Every code.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The wire name (`"E_INVALID_PARAMS"`).
            pub fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$variant => $name,)* }
            }

            /// What to do next, when the failure has nothing more specific to say.
            pub fn hint(self) -> &'static str {
                match self { $(ErrorCode::$variant => $hint,)* }
            }
        }
    };
}

codes! {
    InvalidParams = "E_INVALID_PARAMS", "Check the parameter names and types against the tool's input schema (mcp_list_tools shows examples)";
    NoEditor = "E_NO_EDITOR", "This tool acts in the user's editor: ask the user to open the file in an editor running Locus (bridge_status says whether one is connected); tools that take a path (symbol_scope_at, symbol_outline) work without one";
    NoSession = "E_NO_SESSION", "Start a debug session first using debug_start";
    NotStopped = "E_NOT_STOPPED", "Wait until the debuggee stops at a breakpoint, or pause it first";
    SessionEnded = "E_SESSION_ENDED", "The debug session has ended; start a new one with debug_start";
    StaleReference = "E_STALE_REFERENCE", "References live only while the program is stopped; list the frames or variables again";
    Timeout = "E_TIMEOUT", "The tool ran past its timeout; retry with a smaller request, or raise the timeout (`locus mcp --timeout MS`)";
    Cancelled = "E_CANCELLED", "The call was cancelled by the client; call it again if the result is still needed";
    LaunchFailed = "E_LAUNCH_FAILED", "The program or its test runner could not start: install what the message names, then start again";
    AdapterNotFound = "E_ADAPTER_NOT_FOUND", "Install the debug adapter for this language, or name one explicitly";
    NotFound = "E_NOT_FOUND", "Check the name or path; mcp_list_tools lists the tools, and paths are resolved against the workspace";
    Unsupported = "E_UNSUPPORTED", "This is not supported here; mcp_list_tools says what is available";
    TooLarge = "E_TOO_LARGE", "The answer is over the answer budget even cut down; narrow the call with its parameters, or raise the budget (`locus mcp --answer-budget BYTES`)";
    Internal = "E_INTERNAL", "This is a bug in Locus; retry once, and report it with the request if it persists";
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A tool's failure: a code, a message, and optionally a more specific hint and details.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    /// The stable code.
    pub code: ErrorCode,
    /// What went wrong, naming the user's input.
    pub message: String,
    /// A hint more specific than the code's own.
    pub hint: Option<String>,
    /// Facts for a program.
    pub details: Option<Value>,
}

impl ToolError {
    /// An error with the code's default hint.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ToolError {
        ToolError { code, message: message.into(), hint: None, details: None }
    }

    /// Replaces the hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> ToolError {
        self.hint = Some(hint.into());
        self
    }

    /// Sets the details.
    pub fn with_details(mut self, details: Value) -> ToolError {
        self.details = Some(details);
        self
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ToolError {}

/// The JSON Schema of the envelope (a tool's MCP `outputSchema`, docs/reference/envelope.md): both
/// forms, the error included, since clients validate `structuredContent` even when `isError` is
/// set. `data` is described by `data` when the tool gives its schema, else any JSON value; the
/// `$defs` of `data` (recursive types) move to the root, where their `$ref`s point.
pub fn schema(data: Option<&serde_json::Map<String, Value>>) -> serde_json::Map<String, Value> {
    use serde_json::json;
    let mut data = data.cloned().unwrap_or_default();
    let defs = data.remove("$defs");
    data.remove("title");
    if !data.contains_key("description") {
        data.insert("description".into(), json!("The tool's answer (on success)."));
    }
    // Compact: every tool's listing carries this, and the fields' meaning is in the
    // reference (the full form made half of `tools/list`, read by every client at start).
    let mut schema = json!({
        "type": "object",
        "description": "The Locus envelope (docs/reference/envelope.md): `data` on success, `error` on failure.",
        "properties": {
            "ok": {"type": "boolean"},
            "type": {"enum": ["success", "error"]},
            "data": data,
            "error": {"type": "object", "required": ["code", "message", "hint", "details"]},
            "editorContext": {"type": "object"},
            "debugContext": {"type": "object"},
            "meta": {"type": "object", "required": ["requestId", "tool", "timestamp", "durationMs", "formatVersion"]}
        },
        "required": ["ok", "type", "meta"]
    });
    if let (Some(defs), Value::Object(map)) = (defs, &mut schema) {
        map.insert("$defs".into(), defs);
    }
    match schema {
        Value::Object(map) => map,
        _ => unreachable!("a JSON object literal"),
    }
}

/// Formats a time since the Unix epoch as RFC 3339 in UTC with milliseconds
/// (`2026-11-03T14:05:09.123Z`).
pub fn rfc3339(since_epoch: std::time::Duration) -> String {
    // One calendar implementation serves the project: locus-dialog's timestamps.
    let millis = i64::try_from(since_epoch.as_millis()).unwrap_or(i64::MAX);
    locus_dialog::Timestamp::from_millis(millis).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn rfc3339_known_instants() {
        assert_eq!(rfc3339(Duration::ZERO), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(Duration::from_millis(951_782_400_005)), "2000-02-29T00:00:00.005Z");
        assert_eq!(rfc3339(Duration::from_secs(1_793_718_309)), "2026-11-03T15:05:09.000Z");
    }

    #[test]
    fn codes_are_stable_and_hinted() {
        for code in ErrorCode::ALL {
            assert!(code.as_str().starts_with("E_"), "{code}");
            assert!(!code.hint().is_empty(), "{code} has no hint");
        }
        assert_eq!(ErrorCode::ALL.len(), 14);
    }

    #[test]
    fn optional_members_are_omitted_not_null() {
        let meta = Meta::new("r".into(), "t".into(), "x".into(), 0.5);
        let v = Envelope::success(serde_json::json!({}), meta.clone()).to_json();
        assert_eq!(
            v,
            serde_json::json!({"ok": true, "type": "success", "data": {},
            "meta": {"requestId": "r", "tool": "t", "timestamp": "x", "durationMs": 0.5, "formatVersion": 1}})
        );
        let v = Envelope::failure(ToolError::new(ErrorCode::Timeout, "late"), meta).to_json();
        assert_eq!(v["error"]["code"], "E_TIMEOUT");
        assert_eq!(v["error"]["hint"], ErrorCode::Timeout.hint());
        assert_eq!(v["error"]["details"], serde_json::json!({}));
        assert!(v.get("data").is_none() && v.get("editorContext").is_none());
    }
}
