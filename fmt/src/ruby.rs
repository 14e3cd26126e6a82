//! The Ruby side of Puppet's values, as `Kernel#format` sees them: `to_s`, `inspect`,
//! `Integer(x)`, `Float(x)`, `NUM2INT`, with the messages Ruby gives when a conversion is
//! missing (`can't convert SemanticPuppet::Version into Integer`).
//!
//! | value       | Ruby class                                      | `to_s` / `inspect`                 | Integer, Float     |
//! |-------------|-------------------------------------------------|------------------------------------|--------------------|
//! | Timespan    | `Puppet::Pops::Time::Timespan`                  | `0-00:00:01.5` / `#<...:0x... @nsecs=...>` | seconds (floored), seconds with fraction |
//! | Timestamp   | `Puppet::Pops::Time::Timestamp`                 | `2020-01-01T00:00:00.000000000 UTC` / as above | seconds since the epoch |
//! | SemVer      | `SemanticPuppet::Version`                       | `1.2.3` / `1.2.3`                  | none               |
//! | SemVerRange | `SemanticPuppet::VersionRange`                  | the source / the normalised range  | none               |
//! | Sensitive   | `Puppet::Pops::Types::PSensitiveType::Sensitive` | `Sensitive [value redacted]` / `#<Sensitive [value redacted]>` | none |
//!
//! Ruby's `inspect` of a Timespan or Timestamp shows an object address, which differs from run
//! to run; here it is always `0x0000000000000000`.

use std::borrow::Cow;

pub use poppet_ruby::string::{inspect as inspect_str, inspect_bytes};
use puppet_types::display::{float_to_s, value_to_s, value_to_string};
use puppet_types::Value;

use crate::error::FormatError;
use crate::sprintf::{Arg, RInt};

const NSECS_PER_SEC: i128 = 1_000_000_000;

/// The Ruby class name of a value that `format` treats as an opaque object.
fn class_name(v: &Value) -> String {
    puppet_types::params::ruby_class(v)
}

/// `obj.to_s`.
fn obj_to_s(v: &Value) -> String {
    match v {
        Value::Deferred(_) | Value::Callable(_) => value_to_string(v),
        Value::Default => "default".into(),
        _ => value_to_s(v),
    }
}

/// `obj.inspect`.
fn obj_inspect(v: &Value) -> String {
    match v {
        Value::Timespan(t) => format!("#<Puppet::Pops::Time::Timespan:0x0000000000000000 @nsecs={}>", t.nsecs),
        Value::Timestamp(t) => format!("#<Puppet::Pops::Time::Timestamp:0x0000000000000000 @nsecs={}>", t.nsecs),
        Value::SemVerRange(r) => r.canonical(),
        Value::Sensitive(_) => "#<Sensitive [value redacted]>".into(),
        Value::Default => ":default".into(),
        Value::Undef => "nil".into(),
        _ => obj_to_s(v),
    }
}

/// `rb_obj_as_string(arg)`.
pub fn to_s<'a>(arg: &'a Arg<'_>) -> Result<Cow<'a, str>, FormatError> {
    Ok(match arg {
        Arg::Int(i) => Cow::Owned(i.to_string()),
        Arg::Big(b) => Cow::Owned(b.to_string()),
        Arg::Float(f) => Cow::Owned(float_to_s(*f)),
        Arg::Str(s) => Cow::Borrowed(&**s),
        Arg::Bytes(b) => Cow::Owned(String::from_utf8_lossy(b).into_owned()),
        Arg::Obj(v) => Cow::Owned(obj_to_s(v)),
    })
}

/// `rb_inspect(arg)`.
pub fn inspect<'a>(arg: &'a Arg<'_>) -> Result<Cow<'a, str>, FormatError> {
    Ok(match arg {
        Arg::Str(s) => Cow::Owned(inspect_str(s)),
        Arg::Bytes(b) => Cow::Owned(inspect_bytes(b)),
        Arg::Obj(v) => Cow::Owned(obj_inspect(v)),
        other => to_s(other)?,
    })
}

fn no_implicit(what: &str, into: &str) -> FormatError {
    FormatError::new(format!("no implicit conversion of {what} into {into}"))
}

/// `Integer(arg)` as `format`'s integer directives convert (`rb_Integer`).
pub fn to_integer(arg: &Arg<'_>) -> Result<RInt, FormatError> {
    match arg {
        Arg::Int(i) => Ok(RInt::Small(*i)),
        Arg::Big(b) => Ok(RInt::Big(b.clone())),
        Arg::Float(f) => float_to_rint(*f),
        Arg::Str(s) => str_to_inum(s),
        Arg::Bytes(b) => str_to_inum(&String::from_utf8_lossy(b)),
        Arg::Obj(v) => match v {
            Value::Timespan(t) => Ok(RInt::Small(t.nsecs.div_euclid(NSECS_PER_SEC))),
            Value::Timestamp(t) => Ok(RInt::Small(t.nsecs.div_euclid(NSECS_PER_SEC))),
            Value::Integer(i) => Ok(RInt::Small(i128::from(*i))),
            Value::BigInt(b) => Ok(RInt::Big((**b).clone())),
            Value::Float(f) => float_to_rint(*f),
            Value::Undef => Err(FormatError::new("can't convert nil into Integer")),
            other => Err(FormatError::new(format!("can't convert {} into Integer", class_name(other)))),
        },
    }
}

