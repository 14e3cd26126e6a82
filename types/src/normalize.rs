//! Normalisation of types (`normalize` in `pops/types/types.rb`): the same set of values in
//! Puppet's preferred form. Puppet normalises what a type alias stands for and both sides
//! of a type-mismatch description.
//!
//! | type                         | normal form                                                |
//! |------------------------------|------------------------------------------------------------|
//! | `Variant[T]`                 | `T`                                                        |
//! | `Variant[..., Undef, ...]`, `Variant[..., Optional[T], ...]` | `Optional[Variant[..., T, ...]]` |
//! | `Variant[Variant[A, B], C]`  | flattened, when something else changed                     |
//! | several `NotUndef[T]` in a Variant | one `NotUndef[Variant[T...]]`                        |
//! | several `Enum`/`String['x']` | one `Enum` (case-insensitive ones separately, lower-cased) |
//! | several `Pattern`            | one `Pattern`                                              |
//! | several `SemVer`             | one `SemVer`                                               |
//! | overlapping or adjacent `Integer` ranges, overlapping `Float`/`Timespan`/`Timestamp` ranges | merged |
//! | `Optional[NotUndef[T]]`      | `Optional[T]`; `Optional[T]` where `T` accepts undef: `T`   |
//! | `NotUndef[Optional[T]]`      | `NotUndef[T]`; `NotUndef[T]` where `T` rejects undef: `T`   |
//! | `Collection[...]`            | `Collection`                                               |
//! | `Array[Any, ...]`            | `Array`                                                    |
//! | containers                   | their contained types normalised                           |

use std::rc::Rc;

use crate::assignable::is_assignable;
use crate::compare::type_eql;
use crate::ty::{CallableType, IntBound, Size, StringParam, StructElement, Type};

/// What a self-recursive alias stands for once Puppet has found it recursive
/// (`PTypeAliasType#when_self_recursion_detected`): a Variant loses the members that are
/// the alias itself or hold no real type (only aliases and variants), so `type T =
/// Variant[Integer, T]` is `T = Integer` and `Variant[T, Array[T]]` is `Array[T]`. Other
/// types stay as they are.
pub fn settle_recursive_alias(alias: &Rc<crate::ty::TypeAlias>) {
    if !crate::assignable::is_self_recursive(alias) {
        return;
    }
    let resolved = alias.resolved_type();
    let Type::Variant(types) = &resolved else { return };
    let real: Vec<Type> = types
        .iter()
        .filter(|t| !matches!(t, Type::Alias(a) if a.name == alias.name))
        .filter(|t| has_real_type(t, &mut Vec::new()))
        .cloned()
        .collect();
    if real.len() != types.len() {
        alias.resolve_to(match <[Type; 1]>::try_from(real) {
            Ok([one]) => one,
            Err(many) => Type::Variant(many.into()),
        });
    }
}

/// `AssertOtherTypeAcceptor`: whether `t` is or contains (through aliases) a type that is
/// neither an alias nor a Variant.
fn has_real_type(t: &Type, seen: &mut Vec<*const crate::ty::TypeAlias>) -> bool {
    let Some(_level) = crate::assignable::Nesting::enter() else { return true };
    match t {
        Type::Alias(a) => {
            if seen.contains(&Rc::as_ptr(a)) {
                return false;
            }
            seen.push(Rc::as_ptr(a));
            has_real_type(&a.resolved_type(), seen)
        }
        Type::Variant(types) => types.iter().any(|t| has_real_type(t, seen)),
        _ => true,
    }
}

/// The normalised form of `t`.
pub fn normalize(t: &Type) -> Type {
    normalized(t).unwrap_or_else(|| t.clone())
}

