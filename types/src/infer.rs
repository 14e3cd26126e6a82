//! Inference of a value's type (`TypeCalculator#infer`, `#infer_set`, and the `generalize`
//! methods of `types.rb`), as the `type` function answers:
//!
//! | call                        | Puppet                          | here                  |
//! |-----------------------------|---------------------------------|-----------------------|
//! | `type($v)`, `type($v, 'detailed')` | `TypeCalculator.infer_set(v)` | [`infer_set`]     |
//! | `type($v, 'reduced')`       | `TypeCalculator.infer(v)`       | [`infer`]             |
//! | `type($v, 'generalized')`   | `TypeCalculator.infer(v).generalize` | [`infer_generalized`] |
//!
//! What each value infers to (`infer`; `infer_set` differs only where noted):
//!
//! | value            | reduced (`infer`)                         | detailed (`infer_set`)          |
//! |------------------|-------------------------------------------|---------------------------------|
//! | `undef`          | `Undef`                                   |                                 |
//! | `default`        | `Default`                                 |                                 |
//! | `true`           | `Boolean[true]`                           |                                 |
//! | `1`              | `Integer[1, 1]`                           |                                 |
//! | `1.5`            | `Float[1.5, 1.5]`                         |                                 |
//! | `'abc'`          | `String` holding the value `'abc'` (prints `String`) |                      |
//! | `/x/`            | `Regexp[/x/]`                             |                                 |
//! | `[]`             | `Array[Unit, 0, 0]` (prints `Array[0, 0]`) |                                |
//! | `[1, 'a']`       | `Array[common type, 2, 2]`                | `Tuple[Integer[1, 1], String]`  |
//! | `{}`             | `Hash[Unit, Unit, 0, 0]`                  |                                 |
//! | `{'a' => 1}`     | `Hash[common key type, common value type, 1, 1]` | `Struct[{'a' => Integer[1, 1]}]` when every key is a non-empty String, else `Hash[Variant[keys...], Variant[values...], n, n]` |
//! | a type `T`       | `Type[T]`                                 |                                 |
//! | Timespan, Timestamp | `Timespan[v, v]`, `Timestamp[v, v]`    |                                 |
//! | SemVer           | `SemVer`                                  | `SemVer[v - v]`                 |
//! | SemVerRange      | `SemVerRange`                             |                                 |
//! | Binary           | `Binary`                                  |                                 |
//! | URI              | `URI[{parts}]`                            |                                 |
//! | `Sensitive(v)`   | `Sensitive[generalized type of v]`        |                                 |
//! | Deferred         | the `Deferred` Object type (`Type::Deferred`) |                                 |
//! | an Iterator      | `Iterator[element type]`                  |                                 |
//! | a function, lambda | its `Callable[...]` signature           |                                 |
//!
//! Containers nested deeper than [`MAX_DEPTH`] infer as `Any` (Puppet itself would run out of
//! stack on such values).

use std::rc::Rc;

use crate::int::Int;
use crate::normalize::maybe_create_variant;
use crate::semver::SemVerRange;
use crate::ty::{len_i64, Size, StringParam, StructElement, Type};
use crate::value::{Hash, IteratorKind, Value};

/// How deep inference descends into nested containers before answering `Any`.
pub const MAX_DEPTH: usize = 1000;

/// `type($v)` / `type($v, 'detailed')` (`TypeCalculator#infer_set`): every detail kept,
/// arrays as Tuples, string-keyed hashes as Structs.
pub fn infer_set(v: &Value) -> Type {
    infer_set_at(v, 0)
}

/// `type($v, 'reduced')` (`TypeCalculator#infer`): collections reduced to the common type of
/// their elements.
pub fn infer(v: &Value) -> Type {
    infer_at(v, 0)
}

/// `type($v, 'generalized')`: the generalization of the reduced type.
pub fn infer_generalized(v: &Value) -> Type {
    generalize(&infer(v))
}

