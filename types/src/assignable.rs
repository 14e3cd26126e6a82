//! Assignability: whether every value of one type is a value of another (Puppet's
//! `PAnyType#assignable?` and each type class's `_assignable?` in `pops/types/types.rb`).
//!
//! Puppet's dispatch is two-staged and this port keeps it:
//!
//! 1. `assignable?` (on the receiver `t`): `Unit` accepts everything; an alias guards
//!    against self recursion, then continues; a `Variant` on the left has its own rules when
//!    the other is a `Variant` too (every member must be accepted) or `Undef` (an empty
//!    `Variant` accepts no `Undef`).
//! 2. `PAnyType#assignable?` looks at the other type `o`: `Unit` is accepted; aliases are
//!    resolved (guarding recursion); a `Variant` is accepted when all its members are;
//!    `Optional[T]` when `Undef` and `T` are; `NotUndef[T]` when `T` is (if `T` excludes
//!    `undef`); anything else goes to the receiver's `_assignable?`.
//!
//! Recursive aliases (`type Tree = Array[Variant[Integer, Tree]]`) terminate through
//! `RecursionGuard`, as in Puppet: once recursion is seen on both sides, the types are
//! assignable (every check up to that point succeeded).

use std::collections::HashSet;
use std::rc::Rc;

use crate::compare::type_eql;
use crate::normalize::maybe_create_variant;
use crate::ty::{
    len_i64, CallableType, ErrorParams, IntBound, ObjectType, Size, StringParam, StructElement, Type, TypeAlias,
};
use crate::value::Value;

/// Whether `t` accepts every value of `other` (`t.assignable?(other)`).
pub fn is_assignable(t: &Type, other: &Type) -> bool {
    assignable(t, other, None)
}

// ---------------------------------------------------------------------------------------
// Recursion guard
// ---------------------------------------------------------------------------------------

/// Puppet's `RecursionGuard`: remembers which aliases ("this", the receiving side) and
/// which types or values ("that", the other side) are being visited, and flags recursion
/// when one is entered again while it is still being visited.
#[derive(Default, Debug)]
pub(crate) struct RecursionGuard {
    state: u8,
    this_map: HashSet<usize>,
    that_map: HashSet<usize>,
    /// The questions being answered (alias, other type, and how far the guard is): asking
    /// one again while answering it makes no progress (an alias made only of itself, which
    /// Puppet refuses to define).
    asking: HashSet<(usize, u64, u8, usize, usize)>,
}

impl RecursionGuard {
    pub(crate) const SELF_RECURSION_IN_THIS: u8 = 1;
    pub(crate) const SELF_RECURSION_IN_THAT: u8 = 2;
    pub(crate) const SELF_RECURSION_IN_BOTH: u8 = 3;

    pub(crate) fn new() -> RecursionGuard {
        RecursionGuard::default()
    }

    /// `with_this`: visits `id` on the receiving side during `f`, which gets the state.
    pub(crate) fn with_this<R>(&mut self, id: usize, f: impl FnOnce(&mut RecursionGuard, u8) -> R) -> R {
        if self.state & Self::SELF_RECURSION_IN_THIS == 0 {
            let before = self.this_map.len();
            if self.this_put(id) {
                self.state |= Self::SELF_RECURSION_IN_THIS;
            }
            if before < self.this_map.len() {
                let state = self.state;
                let result = f(self, state);
                self.state &= !Self::SELF_RECURSION_IN_THIS;
                self.this_map.remove(&id);
                return result;
            }
        }
        let state = self.state;
        f(self, state)
    }

    /// `with_that`: visits `id` on the other side during `f`, which gets the state.
    pub(crate) fn with_that<R>(&mut self, id: usize, f: impl FnOnce(&mut RecursionGuard, u8) -> R) -> R {
        if self.state & Self::SELF_RECURSION_IN_THAT == 0 {
            let before = self.that_map.len();
            if self.that_put(id) {
                self.state |= Self::SELF_RECURSION_IN_THAT;
            }
            if before < self.that_map.len() {
                let state = self.state;
                let result = f(self, state);
                self.state &= !Self::SELF_RECURSION_IN_THAT;
                self.that_map.remove(&id);
                return result;
            }
        }
        let state = self.state;
        f(self, state)
    }

    /// `add_that`: marks `id` as visited on the other side (for good) and answers the state.
    pub(crate) fn add_that(&mut self, id: usize) -> u8 {
        if self.state & Self::SELF_RECURSION_IN_THAT == 0 && self.that_put(id) {
            self.state |= Self::SELF_RECURSION_IN_THAT;
        }
        self.state
    }

    fn this_put(&mut self, id: usize) -> bool {
        if self.this_map.contains(&id) {
            true
        } else {
            self.this_map.insert(id);
            false
        }
    }

    fn that_put(&mut self, id: usize) -> bool {
        if self.that_map.contains(&id) {
            true
        } else {
            self.that_map.insert(id);
            false
        }
    }
}

/// Runs `f` with the given guard, or with a fresh one (Ruby's `guard ||= RecursionGuard.new`,
/// which is local to the callee).
pub(crate) fn with_guard<R>(guard: Option<&mut RecursionGuard>, f: impl FnOnce(&mut RecursionGuard) -> R) -> R {
    match guard {
        Some(g) => f(g),
        None => f(&mut RecursionGuard::new()),
    }
}

/// The identity of an alias for the guard.
pub(crate) fn alias_id(a: &Rc<TypeAlias>) -> usize {
    Rc::as_ptr(a) as usize
}

/// Whether the alias refers to itself through what it stands for (Puppet computes this when
/// it resolves the alias: `self_recursion?`).
pub(crate) fn is_self_recursive(alias: &Rc<TypeAlias>) -> bool {
    let mut visited = HashSet::new();
    reaches(&alias.resolved_type(), alias_id(alias), &mut visited, 0)
}

/// Whether `t` contains the alias `target` (directly or through other aliases).
fn reaches(t: &Type, target: usize, visited: &mut HashSet<usize>, depth: usize) -> bool {
    if depth > 200 {
        return false;
    }
    if let Type::Alias(a) = t {
        let id = alias_id(a);
        if id == target {
            return true;
        }
        if !visited.insert(id) {
            return false;
        }
        return reaches(&a.resolved_type(), target, visited, depth + 1);
    }
    let mut found = false;
    for_each_child(t, &mut |c| {
        if !found && reaches(c, target, visited, depth + 1) {
            found = true;
        }
    });
    found
}

