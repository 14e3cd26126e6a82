//! Ruby's `String#scanf` (the `scanf` library, version 1.1.2, which Puppet's `scanf` function
//! requires but which Ruby 3.1 no longer ships), reimplemented the way the library works: the
//! format is cut into specifiers, each one a regular expression anchored at the start of what
//! is left of the input; scanning stops at the first specifier that does not match (or when
//! the input is used up), and the conversions made so far are the result.
//!
//! | specifier            | matches (after skipping white space)      | result                      |
//! |----------------------|-------------------------------------------|-----------------------------|
//! | `%d` `%u`            | `[-+]?\d+`                                | Integer (`to_i`)            |
//! | `%i`                 | `[-+]?` then `0[0-7]+`, `0x` hex or decimal | Integer (`Integer()`)     |
//! | `%x` `%X`            | `[-+]?(0x)?` hex digits                   | Integer (`hex`)             |
//! | `%o`                 | `[-+]?[0-7]+`                             | Integer (`oct`)             |
//! | `%f %e %g %a` (any case) | a decimal or hexadecimal float        | Float                       |
//! | `%s`                 | `\S+`                                     | String                      |
//! | `%c`                 | one character, white space included       | String                      |
//! | `%[set]` `%[^set]`   | characters of a regexp character class (no skipping) | String           |
//! | `%%`                 | `%`                                       | nothing                     |
//! | other text           | itself; white space in the format is dropped | nothing                  |
//!
//! A width (`%3d`, `%5c`, `%4[a-z]`) bounds the characters taken; `%*d` matches without
//! adding its conversion. Everything follows `scanf.rb`: its regular expressions (Ruby's
//! dialect, multi-line), its case analysis of a specifier by unanchored regexps (so `%D` is
//! literal text), and its quirks (`%i` does not read a lone `0`; `%[...]` needs the
//! character after the run to be outside the set).

use num_bigint::BigInt;
use num_traits::{Num, ToPrimitive};
use puppet_types::regexp::Regexp;
use puppet_types::Value;

use crate::error::{fail, Eval};

/// The tokenizer of the format (`FormatString::REGEX`, case-insensitive).
const FORMAT_TOKENS: &str = r"(?i)(?:\s*%(?:%|\*?\d*(?:\[\[:\w+:\]\]|\[[^\]]*\]|[diuXxofFeEgGscaA])))|[^%\s]+";

const HEX_DIGIT: &str = "[A-Fa-f0-9]";

#[derive(Clone, Copy, PartialEq)]
enum Handler {
    Float,
    Decimal,
    Hex,
    Octal,
    Integer,
    Plain,
    Nil,
}

struct Spec {
    re: Regexp,
    handler: Handler,
    /// `%*...`: matched, not converted.
    skip: bool,
    /// The specifier matches white space itself (`%c` at the start or after text, `%[`).
    count_space: bool,
}

fn re(src: &str) -> Regexp {
    Regexp::new(src)
}

/// The groups of a Ruby regexp's first match in `s` (`None`: no match).
fn groups(pattern: &str, s: &str) -> Option<Vec<Option<String>>> {
    re(pattern).captures(s)
}

fn group(g: &[Option<String>], i: usize) -> String {
    g.get(i).cloned().flatten().unwrap_or_default()
}

