//! Binary to String (`string_PBinaryType`).
//!
//! | Format    | Default formats
//! | ------    | ---------------
//! | s         | binary as unquoted UTF-8 characters (errors if byte sequence is invalid UTF-8). Alternate form escapes non ascii bytes.
//! | p         | `'Binary("<base64strict>")'`
//! | b         | `'<base64>'` - base64 string with newlines inserted
//! | B         | `'<base64strict>'` - base64 strict string (without newlines inserted). This is the default format for #to_s.
//! | u         | `'<base64urlsafe>'` - base64 urlsafe string
//! | t         | 'Binary' - outputs the name of the type only
//! | T         | 'BINARY' - output the name of the type in all caps only
//!
//! - The alternate form flag `#` will quote the binary or base64 text output (Ruby's
//!   `inspect`: `"YWJj\n"`).
//! - The format `%#s` allows invalid UTF-8 characters and outputs all non ascii bytes as hex
//!   escaped characters on the form `\xHH` where H is a hex digit.
//! - The width and precision values are applied to the text part only in `%p` format.
//!
//! The letter is replaced by `s` (or `p` with `#`) in the whole format string before Ruby's
//! `format` renders it, as Puppet's `gsub` does.

use puppet_types::binary::Binary;
use puppet_types::Type;

use crate::error::FormatError;
use crate::format::tr;
use crate::map::FormatMap;
use crate::sprintf::{format, Arg};

/// `String(b, format)` for a Binary.
pub fn string_binary(val_type: &Type, val: &Binary, map: &FormatMap) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    let substitute = if f.alt { 'p' } else { 's' };
    let text = |letter: char, s: String| format(&tr(&f.orig_fmt, letter, substitute), &Arg::Str(s.into()));
    match f.letter {
        's' => {
            if f.alt {
                return format(&tr(&f.orig_fmt, 's', 'p'), &Arg::Bytes(&val.0));
            }
            match std::str::from_utf8(&val.0) {
                Ok(s) => format(&f.orig_fmt, &Arg::Str(s.into())),
                Err(_) => {
                    // `binary_buffer.encode('UTF-8')` fails on the first byte beyond ASCII
                    let byte = val.0.iter().find(|b| **b >= 0x80).copied().unwrap_or(0);
                    Err(FormatError::new(format!("\"\\x{byte:02X}\" from ASCII-8BIT to UTF-8")))
                }
            }
        }
        'p' => {
            let inner = format(&tr(&f.orig_fmt, 'p', 's'), &Arg::Str(val.to_base64_strict().into()))?;
            Ok(format!("Binary(\"{inner}\")"))
        }
        'b' => text('b', val.to_base64_relaxed()),
        'B' => text('B', val.to_base64_strict()),
        'u' => text('u', val.to_base64_urlsafe()),
        't' => text('t', "Binary".into()),
        'T' => text('T', "BINARY".into()),
        other => Err(FormatError::illegal("Binary", other, "bButTsp")),
    }
}
