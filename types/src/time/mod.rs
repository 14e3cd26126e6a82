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
