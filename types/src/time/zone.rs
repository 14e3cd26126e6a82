//! Time zones as Puppet knows them: not the tz database, but Ruby's date library's table of
//! zone abbreviations and Windows zone names (`ext/date/zonetab.list`) and its numeric
//! offsets (`date_zone_to_diff`), reached through `DateTime._strptime(tz, '%z')`
//! (`Timestamp.utc_offset`). `'Europe/Stockholm'` is therefore an illegal timezone in Puppet,
//! while `'EST'`, `'Eastern Standard Time'`, `'CEST'`, `'+01:00'`, `'GMT+1'`, `'+0130'` and
//! `'current'` (the machine's offset now) are legal.
//!
//! Formatting in a zone converts the offset to `'+HH:MM'` (`Timestamp.convert_timezone`) and
//! hands it to Ruby's `Time#localtime`, whose own checks give the `utc_offset` errors.

use std::sync::OnceLock;

use super::dec::Dec;
use crate::error::{Error, Result};

/// Ruby's `zonetab.list` (date 3.2.2): lower-case zone names and their offsets in seconds.
/// Looked up case-insensitively, after `date_zone_to_diff` removed a trailing
/// `standard time`, `daylight time` (+1 hour) or `dst` (+1 hour) and collapsed blanks.
#[rustfmt::skip]
const ZONES: &[(&str, i32)] = &[
    ("ut", 0), ("gmt", 0), ("est", -5 * 3600), ("edt", -4 * 3600), ("cst", -6 * 3600), ("cdt", -5 * 3600),
    ("mst", -7 * 3600), ("mdt", -6 * 3600), ("pst", -8 * 3600), ("pdt", -7 * 3600), ("a", 3600),
    ("b", 2 * 3600), ("c", 3 * 3600), ("d", 4 * 3600), ("e", 5 * 3600), ("f", 6 * 3600), ("g", 7 * 3600),
    ("h", 8 * 3600), ("i", 9 * 3600), ("k", 10 * 3600), ("l", 11 * 3600), ("m", 12 * 3600), ("n", -3600),
    ("o", -2 * 3600), ("p", -3 * 3600), ("q", -4 * 3600), ("r", -5 * 3600), ("s", -6 * 3600),
    ("t", -7 * 3600), ("u", -8 * 3600), ("v", -9 * 3600), ("w", -10 * 3600), ("x", -11 * 3600),
    ("y", -12 * 3600), ("z", 0), ("utc", 0), ("wet", 0), ("at", -2 * 3600), ("brst", -2 * 3600),
    ("ndt", -(3600 + 1800)), ("art", -3 * 3600), ("adt", -3 * 3600), ("brt", -3 * 3600), ("clst", -3 * 3600),
    ("nst", -(2 * 3600 + 1800)), ("ast", -4 * 3600), ("clt", -4 * 3600), ("akdt", -8 * 3600),
    ("ydt", -8 * 3600), ("akst", -9 * 3600), ("hadt", -9 * 3600), ("hdt", -9 * 3600), ("yst", -9 * 3600),
    ("ahst", -10 * 3600), ("cat", 2 * 3600), ("hast", -10 * 3600), ("hst", -10 * 3600), ("nt", -11 * 3600),
    ("idlw", -12 * 3600), ("bst", 3600), ("cet", 3600), ("fwt", 3600), ("met", 3600), ("mewt", 3600),
    ("mez", 3600), ("swt", 3600), ("wat", 3600), ("west", 3600), ("cest", 2 * 3600), ("eet", 2 * 3600),
    ("fst", 2 * 3600), ("mest", 2 * 3600), ("mesz", 2 * 3600), ("sast", 2 * 3600), ("sst", -11 * 3600),
    ("bt", 3 * 3600), ("eat", 3 * 3600), ("eest", 3 * 3600), ("msk", 3 * 3600), ("msd", 4 * 3600),
    ("zp4", 4 * 3600), ("zp5", 5 * 3600), ("ist", 5 * 3600 + 1800), ("zp6", 6 * 3600), ("wast", 2 * 3600),
    ("cct", 6 * 3600 + 1800), ("sgt", 8 * 3600), ("wadt", 8 * 3600), ("jst", 9 * 3600), ("kst", 9 * 3600),
    ("east", -6 * 3600), ("gst", 10 * 3600), ("eadt", 11 * 3600), ("idle", 12 * 3600), ("nzst", 12 * 3600),
    ("nzt", 12 * 3600), ("nzdt", 13 * 3600), ("afghanistan", 16200), ("alaskan", -32400), ("arab", 10800),
    ("arabian", 14400), ("arabic", 10800), ("atlantic", -14400), ("aus central", 34200),
    ("aus eastern", 36000), ("azores", -3600), ("canada central", -21600), ("cape verde", -3600),
    ("caucasus", 14400), ("cen. australia", 34200), ("central america", -21600), ("central asia", 21600),
    ("central europe", 3600), ("central european", 3600), ("central pacific", 39600), ("central", -21600),
    ("china", 28800), ("dateline", -43200), ("e. africa", 10800), ("e. australia", 36000),
    ("e. europe", 7200), ("e. south america", -10800), ("eastern", -18000), ("egypt", 7200),
    ("ekaterinburg", 18000), ("fiji", 43200), ("fle", 7200), ("greenland", -10800), ("greenwich", 0),
    ("gtb", 7200), ("hawaiian", -36000), ("india", 19800), ("iran", 12600), ("jerusalem", 7200),
    ("korea", 32400), ("mexico", -21600), ("mid-atlantic", -7200), ("mountain", -25200), ("myanmar", 23400),
    ("n. central asia", 21600), ("nepal", 20700), ("new zealand", 43200), ("newfoundland", -12600),
    ("north asia east", 28800), ("north asia", 25200), ("pacific sa", -14400), ("pacific", -28800),
    ("romance", 3600), ("russian", 10800), ("sa eastern", -10800), ("sa pacific", -18000),
    ("sa western", -14400), ("samoa", -39600), ("se asia", 25200), ("malay peninsula", 28800),
    ("south africa", 7200), ("sri lanka", 21600), ("taipei", 28800), ("tasmania", 36000), ("tokyo", 32400),
    ("tonga", 46800), ("us eastern", -18000), ("us mountain", -25200), ("vladivostok", 36000),
    ("w. australia", 28800), ("w. central africa", 3600), ("w. europe", 3600), ("west asia", 18000),
    ("west pacific", 36000), ("yakutsk", 32400), ("acdt", 37800), ("acst", 34200), ("act", -18000),
    ("acwst", 31500), ("aedt", 39600), ("aest", 36000), ("aft", 16200), ("almt", 21600), ("anast", 43200),
    ("anat", 43200), ("aoe", -43200), ("aqtt", 18000), ("awdt", 32400), ("awst", 28800), ("azost", 0),
    ("azot", -3600), ("azst", 18000), ("azt", 14400), ("bnt", 28800), ("bot", -14400), ("btt", 21600),
    ("cast", 28800), ("chadt", 49500), ("chast", 45900), ("chost", 32400), ("chot", 28800), ("chst", 36000),
    ("chut", 36000), ("cidst", -14400), ("cist", -18000), ("ckt", -36000), ("cot", -18000), ("cvt", -3600),
    ("cxt", 25200), ("davt", 25200), ("ddut", 36000), ("easst", -18000), ("ect", -18000), ("egst", 0),
    ("egt", -3600), ("fet", 10800), ("fjst", 46800), ("fjt", 43200), ("fkst", -10800), ("fkt", -14400),
    ("fnt", -7200), ("galt", -21600), ("gamt", -32400), ("get", 14400), ("gft", -10800), ("gilt", 43200),
    ("gyt", -14400), ("hkt", 28800), ("hovst", 28800), ("hovt", 25200), ("ict", 25200), ("idt", 10800),
    ("iot", 21600), ("irdt", 16200), ("irkst", 32400), ("irkt", 28800), ("irst", 12600), ("kgt", 21600),
    ("kost", 39600), ("krast", 28800), ("krat", 25200), ("kuyt", 14400), ("lhdt", 39600), ("lhst", 37800),
    ("lint", 50400), ("magst", 43200), ("magt", 39600), ("mart", -30600), ("mawt", 18000), ("mht", 43200),
    ("mmt", 23400), ("mut", 14400), ("mvt", 18000), ("myt", 28800), ("nct", 39600), ("nfdt", 43200),
    ("nft", 39600), ("novst", 25200), ("novt", 25200), ("npt", 20700), ("nrt", 43200), ("nut", -39600),
    ("omsst", 25200), ("omst", 21600), ("orat", 18000), ("pet", -18000), ("petst", 43200), ("pett", 43200),
    ("pgt", 36000), ("phot", 46800), ("pht", 28800), ("pkt", 18000), ("pmdt", -7200), ("pmst", -10800),
    ("pont", 39600), ("pwt", 32400), ("pyst", -10800), ("qyzt", 21600), ("ret", 14400), ("rott", -10800),
    ("sakt", 39600), ("samt", 14400), ("sbt", 39600), ("sct", 14400), ("sret", 39600), ("srt", -10800),
    ("syot", 10800), ("taht", -36000), ("tft", 18000), ("tjt", 18000), ("tkt", 46800), ("tlt", 32400),
    ("tmt", 18000), ("tost", 50400), ("tot", 46800), ("trt", 10800), ("tvt", 43200), ("ulast", 32400),
    ("ulat", 28800), ("uyst", -7200), ("uyt", -10800), ("uzt", 18000), ("vet", -14400), ("vlast", 39600),
    ("vlat", 36000), ("vost", 21600), ("vut", 39600), ("wakt", 43200), ("warst", -10800), ("wft", 43200),
    ("wgst", -7200), ("wgt", -10800), ("wib", 25200), ("wit", 32400), ("wita", 28800), ("wt", 0),
    ("yakst", 36000), ("yakt", 32400), ("yapt", 36000), ("yekst", 21600), ("yekt", 18000),
];

