//! `Timespan` and `Timestamp`, as Puppet 7.23 has them (`pops/time/timespan.rb`,
//! `pops/time/timestamp.rb`, the `new` functions of `p_timespan_type.rb` and
//! `p_timestamp_type.rb`, and `functions/strftime.rb`).
//!
//! - [`timespan`]: durations; their directives ([`span_format`]) are Puppet's own
//!   (`%D %H %M %S %L %N`, flags `- _ 0`, widths);
//! - [`timestamp`]: points in time, parsed with Ruby's `DateTime._strptime` ([`strptime`])
//!   and `Time.utc` and formatted with Ruby's `Time#strftime` ([`strftime`]) on a
//!   proleptic Gregorian calendar without year limit ([`civil`]);
//! - [`zone`]: the time zones Puppet accepts, which are Ruby's date library's (abbreviations,
//!   Windows names, numeric offsets), not the tz database;
//! - `new`: `Timespan.new` and `Timestamp.new`.

pub mod civil;
pub mod dec;
mod new;

pub(crate) use new::{timespan_signatures, timestamp_signatures};
pub mod span_format;
pub mod strftime;
pub mod strptime;
pub mod timespan;
pub mod timestamp;
pub mod zone;

pub use new::{new_timespan, new_timestamp};
pub use timespan::SpanFormats;
pub use timestamp::StampFormats;

use crate::error::Result;

/// A duration in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timespan {
    pub nsecs: i128,
}

/// A point in time: nanoseconds since 1970-01-01T00:00:00 UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp {
    pub nsecs: i128,
}

/// `strftime(timespan, format)`: the timespan in Puppet's timespan directives
/// (`Timespan('1-02:03:04.5').strftime('%D %H:%M')` is `1 02:03`), or
/// `Bad format specifier '...' in '...', at position n`.
pub fn strftime_timespan(t: &Timespan, format: &str) -> Result<String> {
    t.format(format)
}

/// `strftime(timestamp, format, timezone)`: Ruby's `Time#strftime` of the timestamp in UTC,
/// or at the offset of `timezone` (`'EST'`, `'+01:00'`, `'current'`, ...; an empty one is
/// UTC). Errors: `Illegal timezone 'x'`, `utc_offset out of range`, `invalid format: f`.
pub fn strftime_timestamp(t: &Timestamp, format: &str, timezone: Option<&str>) -> Result<String> {
    t.format(format, timezone)
}

impl std::fmt::Display for Timespan {
    /// `to_s`: `%D-%H:%M:%S.%-N`, e.g. `0-00:00:01.0`, `-1-02:03:04.5`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_s())
    }
}

impl std::fmt::Display for Timestamp {
    /// `to_s`: `%FT%T.%N %Z` in UTC, e.g. `2020-01-01T00:00:00.000000000 UTC`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_s())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display() {
        assert_eq!(Timespan { nsecs: 1_000_000_000 }.to_string(), "0-00:00:01.0");
        assert_eq!(Timestamp { nsecs: 1_577_836_800_000_000_000 }.to_string(), "2020-01-01T00:00:00.000000000 UTC");
    }

    #[test]
    fn strftime_functions() {
        let ts = Timestamp::parse("2020-02-29T13:05:09.123456789 UTC", &StampFormats::Default, None).unwrap();
        assert_eq!(strftime_timestamp(&ts, "%Y-%m-%d %-I:%M %p", None).unwrap(), "2020-02-29 1:05 PM");
        assert_eq!(
            strftime_timestamp(&ts, "%H:%M %Z", Some("Europe/Stockholm")).unwrap_err().message,
            "Illegal timezone 'Europe/Stockholm'"
        );
        let span = Timespan::parse("1-02:03:04.5", &SpanFormats::Default).unwrap();
        assert_eq!(strftime_timespan(&span, "%D %H:%M").unwrap(), "1 02:03");
    }
}

#[cfg(test)]
mod fuzz {
    //! Random formats and strings: every entry point answers without panicking.
    use super::*;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn text(&mut self, alphabet: &[&str], max: u64) -> String {
            let n = self.next() % max;
            (0..n).map(|_| alphabet[(self.next() % alphabet.len() as u64) as usize]).collect()
        }
    }

    const FORMAT: &[&str] = &[
        "%", "%", "%", "-", "_", "0", "^", "#", ":", "1", "9", "E", "O", "z", "Z", "Y", "m", "d", "H", "M", "S", "L",
        "N", "s", "a", "b", "p", "j", "c", "x", "G", "V", "U", "D", "e", "+", "Q", " ", "T", "é", "\0", "99999999",
    ];
    const STRING: &[&str] = &[
        "0",
        "1",
        "2",
        "9",
        "-",
        "+",
        ":",
        ".",
        ",",
        " ",
        "T",
        "Z",
        "EST",
        "utc",
        "gmt",
        "am",
        "P.M.",
        "Wed",
        "Jan",
        "%",
        "é",
        "\0",
        "standard time",
        " dst",
        "99999999999999999999",
        "24",
        "60",
    ];

    #[test]
    fn no_panics() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let stamps = [0i128, -1, i128::MAX / 2, i128::MIN / 2, 1_582_981_509_123_456_789];
        for i in 0..20_000 {
            let f = rng.text(FORMAT, 10);
            let s = rng.text(STRING, 10);
            let tz = rng.text(STRING, 4);
            let _ = Timestamp::parse(&s, &StampFormats::One(&f), None);
            let _ = Timestamp::parse(&s, &StampFormats::Default, Some(&tz));
            let _ = Timespan::parse(&s, &SpanFormats::One(&f));
            let t = Timestamp { nsecs: stamps[i % stamps.len()] };
            let _ = strftime_timestamp(&t, &f, Some(&tz));
            let _ = strftime_timestamp(&t, &f, None);
            let _ = strftime_timespan(&Timespan { nsecs: stamps[i % stamps.len()] }, &f);
        }
    }
}
