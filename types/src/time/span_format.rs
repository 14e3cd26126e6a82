//! Puppet's own format directives for timespans (`Timespan::Format` and
//! `Timespan::FormatParser` of `pops/time/timespan.rb`), used both to format
//! (`strftime(Timespan(...), fmt)`, `to_s`) and to parse (`Timespan('1-02:03', '%D-%H:%M')`).
//!
//! A directive is `%[flags][width]conversion`:
//!
//! | flag | meaning |
//! | --- | --- |
//! | `-` | don't pad numerical output |
//! | `_` | use spaces for padding |
//! | `0` | use zeros for padding (the default) |
//!
//! | conversion | meaning | default width |
//! | --- | --- | --- |
//! | `D` | number of days | 1 |
//! | `H` | hour of the day, 24-hour clock | 2 |
//! | `M` | minute of the hour (00..59) | 2 |
//! | `S` | second of the minute (00..59) | 2 |
//! | `L` | millisecond of the second (000..999) | 3 |
//! | `N` | fractional seconds digits | 9 |
//!
//! The directive of the highest magnitude in a format counts the total (`%H` without `%D`
//! may exceed 23). `%L` and `%N` are fractions: left-aligned when formatted (blank-filled to
//! their width, trailing zeros dropped with `-`), scaled by their digit count when parsed.
//! `%%` is a `%`; anything else after `%` is
//! `Bad format specifier '<directive>' in '<format>', at position <n>`.

use super::civil::NSECS_PER_SEC;
use super::Timespan;
use crate::error::{Error, Result};

const NSECS_PER_MSEC: i128 = 1_000_000;
const NSECS_PER_MIN: i128 = 60 * NSECS_PER_SEC;
const NSECS_PER_HOUR: i128 = 60 * NSECS_PER_MIN;
const NSECS_PER_DAY: i128 = 24 * NSECS_PER_HOUR;

/// The largest width honoured (Ruby's `sprintf` would build the string, or say
/// `width too big` past 2^31).
const MAX_WIDTH: usize = 1 << 16;

/// `Timespan::Format::DEFAULTS`: the formats `Timespan.new` tries on a string, in order; the
/// first is also how a timespan prints.
pub const DEFAULTS: [&str; 8] =
    ["%D-%H:%M:%S.%-N", "%H:%M:%S.%-N", "%M:%S.%-N", "%S.%-N", "%D-%H:%M:%S", "%H:%M:%S", "%D-%H:%M", "%S"];

/// What a value segment shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Unit {
    Nanos,
    Millis,
    Seconds,
    Minutes,
    Hours,
    Days,
}

/// The padding of a value segment: `-` (none), `_` (blanks), `0` (zeros).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pad {
    None,
    Space,
    Zero,
}

#[derive(Clone, Debug)]
enum Segment {
    Literal(String),
    Value { unit: Unit, pad: Pad, width: Option<usize>, use_total: bool },
}

/// A compiled format.
#[derive(Clone, Debug)]
pub struct Format {
    source: String,
    segments: Vec<Segment>,
}

impl Unit {
    fn default_width(self) -> usize {
        match self {
            Unit::Days => 1,
            Unit::Hours | Unit::Minutes | Unit::Seconds => 2,
            Unit::Millis => 3,
            Unit::Nanos => 9,
        }
    }

    fn is_fraction(self) -> bool {
        matches!(self, Unit::Millis | Unit::Nanos)
    }

    fn of(c: char) -> Option<Unit> {
        Some(match c {
            'D' => Unit::Days,
            'H' => Unit::Hours,
            'M' => Unit::Minutes,
            'S' => Unit::Seconds,
            'L' => Unit::Millis,
            'N' => Unit::Nanos,
            _ => return None,
        })
    }
}

/// `Bad format specifier '<format[start, position - start]>' in '<format>', at position <n>`
/// (character positions).
fn bad_specifier(chars: &[char], start: usize, position: usize) -> Error {
    let expr: String = chars.iter().skip(start).take(position.saturating_sub(start)).collect();
    let format: String = chars.iter().collect();
    Error::new(format!("Bad format specifier '{expr}' in '{format}', at position {position}"))
}

