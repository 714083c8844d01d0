//! A process tree Locus starts (a debug adapter and the program it debugs) that ends with
//! Locus: when Locus ends it in order, and when Locus is killed and can do nothing.
//!
//! - Linux: the tree is a process group, and the kernel sends its leader SIGKILL when Locus
//!   dies (`PR_SET_PDEATHSIG`).
//! - macOS and other Unix: the tree is a process group, and a lifeline watches Locus: a `sh`
//!   that waits on a pipe only Locus holds open. When Locus dies the pipe closes, and the
//!   lifeline kills the group.
//! - Windows: the tree is a job object that kills its processes when its last handle,
//!   Locus's, closes. Processes the child starts before it joins the job (the moment after
//!   it starts) are not in it.
//!
//! Use: [`prepare`] the command, spawn it, then [`ProcessGroup::adopt`] its id.

use std::sync::Mutex;

/// How a group is tied to Locus's life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tie {
    /// The kernel signals the group's leader when Locus dies (Linux).
    ParentDeathSignal,
    /// A watcher process kills the group when Locus's end of a pipe closes.
    Lifeline,
    /// A job object that kills its processes when closed (Windows).
    Job,
}

const HOST_TIE: Tie = if cfg!(target_os = "linux") {
    Tie::ParentDeathSignal
} else if cfg!(windows) {
    Tie::Job
} else {
    Tie::Lifeline
};

/// Makes `command` start a process tree of its own, tied to Locus's life where the system
/// does that at start (Linux).
pub fn prepare(command: &mut std::process::Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
        #[cfg(target_os = "linux")]
        {
            let parent = std::process::id();
            // SAFETY: the closure runs in the child between fork and exec; prctl(2) and
            // getppid(2) are async-signal-safe and touch no memory shared with the parent.
            unsafe {
                command.pre_exec(move || {
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    // The parent may have died before the call: then nothing would signal us.
                    if u32::try_from(libc::getppid()).ok() != Some(parent) {
                        libc::_exit(1);
                    }
                    Ok(())
                });
            }
        }
    }
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        // A group of its own (a console Ctrl+C to Locus is not sent to it), and no console
        // window of its own.
        const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
        const CREATE_NO_WINDOW: u32 = 0x0800_0000;
        command.creation_flags(CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW);
    }
}

/// A started process tree, killed by [`ProcessGroup::kill`] or when dropped.
#[derive(Debug)]
pub struct ProcessGroup {
    /// The leader's process id (the group's id on Unix).
    pid: u32,
    lifeline: Mutex<Option<Lifeline>>,
    #[cfg(windows)]
    job: Option<windows::Job>,
}

impl ProcessGroup {
    /// The tree of the process `pid`, started from a [`prepare`]d command.
    pub fn adopt(pid: u32) -> ProcessGroup {
        ProcessGroup::adopt_with(pid, HOST_TIE)
    }

    fn adopt_with(pid: u32, tie: Tie) -> ProcessGroup {
        // A tie that cannot be made leaves the orderly end (kill, drop) in place.
        let lifeline = match tie {
            Tie::Lifeline => Lifeline::start(pid).ok(),
            _ => None,
        };
        ProcessGroup {
            pid,
            lifeline: Mutex::new(lifeline),
            #[cfg(windows)]
            job: (tie == Tie::Job).then(|| windows::Job::holding(pid).ok()).flatten(),
        }
    }

    /// The leader's process id.
    pub fn id(&self) -> u32 {
        self.pid
    }