/// The normalised form of `t`, or `None` when it is `t` itself (Puppet returns `self`).
fn normalized(t: &Type) -> Option<Type> {
    let _level = crate::assignable::Nesting::enter()?;
    match t {
        Type::Variant(types) => normalize_variant(types),
        Type::Optional(inner) => normalize_optional(inner.as_deref()),
        Type::NotUndef(inner) => normalize_not_undef(inner.as_deref()),
        Type::Type(inner) => contained(inner.as_deref()).map(|n| Type::Type(n.map(Rc::new))),
        Type::Iterable(inner) => contained(inner.as_deref()).map(|n| Type::Iterable(n.map(Rc::new))),
        Type::Iterator(inner) => contained(inner.as_deref()).map(|n| Type::Iterator(n.map(Rc::new))),
        Type::Sensitive(inner) => contained(inner.as_deref()).map(|n| Type::Sensitive(n.map(Rc::new))),
        Type::Init { ty, args } => {
            contained(ty.as_deref()).map(|n| Type::Init { ty: n.map(Rc::new), args: args.clone() })
        }
        Type::Collection(Some(_)) => Some(Type::Collection(None)),
        Type::Array { element, size } => normalize_array(element, size),
        Type::Hash { key, value, size } => normalize_hash(key, value, size),
        Type::Tuple { types, size } => {
            if types.is_empty() && size.is_none() {
                return None;
            }
            normalize_list(types).map(|types| Type::Tuple { types: types.into(), size: size.clone() })
        }
        Type::Struct(elements) => normalize_struct(elements),
        Type::Callable(c) => normalize_callable(c),
        _ => None,
    }
}

/// `PTypeWithContainedType#normalize`: the contained type normalised (`Some(None)` is the
/// unparameterised type); `None` when unchanged.
fn contained(inner: Option<&Type>) -> Option<Option<Type>> {
    inner.and_then(normalized).map(Some)
}

/// Normalises each type of a list; `None` when none changed (`alter_type_array`).
fn normalize_list(types: &[Type]) -> Option<Vec<Type>> {
    let altered: Vec<Option<Type>> = types.iter().map(normalized).collect();
    if altered.iter().all(Option::is_none) {
        return None;
    }
    Some(altered.into_iter().zip(types.iter()).map(|(n, t)| n.unwrap_or_else(|| t.clone())).collect())
}

/// `POptionalType#normalize`.
fn normalize_optional(inner: Option<&Type>) -> Option<Type> {
    let inner = inner?;
    let n = normalized(inner);
    let n_inner = n.clone().unwrap_or_else(|| inner.clone());
    match &n_inner {
        Type::NotUndef(x) => Some(normalize(&Type::Optional(x.clone()))),
        x if is_assignable(x, &Type::Undef) => Some(n_inner.clone()),
        _ => n.map(Type::optional),
    }
}

/// `PNotUndefType#normalize`.
fn normalize_not_undef(inner: Option<&Type>) -> Option<Type> {
    let inner = inner?;
    let n = normalized(inner);
    let n_inner = n.clone().unwrap_or_else(|| inner.clone());
    match &n_inner {
        Type::Optional(x) => Some(normalize(&Type::NotUndef(x.clone()))),
        x if !is_assignable(x, &Type::Undef) => Some(n_inner.clone()),
        _ => n.map(|t| Type::NotUndef(Some(Rc::new(t)))),
    }
}

/// `PArrayType#normalize`: `Array[Any, ...]` is `Array`.
fn normalize_array(element: &Option<Rc<Type>>, size: &Option<Size>) -> Option<Type> {
    let e = crate::assignable::array_element(element, size);
    if e == Type::Any {
        return if element.is_none() && size.is_none() { None } else { Some(Type::ARRAY) };
    }
    normalized(&e).map(|n| Type::Array { element: Some(Rc::new(n)), size: size.clone() })
}

/// `PHashType#normalize`: the key and value types normalised; a size is kept only when
/// something changed.
fn normalize_hash(key: &Option<Rc<Type>>, value: &Option<Rc<Type>>, size: &Option<Size>) -> Option<Type> {
    let (k, v) = crate::assignable::hash_key_value(key, value, size);
    let is_default = k == Type::Any && v == Type::Any && size.is_none();
    let is_empty = *size == Some(Size::exact(0)) && k == Type::Unit && v == Type::Unit;
    if is_default || is_empty {
        return None;
    }
    let (nk, nv) = (normalized(&k), normalized(&v));
    if size.is_none() && nk.is_none() && nv.is_none() {
        return None;
    }
    Some(Type::Hash { key: Some(Rc::new(nk.unwrap_or(k))), value: Some(Rc::new(nv.unwrap_or(v))), size: size.clone() })
}

