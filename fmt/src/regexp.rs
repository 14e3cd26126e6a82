//! Regexp to String (`string_PRegexpType`).
//!
//! | Format    | Regexp Formats (%/)
//! | ----      | ------------------
//! | s         | / / delimiters, alternate flag replaces / delimiters with quotes
//! | p         | / / delimiters
//!
//! What Puppet 7.23 does: `%s` is the source without delimiters (`%#s` quotes it as `%p`
//! quotes strings), `%p` the source between slashes (`/a\/b/`).
//!
//! A source with characters beyond ASCII makes a Ruby regexp with the "fixed encoding"
//! option, and Puppet then shows the options: `%s` of `/é+/` is `(?-imx:é+)` (Puppet's
//! `append_flags_group`), `%p` is `/(?-mix:é+)/` (Ruby's `Regexp#to_s`, which also folds a
//! leading `(?i)` or `(?i:...)` group into the options).

use puppet_types::display::puppet_quote;
use puppet_types::regexp::Regexp;
use puppet_types::Type;

use crate::error::FormatError;
use crate::format::tr;
use crate::map::FormatMap;
use crate::sprintf::{format, Arg};

/// `String(r, format)` for a Regexp.
pub fn string_regexp(val_type: &Type, val: &Regexp, map: &FormatMap) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    match f.letter {
        'p' => {
            let s = regexp_to_s_with_delimiters(val.source());
            if &*f.orig_fmt == "%p" {
                Ok(s)
            } else {
                format(&tr(&f.orig_fmt, 'p', 's'), &Arg::Str(s.into()))
            }
        }
        's' => {
            let s = regexp_to_s(val.source());
            let s = if f.alt { puppet_quote(&s) } else { s };
            if &*f.orig_fmt == "%s" {
                Ok(s)
            } else {
                format(&f.orig_fmt, &Arg::Str(s.into()))
            }
        }
        other => Err(FormatError::illegal("Regexp", other, "sp")),
    }
}

/// Whether Ruby gives a regexp of this source options (the fixed encoding of a source
/// beyond ASCII).
fn has_options(source: &str) -> bool {
    !source.is_ascii()
}

/// `PRegexpType.regexp_to_s`: the source, in an options group when the regexp has options.
pub fn regexp_to_s(source: &str) -> String {
    if has_options(source) {
        format!("(?-imx:{source})")
    } else {
        source.to_owned()
    }
}

/// `PRegexpType.regexp_to_s_with_delimiters`: `inspect` (`/a\/b/`), or `/#{to_s}/` when the
/// regexp has options.
pub fn regexp_to_s_with_delimiters(source: &str) -> String {
    if has_options(source) {
        format!("/{}/", ruby_to_s(source))
    } else {
        let mut out = String::with_capacity(source.len() + 2);
        out.push('/');
        expr_str(&mut out, source);
        out.push('/');
        out
    }
}

/// Option letters of Ruby's regexps.
const IGNORECASE: u8 = 1;
const EXTENDED: u8 = 2;
const MULTILINE: u8 = 4;

fn option_of(c: u8) -> u8 {
    match c {
        b'i' => IGNORECASE,
        b'x' => EXTENDED,
        b'm' => MULTILINE,
        _ => 0,
    }
}

/// `mix` letters of the options set.
fn option_str(options: u8) -> String {
    let mut s = String::new();
    if options & MULTILINE != 0 {
        s.push('m');
    }
    if options & IGNORECASE != 0 {
        s.push('i');
    }
    if options & EXTENDED != 0 {
        s.push('x');
    }
    s
}

/// Ruby's `Regexp#to_s` (`rb_reg_str_with_term`) of a regexp without `i`, `m`, `x` options.
fn ruby_to_s(source: &str) -> String {
    let original = source.as_bytes();
    let mut options: u8 = 0;
    let mut p: &[u8] = original;
    loop {
        if p.len() >= 4 && p[0] == b'(' && p[1] == b'?' {
            let mut q = &p[2..];
            while let Some(&c) = q.first() {
                let o = option_of(c);
                if o == 0 {
                    break;
                }
                options |= o;
                q = &q[1..];
            }
            if q.len() > 1 && q[0] == b'-' {
                q = &q[1..];
                while let Some(&c) = q.first() {
                    let o = option_of(c);
                    if o == 0 {
                        break;
                    }
                    options &= !o;
                    q = &q[1..];
                }
            }
            if q.first() == Some(&b')') {
                p = &q[1..];
                continue;
            }
            let inner_ok = q.first() == Some(&b':')
                && q.last() == Some(&b')')
                && q.len() >= 2
                && std::str::from_utf8(&q[1..q.len() - 1]).is_ok_and(|s| Regexp::compile(s).is_ok());
            if inner_ok {
                p = &q[1..q.len() - 1];
            } else {
                options = 0;
                p = original;
            }
        }
        break;
    }
    let mut out = String::from("(?");
    out.push_str(&option_str(options));
    if options != IGNORECASE | EXTENDED | MULTILINE {
        out.push('-');
        out.push_str(&option_str(!options & 7));
    }
    out.push(':');
    expr_str(&mut out, std::str::from_utf8(p).unwrap_or(source));
    out.push(')');
    out
}

/// `rb_reg_expr_str`: the source with `/` escaped (unless escaped already) and other
/// unprintable ASCII characters but spaces as `\xHH`.
fn expr_str(out: &mut String, s: &str) {
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push('\\');
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '/' => out.push_str("\\/"),
            c if !c.is_ascii() => out.push(c),
            ' '..='~' => out.push(c),
            '\t' | '\n' | '\x0b' | '\x0c' | '\r' => out.push(c),
            c => out.push_str(&format!("\\x{:02X}", c as u32)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_shown_beyond_ascii() {
        assert_eq!(regexp_to_s("é+"), "(?-imx:é+)");
        assert_eq!(regexp_to_s_with_delimiters("é+"), "/(?-mix:é+)/");
        assert_eq!(regexp_to_s_with_delimiters("(?i:é)"), "/(?i-mx:é)/");
        assert_eq!(regexp_to_s_with_delimiters("(?i)é"), "/(?i-mx:é)/");
        assert_eq!(regexp_to_s_with_delimiters("(?i:a)é"), "/(?-mix:(?i:a)é)/");
        assert_eq!(regexp_to_s_with_delimiters("a/b\\/c"), "/a\\/b\\/c/");
        assert_eq!(regexp_to_s_with_delimiters("a\u{1}b"), "/a\\x01b/");
        assert_eq!(regexp_to_s_with_delimiters("(?i:a)"), "/(?i:a)/");
    }
}
