//! Float to String (`string_PFloatType`).
//!
//! | Format  | Float formats
//! | ------  | -------------
//! | f       | floating point in non exponential notation
//! | e E     | exponential notation with 'e' or 'E'
//! | g G     | conditional exponential with 'e' or 'E' if exponent < -4 or >= the precision
//! | a A     | hexadecimal exponential form, using 'x'/'X' as prefix and 'p'/'P' before exponent
//! | s       | converted to string using format p, then applying string formatting rule, alternate form # quotes result
//! | p       | f format with minimum significant number of fractional digits, prec has no effect
//! | dxXobBc | converts float to integer and formats using the integer rules
//!
//! Puppet's default is `%f` at top level (`String(1.5)` is `1.500000`) and `%p` inside
//! containers (`[1.5]`); `c` is in the table but Puppet 7.23 refuses it.

use puppet_types::display::float_to_s;
use puppet_types::Type;

use crate::error::FormatError;
use crate::map::FormatMap;
use crate::sprintf::{format, Arg};

/// `String(f, format)` for a Float.
pub fn string_float(val_type: &Type, val: f64, map: &FormatMap) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    match f.letter {
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' => {
            // `val.to_i`
            let int = crate::ruby::to_integer(&Arg::Float(val))?;
            let arg = match int {
                crate::sprintf::RInt::Small(i) => Arg::Int(i),
                crate::sprintf::RInt::Big(b) => Arg::Big(b),
            };
            format(&f.orig_fmt, &arg)
        }
        'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' | 'p' => format(&f.orig_fmt, &Arg::Float(val)),
        's' => {
            let s = if f.alt { format!("\"{}\"", float_to_s(val)) } else { float_to_s(val) };
            format(&f.orig_fmt, &Arg::Str(s.into()))
        }
        other => Err(FormatError::illegal("Float", other, "dxXobBeEfgGaAsp")),
    }
}

#[cfg(test)]
mod tests {
    use puppet_types::Value;

    fn s(v: f64, fmt: &str) -> String {
        match crate::string_new(&Value::Float(v), Some(&Value::from(fmt))) {
            Ok(s) => s,
            Err(e) => format!("!! {}", e.message),
        }
    }

    #[test]
    fn forms() {
        assert_eq!(s(1.5, "%p"), "1.5");
        assert_eq!(s(1e20, "%p"), "1.0e+20");
        assert_eq!(s(1e20, "%x"), "56bc75e2d63100000");
        assert_eq!(s(-1e20, "%x"), "..fa9438a1d29cf00000");
        assert_eq!(s(1.5, "%#s"), "\"1.5\"");
        assert_eq!(s(1.23456, "%010.2f"), "0000001.23");
    }
}