/// Calls `f` with every type directly contained in `t` (Puppet's `accept` of a visitor),
/// aliases excepted (their resolved type is theirs, not contained).
pub(crate) fn for_each_child(t: &Type, f: &mut dyn FnMut(&Type)) {
    match t {
        Type::Array { element, .. } => element.iter().for_each(|e| f(e)),
        Type::Hash { key, value, .. } => {
            key.iter().for_each(|k| f(k));
            value.iter().for_each(|v| f(v));
        }
        Type::Tuple { types, .. } | Type::Variant(types) => types.iter().for_each(f),
        Type::Struct(elements) => elements.iter().for_each(|e| {
            f(&e.key_type);
            f(&e.value_type);
        }),
        Type::Optional(t)
        | Type::NotUndef(t)
        | Type::Iterable(t)
        | Type::Iterator(t)
        | Type::Type(t)
        | Type::Sensitive(t)
        | Type::Init { ty: t, .. } => t.iter().for_each(|t| f(t)),
        Type::Callable(c) => {
            c.params.iter().for_each(|t| f(t));
            c.block.iter().for_each(|t| f(t));
            c.return_type.iter().for_each(|t| f(t));
        }
        Type::Object(o) => {
            o.parent.iter().for_each(&mut *f);
            o.attributes.iter().for_each(|m| f(&m.ty));
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------
// Depth limit
// ---------------------------------------------------------------------------------------

/// How deeply types and values may nest before the questions give up (answering "no")
/// rather than overflow a 2 MiB thread stack: values built at run time can nest deeper than
/// source (which the parser limits to 250 levels). Unoptimised frames are larger.
pub(crate) const MAX_NESTING: usize = if cfg!(debug_assertions) { 500 } else { 1200 };

thread_local! {
    static NESTING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One level of nesting, released when dropped.
pub(crate) struct Nesting(());

impl Nesting {
    /// Enters one more level, or `None` past [`MAX_NESTING`].
    pub(crate) fn enter() -> Option<Nesting> {
        NESTING.with(|n| {
            if n.get() >= MAX_NESTING {
                None
            } else {
                n.set(n.get() + 1);
                Some(Nesting(()))
            }
        })
    }
}

impl Drop for Nesting {
    fn drop(&mut self) {
        NESTING.with(|n| n.set(n.get().saturating_sub(1)));
    }
}

// ---------------------------------------------------------------------------------------
// The two dispatch stages
// ---------------------------------------------------------------------------------------

/// `t.assignable?(o, guard)`, dispatched on the receiver's overrides.
pub(crate) fn assignable(t: &Type, o: &Type, guard: Option<&mut RecursionGuard>) -> bool {
    let Some(_level) = Nesting::enter() else { return false };
    match t {
        Type::Unit => true,
        Type::Alias(a) => alias_assignable(a, t, o, guard),
        Type::Variant(types) => variant_assignable(types, t, o, guard),
        _ => any_assignable(t, o, guard),
    }
}

/// `PTypeAliasType#assignable?`: a self-recursive alias marks itself in the guard; when the
/// recursion is seen on both sides, the answer is yes.
fn alias_assignable(a: &Rc<TypeAlias>, t: &Type, o: &Type, guard: Option<&mut RecursionGuard>) -> bool {
    if is_self_recursive(a) {
        with_guard(guard, |g| {
            g.with_this(alias_id(a), |g, state| {
                if state == RecursionGuard::SELF_RECURSION_IN_BOTH {
                    return true;
                }
                let question = (alias_id(a), type_hash(o), state, g.this_map.len(), g.that_map.len());
                if !g.asking.insert(question) {
                    return false;
                }
                let answer = any_assignable(t, o, Some(&mut *g));
                g.asking.remove(&question);
                answer
            })
        })
    } else {
        any_assignable(t, o, guard)
    }
}

/// A hash of a type's structure, to recognise a question asked again.
fn type_hash(t: &Type) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

/// `PVariantType#assignable?`.
fn variant_assignable(types: &[Type], t: &Type, o: &Type, mut guard: Option<&mut RecursionGuard>) -> bool {
    match o {
        Type::Undef if types.is_empty() => false,
        Type::Variant(others) => {
            if types.is_empty() {
                return true;
            }
            !others.is_empty() && others.iter().all(|vt| any_assignable(t, vt, guard.as_deref_mut()))
        }
        _ => any_assignable(t, o, guard),
    }
}

/// `PAnyType#assignable?`: the other type's special cases, then the receiver's
/// `_assignable?`.
fn any_assignable(t: &Type, o: &Type, mut guard: Option<&mut RecursionGuard>) -> bool {
    match o {
        Type::Unit => true,
        Type::Alias(oa) => {
            if is_self_recursive(oa) {
                with_guard(guard, |g| {
                    g.add_that(alias_id(oa)) == RecursionGuard::SELF_RECURSION_IN_BOTH
                        || assignable(t, &oa.resolved_type(), Some(g))
                })
            } else {
                assignable(t, &oa.resolved_type(), guard)
            }
        }
        Type::Variant(others) => {
            if matches!(t, Type::Any) {
                return true;
            }
            if matches!(t, Type::NotUndef(_)) && others.is_empty() {
                return specific_assignable(t, o, guard);
            }
            !others.is_empty() && others.iter().all(|vt| assignable(t, vt, guard.as_deref_mut()))
        }
        Type::Optional(ot) => {
            assignable(t, &Type::Undef, None) && ot.as_deref().is_none_or(|ot| assignable(t, ot, None))
        }
        Type::NotUndef(Some(ot)) if !assignable(ot, &Type::Undef, None) => assignable(t, ot, guard),
        _ => specific_assignable(t, o, guard),
    }
}

/// Whether `t` accepts Ruby's `nil` given where a type is expected (an unparameterised
/// `Iterator`'s element type): only `Unit` does, or what contains it.
fn accepts_nil(t: &Type) -> bool {
    match t {
        Type::Unit => true,
        Type::Variant(types) => types.iter().any(accepts_nil),
        Type::Alias(_) => accepts_nil(&t.resolved()),
        _ => false,
    }
}

/// `t.assignable?(o)` where `o` may be Ruby's `nil`.
pub(crate) fn assignable_opt(t: &Type, o: Option<&Type>, guard: Option<&mut RecursionGuard>) -> bool {
    match o {
        Some(o) => assignable(t, o, guard),
        None => accepts_nil(t),
    }
}

// ---------------------------------------------------------------------------------------
// `_assignable?` of each type
// ---------------------------------------------------------------------------------------

/// The receiver's `_assignable?(o, guard)`.
fn specific_assignable(t: &Type, o: &Type, guard: Option<&mut RecursionGuard>) -> bool {
    match t {
        Type::Any | Type::Unit => true,
        Type::Undef => matches!(o, Type::Undef),
        Type::Default => matches!(o, Type::Default),
        Type::NotUndef(inner) => not_undef_assignable(inner.as_deref(), o, guard),
        Type::Optional(inner) => optional_assignable(inner.as_deref(), o, guard),
        Type::Scalar => is_scalar_class(o) || matches!(o, Type::SemVerRange),
        Type::ScalarData => is_scalar_data_class(o),
        Type::Numeric => matches!(o, Type::Numeric | Type::Integer { .. } | Type::Float { .. }),
        Type::Integer { from, to } => match o {
            Type::Integer { from: f2, to: t2 } => int_bounds_cover((from, to), (f2, t2)),
            _ => false,
        },
        Type::Float { from, to } => match o {
            Type::Float { from: f2, to: t2 } => from <= f2 && to >= t2,
            _ => false,
        },
        Type::String(param) => string_assignable(param.as_ref(), o),
        Type::Enum { values, case_insensitive } => enum_assignable(t, values, *case_insensitive, o),
        Type::Pattern(patterns) => pattern_assignable(t, patterns, o),
        Type::Regexp(r) => match o {
            Type::Regexp(r2) => r.as_ref().is_none_or(|r| r2.as_ref().is_some_and(|r2| r.source() == r2.source())),
            _ => false,
        },
        Type::Boolean(b) => match o {
            Type::Boolean(b2) => b.is_none() || b == b2,
            _ => false,
        },
        Type::SemVer(ranges) => match o {
            Type::SemVer(others) => {
                ranges.is_empty()
                    || (!others.is_empty()
                        && others
                            .iter()
                            .all(|o| ranges.iter().any(|r| crate::semver::covered_by(o, r).unwrap_or(false))))
            }
            _ => false,
        },
        Type::SemVerRange => matches!(o, Type::SemVerRange),
        Type::Timespan { from, to } => match o {
            Type::Timespan { from: f2, to: t2 } => time_range_covers((*from, *to), (*f2, *t2)),
            _ => false,
        },
        Type::Timestamp { from, to } => match o {
            Type::Timestamp { from: f2, to: t2 } => time_range_covers((*from, *to), (*f2, *t2)),
            _ => false,
        },
        Type::Binary => matches!(o, Type::Binary),
        Type::Uri(params) => match o {
            Type::Uri(p2) => uri_assignable(params.as_deref(), p2.as_deref()),
            _ => false,
        },
        Type::Collection(size) => collection_assignable(size.as_ref(), o),
        Type::Array { element, size } => array_assignable(&array_element(element, size), size.as_ref(), o, guard),
        Type::Hash { key, value, size } => hash_assignable(t, key, value, size.as_ref(), o, guard),
        Type::Tuple { types, size } => tuple_assignable(t, types, size.as_ref(), o, guard),
        Type::Struct(elements) => struct_assignable(elements, o, guard),
        Type::Variant(types) => {
            let mut guard = guard;
            types.iter().any(|option| assignable(option, o, guard.as_deref_mut()))
        }
        Type::Iterable(inner) => iterable_assignable(inner.as_deref(), o, guard),
        Type::Iterator(inner) => match o {
            Type::Iterator(oi) => inner.as_deref().is_none_or(|i| assignable_opt(i, oi.as_deref(), guard)),
            _ => false,
        },
        Type::CatalogEntry => matches!(o, Type::CatalogEntry | Type::Class(_) | Type::Resource { .. }),
        Type::Class(name) => match o {
            Type::Class(n2) => name.is_none() || name == n2,
            _ => false,
        },
        Type::Resource { type_name, title } => resource_assignable(type_name.as_deref(), title.as_deref(), o),
        Type::Type(inner) => match o {
            Type::Type(oi) => match (inner, oi) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(i), Some(oi)) => assignable(i, oi, guard),
            },
            _ => false,
        },
        Type::Callable(c) => match o {
            Type::Callable(oc) => callable_assignable(c, oc, guard),
            _ => false,
        },
        Type::Sensitive(inner) => match o {
            Type::Sensitive(oi) => {
                let any = Type::Any;
                assignable(inner.as_deref().unwrap_or(&any), oi.as_deref().unwrap_or(&any), guard)
            }
            _ => false,
        },
        Type::Deferred => matches!(o, Type::Deferred) || is_deferred_object(o),
        Type::Object(obj) => object_assignable(obj, o, guard),
        Type::ObjectExtension(e) => crate::object::extension_assignable(e, o),
        Type::Error(params) => error_assignable(params.as_deref(), o, guard),
        Type::TypeSet => matches!(o, Type::TypeSet),
        Type::Runtime { runtime, name } => match o {
            Type::Runtime { runtime: r2, name: n2 } => {
                (runtime.is_none() || runtime == r2) && (name.is_none() || name == n2)
            }
            _ => false,
        },
        Type::Init { ty, args } => crate::instance::init_assignable(ty.as_deref(), args, o, guard),
        Type::Reference(_) => type_eql(t, o),
        Type::Alias(a) => assignable(&a.resolved_type(), o, guard),
    }
}

/// The classes under `PScalarType` (what `o.is_a?(PScalarType)` accepts).
fn is_scalar_class(o: &Type) -> bool {
    is_scalar_data_class(o)
        || matches!(
            o,
            Type::Scalar | Type::Regexp(_) | Type::SemVer(_) | Type::Timespan { .. } | Type::Timestamp { .. }
        )
}

/// The classes under `PScalarDataType`.
fn is_scalar_data_class(o: &Type) -> bool {
    matches!(
        o,
        Type::ScalarData
            | Type::Enum { .. }
            | Type::Numeric
            | Type::Integer { .. }
            | Type::Float { .. }
            | Type::String(_)
            | Type::Pattern(_)
            | Type::Boolean(_)
    )
}

/// `PNotUndefType#_assignable?`: `o` must exclude `undef` and be accepted by the contained type.
fn not_undef_assignable(inner: Option<&Type>, o: &Type, mut guard: Option<&mut RecursionGuard>) -> bool {
    !assignable(o, &Type::Undef, guard.as_deref_mut()) && inner.is_none_or(|i| assignable(i, o, guard))
}

/// `POptionalType#_assignable?`.
fn optional_assignable(inner: Option<&Type>, o: &Type, guard: Option<&mut RecursionGuard>) -> bool {
    match (inner, o) {
        (_, Type::Undef) | (None, _) => true,
        (Some(i), Type::Optional(oi)) => assignable_opt(i, oi.as_deref(), guard),
        (Some(i), _) => assignable(i, o, guard),
    }
}

// --- numbers and sizes -----------------------------------------------------------------

/// `Integer[a, b].assignable?(Integer[c, d])` for bounds of any size: `a <= c && b >= d`.
fn int_bounds_cover(outer: (&IntBound, &IntBound), inner: (&IntBound, &IntBound)) -> bool {
    let from_ok = match (outer.0, inner.0) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(a), Some(c)) => a <= c,
    };
    let to_ok = match (outer.1, inner.1) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(b), Some(d)) => b >= d,
    };
    from_ok && to_ok
}

