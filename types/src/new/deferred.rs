//! `Deferred.new` (the `Deferred` Pcore object type's constructor, the function named
//! `new_Deferred`).
//!
//! ```puppet
//! dispatch from_hash(Struct[{'name' => Pattern[/\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\z/], 'arguments' => Optional[Array]}] hash)
//! dispatch create(Pattern[/\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\z/] name, Optional[Array] arguments?)
//! ```
//!
//! `Deferred('x', [1])` is `Deferred({'name' => 'x', 'arguments' => [1]})`; the name is a
//! function name, or a variable name with a leading `$`.
//!
//! Puppet keeps "no arguments" (`Deferred('x')`, printed without `'arguments'`) apart from
//! "empty arguments" (`Deferred('x', [])`), and so does the value (`arguments: None`).

use std::rc::Rc;

use crate::error::Result;
use crate::ty::Type;
use crate::value::{Deferred, Value};

use super::hash_get;
use crate::dispatch::{entry, pattern, struct_of, Dispatch, Dispatcher, Selected, Signature};

/// The names a Deferred may call.
pub const NAME_PATTERN: &str = r"\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\z";

#[derive(Clone, Copy)]
enum Method {
    FromHash,
    Create,
}

fn build() -> Dispatcher<Method> {
    let name = pattern(NAME_PATTERN);
    let arguments = Type::optional(Type::ARRAY);
    Dispatcher {
        name: "new_Deferred",
        dispatches: vec![
            Dispatch::new(Method::FromHash).req(
                "hash",
                struct_of(vec![entry("name", false, name.clone()), entry("arguments", true, arguments.clone())]),
            ),
            Dispatch::new(Method::Create).req("name", name).opt("arguments", arguments),
        ],
    }
}

thread_local! {
    static FUNCTION: Dispatcher<Method> = build();
}

/// `Deferred.new(args...)`, before `new`'s assertion of the result.
pub fn new_deferred(args: &[Value]) -> Result<Value> {
    FUNCTION.with(|f| match f.select(args)? {
        Selected::Call(Method::FromHash) => match args.first() {
            Some(Value::Hash(h)) => Ok(create(hash_get(h, "name").unwrap_or(&Value::Undef), hash_get(h, "arguments"))),
            _ => Ok(create(&Value::Undef, None)),
        },
        Selected::Call(Method::Create) | Selected::Mismatch(_) => {
            Ok(create(args.first().unwrap_or(&Value::Undef), args.get(1)))
        }
    })
}

/// The signatures (for `Init[Deferred]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
}

/// The Deferred value of a name and optional arguments.
fn create(name: &Value, arguments: Option<&Value>) -> Value {
    let name: Rc<str> = name.as_str().unwrap_or("").into();
    let arguments = match arguments {
        Some(Value::Array(a)) => Some(a.to_vec()),
        _ => None,
    };
    Value::Deferred(Rc::new(Deferred { name, arguments }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        let d = create(&Value::from("x"), Some(&Value::array(vec![Value::Integer(1)])));
        assert!(matches!(d, Value::Deferred(ref d) if &*d.name == "x" && d.arguments == Some(vec![Value::Integer(1)])));
        let e = new_deferred(&[]).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("'new_Deferred' expects between 1 and 2 arguments, got none"));
    }
}
