//! Ruby's `Regexp`, as Puppet's regexps are Ruby's: which sources compile and Ruby's error
//! for those that do not ([`check`], Onigmo's syntax), how a regexp prints (`Regexp#to_s`,
//! `rb_reg_expr_str`, whether it has the fixed-encoding option), `Regexp.escape`, and the
//! translation of Onigmo's syntax to the Rust crates' ([`translate`]). Matching itself is
//! the `puppet-types` crate's (`Regexp` values over `fancy-regex`).

mod onigmo;
mod translate;

pub use onigmo::{check, expr_str, to_s};
pub use translate::translate;

/// Ruby's `Regexp.escape`: the source that matches `s` literally.
///
/// ```
/// assert_eq!(poppet_ruby::regexp::escape("a.b c-d\n#"), r"a\.b\ c\-d\n\#");
/// ```
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '.' | '*' | '?' | '+' | '^' | '$' | '|' | '(' | ')' | '[' | ']' | '{' | '}' | '\\' | '-' => {
                out.push('\\');
                out.push(c);
            }
            ' ' => out.push_str("\\ "),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x0c' => out.push_str("\\f"),
            '\x0b' => out.push_str("\\v"),
            '#' => out.push_str("\\#"),
            _ => out.push(c),
        }
    }
    out
}

/// Whether `Regexp.new(source)` has Ruby's fixed-encoding option (16), which makes Puppet
/// print it in a `(?-mix:…)` group: a source holding a non-ASCII character, a `\u` escape
/// above U+007F or a `\p{…}` property. (Known gap: escaped UTF-8 bytes, `\xC3\xA9`, fix the
/// encoding too.)
///
/// ```
/// use poppet_ruby::regexp::has_fixed_encoding;
/// assert!(has_fixed_encoding("é") && has_fixed_encoding(r"\p{L}") && has_fixed_encoding(r"\u00e9"));
/// assert!(!has_fixed_encoding(r"\u0041") && !has_fixed_encoding("a+"));
/// ```
pub fn has_fixed_encoding(source: &str) -> bool {
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_ascii() {
            return true;
        }
        if c != '\\' {
            continue;
        }
        match chars.next() {
            Some('p' | 'P') if chars.peek() == Some(&'{') => return true,
            Some('u') => {
                let hex: String = if chars.peek() == Some(&'{') {
                    chars.next();
                    chars.by_ref().take_while(|c| *c != '}').collect()
                } else {
                    chars.by_ref().take(4).collect()
                };
                if u32::from_str_radix(&hex, 16).is_ok_and(|v| v > 0x7f) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Recorded from Ruby 3.1.2: `Regexp.new(s).to_s`, and the message of `Regexp.new(s)`.
    #[test]
    fn as_ruby() {
        assert_eq!(to_s("é+"), "(?-mix:é+)");
        assert_eq!(to_s("(?i:é)"), "(?i-mx:é)");
        assert_eq!(to_s("(?i)é"), "(?i-mx:é)");
        assert_eq!(to_s("(?i:a)é"), "(?-mix:(?i:a)é)");
        assert_eq!(to_s("a/b\\/c"), "(?-mix:a\\/b\\/c)");
        assert_eq!(check("a/(").err().as_deref(), Some("end pattern with unmatched parenthesis: /a\\/(/"));
        assert_eq!(check("(?<x>a)\\k<x>"), Ok(()));
        assert_eq!(expr_str("a\u{1}b", false), "a\\x01b");
    }
}
