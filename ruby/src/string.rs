//! Ruby 3.1's `String#inspect`, `String#dump` and `String#capitalize`, as Puppet's messages
//! and functions show strings (`invalid value for Integer(): "x"`, `bad URI(is not URI?):
//! "a b"`, `The key '["\u0001"]' is declared more than once`, `capitalize('ǆa')`).
//!
//! Strings are UTF-8 and Ruby's default external encoding is UTF-8, as under Puppet.

use std::fmt::Write;

/// Ruby's `String#inspect` of a UTF-8 string: `"` and `\` escaped, `#` before `{`, `$` or
/// `@` escaped, the usual control characters as `\n`, `\t`, …, other characters Onigmo does
/// not count as printable as `\uXXXX` (`\u{XXXXX}` beyond the BMP), the rest as they are.
///
/// ```
/// assert_eq!(poppet_ruby::string::inspect("a\"\n\u{1}é#{"), r##""a\"\n\u0001é\#{""##);
/// ```
pub fn inspect(s: &str) -> String {
    quote(s, |out, c| {
        if is_printable(c) {
            out.push(c);
        } else {
            unicode_escape(out, c);
        }
    })
}

/// Ruby's `String#dump`: as [`inspect`], with every non-ASCII character as `\uXXXX` (or
/// `\u{XXXXX}`) and the other control characters as `\xXX`.
///
/// ```
/// assert_eq!(poppet_ruby::string::dump("\u{1}é"), r##""\x01\u00E9""##);
/// ```
pub fn dump(s: &str) -> String {
    quote(s, |out, c| {
        if (c as u32) < 0x20 || c == '\x7f' {
            let _ = write!(out, "\\x{:02X}", c as u32);
        } else if c.is_ascii() {
            out.push(c);
        } else {
            unicode_escape(out, c);
        }
    })
}

/// The double-quoted string `inspect` and `dump` share: `#` escaped before `{`, `$` or `@`,
/// the [`special_escape`]s, and `other` for the rest of the characters.
fn quote(s: &str, mut other: impl FnMut(&mut String, char)) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '#' {
            out.push_str(if matches!(chars.peek(), Some('$' | '@' | '{')) { "\\#" } else { "#" });
        } else if let Some(escape) = special_escape(c) {
            out.push_str(escape);
        } else {
            other(&mut out, c);
        }
    }
    out.push('"');
    out
}

/// Ruby's `String#inspect` of an ASCII-8BIT (binary) string: bytes beyond printable ASCII as
/// `\xHH`.
///
/// ```
/// assert_eq!(poppet_ruby::string::inspect_bytes(b"a\xff\n"), r##""a\xFF\n""##);
/// ```
pub fn inspect_bytes(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len() + 2);
    out.push('"');
    for (i, &c) in b.iter().enumerate() {
        if c == b'#' {
            out.push_str(if matches!(b.get(i + 1), Some(b'$' | b'@' | b'{')) { "\\#" } else { "#" });
        } else if let Some(escape) = special_escape(char::from(c)) {
            out.push_str(escape);
        } else if (0x20..=0x7e).contains(&c) {
            out.push(char::from(c));
        } else {
            let _ = write!(out, "\\x{c:02X}");
        }
    }
    out.push('"');
    out
}

/// The escapes `inspect` and `dump` share: quotes, backslashes and the named controls.
fn special_escape(c: char) -> Option<&'static str> {
    Some(match c {
        '"' => "\\\"",
        '\\' => "\\\\",
        '\n' => "\\n",
        '\r' => "\\r",
        '\t' => "\\t",
        '\x0c' => "\\f",
        '\x0b' => "\\v",
        '\x08' => "\\b",
        '\x07' => "\\a",
        '\x1b' => "\\e",
        _ => return None,
    })
}

/// `\uXXXX`, or `\u{XXXXX}` beyond the BMP (`rb_str_buf_cat_escaped_char`).
fn unicode_escape(out: &mut String, c: char) {
    let u = c as u32;
    if u < 0x10000 {
        let _ = write!(out, "\\u{u:04X}");
    } else {
        let _ = write!(out, "\\u{{{u:X}}}");
    }
}

