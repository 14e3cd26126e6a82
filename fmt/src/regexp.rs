//! Regexp to String (`string_PRegexpType`).
//!
//! | Format    | Regexp Formats (%/)
//! | ----      | ------------------
//! | s         | / / delimiters, alternate flag replaces / delimiters with quotes
//! | p         | / / delimiters
//!
//! What Puppet 7.23 does: `%s` is the source without delimiters (`%#s` quotes it as `%p`
//! quotes strings), `%p` the source between slashes (`/a\/b/`).
//!
//! A source with characters beyond ASCII makes a Ruby regexp with the "fixed encoding"
//! option, and Puppet then shows the options: `%s` of `/é+/` is `(?-imx:é+)` (Puppet's
//! `append_flags_group`), `%p` is `/(?-mix:é+)/` (Ruby's `Regexp#to_s`, which also folds a
//! leading `(?i)` or `(?i:...)` group into the options).

use puppet_types::display::puppet_quote;
use puppet_types::regexp::{to_s as regexp_to_s, to_s_with_delimiters as regexp_to_s_with_delimiters, Regexp};
use puppet_types::Type;

use crate::error::FormatError;
use crate::format::tr;
use crate::map::FormatMap;
use crate::sprintf::{format, Arg};

/// `String(r, format)` for a Regexp.
pub fn string_regexp(val_type: &Type, val: &Regexp, map: &FormatMap) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    match f.letter {
        'p' => {
            let s = regexp_to_s_with_delimiters(val.source());
            if &*f.orig_fmt == "%p" {
                Ok(s)
            } else {
                format(&tr(&f.orig_fmt, 'p', 's'), &Arg::Str(s.into()))
            }
        }
        's' => {
            let s = regexp_to_s(val.source());
            let s = if f.alt { puppet_quote(&s) } else { s };
            if &*f.orig_fmt == "%s" {
                Ok(s)
            } else {
                format(&f.orig_fmt, &Arg::Str(s.into()))
            }
        }
        other => Err(FormatError::illegal("Regexp", other, "sp")),
    }
}
