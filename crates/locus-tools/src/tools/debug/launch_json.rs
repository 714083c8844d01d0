//! `.vscode/launch.json` configurations, usable by name in `debug_start` as in VS Code: the
//! file is JSONC (comments, trailing commas), read with `jsonc-parser` (dprint's parser, the
//! one a JSONC file deserves, rather than a comment-stripping pass of our own); a
//! configuration's `type` picks the adapter (its file's `types`), and the variables VS Code
//! users write (`${workspaceFolder}`, `${file}`, `${lineNumber}`, `${env:X}`, …) are replaced
//! from the workspace and the editor. A variable Locus cannot know is a clear error, never
//! left in place.

use std::path::{Path, PathBuf};

use locus_dap::{AdapterDef, Registry};
use serde_json::{Map, Value, json};

use crate::{Cx, ErrorCode, ToolError};

/// A configuration found by name, ready for the adapter.
#[derive(Debug)]
pub(crate) struct Configuration {
    /// The adapter its `type` names.
    pub def: AdapterDef,
    /// `attach` rather than `launch`.
    pub attach: bool,
    /// The request's arguments, variables replaced, VS Code's own keys removed.
    pub arguments: Value,
    /// The workspace folder whose launch.json it is.
    pub folder: PathBuf,
}

/// Keys of a configuration that are VS Code's, not the adapter's (`console` too: Locus reads
/// the program's output itself, so the adapter file's console stays).
const VSCODE_KEYS: &[&str] = &[
    "name",
    "type",
    "request",
    "preLaunchTask",
    "postDebugTask",
    "presentation",
    "internalConsoleOptions",
    "serverReadyAction",
    "debugServer",
    "console",
    "windows",
    "osx",
    "linux",
];

/// The variables that need the editor's active file.
const FILE_VARIABLES: &[&str] = &[
    "${file}",
    "${fileDirname}",
    "${fileBasename}",
    "${fileBasenameNoExtension}",
    "${fileExtname}",
    "${relativeFile}",
    "${lineNumber}",
];

/// The variables Locus replaces, for messages.
const KNOWN: &str = "${workspaceFolder}, ${workspaceFolderBasename}, ${file}, ${fileDirname}, \
                     ${fileBasename}, ${fileBasenameNoExtension}, ${fileExtname}, \
                     ${relativeFile}, ${lineNumber}, ${cwd}, ${userHome}, ${pathSeparator}, \
                     ${env:NAME}";

/// Finds the configuration `name` in the first workspace folder with a `.vscode/launch.json`.
pub(crate) fn configuration(
    cx: &Cx,
    registry: &Registry,
    name: &str,
) -> Result<Configuration, ToolError> {
    let mut folders = cx.host.status().workspace_folders;
    if let Ok(cwd) = std::env::current_dir() {
        folders.push(cwd);
    }
    let Some((folder, file)) = folders.iter().find_map(|f| {
        let file = f.join(".vscode/launch.json");
        file.is_file().then(|| (f.clone(), file))
    }) else {
        return Err(ToolError::new(ErrorCode::NotFound, "no .vscode/launch.json in the workspace")
            .with_hint("Give `program` or `module` instead, or add the configuration to .vscode/launch.json")
            .with_details(json!({"looked": folders})));
    };
    let text = std::fs::read_to_string(&file).map_err(|e| {
        ToolError::new(ErrorCode::NotFound, format!("cannot read `{}`: {e}", file.display()))
    })?;
    let vars = Variables::of(cx, &folder);
    from_text(&text, &file, name, registry, &vars).map(|(def, attach, arguments)| Configuration {
        def,
        attach,
        arguments,
        folder,
    })
}