/// The same for Timespan and Timestamp ranges (nanoseconds).
fn time_range_covers(outer: (Option<i128>, Option<i128>), inner: (Option<i128>, Option<i128>)) -> bool {
    let lo = |b: Option<i128>| b.unwrap_or(i128::MIN);
    let hi = |b: Option<i128>| b.unwrap_or(i128::MAX);
    lo(outer.0) <= lo(inner.0) && hi(outer.1) >= hi(inner.1)
}

// --- strings ---------------------------------------------------------------------------

/// The number of characters of a string (Ruby's `String#size`).
fn char_len(s: &str) -> i64 {
    len_i64(s.chars().count())
}

/// `PStringType#derived_size_type`.
fn derived_string_size(p: Option<&StringParam>) -> Size {
    match p {
        Some(StringParam::Size(s)) => s.clone(),
        Some(StringParam::Value(v)) => Size::exact(char_len(v)),
        None => Size::ANY,
    }
}

/// `PStringType#_assignable?`.
fn string_assignable(param: Option<&StringParam>, o: &Type) -> bool {
    match param {
        Some(StringParam::Size(size)) => match o {
            Type::String(op) => size.covers(&derived_string_size(op.as_ref())),
            Type::Enum { values, .. } if values.is_empty() => size.covers(&Size::ANY),
            Type::Enum { values, .. } => {
                let lens = values.iter().map(|v| char_len(v));
                let (min, max) = (lens.clone().min().unwrap_or(0), lens.max().unwrap_or(0));
                size.covers(&Size::new(min, Some(max)))
            }
            Type::Pattern(_) => size.covers(&Size::ANY),
            _ => false,
        },
        // Unparameterised, or the type of one string value.
        _ => match o {
            Type::String(op) => param.is_none() || param == op.as_ref(),
            // Puppet answers the enum's one value here without comparing it to the string's.
            Type::Enum { values, case_insensitive } => param.is_none() || (values.len() == 1 && !case_insensitive),
            Type::Pattern(_) => param.is_none(),
            _ => false,
        },
    }
}

/// The string value of a `String` type that holds one (`PStringType#value`).
fn string_value(p: Option<&StringParam>) -> Option<&str> {
    match p {
        Some(StringParam::Value(v)) => Some(v),
        _ => None,
    }
}

/// `PEnumType#instance?` for a string.
pub(crate) fn enum_includes(values: &[Rc<str>], case_insensitive: bool, s: &str) -> bool {
    if case_insensitive {
        values.iter().any(|v| crate::compare::casecmp(v, s) == std::cmp::Ordering::Equal)
    } else {
        values.iter().any(|v| &**v == s)
    }
}

/// `PEnumType#_assignable?`.
fn enum_assignable(t: &Type, values: &[Rc<str>], ci: bool, o: &Type) -> bool {
    if type_eql(t, o) {
        return true;
    }
    if values.is_empty() && matches!(o, Type::String(_) | Type::Enum { .. } | Type::Pattern(_)) {
        return true;
    }
    match o {
        Type::String(p) => string_value(p.as_ref()).is_some_and(|v| enum_includes(values, ci, v)),
        Type::Enum { values: ov, case_insensitive: oci } => {
            !ov.is_empty() && (ci || !oci) && ov.iter().all(|s| enum_includes(values, ci, s))
        }
        _ => false,
    }
}

