//! Other processes as the system shows them: whether one lives, what it runs and for whom,
//! its working folder; ending one; how a child ended; this thread's priority.
//!
//! What a system cannot tell is `None` (Windows shows no other process's arguments without
//! reading its memory), and callers decide with less.

use std::ffi::OsString;
use std::path::PathBuf;

/// What a process runs, as far as the system tells.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProcessInfo {
    /// Whether it runs as this process's user (`None`: unknown).
    pub mine: Option<bool>,
    /// Its user, for messages ("uid 1000").
    pub owner: String,
    /// Its executable, when readable.
    pub executable: Option<PathBuf>,
    /// Its arguments, the program's name first; `None` where the system does not show them
    /// (Windows).
    pub args: Option<Vec<OsString>>,
    /// Whether it runs the very file this process runs (same device and inode, or path).
    pub runs_this_executable: bool,
    /// When it started, where the system says (to the second or better): a process that
    /// started after a file naming its id was written is not that file's process, but one
    /// that reuses its id.
    pub started: Option<std::time::SystemTime>,
}

/// Whether process `pid` exists and has not exited. A zombie (exited, not yet reaped by its
/// parent) counts as gone: a killed sidecar stays one until its editor reaps it.
pub fn alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
        if pid <= 0 {
            return false;
        }
        // SAFETY: signal 0 only checks that the process exists and may be signalled.
        let r = unsafe { libc::kill(pid, 0) };
        let exists = r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
        exists && !unix::exited(pid)
    }
    #[cfg(windows)]
    {
        windows::alive(pid)
    }
}

/// What process `pid` runs; `None` when it is gone or the system does not say.
pub fn inspect(pid: u32) -> Option<ProcessInfo> {
    #[cfg(unix)]
    {
        unix::inspect(pid)
    }
    #[cfg(windows)]
    {
        windows::inspect(pid)
    }
}

/// The working folder of process `pid`, where the system says (Linux, macOS).
pub fn working_dir(pid: u32) -> Option<PathBuf> {
    #[cfg(unix)]
    {
        unix::working_dir(pid)
    }
    #[cfg(windows)]
    {
        let _ = pid;
        None
    }
}

/// The id of the process that started this one, where the system says.
pub fn parent_id() -> Option<u32> {
    #[cfg(unix)]
    {
        Some(std::os::unix::process::parent_id())
    }
    #[cfg(windows)]
    {
        None
    }
}

/// Ends process `pid` at once (SIGKILL; TerminateProcess). A process already gone is no error.
pub fn kill(pid: u32) {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else { return };
        if pid <= 0 {
            return;
        }
        // SAFETY: kill(2) on a process id touches no memory of ours; a process that is
        // already gone makes it fail with ESRCH, which is ignored.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
    #[cfg(windows)]
    windows::kill(pid);
}

/// How a child ended, for a message: "exit code 1", "killed by signal 9".
pub fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    let signal = std::os::unix::process::ExitStatusExt::signal(&status);
    #[cfg(not(unix))]
    let signal: Option<i32> = None;
    match (status.code(), signal) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => "status unknown".into(),
    }
}

/// Lowers the calling thread's priority, so that background work (building the index) never
/// delays the editor's messages on a busy machine. Linux and Windows lower the thread alone;
/// elsewhere nothing changes (macOS would lower the whole process).
pub fn lower_thread_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only changes a nice value; with `who = 0` Linux applies it to the
    // calling thread alone (the nice value is per thread there).
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
    #[cfg(windows)]
    windows::lower_thread_priority();
}

/// The CPU time the calling thread has used, where the system tells (Unix).
pub fn thread_cpu_time() -> Option<std::time::Duration> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes one timespec, which `t` is.
        let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        (r == 0).then(|| std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
    }
    #[cfg(not(unix))]
    None
}

/// This process's effective user id (Unix), for ownership checks.
#[cfg(unix)]
pub fn effective_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// This process's user, as an entry of a shared folder is named for it: the uid on Unix, the
/// user name on Windows.
pub fn user_id() -> String {
    #[cfg(unix)]
    {
        // SAFETY: getuid has no preconditions and cannot fail.
        unsafe { libc::getuid() }.to_string()
    }
    #[cfg(windows)]
    {
        std::env::var("USERNAME").unwrap_or_else(|_| "user".into())
    }
}

