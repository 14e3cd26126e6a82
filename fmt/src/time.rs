//! Timespan and Timestamp to String.
//!
//! The seed documents these tables:
//!
//! | Format | Timespan formats
//! | ------ | ----------------
//! | s      | formats according to the timespan format string '%D-%H:%M:%S'
//! | p      | programmatic representation - `"Timespan('<s>')"` where `<s>` is the result of using '%s' within quotes
//! | dxXobB | converts timespan to integer representing seconds and formats using the integer rules
//! | eEfgGaA | converts timespan to float representing seconds and fractions of second and formats using the floating point rules
//!
//! | Format | Timestamp formats
//! | ------ | -----------------
//! | s      | formats according to the timestamp format string '%FT%T.%L %Z'
//! | p      | programmatic representation - `"Timestamp('<s>')"` where `<s>` is the result of using '%s' within quotes
//! | dxXobB | converts timestamp to integer representing seconds since epoch and formats using the integer rules
//! | eEfgGaA | converts timestamp to float representing seconds since epoch and fractions of second and formats using the floating point rules
//!
//! Puppet 7.23 has no converter of its own for them: they go to Ruby's `format` as Ruby
//! objects ([`crate::any`]). So `%s` is `to_s` (`0-01:00:00.0`,
//! `2020-01-01T00:00:00.000000000 UTC`), `%d %x %o %b` the whole seconds (floored:
//! `Timespan(-1.5)` is `-2`), `%e %f %g %a` the seconds as a Float, `%c` the character of the
//! seconds, and `%p` Ruby's `inspect`, which shows an object address
//! (`#<Puppet::Pops::Time::Timespan:0x... @nsecs=3600000000000>`; here the address is 0).
//! The strftime directives (`%F`, `%H`) are Ruby's `malformed format string - %F`; they
//! belong to the `strftime` function (`puppet_types::time::strftime_timespan`).

use puppet_types::{Type, Value};

use crate::error::FormatError;
use crate::map::FormatMap;

/// `String(t, format)` for a Timespan or Timestamp.
pub fn string_time(val_type: &Type, val: &Value, map: &FormatMap) -> Result<String, FormatError> {
    crate::any::string_any(val_type, val, map)
}
