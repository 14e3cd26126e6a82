//! Puppet's `String.new` format-map engine (`string_converter.rb`), as pure functions.
//!
//! A value's inferred type picks a format from a format map (Puppet's defaults merged with
//! the user's, most specific type first); the format (`%[flags][width][.prec]letter`)
//! renders the value.
//!
//! ```
//! use puppet_types::{literal, Value};
//! let v = literal::read("[1, 'a', {b => 2.5}]").unwrap();
//! assert_eq!(pfmt::string_new(&v, None).unwrap(), "[1, 'a', {'b' => 2.5}]");
//! let hex = literal::read("{Integer => '%#x'}").unwrap();
//! assert_eq!(pfmt::string_new(&Value::Integer(255), Some(&hex)).unwrap(), "0xff");
//! assert_eq!(pfmt::string_new(&Value::Integer(255), Some(&Value::from("%08b"))).unwrap(), "11111111");
//! ```
//!
//! Layout, one file per question, one per value kind:
//! - [`format`](mod@format): one format; [`map`]: the format map; [`convert`](mod@convert): the dispatch on the value's
//!   inferred type and the indentation of `#` container formats;
//! - the converters: [`integer`], [`float`], [`string`], [`boolean`], [`regexp`], [`undef`],
//!   [`default`], [`binary`], [`uri`], [`array`](mod@array), [`hash`], [`ty`] (types), [`time`],
//!   [`semver`], [`sensitive`], [`object`] (Deferred), [`iterator`], [`any`] (the rest);
//! - [`sprintf`]: Ruby's `Kernel#format`, which renders most formats; [`ruby`]: the Ruby
//!   side of the values it is given;
//! - [`new_string`]: `String.new`'s argument checks.

pub mod any;
pub mod array;
pub mod binary;
pub mod boolean;
pub mod convert;
pub mod data;
pub mod default;
pub mod dtoa;
pub mod error;
pub mod float;
pub mod format;
pub mod hash;
pub mod integer;
pub mod iterator;
pub mod map;
pub mod new;
pub mod object;
pub mod regexp;
pub mod ruby;
pub mod semver;
pub mod sensitive;
pub mod sprintf;
pub mod string;
pub mod time;
pub mod ty;
pub mod undef;
pub mod uri;

pub use error::FormatError;
pub use format::Format;
pub use map::FormatMap;
pub use new::{new_string, new_value, string_new_hook};

use puppet_types::infer::infer_set;
use puppet_types::Value;

use convert::{convert_typed, Indentation};

/// `String.new(value)` / `String(value, formats)`: `formats` is `None` (Puppet's defaults), a
/// format string (`'%#x'`), or a hash from types to formats (a format map). The arguments
/// are checked as Puppet's `new_string` checks them (`String(1, '')` is its type mismatch).
pub fn string_new(value: &Value, formats: Option<&Value>) -> Result<String, FormatError> {
    match formats {
        None => convert(value, &default_map()),
        Some(f) => {
            let val_type = infer_set(value);
            let map = match map::cache_key(&val_type, f).and_then(|key| map::cached(f, &key)) {
                Some(map) => map,
                None => {
                    new::check_formats(value, f)?;
                    map::map_for(&val_type, f)?
                }
            };
            convert_typed(&val_type, value, &map, Indentation::DEFAULT)
        }
    }
}

/// `StringConverter#convert(value, formats)` without `new_string`'s argument checks:
/// `formats` is `default`, a format string, or a format map hash.
pub fn convert_with(value: &Value, formats: &Value) -> Result<String, FormatError> {
    let val_type = infer_set(value);
    let map = map::map_for(&val_type, formats)?;
    convert_typed(&val_type, value, &map, Indentation::DEFAULT)
}

/// Converts `value` with a format map (pure: the same value and map give the same string).
pub fn convert(value: &Value, map: &FormatMap) -> Result<String, FormatError> {
    convert_typed(&map::value_type(&[map], value), value, map, Indentation::DEFAULT)
}

/// Puppet's default format map.
fn default_map() -> FormatMap {
    FormatMap::defaults()
}

/// Test helper: `String(V, FMT)` with both read as literals (FMT as a string when it is not
/// one), or `!! MESSAGE`.
#[cfg(test)]
pub(crate) fn format_literal(v: &str, fmt: &str) -> String {
    use puppet_types::literal;
    let v = literal::read(v).unwrap_or_else(|e| panic!("{}", e.message));
    let f = literal::read(fmt).unwrap_or(Value::from(fmt));
    match string_new(&v, Some(&f)) {
        Ok(s) => s,
        Err(e) => format!("!! {}", e.message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puppet_types::literal;

    fn s(v: &str) -> String {
        let v = literal::read(v).unwrap_or_else(|e| panic!("{}", e.message));
        string_new(&v, None).unwrap_or_else(|e| format!("!! {}", e.message))
    }

    #[test]
    fn defaults() {
        assert_eq!(s("1.5"), "1.500000");
        assert_eq!(s("[1.5]"), "[1.5]");
        assert_eq!(s("[1, 'a', undef, default, true]"), "[1, 'a', undef, default, true]");
        assert_eq!(s("{a => undef}"), "{'a' => undef}");
        assert_eq!(s("undef"), "");
        assert_eq!(s("Integer[1, 2]"), "Integer[1, 2]");
        assert_eq!(s("Binary('YWJj')"), "YWJj");
        assert_eq!(s("[Binary('YWJj')]"), "[Binary(\"YWJj\")]");
        assert_eq!(s("Sensitive(1)"), "Sensitive [value redacted]");
        assert_eq!(s("Deferred('x', [1])"), "Deferred({'name' => 'x', 'arguments' => [1]})");
    }
}
