//! Puppet's `==` and the ordering its comparison operators use
//! (`pops/evaluator/compare_operator.rb`, and `EvaluatorImpl#eval_ComparisonExpression` for
//! types on the left).
//!
//! | left operand            | `==`                                   | `<` `<=` `>` `>=`                     |
//! |-------------------------|----------------------------------------|---------------------------------------|
//! | a type                  | equal types (mutually assignable)      | assignability (`A < B`: B accepts A, not equal) |
//! | String                  | String, ASCII case-insensitively       | String (`casecmp`)                    |
//! | Integer, Float          | numbers (`1 == 1.0`); a time value by its whole (Integer) or fractional (Float) seconds | numbers; Timespan, Timestamp as Float seconds |
//! | Timespan, Timestamp     | the same kind; Integer by whole seconds, Float by fractional seconds | the same kind, Integer, Float (seconds) |
//! | SemVer                  | equal versions                         | SemVer                                |
//! | `default`               | `default`                              | `default`                             |
//! | Array, Hash             | element-wise `==`                      | error                                 |
//! | anything else           | `eql?`                                 | error                                 |
//!
//! Inside arrays and hashes, types compare by `eql?` (structurally), not by assignability.

use std::cmp::Ordering;

use num_traits::FromPrimitive;

use crate::assignable::is_assignable;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::ty::Type;
use crate::value::Value;

/// Puppet's `==` operator: when the left operand is a type, the two are equal types
/// (`TypeCalculator#equals`); otherwise [`values_equal`].
pub fn equals(a: &Value, b: &Value) -> bool {
    match a {
        Value::Type(ta) => match b {
            Value::Type(tb) => type_equals(ta, tb),
            _ => false,
        },
        _ => values_equal(a, b),
    }
}

/// `CompareOperator#equals`: strings case-insensitively, numbers across Integer and Float,
/// arrays and hashes element-wise, `undef` only to `undef`, everything else by `eql?`
/// (types structurally).
pub fn values_equal(a: &Value, b: &Value) -> bool {
    let Some(_level) = crate::assignable::Nesting::enter() else { return false };
    match a {
        Value::String(x) => matches!(b, Value::String(y) if casecmp(x, y) == Ordering::Equal),
        Value::Integer(_) | Value::BigInt(_) | Value::Float(_) | Value::Timespan(_) | Value::Timestamp(_) => {
            numeric_equal(a, b)
        }
        Value::Array(x) => match b {
            Value::Array(y) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| values_equal(p, q)),
            _ => false,
        },
        Value::Hash(x) => match b {
            Value::Hash(y) => {
                x.len() == y.len() && x.iter().all(|(k, v)| values_equal(y.get(k).unwrap_or(&Value::Undef), v))
            }
            _ => false,
        },
        Value::Undef => b.is_undef(),
        Value::Type(x) => matches!(b, Value::Type(y) if type_eql(x, y)),
        // Puppet's Sensitive compares the hashes of the wrapped values.
        Value::Sensitive(x) => matches!(b, Value::Sensitive(y) if **x == **y),
        // Ruby's `URI#==`: the normalised components.
        Value::Uri(x) => matches!(b, Value::Uri(y) if x.equals(y)),
        _ => a == b,
    }
}

/// `TypeCalculator#equals`: the same type, or each assignable to the other.
pub fn type_equals(a: &Type, b: &Type) -> bool {
    type_eql(a, b) || (is_assignable(b, a) && is_assignable(a, b))
}

/// Ruby's `String#casecmp`: byte-wise comparison with ASCII letters folded to lower case.
pub fn casecmp(a: &str, b: &str) -> Ordering {
    let fold = |s: &str| s.bytes().map(|c| c.to_ascii_lowercase()).collect::<Vec<u8>>();
    fold(a).cmp(&fold(b))
}

// ---------------------------------------------------------------------------------------
// Ordering
// ---------------------------------------------------------------------------------------

/// A comparison operator of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComparisonOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl ComparisonOp {
    /// The operator as written.
    pub fn as_str(self) -> &'static str {
        match self {
            ComparisonOp::Eq => "==",
            ComparisonOp::Ne => "!=",
            ComparisonOp::Lt => "<",
            ComparisonOp::Le => "<=",
            ComparisonOp::Gt => ">",
            ComparisonOp::Ge => ">=",
        }
    }

    /// The operator written `s`.
    pub fn parse(s: &str) -> Option<ComparisonOp> {
        Some(match s {
            "==" => ComparisonOp::Eq,
            "!=" => ComparisonOp::Ne,
            "<" => ComparisonOp::Lt,
            "<=" => ComparisonOp::Le,
            ">" => ComparisonOp::Gt,
            ">=" => ComparisonOp::Ge,
            _ => return None,
        })
    }
}

