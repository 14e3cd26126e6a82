//! `Timestamp` (`pops/time/timestamp.rb`): nanoseconds since 1970-01-01T00:00:00 UTC,
//! parsed with Ruby's `DateTime._strptime` and built with `Time.utc` (Puppet's
//! `Timestamp.parse`), formatted with Ruby's `Time#strftime` in UTC or in a zone
//! (`Timestamp.format_time`).

use super::civil::{days_from_civil, is_leap, Tm, NSECS_PER_SEC, SECS_PER_DAY};
use super::dec::Dec;
use super::strptime::{strptime, Parsed};
use super::timespan::float_seconds_to_nanos;
use super::zone::{convert_timezone, localtime_offset, utc_offset};
use super::{strftime, Timestamp};
use crate::error::{Error, Result};

/// `DEFAULT_FORMATS_WO_TZ`: tried when a timezone is given.
pub const DEFAULT_FORMATS_WO_TZ: [&str; 5] = ["%FT%T.%N", "%FT%T", "%F %T.%N", "%F %T", "%F"];

/// `DEFAULT_FORMATS`: tried when no timezone is given; the first also prints timestamps.
pub const DEFAULT_FORMATS: [&str; 10] =
    ["%FT%T.%N %Z", "%FT%T %Z", "%F %T.%N %Z", "%F %T %Z", "%F %Z", "%FT%T.%N", "%FT%T", "%F %T.%N", "%F %T", "%F"];

/// The largest year a timestamp reaches here (Ruby has no limit; `i128` nanoseconds end
/// near year 5.4e21).
const MAX_YEAR: i128 = 1_000_000_000_000_000_000_000;

/// The formats to parse a string with.
#[derive(Clone, Debug)]
pub enum StampFormats<'a> {
    /// [`DEFAULT_FORMATS`], or [`DEFAULT_FORMATS_WO_TZ`] with a timezone.
    Default,
    One(&'a str),
    Many(Vec<&'a str>),
}

fn out_of_range() -> Error {
    Error::new("Timestamp value out of range")
}

impl Timestamp {
    pub fn new(nsecs: i128) -> Timestamp {
        Timestamp { nsecs }
    }

    /// `Timestamp.now`: the current time (not deterministic).
    pub fn now() -> Timestamp {
        let nsecs = match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => d.as_nanos() as i128,
            Err(e) => -(e.duration().as_nanos() as i128),
        };
        Timestamp { nsecs }
    }

    /// Seconds since the epoch (a Float) as a timestamp: `(seconds * 1_000_000_000).to_i`.
    pub fn from_seconds_f64(seconds: f64) -> Result<Timestamp> {
        Ok(Timestamp { nsecs: float_seconds_to_nanos(seconds)? })
    }

    /// `Timestamp.parse(string, format, timezone)`.
    ///
    /// Each format is tried with `DateTime._strptime`; in a list, a format fails when it
    /// leaves text over or (with a timezone argument) reads a zone, and none succeeding is
    /// `Unable to parse '<s>' using any of the formats <f1>, <f2>, ...`. A single format that
    /// does not match is `Unable to parse '<s>' using format '<f>'`; reading a zone besides a
    /// timezone argument is an error of its own. The fields make a `Time.utc` (with its
    /// range errors); the timezone argument's offset, or the zone read, is then subtracted.
    pub fn parse(string: &str, formats: &StampFormats<'_>, timezone: Option<&str>) -> Result<Timestamp> {
        let explicit = timezone.filter(|tz| !tz.is_empty());
        let list: Vec<&str> = match formats {
            StampFormats::Default if explicit.is_some() => DEFAULT_FORMATS_WO_TZ.to_vec(),
            StampFormats::Default => DEFAULT_FORMATS.to_vec(),
            StampFormats::Many(l) => l.clone(),
            StampFormats::One(f) => return parse_one(string, f, explicit),
        };
        for f in &list {
            let Some(p) = strptime(string, f) else { continue };
            if p.leftover.is_some() || (explicit.is_some() && p.zone.is_some()) {
                continue;
            }
            return from_parsed(&p, explicit);
        }
        Err(Error::new(format!("Unable to parse '{string}' using any of the formats {}", list.join(", "))))
    }

    /// `Timestamp#format(format, timezone)`: `Time#strftime` in UTC, or at the offset of
    /// `timezone` when one is given (not empty).
    pub fn format(&self, format: &str, timezone: Option<&str>) -> Result<String> {
        let (offset, gmt) = match timezone.filter(|tz| !tz.is_empty()) {
            Some(tz) => localtime_offset(&convert_timezone(tz)?)?,
            None => (0, true),
        };
        strftime::strftime(&Tm::new(self.nsecs, offset, gmt), format)
    }

    /// `to_s`: `%FT%T.%N %Z` in UTC (`2020-01-01T00:00:00.000000000 UTC`).
    pub fn to_s(&self) -> String {
        self.format(DEFAULT_FORMATS[0], None).unwrap_or_default()
    }

    /// The whole seconds since the epoch, truncated toward zero (`to_i`).
    pub fn to_i(&self) -> i128 {
        self.nsecs / NSECS_PER_SEC
    }

    /// The seconds since the epoch with their fraction (`to_f`).
    pub fn to_f(&self) -> f64 {
        self.nsecs as f64 / NSECS_PER_SEC as f64
    }
}

