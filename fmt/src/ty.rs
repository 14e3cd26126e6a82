//! Type (a type used as a value) to String (`string_PTypeType`).
//!
//! | Format    | Type formats
//! | ------    | -------------
//! | s        | The same as p, quoted if alternative flag # is used
//! | p        | Outputs the type in string form as specified by the Puppet Language
//!
//! `%#s` quotes with double quotes, without escaping (`"Struct[{'a' => Integer}]"`).

use puppet_types::display::value_to_s;
use puppet_types::{Type, Value};

use crate::error::FormatError;
use crate::format::tr;
use crate::map::FormatMap;
use crate::sprintf::{format, Arg};

/// `String(t, format)` for a type.
pub fn string_type(val_type: &Type, val: &Type, map: &FormatMap) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    let text = type_to_s(val);
    match f.letter {
        's' => {
            let s = if f.alt { format!("\"{text}\"") } else { text };
            format(&f.orig_fmt, &Arg::Str(s.into()))
        }
        'p' => format(&tr(&f.orig_fmt, 'p', 's'), &Arg::Str(text.into())),
        other => Err(FormatError::illegal("Type", other, "sp")),
    }
}

/// The type's `to_s` (`TypeFormatter#string`; Pcore's Object types expanded).
fn type_to_s(t: &Type) -> String {
    value_to_s(&Value::Type(std::rc::Rc::new(t.clone())))
}
