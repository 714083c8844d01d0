//! Recall on fixtures in the shape of real transcripts (`tests/fixtures/real`, whose
//! README says where each shape comes from): slash commands typed with arguments, prompts
//! queued while the agent worked, Claude Code 2.1's metadata records, the oldest Codex
//! rollouts, archived Codex sessions, Gemini projects named by hash below the workspace,
//! and a session's folder being where it started.
//!
//! `UPDATE_EXPECT=1 cargo test -p locus-dialog --test real_shapes` rewrites the expectations.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use expect_test::{Expect, expect};
use locus_dialog::{Answer, Recall, RecallError, Requests, SessionInfo, Stores, Workspace};
use sha2::Digest;

const TODO: &str = "/home/bo/todo";

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real")
}

fn memory() -> Recall {
    Recall::new(Stores::under_home(&fixtures().join("home")))
}

fn session_line(s: &SessionInfo) -> String {
    let mut line = format!(
        "{} {} {} requests={} updated={}",
        s.source,
        s.format.name(),
        s.id,
        s.requests_count,
        s.last_updated
    );
    if s.compacted() {
        line += &format!(" compactions={} since={}", s.compactions, s.requests_since_compaction);
    }
    if let Some(title) = &s.title {
        line += &format!(" title={title:?}");
    }
    match (&s.workspace_root, &s.folder) {
        (Some(root), Some(folder)) => {
            line += &format!(" in={}:{}", root.display(), folder.display())
        }
        (None, Some(folder)) => line += &format!(" outside={}", folder.display()),
        _ => {}
    }
    line
}

fn warning_lines<T>(answer: &Answer<T>) -> String {
    answer.warnings.iter().map(|w| format!("warning {w}\n")).collect()
}

fn check_requests(answer: Result<Answer<Requests>, RecallError>, expect: Expect) {
    let out = match answer {
        Ok(answer) => {
            let r = &answer.value;
            let mut out = session_line(&r.session) + "\n";
            for q in &r.requests {
                let when = q.timestamp.map_or("?".to_owned(), |t| t.to_string());
                out += &format!("{}. [{when}] {:?}\n", q.index, q.text);
            }
            out + &warning_lines(&answer)
        }
        Err(e) => format!("error {}: {e}\n", e.code()),
    };
    expect.assert_eq(&out);
}