/// Evaluates `a OP b` as Puppet's comparison expression does. With a type on the left the
/// operators are about assignability (`Integer[1,10] > Integer[2,3]`; two types may be
/// neither `<` nor `>=` each other); otherwise [`equals`] and [`compare`], whose errors
/// become `Comparison of: Integer < String, is not possible. Caused by '...'.`.
pub fn compare_op(op: ComparisonOp, a: &Value, b: &Value) -> Result<bool> {
    if let Value::Type(ta) = a {
        return Ok(compare_types(op, ta, b.as_type()));
    }
    let ordering = match op {
        ComparisonOp::Eq => return Ok(values_equal(a, b)),
        ComparisonOp::Ne => return Ok(!values_equal(a, b)),
        _ => compare(a, b).map_err(|e| {
            Error::new(format!(
                "Comparison of: {} {} {}, is not possible. Caused by '{}'.",
                crate::display::label(a),
                op.as_str(),
                crate::display::label(b),
                e.message
            ))
        })?,
    };
    Ok(match op {
        ComparisonOp::Lt => ordering == Ordering::Less,
        ComparisonOp::Le => ordering != Ordering::Greater,
        ComparisonOp::Gt => ordering == Ordering::Greater,
        _ => ordering != Ordering::Less,
    })
}

/// The comparison operators with a type on the left; `b` is `None` when the right operand
/// is not a type (then only `!=` holds).
fn compare_types(op: ComparisonOp, a: &Type, b: Option<&Type>) -> bool {
    let Some(b) = b else { return op == ComparisonOp::Ne };
    match op {
        ComparisonOp::Eq => type_equals(a, b),
        ComparisonOp::Ne => !type_equals(a, b),
        ComparisonOp::Lt => is_assignable(b, a) && !type_equals(a, b),
        ComparisonOp::Le => is_assignable(b, a),
        ComparisonOp::Gt => is_assignable(a, b) && !type_equals(a, b),
        ComparisonOp::Ge => is_assignable(a, b),
    }
}

/// The value of `a OP b` with a type on the left, as Puppet's evaluator gives it: mostly a
/// Boolean, but `==`, `<=` and `>=` answer what `PAnyType#assignable?` answered, and
/// `PStringType#_assignable?` answers a type of one string (`Optional['a']`'s `String['a']`,
/// a string's inferred type) asked about an Enum of one value with that value (a truthy
/// string), whatever the value: `Optional['a'] == Optional[Enum['a']]` is `'a'`,
/// `Enum['x'] <= Optional['a']` is `'x'`.
pub fn compare_types_value(op: ComparisonOp, a: &Type, b: &Value) -> Value {
    let truth = compare_types(op, a, b.as_type());
    let answer = match (op, b.as_type()) {
        (_, None) => None,
        (ComparisonOp::Eq, Some(b)) if truth && !type_eql(a, b) => assignable_answer(a, b),
        (ComparisonOp::Le, Some(b)) if truth => assignable_answer(b, a),
        (ComparisonOp::Ge, Some(b)) if truth => assignable_answer(a, b),
        _ => None,
    };
    match answer {
        Some(value) => Value::String(value),
        None => Value::Boolean(truth),
    }
}

/// When `a` accepts `b`, the string Puppet's `a.assignable?(b)` answers instead of `true`
/// (see [`compare_types_value`]), following the answer through the types that pass their
/// contained type's answer on (`Optional`, `NotUndef`, `Type`, aliases); `None` for `true`.
fn assignable_answer(a: &Type, b: &Type) -> Option<std::rc::Rc<str>> {
    let _level = crate::assignable::Nesting::enter()?;
    // `PAnyType#assignable?`, by what `b` is.
    match b {
        Type::Alias(o) if !crate::assignable::is_self_recursive(o) => return assignable_answer(a, &o.resolved_type()),
        Type::Alias(_) | Type::Variant(_) | Type::Unit | Type::Optional(None) => return None,
        Type::Optional(Some(t)) => return assignable_answer(a, t),
        Type::NotUndef(Some(t)) if !is_assignable(t, &Type::Undef) => return assignable_answer(a, t),
        _ => {}
    }
    // Each type's `_assignable?`.
    match a {
        Type::Optional(Some(t)) if !matches!(b, Type::Undef) => assignable_answer(t, b),
        Type::NotUndef(Some(t)) => assignable_answer(t, b),
        Type::Type(Some(t)) => match b {
            Type::Type(Some(bt)) => assignable_answer(t, bt),
            _ => None,
        },
        Type::Alias(x) => assignable_answer(&x.resolved_type(), b),
        Type::String(Some(crate::ty::StringParam::Value(_))) => match b {
            Type::Enum { values, case_insensitive: false } if values.len() == 1 => values.first().cloned(),
            _ => None,
        },
        _ => None,
    }
}

