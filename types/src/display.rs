//! String forms of types and values, as Puppet's `TypeFormatter` prints them.

use crate::value::Value;

/// A value as Puppet prints it in type parameters and messages.
pub fn value_to_string(_v: &Value) -> String {
    String::new()
}
