//! Instance-of: whether a value belongs to a type (Puppet's `=~` with a type on the right,
//! each type class's `instance?` in `pops/types/types.rb` and the `p_*_type.rb` files).
//!
//! Aliases and variants answer through Puppet's `really_instance?` (-1 no, 0 recursion
//! detected, 1 yes): a self-recursive alias (`type Tree = Array[Variant[Integer, Tree]]`)
//! marks itself and the value in a `RecursionGuard`, so checking a value against it ends.

use std::rc::Rc;

use crate::assignable::{
    alias_id, array_element, assignable, assignable_opt, enum_includes, hash_key_value, is_self_recursive,
    struct_element_name, struct_key_optional, with_guard, RecursionGuard,
};
use crate::new::init::{init_signatures, invalid_init_args};
use crate::normalize::maybe_create_variant;
use crate::ty::{Size, StringParam, Type};
use crate::value::{self, Value};

/// Whether `v` is an instance of `t`.
pub fn is_instance(t: &Type, v: &Value) -> bool {
    instance_of(t, v, None)
}

/// `t.instance?(v, guard)`.
pub(crate) fn instance_of(t: &Type, v: &Value, mut guard: Option<&mut RecursionGuard>) -> bool {
    let Some(_level) = crate::assignable::Nesting::enter() else { return false };
    match t {
        Type::Any | Type::Unit => true,
        Type::Undef => v.is_undef(),
        Type::Default => matches!(v, Value::Default),
        Type::Scalar => is_scalar_value(v),
        Type::ScalarData => {
            matches!(v, Value::String(_) | Value::Integer(_) | Value::BigInt(_) | Value::Float(_) | Value::Boolean(_))
        }
        Type::Numeric => matches!(v, Value::Integer(_) | Value::BigInt(_) | Value::Float(_)),
        Type::Integer { from, to } => match v {
            Value::Integer(i) => from.as_ref().is_none_or(|f| *f <= *i) && to.as_ref().is_none_or(|t| *t >= *i),
            Value::BigInt(_) => {
                v.as_int().is_some_and(|i| from.as_ref().is_none_or(|f| *f <= i) && to.as_ref().is_none_or(|t| *t >= i))
            }
            _ => false,
        },
        Type::Float { from, to } => match v {
            Value::Float(f) => f >= from && f <= to,
            _ => false,
        },
        Type::String(param) => match v {
            Value::String(s) => string_instance(param.as_ref(), s),
            _ => false,
        },
        Type::Enum { values, case_insensitive } => match v {
            Value::String(s) => enum_includes(values, *case_insensitive, s),
            _ => false,
        },
        Type::Pattern(patterns) => match v {
            Value::String(s) => patterns.is_empty() || patterns.iter().any(|p| p.is_match(s)),
            _ => false,
        },
        Type::Regexp(r) => match v {
            Value::Regexp(rv) => r.as_ref().is_none_or(|r| r.source() == rv.source()),
            _ => false,
        },
        Type::Boolean(b) => match v {
            Value::Boolean(x) => b.is_none_or(|b| b == *x),
            _ => false,
        },
        Type::SemVer(ranges) => match v {
            Value::SemVer(ver) => ranges.is_empty() || ranges.iter().any(|r| r.includes(ver)),
            _ => false,
        },
        Type::SemVerRange => matches!(v, Value::SemVerRange(_)),
        Type::Timespan { from, to } => match v {
            Value::Timespan(ts) => in_time_range(*from, *to, ts.nsecs),
            _ => false,
        },
        Type::Timestamp { from, to } => match v {
            Value::Timestamp(ts) => in_time_range(*from, *to, ts.nsecs),
            _ => false,
        },
        Type::Binary => matches!(v, Value::Binary(_)),
        Type::Uri(params) => match v {
            Value::Uri(u) => uri_instance(params.as_deref(), u),
            _ => false,
        },
        Type::Collection(size) => match v {
            Value::Array(a) => size_contains(size.as_ref(), a.len()),
            Value::Hash(h) => size_contains(size.as_ref(), h.len()),
            _ => false,
        },
        Type::Array { element, size } => match v {
            Value::Array(items) => {
                let e = array_element(element, size);
                items.iter().all(|item| instance_of(&e, item, guard.as_deref_mut()))
                    && size_contains(size.as_ref(), items.len())
            }
            _ => false,
        },
        Type::Hash { key, value, size } => match v {
            Value::Hash(h) => {
                let (k, vt) = hash_key_value(key, value, size);
                h.keys().all(|key| instance_of(&k, key, guard.as_deref_mut()))
                    && h.values().all(|val| instance_of(&vt, val, guard.as_deref_mut()))
                    && size_contains(size.as_ref(), h.len())
            }
            _ => false,
        },
        Type::Tuple { types, size } => match v {
            Value::Array(items) => tuple_instance(types, size.as_ref(), items, guard),
            _ => false,
        },
        Type::Struct(elements) => match v {
            Value::Hash(h) => struct_instance(elements, h, guard),
            _ => false,
        },
        Type::Variant(types) => types.iter().any(|t| instance_of(t, v, guard.as_deref_mut())),
        Type::Optional(inner) => v.is_undef() || inner.as_deref().is_some_and(|t| instance_of(t, v, guard)),
        Type::NotUndef(inner) => !v.is_undef() && inner.as_deref().is_none_or(|t| instance_of(t, v, guard)),
        Type::Iterable(inner) => iterable_instance(t, inner.as_deref(), v, guard),
        Type::Iterator(inner) => match v {
            Value::Iterator(it) => match inner.as_deref() {
                None => true,
                Some(i) => match iterator_element_type(it) {
                    Some(e) => assignable(i, &e, guard),
                    None => false,
                },
            },
            _ => false,
        },
        // `assignable?(infer(o))`: no value infers to a catalog entry type (references are
        // `Type[Resource[...]]`), nor to a Runtime or TypeSet.
        Type::CatalogEntry | Type::Class(_) | Type::Resource { .. } | Type::Runtime { .. } | Type::TypeSet => false,
        Type::Type(inner) => match v {
            Value::Type(o) => inner.as_deref().is_none_or(|i| assignable(i, o, guard)),
            _ => false,
        },
        Type::Callable(_) => match v {
            Value::Callable(c) => assignable(t, &c.signature(), guard),
            _ => false,
        },
        Type::Sensitive(inner) => match v {
            Value::Sensitive(x) => inner.as_deref().is_none_or(|i| instance_of(i, x, guard)),
            _ => false,
        },
        Type::Deferred => matches!(v, Value::Deferred(_)),
        Type::ObjectExtension(e) => crate::object::extension_instance(e, v),
        Type::Object(_) => match v {
            Value::Deferred(_) => assignable(t, &Type::Deferred, guard),
            Value::Error(_) => assignable(t, &Type::Error(None), guard),
            Value::Object(o) => assignable(t, &Type::Object(o.ty.clone()), guard),
            _ => false,
        },
        // `PObjectTypeExtension#test_instance?`: each parameter matches its attribute.
        Type::Error(params) => match v {
            Value::Error(e) => params.as_deref().is_none_or(|p| {
                p.by_name().into_iter().all(|(name, pattern)| {
                    pattern.is_none_or(|pattern| {
                        e.attribute(name).is_some_and(|a| crate::compare::match_value(&a, pattern))
                    })
                })
            }),
            _ => false,
        },
        Type::Init { .. } => really_instance(t, v, guard) == 1,
        Type::Reference(_) => false,
        Type::Alias(_) => really_instance(t, v, guard) == 1,
    }
}