/// `PPatternType#_assignable?`.
fn pattern_assignable(t: &Type, patterns: &[Rc<crate::regexp::Regexp>], o: &Type) -> bool {
    if type_eql(t, o) {
        return true;
    }
    let matches_any = |s: &str| patterns.is_empty() || patterns.iter().any(|p| p.is_match(s));
    match o {
        Type::String(p) => match string_value(p.as_ref()) {
            None => patterns.is_empty(),
            Some(v) => matches_any(v),
        },
        Type::Enum { values, .. } => {
            if values.is_empty() {
                patterns.is_empty()
            } else {
                patterns.is_empty() || values.iter().all(|v| matches_any(v))
            }
        }
        Type::Pattern(_) => patterns.is_empty(),
        _ => false,
    }
}

// --- collections -----------------------------------------------------------------------

/// An Array's element type as Puppet keeps it: `Unit` when the size is exactly 0, `Any`
/// when unparameterised.
pub(crate) fn array_element(element: &Option<Rc<Type>>, size: &Option<Size>) -> Type {
    if *size == Some(Size::exact(0)) {
        Type::Unit
    } else {
        element.as_deref().cloned().unwrap_or(Type::Any)
    }
}

/// A Hash's key and value types as Puppet keeps them (see [`array_element`]).
pub(crate) fn hash_key_value(key: &Option<Rc<Type>>, value: &Option<Rc<Type>>, size: &Option<Size>) -> (Type, Type) {
    if *size == Some(Size::exact(0)) {
        (Type::Unit, Type::Unit)
    } else {
        (key.as_deref().cloned().unwrap_or(Type::Any), value.as_deref().cloned().unwrap_or(Type::Any))
    }
}

/// `PHashType#is_the_empty_hash?`: `Hash[Unit, Unit, 0, 0]`.
fn is_empty_hash(key: &Option<Rc<Type>>, value: &Option<Rc<Type>>, size: &Option<Size>) -> bool {
    let (k, v) = hash_key_value(key, value, size);
    *size == Some(Size::exact(0)) && k == Type::Unit && v == Type::Unit
}

/// `PCollectionType#_assignable?`.
fn collection_assignable(size: Option<&Size>, o: &Type) -> bool {
    let s = Size::or_any(size);
    match o {
        Type::Collection(os) | Type::Array { size: os, .. } | Type::Hash { size: os, .. } => {
            s.covers(&Size::or_any(os.as_ref()))
        }
        Type::Tuple { types, size: os } => s.covers(&Size::or_exact(os.as_ref(), types.len())),
        Type::Struct(elements) => s.covers(&Size::exact(len_i64(elements.len()))),
        _ => false,
    }
}

/// `PArrayType#_assignable?`.
fn array_assignable(element: &Type, size: Option<&Size>, o: &Type, mut guard: Option<&mut RecursionGuard>) -> bool {
    match o {
        Type::Tuple { types, size: os } => {
            Size::or_any(size).covers(&Size::or_exact(os.as_ref(), types.len()))
                && types.iter().all(|ot| assignable(element, ot, guard.as_deref_mut()))
        }
        Type::Array { element: oe, size: os } => {
            Size::or_any(size).covers(&Size::or_any(os.as_ref())) && assignable(element, &array_element(oe, os), guard)
        }
        _ => false,
    }
}

/// `PHashType#_assignable?`.
fn hash_assignable(
    t: &Type,
    key: &Option<Rc<Type>>,
    value: &Option<Rc<Type>>,
    size: Option<&Size>,
    o: &Type,
    mut guard: Option<&mut RecursionGuard>,
) -> bool {
    let (k, v) = match t {
        Type::Hash { size: s, .. } => hash_key_value(key, value, s),
        _ => return false,
    };
    match o {
        Type::Hash { key: ok, value: ov, size: os } => {
            if size.is_none_or(|s| s.from == 0) && is_empty_hash(ok, ov, os) {
                return true;
            }
            let (ok, ov) = hash_key_value(ok, ov, os);
            assignable(&k, &ok, guard.as_deref_mut())
                && assignable(&v, &ov, guard)
                && Size::or_any(size).covers(&Size::or_any(os.as_ref()))
        }
        Type::Struct(elements) => {
            Size::or_any(size).contains(len_i64(elements.len()))
                && elements.iter().all(|e| {
                    let name = struct_element_name(e).map(Value::string).unwrap_or(Value::Undef);
                    crate::instance::instance_of(&k, &name, guard.as_deref_mut())
                        && assignable(&v, &e.value_type, guard.as_deref_mut())
                })
        }
        _ => false,
    }
}

/// `PStructElement#name`: the key's string.
pub(crate) fn struct_element_name(e: &StructElement) -> Option<&str> {
    struct_key_name(&e.key_type)
}

fn struct_key_name(t: &Type) -> Option<&str> {
    match t {
        Type::String(Some(StringParam::Value(s))) => Some(s),
        Type::Enum { values, .. } if values.len() == 1 => values.first().map(|s| &**s),
        Type::Optional(Some(t)) | Type::NotUndef(Some(t)) => struct_key_name(t),
        _ => None,
    }
}

/// Whether a struct member may be missing: its key type accepts `undef` (`Optional[k]`).
pub(crate) fn struct_key_optional(e: &StructElement, guard: Option<&mut RecursionGuard>) -> bool {
    assignable(&e.key_type, &Type::Undef, guard)
}

/// `PStructType#_assignable?`.
fn struct_assignable(elements: &[StructElement], o: &Type, mut guard: Option<&mut RecursionGuard>) -> bool {
    match o {
        Type::Struct(others) => {
            let mut matched = 0usize;
            let all = elements.iter().all(|e1| {
                let name = struct_element_name(e1);
                match others.iter().find(|e2| struct_element_name(e2) == name) {
                    None => struct_key_optional(e1, guard.as_deref_mut()),
                    Some(e2) => {
                        matched += 1;
                        assignable(&e1.key_type, &e2.key_type, guard.as_deref_mut())
                            && assignable(&e1.value_type, &e2.value_type, guard.as_deref_mut())
                    }
                }
            });
            all && matched == distinct_names(others)
        }
        Type::Hash { key, value, size } => {
            let (ok, ov) = hash_key_value(key, value, size);
            let mut required = 0i64;
            let all = elements.iter().all(|e| {
                if assignable(&e.key_type, &Type::Undef, None) {
                    true
                } else {
                    required += 1;
                    assignable(&e.value_type, &ov, guard.as_deref_mut())
                        && assignable(&generalize_key(&e.key_type), &ok, None)
                }
            });
            all && Size::new(required, Some(len_i64(elements.len()))).covers(&Size::or_any(size.as_ref()))
        }
        _ => false,
    }
}

/// The number of distinct member names (`hashed_elements.size`).
fn distinct_names(elements: &[StructElement]) -> usize {
    let names: HashSet<Option<&str>> = elements.iter().map(struct_element_name).collect();
    names.len()
}

/// `key_type.generalize` for a struct key: a String without its value, an Enum as the
/// String of its values' lengths.
fn generalize_key(t: &Type) -> Type {
    match t {
        Type::String(_) => Type::STRING,
        Type::Enum { values, .. } if values.is_empty() => Type::STRING,
        Type::Enum { values, .. } => {
            let lens = values.iter().map(|v| char_len(v));
            let (min, max) = (lens.clone().min().unwrap_or(0), lens.max().unwrap_or(0));
            Type::String(Some(StringParam::Size(Size::new(min, Some(max)))))
        }
        Type::NotUndef(Some(t)) => generalize_key(t),
        other => other.clone(),
    }
}

