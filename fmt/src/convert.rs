//! The dispatch of a value to its converter (Puppet's `string_visitor`, which calls
//! `string_P<Type>` for the class of the value's inferred type), and the indentation state
//! of `#` (alternate) container formats.
//!
//! | inferred type            | converter                    |
//! |--------------------------|------------------------------|
//! | Undef                    | [`crate::undef`]             |
//! | Default                  | [`crate::default`]           |
//! | Boolean                  | [`crate::boolean`]           |
//! | Integer                  | [`crate::integer`]           |
//! | Float                    | [`crate::float`]             |
//! | String                   | [`crate::string`]            |
//! | Regexp                   | [`crate::regexp`]            |
//! | Array, Tuple             | [`crate::array`]             |
//! | Hash, Struct             | [`crate::hash`]              |
//! | Type                     | [`crate::ty`]                |
//! | Binary                   | [`crate::binary`]            |
//! | URI                      | [`crate::uri`]               |
//! | Iterator                 | [`crate::iterator`]          |
//! | Object (Deferred, Error) | [`crate::object`]            |
//! | Timespan, Timestamp      | [`crate::time`] (Puppet's `string_PAnyType`) |
//! | SemVer, SemVerRange      | [`crate::semver`] (`string_PAnyType`) |
//! | Sensitive, Callable      | [`crate::sensitive`], [`crate::any`] (`string_PAnyType`) |

use puppet_types::{Int, Type, Value};

use crate::error::FormatError;
use crate::map::FormatMap;

/// How deeply containers may nest; beyond it the conversion is an error, as Ruby's stack
/// overflow is for Puppet.
pub const MAX_DEPTH: usize = 1000;

/// `StringConverter::Indentation`: the nesting level, whether the value is the first of its
/// container, and whether indenting (`#`) is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indentation {
    pub level: usize,
    pub first: bool,
    pub is_indenting: bool,
}

impl Indentation {
    /// `DEFAULT_INDENTATION`.
    pub const DEFAULT: Indentation = Indentation { level: 0, first: true, is_indenting: false };

    pub fn subsequent(self) -> Indentation {
        if self.first {
            Indentation { first: false, ..self }
        } else {
            self
        }
    }

    pub fn indenting(self, flag: bool) -> Indentation {
        Indentation { is_indenting: flag, ..self }
    }

    pub fn increase(self, flag: bool) -> Indentation {
        Indentation { level: self.level + 1, first: true, is_indenting: flag }
    }

    /// Whether a container starts on a new line.
    pub fn breaks(self) -> bool {
        self.is_indenting && self.level > 0 && !self.first
    }

    pub fn padding(self) -> String {
        "  ".repeat(self.level)
    }
}

/// `_convert(val_type, value, format_map, indentation)`.
pub fn convert_typed(val_type: &Type, value: &Value, map: &FormatMap, ind: Indentation) -> Result<String, FormatError> {
    if ind.level > MAX_DEPTH {
        return Err(FormatError::new("stack level too deep"));
    }
    match value {
        Value::Undef => crate::undef::string_undef(val_type, map),
        Value::Default => crate::default::string_default(val_type, map),
        Value::Boolean(b) => crate::boolean::string_boolean(val_type, *b, map, ind),
        Value::Integer(i) => crate::integer::string_integer(val_type, &Int::Small(*i), map),
        Value::BigInt(b) => crate::integer::string_integer(val_type, &Int::Big(b.clone()), map),
        Value::Float(f) => crate::float::string_float(val_type, *f, map),
        Value::String(s) => crate::string::string_string(val_type, s, map),
        Value::Regexp(r) => crate::regexp::string_regexp(val_type, r, map),
        Value::Array(items) => crate::array::string_array(val_type, items, map, ind),
        Value::Hash(h) => crate::hash::string_hash(val_type, h, map, ind),
        Value::Type(t) => crate::ty::string_type(val_type, t, map),
        Value::Binary(b) => crate::binary::string_binary(val_type, b, map),
        Value::Uri(_) => crate::uri::string_uri(val_type, value, map),
        Value::Iterator(_) => crate::iterator::string_iterator(value, map, ind),
        Value::Deferred(_) | Value::Object(_) => crate::object::string_object(val_type, value, map, ind),
        // `string_PObjectTypeExtension`: formatted as its base type (`Error`), so a format
        // given for the inferred `Error[undef, undef]` does not apply.
        Value::Error(_) => crate::object::string_object(&Type::Error(None), value, map, ind),
        Value::Timespan(_) | Value::Timestamp(_) => crate::time::string_time(val_type, value, map),
        Value::SemVer(_) | Value::SemVerRange(_) => crate::semver::string_semver(val_type, value, map),
        Value::Sensitive(_) => crate::sensitive::string_sensitive(val_type, value, map),
        Value::Callable(_) => crate::any::string_any(val_type, value, map),
    }
}

/// `is_container?(t)`: the types whose values are formatted with the whole format map
/// inside a container, rather than with the container's `string_formats`.
pub fn is_container(t: &Type) -> bool {
    matches!(
        t,
        Type::Array { .. }
            | Type::Hash { .. }
            | Type::Struct(_)
            | Type::Tuple { .. }
            | Type::Object(_)
            | Type::Deferred
            | Type::Error(_)
    )
}

/// `is_a_or_h?(x)`: whether a value is an Array or a Hash.
pub fn is_a_or_h(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Hash(_))
}
