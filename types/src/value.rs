//! `Value`: every value a Puppet program computes with.
//!
//! Values are cheap to clone: scalars are inline, strings are `Rc<str>`, everything else is
//! behind an `Rc`, and a `Value` is 24 bytes (a `const` assertion pins it). Hashes are
//! `IndexMap`s, insertion-ordered as Ruby's are. The
//! derived-looking traits follow Ruby's `eql?`/`hash` (what Puppet's hashes use for keys:
//! `'a'` and `'A'` are two keys, so are `1` and `1.0`); Puppet's `==` operator, which is
//! case-insensitive for strings and numeric across Integer and Float, is [`Value::puppet_eq`].

use std::fmt;
use std::hash::{Hash as StdHash, Hasher};
use std::rc::Rc;

use indexmap::IndexMap;

use crate::binary::Binary;
use crate::regexp::Regexp;
use crate::semver::{SemVer, SemVerRange};
use crate::time::{Timespan, Timestamp};
use crate::ty::Type;
use crate::uri::Uri;

/// A Puppet hash: insertion-ordered, any value as key.
pub type Hash = IndexMap<Value, Value, foldhash::fast::RandomState>;

/// Every value of the Puppet language.
#[derive(Clone)]
pub enum Value {
    /// `undef` (Ruby's `nil`).
    Undef,
    /// `default`.
    Default,
    Boolean(bool),
    /// A 64-bit integer; arithmetic beyond it is Puppet's out-of-range error.
    Integer(i64),
    /// An integer beyond 64 bits, which only some conversions make (see [`crate::int`]).
    BigInt(Rc<num_bigint::BigInt>),
    Float(f64),
    String(Rc<str>),
    Regexp(Rc<Regexp>),
    Array(Rc<Vec<Value>>),
    Hash(Rc<Hash>),
    /// A type used as a value (`Integer[1, 2]`, resource references such as `File['x']`,
    /// class references such as `Class['x']`).
    Type(Rc<Type>),
    Timespan(Rc<Timespan>),
    Timestamp(Rc<Timestamp>),
    SemVer(Rc<SemVer>),
    SemVerRange(Rc<SemVerRange>),
    Binary(Rc<Binary>),
    Uri(Rc<Uri>),
    Sensitive(Rc<Value>),
    Deferred(Rc<Deferred>),
    /// An `Error` object (the Pcore data type `Error`), such as the one `get` hands its lambda.
    Error(Rc<ErrorValue>),
    /// An instance of a user-defined Object type.
    Object(Rc<ObjectValue>),
    /// A lazy iterator (`reverse_each` and `step` without a block, `Integer[1, 3].each`).
    Iterator(Rc<Iterator>),
    /// Something callable: a function or a lambda, filled in by the evaluator.
    Callable(Rc<dyn Callable>),
}

const _: () = assert!(size_of::<Value>() <= 24);

/// An instance of a user-defined Object type (`T.new(...)`): the values of the attributes
/// `new` takes, inherited ones first (see [`crate::object`]).
#[derive(Clone, Debug)]
pub struct ObjectValue {
    pub ty: Rc<crate::ty::ObjectType>,
    pub values: Vec<(Rc<str>, Value)>,
}

impl PartialEq for ObjectValue {
    fn eq(&self, other: &ObjectValue) -> bool {
        crate::object::instances_equal(self, other)
    }
}

/// A call to resolve later: `Deferred('name', [args])`. Puppet keeps "no arguments"
/// (`Deferred('x')`, printed without `'arguments'`) apart from `Deferred('x', [])`.
#[derive(Clone, Debug, PartialEq)]
pub struct Deferred {
    pub name: Rc<str>,
    pub arguments: Option<Vec<Value>>,
}

impl Deferred {
    /// An attribute of the `Deferred` object: `name`, and `arguments` (`undef` when none
    /// were given).
    pub fn attribute(&self, name: &str) -> Option<Value> {
        match name {
            "name" => Some(Value::String(self.name.clone())),
            "arguments" => Some(self.arguments.clone().map_or(Value::Undef, Value::array)),
            _ => None,
        }
    }
}

/// An `Error` object (`Puppet::DataTypes::Error`): a message with an optional kind, details
/// and issue code. Equal when all four are equal (`eql?`, case-sensitively).
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorValue {
    pub msg: Rc<str>,
    pub kind: Option<Rc<str>>,
    /// A `Hash[String[1], Data]`.
    pub details: Option<Value>,
    pub issue_code: Option<Rc<str>>,
}

impl ErrorValue {
    /// An attribute by name (`msg`, `kind`, `details`, `issue_code`): `Some(Undef)` when
    /// unset, `None` when there is no such attribute.
    pub fn attribute(&self, name: &str) -> Option<Value> {
        let text = |s: &Option<Rc<str>>| s.as_ref().map_or(Value::Undef, |s| Value::String(s.clone()));
        match name {
            "msg" => Some(Value::String(self.msg.clone())),
            "kind" => Some(text(&self.kind)),
            "details" => Some(self.details.clone().unwrap_or(Value::Undef)),
            "issue_code" => Some(text(&self.issue_code)),
            _ => None,
        }
    }

