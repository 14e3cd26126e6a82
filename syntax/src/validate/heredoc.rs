//! The checks of a heredoc's text in its syntax (`@(END:json)`), as Puppet's
//! `puppet/syntax_checkers` make them: `json` (Ruby's JSON 2.6 parser, with its messages),
//! `base64`, `pp` (the text parsed and validated as a manifest) and `epp` (the text parsed
//! as a template, its code validated). A text that does not
//! conform stops validation (see the validator's module doc).

use super::validate;
use crate::Diagnostic;

/// What Puppet's syntax checker says of `text` in `syntax`: `Ok` with the checker's message
/// when the text does not conform, `Err` with the error the checker raises when it refuses
/// the syntax itself (the `pp` and `epp` checkers take only their own name: `text+pp` is
/// refused, whatever the text). The checker is the one for the syntax or for its longest
/// `+`-suffix that has one (`foo+json` is checked as JSON). The message comes with the
/// errors Puppet logs before it (the `pp` and `epp` checkers' several validation errors).
pub(super) fn external_syntax(syntax: &str, text: &str) -> Option<Result<(String, Vec<String>), String>> {
    external_syntax_message(syntax, text).transpose()
}

fn external_syntax_message(syntax: &str, text: &str) -> Result<Option<(String, Vec<String>)>, String> {
    let segments: Vec<&str> = syntax.split('+').collect();
    for i in 0..segments.len() {
        let refused =
            |name: &str| Err(format!("{name} syntax checker: the syntax identifier must be a String, e.g. pp"));
        match segments[i..].join("+").as_str() {
            "json" => {
                return Ok(check_json(text).err().map(|e| {
                    let message = format!(
                        "JSON syntax checker: Cannot parse invalid JSON string. \"{}\"",
                        escape_line_breaks(&truncate(&e, 100))
                    );
                    (message, Vec::new())
                }))
            }
            "base64" => return Ok(check_base64(text).map(|message| (message, Vec::new()))),
            "pp" if i > 0 => return refused("PP"),
            "pp" => {
                return Ok(check_pp(text).map(|(e, logged)| {
                    (format!("PP syntax checker: \"{}\"", escape_line_breaks(&truncate(&e, 500))), logged)
                }))
            }
            "epp" if i > 0 => return refused("EPP"),
            "epp" => {
                return Ok(check_epp(text).map(|(e, logged)| {
                    (format!("EPP syntax checker: \"{}\"", escape_line_breaks(&truncate(&e, 500))), logged)
                }))
            }
            _ => {}
        }
    }
    Ok(None)
}

fn truncate(s: &str, chars: usize) -> String {
    s.chars().take(chars).collect()
}

/// `gsub(/\r?\n/, "\\n")`
fn escape_line_breaks(s: &str) -> String {
    s.replace("\r\n", "\\n").replace('\n', "\\n")
}

/// `Base64.strict_decode64` of the text without blanks, line breaks (and `?`).
fn check_base64(text: &str) -> Option<String> {
    let cleaned: Vec<u8> = text.bytes().filter(|b| !matches!(b, b'\r' | b'?' | b'\n' | b' ' | b'\t')).collect();
    if strict_base64(&cleaned) {
        return None;
    }
    Some(if !(cleaned.len() * 8).is_multiple_of(6) {
        "Base64 syntax checker: Cannot parse invalid Base64 string - padding is not correct".into()
    } else {
        "Base64 syntax checker: Cannot parse invalid Base64 string - contains letters outside strict base 64 range (or whitespace)".into()
    })
}

fn strict_base64(b: &[u8]) -> bool {
    let value = |c: u8| -> Option<u8> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    if !b.len().is_multiple_of(4) {
        return false;
    }
    let groups = b.len() / 4;
    for (i, group) in b.chunks(4).enumerate() {
        let last = i + 1 == groups;
        match group {
            [a, c, b'=', b'='] if last => {
                let (Some(_), Some(c)) = (value(*a), value(*c)) else {
                    return false;
                };
                if c & 0xf != 0 {
                    return false;
                }
            }
            [a, c, d, b'='] if last => {
                let (Some(_), Some(_), Some(d)) = (value(*a), value(*c), value(*d)) else {
                    return false;
                };
                if d & 0x3 != 0 {
                    return false;
                }
            }
            _ => {
                if group.iter().any(|c| value(*c).is_none()) {
                    return false;
                }
            }
        }
    }
    true
}

