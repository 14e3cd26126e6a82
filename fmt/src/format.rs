//! One format: `%[flags][width][.precision]letter` (`StringConverter::Format`).
//!
//! Puppet matches the format with
//! `FMT_PATTERN = /^%([\s\[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$/`, a Ruby
//! regexp whose `^` and `$` are line anchors: in `"a\n%d"` the line `%d` matches, and the
//! whole string is what Ruby's `format` later renders (`a␤1`).
//!
//! | flag      | effect                                                                  |
//! |-----------|-------------------------------------------------------------------------|
//! | space     | space instead of `+` for numeric output (`-` is shown); for containers skips delimiters |
//! | `#`       | alternate format; prefix 0x/0X, 0 (octal) and 0b/0B for binary, Floats force decimal '.'; for g/G keep trailing 0 |
//! | `+`       | show sign +/- depending on value's sign; changes x, X, o, b, B format to not use 2's complement form |
//! | `-`       | left justify the value in the given width                               |
//! | `0`       | pad with 0 instead of space for widths larger than value               |
//! | `<[({\|`  | defines an enclosing pair <> [] () {} or \| \| when used with a container type |
//!
//! Errors, in Puppet's words:
//! - `The format 'x' is not a valid format on the form '%<flags><width>.<prec><format>'`
//!   (`String(1, 'x')`, `String(1, '%')`);
//! - `The same flag can only be used once, got '%--d'`;
//! - `Only one of the delimiters [ { ( < | can be given in the format flags, got '%[(d'`.

use std::rc::Rc;

use crate::error::FormatError;
use crate::map::FormatMap;

/// What the sign flags ask for (`@plus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plus {
    /// ` `: a space before non-negative numbers; containers without delimiters.
    Space,
    /// `+`.
    Plus,
    Ignore,
}

/// A parsed format, with the container options of a container format.
#[derive(Clone, Debug)]
pub struct Format {
    /// The whole string given (what Ruby's `format` renders).
    pub orig_fmt: Rc<str>,
    /// The format letter.
    pub letter: char,
    /// `#`.
    pub alt: bool,
    /// `-`.
    pub left: bool,
    /// `0`.
    pub zero_pad: bool,
    pub plus: Plus,
    /// The width (saturated at `u64::MAX`: Ruby's `format` refuses it anyway).
    pub width: Option<u64>,
    /// The precision (saturated as the width).
    pub prec: Option<u64>,
    /// The delimiter flag: one of `[ { ( < |`.
    pub delimiters: Option<char>,
    /// `separator` of a container format.
    pub separator: Option<Rc<str>>,
    /// `separator2` of a container format.
    pub separator2: Option<Rc<str>>,
    /// `string_formats` of a container format.
    pub container_string_formats: Option<Rc<FormatMap>>,
}

/// The parts of a match of `FMT_PATTERN`.
struct Match<'a> {
    flags: &'a str,
    width: Option<&'a str>,
    prec: Option<&'a str>,
    letter: char,
}

/// Ruby's `\s`.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn is_flag(c: u8) -> bool {
    is_space(c) || matches!(c, b'[' | b'+' | b'#' | b'0' | b'{' | b'<' | b'(' | b'|' | b'-')
}

/// `FMT_PATTERN` tried at `start` (a line start).
fn match_at(s: &str, start: usize) -> Option<Match<'_>> {
    let b = s.as_bytes();
    let mut p = start;
    if b.get(p) != Some(&b'%') {
        return None;
    }
    p += 1;
    let flags_start = p;
    while b.get(p).is_some_and(|&c| is_flag(c)) {
        p += 1;
    }
    let flags = &s[flags_start..p];
    let mut width = None;
    if b.get(p).is_some_and(|c| (b'1'..=b'9').contains(c)) {
        let w = p;
        while b.get(p).is_some_and(u8::is_ascii_digit) {
            p += 1;
        }
        width = Some(&s[w..p]);
    }
    let mut prec = None;
    if b.get(p) == Some(&b'.') && b.get(p + 1).is_some_and(u8::is_ascii_digit) {
        let d = p + 1;
        p = d;
        while b.get(p).is_some_and(u8::is_ascii_digit) {
            p += 1;
        }
        prec = Some(&s[d..p]);
    }
    let letter = *b.get(p).filter(|c| c.is_ascii_alphabetic())?;
    p += 1;
    if p < b.len() && b[p] != b'\n' {
        return None;
    }
    Some(Match { flags, width, prec, letter: letter as char })
}

/// The first match of `FMT_PATTERN` in `s`: at the start or after a line feed.
fn find_match(s: &str) -> Option<Match<'_>> {
    if let Some(m) = match_at(s, 0) {
        return Some(m);
    }
    s.match_indices('\n').find_map(|(i, _)| match_at(s, i + 1))
}