/// The signatures of the `type` function (`functions/type.rb`):
/// `(Any value, Enum['detailed'] inference_method?)`, `(Any value, Enum['reduced']
/// inference_method)`, `(Any value, Enum['generalized'] inference_method)`.
pub fn type_signatures() -> Vec<crate::dispatch::Signature> {
    let names = ["value", "inference_method"];
    let sig = |mode: &str, from: i64| {
        let mode = Type::Enum { values: Rc::from(vec![Rc::from(mode)]), case_insensitive: false };
        let params = Type::Tuple { types: Rc::from(vec![Type::Any, mode]), size: Some(Size::new(from, Some(2))) };
        crate::dispatch::Signature::new(&names, params)
    };
    vec![sig("detailed", 1), sig("reduced", 2), sig("generalized", 2)]
}

/// The `type` function: `type($v)` and `type($v, 'detailed')` are [`infer_set`],
/// `type($v, 'reduced')` is [`infer`], `type($v, 'generalized')` is [`infer_generalized`].
/// Other arguments, or a block, give Puppet's message (`'type' parameter 'inference_method'
/// expects a match for Enum['detailed', 'generalized', 'reduced'], got 'foo'`), to which the
/// evaluator adds `Error while evaluating a Function Call, `.
pub fn type_function(args: &[Value], block: Option<&Value>) -> crate::Result<Type> {
    let index = crate::dispatch::select_signature("type", &type_signatures(), args, block)?;
    let undef = Value::Undef;
    let v = args.first().unwrap_or(&undef);
    Ok(match index {
        0 => infer_set(v),
        1 => infer(v),
        _ => infer_generalized(v),
    })
}

fn infer_set_at(v: &Value, depth: usize) -> Type {
    if depth > MAX_DEPTH {
        return Type::Any;
    }
    match v {
        Value::Array(items) => infer_set_array(items, depth),
        Value::Hash(h) => infer_set_hash(h, depth),
        // `PSemVerType.new([SemanticPuppet::VersionRange.new(v, v)])`, printed `SemVer['v - v']`.
        Value::SemVer(ver) => match SemVerRange::from_bounds(ver, ver, false) {
            Ok(range) => Type::SemVer(Rc::from(vec![range])),
            Err(_) => Type::SemVer(Rc::from(Vec::new())),
        },
        _ => infer_at(v, depth),
    }
}

/// `infer_set_Array`: `Array[Unit, 0, 0]` when empty, else a Tuple of each element's type.
fn infer_set_array(items: &[Value], depth: usize) -> Type {
    if items.is_empty() {
        return empty_array();
    }
    let types: Vec<Type> = items.iter().map(|x| infer_set_at(x, depth + 1)).collect();
    Type::Tuple { types: types.into(), size: None }
}

/// `infer_set_Hash`: a Struct when every key is a non-empty String, else a Hash of the
/// variants of the key and value types, sized exactly.
fn infer_set_hash(h: &Hash, depth: usize) -> Type {
    if h.is_empty() {
        return empty_hash();
    }
    let all_named = h.keys().all(|k| k.as_str().is_some_and(|s| !s.is_empty()));
    if all_named {
        let elements: Vec<StructElement> = h
            .iter()
            .map(|(k, v)| StructElement {
                key_type: string_value_type(k.as_str().unwrap_or_default()),
                value_type: infer_set_at(v, depth + 1),
            })
            .collect();
        return Type::Struct(elements.into());
    }
    let keys = maybe_create_variant(h.keys().map(|k| infer_set_at(k, depth + 1)).collect());
    let values = maybe_create_variant(h.values().map(|v| infer_set_at(v, depth + 1)).collect());
    sized_hash(keys, values, h.len())
}

