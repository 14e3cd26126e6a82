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

use crate::error::{Error, Result};
use crate::instance::is_instance;
use crate::ty::Type;
use crate::value::Value;

use super::dispatch::{array_sized, entry, string_sized, struct_of, Dispatch, Function, ParamTuple, Selected};
use super::{not_supported, param_tuples, New};

/// What `assert_initialized` computes for `Init[T, args]`.
struct Initialized {
    /// `T`, and the first parameter types of `T`'s one-argument signatures (or of the
    /// signatures that suit the init arguments).
    single: Type,
    /// The parameter tuples of `T`'s other signatures.
    other: Option<Type>,
    /// Whether one of those other signatures takes a single argument.
    has_optional_single: bool,
}

#[derive(Clone, Copy)]
enum Method {
    FromArray,
    Create,
}

/// `Init[target, init_args](args...)`, before `new`'s assertion against the Init type.
pub(crate) fn new_init(
    n: &New,
    init_t: &Type,
    target: &Type,
    init_args: &[Value],
    args: &[Value],
    depth: usize,
) -> Result<Value> {
    let init = initialize(init_t, target, init_args, depth)?;
    let f = function(init_args.is_empty());
    let value = args.first().cloned().unwrap_or(Value::Undef);
    match f.select(args)? {
        Selected::Call(Method::FromArray) => {
            let Value::Array(items) = &value else { return n.new_instance(target, &[value], depth + 1) };
            if spread(&init, &value) {
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
fn function(no_init_args: bool) -> Function<Method> {
    let mut dispatches = Vec::new();
    if no_init_args {
        dispatches.push(Dispatch::new(Method::FromArray).req("value", Type::ARRAY));
    }
    dispatches.push(Dispatch::new(Method::Create).req("value", Type::Any));
    Function { name: "new_Init", dispatches }
}

/// Whether an array argument is spread over the target's parameters (`from_array`).
fn spread(init: &Initialized, value: &Value) -> bool {
    if is_instance(&init.single, value) {
        return false;
    }
    if let Some(other) = &init.other {
        if !is_instance(other, value) && init.has_optional_single && is_instance(other, &Value::array(vec![value.clone()])) {
            return false;
        }
    }
    true
}

/// `assert_initialized`: the target's signatures, checked against the init arguments.
fn initialize(init_t: &Type, target: &Type, init_args: &[Value], depth: usize) -> Result<Initialized> {
    if matches!(target, Type::Init { .. } | Type::Optional(_) | Type::NotUndef(_)) {
        return Err(not_supported(target));
    }
    let tuples = param_tuples(target, depth + 1).map_err(|_| not_supported(target))?;
    let mut single = vec![target.clone()];
    let mut others: Vec<ParamTuple> = Vec::new();
    if init_args.is_empty() {
        for t in tuples {
            match t.types.first() {
                Some(first) if t.min == 1 && t.max == 1 => single.push(first.clone()),
                _ => others.push(t),
            }
        }
    } else {
        let count = 1 + init_args.len();
        let suitable: Vec<ParamTuple> = tuples.into_iter().filter(|t| suits(t, count, init_args)).collect();
        if suitable.is_empty() {
            return Err(Error::new(format!(
                "The type '{init_t}' does not represent a valid set of parameters for {}.new()",
                target.name()
            )));
        }
        single.extend(suitable.iter().filter_map(|t| t.types.first().cloned()));
    }
    let has_optional_single = others.iter().any(|t| t.min == 1);
    let other = (!others.is_empty()).then(|| maybe_variant(others.iter().map(ParamTuple::to_type).collect()));
    Ok(Initialized { single: maybe_variant(single), other, has_optional_single })
}

/// Whether a signature takes one argument followed by the init arguments.
fn suits(t: &ParamTuple, count: usize, init_args: &[Value]) -> bool {
    count >= t.min
        && count <= t.max
        && init_args.iter().enumerate().all(|(i, a)| t.types.get(i + 1).is_some_and(|ty| is_instance(ty, a)))
}

/// `PVariantType.maybe_create`: one type as it is, several as a Variant.
fn maybe_variant(mut types: Vec<Type>) -> Type {
    if types.len() == 1 {
        types.remove(0)
    } else {
        Type::Variant(types.into())
    }
}

/// The parameter tuples of the new functions implemented elsewhere (String in the format
/// engine, the time, version, binary and URI types in their modules), as Puppet declares
/// them. Patterns and format maps are approximated by the `String` and `Hash` types that
/// contain them.
pub(crate) fn foreign_param_tuples(t: &Type) -> Vec<ParamTuple> {
    let tuple = |types: Vec<Type>, min: usize| ParamTuple { max: types.len(), types, min };
    let string1 = string_sized(1, None);
    let formats = Type::Variant(vec![string_sized(2, None), array_sized(string_sized(2, None), 1, None)].into());
    let seconds = Type::Variant(vec![Type::INTEGER, Type::FLOAT].into());
    match t {
        Type::String(_) => {
            let type_map = Type::hash_of(Type::Type(None), Type::Any);
            vec![tuple(vec![Type::Any, Type::Variant(vec![Type::Default, string1, type_map].into())], 1)]
        }
        Type::Timespan { .. } => {
            let fields = ["days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"];
            let mut field_entries = vec![entry("negative", true, Type::Boolean(None))];
            field_entries.extend(fields.iter().map(|f| entry(f, true, Type::INTEGER)));
            vec![
                tuple(vec![seconds], 1),
                tuple(vec![string1.clone(), formats.clone()], 1),
                tuple(vec![Type::INTEGER; 7], 4),
                tuple(vec![struct_of(vec![entry("string", false, string1), entry("format", true, formats)])], 1),
                tuple(vec![struct_of(field_entries)], 1),
            ]
        }
        Type::Timestamp { .. } => vec![
            tuple(vec![], 0),
            tuple(vec![seconds], 1),
            tuple(vec![string1.clone(), formats.clone(), string1.clone()], 1),
            tuple(
                vec![struct_of(vec![
                    entry("string", false, string1.clone()),
                    entry("format", true, formats),
                    entry("timezone", true, string1),
                ])],
                1,
            ),
        ],
        Type::SemVer(_) => {
            let positive = Type::integer(Some(0), None);
            vec![
                tuple(vec![Type::STRING], 1),
                tuple(vec![positive.clone(), positive.clone(), positive.clone(), Type::STRING, Type::STRING], 3),
                tuple(
                    vec![struct_of(vec![
                        entry("major", false, positive.clone()),
                        entry("minor", false, positive.clone()),
                        entry("patch", false, positive),
                        entry("prerelease", true, Type::STRING),
                        entry("build", true, Type::STRING),
                    ])],
                    1,
                ),
            ]
        }
        Type::SemVerRange => {
            let bound = Type::Variant(vec![Type::Default, Type::SemVer(Vec::new().into())].into());
            vec![
                tuple(vec![string1], 1),
                tuple(vec![bound.clone(), bound.clone(), Type::Boolean(None)], 2),
                tuple(
                    vec![struct_of(vec![
                        entry("min", false, bound.clone()),
                        entry("max", true, bound),
                        entry("exclude_max", true, Type::Boolean(None)),
                    ])],
                    1,
                ),
            ]
        }
        Type::Binary => {
            let bytes = Type::array_of(Type::integer(Some(0), Some(255)));
            vec![
                tuple(vec![Type::STRING, Type::STRING], 1),
                tuple(vec![bytes], 1),
                tuple(vec![Type::HASH], 1),
            ]
        }
        Type::Uri(_) => vec![tuple(vec![string1], 1), tuple(vec![Type::HASH], 1)],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_errors() {
        let init_t = Type::Init { ty: Some(std::rc::Rc::new(Type::INTEGER)), args: vec![Value::from("x")].into() };
        let e = initialize(&init_t, &Type::INTEGER, &[Value::from("x")], 0).err().map(|e| e.message);
        assert_eq!(
            e.as_deref(),
            Some("The type 'Init[Integer, 'x']' does not represent a valid set of parameters for Integer.new()")
        );
        let opt = Type::optional(Type::INTEGER);
        let e = initialize(&init_t, &opt, &[], 0).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("Creation of new instance of type 'Optional[Integer]' is not supported"));
        let e = initialize(&init_t, &Type::Scalar, &[], 0).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("Creation of new instance of type 'Scalar' is not supported"));
    }

    #[test]
    fn integer_signatures() {
        let init = initialize(&Type::Any, &Type::INTEGER, &[], 0).ok();
        assert!(matches!(init.as_ref().map(|i| &i.single), Some(Type::Variant(v)) if v.len() == 2));
        assert!(init.is_some_and(|i| i.has_optional_single && i.other.is_some()));
    }
}
