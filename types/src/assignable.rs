//! Assignability: whether every value of one type is a value of another (`_assignable?`).

use crate::ty::Type;

/// Whether `t` accepts every value of `other` (`t.assignable?(other)`).
pub fn is_assignable(t: &Type, other: &Type) -> bool {
    let _ = (t, other);
    false
}
