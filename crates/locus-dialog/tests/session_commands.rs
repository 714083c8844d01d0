//! Claude Code's built-in session commands (`/clear`, `/model`, `/compact`, …) are never the
//! user's requests, whatever follows them; the user's and plugins' commands are, with their
//! arguments.

use std::fs;
use std::path::PathBuf;

use locus_dialog::{Recall, Stores, Workspace};

const WS: &str = "/home/ada/commands";

/// A scratch `$HOME` holding one Claude Code session of these user records, removed when
/// dropped.
struct Home(PathBuf);

impl Home {
    fn with_session(name: &str, records: &[&str]) -> Home {
        let dir = std::env::temp_dir().join(format!("locus-dialog-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let file = dir.join(".claude/projects/-home-ada-commands/s1.jsonl");
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        let lines: String = records
            .iter()
            .enumerate()
            .map(|(i, text)| {
                format!(
                    "{{\"type\":\"user\",\"cwd\":\"{WS}\",\"sessionId\":\"s1\",\"uuid\":\"u{i}\",\"parentUuid\":{},\"timestamp\":\"2025-11-01T10:{i:02}:00Z\",\"message\":{{\"role\":\"user\",\"content\":{}}}}}\n",
                    if i == 0 { "null".to_string() } else { format!("\"u{}\"", i - 1) },
                    serde_json::to_string(text).unwrap()
                )
            })
            .collect();
        fs::write(file, lines).unwrap();
        Home(dir)
    }

    fn requests(&self) -> Vec<String> {
        let recall = Recall::new(Stores::under_home(&self.0));
        let all = recall.requests(&Workspace::new(&[WS]), None, false).unwrap();
        all.value.requests.into_iter().map(|r| r.text).collect()
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn command(name: &str, args: &str) -> String {
    format!(
        "<command-name>/{name}</command-name>\n<command-message>{name}</command-message>\n<command-args>{args}</command-args>"
    )
}

#[test]
fn a_session_started_with_clear_begins_at_the_first_real_request() {
    // Claude Code writes no `<local-command-stdout>` after a `/clear` that starts a session.
    let clear = command("clear", "");
    let home = Home::with_session("clear", &[&clear, "fix the cart total"]);
    assert_eq!(home.requests(), ["fix the cart total"]);
}

#[test]
fn session_commands_are_never_requests_but_the_users_are() {
    let model = command("model", "opus");
    let review = command("review", "src/");
    let compact = command("compact", "keep the API notes");
    let plugin = command("orchestrator", "create a TODO app");
    let stdout = "<local-command-stdout>Set model to opus</local-command-stdout>";
    let home =
        Home::with_session("mixed", &[&review, &model, stdout, &plugin, &compact, "then ship it"]);
    assert_eq!(
        home.requests(),
        ["/review src/", "/orchestrator create a TODO app", "then ship it"],
        "the output of /model withdraws nothing"
    );
}
