//! Which sessions belong to the workspace Locus serves.

use std::path::{Component, Path, PathBuf};

/// The folders Locus serves (the editor's workspace folders, `--workspace`, or the current
/// directory). A session belongs to the workspace when its working directory or workspace
/// folder is one of these roots or lies inside one; with nested roots, the deepest wins.
///
/// A root that is the filesystem root or the user's home directory holds every project:
/// only sessions started in that very directory belong to it, never those of the projects
/// below it (an agent that starts `locus mcp` from `/` must not take another project's
/// conversation for its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    roots: Vec<Root>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Root {
    /// The root as given, made lexically clean.
    shown: PathBuf,
    /// The spellings it may appear under in transcripts: as given, and with symlinks
    /// resolved (`/tmp` against `/private/tmp` on macOS).
    forms: Vec<PathBuf>,
    /// The filesystem root or the home directory: it holds only what is exactly there.
    broad: bool,
}

impl Workspace {
    /// A workspace of these roots. Relative roots are taken from the current directory.
    pub fn new<P: AsRef<Path>>(roots: &[P]) -> Workspace {
        let home: Vec<PathBuf> = ["HOME", "USERPROFILE"]
            .into_iter()
            .filter_map(std::env::var_os)
            .filter(|h| !h.is_empty())
            .map(|h| normalize(Path::new(&h)))
            .collect();
        let roots = roots
            .iter()
            .map(|root| {
                let root = root.as_ref();
                let absolute = if root.is_absolute() {
                    root.to_path_buf()
                } else {
                    std::env::current_dir()
                        .map(|d| d.join(root))
                        .unwrap_or_else(|_| root.to_path_buf())
                };
                let shown = normalize(&absolute);
                let mut forms = vec![shown.clone()];
                if let Ok(real) = locus_platform::path::canonicalize(&shown)
                    && real != shown
                {
                    forms.push(real);
                }
                let broad = forms.iter().any(|f| f.parent().is_none() || home.contains(f));
                Root { shown, forms, broad }
            })
            .collect();
        Workspace { roots }
    }

    /// The roots, as given (made lexically clean).
    pub fn roots(&self) -> impl Iterator<Item = &Path> {
        self.roots.iter().map(|r| r.shown.as_path())
    }

    /// The deepest root that holds `folder` (equal to it or an ancestor of it; only equal to
    /// it for the filesystem root and the home directory), if any.
    pub fn root_of(&self, folder: &Path) -> Option<&Path> {
        let folder = normalize(folder);
        self.roots
            .iter()
            .filter_map(|r| {
                r.forms
                    .iter()
                    .filter(
                        |form| {
                            if r.broad { folder == **form } else { folder.starts_with(form) }
                        },
                    )
                    .map(|form| form.components().count())
                    .max()
                    .map(|depth| (depth, r.shown.as_path()))
            })
            .max_by_key(|(depth, _)| *depth)
            .map(|(_, root)| root)
    }

    /// Whether any root could have been escaped into this Claude Code project directory
    /// name (`/home/u/my-app` → `-home-u-my-app`, sub-folders add `-…`).
    pub(crate) fn matches_claude_dir(&self, dir_name: &str) -> bool {
        self.roots.iter().any(|r| {
            r.forms.iter().any(|form| {
                let escaped = claude_escape(form);
                dir_name == escaped
                    || (!r.broad
                        && dir_name
                            .strip_prefix(&escaped)
                            .is_some_and(|rest| rest.starts_with('-')))
            })
        })
    }

    /// Whether every root is the filesystem root or the home directory, which hold only the
    /// sessions started exactly there.
    pub fn is_broad(&self) -> bool {
        !self.roots.is_empty() && self.roots.iter().all(|r| r.broad)
    }

    /// The roots whose folders may be walked (not the filesystem root or the home
    /// directory), each with its spellings.
    pub(crate) fn walkable_roots(&self) -> impl Iterator<Item = (&Path, &[PathBuf])> {
        self.roots.iter().filter(|r| !r.broad).map(|r| (r.shown.as_path(), r.forms.as_slice()))
    }