impl Spec {
    /// `FormatSpecifier.new`.
    fn new(spec: &str) -> Eval<Spec> {
        let h = HEX_DIGIT;
        let (re_string, handler) = if let Some(g) = groups(r"%\*?(\[\[:[a-z]+:\]\])", spec) {
            (format!("({}+)", group(&g, 1)), Handler::Plain)
        } else if let Some(g) = groups(r"%\*?(\d+)(\[\[:[a-z]+:\]\])", spec) {
            (format!("({}{{1,{}}})", group(&g, 2), group(&g, 1)), Handler::Plain)
        } else if let Some(g) = groups(r"%\*?\[([^\]]*)\]", spec) {
            let yes = group(&g, 1);
            let no = match yes.strip_prefix('^') {
                Some(rest) => rest.to_string(),
                None => format!("^{yes}"),
            };
            (format!("([{yes}]+)(?=[{no}]|\\z)"), Handler::Plain)
        } else if let Some(g) = groups(r"%\*?(\d+)\[([^\]]*)\]", spec) {
            (format!("([{}]{{1,{}}})", group(&g, 2), group(&g, 1)), Handler::Plain)
        } else if re(r"%\*?i").is_match(spec) {
            (format!("([-+]?(?:(?:0[0-7]+)|(?:0[Xx]{h}+)|(?:[1-9]\\d*)))"), Handler::Integer)
        } else if let Some(g) = groups(r"%\*?(\d+)i", spec) {
            let n = width(&g)?;
            let mut s = String::from("(");
            if n > 1 {
                s += &format!("[1-9]\\d{{1,{}}}|", n - 1);
                s += &format!("0[0-7]{{1,{}}}|", n - 1);
            }
            if n > 2 {
                s += &format!("[-+]0[0-7]{{1,{}}}|", n - 2);
                s += &format!("[-+][1-9]\\d{{1,{}}}|", n - 2);
                s += &format!("0[Xx]{h}{{1,{}}}|", n - 2);
            }
            if n > 3 {
                s += &format!("[-+]0[Xx]{h}{{1,{}}}|", n - 3);
            }
            s += "\\d)";
            (s, Handler::Integer)
        } else if re(r"%\*?[du]").is_match(spec) {
            (r"([-+]?\d+)".to_string(), Handler::Decimal)
        } else if let Some(g) = groups(r"%\*?(\d+)[du]", spec) {
            let n = width(&g)?;
            let mut s = String::from("(");
            if n > 1 {
                s += &format!("[-+]\\d{{1,{}}}|", n - 1);
            }
            s += &format!("\\d{{1,{n}}})");
            (s, Handler::Decimal)
        } else if re(r"%\*?[Xx]").is_match(spec) {
            (format!("([-+]?(?:0[Xx])?{h}+)"), Handler::Hex)
        } else if let Some(g) = groups(r"%\*?(\d+)[Xx]", spec) {
            let n = width(&g)?;
            let mut s = String::from("(");
            if n > 3 {
                s += &format!("[-+]0[Xx]{h}{{1,{}}}|", n - 3);
            }
            if n > 2 {
                s += &format!("0[Xx]{h}{{1,{}}}|", n - 2);
            }
            if n > 1 {
                s += &format!("[-+]{h}{{1,{}}}|", n - 1);
            }
            s += &format!("{h}{{1,{n}}})");
            (s, Handler::Hex)
        } else if re(r"%\*?o").is_match(spec) {
            (r"([-+]?[0-7]+)".to_string(), Handler::Octal)
        } else if let Some(g) = groups(r"%\*?(\d+)o", spec) {
            let n = width(&g)?;
            (format!("([-+][0-7]{{1,{}}}|[0-7]{{1,{n}}})", n - 1), Handler::Octal)
        } else if re(r"%\*?[aefgAEFG]").is_match(spec) {
            (
                r"([-+]?(?:0[xX](?:\.\h+|\h+(?:\.\h*)?)[pP][-+]?\d+|\d+(?![\d.])|\d*\.\d*(?:[eE][-+]?\d+)?))"
                    .to_string(),
                Handler::Float,
            )
        } else if let Some(g) = groups(r"%\*?(\d+)[aefgAEFG]", spec) {
            (
                format!(
                    r"(?=[-+]?(?:0[xX](?:\.\h+|\h+(?:\.\h*)?)[pP][-+]?\d+|\d+(?![\d.])|\d*\.\d*(?:[eE][-+]?\d+)?))(\S{{1,{}}})",
                    group(&g, 1)
                ),
                Handler::Float,
            )
        } else if let Some(g) = groups(r"%\*?(\d+)s", spec) {
            (format!("(\\S{{1,{}}})", group(&g, 1)), Handler::Plain)
        } else if re(r"%\*?s").is_match(spec) {
            (r"(\S+)".to_string(), Handler::Plain)
        } else if re(r"\s%\*?c").is_match(spec) {
            (r"\s*(.)".to_string(), Handler::Plain)
        } else if re(r"%\*?c").is_match(spec) {
            ("(.)".to_string(), Handler::Plain)
        } else if let Some(g) = groups(r"%\*?(\d+)c", spec) {
            (format!("(.{{1,{}}})", group(&g, 1)), Handler::Plain)
        } else if spec.contains("%%") {
            (r"(\s*%)".to_string(), Handler::Nil)
        } else {
            (format!("({})", Regexp::escape(spec)), Handler::Nil)
        };
        let source = format!("\\A{re_string}");
        // Ruby's own check of the regexp (a `%[...]` set is Ruby regexp syntax)
        if let Err(e) = puppet_types::new::regexp::new_regexp(&[Value::from(source.as_str())]) {
            return Err(fail(format!("{}m", e.message)));
        }
        let compiled = Regexp::new(format!("(?m){source}"));
        compiled.check().map_err(|e| fail(format!("{e}: /{source}/m")))?;
        Ok(Spec {
            re: compiled,
            handler,
            skip: re(r"^\s*%\*").is_match(spec),
            count_space: re(r"(?:\A|\S)%\*?\d*c|%\d*\[").is_match(spec),
        })
    }

