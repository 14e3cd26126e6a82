//! `SemVer` and `SemVerRange`, with the semantics of Puppet's `SemanticPuppet` library.

/// A semantic version.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SemVer {
    pub text: String,
}

/// A range of semantic versions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SemVerRange {
    pub text: String,
}

impl SemVerRange {
    /// Whether `v` is in the range (`SemanticPuppet::VersionRange#include?`).
    pub fn includes(&self, v: &SemVer) -> bool {
        let _ = v;
        false
    }
}

use crate::error::{Error, Result};
use crate::value::Value;

/// `SemVer.new(args...)`.
pub fn new_semver(args: &[Value]) -> Result<Value> {
    let _ = args;
    Err(Error::new("SemVer.new is not implemented yet"))
}

/// `SemVerRange.new(args...)`.
pub fn new_semver_range(args: &[Value]) -> Result<Value> {
    let _ = args;
    Err(Error::new("SemVerRange.new is not implemented yet"))
}

impl std::fmt::Display for SemVer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::fmt::Display for SemVerRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}
