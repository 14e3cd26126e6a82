//! Ruby's `Time#strftime` (`strftime.c` of Ruby 3.1), which Puppet's `Timestamp#format`
//! and `strftime()` use for timestamps.
//!
//! A directive is `%[flags][width][:]conversion`:
//!
//! | flag | meaning |
//! | --- | --- |
//! | `-` | don't pad a numerical output |
//! | `_` | pad with spaces |
//! | `0` | pad with zeros |
//! | `^` | upcase the result |
//! | `#` | change case (names upcased, `%p` downcased, `%Z` downcased) |
//! | `:` | colons for `%z` (`%:z` `+09:00`, `%::z` `+09:00:00`, `%:::z` `+09`) |
//!
//! | conversion | output |
//! | --- | --- |
//! | `Y` | year, at least 4 digits (5 with the sign of a negative year) |
//! | `C` | year / 100, floored |
//! | `y` | year % 100 (00..99) |
//! | `m` | month (01..12) |
//! | `B` / `b` `h` | month name / abbreviated (`January` / `Jan`) |
//! | `d` / `e` | day of month, zero / blank padded |
//! | `j` | day of year (001..366) |
//! | `H` / `k` | hour 00..23, zero / blank padded |
//! | `I` / `l` | hour 01..12, zero / blank padded |
//! | `P` / `p` | `am`/`pm` / `AM`/`PM` |
//! | `M` | minute |
//! | `S` | second |
//! | `L` | milliseconds (3 digits; the width is the number of digits) |
//! | `N` | fractional seconds (9 digits; the width is the number of digits, truncated) |
//! | `z` | offset `+hhmm` |
//! | `Z` | zone name: `UTC` in UTC mode, empty for an offset |
//! | `A` / `a` | weekday name / abbreviated |
//! | `u` / `w` | day of week, Monday 1..7 / Sunday 0..6 |
//! | `G` / `g` / `V` | ISO 8601 week-based year / its 2 last digits / week number |
//! | `U` / `W` | week number, weeks starting Sunday / Monday (00..53) |
//! | `s` | seconds since the epoch |
//! | `n` `t` `%` | newline, tab, `%` |
//! | `c` | `%a %b %e %H:%M:%S %Y` |
//! | `D` `x` | `%m/%d/%y` |
//! | `F` | `%Y-%m-%d` |
//! | `v` | `%e-%^b-%4Y` |
//! | `X` `T` | `%H:%M:%S` |
//! | `r` | `%I:%M:%S %p` |
//! | `R` | `%H:%M` |
//!
//! `E` and `O` before the conversions POSIX allows them for are ignored. Anything else is
//! copied as it is; a format ending inside a directive is `invalid format: <format>`.

use super::civil::Tm;
use crate::error::{Error, Result};

const DAYS: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The largest field width honoured; Ruby would build the (gigabytes long) string.
const MAX_WIDTH: i64 = 1 << 16;

/// Ruby's Fixnum range: wider numbers are formatted as Bignums (padding before the sign).
const FIXNUM_MAX: i128 = (1 << 62) - 1;

/// The flags of one directive.
#[derive(Clone, Copy, Default)]
struct Flags {
    left: bool,
    chcase: bool,
    lower: bool,
    upper: bool,
    /// 0 when none was given.
    padding: u8,
    /// The width; -1 when none was given.
    precision: i64,
    colons: usize,
}

