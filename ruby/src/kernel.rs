//! Ruby's `Kernel#Integer` and `Kernel#Float` on strings (`rb_str_to_inum(s, base, TRUE)`
//! and `rb_str_to_dbl(s, TRUE)`), which Puppet's `Integer.new`, `Float.new`, `Numeric.new`,
//! `sprintf`'s numeric directives and `scanf`'s `%i` reach. `None` is Ruby's
//! `ArgumentError`, `invalid value for Integer(): "x"` (or `Float()`); the caller writes the
//! message, with [`crate::string::inspect`] of the string.

use num_bigint::BigInt;

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
/// allowed. The number may be of any size.
///
/// ```
/// use poppet_ruby::kernel::integer;
/// assert_eq!(integer(" -0x1f\n", None), Some((-31).into()));
/// assert_eq!(integer("017", None), Some(15.into()));
/// assert_eq!(integer("0b1", Some(16)), Some(0xb1.into()));
/// assert_eq!(integer("1__0", None), None);
/// ```
pub fn integer(s: &str, radix: Option<u32>) -> Option<BigInt> {
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
    let mut end = b.len();
    while end > i && is_space(b[end - 1]) {
        end -= 1;
    }
    let magnitude = digits(&b[i..end], base)?;
    Some(if negative { -magnitude } else { magnitude })
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
fn digits(digits: &[u8], base: u32) -> Option<BigInt> {
    if !(2..=36).contains(&base) || digits.first().is_none_or(|&c| c == b'_') || digits.last() == Some(&b'_') {
        return None;
    }
    // u128 arithmetic while it lasts, a BigInt beyond
    let mut acc: Option<u128> = Some(0);
    let mut big: Option<BigInt> = None;
    let mut prev_underscore = false;
    for &c in digits {
        if c == b'_' {
            if prev_underscore {
                return None;
            }
            prev_underscore = true;
            continue;
        }
        prev_underscore = false;
        let d = char::from(c).to_digit(base)?;
        match acc.and_then(|a| a.checked_mul(u128::from(base))).and_then(|a| a.checked_add(u128::from(d))) {
            Some(a) => acc = Some(a),
            None => {
                let b = big.take().unwrap_or_else(|| BigInt::from(acc.unwrap_or(0)));
                big = Some(b * base + d);
                acc = None;
            }
        }
    }
    Some(big.unwrap_or_else(|| BigInt::from(acc.unwrap_or(0))))
}

/// `Kernel#Float(s)`: a decimal number (`1`, `1.5`, `.5`, `1e3`, `1.5E-3`) or a hexadecimal
/// one (`0x1F`, and with a binary exponent `0x1p3`, `0x1.8p1`: C's `strtod`, which Ruby
/// hands hexadecimal strings to), with one sign, surrounding whitespace, and single
/// underscores between digits (not in a hexadecimal fraction). A value beyond the range of
/// a double is an infinity, as in Ruby.
///
/// ```
/// use poppet_ruby::kernel::float;
/// assert_eq!(float(" -1_000.5 "), Some(-1000.5));
/// assert_eq!(float("0x1F"), Some(31.0));
/// assert_eq!(float("-.5"), Some(-0.5));
/// assert_eq!(float("0x1.8p1"), Some(3.0));
/// assert_eq!(float("1."), None);
/// assert_eq!(float("0x1.8"), None);
/// ```
pub fn float(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| c.is_ascii() && is_space(c as u8));
    let (negative, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let value = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")).filter(|h| !h.is_empty()) {
        Some(hex) => hex_float(hex)?,
        None => decimal_float(body)?,
    };
    Some(if negative { -value } else { value })
}

/// The digits after `0x`: `HEX[.HEX]p[+-]DEC` or `HEX` (a fraction needs the exponent).
fn hex_float(digits: &str) -> Option<f64> {
    let (mantissa, exponent) = match digits.find(['p', 'P']) {
        Some(i) => (&digits[..i], Some(&digits[i + 1..])),
        None => (digits, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((int, frac)) if exponent.is_some() && !frac.is_empty() => (int, frac),
        Some(_) => return None,
        None => (mantissa, ""),
    };
    let int = strip_underscores(int, 16)?;
    if int.is_empty() || !frac.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut exp2: i64 = match exponent {
        None => 0,
        Some(e) => {
            let (negative, digits) = match e.as_bytes().first() {
                Some(b'-') => (true, &e[1..]),
                Some(b'+') => (false, &e[1..]),
                _ => (false, e),
            };
            let digits = strip_underscores(digits, 10)?;
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            // Beyond this every double is an infinity or zero.
            let e = digits.parse::<i64>().unwrap_or(100_000).min(100_000);
            if negative {
                -e
            } else {
                e
            }
        }
    };
    // The digits into a 64-bit mantissa; the ones it cannot hold shift the exponent and
    // leave a sticky bit for rounding.
    let mut mantissa: u64 = 0;
    let mut sticky = false;
    for (i, c) in int.chars().chain(frac.chars()).enumerate() {
        let d = u64::from(c.to_digit(16)?);
        if mantissa >> 60 == 0 {
            mantissa = mantissa << 4 | d;
            if i >= int.len() {
                exp2 -= 4;
            }
        } else {
            sticky |= d != 0;
            if i < int.len() {
                exp2 += 4;
            }
        }
    }
    Some(round_to_double(mantissa, sticky, exp2))
}

/// `mantissa × 2^exp2` as the nearest double (ties to even; `sticky`: nonzero bits below
/// the mantissa).
fn round_to_double(mut mantissa: u64, sticky: bool, mut exp2: i64) -> f64 {
    if mantissa == 0 {
        return 0.0;
    }
    let bits = 64 - i64::from(mantissa.leading_zeros());
    if bits > 53 {
        let shift = bits - 53;
        let dropped = mantissa & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        mantissa >>= shift;
        exp2 += shift;
        if dropped > half || (dropped == half && (sticky || mantissa & 1 == 1)) {
            mantissa += 1;
        }
    }
    // `mantissa` < 2^54 is exact as a double; the power of two scales it (in two steps, as
    // 2^exp2 alone may be out of range).
    let exp2 = exp2.clamp(-3000, 3000) as i32;
    let half = exp2 / 2;
    mantissa as f64 * 2f64.powi(half) * 2f64.powi(exp2 - half)
}

fn decimal_float(body: &str) -> Option<f64> {
    let clean = strip_underscores(body, 10)?;
    let b = clean.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > start
    };
    // `.5` has no integer digits; `5.` is not a number.
    let int = digits(&mut i);
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return None;
        }
    } else if !int {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    clean.parse::<f64>().ok()
}

