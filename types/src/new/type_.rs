//! `Type.new` (`PTypeType.new_function`, the function named `new_type`): the type a string
//! spells, as Puppet's `TypeParser` reads it.
//!
//! ```puppet
//! dispatch from_string(String[1] type_string)
//! ```
//!
//! `Type('Integer[1,2]')` is `Integer[1, 2]`; an unknown name is a type reference
//! (`Type('Foo')` is `TypeReference['Foo']`). A string that is not a type expression is
//! `The expression <foo> is not a valid type specification.` (naming the offending part,
//! `<$x>` in `Integer[$x]`); one that does not parse is the parser's syntax error. The type
//! expression itself is read by [`crate::literal`].

use puppet_syntax::ast::{Expr, ExprKind};

use crate::error::{Error, Result};
use crate::ty::Type;
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

/// `TypeParser#parse(type_string)`.
fn from_string(src: &str) -> Result<Value> {
    let program = puppet_syntax::parse(src).map_err(|diags| {
        Error::new(diags.first().map(|d| d.message.clone()).unwrap_or_else(|| "Syntax error".into()))
    })?;
    let Some(body) = program.body else { return Err(invalid("")) };
    if let Some(bad) = not_a_type_spec(&body, true) {
        return Err(invalid(text_of(src, bad)));
    }
    match crate::literal::read(src) {
        Ok(v @ Value::Type(_)) => Ok(v),
        Ok(_) => Err(invalid(text_of(src, &body))),
        // a name that is no type is a reference to a type that may exist later
        Err(_) if matches!(&body.kind, ExprKind::QualifiedReference(_)) => match &body.kind {
            ExprKind::QualifiedReference(name) => Ok(Value::ty(Type::Reference(name.as_str().into()))),
            _ => Err(invalid(text_of(src, &body))),
        },
        Err(e) => Err(e),
    }
}

/// `The expression <text> is not a valid type specification.`
fn invalid(text: &str) -> Error {
    Error::new(format!("The expression <{text}> is not a valid type specification."))
}

/// The source text of an expression.
fn text_of<'s>(src: &'s str, e: &Expr) -> &'s str {
    src.get(e.span.start..e.span.end).unwrap_or(src).trim()
}

/// The first part of `e` that a type specification cannot hold: at the top a type name or
/// a parameterised one, inside parameters also literals, arrays and hashes.
fn not_a_type_spec(e: &Expr, top: bool) -> Option<&Expr> {
    match &e.kind {
        ExprKind::QualifiedReference(_) => None,
        ExprKind::Access { left, keys } => match &left.kind {
            ExprKind::QualifiedReference(_) => keys.iter().find_map(|k| not_a_type_spec(k, false)),
            _ => Some(e),
        },
        _ if top => Some(e),
        ExprKind::Integer { .. }
        | ExprKind::Float(_)
        | ExprKind::String(_)
        | ExprKind::QualifiedName(_)
        | ExprKind::Boolean(_)
        | ExprKind::Undef
        | ExprKind::Default
        | ExprKind::Regex(_) => None,
        ExprKind::Negate(inner) if matches!(inner.kind, ExprKind::Integer { .. } | ExprKind::Float(_)) => None,
        ExprKind::Array(items) => items.iter().find_map(|k| not_a_type_spec(k, false)),
        ExprKind::Hash(entries) => entries.iter().find_map(|entry| match &entry.kind {
            ExprKind::KeyedEntry { key, value } => {
                not_a_type_spec(key, false).or_else(|| not_a_type_spec(value, false))
            }
            _ => Some(entry),
        }),
        _ => Some(e),
    }
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
