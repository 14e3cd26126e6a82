//! The `assert_type` function (`functions/assert_type.rb`): its signatures, reading the
//! type when it is given as a string, and the check itself; the message of a mismatch is
//! [`crate::mismatch::assert_type_message`].

use std::rc::Rc;

use crate::dispatch::{select_signature, Signature};
use crate::mismatch::assert_type_message;
use crate::ty::{CallableType, Type};
use crate::value::Value;

/// The signatures of `assert_type` (`functions/assert_type.rb`):
/// `(Type type, Any value, Callable[Type, Type] block?)` and
/// `(String type_string, Any value, Callable[Type, Type] block?)`.
pub fn assert_type_signatures() -> Vec<Signature> {
    let block = Type::optional(Type::Callable(Rc::new(CallableType {
        params: Some(Rc::new(Type::Tuple { types: Rc::from(vec![Type::Type(None), Type::Type(None)]), size: None })),
        block: None,
        return_type: None,
    })));
    let sig = |name: &str, first: Type| {
        let params = Type::Tuple { types: Rc::from(vec![first, Type::Any]), size: None };
        Signature::new(&[name, "value"], params).with_block(block.clone(), "block")
    };
    vec![sig("type", Type::Type(None)), sig("type_string", Type::STRING)]
}

/// `assert_type(type, value)` called without a block: the value when it is an instance of the
/// type (given as a type or as a string to parse), else the mismatch
/// ([`crate::mismatch::assert_type_message`]); arguments that fit no signature give the signatures' message
/// (`'assert_type' expects 2 arguments, got 1`). With a block, Puppet calls it with the
/// expected and the inferred type on a mismatch and returns its result; that is the
/// evaluator's part ([`select_signature`] with [`assert_type_signatures`] checks the block).
pub fn assert_type_function(args: &[Value]) -> crate::Result<Value> {
    let index = select_signature("assert_type", &assert_type_signatures(), args, None)?;
    let (Some(first), Some(value)) = (args.first(), args.get(1)) else {
        return Err(crate::Error::new("'assert_type' expects 2 arguments"));
    };
    let expected = match (index, first) {
        (0, Value::Type(t)) => (**t).clone(),
        (_, Value::String(s)) => parse_type_string(s)?,
        _ => return Err(crate::Error::new("'assert_type' expects a Type or a String")),
    };
    if crate::instance::is_instance(&expected, value) {
        Ok(value.clone())
    } else {
        Err(crate::Error::new(assert_type_message(&expected, value)))
    }
}

/// `TypeParser#parse` of a type given as a string (`assert_type('Integer[1, 2]', $x)`): a type
/// name, or a type name with parameters; a name that is no type is an unresolved type
/// reference. Anything else: `The expression <1> is not a valid type specification.`
fn parse_type_string(src: &str) -> crate::Result<Type> {
    parse_type_string_with(&crate::literal::Reader::default(), src)
}

/// `parse_type_string` with the type aliases (and String conversion) of `reader`.
pub fn parse_type_string_with(reader: &crate::literal::Reader, src: &str) -> crate::Result<Type> {
    use puppet_syntax::ast::ExprKind;
    let invalid = || crate::Error::new(format!("The expression <{src}> is not a valid type specification."));
    let program = puppet_syntax::parse(src).map_err(|d| {
        crate::Error::new(d.first().map(|d| d.message.clone()).unwrap_or_else(|| "Syntax error".into()))
    })?;
    let Some(mut body) = program.body else { return Err(invalid()) };
    while let ExprKind::Block(stmts) = &body.kind {
        match stmts.as_slice() {
            [one] => body = one.clone(),
            _ => return Err(invalid()),
        }
    }
    let is_type_expr = match &body.kind {
        ExprKind::QualifiedReference(_) => true,
        ExprKind::Access { left, .. } => matches!(left.kind, ExprKind::QualifiedReference(_)),
        _ => false,
    };
    if !is_type_expr {
        return Err(invalid());
    }
    match reader.eval(&body) {
        Ok(Value::Type(ref t)) => Ok((**t).clone()),
        Ok(_) => Err(invalid()),
        Err(e) => match e.message.strip_prefix("Resource type not found: ") {
            Some(name) => Ok(Type::Reference(Rc::from(name))),
            None => Err(e),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::literal;

    fn val(src: &str) -> Value {
        literal::read(src).unwrap_or_else(|e| panic!("{src}: {e}"))
    }

    #[test]
    fn assert_type_calls() {
        let call = |args: &[Value]| assert_type_function(args).map_err(|e| e.message);
        assert_eq!(call(&[val("Integer"), val("1")]), Ok(Value::Integer(1)));
        assert_eq!(
            call(&[val("'Integer[1,2]'"), val("3")]),
            Err("assert_type(): expects an Integer[1, 2] value, got Integer[3, 3]".into())
        );
        assert_eq!(call(&[val("'Foo'"), val("1")]), Err("assert_type(): references an unresolved type 'Foo'".into()));
        assert_eq!(
            call(&[val("'foo'"), val("1")]),
            Err("The expression <foo> is not a valid type specification.".into())
        );
        assert_eq!(call(&[val("''"), val("1")]), Err("The expression <> is not a valid type specification.".into()));
        assert_eq!(call(&[val("Integer")]), Err("'assert_type' expects 2 arguments, got 1".into()));
        let expected =
            "The function 'assert_type' was called with arguments it does not accept. It expects one of:\n  \
            (Type type, Any value, Callable[Type, Type] block?)\n    \
            rejected: parameter 'type' expects a Type value, got Integer\n  \
            (String type_string, Any value, Callable[Type, Type] block?)\n    \
            rejected: parameter 'type_string' expects a String value, got Integer";
        assert_eq!(call(&[val("1"), val("1")]), Err(expected.into()));
    }
}