/// Whether Onigmo's UTF-8 `isprint` holds (graphic characters and spaces): not for control
/// characters (but U+0085, a space to Onigmo), the line and paragraph separators, and the
/// noncharacters. Known gap: the other unassigned code points (`\u0378`) count as printable
/// here, where Ruby escapes them.
fn is_printable(c: char) -> bool {
    let u = c as u32;
    if u < 0x20 || u == 0x7f || ((0x80..0xa0).contains(&u) && u != 0x85) {
        return false;
    }
    !matches!(u, 0x2028 | 0x2029) && (u & 0xfffe) != 0xfffe && !(0xfdd0..=0xfdef).contains(&u)
}

/// The byte length of the character starting at `i` of a UTF-8 string that may be broken,
/// as Ruby steps through one: a valid character, or one byte of an invalid or cut sequence
/// (1 at the end of the bytes).
pub fn char_len_at(s: &[u8], i: usize) -> usize {
    let n = s.get(i).map_or(1, |&lead| utf8_len(lead));
    if n > 1 && s.get(i..i + n).is_some_and(|c| std::str::from_utf8(c).is_ok()) {
        n
    } else {
        1
    }
}

/// Ruby's `String#length` of a UTF-8 string that may be broken: a valid character counts
/// one, an invalid or cut sequence one per byte.
///
/// ```
/// assert_eq!(poppet_ruby::string::length(b"a\xc3\xa9\xc3"), 3);
/// ```
pub fn length(bytes: &[u8]) -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < bytes.len() {
        i += char_len_at(bytes, i);
        count += 1;
    }
    count
}

/// The length of the UTF-8 sequence a lead byte starts (1 for a byte that starts none).
pub fn utf8_len(lead: u8) -> usize {
    match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 1,
    }
}

/// Ruby's `String#capitalize`: the first character in title case, the others in lower case
/// (full Unicode case mapping: `ß` → `Ss`, `ǆ` → `ǅ`, `ᾀ` → `ᾈ`).
///
/// ```
/// assert_eq!(poppet_ruby::string::capitalize("hELLO"), "Hello");
/// assert_eq!(poppet_ruby::string::capitalize("ßa"), "Ssa");
/// ```
pub fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    let Some(first) = chars.next() else { return String::new() };
    let mut out = titlecase(first);
    for c in chars {
        out.extend(c.to_lowercase());
    }
    out
}

/// The title case of a character (Unicode's titlecase mapping where it differs from upper
/// case), as `capitalize` maps the first one.
pub fn titlecase(c: char) -> String {
    match c {
        '\u{1C4}'..='\u{1C6}' => "\u{1C5}".into(),
        '\u{1C7}'..='\u{1C9}' => "\u{1C8}".into(),
        '\u{1CA}'..='\u{1CC}' => "\u{1CB}".into(),
        '\u{1F1}'..='\u{1F3}' => "\u{1F2}".into(),
        'ŉ' => "ʼN".into(),
        '\u{1F80}'..='\u{1F87}' | '\u{1F90}'..='\u{1F97}' | '\u{1FA0}'..='\u{1FA7}' => {
            char::from_u32(c as u32 + 8).map(String::from).unwrap_or_default()
        }
        '\u{1FB3}' => "\u{1FBC}".into(),
        '\u{1FC3}' => "\u{1FCC}".into(),
        '\u{1FF3}' => "\u{1FFC}".into(),
        c => {
            // where upper case is several characters (ß, ﬁ), title case is the first of
            // them followed by the others in lower case (Ss, Fi)
            let mut upper = c.to_uppercase();
            let mut out: String = upper.next().map(String::from).unwrap_or_default();
            for u in upper {
                out.extend(u.to_lowercase());
            }
            out
        }
    }
}

