//! Gemini CLI's IDE mode through a live `locus lsp`: the discovery file in the temporary
//! folder's `gemini/ide`, the bearer token, MCP over streamable HTTP with the two diff tools,
//! and a dead process's file removed. The real CLI is driven by `tests/e2e/test_ide_channels.py`.

mod lsp_support;
mod mcp_support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use lsp_support::{Server, file_uri};
use mcp_support::{Dirs, WAIT, http_client, raw_post};
use serde_json::{Value, json};

fn discovery(dirs: &Dirs) -> (PathBuf, Value) {
    let dir = dirs.root.join("tmp").join("gemini").join("ide");
    let deadline = Instant::now() + WAIT;
    loop {
        let found = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .find(|e| e.file_name().to_string_lossy().starts_with("gemini-ide-server-"));
        if let Some(f) = found
            && let Ok(v) = serde_json::from_slice::<Value>(&std::fs::read(f.path()).unwrap())
        {
            return (f.path(), v);
        }
        assert!(Instant::now() < deadline, "no discovery file in {}", dir.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_cli_finds_the_editor_and_only_the_token_opens_it() {
    let dirs = Dirs::new("gemini-channel");
    // A file a killed Locus left: removed once a live one writes its own.
    let stale = dirs.root.join("tmp").join("gemini").join("ide");
    std::fs::create_dir_all(&stale).unwrap();
    let stale = stale.join("gemini-ide-server-999999999-1.json");
    std::fs::write(&stale, "{}").unwrap();

    let env: Vec<(&str, String)> = dirs.env();
    let env_refs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut s = Server::start_with_env(&[], &env_refs);
    let folder = file_uri(&dirs.workspace);
    s.initialize(json!({"rootUri": folder, "workspaceFolders": [{"uri": folder, "name": "ws"}],
        "clientInfo": {"name": "helix"}}));
    let (path, record) = discovery(&dirs);
    let port = record["port"].as_u64().unwrap();
    assert_eq!(
        path.file_name().unwrap().to_string_lossy(),
        format!("gemini-ide-server-{}-{port}.json", s.pid())
    );
    assert_eq!(record["workspacePath"], dirs.workspace.display().to_string());
    assert_eq!(record["ideInfo"], json!({"name": "helix", "displayName": "Helix"}));
    assert!(!stale.exists(), "a dead process's file was left for the CLI to try");

    let url = format!("http://127.0.0.1:{port}/mcp");
    let token = record["authToken"].as_str().unwrap();
    assert_eq!(raw_post(&url, &[]), 401, "no token");
    assert_eq!(raw_post(&url, &[("Authorization", "Bearer wrong")]), 401, "a wrong token");
    let tools = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let client = http_client(&json!({"url": url, "token": token})).await;
        let tools = client.list_all_tools().await.unwrap();
        tools.into_iter().map(|t| t.name.to_string()).collect::<Vec<_>>()
    });
    assert_eq!(tools, ["openDiff", "closeDiff"]);

    s.stop();
    assert!(!path.exists(), "the discovery file outlived its editor");
}