fn infer_at(v: &Value, depth: usize) -> Type {
    if depth > MAX_DEPTH {
        return Type::Any;
    }
    match v {
        Value::Undef => Type::Undef,
        Value::Default => Type::Default,
        Value::Boolean(b) => Type::Boolean(Some(*b)),
        Value::Integer(i) => Type::integer(Some(*i), Some(*i)),
        Value::BigInt(b) => {
            let n = Some(Int::Big(b.clone()));
            Type::Integer { from: n.clone(), to: n }
        }
        Value::Float(f) => Type::float(*f, *f),
        Value::String(s) => Type::String(Some(StringParam::Value(s.clone()))),
        Value::Regexp(r) => Type::Regexp(Some(r.clone())),
        Value::Array(items) => infer_array(items, depth),
        Value::Hash(h) => infer_hash(h, depth),
        Value::Type(t) => Type::Type(Some(t.clone())),
        Value::Timespan(t) => Type::Timespan { from: Some(t.nsecs), to: Some(t.nsecs) },
        Value::Timestamp(t) => Type::Timestamp { from: Some(t.nsecs), to: Some(t.nsecs) },
        Value::SemVer(_) => Type::SemVer(Rc::from(Vec::new())),
        Value::SemVerRange(_) => Type::SemVerRange,
        Value::Binary(_) => Type::Binary,
        Value::Uri(u) => Type::Uri(u.type_parameters().map(|h| Rc::new(Value::hash(h)))),
        // `PSensitiveType.new(infer(unwrapped))`, and the constructor generalizes.
        Value::Sensitive(inner) => Type::Sensitive(Some(Rc::new(generalize(&infer_at(inner, depth + 1))))),
        // The Pcore `Deferred` Object type.
        Value::Deferred(_) => Type::Deferred,
        // `PObjectTypeExtension.create_from_instance`: the type parameters' attributes.
        Value::Error(e) => Type::Error(Some(Rc::new(crate::ty::ErrorParams {
            kind: e.attribute("kind"),
            issue_code: e.attribute("issue_code"),
        }))),
        Value::Object(o) => crate::object::infer_instance(o),
        Value::Iterator(it) => Type::Iterator(iterator_element_type(&Value::Iterator(it.clone()), depth).map(Rc::new)),
        Value::Callable(c) => c.signature(),
    }
}

/// `infer_Array`: `Array[Unit, 0, 0]` when empty, else `Array[common type, n, n]`.
fn infer_array(items: &[Value], depth: usize) -> Type {
    if items.is_empty() {
        return empty_array();
    }
    let element = reduce_type(items.iter().map(|x| infer_at(x, depth + 1)));
    Type::Array { element: Some(Rc::new(element)), size: Some(Size::exact(len_i64(items.len()))) }
}

/// `infer_Hash`: `Hash[Unit, Unit, 0, 0]` when empty, else the common key and value types.
fn infer_hash(h: &Hash, depth: usize) -> Type {
    if h.is_empty() {
        return empty_hash();
    }
    let keys = reduce_type(h.keys().map(|k| infer_at(k, depth + 1)));
    let values = reduce_type(h.values().map(|v| infer_at(v, depth + 1)));
    sized_hash(keys, values, h.len())
}

/// `reduce_type`: folds the types with `common_type` (the first type when there is one).
fn reduce_type(mut types: impl Iterator<Item = Type>) -> Type {
    let Some(first) = types.next() else { return Type::Unit };
    types.fold(first, |memo, t| crate::common::common_type(&memo, &t))
}

/// `PArrayType::EMPTY`: `Array[Unit, 0, 0]`.
fn empty_array() -> Type {
    Type::Array { element: Some(Rc::new(Type::Unit)), size: Some(Size::exact(0)) }
}

/// `PHashType::EMPTY`: `Hash[Unit, Unit, 0, 0]`.
fn empty_hash() -> Type {
    Type::Hash { key: Some(Rc::new(Type::Unit)), value: Some(Rc::new(Type::Unit)), size: Some(Size::exact(0)) }
}

fn sized_hash(key: Type, value: Type, len: usize) -> Type {
    Type::Hash { key: Some(Rc::new(key)), value: Some(Rc::new(value)), size: Some(Size::exact(len_i64(len))) }
}

/// `PStringType.new(s)`: the String type of one string value (a Struct key).
fn string_value_type(s: &str) -> Type {
    Type::String(Some(StringParam::Value(Rc::from(s))))
}