/// Puppet parses (and validates) the text as a manifest; the message is its error's, with
/// the errors it logged first when there were several.
fn check_pp(text: &str) -> Option<(String, Vec<String>)> {
    let with_position = |d: &Diagnostic| {
        if d.message.ends_with("end of input") {
            d.message.clone()
        } else {
            format!("{} (line: {}, column: {})", d.message, d.span.line, d.span.column)
        }
    };
    match crate::parse(text) {
        Err(diagnostics) => diagnostics.first().map(|d| (with_position(d), Vec::new())),
        Ok(program) => {
            let diagnostics = validate(&program);
            let errors: Vec<&Diagnostic> =
                diagnostics.iter().filter(|d| d.severity == crate::Severity::Error).collect();
            let warnings = diagnostics.len() - errors.len();
            let logged = || errors.iter().map(|d| d.message.clone()).collect();
            match errors.len() {
                0 => None,
                1 => Some((with_position(errors[0]), Vec::new())),
                n if warnings > 0 => Some((
                    format!("Language validation logged {n} errors, and {warnings} warnings. Giving up"),
                    logged(),
                )),
                n => Some((format!("Language validation logged {n} errors. Giving up"), logged())),
            }
        }
    }
}

/// The template parsed as `EvaluatingEppParser#parse_string` parses it (and validates its
/// code): the message of its error, with its place in the text unless it is at the end, and
/// the errors logged before it.
fn check_epp(text: &str) -> Option<(String, Vec<String>)> {
    let d = crate::epp::parse_template(text).err()?;
    let message = if d.span.line == 0 {
        d.message
    } else {
        format!("{} (line: {}, column: {})", d.message, d.span.line, d.span.column)
    };
    Some((message, d.logged))
}

/// Ruby's JSON 2.6 parser (`JSON.parse`, as Puppet 7.23 runs it): `Err` holds its message,
/// `NNN: unexpected token at 'REST'` (NNN is the line of the parser's C source that gave up;
/// REST the text from where it did).
fn check_json(text: &str) -> Result<(), String> {
    let parser = Json { s: text.as_bytes(), text };
    let fail = |p| Err(parser.unexpected(859, p));
    let p = match parser.ignore(0) {
        Ok(p) => p,
        Err(p) => return fail(p),
    };
    if !parser.s.get(p).is_some_and(|&c| Json::begins_value(c)) {
        return fail(p);
    }
    let Some(np) = parser.value(p, 0)? else {
        return fail(p);
    };
    match parser.ignore(np) {
        Ok(end) if end == parser.s.len() => Ok(()),
        Ok(q) | Err(q) => fail(q),
    }
}

struct Json<'t> {
    s: &'t [u8],
    text: &'t str,
}

