//! The Ruby behaviour the `new` functions inherit: `Kernel#Integer` and `Kernel#Float` on
//! strings, and the way Ruby 3.1 writes values into its own messages (`String#inspect`,
//! `to_s`, `NoMethodError`; a value's `inspect` and class are [`crate::params`]'s, which the
//! evaluator shares).

use num_bigint::BigInt;

use crate::display::float_to_s;
use crate::error::Error;
use crate::int::Int;
use crate::value::Value;

/// Ruby's `ISSPACE`: what `Integer()` and `Float()` skip around a number.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// `Kernel#Integer(s)` (`radix` None: detected from a `0x`/`0b`/`0o`/`0d`/`0` prefix) or
/// `Kernel#Integer(s, radix)` (an optional matching prefix is allowed):
///
/// | prefix        | radix |
/// |---------------|-------|
/// | `0x` `0X`     | 16    |
/// | `0b` `0B`     | 2     |
/// | `0o` `0O` `0` | 8     |
/// | `0d` `0D`     | 10    |
/// | none          | 10    |
///
/// Leading and trailing whitespace, one sign, and single underscores between digits are
/// allowed. `Err(())` is Ruby's `invalid value for Integer()`. The number may be of any size.
pub(crate) fn parse_integer(s: &str, radix: Option<u32>) -> Result<Int, ()> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && is_space(b[i]) {
        i += 1;
    }
    let mut negative = false;
    if let Some(&c) = b.get(i) {
        if c == b'+' || c == b'-' {
            negative = c == b'-';
            i += 1;
        }
    }
    let (base, skip) = prefix(&b[i..], radix);
    i += skip;
    let end = {
        let mut e = b.len();
        while e > i && is_space(b[e - 1]) {
            e -= 1;
        }
        e
    };
    let digits = &b[i..end];
    let magnitude = parse_digits(digits, base)?;
    Ok(Int::from_big(if negative { -magnitude } else { magnitude }))
}

/// The radix and the length of the prefix to skip.
fn prefix(b: &[u8], radix: Option<u32>) -> (u32, usize) {
    let second = b.get(1).map(|c| c.to_ascii_lowercase());
    let zero = b.first() == Some(&b'0');
    match radix {
        None if zero => match second {
            Some(b'x') => (16, 2),
            Some(b'b') => (2, 2),
            Some(b'o') => (8, 2),
            Some(b'd') => (10, 2),
            Some(b'_') => (8, 2),
            Some(c) if c.is_ascii_digit() => (8, 1),
            _ => (10, 0),
        },
        None => (10, 0),
        Some(16) if zero && second == Some(b'x') => (16, 2),
        Some(2) if zero && second == Some(b'b') => (2, 2),
        Some(8) if zero && second == Some(b'o') => (8, 2),
        Some(10) if zero && second == Some(b'd') => (10, 2),
        Some(r) => (r, 0),
    }
}

/// Digits in `base` with single underscores between them.
fn parse_digits(digits: &[u8], base: u32) -> Result<BigInt, ()> {
    if !(2..=36).contains(&base) || digits.is_empty() || digits[0] == b'_' || digits[digits.len() - 1] == b'_' {
        return Err(());
    }
    // u128 arithmetic while it lasts, a BigInt beyond
    let mut acc: Option<u128> = Some(0);
    let mut big: Option<BigInt> = None;
    let mut prev_underscore = false;
    for &c in digits {
        if c == b'_' {
            if prev_underscore {
                return Err(());
            }
            prev_underscore = true;
            continue;
        }
        prev_underscore = false;
        let d = (c as char).to_digit(base).ok_or(())?;
        match acc.and_then(|a| a.checked_mul(base as u128)).and_then(|a| a.checked_add(d as u128)) {
            Some(a) => acc = Some(a),
            None => {
                let b = big.take().unwrap_or_else(|| BigInt::from(acc.unwrap_or(0)));
                big = Some(b * base + d);
                acc = None;
            }
        }
    }
    Ok(big.unwrap_or_else(|| BigInt::from(acc.unwrap_or(0))))
}

