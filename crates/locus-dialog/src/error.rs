//! The errors a recall can end in, with their stable codes and hints.

/// Why a recall found nothing to return. The messages are part of the contract: agents
/// and tests match them verbatim.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecallError {
    /// No session of any source belongs to the workspace.
    #[error("No active dialog found")]
    NoActiveDialog,
    /// No session has this exact id, in any workspace.
    #[error("Session not found: {0}")]
    SessionNotFound(String),
    /// The session holds no request from the user (yet).
    #[error("First request not available")]
    FirstRequestNotAvailable,
    /// A request index of 0 or less.
    #[error("Index must be 1 or greater")]
    IndexTooSmall,
    /// A request index past the last request.
    #[error("Index {index} exceeds total requests ({total})")]
    IndexOutOfRange {
        /// The index asked for.
        index: i64,
        /// How many requests the session has.
        total: usize,
    },
    /// The session exists but its transcript could not be read.
    #[error("Chat data not available for session")]
    ChatDataNotAvailable {
        /// The session asked for.
        session: String,
        /// What went wrong.
        reason: String,
    },
}

impl RecallError {
    /// The stable error code of the tool envelope (`docs/reference/error-codes.md`).
    pub fn code(&self) -> &'static str {
        match self {
            RecallError::NoActiveDialog
            | RecallError::SessionNotFound(_)
            | RecallError::FirstRequestNotAvailable => "E_NOT_FOUND",
            RecallError::IndexTooSmall | RecallError::IndexOutOfRange { .. } => "E_INVALID_PARAMS",
            RecallError::ChatDataNotAvailable { .. } => "E_UNSUPPORTED",
        }
    }

    /// What to do next, in words an agent can act on.
    pub fn hint(&self) -> String {
        match self {
            RecallError::NoActiveDialog => "No Claude Code, Codex, Gemini CLI or Copilot Chat session was recorded with its working \
                directory in this workspace; list the workspace's sessions, or pass the session id explicitly"
                .into(),
            RecallError::SessionNotFound(_) => {
                "Session ids are exact: copy one from the list of this workspace's sessions, or omit it for the current dialog".into()
            }
            RecallError::FirstRequestNotAvailable => {
                "The session has no request from the user yet; pick another session from the list".into()
            }
            RecallError::IndexTooSmall => "Requests are numbered from 1; use 1 for the first request".into(),
            RecallError::IndexOutOfRange { total, .. } => {
                format!("The session has {total} requests; ask for an index from 1 to {total}")
            }
            RecallError::ChatDataNotAvailable { reason, .. } => {
                format!("The transcript was found but could not be read ({reason}); try again, or pick another session")
            }
        }
    }
}