    /// `_pcore_init_hash`: `msg`, and the attributes that are set, in declaration order.
    pub fn init_hash(&self) -> Vec<(&'static str, Value)> {
        let mut result = vec![("msg", Value::String(self.msg.clone()))];
        for name in ["kind", "details", "issue_code"] {
            match self.attribute(name) {
                Some(Value::Undef) | None => {}
                Some(v) => result.push((name, v)),
            }
        }
        result
    }
}

/// A lazy iterator over an iterable value.
#[derive(Clone, Debug)]
pub struct Iterator {
    /// The value iterated over (an Array, Hash, String, Integer, `Type[Integer[a, b]]`,
    /// `Type[Enum[...]]`, or another Iterator).
    pub source: Value,
    pub kind: IteratorKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IteratorKind {
    /// The source's elements in order.
    Forward,
    /// `reverse_each` without a block.
    Reverse,
    /// `step(n)` without a block.
    Step(i64),
}

/// The evaluator's callables (functions, lambdas), seen from the type system.
pub trait Callable {
    /// The callable's signature as a `Callable[...]` type (a Variant of them when it has
    /// several dispatches).
    fn signature(&self) -> Type;
    /// A name for messages (`function 'map'`, `lambda`).
    fn name(&self) -> &str;
    /// Identity for `eql?`: two handles are the same callable when this is equal.
    fn identity(&self) -> usize;
    /// The evaluator's own view of the callable.
    fn as_any(&self) -> &dyn std::any::Any;
}

impl fmt::Debug for dyn Callable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Callable({})", self.name())
    }
}

impl Value {
    pub fn string(s: impl Into<Rc<str>>) -> Value {
        Value::String(s.into())
    }

    pub fn array(items: Vec<Value>) -> Value {
        Value::Array(Rc::new(items))
    }

    pub fn hash(entries: Hash) -> Value {
        Value::Hash(Rc::new(entries))
    }

    pub fn ty(t: Type) -> Value {
        Value::Type(Rc::new(t))
    }

    pub fn is_undef(&self) -> bool {
        matches!(self, Value::Undef)
    }

    /// An Integer of any size (a 64-bit one or a bignum), or `None` for other values.
    pub fn as_int(&self) -> Option<crate::Int> {
        match self {
            Value::Integer(i) => Some(crate::Int::Small(*i)),
            Value::BigInt(b) => Some(crate::Int::Big(b.clone())),
            _ => None,
        }
    }

    /// Whether the value is an Integer of any size.
    pub fn is_integer(&self) -> bool {
        matches!(self, Value::Integer(_) | Value::BigInt(_))
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_type(&self) -> Option<&Type> {
        match self {
            Value::Type(t) => Some(t),
            _ => None,
        }
    }

    /// Puppet's `==`: strings compare case-insensitively, `1 == 1.0`, containers deeply,
    /// types by mutual assignability (equal types), everything else by `eql?`.
    pub fn puppet_eq(&self, other: &Value) -> bool {
        crate::compare::equals(self, other)
    }
}

impl PartialEq for Value {
    /// Ruby's `eql?` (hash-key equality). See [`Value::puppet_eq`] for Puppet's `==`.
    fn eq(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Undef, Undef) | (Default, Default) => true,
            (Boolean(a), Boolean(b)) => a == b,
            (Integer(a), Integer(b)) => a == b,
            (BigInt(a), BigInt(b)) => a == b,
            (Float(a), Float(b)) => a.to_bits() == b.to_bits() || a == b,
            (String(a), String(b)) => a == b,
            (Regexp(a), Regexp(b)) => a.source() == b.source(),
            (Array(a), Array(b)) => a == b,
            // Ruby's `Hash#eql?`: the same entries, in any order.
            (Hash(a), Hash(b)) => a.len() == b.len() && a.iter().all(|(k, v)| b.get(k) == Some(v)),
            (Type(a), Type(b)) => a == b,
            (Timespan(a), Timespan(b)) => a == b,
            (Timestamp(a), Timestamp(b)) => a == b,
            (SemVer(a), SemVer(b)) => a == b,
            (SemVerRange(a), SemVerRange(b)) => a == b,
            (Binary(a), Binary(b)) => a == b,
            (Uri(a), Uri(b)) => a == b,
            // `Sensitive#eql?`: the wrapped values' hashes are equal.
            (Sensitive(a), Sensitive(b)) => a == b,
            (Deferred(a), Deferred(b)) => a == b,
            (Error(a), Error(b)) => a == b,
            (Object(a), Object(b)) => a == b,
            (Iterator(a), Iterator(b)) => Rc::ptr_eq(a, b),
            (Callable(a), Callable(b)) => a.identity() == b.identity(),
            _ => false,
        }
    }
}

