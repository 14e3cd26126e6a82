//! `Regexp` values: Ruby's regular-expression dialect on top of `fancy-regex` (which hands
//! everything without look-around or back-references to the linear-time `regex` crate).
//!
//! Ruby differences that are translated: `^`/`$` are always line anchors; the `m` flag is
//! Rust's `s` (dot matches newline); `\h`/`\H` are hex digits; `\d`, `\w`, `\s` (and their
//! negations) are ASCII-only, as Ruby's are (`\b` and POSIX classes stay Unicode-aware, as
//! in Ruby); `\Z` is "end, or before a final newline"; `(?<name>…)` named groups are kept, and where
//! there is one, plain groups do not capture (Onigmo's rule: `/(?<x>b)(c)/` has one group).

use std::cell::OnceCell;
use std::fmt;

/// A compiled regular expression with its Puppet source (the text between the slashes of
/// `/…/`, or the string given to `Regexp[...]`).
pub struct Regexp {
    source: Box<str>,
    compiled: OnceCell<Result<fancy_regex::Regex, String>>,
}

impl Regexp {
    /// A regexp for `source`; it compiles on first use. See [`Regexp::check`].
    pub fn new(source: impl Into<Box<str>>) -> Regexp {
        Regexp { source: source.into(), compiled: OnceCell::new() }
    }

    /// A regexp that compiles, or the compiler's message.
    pub fn compile(source: impl Into<Box<str>>) -> Result<Regexp, String> {
        let r = Regexp::new(source);
        r.check()?;
        Ok(r)
    }

