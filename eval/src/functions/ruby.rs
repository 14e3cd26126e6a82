//! Ruby's behaviour of the objects that Puppet's functions hand their values to, and that
//! Puppet's messages show: a value's class and `inspect` (shared with the type system:
//! [`puppet_types::params::ruby_class`], [`puppet_types::params::ruby_inspect`]), its `to_s`,
//! `==` and `<=>`, and the messages Ruby raises when they fail (`rb_cmperr`, `rb_cmpint`,
//! `NoMethodError`).

use std::cmp::Ordering;

use puppet_types::display::{float_to_s, value_to_s};
use puppet_types::Value;

use crate::error::{fail, Eval, Flow};

pub(crate) use puppet_types::params::{ruby_class as class, ruby_inspect as inspect};

/// How deep `==` and `<=>` descend into arrays and hashes (a bound for the stack).
const MAX_DEPTH: usize = 1000;

/// Ruby's `to_s` of a value (`inspect` for arrays and hashes): what `"#{v}"`, `join` and
/// `%s` write.
pub(crate) fn to_s(v: &Value) -> String {
    match v {
        Value::Undef => String::new(),
        Value::Default => "default".into(),
        Value::String(s) => s.to_string(),
        Value::Array(_) | Value::Hash(_) => inspect(v),
        Value::Sensitive(_) => "Sensitive [value redacted]".into(),
        Value::Float(f) => float_to_s(*f),
        Value::Regexp(r) => format!("(?-mix:{})", r.source()),
        other => value_to_s(other),
    }
}

/// Ruby's `NoMethodError`: `undefined method `m' for 1:Integer`.
pub(crate) fn no_method(method: &str, v: &Value) -> Flow {
    let suggestions = poppet_ruby::did_you_mean::suggestions(&puppet_types::params::ruby_class(v), method);
    fail(format!("undefined method `{method}' for {}{suggestions}", puppet_types::params::ruby_receiver(v)))
}

/// Ruby's `rb_cmperr`: `comparison of X with Y failed`, X the class of `a`, Y the `inspect`
/// of `b` when it is a special constant (nil, booleans, integers of 62 bits, symbols) or a
/// float, else its class.
pub(crate) fn cmperr(a: &Value, b: &Value) -> Flow {
    const FIXNUM: std::ops::RangeInclusive<i64> = -(1 << 62)..=(1 << 62) - 1;
    let shown = match b {
        Value::Undef | Value::Boolean(_) | Value::Float(_) | Value::Default => inspect(b),
        Value::Integer(i) if FIXNUM.contains(i) => i.to_string(),
        other => class(other),
    };
    fail(format!("comparison of {} with {shown} failed", class(a)))
}

/// Whether Ruby compares a value as a number (`Integer`, `Float`, and Puppet's time values,
/// which are `Comparable` with numbers).
fn numeric_or_time(v: &Value) -> bool {
    matches!(v, Value::Integer(_) | Value::BigInt(_) | Value::Float(_) | Value::Timespan(_) | Value::Timestamp(_))
}

/// Ruby's `==` between Puppet's values: numbers and time values by `<=>` (`1 == 1.0`,
/// `Timespan(1) == 1`), strings exactly, arrays element-wise, hashes by key whatever the
/// order, anything else by `eql?`.
pub(crate) fn eq(a: &Value, b: &Value) -> bool {
    eq_at(a, b, 0)
}

fn eq_at(a: &Value, b: &Value, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match (a, b) {
        _ if numeric_or_time(a) && numeric_or_time(b) => cmp_at(a, b, depth) == Some(Ordering::Equal),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| eq_at(p, q, depth + 1))
        }
        (Value::Hash(x), Value::Hash(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| eq_at(v, w, depth + 1)))
        }
        _ => a == b,
    }
}

/// Ruby's `a <=> b`; `None` where Ruby gives nil (not comparable).
pub(crate) fn cmp(a: &Value, b: &Value) -> Option<Ordering> {
    cmp_at(a, b, 0)
}

fn cmp_at(a: &Value, b: &Value, depth: usize) -> Option<Ordering> {
    if depth > MAX_DEPTH {
        return None;
    }
    match (a, b) {
        (Value::String(x), Value::String(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (Value::Float(x), _) | (_, Value::Float(x)) if x.is_nan() => None,
        (Value::Timespan(_), Value::Timestamp(_)) | (Value::Timestamp(_), Value::Timespan(_)) => None,
        _ if numeric_or_time(a) && numeric_or_time(b) => puppet_types::compare::compare(a, b).ok(),
        (Value::SemVer(x), Value::SemVer(y)) => Some((**x).cmp(&**y)),
        (Value::Array(x), Value::Array(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                match cmp_at(p, q, depth + 1)? {
                    Ordering::Equal => {}
                    other => return Some(other),
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        _ if eq_at(a, b, depth) => Some(Ordering::Equal),
        _ => None,
    }
}

/// Ruby's `rb_cmpint(val, a, b)`: the order a comparison block's answer `val` stands for
/// when it compared `a` with `b` (`sort`, `min`, `max`). `nil` fails as `a <=> b` would; an
/// Integer or Float by its sign; anything else by `val > 0` and `val < 0`, which fails
/// where the value has no such method, or where its `<=>` (`Comparable`) cannot take 0.
pub(crate) fn cmpint(val: &Value, a: &Value, b: &Value) -> Eval<Ordering> {
    let zero = Value::Integer(0);
    match val {
        Value::Undef => Err(cmperr(a, b)),
        Value::Integer(i) => Ok(i.cmp(&0)),
        Value::BigInt(b) => Ok(if b.sign() == num_bigint::Sign::Minus { Ordering::Less } else { Ordering::Greater }),
        // A NaN is neither.
        Value::Float(f) => Ok(f.partial_cmp(&0.0).unwrap_or(Ordering::Equal)),
        Value::Timespan(_) | Value::Timestamp(_) | Value::String(_) | Value::Default | Value::SemVer(_) => {
            cmp(val, &zero).ok_or_else(|| cmperr(val, &zero))
        }
        // `Hash#>` is the superset test, which wants a Hash.
        Value::Hash(_) => Err(fail("no implicit conversion of Integer into Hash")),
        other => Err(no_method(">", other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timespan(nsecs: i128) -> Value {
        Value::Timespan(std::rc::Rc::new(puppet_types::time::Timespan { nsecs }))
    }

    #[test]
    fn equality() {
        let ts = timespan(1_000_000_000);
        assert!(eq(&Value::Integer(1), &Value::Float(1.0)));
        assert!(eq(&ts, &Value::Integer(1)));
        assert!(eq(&Value::Integer(1), &ts));
        assert!(!eq(&Value::Integer(9_007_199_254_740_993), &Value::Float(9_007_199_254_740_992.0)));
        assert!(!eq(&Value::Float(f64::NAN), &Value::Float(f64::NAN)));
        assert!(!eq(&Value::from("a"), &Value::from("A")));
    }

    #[test]
    fn comparison_block_answers() {
        let (a, b) = (Value::Integer(2), Value::Integer(1));
        let sign = |v: Value| cmpint(&v, &a, &b).ok();
        assert_eq!(sign(Value::Integer(-3)), Some(Ordering::Less));
        assert_eq!(sign(Value::Float(f64::NAN)), Some(Ordering::Equal));
        assert_eq!(sign(Value::Float(-0.0)), Some(Ordering::Equal));
        assert_eq!(sign(timespan(1)), Some(Ordering::Equal));
        assert_eq!(sign(timespan(1_000_000_000)), Some(Ordering::Greater));
        assert_eq!(sign(Value::from("x")), None);
    }
}