/// The longest name of [`ZONES`] (`MAX_WORD_LENGTH` of the generated `zonetab.h`).
const MAX_WORD_LENGTH: usize = 17;

/// C's `isspace` in the C locale.
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// What `%z`/`%Z` of `DateTime._strptime` accept (case-insensitively):
///
/// ```text
/// \A((?:gmt|utc?)?[-+]\d+(?:[,.:]\d+(?::\d+)?)?
///   |(?-i:[[:alpha:].\s]+)(?:standard|daylight)\s+time\b
///   |(?-i:[[:alpha:]]+)(?:\s+dst)?\b)
/// ```
fn zone_pattern() -> &'static regex::bytes::Regex {
    static PATTERN: OnceLock<regex::bytes::Regex> = OnceLock::new();
    PATTERN.get_or_init(|| {
        regex::bytes::Regex::new(
            r"(?i-u)\A(?:(?:gmt|utc?)?[-+][0-9]+(?:[,.:][0-9]+(?::[0-9]+)?)?|[a-z.\t\n\x0B\x0C\r ]+(?:standard|daylight)[\t\n\x0B\x0C\r ]+time\b|[a-z]+(?:[\t\n\x0B\x0C\r ]+dst)?\b)",
        )
        .unwrap_or_else(|_| unreachable!("the zone pattern is valid"))
    })
}

