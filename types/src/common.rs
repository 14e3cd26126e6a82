//! The common type of two types (`TypeCalculator#common_type`): the spec's type algebra.
//! Puppet reduces the types of an array's elements (or a hash's keys and values) with it
//! when inferring (`type([1, 2.0], 'reduced')` is `Array[Numeric, 2, 2]`).
//!
//! The rules, first match wins:
//!
//! | operands                               | common type                                   |
//! |----------------------------------------|-----------------------------------------------|
//! | `Undef` (or nothing) and `T`           | `T`                                           |
//! | `Unit` and `T`                         | `T`                                           |
//! | `A` accepts `B` (or `B` accepts `A`)   | `A` (or `B`)                                  |
//! | two Arrays                             | `Array[common(elements)]`                     |
//! | two Hashes                             | `Hash[common(keys), common(values)]`          |
//! | two Classes                            | `Class`                                       |
//! | two Resources                          | `Resource[name]` when the names are equal, else `Resource` |
//! | two Integers / two Floats              | the range spanning both                       |
//! | String and String/Enum, Enum and String/Enum | an `Enum` of the values when all are known, else `String` (sizes: `String[common(sizes)]`) |
//! | two Patterns                           | `Pattern` of both regexps                     |
//! | two Variants                           | the Variant of both members                   |
//! | two Regexps / two Callables            | `Regexp` / `Callable`                         |
//! | both Numeric / ScalarData / Scalar / Data | `Numeric` / `ScalarData` / `Scalar` / `Data` |
//! | two `Type[T]`                          | `Type[common(T1, T2)]`                        |
//! | both RichData                          | `RichData`                                    |
//! | two equal Runtimes                     | that Runtime                                  |
//! | otherwise                              | `Any`                                         |

use std::cell::RefCell;
use std::rc::Rc;

use crate::assignable::{array_element, hash_key_value, is_assignable};
use crate::int::Int;
use crate::normalize::{make_enum, maybe_create_variant};
use crate::ty::{Size, StringParam, Type, TypeAlias};

/// The most specific type that both `a` and `b` are assignable to.
pub fn common_type(a: &Type, b: &Type) -> Type {
    let Some(_level) = crate::assignable::Nesting::enter() else { return Type::Any };
    if matches!(a, Type::Undef) {
        return b.clone();
    }
    if matches!(b, Type::Undef) {
        return a.clone();
    }
    if matches!(a, Type::Unit) {
        return b.clone();
    }
    if matches!(b, Type::Unit) {
        return a.clone();
    }
    if is_assignable(a, b) {
        return a.clone();
    }
    if is_assignable(b, a) {
        return b.clone();
    }
    same_kind_common(a, b).unwrap_or_else(|| category_common(a, b))
}

/// `common_type` where `nil` may stand for a type (the unparameterised `Type`'s content).
fn common_opt(a: Option<&Type>, b: Option<&Type>) -> Option<Type> {
    match (a, b) {
        (None, None) => None,
        (None, Some(t)) | (Some(t), None) => Some(t.clone()),
        (Some(a), Some(b)) => Some(common_type(a, b)),
    }
}

