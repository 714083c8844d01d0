//! Recall over a fixture home holding every store and format generation.
//!
//! `tests/fixtures/home` is a `$HOME` written by hand to the documented formats, with the
//! awkward cases: meta records and command wrappers, tool results, system reminders,
//! compaction in the middle, multi-part content with pasted images, Unicode, a rewind, a
//! session moved between folders, several sources for one workspace, sessions of another
//! workspace, corrupt, unknown and incomplete lines.
//!
//! Output is compared as compact text; `UPDATE_EXPECT=1 cargo test -p locus-dialog`
//! rewrites the expectations.

use std::path::{Path, PathBuf};

use expect_test::{Expect, expect};
use locus_dialog::{Answer, Recall, RecallError, Requests, SessionInfo, Source, Stores, Workspace};

const SHOP: &str = "/home/ada/shop";

fn home() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/home")
}

fn memory() -> Recall {
    Recall::new(Stores::under_home(&home()))
}

fn shop() -> Workspace {
    Workspace::new(&[SHOP])
}

fn relative(path: &Path) -> String {
    path.strip_prefix(home()).unwrap_or(path).display().to_string()
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
        let when = s.last_compaction.map_or("?".to_owned(), |t| t.to_string());
        line += &format!(
            " compactions={} last={when} since={}",
            s.compactions, s.requests_since_compaction
        );
    }
    if let Some(title) = &s.title {
        line += &format!(" title={title:?}");
    }
    if let Some(preview) = &s.preview {
        line += &format!(" preview={preview:?}");
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
    answer
        .warnings
        .iter()
        .map(|w| match w.line {
            Some(n) => format!("warning {}:{n}: {}\n", relative(&w.path), w.message),
            None => format!("warning {}: {}\n", relative(&w.path), w.message),
        })
        .collect()
}

fn check_list(answer: Answer<Vec<SessionInfo>>, expect: Expect) {
    let mut out: String = answer.value.iter().map(|s| session_line(s) + "\n").collect();
    out += &warning_lines(&answer);
    expect.assert_eq(&out);
}

fn check_requests(answer: Result<Answer<Requests>, RecallError>, expect: Expect) {
    let out = match answer {
        Ok(answer) => {
            let r = &answer.value;
            let mut out = session_line(&r.session) + "\n";
            for q in &r.requests {
                let when = q.timestamp.map_or("?".to_owned(), |t| t.to_string());
                let images =
                    if q.images > 0 { format!(" +{} image(s)", q.images) } else { String::new() };
                out += &format!("{}. [{when}]{images} {:?}\n", q.index, q.text);
            }
            out + &warning_lines(&answer)
        }
        Err(e) => format!("error {}: {e}\n", e.code()),
    };
    expect.assert_eq(&out);
}

fn requests_of(id: &str) -> Result<Answer<Requests>, RecallError> {
    memory().requests(&shop(), Some(id), false)
}

