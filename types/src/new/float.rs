//! `Float.new` (`PFloatType.new_function`, the function named `new_float`).
//!
//! ```puppet
//! type Convertible = Variant[Numeric, Boolean, Pattern[/#{FLOAT_PATTERN}/], Timespan, Timestamp]
//! type NamedArgs   = Struct[{from => Convertible, Optional[abs] => Boolean}]
//!
//! dispatch from_args(Convertible from, Boolean abs?)
//! dispatch from_hash(NamedArgs hash_args)
//! argument_mismatch on_error(Any from, Boolean abs?)
//! ```
//!
//! | from               | result                                               |
//! |--------------------|------------------------------------------------------|
//! | Float              | itself                                               |
//! | Integer            | the nearest Float (`3` → 3.0)                        |
//! | Timespan/Timestamp | seconds with fraction                                |
//! | Boolean            | 1.0 or 0.0                                           |
//! | String             | Ruby's `Float(s)`: decimal (`'010'` is 10.0) or `0x` hexadecimal; a string starting with `0b`/`0B` is read as a binary Integer first; `'1e400'` is Infinity |
//!
//! The string `'0'` fails as it does in Puppet (`from[1].casecmp('b')` on `nil`).

use crate::error::{Error, Result};
use crate::ty::Type;
use crate::value::Value;

use super::{cannot_convert, hash_get, ruby};
use crate::dispatch::{alias, entry, pattern, struct_of, Dispatch, Dispatcher, Selected, Signature};

/// Puppet's `FLOAT_PATTERN`: the strings Float.new and Numeric.new accept.
pub const FLOAT_PATTERN: &str =
    r"\A[+-]?\s*(?:(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?)|(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+))\z";

/// The methods of the `from`/`abs` signature that Float.new and Numeric.new share.
#[derive(Clone, Copy)]
pub(super) enum Method {
    FromArgs,
    FromHash,
    OnError,
}

/// The function of Float.new and Numeric.new: they differ only in their name and in the
/// numeric members of `Convertible`.
///
/// ```puppet
/// type Convertible = Variant[NUMBERS, Boolean, Pattern[/#{FLOAT_PATTERN}/], Timespan, Timestamp]
/// type NamedArgs   = Struct[{from => Convertible, Optional[abs] => Boolean}]
/// ```
pub(super) fn from_abs_function(name: &'static str, numbers: &[Type]) -> Dispatcher<Method> {
    let mut members = numbers.to_vec();
    members.extend([
        Type::Boolean(None),
        pattern(FLOAT_PATTERN),
        Type::Timespan { from: None, to: None },
        Type::Timestamp { from: None, to: None },
    ]);
    let convertible = alias("Convertible", Type::Variant(members.into()));
    let named_args = alias(
        "NamedArgs",
        struct_of(vec![entry("from", false, convertible.clone()), entry("abs", true, Type::Boolean(None))]),
    );
    Dispatcher {
        name,
        dispatches: vec![
            Dispatch::new(Method::FromArgs).req("from", convertible).opt("abs", Type::Boolean(None)),
            Dispatch::new(Method::FromHash).req("hash_args", named_args),
            Dispatch::new(Method::OnError).req("from", Type::Any).opt("abs", Type::Boolean(None)).mismatch(),
        ],
    }
}

/// Calls a `from`/`abs` function: positional or named arguments go to `from_args`; others
/// are "cannot be converted to TYPE_NAME".
pub(super) fn call_from_abs(
    f: &Dispatcher<Method>,
    args: &[Value],
    type_name: &str,
    from_args: fn(&Value, bool) -> Result<Value>,
) -> Result<Value> {
    let undef = Value::Undef;
    let from = args.first().unwrap_or(&undef);
    match f.select(args)? {
        Selected::Call(Method::FromArgs) => from_args(from, matches!(args.get(1), Some(Value::Boolean(true)))),
        Selected::Call(Method::FromHash) => match from {
            Value::Hash(h) => from_args(
                hash_get(h, "from").unwrap_or(&undef),
                matches!(hash_get(h, "abs"), Some(Value::Boolean(true))),
            ),
            _ => Err(Error::new(format!("{type_name}.new expects a hash"))),
        },
        Selected::Call(Method::OnError) | Selected::Mismatch(_) => {
            Err(f.mismatch_error(&cannot_convert(from, type_name)))
        }
    }
}

