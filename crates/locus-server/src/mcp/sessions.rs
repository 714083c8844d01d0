//! The sidecar's MCP sessions, bounded: rmcp's `LocalSessionManager` with a cap on live
//! sessions, eviction of idle ones, and the memory they held handed back to the system.
//!
//! Every `initialize` over streamable HTTP opens a session (a worker task and an instance of
//! the server, some 50 KB) that lives until the client closes it. Clients that never do (a
//! killed agent, a script) would pile sessions up without bound.
//!
//! **Invariants.**
//! - At most [`Limits::max`] sessions live: a new one evicts the least recently used session
//!   with no request under way; when every session is busy, the new one is refused.
//! - A session with no request under way (no response stream open) for [`Limits::idle`] is
//!   closed; a client that comes back with it gets 404 and initializes again, as the MCP
//!   specification says. A session is never closed while one of its requests runs.
//! - After sessions close, freed memory is returned to the system (glibc keeps it otherwise).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use futures_util::{Stream, StreamExt};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use tokio_util::sync::CancellationToken;

/// How many sessions may live at once.
pub const MAX_SESSIONS: usize = 128;

/// How long a session may sit with no request before it is closed.
pub const IDLE: Duration = Duration::from_secs(300);

/// The bounds of a sidecar's sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// At most this many live sessions.
    pub max: usize,
    /// Sessions idle this long are closed.
    pub idle: Duration,
}

impl Limits {
    /// [`MAX_SESSIONS`] and [`IDLE`]; `LOCUS_MCP_SESSION_IDLE_MS` and
    /// `LOCUS_MCP_MAX_SESSIONS` replace them (tests use them to wait less).
    pub fn from_env() -> Limits {
        let number = |key: &str| {
            std::env::var(key).ok().and_then(|v| v.trim().parse::<u64>().ok()).filter(|n| *n > 0)
        };
        Limits {
            max: number("LOCUS_MCP_MAX_SESSIONS").map_or(MAX_SESSIONS, |n| n as usize),
            idle: number("LOCUS_MCP_SESSION_IDLE_MS").map_or(IDLE, Duration::from_millis),
        }
    }
}

/// What is known of one live session.
#[derive(Debug)]
struct Usage {
    last_used: Instant,
    /// Response streams open (requests under way, or a client's standing GET stream).
    busy: usize,
}

/// The bookkeeping shared with the streams' guards.
#[derive(Debug, Default)]
struct Book {
    live: HashMap<SessionId, Usage>,
    /// Sessions closed since memory was last handed back.
    closed_since_trim: usize,
    /// On how many more sweeps memory is handed back.
    trims_due: u32,
}

/// On how many sweeps after sessions closed memory is handed back.
const TRIMS_AFTER_CLOSING: u32 = 3;

/// rmcp's session manager, bounded (see the module docs).
#[derive(Debug)]
pub struct Sessions {
    inner: LocalSessionManager,
    book: Arc<Mutex<Book>>,
    limits: Limits,
}

/// Why a session could not be served.
#[derive(Debug)]
pub enum SessionsError {
    /// rmcp's own error.
    Local(LocalSessionManagerError),
    /// Every one of the `max` sessions has a request under way.
    Full(usize),
}

impl fmt::Display for SessionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionsError::Local(e) => e.fmt(f),
            SessionsError::Full(max) => write!(
                f,
                "all {max} MCP sessions of this editor are busy; close one or retry later"
            ),
        }
    }
}

impl std::error::Error for SessionsError {}

impl From<LocalSessionManagerError> for SessionsError {
    fn from(e: LocalSessionManagerError) -> SessionsError {
        SessionsError::Local(e)
    }
}

/// Marks a session busy while a response stream is open; on drop, it is idle from then.
struct Busy {
    book: Arc<Mutex<Book>>,
    id: SessionId,
}

impl Busy {
    fn new(book: &Arc<Mutex<Book>>, id: &SessionId) -> Busy {
        if let Some(u) = lock(book).live.get_mut(id) {
            u.busy += 1;
            u.last_used = Instant::now();
        }
        Busy { book: book.clone(), id: id.clone() }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        if let Some(u) = lock(&self.book).live.get_mut(&self.id) {
            u.busy = u.busy.saturating_sub(1);
            u.last_used = Instant::now();
        }
    }
}

fn lock(book: &Mutex<Book>) -> std::sync::MutexGuard<'_, Book> {
    book.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `stream`, holding `busy` until it ends or is dropped.
fn tracked<S>(stream: S, busy: Busy) -> impl Stream<Item = ServerSseMessage> + Send + Sync + 'static
where
    S: Stream<Item = ServerSseMessage> + Send + Sync + 'static,
{
    stream.map(move |m| {
        let _held = &busy;
        m
    })
}

impl Sessions {
    /// A manager within `limits`. Idle sessions are closed by [`Sessions::sweep`].
    pub fn new(limits: Limits) -> Sessions {
        let mut inner = LocalSessionManager::default();
        // The sweep closes idle sessions, and knows which have a request under way; rmcp's
        // own timer would close a session whose one long call sends nothing for a while.
        inner.session_config.keep_alive = None;
        Sessions { inner, book: Default::default(), limits }
    }

    /// How many sessions live.
    #[cfg(test)]
    fn live(&self) -> usize {
        lock(&self.book).live.len()
    }