/// `CompareOperator#compare`: the order of two comparable values, or the reason they are
/// not comparable (the detail of Puppet's "Comparison of: ... is not possible" error,
/// which [`compare_op`] makes). A type on the left is not compared here: the comparison
/// operators ask assignability of types ([`compare_op`]).
pub fn compare(a: &Value, b: &Value) -> Result<Ordering> {
    match a {
        Value::String(x) => match b {
            Value::String(y) => Ok(casecmp(x, y)),
            _ => Err(Error::new("A String is not comparable to a non String")),
        },
        Value::Integer(_) | Value::BigInt(_) | Value::Float(_) => match b {
            Value::Integer(_) | Value::BigInt(_) | Value::Float(_) => Ok(numeric_cmp(a, b)),
            // Ruby coerces both to Float (`Numeric#coerce`): the time value's `to_f` seconds.
            Value::Timespan(_) | Value::Timestamp(_) => Ok(time_cmp(b, &Value::Float(as_f64(a))).reverse()),
            _ => Err(Error::new("A Numeric is not comparable to non Numeric")),
        },
        Value::Timespan(_) => match b {
            Value::Timespan(_) | Value::Integer(_) | Value::BigInt(_) | Value::Float(_) => Ok(time_cmp(a, b)),
            _ => Err(Error::new("Timespans are only comparable to Timespans, Integers, and Floats")),
        },
        Value::Timestamp(_) => match b {
            Value::Timestamp(_) | Value::Integer(_) | Value::BigInt(_) | Value::Float(_) => Ok(time_cmp(a, b)),
            _ => Err(Error::new("Timestamps are only comparable to Timestamps, Integers, and Floats")),
        },
        Value::SemVer(x) => match b {
            Value::SemVer(y) => Ok((**x).cmp(&**y)),
            _ => Err(Error::new("Versions not comparable to non Versions")),
        },
        Value::Default => match b {
            Value::Default => Ok(Ordering::Equal),
            _ => Err(Error::new("Symbol not comparable to non Symbol")),
        },
        _ => Err(Error::new("Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable")),
    }
}

/// `CompareOperator#match(value, pattern)`, what `case`, selectors and `URI[...]` parameters
/// use: a regexp matches strings, a type its instances, a SemVer equal versions (or strings
/// that parse as one), a SemVerRange the versions it includes, an array or a hash matches
/// element-wise, `default` matches anything; anything else by [`values_equal`].
pub fn match_value(value: &Value, pattern: &Value) -> bool {
    match pattern {
        Value::Regexp(r) => matches!(value, Value::String(s) if r.is_match(s)),
        Value::Type(t) => crate::instance::is_instance(t, value),
        Value::SemVer(v) => match value {
            Value::SemVer(x) => x == v,
            Value::String(s) => crate::semver::SemVer::parse(s).is_ok_and(|x| x == **v),
            _ => false,
        },
        Value::SemVerRange(r) => crate::semver::range_includes_value(r, value),
        Value::Array(p) => match value {
            Value::Array(a) => a.len() == p.len() && a.iter().zip(p.iter()).all(|(x, y)| match_value(x, y)),
            _ => false,
        },
        Value::Hash(p) => match value {
            Value::Hash(h) => p.iter().all(|(k, y)| match_value(h.get(k).unwrap_or(&Value::Undef), y)),
            _ => false,
        },
        Value::Default => true,
        _ => values_equal(value, pattern),
    }
}

// --- numbers ---------------------------------------------------------------------------