    /// Each spelling of each root, for stores keyed by a hash or a name of the folder.
    pub(crate) fn forms(&self) -> impl Iterator<Item = &Path> {
        self.roots.iter().flat_map(|r| r.forms.iter().map(PathBuf::as_path))
    }
}

/// Resolves `.` and `..` and drops trailing separators, without touching the disk.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Claude Code's project directory name for a path: every character that is not an ASCII
/// letter or digit becomes `-`. The mapping is lossy (`/a-b` and `/a/b` collide), so it
/// only nominates directories; the records' own `cwd` decides.
pub(crate) fn claude_escape(path: &Path) -> String {
    path.to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// The path of a `file://` URI (percent-decoded); `None` for other schemes (remote
/// workspaces, untitled windows), and for a host (a UNC share) except on Windows.
pub(crate) fn file_uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    if !rest.starts_with('/') && locus_platform::Os::HOST != locus_platform::Os::Windows {
        return None;
    }
    locus_platform::file_uri::path_of(uri)
}

/// The name Gemini CLI's older releases give a project's directory
/// (`~/.gemini/tmp/<hash>`): the SHA-256 of the root path's bytes, as 64 lowercase hex digits.
pub(crate) fn gemini_hash(root: &Path) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(root.as_os_str().as_encoded_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn gemini_hashes_are_sha256_in_hex() {
        // The FIPS 180-4 test vector, and a project root as Gemini CLI names its directory.
        assert_eq!(
            gemini_hash(Path::new("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(gemini_hash(Path::new("/home/u/proj")).len(), 64);
    }

    use super::*;

    #[test]
    fn deepest_root_wins_and_siblings_do_not_match() {
        let ws = Workspace::new(&["/nonexistent/ws", "/nonexistent/ws/sub"]);
        assert_eq!(
            ws.root_of(Path::new("/nonexistent/ws/sub/x")),
            Some(Path::new("/nonexistent/ws/sub"))
        );
        assert_eq!(
            ws.root_of(Path::new("/nonexistent/ws/other")),
            Some(Path::new("/nonexistent/ws"))
        );
        assert_eq!(ws.root_of(Path::new("/nonexistent/ws2")), None);
        assert_eq!(ws.root_of(Path::new("/nonexistent")), None);
        assert_eq!(
            ws.root_of(Path::new("/nonexistent/ws/./sub/../sub/")),
            Some(Path::new("/nonexistent/ws/sub"))
        );
    }

    #[test]
    fn the_filesystem_root_holds_only_itself() {
        let ws = Workspace::new(&["/"]);
        assert!(ws.is_broad());
        assert_eq!(ws.root_of(Path::new("/home/u/project")), None);
        assert_eq!(ws.root_of(Path::new("/")), Some(Path::new("/")));
        assert!(ws.matches_claude_dir("-"));
        assert!(!ws.matches_claude_dir("-home-u-project"));
        // Beside a project root, the project still holds its own folders.
        let ws = Workspace::new(&["/", "/nonexistent/p"]);
        assert!(!ws.is_broad());
        assert_eq!(ws.root_of(Path::new("/nonexistent/p/src")), Some(Path::new("/nonexistent/p")));
    }

    #[test]
    fn claude_dir_names() {
        let ws = Workspace::new(&["/home/u/my.app"]);
        assert!(ws.matches_claude_dir("-home-u-my-app"));
        assert!(ws.matches_claude_dir("-home-u-my-app-src"));
        assert!(!ws.matches_claude_dir("-home-u-my-apps"));
    }

    #[test]
    fn file_uris() {
        assert_eq!(
            file_uri_path("file:///home/u/My%20Project"),
            Some(PathBuf::from("/home/u/My Project"))
        );
        assert_eq!(file_uri_path("vscode-remote://ssh-remote%2Bhost/home/u"), None);
    }
}