    fn touch(&self, id: &SessionId) {
        if let Some(u) = lock(&self.book).live.get_mut(id) {
            u.last_used = Instant::now();
        }
    }

    /// Closes a session and forgets it.
    async fn evict(&self, id: &SessionId) {
        lock(&self.book).live.remove(id);
        let _ = self.inner.close_session(id).await;
        lock(&self.book).closed_since_trim += 1;
    }

    /// Closes the sessions idle past the limit, and hands freed memory back when sessions
    /// closed since the last time.
    pub async fn sweep(&self) {
        let idle: Vec<SessionId> = lock(&self.book)
            .live
            .iter()
            .filter(|(_, u)| u.busy == 0 && u.last_used.elapsed() >= self.limits.idle)
            .map(|(id, _)| id.clone())
            .collect();
        for id in &idle {
            self.evict(id).await;
        }
        let trim = {
            let mut book = lock(&self.book);
            // The session tasks finish on the runtime's threads some time after their close:
            // memory is handed back on this sweep and the next few, so that what they free
            // late goes back too.
            if std::mem::take(&mut book.closed_since_trim) > 0 {
                book.trims_due = TRIMS_AFTER_CLOSING;
            }
            let due = book.trims_due > 0;
            book.trims_due = book.trims_due.saturating_sub(1);
            due
        };
        if trim {
            tokio::task::yield_now().await;
            locus_platform::heap::trim();
        }
    }

    /// Runs [`Sessions::sweep`] every quarter of the idle time (at most every 30 s) until
    /// `stop`.
    pub async fn sweep_until(self: Arc<Self>, stop: CancellationToken) {
        let period =
            (self.limits.idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(30));
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = stop.cancelled() => return,
                _ = tick.tick() => self.sweep().await,
            }
        }
    }

    /// Makes room for one more session: evicts the least recently used idle one when full.
    async fn make_room(&self) -> Result<(), SessionsError> {
        let victim = {
            let book = lock(&self.book);
            if book.live.len() < self.limits.max {
                return Ok(());
            }
            book.live
                .iter()
                .filter(|(_, u)| u.busy == 0)
                .min_by_key(|(_, u)| u.last_used)
                .map(|(id, _)| id.clone())
        };
        match victim {
            Some(id) => {
                self.evict(&id).await;
                Ok(())
            }
            None => Err(SessionsError::Full(self.limits.max)),
        }
    }
}

impl SessionManager for Sessions {
    type Error = SessionsError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.make_room().await?;
        let (id, transport) = self.inner.create_session().await?;
        lock(&self.book).live.insert(id.clone(), Usage { last_used: Instant::now(), busy: 0 });
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        let _busy = Busy::new(&self.book, id);
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        if lock(&self.book).live.remove(id).is_some() {
            lock(&self.book).closed_since_trim += 1;
        }
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let busy = Busy::new(&self.book, id);
        let stream = self.inner.create_stream(id, message).await?;
        Ok(tracked(stream, busy))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let busy = Busy::new(&self.book, id);
        let stream = self.inner.create_standalone_stream(id).await?;
        Ok(tracked(stream, busy))
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let busy = Busy::new(&self.book, id);
        let stream = self.inner.resume(id, last_event_id).await?;
        Ok(tracked(stream, busy))
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.make_room().await?;
        let outcome = self.inner.restore_session(id.clone()).await?;
        if let RestoreOutcome::Restored(_) = &outcome {
            lock(&self.book).live.insert(id, Usage { last_used: Instant::now(), busy: 0 });
        }
        Ok(outcome)
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn full_sessions_evict_the_least_recently_used_idle_one() {
        let sessions = Sessions::new(Limits { max: 2, idle: Duration::from_secs(60) });
        let (a, _ta) = sessions.create_session().await.unwrap();
        let (b, _tb) = sessions.create_session().await.unwrap();
        sessions.touch(&a);
        let (c, _tc) = sessions.create_session().await.unwrap();
        assert_eq!(sessions.live(), 2);
        assert!(sessions.has_session(&a).await.unwrap());
        assert!(!sessions.has_session(&b).await.unwrap(), "b was used least recently");
        // Both busy: no room.
        let _busy_a = Busy::new(&sessions.book, &a);
        let _busy_c = Busy::new(&sessions.book, &c);
        assert!(matches!(sessions.create_session().await, Err(SessionsError::Full(2))));
        drop(_busy_a);
        let (d, _td) = sessions.create_session().await.unwrap();
        assert!(!sessions.has_session(&a).await.unwrap());
        assert!(sessions.has_session(&c).await.unwrap() && sessions.has_session(&d).await.unwrap());
    }

    #[tokio::test]
    async fn idle_sessions_are_swept_but_not_busy_ones() {
        let sessions = Sessions::new(Limits { max: 8, idle: Duration::from_millis(1) });
        let (a, _ta) = sessions.create_session().await.unwrap();
        let (b, _tb) = sessions.create_session().await.unwrap();
        let busy = Busy::new(&sessions.book, &b);
        tokio::time::sleep(Duration::from_millis(5)).await;
        sessions.sweep().await;
        assert!(!sessions.has_session(&a).await.unwrap());
        assert!(sessions.has_session(&b).await.unwrap(), "a request is under way");
        drop(busy);
        tokio::time::sleep(Duration::from_millis(5)).await;
        sessions.sweep().await;
        assert_eq!(sessions.live(), 0);
    }
}
