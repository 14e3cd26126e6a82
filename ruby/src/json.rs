//! Which documents Ruby's JSON parser (the `json` gem 2.6, Debian's Ruby 3.1) refuses, and
//! its message: Puppet reads a module's `metadata.json` with it and repeats the message
//! (`X has an invalid and unparsable metadata.json file. The parse error: 859: unexpected
//! token at '{"name": '`).
//!
//! The gem's Ragel parser is more lenient than the JSON grammar: `/* */` and `//` comments
//! count as blanks, and any character may follow a backslash in a string. Its messages
//! name the line of its C source that raised and quote the rest of the document from where
//! it gave up:
//!
//! | where it fails                       | message                                    |
//! |--------------------------------------|--------------------------------------------|
//! | the document (an object, a string, a literal, or text after the value) | `859: unexpected token at '…'`, from the start of the value that failed, or of the text after it |
//! | inside an array                      | `451: unexpected token at '…'`, from the element or the token it could not take |
//! | `NaN`, `-Infinity`                   | `225: …`, `249: …` from the word                 |
//!
//! An object gives up as a whole (its enclosing array or the document reports it), an array
//! reports where it stopped itself.
//!
//! ```
//! use poppet_ruby::json::parse_error;
//! assert_eq!(parse_error(r#"{"a": 1}"#), None);
//! assert_eq!(parse_error(r#"{"a": 1,}"#).as_deref(), Some(r#"859: unexpected token at '{"a": 1,}'"#));
//! assert_eq!(parse_error("[1,]").as_deref(), Some("451: unexpected token at ']'"));
//! ```

/// Why a value could not be read: it gave up (its container reports it), or it raised.
enum Fail {
    Soft,
    Raised(String),
}

fn raise(code: u32, text: &str, at: usize) -> Fail {
    Fail::Raised(format!("{code}: unexpected token at '{}'", text.get(at..).unwrap_or_default()))
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
}

