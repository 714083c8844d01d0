//! The index: growing files are read from where reading stopped, rewritten files again,
//! files being written are read up to their last complete line.
#![cfg(unix)]

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use locus_dialog::{Recall, Stores, Workspace};

/// A scratch `$HOME`, removed when dropped.
struct Home(PathBuf);

impl Home {
    fn new(name: &str) -> Home {
        let dir = std::env::temp_dir().join(format!("locus-dialog-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Home(dir)
    }

    fn file(&self, relative: &str) -> PathBuf {
        let path = self.0.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        path
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

const WS: &str = "/home/ada/growing";
const CLAUDE: &str = ".claude/projects/-home-ada-growing/s1.jsonl";

fn user(text: &str, minute: u32) -> String {
    format!(
        "{{\"type\":\"user\",\"cwd\":\"{WS}\",\"sessionId\":\"s1\",\"uuid\":\"u{minute}\",\"timestamp\":\"2025-11-01T10:{minute:02}:00Z\",\"message\":{{\"role\":\"user\",\"content\":{}}}}}\n",
        serde_json::to_string(text).unwrap()
    )
}

fn assistant(len: usize) -> String {
    format!(
        "{{\"type\":\"assistant\",\"cwd\":\"{WS}\",\"message\":{{\"role\":\"assistant\",\"content\":[{{\"type\":\"text\",\"text\":\"{}\"}}]}}}}\n",
        "x".repeat(len)
    )
}

fn append(path: &Path, text: &str) {
    OpenOptions::new().append(true).open(path).unwrap().write_all(text.as_bytes()).unwrap();
}

fn texts(memory: &Recall) -> Vec<String> {
    let all = memory.requests(&Workspace::new(&[WS]), None, false).unwrap();
    all.value.requests.into_iter().map(|r| r.text).collect()
}

#[test]
fn a_grown_file_is_read_from_where_reading_stopped() {
    let home = Home::new("grow");
    let path = home.file(CLAUDE);
    // The first request sits between 8 KiB of assistant output on each side, away from
    // the bytes compared to detect a rewrite.
    fs::write(&path, assistant(8000) + &user("first: AAAA", 1) + &assistant(8000)).unwrap();
    let memory = Recall::new(Stores::under_home(&home.0));
    assert_eq!(texts(&memory), ["first: AAAA"]);

    // Changed in place where the index does not look, then appended to: only the new line
    // is read, so the old request is still the one read before.
    let offset = fs::read_to_string(&path).unwrap().find("AAAA").unwrap() as u64;
    fs::File::options().write(true).open(&path).unwrap().write_all_at(b"BBBB", offset).unwrap();
    append(&path, &user("second", 2));
    assert_eq!(texts(&memory), ["first: AAAA", "second"]);

    // A fresh index reads the whole file.
    let fresh = Recall::new(Stores::under_home(&home.0));
    assert_eq!(texts(&fresh), ["first: BBBB", "second"]);
}

#[test]
fn a_rewritten_file_is_read_again() {
    let home = Home::new("rewrite");
    let path = home.file(CLAUDE);
    fs::write(&path, user("one", 1) + &user("two", 2) + &user("three", 3)).unwrap();
    let memory = Recall::new(Stores::under_home(&home.0));
    assert_eq!(texts(&memory), ["one", "two", "three"]);
    // Shorter.
    fs::write(&path, user("uno", 1)).unwrap();
    assert_eq!(texts(&memory), ["uno"]);
    // Longer, with different first bytes.
    fs::write(&path, assistant(10) + &user("eins", 1) + &user("zwei", 2)).unwrap();
    assert_eq!(texts(&memory), ["eins", "zwei"]);
}

#[test]
fn a_file_being_written_is_read_to_its_last_complete_line() {
    let home = Home::new("partial");
    let path = home.file(CLAUDE);
    let second = user("second, still being written", 2);
    let (head, rest) = second.split_at(40);
    fs::write(&path, user("first", 1) + head).unwrap();
    let memory = Recall::new(Stores::under_home(&home.0));
    let answer = memory.requests(&Workspace::new(&[WS]), None, false).unwrap();
    assert_eq!(answer.value.total_requests, 1);
    assert_eq!(answer.warnings.len(), 1);
    assert!(answer.warnings[0].message.contains("incomplete last line"), "{:?}", answer.warnings);
    assert_eq!(answer.warnings[0].line, Some(2));

    append(&path, rest);
    let answer = memory.requests(&Workspace::new(&[WS]), None, false).unwrap();
    assert_eq!(
        answer.value.requests.iter().map(|r| r.text.as_str()).collect::<Vec<_>>(),
        ["first", "second, still being written"]
    );
    assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
}

#[test]
fn copilot_mutation_log_rewritten_by_compaction_is_read_again() {
    let home = Home::new("copilot");
    let storage = ".config/Code/User/workspaceStorage/h1";
    fs::write(
        home.file(&format!("{storage}/workspace.json")),
        format!("{{\"folder\":\"file://{WS}\"}}"),
    )
    .unwrap();
    let log = home.file(&format!("{storage}/chatSessions/c1.jsonl"));
    let request = |id: &str, text: &str, ms: u64| {
        format!(
            "{{\"requestId\":\"{id}\",\"timestamp\":{ms},\"message\":{{\"text\":\"{text}\",\"parts\":[]}},\"response\":[]}}"
        )
    };
    fs::write(
        &log,
        format!(
            "{{\"kind\":0,\"v\":{{\"sessionId\":\"c1\",\"creationDate\":1762000000000,\"requests\":[{}]}}}}\n",
            request("a", "alpha", 1762000001000)
        ),
    )
    .unwrap();
    append(
        &log,
        &format!(
            "{{\"kind\":2,\"k\":[\"requests\"],\"v\":[{}]}}\n",
            request("b", "beta", 1762000002000)
        ),
    );
    let memory = Recall::new(Stores::under_home(&home.0));
    assert_eq!(texts(&memory), ["alpha", "beta"]);

    // VS Code replaces the log with one initial entry holding the whole state.
    let all = [
        request("a", "alpha", 1762000001000),
        request("b", "beta", 1762000002000),
        request("c", "gamma", 1762000003000),
    ]
    .join(",");
    fs::write(&log, format!("{{\"kind\":0,\"v\":{{\"sessionId\":\"c1\",\"creationDate\":1762000000000,\"requests\":[{all}]}}}}\n"))
        .unwrap();
    assert_eq!(texts(&memory), ["alpha", "beta", "gamma"]);
    append(
        &log,
        "{\"kind\":1,\"k\":[\"requests\",2,\"message\",\"text\"],\"v\":\"gamma, edited\"}\n",
    );
    assert_eq!(texts(&memory), ["alpha", "beta", "gamma, edited"]);
}

#[test]
fn a_deleted_file_is_forgotten() {
    let home = Home::new("delete");
    let path = home.file(CLAUDE);
    fs::write(&path, user("here", 1)).unwrap();
    let memory = Recall::new(Stores::under_home(&home.0));
    assert_eq!(texts(&memory), ["here"]);
    fs::remove_file(&path).unwrap();
    let err = memory.first_request(&Workspace::new(&[WS]), None).unwrap_err();
    assert_eq!(err.to_string(), "No active dialog found");
}

#[test]
fn memory_is_shared_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Recall>();
}

#[test]
fn a_session_whose_directory_changed_late_is_found_by_its_last_records() {
    let home = Home::new("late-cwd");
    // Started elsewhere, with plenty of output, then continued in the workspace.
    let path = home.file(".claude/projects/-home-ada-elsewhere/s9.jsonl");
    let early = user("started elsewhere", 1).replace(WS, "/home/ada/elsewhere");
    let output = assistant(70_000).replace(WS, "/home/ada/elsewhere");
    fs::write(&path, early + &output + &user("now in the workspace", 2)).unwrap();
    let memory = Recall::new(Stores::under_home(&home.0));
    assert_eq!(texts(&memory), ["started elsewhere", "now in the workspace"]);
}

fn queue(operation: &str, text: Option<&str>, minute: u32) -> String {
    let content = text
        .map_or(String::new(), |t| format!(",\"content\":{}", serde_json::to_string(t).unwrap()));
    format!(
        "{{\"type\":\"queue-operation\",\"operation\":\"{operation}\",\"timestamp\":\"2025-11-01T10:{minute:02}:00Z\",\"sessionId\":\"s1\"{content}}}\n"
    )
}

/// What a line means may depend on the lines after it (a slash command's output, a queued
/// prompt handed over): read in pieces, the requests come out as when read at once.
#[test]
fn commands_and_queued_prompts_read_in_pieces() {
    let home = Home::new("pieces");
    let path = home.file(CLAUDE);
    fs::write(&path, user("Build the parser.", 1) + &assistant(10)).unwrap();
    let memory = Recall::new(Stores::under_home(&home.0));
    assert_eq!(texts(&memory), ["Build the parser."]);

    // A queued prompt counts once it is handed to the agent, at the time it was sent.
    append(&path, &queue("enqueue", Some("and the printer"), 2));
    assert_eq!(texts(&memory), ["Build the parser."]);
    append(&path, &queue("remove", Some("and the printer"), 3));
    assert_eq!(texts(&memory), ["Build the parser.", "and the printer"]);
    let all = memory.requests(&Workspace::new(&[WS]), None, false).unwrap();
    assert_eq!(all.value.requests[1].timestamp.unwrap().to_string(), "2025-11-01T10:02:00.000Z");

    // A built-in session command is never a request; a local command Locus does not know
    // is withdrawn when its output follows, even in a later read.
    append(
        &path,
        &user("<command-name>/model</command-name>\n<command-args>opus</command-args>", 4),
    );
    assert_eq!(texts(&memory), ["Build the parser.", "and the printer"]);
    append(
        &path,
        &user("<command-name>/newer-builtin</command-name>\n<command-args>x</command-args>", 5),
    );
    assert_eq!(texts(&memory), ["Build the parser.", "and the printer", "/newer-builtin x"]);
    append(&path, &user("<local-command-stdout>Done</local-command-stdout>", 5));
    assert_eq!(texts(&memory), ["Build the parser.", "and the printer"]);

    // A prompt command stays once the model answers it.
    append(
        &path,
        &user("<command-name>/review</command-name>\n<command-args>the lexer</command-args>", 6),
    );
    append(&path, &assistant(10));
    append(&path, &user("<local-command-stdout></local-command-stdout>", 7));
    let fresh = Recall::new(Stores::under_home(&home.0));
    for m in [&memory, &fresh] {
        assert_eq!(texts(m), ["Build the parser.", "and the printer", "/review the lexer"]);
    }
}
