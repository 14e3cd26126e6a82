//! The dispatch of a `new` function (`Puppet::Pops::Functions::Dispatcher`): a function is
//! a list of dispatches tried in declaration order; the first whose parameters accept the
//! arguments is called. An `argument_mismatch` dispatch is called only to produce the
//! message of the error (`'new' The string 'x' cannot be converted to Integer`). When no
//! dispatch accepts the arguments, the error describes the signatures
//! (`TypeMismatchDescriber#describe_signatures`):
//!
//! ```text
//! 'new_boolean' expects 1 argument, got 2
//! 'new_array' parameter 'wrap' expects a Boolean value, got Integer
//! The function 'new_float' was called with arguments it does not accept. It expects one of:
//!   (Convertible = Variant[...] from, Boolean abs?)
//!     rejected: parameter 'abs' expects a Boolean value, got String
//!   (NamedArgs = Struct[{...}] hash_args)
//!     rejected: expects 1 argument, got 2
//! ```
//!
//! The description is [`crate::mismatch::describe_signatures`], given the dispatches as
//! [`crate::mismatch::Signature`]s.

use std::rc::Rc;

use crate::error::{Error, Result};
use crate::instance::is_instance;
use crate::mismatch::{describe_signatures, Signature};
use crate::ty::{Size, StringParam, StructElement, Type, TypeAlias};
use crate::value::Value;

/// One parameter of a dispatch.
pub(crate) struct Param {
    pub name: &'static str,
    pub ty: Type,
}

/// One `dispatch` (or `argument_mismatch`) of a function.
pub(crate) struct Dispatch<K> {
    /// What to call when the dispatch is selected.
    pub method: K,
    pub params: Vec<Param>,
    /// How many of the parameters are required (the rest are `optional_param`).
    pub required: usize,
    /// An `argument_mismatch` dispatch: it only words the error.
    pub mismatch_handler: bool,
}

impl<K> Dispatch<K> {
    pub fn new(method: K) -> Dispatch<K> {
        Dispatch { method, params: Vec::new(), required: 0, mismatch_handler: false }
    }

    /// A required parameter (`param`).
    pub fn req(mut self, name: &'static str, ty: Type) -> Dispatch<K> {
        self.params.push(Param { name, ty });
        self.required = self.params.len();
        self
    }

    /// An optional parameter (`optional_param`).
    pub fn opt(mut self, name: &'static str, ty: Type) -> Dispatch<K> {
        self.params.push(Param { name, ty });
        self
    }

    /// Makes this an `argument_mismatch` dispatch.
    pub fn mismatch(mut self) -> Dispatch<K> {
        self.mismatch_handler = true;
        self
    }

    /// Whether the dispatch accepts `args` (`Callable#callable_with?`: the count is in range
    /// and every argument is an instance of its parameter's type).
    pub fn accepts(&self, args: &[Value]) -> bool {
        args.len() >= self.required
            && args.len() <= self.params.len()
            && self.params.iter().zip(args).all(|(p, a)| is_instance(&p.ty, a))
    }

    /// The dispatch as the describer of signatures takes it.
    pub fn signature(&self) -> Signature {
        let names: Vec<&str> = self.params.iter().map(|p| p.name).collect();
        Signature::new(&names, self.param_tuple().to_type())
    }

    /// The parameter types as a `Tuple[types..., required, count]` (what `Init` compares
    /// arguments with).
    pub fn param_tuple(&self) -> ParamTuple {
        ParamTuple {
            types: self.params.iter().map(|p| p.ty.clone()).collect(),
            min: self.required,
            max: self.params.len(),
        }
    }
}

/// The parameter types of a signature and its argument count range.
#[derive(Clone, Debug)]
pub(crate) struct ParamTuple {
    pub types: Vec<Type>,
    pub min: usize,
    pub max: usize,
}

impl ParamTuple {
    /// The tuple as a `Tuple` type.
    pub fn to_type(&self) -> Type {
        let size = Size::new(self.min as i64, Some(self.max as i64));
        Type::Tuple { types: self.types.clone().into(), size: Some(size) }
    }
}

