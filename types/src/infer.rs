//! Inference of a value's type: detailed (`infer_set`), reduced (`infer`) and generalized,
//! as `type($v)`, `type($v, reduced)` and `type($v, generalized)` answer.

use crate::ty::Type;
use crate::value::Value;

/// `type($v)` / `type($v, 'detailed')`.
pub fn infer_set(v: &Value) -> Type {
    let _ = v;
    Type::Any
}

/// `type($v, 'reduced')`.
pub fn infer(v: &Value) -> Type {
    let _ = v;
    Type::Any
}

/// `type($v, 'generalized')`: the generalization of the reduced type.
pub fn infer_generalized(v: &Value) -> Type {
    generalize(&infer(v))
}

/// A type without its parameters that are about values (ranges, sizes, string values).
pub fn generalize(t: &Type) -> Type {
    t.clone()
}