thread_local! {
    static FUNCTION: Dispatcher<Method> = from_abs_function("new_float", &[Type::Numeric]);
}

/// `Float.new(args...)`, before `new`'s assertion of the result.
pub fn new_float(args: &[Value]) -> Result<Value> {
    FUNCTION.with(|f| call_from_abs(f, args, "Float", from_args))
}

/// The signatures (for `Init[Float]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
}

/// `from_args(from, abs = false)`.
fn from_args(from: &Value, abs: bool) -> Result<Value> {
    let f = from_convertible(from)?;
    Ok(Value::Float(if abs { f.abs() } else { f }))
}

/// `from_convertible(from)`.
fn from_convertible(from: &Value) -> Result<f64> {
    match from {
        Value::Float(f) => Ok(*f),
        Value::Integer(n) => Ok(*n as f64),
        Value::BigInt(_) => Ok(from.as_int().map_or(0.0, |i| i.to_f64())),
        Value::Timespan(t) => Ok(seconds_f(t.nsecs)),
        Value::Timestamp(t) => Ok(seconds_f(t.nsecs)),
        Value::Boolean(b) => Ok(if *b { 1.0 } else { 0.0 }),
        Value::String(s) => from_string(s),
        other => Err(Error::new(cannot_convert(other, "Float"))),
    }
}

/// `TimeData#to_f`: seconds with fraction.
pub(crate) fn seconds_f(nsecs: i128) -> f64 {
    let secs = nsecs.div_euclid(1_000_000_000);
    let frac = nsecs.rem_euclid(1_000_000_000);
    secs as f64 + frac as f64 / 1e9
}

/// A string: binary through Ruby's `Integer()`, everything else through `Float()`, retried
/// without blanks after the sign.
fn from_string(s: &str) -> Result<f64> {
    let mut chars = s.chars();
    if chars.next() == Some('0') {
        match chars.next() {
            None => return Err(ruby::no_method("casecmp", &Value::Undef)),
            Some('b') | Some('B') => {
                return match ruby::parse_integer(s, None) {
                    Ok(n) => Ok(n.to_f64()),
                    Err(()) => Err(Error::new(format!("invalid value for Integer(): {}", ruby::inspect_str(s)))),
                };
            }
            Some(_) => {}
        }
    }
    match ruby::parse_float(s) {
        Ok(f) => Ok(f),
        Err(()) => {
            if let Some(retry) = ruby::without_blanks_after_sign(s) {
                if let Ok(f) = from_string(&retry) {
                    return Ok(f);
                }
            }
            Err(Error::new(format!("invalid value for Float(): {}", ruby::inspect_str(s))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(s: &str) -> std::result::Result<f64, String> {
        from_string(s).map_err(|e| e.message)
    }

    #[test]
    fn strings() {
        assert_eq!(conv("1e3"), Ok(1000.0));
        assert_eq!(conv("0x10"), Ok(16.0));
        assert_eq!(conv("-0x10"), Ok(-16.0));
        assert_eq!(conv("0b101"), Ok(5.0));
        assert_eq!(conv("010"), Ok(10.0));
        assert_eq!(conv("- 1.5"), Ok(-1.5));
        assert_eq!(conv("1e400"), Ok(f64::INFINITY));
        assert_eq!(conv("-0b101"), Err("invalid value for Float(): \"-0b101\"".into()));
        assert_eq!(conv("0"), Err("undefined method `casecmp' for nil:NilClass".into()));
        assert_eq!(conv("00"), Ok(0.0));
    }

    #[test]
    fn values() {
        assert_eq!(from_args(&Value::Integer(-3), true).ok(), Some(Value::Float(3.0)));
        assert_eq!(from_args(&Value::Boolean(false), false).ok(), Some(Value::Float(0.0)));
        assert_eq!(seconds_f(1_500_000_000), 1.5);
        assert_eq!(seconds_f(-1_500_000_000), -1.5);
    }
}