/// Ruby's `String#succ` (of ASCII letters and digits): the rightmost alphanumeric
/// incremented, `z`, `Z` and `9` wrapping and carrying leftwards (`az` → `ba`, `zz` →
/// `aaa`, `a9` → `b0`); without one, the last character incremented.
pub fn succ(s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    let (mut last_alnum, mut wrapped_at, mut after_other) = (None::<char>, None, false);
    for i in (0..chars.len()).rev() {
        let c = chars[i];
        if let (true, Some(l)) = (after_other, last_alnum) {
            if (l.is_ascii_alphabetic() && c.is_ascii_digit()) || (l.is_ascii_digit() && c.is_ascii_alphabetic()) {
                break;
            }
        }
        if !c.is_ascii_alphanumeric() {
            after_other = true;
            continue;
        }
        after_other = false;
        let wrapped = match c {
            '9' => '0',
            'z' => 'a',
            'Z' => 'A',
            _ => {
                chars[i] = char::from(c as u8 + 1);
                return chars.into_iter().collect();
            }
        };
        chars[i] = wrapped;
        last_alnum = Some(wrapped);
        wrapped_at = Some(i);
    }
    match (wrapped_at, last_alnum) {
        (Some(i), Some(w)) => chars.insert(i, if w == '0' { '1' } else { w }),
        _ => {
            if let Some(last) = chars.last_mut() {
                *last = char::from_u32(*last as u32 + 1).unwrap_or(*last);
            }
        }
    }
    chars.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Recorded from Ruby 3.1.2: `puts STR.inspect`.
    #[test]
    fn inspect_as_ruby() {
        assert_eq!(inspect("09"), "\"09\"");
        assert_eq!(inspect("-\n5"), "\"-\\n5\"");
        assert_eq!(inspect("\u{1}\u{7f}\u{2028}\u{10ffff}\u{fdd0}é😀"), r##""\u0001\u007F\u2028\u{10FFFF}\uFDD0é😀""##);
        assert_eq!(
            inspect("\u{80}\u{84}\u{86}\u{9f}\u{2029}\u{fffe}\u{ffff}\u{1fffe}"),
            r##""\u0080\u0084\u0086\u009F\u2029\uFFFE\uFFFF\u{1FFFE}""##
        );
        for raw in [
            "\u{85}",
            "\u{ad}",
            "\u{200b}",
            "\u{2066}",
            "\u{e000}",
            "\u{f8ff}",
            "\u{f0000}",
            "\u{10fffd}",
            "\u{e0001}",
            "\u{3000}",
            "\u{feff}",
            "\u{a0}",
        ] {
            assert_eq!(inspect(raw), format!("\"{raw}\""), "{:X}", raw.chars().next().map_or(0, |c| c as u32));
        }
        assert_eq!(inspect("#a#{#$#@\\\"\x07\x08\x1b\x0b\x0c\r\t"), r##""#a\#{\#$\#@\\\"\a\b\e\v\f\r\t""##);
    }

    #[test]
    fn dump_as_ruby() {
        assert_eq!(
            dump("\u{85}\u{e000}\u{feff}\u{a0}\u{378}\u{f0000}\u{fffe}"),
            r##""\u0085\uE000\uFEFF\u00A0\u0378\u{F0000}\uFFFE""##
        );
        assert_eq!(dump("a b\u{7f}#{"), r##""a b\x7F\#{""##);
    }

    #[test]
    fn bytes() {
        assert_eq!(inspect_bytes(b"#{\x00\xc3\xa9"), r##""\#{\x00\xC3\xA9""##);
    }

    /// Recorded from Ruby 3.1.2: `puts STR.capitalize`.
    #[test]
    fn capitalize_as_ruby() {
        assert_eq!(capitalize(""), "");
        assert_eq!(capitalize("ᾀb"), "ᾈb");
        assert_eq!(capitalize("ǆA"), "ǅa");
        assert_eq!(capitalize("ßa"), "Ssa");
        assert_eq!(capitalize("ŉa"), "ʼNa");
        assert_eq!(capitalize("foo::bar"), "Foo::bar");
    }
}
