//! Forged discovery files (docs/configuration.md, "Which files are trusted"): only files the user
//! wrote, in a directory only the user can write to, pointing at loopback and naming a live
//! `locus lsp` of the user, route an agent; everything else is refused on stderr with the file and
//! the reason.
#![cfg(unix)]

mod lsp_support;
mod mcp_support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lsp_support::file_uri;
use mcp_support::{Dirs, locus, start_sidecar};
use serde_json::{Value, json};

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Writes `record` as the discovery file of `pid` in `dirs`, the way a sidecar does: the
/// directory 0700, the file 0600.
fn plant(dirs: &Dirs, pid: u32, record: &Value) -> PathBuf {
    let dir = dirs.discovery_dir();
    std::fs::create_dir_all(&dir).unwrap();
    chmod(&dir, 0o700);
    let file = dir.join(format!("{pid}.json"));
    std::fs::write(&file, record.to_string()).unwrap();
    chmod(&file, 0o600);
    file
}

/// `locus status` in `dirs`: the pids it lists, and its stderr.
fn status(dirs: &Dirs) -> (Vec<u64>, String) {
    let (code, out, err) = locus(dirs, &dirs.workspace, &["status"]);
    assert_eq!(code, 0, "{err}");
    let pids = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["pid"].as_u64().unwrap())
        .collect();
    (pids, err)
}

fn refused(dirs: &Dirs, what: &str, needles: &[&str]) {
    let (pids, err) = status(dirs);
    assert!(pids.is_empty(), "{what}: a forged file was trusted: {pids:?}");
    for needle in needles {
        assert!(err.contains(needle), "{what}: stderr should name {needle:?}: {err}");
    }
    let (_, out, _) = locus(dirs, &dirs.workspace, &["call", "bridge_status"]);
    let e: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(e["data"]["mode"], "in-process", "{what}: {e}");
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

#[test]
fn forged_discovery_files_are_refused_loudly() {
    // A real sidecar, in a runtime directory of its own.
    let real = Dirs::new("disc-real");
    let (s, record) = start_sidecar(&real, &real.workspace, "real-editor");
    let pid = s.pid();
    // The same record, copied into another runtime directory whose workspace it claims.
    let dirs = Dirs::new("disc-forged");
    let mut copy = record.clone();
    copy["workspaceFolders"] = json!([dirs.workspace]);
    copy["lastActiveMs"] = json!(u64::MAX);

    // Control: a faithful copy is trusted, and a time in the future counts as now.
    let file = plant(&dirs, pid, &copy);
    let before = rfc3339_now();
    let (code, out, err) = locus(&dirs, &dirs.workspace, &["status"]);
    let after = rfc3339_now();
    assert_eq!(code, 0, "{err}");
    let line: Value = serde_json::from_str(out.lines().next().expect("listed")).unwrap();
    assert_eq!(line["pid"], pid, "{out}");
    let shown = line["lastActiveAt"].as_str().unwrap();
    assert!(
        before.as_str() <= shown && shown <= after.as_str(),
        "lastActiveMs = u64::MAX counts as now: {shown} not in {before}..{after}"
    );

    // A directory others can write to: anyone could have put the file there.
    let dir = dirs.discovery_dir();
    let dir_text = dir.display().to_string();
    for mode in [0o777, 0o770, 0o722] {
        chmod(&dir, mode);
        refused(&dirs, &format!("dir {mode:o}"), &[&dir_text, "other users can write"]);
    }
    chmod(&dir, 0o700);

    // A file others can read or write.
    let file_text = file.display().to_string();
    for mode in [0o644, 0o606, 0o660, 0o400] {
        chmod(&file, mode);
        refused(&dirs, &format!("file {mode:o}"), &[&file_text, &format!("{mode:04o}")]);
    }
    chmod(&file, 0o600);

    // A symbolic link to the real file is not followed.
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(real.discovery_file(pid), &file).unwrap();
    refused(&dirs, "symlink", &[&file_text]);
    std::fs::remove_file(&file).unwrap();

    // URLs that are not loopback http.
    let port = record["url"].as_str().unwrap().rsplit(':').next().unwrap().to_string();
    for url in [
        format!("http://10.0.0.1:{port}"),
        format!("http://evil.example:{port}"),
        format!("http://127.0.0.1.evil.example:{port}"),
        format!("http://[::2]:{port}"),
        format!("https://127.0.0.1:{port}"),
        format!("http://user:pw@127.0.0.1:{port}"),
        "not a url".to_string(),
    ] {
        let mut forged = copy.clone();
        forged["url"] = json!(url);
        let file = plant(&dirs, pid, &forged);
        refused(&dirs, &url, &[&file.display().to_string(), "loopback"]);
    }

    // Files owned by someone else (only root can make them here).
    if is_root() {
        let file = plant(&dirs, pid, &copy);
        std::os::unix::fs::chown(&file, Some(65534), Some(65534)).unwrap();
        refused(&dirs, "foreign file", &[&file.display().to_string(), "owned by uid 65534"]);
        std::fs::remove_file(&file).unwrap();
        let file = plant(&dirs, pid, &copy);
        std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).unwrap();
        refused(&dirs, "foreign dir", &[&dir_text, "owned by uid 65534"]);
        std::os::unix::fs::chown(&dir, Some(0), Some(0)).unwrap();
        std::fs::remove_file(&file).unwrap();
    } else {
        println!("not root: the foreign-owner cases are skipped");
    }

    // A file naming a live process that is not a `locus lsp` of the user: pid 1, a process
    // of the user that is not Locus, and `locus` that is not `lsp`.
    let mut sleeper = std::process::Command::new("sleep").arg("30").spawn().unwrap();
    let mut not_lsp = std::process::Command::new(env!("CARGO_BIN_EXE_locus"))
        .arg("mcp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    for (other, why) in [(1, "pid 1"), (sleeper.id(), "not Locus"), (not_lsp.id(), "`locus lsp`")] {
        let mut forged = copy.clone();
        forged["pid"] = json!(other);
        let file = plant(&dirs, other, &forged);
        refused(&dirs, why, &[&file.display().to_string(), &format!("pid {other}")]);
        assert!(!file.exists() || other == 1, "{why}: a stale file of the user is removed");
        let _ = std::fs::remove_file(&file);
    }
    let _ = sleeper.kill();
    let _ = sleeper.wait();
    let _ = not_lsp.kill();
    let _ = not_lsp.wait();

    // A record whose pid is not its file's.
    let mut forged = copy.clone();
    forged["pid"] = json!(pid + 1);
    let file = plant(&dirs, pid, &forged);
    refused(&dirs, "pid mismatch", &[&file.display().to_string(), "names pid"]);
    let _ = std::fs::remove_file(&file);

    drop(s);
}

