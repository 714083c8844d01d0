//! Where each tool keeps its transcripts, and finding them.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::model::Format;
use crate::warning::Warning;
use crate::workspace::file_uri_path;

/// The directories searched for transcripts, one list per tool.
///
/// Built from the environment the way each tool resolves its own home
/// ([`Stores::from_env`]), or rooted at any directory that stands for `$HOME`
/// ([`Stores::under_home`]), which is how tests point Locus at fixture trees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stores {
    /// Claude Code configuration directories (each holds `projects/`).
    pub claude: Vec<PathBuf>,
    /// Codex homes (each holds `sessions/` and `archived_sessions/`).
    pub codex: Vec<PathBuf>,
    /// Gemini CLI directories (each holds `tmp/` and `projects.json`).
    pub gemini: Vec<PathBuf>,
    /// VS Code-family `User` directories (each holds `workspaceStorage/`, `globalStorage/`).
    pub vscode: Vec<PathBuf>,
}

impl Stores {
    /// The stores of the current process's environment: see [`Stores::from_vars`].
    pub fn from_env() -> Stores {
        Stores::from_vars(|name| std::env::var_os(name))
    }

    /// The stores for an environment given as a lookup function.
    ///
    /// - home: `LOCUS_MEMORY_HOME` (an override for Locus alone), else `HOME`, else `USERPROFILE`;
    /// - Claude Code: `CLAUDE_CONFIG_DIR`, else `~/.claude` and `$XDG_CONFIG_HOME/claude`;
    /// - Codex: `CODEX_HOME`, else `~/.codex`;
    /// - Gemini CLI: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`;
    /// - VS Code: `Code`, `Code - Insiders`, `VSCodium`, `Code - OSS` under `$XDG_CONFIG_HOME`
    ///   (`~/.config`), `~/Library/Application Support` and `%APPDATA%`; the remote servers'
    ///   `~/.vscode-server{,-insiders}/data/User`; code-server's
    ///   `$XDG_DATA_HOME/code-server/User`; a portable install's `$VSCODE_PORTABLE/user-data/User`.
    pub fn from_vars(var: impl Fn(&str) -> Option<OsString>) -> Stores {
        let nonempty = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = nonempty("LOCUS_MEMORY_HOME")
            .or_else(|| nonempty("HOME"))
            .or_else(|| nonempty("USERPROFILE"));
        let home = home.unwrap_or_else(|| PathBuf::from("/nonexistent-home"));
        let config = nonempty("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config"));
        let data = nonempty("XDG_DATA_HOME").unwrap_or_else(|| home.join(".local/share"));

        let claude = match nonempty("CLAUDE_CONFIG_DIR") {
            Some(dir) => vec![dir],
            None => vec![home.join(".claude"), config.join("claude")],
        };
        let codex = vec![nonempty("CODEX_HOME").unwrap_or_else(|| home.join(".codex"))];
        let gemini = vec![
            nonempty("GEMINI_CLI_HOME")
                .map(|d| d.join(".gemini"))
                .unwrap_or_else(|| home.join(".gemini")),
        ];

        let mut vscode = Vec::new();
        let mut bases = vec![config, home.join("Library/Application Support")];
        bases.extend(nonempty("APPDATA"));
        for base in bases {
            for product in
                ["Code", "Code - Insiders", "VSCodium", "VSCodium - Insiders", "Code - OSS"]
            {
                vscode.push(base.join(product).join("User"));
            }
        }
        vscode.push(home.join(".vscode-server/data/User"));
        vscode.push(home.join(".vscode-server-insiders/data/User"));
        vscode.push(data.join("code-server/User"));
        vscode.extend(nonempty("VSCODE_PORTABLE").map(|p| p.join("user-data/User")));
        Stores { claude, codex, gemini, vscode }
    }

    /// The default stores of a user whose home is `home`, ignoring every environment
    /// variable: the Linux and macOS layouts both, so one fixture tree can hold either.
    pub fn under_home(home: &Path) -> Stores {
        let home = home.as_os_str().to_owned();
        Stores::from_vars(|name| (name == "HOME").then(|| home.clone()))
    }
}