    /// `Regexp.escape`: the source that matches `s` literally (Ruby's escaping).
    pub fn escape(s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        for c in s.chars() {
            match c {
                '.' | '*' | '?' | '+' | '^' | '$' | '|' | '(' | ')' | '[' | ']' | '{' | '}' | '\\'
                | '-' => {
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

    pub fn source(&self) -> &str {
        &self.source
    }

    /// The compiler's message when the source is not a valid regexp.
    pub fn check(&self) -> Result<(), String> {
        self.regex().map(|_| ())
    }

    fn regex(&self) -> Result<&fancy_regex::Regex, String> {
        self.compiled
            .get_or_init(|| {
                fancy_regex::RegexBuilder::new(&translate(&self.source))
                    .backtrack_limit(1_000_000)
                    .build()
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Whether the regexp matches somewhere in `s` (false when it does not compile).
    pub fn is_match(&self, s: &str) -> bool {
        self.regex().is_ok_and(|r| r.is_match(s).unwrap_or(false))
    }

    /// The first match: the whole match and each group (`None` for groups that did not take
    /// part), as Puppet's match variables `$0`, `$1`, … hold them.
    pub fn captures(&self, s: &str) -> Option<Vec<Option<String>>> {
        let r = self.regex().ok()?;
        let caps = r.captures(s).ok()??;
        Some((0..caps.len()).map(|i| caps.get(i).map(|m| m.as_str().to_owned())).collect())
    }

    /// The compiled regex, for callers that iterate over matches.
    pub fn compiled(&self) -> Result<&fancy_regex::Regex, String> {
        self.regex()
    }
}

impl Clone for Regexp {
    fn clone(&self) -> Regexp {
        Regexp { source: self.source.clone(), compiled: self.compiled.clone() }
    }
}

impl fmt::Debug for Regexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/{}/", self.source)
    }
}

impl PartialEq for Regexp {
    fn eq(&self, other: &Regexp) -> bool {
        self.source == other.source
    }
}

impl Eq for Regexp {}

impl std::hash::Hash for Regexp {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.source.hash(state)
    }
}

/// Translates Ruby's regexp dialect to fancy-regex's.
fn translate(src: &str) -> String {
    let mut out = String::with_capacity(src.len() + 8);
    // Ruby's ^ and $ always match at line boundaries.
    out.push_str("(?m)");
    let named = has_named_group(src);
    let mut chars = src.chars().peekable();
    let mut in_class = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('h') if in_class > 0 => out.push_str("0-9a-fA-F"),
                Some('h') => out.push_str("[0-9a-fA-F]"),
                Some('H') if in_class == 0 => out.push_str("[^0-9a-fA-F]"),
                Some('d') if in_class > 0 => out.push_str("0-9"),
                Some('d') => out.push_str("[0-9]"),
                Some('D') if in_class == 0 => out.push_str("[^0-9]"),
                Some('w') if in_class > 0 => out.push_str("a-zA-Z0-9_"),
                Some('w') => out.push_str("[a-zA-Z0-9_]"),
                Some('W') if in_class == 0 => out.push_str("[^a-zA-Z0-9_]"),
                Some('s') if in_class > 0 => out.push_str("\\t\\n\\x0B\\f\\r "),
                Some('s') => out.push_str("[\\t\\n\\x0B\\f\\r ]"),
                Some('S') if in_class == 0 => out.push_str("[^\\t\\n\\x0B\\f\\r ]"),
                Some('Z') if in_class == 0 => out.push_str("(?=\\n?\\z)"),
                Some('/') => out.push('/'),
                // Onigmo's negated property `\p{^L}` is `\P{L}` (and `\P{^L}` is `\p{L}`).
                Some(p @ ('p' | 'P')) if chars.clone().take(2).eq(['{', '^']) => {
                    chars.next();
                    chars.next();
                    out.push_str(if p == 'p' { "\\P{" } else { "\\p{" });
                }
                Some('0') => {
                    // Ruby's octal escape `\0`, `\0o`, `\0oo` (the regex crate has none).
                    let mut code = 0u32;
                    for _ in 0..2 {
                        match chars.peek().and_then(|c| c.to_digit(8)) {
                            Some(d) => {
                                code = code * 8 + d;
                                chars.next();
                            }
                            None => break,
                        }
                    }
                    out.push_str(&format!("\\x{{{code:X}}}"));
                }
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push_str("\\\\"),
            },
            '[' if in_class > 0 && chars.peek() == Some(&':') => {
                // A POSIX bracket: Unicode-aware in Ruby, ASCII-only in the regex crate.
                let rest: String = chars.clone().take_while(|c| *c != ']').collect();
                match rest.strip_prefix(':').and_then(|r| r.strip_suffix(':')).and_then(posix_class) {
                    Some(class) => {
                        out.push_str(class);
                        for _ in 0..=rest.chars().count() {
                            chars.next();
                        }
                    }
                    None => out.push_str("\\["),
                }
            }
            '[' => {
                in_class += 1;
                out.push('[');
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push_str("\\]");
                    chars.next();
                }
            }
            ']' if in_class > 0 => {
                in_class -= 1;
                out.push(']');
            }
            '(' if in_class == 0 && chars.peek() == Some(&'?') && chars.clone().nth(1) == Some('\'') => {
                // Ruby's other spelling of a named group, `(?'name'…)`.
                chars.next();
                chars.next();
                out.push_str("(?<");
                out.extend(chars.by_ref().take_while(|c| *c != '\''));
                out.push('>');
            }
            '(' if in_class == 0 && chars.peek() == Some(&'?') => {
                // Ruby's inline options: (?imx-imx) and (?imx-imx:…); `m` is dot-all.
                let rest: String = chars.clone().skip(1).take_while(|c| *c != ':' && *c != ')').collect();
                if !rest.is_empty() && rest.chars().all(|c| matches!(c, 'i' | 'm' | 'x' | '-')) {
                    out.push_str("(?");
                    out.extend(rest.chars().map(|c| if c == 'm' { 's' } else { c }));
                    for _ in 0..=rest.chars().count() {
                        chars.next();
                    }
                } else {
                    out.push('(');
                }
            }
            '(' if in_class == 0 && named => out.push_str("(?:"),
            _ => out.push(c),
        }
    }
    out
}

/// Whether the source has a named group, `(?<name>…)` or `(?'name'…)` (not a look-behind),
/// outside character classes and escapes.
fn has_named_group(src: &str) -> bool {
    let b = src.as_bytes();
    let (mut i, mut in_class) = (0, 0usize);
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' => in_class += 1,
            b']' if in_class > 0 => in_class -= 1,
            b'(' if in_class == 0 && b.get(i + 1) == Some(&b'?') => match b.get(i + 2) {
                Some(b'\'') => return true,
                Some(b'<') if !matches!(b.get(i + 3), Some(b'=' | b'!')) => return true,
                _ => {}
            },
            _ => {}
        }
        i += 1;
    }
    false
}

