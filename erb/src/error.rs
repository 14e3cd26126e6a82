//! What stops a template: Ruby's exceptions (with Ruby's class and message), syntax errors,
//! code the interpreter does not run, and errors of the Puppet functions a template calls.

use std::fmt;

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// Ruby's `SyntaxError`.
    Syntax,
    /// Ruby that this interpreter does not run: the construct is the message.
    Unsupported,
    /// A Ruby exception, by class name (`NoMethodError`, `TypeError`, ...).
    Ruby(&'static str),
    /// An error of Puppet's (a function called through `scope`), passed through as it is.
    Puppet,
}

/// A template's failure, with the offset in the template where it happened when known.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub kind: Kind,
    pub message: String,
    pub at: Option<usize>,
    /// Raised in Puppet's own Ruby (a function the template called), not in the template:
    /// that file and line, which Puppet's message names instead of the template's.
    pub origin: Option<(String, usize)>,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn syntax(message: impl Into<String>, at: usize) -> Error {
        Error { kind: Kind::Syntax, message: message.into(), at: Some(at), origin: None }
    }

    /// Ruby the interpreter does not run: `what` names the construct.
    pub fn unsupported(what: impl Into<String>, at: usize) -> Error {
        Error { kind: Kind::Unsupported, message: what.into(), at: Some(at), origin: None }
    }

    /// A number literal that does not fit: beyond 64 bits it is unsupported.
    pub(crate) fn unsupported_or_syntax(digits: &str, at: usize) -> Error {
        if digits.is_empty() || digits.contains(|c: char| !c.is_ascii_hexdigit()) {
            Error::syntax("numeric literal without digits", at)
        } else {
            Error::unsupported("integers beyond 64 bits", at)
        }
    }

    /// A Ruby exception of class `class`.
    pub fn ruby(class: &'static str, message: impl Into<String>) -> Error {
        Error { kind: Kind::Ruby(class), message: message.into(), at: None, origin: None }
    }

    /// An error of Puppet's, with its message.
    pub fn puppet(message: impl Into<String>) -> Error {
        Error { kind: Kind::Puppet, message: message.into(), at: None, origin: None }
    }

    /// Says the error was raised at `line` of `file` in Puppet's Ruby.
    pub fn raised_in(mut self, file: impl Into<String>, line: usize) -> Error {
        self.origin = Some((file.into(), line));
        self
    }

    /// Places the error at `at` unless it already has a place.
    pub fn or_at(mut self, at: usize) -> Error {
        self.at.get_or_insert(at);
        self
    }

    /// Ruby's class of the exception (`RuntimeError`, `SyntaxError`).
    pub fn class(&self) -> &str {
        match &self.kind {
            Kind::Syntax => "SyntaxError",
            Kind::Unsupported => "NotImplementedError",
            Kind::Ruby(c) => c,
            Kind::Puppet => "Puppet::ParseError",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Unsupported => write!(f, "Ruby that Poppet's template engine does not run: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// The line and column (both from 1, the column in characters) of byte offset `at`.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}
