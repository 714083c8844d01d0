//! Document keys and paths from URIs. Pure functions, no state.

/// The key documents are stored under: for `file:` URIs the decoded path, so that two
/// spellings of one file (`%3A` or `:`) meet; the URI itself otherwise.
pub(super) fn key_of(uri: &str) -> String {
    if uri.starts_with("file:") { path_of(uri) } else { uri.to_string() }
}

/// The path of a `file:` URI (percent-decoded; on Windows with its drive and `\`); other
/// URIs are their own path.
pub fn path_of(uri: &str) -> String {
    match locus_platform::file_uri::path_of(uri) {
        Some(path) => path.to_string_lossy().into_owned(),
        None => uri.to_string(),
    }
}