impl Json<'_> {
    fn unexpected(&self, line: u32, at: usize) -> String {
        let rest = self.text.get(at..).unwrap_or("");
        format!("{line}: unexpected token at '{rest}'")
    }

    fn begins_value(c: u8) -> bool {
        matches!(c, b'n' | b'f' | b't' | b'"' | b'-' | b'[' | b'{' | b'N' | b'I') || c.is_ascii_digit()
    }

    /// Skips blanks and comments (`/* */`, `//` to the end of a line): `Err` with where the
    /// scan failed for a comment cut short (its end, or the character after a lone `/`).
    fn ignore(&self, mut p: usize) -> Result<usize, usize> {
        let s = self.s;
        loop {
            match s.get(p) {
                Some(b' ' | b'\t' | b'\r' | b'\n') => p += 1,
                Some(b'/') => match s.get(p + 1) {
                    Some(b'*') => match self.text[p + 2..].find("*/") {
                        Some(i) => p = p + 2 + i + 2,
                        None => return Err(s.len()),
                    },
                    Some(b'/') => match s[p + 2..].iter().position(|&c| c == b'\n') {
                        Some(i) => p = p + 2 + i + 1,
                        None => return Err(s.len()),
                    },
                    None => return Err(s.len()),
                    Some(_) => return Err(p + 1),
                },
                _ => return Ok(p),
            }
        }
    }

    /// A value at `p` (which begins one): the position after it, `None` when it is not a
    /// value (the caller reports), `Err` when the parser raises from inside.
    fn value(&self, p: usize, nesting: usize) -> Result<Option<usize>, String> {
        let s = self.s;
        let rest = &s[p..];
        let word = |w: &[u8]| rest.starts_with(w);
        let np = match s[p] {
            b'n' if word(b"null") => p + 4,
            b'f' if word(b"false") => p + 5,
            b't' if word(b"true") => p + 4,
            b'N' if word(b"NaN") => return Err(self.unexpected(225, p)),
            b'I' if word(b"Infinity") => {
                return Err(if p == 0 { "232: unexpected token at ''".into() } else { self.unexpected(232, p - 1) })
            }
            b'-' if word(b"-Infinity") => return Err(self.unexpected(249, p)),
            b'-' | b'0'..=b'9' => match self.number(p) {
                Some(np) => np,
                None => return Ok(None),
            },
            b'"' => match self.string(p)? {
                Some(np) => np,
                None => return Ok(None),
            },
            b'[' => return self.array(p, nesting + 1).map(Some),
            b'{' => return self.object(p, nesting + 1),
            _ => return Ok(None),
        };
        Ok(Some(np))
    }

    /// `-?(0|[1-9][0-9]*)` with a fraction or an exponent (or both), or without: the number
    /// must not be followed by what could continue it.
    fn number(&self, p: usize) -> Option<usize> {
        let s = self.s;
        let digits = |mut q: usize| {
            let from = q;
            while s.get(q).is_some_and(u8::is_ascii_digit) {
                q += 1;
            }
            (q > from).then_some(q)
        };
        let mut q = p;
        if s[q] == b'-' {
            q += 1;
        }
        let int_end = match s.get(q) {
            Some(b'0') => q + 1,
            Some(b'1'..=b'9') => digits(q)?,
            _ => return None,
        };
        let exponent = |q: usize| -> Option<usize> {
            let mut q = q;
            if matches!(s.get(q), Some(b'e' | b'E')) {
                q += 1;
                if matches!(s.get(q), Some(b'+' | b'-')) {
                    q += 1;
                }
                return digits(q);
            }
            None
        };
        // The float machine: a fraction, an exponent, or both, then no [0-9Ee.-].
        let float = (|| {
            let mut q = int_end;
            let mut is_float = false;
            if s.get(q) == Some(&b'.') {
                q = digits(q + 1)?;
                is_float = true;
                if matches!(s.get(q), Some(b'e' | b'E')) {
                    q = exponent(q)?;
                }
            } else if matches!(s.get(q), Some(b'e' | b'E')) {
                q = exponent(q)?;
                is_float = true;
            }
            if !is_float || matches!(s.get(q), Some(b'0'..=b'9' | b'E' | b'e' | b'.' | b'-')) {
                return None;
            }
            Some(q)
        })();
        if float.is_some() {
            return float;
        }
        // The integer machine: then no digit.
        if s.get(int_end).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        Some(int_end)
    }

    fn string(&self, p: usize) -> Result<Option<usize>, String> {
        let s = self.s;
        let mut q = p + 1;
        loop {
            match s.get(q) {
                None => return Ok(None),
                Some(b'"') => return Ok(Some(q + 1)),
                Some(c) if *c < 0x20 => return Ok(None),
                Some(b'\\') => match s.get(q + 1) {
                    Some(b'u') => {
                        let hex = |at: usize| s.get(at..at + 4).filter(|h| h.iter().all(u8::is_ascii_hexdigit));
                        let Some(h) = hex(q + 2) else { return Ok(None) };
                        let code = u32::from_str_radix(std::str::from_utf8(h).unwrap_or("0"), 16).unwrap_or(0);
                        if (0xD800..0xDC00).contains(&code) {
                            let low = s.get(q + 6..q + 8) == Some(b"\\u".as_slice())
                                && hex(q + 8).is_some_and(|l| {
                                    let l = u32::from_str_radix(std::str::from_utf8(l).unwrap_or("0"), 16).unwrap_or(0);
                                    (0xDC00..0xE000).contains(&l)
                                });
                            if !low {
                                return Err(format!("521: incomplete surrogate pair at '{}'", &self.text[q..]));
                            }
                        }
                        q += 6;
                    }
                    Some(c) if *c >= 0x20 => q += 2,
                    _ => return Ok(None),
                },
                Some(_) => q += 1,
            }
        }
    }

    fn nesting(&self, nesting: usize) -> Result<(), String> {
        if nesting > 100 {
            return Err(format!("nesting of {nesting} is too deep"));
        }
        Ok(())
    }

    /// An array raises where it fails (line 451).
    fn array(&self, p: usize, nesting: usize) -> Result<usize, String> {
        self.nesting(nesting)?;
        let s = self.s;
        let skip = |q| self.ignore(q).map_err(|at| self.unexpected(451, at));
        let mut q = skip(p + 1)?;
        if s.get(q) == Some(&b']') {
            return Ok(q + 1);
        }
        loop {
            if !s.get(q).is_some_and(|&c| Json::begins_value(c)) {
                return Err(self.unexpected(451, q));
            }
            match self.value(q, nesting)? {
                Some(np) => q = skip(np)?,
                None => return Err(self.unexpected(451, q)),
            }
            match s.get(q) {
                Some(b']') => return Ok(q + 1),
                Some(b',') => q = skip(q + 1)?,
                _ => return Err(self.unexpected(451, q)),
            }
        }
    }

    /// An object that fails is not a value: the caller reports at its `{`.
    fn object(&self, p: usize, nesting: usize) -> Result<Option<usize>, String> {
        self.nesting(nesting)?;
        let s = self.s;
        let Ok(mut q) = self.ignore(p + 1) else {
            return Ok(None);
        };
        if s.get(q) == Some(&b'}') {
            return Ok(Some(q + 1));
        }
        loop {
            if s.get(q) != Some(&b'"') {
                return Ok(None);
            }
            let Some(np) = self.string(q)? else {
                return Ok(None);
            };
            let Ok(colon) = self.ignore(np) else {
                return Ok(None);
            };
            if s.get(colon) != Some(&b':') {
                return Ok(None);
            }
            let Ok(v) = self.ignore(colon + 1) else {
                return Ok(None);
            };
            if !s.get(v).is_some_and(|&c| Json::begins_value(c)) {
                return Ok(None);
            }
            let Some(np) = self.value(v, nesting)? else {
                return Ok(None);
            };
            let Ok(next) = self.ignore(np) else {
                return Ok(None);
            };
            match s.get(next) {
                Some(b'}') => return Ok(Some(next + 1)),
                Some(b',') => match self.ignore(next + 1) {
                    Ok(after) => q = after,
                    Err(_) => return Ok(None),
                },
                _ => return Ok(None),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::check_json;

    /// Messages recorded from Ruby 3.1's JSON 2.6.1 (`JSON.parse(text)`), as Puppet 7.23 uses it.
    #[test]
    fn json_errors_are_rubys() {
        let cases: &[(&str, Option<&str>)] = &[
            ("{\"a\": 1}", None),
            ("[1, 2.5e3, -0, true, false, null, \"a\\u00e9\\n\"]", None),
            ("/* c */ 1", None),
            ("// c\n1", None),
            ("[1/*x*/]", None),
            ("{ }", None),
            ("{\"a\": }", Some("859: unexpected token at '{\"a\": }'")),
            ("[1,]", Some("451: unexpected token at ']'")),
            ("{", Some("859: unexpected token at '{'")),
            ("abc", Some("859: unexpected token at 'abc'")),
            ("", Some("859: unexpected token at ''")),
            ("  ", Some("859: unexpected token at ''")),
            ("[1 2]", Some("451: unexpected token at '2]'")),
            ("1 2", Some("859: unexpected token at '2'")),
            ("nul", Some("859: unexpected token at 'nul'")),
            ("[1, tru]", Some("451: unexpected token at 'tru]'")),
            (" {\"a\": [1, {\"b\": }]}", Some("451: unexpected token at '{\"b\": }]}'")),
            ("-", Some("859: unexpected token at '-'")),
            ("[-]", Some("451: unexpected token at '-]'")),
            ("01", Some("859: unexpected token at '01'")),
            ("[01]", Some("451: unexpected token at '01]'")),
            ("1.", Some("859: unexpected token at '.'")),
            ("[1.]", Some("451: unexpected token at '.]'")),
            ("NaN", Some("225: unexpected token at 'NaN'")),
            ("-Infinity", Some("249: unexpected token at '-Infinity'")),
            ("Infinity", Some("232: unexpected token at ''")),
            ("[1,Infinity,2]", Some("232: unexpected token at ',Infinity,2]'")),
            ("{\"a\":1}x", Some("859: unexpected token at 'x'")),
            ("[1]]", Some("859: unexpected token at ']'")),
            ("1.5.3", Some("859: unexpected token at '.5.3'")),
            ("[1.5e]", Some("451: unexpected token at '.5e]'")),
            ("[1E+]", Some("451: unexpected token at 'E+]'")),
            ("-01", Some("859: unexpected token at '-01'")),
            ("\"a\nb\"", Some("859: unexpected token at '\"a\nb\"'")),
            ("[", Some("451: unexpected token at ''")),
            ("[[1,2]", Some("451: unexpected token at ''")),
            ("{\"a\":[}", Some("451: unexpected token at '}'")),
            ("[{]", Some("451: unexpected token at '{]'")),
            ("{\"a\":{\"b\":}}", Some("859: unexpected token at '{\"a\":{\"b\":}}'")),
            ("[truex]", Some("451: unexpected token at 'x]'")),
            ("nullx", Some("859: unexpected token at 'x'")),
            ("/", Some("859: unexpected token at ''")),
            ("/x", Some("859: unexpected token at 'x'")),
            ("[1/x]", Some("451: unexpected token at 'x]'")),
            ("\"\\ud800\"", Some("521: incomplete surrogate pair at '\\ud800\"'")),
        ];
        for (text, expected) in cases {
            assert_eq!(check_json(text).err().as_deref(), *expected, "{text:?}");
        }
        let deep = format!("{}{}", "[".repeat(101), "]".repeat(101));
        assert_eq!(check_json(&deep).err().as_deref(), Some("nesting of 101 is too deep"));
        let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert_eq!(check_json(&ok), Ok(()));
    }
}
