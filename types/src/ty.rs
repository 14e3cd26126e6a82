//! `Type`: every type of Puppet's type system, as Puppet 7.23 models it (`pops/types/types.rb`
//! and the `p_*_type.rb` files).
//!
//! The variants hold exactly the parameters Puppet's classes hold; "unparameterised" is
//! `None` or an empty list, as `nil` / `EMPTY_ARRAY` are in Puppet, so that `Integer` and
//! `Integer[default, default]` are the same value and print alike. Equality (`PartialEq`) is
//! Puppet's `eql?` on types: structural. Puppet's `==` between types (mutual assignability) is
//! in `compare.rs`.
//!
//! `Struct` keys are `String` (or `Enum`) types of one value, wrapped in `Optional` when the
//! key may be missing, as `TypeFactory.struct` makes them. An alias ([`TypeAlias`]) is filled
//! in after it is created, so that it can refer to itself (`Data`, `RichData` and user
//! aliases); every walk over types guards against that recursion.
//!
//! The questions asked of types live one per file: `instance.rs` (`=~`), `assignable.rs`,
//! `normalize.rs`, `common.rs`, `infer.rs`, `display.rs`, `mismatch.rs`, `params.rs`
//! (parameterising a type from values).

use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use crate::int::Int;
use crate::regexp::Regexp;
use crate::semver::SemVerRange;
use crate::value::Value;

/// A bound of an `Integer` range; `None` is unbounded (`default`).
pub type IntBound = Option<Int>;

/// A size constraint of a String, Collection, Array, Hash or Tuple: Puppet keeps an
/// `Integer[from, to]` for it (`to` unbounded when `None`). The bounds are Ruby integers:
/// `String[0, Integer('1234567890123456789012')]` keeps its bignum, though no size reaches it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    pub from: Int,
    pub to: Option<Int>,
}

impl Size {
    pub const ANY: Size = Size { from: Int::Small(0), to: None };

    pub const fn new(from: i64, to: Option<i64>) -> Size {
        Size {
            from: Int::Small(from),
            to: match to {
                Some(to) => Some(Int::Small(to)),
                None => None,
            },
        }
    }

    pub const fn exact(n: i64) -> Size {
        Size::new(n, Some(n))
    }

    #[inline]
    pub fn contains(&self, n: i64) -> bool {
        self.from <= n && self.to.as_ref().is_none_or(|to| *to >= n)
    }

    /// `Integer[a, b].assignable?(Integer[c, d])` for sizes: `a <= c && b >= d`.
    pub fn covers(&self, inner: &Size) -> bool {
        self.from <= inner.from
            && match (&self.to, &inner.to) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(b), Some(d)) => b >= d,
            }
    }

    /// `size || DEFAULT_SIZE`: a collection's size, `0..` when unconstrained.
    pub fn or_any(size: Option<&Size>) -> Size {
        size.cloned().unwrap_or(Size::ANY)
    }

    /// A Tuple's size where it has no size constraint: exactly the number of its types.
    pub fn or_exact(size: Option<&Size>, types: usize) -> Size {
        size.cloned().unwrap_or_else(|| Size::exact(len_i64(types)))
    }

    /// `PTupleType#size_range`: its size, or the number of its types (`0..` when it has
    /// none).
    pub fn of_tuple(size: Option<&Size>, types: usize) -> Size {
        if size.is_none() && types == 0 {
            Size::ANY
        } else {
            Size::or_exact(size, types)
        }
    }

    /// The upper bound where a count is measured against it: a bound beyond 64 bits is as
    /// far as one goes.
    pub fn max(&self) -> Option<i64> {
        self.to.as_ref().map(|n| n.as_i64().unwrap_or(if n.is_negative() { i64::MIN } else { i64::MAX }))
    }
}

/// A count (a length, a number of types) as a size bound: collections never reach
/// `i64::MAX`, which stands for any larger count.
pub(crate) fn len_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The `String` type's parameter: a size, or (for inferred types) the one string value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StringParam {
    Size(Size),
    Value(Rc<str>),
}