/// A `new` function: its name (as it appears in messages) and its dispatches.
pub(crate) struct Function<K> {
    pub name: &'static str,
    pub dispatches: Vec<Dispatch<K>>,
}

/// The dispatch that accepted the arguments.
pub(crate) enum Selected<K> {
    /// A regular dispatch: call its method.
    Call(K),
    /// An `argument_mismatch` dispatch: its method words the error.
    Mismatch(K),
}

impl<K: Copy> Function<K> {
    /// Selects the first dispatch accepting `args`, or fails with Puppet's description of
    /// the signatures.
    pub fn select(&self, args: &[Value]) -> Result<Selected<K>> {
        match self.dispatches.iter().find(|d| d.accepts(args)) {
            Some(d) if d.mismatch_handler => Ok(Selected::Mismatch(d.method)),
            Some(d) => Ok(Selected::Call(d.method)),
            None => {
                let signatures: Vec<Signature> = self.signatures().iter().map(|d| d.signature()).collect();
                Err(Error::new(describe_signatures(self.name, &signatures, args, false)))
            }
        }
    }

    /// The regular dispatches (`Dispatcher#signatures`).
    pub fn signatures(&self) -> Vec<&Dispatch<K>> {
        self.dispatches.iter().filter(|d| !d.mismatch_handler).collect()
    }

    /// The parameter tuples of the regular dispatches.
    pub fn param_tuples(&self) -> Vec<ParamTuple> {
        self.signatures().iter().map(|d| d.param_tuple()).collect()
    }

    /// The error an `argument_mismatch` method's message becomes: `'name' message`.
    pub fn mismatch_error(&self, message: &str) -> Error {
        Error::new(format!("'{}' {message}", self.name))
    }
}

// ---- building the parameter types ------------------------------------------------------

/// A local type alias (`local_types { type 'Name = T' }`).
pub(crate) fn alias(name: &str, t: Type) -> Type {
    Type::Alias(TypeAlias::with_type(name, t))
}

/// `Pattern[/source/]`.
pub(crate) fn pattern(source: &str) -> Type {
    Type::Pattern(vec![Rc::new(crate::regexp::Regexp::new(source))].into())
}

/// `Integer[n, n]`.
pub(crate) fn int_exactly(n: i64) -> Type {
    Type::integer(Some(n), Some(n))
}

/// `Enum[values]` (sorted as Puppet stores them).
pub(crate) fn enum_of(values: &[&str]) -> Type {
    let mut v: Vec<Rc<str>> = values.iter().map(|s| Rc::from(*s)).collect();
    v.sort();
    v.dedup();
    Type::Enum { values: v.into(), case_insensitive: false }
}

/// `String[from, to]`.
pub(crate) fn string_sized(from: i64, to: Option<i64>) -> Type {
    Type::String(Some(StringParam::Size(Size::new(from, to))))
}

/// `Array[element, from, to]`.
pub(crate) fn array_sized(element: Type, from: i64, to: Option<i64>) -> Type {
    Type::Array { element: Some(Rc::new(element)), size: Some(Size::new(from, to)) }
}

/// `Tuple[types]`.
pub(crate) fn tuple(types: Vec<Type>) -> Type {
    Type::Tuple { types: types.into(), size: None }
}

/// A `Struct` entry: `key => T`, or `Optional[key] => T` when `optional`.
pub(crate) fn entry(key: &str, optional: bool, value_type: Type) -> StructElement {
    let key_type = Type::String(Some(StringParam::Value(key.into())));
    let key_type = if optional { Type::optional(key_type) } else { key_type };
    StructElement { key_type, value_type }
}

/// `Struct[{entries}]`.
pub(crate) fn struct_of(entries: Vec<StructElement>) -> Type {
    Type::Struct(entries.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_counts() {
        let f: Function<u8> = Function {
            name: "new",
            dispatches: vec![
                Dispatch::new(0).req("a", Type::Any).opt("b", Type::Any),
                Dispatch::new(1).req("h", Type::Any),
            ],
        };
        let args = [Value::Integer(1), Value::Integer(2), Value::Integer(3)];
        let e = f.select(&args).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("'new' expects between 1 and 2 arguments, got 3"));
    }
}
