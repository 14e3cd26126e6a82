//! The error of conversions, parameterisation and reading: Puppet's message, without location.

use std::fmt;

/// An error with Puppet's exact wording (`The string 'x' cannot be converted to Integer`).
/// Where the message depends on how the evaluator reached the failing operation (a function
/// call prefixes "Error while evaluating a Function Call, "), the evaluator adds that part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub message: String,
    /// The message already ends with its own position (`Syntax error at ']' (line: 1,
    /// column: 6)`, a syntax error inside a string a type is parsed from): Puppet reports it as
    /// it is, without the evaluator's prefix or the call's position.
    pub positioned: bool,
}

impl Error {
    pub fn new(message: impl Into<String>) -> Error {
        Error { message: message.into(), positioned: false }
    }

    /// An error whose message carries its position ([`Error::positioned`]).
    pub fn positioned(message: impl Into<String>) -> Error {
        Error { message: message.into(), positioned: true }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
