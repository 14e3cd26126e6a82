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
