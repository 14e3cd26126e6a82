//! `Integer.new` (`PIntegerType#new_function`, the function named `new`).
//!
//! ```puppet
//! type Radix       = Variant[Default, Integer[2,2], Integer[8,8], Integer[10,10], Integer[16,16]]
//! type Convertible = Variant[Numeric, Boolean, Pattern[/#{INTEGER_PATTERN_LENIENT}/], Timespan, Timestamp]
//! type NamedArgs   = Struct[{from => Convertible, Optional[radix] => Radix, Optional[abs] => Boolean}]
//!
//! dispatch from_args(Convertible from, Radix radix?, Boolean abs?)
//! dispatch from_hash(NamedArgs hash_args)
//! argument_mismatch on_error_hash(Hash hash_args)
//! argument_mismatch on_error(Any from, Integer radix?, Boolean abs?)
//! ```
//!
//! | from               | result                                                      |
//! |--------------------|-------------------------------------------------------------|
//! | Integer            | itself                                                      |
//! | Float              | truncated (`3.9` → 3, `-3.9` → -3)                          |
//! | Timespan/Timestamp | whole seconds, rounded down (`Timespan(-1.5)` → -2)         |
//! | Boolean            | 1 or 0                                                      |
//! | String             | Ruby's `Integer(s)` (prefix decides the radix: `0x` 16, `0b` 2, `0` 8) or `Integer(s, radix)` (a matching prefix is allowed) |
//!
//! The radix only matters for strings; `abs` takes the absolute value. A string with blanks
//! between its sign and digits (`'- 5'`) is tried again without them.

use crate::error::{Error, Result};
use crate::instance::is_instance;
use crate::int::Int;
use crate::ty::Type;
use crate::value::{Hash, Value};

use super::{cannot_convert, hash_get, ruby};
use crate::dispatch::{alias, entry, int_exactly, pattern, struct_of, Dispatch, Dispatcher, Selected, Signature};

/// Puppet's `INTEGER_PATTERN_LENIENT`: the strings Integer.new accepts.
pub const INTEGER_PATTERN_LENIENT: &str = r"\A[+-]?\s*(?:(?:\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\z";

#[derive(Clone, Copy)]
enum Method {
    FromArgs,
    FromHash,
    OnErrorHash,
    OnError,
}

/// The local types of the function.
struct Types {
    convertible: Type,
    named_args: Type,
}

fn local_types() -> (Types, Type) {
    let convertible = alias(
        "Convertible",
        Type::Variant(
            vec![
                Type::Numeric,
                Type::Boolean(None),
                pattern(INTEGER_PATTERN_LENIENT),
                Type::Timespan { from: None, to: None },
                Type::Timestamp { from: None, to: None },
            ]
            .into(),
        ),
    );
    let radix = alias(
        "Radix",
        Type::Variant(vec![Type::Default, int_exactly(2), int_exactly(8), int_exactly(10), int_exactly(16)].into()),
    );
    let named_args = alias(
        "NamedArgs",
        struct_of(vec![
            entry("from", false, convertible.clone()),
            entry("radix", true, radix.clone()),
            entry("abs", true, Type::Boolean(None)),
        ]),
    );
    (Types { convertible, named_args }, radix)
}

fn build() -> (Dispatcher<Method>, Types) {
    let (types, radix) = local_types();
    let f = Dispatcher {
        name: "new",
        dispatches: vec![
            Dispatch::new(Method::FromArgs)
                .req("from", types.convertible.clone())
                .opt("radix", radix)
                .opt("abs", Type::Boolean(None)),
            Dispatch::new(Method::FromHash).req("hash_args", types.named_args.clone()),
            Dispatch::new(Method::OnErrorHash).req("hash_args", Type::HASH).mismatch(),
            Dispatch::new(Method::OnError)
                .req("from", Type::Any)
                .opt("radix", Type::INTEGER)
                .opt("abs", Type::Boolean(None))
                .mismatch(),
        ],
    };
    (f, types)
}

thread_local! {
    static FUNCTION: (Dispatcher<Method>, Types) = build();
}

