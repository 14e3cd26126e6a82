//! Puppet's `String.new` format-map engine (`string_converter.rb`), as pure functions.
//!
//! A value's inferred type picks a format from a format map (Puppet's defaults merged with
//! the user's, most specific type first); the format (`%[flags][width][.prec]letter`)
//! renders the value.

pub mod error;

pub use error::FormatError;

use puppet_types::Value;

/// `String.new(value)` / `String(value, formats)`: `formats` is `None` (Puppet's defaults), a
/// format string (`'%#x'`), or a hash from types to formats (a format map).
pub fn string_new(value: &Value, formats: Option<&Value>) -> Result<String, FormatError> {
    let _ = (value, formats);
    Err(FormatError::new("String.new is not implemented yet"))
}