#[test]
fn claude_code_commands_queued_prompts_and_2_1_records() {
    check_requests(
        memory().requests(
            &Workspace::new(&[TODO]),
            Some("5e551011-0000-4000-8000-000000000001"),
            false,
        ),
        expect![[r#"
            claude-code claude-jsonl 5e551011-0000-4000-8000-000000000001 requests=6 updated=2026-01-20T10:12:40.000Z compactions=1 since=1 title="TODO app with Next.js" in=/home/bo/todo:/home/bo/todo
            1. [2026-01-20T10:00:01.000Z] "/orchestrator create TODO app by Next.js"
            2. [2026-01-20T10:00:20.000Z] "use pnpm, not npm"
            3. [2026-01-20T10:01:00.000Z] "and add a dark mode toggle"
            4. [2026-01-20T10:04:00.050Z] "Now write the tests."
            5. [2026-01-20T10:06:30.000Z] "wait, keep the API routes in app/api"
            6. [2026-01-20T10:12:00.000Z] "/init"
        "#]],
    );
}

#[test]
fn since_the_compaction_of_a_compact_command() {
    check_requests(
        memory().requests(&Workspace::new(&[TODO]), None, true),
        expect![[r#"
            claude-code claude-jsonl 5e551011-0000-4000-8000-000000000001 requests=6 updated=2026-01-20T10:12:40.000Z compactions=1 since=1 title="TODO app with Next.js" in=/home/bo/todo:/home/bo/todo
            6. [2026-01-20T10:12:00.000Z] "/init"
        "#]],
    );
}

#[test]
fn the_workspace_lists_archived_codex_sessions() {
    let answer = memory().list_sessions(&Workspace::new(&[TODO]), None, None);
    let mut out: String = answer.value.iter().map(|s| session_line(s) + "\n").collect();
    out += &warning_lines(&answer);
    expect![[r#"
        claude-code claude-jsonl 5e551011-0000-4000-8000-000000000001 requests=6 updated=2026-01-20T10:12:40.000Z compactions=1 since=1 title="TODO app with Next.js" in=/home/bo/todo:/home/bo/todo
        claude-code claude-jsonl 5e551011-0000-4000-8000-000000000002 requests=3 updated=2026-01-19T09:08:00.000Z in=/home/bo/todo:/home/bo/todo
        claude-code claude-jsonl 5e551011-0000-4000-8000-000000000003 requests=2 updated=2026-01-18T09:06:00.000Z in=/home/bo/todo:/home/bo/todo
        claude-code claude-jsonl 5e551011-0000-4000-8000-000000000004 requests=3 updated=2026-01-17T09:07:00.000Z compactions=1 since=2 in=/home/bo/todo:/home/bo/todo
        codex codex-rollout 0199c0de-0000-7000-8000-0000000000b2 requests=1 updated=2025-11-02T08:01:00.000Z in=/home/bo/todo:/home/bo/todo
    "#]]
    .assert_eq(&out);
}

/// An edited message starts a new branch from its parent: the requests left on the old
/// branch are not the conversation's.
#[test]
fn claude_code_edits_follow_the_branch_of_the_last_message() {
    check_requests(
        memory().requests(
            &Workspace::new(&[TODO]),
            Some("5e551011-0000-4000-8000-000000000002"),
            false,
        ),
        expect![[r#"
            claude-code claude-jsonl 5e551011-0000-4000-8000-000000000002 requests=3 updated=2026-01-19T09:08:00.000Z in=/home/bo/todo:/home/bo/todo
            1. [2026-01-19T09:00:00.000Z] "Add a search box to the list."
            2. [2026-01-19T09:06:00.000Z] "Make it case-insensitive, not fuzzy."
            3. [2026-01-19T09:08:00.000Z] "Good, commit it."
        "#]],
    );
}

/// Editing the first message starts a second root.
#[test]
fn claude_code_first_message_edited() {
    check_requests(
        memory().requests(
            &Workspace::new(&[TODO]),
            Some("5e551011-0000-4000-8000-000000000003"),
            false,
        ),
        expect![[r#"
            claude-code claude-jsonl 5e551011-0000-4000-8000-000000000003 requests=2 updated=2026-01-18T09:06:00.000Z in=/home/bo/todo:/home/bo/todo
            1. [2026-01-18T09:04:00.000Z] "Add a filter dropdown instead of a search box."
            2. [2026-01-18T09:06:00.000Z] "Sort it alphabetically."
        "#]],
    );
}

/// A compaction that starts the chain anew still continues what came before it.
#[test]
fn claude_code_edit_after_a_compaction_without_logical_parent() {
    check_requests(
        memory().requests(
            &Workspace::new(&[TODO]),
            Some("5e551011-0000-4000-8000-000000000004"),
            false,
        ),
        expect![[r#"
            claude-code claude-jsonl 5e551011-0000-4000-8000-000000000004 requests=3 updated=2026-01-17T09:07:00.000Z compactions=1 since=2 in=/home/bo/todo:/home/bo/todo
            1. [2026-01-17T09:00:00.000Z] "Write the importer."
            2. [2026-01-17T09:03:00.000Z] "Now the exporter."
            3. [2026-01-17T09:07:00.000Z] "In JSON."
        "#]],
    );
}

/// A scratch directory, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("locus-real-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(fs::canonicalize(&dir).unwrap())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn sha256(path: &Path) -> String {
    sha2::Sha256::digest(path.as_os_str().as_encoded_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Gemini CLI's older releases name a project's directory by the SHA-256 of the folder it
/// ran in; a session run in a folder below the workspace is the workspace's, as a Claude
/// Code or Codex session there is. Folders of other projects stay out.
#[test]
fn gemini_projects_named_by_hash_below_the_workspace() {
    let scratch = Scratch::new("gemini");
    let ws = scratch.0.join("todo");
    let api = ws.join("services/api");
    for dir in [&api, &ws.join(".git/objects"), &ws.join("node_modules/left-pad")] {
        fs::create_dir_all(dir).unwrap();
    }
    let home = scratch.0.join("home");
    let session = fixtures().join("gemini-hash/session-2025-08-01T09-00-6e6d1a44.json");
    let place = |folder: &Path, name: &str| {
        let chats = home.join(".gemini/tmp").join(sha256(folder)).join("chats");
        fs::create_dir_all(&chats).unwrap();
        fs::copy(&session, chats.join(name)).unwrap();
    };
    place(&api, "session-2025-08-01T09-00-6e6d1a44.json");
    // Skipped folders are not walked; a sibling project is not below the workspace.
    place(&ws.join("node_modules/left-pad"), "session-2025-08-01T09-00-00000001.json");
    place(&scratch.0.join("other"), "session-2025-08-01T09-00-00000002.json");
    let m = Recall::new(Stores::under_home(&home));
    let listed = m.list_sessions(&Workspace::new(&[&ws]), None, None);
    let lines: Vec<String> = listed
        .value
        .iter()
        .map(|s| {
            let folder = s.folder.as_deref().unwrap().strip_prefix(&scratch.0).unwrap();
            format!("{} {} {}", s.source, s.id, folder.display())
        })
        .collect();
    assert_eq!(lines, ["gemini 6e6d1a44-0000-4000-8000-000000000044 todo/services/api"]);
    assert!(listed.warnings.is_empty(), "{:?}", listed.warnings);
    let first = m.first_request(&Workspace::new(&[&ws]), None).unwrap();
    assert_eq!(first.value.request.text, "Why does the API return 500 on empty titles?");
}

/// The oldest Codex rollouts date nothing: requests take the time in the file's name, and
/// without one the file's modification time.
#[test]
fn undated_codex_requests_take_the_file_time() {
    let scratch = Scratch::new("codex-time");
    let home = scratch.0.join("home");
    let name = "rollout-2025-04-18T10-00-00-0199c0de-0000-7000-8000-0000000000b1.jsonl";
    let from = fixtures().join("codex-oldest").join(name);
    let mtime = SystemTime::UNIX_EPOCH + Duration::from_secs(1_746_421_505); // 2025-05-05T05:05:05Z
    let first_request_time = |to: &Path| {
        let _ = fs::remove_dir_all(home.join(".codex"));
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(&from, to).unwrap();
        fs::File::options().append(true).open(to).unwrap().set_modified(mtime).unwrap();
        let m = Recall::new(Stores::under_home(&home));
        let first = m.first_request(&Workspace::new(&[TODO]), None).unwrap();
        assert_eq!(first.value.request.text, "Sketch the data model for todos.");
        first.value.request.timestamp.unwrap().to_string()
    };
    let sessions = home.join(".codex/sessions");
    assert_eq!(
        first_request_time(&sessions.join("2025/04/18").join(name)),
        "2025-04-18T10:00:00.000Z"
    );
    let unnamed = sessions.join("rollout-0199c0de-0000-7000-8000-0000000000b1.jsonl");
    assert_eq!(first_request_time(&unnamed), "2025-05-05T05:05:05.000Z");
}
