//! Values Puppet has no converter for (`string_PAnyType`): the whole format string goes to
//! Ruby's `format` with the Ruby object itself, with no check of the letter. `%s` is the
//! object's `to_s`, `%p` its `inspect`, `%d` its `Integer()`, `%f` its `Float()`; what the
//! object cannot do is Ruby's error (`can't convert SemanticPuppet::Version into Integer`).
//! A letter Ruby does not know is `malformed format string - %k`.
//!
//! Used for Timespan, Timestamp ([`crate::time`]), SemVer, SemVerRange ([`crate::semver`]),
//! Sensitive ([`crate::sensitive`]) and callables.

use puppet_types::{Type, Value};

use crate::error::FormatError;
use crate::map::FormatMap;
use crate::sprintf::{format, Arg};

/// `Kernel.format(f.orig_fmt, val)`.
pub fn string_any(val_type: &Type, val: &Value, map: &FormatMap) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    format(&f.orig_fmt, &Arg::Obj(val))
}
