//! `Type.new` (`PTypeType.new_function`, the function named `new_type`): the type a string
//! spells, as Puppet's `TypeParser` reads it.
//!
//! ```puppet
//! dispatch from_string(String[1] type_string)
//! ```
//!
//! `Type('Integer[1,2]')` is `Integer[1, 2]`; an unknown name is a type reference
//! (`Type('Foo')` is `TypeReference['Foo']`). The string is read by Puppet's string type
//! parser ([`crate::type_parser`]), with its own messages (`Not a parameterized type <Any>`,
//! `The expression <foo> is not a valid type specification.`), not the evaluator's.

use crate::error::Result;
use crate::value::Value;

use crate::dispatch::{string_sized, Dispatch, Dispatcher, Selected, Signature};

#[derive(Clone, Copy)]
enum Method {
    FromString,
}

fn build() -> Dispatcher<Method> {
    Dispatcher {
        name: "new_type",
        dispatches: vec![Dispatch::new(Method::FromString).req("type_string", string_sized(1, None))],
    }
}

thread_local! {
    static FUNCTION: Dispatcher<Method> = build();
}

/// `Type.new(args...)`, before `new`'s assertion of the result.
pub fn new_type(args: &[Value]) -> Result<Value> {
    FUNCTION.with(|f| match f.select(args)? {
        Selected::Call(Method::FromString) | Selected::Mismatch(_) => {
            from_string(args.first().and_then(Value::as_str).unwrap_or(""))
        }
    })
}

/// The signatures (for `Init[Type]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
}

/// `TypeParser.singleton.parse(type_string, loader)`, with the static loader (the function's).
fn from_string(src: &str) -> Result<Value> {
    crate::type_parser::parse(src, &crate::type_parser::StaticLoader).map(Value::ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(src: &str) -> Option<String> {
        from_string(src).err().map(|e| e.message)
    }

    #[test]
    fn not_type_specs() {
        assert_eq!(err("foo").as_deref(), Some("The expression <foo> is not a valid type specification."));
        assert_eq!(err(" ").as_deref(), Some("The expression <> is not a valid type specification."));
        assert_eq!(err("Integer[$x]").as_deref(), Some("The expression <$x> is not a valid type specification."));
        assert_eq!(err("Integer[1+1]").as_deref(), Some("The expression <1+1> is not a valid type specification."));
        assert_eq!(
            err("Integer + 1").as_deref(),
            Some("The expression <Integer + 1> is not a valid type specification.")
        );
    }
}