/// Removes underscores that stand between two digits of `radix`; others are an error.
fn strip_underscores(s: &str, radix: u32) -> Option<String> {
    let b = s.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(|&c| char::from(c).is_digit(radix));
    let mut out = String::with_capacity(s.len());
    for (i, &c) in b.iter().enumerate() {
        if c == b'_' {
            if i == 0 || !digit(i - 1) || !digit(i + 1) {
                return None;
            }
        } else {
            out.push(char::from(c));
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(s: &str, radix: Option<u32>) -> Option<String> {
        integer(s, radix).map(|i| i.to_string())
    }

    /// Recorded from Ruby 3.1.2: `Integer(s)`, `Integer(s, radix)`.
    #[test]
    fn integers() {
        let cases: &[(&str, Option<u32>, Option<&str>)] = &[
            ("0x10", None, Some("16")),
            ("-0b101", None, Some("-5")),
            ("017", None, Some("15")),
            ("0", None, Some("0")),
            ("00", None, Some("0")),
            ("09", None, None),
            (" 12\t", None, Some("12")),
            (" 5\x0b", None, Some("5")),
            ("\x0b5", None, Some("5")),
            ("- 5", None, None),
            ("0x", None, None),
            ("0b", None, None),
            ("0x+5", None, None),
            ("--5", None, None),
            ("0_7", None, Some("7")),
            ("0o_7", None, None),
            ("1_000", None, Some("1000")),
            ("1__0", None, None),
            ("0b1", Some(16), Some("177")),
            ("0x1f", Some(16), Some("31")),
            ("0x10", Some(10), None),
            ("017", Some(8), Some("15")),
            ("08", Some(10), Some("8")),
            ("12", Some(2), None),
            ("-99999999999999999999999999999999999999999", None, Some("-99999999999999999999999999999999999999999")),
        ];
        for &(s, radix, expected) in cases {
            assert_eq!(int(s, radix).as_deref(), expected, "Integer({s:?}, {radix:?})");
        }
    }

    /// Recorded from Ruby 3.1.2: `Float(s)`.
    #[test]
    fn floats() {
        let cases: &[(&str, Option<f64>)] = &[
            ("1e3", Some(1000.0)),
            (" -1.5 ", Some(-1.5)),
            (" 1.5\x0b", Some(1.5)),
            ("0x1F", Some(31.0)),
            ("-0x1F", Some(-31.0)),
            ("0x1_0", Some(16.0)),
            ("010", Some(10.0)),
            ("1_000.5", Some(1000.5)),
            ("1e400", Some(f64::INFINITY)),
            ("1.", None),
            ("5.", None),
            ("1.e5", None),
            ("- 1", None),
            ("-0b101", None),
            ("0b1", None),
            ("0o7", None),
            ("0x", None),
            ("0x_1", None),
            ("1_e5", None),
            ("1e_5", None),
            ("1__0", None),
            ("_1", None),
            ("1e", None),
            ("Infinity", None),
            (".5", Some(0.5)),
            ("-.5", Some(-0.5)),
            ("+.5", Some(0.5)),
            (".5e1", Some(5.0)),
            (".5_5", Some(0.55)),
            (".e5", None),
            (".", None),
            ("._5", None),
            ("0x1p3", Some(8.0)),
            ("0x1.8p1", Some(3.0)),
            ("0x1P-2", Some(0.25)),
            ("0x1p+2", Some(4.0)),
            ("0x1_0p1", Some(32.0)),
            ("0x1p1_0", Some(1024.0)),
            ("0x1e2", Some(482.0)),
            ("-0x1p3", Some(-8.0)),
            ("0x1p-1074", Some(5e-324)),
            ("0x1p2000", Some(f64::INFINITY)),
            ("0x1.fffffffffffff8p0", Some(2.0)),
            ("0x1.00000000000008p0", Some(1.0)),
            ("0x1.8", None),
            ("0x.8p1", None),
            ("0x1.p1", None),
            ("0x1p", None),
            ("0xp1", None),
            ("0x1.8_8p1", None),
        ];
        for &(s, expected) in cases {
            assert_eq!(float(s), expected, "Float({s:?})");
        }
    }
}
