//! Puppet's `==` and the ordering its comparison operators use.

use crate::value::Value;

/// Puppet's `==`.
pub fn equals(a: &Value, b: &Value) -> bool {
    a == b
}