/// One entry of a `Struct`: the key type is a String or Enum of one value, optionally wrapped
/// in `Optional` (the key may be missing) or `NotUndef`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructElement {
    pub key_type: Type,
    pub value_type: Type,
}

/// `Callable[[params...], block, return]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CallableType {
    /// The parameters as a Tuple type (types and size); `None` for unparameterised Callable.
    pub params: Option<Rc<Type>>,
    /// The block's type (a Callable, `Optional[Callable]` or Undef); `None` when there is none.
    pub block: Option<Rc<Type>>,
    /// The return type; `None` is Any.
    pub return_type: Option<Rc<Type>>,
}

/// `Runtime[runtime, name_or_pattern]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuntimeName {
    Name(Rc<str>),
    /// `[regexp, replacement]`.
    Pattern(Rc<Regexp>, Rc<str>),
}

/// A named type alias (`type MyType = ...`, also Puppet's built-in `Data`, `RichData`,
/// `RichDataKey`). The resolved type may refer back to the alias itself (recursive
/// aliases), which is why it is filled in after the alias exists.
pub struct TypeAlias {
    pub name: Rc<str>,
    resolved: RefCell<Option<Type>>,
}

/// An alias shows as its name: what it stands for may contain the alias itself.
impl std::fmt::Debug for TypeAlias {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TypeAlias({})", self.name)
    }
}

impl TypeAlias {
    pub fn new(name: impl Into<Rc<str>>) -> Rc<TypeAlias> {
        Rc::new(TypeAlias { name: name.into(), resolved: RefCell::new(None) })
    }

    pub fn with_type(name: impl Into<Rc<str>>, ty: Type) -> Rc<TypeAlias> {
        let alias = TypeAlias::new(name);
        alias.resolve_to(ty);
        alias
    }

    /// Sets what the alias stands for; it may contain `Type::Alias(self)`.
    pub fn resolve_to(&self, ty: Type) {
        *self.resolved.borrow_mut() = Some(ty);
    }

    /// What the alias stands for. While it is being resolved it stands for an unresolved
    /// reference (Puppet's `PTypeReferenceType::DEFAULT`), which accepts nothing: a
    /// recursive alias's body sees itself as not accepting `undef`, so
    /// `Struct[{a => Optional[T]}]` keeps its `Optional` and `Struct[{a => T}]` its required key.
    pub fn resolved_type(&self) -> Type {
        self.resolved.borrow().clone().unwrap_or_else(|| Type::Reference(Rc::from("TypeReference")))
    }

    /// Whether what the alias stands for is known yet.
    pub fn is_resolved(&self) -> bool {
        self.resolved.borrow().is_some()
    }
}

/// An `Object` type (Pcore's `PObjectType`): the unparameterised `Object` (everything
/// empty), or a user-defined one (`type T = Object[{...}]`, `Object[{...}]`), built and
/// checked by [`crate::object`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObjectType {
    pub name: Option<Rc<str>>,
    /// The parent type as written: an Object type, or an alias of one.
    pub parent: Option<Type>,
    pub type_parameters: Vec<Member>,
    /// The attributes in declaration order, constants last (as Puppet adds them).
    pub attributes: Vec<Member>,
    pub functions: Vec<Member>,
    /// The attributes named by `equality`; `None` when not given (all non-constant ones).
    pub equality: Option<Vec<Rc<str>>>,
    pub equality_include_type: bool,
    pub checks: Option<Value>,
    pub annotations: Option<Value>,
}

/// An Object type with values for some of its type parameters (`PObjectTypeExtension`):
/// its instances are the base type's whose attributes of those names match the values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObjectExtension {
    pub base: Rc<ObjectType>,
    /// The given parameters by name, in the order of the base type's type parameters.
    pub parameters: Vec<(Rc<str>, Value)>,
}

/// `Object` itself (`PObjectType::DEFAULT`).
impl Default for ObjectType {
    fn default() -> ObjectType {
        ObjectType {
            name: None,
            parent: None,
            type_parameters: Vec::new(),
            attributes: Vec::new(),
            functions: Vec::new(),
            equality: None,
            equality_include_type: true,
            checks: None,
            annotations: None,
        }
    }
}

