//! Embeds `adapters/*.toml` and checks each at build time with the same parser the crate uses
//! at run time (`src/def.rs`), so a bad adapter file fails the build with its name.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::{env, fs};

#[allow(dead_code, reason = "the build script only parses; the crate uses the rest")]
#[path = "src/def.rs"]
mod def;

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap()).join("../..");
    let adapters = root.join("adapters");
    println!("cargo:rerun-if-changed={}", adapters.display());
    let mut files: Vec<PathBuf> = fs::read_dir(&adapters)
        .unwrap_or_else(|e| panic!("{}: {e}", adapters.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut out = String::from(
        "/// The built-in adapter files, generated from `adapters/*.toml`: (name, text).\npub(crate) static BUILTIN: &[(&str, &str)] = &[\n",
    );
    for file in files {
        println!("cargo:rerun-if-changed={}", file.display());
        let text = fs::read_to_string(&file).unwrap();
        let parsed = def::AdapterDef::parse(&text)
            .unwrap_or_else(|e| panic!("{}: invalid adapter file: {e}", file.display()));
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        assert_eq!(stem, parsed.name, "{}: the file must be named after its name", file.display());
        writeln!(out, "    ({stem:?}, include_str!({:?})),", file.canonicalize().unwrap()).unwrap();
    }
    out.push_str("];\n");
    fs::write(PathBuf::from(env::var("OUT_DIR").unwrap()).join("adapters.rs"), out).unwrap();
}
