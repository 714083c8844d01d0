//! Finding the file a tool's `path` names: as given when absolute, else against each
//! workspace folder the host reports, then the working directory.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::{Cx, ErrorCode, ToolError};

/// Where a path the agent gave may be, in order: itself when absolute, else against each
/// workspace folder, then the working directory.
pub(crate) fn candidates(cx: &Cx, given: &Path) -> Vec<PathBuf> {
    if given.is_absolute() {
        return vec![given.to_path_buf()];
    }
    let mut out: Vec<_> =
        cx.host.status().workspace_folders.iter().map(|f| f.join(given)).collect();
    if let Ok(cwd) = std::env::current_dir() {
        out.push(cwd.join(given));
    }
    out
}

/// Finds the file a tool's `path` names: absolute, else against each workspace folder, then
/// the working directory; the first candidate that is an open document of the editor or a
/// file on disk, canonicalized. For every tool taking the path of an existing file.
///
/// An empty path, or one that names a folder, is the agent's mistake (`E_INVALID_PARAMS`);
/// a path found nowhere answers `E_NOT_FOUND` listing each place looked once.
pub(crate) fn resolve_file(cx: &Cx, path: &str) -> Result<PathBuf, ToolError> {
    if path.is_empty() {
        return Err(ToolError::new(ErrorCode::InvalidParams, "`path` is empty")
            .with_details(json!({"parameter": "path"})));
    }
    let candidates = candidates(cx, Path::new(path));
    let mut folder = None;
    for c in &candidates {
        if cx.host.document(c).is_some() || c.is_file() {
            return Ok(locus_platform::path::canonicalize(c).unwrap_or_else(|_| c.clone()));
        }
        if folder.is_none() && c.is_dir() {
            folder = Some(c.clone());
        }
    }
    if let Some(folder) = folder {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!("`{}` is a folder, not a file", folder.display()),
        )
        .with_details(json!({"parameter": "path", "path": folder.display().to_string()})));
    }
    let mut looked: Vec<String> = Vec::new();
    for c in &candidates {
        let c = c.display().to_string();
        if !looked.contains(&c) {
            looked.push(c);
        }
    }
    Err(ToolError::new(ErrorCode::NotFound, format!("no file `{path}`"))
        .with_hint("Pass an absolute path, or one relative to a workspace folder")
        .with_details(json!({"path": path, "looked": looked})))
}

/// [`resolve_file`] for a file that may not exist yet: an existing file as there, else the
/// first candidate whose folder exists (a new file in the workspace).
pub(crate) fn resolve_new_file(cx: &Cx, path: &str) -> Result<PathBuf, ToolError> {
    match resolve_file(cx, path) {
        Err(e) if e.code == ErrorCode::NotFound => candidates(cx, Path::new(path))
            .into_iter()
            .find(|c| c.parent().is_some_and(Path::is_dir))
            .ok_or(e),
        other => other,
    }
}
