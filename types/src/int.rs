//! Integers beyond 64 bits.
//!
//! Puppet's Integer is 64-bit where the language makes one: a literal, or the result of an
//! arithmetic operator, outside that range is an error. But Puppet runs on Ruby, whose
//! integers are unbounded, and some conversions hand a Ruby bignum through unchecked:
//! `Integer('1234567890123456789012')`, `Numeric(...)`, `Integer(1e30)`,
//! `abs(-9223372036854775808)`. Such a value lives on: it prints, compares, is an `Integer`
//! (inferred as `Integer[n, n]`), can be a type's bound or size, and is stopped only where it
//! meets an arithmetic result check, a 3.x function or the catalog (`Use of a Ruby Integer
//! outside of Puppet Integer max range`).
//!
//! [`Int`] is such an integer: 64-bit in the common case, a shared [`BigInt`] beyond. A big
//! one is never within the 64-bit range, so each number has exactly one form.

use std::cmp::Ordering;
use std::fmt;
use std::rc::Rc;

use num_bigint::{BigInt, Sign};
use num_traits::ToPrimitive;

/// An integer of any size (a Ruby `Integer`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Int {
    Small(i64),
    /// Always outside the 64-bit range.
    Big(Rc<BigInt>),
}

impl Int {
    /// The integer, in its one form.
    pub fn from_big(b: BigInt) -> Int {
        match b.to_i64() {
            Some(i) => Int::Small(i),
            None => Int::Big(Rc::new(b)),
        }
    }

    /// A float's integer part (Ruby's `Float#to_i`), of any size; `None` for NaN and the
    /// infinities.
    pub fn from_f64(f: f64) -> Option<Int> {
        let t = f.trunc();
        if t.abs() < 9.2e18 {
            return Some(Int::Small(t as i64));
        }
        num_traits::FromPrimitive::from_f64(t).map(Int::from_big)
    }

    /// The integer as an `i64`, when it is one.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Int::Small(i) => Some(*i),
            Int::Big(_) => None,
        }
    }

    pub fn to_big(&self) -> BigInt {
        match self {
            Int::Small(i) => BigInt::from(*i),
            Int::Big(b) => (**b).clone(),
        }
    }

    /// The integer as an `i128`, clamped at its ends (for ranges that are iterated or
    /// measured: nothing counts that far).
    pub fn saturating_i128(&self) -> i128 {
        match self {
            Int::Small(i) => i128::from(*i),
            Int::Big(b) => b.to_i128().unwrap_or(if b.sign() == Sign::Minus { i128::MIN } else { i128::MAX }),
        }
    }

    /// The nearest Float (Ruby's `Integer#to_f`).
    pub fn to_f64(&self) -> f64 {
        match self {
            Int::Small(i) => *i as f64,
            Int::Big(b) => b.to_f64().unwrap_or(f64::NAN),
        }
    }

    /// The absolute value (of `i64::MIN` too: that one is big).
    pub fn abs(&self) -> Int {
        match self {
            Int::Small(i) => {
                i.checked_abs().map_or_else(|| Int::from_big(BigInt::from(*i).magnitude().clone().into()), Int::Small)
            }
            Int::Big(b) => Int::from_big(b.magnitude().clone().into()),
        }
    }

    /// The negated value (of `i64::MIN` too).
    pub fn neg(&self) -> Int {
        match self {
            Int::Small(i) => i.checked_neg().map_or_else(|| Int::from_big(-BigInt::from(*i)), Int::Small),
            Int::Big(b) => Int::from_big(-(**b).clone()),
        }
    }

    pub fn is_negative(&self) -> bool {
        match self {
            Int::Small(i) => *i < 0,
            Int::Big(b) => b.sign() == Sign::Minus,
        }
    }

    /// The value as Puppet holds it.
    pub fn into_value(self) -> crate::Value {
        match self {
            Int::Small(i) => crate::Value::Integer(i),
            Int::Big(b) => crate::Value::BigInt(b),
        }
    }

    /// Why Puppet refuses the integer where a 64-bit one is needed (`Runtime3Converter`):
    /// `Use of a Ruby Integer outside of Puppet Integer max range, got '0x…'` (Ruby's `%x`
    /// of a negative number is `-…`).
    pub fn out_of_range_message(&self) -> String {
        let end = if self.is_negative() { "min" } else { "max" };
        let sign = if self.is_negative() { "-" } else { "" };
        format!(
            "Use of a Ruby Integer outside of Puppet Integer {end} range, got '0x{sign}{:x}'",
            self.to_big().magnitude()
        )
    }
}

/// The first Integer beyond 64 bits in a value, searching arrays and hashes (keys too), as
/// Puppet's `Runtime3Converter` meets it: where such a value enters a 3.x function or the
/// catalog, this is the one Puppet refuses.
pub fn find_big(v: &crate::Value) -> Option<Int> {
    fn walk(v: &crate::Value, depth: usize) -> Option<Int> {
        match v {
            crate::Value::BigInt(b) => Some(Int::Big(b.clone())),
            crate::Value::Array(a) if depth < 256 => a.iter().find_map(|x| walk(x, depth + 1)),
            crate::Value::Hash(h) if depth < 256 => {
                h.iter().find_map(|(k, x)| walk(k, depth + 1).or_else(|| walk(x, depth + 1)))
            }
            _ => None,
        }
    }
    walk(v, 0)
}

impl From<i64> for Int {
    fn from(i: i64) -> Int {
        Int::Small(i)
    }
}

impl From<BigInt> for Int {
    fn from(b: BigInt) -> Int {
        Int::from_big(b)
    }
}

impl Ord for Int {
    fn cmp(&self, other: &Int) -> Ordering {
        match (self, other) {
            (Int::Small(a), Int::Small(b)) => a.cmp(b),
            // a big integer lies beyond every small one, on its sign's side
            (Int::Big(a), Int::Small(_)) => {
                if a.sign() == Sign::Minus {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (Int::Small(_), Int::Big(b)) => {
                if b.sign() == Sign::Minus {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (Int::Big(a), Int::Big(b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Int) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq<i64> for Int {
    #[inline]
    fn eq(&self, other: &i64) -> bool {
        matches!(self, Int::Small(i) if i == other)
    }
}

impl PartialOrd<i64> for Int {
    #[inline]
    fn partial_cmp(&self, other: &i64) -> Option<Ordering> {
        Some(match self {
            Int::Small(i) => i.cmp(other),
            Int::Big(b) => {
                if b.sign() == Sign::Minus {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
        })
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Small(i) => write!(f, "{i}"),
            Int::Big(b) => write!(f, "{b}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(s: &str) -> Int {
        Int::from_big(s.parse().unwrap())
    }

    #[test]
    fn one_form_per_number() {
        assert_eq!(big("9223372036854775807"), Int::Small(i64::MAX));
        assert!(matches!(big("9223372036854775808"), Int::Big(_)));
    }

    #[test]
    fn order_across_forms() {
        let huge = big("123456789012345678901234567890");
        let tiny = big("-123456789012345678901234567890");
        assert!(huge > Int::Small(i64::MAX));
        assert!(tiny < Int::Small(i64::MIN));
        assert!(tiny < huge);
        assert_eq!(huge.to_string(), "123456789012345678901234567890");
    }

    #[test]
    fn message_in_ruby_hex() {
        assert_eq!(
            big("-9223372036854775809").out_of_range_message(),
            "Use of a Ruby Integer outside of Puppet Integer min range, got '0x-8000000000000001'"
        );
    }
}