/// An editor that starts Locus from a renamed copy of the binary (`locus-nightly`) is found:
/// `locus status` lists its sidecar and leaves its discovery file, where it once took the pid
/// for a reused one and deleted the live sidecar's file.
#[test]
fn a_sidecar_started_from_a_renamed_binary_is_found() {
    let dirs = Dirs::new("disc-renamed");
    let copy = dirs.workspace.parent().unwrap().join("bin").join("locus-nightly");
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_locus"), &copy).unwrap();
    let env = dirs.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut s = lsp_support::Server::start_exe(&copy, &[], &env);
    s.initialize(json!({"rootUri": file_uri(&dirs.workspace), "clientInfo": {"name": "e"}}));
    let file = dirs.discovery_file(s.pid());
    mcp_support::wait_record(&dirs, s.pid(), |_| true);
    let (pids, err) = status(&dirs);
    assert_eq!(pids, vec![u64::from(s.pid())], "{err}");
    assert!(file.exists(), "the live sidecar's file was removed: {err}");
    s.stop();
}

/// `locus lsp` will not put its token in a directory others can write to: MCP is disabled,
/// and the editor is told why.
#[test]
fn a_sidecar_refuses_a_runtime_directory_others_can_write_to() {
    let dirs = Dirs::new("disc-sidecar");
    let dir = dirs.discovery_dir();
    std::fs::create_dir_all(&dir).unwrap();
    chmod(&dir, 0o777);
    let env = dirs.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut s = lsp_support::Server::start_with_env(&[], &env);
    s.initialize(json!({"rootUri": file_uri(&dirs.workspace), "clientInfo": {"name": "e"}}));
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        let found = s.drain().iter().find(|m| m["method"] == "locus/mcpStatus").cloned();
        if let Some(m) = found {
            break m["params"].clone();
        }
        assert!(Instant::now() < deadline, "no locus/mcpStatus");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status["state"], "failed", "{status}");
    let message = status["message"].as_str().unwrap();
    assert!(message.contains(&dir.display().to_string()), "{message}");
    assert!(message.contains("other users can write"), "{message}");
    assert!(!dirs.discovery_file(s.pid()).exists());
    assert!(s.context(Value::Null).is_null(), "the language server still answers");
    s.stop();
}

fn rfc3339_now() -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    locus_tools::rfc3339(now)
}
