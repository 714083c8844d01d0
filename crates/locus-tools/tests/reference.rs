//! The generated reference in `docs/reference/` matches the catalogue. When this fails, run
//! `UPDATE_EXPECT=1 cargo test -p locus-tools --test reference` and commit the files.

use expect_test::expect_file;
use locus_tools::{Options, reference, standard};

#[test]
fn tools_reference_is_current() {
    let catalogue = standard(Options { test_tools: false });
    expect_file!["../../../docs/reference/tools.md"]
        .assert_eq(&reference::tools_markdown(&catalogue));
}

#[test]
fn error_codes_reference_is_current() {
    expect_file!["../../../docs/reference/error-codes.md"]
        .assert_eq(&reference::error_codes_markdown());
}

#[test]
fn the_readme_names_every_tool() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    for entry in standard(Options { test_tools: false }).enabled() {
        let name = entry.spec().name;
        let family = format!("`{}_*`", name.split('_').next().unwrap());
        assert!(
            readme.contains(&format!("`{name}`")) || readme.contains(&family),
            "README.md's tool list lacks `{name}` (or {family})"
        );
    }
}