impl Parser<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.bytes.get(i).copied()
    }

    /// Blanks and comments from `i`: where they end, or where a comment went wrong.
    fn blanks(&self, mut i: usize) -> Result<usize, usize> {
        loop {
            match self.at(i) {
                Some(b' ' | b'\t' | b'\r' | b'\n') => i += 1,
                Some(b'/') => match self.at(i + 1) {
                    Some(b'*') => {
                        let rest = self.bytes.get(i + 2..).unwrap_or_default();
                        match rest.windows(2).position(|w| w == b"*/") {
                            Some(end) => i += 2 + end + 2,
                            None => return Err(self.bytes.len()),
                        }
                    }
                    Some(b'/') => {
                        let rest = self.bytes.get(i + 2..).unwrap_or_default();
                        match rest.iter().position(|&b| b == b'\n') {
                            Some(end) => i += 2 + end + 1,
                            None => return Err(self.bytes.len()),
                        }
                    }
                    _ => return Err(i + 1),
                },
                _ => return Ok(i),
            }
        }
    }

    /// A value starting at `i` (no blanks): where it ends.
    fn value(&self, i: usize) -> Result<usize, Fail> {
        match self.at(i) {
            Some(b'{') => self.object(i),
            Some(b'[') => self.array(i),
            Some(b'"') => self.string(i),
            Some(b'-' | b'0'..=b'9') => {
                if self.text.get(i..).is_some_and(|r| r.starts_with("-Infinity")) {
                    return Err(raise(249, self.text, i));
                }
                self.number(i)
            }
            _ => {
                let rest = self.text.get(i..).unwrap_or_default();
                if rest.starts_with("NaN") {
                    return Err(raise(225, self.text, i));
                }
                ["true", "false", "null"].iter().find(|w| rest.starts_with(**w)).map(|w| i + w.len()).ok_or(Fail::Soft)
            }
        }
    }

    /// `-?(0|[1-9][0-9]*)`, then a fraction or an exponent when complete.
    fn number(&self, start: usize) -> Result<usize, Fail> {
        let digits = |mut i: usize| {
            let from = i;
            while self.at(i).is_some_and(|b| b.is_ascii_digit()) {
                i += 1;
            }
            (i > from).then_some(i)
        };
        let mut i = start;
        if self.at(i) == Some(b'-') {
            i += 1;
        }
        i = match self.at(i) {
            Some(b'0') if self.at(i + 1).is_some_and(|b| b.is_ascii_digit()) => return Err(Fail::Soft),
            Some(b'0') => i + 1,
            _ => digits(i).ok_or(Fail::Soft)?,
        };
        let exponent = |j: usize| {
            let j = if matches!(self.at(j), Some(b'+' | b'-')) { j + 1 } else { j };
            digits(j)
        };
        // A fraction or an exponent that does not complete is left: the integer stays.
        let integer = i;
        Ok(match self.at(i) {
            Some(b'.') => match digits(i + 1) {
                Some(j) if matches!(self.at(j), Some(b'e' | b'E')) => exponent(j + 1).unwrap_or(integer),
                Some(j) => j,
                None => integer,
            },
            Some(b'e' | b'E') => exponent(i + 1).unwrap_or(integer),
            _ => integer,
        })
    }

    fn string(&self, start: usize) -> Result<usize, Fail> {
        let mut i = start + 1;
        loop {
            match self.at(i) {
                None => return Err(Fail::Soft),
                Some(b'"') => return Ok(i + 1),
                Some(b'\\') => match self.at(i + 1) {
                    Some(b'u') => {
                        let hex = self.bytes.get(i + 2..i + 6).unwrap_or_default();
                        if hex.len() != 4 || !hex.iter().all(u8::is_ascii_hexdigit) {
                            return Err(Fail::Soft);
                        }
                        i += 6;
                    }
                    Some(_) => i += 2,
                    None => return Err(Fail::Soft),
                },
                Some(b) if b < 0x20 => return Err(Fail::Soft),
                Some(_) => i += 1,
            }
        }
    }

    /// An object gives up as a whole: an array inside may raise, nothing else does.
    fn object(&self, start: usize) -> Result<usize, Fail> {
        let blanks = |i| self.blanks(i).map_err(|_| Fail::Soft);
        let mut i = blanks(start + 1)?;
        if self.at(i) == Some(b'}') {
            return Ok(i + 1);
        }
        loop {
            if self.at(i) != Some(b'"') {
                return Err(Fail::Soft);
            }
            i = blanks(self.string(i)?)?;
            if self.at(i) != Some(b':') {
                return Err(Fail::Soft);
            }
            i = blanks(i + 1)?;
            i = blanks(self.value(i)?)?;
            match self.at(i) {
                Some(b',') => i = blanks(i + 1)?,
                Some(b'}') => return Ok(i + 1),
                _ => return Err(Fail::Soft),
            }
        }
    }

    /// An array raises where it stops: at an element that gave up, or a token it cannot take.
    fn array(&self, start: usize) -> Result<usize, Fail> {
        let blanks = |i| self.blanks(i).map_err(|at| raise(451, self.text, at));
        let element = |i| match self.value(i) {
            Err(Fail::Soft) => Err(raise(451, self.text, i)),
            other => other,
        };
        let mut i = blanks(start + 1)?;
        if self.at(i) == Some(b']') {
            return Ok(i + 1);
        }
        loop {
            i = blanks(element(i)?)?;
            match self.at(i) {
                Some(b',') => i = blanks(i + 1)?,
                Some(b']') => return Ok(i + 1),
                _ => return Err(raise(451, self.text, i)),
            }
        }
    }
}

/// `None` when Ruby's `JSON.parse` reads `text`, else its error message
/// (`859: unexpected token at '…'`).
pub fn parse_error(text: &str) -> Option<String> {
    let p = Parser { text, bytes: text.as_bytes() };
    let i = match p.blanks(0) {
        Ok(i) => i,
        Err(at) => return Some(message(859, text, at)),
    };
    let end = match p.value(i) {
        Ok(end) => end,
        Err(Fail::Raised(m)) => return Some(m),
        Err(Fail::Soft) => return Some(message(859, text, i)),
    };
    match p.blanks(end) {
        Ok(j) if j == text.len() => None,
        Ok(j) | Err(j) => Some(message(859, text, j)),
    }
}