// ---------------------------------------------------------------------------------------
// Iterators (`Iterable.on` and the iterator classes of iterable.rb)
// ---------------------------------------------------------------------------------------

/// What an iterator knows about its elements: Puppet's `IntegerRangeIterator` keeps its range
/// and step (its element type is the range), every other iterator just an element type.
enum IterState {
    Range { from: i64, to: i64, step: i64 },
    Elements(Type),
}

impl IterState {
    fn element_type(self) -> Type {
        match self {
            IterState::Range { from, to, .. } => Type::integer(Some(from), Some(to)),
            IterState::Elements(t) => t,
        }
    }
}

/// The element type of the iterator `Iterable.on(v)` produces (`None` when `v` is not
/// iterable, e.g. a negative Integer or an unbounded Integer range).
pub fn iterator_element_type(v: &Value, depth: usize) -> Option<Type> {
    iter_state(v, depth).map(IterState::element_type)
}

fn iter_state(v: &Value, depth: usize) -> Option<IterState> {
    if depth > MAX_DEPTH {
        return Some(IterState::Elements(Type::Any));
    }
    match v {
        Value::Iterator(it) => {
            let base = iter_state(&it.source, depth + 1)?;
            Some(match it.kind {
                IteratorKind::Forward => base,
                IteratorKind::Reverse => reverse_state(base),
                IteratorKind::Step(n) => step_state(base, n),
            })
        }
        // `Iterator.new(PStringType.new(PIntegerType.new(1, 1)), o.each_char)`
        Value::String(_) => Some(IterState::Elements(Type::String(Some(StringParam::Size(Size::exact(1)))))),
        Value::Array(items) if items.is_empty() => Some(IterState::Elements(Type::Unit)),
        Value::Array(items) => {
            Some(IterState::Elements(maybe_create_variant(items.iter().map(|x| infer_set_at(x, depth + 1)).collect())))
        }
        Value::Hash(h) => Some(IterState::Elements(hash_pair_type(h, depth))),
        Value::Integer(0) => Some(IterState::Elements(Type::Unit)),
        Value::Integer(n) if *n > 0 => Some(IterState::Range { from: 0, to: n - 1, step: 1 }),
        // a bignum's range reaches as far as 64 bits go
        Value::BigInt(_) if v.as_int().is_some_and(|n| !n.is_negative()) => {
            Some(IterState::Range { from: 0, to: i64::MAX, step: 1 })
        }
        Value::Type(t) => type_iter_state(t),
        _ => None,
    }
}

/// A Hash iterates over `[key, value]` tuples: `Tuple[Variant[keys], Variant[values], 2, 2]`
/// (`Tuple[Unit, Unit, 2, 2]` when empty).
fn hash_pair_type(h: &Hash, depth: usize) -> Type {
    let (k, v) = if h.is_empty() {
        (Type::Unit, Type::Unit)
    } else {
        (
            maybe_create_variant(h.keys().map(|k| infer_set_at(k, depth + 1)).collect()),
            maybe_create_variant(h.values().map(|v| infer_set_at(v, depth + 1)).collect()),
        )
    };
    Type::Tuple { types: Rc::from(vec![k, v]), size: Some(Size::exact(2)) }
}

/// A finite `Integer[a, b]` iterates over its range, an `Enum` over its values (its element
/// type is the Enum itself); aliases iterate as what they stand for.
fn type_iter_state(t: &Type) -> Option<IterState> {
    match &t.resolved() {
        Type::Integer { from: Some(from), to: Some(to) } => {
            // nothing iterates beyond 64 bits: a bignum bound is as far as that goes
            let clamp = |b: &Int| b.as_i64().unwrap_or(if b.is_negative() { i64::MIN } else { i64::MAX });
            Some(IterState::Range { from: clamp(from), to: clamp(to), step: 1 })
        }
        e @ Type::Enum { .. } => Some(IterState::Elements(e.clone())),
        _ => None,
    }
}

