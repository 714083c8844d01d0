//! Which Python a workspace folder is analysed for, found as pyright finds it, so that static
//! conditions (`if sys.version_info >= (3, 12):`) hide the branches VS Code's Python
//! outline hides. In pyright's order:
//! 1. `pythonVersion` / `pythonPlatform` in the folder's `pyrightconfig.json`, else in the
//!    `[tool.pyright]` table of its `pyproject.toml`;
//! 2. the version of the interpreter it would run: the folder's virtual environment
//!    (`.venv` or `venv`, read from its `pyvenv.cfg`), else `python3` (or `python`) on `PATH`;
//! 3. else [`Runtime::default`] (Python 3.13). The platform is the host's unless configured.
//!
//! pyright does not read `requires-python`: neither does this. Read once per folder.

use std::path::Path;
use std::time::Duration;

use locus_scopes::{Platform, Runtime, RuntimeVersion};

use crate::process::output_within;

/// How long the interpreter may take to say its version.
const INTERPRETER_WAIT: Duration = Duration::from_secs(3);

/// The runtime of the workspace folder `root`.
pub fn discover(root: &Path) -> Runtime {
    let (version, platform) = configured(root);
    Runtime {
        version: version
            .or_else(|| venv_version(root))
            .or_else(interpreter_version)
            .unwrap_or(Runtime::default().version),
        platform: platform.unwrap_or_else(Platform::host),
    }
}

/// `pythonVersion` and `pythonPlatform` from `pyrightconfig.json`, else `pyproject.toml`.
fn configured(root: &Path) -> (Option<RuntimeVersion>, Option<Platform>) {
    if let Ok(text) = std::fs::read_to_string(root.join("pyrightconfig.json")) {
        // pyright reads its configuration as JSON with comments; a file serde cannot read is
        // taken as saying nothing.
        if let Ok(config) = serde_json::from_str::<serde_json::Value>(&text) {
            let field = |key: &str| config.get(key).and_then(|v| v.as_str());
            return (
                field("pythonVersion").and_then(RuntimeVersion::parse),
                field("pythonPlatform").and_then(Platform::parse),
            );
        }
    }
    let Ok(text) = std::fs::read_to_string(root.join("pyproject.toml")) else {
        return (None, None);
    };
    let Ok(project) = text.parse::<toml::Table>() else { return (None, None) };
    let pyright = project.get("tool").and_then(|t| t.get("pyright"));
    let field = |key: &str| pyright.and_then(|p| p.get(key)).and_then(|v| v.as_str());
    (
        field("pythonVersion").and_then(RuntimeVersion::parse),
        field("pythonPlatform").and_then(Platform::parse),
    )
}

/// The version a virtual environment in the folder records (`version = 3.11.2` or
/// `version_info = 3.11.2.final.0` in its `pyvenv.cfg`).
fn venv_version(root: &Path) -> Option<RuntimeVersion> {
    [".venv", "venv"].iter().find_map(|dir| {
        let text = std::fs::read_to_string(root.join(dir).join("pyvenv.cfg")).ok()?;
        text.lines().find_map(|line| {
            let (key, value) = line.split_once('=')?;
            matches!(key.trim(), "version" | "version_info")
                .then(|| RuntimeVersion::parse(value))
                .flatten()
        })
    })
}

/// The version of `python3` (or `python`) on `PATH`, asked with a bounded wait.
fn interpreter_version() -> Option<RuntimeVersion> {
    let ask = ["-I", "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"];
    ["python3", "python"].iter().find_map(|program| {
        RuntimeVersion::parse(&output_within(Path::new(program), &ask, INTERPRETER_WAIT)?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_configuration_wins_then_the_virtual_environment() {
        let dir = std::env::temp_dir().join(format!("locus-runtime-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".venv")).unwrap();
        std::fs::write(dir.join(".venv/pyvenv.cfg"), "home = /usr/bin\nversion = 3.10.4\n")
            .unwrap();
        assert_eq!(discover(&dir).version, RuntimeVersion::parse("3.10.4").unwrap());
        std::fs::write(
            dir.join("pyproject.toml"),
            "[project]\nrequires-python = \">=3.8\"\n[tool.pyright]\npythonVersion = \"3.9\"\npythonPlatform = \"Windows\"\n",
        )
        .unwrap();
        let runtime = discover(&dir);
        assert_eq!(
            (runtime.version, runtime.platform),
            (RuntimeVersion::new(3, 9), Platform::Windows)
        );
        std::fs::write(dir.join("pyrightconfig.json"), r#"{"pythonVersion": "3.12"}"#).unwrap();
        let runtime = discover(&dir);
        assert_eq!(
            (runtime.version, runtime.platform),
            (RuntimeVersion::new(3, 12), Platform::host())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn requires_python_alone_says_nothing() {
        let dir = std::env::temp_dir().join(format!("locus-runtime-rp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("pyproject.toml"), "[project]\nrequires-python = \">=3.8\"\n")
            .unwrap();
        assert_eq!(configured(&dir), (None, None));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