fn float_to_rint(f: f64) -> Result<RInt, FormatError> {
    if f.is_nan() || f.is_infinite() {
        return Err(FormatError::new(float_to_s(f)));
    }
    let t = f.trunc();
    if t.abs() < 1.0e38 {
        Ok(RInt::Small(t as i128))
    } else {
        use num_traits::FromPrimitive;
        Ok(RInt::Big(num_bigint::BigInt::from_f64(t).unwrap_or_default()))
    }
}

/// `rb_str_to_inum(s, 0, TRUE)`: an integer literal with an optional sign and base prefix.
fn str_to_inum(s: &str) -> Result<RInt, FormatError> {
    let big = poppet_ruby::kernel::integer(s, None)
        .ok_or_else(|| FormatError::new(format!("invalid value for Integer(): {}", inspect_str(s))))?;
    use num_traits::ToPrimitive;
    Ok(match big.to_i128() {
        Some(i) => RInt::Small(i),
        None => RInt::Big(big),
    })
}

/// `Float(arg)` (`rb_Float`).
pub fn to_float(arg: &Arg<'_>) -> Result<f64, FormatError> {
    match arg {
        Arg::Int(i) => Ok(*i as f64),
        Arg::Big(b) => {
            use num_traits::ToPrimitive;
            Ok(b.to_f64().unwrap_or(f64::INFINITY))
        }
        Arg::Float(f) => Ok(*f),
        Arg::Str(s) => str_to_dbl(s),
        Arg::Bytes(b) => str_to_dbl(&String::from_utf8_lossy(b)),
        Arg::Obj(v) => match v {
            Value::Timespan(t) => Ok(fdiv_seconds(t.nsecs)),
            Value::Timestamp(t) => Ok(fdiv_seconds(t.nsecs)),
            Value::Integer(i) => Ok(*i as f64),
            Value::BigInt(_) => Ok(v.as_int().map_or(0.0, |i| i.to_f64())),
            Value::Float(f) => Ok(*f),
            Value::Undef => Err(FormatError::new("can't convert nil into Float")),
            other => Err(FormatError::new(format!("can't convert {} into Float", class_name(other)))),
        },
    }
}

/// `nsecs.fdiv(1_000_000_000)`: Ruby divides both by their greatest common divisor first,
/// then divides as doubles.
fn fdiv_seconds(nsecs: i128) -> f64 {
    let (mut a, mut b) = (nsecs.unsigned_abs(), NSECS_PER_SEC as u128);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let g = a.max(1) as i128;
    (nsecs / g) as f64 / (NSECS_PER_SEC / g) as f64
}

/// `rb_str_to_dbl(s, TRUE)`.
fn str_to_dbl(s: &str) -> Result<f64, FormatError> {
    poppet_ruby::kernel::float(s)
        .ok_or_else(|| FormatError::new(format!("invalid value for Float(): {}", inspect_str(s))))
}

/// `NUM2INT(arg)`: a C `int` for `%c` and `*` widths.
pub fn num2int(arg: &Arg<'_>) -> Result<i64, FormatError> {
    let check = |i: i128| -> Result<i64, FormatError> {
        if i > i128::from(i32::MAX) {
            Err(FormatError::new(format!("integer {i} too big to convert to `int'")))
        } else if i < i128::from(i32::MIN) {
            Err(FormatError::new(format!("integer {i} too small to convert to `int'")))
        } else {
            Ok(i as i64)
        }
    };
    match arg {
        Arg::Int(i) if i64::try_from(*i).is_ok() => check(*i),
        Arg::Int(_) | Arg::Big(_) => Err(FormatError::new("bignum too big to convert into `long'")),
        Arg::Float(f) => {
            // `rb_num2long`, then the `int` range
            if *f < 9223372036854775808.0 && *f >= -9223372036854775808.0 {
                check(f.trunc() as i128)
            } else {
                let shown = crate::sprintf::format("%-.10g", &Arg::Float(*f))?;
                Err(FormatError::new(format!("float {shown} out of range of integer")))
            }
        }
        Arg::Str(_) | Arg::Bytes(_) => Err(no_implicit("String", "Integer")),
        Arg::Obj(v) => match v {
            Value::Timespan(t) => check(t.nsecs.div_euclid(NSECS_PER_SEC)),
            Value::Timestamp(t) => check(t.nsecs.div_euclid(NSECS_PER_SEC)),
            Value::SemVer(s) => {
                Err(FormatError::new(format!("undefined method `to_i' for {s}:SemanticPuppet::Version")))
            }
            Value::Undef => Err(no_implicit("nil", "Integer")),
            other => Err(no_implicit(&class_name(other), "Integer")),
        },
    }
}

/// `rb_check_string_type(arg)`: the string, when the argument is one.
pub fn check_string_type<'a>(arg: &'a Arg<'_>) -> Option<Cow<'a, str>> {
    match arg {
        Arg::Str(s) => Some(Cow::Borrowed(&**s)),
        Arg::Bytes(b) => Some(String::from_utf8_lossy(b)),
        _ => None,
    }
}