#[cfg(unix)]
mod unix {
    use super::ProcessInfo;
    use std::os::unix::fs::MetadataExt;
    use std::path::{Path, PathBuf};

    /// Whether the system says `pid` has exited (a zombie); false where it cannot tell.
    pub fn exited(pid: libc::pid_t) -> bool {
        #[cfg(target_os = "linux")]
        {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                return false;
            };
            // The state follows the command name, which is in parentheses and may hold any
            // byte.
            let state =
                stat.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next());
            matches!(state, Some('Z' | 'X'))
        }
        #[cfg(target_os = "macos")]
        {
            macos::bsd_info(pid).is_some_and(|info| info.pbi_status == libc::SZOMB)
        }
        #[cfg(not(any(target_os = "linux", target_os = "macos")))]
        {
            let _ = pid;
            false
        }
    }

    pub fn inspect(pid: u32) -> Option<ProcessInfo> {
        let me = super::effective_uid();
        #[cfg(target_os = "linux")]
        {
            let dir = PathBuf::from(format!("/proc/{pid}"));
            let uid = std::fs::metadata(&dir).ok()?.uid();
            let cmdline = std::fs::read(dir.join("cmdline")).unwrap_or_default();
            let args = cmdline
                .split(|b| *b == 0)
                .filter(|a| !a.is_empty())
                .map(|a| std::os::unix::ffi::OsStringExt::from_vec(a.to_vec()))
                .collect();
            let executable = std::fs::read_link(dir.join("exe")).ok();
            let runs_this_executable = same_file(&dir.join("exe"), Path::new("/proc/self/exe"));
            Some(ProcessInfo {
                mine: Some(uid == me),
                owner: format!("uid {uid}"),
                executable,
                args: Some(args),
                runs_this_executable,
                started: started(pid),
            })
        }
        #[cfg(target_os = "macos")]
        {
            let info = macos::bsd_info(libc::pid_t::try_from(pid).ok()?)?;
            let executable = macos::executable(pid);
            let this = std::env::current_exe().ok();
            let runs_this_executable = match (&executable, &this) {
                (Some(a), Some(b)) => same_file(a, b),
                _ => false,
            };
            Some(ProcessInfo {
                mine: Some(info.pbi_uid == me),
                owner: format!("uid {}", info.pbi_uid),
                executable,
                args: macos::arguments(pid),
                runs_this_executable,
                started: Some(
                    std::time::UNIX_EPOCH
                        + std::time::Duration::from_secs(info.pbi_start_tvsec)
                        + std::time::Duration::from_micros(info.pbi_start_tvusec),
                ),
            })
        }
        #[cfg(not(any(target_os = "linux", target_os = "macos")))]
        {
            let _ = (pid, me);
            None
        }
    }

    /// When `pid` started: its start in clock ticks after boot (`/proc/<pid>/stat`'s 22nd
    /// field) after the boot time (`/proc/stat`'s `btime`, whole seconds, so at most a second
    /// early). Read by hand: two numbers, where a crate such as procfs would bring all of
    /// `/proc`.
    #[cfg(target_os = "linux")]
    fn started(pid: u32) -> Option<std::time::SystemTime> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The fields after the command, which is in parentheses and may hold any byte: the
        // state (the 3rd field) first, so the 22nd is the 20th of these.
        let (_, rest) = stat.rsplit_once(')')?;
        let ticks: u64 = rest.split_whitespace().nth(19)?.parse().ok()?;
        let boot = std::fs::read_to_string("/proc/stat").ok()?;
        let boot: u64 = boot.lines().find_map(|l| l.strip_prefix("btime "))?.trim().parse().ok()?;
        // SAFETY: sysconf only reads a system constant.
        let hz =
            u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).ok().filter(|h| *h > 0)?;
        let after_boot = std::time::Duration::from_millis(ticks.checked_mul(1000)? / hz);
        Some(std::time::UNIX_EPOCH + std::time::Duration::from_secs(boot) + after_boot)
    }

    pub fn working_dir(pid: u32) -> Option<PathBuf> {
        #[cfg(target_os = "linux")]
        {
            std::fs::read_link(format!("/proc/{pid}/cwd")).ok()
        }
        #[cfg(target_os = "macos")]
        {
            macos::working_dir(pid)
        }
        #[cfg(not(any(target_os = "linux", target_os = "macos")))]
        {
            let _ = pid;
            None
        }
    }

    /// Whether `a` and `b` are the same file (device and inode), following links.
    #[allow(dead_code, reason = "not every Unix inspects processes")]
    fn same_file(a: &Path, b: &Path) -> bool {
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }

    #[cfg(target_os = "macos")]
    mod macos {
        //! libproc and sysctl, macOS's view of other processes.

        use std::ffi::{OsStr, OsString};
        use std::os::unix::ffi::OsStrExt;
        use std::path::PathBuf;

        pub fn bsd_info(pid: libc::pid_t) -> Option<libc::proc_bsdinfo> {
            let mut info: libc::proc_bsdinfo = unsafe { std::mem::zeroed() };
            let size = size_of::<libc::proc_bsdinfo>() as libc::c_int;
            // SAFETY: proc_pidinfo writes at most `size` bytes into `info`.
            let n = unsafe {
                libc::proc_pidinfo(pid, libc::PROC_PIDTBSDINFO, 0, (&raw mut info).cast(), size)
            };
            (n == size).then_some(info)
        }

        pub fn executable(pid: u32) -> Option<PathBuf> {
            let mut buf = vec![0u8; libc::PROC_PIDPATHINFO_MAXSIZE as usize];
            // SAFETY: proc_pidpath writes at most `buf.len()` bytes into `buf`.
            let n = unsafe {
                libc::proc_pidpath(pid as libc::c_int, buf.as_mut_ptr().cast(), buf.len() as u32)
            };
            (n > 0).then(|| PathBuf::from(OsStr::from_bytes(&buf[..n as usize])))
        }

        pub fn working_dir(pid: u32) -> Option<PathBuf> {
            let mut info: libc::proc_vnodepathinfo = unsafe { std::mem::zeroed() };
            let size = size_of::<libc::proc_vnodepathinfo>() as libc::c_int;
            // SAFETY: proc_pidinfo writes at most `size` bytes into `info`.
            let n = unsafe {
                libc::proc_pidinfo(
                    pid as libc::c_int,
                    libc::PROC_PIDVNODEPATHINFO,
                    0,
                    (&raw mut info).cast(),
                    size,
                )
            };
            if n != size {
                return None;
            }
            let path = &info.pvi_cdir.vip_path;
            let bytes: Vec<u8> =
                path.iter().flatten().take_while(|c| **c != 0).map(|c| *c as u8).collect();
            (!bytes.is_empty()).then(|| PathBuf::from(OsStr::from_bytes(&bytes)))
        }

        /// The arguments of `pid`: sysctl's `KERN_PROCARGS2` is the argument count, the
        /// executable's path, padding NULs, then the arguments, each NUL-terminated.
        pub fn arguments(pid: u32) -> Option<Vec<OsString>> {
            let mut mib = [libc::CTL_KERN, libc::KERN_PROCARGS2, pid as libc::c_int];
            let mut size: libc::size_t = 0;
            // SAFETY: a null buffer asks for the size only.
            if unsafe {
                libc::sysctl(
                    mib.as_mut_ptr(),
                    3,
                    std::ptr::null_mut(),
                    &mut size,
                    std::ptr::null_mut(),
                    0,
                )
            } != 0
            {
                return None;
            }
            let mut buf = vec![0u8; size];
            // SAFETY: sysctl writes at most `size` bytes into `buf`.
            if unsafe {
                libc::sysctl(
                    mib.as_mut_ptr(),
                    3,
                    buf.as_mut_ptr().cast(),
                    &mut size,
                    std::ptr::null_mut(),
                    0,
                )
            } != 0
            {
                return None;
            }
            buf.truncate(size);
            let argc = i32::from_ne_bytes(buf.get(..4)?.try_into().ok()?);
            let rest = &buf[4..];
            let after_path = rest.iter().position(|b| *b == 0)?;
            let rest = &rest[after_path..];
            let start = rest.iter().position(|b| *b != 0)?;
            Some(
                rest[start..]
                    .split(|b| *b == 0)
                    .take(usize::try_from(argc).ok()?)
                    .map(|a| OsStr::from_bytes(a).to_os_string())
                    .collect(),
            )
        }
    }
}

