//! Signature dispatch (`Puppet::Pops::Functions::Dispatcher`): a function is a list of
//! signatures tried in declaration order, and the first that accepts the arguments (and the
//! block) is called. This is the one mechanism behind
//!
//! - function calls: built-in functions, user functions and lambdas, through
//!   [`select_signature`];
//! - the `new` functions (`Integer.new(...)`, `SemVer(...)`, ...): each type describes its
//!   signatures once, as a `Dispatcher` whose dispatches name the method they call;
//! - `Init[T]`: what `Init[T]` accepts is asked of the same signatures
//!   ([`crate::new::new_signatures`]).
//!
//! A [`Signature`] is the parameter names, the parameter types as a `Tuple` (its size is
//! the range of argument counts) and the block's type. It accepts arguments as
//! `PCallableType#callable_with?` does: the count is in range, each argument is an instance
//! of its parameter's type (the last type for the repeated rest), a block is an instance of
//! the block type, no block only where the block is optional or absent. When no signature
//! accepts the arguments, the error is Puppet's description of the signatures,
//! [`crate::mismatch::describe_signatures`]:
//!
//! ```text
//! 'split' expects 2 arguments, got 1
//! 'new_array' parameter 'wrap' expects a Boolean value, got Integer
//! The function 'new_float' was called with arguments it does not accept. It expects one of:
//!   (Convertible = Variant[...] from, Boolean abs?)
//!     rejected: parameter 'abs' expects a Boolean value, got String
//!   (NamedArgs = Struct[{...}] hash_args)
//!     rejected: expects 1 argument, got 2
//! ```

use std::rc::Rc;

use crate::error::{Error, Result};
use crate::instance::is_instance;
use crate::mismatch::describe_signatures_with_block;
use crate::ty::{Size, StringParam, StructElement, Type, TypeAlias};
use crate::value::Value;

/// A Rust predicate standing for a parameter type's instance check.
pub type Check = fn(&Value) -> bool;

/// One signature (dispatch) of a function or lambda.
#[derive(Clone, Debug)]
pub struct Signature {
    /// The parameter names, in order.
    pub names: Vec<String>,
    /// The parameter types as a `Tuple`: one type per parameter, and a size whose minimum is
    /// the number of required parameters and whose maximum is the number of parameters, or
    /// unbounded when the last one is repeated (`Tuple[String, Integer, 1, 2]` for
    /// `(String $a, Optional[Integer] $b = 1)`; `Tuple[String, 0, default]` for
    /// `(String *$rest)`).
    pub params: Type,
    /// The block's type: `Callable[...]` for a required block, `Optional[Callable[...]]` for an
    /// optional one, `None` when the signature takes no block.
    pub block: Option<Type>,
    /// The block parameter's name, shown in the signature (`block` unless named otherwise).
    pub block_name: String,
    /// Per parameter, a predicate that decides instead of its type whether an argument is
    /// accepted (empty: the types decide). For the types whose Ruby regexps the `Regexp`
    /// dialect cannot run (SemVer's `\g<part>`); the types still word the messages.
    pub checks: Vec<Check>,
}

impl Signature {
    /// A signature without block.
    pub fn new(names: &[&str], params: Type) -> Signature {
        Signature {
            names: names.iter().map(|s| (*s).to_owned()).collect(),
            params,
            block: None,
            block_name: "block".into(),
            checks: Vec::new(),
        }
    }

    /// The same signature taking a block of type `block`.
    pub fn with_block(mut self, block: Type, name: &str) -> Signature {
        self.block = Some(block);
        self.block_name = name.to_owned();
        self
    }

    /// A signature of no parameters, to add them to with [`Signature::param`].
    pub(crate) fn empty() -> Signature {
        Signature::new(&[], Type::Tuple { types: Rc::from(Vec::new()), size: Some(Size::exact(0)) })
    }

    /// The same signature with one more parameter: required (`param`) or optional
    /// (`optional_param`).
    pub(crate) fn param(mut self, name: &str, ty: Type, required: bool) -> Signature {
        let (types, size) = self.param_types();
        let mut types = types.to_vec();
        types.push(ty);
        let count = len_i64(types.len());
        let from = if required { count } else { size.from.as_i64().unwrap_or(0).min(count) };
        self.params = Type::Tuple { types: types.into(), size: Some(Size::new(from, Some(count))) };
        self.names.push(name.to_owned());
        self
    }

    /// The parameter types and their count range.
    pub(crate) fn param_types(&self) -> (&[Type], Size) {
        match &self.params {
            Type::Tuple { types, size } => (types, Size::of_tuple(size.as_ref(), types.len())),
            Type::Array { element: Some(e), size } => (std::slice::from_ref(&**e), Size::or_any(size.as_ref())),
            _ => (&[], Size::ANY),
        }
    }

    /// The fewest and the most arguments, as counts (`usize::MAX` for no limit).
    pub(crate) fn count_range(&self) -> (usize, usize) {
        let (_, size) = self.param_types();
        let from = size.from.as_i64().and_then(|n| usize::try_from(n).ok()).unwrap_or(0);
        let to = size.max().map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(0));
        (from, to)
    }

    /// Whether the argument at `index` is accepted by its parameter (the last parameter for
    /// the repeated rest): by its check when it has one, else by its type.
    pub(crate) fn accepts_arg(&self, index: usize, arg: &Value) -> bool {
        let (types, _) = self.param_types();
        let at = index.min(types.len().saturating_sub(1));
        match self.checks.get(at) {
            Some(check) => check(arg),
            None => types.get(at).is_none_or(|t| is_instance(t, arg)),
        }
    }

    /// Whether the signature accepts `args` and `block` (`PCallableType#callable_with?`).
    pub fn accepts(&self, args: &[Value], block: Option<&Value>) -> bool {
        let block_fits = match (&self.block, block) {
            (None, None) => true,
            (None, Some(_)) => false,
            (Some(t), b) => is_instance(t, b.unwrap_or(&Value::Undef)),
        };
        block_fits && self.accepts_args(args)
    }

    /// Whether the arguments are an instance of the parameter tuple.
    fn accepts_args(&self, args: &[Value]) -> bool {
        let Type::Tuple { types, size } = &self.params else {
            return is_instance(&self.params, &Value::array(args.to_vec()));
        };
        let count_fits = match size {
            Some(s) => s.contains(len_i64(args.len())),
            None => types.is_empty() || types.len() == args.len(),
        };
        count_fits && (types.is_empty() || args.iter().enumerate().all(|(i, a)| self.accepts_arg(i, a)))
    }
}