    /// `FormatSpecifier#match`: the conversion (`None` for none) and the rest of the input,
    /// or `None` when it does not match.
    fn apply<'s>(&self, input: &'s str) -> Eval<Option<(Option<Value>, &'s str)>> {
        let s = if self.count_space { input } else { input.trim_start_matches(is_space) };
        let compiled = self.re.compiled().map_err(fail)?;
        let caps = match compiled.captures(s) {
            Ok(Some(c)) => c,
            Ok(None) => return Ok(None),
            Err(e) => return Err(fail(format!("scanf: {e}"))),
        };
        let end = caps.get(0).map_or(0, |m| m.end());
        let text = caps.get(1).map(|m| m.as_str());
        let conversion = match (text, self.skip) {
            (Some(t), false) => convert(self.handler, t)?,
            _ => None,
        };
        Ok(Some((conversion, &s[end..])))
    }
}

fn width(g: &[Option<String>]) -> Eval<i64> {
    group(g, 1).parse::<i64>().ok().filter(|n| *n < 100_000).ok_or_else(|| fail("scanf: field width too big"))
}

/// Ruby's `\s`.
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

fn integer(b: BigInt) -> Eval<Option<Value>> {
    match b.to_i64() {
        Some(i) => Ok(Some(Value::Integer(i))),
        None => Err(fail(format!(
            "Use of a Ruby Integer outside of Puppet Integer {} range, got '0x{:x}'",
            if b.sign() == num_bigint::Sign::Minus { "min" } else { "max" },
            b.magnitude()
        ))),
    }
}

/// Digits with an optional sign in `radix`, as Ruby's `to_i`, `hex` and `oct` read the
/// leading part of a string (`0` when there are none).
fn leading_int(s: &str, radix: u32) -> BigInt {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let body =
        if radix == 16 { body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")).unwrap_or(body) } else { body };
    let digits: String = body.chars().take_while(|c| c.is_digit(radix)).collect();
    let v = BigInt::from_str_radix(if digits.is_empty() { "0" } else { &digits }, radix).unwrap_or_default();
    if neg {
        -v
    } else {
        v
    }
}

/// `Integer(s)` of what `%i` matched: `0x` hex, a leading `0` octal, else decimal.
fn strict_integer(s: &str) -> Eval<BigInt> {
    poppet_ruby::kernel::integer(s, None)
        .ok_or_else(|| fail(format!("invalid value for Integer(): {}", poppet_ruby::string::inspect(s))))
}

/// Ruby's `String#to_f`: the longest leading decimal float, `0.0` when there is none.
fn ruby_to_f(s: &str) -> f64 {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut end = i;
    let had_int = i > int_start;
    if i < b.len() && b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        end = i;
    } else if !had_int {
        return 0.0;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'-' | b'+')) {
            j += 1;
        }
        if b.get(j).is_some_and(u8::is_ascii_digit) {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            end = j;
        }
    }
    s[..end].parse::<f64>().unwrap_or(0.0)
}