/// Puppet's `really_instance?`: 1 when `v` is an instance through something other than an
/// alias or variant, 0 when recursion was detected, -1 when it is not an instance.
fn really_instance(t: &Type, v: &Value, mut guard: Option<&mut RecursionGuard>) -> i8 {
    match t {
        Type::Variant(types) => {
            let mut memo = -1;
            for member in types.iter() {
                let ri = really_instance(member, v, guard.as_deref_mut());
                if ri > 0 {
                    return ri;
                }
                memo = memo.max(ri);
            }
            memo
        }
        Type::Alias(a) => {
            if is_self_recursive(a) {
                with_guard(guard, |g| {
                    g.with_that(value_id(v), |g, _| {
                        g.with_this(alias_id(a), |g, state| {
                            if state == RecursionGuard::SELF_RECURSION_IN_BOTH {
                                0
                            } else {
                                really_instance(&a.resolved_type(), v, Some(g))
                            }
                        })
                    })
                })
            } else {
                really_instance(&a.resolved_type(), v, guard)
            }
        }
        Type::Init { ty, args } => init_really_instance(ty.as_deref(), args, v, guard),
        _ => {
            if instance_of(t, v, guard) {
                1
            } else {
                -1
            }
        }
    }
}

/// The identity of a value for the recursion guard: the object for values behind an `Rc`
/// (8-aligned addresses), the value itself for immediates (as Ruby's object ids of small
/// integers, `nil`, `true`), tagged in the low bits so that they never equal an address.
fn value_id(v: &Value) -> usize {
    fn ptr<T: ?Sized>(r: &Rc<T>) -> usize {
        Rc::as_ptr(r) as *const u8 as usize
    }
    match v {
        Value::Undef => 3,
        Value::Default => 11,
        Value::Boolean(b) => 19 + usize::from(*b) * 8,
        Value::Integer(i) => ((*i as usize) << 3) | 1,
        Value::BigInt(b) => ptr(b),
        Value::Float(f) => ((f.to_bits() as usize) << 3) | 2,
        Value::String(s) => ptr(s),
        Value::Regexp(r) => ptr(r),
        Value::Array(a) => ptr(a),
        Value::Hash(h) => ptr(h),
        Value::Type(t) => ptr(t),
        Value::Timespan(t) => ptr(t),
        Value::Timestamp(t) => ptr(t),
        Value::SemVer(s) => ptr(s),
        Value::SemVerRange(s) => ptr(s),
        Value::Binary(b) => ptr(b),
        Value::Uri(u) => ptr(u),
        Value::Sensitive(s) => ptr(s),
        Value::Deferred(d) => ptr(d),
        Value::Error(e) => ptr(e),
        Value::Object(o) => ptr(o),
        Value::Iterator(i) => ptr(i),
        Value::Callable(c) => ptr(c),
    }
}