impl Eq for Value {}

impl StdHash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Value::Undef | Value::Default => {}
            Value::Boolean(b) => b.hash(state),
            Value::Integer(i) => i.hash(state),
            Value::BigInt(b) => b.hash(state),
            Value::Float(f) => {
                // 0.0 and -0.0 are eql? in Ruby
                if *f == 0.0 { 0u64 } else { f.to_bits() }.hash(state)
            }
            Value::String(s) => s.hash(state),
            Value::Regexp(r) => r.source().hash(state),
            Value::Array(a) => {
                a.len().hash(state);
                for v in a.iter() {
                    v.hash(state);
                }
            }
            Value::Hash(h) => {
                // In any order, as the entries are compared: the sum of each entry's hash.
                h.len().hash(state);
                let entries = h.iter().fold(0u64, |sum, entry| {
                    let mut one = std::collections::hash_map::DefaultHasher::new();
                    entry.hash(&mut one);
                    sum.wrapping_add(one.finish())
                });
                entries.hash(state);
            }
            Value::Type(t) => t.hash(state),
            Value::Timespan(t) => t.hash(state),
            Value::Timestamp(t) => t.hash(state),
            Value::SemVer(v) => v.hash(state),
            Value::SemVerRange(r) => r.hash(state),
            Value::Binary(b) => b.hash(state),
            Value::Uri(u) => u.hash(state),
            Value::Sensitive(s) => s.hash(state),
            Value::Deferred(d) => d.name.hash(state),
            Value::Error(e) => (&e.msg, &e.kind, &e.issue_code).hash(state),
            Value::Object(o) => crate::object::hash_instance(o, state),
            Value::Iterator(i) => (Rc::as_ptr(i) as *const u8 as usize).hash(state),
            Value::Callable(c) => c.identity().hash(state),
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::display::value_to_string(self))
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Boolean(b)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Integer(i)
    }
}

impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Value::Float(f)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.into())
    }
}

impl From<Type> for Value {
    fn from(t: Type) -> Value {
        Value::Type(Rc::new(t))
    }
}

thread_local! {
    static DROP_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    static DEFERRED_DROPS: std::cell::RefCell<Vec<Value>> = const { std::cell::RefCell::new(Vec::new()) };
    static NO_ITEMS: Rc<Vec<Value>> = Rc::new(Vec::new());
    static NO_ENTRIES: Rc<Hash> = Rc::new(Hash::default());
}

/// How deep drops recurse before the rest is left to the outermost drop.
const MAX_DROP_DEPTH: u32 = 256;

/// Dropping a value: containers drop their elements recursively up to a bound; deeper ones
/// are set aside and dropped by the outermost drop, so values built at run time can nest far
/// deeper than the stack allows recursion (`reduce` wrapping an array in itself).
impl Drop for Value {
    #[inline]
    fn drop(&mut self) {
        // Only the last handle of a non-empty container drops its contents: anything else
        // drops the ordinary way, at once.
        let last_of_contents = match self {
            Value::Array(a) => Rc::strong_count(a) == 1 && !a.is_empty(),
            Value::Hash(h) => Rc::strong_count(h) == 1 && !h.is_empty(),
            Value::Sensitive(s) => Rc::strong_count(s) == 1,
            _ => false,
        };
        if last_of_contents {
            drop_contents(self);
        }
    }
}

/// Drops a container's contents with a bounded recursion depth: deeper containers are
/// deferred to a list the outermost drop empties.
#[cold]
#[inline(never)]
fn drop_contents(v: &mut Value) {
    // During thread teardown the thread-locals may be gone: drop the ordinary way then.
    let Ok(depth) = DROP_DEPTH.try_with(|d| d.get()) else { return };
    if depth >= MAX_DROP_DEPTH && DEFERRED_DROPS.try_with(|_| ()).is_ok() {
        let v = std::mem::replace(v, Value::Undef);
        let _ = DEFERRED_DROPS.try_with(|d| d.borrow_mut().push(v));
        return;
    }
    DROP_DEPTH.with(|d| d.set(depth + 1));
    match v {
        Value::Array(a) => drop(std::mem::replace(a, NO_ITEMS.try_with(Rc::clone).unwrap_or_default())),
        Value::Hash(h) => drop(std::mem::replace(h, NO_ENTRIES.try_with(Rc::clone).unwrap_or_default())),
        Value::Sensitive(s) => drop(std::mem::replace(s, Rc::new(Value::Undef))),
        _ => {}
    }
    DROP_DEPTH.with(|d| d.set(depth));
    if depth == 0 {
        while let Some(v) = DEFERRED_DROPS.try_with(|d| d.borrow_mut().pop()).ok().flatten() {
            drop(v);
        }
    }
}
