//! Ruby's `DateTime._strptime(string, format)` (`ext/date/date_strptime.c`, date 3.2.2),
//! which Puppet's `Timestamp.parse` uses: it reads the fields a format names into a hash
//! and fails (`nil`) when the string does not follow the format. Text left over after the
//! format is reported (`:leftover`), not an error here.
//!
//! Directives (each may be preceded by `E` or `O`, ignored, where POSIX allows them):
//!
//! | directive | reads |
//! | --- | --- |
//! | `%A %a` | a day name, full or abbreviated, any case |
//! | `%B %b %h` | a month name, full or abbreviated, any case |
//! | `%C` | century digits (2 before another numeric directive) |
//! | `%c` | `%a %b %e %H:%M:%S %Y` |
//! | `%D %x` | `%m/%d/%y` |
//! | `%d %e` | day of month 1..31 (` 5` or `05`) |
//! | `%F` | `%Y-%m-%d` |
//! | `%G` / `%g` | ISO week-based year / its last 2 digits |
//! | `%H %k` | hour 0..24 |
//! | `%I %l` | hour 1..12 |
//! | `%j` | day of year 1..366 |
//! | `%L %N` | fraction of a second (optionally signed; 3 / 9 digits before another numeric directive) |
//! | `%M` | minute 0..59 |
//! | `%m` | month 1..12 |
//! | `%n %t` | white space |
//! | `%P %p` | `am`, `pm`, `a.m.`, `p.m.`, any case |
//! | `%Q` | milliseconds since the epoch |
//! | `%R` | `%H:%M` |
//! | `%r` | `%I:%M:%S %p` |
//! | `%S` | second 0..60 |
//! | `%s` | seconds since the epoch |
//! | `%T %X` | `%H:%M:%S` |
//! | `%U %W` | week number 0..53 |
//! | `%u` | day of week 1..7 |
//! | `%V` | ISO week 1..53 |
//! | `%v` | `%e-%b-%Y` |
//! | `%w` | day of week 0..6 |
//! | `%Y` | year, optionally signed, any number of digits (4 before another numeric directive) |
//! | `%y` | year 0..99 (69..99 are 19xx) |
//! | `%Z %z %:z %::z %:::z` | a zone: name or offset |
//! | `%%` | `%` |
//! | `%+` | `%a %b %e %H:%M:%S %Z %Y` |
//!
//! Any other `%x` must appear literally; white space in the format matches any white space
//! (or none).

use super::dec::Dec;
use super::zone;

/// The hash `DateTime._strptime` returns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// `:year`; `None` inside when the digits overflow.
    pub year: Option<Option<i128>>,
    pub mon: Option<i64>,
    pub mday: Option<i64>,
    pub hour: Option<i64>,
    pub min: Option<i64>,
    pub sec: Option<i64>,
    pub sec_fraction: Option<Dec>,
    pub zone: Option<String>,
    /// `:offset` of the zone (`None` inside for an unknown zone name).
    pub offset: Option<Option<Dec>>,
    pub leftover: Option<String>,
    pub wday: Option<i64>,
    pub yday: Option<i64>,
    pub cwyear: Option<Option<i128>>,
    pub cweek: Option<i64>,
    pub cwday: Option<i64>,
    pub wnum0: Option<i64>,
    pub wnum1: Option<i64>,
    pub seconds: Option<Option<i128>>,
    cent: Option<Option<i128>>,
    merid: Option<i64>,
}

const DAY_NAMES: [&str; 14] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sun",
    "Mon",
    "Tue",
    "Wed",
    "Thu",
    "Fri",
    "Sat",
];

const MONTH_NAMES: [&str; 24] = [
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
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
];

const MERID_NAMES: [&str; 4] = ["am", "pm", "a.m.", "p.m."];

