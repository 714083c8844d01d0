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