/// `PScalarType#instance?`: strings, numbers, booleans, regexps, and what infers to a scalar
/// type (time values, versions and version ranges).
fn is_scalar_value(v: &Value) -> bool {
    matches!(
        v,
        Value::String(_)
            | Value::Integer(_)
            | Value::BigInt(_)
            | Value::Float(_)
            | Value::Boolean(_)
            | Value::Regexp(_)
            | Value::Timespan(_)
            | Value::Timestamp(_)
            | Value::SemVer(_)
            | Value::SemVerRange(_)
    )
}

/// The parameters of a `URI[...]` type as a hash of part names to patterns (a URI string
/// given as the parameter stands for its parts).
pub(crate) fn uri_type_parameters(params: Option<&Value>) -> Option<value::Hash> {
    match params? {
        Value::Hash(h) => Some((**h).clone()),
        Value::String(s) => crate::uri::Uri::parse(s).ok().and_then(|u| u.type_parameters()),
        _ => None,
    }
}

/// `PURIType#instance?`: each part named in the parameters matches its pattern (Ruby's
/// `URI` accessors: the port is an Integer, the default port when none is given).
fn uri_instance(params: Option<&Value>, u: &crate::uri::Uri) -> bool {
    match uri_type_parameters(params) {
        None => true,
        Some(h) => h.iter().all(|(name, pattern)| {
            let part = name.as_str().and_then(|n| u.part(n)).unwrap_or(Value::Undef);
            crate::compare::match_value(&part, pattern)
        }),
    }
}

/// Whether nanoseconds `n` are within a Timespan/Timestamp range.
fn in_time_range(from: Option<i128>, to: Option<i128>, n: i128) -> bool {
    from.is_none_or(|f| n >= f) && to.is_none_or(|t| n <= t)
}

/// Whether a collection of `n` elements satisfies an optional size constraint.
fn size_contains(size: Option<&Size>, n: usize) -> bool {
    size.is_none_or(|s| i64::try_from(n).is_ok_and(|n| s.contains(n)))
}