/// `DateTime._strptime(string, format)`: `None` when the string does not match.
pub fn strptime(string: &str, format: &str) -> Option<Parsed> {
    let mut p = Parsed::default();
    let str = string.as_bytes();
    let si = internal(str, format.as_bytes(), &mut p)?;
    if str.len() > si {
        p.leftover = Some(String::from_utf8_lossy(&str[si..]).into_owned());
    }
    finish(&mut p);
    Some(p)
}

/// Applies `%C` (century) to the years and `%p` (meridian) to the hour.
fn finish(p: &mut Parsed) {
    if let Some(cent) = p.cent.take() {
        let add = |y: Option<i128>| -> Option<i128> { y?.checked_add(cent?.checked_mul(100)?) };
        p.cwyear = p.cwyear.map(add);
        p.year = p.year.map(add);
    }
    if let Some(merid) = p.merid.take() {
        if let Some(hour) = p.hour {
            p.hour = Some(hour.rem_euclid(12) + merid);
        }
    }
}

/// The byte at `i` of a C string: 0 past its end.
fn at(s: &[u8], i: usize) -> u8 {
    s.get(i).copied().unwrap_or(0)
}

/// Whether the format at `f` continues with a numeric directive (`num_pattern_p`): a digit,
/// or `%` (`E`/`O`) and one of `CDdeFGgHIjkLlMmNQRrSsTUuVvWwXxYy` or a digit.
fn num_pattern(fmt: &[u8], f: usize) -> bool {
    let c = at(fmt, f);
    if c.is_ascii_digit() {
        return true;
    }
    if c != b'%' {
        return false;
    }
    let mut f = f + 1;
    if matches!(at(fmt, f), b'E' | b'O') {
        f += 1;
    }
    let c = at(fmt, f);
    c != 0 && (b"CDdeFGgHIjkLlMmNQRrSsTUuVvWwXxYy".contains(&c) || c.is_ascii_digit())
}

/// Reads at most `width` digits at `s[si..]`: their value (`None` on overflow), count.
fn read_digits(s: &[u8], si: usize, width: usize) -> Option<(Option<i128>, usize)> {
    let n = s.get(si..).unwrap_or_default().iter().take_while(|b| b.is_ascii_digit()).count().min(width);
    if n == 0 {
        return None;
    }
    let digits = &s[si..si + n];
    let v = digits.iter().try_fold(0i128, |v, d| v.checked_mul(10)?.checked_add(i128::from(d - b'0')));
    Some((v, n))
}

/// A value read from at most 3 digits.
fn small(v: Option<i128>) -> i64 {
    v.and_then(|v| i64::try_from(v).ok()).unwrap_or(i64::MAX)
}

/// Case-insensitive comparison of `name` with the text at `s[si..]`.
fn starts_with_ci(s: &[u8], si: usize, name: &str) -> bool {
    s.get(si..si + name.len()).is_some_and(|t| t.eq_ignore_ascii_case(name.as_bytes()))
}

/// `date__strptime_internal`: the number of bytes of `str` the format consumed, or `None`
/// when the string does not follow the format.
fn internal(str: &[u8], fmt: &[u8], h: &mut Parsed) -> Option<usize> {
    let mut si = 0usize;
    let mut fi = 0usize;
    while fi < fmt.len() {
        match fmt[fi] {
            b'%' => match directive(str, fmt, &mut si, &mut fi, h) {
                Step::Matched => fi += 1,
                Step::Ordinal => {
                    if at(str, si) != fmt[fi] {
                        return None;
                    }
                    si += 1;
                    fi += 1;
                }
                Step::Fail => return None,
            },
            c if zone::is_space(c) => {
                while zone::is_space(at(str, si)) {
                    si += 1;
                }
                fi += 1;
            }
            c => {
                if at(str, si) != c {
                    return None;
                }
                si += 1;
                fi += 1;
            }
        }
    }
    Some(si)
}

enum Step {
    /// The directive at `fi` matched; the format goes on after it.
    Matched,
    /// Not a directive: the byte at `fi` (the `%`) must match literally.
    Ordinal,
    Fail,
}

