//! `edit_propose`: shows the user a proposed content of a file in their editor, for them to
//! accept (edited or not) or reject; nothing is written until the agent writes what was
//! accepted.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::{EDITOR_ACTION, ask, editor_for, names, uri_of};
use crate::tools::paths;
use crate::{Cx, Effect, ErrorCode, Tool, ToolError, ToolSpec, WhenToUse, params};

/// `edit_propose`: a proposed change, reviewed by the user in the editor.
pub struct EditPropose;

/// How long the user has to decide: the tool's timeout.
const DECIDE: Duration = Duration::from_secs(10 * 60);

/// Parameters of `edit_propose`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProposeParams {
    /// The file: absolute, or relative to a workspace folder. It may not exist yet.
    #[schemars(example = &"src/user.ts", length(min = 1))]
    pub path: String,
    /// The whole content proposed for the file.
    #[schemars(example = &"export function add(a: number, b: number) {\n  return a + b;\n}\n")]
    pub new_content: String,
}

/// `edit_propose`'s data.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProposeData {
    /// The file.
    pub path: String,
    /// Whether the user accepted the change.
    pub accepted: bool,
    /// The content the user accepted, edited or not: write this, not your proposal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Whether the user changed the proposal before accepting it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edited: Option<bool>,
}

impl Tool for EditPropose {
    type Params = ProposeParams;
    type Output = ProposeData;

    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: "edit_propose",
            title: "Propose an edit for the user to review",
            description: "Show the user a proposed new content of a file as a diff in their editor and wait until they accept it (possibly after editing it) or reject it; nothing is written: write the accepted content yourself",
            when_to_use: WhenToUse {
                use_for: &[
                    "a change the user should see and approve before it is made",
                    "letting the user adjust your change in their editor before it lands",
                ],
                dont_use_for: &[
                    "small changes the user already approved (edit the file directly)",
                    "many files at once (one proposal at a time)",
                ],
                patterns: &[
                    "propose, then write `content` when accepted; on rejection ask what to change",
                ],
            },
            timeout: DECIDE,
            effect: Effect::Reads,
            ..EDITOR_ACTION
        }
    }

    fn data_schema(&self) -> Option<Map<String, Value>> {
        Some(params::output_schema_for::<Self::Output>())
    }

    async fn run(&self, p: ProposeParams, cx: Cx) -> Result<ProposeData, ToolError> {
        static PROPOSALS: AtomicU64 = AtomicU64::new(0);
        let editor = editor_for(&cx, names::EDIT_PROPOSE)?;
        let path = paths::resolve_new_file(&cx, &p.path)?;
        let id =
            format!("locus-{}-{}", std::process::id(), PROPOSALS.fetch_add(1, Ordering::Relaxed));
        let name = path.file_name().map_or(p.path.clone(), |n| n.to_string_lossy().into_owned());
        let params = json!({"id": id, "uri": uri_of(&path), "newText": p.new_content, "title": format!("Proposed: {name}")});
        let answer = match ask(&cx, &editor, names::EDIT_PROPOSE, params).await {
            Ok(answer) => answer,
            Err(e) => {
                // A proposal nobody decided on does not stay open in the editor.
                if e.code == ErrorCode::Timeout {
                    let _ = cx
                        .host
                        .editor_action(
                            names::EDIT_PROPOSE_CLOSE,
                            json!({"id": id}),
                            Duration::from_secs(5),
                        )
                        .await;
                }
                return Err(e);
            }
        };
        let path = path.display().to_string();
        match (
            answer.get("accepted").and_then(Value::as_bool),
            answer.get("text").and_then(Value::as_str),
        ) {
            (Some(true), Some(text)) => Ok(ProposeData {
                path,
                accepted: true,
                edited: Some(text != p.new_content),
                content: Some(text.to_string()),
            }),
            (Some(false), _) => {
                Ok(ProposeData { path, accepted: false, content: None, edited: None })
            }
            _ => Err(ToolError::new(
                ErrorCode::Internal,
                format!(
                    "the editor answered `{}` with {answer}, not {{accepted, text}}",
                    names::EDIT_PROPOSE
                ),
            )),
        }
    }

    fn summary(&self, d: &ProposeData, _: &Cx) -> String {
        match (d.accepted, d.edited) {
            (true, Some(true)) => format!(
                "The user accepted the change to {} after editing it: write `content`",
                d.path
            ),
            (true, _) => format!("The user accepted the change to {}: write `content`", d.path),
            (false, _) => format!("The user rejected the change to {}", d.path),
        }
    }
}