/// States of the directive reader.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Expects a literal or `%`.
    Literal,
    /// Expects a flag, width or conversion.
    Pad,
    /// Expects width digits or a conversion.
    Width,
}

impl Format {
    /// Compiles a format (`FormatParser#internal_parse`).
    pub fn parse(source: &str) -> Result<Format> {
        let chars: Vec<char> = source.chars().collect();
        let mut segments: Vec<Segment> = Vec::new();
        let mut highest: Option<Unit> = None;
        let mut state = State::Literal;
        let (mut pad, mut width, mut fstart) = (Pad::Zero, None::<usize>, 0usize);
        let mut position = 0usize;
        for (i, &c) in chars.iter().enumerate() {
            position = i;
            if state == State::Literal {
                if c == '%' {
                    state = State::Pad;
                    fstart = i;
                    pad = Pad::Zero;
                    width = None;
                } else {
                    append_literal(&mut segments, c);
                }
                continue;
            }
            match c {
                '%' => {
                    append_literal(&mut segments, c);
                    state = State::Literal;
                }
                '-' | '_' => {
                    if state != State::Pad {
                        return Err(bad_specifier(&chars, fstart, i));
                    }
                    pad = if c == '-' { Pad::None } else { Pad::Space };
                    state = State::Width;
                }
                _ => {
                    if let Some(unit) = Unit::of(c) {
                        highest = highest.max(Some(unit));
                        segments.push(Segment::Value { unit, pad, width, use_total: false });
                        state = State::Literal;
                    } else if let Some(d) = c.to_digit(10) {
                        if state == State::Pad && d == 0 {
                            pad = Pad::Zero;
                        } else {
                            width = Some(width.unwrap_or(0).saturating_mul(10).saturating_add(d as usize));
                        }
                        state = State::Width;
                    } else {
                        return Err(bad_specifier(&chars, fstart, i));
                    }
                }
            }
        }
        if state != State::Literal {
            return Err(bad_specifier(&chars, fstart, position));
        }
        if let Some(h) = highest {
            if let Some(Segment::Value { use_total, .. }) =
                segments.iter_mut().find(|s| matches!(s, Segment::Value { unit, .. } if *unit == h))
            {
                *use_total = true;
            }
        }
        Ok(Format { source: source.to_owned(), segments })
    }

    /// The format as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Formats a timespan: `-` when negative, then each segment.
    pub fn format(&self, t: &Timespan) -> Result<String> {
        let mut out = String::new();
        if t.nsecs < 0 {
            out.push('-');
        }
        let total = t.nsecs.unsigned_abs();
        for seg in &self.segments {
            match seg {
                Segment::Literal(s) => out.push_str(s),
                Segment::Value { unit, pad, width, use_total } => {
                    let n = value_of(total, *unit, *width, *use_total);
                    append_value(&mut out, *unit, *pad, *width, *use_total, n)?;
                }
            }
        }
        Ok(out)
    }

    /// Parses a string (`Format#parse`): `Unable to parse '<s>' using format '<format>'`
    /// unless it matches as a whole.
    pub fn parse_timespan(&self, s: &str) -> Result<Timespan> {
        let unable = || Error::new(format!("Unable to parse '{s}' using format '{}'", self.source));
        let re = regex::Regex::new(&self.regexp()).map_err(|_| unable())?;
        let caps = re.captures(s).ok_or_else(unable)?;
        let mut nanos: i128 = 0;
        for (i, seg) in self.segments.iter().enumerate() {
            let Segment::Value { unit, width, use_total, .. } = seg else { continue };
            let group = caps.get(i + 1).map_or("", |m| m.as_str());
            let group = group.trim_start_matches(['\t', '\n', '\x0B', '\x0C', '\r', ' ', '\0']);
            if group.is_empty() || !group.bytes().all(|b| b.is_ascii_digit()) {
                return Err(unable());
            }
            let n = segment_nanos(*unit, *width, *use_total, group)?;
            nanos = nanos.checked_add(n).ok_or_else(out_of_range)?;
        }
        Ok(Timespan { nsecs: if s.starts_with('-') { -nanos } else { nanos } })
    }

