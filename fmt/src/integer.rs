//! Integer to String (`string_PIntegerType`).
//!
//! | Format  | Integer Formats
//! | ------  | ---------------
//! | d       | Decimal, negative values produces leading '-'
//! | x X     | Hexadecimal in lower or upper case. Uses ..f/..F for negative values unless + is also used. A # adds prefix 0x/0X.
//! | o       | Octal. Uses ..0 for negative values unless + is also used. A # adds prefix 0.
//! | b B     | Binary with prefix 'b' or 'B'. Uses ..1/..1 for negative values unless + is also used
//! | c       | numeric value representing a Unicode value, result is a one unicode character string, quoted if alternative flag # is used
//! | s       | same as d, or d in quotes if alternative flag # is used
//! | p       | same as d
//! | eEfgGaA | converts integer to float and formats using the floating point rules
//!
//! Defaults to `d`. The format string goes to Ruby's `format` as it is: `%#x` is `0xff`,
//! `%+x` of -255 is `-ff`, `%x` of -255 is `..f01`, `%010.3d` pads.

use puppet_types::{Int, Type};

use crate::error::FormatError;
use crate::format::tr;
use crate::map::FormatMap;
use crate::sprintf::{format, Arg};

/// `String(i, format)` for an Integer (of any size: a Ruby bignum formats as well).
pub fn string_integer(val_type: &Type, val: &Int, map: &FormatMap) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    match f.letter {
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' | 'p' => format(&f.orig_fmt, &int_arg(val)),
        'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => format(&f.orig_fmt, &Arg::Float(val.to_f64())),
        'c' => {
            // `[val].pack("U")`, which takes a C long
            if val.as_i64().is_none() {
                return Err(FormatError::new("bignum too big to convert into `long'"));
            }
            let c = val
                .as_i64()
                .and_then(|v| u32::try_from(v).ok())
                .and_then(char::from_u32)
                .ok_or_else(|| FormatError::new("pack(U): value out of range"))?;
            let s = if f.alt { format!("\"{c}\"") } else { c.to_string() };
            format(&tr(&f.orig_fmt, 'c', 's'), &Arg::Str(s.into()))
        }
        's' => {
            let fmt = if f.alt { 'p' } else { 's' };
            format(&tr(&f.orig_fmt, 's', fmt), &Arg::Str(val.to_string().into()))
        }
        other => Err(FormatError::illegal("Integer", other, "dxXobBeEfgGaAspc")),
    }
}

/// An Integer as a format's argument.
pub(crate) fn int_arg(val: &Int) -> Arg<'static> {
    match val {
        Int::Small(i) => Arg::Int(i128::from(*i)),
        Int::Big(b) => Arg::Big((**b).clone()),
    }
}

#[cfg(test)]
mod tests {
    use puppet_types::Value;

    fn s(v: i64, fmt: &str) -> String {
        match crate::string_new(&Value::Integer(v), Some(&Value::from(fmt))) {
            Ok(s) => s,
            Err(e) => format!("!! {}", e.message),
        }
    }

    #[test]
    fn alternate_forms() {
        assert_eq!(s(255, "%#x"), "0xff");
        assert_eq!(s(255, "%#X"), "0XFF");
        assert_eq!(s(8, "%#o"), "010");
        assert_eq!(s(5, "%#b"), "0b101");
        assert_eq!(s(-255, "%#x"), "0x..f01");
        assert_eq!(s(-255, "%+#x"), "-0xff");
        assert_eq!(s(12, "%#s"), "\"12\"");
        assert_eq!(s(65, "%#c"), "\"A\"");
        assert_eq!(s(65, "%-5.1c"), "A    ");
    }

    #[test]
    fn illegal_letter() {
        assert_eq!(
            s(1, "%k"),
            "!! Illegal format 'k' specified for value of Integer type - expected one of the characters 'dxXobBeEfgGaAspc'"
        );
        assert_eq!(s(-1, "%c"), "!! pack(U): value out of range");
    }
}