/// Reads a number of at most `width` digits into `set`, checking `lo..=hi`.
fn number(str: &[u8], si: &mut usize, width: usize, lo: i64, hi: i64) -> Option<i64> {
    let (v, n) = read_digits(str, *si, width)?;
    let v = small(v);
    if v < lo || v > hi {
        return None;
    }
    *si += n;
    Some(v)
}

/// A number after an optional leading blank (`%d %e %H %k %I %l`): one digit after the
/// blank, else two.
fn blank_number(str: &[u8], si: &mut usize, lo: i64, hi: i64) -> Option<i64> {
    if at(str, *si) == b' ' {
        *si += 1;
        number(str, si, 1, lo, hi)
    } else {
        number(str, si, 2, lo, hi)
    }
}

/// A signed (`+`/`-` when `plus`, else only `-`) number of at most `width` digits:
/// its value and digit count.
fn signed(str: &[u8], si: &mut usize, width: usize, plus: bool) -> Option<(Option<i128>, usize, bool)> {
    let c = at(str, *si);
    let mut negative = false;
    if c == b'-' || (plus && c == b'+') {
        negative = c == b'-';
        *si += 1;
    }
    let (v, n) = read_digits(str, *si, width)?;
    *si += n;
    Some((if negative { v.map(|v| -v) } else { v }, n, negative))
}

/// Parses the format's sub-pattern against the rest of the string (`recur`).
fn recur(str: &[u8], si: &mut usize, sub: &str, h: &mut Parsed) -> Step {
    let rest = str.get(*si..).unwrap_or_default();
    match internal(rest, sub.as_bytes(), h) {
        Some(n) => {
            *si += n;
            Step::Matched
        }
        None => Step::Fail,
    }
}