    /// The regular expression of the format (`build_regexp`): `\A-?` then one group per
    /// segment, then `\z`.
    fn regexp(&self) -> String {
        const BLANK: &str = r"\t\n\x0B\x0C\r ";
        let mut re = String::from(r"\A-?");
        for seg in &self.segments {
            match seg {
                Segment::Literal(s) => re.push_str(&format!("({})", regex::escape(s))),
                Segment::Value { unit, pad, width, use_total } => {
                    let dw = unit.default_width();
                    re.push_str(&match (width, pad) {
                        (None, Pad::None | Pad::Zero) if *use_total => "([0-9]+)".to_owned(),
                        (None, Pad::None | Pad::Zero) => format!("([0-9]{{1,{dw}}})"),
                        (None, Pad::Space) if *use_total => format!("[{BLANK}]*([0-9]+)"),
                        (None, Pad::Space) => format!("([0-9{BLANK}]{{1,{dw}}})"),
                        (Some(w), Pad::None) => format!("([0-9]{{1,{w}}})"),
                        (Some(w), Pad::Zero) => format!("([0-9]{{{w}}})"),
                        (Some(w), Pad::Space) => format!("([0-9{BLANK}]{{{w}}})"),
                    });
                }
            }
        }
        re.push_str(r"\z");
        re
    }
}

fn out_of_range() -> Error {
    Error::new("Timespan value out of range")
}

/// Adds a literal character, merging with a preceding literal.
fn append_literal(segments: &mut Vec<Segment>, c: char) {
    if let Some(Segment::Literal(s)) = segments.last_mut() {
        s.push(c);
    } else {
        segments.push(Segment::Literal(c.to_string()));
    }
}

/// The number a segment shows for `total` nanoseconds (the absolute value).
fn value_of(total: u128, unit: Unit, width: Option<usize>, use_total: bool) -> u128 {
    let per = |n: i128| n as u128;
    match unit {
        Unit::Days => total / per(NSECS_PER_DAY),
        Unit::Hours if use_total => total / per(NSECS_PER_HOUR),
        Unit::Hours => total / per(NSECS_PER_HOUR) % 24,
        Unit::Minutes if use_total => total / per(NSECS_PER_MIN),
        Unit::Minutes => total / per(NSECS_PER_MIN) % 60,
        Unit::Seconds if use_total => total / per(NSECS_PER_SEC),
        Unit::Seconds => total / per(NSECS_PER_SEC) % 60,
        Unit::Millis if use_total => total / per(NSECS_PER_MSEC),
        Unit::Millis => total / per(NSECS_PER_MSEC) % 1000,
        Unit::Nanos => {
            let w = width.unwrap_or(9);
            if w < 9 {
                let ns = total / 10u128.pow((9 - w) as u32);
                if use_total {
                    ns
                } else {
                    ns % 10u128.pow(w as u32)
                }
            } else if use_total {
                total
            } else {
                total % per(NSECS_PER_SEC)
            }
        }
    }
}

/// Appends a segment's number with Ruby's `sprintf` of the segment's format: `%d` (`-`),
/// `%<w>d` (`_`), `%0<w>d` (`0`); fractions `%-<w>d` (left-aligned) and, unless `0`-padded
/// or a total, without trailing zeros.
fn append_value(out: &mut String, unit: Unit, pad: Pad, width: Option<usize>, use_total: bool, n: u128) -> Result<()> {
    let w = width.unwrap_or(unit.default_width());
    if pad != Pad::None && w > MAX_WIDTH {
        return Err(Error::new("width too big"));
    }
    let mut digits = n.to_string();
    if unit.is_fraction() {
        if !(use_total || pad == Pad::Zero) {
            let trimmed = digits.trim_end_matches('0');
            digits = if trimmed.is_empty() { "0".to_owned() } else { trimmed.to_owned() };
        }
        match pad {
            Pad::None => out.push_str(&digits),
            _ => out.push_str(&format!("{digits:<w$}")),
        }
        return Ok(());
    }
    match pad {
        Pad::None => out.push_str(&digits),
        Pad::Space => out.push_str(&format!("{digits:>w$}")),
        Pad::Zero => out.push_str(&format!("{digits:0>w$}")),
    }
    Ok(())
}

