//! `file:` URIs (LSP, DAP, VS Code's files) and the paths they name, on each system: on
//! Windows `file:///c%3A/x/y` is `C:\x\y` and `file://server/share/x` is `\\server\share\x`;
//! elsewhere the host is ignored and `file:///x/y` is `/x/y`.
//!
//! Hand-written rather than the `url` crate's `to_file_path`: that follows the host it was
//! built for, so the Windows rule could not be tested on Linux; and editors spell one file
//! several ways (`c%3A`, `C:`, `c|`) that must meet in one path.

use std::path::{Path, PathBuf};

use crate::Os;

/// The path a `file:` URI names on this system; `None` for another scheme.
pub fn path_of(uri: &str) -> Option<PathBuf> {
    decide_path(Os::HOST, uri).map(PathBuf::from)
}

/// The `file:` URI of an absolute path on this system.
pub fn uri_of(path: &Path) -> String {
    decide_uri(Os::HOST, &path.to_string_lossy())
}

/// The path `uri` names on `os`, as text.
pub fn decide_path(os: Os, uri: &str) -> Option<String> {
    let (scheme, rest) = uri.split_once(':')?;
    if !scheme.eq_ignore_ascii_case("file") {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    // file:///abs, file://host/abs, file:/abs
    let (host, path) = match rest.strip_prefix("//") {
        Some(after) => match after.find('/') {
            Some(i) => (&after[..i], &after[i..]),
            None => (after, "/"),
        },
        None => ("", rest),
    };
    let path = percent_decode(path);
    if os != Os::Windows {
        return Some(path);
    }
    let host = percent_decode(host);
    if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
        return Some(format!("\\\\{host}{}", path.replace('/', "\\")));
    }
    // `/c:/x`, `/C%3A/x` (decoded above) or `/c|/x`: a drive, upper-cased so that every
    // spelling of one file meets.
    let b = path.as_bytes();
    let path = if b.len() >= 3
        && b[0] == b'/'
        && b[1].is_ascii_alphabetic()
        && matches!(b[2], b':' | b'|')
    {
        let drive = (b[1] as char).to_ascii_uppercase();
        let rest = &path[3..];
        format!("{drive}:{}", if rest.is_empty() { "/" } else { rest })
    } else {
        path
    };
    Some(path.replace('/', "\\"))
}

/// The `file:` URI of the absolute path `path` (as text) on `os`: `file:///C:/x%20y/z` on
/// Windows, `file:///x%20y/z` elsewhere.
pub fn decide_uri(os: Os, path: &str) -> String {
    if os == Os::Windows {
        let slashed = path.replace('\\', "/");
        // A verbatim path (`\\?\C:\x`) names the same file as `C:\x`.
        let slashed = slashed.strip_prefix("//?/").unwrap_or(&slashed);
        if let Some(unc) = slashed.strip_prefix("UNC/").or_else(|| slashed.strip_prefix("//")) {
            let (host, rest) = unc.split_once('/').unwrap_or((unc, ""));
            return format!("file://{}/{}", percent_encode(host), percent_encode(rest));
        }
        return format!("file:///{}", percent_encode(slashed.trim_start_matches('/')));
    }
    format!("file://{}", percent_encode(path))
}

/// Bytes that stand for themselves in a URI's path; everything else is `%XX`.
fn is_plain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b)
}

fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        if is_plain(b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_paths() {
        let path = |u| decide_path(Os::Linux, u);
        assert_eq!(path("file:///a/b%20c.py").as_deref(), Some("/a/b c.py"));
        assert_eq!(path("file://host/a").as_deref(), Some("/a"));
        assert_eq!(path("file:/a/b").as_deref(), Some("/a/b"));
        assert_eq!(path("file:///a/b%C3%A9.py?x#y").as_deref(), Some("/a/bé.py"));
        assert_eq!(path("FILE:///a").as_deref(), Some("/a"));
        assert_eq!(path("untitled:Untitled-1"), None);
        assert_eq!(decide_uri(Os::Linux, "/a/b c#.py"), "file:///a/b%20c%23.py");
        assert_eq!(decide_uri(Os::MacOs, "/Users/u/é"), "file:///Users/u/%C3%A9");
    }

    #[test]
    fn windows_drives_meet_whatever_the_spelling() {
        let path = |u| decide_path(Os::Windows, u);
        for uri in
            ["file:///c%3A/x/y.ts", "file:///C:/x/y.ts", "file:///c|/x/y.ts", "file:///c%3a/x/y.ts"]
        {
            assert_eq!(path(uri).as_deref(), Some(r"C:\x\y.ts"), "{uri}");
        }
        assert_eq!(path("file:///Z:").as_deref(), Some(r"Z:\"));
        assert_eq!(path("file://server/share/a%20b").as_deref(), Some(r"\\server\share\a b"));
        assert_eq!(path("file://localhost/c:/x").as_deref(), Some(r"C:\x"));
        assert_eq!(decide_uri(Os::Windows, r"C:\x y\z.ts"), "file:///C:/x%20y/z.ts");
        assert_eq!(decide_uri(Os::Windows, r"\\?\C:\x"), "file:///C:/x");
        assert_eq!(decide_uri(Os::Windows, r"\\server\share\a"), "file://server/share/a");
        assert_eq!(decide_uri(Os::Windows, r"\\?\UNC\server\share\a"), "file://server/share/a");
        // A round trip gives the path back.
        let p = r"D:\Users\u\My Project\src\app.py";
        assert_eq!(path(&decide_uri(Os::Windows, p)).as_deref(), Some(p));
    }
}
