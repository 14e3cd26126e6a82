//! Errors of format parsing and conversion, in Puppet's words.

use std::fmt;

/// A format or conversion error with Puppet's message (`Illegal format`, ...), without
/// location and without the evaluator's "Error while evaluating a Function Call, " prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub message: String,
}

impl FormatError {
    pub fn new(message: impl Into<String>) -> FormatError {
        FormatError { message: message.into() }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FormatError {}
