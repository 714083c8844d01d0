//! Files and folders only the user may read, and the checks that what Locus finds in them was
//! written by the user: on Unix an owner and a mode (0700 folders, 0600 files); on Windows an
//! access list that names the user and the system alone, in folders under the user's profile
//! (whose access list already keeps other users out).

use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::path::Path;

/// Creates `dir` and its missing parents, readable by the user alone (mode 0700; on Windows
/// an access list granting the user and the system alone). A folder that exists already is
/// left as it is: [`check_dir`] says whether it may be trusted.
pub fn create_dir(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    #[cfg(windows)]
    windows::restrict(dir)?;
    Ok(())
}

/// Creates the new file `path` for writing, readable by the user alone. Fails if anything
/// is at `path` (a link planted there is never followed).
pub fn create_new(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(path)?;
    #[cfg(windows)]
    windows::restrict(path)?;
    Ok(file)
}

/// Opens `path` for reading as a file that may have been planted: a symbolic link is refused
/// rather than followed, and a FIFO does not block. Check what was opened with
/// [`check_file`].
pub fn open_untrusted(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NOFOLLOW | libc::O_NONBLOCK,
    );
    #[cfg(windows)]
    if std::fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "it is a symbolic link"));
    }
    options.open(path)
}

/// Moves `from` over `to`, replacing it at once for every reader (a rename). Windows refuses
/// the rename while another process or thread is renaming over `to` or reads it without
/// sharing deletion ("Access denied", "sharing violation"): it is tried again for up to
/// about a second, as such holds last milliseconds.
pub fn replace(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(windows)]
    {
        const ACCESS_DENIED: i32 = 5;
        const SHARING_VIOLATION: i32 = 32;
        let mut wait = std::time::Duration::from_millis(1);
        let mut waited = std::time::Duration::ZERO;
        loop {
            match std::fs::rename(from, to) {
                Err(e)
                    if matches!(e.raw_os_error(), Some(ACCESS_DENIED | SHARING_VIOLATION))
                        && waited < std::time::Duration::from_secs(1) =>
                {
                    std::thread::sleep(wait);
                    waited += wait;
                    wait = (wait * 2).min(std::time::Duration::from_millis(50));
                }
                other => return other,
            }
        }
    }
    #[cfg(not(windows))]
    std::fs::rename(from, to)
}

/// Writes `bytes` to `path` as a new file readable by the user alone, replacing whatever was
/// there at once for every reader: a reader sees the old content or the new, never a part.
/// The bytes go to `<name>.<pid>.<n>.tmp` beside `path` (unique among live writers: the
/// process id and a count of its writes), then moved over `path` ([`replace`]). Not synced to
/// the disk first: these files are rebuilt or rewritten when lost, and a sync can take seconds
/// on a busy disk, longer than the symbol cache's write at shutdown may take. A
/// file of that name left by a killed process with the same id is removed, never followed.
/// Hand-written rather than the `tempfile` crate, which cannot create the file with the
/// access list Windows needs.
pub fn write_replacing(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    use std::sync::atomic::{AtomicU64, Ordering};
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.{}.tmp", std::process::id(), WRITES.fetch_add(1, Ordering::Relaxed)));
    let tmp = path.with_file_name(name);
    let written = (|| {
        let mut file = match create_new(&tmp) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                std::fs::remove_file(&tmp)?;
                create_new(&tmp)?
            }
            other => other?,
        };
        file.write_all(bytes)?;
        drop(file);
        replace(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Whether `dir` may hold files Locus trusts: a folder of the user that neither the group nor
/// others may write to. `follow_links`: whether a link to such a folder is accepted (the
/// user's `~/.cache` often is one).
pub fn check_dir(dir: &Path, follow_links: bool) -> Result<(), String> {
    let meta = if follow_links { std::fs::metadata(dir) } else { std::fs::symlink_metadata(dir) };
    let meta = meta.map_err(|e| format!("cannot stat it: {e}"))?;
    if !meta.is_dir() {
        return Err("it is not a directory".into());
    }
    check_owner(&meta)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let mode = meta.mode() & 0o7777;
        if mode & 0o022 != 0 {
            return Err(format!(
                "its mode is {mode:04o}: other users can write to it (run `chmod 700 {}`)",
                dir.display()
            ));
        }
    }
    Ok(())
}

/// Whether an opened file (its metadata) is the user's alone: a regular file of the user,
/// mode 0600 on Unix.
pub fn check_file(meta: &Metadata) -> Result<(), String> {
    if !meta.is_file() {
        return Err("it is not a regular file".into());
    }
    check_owner(meta)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let mode = meta.mode() & 0o7777;
        if mode != 0o600 {
            return Err(format!(
                "its mode is {mode:04o}, not 0600 (run `chmod 600` on it, or restart the editor)"
            ));
        }
    }
    Ok(())
}

/// How [`create_dir`] protects a folder, for a report.
pub const PROTECTION: &str = if cfg!(unix) { "mode 0700" } else { "readable by you alone" };

/// How a folder that passed [`check_dir`] is protected, for a report: "mode 0700".
pub fn describe_dir(meta: &Metadata) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        format!("mode {:04o}", meta.mode() & 0o7777)
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        "in your profile".into()
    }
}

/// Where a file or folder is someone else's: why.
fn check_owner(meta: &Metadata) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = crate::process::effective_uid();
        if meta.uid() != me {
            return Err(format!("it is owned by uid {}, not by you (uid {me})", meta.uid()));
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    Ok(())
}

