//! Code shared by the examples.
pub mod oracle;