/// `PStructType#normalize`: the value types normalised.
fn normalize_struct(elements: &[StructElement]) -> Option<Type> {
    let values: Vec<Type> = elements.iter().map(|e| e.value_type.clone()).collect();
    let altered = normalize_list(&values)?;
    Some(Type::Struct(
        elements
            .iter()
            .zip(altered)
            .map(|(e, value_type)| StructElement { key_type: e.key_type.clone(), value_type })
            .collect(),
    ))
}

/// `PCallableType#normalize`: parameters, block and return type normalised.
fn normalize_callable(c: &CallableType) -> Option<Type> {
    let part = |t: &Option<Rc<Type>>| t.as_deref().and_then(normalized);
    let (p, b, r) = (part(&c.params), part(&c.block), part(&c.return_type));
    if p.is_none() && b.is_none() && r.is_none() {
        return None;
    }
    let keep = |n: Option<Type>, old: &Option<Rc<Type>>| n.map(Rc::new).or_else(|| old.clone());
    Some(Type::Callable(Rc::new(CallableType {
        params: keep(p, &c.params),
        block: keep(b, &c.block),
        return_type: keep(r, &c.return_type),
    })))
}

// ---------------------------------------------------------------------------------------
// Variants
// ---------------------------------------------------------------------------------------

/// `PVariantType.maybe_create`: the variant of the types, flattened and without duplicates;
/// the type itself when only one remains.
pub fn maybe_create_variant(types: Vec<Type>) -> Type {
    let mut unique = uniq(flatten_variants(types));
    if unique.len() == 1 {
        unique.remove(0)
    } else {
        Type::Variant(unique.into())
    }
}

/// `PVariantType.flatten_variants`: the members of member variants in their place.
fn flatten_variants(types: Vec<Type>) -> Vec<Type> {
    let mut out = Vec::with_capacity(types.len());
    for t in types {
        match t {
            Type::Variant(ref members) => out.extend(members.iter().cloned()),
            other => out.push(other),
        }
    }
    out
}

/// Ruby's `uniq` on types (by `eql?`), keeping the first occurrence.
fn uniq(types: Vec<Type>) -> Vec<Type> {
    let mut out: Vec<Type> = Vec::with_capacity(types.len());
    for t in types {
        if !out.iter().any(|o| type_eql(o, &t)) {
            out.push(t);
        }
    }
    out
}

/// `PVariantType#normalize`.
fn normalize_variant(members: &[Type]) -> Option<Type> {
    if members.is_empty() {
        return None;
    }
    let altered = normalize_list(members);
    let modified = altered.is_some();
    let types = altered.unwrap_or_else(|| members.to_vec());
    if types.len() == 1 {
        return types.into_iter().next();
    }
    if types.iter().any(|t| matches!(t, Type::Undef | Type::Optional(_))) {
        let rest: Vec<Type> = types
            .into_iter()
            .filter(|t| !matches!(t, Type::Undef))
            .map(|t| match t {
                Type::Optional(ref inner) => inner.as_deref().cloned().unwrap_or(Type::Any),
                other => other,
            })
            .collect();
        return Some(normalize(&Type::optional(maybe_create_variant(rest))));
    }
    let types = flatten_variants(types);
    let size_before_merge = types.len();
    let types = swap_not_undefs(types);
    let types = merge_enums(types);
    let types = merge_patterns(types);
    let types = merge_version_ranges(types);
    let types = merge_numbers(types, |t| matches!(t, Type::Integer { .. }));
    let types = merge_numbers(types, |t| matches!(t, Type::Float { .. }));
    let types = merge_numbers(types, |t| matches!(t, Type::Timespan { .. }));
    let types = merge_numbers(types, |t| matches!(t, Type::Timestamp { .. }));
    if types.len() == 1 {
        types.into_iter().next()
    } else if modified || types.len() != size_before_merge {
        Some(maybe_create_variant(types))
    } else {
        None
    }
}