/// `PTupleType#_assignable?`.
fn tuple_assignable(
    t: &Type,
    types: &[Type],
    size: Option<&Size>,
    o: &Type,
    mut guard: Option<&mut RecursionGuard>,
) -> bool {
    if type_eql(t, o) {
        return true;
    }
    let size_s = Size::of_tuple(size, types.len());
    let entry = |i: usize| types.get(i).or(types.last());
    match o {
        Type::Tuple { types: ot, size: os } => {
            if !size_s.covers(&Size::of_tuple(os.as_ref(), ot.len())) {
                return false;
            }
            if !types.is_empty() {
                if ot.is_empty() {
                    return size_s.from == 0;
                }
                for (i, o_t) in ot.iter().enumerate() {
                    if !entry(i).is_some_and(|s| assignable(s, o_t, guard.as_deref_mut())) {
                        return false;
                    }
                }
            }
            true
        }
        Type::Array { element, size: os } => {
            let size_o = Size::or_any(os.as_ref());
            if !size_s.covers(&size_o) {
                return false;
            }
            if !types.is_empty() {
                let o_entry = array_element(element, os);
                let count = size_o.max().map_or(types.len(), |m| usize::try_from(m).unwrap_or(0).min(types.len()));
                for i in 0..count {
                    if !entry(i).is_some_and(|s| assignable(s, &o_entry, guard.as_deref_mut())) {
                        return false;
                    }
                }
            }
            true
        }
        _ => false,
    }
}

// --- other kinds -------------------------------------------------------------------------

/// `PResourceType#_assignable?`: type names compare case-insensitively, titles exactly.
fn resource_assignable(type_name: Option<&str>, title: Option<&str>, o: &Type) -> bool {
    match o {
        Type::Resource { type_name: n2, title: t2 } => match type_name {
            None => true,
            Some(n) => {
                n2.as_deref().is_some_and(|n2| n.to_lowercase() == n2.to_lowercase())
                    && (title.is_none() || title == t2.as_deref())
            }
        },
        _ => false,
    }
}

/// `PCallableType#_assignable?`: the return type is covariant, the parameters
/// contravariant, and the other's block must accept this one's.
fn callable_assignable(c: &CallableType, o: &CallableType, mut guard: Option<&mut RecursionGuard>) -> bool {
    if let Some(rt) = &c.return_type {
        if !assignable(rt, o.return_type.as_deref().unwrap_or(&Type::Any), guard.as_deref_mut()) {
            return false;
        }
    }
    let Some(params) = &c.params else { return true };
    let Some(other_params) = &o.params else { return false };
    if !assignable(other_params, params, guard.as_deref_mut()) {
        return false;
    }
    let this_block_default = Type::Undef;
    let this_block = c.block.as_deref().unwrap_or(&this_block_default);
    let that_block_default = Type::Undef;
    let that_block = o.block.as_deref().unwrap_or(&that_block_default);
    assignable(that_block, this_block, guard)
}

/// `PURIType#_assignable?`: every part `t` constrains is given by `o` and matches (or, both
/// being types, is accepted).
fn uri_assignable(params: Option<&Value>, other: Option<&Value>) -> bool {
    let Some(mine) = crate::instance::uri_type_parameters(params) else { return true };
    let theirs = crate::instance::uri_type_parameters(other).unwrap_or_default();
    mine.iter().all(|(name, b)| match theirs.get(name) {
        None => false,
        Some(a) => {
            crate::compare::match_value(a, b)
                || matches!((a, b), (Value::Type(a), Value::Type(b)) if is_assignable(b, a))
        }
    })
}

/// Whether `o` is the Object type named `Deferred` (how `Deferred` may also be modelled).
fn is_deferred_object(o: &Type) -> bool {
    matches!(o, Type::Object(obj) if obj.name.as_deref() == Some("Deferred") && obj.parent.is_none())
}

/// Whether an Object type is the unparameterised `Object`.
fn is_default_object(o: &ObjectType) -> bool {
    *o == ObjectType::default()
}

/// `PObjectType#_assignable?`: the same type, or one of the other's parents. `Deferred`
/// is the Object type of that name.
fn object_assignable(obj: &ObjectType, o: &Type, guard: Option<&mut RecursionGuard>) -> bool {
    match o {
        Type::Object(other) => {
            if is_default_object(obj) || obj == &**other {
                true
            } else {
                match &other.parent {
                    Some(p) => assignable(&Type::Object(Rc::new(obj.clone())), p, guard),
                    None => false,
                }
            }
        }
        Type::ObjectExtension(e) => object_assignable(obj, &Type::Object(e.base.clone()), guard),
        Type::Deferred => is_default_object(obj) || obj.name.as_deref() == Some("Deferred"),
        Type::Error(_) => is_default_object(obj),
        _ => false,
    }
}

/// `PObjectTypeExtension#_assignable?` for `Error[...]`: an Error type whose parameters
/// satisfy each of ours (they match as `=~` does, or are types ours accept).
fn error_assignable(params: Option<&ErrorParams>, o: &Type, mut guard: Option<&mut RecursionGuard>) -> bool {
    let Type::Error(other) = o else { return false };
    let Some(params) = params else { return true };
    let theirs = other.as_deref().map(ErrorParams::by_name);
    params.by_name().into_iter().enumerate().all(|(index, (_, mine))| {
        let Some(b) = mine else { return true };
        match theirs.as_ref().and_then(|t| t[index].1) {
            Some(a) => {
                crate::compare::match_value(a, b)
                    || matches!((a, b), (Value::Type(a), Value::Type(b)) if assignable(b, a, guard.as_deref_mut()))
            }
            None => false,
        }
    })
}

/// `PIterableType#_assignable?`.
fn iterable_assignable(inner: Option<&Type>, o: &Type, mut guard: Option<&mut RecursionGuard>) -> bool {
    match inner {
        Some(i) if !assignable(i, &Type::Any, guard.as_deref_mut()) => match iterable_type(o) {
            Some(Some(element)) => assignable(i, &element, guard),
            _ => false,
        },
        _ => is_iterable(o),
    }
}

// ---------------------------------------------------------------------------------------
// Iterability of types
// ---------------------------------------------------------------------------------------

/// `iterable?`: whether the values of `t` can be iterated.
pub(crate) fn is_iterable(t: &Type) -> bool {
    is_iterable_depth(t, 0)
}

fn is_iterable_depth(t: &Type, depth: usize) -> bool {
    match t {
        Type::Integer { .. }
        | Type::Enum { .. }
        | Type::String(_)
        | Type::Collection(_)
        | Type::Array { .. }
        | Type::Hash { .. }
        | Type::Tuple { .. }
        | Type::Struct(_)
        | Type::Iterable(_)
        | Type::Iterator(_) => true,
        Type::Type(Some(inner)) => match &**inner {
            Type::Enum { .. } => true,
            Type::Integer { from, to } => from.is_some() && to.is_some(),
            _ => false,
        },
        Type::Alias(a) if depth < 64 => is_iterable_depth(&a.resolved_type(), depth + 1),
        _ => false,
    }
}

/// The `Iterable` type `t`'s values are assignable to, as its element type:
/// `None` when not iterable, `Some(None)` for an unparameterised `Iterable`.
pub(crate) fn iterable_type(t: &Type) -> Option<Option<Type>> {
    iterable_type_depth(t, 0)
}

fn key_pair_tuple(k: Type, v: Type) -> Type {
    Type::Tuple { types: vec![k, v].into(), size: Some(Size::exact(2)) }
}