/// The Unicode classes of Ruby's POSIX brackets (`[:alpha:]`, `[:^digit:]`).
fn posix_class(name: &str) -> Option<&'static str> {
    Some(match name {
        "alpha" => "\\p{Alphabetic}",
        "^alpha" => "\\P{Alphabetic}",
        "digit" => "\\p{Nd}",
        "^digit" => "\\P{Nd}",
        "alnum" => "\\p{Alphabetic}\\p{Nd}",
        "upper" => "\\p{Uppercase}",
        "^upper" => "\\P{Uppercase}",
        "lower" => "\\p{Lowercase}",
        "^lower" => "\\P{Lowercase}",
        "space" => "\\p{White_Space}",
        "^space" => "\\P{White_Space}",
        "punct" => "\\p{P}",
        "^punct" => "\\P{P}",
        "word" => "\\w",
        "^word" => "\\W",
        "xdigit" => "0-9a-fA-F",
        "cntrl" => "\\p{Cc}",
        "^cntrl" => "\\P{Cc}",
        "blank" => "\\p{Zs}\\t",
        _ => return None,
    })
}

// ---- Ruby's printed forms of a regexp -------------------------------------------------

/// Whether Ruby gives a regexp of this source options (the fixed encoding of a source
/// beyond ASCII).
fn has_options(source: &str) -> bool {
    !source.is_ascii()
}

/// `PRegexpType.regexp_to_s` (what `%s` shows): the source, in an options group when the regexp has options.
pub fn to_s(source: &str) -> String {
    if has_options(source) {
        format!("(?-imx:{source})")
    } else {
        source.to_owned()
    }
}

/// `PRegexpType.regexp_to_s_with_delimiters`: `inspect` (`/a\/b/`), or `/#{to_s}/` when the
/// regexp has options.
pub fn to_s_with_delimiters(source: &str) -> String {
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
    fn ruby_dialect() {
        assert!(Regexp::new("^b").is_match("a\nb"));
        assert!(Regexp::new("(?m-ix:a.b)").is_match("a\nb"));
        assert!(!Regexp::new("(?i-mx:a.b)").is_match("a\nb"));
        assert!(Regexp::new("(?i-mx:A)").is_match("a"));
        assert!(Regexp::new("\\h+\\Z").is_match("ff\n"));
        assert!(Regexp::new("(?<x>a)\\k<x>").is_match("aa"));
        assert!(Regexp::new("[]a]").is_match("]"));
        assert!(Regexp::new("(").check().is_err());
        // Ruby's \d, \w and \s are ASCII-only; \b is not.
        assert!(!Regexp::new("\\d").is_match("\u{663}"));
        assert!(!Regexp::new("^\\w$").is_match("é"));
        assert!(Regexp::new("^\\W$").is_match("é"));
        assert!(!Regexp::new("\\s").is_match("\u{a0}"));
        assert!(Regexp::new("^[\\w.]+$").is_match("a_1.b"));
        assert!(Regexp::new("^\\s\\S\\d\\D$").is_match(" x1y"));
        assert!(!Regexp::new("a\\b").is_match("aé"));
        assert!(Regexp::new("^[[:alpha:]]$").is_match("é"));
        assert!(Regexp::new("^[x[:digit:]]+$").is_match("x٣1"));
        assert!(!Regexp::new("^[[:^alpha:]]$").is_match("é"));
        // Octal escapes after \0 (stdlib's Unixpath has `[^\n\/\0]`).
        assert!(Regexp::new("\\A\\/([^\\n\\/\\0]+\\/*)*\\z").is_match("/var/lib"));
        assert!(Regexp::new("\\0").is_match("a\0"));
        assert!(Regexp::new("^a\\01$").is_match("a\u{1}"));
        assert!(Regexp::new("^\\078$").is_match("\u{7}8"));
    }

    #[test]
    fn ruby_to_s_beyond_ascii() {
        assert_eq!(to_s("é+"), "(?-imx:é+)");
        assert_eq!(to_s_with_delimiters("é+"), "/(?-mix:é+)/");
        assert_eq!(to_s_with_delimiters("(?i:é)"), "/(?i-mx:é)/");
        assert_eq!(to_s_with_delimiters("(?i)é"), "/(?i-mx:é)/");
        assert_eq!(to_s_with_delimiters("(?i:a)é"), "/(?-mix:(?i:a)é)/");
        assert_eq!(to_s_with_delimiters("a/b\\/c"), "/a\\/b\\/c/");
        assert_eq!(to_s_with_delimiters("a\u{1}b"), "/a\\x01b/");
        assert_eq!(to_s_with_delimiters("(?i:a)"), "/(?i:a)/");
    }
}
