//! The recent DAP traffic of one connection, both ways, kept for diagnosing an adapter: the
//! last [`KEPT`] messages, each numbered from 0 in the order they crossed, with when, which way,
//! what it is, and its JSON cut to [`JSON_CAP`] characters.

use std::collections::VecDeque;
use std::time::Instant;

use serde_json::Value;

/// How many messages a connection keeps.
pub const KEPT: usize = 500;

/// How many characters of a message's JSON are kept.
pub const JSON_CAP: usize = 2_000;

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From Locus to the adapter.
    Sent,
    /// From the adapter to Locus.
    Received,
}

impl Direction {
    /// `sent` or `received`.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Sent => "sent",
            Direction::Received => "received",
        }
    }
}

/// One message as it crossed.
#[derive(Debug, Clone, PartialEq)]
pub struct TrafficEntry {
    /// Its place in the connection's traffic, from 0.
    pub index: u64,
    /// Milliseconds since the connection started.
    pub at_ms: f64,
    /// Which way it went.
    pub direction: Direction,
    /// `request`, `response` or `event`.
    pub kind: String,
    /// The command or the event's name.
    pub name: String,
    /// The sender's `seq`.
    pub seq: i64,
    /// A response's `request_seq`.
    pub request_seq: Option<i64>,
    /// A response's `success`.
    pub success: Option<bool>,
    /// The message's compact JSON, cut to [`JSON_CAP`] characters (with `…`).
    pub json: String,
    /// The length of its whole compact JSON, in bytes.
    pub bytes: usize,
}

/// A page of a connection's traffic.
#[derive(Debug, Clone, PartialEq)]
pub struct TrafficPage {
    /// The messages from the index asked for (or the oldest kept), oldest first.
    pub entries: Vec<TrafficEntry>,
    /// The index of the oldest message still kept.
    pub oldest: u64,
    /// How many messages crossed in all.
    pub total: u64,
}

#[derive(Debug)]
pub(crate) struct Traffic {
    started: Instant,
    entries: VecDeque<TrafficEntry>,
    total: u64,
}

impl Traffic {
    pub(crate) fn new() -> Traffic {
        Traffic { started: Instant::now(), entries: VecDeque::new(), total: 0 }
    }

    /// Keeps a message that just crossed, dropping the oldest past [`KEPT`].
    pub(crate) fn record(&mut self, direction: Direction, message: &Value) {
        let text = message.to_string();
        let json = match text.char_indices().nth(JSON_CAP) {
            Some((at, _)) => format!("{}…", &text[..at]),
            None => text.clone(),
        };
        let name = ["command", "event"].iter().find_map(|k| message[*k].as_str()).unwrap_or("");
        self.entries.push_back(TrafficEntry {
            index: self.total,
            at_ms: self.started.elapsed().as_secs_f64() * 1000.0,
            direction,
            kind: message["type"].as_str().unwrap_or("").to_string(),
            name: name.to_string(),
            seq: message["seq"].as_i64().unwrap_or(0),
            request_seq: message["request_seq"].as_i64(),
            success: message["success"].as_bool(),
            json,
            bytes: text.len(),
        });
        self.total += 1;
        if self.entries.len() > KEPT {
            self.entries.pop_front();
        }
    }

    /// At most `limit` messages from the index `from` on (or from the oldest kept).
    pub(crate) fn page(&self, from: u64, limit: usize) -> TrafficPage {
        let oldest = self.entries.front().map_or(self.total, |e| e.index);
        let skip = from.saturating_sub(oldest) as usize;
        TrafficPage {
            entries: self.entries.iter().skip(skip).take(limit).cloned().collect(),
            oldest,
            total: self.total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_last_messages_are_kept_numbered_and_cut() {
        let mut t = Traffic::new();
        for seq in 0..(KEPT as i64 + 10) {
            t.record(
                Direction::Sent,
                &json!({"seq": seq, "type": "request", "command": "threads"}),
            );
        }
        t.record(
            Direction::Received,
            &json!({"seq": 1, "type": "response", "request_seq": 3, "success": true,
                    "command": "evaluate", "body": {"result": "x".repeat(JSON_CAP * 2)}}),
        );
        let page = t.page(0, 5);
        assert_eq!((page.oldest, page.total), (11, KEPT as u64 + 11));
        assert_eq!(page.entries[0].index, 11, "from the oldest kept");
        let last = &t.page(page.total - 1, 5).entries[0];
        assert_eq!((last.kind.as_str(), last.name.as_str()), ("response", "evaluate"));
        assert_eq!((last.request_seq, last.success), (Some(3), Some(true)));
        assert_eq!(last.json.chars().count(), JSON_CAP + 1);
        assert!(last.bytes > JSON_CAP * 2);
        assert!(t.page(page.total, 5).entries.is_empty());
    }
}
