//! What the tests of locus-dap and of the debug tools share (the `testing` feature, for
//! dev-dependencies only): the test programs in `crates/locus-dap/tests/programs`, and the
//! real adapters as `scripts/install-test-peers.sh` and `scripts/install-debug-adapters.sh`
//! install them. A missing peer panics with the command that installs it: tests never skip.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::adapter::{Lookup, Registry};

/// The repository's root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// A test program (or folder) by its path under `crates/locus-dap/tests/programs`, canonical.
pub fn program(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs").join(name);
    path.canonicalize().unwrap_or_else(|e| panic!("test program {}: {e}", path.display()))
}

/// Where the test peers are installed: `$LOCUS_PEERS_DIR`, else `target/peers`.
pub fn peers() -> PathBuf {
    std::env::var_os("LOCUS_PEERS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target/peers"))
}

/// The test venv's Python, which has debugpy and pytest.
pub fn python() -> PathBuf {
    let python = peers().join("venv/bin/python");
    let ok = Command::new(&python)
        .args(["-c", "import debugpy.adapter, pytest"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "debugpy or pytest is not installed in {}: run scripts/install-test-peers.sh",
        peers().join("venv").display()
    );
    python
}

/// Where adapters are looked for: the process's `PATH`, and the test venv's Python first.
pub fn lookup() -> Lookup {
    Lookup { path: None, python: Some(python()) }
}

/// The js-debug server script.
pub fn js_debug_server() -> PathBuf {
    let server = peers().join("js-debug/package/dist/vendor/js-debug/vsDebugServer.cjs");
    assert!(
        server.is_file(),
        "js-debug is not installed at {}: run scripts/install-debug-adapters.sh",
        server.display()
    );
    server
}

/// The built-in adapters, with js-debug's server named (the built-in file finds it through
/// `LOCUS_JS_DEBUG_SERVER`, which tests do not set process-wide).
pub fn registry() -> Registry {
    let builtin = Registry::builtin();
    let server = js_debug_server().display().to_string();
    let texts: Vec<(String, String)> = crate::adapter::builtin_texts()
        .iter()
        .map(|(name, text)| {
            (format!("{name}.toml"), text.replace("${env:LOCUS_JS_DEBUG_SERVER}", &server))
        })
        .collect();
    let registry = Registry::from_texts(texts.iter().map(|(n, t)| (n.as_str(), t.as_str())))
        .expect("the built-in files parse");
    assert_eq!(registry.all().len(), builtin.all().len());
    registry
}

/// Checks that a program is on `PATH`, else panics with the install script.
pub fn require(program: &str) {
    let found = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()));
    assert!(found, "{program} is not installed: run scripts/install-debug-adapters.sh");
}

/// Builds a C test program with `gcc -g -O0` into a fresh folder; answers the binary.
pub fn build_c(name: &str) -> PathBuf {
    require("gcc");
    let source = program(name);
    let dir = std::env::temp_dir().join(format!(
        "locus-dap-c-{}-{}",
        std::process::id(),
        source.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join(source.file_stem().unwrap());
    let built = Command::new("gcc")
        .args(["-g", "-O0", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap_or_else(|e| panic!("gcc: {e}; run scripts/install-debug-adapters.sh"));
    assert!(built.success(), "gcc failed to build {}", source.display());
    binary
}
