//! `Array.new` and `Tuple.new` (`PArrayType.new_function`, the function named `new_array`;
//! a Tuple's result is then asserted against the Tuple by `new`).
//!
//! ```puppet
//! dispatch to_array(Variant[Array, Hash, Binary, Iterable] from, Boolean[false] wrap?)
//! dispatch wrapped(Any from, Boolean[true] wrap)
//! argument_mismatch on_error(Any from, Boolean wrap?)
//! ```
//!
//! | call                     | result                                        |
//! |--------------------------|-----------------------------------------------|
//! | `Array([1, 2])`          | the array                                     |
//! | `Array({a => 1})`        | `[[a, 1]]`                                    |
//! | `Array(Binary('YWJj'))`  | the bytes: `[97, 98, 99]`                     |
//! | `Array('abc')`, `Array(3)`, `Array(Integer[1, 3])` | the iteration: `[a, b, c]`, `[0, 1, 2]`, `[1, 2, 3]` |
//! | `Array(x, true)`         | `x` if it is an array, else `[x]`             |
//!
//! Anything else: `Value of type Float cannot be converted to Array`.

use crate::error::{Error, Result};
use crate::ty::Type;
use crate::value::Value;

use super::iterate;
use crate::dispatch::{Dispatch, Dispatcher, Selected, Signature};

#[derive(Clone, Copy)]
enum Method {
    ToArray,
    Wrapped,
    OnError,
}

fn build() -> Dispatcher<Method> {
    let from = Type::Variant(vec![Type::ARRAY, Type::HASH, Type::Binary, Type::Iterable(None)].into());
    Dispatcher {
        name: "new_array",
        dispatches: vec![
            Dispatch::new(Method::ToArray).req("from", from).opt("wrap", Type::Boolean(Some(false))),
            Dispatch::new(Method::Wrapped).req("from", Type::Any).req("wrap", Type::Boolean(Some(true))),
            Dispatch::new(Method::OnError).req("from", Type::Any).opt("wrap", Type::Boolean(None)).mismatch(),
        ],
    }
}

thread_local! {
    static FUNCTION: Dispatcher<Method> = build();
}

/// `Array.new(args...)` (also Tuple's), before `new`'s assertion of the result.
pub fn new_array(args: &[Value]) -> Result<Value> {
    let undef = Value::Undef;
    let from = args.first().unwrap_or(&undef);
    FUNCTION.with(|f| match f.select(args)? {
        Selected::Call(Method::ToArray) => to_array(from),
        Selected::Call(Method::Wrapped) => Ok(wrapped(from)),
        Selected::Call(Method::OnError) | Selected::Mismatch(_) => Err(f.mismatch_error(&on_error(from))),
    })
}

/// The signatures (for `Init[Array]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
}

/// `wrapped(from, true)`: an array as it is, anything else in a one-element array.
fn wrapped(from: &Value) -> Value {
    match from {
        Value::Array(_) => from.clone(),
        other => Value::array(vec![other.clone()]),
    }
}

/// `to_array(from)`: arrays as they are, hashes as pairs, binaries as bytes, iterables
/// iterated.
fn to_array(from: &Value) -> Result<Value> {
    match from {
        Value::Array(_) => Ok(from.clone()),
        Value::Binary(b) => Ok(Value::array(b.0.iter().map(|byte| Value::Integer(i64::from(*byte))).collect())),
        other => match iterate::elements(other) {
            Some(items) => Ok(Value::array(items?)),
            None => Err(Error::new(on_error(other))),
        },
    }
}

/// `on_error(from)`.
fn on_error(from: &Value) -> String {
    format!("Value of type {} cannot be converted to Array", crate::infer::infer_generalized(from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        let h: crate::value::Hash = [(Value::from("a"), Value::Integer(1))].into_iter().collect();
        let pairs = to_array(&Value::hash(h)).ok();
        assert_eq!(pairs, Some(Value::array(vec![Value::array(vec![Value::from("a"), Value::Integer(1)])])));
        assert_eq!(to_array(&Value::Integer(2)).ok(), Some(Value::array(vec![Value::Integer(0), Value::Integer(1)])));
        assert_eq!(wrapped(&Value::Integer(1)), Value::array(vec![Value::Integer(1)]));
        assert_eq!(wrapped(&Value::Undef), Value::array(vec![Value::Undef]));
        let bytes = crate::binary::Binary(vec![97, 98]);
        let r = to_array(&Value::Binary(std::rc::Rc::new(bytes))).ok();
        assert_eq!(r, Some(Value::array(vec![Value::Integer(97), Value::Integer(98)])));
    }
}
