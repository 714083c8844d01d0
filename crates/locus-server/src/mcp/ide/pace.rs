//! When a channel pushes what the user looks at: a change once it held for one period (a
//! selection being dragged is pushed when it rests), and the current value again a few times
//! after the agent connected.
//!
//! The agents listen for these pushes only some time after connecting (Claude Code once its
//! interface drew the connection, Gemini CLI once its event stream is open) and drop what came
//! before, with no sign of when they listen: hence the repeats ([`RESENDS`]).

use std::sync::Arc;
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{CustomNotification, ServerNotification};
use rmcp::service::Peer;
use serde_json::Value;
use tokio::sync::Notify;
use tokio::time::Instant;

/// How often the value is compared with what was last pushed.
pub const PERIOD: Duration = Duration::from_millis(50);

/// When the value is pushed again after the agent connected.
pub const RESENDS: [Duration; 5] = [
    Duration::from_millis(100),
    Duration::from_millis(500),
    Duration::from_millis(1500),
    Duration::from_secs(3),
    Duration::from_secs(6),
];

/// The pacing of one connection's pushes.
#[derive(Debug)]
pub struct Pace<T> {
    sent: Option<T>,
    seen: Option<T>,
    /// The repeats still due, the next last.
    resends: Vec<Instant>,
}

impl<T: PartialEq + Clone> Pace<T> {
    /// Nothing pushed yet.
    pub fn new() -> Pace<T> {
        Pace { sent: None, seen: None, resends: Vec::new() }
    }

    /// The agent connected at `at`: the value is pushed again at [`RESENDS`] after it.
    pub fn connected(&mut self, at: Instant) {
        self.resends = RESENDS.iter().rev().map(|d| at + *d).collect();
    }

    /// Given the value `now` at the instant `at`, the value to push, if one is due.
    pub fn due(&mut self, now: Option<T>, at: Instant) -> Option<T> {
        if self.resends.last().is_some_and(|t| *t <= at) {
            self.resends.pop();
            self.sent = None;
        }
        let rested = now == self.seen;
        self.seen = now.clone();
        if !rested || now == self.sent {
            return None;
        }
        now
    }

    /// `value` was pushed.
    pub fn pushed(&mut self, value: T) {
        self.sent = Some(value);
    }
}

/// Pushes the notification `method` to `peer` as [`Pace`] says, until the peer goes: `observe`
/// gives the value now (every [`PERIOD`]), `params` the notification's parameters for a value
/// due; `connected` is notified when the agent connected (then the repeats start).
pub async fn push<T: PartialEq + Clone>(
    peer: Peer<RoleServer>,
    method: &'static str,
    connected: Arc<Notify>,
    mut observe: impl FnMut() -> Option<T>,
    mut params: impl FnMut(&T) -> Value,
) {
    let mut pace = Pace::new();
    let mut tick = tokio::time::interval(PERIOD);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            () = connected.notified() => pace.connected(Instant::now()),
        }
        let Some(value) = pace.due(observe(), Instant::now()) else { continue };
        let notification = CustomNotification::new(method, Some(params(&value)));
        if peer
            .send_notification(ServerNotification::CustomNotification(notification))
            .await
            .is_err()
        {
            return;
        }
        pace.pushed(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_pushed_once_it_rests_and_again_after_connecting() {
        let t0 = Instant::now();
        let mut pace = Pace::new();
        assert_eq!(pace.due(Some(1), t0), None, "not rested yet");
        assert_eq!(pace.due(Some(1), t0), Some(1));
        pace.pushed(1);
        assert_eq!(pace.due(Some(1), t0), None, "pushed already");
        assert_eq!(pace.due(Some(2), t0), None);
        assert_eq!(pace.due(Some(3), t0), None, "still moving");
        assert_eq!(pace.due(Some(3), t0), Some(3));
        pace.pushed(3);
        pace.connected(t0);
        assert_eq!(pace.due(Some(3), t0 + Duration::from_millis(50)), None);
        assert_eq!(pace.due(Some(3), t0 + RESENDS[0]), Some(3), "the first repeat");
        pace.pushed(3);
        assert_eq!(pace.due(Some(3), t0 + RESENDS[0]), None);
        assert_eq!(pace.due(None, t0 + RESENDS[1]), None, "nothing to push");
    }
}
