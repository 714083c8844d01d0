//! Running another program with a bounded wait: what `locus doctor` asks other programs and
//! what the Python runtime discovery asks the interpreter go through here, so no wait is
//! unbounded.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `program args`, killing it after `limit`; its stdout when it exited successfully.
pub(crate) fn output_within(program: &Path, args: &[&str], limit: Duration) -> Option<String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let mut text = String::new();
                std::io::Read::read_to_string(&mut child.stdout.take()?, &mut text).ok()?;
                return status.success().then_some(text);
            }
            Ok(None) if started.elapsed() < limit => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}
