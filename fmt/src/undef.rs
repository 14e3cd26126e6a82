//! Undef to String (`string_PUndefType`).
//!
//! | Format    | Undef formats
//! | ------    | -------------
//! | s         | empty string, or quoted empty string if alternative flag # is used
//! | p         | 'undef', or quoted '"undef"' if alternative flag # is used
//! | n         | 'nil', or 'null' if alternative flag # is used
//! | dxXobB    | 'NaN'
//! | eEfgGaA   | 'NaN'
//! | v         | 'n/a'
//! | V         | 'N/A'
//! | u         | 'undef', or 'undefined' if alternative # flag is used

use puppet_types::Type;

use crate::error::FormatError;
use crate::map::FormatMap;
use crate::string::apply_string_flags;

/// `String(undef, format)`.
pub fn string_undef(val_type: &Type, map: &FormatMap) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    let text = match f.letter {
        'n' => pick(f.alt, "null", "nil"),
        'u' => pick(f.alt, "undefined", "undef"),
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' | 'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => "NaN",
        'v' => "n/a",
        'V' => "N/A",
        's' => pick(f.alt, "\"\"", ""),
        'p' => pick(f.alt, "\"undef\"", "undef"),
        other => return Err(FormatError::illegal("Undef", other, "nudxXobBeEfgGaAvVsp")),
    };
    apply_string_flags(&f, text)
}

fn pick(alt: bool, yes: &'static str, no: &'static str) -> &'static str {
    if alt {
        yes
    } else {
        no
    }
}