/// Ruby's `<=>` between an Integer and a Float: exact (no rounding of the integer).
fn int_float_cmp(i: &Int, f: f64) -> Ordering {
    if f.is_nan() {
        return Ordering::Equal;
    }
    // 2^63 as a float: floats at or above it exceed every i64.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    let i = match i {
        Int::Small(i) => *i,
        Int::Big(b) => {
            // a float this large is integral, and converts exactly
            return match num_bigint::BigInt::from_f64(f) {
                Some(whole) if f.abs() >= LIMIT => (**b).cmp(&whole),
                _ if f.is_infinite() => {
                    if f > 0.0 {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    }
                }
                _ => {
                    if i.is_negative() {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    }
                }
            };
        }
    };
    if f >= LIMIT {
        return Ordering::Less;
    }
    if f < -LIMIT {
        return Ordering::Greater;
    }
    let whole = f.trunc();
    // `whole` is within i64 here.
    let w = whole as i64;
    match i.cmp(&w) {
        Ordering::Equal => 0.0f64.partial_cmp(&(f - whole)).unwrap_or(Ordering::Equal),
        other => other,
    }
}

/// `a <=> b` for two Integer/Float values.
fn numeric_cmp(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        (Value::Float(x), _) => b.as_int().map_or(Ordering::Equal, |y| int_float_cmp(&y, *x).reverse()),
        (_, Value::Float(y)) => a.as_int().map_or(Ordering::Equal, |x| int_float_cmp(&x, *y)),
        _ => match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => Ordering::Equal,
        },
    }
}

/// An Integer or Float as a Float (Ruby's `Float(x)`).
fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Integer(i) => *i as f64,
        Value::BigInt(_) => v.as_int().map_or(0.0, |i| i.to_f64()),
        Value::Float(f) => *f,
        _ => 0.0,
    }
}

/// Nanoseconds per second.
const NSECS_PER_SEC: i128 = 1_000_000_000;

/// `TimeData#<=>`: with the same kind by nanoseconds, with an Integer by whole seconds
/// (`to_int`, rounding down), with a Float by fractional seconds (`to_f`).
fn time_cmp(a: &Value, b: &Value) -> Ordering {
    let nsecs = match a {
        Value::Timespan(t) => t.nsecs,
        Value::Timestamp(t) => t.nsecs,
        _ => return Ordering::Equal,
    };
    match b {
        Value::Timespan(t) => nsecs.cmp(&t.nsecs),
        Value::Timestamp(t) => nsecs.cmp(&t.nsecs),
        Value::Integer(i) => nsecs.div_euclid(NSECS_PER_SEC).cmp(&i128::from(*i)),
        Value::BigInt(_) => Int::Small(0).cmp(&b.as_int().unwrap_or(Int::Small(0))),
        Value::Float(f) => {
            let secs = nsecs as f64 / NSECS_PER_SEC as f64;
            secs.partial_cmp(f).unwrap_or(Ordering::Equal)
        }
        _ => Ordering::Equal,
    }
}

/// Equality of numbers and time values (`equals_Numeric`): Integer and Float exactly,
/// a time value and a number by `TimeData#<=>`, time values of the same kind by
/// nanoseconds.
fn numeric_equal(a: &Value, b: &Value) -> bool {
    let is_time = |v: &Value| matches!(v, Value::Timespan(_) | Value::Timestamp(_));
    let is_num = |v: &Value| matches!(v, Value::Integer(_) | Value::BigInt(_) | Value::Float(_));
    match (is_time(a), is_time(b)) {
        (false, false) => is_num(b) && numeric_cmp(a, b) == Ordering::Equal,
        (true, false) => is_num(b) && time_cmp(a, b) == Ordering::Equal,
        (false, true) => time_cmp(b, a) == Ordering::Equal,
        (true, true) => match (a, b) {
            (Value::Timespan(x), Value::Timespan(y)) => x.nsecs == y.nsecs,
            (Value::Timestamp(x), Value::Timestamp(y)) => x.nsecs == y.nsecs,
            _ => false,
        },
    }
}

// ---------------------------------------------------------------------------------------
// Structural equality of types
// ---------------------------------------------------------------------------------------

