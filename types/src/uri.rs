//! `URI`: an RFC 3986 URI as Ruby's `URI` parses it.

/// A parsed URI; equal when their strings are.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Uri {
    pub text: String,
}