/// `extract_float`.
fn float(s: &str) -> f64 {
    if let Some(g) = groups(r"\A(?<sign>[-+]?)0[xX](?<frac>\.\h+|\h+(?:\.\h*)?)[pP](?<exp>[-+]?\d+)", s) {
        let (sign, frac, exp) = (group(&g, 1), group(&g, 2), group(&g, 3));
        let (f1, f2) = match frac.split_once('.') {
            Some((a, b)) => (a.to_string(), b.to_string()),
            None => (frac.clone(), String::new()),
        };
        let mut f = leading_int(&f1, 16).to_f64().unwrap_or(f64::INFINITY);
        if !f2.is_empty() {
            f += leading_int(&f2, 16).to_f64().unwrap_or(f64::INFINITY) / 16f64.powi(f2.len() as i32);
        }
        let exp = exp.parse::<i64>().unwrap_or(0).clamp(-100_000, 100_000) as i32;
        let v = f * 2f64.powi(exp);
        return if sign == "-" { -v } else { v };
    }
    if let Some(g) = groups(r"\A([-+]?\d+)\.([eE][-+]\d+)", s) {
        return ruby_to_f(&format!("{}{}", group(&g, 1), group(&g, 2)));
    }
    ruby_to_f(s)
}

fn convert(handler: Handler, s: &str) -> Eval<Option<Value>> {
    match handler {
        Handler::Float => Ok(Some(Value::Float(float(s)))),
        Handler::Decimal => integer(leading_int(s, 10)),
        Handler::Hex => integer(leading_int(s, 16)),
        Handler::Octal => integer(leading_int(s, 8)),
        Handler::Integer => integer(strict_integer(s)?),
        Handler::Plain => Ok(Some(Value::from(s))),
        Handler::Nil => Ok(None),
    }
}

/// `data.scanf(format)`: the conversions until the first specifier that does not match.
pub(crate) fn scanf(data: &str, format: &str) -> Eval<Vec<Value>> {
    if !format.chars().any(|c| !is_space(c)) {
        return Ok(Vec::new());
    }
    let tokens = Regexp::new(FORMAT_TOKENS);
    let compiled = tokens.compiled().map_err(fail)?;
    let mut specs = Vec::new();
    for m in compiled.find_iter(format) {
        let m = m.map_err(|e| fail(format!("scanf: {e}")))?;
        specs.push(Spec::new(m.as_str())?);
    }
    let mut out = Vec::new();
    let mut left = data;
    for spec in &specs {
        let Some((conversion, rest)) = spec.apply(left)? else { break };
        out.extend(conversion);
        left = rest;
        if left.is_empty() {
            break;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(data: &str, format: &str) -> String {
        match scanf(data, format) {
            Ok(v) => puppet_types::display::value_to_s(&Value::array(v)),
            Err(crate::error::Flow::Error(e)) => format!("error: {}", e.message),
            Err(_) => "flow".into(),
        }
    }

    #[test]
    fn conversions() {
        assert_eq!(show("123 abc 456", "%d%s%d"), "[123, abc, 456]");
        assert_eq!(show("  -12", "%d"), "[-12]");
        assert_eq!(show("0x1f 17 0755", "%x %o %i"), "[31, 15, 493]");
        assert_eq!(show("1.5 2e3 .5", "%f %f %f"), "[1.5, 2.0]");
        assert_eq!(show("1.5 2.e3 .5", "%f %f %f"), "[1.5, 2.0, 0.5]");
        assert_eq!(show("2.e+3", "%f"), "[2000.0]");
        assert_eq!(show("ab", "%c%c"), "[a, b]");
        assert_eq!(show("hello world", "%[a-z]"), "[hello]");
        assert_eq!(show("a1b", "%d"), "[]");
        assert_eq!(show("12abc", "%*d%s"), "[abc]");
        assert_eq!(show("12345", "%2d%3d"), "[12, 345]");
        assert_eq!(show("x=5", "x=%d"), "[5]");
        assert_eq!(show("5%", "%d%%"), "[5]");
        assert_eq!(show("abc", ""), "[]");
    }
}