/// Puppet's `eql?` on types: structural, except that the members of a `Variant` and the
/// patterns of a `Pattern` compare as sets.
pub fn type_eql(a: &Type, b: &Type) -> bool {
    let Some(_level) = crate::assignable::Nesting::enter() else { return false };
    use Type as T;
    let opt = |x: &Option<std::rc::Rc<Type>>, y: &Option<std::rc::Rc<Type>>| match (x, y) {
        (None, None) => true,
        (Some(x), Some(y)) => type_eql(x, y),
        _ => false,
    };
    let list = |x: &[Type], y: &[Type]| x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| type_eql(p, q));
    match (a, b) {
        (T::Variant(x), T::Variant(y)) => x.len() == y.len() && x.iter().all(|p| y.iter().any(|q| type_eql(p, q))),
        (T::Pattern(x), T::Pattern(y)) => {
            x.len() == y.len() && x.iter().all(|p| y.iter().any(|q| p.source() == q.source()))
        }
        (T::Array { element: e1, size: s1 }, T::Array { element: e2, size: s2 }) => {
            s1 == s2 && type_eql(&crate::assignable::array_element(e1, s1), &crate::assignable::array_element(e2, s2))
        }
        (T::Hash { key: k1, value: v1, size: s1 }, T::Hash { key: k2, value: v2, size: s2 }) => {
            let (k1, v1) = crate::assignable::hash_key_value(k1, v1, s1);
            let (k2, v2) = crate::assignable::hash_key_value(k2, v2, s2);
            s1 == s2 && type_eql(&k1, &k2) && type_eql(&v1, &v2)
        }
        (T::Tuple { types: x, size: s1 }, T::Tuple { types: y, size: s2 }) => s1 == s2 && list(x, y),
        (T::Struct(x), T::Struct(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(p, q)| type_eql(&p.key_type, &q.key_type) && type_eql(&p.value_type, &q.value_type))
        }
        (T::Optional(x), T::Optional(y))
        | (T::NotUndef(x), T::NotUndef(y))
        | (T::Iterable(x), T::Iterable(y))
        | (T::Iterator(x), T::Iterator(y))
        | (T::Type(x), T::Type(y)) => opt(x, y),
        (T::Sensitive(x), T::Sensitive(y)) => {
            let any = Type::Any;
            type_eql(x.as_deref().unwrap_or(&any), y.as_deref().unwrap_or(&any))
        }
        (T::Callable(x), T::Callable(y)) => {
            opt(&x.params, &y.params) && opt(&x.block, &y.block) && opt(&x.return_type, &y.return_type)
        }
        (T::Init { ty: t1, args: a1 }, T::Init { ty: t2, args: a2 }) => opt(t1, t2) && a1 == a2,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value {
        Value::from(x)
    }

    #[test]
    fn strings_and_numbers() {
        assert!(equals(&s("a"), &s("A")));
        assert!(!equals(&s("Ä"), &s("ä")));
        assert!(equals(&Value::Integer(1), &Value::Float(1.0)));
        assert!(!equals(&Value::Integer(9_007_199_254_740_993), &Value::Float(9_007_199_254_740_992.0)));
        assert_eq!(compare(&s("a"), &s("B")).ok(), Some(Ordering::Less));
        assert_eq!(compare(&Value::Integer(2), &Value::Float(1.5)).ok(), Some(Ordering::Greater));
        assert_eq!(compare(&Value::Integer(-2), &Value::Float(-1.5)).ok(), Some(Ordering::Less));
        assert!(compare(&Value::Integer(1), &s("a")).is_err());
    }

    #[test]
    fn operator_errors() {
        let e = compare_op(ComparisonOp::Lt, &Value::Integer(1), &s("a")).unwrap_err();
        assert_eq!(
            e.message,
            "Comparison of: Integer < String, is not possible. Caused by 'A Numeric is not comparable to non Numeric'."
        );
    }

    #[test]
    fn containers() {
        let a = Value::array(vec![Value::Integer(1), Value::Float(2.0)]);
        let b = Value::array(vec![Value::Float(1.0), Value::Integer(2)]);
        assert!(equals(&a, &b));
    }

    #[test]
    fn types() {
        let a = Value::ty(Type::integer(Some(1), Some(10)));
        let b = Value::ty(Type::integer(Some(2), Some(3)));
        assert_eq!(compare_op(ComparisonOp::Gt, &a, &b).ok(), Some(true));
        assert_eq!(compare_op(ComparisonOp::Lt, &a, &b).ok(), Some(false));
        let st = Value::ty(Type::STRING);
        assert_eq!(compare_op(ComparisonOp::Lt, &a, &st).ok(), Some(false));
        assert_eq!(compare_op(ComparisonOp::Ge, &a, &st).ok(), Some(false));
    }
}