/// The length of the zone designation at the start of `s` (what `%z` consumes), or `None`.
/// Ruby matches the rest of the input (up to a NUL) as US-ASCII bytes: a non-ASCII byte is
/// neither a letter nor a word character (`'Zürich'` is the zone `Z` and text left over).
pub fn match_zone(s: &[u8]) -> Option<usize> {
    let rest = s.split(|&b| b == 0).next().unwrap_or_default();
    zone_pattern().find(rest).map(|m| m.end())
}

/// Length of `w` plus the blanks before it when `s` ends with a blank and the word `w`
/// (case-insensitive); C's `str_end_with_word`.
fn end_with_word(s: &[u8], w: &str) -> usize {
    let (l, mut n) = (s.len(), w.len());
    if l <= n || !is_space(s[l - n - 1]) || !s[l - n..].eq_ignore_ascii_case(w.as_bytes()) {
        return 0;
    }
    loop {
        n += 1;
        if !(l > n && is_space(s[l - n - 1])) {
            return n;
        }
    }
}

/// `s` with each run of blanks made one space (a leading run too, trailing ones dropped).
fn shrink_space(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut sp = false;
    for &b in s {
        if is_space(b) {
            sp = true;
        } else {
            if sp {
                out.push(b' ');
            }
            sp = false;
            out.push(b);
        }
    }
    out
}

