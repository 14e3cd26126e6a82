//! The identity conversion (`PUnitType.new_function`, the function named `new_unit`), what
//! `NotUndef` without a type converts with: `NotUndef(1)` is 1, and `NotUndef(undef)` fails
//! `new`'s assertion (`expects a NotUndef value, got Undef`).
//!
//! `Optional[T]` and `NotUndef[T]` convert with `T`'s function and are then asserted
//! against themselves (see the dispatch in `new/mod.rs`); `Optional` without a type fails
//! as Puppet does, with Ruby's `undefined method `new_function' for nil:NilClass`.

use crate::error::Result;
use crate::ty::Type;
use crate::value::Value;

use super::dispatch::{Dispatch, Function, ParamTuple, Selected};

#[derive(Clone, Copy)]
enum Method {
    FromArgs,
}

fn build() -> Function<Method> {
    Function {
        name: "new_unit",
        dispatches: vec![Dispatch::new(Method::FromArgs).req("from", Type::Any)],
    }
}

thread_local! {
    static FUNCTION: Function<Method> = build();
}

/// `from_args(from)`: the argument itself.
pub fn new_unit(args: &[Value]) -> Result<Value> {
    FUNCTION.with(|f| match f.select(args)? {
        Selected::Call(Method::FromArgs) | Selected::Mismatch(_) => Ok(args.first().cloned().unwrap_or(Value::Undef)),
    })
}

/// The parameter tuples of the signatures.
pub(crate) fn param_tuples() -> Vec<ParamTuple> {
    FUNCTION.with(|f| f.param_tuples())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        let e = new_unit(&[Value::Integer(1), Value::Integer(2)]).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("'new_unit' expects 1 argument, got 2"));
    }
}
