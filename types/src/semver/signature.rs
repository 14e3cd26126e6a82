//! The dispatch of the `new` functions of SemVer, SemVerRange, Binary and URI
//! (`Puppet::Pops::Functions::Dispatcher`): the first signature whose parameters accept the
//! arguments is called; when none does, the error describes them as
//! `TypeMismatchDescriber#describe_signatures` does:
//!
//! ```text
//! 'new_Version' expects between 1 and 5 arguments, got 2
//! The function 'new_Binary' was called with arguments it does not accept. It expects one of:
//!   (String str, Base64Format = Enum['%B', '%b', '%r', '%s', '%u'] format?)
//!     rejected: parameter 'format' expects a match for Base64Format = Enum[...], got '%x'
//!   (Array[ByteInteger] byte_array)
//!     rejected: expects 1 argument, got 2
//! ```
//!
//! Whether an argument is accepted is decided here by Rust predicates (Puppet's parameter
//! types use Ruby regexps the `Regexp` dialect cannot run, such as `\g<part>`); the types
//! themselves are built only to word a rejection, by [`crate::mismatch::describe_value`].
//! (`crate::new` has a general dispatcher of its own, private to that module.)

use std::rc::Rc;

use crate::error::Error;
use crate::regexp::Regexp;
use crate::ty::{Size, StringParam, StructElement, Type, TypeAlias};
use crate::value::Value;

/// One parameter: its name, whether it accepts a value, and its type for messages.
pub(crate) struct Param {
    pub name: &'static str,
    pub accepts: fn(&Value) -> bool,
    pub ty: fn() -> Type,
}

/// One `dispatch`: its parameters, how many are required (the rest are `optional_param`),
/// and the signature as Puppet prints it in "It expects one of:".
pub(crate) struct Signature {
    pub text: &'static str,
    pub params: &'static [Param],
    pub required: usize,
}

impl Signature {
    fn count_ok(&self, n: usize) -> bool {
        n >= self.required && n <= self.params.len()
    }

    fn accepts(&self, args: &[Value]) -> bool {
        self.count_ok(args.len()) && self.params.iter().zip(args).all(|(p, a)| (p.accepts)(a))
    }

    /// Why the signature rejects `args`: the count, or each rejected argument (its
    /// description may span several lines).
    fn rejections(&self, args: &[Value]) -> Vec<String> {
        if !self.count_ok(args.len()) {
            return vec![count_message(self.required, self.params.len(), args.len())];
        }
        let mut out = Vec::new();
        for (p, a) in self.params.iter().zip(args) {
            if !(p.accepts)(a) {
                let text = crate::mismatch::describe_value(&format!("parameter '{}'", p.name), &(p.ty)(), a);
                out.extend(text.split('\n').map(|l| l.trim_start().to_owned()));
            }
        }
        out
    }
}

/// The index of the first signature accepting `args`.
pub(crate) fn select(signatures: &[Signature], args: &[Value]) -> Option<usize> {
    signatures.iter().position(|s| s.accepts(args))
}

/// The error of a call of the function `name` that none of `signatures` accepts.
pub(crate) fn mismatch(name: &str, signatures: &[Signature], args: &[Value]) -> Error {
    let counts_only = signatures.iter().all(|s| !s.count_ok(args.len()));
    if counts_only {
        let min = signatures.iter().map(|s| s.required).min().unwrap_or(0);
        let max = signatures.iter().map(|s| s.params.len()).max().unwrap_or(0);
        return Error::new(format!("'{name}' {}", count_message(min, max, args.len())));
    }
    let mut out = format!("The function '{name}' was called with arguments it does not accept. It expects one of:");
    for s in signatures {
        out.push_str(&format!("\n  ({})", s.text));
        for line in s.rejections(args) {
            out.push_str(&format!("\n    rejected: {line}"));
        }
    }
    Error::new(out)
}

/// `CountMismatch#message`: `expects between 1 and 3 arguments, got 4`.
pub(crate) fn count_message(min: usize, max: usize, actual: usize) -> String {
    let plural = if max == 1 && min <= 1 { "" } else { "s" };
    let expected = if min == max {
        min.to_string()
    } else if min == 0 {
        format!("at most {max}")
    } else {
        format!("between {min} and {max}")
    };
    let got = if actual == 0 { "none".to_owned() } else { actual.to_string() };
    format!("expects {expected} argument{plural}, got {got}")
}

// ---- predicates ------------------------------------------------------------------------

/// A Puppet hash whose keys are all among `keys` (strings), with the `required` ones present.
pub(crate) fn hash_with_keys<'a>(v: &'a Value, keys: &[&str], required: &[&str]) -> Option<&'a crate::value::Hash> {
    let Value::Hash(h) = v else { return None };
    let known = h.keys().all(|k| k.as_str().is_some_and(|k| keys.contains(&k)));
    let complete = required.iter().all(|r| h.contains_key(&Value::from(*r)));
    (known && complete).then_some(&**h)
}

/// The value of `key` in `h`.
pub(crate) fn get<'a>(h: &'a crate::value::Hash, key: &str) -> Option<&'a Value> {
    h.get(&Value::from(key))
}

// ---- types, for messages -----------------------------------------------------------------

/// `Name = T`, a local type alias.
pub(crate) fn alias(name: &str, t: Type) -> Type {
    Type::Alias(TypeAlias::with_type(name, t))
}

/// `Pattern[/source/]`.
pub(crate) fn pattern(source: &str) -> Type {
    Type::Pattern(vec![Rc::new(Regexp::new(source))].into())
}

/// `String[from]`.
pub(crate) fn string_min(from: i64) -> Type {
    Type::String(Some(StringParam::Size(Size::new(from, None))))
}

/// `Enum[values]`, sorted as Puppet keeps them.
pub(crate) fn enum_of(values: &[&str]) -> Type {
    let mut v: Vec<Rc<str>> = values.iter().map(|s| Rc::from(*s)).collect();
    v.sort();
    Type::Enum { values: v.into(), case_insensitive: false }
}

/// A struct entry `'key' => T`, or `Optional['key'] => T`.
pub(crate) fn entry(key: &str, optional: bool, value_type: Type) -> StructElement {
    let key_type = Type::String(Some(StringParam::Value(key.into())));
    let key_type = if optional { Type::optional(key_type) } else { key_type };
    StructElement { key_type, value_type }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(count_message(1, 5, 2), "expects between 1 and 5 arguments, got 2");
        assert_eq!(count_message(1, 3, 0), "expects between 1 and 3 arguments, got none");
        assert_eq!(count_message(1, 1, 2), "expects 1 argument, got 2");
        assert_eq!(count_message(2, 2, 1), "expects 2 arguments, got 1");
    }
}
