//! Ruby's `Float#to_s` (`flo_to_s`), as Puppet prints every float: in messages, `notice`,
//! string interpolation, `String(x)` and its PN dump (`1000000000000000.2`, `1.0e+15`,
//! `1.0e-05`, `NaN`, `-Infinity`). The 299 floats of `types/tests/golden/display_values.txt`
//! were recorded from Puppet.

use std::fmt::Write;

/// Ruby's `Float#to_s`: the shortest digits that read back as the same float, in fixed
/// notation when the decimal exponent is in -4 < e < 16 (`100.0`, `0.0001`) or is 16 with
/// digits after the point (`1000000000000000.2`), otherwise in scientific notation with a
/// signed two-digit exponent (`1.0e+15`, `1.0e+16`, `1.0e-05`).
pub fn float_to_s(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0".into() } else { "0.0".into() };
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "1.2345e3", "-5e-7".
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    round_tie_to_even(f.abs(), exp, &mut digits);
    let decpt = exp + 1; // digits are 0.DIGITS * 10^decpt
    let mut out = String::new();
    if f < 0.0 {
        out.push('-');
    }
    if decpt > 0 && (decpt < 16 || (decpt == 16 && digits.len() > 16)) {
        let d = decpt as usize;
        if digits.len() <= d {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', d - digits.len()));
            out.push_str(".0");
        } else {
            out.push_str(&digits[..d]);
            out.push('.');
            out.push_str(&digits[d..]);
        }
    } else if decpt <= 0 && decpt > -4 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-decpt) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        out.push('.');
        out.push_str(if digits.len() > 1 { &digits[1..] } else { "0" });
        let e = decpt - 1;
        let _ = write!(out, "e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs());
    }
    out
}

/// Where the float lies exactly halfway between the shortest digits and the ones a unit
/// lower in the last place, and both read back as it, Ruby's dtoa takes the even one
/// (`1e15 + 0.3` is 1000000000000000.25: Ruby shows `...0.2`, Rust's shortest `...0.3`).
fn round_tie_to_even(f: f64, exp: i32, digits: &mut String) {
    let n = digits.len();
    let Some(last) = digits.as_bytes().last().copied() else { return };
    // Two readings a last-place unit apart both round-trip only at the precision limit.
    if n < 15 || (last - b'0').is_multiple_of(2) {
        return;
    }
    // The exact value, with digits enough to see a 5 followed by zeros after the n-th.
    let exact = format!("{:.*e}", n + 24, f);
    let exact: String = exact.split_once('e').map_or("", |(m, _)| m).chars().filter(char::is_ascii_digit).collect();
    let mut lower = digits.clone();
    lower.pop();
    lower.push(char::from(last - 1));
    let midway = exact.get(..n) == Some(lower.as_str())
        && exact.as_bytes().get(n) == Some(&b'5')
        && exact.bytes().skip(n + 1).all(|b| b == b'0');
    if midway && format!("{}.{}e{exp}", &lower[..1], &lower[1..]).parse::<f64>().ok() == Some(f) {
        *digits = lower;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruby_floats() {
        let cases = [
            (1e15, "1.0e+15"),
            (1e14, "100000000000000.0"),
            (123456789012345.0, "123456789012345.0"),
            (1234567890123456.0, "1.234567890123456e+15"),
            // sixteen digits before the point and more after: fixed (Ruby's `flo_to_s`)
            (1e15 + 0.3, "1000000000000000.2"),
            (1000000000000000.2, "1000000000000000.2"),
            (1234567890123456.7, "1234567890123456.8"),
            (9999999999999998.0, "9.999999999999998e+15"),
            (1234567890123450.0, "1.23456789012345e+15"),
            (0.0001, "0.0001"),
            (0.00001, "1.0e-05"),
            (0.00012345, "0.00012345"),
            (1.5e300, "1.5e+300"),
            (-0.0, "-0.0"),
            (123_456_789.123_456_79, "123456789.12345679"),
            (100.0, "100.0"),
            (1.0e-320, "1.0e-320"),
        ];
        for (f, s) in cases {
            assert_eq!(float_to_s(f), s, "{f:e}");
        }
    }

    #[test]
    fn floats_print_as_ruby_prints_them() {
        // Recorded with `ruby -e 'puts f.to_s'` (Ruby 3.1, as Puppet 7.23 runs on).
        let cases = [
            (1.0, "1.0"),
            (100.0, "100.0"),
            (1e15, "1.0e+15"),
            (3e15, "3.0e+15"),
            (123456789012345.0, "123456789012345.0"),
            (1234567890123456.0, "1.234567890123456e+15"),
            (0.001, "0.001"),
            (0.0001, "0.0001"),
            (1e-5, "1.0e-05"),
            (2.5e-7, "2.5e-07"),
            (1e22, "1.0e+22"),
            (1.0 / 3.0, "0.3333333333333333"),
            (1e100, "1.0e+100"),
            (5e-324, "5.0e-324"),
            (0.1 + 0.2, "0.30000000000000004"),
            (-1.5, "-1.5"),
        ];
        for (value, expected) in cases {
            assert_eq!(float_to_s(value), expected, "{value:e}");
        }
    }
}
