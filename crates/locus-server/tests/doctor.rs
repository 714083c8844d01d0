//! `locus doctor` against a scratch home: every kind of check, as the user sees it and as
//! `--json` says it, with a real Neovim reading the runtimepath and a real sidecar running.
#![cfg(unix)]

mod lsp_support;
mod mcp_support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use lsp_support::{Server, file_uri, temp_dir};
use serde_json::{Value, json};

/// The Neovim of the test peers (scripts/install-test-peers.sh).
fn nvim_dir() -> PathBuf {
    let dir = std::env::var_os("LOCUS_PEERS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/peers"))
        .join("venv/bin");
    assert!(
        dir.join("nvim").is_file(),
        "no nvim in {}: run scripts/install-test-peers.sh",
        dir.display()
    );
    dir
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A scratch user: home, runtime directory, a bin folder with `locus` in it, a project.
struct Scratch {
    home: PathBuf,
    runtime: PathBuf,
    bin: PathBuf,
    project: PathBuf,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let root = temp_dir(name);
        let s = Scratch {
            home: root.join("home"),
            runtime: root.join("run"),
            bin: root.join("bin"),
            project: root.join("project"),
        };
        for d in [&s.home, &s.runtime, &s.bin, &s.project] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_locus"), s.bin.join("locus")).unwrap();
        s
    }

    fn env(&self) -> Vec<(&'static str, String)> {
        let path = format!("{}:{}:/usr/bin:/bin", self.bin.display(), nvim_dir().display());
        vec![
            ("HOME", self.home.display().to_string()),
            ("XDG_RUNTIME_DIR", self.runtime.display().to_string()),
            // Gemini CLI's discovery files go in the temporary folder's gemini/ide.
            ("TMPDIR", self.home.display().to_string()),
            ("PATH", path),
        ]
    }

    /// `locus doctor ARGS` in the project; (exit code, stdout).
    fn doctor(&self, args: &[&str]) -> (i32, String) {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_locus"));
        cmd.arg("doctor").args(args).current_dir(&self.project).env_clear();
        for (k, v) in self.env() {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.is_empty() || out.status.code() != Some(0), "stderr: {stderr}");
        (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap())
    }

    fn checks(&self) -> Vec<Value> {
        let (code, out) = self.doctor(&["--json"]);
        assert_eq!(code, 0, "{out}");
        out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }
}

fn find<'a>(checks: &'a [Value], name: &str) -> &'a Value {
    checks
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no check named {name}: {checks:#?}"))
}

