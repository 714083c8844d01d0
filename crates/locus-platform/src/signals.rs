//! The requests to terminate that a server answers by removing what it advertised (its
//! discovery file) before it exits: SIGTERM, SIGINT and SIGHUP on Unix; Ctrl+C, Ctrl+Break
//! and the console's closing on Windows.

/// Waits for the first request to terminate; returns the exit code that request's default
/// action gives (128 + the signal's number on Unix), or why no request can be waited for.
pub async fn termination() -> Result<i32, String> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let watch = |kind: SignalKind, number: i32| {
            signal(kind)
                .map(|s| (s, number))
                .map_err(|e| format!("cannot watch signal {number}: {e}"))
        };
        let (mut term, t) = watch(SignalKind::terminate(), libc::SIGTERM)?;
        let (mut int, i) = watch(SignalKind::interrupt(), libc::SIGINT)?;
        let (mut hup, h) = watch(SignalKind::hangup(), libc::SIGHUP)?;
        let number = tokio::select! {
            _ = term.recv() => t,
            _ = int.recv() => i,
            _ = hup.recv() => h,
        };
        Ok(128 + number)
    }
    #[cfg(windows)]
    {
        use tokio::signal::windows;
        let mut c = windows::ctrl_c().map_err(|e| format!("cannot watch Ctrl+C: {e}"))?;
        let mut brk = windows::ctrl_break().map_err(|e| format!("cannot watch Ctrl+Break: {e}"))?;
        let mut close =
            windows::ctrl_close().map_err(|e| format!("cannot watch the console: {e}"))?;
        tokio::select! {
            _ = c.recv() => {}
            _ = brk.recv() => {}
            _ = close.recv() => {}
        }
        // STATUS_CONTROL_C_EXIT, as a process ended by Ctrl+C exits.
        Ok(0xC000_013Au32 as i32)
    }
}
