//! Ruby's `String#inspect` and `String#dump`, as Puppet's messages quote strings with them
//! (`invalid value for Integer(): "x"`, `bad URI(is not URI?): "a b"`).

use std::fmt::Write;

/// Ruby's `String#inspect` of a UTF-8 string.
pub fn inspect(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '#' if matches!(chars.peek(), Some('$' | '@' | '{')) => out.push_str("\\#"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0c' => out.push_str("\\f"),
            '\x0b' => out.push_str("\\v"),
            '\x08' => out.push_str("\\b"),
            '\x07' => out.push_str("\\a"),
            '\x1b' => out.push_str("\\e"),
            c if is_printable(c) => out.push(c),
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:X}}}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// Whether Onigmo's UTF-8 `isprint` holds (graphic characters and spaces).
fn is_printable(c: char) -> bool {
    let u = c as u32;
    if u < 0x20 || u == 0x7f {
        return false;
    }
    if (0x80..0xa0).contains(&u) {
        return false;
    }
    !matches!(u, 0x2028 | 0x2029 | 0xfeff)
        && !(0xd800..0xe000).contains(&u)
        && !(0xe000..0xf900).contains(&u)
        && !is_unassigned_special(u)
}

fn is_unassigned_special(u: u32) -> bool {
    // noncharacters and the private use planes
    (u & 0xfffe) == 0xfffe || (0xf0000..=0x10ffff).contains(&u) || (0xfdd0..=0xfdef).contains(&u)
}

/// Ruby's `String#dump`: like `inspect`, with every non-ASCII character as `\uXXXX` (or
/// `\u{XXXXX}`) and control characters as `\xXX`.
pub fn dump(s: &str) -> String {
    let mut out = String::from("\"");
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x0c' => out.push_str("\\f"),
            '\x0b' => out.push_str("\\v"),
            '\x08' => out.push_str("\\b"),
            '\x07' => out.push_str("\\a"),
            '\x1b' => out.push_str("\\e"),
            '#' if matches!(chars.peek(), Some('{' | '$' | '@')) => out.push_str("\\#"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02X}", c as u32)),
            c if (c as u32) > 0xffff => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
            c if !c.is_ascii() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