/// The offset in seconds of a zone designation as `%z` matched it (`date_zone_to_diff`), or
/// `None` for an unknown name (`'Foo'`, `'j'`).
pub fn zone_to_diff(zone: &[u8]) -> Option<Dec> {
    let mut l = zone.len();
    let mut dst = false;
    let w = end_with_word(zone, "time");
    if w > 0 {
        l -= w;
        let w2 = end_with_word(&zone[..l], "standard");
        if w2 > 0 {
            l -= w2;
        } else {
            let w3 = end_with_word(&zone[..l], "daylight");
            if w3 > 0 {
                l -= w3;
                dst = true;
            } else {
                l += w;
            }
        }
    } else {
        let w = end_with_word(zone, "dst");
        if w > 0 {
            l -= w;
            dst = true;
        }
    }
    let shrunk = shrink_space(&zone[..l]);
    let s: &[u8] =
        if !shrunk.is_empty() && shrunk.len() < l && shrunk.len() <= MAX_WORD_LENGTH { &shrunk } else { &zone[..l] };
    if !s.is_empty() && s.len() <= MAX_WORD_LENGTH {
        if let Some((_, off)) = ZONES.iter().find(|(name, _)| name.as_bytes().eq_ignore_ascii_case(s)) {
            return Some(Dec::int(i128::from(*off + if dst { 3600 } else { 0 })));
        }
    }
    numeric_zone_to_diff(s)
}

/// C's `strtoul` on the digits at the start of `s`: the value (`ULONG_MAX` on overflow) and
/// the number of digits.
fn strtoul(s: &[u8]) -> (u64, usize) {
    let n = s.iter().take_while(|b| b.is_ascii_digit()).count();
    let v = s[..n].iter().try_fold(0u64, |v, d| v.checked_mul(10)?.checked_add(u64::from(d - b'0')));
    (v.unwrap_or(u64::MAX), n)
}

/// Ruby's `ruby_scan_digits` of at most `len` digits of `s` from `at`.
fn scan_digits(s: &[u8], at: usize, len: usize) -> i64 {
    s.iter().skip(at).take(len).take_while(|b| b.is_ascii_digit()).fold(0, |v, d| v * 10 + i64::from(d - b'0'))
}

/// The numeric forms: `[gmt|utc]±H`, `±HH:MM[:SS]`, `±H.fraction` (hours), `±HHMM[SS]`.
fn numeric_zone_to_diff(s: &[u8]) -> Option<Dec> {
    let mut s = s;
    if s.len() > 3 && (s[..3].eq_ignore_ascii_case(b"gmt") || s[..3].eq_ignore_ascii_case(b"utc")) {
        s = &s[3..];
    }
    let (&sign, s) = s.split_first()?;
    if sign != b'+' && sign != b'-' {
        return None;
    }
    let negative = sign == b'-';
    let l = s.len();
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let (h, p) = strtoul(s);
    // `long hour = strtoul(...)`: wraps as C does
    let mut hour = h as i64;
    let (mut min, mut sec) = (0i64, 0i64);
    if at(p) == b':' {
        let (m, p2) = strtoul(&s[p + 1..]);
        min = m as i64;
        if at(p + 1 + p2) == b':' {
            sec = strtoul(&s[p + 2 + p2..]).0 as i64;
        }
    } else if at(p) == b',' || at(p) == b'.' {
        let (f, digits) = strtoul(&s[p + 1..]);
        let mut frac = (f.wrapping_mul(3600)) as i64;
        if negative {
            hour = hour.wrapping_neg();
            frac = frac.wrapping_neg();
        }
        let fraction = Dec { num: i128::from(frac), scale: u32::try_from(digits).ok()? };
        return Dec::int(i128::from(hour.wrapping_mul(3600))).checked_add(fraction);
    } else if l > 2 {
        let odd = l % 2;
        hour = scan_digits(s, 0, 2 - odd);
        if l >= 3 {
            min = scan_digits(s, 2 - odd, 2);
        }
        if l >= 5 {
            sec = scan_digits(s, 4 - odd, 2);
        }
    }
    let mut total = sec.wrapping_add(min.wrapping_mul(60)).wrapping_add(hour.wrapping_mul(3600));
    if negative {
        total = total.wrapping_neg();
    }
    Some(Dec::int(i128::from(total)))
}