/// `Timestamp.parse` with one format.
fn parse_one(string: &str, format: &str, explicit: Option<&str>) -> Result<Timestamp> {
    let p = strptime(string, format)
        .filter(|p| p.leftover.is_none())
        .ok_or_else(|| Error::new(format!("Unable to parse '{string}' using format '{format}'")))?;
    if explicit.is_some() && p.zone.is_some() {
        return Err(Error::new(
            "Using a Timezone designator in format specification is mutually exclusive to providing an explicit timezone argument",
        ));
    }
    from_parsed(&p, explicit)
}

/// The timestamp of parsed fields: `Time.utc(year, mon, mday, hour, min, sec, usec)` less the
/// offset of the timezone argument or else of the zone read.
fn from_parsed(p: &Parsed, explicit: Option<&str>) -> Result<Timestamp> {
    let (secs, fraction) = time_utc(p)?;
    let zone = explicit.or(p.zone.as_deref());
    let offset = match zone {
        Some(z) => utc_offset(z)?,
        None => Dec::ZERO,
    };
    let sub = fraction.checked_sub(offset).and_then(|d| d.floor_shifted(9)).ok_or_else(out_of_range)?;
    let nsecs = secs.checked_mul(NSECS_PER_SEC).and_then(|n| n.checked_add(sub)).ok_or_else(out_of_range)?;
    Ok(Timestamp { nsecs })
}

