//! The runtime a document is analysed for: the interpreter's version and the platform. Static
//! conditions (`if sys.version_info >= (3, 12):`) are evaluated against it, as the reference
//! language server evaluates them against the interpreter it finds (`static_condition.rs`).

/// An interpreter version: major, minor and, when known, micro. Compared as pyright compares
/// versions: a missing micro matches any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuntimeVersion {
    /// The major version (`3`).
    pub major: u32,
    /// The minor version (`13`).
    pub minor: u32,
    /// The micro version, when known (`2` of `3.11.2`).
    pub micro: Option<u32>,
}

impl RuntimeVersion {
    /// `major.minor`, with no micro.
    pub fn new(major: u32, minor: u32) -> RuntimeVersion {
        RuntimeVersion { major, minor, micro: None }
    }

    /// Reads `3.11` or `3.11.2` (anything after a third number is ignored).
    pub fn parse(text: &str) -> Option<RuntimeVersion> {
        let mut parts = text.trim().split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        let micro = parts.next().and_then(|m| {
            let digits: String = m.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        });
        Some(RuntimeVersion { major, minor, micro })
    }

    /// How this version compares with `other`: by major, then minor, then micro where both
    /// have one (else they are equal).
    pub(crate) fn compare(self, other: RuntimeVersion) -> std::cmp::Ordering {
        let ordering = (self.major, self.minor).cmp(&(other.major, other.minor));
        match (ordering, self.micro, other.micro) {
            (std::cmp::Ordering::Equal, Some(a), Some(b)) => a.cmp(&b),
            (ordering, ..) => ordering,
        }
    }
}

impl std::fmt::Display for RuntimeVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.micro {
            Some(micro) => write!(f, "{}.{}.{micro}", self.major, self.minor),
            None => write!(f, "{}.{}", self.major, self.minor),
        }
    }
}

/// The platform a document is analysed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// Linux (`sys.platform == "linux"`, `os.name == "posix"`).
    Linux,
    /// macOS (`"darwin"`, `"posix"`).
    Darwin,
    /// Windows (`"win32"`, `"nt"`).
    Windows,
}

impl Platform {
    /// The platform Locus runs on, which the reference server assumes unless told otherwise.
    pub fn host() -> Platform {
        match locus_platform::Os::HOST {
            locus_platform::Os::Windows => Platform::Windows,
            locus_platform::Os::MacOs => Platform::Darwin,
            locus_platform::Os::Linux | locus_platform::Os::OtherUnix => Platform::Linux,
        }
    }

    /// Reads a platform setting's value (`Linux`, `Darwin`, `Windows`, any case).
    pub fn parse(text: &str) -> Option<Platform> {
        match text.trim().to_ascii_lowercase().as_str() {
            "linux" => Some(Platform::Linux),
            "darwin" | "macos" => Some(Platform::Darwin),
            "windows" | "win32" => Some(Platform::Windows),
            _ => None,
        }
    }

    /// `sys.platform` on this platform.
    pub(crate) fn sys_platform(self) -> &'static str {
        match self {
            Platform::Linux => "linux",
            Platform::Darwin => "darwin",
            Platform::Windows => "win32",
        }
    }

    /// `os.name` on this platform.
    pub(crate) fn os_name(self) -> &'static str {
        match self {
            Platform::Windows => "nt",
            Platform::Linux | Platform::Darwin => "posix",
        }
    }
}

/// The runtime a document is analysed for. The default is Python 3.13 on the platform Locus
/// runs on: what the reference server assumes when it finds no interpreter and no setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Runtime {
    /// The interpreter's version.
    pub version: RuntimeVersion,
    /// The platform.
    pub platform: Platform,
}

impl Default for Runtime {
    fn default() -> Runtime {
        Runtime { version: RuntimeVersion::new(3, 13), platform: Platform::host() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_and_compare_as_pyright_does() {
        let v = RuntimeVersion::parse("3.11.2").unwrap();
        assert_eq!((v.major, v.minor, v.micro), (3, 11, Some(2)));
        assert_eq!(RuntimeVersion::parse("3.12rc1"), None);
        assert_eq!(RuntimeVersion::parse("3.13.0rc2").unwrap().micro, Some(0));
        use std::cmp::Ordering::*;
        assert_eq!(v.compare(RuntimeVersion::new(3, 11)), Equal, "a missing micro matches");
        assert_eq!(v.compare(RuntimeVersion::parse("3.11.4").unwrap()), Less);
        assert_eq!(v.compare(RuntimeVersion::new(3, 8)), Greater);
    }
}
