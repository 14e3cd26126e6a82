//! Conversions: `T.new(args)`, `T(args)` and `new(T, args)` for every type except String
//! (String.new is the format engine's, in the `pfmt` crate).

use crate::error::Result;
use crate::ty::Type;
use crate::value::Value;

/// `new(t, args...)`.
pub fn new_value(t: &Type, args: &[Value]) -> Result<Value> {
    let _ = args;
    Err(crate::error::Error::new(format!("Creation of new instance of type '{}' is not supported", t.name())))
}