/// One directive at `fmt[*fi] == '%'`.
fn directive(str: &[u8], fmt: &[u8], si: &mut usize, fi: &mut usize, h: &mut Parsed) -> Step {
    let width_for = |fi: usize, w: usize| if num_pattern(fmt, fi + 1) { w } else { usize::MAX };
    loop {
        *fi += 1;
        let c = at(fmt, *fi);
        let ok = |b: bool| if b { Step::Matched } else { Step::Fail };
        let step = match c {
            b'E' | b'O' => {
                let allowed: &[u8] = if c == b'E' { b"cCxXyY" } else { b"deHImMSuUVwWy" };
                let next = at(fmt, *fi + 1);
                if next != 0 && allowed.contains(&next) {
                    continue;
                }
                *fi -= 1;
                return Step::Ordinal;
            }
            b':' => {
                let rest = &fmt[*fi..];
                match [&b":z"[..], b"::z", b":::z"].iter().position(|p| rest.starts_with(p)) {
                    Some(i) => {
                        *fi += i;
                        continue;
                    }
                    None => Step::Fail,
                }
            }
            b'A' | b'a' => match DAY_NAMES.iter().position(|n| starts_with_ci(str, *si, n)) {
                Some(i) => {
                    *si += DAY_NAMES[i].len();
                    h.wday = Some((i % 7) as i64);
                    Step::Matched
                }
                None => Step::Fail,
            },
            b'B' | b'b' | b'h' => match MONTH_NAMES.iter().position(|n| starts_with_ci(str, *si, n)) {
                Some(i) => {
                    *si += MONTH_NAMES[i].len();
                    h.mon = Some((i % 12) as i64 + 1);
                    Step::Matched
                }
                None => Step::Fail,
            },
            b'C' => match read_digits(str, *si, width_for(*fi, 2)) {
                Some((v, n)) => {
                    *si += n;
                    h.cent = Some(v);
                    Step::Matched
                }
                None => Step::Fail,
            },
            b'c' => recur(str, si, "%a %b %e %H:%M:%S %Y", h),
            b'D' | b'x' => recur(str, si, "%m/%d/%y", h),
            b'd' | b'e' => ok(blank_number(str, si, 1, 31).map(|v| h.mday = Some(v)).is_some()),
            b'F' => recur(str, si, "%Y-%m-%d", h),
            b'G' => match read_digits(str, *si, width_for(*fi, 4)) {
                Some((v, n)) => {
                    *si += n;
                    h.cwyear = Some(v);
                    Step::Matched
                }
                None => Step::Fail,
            },
            b'g' => match number(str, si, 2, 0, 99) {
                Some(v) => {
                    h.cwyear = Some(Some(i128::from(v)));
                    h.cent.get_or_insert(Some(if v >= 69 { 19 } else { 20 }));
                    Step::Matched
                }
                None => Step::Fail,
            },
            b'H' | b'k' => ok(blank_number(str, si, 0, 24).map(|v| h.hour = Some(v)).is_some()),
            b'I' | b'l' => ok(blank_number(str, si, 1, 12).map(|v| h.hour = Some(v)).is_some()),
            b'j' => ok(number(str, si, 3, 1, 366).map(|v| h.yday = Some(v)).is_some()),
            b'L' | b'N' => {
                let c = at(str, *si);
                let negative = c == b'-';
                if c == b'-' || c == b'+' {
                    *si += 1;
                }
                let start = *si;
                match read_digits(str, *si, width_for(*fi, if fmt[*fi] == b'L' { 3 } else { 9 })) {
                    Some((_, n)) => {
                        *si += n;
                        let frac = Dec::fraction_of_digits(&str[start..start + n]);
                        h.sec_fraction = Some(if negative { Dec { num: -frac.num, scale: frac.scale } } else { frac });
                        Step::Matched
                    }
                    None => Step::Fail,
                }
            }
            b'M' => ok(number(str, si, 2, 0, 59).map(|v| h.min = Some(v)).is_some()),
            b'm' => ok(number(str, si, 2, 1, 12).map(|v| h.mon = Some(v)).is_some()),
            b'n' | b't' => recur(str, si, " ", h),
            b'P' | b'p' => match MERID_NAMES.iter().position(|n| starts_with_ci(str, *si, n)) {
                Some(i) => {
                    *si += MERID_NAMES[i].len();
                    h.merid = Some(if i % 2 == 0 { 0 } else { 12 });
                    Step::Matched
                }
                None => Step::Fail,
            },
            b'Q' | b's' => match signed(str, si, usize::MAX, false) {
                Some((v, _, _)) => {
                    // `%Q` is milliseconds: Rational(n, 1000); Puppet never uses either.
                    h.seconds = Some(if c == b'Q' { v.map(|v| v.div_euclid(1000)) } else { v });
                    Step::Matched
                }
                None => Step::Fail,
            },
            b'R' => recur(str, si, "%H:%M", h),
            b'r' => recur(str, si, "%I:%M:%S %p", h),
            b'S' => ok(number(str, si, 2, 0, 60).map(|v| h.sec = Some(v)).is_some()),
            b'T' | b'X' => recur(str, si, "%H:%M:%S", h),
            b'U' | b'W' => match number(str, si, 2, 0, 53) {
                Some(v) => {
                    if c == b'U' {
                        h.wnum0 = Some(v);
                    } else {
                        h.wnum1 = Some(v);
                    }
                    Step::Matched
                }
                None => Step::Fail,
            },
            b'u' => ok(number(str, si, 1, 1, 7).map(|v| h.cwday = Some(v)).is_some()),
            b'V' => ok(number(str, si, 2, 1, 53).map(|v| h.cweek = Some(v)).is_some()),
            b'v' => recur(str, si, "%e-%b-%Y", h),
            b'w' => ok(number(str, si, 1, 0, 6).map(|v| h.wday = Some(v)).is_some()),
            b'Y' => match signed(str, si, width_for(*fi, 4), true) {
                Some((v, _, _)) => {
                    h.year = Some(v);
                    Step::Matched
                }
                None => Step::Fail,
            },
            b'y' => match number(str, si, 2, 0, 99) {
                Some(v) => {
                    h.year = Some(Some(i128::from(v)));
                    h.cent.get_or_insert(Some(if v >= 69 { 19 } else { 20 }));
                    Step::Matched
                }
                None => Step::Fail,
            },
            b'Z' | b'z' => {
                let rest = str.get(*si..).unwrap_or_default();
                match zone::match_zone(rest) {
                    Some(len) => {
                        let z = &rest[..len];
                        h.zone = Some(String::from_utf8_lossy(z).into_owned());
                        h.offset = Some(zone::zone_to_diff(z));
                        *si += len;
                        Step::Matched
                    }
                    None => Step::Fail,
                }
            }
            b'%' => {
                if at(str, *si) != b'%' {
                    return Step::Fail;
                }
                *si += 1;
                Step::Matched
            }
            b'+' => recur(str, si, "%a %b %e %H:%M:%S %Z %Y", h),
            _ => {
                if at(str, *si) != b'%' {
                    return Step::Fail;
                }
                *si += 1;
                if *fi < fmt.len() && at(str, *si) != fmt[*fi] {
                    return Step::Fail;
                }
                *si += 1;
                Step::Matched
            }
        };
        return step;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str, f: &str) -> Option<Parsed> {
        strptime(s, f)
    }

    #[test]
    fn dates() {
        let r = p("2020-01-02", "%F").unwrap();
        assert_eq!((r.year, r.mon, r.mday), (Some(Some(2020)), Some(1), Some(2)));
        assert_eq!(p("-2020-1-1", "%F").unwrap().year, Some(Some(-2020)));
        assert_eq!(p("20200101", "%Y%m%d").unwrap().mday, Some(1));
        assert!(p("2020-13-01", "%F").is_none());
        assert_eq!(p("99", "%y").unwrap().year, Some(Some(1999)));
        assert_eq!(p("20 99", "%C %y").unwrap().year, Some(Some(2099)));
    }

    #[test]
    fn leftover_and_spaces() {
        assert_eq!(p("wedn", "%a").unwrap().leftover.as_deref(), Some("n"));
        assert_eq!(p("2020  01", "%Y %m").unwrap().mon, Some(1));
        assert!(p("202001", "%Y %m").is_none());
        assert!(p("  5", "%H").is_none());
        assert_eq!(p(" 5", "%H").unwrap().hour, Some(5));
        assert_eq!(p("1 2", "%n%t").unwrap().leftover.as_deref(), Some("1 2"));
    }

    #[test]
    fn meridian_and_fractions() {
        assert_eq!(p("12 am", "%I %P").unwrap().hour, Some(0));
        assert_eq!(p("1 p.m.", "%l %p").unwrap().hour, Some(13));
        assert_eq!(p("12345", "%L").unwrap().sec_fraction, Some(Dec { num: 12345, scale: 5 }));
        assert_eq!(p("1234", "%L%H").unwrap().sec_fraction, Some(Dec { num: 123, scale: 3 }));
        assert!(p("12", "%3N").is_none());
    }

    #[test]
    fn zones() {
        let r = p("2020-01-01 Europe/Stockholm", "%F %Z").unwrap();
        assert_eq!(r.zone.as_deref(), Some("Europe"));
        assert_eq!(r.offset, Some(None));
        assert_eq!(r.leftover.as_deref(), Some("/Stockholm"));
        assert_eq!(p("+01:30", "%:z").unwrap().offset, Some(Some(Dec::int(5400))));
    }

    #[test]
    fn odd_formats() {
        assert!(p("%K", "%K").is_some());
        assert!(p("%Ex", "%Ex").is_none());
        assert!(p("E", "%E").is_none());
        assert!(p("abc%", "abc%").is_some());
    }
}
