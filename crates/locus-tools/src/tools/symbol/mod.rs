//! `symbol_*`: document symbols and scope chains for any file, no editor needed. When the
//! editor has the file open, its text (unsaved edits included) is used instead of the disk's.

mod outline;
mod scope_at;

use std::path::PathBuf;

use locus_doc::Document;
use locus_scopes::{Registry, Source};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

use crate::{Cx, ErrorCode, ToolError};

pub use outline::SymbolOutline;
pub use scope_at::SymbolScopeAt;

/// A symbol's lines, 1-based, `length = end - start + 1`.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub struct LineRange {
    /// First line.
    pub start: u32,
    /// Last line.
    pub end: u32,
    /// Lines spanned.
    pub length: u32,
}

/// A 1-based position.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based UTF-16 character.
    pub character: u32,
}

/// The file a symbol answer speaks of.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileFacts {
    /// Absolute path.
    pub path: String,
    /// Language id (`plaintext` when unknown).
    pub language_id: String,
    /// Lines as VS Code counts them.
    pub line_count: usize,
    /// Whether the text came from the editor's buffer (`editor`) or the disk (`disk`).
    pub text_from: &'static str,
}

/// Runs file reading and parsing off the async workers.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r,
        Err(e) => {
            Err(ToolError::new(ErrorCode::Internal, format!("the tool's worker failed: {e}")))
        }
    }
}

pub(crate) struct Loaded {
    pub(crate) path: PathBuf,
    pub(crate) language_id: String,
    pub(crate) source: Source,
    pub(crate) from_editor: bool,
}

impl Loaded {
    pub(crate) fn facts(&self) -> FileFacts {
        FileFacts {
            path: self.path.display().to_string(),
            language_id: self.language_id.clone(),
            line_count: self.source.doc().line_count(),
            text_from: if self.from_editor { "editor" } else { "disk" },
        }
    }
}

pub(crate) fn load(cx: &Cx, path: &str) -> Result<Loaded, ToolError> {
    let path = super::paths::resolve_file(cx, path)?;
    let registry = Registry::builtin();
    if let Some((doc, language_id)) = cx.host.document(&path) {
        let language = registry.by_id(&language_id).or_else(|| {
            let head = doc.slice(0, doc.len_bytes().min(256));
            registry.for_path(&path, head.lines().next())
        });
        let mut source = Source::new(doc, language);
        set_runtime(cx, &path, &mut source);
        return Ok(Loaded { path, language_id, source, from_editor: true });
    }
    let bytes = std::fs::read(&path).map_err(|e| {
        ToolError::new(ErrorCode::NotFound, format!("cannot read `{}`: {e}", path.display()))
            .with_details(json!({"path": path.display().to_string()}))
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        ToolError::new(ErrorCode::Unsupported, format!("`{}` is not UTF-8 text", path.display()))
            .with_hint("Locus reads source files in UTF-8 only")
    })?;
    let language = registry.for_path(&path, text.lines().next());
    let language_id =
        language.map(|l| l.id().to_string()).unwrap_or_else(|| "plaintext".to_string());
    let mut source = Source::new(Document::new(&text, 0), language);
    set_runtime(cx, &path, &mut source);
    Ok(Loaded { path, language_id, source, from_editor: false })
}

/// A Python file's static conditions are evaluated for its workspace's Python, as the
/// editor's scopes are.
fn set_runtime(cx: &Cx, path: &std::path::Path, source: &mut Source) {
    if source.language().is_some_and(|l| l.id() == "python") {
        source.set_runtime(cx.host.runtime(path));
    }
}