/// The configuration `name` of a launch.json's text: its adapter, whether it attaches, and
/// its arguments with the variables replaced.
fn from_text(
    text: &str,
    file: &Path,
    name: &str,
    registry: &Registry,
    vars: &Variables,
) -> Result<(AdapterDef, bool, Value), ToolError> {
    let parsed: Value =
        jsonc_parser::parse_to_serde_value(text, &Default::default()).map_err(|e| {
            ToolError::new(
                ErrorCode::InvalidParams,
                format!("`{}` is not valid JSONC: {e}", file.display()),
            )
            .with_hint("Fix the file (VS Code shows where), then call again")
            .with_details(json!({"file": file}))
        })?;
    let configurations = parsed["configurations"].as_array().cloned().unwrap_or_default();
    let names: Vec<&str> = configurations.iter().filter_map(|c| c["name"].as_str()).collect();
    let Some(config) = configurations.iter().find(|c| c["name"] == name) else {
        let compound =
            parsed["compounds"].as_array().into_iter().flatten().any(|c| c["name"] == name);
        let message = if compound {
            format!(
                "`{name}` in `{}` is a compound; Locus starts one configuration at a time",
                file.display()
            )
        } else {
            format!("no configuration `{name}` in `{}`", file.display())
        };
        return Err(ToolError::new(ErrorCode::NotFound, message)
            .with_hint(format!("Its configurations: {}", names.join(", ")))
            .with_details(json!({"file": file, "configurations": names})));
    };
    let Some(kind) = config["type"].as_str() else {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!("configuration `{name}` in `{}` has no `type`", file.display()),
        ));
    };
    let def = registry.for_type(kind).map_err(|e| {
        let types: Vec<String> =
            registry.all().iter().map(|a| format!("{} ({})", a.name, a.types.join(", "))).collect();
        ToolError::new(ErrorCode::AdapterNotFound, e.to_string())
            .with_hint(format!(
                "Locus's adapters and the launch.json types they serve: {}",
                types.join("; ")
            ))
            .with_details(json!({"type": kind}))
    })?;
    let attach = match config["request"].as_str() {
        Some("attach") => true,
        Some("launch") | None => false,
        Some(other) => {
            return Err(ToolError::new(
                ErrorCode::InvalidParams,
                format!("configuration `{name}` has request {other:?}: expected launch or attach"),
            ));
        }
    };
    // This platform's overrides first, as VS Code merges them.
    let mut merged: Map<String, Value> = config.as_object().cloned().unwrap_or_default();
    if let Some(linux) = config["linux"].as_object() {
        for (k, v) in linux {
            merged.insert(k.clone(), v.clone());
        }
    }
    for key in VSCODE_KEYS {
        merged.remove(*key);
    }
    let arguments = vars.replace(Value::Object(merged)).map_err(|variable| {
        let (message, hint) = match variable.as_str() {
            v if v.starts_with("${command:") || v.starts_with("${input:") => (
                format!("configuration `{name}` asks the user through {v}, which only VS Code can"),
                "Give the value in the configuration, or start with `program` instead".to_string(),
            ),
            v if FILE_VARIABLES.contains(&v) => (
                format!("configuration `{name}` uses {v}, which needs the editor's active file, and no editor is active"),
                "Ask the user to open the file in the editor, or give `program` instead".to_string(),
            ),
            v => (
                format!("configuration `{name}` uses {v}, which Locus does not know"),
                format!("Locus replaces {KNOWN}"),
            ),
        };
        ToolError::new(ErrorCode::InvalidParams, message)
            .with_hint(hint)
            .with_details(json!({"configuration": name, "variable": variable}))
    })?;
    Ok((def.clone(), attach, arguments))
}

/// What the variables stand for in this call.
#[derive(Debug, Default)]
struct Variables {
    folder: PathBuf,
    /// The editor's active file and its 1-based cursor line.
    file: Option<(PathBuf, u64)>,
}

impl Variables {
    fn of(cx: &Cx, folder: &Path) -> Variables {
        let file = cx.editor_context.as_deref().and_then(|c| {
            let path = PathBuf::from(c.file.file_path()?);
            Some((path, u64::from(c.cursor.line)))
        });
        Variables { folder: folder.to_path_buf(), file }
    }

    /// Every string of `value` with its variables replaced; the first unknown one as `Err`.
    fn replace(&self, value: Value) -> Result<Value, String> {
        Ok(match value {
            Value::String(s) => Value::String(self.replace_in(&s)?),
            Value::Array(a) => {
                Value::Array(a.into_iter().map(|v| self.replace(v)).collect::<Result<_, _>>()?)
            }
            Value::Object(o) => Value::Object(
                o.into_iter()
                    .map(|(k, v)| Ok((k, self.replace(v)?)))
                    .collect::<Result<_, String>>()?,
            ),
            other => other,
        })
    }