/// `reverse_each`: a range iterator runs its (possibly truncated) range backwards; others keep
/// their element type.
fn reverse_state(s: IterState) -> IterState {
    match s {
        IterState::Range { from, to, step } => IterState::Range { from, to, step: step.saturating_neg() },
        other => other,
    }
}

/// `step(n)`: `IntegerRangeIterator#step_iterator` truncates the range at an even step
/// boundary (so that a reversed iterator starts at the right number); `step(1)` is the
/// iterator itself.
fn step_state(s: IterState, n: i64) -> IterState {
    match s {
        IterState::Range { from, to, step } if n > 1 => {
            let step = step.saturating_mul(n);
            let span = i128::from(to) - i128::from(from);
            // Ruby's modulo takes the sign of the divisor.
            let abs = i128::from(step).abs().max(1);
            let r = span.rem_euclid(abs);
            let m = if step < 0 && r != 0 { r - abs } else { r };
            let (from, to) = if m < 0 {
                (clamp_i64(i128::from(from) - m), to)
            } else if m > 0 {
                (from, clamp_i64(i128::from(to) - m))
            } else {
                (from, to)
            };
            IterState::Range { from, to, step }
        }
        other => other,
    }
}

fn clamp_i64(v: i128) -> i64 {
    i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
}

// ---------------------------------------------------------------------------------------
// Generalization (the `generalize` methods of types.rb)
// ---------------------------------------------------------------------------------------

/// A type without the parameters that describe particular values (`PAnyType#generalize` and
/// its overrides):
///
/// | type                                  | generalized                                  |
/// |---------------------------------------|----------------------------------------------|
/// | `Integer[..]`, `Float[..]`, `String[..]`, `Boolean[..]`, `Timespan[..]`, `Timestamp[..]`, `URI[..]`, `Collection[..]` | the unparameterised type |
/// | `Enum[values]`                        | `String[shortest, longest]` (`String` when empty) |
/// | `Array[T, ..]`                        | `Array[generalized T]` without size (`Array` when `T` is `Any`) |
/// | `Hash[K, V, ..]`                      | `Hash[generalized K, generalized V]` without size; `Hash` and `Hash[0, 0]` stay |
/// | `Tuple[T.., size]`                    | each `T` generalized, size kept              |
/// | `Struct[{k => V}]`                    | each `V` generalized                         |
/// | `Variant[T..]`                        | each `T` generalized, then flattened and deduplicated |
/// | `Callable[..]`                        | parameters, block and return type generalized |
/// | `Optional`, `NotUndef`, `Type`, `Iterable`, `Iterator`, `Sensitive` `[T]` | `[generalized T]` |
/// | everything else (`Regexp[/x/]`, `Pattern`, `SemVer[..]`, aliases, resources, ...) | itself |
pub fn generalize(t: &Type) -> Type {
    match t {
        Type::ObjectExtension(e) => Type::Object(e.base.clone()),
        Type::Integer { .. } => Type::INTEGER,
        Type::Float { .. } => Type::FLOAT,
        Type::String(_) => Type::STRING,
        Type::Boolean(_) => Type::Boolean(None),
        Type::Timespan { .. } => Type::Timespan { from: None, to: None },
        Type::Timestamp { .. } => Type::Timestamp { from: None, to: None },
        Type::Uri(_) => Type::Uri(None),
        Type::Collection(_) => Type::Collection(None),
        Type::Enum { values, .. } => generalize_enum(values),
        Type::Array { element, .. } => generalize_array(element.as_deref()),
        Type::Hash { key, value, size } => generalize_hash(t, key.as_deref(), value.as_deref(), size.as_ref()),
        Type::Tuple { types, size } if !(types.is_empty() && size.is_none()) => {
            Type::Tuple { types: types.iter().map(generalize).collect(), size: size.clone() }
        }
        Type::Struct(elements) => Type::Struct(
            elements
                .iter()
                .map(|e| StructElement { key_type: e.key_type.clone(), value_type: generalize(&e.value_type) })
                .collect(),
        ),
        Type::Variant(types) if !types.is_empty() => generalize_variant(t, types),
        Type::Callable(c) => {
            let g = |x: &Option<Rc<Type>>| x.as_deref().map(|x| Rc::new(generalize(x)));
            Type::Callable(Rc::new(crate::ty::CallableType {
                params: g(&c.params),
                block: g(&c.block),
                return_type: g(&c.return_type),
            }))
        }
        Type::Optional(Some(x)) => Type::Optional(Some(Rc::new(generalize(x)))),
        Type::NotUndef(Some(x)) => Type::NotUndef(Some(Rc::new(generalize(x)))),
        Type::Type(Some(x)) => Type::Type(Some(Rc::new(generalize(x)))),
        Type::Iterable(Some(x)) => Type::Iterable(Some(Rc::new(generalize(x)))),
        Type::Iterator(Some(x)) => Type::Iterator(Some(Rc::new(generalize(x)))),
        Type::Sensitive(Some(x)) => Type::Sensitive(Some(Rc::new(generalize(x)))),
        Type::Error(_) => Type::Error(None),
        other => other.clone(),
    }
}