fn len_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The dispatch of a call (`Dispatcher#dispatch`): the index of the first signature that
/// accepts `args` and `block` ([`Signature::accepts`]), or the error
/// [`crate::mismatch::describe_signatures_with_block`] words.
pub fn select_signature(name: &str, signatures: &[Signature], args: &[Value], block: Option<&Value>) -> Result<usize> {
    signatures
        .iter()
        .position(|s| s.accepts(args, block))
        .ok_or_else(|| Error::new(describe_signatures_with_block(name, signatures, args, block)))
}

// ---- the new functions ------------------------------------------------------------------

/// One `dispatch` (or `argument_mismatch`) of a function: its signature and the method it
/// calls.
pub(crate) struct Dispatch<K> {
    /// What to call when the dispatch is selected.
    pub method: K,
    pub signature: Signature,
    /// An `argument_mismatch` dispatch: it only words the error.
    pub mismatch_handler: bool,
}

impl<K> Dispatch<K> {
    pub fn new(method: K) -> Dispatch<K> {
        Dispatch { method, signature: Signature::empty(), mismatch_handler: false }
    }

    /// A required parameter (`param`).
    pub fn req(mut self, name: &str, ty: Type) -> Dispatch<K> {
        self.signature = self.signature.param(name, ty, true);
        self
    }

    /// An optional parameter (`optional_param`).
    pub fn opt(mut self, name: &str, ty: Type) -> Dispatch<K> {
        self.signature = self.signature.param(name, ty, false);
        self
    }

    /// A required parameter whose arguments `check` accepts (see [`Signature::checks`]).
    pub fn req_checked(self, name: &str, ty: Type, check: Check) -> Dispatch<K> {
        self.checked(check).req(name, ty)
    }

    /// An optional parameter whose arguments `check` accepts.
    pub fn opt_checked(self, name: &str, ty: Type, check: Check) -> Dispatch<K> {
        self.checked(check).opt(name, ty)
    }

    fn checked(mut self, check: Check) -> Dispatch<K> {
        self.signature.checks.push(check);
        self
    }

    /// Makes this an `argument_mismatch` dispatch.
    pub fn mismatch(mut self) -> Dispatch<K> {
        self.mismatch_handler = true;
        self
    }
}

/// A function's dispatches: its name (as it appears in messages) and its dispatches in
/// declaration order.
pub(crate) struct Dispatcher<K> {
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

impl<K: Copy> Dispatcher<K> {
    /// Selects the first dispatch accepting `args`, or fails with Puppet's description of
    /// the signatures.
    pub fn select(&self, args: &[Value]) -> Result<Selected<K>> {
        match self.dispatches.iter().find(|d| d.signature.accepts(args, None)) {
            Some(d) if d.mismatch_handler => Ok(Selected::Mismatch(d.method)),
            Some(d) => Ok(Selected::Call(d.method)),
            None => Err(self.no_match(args)),
        }
    }

    /// The error of arguments that no dispatch accepts.
    pub fn no_match(&self, args: &[Value]) -> Error {
        Error::new(crate::mismatch::describe_signatures(self.name, &self.signatures(), args, false))
    }

    /// The signatures of the regular dispatches (`Dispatcher#signatures`).
    pub fn signatures(&self) -> Vec<Signature> {
        self.dispatches.iter().filter(|d| !d.mismatch_handler).map(|d| d.signature.clone()).collect()
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

// ---- predicates for checks --------------------------------------------------------------

/// A Puppet hash whose keys are all among `keys` (strings), with the `required` ones present.
pub(crate) fn hash_with_keys<'a>(v: &'a Value, keys: &[&str], required: &[&str]) -> Option<&'a crate::value::Hash> {
    let Value::Hash(h) = v else { return None };
    let known = h.keys().all(|k| k.as_str().is_some_and(|k| keys.contains(&k)));
    let complete = required.iter().all(|r| h.contains_key(&Value::from(*r)));
    (known && complete).then_some(&**h)
}

/// The value of the string key `key` in `h`.
pub(crate) fn get<'a>(h: &'a crate::value::Hash, key: &str) -> Option<&'a Value> {
    h.get(&Value::from(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_counts() {
        let f: Dispatcher<u8> = Dispatcher {
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

    #[test]
    fn built_signatures() {
        let s = Signature::empty().param("a", Type::INTEGER, true).param("b", Type::STRING, false);
        assert_eq!(s.count_range(), (1, 2));
        assert!(s.accepts(&[Value::Integer(1)], None));
        assert!(s.accepts(&[Value::Integer(1), Value::from("x")], None));
        assert!(!s.accepts(&[Value::Integer(1), Value::Integer(2)], None));
        assert!(!s.accepts(&[], None));
        assert!(!s.accepts(&[Value::Integer(1)], Some(&Value::Undef)));
    }
}