/// Ruby's `Time.now.utc_offset`: the machine's offset from UTC now, in seconds.
pub fn current_offset() -> i64 {
    let tz = jiff::tz::TimeZone::system();
    i64::from(tz.to_offset(jiff::Timestamp::now()).seconds())
}

/// Puppet's `Timestamp.utc_offset(timezone)`: the offset in seconds of a timezone argument
/// (`'current'`, in any case, is the machine's offset now), or
/// `Illegal timezone '<timezone>'`. Text after the zone designation is ignored, as
/// `DateTime._strptime(timezone, '%z')[:offset]` ignores its `:leftover`.
pub fn utc_offset(timezone: &str) -> Result<Dec> {
    if timezone.eq_ignore_ascii_case("current") {
        return Ok(Dec::int(i128::from(current_offset())));
    }
    let bytes = timezone.as_bytes();
    match_zone(bytes)
        .and_then(|len| zone_to_diff(&bytes[..len]))
        .ok_or_else(|| Error::new(format!("Illegal timezone '{timezone}'")))
}

/// Puppet's `Timestamp.convert_timezone(tz)`: `tz` itself when it is `±HH:MM`, else its
/// offset written `'+%02d:%02d'` (hours and minutes; seconds dropped; an integral offset is
/// divided by 60 with Ruby's flooring division before its sign is taken).
pub fn convert_timezone(tz: &str) -> Result<String> {
    let b = tz.as_bytes();
    if b.len() == 6
        && matches!(b[0], b'+' | b'-')
        && b[1].is_ascii_digit()
        && b[2].is_ascii_digit()
        && b[3] == b':'
        && b[4].is_ascii_digit()
        && b[5].is_ascii_digit()
    {
        return Ok(tz.to_owned());
    }
    let offset = utc_offset(tz)?;
    let overflow = || Error::new("utc_offset out of range");
    let (negative, minutes) = if offset.scale == 0 {
        let m = offset.num.div_euclid(60);
        (m < 0, m.checked_abs().ok_or_else(overflow)?)
    } else {
        let abs = Dec { num: offset.num.checked_abs().ok_or_else(overflow)?, scale: offset.scale };
        (offset.is_negative(), abs.floor_div_int(60).ok_or_else(overflow)?)
    };
    Ok(format!("{}{:02}:{:02}", if negative { '-' } else { '+' }, minutes / 60, minutes % 60))
}

/// What Ruby's `Time#localtime(offset)` makes of an offset string (`utc_offset_arg` and
/// `validate_utc_offset`): seconds east of UTC and whether it is UTC mode (`'-00:00'`,
/// `'UTC'`, `'Z'`).
pub fn localtime_offset(arg: &str) -> Result<(i64, bool)> {
    let invalid = || {
        Error::new(format!(
            "\"+HH:MM\", \"-HH:MM\", \"UTC\" or \"A\"..\"I\",\"K\"..\"Z\" expected for utc_offset: {arg}"
        ))
    };
    let s = arg.as_bytes();
    let n = match s.len() {
        1 => return military_offset(s[0]).ok_or_else(invalid),
        3 if s.eq_ignore_ascii_case(b"UTC") => return Ok((0, true)),
        3 => hhmmss(s, None, None),
        5 => hhmmss(s, Some(3), None),
        6 => hhmmss(s, Some(4), None),
        7 => hhmmss(s, Some(3), Some(5)),
        9 => hhmmss(s, Some(4), Some(7)),
        _ => None,
    }
    .ok_or_else(invalid)?;
    if n == 0 && s[0] == b'-' {
        return Ok((0, true));
    }
    let n = if s[0] == b'-' { -n } else { n };
    if !(-86_399..=86_399).contains(&n) {
        return Err(Error::new("utc_offset out of range"));
    }
    Ok((n, false))
}

/// The military single-letter zones of `Time#localtime`: `Z` is UTC, `A`..`I` and `K`..`M`
/// east, `N`..`Y` west.
fn military_offset(c: u8) -> Option<(i64, bool)> {
    match c {
        b'Z' => Some((0, true)),
        b'A'..=b'I' => Some((i64::from(c - b'A' + 1) * 3600, false)),
        b'K'..=b'M' => Some((i64::from(c - b'A') * 3600, false)),
        b'N'..=b'Y' => Some((-i64::from(c - b'M') * 3600, false)),
        _ => None,
    }
}

