//! `URI`: an RFC 3986 URI as Ruby's `URI` parses it.

/// A parsed URI; equal when their strings are.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Uri {
    pub text: String,
}

use crate::error::{Error, Result};
use crate::value::Value;

/// `URI.new(args...)`.
pub fn new_uri(args: &[Value]) -> Result<Value> {
    let _ = args;
    Err(Error::new("URI.new is not implemented yet"))
}

impl std::fmt::Display for Uri {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}
