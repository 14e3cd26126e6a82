//! `Binary`: a sequence of bytes (`Binary('YWJj')`), and its formats.

/// The bytes of a `Binary` value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Binary(pub Vec<u8>);

use crate::error::{Error, Result};
use crate::value::Value;

/// `Binary.new(args...)`.
pub fn new_binary(args: &[Value]) -> Result<Value> {
    let _ = args;
    Err(Error::new("Binary.new is not implemented yet"))
}

impl std::fmt::Display for Binary {
    /// Strict base64, as `notice` and interpolation print a Binary.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.0)
    }
}