/// Ruby's `to_i` of a digit string, saturated.
fn digits_value(d: &str) -> u64 {
    d.bytes().fold(0u64, |n, c| n.saturating_mul(10).saturating_add(u64::from(c - b'0')))
}

impl Format {
    /// `Format.new(fmt)`.
    pub fn parse(fmt: &str) -> Result<Format, FormatError> {
        let m = find_match(fmt).ok_or_else(|| FormatError::invalid_format(fmt))?;
        let flags: Vec<char> = m.flags.chars().collect();
        for (i, c) in flags.iter().enumerate() {
            if flags[..i].contains(c) {
                return Err(FormatError::new(format!("The same flag can only be used once, got '{fmt}'")));
            }
        }
        let has = |c: char| flags.contains(&c);
        let mut delimiters = None;
        for d in ['[', '{', '(', '<', '|'] {
            if has(d) {
                if delimiters.is_some() {
                    return Err(FormatError::new(format!(
                        "Only one of the delimiters [ {{ ( < | can be given in the format flags, got '{fmt}'"
                    )));
                }
                delimiters = Some(d);
            }
        }
        Ok(Format {
            orig_fmt: Rc::from(fmt),
            letter: m.letter,
            alt: has('#'),
            left: has('-'),
            zero_pad: has('0'),
            plus: if has(' ') {
                Plus::Space
            } else if has('+') {
                Plus::Plus
            } else {
                Plus::Ignore
            },
            width: m.width.map(digits_value),
            prec: m.prec.map(digits_value),
            delimiters,
            separator: None,
            separator2: None,
            container_string_formats: None,
        })
    }

    /// `Format#merge(other)`: `other`'s format with this one's container options where
    /// `other` has none, string formats merged.
    pub fn merge(&self, other: &Format) -> Result<Format, FormatError> {
        let mut result = other.clone();
        result.container_string_formats = None;
        result.separator = other.separator.clone().or_else(|| self.separator.clone());
        result.separator2 = other.separator2.clone().or_else(|| self.separator2.clone());
        result.container_string_formats = crate::map::merge_string_formats(
            self.container_string_formats.as_ref(),
            other.container_string_formats.as_ref(),
        )?;
        Ok(result)
    }

    /// `delimiter_pair(default)`: the delimiter flag's pair, none for the space flag, else
    /// `default`.
    pub fn delimiter_pair(&self, default: (&'static str, &'static str)) -> (&'static str, &'static str) {
        match self.delimiters {
            Some('[') => ("[", "]"),
            Some('{') => ("{", "}"),
            Some('(') => ("(", ")"),
            Some('<') => ("<", ">"),
            Some('|') => ("|", "|"),
            _ if self.plus == Plus::Space => ("", ""),
            _ => default,
        }
    }

    /// The letter as the Ruby symbol Puppet compares (`f.format`).
    pub fn is(&self, letters: &str) -> bool {
        letters.contains(self.letter)
    }
}

/// Ruby's `String#tr(from, to)` for one character, or `gsub` of a one-letter string: every
/// `from` in `s` replaced.
pub fn tr(s: &str, from: char, to: char) -> String {
    s.chars().map(|c| if c == from { to } else { c }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Format, String> {
        Format::parse(s).map_err(|e| e.message)
    }

    #[test]
    fn parts() {
        let f = parse("%-+#010.3x").unwrap_or_else(|e| panic!("{e}"));
        assert!(f.left && f.alt && f.zero_pad);
        assert_eq!(f.plus, Plus::Plus);
        assert_eq!((f.width, f.prec, f.letter), (Some(10), Some(3), 'x'));
        let f = parse("% [a").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((f.plus, f.delimiters), (Plus::Space, Some('[')));
    }

    #[test]
    fn line_anchors() {
        assert_eq!(parse("a\n%d").map(|f| f.letter), Ok('d'));
        assert_eq!(parse("%d\nb").map(|f| f.letter), Ok('d'));
        assert_eq!(parse("%\nd").map(|f| f.letter), Ok('d'));
        assert!(parse("%d%d").is_err());
        assert!(parse("%.d").is_err());
    }

    #[test]
    fn errors() {
        assert_eq!(
            parse("x").err().as_deref(),
            Some("The format 'x' is not a valid format on the form '%<flags><width>.<prec><format>'")
        );
        assert_eq!(parse("%--d").err().as_deref(), Some("The same flag can only be used once, got '%--d'"));
        assert_eq!(
            parse("%[(d").err().as_deref(),
            Some("Only one of the delimiters [ { ( < | can be given in the format flags, got '%[(d'")
        );
        assert_eq!(parse("%99999999999999999999999d").map(|f| f.width), Ok(Some(u64::MAX)));
    }
}
