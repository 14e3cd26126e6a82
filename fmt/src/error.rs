//! Errors of format parsing and conversion, in Puppet's words.
//!
//! Puppet's messages come from three places, all kept word for word:
//!
//! | source | example (the input that triggers it) |
//! |--------|--------------------------------------|
//! | `Format.new` | `The format 'x' is not a valid format on the form '%<flags><width>.<prec><format>'` (`String(1, 'x')`) |
//! | a converter's letter check (`FormatError`) | `Illegal format 'k' specified for value of Integer type - expected one of the characters 'dxXobBeEfgGaAspc'` (`String(1, '%k')`) |
//! | Ruby's `format` | `malformed format string - %[` (`String(1, '%[d')`), `width too big` (`String(1, '%99999999999d')`), `too few arguments` (`String(1, "%x\n%d")`) |
//! | `new_string`'s signature | `'new_string' expects between 1 and 2 arguments, got 3` |

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

    /// `The format 'x' is not a valid format on the form '%<flags><width>.<prec><format>'`:
    /// the format does not match `FMT_PATTERN` (`String(1, 'x')`, `String(1, '%')`,
    /// `String(1, '%d%d')`).
    pub fn invalid_format(fmt: &str) -> FormatError {
        FormatError::new(format!(
            "The format '{fmt}' is not a valid format on the form '%<flags><width>.<prec><format>'"
        ))
    }

    /// `Illegal format 'k' specified for value of Integer type - expected one of the
    /// characters 'dxXobBeEfgGaAspc'`: a letter the value's converter does not know
    /// (`String(1, '%k')`, `String(true, '%k')`).
    pub fn illegal(type_string: &str, actual: char, expected: &str) -> FormatError {
        FormatError::new(format!(
            "Illegal format '{actual}' specified for value of {type_string} type - expected one of the characters '{expected}'"
        ))
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FormatError {}

impl From<puppet_types::Error> for FormatError {
    fn from(e: puppet_types::Error) -> FormatError {
        FormatError::new(e.message)
    }
}

impl From<FormatError> for puppet_types::Error {
    fn from(e: FormatError) -> puppet_types::Error {
        puppet_types::Error::new(e.message)
    }
}
