//! `Init[T, args...]` (`PInitType#new_function`, the function named `new_Init`): a type
//! that converts its argument to `T` with `T`'s new function.
//!
//! - `Init` without a type converts nothing: `Creation of new instance of type 'Init' is
//!   not supported`; neither do `Init[Init[..]]`, `Init[Optional[..]]`, `Init[NotUndef[..]]`
//!   or `Init[T]` of a `T` without a new function.
//! - `Init[T]` takes one argument. An array is spread over `T`'s parameters
//!   (`Init[Integer](['12', 8])` is `Integer('12', 8)`) unless it matches `T` or the first
//!   parameter of a one-parameter signature of `T` (`Init[Array]([1, 2])` is
//!   `Array([1, 2])`); anything else is the one argument (`Init[Integer]('3')`).
//! - `Init[T, a, b]` takes one argument `v` and calls `T(v, a, b)`; the extra arguments must
//!   suit one of `T`'s signatures, else `The type 'Init[Integer, 'x']' does not represent a
//!   valid set of parameters for Integer.new()`.
//!
//! The conversion's result is asserted against `T` by that inner `new`, then against the
//! `Init` type itself.

use crate::dispatch::{Dispatch, Dispatcher, Selected, Signature};
use crate::error::{Error, Result};
use crate::instance::is_instance;
use crate::normalize::maybe_create_variant;
use crate::ty::Type;
use crate::value::Value;

use super::{not_supported, signatures, New};

/// What `Init[T, args...]` accepts besides instances of `T` (`PInitType#assert_initialized`),
/// from `T`'s signatures: as a value, the one argument of a one-parameter signature (with
/// init arguments: of the signatures that take them after it); as an array, the arguments of
/// another signature, or, when one of those takes a single argument, that argument. The
/// instance check of `Init` and its conversion ask the signatures themselves; assignability
/// asks the types.
#[derive(Debug, Default)]
pub(crate) struct InitSignatures {
    single: Vec<Signature>,
    other: Vec<Signature>,
    /// `T` and the first parameter types of the single signatures, as one type.
    pub single_type: Option<Type>,
    /// The parameter tuples of the other signatures, as one type.
    pub other_type: Option<Type>,
    /// Whether one of the other signatures takes a single argument.
    pub has_optional_single: bool,
    /// With init arguments: whether any signature takes them.
    pub args_fit: bool,
}

impl InitSignatures {
    /// Whether `v` is the one argument of a single signature.
    pub fn single_accepts(&self, v: &Value) -> bool {
        self.single.iter().any(|s| s.accepts_arg(0, v))
    }

    /// Whether `v` is an array of the arguments of another signature.
    pub fn other_accepts_args(&self, v: &Value) -> bool {
        matches!(v, Value::Array(items) if self.other.iter().any(|s| s.accepts(items, None)))
    }

    /// Whether `v` is the one argument of another signature that takes a single argument.
    pub fn other_accepts_one(&self, v: &Value) -> bool {
        self.has_optional_single && self.other.iter().any(|s| s.accepts(std::slice::from_ref(v), None))
    }
}

/// The signatures of `T.new` as `Init[T, init_args]` uses them; the error when `T` has no
/// `new` fit for `Init` (`Init`, `Optional` and `NotUndef` types have none).
pub(crate) fn init_signatures(ty: &Type, init_args: &[Value], depth: usize) -> Result<InitSignatures> {
    if matches!(ty, Type::Init { .. } | Type::Optional(_) | Type::NotUndef(_)) {
        return Err(not_supported(ty));
    }
    let sigs = signatures(ty, depth + 1).map_err(|_| not_supported(ty))?;
    let mut single_types = vec![ty.clone()];
    let mut init = InitSignatures::default();
    if init_args.is_empty() {
        let (single, other): (Vec<Signature>, Vec<Signature>) =
            sigs.into_iter().partition(|s| s.count_range() == (1, 1));
        single_types.extend(single.iter().filter_map(|s| s.param_types().0.first().cloned()));
        init.has_optional_single = other.iter().any(|s| s.count_range().0 == 1);
        if !other.is_empty() {
            init.other_type = Some(maybe_create_variant(other.iter().map(|s| s.params.clone()).collect()));
        }
        init.single = single;
        init.other = other;
        init.args_fit = true;
    } else {
        let count = 1 + init_args.len();
        let suitable: Vec<Signature> = sigs
            .into_iter()
            .filter(|s| {
                let (min, max) = s.count_range();
                (min..=max).contains(&count) && init_args.iter().enumerate().all(|(i, a)| s.accepts_arg(i + 1, a))
            })
            .collect();
        single_types.extend(suitable.iter().filter_map(|s| s.param_types().0.first().cloned()));
        init.args_fit = !suitable.is_empty();
        init.single = suitable;
    }
    init.single_type = Some(maybe_create_variant(single_types));
    Ok(init)
}