    /// Kills every process of the tree at once. Idempotent.
    pub fn kill(&self) {
        #[cfg(unix)]
        if let Ok(group) = libc::pid_t::try_from(self.pid)
            && group > 0
        {
            // SAFETY: kill(2) with a negative pid signals that process group; it touches no
            // memory of ours, and a group already gone makes it fail with ESRCH, ignored.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        #[cfg(windows)]
        match &self.job {
            Some(job) => job.terminate(),
            None => crate::process::kill(self.pid),
        }
        // The group is gone: its lifeline must not outlive it and kill a later group that
        // reuses the id.
        let lifeline = self.lifeline.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(lifeline) = lifeline {
            lifeline.cut();
        }
    }

    /// Lets the lifeline go as Locus's death would, without killing anything first.
    #[cfg(all(test, unix))]
    fn orphan(self) {
        let lifeline = self.lifeline.lock().unwrap().take();
        if let Some(Lifeline { watcher, pipe }) = lifeline {
            drop(pipe);
            std::mem::forget(watcher);
        }
        std::mem::forget(self);
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A `sh` that kills a process group when the pipe it reads closes: Locus holds the only
/// writing end, which closes however Locus ends.
#[derive(Debug)]
struct Lifeline {
    watcher: std::process::Child,
    pipe: std::io::PipeWriter,
}

impl Lifeline {
    fn start(group: u32) -> std::io::Result<Lifeline> {
        let (read, pipe) = std::io::pipe()?;
        let mut command = std::process::Command::new("/bin/sh");
        command
            .args(["-c", "read _; kill -9 -\"$1\"", "locus-lifeline", &group.to_string()])
            .stdin(read)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        // Its own group: a Ctrl+C meant for Locus must not end the watcher before Locus.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        Ok(Lifeline { watcher: command.spawn()?, pipe })
    }

    /// Ends the watcher without letting it kill (the group is already gone).
    fn cut(mut self) {
        let _ = self.watcher.kill();
        let _ = self.watcher.wait();
        drop(self.pipe);
    }
}

#[cfg(windows)]
mod windows {
    //! A job object that kills its processes when closed.

    use windows_sys::Win32::Foundation::{CloseHandle, HANDLE};
    use windows_sys::Win32::System::JobObjects::{
        AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectExtendedLimitInformation,
        SetInformationJobObject, TerminateJobObject,
    };
    use windows_sys::Win32::System::Threading::{
        OpenProcess, PROCESS_SET_QUOTA, PROCESS_TERMINATE,
    };

    #[derive(Debug)]
    pub struct Job(HANDLE);

    // SAFETY: a job handle may be used and closed from any thread.
    unsafe impl Send for Job {}
    // SAFETY: as above; the calls made through `&Job` are thread-safe.
    unsafe impl Sync for Job {}

    impl Job {
        /// A new kill-on-close job holding process `pid`.
        pub fn holding(pid: u32) -> std::io::Result<Job> {
            // SAFETY: every handle opened here is closed on every path (the job by Drop).
            unsafe {
                let job = Job(CreateJobObjectW(std::ptr::null(), std::ptr::null()));
                if job.0.is_null() {
                    return Err(std::io::Error::last_os_error());
                }
                let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = std::mem::zeroed();
                limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
                if SetInformationJobObject(
                    job.0,
                    JobObjectExtendedLimitInformation,
                    (&raw const limits).cast(),
                    size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
                ) == 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                let process = OpenProcess(PROCESS_SET_QUOTA | PROCESS_TERMINATE, 0, pid);
                if process.is_null() {
                    return Err(std::io::Error::last_os_error());
                }
                let assigned = AssignProcessToJobObject(job.0, process);
                let error = std::io::Error::last_os_error();
                CloseHandle(process);
                if assigned == 0 {
                    return Err(error);
                }
                Ok(job)
            }
        }

        pub fn terminate(&self) {
            // SAFETY: the handle is open until Drop.
            unsafe {
                TerminateJobObject(self.0, 1);
            }
        }
    }

    impl Drop for Job {
        fn drop(&mut self) {
            // SAFETY: the handle is open and closed once, here.
            unsafe {
                CloseHandle(self.0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;
    use std::time::{Duration, Instant};

    const ROLE: &str = "LOCUS_PLATFORM_GROUP_ROLE";

    /// This test binary run again as a helper process in `role` (see
    /// [`helper_process_for_other_tests`]).
    fn helper(role: &str) -> std::process::Command {
        let mut command = std::process::Command::new(std::env::current_exe().unwrap());
        command
            .args(["--exact", "group::tests::helper_process_for_other_tests", "--nocapture"])
            .env(ROLE, role)
            .stdin(std::process::Stdio::null());
        command
    }

    /// Not a test of its own: what a helper process does. `sleep`: sleeps. `owner`: starts a
    /// sleeping helper as its group, prints its id, and sleeps, as Locus holds an adapter.
    #[test]
    fn helper_process_for_other_tests() {
        match std::env::var(ROLE).as_deref() {
            Ok("sleep") => std::thread::sleep(Duration::from_secs(300)),
            Ok("owner") => {
                let mut command = helper("sleep");
                command.stdout(std::process::Stdio::null());
                prepare(&mut command);
                let mut child = command.spawn().unwrap();
                let group = ProcessGroup::adopt(child.id());
                println!("sleeper {}", child.id());
                std::thread::sleep(Duration::from_secs(300));
                drop(group);
                let _ = child.wait();
            }
            _ => {}
        }
    }

    /// Waits (a generous bound) until process `pid` is gone.
    fn gone_within(pid: u32, bound: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < bound {
            if !crate::process::alive(pid) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// Locus killed outright (SIGKILL, TerminateProcess) takes its adapters along: the death
    /// signal on Linux, the lifeline on macOS, the job object on Windows.
    #[test]
    fn a_killed_owner_takes_its_group_along() {
        let mut owner = helper("owner").stdout(std::process::Stdio::piped()).spawn().unwrap();
        let out = std::io::BufReader::new(owner.stdout.take().unwrap());
        let sleeper = out
            .lines()
            .map_while(Result::ok)
            .find_map(|l| l.strip_prefix("sleeper ").and_then(|n| n.trim().parse::<u32>().ok()))
            .expect("the owner names its sleeper");
        assert!(crate::process::alive(sleeper), "the sleeper runs while its owner does");
        owner.kill().unwrap();
        owner.wait().unwrap();
        assert!(gone_within(sleeper, Duration::from_secs(30)), "the sleeper outlived its owner");
    }

    #[test]
    fn killing_the_group_ends_its_leader() {
        let mut command = helper("sleep");
        command.stdout(std::process::Stdio::null());
        prepare(&mut command);
        let mut child = command.spawn().unwrap();
        let pid = child.id();
        let group = ProcessGroup::adopt(pid);
        group.kill();
        assert!(gone_within(pid, Duration::from_secs(30)));
        let _ = child.wait();
    }

    /// macOS's tie, tried here: the lifeline kills the group when Locus's end of its pipe
    /// closes as it would when Locus is killed.
    #[cfg(unix)]
    #[test]
    fn a_lifeline_kills_the_group_when_its_pipe_closes() {
        let mut command = std::process::Command::new("sleep");
        command.arg("300");
        prepare(&mut command);
        let mut child = command.spawn().unwrap();
        let group = ProcessGroup::adopt_with(child.id(), Tie::Lifeline);
        assert!(group.lifeline.lock().unwrap().is_some(), "the lifeline started");
        std::thread::sleep(Duration::from_millis(200));
        assert!(child.try_wait().unwrap().is_none(), "the group lives while Locus does");
        group.orphan();
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(child.try_wait().unwrap().is_some(), "the lifeline killed it");
    }

    #[cfg(unix)]
    #[test]
    fn an_orderly_end_cuts_the_lifeline() {
        let mut command = std::process::Command::new("sleep");
        command.arg("300");
        prepare(&mut command);
        let mut child = command.spawn().unwrap();
        let pid = child.id();
        let group = ProcessGroup::adopt_with(pid, Tie::Lifeline);
        let watcher = group.lifeline.lock().unwrap().as_ref().unwrap().watcher.id();
        drop(group);
        assert!(gone_within(pid, Duration::from_secs(30)));
        assert!(!crate::process::alive(watcher), "the watcher is gone with the group");
        let _ = child.wait();
    }
}
