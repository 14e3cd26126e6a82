//! `Numeric.new` (`PNumericType.new_function`, the function named `new_numeric`).
//!
//! ```puppet
//! type Convertible = Variant[Integer, Float, Boolean, Pattern[/#{FLOAT_PATTERN}/], Timespan, Timestamp]
//! type NamedArgs   = Struct[{from => Convertible, Optional[abs] => Boolean}]
//!
//! dispatch from_args(Convertible from, Boolean abs?)
//! dispatch from_hash(NamedArgs hash_args)
//! argument_mismatch on_error(Any from, Boolean abs?)
//! ```
//!
//! | from               | result                                                   |
//! |--------------------|----------------------------------------------------------|
//! | Integer, Float     | itself                                                   |
//! | Timespan/Timestamp | seconds as a Float                                       |
//! | Boolean            | 1 or 0                                                   |
//! | String `0x…`/`0b…` | Ruby's `Integer(s)`                                      |
//! | other String       | `Puppet::Pops::Utils.to_n`: a Float when it has a fraction or an exponent, else an Integer (`'010'` is octal 8); `nil` when that fails (`'-0b101'`, `'0e5'`, `'1e400'`), which `new` then rejects: `expects a Numeric value, got Undef` |

use std::sync::OnceLock;

use crate::error::{Error, Result};
use crate::ty::Type;
use crate::value::Value;

use super::float::{call_from_abs, from_abs_function, seconds_f, Method};
use super::{cannot_convert, ruby};
use crate::dispatch::{Dispatcher, Signature};
use crate::int::Int;

thread_local! {
    static FUNCTION: Dispatcher<Method> = from_abs_function("new_numeric", &[Type::INTEGER, Type::FLOAT]);
}

/// `Numeric.new(args...)`, before `new`'s assertion of the result (which is `undef` for
/// the strings `to_n` cannot read).
pub fn new_numeric(args: &[Value]) -> Result<Value> {
    FUNCTION.with(|f| call_from_abs(f, args, "Numeric", from_args))
}

/// The signatures (for `Init[Numeric]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
}

/// A number Ruby computed: an Integer (of any size) or a Float.
#[derive(Clone, Debug, PartialEq)]
enum Num {
    Int(Int),
    Float(f64),
}

/// `from_args(from, abs = false)`; `abs` of `nil` is Ruby's NoMethodError.
fn from_args(from: &Value, abs: bool) -> Result<Value> {
    let n = from_convertible(from)?;
    match (n, abs) {
        (None, true) => Err(ruby::no_method("abs", &Value::Undef)),
        (None, false) => Ok(Value::Undef),
        (Some(Num::Int(i)), abs) => Ok(if abs { i.abs() } else { i }.into_value()),
        (Some(Num::Float(f)), abs) => Ok(Value::Float(if abs { f.abs() } else { f })),
    }
}

/// `from_convertible(from)`; `None` is the `nil` of a failed `to_n`.
fn from_convertible(from: &Value) -> Result<Option<Num>> {
    match from {
        Value::Float(f) => Ok(Some(Num::Float(*f))),
        Value::Integer(_) | Value::BigInt(_) => Ok(from.as_int().map(Num::Int)),
        Value::Timespan(t) => Ok(Some(Num::Float(seconds_f(t.nsecs)))),
        Value::Timestamp(t) => Ok(Some(Num::Float(seconds_f(t.nsecs)))),
        Value::Boolean(b) => Ok(Some(Num::Int(Int::Small(i64::from(*b))))),
        Value::String(s) => from_string(s),
        other => Err(Error::new(cannot_convert(other, "Numeric"))),
    }
}

/// `0b…`/`0x…` through Ruby's `Integer()`, everything else through `to_n`.
fn from_string(s: &str) -> Result<Option<Num>> {
    let b = s.as_bytes();
    if b.first() == Some(&b'0') && matches!(b.get(1).map(u8::to_ascii_lowercase), Some(b'b') | Some(b'x')) {
        return match ruby::parse_integer(s, None) {
            Ok(n) => Ok(Some(Num::Int(n))),
            Err(()) => Err(Error::new(format!("invalid value for Integer(): {}", ruby::inspect_str(s)))),
        };
    }
    Ok(to_n(s))
}

