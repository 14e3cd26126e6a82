//! String to String (`string_PStringType`), `%p` quoting (`puppet_quote`) and the width and
//! precision of literal texts (`apply_string_flags`).
//!
//! | Format | String
//! | ------ | ------
//! | s      | unquoted string, verbatim output of control chars
//! | p      | programmatic representation - strings are quoted, interior quotes and control chars are escaped
//! | C      | each :: name segment capitalized, quoted if alternative flag # is used
//! | c      | capitalized string, quoted if alternative flag # is used
//! | d      | downcased string, quoted if alternative flag # is used
//! | u      | upcased string, quoted if alternative flag # is used
//! | t      | trims leading and trailing whitespace from the string, quoted if alternative flag # is used
//!
//! Defaults to `s` at top level and `p` inside array or hash.
//!
//! `%p` quotes with single quotes (`'it\'s'`; a backslash and the character after it are
//! kept as they are) unless the string holds a control character, then with double quotes
//! (`"a\nb"`, `\t \n \r \" \$ \\` and `\u{1B}` for other control characters); `%#p` always
//! double quotes. Precision is the maximum number of characters, applied to the quoted text.

use poppet_ruby::string::capitalize;
use puppet_types::display::{puppet_double_quote, puppet_quote};
use puppet_types::Type;

use crate::error::FormatError;
use crate::format::{tr, Format};
use crate::map::FormatMap;
use crate::sprintf::{format, Arg};

/// `String(s, format)` for a String.
pub fn string_string(val_type: &Type, val: &str, map: &FormatMap) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    let transformed = match f.letter {
        's' => return format(&f.orig_fmt, &Arg::Str(val.into())),
        'p' => {
            let quoted = if f.alt { puppet_double_quote(val) } else { puppet_quote(val) };
            return apply_string_flags(&f, &quoted);
        }
        'c' => capitalize(val),
        'C' => capitalize_segments(val),
        'u' => val.to_uppercase(),
        'd' => downcase(val),
        't' => strip(val).to_owned(),
        other => return Err(FormatError::illegal("String", other, "cCudspt")),
    };
    if f.alt {
        apply_string_flags(&f, &puppet_quote(&transformed))
    } else {
        format(&tr(&f.orig_fmt, f.letter, 's'), &Arg::Str(transformed.into()))
    }
}

/// `apply_string_flags`: the `-`, width and precision of `f` applied to a literal text with
/// Ruby's `%s`.
pub fn apply_string_flags(f: &Format, literal: &str) -> Result<String, FormatError> {
    if !(f.left || f.width.is_some() || f.prec.is_some()) {
        return Ok(literal.to_owned());
    }
    let mut fmt = String::from("%");
    if f.left {
        fmt.push('-');
    }
    if let Some(w) = f.width {
        fmt.push_str(&w.to_string());
    }
    if let Some(p) = f.prec {
        fmt.push('.');
        fmt.push_str(&p.to_string());
    }
    fmt.push('s');
    format(&fmt, &Arg::Str(literal.into()))
}

/// Ruby's `String#downcase`, character by character (no final sigma).
fn downcase(s: &str) -> String {
    s.chars().flat_map(char::to_lowercase).collect()
}

/// `s.split('::').map(&:capitalize).join('::')` (Ruby's `split` drops trailing empty
/// segments).
fn capitalize_segments(s: &str) -> String {
    let mut parts: Vec<&str> = s.split("::").collect();
    while parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts.iter().map(|p| capitalize(p)).collect::<Vec<_>>().join("::")
}

/// Ruby's `String#strip`: whitespace and NUL off both ends.
fn strip(s: &str) -> &str {
    s.trim_matches(|c: char| matches!(c, '\0' | '\t' | '\n' | '\x0b' | '\x0c' | '\r' | ' '))
}

#[cfg(test)]
mod tests {
    use puppet_types::Value;

    fn s(v: &str, fmt: &str) -> String {
        match crate::string_new(&Value::from(v), Some(&Value::from(fmt))) {
            Ok(s) => s,
            Err(e) => format!("!! {}", e.message),
        }
    }

    #[test]
    fn quoting() {
        assert_eq!(s("it's", "%p"), "'it\\'s'");
        assert_eq!(s("a\\nb", "%p"), "'a\\nb'");
        assert_eq!(s("a\nb$", "%p"), "\"a\\nb\\$\"");
        assert_eq!(s("ab", "%#p"), "\"ab\"");
        assert_eq!(s("abcdef", "%.3p"), "'ab");
        assert_eq!(
            s("ab", "%-6p|"),
            "!! The format '%-6p|' is not a valid format on the form '%<flags><width>.<prec><format>'"
        );
        assert_eq!(s("ab", "%6p"), "  'ab'");
    }

    #[test]
    fn cases() {
        assert_eq!(s("hello world", "%c"), "Hello world");
        assert_eq!(s("a::b::", "%C"), "A::B");
        assert_eq!(s("::a", "%C"), "::A");
        assert_eq!(s("ǆa", "%c"), "ǅa");
        assert_eq!(s("ΣΑΣ", "%d"), "σασ");
        assert_eq!(s("abc", "%#u"), "'ABC'");
        assert_eq!(s("\0 a \t", "%t"), "a");
        assert_eq!(s("abc", "%5.2s"), "   ab");
    }
}