    fn replace_in(&self, text: &str) -> Result<String, String> {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find("${") {
            out.push_str(&rest[..at]);
            let Some(end) = rest[at..].find('}') else {
                return Err(rest[at..].to_string());
            };
            let variable = &rest[at..at + end + 1];
            out.push_str(&self.value(variable).ok_or_else(|| variable.to_string())?);
            rest = &rest[at + end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    fn value(&self, variable: &str) -> Option<String> {
        let inner = &variable[2..variable.len() - 1];
        if let Some(name) = inner.strip_prefix("env:") {
            // VS Code replaces an unset variable with nothing.
            return Some(std::env::var(name).unwrap_or_default());
        }
        let show = |p: &Path| p.display().to_string();
        let file = self.file.as_ref();
        let path = file.map(|(p, _)| p.as_path());
        Some(match inner {
            "workspaceFolder" | "workspaceRoot" => show(&self.folder),
            "workspaceFolderBasename" => self.folder.file_name()?.to_string_lossy().into_owned(),
            "cwd" => show(&self.folder),
            "userHome" => std::env::var("HOME").ok()?,
            "pathSeparator" | "/" => "/".to_string(),
            "file" => show(path?),
            "fileDirname" => show(path?.parent()?),
            "fileBasename" => path?.file_name()?.to_string_lossy().into_owned(),
            "fileBasenameNoExtension" => path?.file_stem()?.to_string_lossy().into_owned(),
            "fileExtname" => {
                path?.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default()
            }
            "relativeFile" => {
                let p = path?;
                show(p.strip_prefix(&self.folder).unwrap_or(p))
            }
            "lineNumber" => file?.1.to_string(),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAUNCH: &str = r#"{
  // A comment, as VS Code writes them.
  "version": "0.2.0",
  "configurations": [
    {
      "name": "Python: current file",
      "type": "debugpy",
      "request": "launch",
      "program": "${file}",
      "args": ["--line", "${lineNumber}", "--home=${env:HOME}", "${env:LOCUS_SURELY_UNSET_VARIABLE}"],
      "cwd": "${workspaceFolder}",
      "console": "integratedTerminal", /* Locus keeps its own */
    },
    {"name": "Go", "type": "go", "request": "launch", "mode": "debug", "program": "${workspaceFolder}/cmd"},
    {"name": "Attach", "type": "python", "request": "attach", "connect": {"host": "localhost", "port": 5678}},
    {"name": "Picks", "type": "python", "request": "attach", "processId": "${command:pickProcess}"},
    {"name": "Odd", "type": "python", "program": "${workspaceFolder}/${fileWorkspaceFolder}"},
    {"name": "Ruby", "type": "rdbg", "request": "launch"},
  ],
  "compounds": [{"name": "Both", "configurations": ["Go", "Attach"]}],
}"#;

    fn vars(file: bool) -> Variables {
        Variables {
            folder: PathBuf::from("/ws"),
            file: file.then(|| (PathBuf::from("/ws/pkg/app.py"), 12)),
        }
    }

    fn get(name: &str, file: bool) -> Result<(AdapterDef, bool, Value), ToolError> {
        from_text(
            LAUNCH,
            Path::new("/ws/.vscode/launch.json"),
            name,
            &Registry::builtin(),
            &vars(file),
        )
    }

    #[test]
    fn a_configuration_by_name_with_its_variables_replaced() {
        let home = std::env::var("HOME").unwrap_or_default();
        let (def, attach, args) = get("Python: current file", true).unwrap();
        assert_eq!(def.name, "debugpy");
        assert!(!attach);
        assert_eq!(args["program"], "/ws/pkg/app.py");
        assert_eq!(args["args"], json!(["--line", "12", format!("--home={home}"), ""]));
        assert_eq!(args["cwd"], "/ws");
        assert!(args.get("console").is_none() && args.get("name").is_none(), "{args}");
        let (def, _, args) = get("Go", false).unwrap();
        assert_eq!((def.name.as_str(), args["program"].as_str()), ("delve", Some("/ws/cmd")));
        let (def, attach, args) = get("Attach", false).unwrap();
        assert_eq!(def.name, "debugpy");
        assert!(attach);
        assert_eq!(args["connect"]["port"], 5678);
    }

    #[test]
    fn what_cannot_be_replaced_is_a_clear_error() {
        let e = get("Python: current file", false).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert!(e.message.contains("no editor is active"), "{}", e.message);
        let e = get("Picks", true).unwrap_err();
        assert!(e.message.contains("${command:pickProcess}"), "{}", e.message);
        let e = get("Odd", true).unwrap_err();
        assert!(
            e.message.contains("${fileWorkspaceFolder}") && e.message.contains("does not know")
        );
        assert!(e.hint.unwrap().contains("${workspaceFolder}"));
        let e = get("Ruby", true).unwrap_err();
        assert_eq!(e.code, ErrorCode::AdapterNotFound);
        assert!(e.message.contains("rdbg"), "{}", e.message);
        let e = get("Nope", true).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotFound);
        assert!(e.hint.unwrap().contains("Python: current file, Go"));
        let e = get("Both", true).unwrap_err();
        assert!(e.message.contains("compound"), "{}", e.message);
        let e = from_text("{,,", Path::new("l.json"), "x", &Registry::builtin(), &vars(true))
            .unwrap_err();
        assert!(e.message.contains("not valid JSONC"), "{}", e.message);
    }
}
