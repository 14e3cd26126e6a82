//! `Sensitive.new` (`PSensitiveType.new_function`, the function named `new_Sensitive`).
//!
//! ```puppet
//! dispatch from_sensitive(Sensitive value)   # the same value: Sensitive values are immutable
//! dispatch from_any(Any value)               # wrapped: Sensitive [value redacted]
//! ```
//!
//! `new` then asserts the result against the type: `Sensitive[String](1)` is
//! `Converted value from Sensitive[String].new() has wrong type, expects a
//! Sensitive[String] value, got Sensitive[Integer]`.

use std::rc::Rc;

use crate::error::Result;
use crate::ty::Type;
use crate::value::Value;

use crate::dispatch::{Dispatch, Dispatcher, Selected, Signature};

#[derive(Clone, Copy)]
enum Method {
    FromSensitive,
    FromAny,
}

fn build() -> Dispatcher<Method> {
    Dispatcher {
        name: "new_Sensitive",
        dispatches: vec![
            Dispatch::new(Method::FromSensitive).req("value", Type::Sensitive(None)),
            Dispatch::new(Method::FromAny).req("value", Type::Any),
        ],
    }
}

thread_local! {
    static FUNCTION: Dispatcher<Method> = build();
}

/// `Sensitive.new(args...)`, before `new`'s assertion of the result.
pub fn new_sensitive(args: &[Value]) -> Result<Value> {
    let undef = Value::Undef;
    let value = args.first().unwrap_or(&undef);
    FUNCTION.with(|f| match f.select(args)? {
        Selected::Call(Method::FromSensitive) => Ok(value.clone()),
        Selected::Call(Method::FromAny) | Selected::Mismatch(_) => Ok(wrap(value)),
    })
}

/// The signatures (for `Init[Sensitive]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
}

/// A Sensitive value: an existing one as it is (also when the dispatch could not tell it
/// is one), anything else wrapped.
fn wrap(value: &Value) -> Value {
    match value {
        Value::Sensitive(_) => value.clone(),
        other => Value::Sensitive(Rc::new(other.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping() {
        let s = wrap(&Value::Integer(1));
        assert!(matches!(&s, Value::Sensitive(inner) if **inner == Value::Integer(1)));
        assert!(matches!(wrap(&s), Value::Sensitive(ref inner) if **inner == Value::Integer(1)));
        let e = new_sensitive(&[]).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("'new_Sensitive' expects 1 argument, got none"));
    }
}
