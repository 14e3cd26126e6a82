//! `Boolean.new` (`PBooleanType.new_function`, the function named `new_boolean`).
//!
//! ```puppet
//! dispatch from_args(Variant[Integer, Float, Boolean, Enum['false','true','yes','no','y','n',true]] from)
//! argument_mismatch on_error(Any from)
//! ```
//!
//! | from                                   | result  |
//! |----------------------------------------|---------|
//! | Integer, Float                         | `from != 0` |
//! | Boolean                                | itself  |
//! | `'true'`, `'yes'`, `'y'` (any case)    | true    |
//! | `'false'`, `'no'`, `'n'` (any case)    | false   |
//!
//! Anything else: `The string 'x' cannot be converted to Boolean`,
//! `Value of type Undef cannot be converted to Boolean`.

use std::rc::Rc;

use crate::error::Result;
use crate::ty::Type;
use crate::value::Value;

use super::cannot_convert;
use crate::dispatch::{Dispatch, Dispatcher, Selected, Signature};

#[derive(Clone, Copy)]
enum Method {
    FromArgs,
    OnError,
}

fn build() -> Dispatcher<Method> {
    let words: Vec<Rc<str>> = ["false", "n", "no", "true", "y", "yes"].iter().map(|s| Rc::from(*s)).collect();
    let convertible = Type::Variant(
        vec![
            Type::INTEGER,
            Type::FLOAT,
            Type::Boolean(None),
            Type::Enum { values: words.into(), case_insensitive: true },
        ]
        .into(),
    );
    Dispatcher {
        name: "new_boolean",
        dispatches: vec![
            Dispatch::new(Method::FromArgs).req("from", convertible),
            Dispatch::new(Method::OnError).req("from", Type::Any).mismatch(),
        ],
    }
}

thread_local! {
    static FUNCTION: Dispatcher<Method> = build();
}

/// `Boolean.new(args...)`, before `new`'s assertion of the result.
pub fn new_boolean(args: &[Value]) -> Result<Value> {
    let undef = Value::Undef;
    let from = args.first().unwrap_or(&undef);
    FUNCTION.with(|f| match f.select(args)? {
        Selected::Call(Method::FromArgs) => Ok(Value::Boolean(from_args(from))),
        Selected::Call(Method::OnError) | Selected::Mismatch(_) => {
            Err(f.mismatch_error(&cannot_convert(from, "Boolean")))
        }
    })
}

/// The signatures (for `Init[Boolean]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
}

/// `from_args(from)`: numbers are true unless zero, strings by their (downcased) word.
fn from_args(from: &Value) -> bool {
    match from {
        Value::Float(f) => *f != 0.0,
        Value::Integer(n) => *n != 0,
        Value::Boolean(b) => *b,
        Value::String(s) => !matches!(s.to_lowercase().as_str(), "false" | "no" | "n"),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        assert!(from_args(&Value::from("Yes")));
        assert!(!from_args(&Value::from("FaLsE")));
        assert!(!from_args(&Value::from("N")));
        assert!(!from_args(&Value::Float(-0.0)));
        assert!(from_args(&Value::Integer(-1)));
        assert!(!from_args(&Value::Boolean(false)));
    }
}