/// An attribute, function or type parameter of an Object type (`PAnnotatedMember`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Member {
    pub name: Rc<str>,
    pub ty: Type,
    /// An attribute's kind (`None`: a plain attribute).
    pub kind: Option<AttributeKind>,
    /// The default value (`None`: Puppet's `:undef`, no value).
    pub value: Option<Value>,
    pub is_final: bool,
    pub is_override: bool,
    pub annotations: Option<Value>,
}

/// The `kind` of an Object type's attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttributeKind {
    Constant,
    Derived,
    GivenOrDerived,
    Reference,
}

impl AttributeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AttributeKind::Constant => "constant",
            AttributeKind::Derived => "derived",
            AttributeKind::GivenOrDerived => "given_or_derived",
            AttributeKind::Reference => "reference",
        }
    }
}

/// The type parameters of `Error[kind, issue_code]`. Each constrains its attribute as `=~`
/// does (a string, case-insensitively; a regexp; a type, `Undef` for an unset attribute);
/// `None` (`default`, or not given) leaves it free. At least one is given.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ErrorParams {
    pub kind: Option<Value>,
    pub issue_code: Option<Value>,
}

impl ErrorParams {
    /// The parameters by name, in declaration order.
    pub fn by_name(&self) -> [(&'static str, Option<&Value>); 2] {
        [("kind", self.kind.as_ref()), ("issue_code", self.issue_code.as_ref())]
    }
}

/// Every Puppet type.
#[derive(Clone, Debug)]
pub enum Type {
    Any,
    Undef,
    Default,
    /// The type of an empty collection's elements (`Array[0, 0]` has `Unit` elements); it
    /// accepts everything and prints as `Unit`.
    Unit,
    Scalar,
    ScalarData,
    Numeric,
    Integer {
        from: IntBound,
        to: IntBound,
    },
    /// Bounds of a Float range; infinite when unbounded.
    Float {
        from: f64,
        to: f64,
    },
    String(Option<StringParam>),
    /// `Enum[values]`, values sorted and deduplicated as Puppet stores them; the flag is the
    /// trailing `true` of `Enum['a', true]` (case-insensitive).
    Enum {
        values: Rc<[Rc<str>]>,
        case_insensitive: bool,
    },
    Pattern(Rc<[Rc<Regexp>]>),
    Regexp(Option<Rc<Regexp>>),
    Boolean(Option<bool>),
    SemVer(Rc<[SemVerRange]>),
    SemVerRange,
    /// `Timespan[from, to]`; bounds in nanoseconds.
    Timespan {
        from: Option<i128>,
        to: Option<i128>,
    },
    /// `Timestamp[from, to]`; bounds in nanoseconds since the epoch.
    Timestamp {
        from: Option<i128>,
        to: Option<i128>,
    },
    Binary,
    /// `URI[parameters]`: a URI string or a hash of URI parts.
    Uri(Option<Rc<Value>>),
    Collection(Option<Size>),
    /// `Array[element, from, to]`; `element` None is `Any` (unparameterised).
    Array {
        element: Option<Rc<Type>>,
        size: Option<Size>,
    },
    Hash {
        key: Option<Rc<Type>>,
        value: Option<Rc<Type>>,
        size: Option<Size>,
    },
    Tuple {
        types: Rc<[Type]>,
        size: Option<Size>,
    },
    Struct(Rc<[StructElement]>),
    Variant(Rc<[Type]>),
    Optional(Option<Rc<Type>>),
    NotUndef(Option<Rc<Type>>),
    Iterable(Option<Rc<Type>>),
    Iterator(Option<Rc<Type>>),
    CatalogEntry,
    /// `Resource[type_name, title]`; `File['x']` is `Resource['File', 'x']`.
    Resource {
        type_name: Option<Rc<str>>,
        title: Option<Rc<str>>,
    },
    /// `Class[name]`.
    Class(Option<Rc<str>>),
    Type(Option<Rc<Type>>),
    Callable(Rc<CallableType>),
    Sensitive(Option<Rc<Type>>),
    Deferred,
    Runtime {
        runtime: Option<Rc<str>>,
        name: Option<RuntimeName>,
    },
    /// `Init[type, args...]`.
    Init {
        ty: Option<Rc<Type>>,
        args: Rc<[Value]>,
    },
    Object(Rc<ObjectType>),
    /// A user-defined Object type with type parameters given (`T['x']`, Pcore's
    /// `PObjectTypeExtension`).
    ObjectExtension(Rc<ObjectExtension>),
    /// Pcore's `Error` object type, or `Error[kind, issue_code]` (a `PObjectTypeExtension`).
    Error(Option<Rc<ErrorParams>>),
    TypeSet,
    /// A reference to a type that does not exist (yet): `Foo` with no such alias.
    Reference(Rc<str>),
    Alias(Rc<TypeAlias>),
}

impl Type {
    /// `Integer[from, to]` with 64-bit bounds (`Type::Integer` takes bounds of any size).
    pub fn integer(from: Option<i64>, to: Option<i64>) -> Type {
        Type::Integer { from: from.map(Int::Small), to: to.map(Int::Small) }
    }