fn iterable_type_depth(t: &Type, depth: usize) -> Option<Option<Type>> {
    let one_char = || Type::String(Some(StringParam::Size(Size::exact(1))));
    match t {
        Type::Integer { .. } => Some(Some(Type::INTEGER)),
        Type::Enum { .. } | Type::String(_) => Some(Some(one_char())),
        Type::Array { element, size } => {
            let e = array_element(element, size);
            Some(if e == Type::Any { None } else { Some(e) })
        }
        Type::Hash { key, value, size } => {
            let (k, v) = hash_key_value(key, value, size);
            let default = k == Type::Any && v == Type::Any && size.is_none();
            if default || is_empty_hash(key, value, size) {
                Some(Some(key_pair_tuple(Type::Unit, Type::Unit)))
            } else {
                Some(Some(key_pair_tuple(k, v)))
            }
        }
        Type::Tuple { types, .. } => Some(Some(maybe_create_variant(types.to_vec()))),
        Type::Struct(elements) if elements.is_empty() => Some(Some(key_pair_tuple(Type::Unit, Type::Unit))),
        Type::Struct(elements) => {
            let keys = maybe_create_variant(elements.iter().map(|e| e.key_type.clone()).collect());
            let values = maybe_create_variant(elements.iter().map(|e| e.value_type.clone()).collect());
            Some(Some(key_pair_tuple(keys, values)))
        }
        Type::Iterable(inner) | Type::Iterator(inner) => Some(inner.as_deref().cloned()),
        Type::Type(Some(inner)) => match &**inner {
            Type::Enum { .. } => Some(Some((**inner).clone())),
            Type::Integer { from: Some(_), to: Some(_) } => Some(Some((**inner).clone())),
            _ => None,
        },
        Type::Alias(a) if depth < 64 => iterable_type_depth(&a.resolved_type(), depth + 1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(a: i64, b: i64) -> Type {
        Type::integer(Some(a), Some(b))
    }

    fn alias(name: &str, f: impl FnOnce(Type) -> Type) -> Type {
        let a = TypeAlias::new(name);
        let t = Type::Alias(a.clone());
        a.resolve_to(f(t.clone()));
        t
    }

    #[test]
    fn ranges() {
        assert!(is_assignable(&int(1, 10), &int(2, 3)));
        assert!(!is_assignable(&int(2, 3), &int(1, 10)));
        assert!(is_assignable(&Type::INTEGER, &int(2, 3)));
        assert!(is_assignable(&Type::Numeric, &Type::FLOAT));
        assert!(!is_assignable(&Type::FLOAT, &Type::INTEGER));
    }

    #[test]
    fn variants_and_optionals() {
        let v = Type::variant(vec![Type::INTEGER, Type::Undef]);
        let o = Type::optional(Type::INTEGER);
        assert!(is_assignable(&v, &o));
        assert!(is_assignable(&o, &v));
        assert!(!is_assignable(&Type::INTEGER, &o));
        assert!(is_assignable(&Type::Variant(Rc::from(vec![])), &v));
        assert!(!is_assignable(&Type::Variant(Rc::from(vec![])), &Type::Undef));
        assert!(is_assignable(&Type::NotUndef(None), &Type::INTEGER));
        assert!(!is_assignable(&Type::NotUndef(None), &o));
    }

    #[test]
    fn recursive_aliases_terminate() {
        // type Tree = Array[Variant[Integer, Tree]]
        let tree = alias("Tree", |t| Type::array_of(Type::variant(vec![Type::INTEGER, t])));
        let tree2 = alias("Tree2", |t| Type::array_of(Type::variant(vec![Type::INTEGER, t])));
        assert!(is_assignable(&tree, &tree));
        assert!(is_assignable(&tree, &tree2));
        assert!(is_assignable(&tree, &Type::array_of(Type::INTEGER)));
        assert!(!is_assignable(&tree, &Type::array_of(Type::STRING)));
        assert!(is_assignable(&Type::array_of(Type::Any), &tree));
        // type A = Variant[Integer, Array[A]], type B = Variant[Integer, Array[B]]
        let a = alias("A", |t| Type::variant(vec![Type::INTEGER, Type::array_of(t)]));
        let b = alias("B", |t| Type::variant(vec![Type::INTEGER, Type::array_of(t)]));
        assert!(is_assignable(&a, &b));
        assert!(is_iterable(&tree));
    }

    #[test]
    fn too_deep_is_no() {
        let mut t = Type::INTEGER;
        for _ in 0..3000 {
            t = Type::array_of(t);
        }
        assert!(!is_assignable(&t, &t.clone()));
    }

    #[test]
    fn aliases_of_only_themselves_end() {
        // type Selfish = Variant[Selfish, Selfish] (Puppet refuses it; it must still end)
        let selfish = alias("Selfish", |t| Type::variant(vec![t.clone(), t]));
        assert!(!is_assignable(&selfish, &Type::INTEGER));
        assert!(is_assignable(&Type::Any, &selfish));
        let _ = is_assignable(&selfish, &selfish);
        let _ = crate::instance::is_instance(&selfish, &Value::Integer(1));
    }

    #[test]
    fn deep_nesting() {
        let mut t = Type::INTEGER;
        let mut u = int(1, 2);
        for _ in 0..240 {
            t = Type::array_of(t);
            u = Type::array_of(u);
        }
        assert!(is_assignable(&t, &u));
        assert!(!is_assignable(&u, &t));
    }

    /// The types of [`PUPPET_ASSIGNABLE`] and [`PUPPET_EQUALS`].
    const MATRIX_TYPES: [&str; 81] = [
        r"Any",
        r"Undef",
        r"Default",
        r"Scalar",
        r"ScalarData",
        r"Numeric",
        r"Integer",
        r"Integer[1, 10]",
        r"Integer[2, 3]",
        r"Integer[0]",
        r"Float",
        r"Float[1.0, 2.0]",
        r"String",
        r"String[1]",
        r"String[2, 3]",
        r"Enum['a', 'b']",
        r"Enum['ab']",
        r"Enum['A', true]",
        r"Pattern[/a/]",
        r"Pattern",
        r"Regexp",
        r"Regexp[/a/]",
        r"Boolean",
        r"Boolean[true]",
        r"SemVer",
        r"SemVer['1.x']",
        r"SemVerRange",
        r"Timespan",
        r"Timespan[1, 2]",
        r"Timestamp",
        r"Binary",
        r"URI",
        r"Collection",
        r"Collection[1]",
        r"Array",
        r"Array[Integer]",
        r"Array[Numeric, 1]",
        r"Array[String, 0, 0]",
        r"Hash",
        r"Hash[String, Integer]",
        r"Hash[String, Data]",
        r"Hash[0, 0]",
        r"Tuple[Integer, String]",
        r"Tuple[Integer]",
        r"Tuple[Integer, 1, 3]",
        r"Struct[{a => Integer}]",
        r"Struct[{a => Integer, Optional[b] => String}]",
        r"Variant[Integer, String]",
        r"Variant[Integer, Float]",
        r"Optional[Integer]",
        r"Optional[String]",
        r"NotUndef",
        r"NotUndef[Integer]",
        r"Iterable",
        r"Iterable[Integer]",
        r"Iterator",
        r"Iterator[Integer]",
        r"CatalogEntry",
        r"Resource",
        r"File",
        r"File['a']",
        r"Class",
        r"Class['a']",
        r"Type",
        r"Type[Integer]",
        r"Type[Numeric]",
        r"Callable",
        r"Callable[Integer]",
        r"Callable[Numeric]",
        r"Callable[[Integer], String]",
        r"Sensitive",
        r"Sensitive[Integer]",
        r"Deferred",
        r"Object",
        r"Runtime",
        r"Runtime['ruby', 'Foo']",
        r"Init",
        r"Init[Integer]",
        r"Data",
        r"RichData",
        r"TypeSet",
    ];

    /// Puppet 7.23's `A.assignable?(B)` for A, B in [`MATRIX_TYPES`]: row A, column B;
    /// `1` yes, `0` no, `-` Puppet fails.
    const PUPPET_ASSIGNABLE: [&str; 81] = [
        "111111111111111111111111111111111111111111111111111111111111111111111111111111111",
        "010000000000000000000000000000000000000000000000000000000000000000000000000000000",
        "001000000000000000000000000000000000000000000000000000000000000000000000000000000",
        "000111111111111111111111111111000000000000000001100010000000000000000000000000000",
        "000011111111111111110011000000000000000000000001100010000000000000000000000000000",
        "000001111111000000000000000000000000000000000000100010000000000000000000000000000",
        "000000111100000000000000000000000000000000000000000010000000000000000000000000000",
        "000000011000000000000000000000000000000000000000000000000000000000000000000000000",
        "000000001000000000000000000000000000000000000000000000000000000000000000000000000",
        "000000011100000000000000000000000000000000000000000000000000000000000000000000000",
        "000000000011000000000000000000000000000000000000000000000000000000000000000000000",
        "000000000001000000000000000000000000000000000000000000000000000000000000000000000",
        "000000000000111111110000000000000000000000000000000000000000000000000000000000000",
        "000000000000011111000000000000000000000000000000000000000000000000000000000000000",
        "000000000000001010000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000100000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000010000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000001000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000010100000000000000000000000000000000000000000000000000000000000000",
        "000000000000111111110000000000000000000000000000000000000000000000000000000000000",
        "000000000000000000001100000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000100000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000011000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000001000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000110000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000010000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000001000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000000110000000000000000000000000000000000000000000000000000",
        "000000000000000000000000000010000000000000000000000000000000000000000000000000000",
        "000000000000000000000000000001000000000000000000000000000000000000000000000000000",
        "000000000000000000000000000000100000000000000000000000000000000000000000000000000",
        "000000000000000000000000000000010000000000000000000000000000000000000000000000000",
        "000000000000000000000000000000001111111111111110000000000000000000000000000000000",
        "000000000000000000000000000000000100100000111110000000000000000000000000000000000",
        "000000000000000000000000000000000011110000111000000000000000000000000000000000000",
        "000000000000000000000000000000000001010000011000000000000000000000000000000000000",
        "000000000000000000000000000000000000100000011000000000000000000000000000000000000",
        "000000000000000000000000000000000000010000000000000000000000000000000000000000000",
        "000000000000000000000000000000000000001111000110000000000000000000000000000000000",
        "000000000000000000000000000000000000000101000100000000000000000000000000000000000",
        "000000000000000000000000000000000000000111000110000000000000000000000000000000000",
        "000000000000000000000000000000000000000001000000000000000000000000000000000000000",
        "000000000000000000000000000000000000000000100000000000000000000000000000000000000",
        "000000000000000000000000000000000000000000010000000000000000000000000000000000000",
        "000000000000000000000000000000000000000000011000000000000000000000000000000000000",
        "000000000000000000000000000000000000000000000100000000000000000000000000000000000",
        "000000000000000000000000000000000000000000000110000000000000000000000000000000000",
        "000000111100111111110000000000000000000000000001000010000000000000000000000000000",
        "000000111111000000000000000000000000000000000000100010000000000000000000000000000",
        "010000111100000000000000000000000000000000000000010010000000000000000000000000000",
        "010000000000111111110000000000000000000000000000001000000000000000000000000000000",
        "001111111111111111111111111111111111111111111111100111111111111111111111111101001",
        "000000111100000000000000000000000000000000000000000010000000000000000000000000000",
        "000000111100111111000000000000001111111111111111000011111000000000000000000000000",
        "000000111100000000000000000000000001010000011000000010101000000000000000--0000000",
        "000000000000000000000000000000000000000000000000000000011000000000000000000000000",
        "000000000000000000000000000000000000000000000000000000001000000000000000000000000",
        "000000000000000000000000000000000000000000000000000000000111111000000000000000000",
        "000000000000000000000000000000000000000000000000000000000011100000000000000000000",
        "000000000000000000000000000000000000000000000000000000000001100000000000000000000",
        "000000000000000000000000000000000000000000000000000000000000100000000000000000000",
        "000000000000000000000000000000000000000000000000000000000000011000000000000000000",
        "000000000000000000000000000000000000000000000000000000000000001000000000000000000",
        "000000000000000000000000000000000000000000000000000000000000000111000000000000000",
        "000000000000000000000000000000000000000000000000000000000000000010000000000000000",
        "000000000000000000000000000000000000000000000000000000000000000011000000000000000",
        "000000000000000000000000000000000000000000000000000000000000000000111100000000000",
        "000000000000000000000000000000000000000000000000000000000000000000011100000000000",
        "000000000000000000000000000000000000000000000000000000000000000000001000000000000",
        "000000000000000000000000000000000000000000000000000000000000000000000100000000000",
        "000000000000000000000000000000000000000000000000000000000000000000000011000000000",
        "000000000000000000000000000000000000000000000000000000000000000000000001000000000",
        "000000000000000000000000000000000000000000000000000000000000000000000000100000000",
        "000000000000000000000000000000000000000000000000000000000000000000000000110000000",
        "000000000000000000000000000000000000000000000000000000000000000000000000001100000",
        "000000000000000000000000000000000000000000000000000000000000000000000000000100000",
        "011111111111111111111111111111110001110111111111111010000000000111000011110011111",
        "000001111111000000000011000111000000000000011000100010000000000000000000000001000",
        "010011111111111111110011000000000001110111111111111010000000000000000000000000100",
        "011111111111111111111111111111110001110111111111111010000000000111000011110000111",
        "000000000000000000000000000000000000000000000000000000000000000000000000000000001",
    ];

    /// Puppet 7.23's `TypeCalculator#equals(A, B)`, laid out as [`PUPPET_ASSIGNABLE`].
    const PUPPET_EQUALS: [&str; 81] = [
        "100000000000000000000000000000000000000000000000000000000000000000000000000000000",
        "010000000000000000000000000000000000000000000000000000000000000000000000000000000",
        "001000000000000000000000000000000000000000000000000000000000000000000000000000000",
        "000100000000000000000000000000000000000000000000000000000000000000000000000000000",
        "000010000000000000000000000000000000000000000000000000000000000000000000000000000",
        "000001000000000000000000000000000000000000000000000000000000000000000000000000000",
        "000000100000000000000000000000000000000000000000000010000000000000000000000000000",
        "000000010000000000000000000000000000000000000000000000000000000000000000000000000",
        "000000001000000000000000000000000000000000000000000000000000000000000000000000000",
        "000000000100000000000000000000000000000000000000000000000000000000000000000000000",
        "000000000010000000000000000000000000000000000000000000000000000000000000000000000",
        "000000000001000000000000000000000000000000000000000000000000000000000000000000000",
        "000000000000100000010000000000000000000000000000000000000000000000000000000000000",
        "000000000000010000000000000000000000000000000000000000000000000000000000000000000",
        "000000000000001000000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000100000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000010000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000001000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000000100000000000000000000000000000000000000000000000000000000000000",
        "000000000000100000010000000000000000000000000000000000000000000000000000000000000",
        "000000000000000000001000000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000100000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000010000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000001000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000100000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000010000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000001000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000000100000000000000000000000000000000000000000000000000000",
        "000000000000000000000000000010000000000000000000000000000000000000000000000000000",
        "000000000000000000000000000001000000000000000000000000000000000000000000000000000",
        "000000000000000000000000000000100000000000000000000000000000000000000000000000000",
        "000000000000000000000000000000010000000000000000000000000000000000000000000000000",
        "000000000000000000000000000000001000000000000000000000000000000000000000000000000",
        "000000000000000000000000000000000100000000000000000000000000000000000000000000000",
        "000000000000000000000000000000000010000000000000000000000000000000000000000000000",
        "000000000000000000000000000000000001000000000000000000000000000000000000000000000",
        "000000000000000000000000000000000000100000000000000000000000000000000000000000000",
        "000000000000000000000000000000000000010000000000000000000000000000000000000000000",
        "000000000000000000000000000000000000001000000000000000000000000000000000000000000",
        "000000000000000000000000000000000000000100000000000000000000000000000000000000000",
        "000000000000000000000000000000000000000010000000000000000000000000000000000000000",
        "000000000000000000000000000000000000000001000000000000000000000000000000000000000",
        "000000000000000000000000000000000000000000100000000000000000000000000000000000000",
        "000000000000000000000000000000000000000000010000000000000000000000000000000000000",
        "000000000000000000000000000000000000000000001000000000000000000000000000000000000",
        "000000000000000000000000000000000000000000000100000000000000000000000000000000000",
        "000000000000000000000000000000000000000000000010000000000000000000000000000000000",
        "000000000000000000000000000000000000000000000001000000000000000000000000000000000",
        "000000000000000000000000000000000000000000000000100000000000000000000000000000000",
        "000000000000000000000000000000000000000000000000010000000000000000000000000000000",
        "000000000000000000000000000000000000000000000000001000000000000000000000000000000",
        "000000000000000000000000000000000000000000000000000100000000000000000000000000000",
        "000000100000000000000000000000000000000000000000000010000000000000000000000000000",
        "000000000000000000000000000000000000000000000000000001000000000000000000000000000",
        "000000000000000000000000000000000000000000000000000000100000000000000000000000000",
        "000000000000000000000000000000000000000000000000000000010000000000000000000000000",
        "000000000000000000000000000000000000000000000000000000001000000000000000000000000",
        "000000000000000000000000000000000000000000000000000000000100000000000000000000000",
        "000000000000000000000000000000000000000000000000000000000010000000000000000000000",
        "000000000000000000000000000000000000000000000000000000000001000000000000000000000",
        "000000000000000000000000000000000000000000000000000000000000100000000000000000000",
        "000000000000000000000000000000000000000000000000000000000000010000000000000000000",
        "000000000000000000000000000000000000000000000000000000000000001000000000000000000",
        "000000000000000000000000000000000000000000000000000000000000000100000000000000000",
        "000000000000000000000000000000000000000000000000000000000000000010000000000000000",
        "000000000000000000000000000000000000000000000000000000000000000001000000000000000",
        "000000000000000000000000000000000000000000000000000000000000000000100000000000000",
        "000000000000000000000000000000000000000000000000000000000000000000010000000000000",
        "000000000000000000000000000000000000000000000000000000000000000000001000000000000",
        "000000000000000000000000000000000000000000000000000000000000000000000100000000000",
        "000000000000000000000000000000000000000000000000000000000000000000000010000000000",
        "000000000000000000000000000000000000000000000000000000000000000000000001000000000",
        "000000000000000000000000000000000000000000000000000000-00000000000000000100000000",
        "000000000000000000000000000000000000000000000000000000-00000000000000000010000000",
        "000000000000000000000000000000000000000000000000000000000000000000000000001000000",
        "000000000000000000000000000000000000000000000000000000000000000000000000000100000",
        "000000000000000000000000000000000000000000000000000000000000000000000000000010000",
        "000000000000000000000000000000000000000000000000000000000000000000000000000001000",
        "000000000000000000000000000000000000000000000000000000000000000000000000000000100",
        "000000000000000000000000000000000000000000000000000000000000000000000000000000010",
        "000000000000000000000000000000000000000000000000000000000000000000000000000000001",
    ];

    fn matrix_types() -> Vec<Type> {
        MATRIX_TYPES
            .iter()
            .map(|s| crate::literal::read(s).ok().and_then(|v| v.as_type().cloned()).unwrap_or(Type::Unit))
            .collect()
    }

    #[test]
    fn as_puppet_assigns() {
        let types = matrix_types();
        for (i, row) in PUPPET_ASSIGNABLE.iter().enumerate() {
            for (j, expected) in row.chars().enumerate() {
                let got = if is_assignable(&types[i], &types[j]) { '1' } else { '0' };
                assert!(expected == '-' || got == expected, "{} >= {}", MATRIX_TYPES[i], MATRIX_TYPES[j]);
            }
        }
    }

    #[test]
    fn as_puppet_equals() {
        let types = matrix_types();
        for (i, row) in PUPPET_EQUALS.iter().enumerate() {
            for (j, expected) in row.chars().enumerate() {
                let got = if crate::compare::type_equals(&types[i], &types[j]) { '1' } else { '0' };
                assert!(expected == '-' || got == expected, "{} == {}", MATRIX_TYPES[i], MATRIX_TYPES[j]);
            }
        }
    }

    /// User-defined recursive aliases, with Puppet 7.23's answers (the oracle, with these
    /// `type` definitions; Puppet itself overflows its stack on `LoopA >= Integer` and
    /// `Tnode >= Tnode`, which are left out).
    #[test]
    fn user_aliases_as_puppet() {
        let mut reader = crate::literal::Reader::default();
        let aliases = [
            ("Tree", "Array[Variant[Integer, Tree]]"),
            ("Tree2", "Array[Variant[Integer, Tree2]]"),
            ("A", "Variant[Integer, Array[A]]"),
            ("B", "Variant[Integer, Array[B], Hash[String, B]]"),
            ("LoopA", "Optional[LoopA]"),
            ("J", "Variant[String, Integer, Array[J], Hash[String, J]]"),
            ("Tnode", "Struct[{value => Integer, Optional[children] => Array[Tnode]}]"),
            ("Plain", "Array[Integer]"),
        ];
        for (name, src) in aliases {
            assert!(reader.define_alias(name, src).is_ok(), "{name}");
        }
        let cases = [
            (r"[1, [2, [3, []]]] =~ Tree", true),
            (r"[1, [2, ['x']]] =~ Tree", false),
            (r"1 =~ Tree", false),
            (r"[] =~ Tree", true),
            (r"Tree >= Tree2", true),
            (r"Tree2 >= Tree", true),
            (r"Tree >= Array[Integer]", true),
            (r"Tree >= Array[String]", false),
            (r"Array[Any] >= Tree", true),
            (r"Array[Integer] >= Tree", false),
            (r"A >= B", true),
            (r"B >= A", true),
            (r"A >= Integer", true),
            (r"A >= Array[Array[Integer]]", true),
            (r"B >= Hash[String, Integer]", true),
            (r"A >= Hash[String, Integer]", false),
            (r"Data >= J", true),
            (r"J >= Data", false),
            (r"RichData >= J", true),
            (r"J >= Tree", true),
            (r"Tree >= J", false),
            (r"B >= Tree", true),
            (r"Tree >= B", false),
            (r"1 =~ LoopA", false),
            (r"undef =~ LoopA", true),
            (r"LoopA >= Undef", true),
            (r"{value => 1, children => [{value => 2}, {value => 3, children => []}]} =~ Tnode", true),
            (r"{value => 1, children => [{value => 'x'}]} =~ Tnode", false),
            (r"Tnode >= Struct[{value => Integer}]", true),
            (r"Struct[{value => Integer, Optional[children] => Array[Any]}] >= Tnode", true),
            (r"Data >= Tnode", true),
            (r"Plain >= Array[Integer[1,2]]", true),
            (r"Array[Integer[1,2]] >= Plain", false),
            (r"Plain == Array[Integer]", true),
            (r"Tree == Tree2", true),
            (r"A == B", true),
            (r"[{a => [1, 'x']}] =~ J", true),
            (r"[{a => [1, 1.5]}] =~ J", false),
            (r"Iterable >= Tree", true),
            (r"Iterable[Integer] >= Tree", false),
            (r"J >= J", true),
            (r"Tree >= Tree", true),
        ];
        for (case, expected) in cases {
            let (op, (left, right)) = [" =~ ", " >= ", " == "]
                .iter()
                .find_map(|op| case.split_once(op).map(|parts| (*op, parts)))
                .unwrap_or((" == ", (case, case)));
            let a = reader.read(left).ok();
            let b = reader.read(right).ok();
            let got = match (op, a, b) {
                (" =~ ", Some(v), Some(Value::Type(ref t))) => crate::instance::is_instance(t, &v),
                (" >= ", Some(Value::Type(ref x)), Some(Value::Type(ref y))) => is_assignable(x, y),
                (" == ", Some(a), Some(b)) => crate::compare::equals(&a, &b),
                _ => !expected,
            };
            assert_eq!(got, expected, "{case}");
        }
    }
}