/// `The type 'Init[Integer, 'x']' does not represent a valid set of parameters for
/// Integer.new()`.
pub(crate) fn invalid_init_args(init_t: &Type, ty: &Type) -> Error {
    Error::new(format!(
        "The type '{init_t}' does not represent a valid set of parameters for {}.new()",
        crate::infer::generalize(ty).name()
    ))
}

#[derive(Clone, Copy)]
enum Method {
    FromArray,
    Create,
}

/// `Init[target, init_args](args...)`, before `new`'s assertion against the Init type.
pub(crate) fn new_init(
    n: &New<'_>,
    init_t: &Type,
    target: &Type,
    init_args: &[Value],
    args: &[Value],
    depth: usize,
) -> Result<Value> {
    let init = init_signatures(target, init_args, depth)?;
    if !init.args_fit {
        return Err(invalid_init_args(init_t, target));
    }
    let f = function(init_args.is_empty());
    let value = args.first().cloned().unwrap_or(Value::Undef);
    match f.select(args)? {
        Selected::Call(Method::FromArray) => {
            let Value::Array(items) = &value else { return n.new_instance(target, &[value], depth + 1) };
            if spread(&init, target, &value) {
                n.new_instance(target, items, depth + 1)
            } else {
                n.new_instance(target, std::slice::from_ref(&value), depth + 1)
            }
        }
        Selected::Call(Method::Create) | Selected::Mismatch(_) => {
            let mut all = vec![value];
            all.extend(init_args.iter().cloned());
            n.new_instance(target, &all, depth + 1)
        }
    }
}

/// The dispatches of `new_Init`: with init arguments only `create(Any value)`, without also
/// `from_array(Array value)` first.
fn function(no_init_args: bool) -> Dispatcher<Method> {
    let mut dispatches = Vec::new();
    if no_init_args {
        dispatches.push(Dispatch::new(Method::FromArray).req("value", Type::ARRAY));
    }
    dispatches.push(Dispatch::new(Method::Create).req("value", Type::Any));
    Dispatcher { name: "new_Init", dispatches }
}

/// Whether an array argument is spread over the target's parameters (`from_array`): not
/// when it is an instance of `T` or the one argument of a signature.
fn spread(init: &InitSignatures, target: &Type, value: &Value) -> bool {
    if is_instance(target, value) || init.single_accepts(value) {
        return false;
    }
    init.other_accepts_args(value) || !init.other_accepts_one(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_errors() {
        let init_t = Type::Init { ty: Some(std::rc::Rc::new(Type::INTEGER)), args: vec![Value::from("x")].into() };
        let init = init_signatures(&Type::INTEGER, &[Value::from("x")], 0);
        assert!(init.is_ok_and(|i| !i.args_fit));
        assert_eq!(
            invalid_init_args(&init_t, &Type::INTEGER).message,
            "The type 'Init[Integer, 'x']' does not represent a valid set of parameters for Integer.new()"
        );
        let opt = Type::optional(Type::INTEGER);
        let e = init_signatures(&opt, &[], 0).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("Creation of new instance of type 'Optional[Integer]' is not supported"));
        let e = init_signatures(&Type::Scalar, &[], 0).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("Creation of new instance of type 'Scalar' is not supported"));
    }

    #[test]
    fn integer_signatures() {
        let init = init_signatures(&Type::INTEGER, &[], 0).ok();
        assert!(matches!(init.as_ref().and_then(|i| i.single_type.as_ref()), Some(Type::Variant(v)) if v.len() == 2));
        assert!(init.is_some_and(|i| i.has_optional_single && i.other_type.is_some()));
    }
}