    pub fn float(from: f64, to: f64) -> Type {
        Type::Float { from, to }
    }

    /// The unparameterised `Float`.
    pub const FLOAT: Type = Type::Float { from: f64::NEG_INFINITY, to: f64::INFINITY };
    /// The unparameterised `Integer`.
    pub const INTEGER: Type = Type::Integer { from: None, to: None };
    /// The unparameterised `String`.
    pub const STRING: Type = Type::String(None);
    /// The unparameterised `Array`.
    pub const ARRAY: Type = Type::Array { element: None, size: None };
    /// The unparameterised `Hash`.
    pub const HASH: Type = Type::Hash { key: None, value: None, size: None };

    pub fn array_of(element: Type) -> Type {
        Type::Array { element: Some(Rc::new(element)), size: None }
    }

    pub fn hash_of(key: Type, value: Type) -> Type {
        Type::Hash { key: Some(Rc::new(key)), value: Some(Rc::new(value)), size: None }
    }

    pub fn variant(types: Vec<Type>) -> Type {
        Type::Variant(types.into())
    }

    pub fn optional(t: Type) -> Type {
        Type::Optional(Some(Rc::new(t)))
    }

    pub fn type_of(t: Type) -> Type {
        Type::Type(Some(Rc::new(t)))
    }

    /// The type's name without parameters, as Puppet prints it (`Integer`, `Array`, the name
    /// of an alias or of a resource type reference's base `Resource`).
    pub fn name(&self) -> &str {
        match self {
            Type::Any => "Any",
            Type::Undef => "Undef",
            Type::Default => "Default",
            Type::Unit => "Unit",
            Type::Scalar => "Scalar",
            Type::ScalarData => "ScalarData",
            Type::Numeric => "Numeric",
            Type::Integer { .. } => "Integer",
            Type::Float { .. } => "Float",
            Type::String(_) => "String",
            Type::Enum { .. } => "Enum",
            Type::Pattern(_) => "Pattern",
            Type::Regexp(_) => "Regexp",
            Type::Boolean(_) => "Boolean",
            Type::SemVer(_) => "SemVer",
            Type::SemVerRange => "SemVerRange",
            Type::Timespan { .. } => "Timespan",
            Type::Timestamp { .. } => "Timestamp",
            Type::Binary => "Binary",
            Type::Uri(_) => "URI",
            Type::Collection(_) => "Collection",
            Type::Array { .. } => "Array",
            Type::Hash { .. } => "Hash",
            Type::Tuple { .. } => "Tuple",
            Type::Struct(_) => "Struct",
            Type::Variant(_) => "Variant",
            Type::Optional(_) => "Optional",
            Type::NotUndef(_) => "NotUndef",
            Type::Iterable(_) => "Iterable",
            Type::Iterator(_) => "Iterator",
            Type::CatalogEntry => "CatalogEntry",
            Type::Resource { .. } => "Resource",
            Type::Class(_) => "Class",
            Type::Type(_) => "Type",
            Type::Callable(_) => "Callable",
            Type::Sensitive(_) => "Sensitive",
            Type::Deferred => "Deferred",
            Type::Runtime { .. } => "Runtime",
            Type::Init { .. } => "Init",
            Type::Object(o) => o.name.as_deref().unwrap_or("Object"),
            Type::ObjectExtension(e) => e.base.name.as_deref().unwrap_or("Object"),
            Type::Error(_) => "Error",
            Type::TypeSet => "TypeSet",
            Type::Reference(n) => n,
            Type::Alias(a) => &a.name,
        }
    }

