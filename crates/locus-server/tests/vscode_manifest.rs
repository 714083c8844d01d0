//! The VS Code extension declares Locus's tools in `editors/vscode/package.json`
//! (`contributes.languageModelTools`, and an `onLanguageModelTool:` activation event each),
//! generated from the catalogue by `locus tools --format vscode`. This fails when the two drift:
//! run `npm run tools:update` in `editors/vscode` (after `cargo build -p locus-server`).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

#[test]
fn the_vscode_package_json_declares_the_catalogue() {
    let out = Command::new(env!("CARGO_BIN_EXE_locus"))
        .args(["tools", "--format", "vscode"])
        .env_remove("LOCUS_TEST_TOOLS")
        .output()
        .expect("locus runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let generated: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../editors/vscode/package.json");
    let package: Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).expect("package.json")).unwrap();
    let declared = &package["contributes"]["languageModelTools"];
    let hint = "editors/vscode/package.json drifted from `locus tools --format vscode`: run `npm run tools:update` in editors/vscode";
    assert_eq!(declared, &generated, "{hint}");
    let events: Vec<&str> = package["activationEvents"]
        .as_array()
        .expect("activationEvents")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for tool in generated.as_array().unwrap() {
        let event = format!("onLanguageModelTool:{}", tool["name"].as_str().unwrap());
        assert!(events.contains(&event.as_str()), "{hint} ({event} is missing)");
    }
    assert!(events.contains(&"onStartupFinished"), "the extension starts with the window");
}
