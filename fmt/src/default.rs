//! Default (the value `default`) to String (`string_PDefaultType`).
//!
//! | Format    | Default formats
//! | ------    | ---------------
//! | d D       | 'default' or 'Default', alternative form # causes value to be quoted
//! | s         | same as d
//! | p         | same as d

use puppet_types::Type;

use crate::error::FormatError;
use crate::map::FormatMap;
use crate::string::apply_string_flags;

/// `String(default, format)`.
pub fn string_default(val_type: &Type, map: &FormatMap) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    let text = match f.letter {
        'd' | 's' | 'p' => {
            if f.alt {
                "\"default\""
            } else {
                "default"
            }
        }
        'D' => {
            if f.alt {
                "\"Default\""
            } else {
                "Default"
            }
        }
        other => return Err(FormatError::illegal("Default", other, "dDsp")),
    };
    apply_string_flags(&f, text)
}
