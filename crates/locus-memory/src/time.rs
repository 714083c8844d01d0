//! Instants as the transcripts write them: RFC 3339 strings or Unix milliseconds.

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
    /// `2025-10-29T02:59:38+02:00`; a space may stand for the `T`. Fractions beyond
    /// milliseconds are truncated. `None` when the text is not such a date-time.
    pub fn parse_rfc3339(text: &str) -> Option<Timestamp> {
        let b = text.trim().as_bytes();
        if b.len() < 19 {
            return None;
        }
        let num = |range: std::ops::Range<usize>| -> Option<i64> {
            let mut n = 0i64;
            for &c in b.get(range)? {
                if !c.is_ascii_digit() {
                    return None;
                }
                n = n * 10 + i64::from(c - b'0');
            }
            Some(n)
        };
        if b[4] != b'-'
            || b[7] != b'-'
            || !matches!(b[10], b'T' | b't' | b' ')
            || b[13] != b':'
            || b[16] != b':'
        {
            return None;
        }
        let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
        let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
        if !(1..=12).contains(&month)
            || !(1..=31).contains(&day)
            || hour > 23
            || minute > 59
            || second > 60
        {
            return None;
        }
        let mut i = 19;
        let mut millis = 0i64;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                if i - start < 3 {
                    millis = millis * 10 + i64::from(b[i] - b'0');
                }
                i += 1;
            }
            if i == start {
                return None;
            }
            for _ in (i - start)..3 {
                millis *= 10;
            }
        }
        let offset_minutes = match b.get(i) {
            Some(b'Z' | b'z') if i + 1 == b.len() => 0,
            Some(&sign @ (b'+' | b'-')) if i + 6 == b.len() && b[i + 3] == b':' => {
                let minutes = num(i + 1..i + 3)? * 60 + num(i + 4..i + 6)?;
                if sign == b'+' { minutes } else { -minutes }
            }
            // No offset at all: read as UTC, which is what the tools that omit it mean.
            None => 0,
            _ => return None,
        };
        let days = days_from_civil(year, month, day);
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
        Some(Timestamp(seconds * 1000 + millis))
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
    /// RFC 3339 in UTC with milliseconds: `2025-10-29T00:59:38.317Z`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.rem_euclid(1000);
        let secs = self.0.div_euclid(1000);
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        write!(
            f,
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{ms:03}Z",
            rem / 3600,
            rem / 60 % 60,
            rem % 60
        )
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01, the inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
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
    }
}