/// `Integer.new(args...)`, before `new`'s assertion of the result.
pub fn new_integer(args: &[Value]) -> Result<Value> {
    FUNCTION.with(|(f, types)| match f.select(args)? {
        Selected::Call(Method::FromArgs) => {
            let undef = Value::Undef;
            let from = args.first().unwrap_or(&undef);
            let radix = args.get(1).and_then(radix_of);
            let abs = matches!(args.get(2), Some(Value::Boolean(true)));
            from_args(from, radix, abs)
        }
        Selected::Call(Method::FromHash) => match args.first() {
            Some(Value::Hash(h)) => from_hash(h),
            _ => Err(Error::new("Integer.new expects a hash")),
        },
        Selected::Mismatch(Method::OnErrorHash) => match args.first() {
            Some(Value::Hash(h)) => on_error_hash(f, types, h),
            _ => Err(Error::new("Integer.new expects a hash")),
        },
        Selected::Mismatch(_) | Selected::Call(_) => {
            let radix = args.get(1);
            Err(f.mismatch_error(&on_error(args.first().unwrap_or(&Value::Undef), radix)?))
        }
    })
}

/// The signatures (for `Init[Integer]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|(f, _)| f.signatures())
}

/// A radix argument: `None` for `default`.
fn radix_of(v: &Value) -> Option<u32> {
    match v {
        Value::Integer(n) => u32::try_from(*n).ok(),
        _ => None,
    }
}

/// `from_args(from, radix = :default, abs = false)`.
fn from_args(from: &Value, radix: Option<u32>, abs: bool) -> Result<Value> {
    let n = from_convertible(from, radix)?;
    Ok(if abs { n.abs() } else { n }.into_value())
}

/// `from_hash(args_hash)`: `from`, `radix` (default when missing), `abs` (false when missing).
fn from_hash(h: &Hash) -> Result<Value> {
    let undef = Value::Undef;
    let from = hash_get(h, "from").unwrap_or(&undef);
    let radix = hash_get(h, "radix").and_then(radix_of);
    let abs = matches!(hash_get(h, "abs"), Some(Value::Boolean(true)));
    from_args(from, radix, abs)
}

/// `from_convertible(from, radix)`: the integer, of any size (as Ruby's).
fn from_convertible(from: &Value, radix: Option<u32>) -> Result<Int> {
    match from {
        Value::Integer(_) | Value::BigInt(_) => {
            from.as_int().ok_or_else(|| Error::new(cannot_convert(from, "Integer")))
        }
        Value::Float(f) => float_to_i(*f),
        Value::Timespan(t) => Ok(Int::from_big(seconds_floor(t.nsecs).into())),
        Value::Timestamp(t) => Ok(Int::from_big(seconds_floor(t.nsecs).into())),
        Value::Boolean(b) => Ok(Int::Small(i64::from(*b))),
        Value::String(s) => from_string(s, radix),
        other => Err(Error::new(cannot_convert(other, "Integer"))),
    }
}

/// Ruby's `Integer(s)` / `Integer(s, radix)`, retried without blanks after the sign.
fn from_string(s: &str, radix: Option<u32>) -> Result<Int> {
    match ruby::parse_integer(s, radix) {
        Ok(n) => Ok(n),
        Err(()) => {
            if let Some(retry) = ruby::without_blanks_after_sign(s) {
                if let Ok(n) = ruby::parse_integer(&retry, radix) {
                    return Ok(n);
                }
            }
            Err(Error::new(format!("invalid value for Integer(): {}", ruby::inspect_str(s))))
        }
    }
}

/// Ruby's `Float#to_i`: truncation; infinities and NaN are Ruby's `FloatDomainError`.
pub fn float_to_i(f: f64) -> Result<Int> {
    if f.is_nan() {
        return Err(Error::new("NaN"));
    }
    if f.is_infinite() {
        return Err(Error::new(if f > 0.0 { "Infinity" } else { "-Infinity" }));
    }
    Ok(Int::from_f64(f).unwrap_or(Int::Small(0)))
}

/// `TimeData#to_i`: whole seconds, rounded towards negative infinity.
pub(crate) fn seconds_floor(nsecs: i128) -> i128 {
    nsecs.div_euclid(1_000_000_000)
}

