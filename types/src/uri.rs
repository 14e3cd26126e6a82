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

impl Uri {
    /// A part of the URI by name (`scheme`, `userinfo`, `host`, `port`, `path`, `query`,
    /// `fragment`, `opaque`), `None` when absent.
    pub fn part(&self, name: &str) -> Option<Value> {
        let _ = name;
        None
    }
}