/// Splits `types` into those `pred` selects and the others, in order.
fn partition(types: Vec<Type>, pred: impl Fn(&Type) -> bool) -> (Vec<Type>, Vec<Type>) {
    types.into_iter().partition(|t| pred(t))
}

/// Several `NotUndef[T]` become one `NotUndef[Variant[T...]]`, after the other members.
fn swap_not_undefs(types: Vec<Type>) -> Vec<Type> {
    if types.len() < 2 {
        return types;
    }
    let (not_undefs, mut others) = partition(types.clone(), |t| matches!(t, Type::NotUndef(_)));
    if not_undefs.len() < 2 {
        return types;
    }
    let inner: Vec<Type> = not_undefs
        .into_iter()
        .map(|t| match t {
            Type::NotUndef(ref inner) => inner.as_deref().cloned().unwrap_or(Type::Any),
            other => other,
        })
        .collect();
    others.push(Type::NotUndef(Some(Rc::new(normalize(&maybe_create_variant(inner))))));
    others
}

/// An `Enum` of the values, sorted and without duplicates as Puppet keeps them.
pub(crate) fn make_enum(values: Vec<Rc<str>>, case_insensitive: bool) -> Type {
    let mut values = values;
    values.sort();
    values.dedup();
    Type::Enum { values: values.into(), case_insensitive }
}

/// Several case-sensitive Enums and String values become one Enum; several
/// case-insensitive Enums one case-insensitive Enum of their lower-cased values.
fn merge_enums(types: Vec<Type>) -> Vec<Type> {
    let mut types = types;
    if types.len() > 1 {
        let (enums, mut others) = partition(types.clone(), |t| match t {
            Type::Enum { values, case_insensitive } => !values.is_empty() && !case_insensitive,
            Type::String(Some(StringParam::Value(_))) => true,
            _ => false,
        });
        if enums.len() > 1 {
            let mut values = Vec::new();
            for e in enums {
                match e {
                    Type::Enum { values: ref v, .. } => values.extend(v.iter().cloned()),
                    Type::String(Some(StringParam::Value(ref v))) => values.push(v.clone()),
                    _ => {}
                }
            }
            others.push(make_enum(values, false));
            types = others;
        }
    }
    if types.len() > 1 {
        let (enums, mut others) = partition(
            types.clone(),
            |t| matches!(t, Type::Enum { values, case_insensitive: true } if !values.is_empty()),
        );
        if enums.len() > 1 {
            let mut values = Vec::new();
            for e in enums {
                if let Type::Enum { values: ref v, .. } = e {
                    values.extend(v.iter().map(|s| Rc::from(s.to_lowercase())));
                }
            }
            others.push(make_enum(values, true));
            types = others;
        }
    }
    types
}

/// Several Patterns become one Pattern of all their regexps.
fn merge_patterns(types: Vec<Type>) -> Vec<Type> {
    if types.len() < 2 {
        return types;
    }
    let (patterns, mut others) = partition(types.clone(), |t| matches!(t, Type::Pattern(_)));
    if patterns.len() < 2 {
        return types;
    }
    let mut all: Vec<Rc<crate::regexp::Regexp>> = Vec::new();
    for p in patterns {
        if let Type::Pattern(ref rs) = p {
            for r in rs.iter() {
                if !all.iter().any(|x| x.source() == r.source()) {
                    all.push(r.clone());
                }
            }
        }
    }
    others.push(Type::Pattern(all.into()));
    others
}

/// Several SemVer types become one, first, their ranges merged as `SemVer[...]` merges its
/// parameters.
fn merge_version_ranges(types: Vec<Type>) -> Vec<Type> {
    if types.len() < 2 {
        return types;
    }
    let (versions, others) = partition(types.clone(), |t| matches!(t, Type::SemVer(_)));
    if versions.len() < 2 {
        return types;
    }
    let mut ranges = Vec::new();
    for v in versions {
        if let Type::SemVer(ref rs) = v {
            ranges.extend(rs.iter().cloned());
        }
    }
    let ranges = crate::semver::merge_type_ranges(ranges.clone()).unwrap_or(ranges);
    let mut out = vec![Type::SemVer(ranges.into())];
    out.extend(others);
    out
}