/// `on_error_hash(args_hash)`: a `from` that is not convertible is worded as `on_error`
/// does; otherwise a bad radix is an error, and anything else is the mismatch of the hash
/// with `NamedArgs` (`Integer.new has wrong type, ...`).
fn on_error_hash(f: &Dispatcher<Method>, types: &Types, h: &Hash) -> Result<Value> {
    if let Some(from) = hash_get(h, "from") {
        if !is_instance(&types.convertible, from) {
            return Err(f.mismatch_error(&on_error(from, None)?));
        }
    }
    if let Some(radix) = hash_get(h, "radix") {
        if !matches!(radix, Value::Undef | Value::Default) {
            assert_radix(radix)?;
        }
    }
    let hash = Value::Hash(std::rc::Rc::new(h.clone()));
    Err(Error::new(crate::mismatch::describe_value("Integer.new has wrong type,", &types.named_args, &hash)))
}

/// `on_error(from, radix = :default, abs = nil)`: a bad radix is an error; otherwise the
/// message of a value that cannot be converted.
fn on_error(from: &Value, radix: Option<&Value>) -> Result<String> {
    if let Some(r) = radix {
        if !matches!(r, Value::Default) {
            assert_radix(r)?;
        }
    }
    Ok(cannot_convert(from, "Integer"))
}

/// `assert_radix`: 2, 8, 10 or 16 (compared as Ruby's `case` does, so `2.0` passes).
fn assert_radix(radix: &Value) -> Result<()> {
    let ok = match radix {
        Value::Integer(n) => matches!(n, 2 | 8 | 10 | 16),
        Value::Float(f) => [2.0, 8.0, 10.0, 16.0].contains(f),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(Error::new(format!("Illegal radix: {}, expected 2, 8, 10, 16, or default", ruby::to_s(radix))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value {
        Value::from(x)
    }

    #[test]
    fn strings() {
        assert_eq!(from_args(&s("0x10"), None, false).ok(), Some(Value::Integer(16)));
        assert_eq!(from_args(&s("-0b101"), None, true).ok(), Some(Value::Integer(5)));
        assert_eq!(from_args(&s("- 5"), None, false).ok(), Some(Value::Integer(-5)));
        assert_eq!(from_args(&s("017"), None, false).ok(), Some(Value::Integer(15)));
        assert_eq!(from_args(&s("017"), Some(10), false).ok(), Some(Value::Integer(17)));
        assert_eq!(from_args(&s("0B101"), Some(16), false).ok(), Some(Value::Integer(0xb101)));
        let e = from_args(&s("09"), None, false).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("invalid value for Integer(): \"09\""));
        let e = from_args(&s("+ 09"), None, false).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("invalid value for Integer(): \"+ 09\""));
    }

    #[test]
    fn other_values() {
        assert_eq!(from_args(&Value::Float(-3.9), None, false).ok(), Some(Value::Integer(-3)));
        assert_eq!(from_args(&Value::Float(3.9), Some(16), true).ok(), Some(Value::Integer(3)));
        assert_eq!(from_args(&Value::Boolean(true), None, false).ok(), Some(Value::Integer(1)));
        assert_eq!(seconds_floor(-1_500_000_000), -2);
        let e = from_args(&Value::Float(f64::NEG_INFINITY), None, false).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("-Infinity"));
        // beyond 64 bits: a bignum, as Ruby's
        let big = |v: Result<Value>| v.ok().map(|v| crate::display::value_to_s(&v));
        assert_eq!(big(from_args(&s("-9223372036854775808"), None, true)).as_deref(), Some("9223372036854775808"));
        assert_eq!(
            big(from_args(&Value::Float(1e30), None, false)).as_deref(),
            Some("1000000000000000019884624838656")
        );
    }

    #[test]
    fn radix_errors() {
        let e = on_error(&s("x"), Some(&Value::Integer(3))).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("Illegal radix: 3, expected 2, 8, 10, 16, or default"));
        assert_eq!(
            on_error(&s("x"), Some(&Value::Integer(2))).ok().as_deref(),
            Some("The string 'x' cannot be converted to Integer")
        );
        assert!(assert_radix(&Value::Float(2.0)).is_ok());
        let e = assert_radix(&Value::Boolean(true)).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("Illegal radix: true, expected 2, 8, 10, 16, or default"));
    }
}