/// `Kernel#Float(s)`: a decimal number (`1`, `1.5`, `1e3`, `1.5E-3`) or a hexadecimal
/// integer (`0x1F`), with one sign and surrounding whitespace. A value beyond the range of
/// a double is an infinity, as in Ruby.
pub(crate) fn parse_float(s: &str) -> Result<f64, ()> {
    let t = s.trim_matches(|c: char| c.is_ascii() && is_space(c as u8));
    let (negative, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let value = if body.len() > 2 && (body.starts_with("0x") || body.starts_with("0X")) {
        hex_float(&body[2..])?
    } else {
        decimal_float(body)?
    };
    Ok(if negative { -value } else { value })
}

fn hex_float(digits: &str) -> Result<f64, ()> {
    let clean = strip_underscores(digits)?;
    let mut v = 0f64;
    for c in clean.chars() {
        v = v * 16.0 + f64::from(c.to_digit(16).ok_or(())?);
    }
    Ok(v)
}

fn decimal_float(body: &str) -> Result<f64, ()> {
    let clean = strip_underscores(body)?;
    let b = clean.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > start
    };
    if !digits(&mut i) {
        return Err(());
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if !digits(&mut i) {
            return Err(());
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if !digits(&mut i) {
            return Err(());
        }
    }
    if i != b.len() {
        return Err(());
    }
    clean.parse::<f64>().map_err(|_| ())
}

/// Removes underscores that stand between two digits; others are an error.
fn strip_underscores(s: &str) -> Result<String, ()> {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in b.iter().enumerate() {
        if c == b'_' {
            let ok = i > 0
                && i + 1 < b.len()
                && b[i - 1].is_ascii_alphanumeric()
                && b[i + 1].is_ascii_alphanumeric();
            if !ok {
                return Err(());
            }
        } else {
            out.push(c as char);
        }
    }
    Ok(out)
}

/// Puppet's `WS_BETWEEN_SIGN_AND_NUMBER` (`\A([+-])[[:blank:]]+(.*)\z`): a sign followed by
/// blanks; the string without the blanks, which the numeric conversions try again.
pub(crate) fn without_blanks_after_sign(s: &str) -> Option<String> {
    let sign = s.chars().next().filter(|c| *c == '+' || *c == '-')?;
    let rest = &s[1..];
    let trimmed = rest.trim_start_matches([' ', '\t']);
    if trimmed.len() == rest.len() || trimmed.contains('\n') {
        return None;
    }
    Some(format!("{sign}{trimmed}"))
}

/// Ruby's `String#inspect`.
pub(crate) use crate::ruby_string::inspect as inspect_str;

/// Ruby's `to_s` of a value, as `"#{value}"` writes it into a message.
pub(crate) fn to_s(v: &Value) -> String {
    match v {
        Value::Undef => String::new(),
        Value::Default => "default".into(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::BigInt(b) => b.to_string(),
        Value::Float(f) => float_to_s(*f),
        Value::String(s) => s.to_string(),
        Value::Array(_) | Value::Hash(_) => crate::params::ruby_inspect(v),
        Value::Type(t) => t.to_string(),
        other => crate::display::value_to_s(other),
    }
}

/// Ruby's `NoMethodError` message (its first line; Ruby 3.1 appends the failing source line).
pub(crate) fn no_method(method: &str, v: &Value) -> Error {
    Error::new(format!("undefined method `{method}' for {}", crate::params::ruby_receiver(v)))
}

/// Ruby's class name in `no implicit conversion of X into Integer`.
pub(crate) fn conversion_class(v: &Value) -> &'static str {
    match v {
        Value::Undef => "nil",
        Value::Default => "Symbol",
        Value::Boolean(true) => "true",
        Value::Boolean(false) => "false",
        Value::Integer(_) | Value::BigInt(_) => "Integer",
        Value::Float(_) => "Float",
        Value::String(_) => "String",
        Value::Array(_) => "Array",
        Value::Hash(_) => "Hash",
        Value::Regexp(_) => "Regexp",
        _ => "Object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_integer("0x10", None), Ok(Int::Small(16)));
        assert_eq!(parse_integer("-0b101", None), Ok(Int::Small(-5)));
        assert_eq!(parse_integer("017", None), Ok(Int::Small(15)));
        assert_eq!(parse_integer("0", None), Ok(Int::Small(0)));
        assert_eq!(parse_integer("00", None), Ok(Int::Small(0)));
        assert_eq!(parse_integer("09", None), Err(()));
        assert_eq!(parse_integer(" 12\t", None), Ok(Int::Small(12)));
        assert_eq!(parse_integer("- 5", None), Err(()));
        assert_eq!(parse_integer("0x", None), Err(()));
        assert_eq!(parse_integer("1_000", None), Ok(Int::Small(1000)));
        assert_eq!(parse_integer("1__0", None), Err(()));
        assert_eq!(parse_integer("0b1", Some(16)), Ok(Int::Small(0xb1)));
        assert_eq!(parse_integer("0x1f", Some(16)), Ok(Int::Small(31)));
        assert_eq!(parse_integer("0x10", Some(10)), Err(()));
        assert_eq!(parse_integer("017", Some(8)), Ok(Int::Small(15)));
        assert_eq!(parse_integer("08", Some(10)), Ok(Int::Small(8)));
        assert_eq!(parse_integer("12", Some(2)), Err(()));
        assert_eq!(
            parse_integer("-99999999999999999999999999999999999999999", None).map(|i| i.to_string()),
            Ok("-99999999999999999999999999999999999999999".to_owned())
        );
    }

    #[test]
    fn floats() {
        assert_eq!(parse_float("1e3"), Ok(1000.0));
        assert_eq!(parse_float(" -1.5 "), Ok(-1.5));
        assert_eq!(parse_float("0x1F"), Ok(31.0));
        assert_eq!(parse_float("010"), Ok(10.0));
        assert_eq!(parse_float("1."), Err(()));
        assert_eq!(parse_float("- 1"), Err(()));
        assert_eq!(parse_float("-0b101"), Err(()));
        assert_eq!(parse_float("1e400"), Ok(f64::INFINITY));
    }

    #[test]
    fn blanks_after_sign() {
        assert_eq!(without_blanks_after_sign("- 5").as_deref(), Some("-5"));
        assert_eq!(without_blanks_after_sign("+\t 0x1f").as_deref(), Some("+0x1f"));
        assert_eq!(without_blanks_after_sign("-5"), None);
        assert_eq!(without_blanks_after_sign(" - 5"), None);
    }

    #[test]
    fn ruby_strings() {
        assert_eq!(inspect_str("09"), "\"09\"");
        assert_eq!(inspect_str("-\n5"), "\"-\\n5\"");
        assert_eq!(crate::params::ruby_receiver(&Value::Integer(1)), "1:Integer");
        assert_eq!(crate::params::ruby_receiver(&Value::Undef), "nil:NilClass");
        let long = Value::from("x".repeat(70).as_str());
        assert_eq!(crate::params::ruby_receiver(&long), format!("\"{}\":String", "x".repeat(70)));
        assert_eq!(to_s(&Value::from("x")), "x");
        assert_eq!(to_s(&Value::array(vec![Value::Integer(1), Value::from("a")])), "[1, \"a\"]");
    }
}