/// The unsigned seconds of `±HH[:]MM[[:]SS]` with minutes at `min` and seconds at `sec`.
fn hhmmss(s: &[u8], min: Option<usize>, sec: Option<usize>) -> Option<i64> {
    let two = |i: usize| -> Option<i64> {
        let (a, b) = (*s.get(i)?, *s.get(i + 1)?);
        (a.is_ascii_digit() && b.is_ascii_digit()).then(|| i64::from(a - b'0') * 10 + i64::from(b - b'0'))
    };
    let mut n = 0;
    if let Some(at) = sec {
        if at == 7 && s[6] != b':' {
            return None;
        }
        n += two(at)?;
    }
    if let Some(at) = min {
        if at == 4 && s[3] != b':' {
            return None;
        }
        if s.get(at).is_some_and(|&d| d > b'5') {
            return None;
        }
        n += two(at)? * 60;
    }
    if s[0] != b'+' && s[0] != b'-' {
        return None;
    }
    Some(n + two(1)? * 3600)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(z: &str) -> Option<i128> {
        zone_to_diff(z.as_bytes()).map(|d| d.floor_shifted(0).unwrap_or(0))
    }

    #[test]
    fn names() {
        assert_eq!(diff("EST"), Some(-18000));
        assert_eq!(diff("pDt"), Some(-25200));
        assert_eq!(diff("est dst"), Some(-14400));
        assert_eq!(diff("Eastern Standard Time"), Some(-18000));
        assert_eq!(diff("Central  Europe   Standard  time"), Some(3600));
        assert_eq!(diff("cest dst"), Some(10800));
        assert_eq!(diff("j"), None);
        assert_eq!(diff("Europe"), None);
    }

    #[test]
    fn numbers() {
        assert_eq!(diff("+01:30"), Some(5400));
        assert_eq!(diff("+0130"), Some(5400));
        assert_eq!(diff("+130"), Some(5400));
        assert_eq!(diff("+13030"), Some(5430));
        assert_eq!(diff("GMT+1"), Some(3600));
        assert_eq!(diff("+5:30:15"), Some(19815));
        assert_eq!(diff("+99999999999999999999"), Some(362439));
        assert_eq!(zone_to_diff(b"+1.5"), Some(Dec { num: 36000 + 18000, scale: 1 }));
        assert_eq!(zone_to_diff(b"+1.5").and_then(|d| d.floor_shifted(0)), Some(5400));
        assert_eq!(zone_to_diff(b"-0.01").and_then(|d| d.floor_shifted(0)), Some(-36));
    }

    #[test]
    fn pattern() {
        assert_eq!(match_zone(b"Europe/Stockholm"), Some(6));
        assert_eq!(match_zone(b"EST5EDT"), None);
        assert_eq!(match_zone(b"+5:"), Some(2));
        assert_eq!(match_zone("é".as_bytes()), None);
        assert_eq!(match_zone("ESTé".as_bytes()), Some(3));
        assert_eq!(utc_offset("Zürich").unwrap(), Dec::int(0));
    }

    #[test]
    fn conversions() {
        assert_eq!(convert_timezone("EST").unwrap(), "-05:00");
        assert_eq!(convert_timezone("+1.5").unwrap(), "+01:30");
        assert_eq!(convert_timezone("-0.01").unwrap(), "-00:00");
        assert_eq!(convert_timezone("+0.01").unwrap(), "+00:00");
        assert_eq!(convert_timezone("+23:60").unwrap(), "+23:60");
        assert_eq!(convert_timezone("-00:01:30").unwrap(), "-00:02");
        assert_eq!(convert_timezone("Foo").unwrap_err().message, "Illegal timezone 'Foo'");
        assert_eq!(localtime_offset("-00:00").unwrap(), (0, true));
        assert_eq!(localtime_offset("+05:30").unwrap(), (19800, false));
        assert_eq!(localtime_offset("+24:00").unwrap_err().message, "utc_offset out of range");
        assert!(localtime_offset("+23:60").unwrap_err().message.ends_with("utc_offset: +23:60"));
    }
}