/// How a transcript file is tied to a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Binding {
    /// The records carry the working directory (Claude Code, Codex). For Claude Code, the
    /// project directory's name nominates it too.
    Cwd { claude_dir: Option<String> },
    /// The store's layout names the folders (Copilot's `workspace.json`, Gemini's project
    /// directory); empty for windows without a folder.
    Folders(Vec<PathBuf>),
    /// A Gemini project directory named by the SHA-256 of its root.
    GeminiHash(String),
}

/// What a session file's name says about its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IdHint {
    /// The file is named after the session id.
    Exact(String),
    /// The file name holds the id's first characters (Gemini's `session-…-<8 chars>`).
    Prefix(String),
    None,
}

impl IdHint {
    pub fn may_be(&self, id: &str) -> bool {
        match self {
            IdHint::Exact(x) => x == id,
            IdHint::Prefix(p) => id.starts_with(p.as_str()),
            IdHint::None => true,
        }
    }
}

/// One transcript file found in a store.
#[derive(Debug, Clone)]
pub(crate) struct FileRef {
    pub path: PathBuf,
    pub format: Format,
    pub binding: Binding,
    pub id_hint: IdHint,
    pub size: u64,
    pub mtime: SystemTime,
}

/// Folder facts read from small side files (`workspace.json`, `.project_root`,
/// `projects.json`), kept by path and modification time so walks stay cheap.
#[derive(Debug, Default)]
pub(crate) struct SideFiles {
    entries: HashMap<PathBuf, (Option<SystemTime>, Vec<PathBuf>)>,
}

impl SideFiles {
    fn get(
        &mut self,
        path: &Path,
        read: impl FnOnce(&[u8], &Path) -> Vec<PathBuf>,
    ) -> Vec<PathBuf> {
        let mtime = fs::metadata(path).and_then(|m| m.modified()).ok();
        if let Some((m, v)) = self.entries.get(path)
            && *m == mtime
        {
            return v.clone();
        }
        let value = match mtime {
            Some(_) => fs::read(path).map(|bytes| read(&bytes, path)).unwrap_or_default(),
            None => Vec::new(),
        };
        self.entries.insert(path.to_path_buf(), (mtime, value.clone()));
        value
    }
}

/// Lists every transcript file of every store.
pub(crate) fn discover(
    stores: &Stores,
    side: &mut SideFiles,
    warnings: &mut Vec<Warning>,
) -> Vec<FileRef> {
    let mut out = Vec::new();
    for root in &stores.claude {
        for project in subdirs(&root.join("projects"), warnings) {
            let name = project.file_name().map(|n| n.to_string_lossy().into_owned());
            for file in files(&project, &["jsonl"], warnings) {
                let id = stem(&file);
                push(
                    &mut out,
                    file,
                    Format::ClaudeJsonl,
                    Binding::Cwd { claude_dir: name.clone() },
                    IdHint::Exact(id),
                );
            }
        }
    }
    for root in &stores.codex {
        walk_codex(&root.join("sessions"), 0, &mut out, warnings);
        // `codex archive` (and the TUI's archive) moves rollouts here, flat.
        walk_codex(&root.join("archived_sessions"), 0, &mut out, warnings);
    }
    for root in &stores.gemini {
        let projects = gemini_registry(root);
        for project in subdirs(&root.join("tmp"), warnings) {
            let chats = project.join("chats");
            if !chats.is_dir() {
                continue;
            }
            let name =
                project.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let mut folders = side.get(&project.join(".project_root"), |bytes, _| {
                let text = String::from_utf8_lossy(bytes).trim().to_owned();
                if text.is_empty() { Vec::new() } else { vec![PathBuf::from(text)] }
            });
            if folders.is_empty()
                && let Some(path) = projects.get(&name)
            {
                folders.push(path.clone());
            }
            let binding = if folders.is_empty()
                && name.len() == 64
                && name.bytes().all(|b| b.is_ascii_hexdigit())
            {
                Binding::GeminiHash(name.to_ascii_lowercase())
            } else {
                Binding::Folders(folders)
            };
            for file in files(&chats, &["jsonl", "json"], warnings) {
                let file_name =
                    file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                if !file_name.starts_with("session-") {
                    continue;
                }
                let hint = match stem(&file).rsplit_once('-') {
                    Some((_, short)) if short.len() == 8 => IdHint::Prefix(short.to_owned()),
                    _ => IdHint::None,
                };
                let format = if file_name.ends_with(".jsonl") {
                    Format::GeminiJsonl
                } else {
                    Format::GeminiJson
                };
                push(&mut out, file, format, binding.clone(), hint);
            }
        }
    }
    for user in &stores.vscode {
        for storage in subdirs(&user.join("workspaceStorage"), warnings) {
            let sessions = storage.join("chatSessions");
            let transcripts = copilot_transcripts(&storage);
            if !sessions.is_dir() && transcripts.is_none() {
                continue;
            }
            let folders = side.get(&storage.join("workspace.json"), read_workspace_json);
            copilot_sessions(&sessions, &folders, &mut out, warnings);
            if let Some(dir) = transcripts {
                for file in files(&dir, &["jsonl"], warnings) {
                    let id = stem(&file);
                    push(
                        &mut out,
                        file,
                        Format::CopilotTranscript,
                        Binding::Folders(folders.clone()),
                        IdHint::Exact(id),
                    );
                }
            }
        }
        copilot_sessions(
            &user.join("globalStorage/emptyWindowChatSessions"),
            &[],
            &mut out,
            warnings,
        );
    }
    out
}

