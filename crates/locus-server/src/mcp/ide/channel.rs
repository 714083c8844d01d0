//! What every agent channel has: a loopback port, a token, the file the agent finds it by, and
//! a count of the agents connected.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// One channel.
#[derive(Debug)]
pub struct Channel {
    port: u16,
    token: String,
    published: Mutex<Published>,
    agents: AtomicUsize,
    /// Ranges the user sent to the agents (`at_mentioned`), to every connection.
    mentions: tokio::sync::broadcast::Sender<Mention>,
}

/// Lines of a file the user sent to the agent's prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    /// The file.
    pub path: String,
    /// The first and last line, 0-based.
    pub lines: (u32, u32),
}

#[derive(Debug, Default)]
struct Published {
    /// The file written and what it says.
    file: Option<(PathBuf, Vec<u8>)>,
    withdrawn: bool,
}

impl Channel {
    /// A channel on `port` behind `token`.
    pub fn new(port: u16, token: String) -> Channel {
        let (mentions, _) = tokio::sync::broadcast::channel(16);
        Channel { port, token, published: Mutex::default(), agents: AtomicUsize::new(0), mentions }
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The token an agent must send.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// How many agents are connected now.
    pub fn agents(&self) -> usize {
        self.agents.load(Ordering::Relaxed)
    }

    /// Counts an agent in (`true`) or out.
    pub fn count_agent(&self, connected: bool) {
        if connected {
            self.agents.fetch_add(1, Ordering::Relaxed);
        } else {
            self.agents.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Sends `mention` to every agent connected; how many got it.
    pub fn mention(&self, mention: Mention) -> usize {
        self.mentions.send(mention).unwrap_or(0)
    }

    /// The mentions sent from now on.
    pub fn mentions(&self) -> tokio::sync::broadcast::Receiver<Mention> {
        self.mentions.subscribe()
    }

    /// The file agents find it by, once written.
    pub fn file(&self) -> Option<PathBuf> {
        let published = self.published.lock().unwrap_or_else(PoisonError::into_inner);
        published.file.as_ref().map(|(path, _)| path.clone())
    }

    /// Writes `bytes` to `dir`/`name` (the folder created readable by the user alone, and
    /// refused when others may write to it; the file replaced at once), unless the file says
    /// that already; never after [`Channel::withdraw`]. A file of another name written before
    /// is removed.
    pub fn publish(&self, dir: &Path, name: &str, bytes: Vec<u8>) -> io::Result<()> {
        let mut published = self.published.lock().unwrap_or_else(PoisonError::into_inner);
        let path = dir.join(name);
        if published.withdrawn
            || published.file.as_ref().is_some_and(|(p, b)| *p == path && *b == bytes)
        {
            return Ok(());
        }
        locus_platform::private::create_dir(dir)?;
        // A folder others may write to (a shared temporary folder someone else prepared) could
        // see the file replaced or removed behind the agent's back: refused.
        locus_platform::private::check_dir(dir, false).map_err(|why| {
            io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("refusing {}: {why}", dir.display()),
            )
        })?;
        locus_platform::private::write_replacing(&path, &bytes)?;
        if let Some((old, _)) = published.file.replace((path.clone(), bytes))
            && old != path
        {
            let _ = std::fs::remove_file(old);
        }
        Ok(())
    }

    /// Removes the file for good.
    pub fn withdraw(&self) {
        let mut published = self.published.lock().unwrap_or_else(PoisonError::into_inner);
        published.withdrawn = true;
        if let Some((path, _)) = published.file.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        self.withdraw();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_goes_with_the_channel_and_never_comes_back() {
        let tmp = std::env::temp_dir().join(format!("locus-channel-{}", std::process::id()));
        let dir = tmp.join("ide");
        let channel = Channel::new(4711, "t0k".into());
        channel.publish(&dir, "4711.lock", b"one".to_vec()).unwrap();
        let path = dir.join("4711.lock");
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        locus_platform::private::check_dir(&dir, false).unwrap();
        channel.withdraw();
        assert!(!path.exists());
        channel.publish(&dir, "4711.lock", b"two".to_vec()).unwrap();
        assert!(!path.exists(), "a withdrawn channel publishes nothing");
        std::fs::remove_dir_all(tmp).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_others_may_write_to_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("locus-channel-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        let channel = Channel::new(4712, "t0k".into());
        let e = channel.publish(&dir, "4712.lock", b"x".to_vec()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::PermissionDenied, "{e}");
        assert!(!dir.join("4712.lock").exists());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
