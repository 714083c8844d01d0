//! Proposed edits for editors that have no diff view but can open a document on request
//! (`window/showDocument`; Helix): Locus does the `edit.propose` action itself. The proposal is
//! written to a file of Locus's own (under its cache, readable by the user alone, named as the
//! user's file so the editor reads it in the same language), the editor is asked to show it,
//! and the user, after editing it if they like, runs the command `locus.accept` or
//! `locus.reject` (`:lsp-workspace-command locus.accept` in Helix). The user's file is never
//! written: the accepted text goes back to the agent.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use locus_tools::ActionError;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tower_lsp_server::Client;
use tower_lsp_server::ls_types::{ShowDocumentParams, Uri};

/// The command that accepts the proposal shown.
pub const ACCEPT: &str = "locus.accept";
/// The command that rejects it.
pub const REJECT: &str = "locus.reject";

/// The proposals shown and not decided.
#[derive(Default)]
pub(super) struct Proposals {
    open: Mutex<HashMap<String, Open>>,
}

struct Open {
    /// The proposal's file.
    file: PathBuf,
    decided: oneshot::Sender<Value>,
}

impl Proposals {
    /// Shows the proposal `params` (`{id, uri, newText, title}`) and waits at most `wait` for
    /// the user's verdict, `{accepted, text?}`.
    pub(super) async fn propose(
        &self,
        client: &Client,
        params: &Value,
        wait: Duration,
    ) -> Result<Value, ActionError> {
        let field = |k: &str| params.get(k).and_then(Value::as_str).map(str::to_string);
        let (Some(id), Some(uri), Some(text)) = (field("id"), field("uri"), field("newText"))
        else {
            return Err(failed("edit.propose takes {id, uri, newText, title}"));
        };
        let name = locus_platform::file_uri::path_of(&uri)
            .and_then(|p| p.file_name().map(|n| n.to_os_string()))
            .ok_or_else(|| failed(&format!("`{uri}` names no file")))?;
        let dir = folder()
            .ok_or_else(|| failed("no cache folder (no home folder) to keep the proposal in"))?
            .join(sanitize(&id));
        locus_platform::private::create_dir(&dir).map_err(|e| failed(&e.to_string()))?;
        let file = dir.join(name);
        locus_platform::private::write_replacing(&file, text.as_bytes())
            .map_err(|e| failed(&format!("cannot write the proposal: {e}")))?;
        let (tx, rx) = oneshot::channel();
        self.lock().insert(id.clone(), Open { file: file.clone(), decided: tx });
        let shown: Option<Uri> = locus_platform::file_uri::uri_of(&file).parse().ok();
        let Some(shown) = shown else {
            self.withdraw(&id);
            return Err(failed("the proposal's path is not a URI"));
        };
        let request = ShowDocumentParams {
            uri: shown,
            external: Some(false),
            // Helix opens a document it is not to focus in a split beside the file.
            take_focus: Some(false),
            selection: None,
        };
        match client.show_document(request).await {
            Ok(true) => {}
            Ok(false) | Err(_) => {
                self.withdraw(&id);
                return Err(ActionError::Unsupported {
                    message: "the editor did not open the proposal".into(),
                    hint: Some("show the change in your answer and ask the user".into()),
                });
            }
        }
        let title = field("title").unwrap_or_else(|| "a proposed change".into());
        client
            .show_message(
                tower_lsp_server::ls_types::MessageType::INFO,
                format!("Locus: {title}. Edit it if you like, then run the command {ACCEPT} (or {REJECT})."),
            )
            .await;
        match tokio::time::timeout(wait, rx).await {
            Ok(Ok(verdict)) => Ok(verdict),
            Ok(Err(_)) => Ok(json!({"accepted": false})),
            Err(_) => {
                self.withdraw(&id);
                Err(ActionError::Timeout(wait))
            }
        }
    }

    /// `edit.propose.close`: the proposal `id` is rejected.
    pub(super) fn withdraw(&self, id: &str) {
        if let Some(open) = self.lock().remove(id) {
            remove(&open.file);
            let _ = open.decided.send(json!({"accepted": false}));
        }
    }

    /// `locus.accept` / `locus.reject`: decides the proposal whose file is `active`, else the
    /// only one open. `text_of` gives the text the editor has of a file, if it is open there.
    pub(super) fn decide(
        &self,
        accepted: bool,
        active: Option<&Path>,
        text_of: impl Fn(&Path) -> Option<String>,
    ) -> Result<(), String> {
        let mut open = self.lock();
        let id = match active.and_then(|a| open.iter().find(|(_, o)| o.file == a)) {
            Some((id, _)) => id.clone(),
            None if open.len() == 1 => open.keys().next().cloned().unwrap_or_default(),
            None if open.is_empty() => return Err("no proposed change is waiting".into()),
            None => {
                return Err(format!(
                    "{} proposed changes are waiting: run the command in the one you decide",
                    open.len()
                ));
            }
        };
        let Some(proposal) = open.remove(&id) else { return Err("no proposed change".into()) };
        let verdict = if accepted {
            let text = text_of(&proposal.file)
                .or_else(|| std::fs::read_to_string(&proposal.file).ok())
                .ok_or("the proposal's text is gone")?;
            json!({"accepted": true, "text": text})
        } else {
            json!({"accepted": false})
        };
        remove(&proposal.file);
        let _ = proposal.decided.send(verdict);
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Open>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Where proposals are kept: `proposals` in Locus's cache.
fn folder() -> Option<PathBuf> {
    Some(locus_platform::folders::Folders::of_host().cache?.join("proposals"))
}

/// An id as a folder name.
fn sanitize(id: &str) -> String {
    id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect()
}

fn remove(file: &Path) {
    let _ = std::fs::remove_file(file);
    if let Some(dir) = file.parent() {
        let _ = std::fs::remove_dir(dir);
    }
}

fn failed(message: &str) -> ActionError {
    ActionError::Failed { message: message.to_string(), data: None }
}