    /// Follows aliases to the type they stand for (at most a bounded number of hops, so
    /// `type A = B; type B = A` ends).
    pub fn resolved(&self) -> Type {
        let mut t = self.clone();
        for _ in 0..64 {
            match t {
                Type::Alias(ref a) => t = a.resolved_type(),
                other => return other,
            }
        }
        Type::Any
    }
}

impl PartialEq for Type {
    fn eq(&self, other: &Type) -> bool {
        use Type::{
            Alias, Any, Array, Binary, Boolean, Callable, CatalogEntry, Class, Collection, Default, Deferred, Enum,
            Float, Hash, Init, Integer, Iterable, Iterator, NotUndef, Numeric, Object, Optional, Pattern, Reference,
            Regexp, Resource, Runtime, Scalar, ScalarData, SemVer, SemVerRange, Sensitive, String, Struct, Timespan,
            Timestamp, Tuple, TypeSet, Undef, Unit, Uri, Variant,
        };
        match (self, other) {
            (Any, Any) | (Undef, Undef) | (Default, Default) | (Unit, Unit) => true,
            (Scalar, Scalar) | (ScalarData, ScalarData) | (Numeric, Numeric) => true,
            (SemVerRange, SemVerRange) | (Binary, Binary) | (CatalogEntry, CatalogEntry) => true,
            (Deferred, Deferred) | (TypeSet, TypeSet) => true,
            (Integer { from: a, to: b }, Integer { from: c, to: d }) => a == c && b == d,
            (Float { from: a, to: b }, Float { from: c, to: d }) => a == c && b == d,
            (String(a), String(b)) => a == b,
            (Enum { values: a, case_insensitive: x }, Enum { values: b, case_insensitive: y }) => a == b && x == y,
            (Pattern(a), Pattern(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.source() == y.source())
            }
            (Regexp(a), Regexp(b)) => match (a, b) {
                (None, None) => true,
                (Some(x), Some(y)) => x.source() == y.source(),
                _ => false,
            },
            (Boolean(a), Boolean(b)) => a == b,
            (SemVer(a), SemVer(b)) => a == b,
            (Timespan { from: a, to: b }, Timespan { from: c, to: d }) => a == c && b == d,
            (Timestamp { from: a, to: b }, Timestamp { from: c, to: d }) => a == c && b == d,
            (Uri(a), Uri(b)) => a == b,
            (Collection(a), Collection(b)) => a == b,
            (Array { element: a, size: s }, Array { element: b, size: t }) => a == b && s == t,
            (Hash { key: k1, value: v1, size: s1 }, Hash { key: k2, value: v2, size: s2 }) => {
                k1 == k2 && v1 == v2 && s1 == s2
            }
            (Tuple { types: a, size: s }, Tuple { types: b, size: t }) => a == b && s == t,
            (Struct(a), Struct(b)) => a == b,
            (Variant(a), Variant(b)) => a == b,
            (Optional(a), Optional(b)) => a == b,
            (NotUndef(a), NotUndef(b)) => a == b,
            (Iterable(a), Iterable(b)) => a == b,
            (Iterator(a), Iterator(b)) => a == b,
            (Resource { type_name: a, title: b }, Resource { type_name: c, title: d }) => {
                a.as_deref().map(str::to_lowercase) == c.as_deref().map(str::to_lowercase) && b == d
            }
            (Class(a), Class(b)) => a == b,
            (Self::Type(a), Self::Type(b)) => a == b,
            (Callable(a), Callable(b)) => a == b,
            (Sensitive(a), Sensitive(b)) => a == b,
            (Runtime { runtime: a, name: b }, Runtime { runtime: c, name: d }) => a == c && b == d,
            (Init { ty: a, args: b }, Init { ty: c, args: d }) => a == c && b == d,
            (Object(a), Object(b)) => a == b,
            (Self::ObjectExtension(a), Self::ObjectExtension(b)) => a == b,
            (Self::Error(a), Self::Error(b)) => a == b,
            (Reference(a), Reference(b)) => a == b,
            (Alias(a), Alias(b)) => Rc::ptr_eq(a, b) || a.name == b.name,
            _ => false,
        }
    }
}

impl Eq for Type {}

impl Hash for Type {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Type::Integer { from, to } => (from, to).hash(state),
            Type::Float { from, to } => (from.to_bits(), to.to_bits()).hash(state),
            Type::String(p) => p.hash(state),
            Type::Enum { values, .. } => values.hash(state),
            Type::Array { element, .. } => element.hash(state),
            Type::Hash { key, value, .. } => (key, value).hash(state),
            Type::Tuple { types, .. } => types.hash(state),
            Type::Struct(e) => e.hash(state),
            Type::Variant(t) => t.hash(state),
            Type::Optional(t)
            | Type::NotUndef(t)
            | Type::Iterable(t)
            | Type::Iterator(t)
            | Type::Type(t)
            | Type::Sensitive(t) => t.hash(state),
            Type::Resource { type_name, title } => (type_name.as_deref().map(str::to_lowercase), title).hash(state),
            Type::Class(n) => n.hash(state),
            Type::Reference(n) => n.hash(state),
            Type::Alias(a) => a.name.hash(state),
            _ => {}
        }
    }
}