/// `PStringType#instance?`: the size in characters, or the one value.
fn string_instance(param: Option<&StringParam>, s: &str) -> bool {
    match param {
        None => true,
        Some(StringParam::Size(size)) => size_contains(Some(size), s.chars().count()),
        Some(StringParam::Value(v)) => **v == *s,
    }
}

/// `PTupleType#instance?`: the size (the number of types when unconstrained), then each
/// element against its type (the last type repeats).
fn tuple_instance(
    types: &[Type],
    size: Option<&Size>,
    items: &[Value],
    mut guard: Option<&mut RecursionGuard>,
) -> bool {
    match size {
        Some(s) => {
            if !size_contains(Some(s), items.len()) {
                return false;
            }
        }
        None => {
            if !types.is_empty() && types.len() != items.len() {
                return false;
            }
        }
    }
    types.is_empty()
        || items
            .iter()
            .enumerate()
            .all(|(i, item)| types.get(i).or(types.last()).is_some_and(|t| instance_of(t, item, guard.as_deref_mut())))
}

/// `PStructType#instance?`: each member present and matching, or missing and optional; no
/// other keys.
fn struct_instance(
    elements: &[crate::ty::StructElement],
    h: &value::Hash,
    mut guard: Option<&mut RecursionGuard>,
) -> bool {
    let mut matched = 0usize;
    let all = elements.iter().all(|e| {
        let key = struct_element_name(e).map(Value::string).unwrap_or(Value::Undef);
        match h.get(&key) {
            None => struct_key_optional(e, guard.as_deref_mut()),
            Some(found) => {
                matched += 1;
                instance_of(&e.value_type, found, guard.as_deref_mut())
            }
        }
    });
    all && matched == h.len()
}

/// `PIterableType#instance?`.
fn iterable_instance(t: &Type, inner: Option<&Type>, v: &Value, guard: Option<&mut RecursionGuard>) -> bool {
    let mut guard = guard;
    let unconstrained = inner.is_none_or(|i| assignable(i, &Type::Any, guard.as_deref_mut()));
    if unconstrained {
        iterable_value(v, 0)
    } else {
        assignable(t, &crate::infer::infer(v), guard)
    }
}

/// Whether a value can be iterated: iterators, strings, collections, non-negative integers,
/// `Type[Enum]` and finite `Type[Integer[a, b]]`.
fn iterable_value(v: &Value, depth: usize) -> bool {
    match v {
        Value::Iterator(_) | Value::String(_) | Value::Hash(_) | Value::Array(_) => true,
        Value::Integer(i) => *i >= 0,
        Value::BigInt(_) => v.as_int().is_some_and(|i| !i.is_negative()),
        Value::Type(t) => match &**t {
            Type::Enum { .. } => true,
            Type::Integer { from, to } => from.is_some() && to.is_some(),
            Type::Alias(a) if depth < 64 => iterable_value(&Value::ty(a.resolved_type()), depth + 1),
            _ => false,
        },
        _ => false,
    }
}

/// The element type of an iterator (`Iterable.on(source).element_type`): `String[1, 1]`
/// for strings, the variant of the elements' detailed types for arrays, key/value tuples for
/// hashes, the range for integers; `None` when the source is not iterable.
pub fn iterator_element_type(it: &value::Iterator) -> Option<Type> {
    iterable_source_element_type(&it.source, 0)
}

