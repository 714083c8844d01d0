//! Instants as the transcripts write them: RFC 3339 strings or Unix milliseconds.
//!
//! RFC 3339 is read and written by `jiff`, which handles offsets, fractions and the calendar
//! with care; this module only adds the transcripts' leniencies (no offset means UTC, Unix
//! numbers in seconds or milliseconds) and keeps the one small type the crate orders by.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// An instant in UTC, in milliseconds since the Unix epoch.
///
/// Transcripts write time in several ways (RFC 3339 with any offset and any number of
/// fraction digits, Unix milliseconds, Unix seconds); all become this one type, which orders
/// sessions across sources and prints as RFC 3339 in UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(i64);

impl Timestamp {
    /// The instant `ms` milliseconds after the Unix epoch.
    pub fn from_millis(ms: i64) -> Timestamp {
        Timestamp(ms)
    }

    /// Milliseconds since the Unix epoch.
    pub fn millis(self) -> i64 {
        self.0
    }

    /// The instant of a [`SystemTime`] (a file's modification time, say).
    pub fn from_system_time(time: SystemTime) -> Timestamp {
        match time.duration_since(UNIX_EPOCH) {
            Ok(d) => Timestamp(i64::try_from(d.as_millis()).unwrap_or(i64::MAX)),
            Err(e) => Timestamp(-i64::try_from(e.duration().as_millis()).unwrap_or(i64::MAX)),
        }
    }

    /// Parses an RFC 3339 date-time such as `2025-10-29T00:59:38.317Z` or
    /// `2025-10-29T02:59:38+02:00`; a space may stand for the `T`, and a date-time with no
    /// offset at all is read as UTC (what the tools that omit it mean). Fractions beyond
    /// milliseconds are truncated. `None` when the text is not such a date-time.
    pub fn parse_rfc3339(text: &str) -> Option<Timestamp> {
        let text = text.trim();
        let instant = match text.parse::<jiff::Timestamp>() {
            Ok(t) => t,
            // jiff wants an offset for an instant; without one, read the civil time as UTC.
            Err(_) => jiff::tz::Offset::UTC.to_timestamp(text.parse().ok()?).ok()?,
        };
        Some(Timestamp(instant.as_millisecond()))
    }

    /// Reads a JSON number as Unix time: values below 10^11 are seconds, larger ones
    /// milliseconds (10^11 seconds is the year 5138; 10^11 milliseconds is 1973).
    pub fn from_unix_number(n: f64) -> Option<Timestamp> {
        if !n.is_finite() || n < 0.0 {
            return None;
        }
        let ms = if n < 1e11 { n * 1000.0 } else { n };
        Some(Timestamp(ms as i64))
    }
}

impl fmt::Display for Timestamp {
    /// RFC 3339 in UTC with milliseconds: `2025-10-29T00:59:38.317Z`. Instants beyond
    /// jiff's range (years -9999 to 9999) print as its nearest end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let instant = jiff::Timestamp::from_millisecond(self.0).unwrap_or(if self.0 < 0 {
            jiff::Timestamp::MIN
        } else {
            jiff::Timestamp::MAX
        });
        // The civil fields written directly: `strftime` parses its format on every call,
        // which showed in the recall benchmark (every request listed prints a timestamp).
        let t = jiff::tz::Offset::UTC.to_datetime(instant);
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            t.year(),
            t.month(),
            t.day(),
            t.hour(),
            t.minute(),
            t.second(),
            t.millisecond()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::Timestamp;

    #[test]
    fn parses_and_prints_rfc3339() {
        let t = Timestamp::parse_rfc3339("2025-10-29T00:59:38.317Z").unwrap();
        assert_eq!(t.millis(), 1_761_699_578_317);
        assert_eq!(t.to_string(), "2025-10-29T00:59:38.317Z");
        let offset = Timestamp::parse_rfc3339("2025-10-29T02:59:38.317+02:00").unwrap();
        assert_eq!(offset, t);
        let micros = Timestamp::parse_rfc3339("2025-10-29T00:59:38.317999Z").unwrap();
        assert_eq!(micros, t);
        assert_eq!(
            Timestamp::parse_rfc3339("2024-02-29T00:00:00Z").unwrap().to_string(),
            "2024-02-29T00:00:00.000Z"
        );
        assert_eq!(Timestamp::parse_rfc3339("1969-12-31T23:59:59.5Z").unwrap().millis(), -500);
        assert_eq!(Timestamp::parse_rfc3339("not a date"), None);
        // The forms transcripts write: a space for the `T`, lower-case `t`/`z`, no offset
        // (UTC), nanoseconds, a negative offset.
        assert_eq!(Timestamp::parse_rfc3339("2025-10-29 00:59:38.317Z"), Some(t));
        assert_eq!(Timestamp::parse_rfc3339("2025-10-29t00:59:38.317z"), Some(t));
        assert_eq!(Timestamp::parse_rfc3339("2025-10-29T00:59:38.317"), Some(t));
        assert_eq!(Timestamp::parse_rfc3339(" 2025-10-29T00:59:38.317123456Z\n"), Some(t));
        assert_eq!(Timestamp::parse_rfc3339("2025-10-28T19:59:38.317-05:00"), Some(t));
        assert_eq!(Timestamp::parse_rfc3339("2025-10-29T00:59:38Z").unwrap().millis() % 1000, 0);
        assert_eq!(Timestamp::parse_rfc3339("2025-02-30T00:00:00Z"), None);
        assert_eq!(Timestamp::parse_rfc3339("2025-13-01T00:00:00Z"), None);
    }

    #[test]
    fn reads_unix_numbers() {
        assert_eq!(
            Timestamp::from_unix_number(1_761_699_578.0).unwrap().millis(),
            1_761_699_578_000
        );
        assert_eq!(
            Timestamp::from_unix_number(1_761_699_578_317.0).unwrap().millis(),
            1_761_699_578_317
        );
        assert_eq!(Timestamp::from_unix_number(-1.0), None);
        assert_eq!(Timestamp::from_unix_number(f64::NAN), None);
    }

    #[test]
    fn prints_instants_outside_the_calendar_range_without_failing() {
        // jiff's last instant is 9999-12-30T22:00Z (so that every offset stays in range).
        assert!(Timestamp::from_millis(i64::MAX).to_string().starts_with("9999-12-30T"));
        assert!(Timestamp::from_millis(i64::MIN).to_string().contains("9999-01-0"));
        assert_eq!(Timestamp::from_millis(0).to_string(), "1970-01-01T00:00:00.000Z");
    }
}