#[test]
fn lists_the_workspace_sessions_of_every_source_newest_first() {
    check_list(
        memory().list_sessions(&shop(), None, None),
        expect![[r#"
        codex codex-rollout 0199c0de-0000-7000-8000-000000000004 requests=3 updated=2025-10-30T09:05:00.000Z compactions=1 last=2025-10-30T09:03:00.000Z since=1 preview="Make checkout idempotent: a retried payment must not charge twice." in=/home/ada/shop:/home/ada/shop
        claude-code claude-jsonl c1a0de00-0000-4000-8000-000000000001 requests=5 updated=2025-10-29T12:00:00.000Z compactions=1 last=2025-10-29T11:00:00.000Z since=3 title="Cart in cents" preview="Add a cart to the shop. Keep prices in cents — never floats!…" in=/home/ada/shop:/home/ada/shop
        copilot copilot-transcript c0b1107a-0000-4000-8000-00000000000a requests=2 updated=2025-10-29T08:00:01.000Z compactions=1 last=2025-10-29T07:30:05.000Z since=1 preview="Profile the checkout endpoint and find the slow query." in=/home/ada/shop:/home/ada/shop
        gemini gemini-jsonl 6e6d1a11-0000-4000-8000-000000000006 requests=4 updated=2025-10-28T09:30:00.000Z compactions=1 last=2025-10-28T09:20:00.000Z since=1 title="Stacking discounts" preview="Explain how discounts are applied in @src/discount.rs" in=/home/ada/shop:/home/ada/shop
        copilot copilot-mutation-log c0b1107a-0000-4000-8000-000000000009 requests=3 updated=2025-10-27T08:30:00.000Z title="Basket rename" preview="Rename Cart to Basket everywhere." in=/home/ada/shop:/home/ada/shop
        copilot copilot-json c0b1107a-0000-4000-8000-000000000008 requests=2 updated=2025-10-26T09:00:00.000Z compactions=1 last=2025-10-26T09:00:00.000Z since=1 title="Tax rules" preview="@workspace where is VAT computed? #file:tax.rs" in=/home/ada/shop:/home/ada/shop
        copilot copilot-json c0b1107a-0000-4000-8000-00000000000b requests=1 updated=2025-10-25T09:00:00.000Z preview="Port the cart screen to SwiftUI." in=/home/ada/shop:/home/ada/shop/mobile app
        claude-code claude-jsonl c1a0de00-0000-4000-8000-000000000002 requests=2 updated=2025-10-20T09:00:00.000Z preview="Sketch the product catalogue API." in=/home/ada/shop:/home/ada/shop/web
        gemini gemini-json 6e6d1a22-0000-4000-8000-000000000007 requests=2 updated=2025-09-01T08:10:00.000Z preview="Which payment providers do we support?" in=/home/ada/shop:/home/ada/shop
        codex codex-rollout 0199c0de-0000-7000-8000-000000000005 requests=2 updated=2025-04-01T07:00:00.000Z preview="List the TODOs in the shop." in=/home/ada/shop:/home/ada/shop
        warning .config/Code/User/workspaceStorage/5f2e7c0a9b1d4e3f8a6b2c1d0e9f8a7b/chatSessions/c0b1107a-0000-4000-8000-0000000000ff.json: session skipped: cannot read: EOF while parsing a string at line 1 column 151
        warning .codex/sessions/2025/10/30/rollout-2025-10-30T09-00-00-0199c0de-0000-7000-8000-000000000004.jsonl:18: unknown rollout line type `future_record` skipped (further ones are skipped silently)
        warning .claude/projects/-home-ada-shop/c1a0de00-0000-4000-8000-000000000001.jsonl:11: unknown record type `mystery-record` skipped (further ones are skipped silently)
        warning .claude/projects/-home-ada-shop/c1a0de00-0000-4000-8000-000000000001.jsonl:15: line skipped: EOF while parsing an object at line 1 column 188
        warning .claude/projects/-home-ada-shop/c1a0de00-0000-4000-8000-000000000001.jsonl:25: incomplete last line skipped (the file is being written, or was cut short)
        warning .config/Code/User/workspaceStorage/5f2e7c0a9b1d4e3f8a6b2c1d0e9f8a7b/GitHub.copilot-chat/transcripts/c0b1107a-0000-4000-8000-00000000000a.jsonl:10: unknown event type `galaxy.event` skipped (further ones are skipped silently)
        warning .gemini/tmp/shop/chats/session-2025-10-28T09-00-6e6d1a11.jsonl:15: unknown message type `hologram` skipped (further ones are skipped silently)
        warning .config/Code/User/workspaceStorage/5f2e7c0a9b1d4e3f8a6b2c1d0e9f8a7b/chatSessions/c0b1107a-0000-4000-8000-000000000009.jsonl:11: unknown mutation kind `7` skipped (further ones are skipped silently)
    "#]],
    );
}

#[test]
fn list_filters_by_source_and_limits() {
    let m = memory();
    check_list(
        m.list_sessions(&shop(), Some(Source::Copilot), Some(2)),
        expect![[r#"
        copilot copilot-transcript c0b1107a-0000-4000-8000-00000000000a requests=2 updated=2025-10-29T08:00:01.000Z compactions=1 last=2025-10-29T07:30:05.000Z since=1 preview="Profile the checkout endpoint and find the slow query." in=/home/ada/shop:/home/ada/shop
        copilot copilot-mutation-log c0b1107a-0000-4000-8000-000000000009 requests=3 updated=2025-10-27T08:30:00.000Z title="Basket rename" preview="Rename Cart to Basket everywhere." in=/home/ada/shop:/home/ada/shop
        warning .config/Code/User/workspaceStorage/5f2e7c0a9b1d4e3f8a6b2c1d0e9f8a7b/chatSessions/c0b1107a-0000-4000-8000-0000000000ff.json: session skipped: cannot read: EOF while parsing a string at line 1 column 151
        warning .config/Code/User/workspaceStorage/5f2e7c0a9b1d4e3f8a6b2c1d0e9f8a7b/GitHub.copilot-chat/transcripts/c0b1107a-0000-4000-8000-00000000000a.jsonl:10: unknown event type `galaxy.event` skipped (further ones are skipped silently)
        warning .config/Code/User/workspaceStorage/5f2e7c0a9b1d4e3f8a6b2c1d0e9f8a7b/chatSessions/c0b1107a-0000-4000-8000-000000000009.jsonl:11: unknown mutation kind `7` skipped (further ones are skipped silently)
    "#]],
    );
    check_list(
        m.list_sessions(&shop(), Some(Source::Gemini), None),
        expect![[r#"
        gemini gemini-jsonl 6e6d1a11-0000-4000-8000-000000000006 requests=4 updated=2025-10-28T09:30:00.000Z compactions=1 last=2025-10-28T09:20:00.000Z since=1 title="Stacking discounts" preview="Explain how discounts are applied in @src/discount.rs" in=/home/ada/shop:/home/ada/shop
        gemini gemini-json 6e6d1a22-0000-4000-8000-000000000007 requests=2 updated=2025-09-01T08:10:00.000Z preview="Which payment providers do we support?" in=/home/ada/shop:/home/ada/shop
        warning .gemini/tmp/shop/chats/session-2025-10-28T09-00-6e6d1a11.jsonl:15: unknown message type `hologram` skipped (further ones are skipped silently)
    "#]],
    );
}

#[test]
fn the_current_dialog_is_the_most_recent_session_of_any_source() {
    let m = memory();
    let first = m.first_request(&shop(), None).unwrap();
    expect![[r#"
        codex 0199c0de-0000-7000-8000-000000000004 total=3
        "Make checkout idempotent: a retried payment must not charge twice."
    "#]]
    .assert_eq(&format!(
        "{} {} total={}\n{:?}\n",
        first.value.session.source,
        first.value.session.id,
        first.value.total_requests,
        first.value.request.text
    ));
    let second = m.request(&shop(), 2, None).unwrap();
    assert_eq!(second.value.request.text, "Why does this screenshot show a double charge?");
    assert_eq!(second.value.request.images, 1);
}

#[test]
fn claude_code_drops_harness_records_and_sees_the_compaction() {
    check_requests(
        requests_of("c1a0de00-0000-4000-8000-000000000001"),
        expect![[r#"
        claude-code claude-jsonl c1a0de00-0000-4000-8000-000000000001 requests=5 updated=2025-10-29T12:00:00.000Z compactions=1 last=2025-10-29T11:00:00.000Z since=3 title="Cart in cents" preview="Add a cart to the shop. Keep prices in cents — never floats!…" in=/home/ada/shop:/home/ada/shop
        1. [2025-10-29T10:01:00.000Z] "Add a cart to the shop. Keep prices in cents — never floats!\nNames may be Unicode: 日本語, Ünïcödé, emoji 🛒."
        2. [2025-10-29T10:05:00.000Z] +1 image(s) "Here is the mockup [Image #1]; match its layout."
        3. [2025-10-29T11:05:00.000Z] "Now write the tests."
        4. [2025-10-29T11:06:00.000Z] "also update the README"
        5. [2025-10-29T12:00:00.000Z] "Thanks — that's all for today."
        warning .claude/projects/-home-ada-shop/c1a0de00-0000-4000-8000-000000000001.jsonl:11: unknown record type `mystery-record` skipped (further ones are skipped silently)
        warning .claude/projects/-home-ada-shop/c1a0de00-0000-4000-8000-000000000001.jsonl:15: line skipped: EOF while parsing an object at line 1 column 188
        warning .claude/projects/-home-ada-shop/c1a0de00-0000-4000-8000-000000000001.jsonl:25: incomplete last line skipped (the file is being written, or was cut short)
    "#]],
    );
}

#[test]
fn requests_since_the_last_compaction() {
    let m = memory();
    check_requests(
        m.requests(&shop(), Some("c1a0de00-0000-4000-8000-000000000001"), true),
        expect![[r#"
        claude-code claude-jsonl c1a0de00-0000-4000-8000-000000000001 requests=5 updated=2025-10-29T12:00:00.000Z compactions=1 last=2025-10-29T11:00:00.000Z since=3 title="Cart in cents" preview="Add a cart to the shop. Keep prices in cents — never floats!…" in=/home/ada/shop:/home/ada/shop
        3. [2025-10-29T11:05:00.000Z] "Now write the tests."
        4. [2025-10-29T11:06:00.000Z] "also update the README"
        5. [2025-10-29T12:00:00.000Z] "Thanks — that's all for today."
        warning .claude/projects/-home-ada-shop/c1a0de00-0000-4000-8000-000000000001.jsonl:11: unknown record type `mystery-record` skipped (further ones are skipped silently)
        warning .claude/projects/-home-ada-shop/c1a0de00-0000-4000-8000-000000000001.jsonl:15: line skipped: EOF while parsing an object at line 1 column 188
        warning .claude/projects/-home-ada-shop/c1a0de00-0000-4000-8000-000000000001.jsonl:25: incomplete last line skipped (the file is being written, or was cut short)
    "#]],
    );
    check_requests(
        m.requests(&shop(), None, true),
        expect![[r#"
        codex codex-rollout 0199c0de-0000-7000-8000-000000000004 requests=3 updated=2025-10-30T09:05:00.000Z compactions=1 last=2025-10-30T09:03:00.000Z since=1 preview="Make checkout idempotent: a retried payment must not charge twice." in=/home/ada/shop:/home/ada/shop
        3. [2025-10-30T09:05:00.000Z] "Add a regression test for the double charge. Use the exact amount 1999 cents."
        warning .config/Code/User/workspaceStorage/5f2e7c0a9b1d4e3f8a6b2c1d0e9f8a7b/chatSessions/c0b1107a-0000-4000-8000-0000000000ff.json: session skipped: cannot read: EOF while parsing a string at line 1 column 151
        warning .codex/sessions/2025/10/30/rollout-2025-10-30T09-00-00-0199c0de-0000-7000-8000-000000000004.jsonl:18: unknown rollout line type `future_record` skipped (further ones are skipped silently)
    "#]],
    );
    // Never compacted: everything.
    check_requests(
        m.requests(&shop(), Some("c1a0de00-0000-4000-8000-000000000002"), true),
        expect![[r#"
        claude-code claude-jsonl c1a0de00-0000-4000-8000-000000000002 requests=2 updated=2025-10-20T09:00:00.000Z preview="Sketch the product catalogue API." in=/home/ada/shop:/home/ada/shop/web
        1. [2025-10-20T08:00:00.000Z] "Sketch the product catalogue API."
        2. [2025-10-20T09:00:00.000Z] "We moved the project into shop/web; continue there."
    "#]],
    );
}

#[test]
fn claude_code_session_moved_between_folders_is_found_by_its_records() {
    check_requests(
        requests_of("c1a0de00-0000-4000-8000-000000000002"),
        expect![[r#"
        claude-code claude-jsonl c1a0de00-0000-4000-8000-000000000002 requests=2 updated=2025-10-20T09:00:00.000Z preview="Sketch the product catalogue API." in=/home/ada/shop:/home/ada/shop/web
        1. [2025-10-20T08:00:00.000Z] "Sketch the product catalogue API."
        2. [2025-10-20T09:00:00.000Z] "We moved the project into shop/web; continue there."
    "#]],
    );
    let nested = Workspace::new(&[SHOP, "/home/ada/shop/web"]);
    let listed = memory().list_sessions(&nested, Some(Source::ClaudeCode), None);
    let moved = listed.value.iter().find(|s| s.id.ends_with("02")).unwrap();
    assert_eq!(
        moved.workspace_root.as_deref(),
        Some(Path::new("/home/ada/shop/web")),
        "the deepest root wins"
    );
}

#[test]
fn codex_keeps_typed_messages_and_drops_injected_context() {
    check_requests(
        requests_of("0199c0de-0000-7000-8000-000000000004"),
        expect![[r#"
        codex codex-rollout 0199c0de-0000-7000-8000-000000000004 requests=3 updated=2025-10-30T09:05:00.000Z compactions=1 last=2025-10-30T09:03:00.000Z since=1 preview="Make checkout idempotent: a retried payment must not charge twice." in=/home/ada/shop:/home/ada/shop
        1. [2025-10-30T09:00:01.000Z] "Make checkout idempotent: a retried payment must not charge twice."
        2. [2025-10-30T09:02:00.000Z] +1 image(s) "Why does this screenshot show a double charge?"
        3. [2025-10-30T09:05:00.000Z] "Add a regression test for the double charge. Use the exact amount 1999 cents."
        warning .codex/sessions/2025/10/30/rollout-2025-10-30T09-00-00-0199c0de-0000-7000-8000-000000000004.jsonl:18: unknown rollout line type `future_record` skipped (further ones are skipped silently)
    "#]],
    );
}

#[test]
fn codex_oldest_rollouts_fall_back_to_user_items() {
    check_requests(
        requests_of("0199c0de-0000-7000-8000-000000000005"),
        expect![[r#"
        codex codex-rollout 0199c0de-0000-7000-8000-000000000005 requests=2 updated=2025-04-01T07:00:00.000Z preview="List the TODOs in the shop." in=/home/ada/shop:/home/ada/shop
        1. [2025-04-01T07:00:00.000Z] "List the TODOs in the shop."
        2. [2025-04-01T07:00:00.000Z] "Fix the first one."
    "#]],
    );
}

#[test]
fn gemini_log_with_rewind_display_content_and_compression() {
    check_requests(
        requests_of("6e6d1a11-0000-4000-8000-000000000006"),
        expect![[r#"
        gemini gemini-jsonl 6e6d1a11-0000-4000-8000-000000000006 requests=4 updated=2025-10-28T09:30:00.000Z compactions=1 last=2025-10-28T09:20:00.000Z since=1 title="Stacking discounts" preview="Explain how discounts are applied in @src/discount.rs" in=/home/ada/shop:/home/ada/shop
        1. [2025-10-28T09:00:10.000Z] "Explain how discounts are applied in @src/discount.rs"
        2. [2025-10-28T09:05:00.000Z] +1 image(s) "What is in this receipt?"
        3. [2025-10-28T09:10:00.000Z] "Make discounts stack: 10% then 5% gives 14.5%."
        4. [2025-10-28T09:25:00.000Z] "Now round to whole cents, half up."
        warning .gemini/tmp/shop/chats/session-2025-10-28T09-00-6e6d1a11.jsonl:15: unknown message type `hologram` skipped (further ones are skipped silently)
    "#]],
    );
}

#[test]
fn gemini_legacy_json_in_a_hash_named_project() {
    check_requests(
        requests_of("6e6d1a22-0000-4000-8000-000000000007"),
        expect![[r#"
        gemini gemini-json 6e6d1a22-0000-4000-8000-000000000007 requests=2 updated=2025-09-01T08:10:00.000Z preview="Which payment providers do we support?" in=/home/ada/shop:/home/ada/shop
        1. [2025-09-01T08:00:05.000Z] "Which payment providers do we support?"
        2. [2025-09-01T08:10:00.000Z] "Drop PayPal."
    "#]],
    );
}

#[test]
fn copilot_generation_2_json() {
    check_requests(
        requests_of("c0b1107a-0000-4000-8000-000000000008"),
        expect![[r#"
        copilot copilot-json c0b1107a-0000-4000-8000-000000000008 requests=2 updated=2025-10-26T09:00:00.000Z compactions=1 last=2025-10-26T09:00:00.000Z since=1 title="Tax rules" preview="@workspace where is VAT computed? #file:tax.rs" in=/home/ada/shop:/home/ada/shop
        1. [2025-10-26T08:01:00.000Z] "@workspace where is VAT computed? #file:tax.rs"
        2. [2025-10-26T09:00:00.000Z] +1 image(s) "Does this invoice layout look right?"
    "#]],
    );
}

#[test]
fn copilot_generation_3_mutation_log() {
    check_requests(
        requests_of("c0b1107a-0000-4000-8000-000000000009"),
        expect![[r#"
        copilot copilot-mutation-log c0b1107a-0000-4000-8000-000000000009 requests=3 updated=2025-10-27T08:30:00.000Z title="Basket rename" preview="Rename Cart to Basket everywhere." in=/home/ada/shop:/home/ada/shop
        1. [2025-10-27T08:01:00.000Z] "Rename Cart to Basket everywhere."
        2. [2025-10-27T08:10:00.000Z] "Keep `Cart` in the public API; rename only internals."
        3. [2025-10-27T08:30:00.000Z] +1 image(s) "Update the changelog too."
        warning .config/Code/User/workspaceStorage/5f2e7c0a9b1d4e3f8a6b2c1d0e9f8a7b/chatSessions/c0b1107a-0000-4000-8000-000000000009.jsonl:11: unknown mutation kind `7` skipped (further ones are skipped silently)
    "#]],
    );
}

#[test]
fn copilot_generation_4_transcript() {
    check_requests(
        requests_of("c0b1107a-0000-4000-8000-00000000000a"),
        expect![[r#"
        copilot copilot-transcript c0b1107a-0000-4000-8000-00000000000a requests=2 updated=2025-10-29T08:00:01.000Z compactions=1 last=2025-10-29T07:30:05.000Z since=1 preview="Profile the checkout endpoint and find the slow query." in=/home/ada/shop:/home/ada/shop
        1. [2025-10-29T07:00:05.000Z] "Profile the checkout endpoint and find the slow query."
        2. [2025-10-29T08:00:00.000Z] +1 image(s) "Add the index and show me the plan in this screenshot's format."
        warning .config/Code/User/workspaceStorage/5f2e7c0a9b1d4e3f8a6b2c1d0e9f8a7b/GitHub.copilot-chat/transcripts/c0b1107a-0000-4000-8000-00000000000a.jsonl:10: unknown event type `galaxy.event` skipped (further ones are skipped silently)
    "#]],
    );
}

#[test]
fn copilot_macos_insiders_layout() {
    check_requests(
        requests_of("c0b1107a-0000-4000-8000-00000000000b"),
        expect![[r#"
        copilot copilot-json c0b1107a-0000-4000-8000-00000000000b requests=1 updated=2025-10-25T09:00:00.000Z preview="Port the cart screen to SwiftUI." in=/home/ada/shop:/home/ada/shop/mobile app
        1. [2025-10-25T09:00:00.000Z] "Port the cart screen to SwiftUI."
    "#]],
    );
}

#[test]
fn other_workspaces_only_by_exact_id() {
    let m = memory();
    let listed = m.list_sessions(&shop(), None, None);
    assert!(
        listed
            .value
            .iter()
            .all(|s| !s.id.ends_with("000000000003") && !s.id.ends_with("00000000000c"))
    );
    check_requests(
        m.requests(&shop(), Some("c1a0de00-0000-4000-8000-000000000003"), false),
        expect![[r#"
        claude-code claude-jsonl c1a0de00-0000-4000-8000-000000000003 requests=1 updated=2025-10-31T00:00:00.000Z preview="A question about another project entirely." outside=/home/ada/other
        1. [2025-10-31T00:00:00.000Z] "A question about another project entirely."
    "#]],
    );
    check_requests(
        m.requests(&shop(), Some("c0b1107a-0000-4000-8000-00000000000c"), false),
        expect![[r#"
        copilot copilot-json c0b1107a-0000-4000-8000-00000000000c requests=1 updated=2025-10-30T04:53:20.000Z preview="How do I exit vim?"
        1. [2025-10-30T04:53:20.000Z] "How do I exit vim?"
    "#]],
    );
    // Not by prefix.
    check_requests(
        m.requests(&shop(), Some("c1a0de00-0000-4000-8000"), false),
        expect![[r#"
        error E_NOT_FOUND: Session not found: c1a0de00-0000-4000-8000
    "#]],
    );
}

#[test]
fn errors_carry_the_contract_messages_and_codes() {
    let m = memory();
    let render = |e: RecallError| format!("{} | {e} | {}\n", e.code(), e.hint());
    let mut out = String::new();
    out += &render(m.first_request(&Workspace::new(&["/home/ada/empty"]), None).unwrap_err());
    out += &render(m.first_request(&shop(), Some("no-such-session")).unwrap_err());
    out += &render(
        m.first_request(&shop(), Some("c1a0de00-0000-4000-8000-0000000000e0")).unwrap_err(),
    );
    out += &render(m.request(&shop(), 0, None).unwrap_err());
    out += &render(m.request(&shop(), -3, None).unwrap_err());
    out += &render(m.request(&shop(), 99, None).unwrap_err());
    out +=
        &render(m.request(&shop(), 1, Some("c0b1107a-0000-4000-8000-0000000000ff")).unwrap_err());
    expect![[r#"
        E_NOT_FOUND | No active dialog found | No Claude Code, Codex, Gemini CLI or Copilot Chat session was recorded with its working directory in this workspace; list the workspace's sessions, or pass the session id explicitly
        E_NOT_FOUND | Session not found: no-such-session | Session ids are exact: copy one from the list of this workspace's sessions, or omit it for the current dialog
        E_NOT_FOUND | First request not available | The session has no request from the user yet; pick another session from the list
        E_INVALID_PARAMS | Index must be 1 or greater | Requests are numbered from 1; use 1 for the first request
        E_INVALID_PARAMS | Index must be 1 or greater | Requests are numbered from 1; use 1 for the first request
        E_INVALID_PARAMS | Index 99 exceeds total requests (3) | The session has 3 requests; ask for an index from 1 to 3
        E_UNSUPPORTED | Chat data not available for session | The transcript was found but could not be read (cannot read: EOF while parsing a string at line 1 column 151); try again, or pick another session
    "#]].assert_eq(&out);
}

#[test]
fn tool_homes_come_from_the_environment() {
    let vars = |name: &str| match name {
        "HOME" => Some("/nonexistent".into()),
        "CLAUDE_CONFIG_DIR" => Some(home().join(".claude").into_os_string()),
        "CODEX_HOME" => Some(home().join(".codex").into_os_string()),
        _ => None,
    };
    let m = Recall::new(Stores::from_vars(vars));
    let sources: Vec<Source> =
        m.list_sessions(&shop(), None, None).value.iter().map(|s| s.source).collect();
    assert!(sources.contains(&Source::ClaudeCode) && sources.contains(&Source::Codex));
    assert!(!sources.contains(&Source::Gemini) && !sources.contains(&Source::Copilot));
}
