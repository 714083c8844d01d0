//! The agents' own IDE channels, served by `locus lsp` for the editor it serves: Claude
//! Code's `/ide` ([`claude`]) and Gemini CLI's IDE mode ([`gemini`]). The agent CLI, in a terminal beside the editor, finds the
//! channel by a file the channel writes, and gets the user's file and selection from it with
//! every prompt; its proposed edits are reviewed in the editor ([`review`]).
//!
//! **Invariants.**
//! - Loopback only, a token per channel checked before anything is served, files readable by
//!   the user alone, removed whenever the sidecar's discovery file is.
//! - Nothing here writes a user's file: an accepted edit goes back to the agent, which writes
//!   it.

mod channel;
pub mod claude;
pub mod focus;
pub mod gemini;
mod mcp;
mod pace;
pub mod review;

use std::sync::Arc;

pub use channel::{Channel, Mention};

use crate::mcp::host::SidecarInfo;
use crate::state::Shared;

/// An agent whose IDE channel Locus serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// Claude Code's `/ide`.
    Claude,
    /// Gemini CLI's IDE mode.
    Gemini,
}

impl Agent {
    /// Every agent, in the order they are reported.
    pub const ALL: [Agent; 2] = [Agent::Claude, Agent::Gemini];

    /// The name `initializationOptions.ideChannels` and the status use.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Gemini => "gemini",
        }
    }
}

/// What a channel's server needs.
pub struct Served {
    /// The channel: its port, token and file.
    pub channel: Arc<Channel>,
    /// The editor state the channel reports.
    pub state: Shared,
    /// The editor, for editor actions.
    pub info: Arc<SidecarInfo>,
}

/// Which channels a `locus lsp` serves, decided when the editor introduces itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Channels {
    claude: bool,
    gemini: bool,
}

impl Channels {
    /// No channel.
    pub const NONE: Channels = Channels { claude: false, gemini: false };

    /// Whether the channel of `agent` is served.
    pub fn serves(self, agent: Agent) -> bool {
        match agent {
            Agent::Claude => self.claude,
            Agent::Gemini => self.gemini,
        }
    }

    /// The channels for the editor `name`: `initializationOptions.ideChannels` (a list of
    /// agent names) when the editor gave it, else every channel except in VS Code, for which
    /// the agents' vendors ship their own extensions.
    pub fn decide(editor: &str, asked: Option<&serde_json::Value>) -> Result<Channels, String> {
        match asked {
            Some(serde_json::Value::Array(list)) => {
                let mut channels = Channels::NONE;
                for name in list {
                    match name.as_str() {
                        Some("claude") => channels.claude = true,
                        Some("gemini") => channels.gemini = true,
                        _ => {
                            return Err(format!(
                                "initializationOptions.ideChannels: `{name}` is not a channel (\"claude\", \"gemini\")"
                            ));
                        }
                    }
                }
                Ok(channels)
            }
            Some(other) => Err(format!(
                "initializationOptions.ideChannels is not a list of channel names: {other}"
            )),
            None => {
                let on = !is_vscode(editor);
                Ok(Channels { claude: on, gemini: on })
            }
        }
    }
}

/// Whether `editor` (the LSP client's name) is VS Code or one of its builds.
fn is_vscode(editor: &str) -> bool {
    let e = editor.to_ascii_lowercase();
    e.contains("visual studio code") || e.contains("vscode") || e == "code-server"
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn channels_are_on_except_in_vs_code_unless_asked() {
        let claude = |c: Channels| c.serves(Agent::Claude);
        let gemini = |c: Channels| c.serves(Agent::Gemini);
        assert!(claude(Channels::decide("Neovim", None).unwrap()));
        assert!(gemini(Channels::decide("helix", None).unwrap()));
        assert!(!claude(Channels::decide("Visual Studio Code", None).unwrap()));
        assert!(!gemini(Channels::decide("Visual Studio Code", None).unwrap()));
        let asked = Channels::decide("Visual Studio Code", Some(&json!(["claude"]))).unwrap();
        assert!(claude(asked) && !gemini(asked));
        assert_eq!(Channels::decide("Neovim", Some(&json!([]))).unwrap(), Channels::NONE);
        assert!(Channels::decide("Neovim", Some(&json!(["cursor"]))).is_err());
        assert!(Channels::decide("Neovim", Some(&json!("claude"))).is_err());
    }
}