/// Merges the ranges of one kind (`merge_numbers`): the merged ranges first, then the other
/// members.
fn merge_numbers(types: Vec<Type>, kind: impl Fn(&Type) -> bool) -> Vec<Type> {
    if types.len() < 2 {
        return types;
    }
    let (ranges, others) = partition(types.clone(), kind);
    if ranges.len() < 2 {
        return types;
    }
    let mut out = merge_ranges(ranges);
    out.extend(others);
    out
}

/// `PVariantType#merge_ranges`: repeatedly takes the last range and merges every other
/// range it can into it.
fn merge_ranges(ranges: Vec<Type>) -> Vec<Type> {
    let mut ranges = ranges;
    let mut result = Vec::new();
    while let Some(x) = ranges.pop() {
        let mut unmerged = Vec::new();
        let mut memo = x;
        for y in ranges {
            match merge_range(&memo, &y) {
                Some(m) => memo = m,
                None => unmerged.push(y),
            }
        }
        result.push(memo);
        ranges = unmerged;
    }
    result
}

/// `merge`: the union of two ranges of one kind when they intersect (or, for integers,
/// are adjacent).
fn merge_range(a: &Type, b: &Type) -> Option<Type> {
    match (a, b) {
        (Type::Integer { from: f1, to: t1 }, Type::Integer { from: f2, to: t2 }) => {
            // `t < f` with both bounded (an unbounded end reaches every number)
            let below = |t: &IntBound, f: &IntBound| matches!((t, f), (Some(t), Some(f)) if t < f);
            let next_to =
                |t: &IntBound, f: &IntBound| matches!((t, f), (Some(t), Some(f)) if t.to_big() + 1 == f.to_big());
            let intersect = !(below(t1, f2) || below(t2, f1));
            if !(intersect || next_to(t1, f2) || next_to(t2, f1)) {
                return None;
            }
            let from = f1.as_ref().zip(f2.as_ref()).map(|(a, b)| a.min(b).clone());
            let to = t1.as_ref().zip(t2.as_ref()).map(|(a, b)| a.max(b).clone());
            Some(Type::Integer { from, to })
        }
        (Type::Float { from: f1, to: t1 }, Type::Float { from: f2, to: t2 }) => {
            if t1 < f2 || t2 < f1 {
                return None;
            }
            Some(Type::Float { from: f1.min(*f2), to: t1.max(*t2) })
        }
        (Type::Timespan { from: f1, to: t1 }, Type::Timespan { from: f2, to: t2 }) => {
            time_merge(*f1, *t1, *f2, *t2).map(|(from, to)| Type::Timespan { from, to })
        }
        (Type::Timestamp { from: f1, to: t1 }, Type::Timestamp { from: f2, to: t2 }) => {
            time_merge(*f1, *t1, *f2, *t2).map(|(from, to)| Type::Timestamp { from, to })
        }
        _ => None,
    }
}

