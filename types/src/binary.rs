//! `Binary`: a sequence of bytes (`Binary('YWJj')`), and its formats.

/// The bytes of a `Binary` value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Binary(pub Vec<u8>);
