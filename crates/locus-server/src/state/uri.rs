//! Document keys and paths from URIs. Pure functions, no state.

/// The key documents are stored under: for `file:` URIs the decoded path, so that two
/// spellings of one file (`%3A` or `:`) meet; the URI itself otherwise.
pub(super) fn key_of(uri: &str) -> String {
    if uri.starts_with("file:") { path_of(uri) } else { uri.to_string() }
}

/// The path of a `file:` URI (percent-decoded); other URIs are their own path.
pub fn path_of(uri: &str) -> String {
    let Some(rest) = uri.strip_prefix("file:") else {
        return uri.to_string();
    };
    // file:///abs, file://host/abs (host ignored), file:/abs
    let rest = match rest.strip_prefix("//") {
        Some(after) => match after.find('/') {
            Some(i) => &after[i..],
            None => "/",
        },
        None => rest,
    };
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    percent_decode(rest)
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