/// Nanoseconds of a matched group.
fn segment_nanos(unit: Unit, width: Option<usize>, use_total: bool, group: &str) -> Result<i128> {
    let n = parse_digits(group)?;
    if unit.is_fraction() {
        if use_total {
            return Err(Error::new(
                "Format specifiers %L and %N denotes fractions and must be used together with a specifier of higher magnitude",
            ));
        }
        let _ = width;
        let p = 9 - group.len() as i64;
        return if p <= 0 { Ok(n) } else { n.checked_mul(10i128.pow(p as u32)).ok_or_else(out_of_range) };
    }
    let per = match unit {
        Unit::Days => NSECS_PER_DAY,
        Unit::Hours => NSECS_PER_HOUR,
        Unit::Minutes => NSECS_PER_MIN,
        _ => NSECS_PER_SEC,
    };
    n.checked_mul(per).ok_or_else(out_of_range)
}

fn parse_digits(s: &str) -> Result<i128> {
    s.bytes().try_fold(0i128, |v, d| v.checked_mul(10)?.checked_add(i128::from(d - b'0'))).ok_or_else(out_of_range)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(ns: i128, f: &str) -> String {
        Format::parse(f).unwrap().format(&Timespan { nsecs: ns }).unwrap()
    }

    fn parse(s: &str, f: &str) -> Result<i128> {
        Format::parse(f)?.parse_timespan(s).map(|t| t.nsecs)
    }

    #[test]
    fn formats() {
        assert_eq!(fmt(NSECS_PER_SEC, DEFAULTS[0]), "0-00:00:01.0");
        assert_eq!(fmt(-3 * NSECS_PER_SEC / 2, DEFAULTS[0]), "-0-00:00:01.5");
        assert_eq!(fmt(5 * NSECS_PER_MSEC, "[%L] [%_L] [%-L] [%S.%L] [%S.%-L]"), "[5  ] [5  ] [5] [00.5  ] [00.5]");
        assert_eq!(fmt(5 * NSECS_PER_MSEC, "[%N] [%-N] [%3N] [%-3N]"), "[5000000  ] [5] [5  ] [5]");
        assert_eq!(fmt(NSECS_PER_DAY + 2 * NSECS_PER_HOUR, "%H:%M"), "26:00");
        assert_eq!(fmt(NSECS_PER_DAY + 2 * NSECS_PER_HOUR, "%D %_H %-M %5S %%"), "1  2 0 00000 %");
    }

    #[test]
    fn parses() {
        assert_eq!(parse("13:20", "%H:%M").unwrap(), 13 * NSECS_PER_HOUR + 20 * NSECS_PER_MIN);
        assert_eq!(
            parse("10:03.5", "%M:%S.%L").unwrap(),
            10 * NSECS_PER_MIN + 3 * NSECS_PER_SEC + 500 * NSECS_PER_MSEC
        );
        assert_eq!(
            parse("10:03.5", "%M:%S.%N").unwrap(),
            10 * NSECS_PER_MIN + 3 * NSECS_PER_SEC + 500 * NSECS_PER_MSEC
        );
        assert_eq!(parse("-1", "%S").unwrap(), -NSECS_PER_SEC);
        assert_eq!(parse("x", "%S").unwrap_err().message, "Unable to parse 'x' using format '%S'");
        assert!(parse("5", "%L").unwrap_err().message.starts_with("Format specifiers %L and %N"));
    }

    #[test]
    fn bad_formats() {
        assert_eq!(Format::parse("%X").unwrap_err().message, "Bad format specifier '%' in '%X', at position 1");
        assert_eq!(Format::parse("%").unwrap_err().message, "Bad format specifier '' in '%', at position 0");
        assert_eq!(Format::parse("%H%").unwrap_err().message, "Bad format specifier '' in '%H%', at position 2");
        assert_eq!(Format::parse("%-_H").unwrap_err().message, "Bad format specifier '%-' in '%-_H', at position 2");
    }
}
