//! What every line-based transcript reader shares: the [`LineFormat`] trait that `read.rs`
//! drives and `format/` implements, and the small field types the formats have in common.
//! It sits below both, so neither imports the other's internals.

use std::collections::HashSet;

use serde::Deserialize;

use crate::model::{Track, Transcript};
use crate::time::Timestamp;

/// A parser for one line-based format. It folds each complete line into the transcript.
pub(crate) trait LineFormat: Send {
    /// Reads one line (without its line break). `Err` skips the line with a warning;
    /// `notes` collects warnings about a line that was otherwise read.
    fn line(
        &mut self,
        line: &[u8],
        t: &mut Transcript,
        notes: &mut Vec<String>,
    ) -> Result<(), String>;

    /// Called after each batch of lines, for formats that rebuild the requests from a model.
    fn finish(&mut self, _t: &mut Transcript) {}

    /// The requests to report; a format with two candidate sources picks one here.
    fn track<'a>(&'a self, t: &'a Transcript) -> &'a Track {
        &t.track
    }
}

/// A time field as the tools write it: RFC 3339 text, or Unix seconds or milliseconds.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum TimeValue {
    Text(String),
    Number(f64),
}

impl TimeValue {
    pub fn timestamp(&self) -> Option<Timestamp> {
        match self {
            TimeValue::Text(t) => Timestamp::parse_rfc3339(t),
            TimeValue::Number(n) => Timestamp::from_unix_number(*n),
        }
    }
}

pub(crate) fn time(value: &Option<TimeValue>) -> Option<Timestamp> {
    value.as_ref().and_then(TimeValue::timestamp)
}

/// Remembers which unknown record types a file had, to warn once about each.
#[derive(Debug, Default)]
pub(crate) struct UnknownKinds(HashSet<String>);

impl UnknownKinds {
    pub fn note(&mut self, what: &str, kind: &str, notes: &mut Vec<String>) {
        if self.0.insert(kind.to_owned()) {
            notes.push(format!(
                "unknown {what} `{kind}` skipped (further ones are skipped silently)"
            ));
        }
    }
}
