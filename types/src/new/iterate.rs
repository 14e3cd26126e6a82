//! `Iterable.on(o).to_a`: the elements of an iterable value, as `Array.new` and `Hash.new`
//! take them.
//!
//! | value                         | elements                          |
//! |-------------------------------|-----------------------------------|
//! | String                        | its characters                    |
//! | Array                         | its elements                      |
//! | Hash                          | `[key, value]` pairs              |
//! | Integer n ≥ 0                 | 0, 1, …, n-1                      |
//! | the type `Integer[a, b]` (finite) | a, a+1, …, b                  |
//! | the type `Enum[values]`       | the values (sorted, as Puppet keeps them) |
//! | an alias of those types       | those of the resolved type        |
//! | Iterator                      | its source's, reversed or stepped |
//!
//! Anything else is not iterable (`None`). Puppet would build arrays of any size; here more
//! than [`MAX_ELEMENTS`] elements are an error rather than exhausted memory.

use crate::error::{Error, Result};
use crate::ty::Type;
use crate::value::{IteratorKind, Value};

/// The most elements an iteration may produce.
pub(crate) const MAX_ELEMENTS: i128 = 1 << 22;

/// The elements of `v`, `None` when it is not iterable.
pub(crate) fn elements(v: &Value) -> Option<Result<Vec<Value>>> {
    elements_at(v, 0)
}

fn elements_at(v: &Value, depth: usize) -> Option<Result<Vec<Value>>> {
    if depth > 64 {
        return Some(Err(Error::new("stack level too deep")));
    }
    match v {
        Value::String(s) => Some(Ok(s.chars().map(|c| Value::from(c.to_string().as_str())).collect())),
        Value::Array(a) => Some(Ok(a.to_vec())),
        Value::Hash(h) => Some(Ok(h.iter().map(|(k, v)| Value::array(vec![k.clone(), v.clone()])).collect())),
        Value::Integer(n) if *n >= 0 => Some(range(0, i128::from(*n) - 1)),
        Value::Type(t) => type_elements(t, depth),
        Value::Iterator(it) => {
            let source = elements_at(&it.source, depth + 1)?;
            Some(source.map(|items| match it.kind {
                IteratorKind::Forward => items,
                IteratorKind::Reverse => items.into_iter().rev().collect(),
                IteratorKind::Step(n) => {
                    let step = usize::try_from(n).unwrap_or(1).max(1);
                    items.into_iter().step_by(step).collect()
                }
            }))
        }
        _ => None,
    }
}

/// The elements of a type used as a value.
fn type_elements(t: &Type, depth: usize) -> Option<Result<Vec<Value>>> {
    match t {
        Type::Integer { from: Some(a), to: Some(b) } => Some(range(a.saturating_i128(), b.saturating_i128())),
        Type::Enum { values, .. } => Some(Ok(values.iter().map(|s| Value::String(s.clone())).collect())),
        Type::Alias(a) => elements_at(&Value::ty(a.resolved_type()), depth + 1),
        _ => None,
    }
}

/// `from..=to` as Integer values, within [`MAX_ELEMENTS`].
fn range(from: i128, to: i128) -> Result<Vec<Value>> {
    if to < from {
        return Ok(Vec::new());
    }
    if to - from + 1 > MAX_ELEMENTS {
        return Err(Error::new(format!(
            "Cannot iterate over more than {MAX_ELEMENTS} elements (the range has {})",
            to - from + 1
        )));
    }
    Ok((from..=to).filter_map(|i| i64::try_from(i).ok()).map(Value::Integer).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &Value) -> Option<Vec<i64>> {
        let items = elements(v)?.ok()?;
        Some(items.iter().filter_map(|v| if let Value::Integer(i) = v { Some(*i) } else { None }).collect())
    }

    #[test]
    fn iterables() {
        assert_eq!(ints(&Value::Integer(3)), Some(vec![0, 1, 2]));
        assert_eq!(ints(&Value::Integer(0)), Some(vec![]));
        assert_eq!(ints(&Value::Integer(-3)), None);
        assert_eq!(ints(&Value::ty(Type::integer(Some(1), Some(3)))), Some(vec![1, 2, 3]));
        assert_eq!(ints(&Value::ty(Type::INTEGER)), None);
        assert!(elements(&Value::Float(1.0)).is_none());
        assert_eq!(elements(&Value::from("ab")).and_then(|r| r.ok()).map(|v| v.len()), Some(2));
        assert!(matches!(elements(&Value::ty(Type::integer(Some(0), Some(i64::MAX)))), Some(Err(_))));
    }
}