#[cfg(windows)]
mod windows {
    //! The access list of Locus's own files on Windows.

    use std::io;
    use std::os::windows::ffi::OsStrExt;
    use std::path::Path;

    use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, LocalFree};
    use windows_sys::Win32::Security::Authorization::{
        ConvertSidToStringSidW, ConvertStringSecurityDescriptorToSecurityDescriptorW,
        SDDL_REVISION_1,
    };
    use windows_sys::Win32::Security::{
        DACL_SECURITY_INFORMATION, GetTokenInformation, PROTECTED_DACL_SECURITY_INFORMATION,
        PSECURITY_DESCRIPTOR, SetFileSecurityW, TOKEN_QUERY, TOKEN_USER, TokenUser,
    };
    use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

    /// Gives `path` an access list of its own (not inherited): full control for the user
    /// this process runs as and for the system (`SY`), inherited by what is created inside a
    /// folder.
    pub fn restrict(path: &Path) -> io::Result<()> {
        let sddl = format!("D:P(A;OICI;FA;;;{})(A;OICI;FA;;;SY)", user_sid()?);
        let sddl: Vec<u16> = sddl.encode_utf16().chain([0]).collect();
        let wide: Vec<u16> = path.as_os_str().encode_wide().chain([0]).collect();
        let mut descriptor: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
        // SAFETY: both strings are NUL-terminated UTF-16; the descriptor the first call
        // allocates is freed with LocalFree, as its documentation asks.
        unsafe {
            if ConvertStringSecurityDescriptorToSecurityDescriptorW(
                sddl.as_ptr(),
                SDDL_REVISION_1,
                &mut descriptor,
                std::ptr::null_mut(),
            ) == 0
            {
                return Err(io::Error::last_os_error());
            }
            let ok = SetFileSecurityW(
                wide.as_ptr(),
                DACL_SECURITY_INFORMATION | PROTECTED_DACL_SECURITY_INFORMATION,
                descriptor,
            );
            let error = io::Error::last_os_error();
            LocalFree(descriptor);
            if ok == 0 {
                return Err(error);
            }
        }
        Ok(())
    }

    /// The SID of the user this process runs as, in its string form (`S-1-5-21-…`).
    fn user_sid() -> io::Result<String> {
        // SAFETY: the token is closed on every path; the buffer is as long as the call is
        // told, and the string ConvertSidToStringSidW allocates is freed with LocalFree.
        unsafe {
            let mut token: HANDLE = std::ptr::null_mut();
            if OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &mut token) == 0 {
                return Err(io::Error::last_os_error());
            }
            let mut buf = vec![0u64; 64];
            let mut len = 0u32;
            let ok = GetTokenInformation(
                token,
                TokenUser,
                buf.as_mut_ptr().cast(),
                (buf.len() * 8) as u32,
                &mut len,
            );
            let error = io::Error::last_os_error();
            CloseHandle(token);
            if ok == 0 {
                return Err(error);
            }
            let user = &*(buf.as_ptr() as *const TOKEN_USER);
            let mut text: *mut u16 = std::ptr::null_mut();
            if ConvertSidToStringSidW(user.User.Sid, &mut text) == 0 {
                return Err(io::Error::last_os_error());
            }
            let len = (0..).take_while(|&i| *text.add(i) != 0).count();
            let sid = String::from_utf16_lossy(std::slice::from_raw_parts(text, len));
            LocalFree(text.cast());
            Ok(sid)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("locus-private-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_private_folder_and_file_pass_the_checks() {
        let dir = scratch("pass");
        let inner = dir.join("a").join("b");
        create_dir(&inner).unwrap();
        create_dir(&inner).unwrap();
        assert_eq!(check_dir(&inner, false), Ok(()));
        let file = inner.join("f.json");
        drop(create_new(&file).unwrap());
        assert!(create_new(&file).is_err(), "a second creation fails");
        let opened = open_untrusted(&file).unwrap();
        assert_eq!(check_file(&opened.metadata().unwrap()), Ok(()));
        drop(opened);
        std::fs::remove_file(&file).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Two writers replacing one file at once (two indexes of one folder saving their cache)
    /// both succeed: Windows refuses a rename over a file another rename holds open.
    #[test]
    fn two_writers_replace_one_file_at_once() {
        let dir = scratch("replace");
        create_dir(&dir).unwrap();
        let target = dir.join("cache.bin");
        let writers: Vec<_> = (0..2)
            .map(|w| {
                let (dir, target) = (dir.clone(), target.clone());
                std::thread::spawn(move || {
                    for i in 0..200 {
                        let tmp = dir.join(format!("cache.bin.{w}.{i}.tmp"));
                        io::Write::write_all(&mut create_new(&tmp).unwrap(), &[w; 4096]).unwrap();
                        replace(&tmp, &target)
                            .unwrap_or_else(|e| panic!("writer {w}, write {i}: {e}"));
                    }
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        assert_eq!(std::fs::read(&target).unwrap().len(), 4096);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_shared_folder_or_file_and_a_link_are_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("refuse");
        create_dir(&dir).unwrap();
        let file = dir.join("f.json");
        drop(create_new(&file).unwrap());
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let why = check_file(&std::fs::metadata(&file).unwrap()).unwrap_err();
        assert!(why.contains("0644"), "{why}");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let why = check_dir(&dir, false).unwrap_err();
        assert!(why.contains("chmod 700"), "{why}");
        let link = dir.join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(open_untrusted(&link).is_err(), "a link is not followed");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