fn copilot_sessions(
    dir: &Path,
    folders: &[PathBuf],
    out: &mut Vec<FileRef>,
    warnings: &mut Vec<Warning>,
) {
    for file in files(dir, &["jsonl", "json"], warnings) {
        let id = stem(&file);
        let format = if file.extension().is_some_and(|e| e == "jsonl") {
            Format::CopilotMutationLog
        } else {
            Format::CopilotJson
        };
        push(out, file, format, Binding::Folders(folders.to_vec()), IdHint::Exact(id));
    }
}

/// `GitHub.copilot-chat/transcripts` inside a workspace storage folder (the extension id's
/// case varies between builds).
fn copilot_transcripts(storage: &Path) -> Option<PathBuf> {
    let entries = fs::read_dir(storage).ok()?;
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().eq_ignore_ascii_case("github.copilot-chat") {
            let dir = entry.path().join("transcripts");
            if dir.is_dir() {
                return Some(dir);
            }
        }
    }
    None
}

/// `workspace.json`: `{"folder": "file:///…"}` for a folder window, or
/// `{"workspace": "file:///….code-workspace"}` for a multi-root one, whose folders are read
/// from that file (relative paths are relative to it).
fn read_workspace_json(bytes: &[u8], _: &Path) -> Vec<PathBuf> {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(bytes) else { return Vec::new() };
    if let Some(folder) = value.get("folder").and_then(|f| f.as_str()).and_then(file_uri_path) {
        return vec![folder];
    }
    let Some(file) = value.get("workspace").and_then(|f| f.as_str()).and_then(file_uri_path) else {
        return Vec::new();
    };
    let base = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut folders = Vec::new();
    if let Ok(text) = fs::read(&file)
        && let Ok(ws) = serde_json::from_slice::<serde_json::Value>(&text)
    {
        for folder in ws.get("folders").and_then(|f| f.as_array()).into_iter().flatten() {
            if let Some(p) = folder.get("path").and_then(|p| p.as_str()) {
                folders.push(base.join(p));
            } else if let Some(p) =
                folder.get("uri").and_then(|p| p.as_str()).and_then(file_uri_path)
            {
                folders.push(p);
            }
        }
    }
    if folders.is_empty() {
        folders.push(base);
    }
    folders
}