/// Ruby's `Time.utc` of the parsed fields (`time_arg`, `validate_vtm`, `timegm`): seconds
/// since the epoch and the fraction of the second. A missing year is Ruby's TypeError; a
/// day past the end of February or of a 30-day month moves to the next month; hour 24 is
/// the next day (with minutes and seconds 0); second 60 is the next minute.
fn time_utc(p: &Parsed) -> Result<(i128, Dec)> {
    let year = match p.year {
        None => return Err(Error::new("no implicit conversion of nil into Integer")),
        Some(y) => y.filter(|y| y.abs() <= MAX_YEAR).ok_or_else(out_of_range)?,
    };
    let mut mon = p.mon.unwrap_or(1);
    let mut mday = p.mday.unwrap_or(1);
    match mon {
        2 => {
            let days = if is_leap(year) { 29 } else { 28 };
            if mday > days {
                mday -= days;
                mon += 1;
            }
        }
        4 | 6 | 9 | 11 if mday == 31 => {
            mon += 1;
            mday = 1;
        }
        _ => {}
    }
    let hour = p.hour.unwrap_or(0);
    let min = p.min.unwrap_or(0);
    let sec = p.sec.unwrap_or(0);
    let fraction = p.sec_fraction.unwrap_or(Dec::ZERO);
    let check = |ok: bool, what: &str| if ok { Ok(()) } else { Err(Error::new(format!("{what} out of range"))) };
    check((1..=12).contains(&mon), "mon")?;
    check((1..=31).contains(&mday), "mday")?;
    check((0..=24).contains(&hour), "hour")?;
    check((0..=if hour == 24 { 0 } else { 59 }).contains(&min), "min")?;
    check((0..=if hour == 24 { 0 } else { 60 }).contains(&sec), "sec")?;
    check(!fraction.is_negative(), "subsecx")?;
    let days = days_from_civil(year, mon as u32, mday as u32);
    let secs = days * SECS_PER_DAY + i128::from(hour * 3600 + min * 60 + sec);
    Ok((secs, fraction))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> Result<String> {
        Timestamp::parse(s, &StampFormats::Default, None).map(|t| t.to_s())
    }

    fn with(s: &str, f: &str, tz: Option<&str>) -> Result<String> {
        Timestamp::parse(s, &StampFormats::One(f), tz).map(|t| t.to_s())
    }

    #[test]
    fn defaults() {
        assert_eq!(ts("2020-01-01").unwrap(), "2020-01-01T00:00:00.000000000 UTC");
        assert_eq!(ts("2020-02-29T13:05:09.123456789 UTC").unwrap(), "2020-02-29T13:05:09.123456789 UTC");
        assert_eq!(ts("2020-01-01 CET").unwrap(), "2019-12-31T23:00:00.000000000 UTC");
        assert_eq!(ts("2020-02-30").unwrap(), "2020-03-01T00:00:00.000000000 UTC");
        assert_eq!(ts("2021-02-31").unwrap(), "2021-03-03T00:00:00.000000000 UTC");
        assert_eq!(ts("2020-01-01 24:00:00").unwrap(), "2020-01-02T00:00:00.000000000 UTC");
        assert_eq!(ts("2020-01-01 23:59:60").unwrap(), "2020-01-02T00:00:00.000000000 UTC");
        assert_eq!(ts("99999-01-01").unwrap(), "99999-01-01T00:00:00.000000000 UTC");
        assert!(ts("2020-13-01")
            .unwrap_err()
            .message
            .starts_with("Unable to parse '2020-13-01' using any of the formats %FT%T.%N %Z, "));
    }

    #[test]
    fn errors_of_time_utc() {
        assert_eq!(ts("2020-01-01 24:00:01").unwrap_err().message, "sec out of range");
        assert_eq!(ts("2020-01-01 24:01:00").unwrap_err().message, "min out of range");
        assert_eq!(with("10", "%H", None).unwrap_err().message, "no implicit conversion of nil into Integer");
        assert_eq!(with("2020-01-01 00:00:00.-5", "%F %T.%N", None).unwrap_err().message, "subsecx out of range");
    }

    #[test]
    fn zones() {
        assert_eq!(with("2020-01-01 +1.5", "%F %z", None).unwrap(), "2019-12-31T22:30:00.000000000 UTC");
        assert_eq!(with("2020-01-01 +0.01", "%F %z", None).unwrap(), "2019-12-31T23:59:24.000000000 UTC");
        assert_eq!(with("2020-01-01", "%F", Some("+25:00")).unwrap(), "2019-12-30T23:00:00.000000000 UTC");
        assert_eq!(
            with("2020-01-01", "%F %Z", Some("UTC")).unwrap_err().message,
            "Unable to parse '2020-01-01' using format '%F %Z'"
        );
        assert!(with("2020-01-01 UTC", "%F %Z", Some("UTC")).unwrap_err().message.starts_with("Using a Timezone"));
        assert_eq!(with("2020-01-01", "%F", Some("Foo")).unwrap_err().message, "Illegal timezone 'Foo'");
    }

    #[test]
    fn formatting() {
        let t = Timestamp { nsecs: 1_577_836_800 * NSECS_PER_SEC };
        assert_eq!(t.format("%F %T %Z %z", Some("EST")).unwrap(), "2019-12-31 19:00:00  -0500");
        assert_eq!(t.format("%F %T %Z %z", Some("UTC")).unwrap(), "2020-01-01 00:00:00  +0000");
        assert_eq!(t.format("%F %T %Z %z", Some("")).unwrap(), "2020-01-01 00:00:00 UTC +0000");
        assert_eq!(t.format("%F %T %z", Some("+2500")).unwrap_err().message, "utc_offset out of range");
        assert_eq!(
            t.format("%F %T %z", Some("Europe/Stockholm")).unwrap_err().message,
            "Illegal timezone 'Europe/Stockholm'"
        );
        assert_eq!(t.format("abc%", None).unwrap_err().message, "invalid format: abc%");
        assert_eq!(Timestamp::from_seconds_f64(-1.5).unwrap().to_s(), "1969-12-31T23:59:58.500000000 UTC");
        assert_eq!(
            Timestamp::from_seconds_f64(1e25).unwrap().to_s(),
            "316887385068116298-12-07T13:50:14.477275136 UTC"
        );
    }
}
