//! SemVer and SemVerRange to String.
//!
//! The seed documents these tables:
//!
//! | Format | SemVer formats
//! | ------ | --------------
//! | s      | `<major>.<minor>.<patch>[-<prerelease>][+<build>]`
//! | p      | programmatic representation - `"SemVer('<s>')"` where `<s>` is the result of using '%s' within quotes
//!
//! | Format | SemVerRange formats
//! | ------ | -------------------
//! | s      | formatted according to semver range specification
//! | p      | programmatic representation - `"SemVerRange('<s>')"` where `<s>` is the result of using '%s' within quotes
//!
//! Puppet 7.23 has no converter of its own for them: they go to Ruby's `format` as Ruby
//! objects ([`crate::any`]). `%s` is the version (`1.2.3-rc1+b`) or the range as written
//! (`>=1.0 <2`); `%p` is `inspect`: the version, or the normalised range (`>=1.0.0 <2.0.0`);
//! numeric letters are Ruby's `can't convert SemanticPuppet::Version into Integer`.

use puppet_types::{Type, Value};

use crate::error::FormatError;
use crate::map::FormatMap;

/// `String(v, format)` for a SemVer or SemVerRange.
pub fn string_semver(val_type: &Type, val: &Value, map: &FormatMap) -> Result<String, FormatError> {
    crate::any::string_any(val_type, val, map)
}