/// Puppet's `NUMERIC` pattern (`patterns.rb`).
fn numeric_pattern() -> Option<&'static regex::Regex> {
    static RE: OnceLock<Option<regex::Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(
            r"\A[ \t]*([-+]?)[ \t]*((0[xX][0-9A-Fa-f]+)|(0?[0-9]+)((?:\.[0-9]+)?(?:[eE]-?[0-9]+)?))[ \t]*\z",
        )
        .ok()
    })
    .as_ref()
}

/// `Puppet::Pops::Utils.to_n` as a value: the Integer or Float a string reads as (`'0x10'`,
/// `' -1.5e3 '`), `None` when it is no number.
pub fn string_to_number(s: &str) -> Option<Value> {
    match to_n(s)? {
        Num::Int(n) => Some(n.into_value()),
        Num::Float(f) => Some(Value::Float(f)),
    }
}

/// `Puppet::Pops::Utils.to_n`: the number in a string, or `None`.
fn to_n(s: &str) -> Option<Num> {
    let s = s.strip_prefix("::").unwrap_or(s);
    let caps = numeric_pattern()?.captures(s)?;
    let negative = caps.get(1).is_some_and(|m| m.as_str() == "-");
    let number = caps.get(2)?.as_str();
    let fraction = caps.get(5).map_or("", |m| m.as_str());
    if !fraction.is_empty() {
        let whole = caps.get(4).map_or("", |m| m.as_str());
        return match_to_fp(negative, number, whole, fraction);
    }
    let n = ruby::parse_integer(number, None).ok()?;
    Some(Num::Int(if negative { n.neg() } else { n }))
}

/// `Puppet::Pops::Utils.match_to_fp`: `nil` for a zero with an exponent (`0e5`, `0.0e1`)
/// and for infinity.
fn match_to_fp(negative: bool, number: &str, whole: &str, fraction: &str) -> Option<Num> {
    let zero = ruby::parse_integer(whole, None).ok()? == Int::Small(0);
    let zero_exponent = {
        let f = fraction.strip_prefix('.').unwrap_or(fraction);
        let f = f.trim_start_matches('0');
        f.starts_with(['e', 'E'])
    };
    if zero && zero_exponent {
        return None;
    }
    let f = ruby::parse_float(number).ok()?;
    if f == f64::INFINITY {
        return None;
    }
    Some(Num::Float(if negative { -f } else { f }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(s: &str) -> Option<Value> {
        from_args(&Value::from(s), false).ok()
    }

    #[test]
    fn strings() {
        assert_eq!(conv("0x10"), Some(Value::Integer(16)));
        assert_eq!(conv("-0x10"), Some(Value::Integer(-16)));
        assert_eq!(conv("0b101"), Some(Value::Integer(5)));
        assert_eq!(conv("010"), Some(Value::Integer(8)));
        assert_eq!(conv("-010"), Some(Value::Integer(-8)));
        assert_eq!(conv("3.25"), Some(Value::Float(3.25)));
        assert_eq!(conv("- 3.25"), Some(Value::Float(-3.25)));
        assert_eq!(conv("1e3"), Some(Value::Float(1000.0)));
        assert_eq!(conv("0.0"), Some(Value::Float(0.0)));
        assert_eq!(conv("0.5e1"), Some(Value::Float(5.0)));
        assert_eq!(conv("-0b101"), Some(Value::Undef));
        assert_eq!(conv("0e5"), Some(Value::Undef));
        assert_eq!(conv("0.0e5"), Some(Value::Undef));
        assert_eq!(conv("1e400"), Some(Value::Undef));
        assert_eq!(conv("1e-400"), Some(Value::Float(0.0)));
        assert_eq!(conv("+ 12"), Some(Value::Integer(12)));
    }

    #[test]
    fn abs_of_nil() {
        let e = from_args(&Value::from("0e5"), true).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("undefined method `abs' for nil:NilClass"));
        assert_eq!(from_args(&Value::Float(-3.5), true).ok(), Some(Value::Float(3.5)));
    }
}