/// Gemini CLI's `projects.json`: `{"projects": {"/abs/path": "short-id"}}`, reversed.
fn gemini_registry(root: &Path) -> HashMap<String, PathBuf> {
    let Ok(bytes) = fs::read(root.join("projects.json")) else { return HashMap::new() };
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return HashMap::new();
    };
    value
        .get("projects")
        .and_then(|p| p.as_object())
        .map(|map| {
            map.iter()
                .filter_map(|(path, id)| Some((id.as_str()?.to_owned(), PathBuf::from(path))))
                .collect()
        })
        .unwrap_or_default()
}

/// Codex keeps `sessions/YYYY/MM/DD/rollout-*.jsonl`; older builds wrote to `sessions/`.
fn walk_codex(dir: &Path, depth: usize, out: &mut Vec<FileRef>, warnings: &mut Vec<Warning>) {
    for file in files(dir, &["jsonl"], warnings) {
        let name = stem(&file);
        if !name.starts_with("rollout-") {
            continue;
        }
        // `rollout-2025-10-29T00-59-38-<uuid>`: the id is the trailing UUID.
        let hint = match name.get(name.len().saturating_sub(36)..) {
            Some(tail) if tail.len() == 36 && tail.bytes().filter(|&b| b == b'-').count() == 4 => {
                IdHint::Exact(tail.to_owned())
            }
            _ => IdHint::None,
        };
        push(out, file, Format::CodexRollout, Binding::Cwd { claude_dir: None }, hint);
    }
    if depth < 3 {
        for sub in subdirs(dir, warnings) {
            walk_codex(&sub, depth + 1, out, warnings);
        }
    }
}

fn push(out: &mut Vec<FileRef>, path: PathBuf, format: Format, binding: Binding, id_hint: IdHint) {
    let Ok(meta) = fs::metadata(&path) else { return };
    if !meta.is_file() {
        return;
    }
    let mtime = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
    out.push(FileRef { path, format, binding, id_hint, size: meta.len(), mtime });
}

fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

fn read_dir(dir: &Path, warnings: &mut Vec<Warning>) -> Vec<fs::DirEntry> {
    match fs::read_dir(dir) {
        Ok(entries) => {
            let mut v: Vec<_> = entries.flatten().collect();
            v.sort_by_key(|e| e.file_name());
            v
        }
        Err(e)
            if e.kind() == std::io::ErrorKind::NotFound
                || e.kind() == std::io::ErrorKind::NotADirectory =>
        {
            Vec::new()
        }
        Err(e) => {
            warnings.push(Warning::new(dir, None, format!("cannot list the directory: {e}")));
            Vec::new()
        }
    }
}

fn subdirs(dir: &Path, warnings: &mut Vec<Warning>) -> Vec<PathBuf> {
    read_dir(dir, warnings)
        .into_iter()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect()
}

fn files(dir: &Path, extensions: &[&str], warnings: &mut Vec<Warning>) -> Vec<PathBuf> {
    read_dir(dir, warnings)
        .into_iter()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink()))
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| extensions.iter().any(|e| x == *e)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_overrides() {
        let vars: HashMap<&str, &str> = [
            ("HOME", "/h"),
            ("CLAUDE_CONFIG_DIR", "/c"),
            ("CODEX_HOME", "/x"),
            ("GEMINI_CLI_HOME", "/g"),
        ]
        .into();
        let stores = Stores::from_vars(|k| vars.get(k).map(OsString::from));
        assert_eq!(stores.claude, vec![PathBuf::from("/c")]);
        assert_eq!(stores.codex, vec![PathBuf::from("/x")]);
        assert_eq!(stores.gemini, vec![PathBuf::from("/g/.gemini")]);
        assert!(stores.vscode.contains(&PathBuf::from("/h/.config/Code/User")));
        assert!(
            stores
                .vscode
                .contains(&PathBuf::from("/h/Library/Application Support/Code - Insiders/User"))
        );
        assert!(stores.vscode.contains(&PathBuf::from("/h/.local/share/code-server/User")));

        let home = Stores::under_home(Path::new("/fixture"));
        assert_eq!(
            home.claude,
            vec![PathBuf::from("/fixture/.claude"), PathBuf::from("/fixture/.config/claude")]
        );
        assert_eq!(home.codex, vec![PathBuf::from("/fixture/.codex")]);
    }
}
