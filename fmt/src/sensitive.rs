//! Sensitive to String: Puppet 7.23 has no converter of its own; the value goes to Ruby's
//! `format` as a Ruby object ([`crate::any`]). `%s` is `Sensitive [value redacted]`, `%p`
//! `#<Sensitive [value redacted]>`, and the numeric letters Ruby's
//! `can't convert Puppet::Pops::Types::PSensitiveType::Sensitive into Integer`. The
//! sensitive value itself never shows.

use puppet_types::{Type, Value};

use crate::error::FormatError;
use crate::map::FormatMap;

/// `String(Sensitive(x), format)`.
pub fn string_sensitive(val_type: &Type, val: &Value, map: &FormatMap) -> Result<String, FormatError> {
    crate::any::string_any(val_type, val, map)
}