fn iterable_source_element_type(v: &Value, depth: usize) -> Option<Type> {
    let key_pair = |k: Type, v: Type| Type::Tuple { types: vec![k, v].into(), size: Some(Size::exact(2)) };
    match v {
        Value::Iterator(it) if depth < 64 => iterable_source_element_type(&it.source, depth + 1),
        Value::String(_) => Some(Type::String(Some(StringParam::Size(Size::exact(1))))),
        Value::Array(a) if a.is_empty() => Some(Type::Unit),
        Value::Array(a) => Some(maybe_create_variant(a.iter().map(crate::infer::infer_set).collect())),
        Value::Hash(h) if h.is_empty() => Some(key_pair(Type::Unit, Type::Unit)),
        Value::Hash(h) => Some(key_pair(
            maybe_create_variant(h.keys().map(crate::infer::infer_set).collect()),
            maybe_create_variant(h.values().map(crate::infer::infer_set).collect()),
        )),
        Value::Integer(0) => Some(Type::Unit),
        Value::Integer(n) if *n > 0 => Some(Type::integer(Some(0), Some(n - 1))),
        Value::Type(t) => match &**t {
            Type::Integer { from: Some(_), to: Some(_) } | Type::Enum { .. } => Some((**t).clone()),
            Type::Alias(a) if depth < 64 => iterable_source_element_type(&Value::ty(a.resolved_type()), depth + 1),
            _ => None,
        },
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------
// Init
// ---------------------------------------------------------------------------------------

/// `PInitType#really_instance?`: `Init` alone is `RichData`; `Init[T]` accepts instances of
/// `T` and what `T.new` accepts as its one argument (or as all its arguments, in an array).
fn init_really_instance(ty: Option<&Type>, args: &[Value], v: &Value, guard: Option<&mut RecursionGuard>) -> i8 {
    let Some(ty) = ty else {
        return really_instance(&crate::common::rich_data(), v, guard);
    };
    let r = really_instance(ty, v, guard);
    if r == 1 {
        return r;
    }
    let Ok(sig) = init_signatures(ty, args, 0) else { return r };
    if sig.single_accepts(v) || sig.other_accepts_args(v) || sig.other_accepts_one(v) {
        1
    } else {
        r
    }
}

/// `PInitType#_assignable?`.
pub(crate) fn init_assignable(
    ty: Option<&Type>,
    args: &[Value],
    o: &Type,
    mut guard: Option<&mut RecursionGuard>,
) -> bool {
    if let Type::Init { ty: oty, .. } = o {
        return match (ty, oty) {
            (None, _) => true,
            (Some(t), Some(ot)) => assignable(t, ot, guard),
            (Some(t), None) => assignable_opt(t, None, guard),
        };
    }
    let Some(ty) = ty else {
        return assignable(&crate::common::rich_data(), o, guard);
    };
    if assignable(ty, o, guard.as_deref_mut()) {
        return true;
    }
    let Ok(sig) = init_signatures(ty, args, 0) else { return false };
    if sig.single_type.as_ref().is_some_and(|s| assignable(s, o, guard.as_deref_mut())) {
        return true;
    }
    match &sig.other_type {
        Some(other) => {
            assignable(other, o, guard.as_deref_mut())
                || (sig.has_optional_single
                    && assignable(other, &Type::Tuple { types: vec![o.clone()].into(), size: None }, guard))
        }
        None => false,
    }
}

/// Checks the `Init` types within `t` as Puppet does when it first uses them: `T` must have
/// a `new`, and the extra arguments must fit one of its signatures.
pub fn validate_init(t: &Type) -> crate::Result<()> {
    validate_init_depth(t, 0)
}

fn validate_init_depth(t: &Type, depth: usize) -> crate::Result<()> {
    if depth > 100 {
        return Ok(());
    }
    if let Type::Init { ty: Some(ty), args } = t {
        if !init_signatures(ty, args, 0)?.args_fit {
            return Err(invalid_init_args(t, ty));
        }
    }
    let mut result = Ok(());
    crate::assignable::for_each_child(t, &mut |c| {
        if result.is_ok() {
            result = validate_init_depth(c, depth + 1);
        }
    });
    result
}

/// Whether `v` is an instance of `t`, with the errors Puppet raises for an `Init` type
/// whose type has no `new` or whose arguments fit none of its signatures.
pub fn try_is_instance(t: &Type, v: &Value) -> crate::Result<bool> {
    validate_init(t)?;
    Ok(is_instance(t, v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ty::{StructElement, TypeAlias};

    fn alias(name: &str, f: impl FnOnce(Type) -> Type) -> Type {
        let a = TypeAlias::new(name);
        let t = Type::Alias(a.clone());
        a.resolve_to(f(t.clone()));
        t
    }

    fn arr(v: Vec<Value>) -> Value {
        Value::array(v)
    }

    #[test]
    fn scalars() {
        assert!(is_instance(&Type::integer(Some(1), Some(10)), &Value::Integer(5)));
        assert!(!is_instance(&Type::integer(Some(1), Some(10)), &Value::Integer(11)));
        assert!(!is_instance(&Type::INTEGER, &Value::Float(1.0)));
        assert!(is_instance(&Type::Numeric, &Value::Float(1.0)));
        let e = Type::Enum { values: vec![Rc::from("a")].into(), case_insensitive: true };
        assert!(is_instance(&e, &Value::from("A")));
    }

    #[test]
    fn structs() {
        let s = Type::Struct(
            vec![
                StructElement {
                    key_type: Type::String(Some(StringParam::Value("a".into()))),
                    value_type: Type::INTEGER,
                },
                StructElement {
                    key_type: Type::optional(Type::String(Some(StringParam::Value("b".into())))),
                    value_type: Type::STRING,
                },
            ]
            .into(),
        );
        let mut h = value::Hash::default();
        h.insert(Value::from("a"), Value::Integer(1));
        assert!(is_instance(&s, &Value::hash(h.clone())));
        h.insert(Value::from("b"), Value::Integer(1));
        assert!(!is_instance(&s, &Value::hash(h.clone())));
        h.insert(Value::from("b"), Value::from("x"));
        assert!(is_instance(&s, &Value::hash(h.clone())));
        h.insert(Value::from("c"), Value::from("x"));
        assert!(!is_instance(&s, &Value::hash(h)));
    }

    #[test]
    fn recursive_alias_terminates() {
        // type Tree = Array[Variant[Integer, Tree]]
        let tree = alias("Tree", |t| Type::array_of(Type::variant(vec![Type::INTEGER, t])));
        let v = arr(vec![Value::Integer(1), arr(vec![Value::Integer(2), arr(vec![])])]);
        assert!(is_instance(&tree, &v));
        assert!(!is_instance(&tree, &arr(vec![Value::from("x")])));
        assert!(!is_instance(&tree, &Value::Integer(1)));
        // type A = Optional[A]: recursion without consuming the value ends with "no"
        let a = alias("A", Type::optional);
        assert!(!is_instance(&a, &Value::Integer(1)));
        assert!(is_instance(&a, &Value::Undef));
    }

    #[test]
    fn init_errors() {
        let check = |src: &str| {
            let t = crate::literal::read(src).ok().and_then(|v| v.as_type().cloned()).unwrap_or(Type::Unit);
            try_is_instance(&t, &Value::Integer(1)).map_err(|e| e.message)
        };
        assert_eq!(check("Init[Integer]"), Ok(true));
        assert_eq!(
            check("Init[Enum['a']]"),
            Err("Creation of new instance of type 'Enum['a']' is not supported".to_string())
        );
        assert_eq!(
            check("Init[Integer, 'x']"),
            Err("The type 'Init[Integer, 'x']' does not represent a valid set of parameters for Integer.new()"
                .to_string())
        );
        assert_eq!(check("Init[Integer, 16]"), Ok(true));
        assert_eq!(check("Init[Data]"), Err("Creation of new instance of type 'Data' is not supported".to_string()));
    }

    #[test]
    fn too_deep_is_no() {
        let mut v = Value::Integer(1);
        let mut t = Type::INTEGER;
        for _ in 0..3000 {
            v = arr(vec![v]);
            t = Type::array_of(t);
        }
        assert!(!is_instance(&t, &v));
        assert!(!is_instance(&crate::common::data(), &v));
        // the counter is released
        assert!(is_instance(&Type::INTEGER, &Value::Integer(1)));
    }

    #[test]
    fn deep_values() {
        let mut v = Value::Integer(1);
        let mut t = Type::INTEGER;
        for _ in 0..240 {
            v = arr(vec![v]);
            t = Type::array_of(t);
        }
        assert!(is_instance(&t, &v));
        let tree = alias("Tree", |t| Type::variant(vec![Type::INTEGER, Type::array_of(t)]));
        assert!(is_instance(&tree, &v));
    }
}