#[cfg(windows)]
mod windows {
    use super::ProcessInfo;
    use std::os::windows::ffi::OsStringExt;
    use std::path::PathBuf;
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use windows_sys::Win32::Foundation::{CloseHandle, FILETIME, STILL_ACTIVE};
    use windows_sys::Win32::System::Threading::{
        GetCurrentThread, GetExitCodeProcess, GetProcessTimes, OpenProcess, PROCESS_NAME_WIN32,
        PROCESS_QUERY_LIMITED_INFORMATION, PROCESS_TERMINATE, QueryFullProcessImageNameW,
        SetThreadPriority, THREAD_PRIORITY_BELOW_NORMAL, TerminateProcess,
    };

    /// The executable and start time of `pid`; its arguments stay unknown (reading them takes
    /// another process's memory).
    pub fn inspect(pid: u32) -> Option<ProcessInfo> {
        // SAFETY: the handle OpenProcess returns is closed before returning; the buffers are
        // as long as the calls are told.
        unsafe {
            let handle = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid);
            if handle.is_null() {
                return None;
            }
            let mut name = vec![0u16; 32 * 1024];
            let mut len = name.len() as u32;
            let executable = (QueryFullProcessImageNameW(
                handle,
                PROCESS_NAME_WIN32,
                name.as_mut_ptr(),
                &mut len,
            ) != 0)
                .then(|| PathBuf::from(std::ffi::OsString::from_wide(&name[..len as usize])));
            let zero = FILETIME { dwLowDateTime: 0, dwHighDateTime: 0 };
            let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
            let started =
                (GetProcessTimes(handle, &mut created, &mut exited, &mut kernel, &mut user) != 0)
                    .then(|| system_time(created))
                    .flatten();
            CloseHandle(handle);
            let this = std::env::current_exe().ok();
            let same = |a: &PathBuf, b: &PathBuf| {
                a.to_string_lossy().to_lowercase() == b.to_string_lossy().to_lowercase()
            };
            Some(ProcessInfo {
                mine: None,
                owner: String::new(),
                runs_this_executable: matches!((&executable, &this), (Some(a), Some(b)) if same(a, b)),
                executable,
                args: None,
                started,
            })
        }
    }

    /// A FILETIME (100 ns since 1601) as a system time.
    fn system_time(t: FILETIME) -> Option<SystemTime> {
        let ticks = (u64::from(t.dwHighDateTime) << 32) | u64::from(t.dwLowDateTime);
        let since_1601 = Duration::from_nanos(ticks.checked_mul(100)?);
        let epoch_offset = Duration::from_secs(11_644_473_600);
        Some(UNIX_EPOCH + since_1601.checked_sub(epoch_offset)?)
    }

    pub fn alive(pid: u32) -> bool {
        // SAFETY: the handle OpenProcess returns is closed before returning.
        unsafe {
            let handle = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid);
            if handle.is_null() {
                // Access denied still means the process exists.
                return std::io::Error::last_os_error().raw_os_error() == Some(5);
            }
            let mut code = 0u32;
            let ok = GetExitCodeProcess(handle, &mut code);
            CloseHandle(handle);
            ok != 0 && code == STILL_ACTIVE as u32
        }
    }

    pub fn kill(pid: u32) {
        // SAFETY: the handle OpenProcess returns is closed before returning.
        unsafe {
            let handle = OpenProcess(PROCESS_TERMINATE, 0, pid);
            if !handle.is_null() {
                TerminateProcess(handle, 1);
                CloseHandle(handle);
            }
        }
    }

    pub fn lower_thread_priority() {
        // SAFETY: the pseudo-handle of the current thread needs no closing.
        unsafe {
            SetThreadPriority(GetCurrentThread(), THREAD_PRIORITY_BELOW_NORMAL);
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::time::{Duration, SystemTime};

    /// This process reads as started before now, and one started after it as started later:
    /// what tells a reused process id from the process that wrote a file naming it.
    #[test]
    fn a_process_started_later_reads_as_started_later() {
        let me = super::inspect(std::process::id()).and_then(|i| i.started);
        let me = me.expect("this process's start");
        assert!(me <= SystemTime::now(), "{me:?}");
        std::thread::sleep(Duration::from_millis(200));
        let mut child = std::process::Command::new("sleep").arg("30").spawn().unwrap();
        let later = super::inspect(child.id()).and_then(|i| i.started);
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(later.expect("the child's start") > me, "{later:?} against {me:?}");
    }
}