/// `PEnumType#generalize`: `String[min, max]` over the values' lengths (in characters).
fn generalize_enum(values: &[Rc<str>]) -> Type {
    let lengths = values.iter().map(|v| len_i64(v.chars().count()));
    match (lengths.clone().min(), lengths.max()) {
        (Some(min), Some(max)) => Type::String(Some(StringParam::Size(Size::new(min, Some(max))))),
        _ => Type::STRING,
    }
}

/// `PArrayType#generalize`: `Array` when the element type is `Any`, else the generalized
/// element type without size.
fn generalize_array(element: Option<&Type>) -> Type {
    match element {
        None | Some(Type::Any) => Type::ARRAY,
        Some(e) => Type::Array { element: Some(Rc::new(generalize(e))), size: None },
    }
}

/// `PHashType#generalize`: `Hash` and the empty `Hash[0, 0]` stay; others drop their size.
fn generalize_hash(t: &Type, key: Option<&Type>, value: Option<&Type>, size: Option<&Size>) -> Type {
    let any = |x: Option<&Type>| matches!(x, None | Some(Type::Any));
    if (any(key) && any(value) && size.is_none()) || *t == empty_hash() {
        return t.clone();
    }
    let g = |x: Option<&Type>| generalize(x.unwrap_or(&Type::Any));
    Type::Hash { key: Some(Rc::new(g(key))), value: Some(Rc::new(g(value))), size: None }
}