fn status(checks: &[Value], name: &str) -> String {
    find(checks, name)["status"].as_str().unwrap().to_string()
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn an_empty_home_says_what_is_missing_and_how_to_add_it() {
    let s = Scratch::new("doctor-empty");
    let checks = s.checks();
    assert_eq!(status(&checks, &format!("locus {}", env!("CARGO_PKG_VERSION"))), "ok");
    assert_eq!(status(&checks, "runtime directory"), "ok");
    assert_eq!(status(&checks, "sidecars"), "absent");
    // Neovim is installed (the test peers') but has no plugin.
    let nvim = find(&checks, "Neovim");
    assert_eq!(nvim["status"], "problem", "{nvim}");
    assert!(nvim["fix"].as_str().unwrap().contains("editors/nvim"), "{nvim}");
    assert_eq!(status(&checks, "Helix"), "absent");
    for agent in ["Claude Code", "Codex", "Copilot in VS Code", "Cursor", "Gemini CLI"] {
        let c = find(&checks, agent);
        assert_eq!(c["status"], "absent", "{c}");
        assert!(c["fix"].as_str().unwrap().contains("locus"), "{c}");
    }
    assert_eq!(find(&checks, "Claude Code")["fix"], "claude mcp add locus -- locus mcp");
    for store in ["Claude Code transcripts", "Codex transcripts"] {
        assert_eq!(status(&checks, store), "absent");
    }
    assert!(checks.iter().any(|c| c["area"] == "debug"), "{checks:#?}");
    // The human report: one line per check, each with its mark.
    let (code, text) = s.doctor(&[]);
    assert_eq!(code, 0);
    assert_eq!(text.lines().count(), checks.len(), "{text}");
    for line in text.lines() {
        assert!(["✓ ", "✗ ", "· "].iter().any(|m| line.starts_with(m)), "{line}");
    }
    assert!(
        text.lines()
            .any(|l| l.starts_with("✗ Neovim: the Locus plugin is not on the runtimepath — fix: ")),
        "{text}"
    );
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn a_configured_home_is_recognised_and_a_broken_file_named() {
    let s = Scratch::new("doctor-configured");
    let home = &s.home;
    // Neovim: the plugin in a package of the user's, as a plugin manager puts it.
    let pack = home.join(".local/share/nvim/site/pack/locus/start/locus");
    std::fs::create_dir_all(&pack).unwrap();
    std::os::unix::fs::symlink(repo().join("editors/nvim/lua"), pack.join("lua")).unwrap();
    // Helix: the repository's snippet.
    let helix = std::fs::read_to_string(repo().join("editors/helix/languages.toml")).unwrap();
    write(&home.join(".config/helix/languages.toml"), &helix);
    // VS Code (code-server's folder) with the extension.
    write(
        &home.join(".local/share/code-server/extensions/locus.locus-0.1.0/package.json"),
        r#"{"name": "locus"}"#,
    );
    // Claude Code per project, Codex without Locus, Copilot in the project, Gemini unreadable.
    let claude = json!({"projects": {s.project.display().to_string(): {"mcpServers": {
        "editor": {"type": "stdio", "command": s.bin.join("locus"), "args": ["mcp"]}}}}});
    write(&home.join(".claude.json"), &claude.to_string());
    write(
        &home.join(".codex/config.toml"),
        "[mcp_servers.other]\ncommand = \"npx\"\nargs = [\"x\"]\n",
    );
    write(
        &s.project.join(".vscode/mcp.json"),
        r#"{"servers": {"locus": {"type": "stdio", "command": "locus", "args": ["mcp", "--workspace", "${workspaceFolder}"]}}}"#,
    );
    write(&home.join(".gemini/settings.json"), "{\"mcpServers\": {");
    // Transcripts of Claude Code.
    std::fs::create_dir_all(home.join(".claude/projects/-p")).unwrap();

    let checks = s.checks();
    let nvim = find(&checks, "Neovim");
    assert_eq!(nvim["status"], "ok", "{nvim}");
    let helix = find(&checks, "Helix");
    assert_eq!(helix["status"], "ok", "{helix}");
    assert!(helix["detail"].as_str().unwrap().contains("python, typescript"), "{helix}");
    assert_eq!(status(&checks, "VS Code"), "ok");
    let claude = find(&checks, "Claude Code");
    assert_eq!(claude["status"], "ok", "{claude}");
    assert!(claude["detail"].as_str().unwrap().contains("~/.claude.json"), "{claude}");
    let codex = find(&checks, "Codex");
    assert_eq!(codex["status"], "problem", "{codex}");
    assert_eq!(codex["fix"], "codex mcp add locus -- locus mcp");
    let copilot = find(&checks, "Copilot in VS Code");
    assert_eq!(copilot["status"], "ok", "{copilot}");
    let gemini = find(&checks, "Gemini CLI");
    assert_eq!(gemini["status"], "problem", "{gemini}");
    assert!(
        gemini["detail"].as_str().unwrap().starts_with("cannot read ~/.gemini/settings.json"),
        "{gemini}"
    );
    let transcripts = find(&checks, "Claude Code transcripts");
    assert_eq!(transcripts["status"], "ok", "{transcripts}");
    assert!(transcripts["detail"].as_str().unwrap().contains("(1 projects)"), "{transcripts}");

    // Helix with locus declared but listed by no language.
    write(
        &home.join(".config/helix/languages.toml"),
        "[language-server.locus]\ncommand = \"locus\"\nargs = [\"lsp\"]\n",
    );
    let helix = find(&s.checks(), "Helix").clone();
    assert_eq!(helix["status"], "problem", "{helix}");
    assert!(helix["fix"].as_str().unwrap().contains("language-servers"), "{helix}");
}

/// Cursor offers a model at most 40 tools across all its servers: all of Locus's beside
/// another server is too many, and `--tools` brings it under.
#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn cursor_is_warned_when_locus_fills_its_tool_cap() {
    let s = Scratch::new("doctor-cursor");
    let cursor = s.project.join(".cursor/mcp.json");
    let servers = |args: Value| {
        json!({"mcpServers": {"locus": {"command": "locus", "args": args}, "other": {"command": "npx", "args": ["x"]}}})
            .to_string()
    };
    write(&cursor, &servers(json!(["mcp"])));
    let check = find(&s.checks(), "Cursor").clone();
    assert_eq!(check["status"], "problem", "{check}");
    let detail = check["detail"].as_str().unwrap();
    let all = Command::new(env!("CARGO_BIN_EXE_locus")).arg("tools").output().unwrap().stdout;
    let all = String::from_utf8(all).unwrap().lines().count();
    assert!(all >= 40, "{all} tools");
    let offers = format!("which offers {all} tools");
    assert!(detail.contains(&offers) && detail.contains("at most 40 tools"), "{check}");
    assert!(
        check["fix"].as_str().unwrap().contains("--tools editor,symbol` (11 tools)"),
        "{check}"
    );

    write(&cursor, &servers(json!(["mcp", "--tools", "editor,symbol"])));
    let check = find(&s.checks(), "Cursor").clone();
    assert_eq!(check["status"], "ok", "{check}");
    assert!(check["detail"].as_str().unwrap().contains("which offers 11 tools"), "{check}");

    write(&cursor, &servers(json!(["mcp", "--tools=editor,debugger"])));
    let check = find(&s.checks(), "Cursor").clone();
    assert_eq!(check["status"], "problem", "{check}");
    assert!(check["detail"].as_str().unwrap().contains("`debugger` is neither"), "{check}");
}

#[test]
#[ignore = "drives real peers installed by scripts/install-test-peers.sh and install-debug-adapters.sh; scripts/test.sh runs it"]
fn live_sidecars_and_an_unsafe_runtime_directory() {
    let s = Scratch::new("doctor-sidecar");
    let env = s.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut server = Server::start_with_env(&[], &env);
    server.initialize(json!({
        "workspaceFolders": [{"uri": file_uri(&s.project), "name": "project"}],
        "clientInfo": {"name": "doctor-editor"},
    }));
    let file = s.runtime.join("locus").join(format!("{}.json", server.pid()));
    let deadline = std::time::Instant::now() + mcp_support::WAIT;
    let named = |c: &Value| c["name"] == format!("sidecar pid {}", server.pid());
    let sidecar = loop {
        let checks = s.checks();
        if let Some(c) = checks.iter().find(|c| named(c))
            && c["detail"].as_str().unwrap().contains("doctor-editor")
        {
            break c.clone();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no sidecar line for {}: {checks:#?}",
            file.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(sidecar["status"], "ok", "{sidecar}");
    assert!(
        sidecar["detail"].as_str().unwrap().contains(&s.project.display().to_string()),
        "{sidecar}"
    );
    // The agents' own IDE channels it serves.
    assert!(
        sidecar["detail"].as_str().unwrap().contains("IDE channels: claude (port "),
        "{sidecar}"
    );
    assert!(sidecar["detail"].as_str().unwrap().contains("gemini (port "), "{sidecar}");
    // A sidecar that does not answer (stopped: alive, silent) is a problem, said in 3 s.
    // SAFETY: kill only sends a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(server.pid() as i32, libc::SIGSTOP) }, 0);
    let checks = s.checks();
    // SAFETY: as above.
    unsafe { libc::kill(server.pid() as i32, libc::SIGCONT) };
    let stopped = checks.iter().find(|c| named(c)).unwrap();
    assert_eq!(stopped["status"], "problem", "{stopped}");
    assert!(stopped["detail"].as_str().unwrap().contains("did not answer within 3 s"), "{stopped}");
    server.stop();

    // A runtime directory others can write to: refused, with the fix.
    let dir = s.runtime.join("locus");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let checks = s.checks();
    let runtime = find(&checks, "runtime directory");
    assert_eq!(runtime["status"], "problem", "{runtime}");
    assert!(
        runtime["detail"].as_str().unwrap().contains("other users can write to it"),
        "{runtime}"
    );
    assert!(runtime["fix"].as_str().unwrap().contains("chmod 700"), "{runtime}");
    let refused = find(&checks, "discovery file");
    assert_eq!(refused["status"], "problem", "{refused}");
}