fn message(code: u32, text: &str, at: usize) -> String {
    format!("{code}: unexpected token at '{}'", text.get(at..).unwrap_or_default())
}

/// A string as Ruby's JSON generator writes it (`JSON.dump`, `generate`): `"` and `\\`
/// escaped, control characters as `\b \f \n \r \t` or `\u00xx`, everything else (`/`,
/// non-ASCII) as it is.
///
/// ```
/// let mut out = String::new();
/// poppet_ruby::json::generate_string("a\"\u{1}/é", &mut out);
/// assert_eq!(out, r#""a\"\u0001/é""#);
/// ```
pub fn generate_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                use std::fmt::Write;
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::parse_error;

    /// Recorded from Ruby 3.1's `JSON.parse` (json 2.6.1), through `Puppet::Util::Json.load`.
    const CASES: &[(&str, Option<&str>)] = &[
        (r#"{"a": 1}"#, None),
        ("[1 //c\n]", None),
        ("//c\n{}", None),
        (r#"["\x"]"#, None),
        ("[1e5, -0.5E-3, 1E+2]", None),
        ("[ -1]", None),
        ("[/* x */]", None),
        ("", Some("859: unexpected token at ''")),
        ("  ", Some("859: unexpected token at ''")),
        ("hello", Some("859: unexpected token at 'hello'")),
        (r#"{"name": "#, Some(r#"859: unexpected token at '{"name": '"#)),
        ("{} {}", Some("859: unexpected token at '{}'")),
        ("\n\n{\"a\":1,}", Some("859: unexpected token at '{\"a\":1,}'")),
        (r#"{"a": {"b": }}"#, Some(r#"859: unexpected token at '{"a": {"b": }}'"#)),
        (r#"{"a": [1,]}"#, Some("451: unexpected token at ']}'")),
        (r#"{"a":[{"b":}]}"#, Some(r#"451: unexpected token at '{"b":}]}'"#)),
        ("[1,]", Some("451: unexpected token at ']'")),
        ("[1 2]", Some("451: unexpected token at '2]'")),
        ("[tru]", Some("451: unexpected token at 'tru]'")),
        ("[1,", Some("451: unexpected token at ''")),
        ("{", Some("859: unexpected token at '{'")),
        ("[01]", Some("451: unexpected token at '01]'")),
        ("[-01]", Some("451: unexpected token at '-01]'")),
        ("[-]", Some("451: unexpected token at '-]'")),
        ("[1.]", Some("451: unexpected token at '.]'")),
        ("[1e]", Some("451: unexpected token at 'e]'")),
        ("[,]", Some("451: unexpected token at ',]'")),
        ("[1,,2]", Some("451: unexpected token at ',2]'")),
        ("[1]]", Some("859: unexpected token at ']'")),
        ("[1]x", Some("859: unexpected token at 'x'")),
        ("{\"a\":1}//c", Some("859: unexpected token at ''")),
        ("[nulll]", Some("451: unexpected token at 'l]'")),
        ("[1x]", Some("451: unexpected token at 'x]'")),
        ("[/x]", Some("451: unexpected token at 'x]'")),
        (r#"["\u00"]"#, Some(r#"451: unexpected token at '"\u00"]'"#)),
        ("[\"\u{1}\"]", Some("451: unexpected token at '\"\u{1}\"]'")),
        ("\"ab\ncd\"", Some("859: unexpected token at '\"ab\ncd\"'")),
        ("NaN", Some("225: unexpected token at 'NaN'")),
        ("{\"a\":NaN}", Some("225: unexpected token at 'NaN}'")),
        ("[-Infinity]", Some("249: unexpected token at '-Infinity]'")),
    ];

    #[test]
    fn rubys_verdicts() {
        for (text, expected) in CASES {
            assert_eq!(parse_error(text).as_deref(), *expected, "{text:?}");
        }
    }
}