/// The union of two intersecting time ranges.
fn time_merge(
    f1: Option<i128>,
    t1: Option<i128>,
    f2: Option<i128>,
    t2: Option<i128>,
) -> Option<(Option<i128>, Option<i128>)> {
    let lo = |x: Option<i128>| x.unwrap_or(i128::MIN);
    let hi = |x: Option<i128>| x.unwrap_or(i128::MAX);
    if hi(t1) < lo(f2) || hi(t2) < lo(f1) {
        return None;
    }
    let from = if lo(f1) <= lo(f2) { f1 } else { f2 };
    let to = if hi(t1) >= hi(t2) { t1 } else { t2 };
    Some((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(a: i64, b: i64) -> Type {
        Type::integer(Some(a), Some(b))
    }

    fn en(vals: &[&str]) -> Type {
        make_enum(vals.iter().map(|s| Rc::from(*s)).collect(), false)
    }

    #[test]
    fn variants() {
        assert_eq!(normalize(&Type::variant(vec![Type::INTEGER])), Type::INTEGER);
        assert_eq!(normalize(&Type::variant(vec![Type::INTEGER, Type::Undef])), Type::optional(Type::INTEGER));
        assert_eq!(normalize(&Type::variant(vec![int(1, 3), int(4, 6)])), int(1, 6));
        // nothing merged: the variant itself
        assert_eq!(normalize(&Type::variant(vec![int(1, 3), int(5, 6)])), Type::variant(vec![int(1, 3), int(5, 6)]));
        // merged ranges come first
        assert_eq!(
            normalize(&Type::variant(vec![int(1, 3), Type::STRING, int(5, 6), int(4, 4)])),
            Type::variant(vec![int(1, 6), Type::STRING])
        );
        assert_eq!(normalize(&Type::variant(vec![en(&["b"]), en(&["a"])])), en(&["a", "b"]));
        // unchanged variants are not flattened
        let nested = Type::variant(vec![Type::INTEGER, Type::variant(vec![Type::STRING, Type::FLOAT])]);
        assert_eq!(normalize(&nested), nested);
    }

    #[test]
    fn optionals() {
        let o = Type::optional(Type::NotUndef(Some(Rc::new(Type::INTEGER))));
        assert_eq!(normalize(&o), Type::optional(Type::INTEGER));
        assert_eq!(normalize(&Type::NotUndef(Some(Rc::new(Type::INTEGER)))), Type::INTEGER);
        assert_eq!(normalize(&Type::optional(Type::Any)), Type::Any);
    }

    #[test]
    fn containers() {
        let a = Type::array_of(Type::variant(vec![int(1, 2), int(2, 3)]));
        assert_eq!(normalize(&a), Type::array_of(int(1, 3)));
        assert_eq!(normalize(&Type::Collection(Some(Size::exact(1)))), Type::Collection(None));
    }

    /// Puppet 7.23's `TypeParser.parse(src).normalize.to_s` for each source.
    #[test]
    fn as_puppet_normalizes() {
        let cases = [
            (r"Variant[Integer]", r"Integer"),
            (r"Variant[Integer, String]", r"Variant[Integer, String]"),
            (r"Variant[Integer, Undef]", r"Optional[Integer]"),
            (r"Variant[Undef, Integer, String]", r"Optional[Variant[Integer, String]]"),
            (r"Variant[Optional[Integer], String]", r"Optional[Variant[Integer, String]]"),
            (r"Variant[Optional[Integer], Undef]", r"Optional[Integer]"),
            (r"Variant[Integer, Variant[String, Float]]", r"Variant[Integer, String, Float]"),
            (r"Variant[Integer[1, 2], Variant[String, Float]]", r"Variant[Integer[1, 2], String, Float]"),
            (r"Variant[Integer[1, 3], Integer[4, 6]]", r"Integer[1, 6]"),
            (r"Variant[Integer[1, 3], Integer[5, 6]]", r"Variant[Integer[1, 3], Integer[5, 6]]"),
            (r"Variant[Integer[1, 3], String, Integer[5, 6], Integer[4, 4]]", r"Variant[Integer[1, 6], String]"),
            (r"Variant[Integer[1, 10], Integer[2, 3]]", r"Integer[1, 10]"),
            (r"Variant[Integer, Integer[1, 2]]", r"Integer"),
            (r"Variant[Float[1.0, 2.0], Float[1.5, 3.0]]", r"Float[1.0, 3.0]"),
            (r"Variant[Float[1.0, 2.0], Float[2.5, 3.0]]", r"Variant[Float[1.0, 2.0], Float[2.5, 3.0]]"),
            (r"Variant[Enum['a'], Enum['b']]", r"Enum['a', 'b']"),
            (r"Variant[Enum['b', 'c'], Enum['a']]", r"Enum['a', 'b', 'c']"),
            (r"Variant[Enum['a'], Enum['B', true], Enum['c', true]]", r"Variant[Enum['a'], Enum['b', 'c', true]]"),
            (r"Variant[Enum['a'], String, Enum['b']]", r"Variant[String, Enum['a', 'b']]"),
            (r"Variant[Pattern[/a/], Pattern[/b/]]", r"Pattern[/a/, /b/]"),
            (r"Variant[Pattern[/a/], String, Pattern[/a/, /c/]]", r"Variant[String, Pattern[/a/, /c/]]"),
            (r"Variant[NotUndef[Integer], NotUndef[String]]", r"Variant[Integer, String]"),
            (r"Variant[NotUndef[Integer], Float, NotUndef[String]]", r"Variant[Integer, Float, String]"),
            (r"Variant[Timespan[1, 2], Timespan[2, 3]]", r"Timespan['0-00:00:01.0', '0-00:00:03.0']"),
            (r"Variant[SemVer['1.x'], SemVer['2.x']]", r"SemVer['>=3.0.0 <1.0.0']"),
            (r"Variant[SemVer['1.x'], SemVer['3.x']]", r"SemVer['1.x', '3.x']"),
            (r"Optional[Integer]", r"Optional[Integer]"),
            (r"Optional[NotUndef[Integer]]", r"Optional[Integer]"),
            (r"Optional[Optional[Integer]]", r"Optional[Integer]"),
            (r"Optional[Variant[Integer, Undef]]", r"Optional[Integer]"),
            (r"Optional[Any]", r"Any"),
            (r"Optional[Data]", r"Data"),
            (r"Optional[Variant[Integer, Integer[1, 2]]]", r"Optional[Integer]"),
            (r"NotUndef[Integer]", r"Integer"),
            (r"NotUndef[Optional[Integer]]", r"Integer"),
            (r"NotUndef[Variant[Integer, Undef]]", r"Integer"),
            (r"NotUndef[Any]", r"NotUndef"),
            (r"NotUndef[Data]", r"NotUndef[Data]"),
            (r"NotUndef", r"NotUndef"),
            (r"Collection[1, 2]", r"Collection"),
            (r"Array[Any, 1, 2]", r"Array"),
            (r"Array[Variant[Integer[1, 2], Integer[2, 3]]]", r"Array[Integer[1, 3]]"),
            (r"Array[Integer, 1, 2]", r"Array[Integer, 1, 2]"),
            (r"Array[Variant[Integer[1, 2], Integer[2, 3]], 1, 2]", r"Array[Integer[1, 3], 1, 2]"),
            (r"Hash[String, Variant[Integer, Undef]]", r"Hash[String, Optional[Integer]]"),
            (r"Hash[String, Integer, 1, 2]", r"Hash[String, Integer, 1, 2]"),
            (r"Hash[String, Variant[Integer[1, 2], Integer[3, 4]], 1, 2]", r"Hash[String, Integer[1, 4], 1, 2]"),
            (r"Tuple[Variant[Integer], String]", r"Tuple[Integer, String]"),
            (r"Tuple[Variant[Integer], String, 1, 3]", r"Tuple[Integer, String, 1, 3]"),
            (
                r"Struct[{a => Variant[Integer, Undef], b => Variant[String]}]",
                r"Struct[{'a' => Optional[Integer], 'b' => String}]",
            ),
            (r"Callable[Variant[Integer], Variant[String, Undef]]", r"Callable[Integer, Optional[String]]"),
            (r"Callable[[Variant[Integer]], Variant[String, Undef]]", r"Callable[[Integer], Optional[String]]"),
            (r"Type[Variant[Integer, Undef]]", r"Type[Optional[Integer]]"),
            (r"Iterable[Variant[Integer]]", r"Iterable[Integer]"),
            (r"Sensitive[Variant[Integer]]", r"Sensitive[Integer]"),
            (
                r"Variant[Array[Variant[Integer]], Hash[String, Optional[Optional[Integer]]]]",
                r"Variant[Array[Integer], Hash[String, Optional[Integer]]]",
            ),
            (r"Variant[Data, Undef]", r"Data"),
            (r"Variant[Data, Integer]", r"Variant[Data, Integer]"),
            (r"Variant[Integer, Any]", r"Variant[Integer, Any]"),
        ];
        for (src, expected) in cases {
            let t = crate::literal::read(src).ok().and_then(|v| v.as_type().cloned());
            let got = t.map(|t| normalize(&t).to_string());
            assert_eq!(got.as_deref(), Some(expected), "{src}");
        }
    }
}