/// The rules for two types of the same kind (Arrays, Hashes, ranges, strings, ...).
fn same_kind_common(a: &Type, b: &Type) -> Option<Type> {
    Some(match (a, b) {
        (Type::Array { element: e1, size: s1 }, Type::Array { element: e2, size: s2 }) => {
            Type::array_of(common_type(&array_element(e1, s1), &array_element(e2, s2)))
        }
        (Type::Hash { key: k1, value: v1, size: s1 }, Type::Hash { key: k2, value: v2, size: s2 }) => {
            let (k1, v1) = hash_key_value(k1, v1, s1);
            let (k2, v2) = hash_key_value(k2, v2, s2);
            Type::hash_of(common_type(&k1, &k2), common_type(&v1, &v2))
        }
        (Type::Class(_), Type::Class(_)) => Type::Class(None),
        (Type::Resource { type_name: n1, .. }, Type::Resource { type_name: n2, .. }) => {
            if n1 == n2 {
                Type::Resource { type_name: n1.clone(), title: None }
            } else {
                Type::Resource { type_name: None, title: None }
            }
        }
        (Type::Integer { from: f1, to: t1 }, Type::Integer { from: f2, to: t2 }) => {
            let from = if f1.is_none() || f2.is_none() { None } else { f1.clone().min(f2.clone()) };
            let to = if t1.is_none() || t2.is_none() { None } else { t1.clone().max(t2.clone()) };
            Type::Integer { from, to }
        }
        (Type::Float { from: f1, to: t1 }, Type::Float { from: f2, to: t2 }) => {
            Type::Float { from: f1.min(*f2), to: t1.max(*t2) }
        }
        (Type::String(p1), Type::Enum { values, .. }) => match string_value(p1.as_ref()) {
            None => empty_enum(),
            Some(v) => enum_union(values, &[v]),
        },
        (Type::String(p1), Type::String(p2)) => string_common(p1.as_ref(), p2.as_ref()),
        (Type::Pattern(p1), Type::Pattern(p2)) => {
            let mut all = p1.to_vec();
            for r in p2.iter() {
                if !all.iter().any(|x| x.source() == r.source()) {
                    all.push(r.clone());
                }
            }
            Type::Pattern(all.into())
        }
        (Type::Enum { values: v1, .. }, Type::Enum { values: v2, .. }) => enum_union(v1, v2),
        (Type::Enum { values, .. }, Type::String(p2)) => match string_value(p2.as_ref()) {
            None => empty_enum(),
            Some(v) => enum_union(values, &[v]),
        },
        (Type::Variant(t1), Type::Variant(t2)) => {
            let mut all = t1.to_vec();
            for t in t2.iter() {
                if !all.iter().any(|x| crate::compare::type_eql(x, t)) {
                    all.push(t.clone());
                }
            }
            maybe_create_variant(all)
        }
        (Type::Regexp(_), Type::Regexp(_)) => Type::Regexp(None),
        (Type::Callable(_), Type::Callable(_)) => {
            Type::Callable(Rc::new(crate::ty::CallableType { params: None, block: None, return_type: None }))
        }
        _ => return None,
    })
}

/// The rules by category (numeric, scalar data, scalar, data, types, rich data, runtime).
fn category_common(a: &Type, b: &Type) -> Type {
    let both = |t: &Type| is_assignable(t, a) && is_assignable(t, b);
    if both(&Type::Numeric) {
        return Type::Numeric;
    }
    if both(&Type::ScalarData) {
        return Type::ScalarData;
    }
    if both(&Type::Scalar) {
        return Type::Scalar;
    }
    let data = data();
    if both(&data) {
        return data;
    }
    if let (Type::Type(t1), Type::Type(t2)) = (a, b) {
        return Type::Type(common_opt(t1.as_deref(), t2.as_deref()).map(Rc::new));
    }
    let rich = rich_data();
    if both(&rich) {
        return rich;
    }
    if let (Type::Runtime { runtime: r1, name: n1 }, Type::Runtime { runtime: r2, name: n2 }) = (a, b) {
        if r1 == r2 && runtime_type_name(n1) == runtime_type_name(n2) {
            return a.clone();
        }
    }
    Type::Any
}

/// `PRuntimeType#runtime_type_name`: the name when it is not a pattern.
fn runtime_type_name(n: &Option<crate::ty::RuntimeName>) -> Option<&str> {
    match n {
        Some(crate::ty::RuntimeName::Name(s)) => Some(s),
        _ => None,
    }
}

/// The one string of a `String` type that holds a value.
fn string_value(p: Option<&StringParam>) -> Option<Rc<str>> {
    match p {
        Some(StringParam::Value(v)) => Some(v.clone()),
        _ => None,
    }
}

/// The string types' common type: an Enum of both values when both are known, `String`
/// when a size or value is unknown, otherwise the String of the sizes' common range.
fn string_common(p1: Option<&StringParam>, p2: Option<&StringParam>) -> Type {
    match (p1, p2) {
        (Some(StringParam::Size(s1)), Some(StringParam::Size(s2))) => {
            let range = common_type(&size_type(s1), &size_type(s2));
            match &range {
                Type::Integer { from, to } => {
                    // the bounds of two sizes are sizes
                    let size = |b: &Int| if b.is_negative() { Int::Small(0) } else { b.clone() };
                    let from = from.as_ref().map_or(Int::Small(0), size);
                    Type::String(Some(StringParam::Size(Size { from, to: to.as_ref().map(size) })))
                }
                _ => Type::STRING,
            }
        }
        _ => match (string_value(p1), string_value(p2)) {
            (Some(v1), Some(v2)) => make_enum(vec![v1, v2], false),
            _ => Type::STRING,
        },
    }
}

/// A size as the Integer type Puppet keeps for it.
fn size_type(s: &Size) -> Type {
    Type::Integer { from: Some(s.from.clone()), to: s.to.clone() }
}

/// The unparameterised Enum (`PEnumType::DEFAULT`).
fn empty_enum() -> Type {
    Type::Enum { values: Rc::from(Vec::new()), case_insensitive: false }
}

