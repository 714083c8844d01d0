//! The agents' own IDE channels, served by `locus lsp` for the editor it serves: Claude
//! Code's `/ide` ([`claude`]). The agent CLI, in a terminal beside the editor, finds the
//! channel by a file the channel writes, and gets the user's file and selection from it with
//! every prompt; its proposed edits are reviewed in the editor ([`review`]).
//!
//! **Invariants.**
//! - Loopback only, a token per channel checked before anything is served, files readable by
//!   the user alone, removed whenever the sidecar's discovery file is.
//! - Nothing here writes a user's file: an accepted edit goes back to the agent, which writes
//!   it.

pub mod claude;
pub mod focus;
pub mod review;

/// Which channels a `locus lsp` serves, decided when the editor introduces itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Channels {
    /// Claude Code's `/ide`.
    pub claude: bool,
}

impl Channels {
    /// No channel.
    pub const NONE: Channels = Channels { claude: false };

    /// The channels for the editor `name`: `initializationOptions.ideChannels` (a list of
    /// `"claude"`) when the editor gave it, else every channel except in VS Code, for which
    /// the agents' vendors ship their own extensions.
    pub fn decide(editor: &str, asked: Option<&serde_json::Value>) -> Result<Channels, String> {
        match asked {
            Some(serde_json::Value::Array(list)) => {
                let mut channels = Channels { claude: false };
                for name in list {
                    match name.as_str() {
                        Some("claude") => channels.claude = true,
                        _ => {
                            return Err(format!(
                                "initializationOptions.ideChannels: `{name}` is not a channel (\"claude\")"
                            ));
                        }
                    }
                }
                Ok(channels)
            }
            Some(other) => Err(format!(
                "initializationOptions.ideChannels is not a list of channel names: {other}"
            )),
            None => Ok(Channels { claude: !is_vscode(editor) }),
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
        assert!(Channels::decide("Neovim", None).unwrap().claude);
        assert!(Channels::decide("helix", None).unwrap().claude);
        assert!(!Channels::decide("Visual Studio Code", None).unwrap().claude);
        assert!(Channels::decide("Visual Studio Code", Some(&json!(["claude"]))).unwrap().claude);
        assert!(!Channels::decide("Neovim", Some(&json!([]))).unwrap().claude);
        assert!(Channels::decide("Neovim", Some(&json!(["cursor"]))).is_err());
        assert!(Channels::decide("Neovim", Some(&json!("claude"))).is_err());
    }
}
