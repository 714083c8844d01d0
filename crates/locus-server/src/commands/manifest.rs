//! `locus tools --format vscode`: the catalogue as the `contributes.languageModelTools` block of
//! the VS Code extension's `package.json` (`editors/vscode`), which VS Code needs before a tool
//! can be registered with `vscode.lm.registerTool`. The extension's build and the test
//! `tests/vscode_manifest.rs` fail when `package.json` drifts from it.

use std::io::Write;

use serde_json::{Value, json};

use crate::commands::{CliError, io_err};

/// The formats of `locus tools`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ToolsFormat {
    /// One JSON object per tool, per line
    Lines,
    /// The `contributes.languageModelTools` array of the VS Code extension (one JSON document)
    Vscode,
}

/// The name VS Code knows a Locus tool by (the extension registers it under this name).
pub fn vscode_name(tool: &str) -> String {
    format!("locus_{tool}")
}

/// The `languageModelTools` entries of the tools enabled by default (the test tools never).
pub fn vscode_tools() -> Value {
    let catalogue = locus_tools::standard(locus_tools::Options { test_tools: false });
    let tools: Vec<Value> = catalogue
        .enabled()
        .map(|entry| {
            let s = entry.spec();
            json!({
                "name": vscode_name(s.name),
                "toolReferenceName": s.name,
                "displayName": s.title,
                "modelDescription": format!("{} ({})", s.description, s.when_to_use.text()),
                "userDescription": s.description,
                "canBeReferencedInPrompt": true,
                "tags": ["locus", format!("locus-{}", s.category.name())],
                "inputSchema": Value::Object((**entry.input_schema()).clone()),
            })
        })
        .collect();
    Value::Array(tools)
}

/// Writes the `languageModelTools` array, pretty-printed.
pub fn vscode(out: &mut dyn Write) -> Result<(), CliError> {
    let mut text = serde_json::to_string_pretty(&vscode_tools()).expect("JSON serializes");
    text.push('\n');
    out.write_all(text.as_bytes()).map_err(io_err)
}