/// `time.strftime(format)`.
pub fn strftime(tm: &Tm, format: &str) -> Result<String> {
    let mut out = Vec::with_capacity(format.len() + 16);
    if !format_into(&mut out, tm, format.as_bytes())? {
        return Err(Error::new(format!("invalid format: {format}")));
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Appends `n` copies of `c`, within [`MAX_WIDTH`].
fn fill(out: &mut Vec<u8>, c: u8, n: i64) -> Result<()> {
    if n > MAX_WIDTH {
        return Err(Error::new("width too big"));
    }
    out.extend(std::iter::repeat_n(c, usize::try_from(n).unwrap_or(0)));
    Ok(())
}

/// Changes the case of `s` as the flags say (`case_conv`).
fn case_conv(s: &mut [u8], f: &Flags) {
    match (f.upper, f.lower) {
        (true, false) => s.make_ascii_uppercase(),
        (false, true) => s.make_ascii_lowercase(),
        _ => {}
    }
}

/// `FMT(def_pad, def_prec, "d", val)`: a number right-aligned in the width (the default
/// width unless one was given; 1 with `-`), zero-padded after its sign with `0` (or a `0`
/// default) padding, else blank-padded.
fn fmt_num(out: &mut Vec<u8>, f: &Flags, def_pad: u8, def_prec: i64, val: i128) -> Result<()> {
    if !(-FIXNUM_MAX - 1..=FIXNUM_MAX).contains(&val) {
        return fmt_big(out, f, def_pad, def_prec, val);
    }
    let width = if f.left {
        1
    } else if f.precision <= 0 {
        def_prec
    } else {
        f.precision
    };
    let digits = val.unsigned_abs().to_string();
    let len = digits.len() as i64 + i64::from(val < 0);
    let zero = f.padding == b'0' || (f.padding == 0 && def_pad == b'0');
    if !zero {
        fill(out, b' ', width - len)?;
    }
    if val < 0 {
        out.push(b'-');
    }
    if zero {
        fill(out, b'0', width - len)?;
    }
    out.extend_from_slice(digits.as_bytes());
    Ok(())
}

/// `FMTV` of a Bignum: the digits (with their sign) padded in front.
fn fmt_big(out: &mut Vec<u8>, f: &Flags, def_pad: u8, def_prec: i64, val: i128) -> Result<()> {
    let width = if f.left {
        1
    } else if f.precision <= 0 {
        def_prec
    } else {
        f.precision
    };
    let pad = if f.padding == 0 { def_pad } else { f.padding };
    let s = val.to_string();
    if !f.left {
        fill(out, pad, width - s.len() as i64)?;
    }
    out.extend_from_slice(s.as_bytes());
    Ok(())
}

/// Appends a text (name, `AM`, unknown directive) padded to the width and case-converted.
fn text(out: &mut Vec<u8>, f: &Flags, s: &[u8]) -> Result<()> {
    if s.is_empty() {
        return Ok(());
    }
    if !f.left && f.precision > s.len() as i64 {
        fill(out, if f.padding == 0 { b' ' } else { f.padding }, f.precision - s.len() as i64)?;
    }
    let start = out.len();
    out.extend_from_slice(s);
    case_conv(&mut out[start..], f);
    Ok(())
}

/// A combination (`%c`, `%D`, ...): the sub-format, case-converted, right-aligned in the
/// width.
fn combination(out: &mut Vec<u8>, f: &Flags, tm: &Tm, sub: &str) -> Result<()> {
    let mut s = Vec::new();
    format_into(&mut s, tm, sub.as_bytes())?;
    case_conv(&mut s, f);
    if f.precision > s.len() as i64 {
        fill(out, if f.padding == 0 { b' ' } else { f.padding }, f.precision - s.len() as i64)?;
    }
    out.extend_from_slice(&s);
    Ok(())
}

/// Formats into `out`; `false` when the format ends inside a directive.
fn format_into(out: &mut Vec<u8>, tm: &Tm, format: &[u8]) -> Result<bool> {
    let end = format.len();
    let mut i = 0usize;
    while i < end {
        let Some(pct) = format[i..].iter().position(|&b| b == b'%') else {
            out.extend_from_slice(&format[i..]);
            return Ok(true);
        };
        out.extend_from_slice(&format[i..i + pct]);
        i += pct;
        let sp = i;
        let mut f = Flags { precision: -1, ..Flags::default() };
        i = directive(out, tm, format, sp, &mut f)?;
        i += 1;
    }
    Ok(i == end)
}

/// Copies an unknown directive `format[sp..=at]` verbatim (past the end: one NUL more, as
/// C reads the terminator; the format is then invalid anyway).
fn unknown(out: &mut Vec<u8>, format: &[u8], sp: usize, at: usize) -> usize {
    let stop = at.min(format.len().saturating_sub(1));
    out.extend_from_slice(&format[sp..=stop]);
    at
}

/// One directive starting at `format[sp] == '%'`: returns the index of its last byte.
fn directive(out: &mut Vec<u8>, tm: &Tm, format: &[u8], sp: usize, f: &mut Flags) -> Result<usize> {
    let end = format.len();
    let mut i = sp;
    loop {
        i += 1;
        if i >= end {
            return Ok(unknown(out, format, sp, i));
        }
        let c = format[i];
        match c {
            b'-' | b'^' | b'#' | b'_' if f.precision > 0 => return Ok(unknown(out, format, sp, i)),
            b'-' => {
                f.left = true;
                f.padding = 0;
                f.precision = 0;
            }
            b'^' => f.upper = true,
            b'#' => f.chcase = true,
            b'_' => f.padding = b' ',
            b':' => {
                let mut colons = 1;
                loop {
                    if i + colons >= end {
                        return Ok(unknown(out, format, sp, i));
                    }
                    if format[i + colons] == b'z' {
                        break;
                    }
                    if format[i + colons] != b':' {
                        return Ok(unknown(out, format, sp, i));
                    }
                    colons += 1;
                    if colons > 3 {
                        break;
                    }
                }
                f.colons = colons;
                i += colons - 1;
            }
            b'0'..=b'9' => {
                if c == b'0' {
                    f.padding = b'0';
                }
                let n = format[i..].iter().take_while(|b| b.is_ascii_digit()).count();
                let v = format[i..i + n]
                    .iter()
                    .try_fold(0i64, |v, d| v.checked_mul(10)?.checked_add(i64::from(d - b'0')))
                    .filter(|&v| v <= i64::from(i32::MAX));
                match v {
                    Some(v) => f.precision = v,
                    None => return Ok(unknown(out, format, sp, i)),
                }
                i += n - 1;
            }
            b'E' | b'O' => {
                let allowed: &[u8] = if c == b'E' { b"cCxXyY" } else { b"deHkIlmMSuUVwWy" };
                let next = format.get(i + 1).copied().unwrap_or(0);
                if next == 0 || !allowed.contains(&next) {
                    return Ok(unknown(out, format, sp, i));
                }
            }
            b'z' => {
                if f.colons > 3 {
                    return Ok(unknown(out, format, sp, i - 1));
                }
                zone_offset(out, tm, f)?;
                return Ok(i);
            }
            _ => {
                if !conversion(out, tm, f, c)? {
                    return Ok(unknown(out, format, sp, i));
                }
                return Ok(i);
            }
        }
    }
}

/// The conversions other than `z`; `false` for an unknown one.
fn conversion(out: &mut Vec<u8>, tm: &Tm, f: &mut Flags, c: u8) -> Result<bool> {
    let upcase_names = |f: &mut Flags| {
        if f.chcase {
            f.lower = false;
            f.chcase = false;
            f.upper = true;
        }
    };
    let hour12 = if tm.hour == 0 {
        12
    } else if tm.hour > 12 {
        tm.hour - 12
    } else {
        tm.hour
    };
    match c {
        b'%' | b'n' | b't' => {
            if !f.left && f.precision > 1 {
                fill(out, if f.padding == 0 { b' ' } else { f.padding }, f.precision - 1)?;
            }
            out.push(match c {
                b'n' => b'\n',
                b't' => b'\t',
                _ => b'%',
            });
        }
        b'a' | b'A' => {
            upcase_names(f);
            let name = DAYS.get(tm.wday as usize).copied().unwrap_or("?");
            text(out, f, if c == b'a' { &name.as_bytes()[..3.min(name.len())] } else { name.as_bytes() })?;
        }
        b'b' | b'h' | b'B' => {
            upcase_names(f);
            let name = MONTHS.get((tm.mon as usize).wrapping_sub(1)).copied().unwrap_or("?");
            text(out, f, if c == b'B' { name.as_bytes() } else { &name.as_bytes()[..3.min(name.len())] })?;
        }
        b'p' | b'P' => {
            if (c == b'p' && f.chcase) || (c == b'P' && !(f.chcase || f.upper)) {
                f.upper = false;
                f.chcase = false;
                f.lower = true;
            }
            text(out, f, if tm.hour < 12 { b"AM" } else { b"PM" })?;
        }
        b'Z' => {
            if f.chcase {
                f.upper = false;
                f.chcase = false;
                f.lower = true;
            }
            if tm.gmt {
                text(out, f, b"UTC")?;
            }
        }
        b'c' => combination(out, f, tm, "%a %b %e %H:%M:%S %Y")?,
        b'x' | b'D' => combination(out, f, tm, "%m/%d/%y")?,
        b'X' | b'T' => combination(out, f, tm, "%H:%M:%S")?,
        b'r' => combination(out, f, tm, "%I:%M:%S %p")?,
        b'R' => combination(out, f, tm, "%H:%M")?,
        b'F' => combination(out, f, tm, "%Y-%m-%d")?,
        b'v' => combination(out, f, tm, "%e-%^b-%4Y")?,
        b'd' => fmt_num(out, f, b'0', 2, tm.mday.into())?,
        b'e' => fmt_num(out, f, b' ', 2, tm.mday.into())?,
        b'H' => fmt_num(out, f, b'0', 2, tm.hour.into())?,
        b'k' => fmt_num(out, f, b' ', 2, tm.hour.into())?,
        b'I' => fmt_num(out, f, b'0', 2, hour12.into())?,
        b'l' => fmt_num(out, f, b' ', 2, hour12.into())?,
        b'j' => fmt_num(out, f, b'0', 3, tm.yday.into())?,
        b'm' => fmt_num(out, f, b'0', 2, tm.mon.into())?,
        b'M' => fmt_num(out, f, b'0', 2, tm.min.into())?,
        b'S' => fmt_num(out, f, b'0', 2, tm.sec.into())?,
        b's' => fmt_num(out, f, b'0', 1, tm.epoch_secs)?,
        b'U' => fmt_num(out, f, b'0', 2, week_number(tm, 0).into())?,
        b'W' => fmt_num(out, f, b'0', 2, week_number(tm, 1).into())?,
        b'w' => fmt_num(out, f, b'0', 1, tm.wday.into())?,
        b'u' => fmt_num(out, f, b'0', 1, if tm.wday == 0 { 7 } else { tm.wday.into() })?,
        b'V' => fmt_num(out, f, b'0', 2, iso_week(tm).into())?,
        b'y' => fmt_num(out, f, b'0', 2, tm.year.rem_euclid(100))?,
        b'C' => fmt_num(out, f, b'0', 2, tm.year.div_euclid(100))?,
        b'Y' => fmt_num(out, f, b'0', if tm.year >= 0 { 4 } else { 5 }, tm.year)?,
        b'G' | b'g' => {
            let w = iso_week(tm);
            let y = if tm.mon == 12 && w == 1 {
                tm.year + 1
            } else if tm.mon == 1 && w >= 52 {
                tm.year - 1
            } else {
                tm.year
            };
            if c == b'G' {
                fmt_num(out, f, b'0', if y >= 0 { 4 } else { 5 }, y)?;
            } else {
                fmt_num(out, f, b'0', 2, y.rem_euclid(100))?;
            }
        }
        b'L' | b'N' => subsec(out, tm, f, if c == b'L' { 3 } else { 9 })?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// `%L` / `%N`: the first `width` digits of the fraction of the second (zeros past 9).
fn subsec(out: &mut Vec<u8>, tm: &Tm, f: &Flags, default: i64) -> Result<()> {
    let width = if f.precision <= 0 { default } else { f.precision };
    if width > MAX_WIDTH {
        return Err(Error::new("width too big"));
    }
    let digits = format!("{:09}", tm.nsec);
    if width <= 9 {
        out.extend_from_slice(&digits.as_bytes()[..width as usize]);
    } else {
        out.extend_from_slice(digits.as_bytes());
        fill(out, b'0', width - 9)?;
    }
    Ok(())
}

/// `%z` with its colons: `+hhmm`, `+hh:mm`, `+hh:mm:ss`, `+hh[:mm[:ss]]`. The width counts
/// the whole; `_` pads with blanks before the sign (hours then unpadded). In UTC mode `-`
/// makes the sign `-` (`-0000`).
fn zone_offset(out: &mut Vec<u8>, tm: &Tm, f: &Flags) -> Result<()> {
    let (mut off, mut negative) = if tm.gmt { (0, f.left) } else { (tm.utc_offset, tm.utc_offset < 0) };
    if off < 0 {
        off = -off;
        negative = true;
    }
    let p = f.precision;
    let precision = match f.colons {
        0 => {
            if p <= 5 {
                2
            } else {
                p - 3
            }
        }
        1 => {
            if p <= 6 {
                2
            } else {
                p - 4
            }
        }
        2 => {
            if p <= 9 {
                2
            } else {
                p - 7
            }
        }
        _ if off % 3600 == 0 => {
            if p <= 3 {
                2
            } else {
                p - 1
            }
        }
        _ if off % 60 == 0 => {
            if p <= 6 {
                2
            } else {
                p - 4
            }
        }
        _ => {
            if p <= 9 {
                2
            } else {
                p - 7
            }
        }
    };
    if precision > MAX_WIDTH {
        return Err(Error::new("width too big"));
    }
    let hours = (off / 3600).to_string();
    let sign = if negative { b'-' } else { b'+' };
    if f.padding == b' ' {
        // "%+*ld" of precision + 1: blanks, sign, hours
        fill(out, b' ', precision + 1 - 1 - hours.len() as i64)?;
        out.push(sign);
    } else {
        // "%+.*ld": sign, hours zero-padded to precision digits
        out.push(sign);
        fill(out, b'0', precision - hours.len() as i64)?;
    }
    out.extend_from_slice(hours.as_bytes());
    let rest = off % 3600;
    if f.colons == 3 && rest == 0 {
        return Ok(());
    }
    if f.colons >= 1 {
        out.push(b':');
    }
    out.extend_from_slice(format!("{:02}", rest / 60).as_bytes());
    if f.colons == 3 && rest % 60 == 0 {
        return Ok(());
    }
    if f.colons >= 2 {
        out.extend_from_slice(format!(":{:02}", rest % 60).as_bytes());
    }
    Ok(())
}

/// Week of the year, the first week starting on Sunday (`firstweekday` 0) or Monday (1);
/// days before it are week 0.
fn week_number(tm: &Tm, firstweekday: u32) -> u32 {
    let mut wday = tm.wday as i64;
    if firstweekday == 1 {
        wday = if wday == 0 { 6 } else { wday - 1 };
    }
    let yday0 = i64::from(tm.yday) - 1;
    u32::try_from((yday0 + 7 - wday) / 7).unwrap_or(0)
}

/// The ISO 8601 week number (`iso8601wknum`): week 1 holds the year's first Thursday.
fn iso_week(tm: &Tm) -> u32 {
    iso_week_of(tm.year.rem_euclid(400), tm.mon, tm.mday, tm.wday, tm.yday)
}

fn iso_week_of(year400: i128, mon: u32, mday: u32, wday: u32, yday: u32) -> u32 {
    let yday0 = yday as i64 - 1;
    let mut weeknum = {
        let wd = if wday == 0 { 6 } else { wday as i64 - 1 };
        ((yday0 + 7 - wd) / 7).max(0)
    };
    let jan1day = (wday as i64 - yday0 % 7).rem_euclid(7);
    match jan1day {
        1 => {}
        2..=4 => weeknum += 1,
        _ => {
            if weeknum == 0 {
                let last_year = (year400 - 1).rem_euclid(400);
                let leap = super::civil::is_leap(last_year);
                let dec31_wday = if jan1day == 0 { 6 } else { jan1day as u32 - 1 };
                return iso_week_of(last_year, 12, 31, dec31_wday, 365 + u32::from(leap));
            }
        }
    }
    if mon == 12 {
        let (w, d) = (wday, mday);
        if (w == 1 && (29..=31).contains(&d)) || (w == 2 && (d == 30 || d == 31)) || (w == 3 && d == 31) {
            weeknum = 1;
        }
    }
    u32::try_from(weeknum).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2020-02-29T13:05:09.123456789 UTC
    fn tm() -> Tm {
        Tm::new(1_582_981_509_123_456_789, 0, true)
    }

    fn at(offset: i64) -> Tm {
        Tm::new(1_582_981_509_123_456_789, offset, false)
    }

    fn s(t: &Tm, f: &str) -> String {
        strftime(t, f).unwrap()
    }

    #[test]
    fn fields() {
        let t = tm();
        assert_eq!(s(&t, "%Y-%m-%d %H:%M:%S.%L %N"), "2020-02-29 13:05:09.123 123456789");
        assert_eq!(s(&t, "%-d %_H %^a %#p %-I %l %k %e"), "29 13 SAT pm 1  1 13 29");
        assert_eq!(s(&t, "%j %U %W %V %G %g %u %w %C %y"), "060 08 08 09 2020 20 6 6 20 20");
        assert_eq!(
            s(&t, "%c|%D|%F|%v|%x|%X|%r|%R|%T"),
            "Sat Feb 29 13:05:09 2020|02/29/20|2020-02-29|29-FEB-2020|02/29/20|13:05:09|01:05:09 PM|13:05|13:05:09"
        );
        assert_eq!(s(&t, "%s %3N %12N %-N %Z %z %%"), "1582981509 123 123456789000 123456789 UTC +0000 %");
    }

    #[test]
    fn widths_and_flags() {
        let t = tm();
        assert_eq!(
            s(&t, "%5-d|%-5d|%_5d|%05e|%^B|%#B|%10p|%-10p|%010A"),
            "%5-d|29|   29|00029|FEBRUARY|FEBRUARY|        PM|PM|00Saturday"
        );
        assert_eq!(s(&t, "%10D|%^c"), "  02/29/20|SAT FEB 29 13:05:09 2020");
        assert_eq!(s(&t, "%E|%Ey|%Od|%O|%:|%:x|%Q|%+"), "%E|20|29|%O|%:|%:x|%Q|%+");
        assert_eq!(s(&t, "%1000000000000d"), "%1000000000000d");
        assert!(strftime(&t, "abc%").is_err());
        assert!(strftime(&t, "%-").is_err());
    }

    #[test]
    fn offsets() {
        let nine = at(9 * 3600);
        assert_eq!(s(&nine, "%z %:z %::z %:::z [%Z]"), "+0900 +09:00 +09:00:00 +09 []");
        assert_eq!(
            s(&nine, "%_z|%6z|%_6z|%10z|%_10z|%10:z|%_10:z|%12::z|%_12::z"),
            " +900|+00900|  +900|+000000900|      +900|+000009:00|     +9:00|+00009:00:00|    +9:00:00"
        );
        assert_eq!(s(&at(-1800), "%z|%_z|%:::z"), "-0030| -030|-00:30");
        assert_eq!(s(&at(-(3 * 3600 + 1815)), "%::z|%:::z"), "-03:30:15|-03:30:15");
        assert_eq!(s(&at(0), "%-z %Z"), "+0000 ");
        assert_eq!(s(&tm(), "%-z %-6z %#Z"), "-0000 -00000 utc");
        assert_eq!(s(&nine, "%::::z"), "%::::z");
    }

    #[test]
    fn iso_weeks_at_year_ends() {
        // 2021-01-01 is a Friday: week 53 of 2020
        let t = Tm::new(1_609_459_200 * 1_000_000_000, 0, true);
        assert_eq!(s(&t, "%G-W%V-%u %g"), "2020-W53-5 20");
        // 2024-12-30 is a Monday: week 1 of 2025
        let t = Tm::new(1_735_516_800 * 1_000_000_000, 0, true);
        assert_eq!(s(&t, "%G-W%V-%u"), "2025-W01-1");
    }

    #[test]
    fn negative_years() {
        let t = Tm::new(-62_167_219_200 * 1_000_000_000 - 5 * 365 * 86_400 * 1_000_000_000, 0, true);
        assert_eq!(s(&t, "%Y %C %y"), "-0005 -1 95");
    }
}
