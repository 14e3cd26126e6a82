//! URI to String (`string_PURIType`).
//!
//! | Format    | Default formats
//! | ------    | ---------------
//! | s         | URI as a string
//! | p         | `'URI(<uri as string>)'`
//!
//! - The alternate form flag `#` will quote the URI text output.

use puppet_types::display::{puppet_quote, value_to_s, value_to_string};
use puppet_types::{Type, Value};

use crate::error::FormatError;
use crate::map::FormatMap;
use crate::sprintf::{format, Arg};

/// `String(uri, format)`.
pub fn string_uri(val_type: &Type, val: &Value, map: &FormatMap) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    match f.letter {
        'p' => Ok(value_to_string(val)),
        's' => {
            let s = value_to_s(val);
            let s = if f.alt { puppet_quote(&s) } else { s };
            format(&f.orig_fmt, &Arg::Str(s.into()))
        }
        other => Err(FormatError::illegal("URI", other, "sp")),
    }
}
