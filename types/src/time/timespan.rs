//! `Timespan` (`pops/time/timespan.rb`): a signed duration in nanoseconds, made from fields
//! or parsed with Puppet's timespan directives, formatted with them too.

use super::civil::NSECS_PER_SEC;
use super::span_format::{Format, DEFAULTS};
use super::Timespan;
use crate::error::{Error, Result};

/// The formats to try on a string.
#[derive(Clone, Debug)]
pub enum SpanFormats<'a> {
    /// [`DEFAULTS`].
    Default,
    One(&'a str),
    Many(Vec<&'a str>),
}

impl Timespan {
    pub fn new(nsecs: i128) -> Timespan {
        Timespan { nsecs }
    }

    /// `Timespan.from_fields`, negated when `negative` (fields may overflow and be negative):
    ///
    /// ```text
    /// (((((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000 + milliseconds) * 1000
    ///   + microseconds) * 1000 + nanoseconds
    /// ```
    pub fn from_fields(negative: bool, fields: [i64; 7]) -> Timespan {
        let [days, hours, minutes, seconds, millis, micros, nanos] = fields.map(i128::from);
        // |days| < 2^63, so the sum stays far below 2^127
        let ns =
            (((((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000 + millis) * 1000 + micros) * 1000 + nanos;
        Timespan { nsecs: if negative { -ns } else { ns } }
    }

    /// Seconds (Integer or Float) as a timespan: `(seconds * 1_000_000_000).to_i`.
    pub fn from_seconds_f64(seconds: f64) -> Result<Timespan> {
        Ok(Timespan { nsecs: float_seconds_to_nanos(seconds)? })
    }

    /// `Timespan.parse(string, formats)`: the first format that parses the string wins; a
    /// single format's error is its own (`Unable to parse '...' using format '...'`), a list's
    /// is `Unable to parse '<string>' using any of the formats <f1>, <f2>, ...`. A malformed
    /// format is an error at once.
    pub fn parse(string: &str, formats: &SpanFormats<'_>) -> Result<Timespan> {
        let list: Vec<&str> = match formats {
            SpanFormats::One(f) => return Format::parse(f)?.parse_timespan(string),
            SpanFormats::Default => DEFAULTS.to_vec(),
            SpanFormats::Many(list) => list.clone(),
        };
        for f in &list {
            if let Ok(t) = Format::parse(f)?.parse_timespan(string) {
                return Ok(t);
            }
        }
        Err(Error::new(format!("Unable to parse '{string}' using any of the formats {}", list.join(", "))))
    }

    /// `Timespan#format(format)`: this timespan in Puppet's timespan directives.
    pub fn format(&self, format: &str) -> Result<String> {
        Format::parse(format)?.format(self)
    }

    /// `to_s`: the format `%D-%H:%M:%S.%-N` (`0-00:00:01.5`).
    pub fn to_s(&self) -> String {
        Format::parse(DEFAULTS[0]).and_then(|f| f.format(self)).unwrap_or_default()
    }

    /// The whole seconds, truncated toward zero (`to_i`).
    pub fn to_i(&self) -> i128 {
        self.nsecs / NSECS_PER_SEC
    }

    /// The seconds with their fraction (`to_f`).
    pub fn to_f(&self) -> f64 {
        self.nsecs as f64 / NSECS_PER_SEC as f64
    }
}

/// `(seconds * 1_000_000_000).to_i` of a Float: Ruby multiplies as a Float, then truncates;
/// an infinite product is Ruby's `FloatDomainError`.
pub fn float_seconds_to_nanos(seconds: f64) -> Result<i128> {
    let p = seconds * 1e9;
    if p.is_nan() {
        return Err(Error::new("NaN"));
    }
    if p.is_infinite() {
        return Err(Error::new(if p > 0.0 { "Infinity" } else { "-Infinity" }));
    }
    if p.abs() >= 2f64.powi(127) {
        return Err(Error::new("Time value out of range"));
    }
    Ok(p.trunc() as i128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields() {
        assert_eq!(Timespan::from_fields(false, [4, 0, 0, 2, 0, 0, 0]).to_s(), "4-00:00:02.0");
        assert_eq!(Timespan::from_fields(true, [0, 0, 0, 1, 500, 0, 0]).to_s(), "-0-00:00:01.5");
        assert_eq!(Timespan::from_fields(false, [0, 25, 0, 0, 0, 0, 1]).to_s(), "1-01:00:00.1");
    }

    #[test]
    fn seconds() {
        assert_eq!(Timespan::from_seconds_f64(13.5).unwrap().to_s(), "0-00:00:13.5");
        assert_eq!(Timespan::from_seconds_f64(-1.5).unwrap().to_s(), "-0-00:00:01.5");
    }

    #[test]
    fn parsing() {
        let t = |s: &str| Timespan::parse(s, &SpanFormats::Default).map(|t| t.to_s());
        assert_eq!(t("13:20:00").unwrap(), "0-13:20:00.0");
        assert!(t("13:20").is_err());
        assert_eq!(t("1-02:03:04.5").unwrap(), "1-02:03:04.5");
        assert_eq!(t("90").unwrap(), "0-00:01:30.0");
        assert_eq!(
            t("abc").unwrap_err().message,
            "Unable to parse 'abc' using any of the formats %D-%H:%M:%S.%-N, %H:%M:%S.%-N, %M:%S.%-N, %S.%-N, %D-%H:%M:%S, %H:%M:%S, %D-%H:%M, %S"
        );
        let many = SpanFormats::Many(vec!["%H", "%M"]);
        assert_eq!(Timespan::parse("1", &many).unwrap().to_s(), "0-01:00:00.0");
    }
}
