//! `Timespan` and `Timestamp`.

/// A duration in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timespan {
    pub nsecs: i128,
}

/// A point in time: nanoseconds since 1970-01-01T00:00:00 UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp {
    pub nsecs: i128,
}

use crate::error::{Error, Result};
use crate::value::Value;

/// `Timespan.new(args...)`.
pub fn new_timespan(args: &[Value]) -> Result<Value> {
    let _ = args;
    Err(Error::new("Timespan.new is not implemented yet"))
}

/// `Timestamp.new(args...)`.
pub fn new_timestamp(args: &[Value]) -> Result<Value> {
    let _ = args;
    Err(Error::new("Timestamp.new is not implemented yet"))
}

impl std::fmt::Display for Timespan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.nsecs)
    }
}

impl std::fmt::Display for Timestamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.nsecs)
    }
}