/// `PVariantType#generalize`: when a member changes, the generalized members are flattened
/// and deduplicated (`maybe_create`), so `Variant[Integer[1, 2], Integer[3, 4]]` becomes
/// `Integer`.
fn generalize_variant(t: &Type, types: &[Type]) -> Type {
    let generalized: Vec<Type> = types.iter().map(generalize).collect();
    if generalized.as_slice() == types {
        t.clone()
    } else {
        maybe_create_variant(generalized)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Iterator as ValueIterator, IteratorKind};

    fn int(a: i64, b: i64) -> Type {
        Type::integer(Some(a), Some(b))
    }

    fn arr(items: Vec<Value>) -> Value {
        Value::array(items)
    }

    fn hash(entries: Vec<(Value, Value)>) -> Value {
        Value::hash(entries.into_iter().collect())
    }

    #[test]
    fn scalars() {
        assert_eq!(infer(&Value::Integer(1)), int(1, 1));
        assert_eq!(infer_set(&Value::Integer(-3)), int(-3, -3));
        assert_eq!(infer(&Value::Float(-0.0)), Type::float(-0.0, -0.0));
        assert_eq!(infer(&Value::from("abc")), Type::String(Some(StringParam::Value("abc".into()))));
        assert_eq!(infer(&Value::Boolean(true)), Type::Boolean(Some(true)));
        assert_eq!(infer(&Value::Undef), Type::Undef);
        assert_eq!(infer(&Value::Default), Type::Default);
        assert_eq!(infer(&Value::ty(Type::INTEGER)), Type::type_of(Type::INTEGER));
        assert_eq!(infer_generalized(&Value::Integer(5)), Type::INTEGER);
        assert_eq!(infer_generalized(&Value::Boolean(false)), Type::Boolean(None));
    }

    #[test]
    fn arrays() {
        let a = arr(vec![Value::Integer(1), Value::from("a")]);
        let t = infer_set(&a);
        assert_eq!(
            t,
            Type::Tuple {
                types: Rc::from(vec![int(1, 1), Type::String(Some(StringParam::Value("a".into())))]),
                size: None
            }
        );
        assert_eq!(infer_set(&arr(vec![])), empty_array());
        assert_eq!(infer(&arr(vec![])), empty_array());
        assert_eq!(infer_generalized(&arr(vec![])), Type::Array { element: Some(Rc::new(Type::Unit)), size: None });
        match &infer(&a) {
            Type::Array { size, .. } => assert_eq!(*size, Some(Size::exact(2))),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn hashes() {
        let h = hash(vec![(Value::from("a"), Value::Integer(1))]);
        match infer_set(&h) {
            Type::Struct(ref e) => {
                assert_eq!(e.len(), 1);
                assert_eq!(e[0].value_type, int(1, 1));
            }
            other => panic!("{other:?}"),
        }
        // an empty key makes it a Hash
        let h = hash(vec![(Value::from(""), Value::Integer(1))]);
        assert_eq!(infer_set(&h), sized_hash(string_value_type(""), int(1, 1), 1));
        let h = hash(vec![(Value::Integer(1), Value::Integer(1)), (Value::Integer(2), Value::from("x"))]);
        assert_eq!(
            infer_set(&h),
            sized_hash(
                Type::variant(vec![int(1, 1), int(2, 2)]),
                Type::variant(vec![int(1, 1), string_value_type("x")]),
                2
            )
        );
        assert_eq!(infer_set(&hash(vec![])), empty_hash());
        assert_eq!(generalize(&empty_hash()), empty_hash());
    }

    #[test]
    fn generalization() {
        let e = Type::Enum { values: Rc::from(vec![Rc::from("a"), Rc::from("bc")]), case_insensitive: false };
        assert_eq!(generalize(&e), Type::String(Some(StringParam::Size(Size::new(1, Some(2))))));
        let v = Type::variant(vec![int(1, 2), int(5, 6)]);
        assert_eq!(generalize(&v), Type::INTEGER);
        let t = Type::Tuple { types: Rc::from(vec![int(1, 2)]), size: Some(Size::new(1, Some(5))) };
        assert_eq!(
            generalize(&t),
            Type::Tuple { types: Rc::from(vec![Type::INTEGER]), size: Some(Size::new(1, Some(5))) }
        );
        let a = Type::Array { element: Some(Rc::new(Type::Any)), size: Some(Size::new(1, Some(2))) };
        assert_eq!(generalize(&a), Type::ARRAY);
        let r = Type::Regexp(Some(Rc::new(crate::regexp::Regexp::new("x"))));
        assert_eq!(generalize(&r), r);
        assert_eq!(generalize(&Type::type_of(int(1, 2))), Type::type_of(Type::INTEGER));
    }

    #[test]
    fn type_function_dispatch() {
        let one = Value::Integer(1);
        assert_eq!(type_function(std::slice::from_ref(&one), None), Ok(int(1, 1)));
        assert_eq!(type_function(&[one.clone(), Value::from("generalized")], None), Ok(Type::INTEGER));
        let e = type_function(&[one.clone(), Value::from("foo")], None).map_err(|e| e.message);
        assert_eq!(
            e,
            Err("'type' parameter 'inference_method' expects a match for Enum['detailed', 'generalized', 'reduced'], got 'foo'".into())
        );
        let e = type_function(&[], None).map_err(|e| e.message);
        assert_eq!(e, Err("'type' expects between 1 and 2 arguments, got none".into()));
    }

    #[test]
    fn sensitive_generalizes() {
        let s = Value::Sensitive(Rc::new(Value::Integer(3)));
        assert_eq!(infer_set(&s), Type::Sensitive(Some(Rc::new(Type::INTEGER))));
    }

    fn iter(source: Value, kind: IteratorKind) -> Value {
        Value::Iterator(Rc::new(ValueIterator { source, kind }))
    }

    #[test]
    fn iterators() {
        let a = arr(vec![Value::Integer(1), Value::Integer(2), Value::Integer(1)]);
        assert_eq!(
            infer(&iter(a, IteratorKind::Reverse)),
            Type::Iterator(Some(Rc::new(Type::variant(vec![int(1, 1), int(2, 2)]))))
        );
        let r = Value::ty(int(1, 10));
        assert_eq!(infer(&iter(r.clone(), IteratorKind::Step(4))), Type::Iterator(Some(Rc::new(int(1, 9)))));
        let rev = iter(r, IteratorKind::Reverse);
        assert_eq!(infer(&iter(rev, IteratorKind::Step(4))), Type::Iterator(Some(Rc::new(int(4, 10)))));
        assert_eq!(infer(&iter(Value::Integer(3), IteratorKind::Forward)), Type::Iterator(Some(Rc::new(int(0, 2)))));
        // Integer[1, 10].step(3).step(2): the range is cut at the combined step of 6
        let stepped = iter(iter(Value::ty(int(1, 10)), IteratorKind::Step(3)), IteratorKind::Step(2));
        assert_eq!(infer(&stepped), Type::Iterator(Some(Rc::new(int(1, 7)))));
        assert_eq!(infer(&iter(arr(vec![]), IteratorKind::Reverse)), Type::Iterator(Some(Rc::new(Type::Unit))));
        let h = hash(vec![(Value::from("a"), Value::Integer(1))]);
        assert_eq!(
            infer(&iter(h, IteratorKind::Reverse)),
            Type::Iterator(Some(Rc::new(Type::Tuple {
                types: Rc::from(vec![string_value_type("a"), int(1, 1)]),
                size: Some(Size::exact(2))
            })))
        );
        assert_eq!(
            infer_generalized(&iter(arr(vec![Value::Integer(1), Value::Integer(2)]), IteratorKind::Reverse)),
            Type::Iterator(Some(Rc::new(Type::INTEGER)))
        );
        assert_eq!(
            infer(&iter(Value::from("ab"), IteratorKind::Forward)),
            Type::Iterator(Some(Rc::new(Type::String(Some(StringParam::Size(Size::exact(1)))))))
        );
    }

    #[test]
    fn uri_parts() {
        let uri_parameters = |s: &str| crate::uri::Uri::parse(s).ok().and_then(|u| u.type_parameters());
        let h = uri_parameters("https://u:p@X.com:8443/a/b?q=1#f").unwrap_or_default();
        let keys: Vec<String> = h.keys().filter_map(|k| k.as_str().map(str::to_owned)).collect();
        assert_eq!(keys, ["scheme", "userinfo", "host", "port", "path", "query", "fragment"]);
        assert_eq!(h.get(&Value::from("host")), Some(&Value::from("x.com")));
        let h = uri_parameters("ftp://x.com").unwrap_or_default();
        assert_eq!(h.get(&Value::from("port")), Some(&Value::from("21")));
        let h = uri_parameters("http://x.com:80/").unwrap_or_default();
        assert_eq!(h.get(&Value::from("port")), None);
        let h = uri_parameters("mailto:a@b.com").unwrap_or_default();
        assert_eq!(h.get(&Value::from("opaque")), Some(&Value::from("a@b.com")));
        assert_eq!(uri_parameters(""), None);
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let mut v = Value::Integer(1);
        for _ in 0..(MAX_DEPTH + 10) {
            v = arr(vec![v]);
        }
        let _ = infer_set(&v);
        let _ = infer(&v);
        // Value's Drop frees the nesting iteratively.
        drop(v);
    }
}
