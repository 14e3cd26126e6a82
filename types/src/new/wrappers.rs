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

use crate::dispatch::{Dispatch, Dispatcher, Selected, Signature};

#[derive(Clone, Copy)]
enum Method {
    FromArgs,
}

fn build() -> Dispatcher<Method> {
    Dispatcher { name: "new_unit", dispatches: vec![Dispatch::new(Method::FromArgs).req("from", Type::Any)] }
}

thread_local! {
    static FUNCTION: Dispatcher<Method> = build();
}

/// `from_args(from)`: the argument itself.
pub fn new_unit(args: &[Value]) -> Result<Value> {
    FUNCTION.with(|f| match f.select(args)? {
        Selected::Call(Method::FromArgs) | Selected::Mismatch(_) => Ok(args.first().cloned().unwrap_or(Value::Undef)),
    })
}

/// The signatures.
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
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
