//! Proposed edits reviewed in the editor, for every channel: the editor shows the proposal
//! against the file (a diff where it has one), and the user accepts it, edited or not, or
//! rejects it. Two editor actions (docs/reference/lsp.md): `edit.propose` answers once the
//! user decided, `edit.propose.close` withdraws a proposal nobody decided on. Locus writes no
//! file: the accepted text goes back to the agent that proposed it.

use std::sync::Arc;
use std::time::Duration;

use locus_tools::ActionError;
use locus_tools::tools::action::names;
use serde_json::{Value, json};

use crate::mcp::host::EditorLink;

/// The action that shows a proposal and answers `{accepted, text?}`.
pub const PROPOSE: &str = names::EDIT_PROPOSE;
/// The action that withdraws a proposal.
pub const CLOSE: &str = names::EDIT_PROPOSE_CLOSE;

/// The longest a proposal waits for the user: a proposal left open longer is withdrawn and
/// counts as rejected, so that no wait is unbounded.
const LONGEST: Duration = Duration::from_secs(60 * 60);
/// How long the editor gets to withdraw a proposal.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// What the user decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Accepted, with the text as the user left it.
    Accepted(String),
    /// Rejected, or closed without a decision.
    Rejected,
}

/// Whether the editor behind `link` reviews proposals.
pub fn can_review(link: &dyn EditorLink) -> bool {
    link.editor().declared.iter().any(|a| a == PROPOSE)
}

/// Shows the proposal `id` (`new_text` for the file `uri`, titled `title`) and waits for the
/// user's verdict.
pub async fn review(
    link: Arc<dyn EditorLink>,
    id: &str,
    uri: &str,
    new_text: &str,
    title: &str,
) -> Result<Verdict, ActionError> {
    let params = json!({"id": id, "uri": uri, "newText": new_text, "title": title});
    match link.request(PROPOSE, params, LONGEST).await {
        Ok(data) => verdict(&data),
        Err(ActionError::Timeout(_)) => {
            close(link, id).await;
            Ok(Verdict::Rejected)
        }
        Err(e) => Err(e),
    }
}

/// Withdraws the proposal `id`; the editor answers its `edit.propose` as rejected.
pub async fn close(link: Arc<dyn EditorLink>, id: &str) {
    let _ = link.request(CLOSE, json!({ "id": id }), CLOSE_WAIT).await;
}

/// The verdict in the editor's answer `{accepted, text?}`.
fn verdict(data: &Value) -> Result<Verdict, ActionError> {
    match (data.get("accepted").and_then(Value::as_bool), data.get("text").and_then(Value::as_str))
    {
        (Some(true), Some(text)) => Ok(Verdict::Accepted(text.to_string())),
        (Some(false), _) => Ok(Verdict::Rejected),
        _ => Err(ActionError::Failed {
            message: format!(
                "the editor answered {PROPOSE} with {data}, not {{accepted: true, text}} or {{accepted: false}}"
            ),
            data: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_read_from_the_editors_answer() {
        assert_eq!(
            verdict(&json!({"accepted": true, "text": "x\n"})),
            Ok(Verdict::Accepted("x\n".into()))
        );
        assert_eq!(verdict(&json!({"accepted": false})), Ok(Verdict::Rejected));
        assert!(verdict(&json!({"accepted": true})).is_err());
        assert!(verdict(&json!(null)).is_err());
    }
}
