//! Boolean to String (`string_PBooleanType`).
//!
//! | Format    | Boolean Formats
//! | ----      | -------------------
//! | t T       | 'true'/'false' or 'True'/'False' , first char if alternate form is used (i.e. 't'/'f' or 'T'/'F').
//! | y Y       | 'yes'/'no', 'Yes'/'No', 'y'/'n' or 'Y'/'N' if alternative flag # is used
//! | dxXobB    | numeric value 0/1 in accordance with the given format which must be valid integer format
//! | eEfgGaA   | numeric value 0.0/1.0 in accordance with the given float format and flags
//! | s         | 'true' / 'false'
//! | p         | 'true' / 'false'

use std::rc::Rc;

use puppet_types::{Type, Value};

use crate::convert::{convert_typed, Indentation};
use crate::error::FormatError;
use crate::map::FormatMap;
use crate::string::apply_string_flags;

/// `String(b, format)` for a Boolean.
pub fn string_boolean(val_type: &Type, val: bool, map: &FormatMap, ind: Indentation) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    let word = |long: &'static str, short: &'static str| apply_string_flags(&f, if f.alt { short } else { long });
    match (f.letter, val) {
        ('t', true) => word("true", "t"),
        ('t', false) => word("false", "f"),
        ('T', true) => word("True", "T"),
        ('T', false) => word("False", "F"),
        ('y', true) => word("yes", "y"),
        ('y', false) => word("no", "n"),
        ('Y', true) => word("Yes", "Y"),
        ('Y', false) => word("No", "N"),
        ('d' | 'x' | 'X' | 'o' | 'b' | 'B', _) => {
            // formatted by the integer rule with this format
            let n = Value::Integer(i64::from(val));
            let map = FormatMap { entries: vec![(Type::INTEGER, Rc::clone(&f))] };
            convert_typed(&puppet_types::infer::infer_set(&n), &n, &map, ind)
        }
        ('e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A', _) => {
            let n = Value::Float(if val { 1.0 } else { 0.0 });
            let map = FormatMap { entries: vec![(Type::FLOAT, Rc::clone(&f))] };
            convert_typed(&puppet_types::infer::infer_set(&n), &n, &map, ind)
        }
        ('s' | 'p', _) => apply_string_flags(&f, if val { "true" } else { "false" }),
        (other, _) => Err(FormatError::illegal("Boolean", other, "tTyYdxXobBeEfgGaAsp")),
    }
}

#[cfg(test)]
mod tests {
    use puppet_types::Value;

    fn s(v: bool, fmt: &str) -> String {
        match crate::string_new(&Value::Boolean(v), Some(&Value::from(fmt))) {
            Ok(s) => s,
            Err(e) => format!("!! {}", e.message),
        }
    }

    #[test]
    fn words_and_numbers() {
        assert_eq!(s(true, "%#T"), "T");
        assert_eq!(
            s(false, "%-4y|"),
            "!! The format '%-4y|' is not a valid format on the form '%<flags><width>.<prec><format>'"
        );
        assert_eq!(s(false, "%4Y"), "  No");
        assert_eq!(s(true, "%#x"), "0x1");
        assert_eq!(s(true, "%.2f"), "1.00");
        assert_eq!(s(true, "%.2s"), "tr");
    }
}