/// The case-sensitive Enum of both value lists (Ruby's `values | other`, then sorted).
fn enum_union(a: &[Rc<str>], b: &[Rc<str>]) -> Type {
    make_enum(a.iter().chain(b.iter()).cloned().collect(), false)
}

// ---------------------------------------------------------------------------------------
// The built-in aliases
// ---------------------------------------------------------------------------------------

thread_local! {
    static BUILTINS: RefCell<Option<(Type, Type, Type)>> = const { RefCell::new(None) };
}

/// Puppet's built-in aliases (`static_loader.rb`), made once per thread:
///
/// ```text
/// Data        = Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]
/// RichDataKey = Variant[String, Numeric]
/// RichData    = Variant[Scalar, SemVerRange, Binary, Sensitive, Type, TypeSet, URI, Object,
///                       Undef, Default, Hash[RichDataKey, RichData], Array[RichData]]
/// ```
fn builtins() -> (Type, Type, Type) {
    BUILTINS.with(|b| {
        let mut b = b.borrow_mut();
        if let Some(t) = &*b {
            return t.clone();
        }
        let made = make_builtins();
        *b = Some(made.clone());
        made
    })
}

fn make_builtins() -> (Type, Type, Type) {
    let data = TypeAlias::new("Data");
    let data_t = Type::Alias(data.clone());
    data.resolve_to(Type::variant(vec![
        Type::ScalarData,
        Type::Undef,
        Type::hash_of(Type::STRING, data_t.clone()),
        Type::array_of(data_t.clone()),
    ]));
    let key_t = Type::Alias(TypeAlias::with_type("RichDataKey", Type::variant(vec![Type::STRING, Type::Numeric])));
    let rich = TypeAlias::new("RichData");
    let rich_t = Type::Alias(rich.clone());
    rich.resolve_to(Type::variant(vec![
        Type::Scalar,
        Type::SemVerRange,
        Type::Binary,
        Type::Sensitive(None),
        Type::Type(None),
        Type::TypeSet,
        Type::Uri(None),
        Type::Object(Rc::default()),
        Type::Undef,
        Type::Default,
        Type::hash_of(key_t.clone(), rich_t.clone()),
        Type::array_of(rich_t.clone()),
    ]));
    (data_t, rich_t, key_t)
}

/// The built-in alias `Data`.
pub fn data() -> Type {
    builtins().0
}

/// The built-in alias `RichData`.
pub fn rich_data() -> Type {
    builtins().1
}

/// The built-in alias `RichDataKey`.
pub fn rich_data_key() -> Type {
    builtins().2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(a: i64, b: i64) -> Type {
        Type::integer(Some(a), Some(b))
    }

    #[test]
    fn numbers() {
        assert_eq!(common_type(&int(1, 2), &int(5, 6)), int(1, 6));
        assert_eq!(common_type(&Type::INTEGER, &Type::FLOAT), Type::Numeric);
        assert_eq!(common_type(&Type::INTEGER, &Type::STRING), Type::ScalarData);
        assert_eq!(common_type(&Type::INTEGER, &Type::Regexp(None)), Type::Scalar);
        assert_eq!(common_type(&Type::Undef, &Type::INTEGER), Type::INTEGER);
    }

    #[test]
    fn data_and_rich_data() {
        // (no assert_eq!: the Debug form of a recursive alias does not end)
        assert!(common_type(&Type::INTEGER, &Type::array_of(Type::STRING)) == data());
        assert!(common_type(&Type::INTEGER, &Type::Binary) == rich_data());
        assert!(common_type(&Type::INTEGER, &Type::Deferred) == rich_data());
        assert!(common_type(&Type::INTEGER, &Type::Runtime { runtime: None, name: None }) == Type::Any);
        assert!(is_assignable(&data(), &Type::hash_of(Type::STRING, Type::array_of(Type::INTEGER))));
        assert!(!is_assignable(&data(), &Type::hash_of(Type::INTEGER, Type::INTEGER)));
        assert!(is_assignable(&rich_data(), &data()));
        assert!(!is_assignable(&data(), &rich_data()));
    }

    #[test]
    fn strings() {
        let v = |s: &str| Type::String(Some(StringParam::Value(s.into())));
        assert_eq!(common_type(&v("a"), &v("b")), make_enum(vec!["a".into(), "b".into()], false));
        assert_eq!(common_type(&v("a"), &Type::STRING), Type::STRING);
    }

    #[test]
    fn types() {
        let t = common_type(&Type::type_of(int(1, 2)), &Type::type_of(int(5, 6)));
        assert_eq!(t, Type::type_of(int(1, 6)));
    }
}