thread_local! {
    static DROP_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    static DEFERRED_DROPS: RefCell<Vec<Type>> = const { RefCell::new(Vec::new()) };
    static NO_TYPES: Rc<[Type]> = Rc::from([]);
}

/// How deep drops recurse before the rest is left to the outermost drop.
const MAX_DROP_DEPTH: u32 = 256;

/// Dropping a type, as `Value` does: nested types drop recursively up to a bound, deeper
/// ones are set aside for the outermost drop (`Array[$t]` in a loop nests without limit).
impl Drop for Type {
    fn drop(&mut self) {
        if !matches!(
            self,
            Type::Array { element: Some(_), .. }
                | Type::Hash { .. }
                | Type::Optional(Some(_))
                | Type::NotUndef(Some(_))
                | Type::Iterable(Some(_))
                | Type::Iterator(Some(_))
                | Type::Type(Some(_))
                | Type::Sensitive(Some(_))
                | Type::Tuple { .. }
                | Type::Variant(_)
        ) {
            return;
        }
        // During thread teardown the thread-locals may be gone: drop the ordinary way then.
        let Ok(depth) = DROP_DEPTH.try_with(|d| d.get()) else { return };
        if depth >= MAX_DROP_DEPTH && DEFERRED_DROPS.try_with(|_| ()).is_ok() {
            let t = std::mem::replace(self, Type::Any);
            let _ = DEFERRED_DROPS.try_with(|d| d.borrow_mut().push(t));
            return;
        }
        DROP_DEPTH.with(|d| d.set(depth + 1));
        match self {
            Type::Array { element: a, .. }
            | Type::Optional(a)
            | Type::NotUndef(a)
            | Type::Iterable(a)
            | Type::Iterator(a)
            | Type::Type(a)
            | Type::Sensitive(a) => drop(a.take()),
            Type::Hash { key, value, .. } => {
                drop(key.take());
                drop(value.take());
            }
            Type::Tuple { types, .. } | Type::Variant(types) => {
                drop(std::mem::replace(types, NO_TYPES.try_with(Rc::clone).unwrap_or_else(|_| Rc::from([]))))
            }
            _ => {}
        }
        DROP_DEPTH.with(|d| d.set(depth));
        if depth == 0 {
            while let Some(t) = DEFERRED_DROPS.try_with(|d| d.borrow_mut().pop()).ok().flatten() {
                drop(t);
            }
        }
    }
}
