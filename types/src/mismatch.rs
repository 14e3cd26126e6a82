//! Type-mismatch messages in Puppet's words (`type_mismatch_describer.rb`):
//! `expects an Integer value, got String`, with struct and tuple member paths, and the
//! messages of a call that matches none of a function's signatures.
//!
//! How Puppet reports, and what this file returns:
//!
//! | Puppet                                         | here                         | example |
//! |------------------------------------------------|------------------------------|---------|
//! | `describe_mismatch(name, expected, infer_set(v))` | [`describe_value`]        | `parameter 'x' expects an Integer value, got String` |
//! | `assert_type(T, v)` (`assert_type.rb`)         | [`assert_type_message`]      | `assert_type(): expects an Integer value, got String` |
//! | `describe_signatures(name, signatures, args)`  | [`describe_signatures`]      | `'split' expects 2 arguments, got 1` |
//!
//! Choosing the signature that accepts a call is [`crate::dispatch`]'s; this file words
//! why none does.
//!
//! A mismatch is found by walking the expected type against the actual (inferred) type,
//! recording a path: `entry 'a'`, `key of entry 'a'`, `index 1`, `parameter 'x'`, `block`,
//! `return`; variants are tried one by one and their mismatches merged when they agree
//! (`expects a value of type Integer or String, got Boolean`). The kinds of mismatch and their
//! messages:
//!
//! | kind                 | message                                              |
//! |----------------------|------------------------------------------------------|
//! | type                 | `expects an Integer value, got String`, `expects a value of type Undef or Integer, got String` |
//! | pattern (Enum, Pattern) | `expects a match for Enum['a', 'b'], got 'c'`, `expects an undef value or a match for ...` |
//! | size                 | `expects size to be at least 2, got 1`               |
//! | argument count       | `expects between 1 and 2 arguments, got 3`, `expects 2 arguments, got none` |
//! | missing key          | `expects a value for key 'a'`                        |
//! | extraneous key       | `unrecognized key 'b'`                               |
//! | missing parameter    | `expects a value for parameter 'a'`                  |
//! | invalid parameter    | `has no parameter named 'b'`                         |
//! | block                | `does not expect a block`, `expects a block`         |
//! | unresolved type      | `references an unresolved type 'Foo'`                |

use std::rc::Rc;

use indexmap::IndexMap;

use crate::assignable::is_assignable;
use crate::dispatch::Signature;
use crate::display::a_an;
use crate::infer::{generalize, infer_set};
use crate::normalize::maybe_create_variant;
use crate::normalize::normalize;
use crate::ty::{len_i64, CallableType, Size, StructElement, Type, TypeAlias};
use crate::value::Value;

/// How deep a description descends (through nested types and recursive aliases) before it
/// reports the mismatch where it is.
const MAX_PATH: usize = 256;

/// Describes why `value` is not an instance of `expected`, prefixed with `subject`
/// (`parameter 'x'`, `'new' parameter 'from'`, ...): e.g.
/// `parameter 'x' expects an Integer value, got String`.
///
/// This is Puppet's `describe_mismatch(subject, expected, infer_set(value))`: one mismatch
/// gives its message (stripped); several are joined with `"\n "`, each starting with a space
/// and the subject (`" parameter 'x' entry 'a' expects ...\n  parameter 'x' entry 'b' ..."`).
/// The empty string when nothing is wrong.
pub fn describe_value(subject: &str, expected: &Type, value: &Value) -> String {
    describe_mismatch(subject, expected, &infer_set(value))
}

/// Each mismatch of `value` against `expected`, prefixed with `subject`, one message each
/// (without the leading space Puppet's `format` gives them): what Puppet's
/// `describe_struct_signature` adds to a parameter list's problems, which
/// `validate_parameters` then lists one per line (`D[x]:\n  parameter 'env' entry 'A' expects
/// a Scalar value, got Undef\n  parameter 'env' entry 'B' ...`). Empty when nothing is wrong.
pub fn describe_value_each(subject: &str, expected: &Type, value: &Value) -> Vec<String> {
    describe(expected, &infer_set(value), &[PathElement::Subject(subject.to_owned())])
        .iter()
        .map(|m| m.format().trim().to_owned())
        .collect()
}

/// The message of `assert_type(expected, value)` when `value` is not an instance of
/// `expected`: `describe_mismatch('assert_type():', expected, infer_set(value))`, e.g.
/// `assert_type(): expects an Integer value, got String`, or
/// `assert_type(): entry 'a' expects an Integer value, got String`.
///
/// The evaluator reports it as `Error while evaluating a Function Call, ` followed by this
/// message. When there are several mismatches, the message has one line per mismatch and
/// each line starts with a space (`" assert_type(): entry 'a' expects ...\n  assert_type():
/// entry 'b' ..."`), so the error then reads `Function Call,  assert_type(): ...` with two
/// spaces.
pub fn assert_type_message(expected: &Type, value: &Value) -> String {
    describe_value("assert_type():", expected, value)
}

/// `TypeMismatchDescriber#describe_mismatch`: why the type `actual` does not fit `expected`,
/// with `subject` as the first element of the path.
pub fn describe_mismatch(subject: &str, expected: &Type, actual: &Type) -> String {
    let errors = describe(expected, actual, &[PathElement::Subject(subject.to_owned())]);
    match errors.as_slice() {
        [] => String::new(),
        [one] => one.format().trim().to_owned(),
        many => many.iter().map(Mismatch::format).collect::<Vec<_>>().join("\n "),
    }
}

/// `TypeMismatchDescriber#validate_parameters`: checks the parameters `given` to a class,
/// defined type or resource against `params` (a `Struct` of the parameter names and types;
/// an `Optional` key is a parameter with a default value), as Puppet does for
/// `class { 'foo': ... }`:
///
/// - `Class[Foo]: parameter 'x' expects an Integer value, got String` for one problem;
/// - `D[t]:\n  has no parameter named 'y'\n  expects a value for parameter 'z'` for several
///   (unknown names first, in the order given, then each parameter in declaration order).
///
/// With `missing_ok`, parameters without a value are not reported. A `Deferred` value is not
/// checked here (Puppet checks the deferred function's declared return type, which needs the
/// function).
pub fn validate_parameters(
    subject: &str,
    params: &Type,
    given: &crate::value::Hash,
    missing_ok: bool,
) -> crate::Result<()> {
    let elements: &[StructElement] = match params {
        Type::Struct(e) => e,
        _ => &[],
    };
    let errors = describe_struct_signature(elements, given, missing_ok);
    match errors.as_slice() {
        [] => Ok(()),
        [one] => Err(crate::Error::new(format!("{subject}:{}", one.format()))),
        many => {
            let lines: Vec<String> = many.iter().map(Mismatch::format).collect();
            Err(crate::Error::new(format!("{subject}:\n {}", lines.join("\n "))))
        }
    }
}

/// `describe_struct_signature`: unknown parameters, then each declared parameter's value or
/// its absence.
fn describe_struct_signature(
    elements: &[StructElement],
    given: &crate::value::Hash,
    missing_ok: bool,
) -> Vec<Mismatch> {
    let names: Vec<String> = elements.iter().map(element_name).collect();
    let mut result: Vec<Mismatch> = given
        .keys()
        .filter_map(|k| k.as_str())
        .filter(|k| !names.iter().any(|n| n == k))
        .map(|k| Mismatch::new(&[], Kind::InvalidParameter(k.to_owned())))
        .collect();
    for (elem, name) in elements.iter().zip(names) {
        match given.get(&Value::from(name.as_str())) {
            Some(Value::Deferred(_)) => {}
            Some(value) => {
                if !crate::instance::is_instance(&elem.value_type, value) {
                    let path = [PathElement::Parameter(name.clone())];
                    result.extend(describe(&elem.value_type, &infer_set(value), &path));
                }
            }
            None => {
                if !missing_ok && !matches!(elem.key_type, Type::Optional(_)) {
                    result.push(Mismatch::new(&[], Kind::MissingParameter(name)));
                }
            }
        }
    }
    result
}

// ---------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------

/// One step of the path to a mismatch (`TypePathElement` and its subclasses); printed
/// joined by spaces before `expects ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum PathElement {
    /// The subject as given (`assert_type():`, `parameter 'x'`).
    Subject(String),
    /// `entry 'key'`.
    EntryValue(String),
    /// `key of entry 'key'`.
    EntryKey(String),
    /// `parameter 'name'`.
    Parameter(String),
    /// `return`.
    Return,
    /// `block`.
    Block,
    /// `index n`.
    Index(usize),
    /// `variant n` (never printed: merged or chopped away).
    Variant(usize),
    /// The signature tried, `n.` (1-based).
    Signature(usize),
}

impl PathElement {
    /// Variant and signature elements are not part of the canonical path.
    fn is_variant(&self) -> bool {
        matches!(self, PathElement::Variant(_) | PathElement::Signature(_))
    }

    fn to_s(&self) -> String {
        match self {
            PathElement::Subject(s) => s.clone(),
            PathElement::EntryValue(k) => format!("entry '{k}'"),
            PathElement::EntryKey(k) => format!("key of entry '{k}'"),
            PathElement::Parameter(k) => format!("parameter '{k}'"),
            PathElement::Return => "return".to_owned(),
            PathElement::Block => "block".to_owned(),
            PathElement::Index(i) => format!("index {i}"),
            PathElement::Variant(i) => format!("variant {i}"),
            PathElement::Signature(i) => format!("{}.", i + 1),
        }
    }
}

fn with(path: &[PathElement], e: PathElement) -> Vec<PathElement> {
    let mut p = path.to_vec();
    p.push(e);
    p
}

// ---------------------------------------------------------------------------------------
// Mismatches
// ---------------------------------------------------------------------------------------

/// The kinds of mismatch (the `Mismatch` subclasses).
#[derive(Clone, Debug)]
enum Kind {
    MissingKey(String),
    MissingParameter(String),
    ExtraneousKey(String),
    InvalidParameter(String),
    UnexpectedBlock,
    MissingRequiredBlock,
    UnresolvedTypeReference(String),
    /// `TypeMismatch`, or its subclass `PatternMismatch` (Enum and Pattern types).
    Type {
        expected: Type,
        actual: Type,
        pattern: bool,
    },
    /// `SizeMismatch`, or its subclass `CountMismatch` (argument counts).
    Size {
        expected: Size,
        actual: Size,
        count: bool,
    },
}

/// The classes `merge_descriptions` groups by (`is_a?`: a count mismatch is a size mismatch,
/// a pattern mismatch a type mismatch).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Size,
    Count,
    MissingRequiredBlock,
    UnexpectedBlock,
    Type,
}

#[derive(Clone, Debug)]
struct Mismatch {
    path: Vec<PathElement>,
    kind: Kind,
}

impl Mismatch {
    fn new(path: &[PathElement], kind: Kind) -> Mismatch {
        Mismatch { path: path.to_vec(), kind }
    }

    /// `TypeMismatch.new` / `PatternMismatch.new`: both types are normalized.
    fn type_mismatch(path: &[PathElement], expected: &Type, actual: &Type) -> Mismatch {
        let kind = Kind::Type { expected: normalize(expected), actual: normalize(actual), pattern: false };
        Mismatch::new(path, kind)
    }

    fn pattern_mismatch(path: &[PathElement], expected: &Type, actual: &Type) -> Mismatch {
        let kind = Kind::Type { expected: normalize(expected), actual: normalize(actual), pattern: true };
        Mismatch::new(path, kind)
    }

    fn size_mismatch(path: &[PathElement], expected: Size, actual: Size, count: bool) -> Mismatch {
        Mismatch::new(path, Kind::Size { expected, actual, count })
    }

    fn is_a(&self, class: Class) -> bool {
        match (&self.kind, class) {
            (Kind::Size { .. }, Class::Size) => true,
            (Kind::Size { count, .. }, Class::Count) => *count,
            (Kind::MissingRequiredBlock, Class::MissingRequiredBlock) => true,
            (Kind::UnexpectedBlock, Class::UnexpectedBlock) => true,
            (Kind::Type { .. }, Class::Type) => true,
            _ => false,
        }
    }

    fn canonical_path(&self) -> Vec<&PathElement> {
        self.path.iter().filter(|e| !e.is_variant()).collect()
    }

    /// Ruby's `eql?` as `uniq` uses it. Puppet's `==` of key, type, size and unresolved-type
    /// mismatches is `super.==(o) && ...`, which compares the boolean `super` returns with
    /// the other mismatch and so is always false: only the block mismatches (and a mismatch
    /// with itself) are ever equal.
    fn same_as(&self, o: &Mismatch) -> bool {
        let same_class = matches!(
            (&self.kind, &o.kind),
            (Kind::UnexpectedBlock, Kind::UnexpectedBlock) | (Kind::MissingRequiredBlock, Kind::MissingRequiredBlock)
        );
        same_class && self.canonical_path() == o.canonical_path()
    }

    /// `merge(path, o)`: the mismatch standing for both: a type mismatch expecting either
    /// type, a size mismatch with the least restrictive bounds.
    fn merge(&self, path: &[PathElement], o: &Mismatch) -> Mismatch {
        let kind = match (&self.kind, &o.kind) {
            (Kind::Type { expected, actual, pattern }, Kind::Type { expected: oe, .. }) => {
                let mut both = vec![expected.clone()];
                if oe != expected {
                    both.push(oe.clone());
                }
                // `self.class.new(...)` normalizes the actual type again (normalizing is not
                // idempotent: each pass merges more ranges).
                Kind::Type {
                    expected: normalize(&maybe_create_variant(both)),
                    actual: normalize(actual),
                    pattern: *pattern,
                }
            }
            (Kind::Size { expected, actual, count }, Kind::Size { expected: oe, .. }) => {
                let to = match (&expected.to, &oe.to) {
                    (Some(a), Some(b)) => Some(a.max(b).clone()),
                    _ => None,
                };
                let from = expected.from.clone().min(oe.from.clone());
                Kind::Size { expected: Size { from, to }, actual: actual.clone(), count: *count }
            }
            (k, _) => k.clone(),
        };
        Mismatch { path: path.to_vec(), kind }
    }

    /// `chop_path(i)`: the mismatch without the path element at `i`.
    fn chop_path(&self, i: usize) -> Mismatch {
        let mut m = self.clone();
        if i < m.path.len() {
            m.path.remove(i);
        }
        m
    }

    /// `format`: a leading signature element becomes ` n.`, the rest of the path the
    /// position, both with a leading space.
    fn format(&self) -> String {
        let mut p: &[PathElement] = &self.path;
        let mut variant = String::new();
        let mut position = String::new();
        if let Some(first @ PathElement::Signature(_)) = p.first() {
            variant = format!(" {}", first.to_s());
            p = &p[1..];
        }
        if !p.is_empty() {
            position = format!(" {}", p.iter().map(PathElement::to_s).collect::<Vec<_>>().join(" "));
        }
        self.message(&variant, &position)
    }

    fn message(&self, variant: &str, position: &str) -> String {
        match &self.kind {
            Kind::MissingKey(k) => format!("{variant}{position} expects a value for key '{k}'"),
            Kind::MissingParameter(k) => format!("{variant}{position} expects a value for parameter '{k}'"),
            Kind::ExtraneousKey(k) => format!("{variant}{position} unrecognized key '{k}'"),
            Kind::InvalidParameter(k) => format!("{variant}{position} has no parameter named '{k}'"),
            Kind::UnexpectedBlock => format!("{variant}{position} does not expect a block"),
            Kind::MissingRequiredBlock => format!("{variant}{position} expects a block"),
            Kind::UnresolvedTypeReference(n) => {
                format!("{variant}{position} references an unresolved type '{n}'")
            }
            Kind::Type { expected, actual, pattern: false } => {
                format!("{variant}{position} {}", type_mismatch_text(expected, actual))
            }
            Kind::Type { expected, actual, pattern: true } => {
                format!("{variant}{position} {}", pattern_mismatch_text(expected, actual))
            }
            Kind::Size { expected, actual, count: false } => format!(
                "{variant}{position} expects size to be {}, got {}",
                range_to_s(expected, "0"),
                range_to_s(actual, "0")
            ),
            Kind::Size { expected, actual, count: true } => {
                let to_one = expected.to.as_ref().is_some_and(|to| *to == 1);
                let one = (expected.from == 1 && (to_one || expected.to.is_none())) || (expected.from == 0 && to_one);
                let plural = if one { "" } else { "s" };
                format!(
                    "{variant}{position} expects {} argument{plural}, got {}",
                    range_to_s(expected, "no"),
                    range_to_s(actual, "none")
                )
            }
        }
    }
}

/// `SizeMismatch#range_to_s`: `2`, `at most 2`, `at least 2`, `between 1 and 2`,
/// `unlimited`, or `zero` (`0`, `no`, `none`) for an empty range.
fn range_to_s(r: &Size, zero: &str) -> String {
    let (min, max) = (&r.from, r.to.as_ref());
    if max == Some(min) {
        if *min == 0 {
            zero.to_owned()
        } else {
            min.to_string()
        }
    } else if *min == 0 {
        match max {
            None => "unlimited".to_owned(),
            Some(m) => format!("at most {m}"),
        }
    } else {
        match max {
            None => format!("at least {min}"),
            Some(m) => format!("between {min} and {m}"),
        }
    }
}

/// `TypeMismatch#message` (after the position): `expects an Integer value, got String`, or
/// for a Variant or Optional `expects a value of type Undef, Integer, or String, got ...`.
/// The expected and actual types are shown in full when that tells the difference (same
/// kind of type, a Struct or Tuple against a Hash or Array, or the actual fits the
/// unparameterised expected type), else by their names only.
fn type_mismatch_text(expected: &Type, actual: &Type) -> String {
    let mut e = expected.clone();
    let mut optional = false;
    if let Type::Optional(inner) = &e {
        e = inner.as_deref().cloned().unwrap_or(Type::Any);
        optional = true;
    }
    let (e_text, a_text, multi) = if let Type::Variant(types) = &e {
        let types: Vec<Type> = types.to_vec();
        let (mut names, a_text) = if report_detailed(&types, actual) {
            let a = detailed_actual_to_s(&types, actual);
            (types.iter().map(alias_expanded_s).collect::<Vec<_>>(), a)
        } else {
            let mut names: Vec<String> = Vec::new();
            for t in &types {
                let n = short_name(t);
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            (names, short_name(actual))
        };
        if optional {
            names.insert(0, "Undef".to_owned());
        }
        let multi = names.len() != 1;
        (join_or(&names), a_text, multi)
    } else {
        let one = std::slice::from_ref(&e);
        let (mut e_text, a_text) = if report_detailed(one, actual) {
            (alias_expanded_s(&e), detailed_actual_to_s(one, actual))
        } else {
            (short_name(&e), short_name(actual))
        };
        if optional {
            e_text = format!("Undef or {e_text}");
        }
        (e_text, a_text, optional)
    };
    if multi {
        format!("expects a value of type {e_text}, got {a_text}")
    } else {
        format!("expects {} value, got {a_text}", a_an(&e_text))
    }
}

/// `A`, `A or B`, `A, B, or C`.
fn join_or(names: &[String]) -> String {
    match names {
        [] => ", or ".to_owned(),
        [one] => one.clone(),
        [a, b] => format!("{a} or {b}"),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}

/// `PatternMismatch#message` (after the position): `expects a match for Enum['a', 'b'], got
/// 'c'` (the string itself when the actual type holds one, else its type's name).
fn pattern_mismatch_text(expected: &Type, actual: &Type) -> String {
    let (e, prefix) = match expected {
        Type::Optional(inner) => (inner.as_deref().cloned().unwrap_or(Type::Any), "an undef value or "),
        other => (other.clone(), ""),
    };
    let got = match actual {
        Type::String(Some(crate::ty::StringParam::Value(s))) => format!("'{s}'"),
        other => short_name(other),
    };
    format!("expects {prefix}a match for {}, got {got}", alias_expanded_s(&e))
}

/// `short_name`: the type's name; `Optional`, `NotUndef`, `Sensitive`, `Type` (and the other
/// types with one contained type) show the contained type's name too (`Type[Integer]`).
fn short_name(t: &Type) -> String {
    match contained_type(t) {
        Some(inner) if !matches!(inner, Type::Any) => format!("{}[{}]", puppet_name(t), puppet_name(inner)),
        _ => puppet_name(t),
    }
}

/// The type inside `Type`, `NotUndef`, `Optional`, `Iterable`, `Iterator` and `Sensitive`
/// (Puppet's `PTypeWithContainedType`).
fn contained_type(t: &Type) -> Option<&Type> {
    match t {
        Type::Type(x)
        | Type::NotUndef(x)
        | Type::Optional(x)
        | Type::Iterable(x)
        | Type::Iterator(x)
        | Type::Sensitive(x) => x.as_deref(),
        _ => None,
    }
}

/// `PAnyType#name`: the simple name, an alias's or an Object type's own name.
fn puppet_name(t: &Type) -> String {
    match t {
        Type::Reference(_) => "TypeReference".to_owned(),
        other => other.name().to_owned(),
    }
}

/// `simple_name`: the class's name (`TypeAlias` for an alias, the last segment of an Object
/// type's name).
fn simple_name(t: &Type) -> String {
    match t {
        Type::Alias(_) => "TypeAlias".to_owned(),
        Type::Object(o) => o.name.as_deref().unwrap_or("Object").rsplit("::").next().unwrap_or("Object").to_owned(),
        other => puppet_name(other),
    }
}

/// `report_detailed?`: whether to show the types in full rather than by name.
fn report_detailed(e: &[Type], a: &Type) -> bool {
    always_fully_detailed(e, a) || e.iter().any(|t| is_assignable(&default_of(&t.resolved()), a))
}

/// `always_fully_detailed?`: some expected type is of the actual type's kind, an alias, or a
/// Struct (Tuple) against a Hash (Array).
fn always_fully_detailed(e: &[Type], a: &Type) -> bool {
    e.iter().any(|t| {
        std::mem::discriminant(t) == std::mem::discriminant(a)
            || matches!(t, Type::Alias(_))
            || matches!(a, Type::Alias(_))
            || matches!((t, a), (Type::Struct(_), Type::Hash { .. }) | (Type::Tuple { .. }, Type::Array { .. }))
    })
}

/// `detailed_actual_to_s`: the actual type in full when it is of an expected kind or its
/// generalization fits an expected type, else its simple name.
fn detailed_actual_to_s(e: &[Type], a: &Type) -> String {
    let resolved: Vec<Type> = e.iter().map(Type::resolved).collect();
    if always_fully_detailed(&resolved, a) {
        return alias_expanded_s(a);
    }
    let g = generalize(a);
    if resolved.iter().any(|t| is_assignable(t, &g)) {
        alias_expanded_s(a)
    } else {
        simple_name(a)
    }
}

/// `t.class::DEFAULT`: the unparameterised type of the same kind.
fn default_of(t: &Type) -> Type {
    match t {
        Type::Integer { .. } => Type::INTEGER,
        Type::Float { .. } => Type::FLOAT,
        Type::String(_) => Type::STRING,
        Type::Enum { .. } => Type::Enum { values: Rc::from(Vec::new()), case_insensitive: false },
        Type::Pattern(_) => Type::Pattern(Rc::from(Vec::new())),
        Type::Regexp(_) => Type::Regexp(None),
        Type::Boolean(_) => Type::Boolean(None),
        Type::SemVer(_) => Type::SemVer(Rc::from(Vec::new())),
        Type::Timespan { .. } => Type::Timespan { from: None, to: None },
        Type::Timestamp { .. } => Type::Timestamp { from: None, to: None },
        Type::Uri(_) => Type::Uri(None),
        Type::Collection(_) => Type::Collection(None),
        Type::Array { .. } => Type::ARRAY,
        Type::Hash { .. } => Type::HASH,
        Type::Tuple { .. } => Type::Tuple { types: Rc::from(Vec::new()), size: None },
        Type::Struct(_) => Type::Struct(Rc::from(Vec::new())),
        Type::Variant(_) => Type::Variant(Rc::from(Vec::new())),
        Type::Optional(_) => Type::Optional(None),
        Type::NotUndef(_) => Type::NotUndef(None),
        Type::Iterable(_) => Type::Iterable(None),
        Type::Iterator(_) => Type::Iterator(None),
        Type::Resource { .. } => Type::Resource { type_name: None, title: None },
        Type::Class(_) => Type::Class(None),
        Type::Type(_) => Type::Type(None),
        Type::Callable(_) => Type::Callable(Rc::new(CallableType { params: None, block: None, return_type: None })),
        Type::Sensitive(_) => Type::Sensitive(None),
        Type::Runtime { .. } => Type::Runtime { runtime: None, name: None },
        Type::Init { .. } => Type::Init { ty: None, args: Rc::from(Vec::new()) },
        Type::Reference(_) => Type::Reference(Rc::from("UnresolvedReference")),
        other => other.clone(),
    }
}

// ---------------------------------------------------------------------------------------
// Type strings
// ---------------------------------------------------------------------------------------

/// The aliases Puppet defines itself; `to_alias_expanded_s` prints only their names.
const BUILTIN_ALIASES: &[&str] = &["Data", "RichDataKey", "RichData", "Puppet::LookupKey", "Puppet::LookupValue"];

/// `to_s` of a type as messages use it (`"#{type}"`): an alias at the top prints expanded
/// (`PTypeAliasType#to_s` is `alias_expanded_string`), so does a Pcore Object type, everything
/// else as `TypeFormatter`.
fn type_to_s(t: &Type) -> String {
    match t {
        Type::Alias(_) => alias_expanded_s(t),
        // Pcore's own Object types print expanded (`Object[{name => 'Deferred', ...}]`), as
        // a notice prints them.
        Type::Deferred | Type::TypeSet | Type::Error(None) => {
            crate::display::value_to_s(&Value::Type(Rc::new(t.clone())))
        }
        other => other.to_string(),
    }
}

/// `to_alias_expanded_s`: the type with every alias that is not built in printed as
/// `Name = <its type>` (a recursive alias expands once, then prints its name).
///
/// `display.rs` prints an alias by its name; this rewrites each alias into one named
/// `Name = <expansion>` before printing.
fn alias_expanded_s(t: &Type) -> String {
    let mut expanding: Vec<Rc<str>> = Vec::new();
    expand_aliases(t, &mut expanding, 0).to_string()
}

fn expand_aliases(t: &Type, expanding: &mut Vec<Rc<str>>, depth: usize) -> Type {
    if depth > MAX_PATH {
        return t.clone();
    }
    match t {
        Type::Alias(a) if BUILTIN_ALIASES.contains(&&*a.name) || expanding.contains(&a.name) => t.clone(),
        Type::Alias(a) => {
            expanding.push(a.name.clone());
            let inner = expand_aliases(&a.resolved_type(), expanding, depth + 1);
            expanding.pop();
            // Renamed for printing, still standing for what it stood for (a struct key's
            // optionality asks whether the value type accepts undef).
            Type::Alias(TypeAlias::with_type(format!("{} = {inner}", a.name), a.resolved_type()))
        }
        other => map_contained(other, &mut |c| expand_aliases(c, expanding, depth + 1)),
    }
}

/// `t` with `f` applied to each type directly inside it.
fn map_contained(t: &Type, f: &mut dyn FnMut(&Type) -> Type) -> Type {
    let opt = |x: &Option<Rc<Type>>, f: &mut dyn FnMut(&Type) -> Type| x.as_deref().map(|x| Rc::new(f(x)));
    match t {
        Type::Array { element, size } => Type::Array { element: opt(element, f), size: size.clone() },
        Type::Hash { key, value, size } => Type::Hash { key: opt(key, f), value: opt(value, f), size: size.clone() },
        Type::Tuple { types, size } => Type::Tuple { types: types.iter().map(&mut *f).collect(), size: size.clone() },
        Type::Struct(elements) => Type::Struct(
            elements
                .iter()
                .map(|e| StructElement { key_type: e.key_type.clone(), value_type: f(&e.value_type) })
                .collect(),
        ),
        Type::Variant(types) => Type::Variant(types.iter().map(&mut *f).collect()),
        Type::Optional(x) => Type::Optional(opt(x, f)),
        Type::NotUndef(x) => Type::NotUndef(opt(x, f)),
        Type::Iterable(x) => Type::Iterable(opt(x, f)),
        Type::Iterator(x) => Type::Iterator(opt(x, f)),
        Type::Type(x) => Type::Type(opt(x, f)),
        Type::Sensitive(x) => Type::Sensitive(opt(x, f)),
        Type::Callable(c) => Type::Callable(Rc::new(CallableType {
            params: opt(&c.params, f),
            block: opt(&c.block, f),
            return_type: opt(&c.return_type, f),
        })),
        Type::Init { ty, args } => Type::Init { ty: opt(ty, f), args: args.clone() },
        other => other.clone(),
    }
}

// ---------------------------------------------------------------------------------------
// Describing (TypeMismatchDescriber#describe and the describe_P*Type methods)
// ---------------------------------------------------------------------------------------

/// `describe`: the mismatches of `actual` against `expected`; an expected type that refers
/// to a type that does not exist is reported as such.
fn describe(expected: &Type, actual: &Type, path: &[PathElement]) -> Vec<Mismatch> {
    if let Some(name) = find_unresolved(expected, &mut Vec::new(), 0) {
        return vec![Mismatch::new(path, Kind::UnresolvedTypeReference(name))];
    }
    internal_describe(&normalize(expected), expected, actual, path)
}

/// `UnresolvedTypeFinder`: the first type reference in `t` (depth first, a type before its
/// parts), looking through aliases once each.
fn find_unresolved(t: &Type, seen: &mut Vec<Rc<str>>, depth: usize) -> Option<String> {
    if depth > MAX_PATH {
        return None;
    }
    match t {
        Type::Reference(name) => Some(name.to_string()),
        Type::Alias(a) => {
            if seen.contains(&a.name) {
                return None;
            }
            seen.push(a.name.clone());
            find_unresolved(&a.resolved_type(), seen, depth + 1)
        }
        Type::Struct(elements) => elements.iter().find_map(|e| {
            find_unresolved(&e.key_type, seen, depth + 1).or_else(|| find_unresolved(&e.value_type, seen, depth + 1))
        }),
        Type::Object(o) => {
            o.parent.iter().chain(o.attributes.iter().map(|m| &m.ty)).find_map(|x| find_unresolved(x, seen, depth + 1))
        }
        other => {
            let mut found = None;
            map_contained(other, &mut |c| {
                if found.is_none() {
                    found = find_unresolved(c, seen, depth + 1);
                }
                c.clone()
            });
            found
        }
    }
}

thread_local! {
    /// Nesting of `internal_describe`: aliases that stand for themselves
    /// (`type A = Variant[A, A]`) recurse without making the path longer.
    static DESCRIBE_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn internal_describe(expected: &Type, original: &Type, actual: &Type, path: &[PathElement]) -> Vec<Mismatch> {
    let depth = DESCRIBE_DEPTH.with(|d| d.get());
    if path.len() > MAX_PATH || depth > MAX_PATH {
        return vec![Mismatch::type_mismatch(path, original, actual)];
    }
    DESCRIBE_DEPTH.with(|d| d.set(depth + 1));
    let result = internal_describe_at(expected, original, actual, path);
    DESCRIBE_DEPTH.with(|d| d.set(depth));
    result
}

fn internal_describe_at(expected: &Type, original: &Type, actual: &Type, path: &[PathElement]) -> Vec<Mismatch> {
    match expected {
        Type::Variant(types) => describe_variant(types, original, actual, path),
        Type::Struct(elements) => describe_struct(elements, original, actual, path),
        Type::Hash { key, value, size } => {
            describe_hash(key.as_deref(), value.as_deref(), size.as_ref(), original, actual, path)
        }
        Type::Tuple { .. } => describe_tuple(expected, original, actual, path, false),
        Type::Array { element, size } => describe_array(element.as_deref(), size.as_ref(), original, actual, path),
        Type::Callable(c) => describe_callable(c, original, actual, path),
        Type::Optional(inner) => describe_optional(expected, inner.as_deref(), original, actual, path),
        Type::Pattern(_) | Type::Enum { .. } => vec![Mismatch::pattern_mismatch(path, original, actual)],
        Type::Alias(a) => internal_describe(&normalize(&a.resolved_type()), expected, actual, path),
        _ => describe_any(expected, original, actual, path),
    }
}

/// `describe_PVariantType`: nothing when some variant fits, else the variants' mismatches
/// merged; an alias whose variants all fail is reported as a mismatch of the alias.
fn describe_variant(types: &[Type], original: &Type, actual: &Type, path: &[PathElement]) -> Vec<Mismatch> {
    let mut all: Vec<Type> = Vec::with_capacity(types.len() + 1);
    if matches!(original, Type::Optional(_)) {
        all.push(Type::Undef);
    }
    all.extend(types.iter().cloned());
    let mut variant_descriptions = Vec::with_capacity(all.len());
    for (i, vt) in all.iter().enumerate() {
        let d = describe(vt, actual, &with(path, PathElement::Variant(i)));
        if d.is_empty() {
            return Vec::new();
        }
        variant_descriptions.push(d);
    }
    let descriptions = merge_descriptions(path.len(), Class::Size, &variant_descriptions);
    if matches!(original, Type::Alias(_)) && descriptions.len() == 1 {
        vec![Mismatch::type_mismatch(path, original, actual)]
    } else {
        descriptions
    }
}

/// `merge_descriptions`: when every alternative failed with the same kind of mismatch at the
/// same place (size, block, then type mismatches are tried in that order), one merged
/// mismatch stands for them all; a single remaining mismatch loses the path element of the
/// alternative (`varying_path_position`).
fn merge_descriptions(
    varying_path_position: usize,
    size_class: Class,
    variant_descriptions: &[Vec<Mismatch>],
) -> Vec<Mismatch> {
    let mut descriptions: Vec<Mismatch> = variant_descriptions.iter().flatten().cloned().collect();
    for class in [size_class, Class::MissingRequiredBlock, Class::UnexpectedBlock, Class::Type] {
        let mismatches: Vec<&Mismatch> = descriptions.iter().filter(|d| d.is_a(class)).collect();
        if mismatches.len() != variant_descriptions.len() {
            continue;
        }
        if let Some(generic) = merge_all(&mismatches) {
            descriptions = vec![generic];
            break;
        }
    }
    let mut unique: Vec<Mismatch> = Vec::with_capacity(descriptions.len());
    for d in descriptions {
        if !unique.iter().any(|u| u.same_as(&d)) {
            unique.push(d);
        }
    }
    if unique.len() == 1 {
        unique.iter().map(|d| d.chop_path(varying_path_position)).collect()
    } else {
        unique
    }
}

/// The mismatches merged into one, when they all have the same canonical path.
fn merge_all(mismatches: &[&Mismatch]) -> Option<Mismatch> {
    let (first, rest) = mismatches.split_first()?;
    let mut acc: Mismatch = (*first).clone();
    for curr in rest {
        if acc.canonical_path() != curr.canonical_path() {
            return None;
        }
        acc = acc.merge(&acc.path.clone(), curr);
    }
    Some(acc)
}

/// `describe_POptionalType`: undef always fits; otherwise the contained type is described
/// (with the Optional, or its alias, as what was expected).
fn describe_optional(
    expected: &Type,
    inner: Option<&Type>,
    original: &Type,
    actual: &Type,
    path: &[PathElement],
) -> Vec<Mismatch> {
    let Some(inner) = inner else { return Vec::new() };
    if matches!(actual, Type::Undef) {
        return Vec::new();
    }
    let original = if matches!(original, Type::Alias(_)) { original } else { expected };
    internal_describe(inner, original, actual, path)
}

/// The name of a struct element (`PStructElement#name`).
fn element_name(e: &StructElement) -> String {
    crate::display::struct_key_name(&e.key_type).unwrap_or_default().to_owned()
}

/// Whether a type accepts `undef` (an optional struct key, an optional block).
fn accepts_undef(t: &Type) -> bool {
    match t.resolved() {
        Type::Optional(_) | Type::Undef | Type::Any => true,
        Type::Variant(ref ts) => ts.iter().any(accepts_undef),
        _ => false,
    }
}

/// `Integer[required keys, all keys]` of a Struct.
fn struct_size(elements: &[StructElement]) -> Size {
    let required = elements.iter().filter(|e| !accepts_undef(&e.key_type)).count();
    Size::new(len_i64(required), Some(len_i64(elements.len())))
}

/// `describe_PStructType`: against a Struct, missing and unrecognized keys and each entry's
/// key and value; against a Hash, its size or the whole type.
fn describe_struct(elements: &[StructElement], original: &Type, actual: &Type, path: &[PathElement]) -> Vec<Mismatch> {
    match actual {
        Type::Struct(actual_elements) => {
            let mut h2: IndexMap<String, &StructElement> =
                actual_elements.iter().map(|e| (element_name(e), e)).collect();
            let mut descriptions = Vec::new();
            for e1 in elements {
                let key = element_name(e1);
                match h2.shift_remove(&key) {
                    None => {
                        if !accepts_undef(&e1.key_type) {
                            descriptions.push(Mismatch::new(path, Kind::MissingKey(key)));
                        }
                    }
                    Some(e2) => {
                        if !is_assignable(&e1.key_type, &e2.key_type) {
                            let p = with(path, PathElement::EntryKey(key.clone()));
                            descriptions.extend(describe(&e1.key_type, &e2.key_type, &p));
                        }
                        if !is_assignable(&e1.value_type, &e2.value_type) {
                            let p = with(path, PathElement::EntryValue(key));
                            descriptions.extend(describe(&e1.value_type, &e2.value_type, &p));
                        }
                    }
                }
            }
            for key in h2.keys() {
                descriptions.push(Mismatch::new(path, Kind::ExtraneousKey(key.clone())));
            }
            descriptions
        }
        Type::Hash { key, value, size } => {
            let actual_size = Size::or_any(size.as_ref());
            let expected_size = struct_size(elements);
            if expected_size.covers(&actual_size) {
                vec![Mismatch::type_mismatch(path, original, &unsized_hash(key, value))]
            } else {
                vec![Mismatch::size_mismatch(path, expected_size, actual_size, false)]
            }
        }
        _ => vec![Mismatch::type_mismatch(path, original, actual)],
    }
}

fn unsized_hash(key: &Option<Rc<Type>>, value: &Option<Rc<Type>>) -> Type {
    Type::Hash { key: key.clone(), value: value.clone(), size: None }
}

/// `describe_PHashType`: against a Struct, its size and each entry's key and value; against
/// a Hash, its size or the whole type.
fn describe_hash(
    key: Option<&Type>,
    value: Option<&Type>,
    size: Option<&Size>,
    original: &Type,
    actual: &Type,
    path: &[PathElement],
) -> Vec<Mismatch> {
    let key_type_default = Type::Any;
    let key_type = key.unwrap_or(&key_type_default);
    let value_type_default = Type::Any;
    let value_type = value.unwrap_or(&value_type_default);
    match actual {
        Type::Struct(elements) => {
            let expected_size = Size::or_any(size);
            let actual_size = struct_size(elements);
            if !expected_size.covers(&actual_size) {
                return vec![Mismatch::size_mismatch(path, expected_size, actual_size, false)];
            }
            let mut descriptions = Vec::new();
            for a in elements.iter() {
                let name = element_name(a);
                if !is_assignable(key_type, &a.key_type) {
                    descriptions.extend(describe(
                        key_type,
                        &a.key_type,
                        &with(path, PathElement::EntryKey(name.clone())),
                    ));
                }
                if !is_assignable(value_type, &a.value_type) {
                    descriptions.extend(describe(
                        value_type,
                        &a.value_type,
                        &with(path, PathElement::EntryValue(name)),
                    ));
                }
            }
            descriptions
        }
        Type::Hash { key: ak, value: av, size: asize } => {
            let actual_size = Size::or_any(asize.as_ref());
            match size {
                Some(es) if !es.covers(&actual_size) => {
                    vec![Mismatch::size_mismatch(path, es.clone(), actual_size, false)]
                }
                _ => vec![Mismatch::type_mismatch(path, original, &unsized_hash(ak, av))],
            }
        }
        _ => vec![Mismatch::type_mismatch(path, original, actual)],
    }
}

/// `describe_PArrayType`: against a Tuple, its size and each element; against an Array, its
/// size or the whole type.
fn describe_array(
    element: Option<&Type>,
    size: Option<&Size>,
    original: &Type,
    actual: &Type,
    path: &[PathElement],
) -> Vec<Mismatch> {
    let element_type_default = Type::Any;
    let element_type = element.unwrap_or(&element_type_default);
    match actual {
        Type::Tuple { types, size: asize } => {
            let expected_size = Size::or_any(size);
            let actual_size = Size::or_exact(asize.as_ref(), types.len());
            if !expected_size.covers(&actual_size) {
                return vec![Mismatch::size_mismatch(path, expected_size, actual_size, false)];
            }
            let mut descriptions = Vec::new();
            for (idx, t) in types.iter().enumerate() {
                if !is_assignable(element_type, t) {
                    descriptions.extend(describe(element_type, t, &with(path, PathElement::Index(idx))));
                }
            }
            descriptions
        }
        Type::Array { element: ae, size: asize } => {
            let actual_size = Size::or_any(asize.as_ref());
            match size {
                Some(es) if !es.covers(&actual_size) => {
                    vec![Mismatch::size_mismatch(path, es.clone(), actual_size, false)]
                }
                _ => vec![Mismatch::type_mismatch(path, original, &Type::Array { element: ae.clone(), size: None })],
            }
        }
        _ => vec![Mismatch::type_mismatch(path, original, actual)],
    }
}

/// `describe_tuple` (`describe_PTupleType`, and `describe_argument_tuple` with `count` for
/// a Callable's parameters): the size, then each element against the type at its index
/// (the last type for the repeated rest).
fn describe_tuple(expected: &Type, original: &Type, actual: &Type, path: &[PathElement], count: bool) -> Vec<Mismatch> {
    let Type::Tuple { types: etypes, size: esize } = expected else {
        return vec![Mismatch::type_mismatch(path, original, actual)];
    };
    if expected == actual || (etypes.is_empty() && matches!(actual, Type::Array { .. })) {
        return Vec::new();
    }
    let expected_size = Size::of_tuple(esize.as_ref(), etypes.len());
    match actual {
        Type::Tuple { types: atypes, size: asize } => {
            let actual_size = Size::of_tuple(asize.as_ref(), atypes.len());
            if !expected_size.covers(&actual_size) {
                return vec![Mismatch::size_mismatch(path, expected_size, actual_size, count)];
            }
            let mut descriptions = Vec::new();
            if let Some(last) = etypes.len().checked_sub(1) {
                for (index, atype) in atypes.iter().enumerate() {
                    let adx = index.min(last);
                    if let Some(et) = etypes.get(adx) {
                        descriptions.extend(describe(et, atype, &with(path, PathElement::Index(adx))));
                    }
                }
            }
            descriptions
        }
        Type::Array { element, size: asize } => {
            let element_default = Type::Any;
            let element = element.as_deref().unwrap_or(&element_default);
            let actual_size = Size::or_any(asize.as_ref());
            if !expected_size.covers(&actual_size) {
                return vec![Mismatch::size_mismatch(path, expected_size, actual_size, count)];
            }
            let mut descriptions = Vec::new();
            for (index, et) in etypes.iter().enumerate() {
                descriptions.extend(describe(et, element, &with(path, PathElement::Index(index))));
            }
            descriptions
        }
        _ => vec![Mismatch::type_mismatch(path, original, actual)],
    }
}

/// `Tuple` (any number of anything): what a Callable without parameter types takes.
fn default_tuple() -> Type {
    Type::Tuple { types: Rc::from(Vec::new()), size: None }
}

/// `describe_PCallableType`: the parameters (as argument counts and types), then the return
/// type, then the block.
fn describe_callable(c: &CallableType, original: &Type, actual: &Type, path: &[PathElement]) -> Vec<Mismatch> {
    let Type::Callable(ac) = actual else {
        return vec![Mismatch::type_mismatch(path, original, actual)];
    };
    if c.params.is_none() && c.return_type.is_none() {
        return Vec::new();
    }
    let eparams = c.params.as_deref().cloned().unwrap_or_else(default_tuple);
    let aparams = ac.params.as_deref().cloned().unwrap_or_else(default_tuple);
    let param_errors = describe_tuple(&eparams, &eparams, &aparams, path, true);
    if !param_errors.is_empty() {
        return param_errors;
    }
    let this_return_default = Type::Any;
    let this_return = c.return_type.as_deref().unwrap_or(&this_return_default);
    let that_return_default = Type::Any;
    let that_return = ac.return_type.as_deref().unwrap_or(&that_return_default);
    if !is_assignable(this_return, that_return) {
        return vec![Mismatch::type_mismatch(&with(path, PathElement::Return), this_return, that_return)];
    }
    let this_block_default = Type::Undef;
    let this_block = c.block.as_deref().unwrap_or(&this_block_default);
    let that_block_default = Type::Undef;
    let that_block = ac.block.as_deref().unwrap_or(&that_block_default);
    if is_assignable(that_block, this_block) {
        Vec::new()
    } else {
        vec![Mismatch::type_mismatch(&with(path, PathElement::Block), this_block, that_block)]
    }
}

/// `describe_PAnyType`: a type mismatch unless `actual` is assignable.
fn describe_any(expected: &Type, original: &Type, actual: &Type, path: &[PathElement]) -> Vec<Mismatch> {
    if is_assignable(expected, actual) {
        Vec::new()
    } else {
        vec![Mismatch::type_mismatch(path, original, actual)]
    }
}

// ---------------------------------------------------------------------------------------
// Signatures (describe_signatures)
// ---------------------------------------------------------------------------------------

/// The block given to a call, as far as the describer knows it.
enum BlockArg {
    None,
    /// A block whose signature is not known: taken to fit any block parameter.
    Unknown,
    Typed(Type),
}

/// The message of a call to `name` whose arguments match none of `signatures`
/// (`TypeMismatchDescriber#describe_signatures`), with `block` telling whether a block
/// (lambda) was given. The evaluator prefixes `Error while evaluating a Function Call, `.
///
/// - one problem: `'split' expects 2 arguments, got 1`,
///   `'split' parameter 'str' expects a String value, got Integer`, `'each' expects a block`;
///   the same problem in every signature is reported once, merged
///   (`'f' parameter 'x' expects a value of type Integer or String, got Boolean`);
/// - several problems, one signature: `'f' expects (String a, Integer b)` followed by lines
///   `  rejected: ...`;
/// - several signatures: `The function 'f' was called with arguments it does not accept. It
///   expects one of:` followed by each signature `  (String str, Integer n?)` and its
///   `    rejected: ...` lines.
///
/// `name` `lambda` is reported as `block`. A block given here is taken to fit any block
/// parameter; use [`describe_signatures_with_block`] to check it against the signatures'
/// block types.
pub fn describe_signatures(name: &str, signatures: &[Signature], args: &[Value], block: bool) -> String {
    let block = if block { BlockArg::Unknown } else { BlockArg::None };
    signatures_message(name, signatures, args, block)
}

/// [`describe_signatures`] with the block given as a value (a `Value::Callable` whose
/// signature is checked against the signatures' block types: `'map' block expects between 1
/// and 2 arguments, got 3`).
pub fn describe_signatures_with_block(
    name: &str,
    signatures: &[Signature],
    args: &[Value],
    block: Option<&Value>,
) -> String {
    let block = match block {
        Some(b) => BlockArg::Typed(infer_set(b)),
        None => BlockArg::None,
    };
    signatures_message(name, signatures, args, block)
}

/// The arguments' types, as `infer_set(args + [block])` gives them: `None` for no arguments
/// at all (Puppet's empty `Array[Unit, 0, 0]`), else each argument's type (a block last).
struct ArgTypes<'a> {
    types: Option<Vec<Type>>,
    block_unknown: bool,
    /// The arguments themselves, for the signatures whose parameters have checks.
    values: &'a [Value],
}

fn arg_types(args: &[Value], block: BlockArg) -> ArgTypes<'_> {
    let mut types: Vec<Type> = args.iter().map(infer_set).collect();
    let block_unknown = matches!(block, BlockArg::Unknown);
    match block {
        BlockArg::None => {}
        BlockArg::Unknown => {
            types.push(Type::Callable(Rc::new(CallableType { params: None, block: None, return_type: None })))
        }
        BlockArg::Typed(t) => types.push(t),
    }
    ArgTypes { types: if types.is_empty() { None } else { Some(types) }, block_unknown, values: args }
}

fn signatures_message(name: &str, signatures: &[Signature], args: &[Value], block: BlockArg) -> String {
    let args = arg_types(args, block);
    let mut error_arrays: Vec<Vec<Mismatch>> = signatures
        .iter()
        .enumerate()
        .map(|(i, s)| describe_signature_arguments(s, &args, &[PathElement::Signature(i)]))
        .collect();
    if !error_arrays.iter().all(|a| !a.is_empty()) {
        let block_arrays: Vec<Vec<Mismatch>> = signatures
            .iter()
            .enumerate()
            .map(|(i, s)| describe_signature_block(s, &args, &[PathElement::Signature(i)]))
            .collect();
        let bc_count = block_arrays.iter().filter(|a| !a.is_empty()).count();
        if bc_count == block_arrays.len() {
            error_arrays = block_arrays;
        } else if bc_count > 0 {
            for (a, b) in error_arrays.iter_mut().zip(block_arrays) {
                if a.is_empty() {
                    *a = b;
                }
            }
        }
    }
    if error_arrays.is_empty() {
        return String::new();
    }
    let label = if name == "lambda" { "block".to_owned() } else { format!("'{name}'") };
    let errors = merge_descriptions(0, Class::Count, &error_arrays);
    if let [one] = errors.as_slice() {
        return format!("{label}{}", one.format());
    }
    let mut lines = Vec::new();
    if let [sig] = signatures {
        lines.push(format!("{label} expects ({})", signature_string(sig)));
        for e in error_arrays.first().into_iter().flatten() {
            lines.push(format!("  rejected:{}", e.chop_path(0).format()));
        }
    } else {
        lines.push(format!("The function {label} was called with arguments it does not accept. It expects one of:"));
        for (sig, errors) in signatures.iter().zip(&error_arrays) {
            lines.push(format!("  ({})", signature_string(sig)));
            for e in errors {
                lines.push(format!("    rejected:{}", e.chop_path(0).format()));
            }
        }
    }
    lines.join("\n")
}

/// `kind_of_callable?`: a Callable, an Optional Callable, a Variant of them.
fn kind_of_callable(t: &Type) -> bool {
    match t {
        Type::Callable(_) => true,
        Type::Optional(Some(x)) => kind_of_callable(x),
        Type::Variant(ts) => ts.iter().all(kind_of_callable),
        Type::Alias(_) => kind_of_callable(&t.resolved()),
        _ => false,
    }
}

/// `describe_signature_arguments`: the argument count, then each argument (a callable last
/// argument is the block, not counted).
fn describe_signature_arguments(sig: &Signature, args: &ArgTypes<'_>, path: &[PathElement]) -> Vec<Mismatch> {
    let (ptypes, params_size) = sig.param_types();
    match &args.types {
        None => {
            let atypes = vec![Type::Unit; ptypes.len()];
            describe_no_block_arguments(sig, &atypes, &[], path, params_size, Size::exact(0), atypes.len())
        }
        Some(types) => {
            let n = if types.last().is_some_and(kind_of_callable) { types.len() - 1 } else { types.len() };
            describe_no_block_arguments(sig, types, args.values, path, params_size, Size::exact(len_i64(n)), n)
        }
    }
}

/// `describe_signature_block`: a block given where none is taken, a required block missing,
/// or a block of the wrong type.
fn describe_signature_block(sig: &Signature, args: &ArgTypes<'_>, path: &[PathElement]) -> Vec<Mismatch> {
    let arg_block = args.types.as_ref().and_then(|t| t.last()).filter(|t| kind_of_callable(t));
    match (arg_block, &sig.block) {
        (Some(_), None) => vec![Mismatch::new(path, Kind::UnexpectedBlock)],
        (Some(_), Some(_)) if args.block_unknown => Vec::new(),
        (Some(given), Some(param)) => describe(param, given, &with(path, PathElement::Block)),
        (None, Some(param)) if !accepts_undef(param) => vec![Mismatch::new(path, Kind::MissingRequiredBlock)],
        (None, _) => Vec::new(),
    }
}

/// `describe_no_block_arguments`: a count mismatch, or the first argument that does not fit
/// its parameter (by the parameter's check, where it has one: [`Signature::checks`]).
fn describe_no_block_arguments(
    sig: &Signature,
    atypes: &[Type],
    values: &[Value],
    path: &[PathElement],
    expected_size: Size,
    actual_size: Size,
    arg_count: usize,
) -> Vec<Mismatch> {
    if !expected_size.covers(&actual_size) {
        return vec![Mismatch::size_mismatch(path, expected_size, actual_size, true)];
    }
    let (etypes, _) = sig.param_types();
    let Some(last) = etypes.len().checked_sub(1) else { return Vec::new() };
    for (index, atype) in atypes.iter().take(arg_count).enumerate() {
        let adx = index.min(last);
        let Some(etype) = etypes.get(adx) else { continue };
        let fits = match (sig.checks.get(adx), values.get(index)) {
            (Some(check), Some(value)) => check(value),
            _ => is_assignable(etype, atype),
        };
        if !fits {
            let name = sig.names.get(adx).cloned().unwrap_or_default();
            let d = describe(etype, atype, &with(path, PathElement::Parameter(name)));
            if !d.is_empty() {
                return d;
            }
        }
    }
    Vec::new()
}

/// `signature_string`: `String str, Integer n?, Any *rest, Callable[1, 1] block` (`?` for an
/// optional parameter, shown without its `Optional`; `*` or `+` for a repeated last one).
fn signature_string(sig: &Signature) -> String {
    let (types, size) = sig.param_types();
    if size == Size::exact(0) {
        return String::new();
    }
    let names: Vec<String> = if sig.names.is_empty() { vec![String::new(); types.len()] } else { sig.names.clone() };
    let limit = names.len();
    let mut parts = Vec::with_capacity(limit);
    for (index, name) in names.iter().enumerate() {
        let Some(mut t) = types.get(index).or(types.last()) else { continue };
        let mut indicator = "";
        if size.to.is_none() && index + 1 == limit {
            indicator = if size.from == len_i64(limit) { "+" } else { "*" };
        } else if size.from < len_i64(index + 1) {
            indicator = "?";
            if let Type::Optional(Some(inner)) = t {
                t = inner;
            }
        }
        parts.push(format!("{} {name}{indicator}", type_to_s(t)));
    }
    let mut result = parts.join(", ");
    match &sig.block {
        Some(Type::Optional(inner)) => {
            if !result.is_empty() {
                result.push_str(", ");
            }
            let inner = inner.as_deref().map(type_to_s).unwrap_or_default();
            result.push_str(&format!("{inner} {}?", sig.block_name));
        }
        Some(b @ Type::Callable(_)) => {
            if !result.is_empty() {
                result.push_str(", ");
            }
            result.push_str(&format!("{} {}", type_to_s(b), sig.block_name));
        }
        _ => {}
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::literal::{self, Reader};
    use crate::value::Callable;

    fn ty(src: &str) -> Type {
        match literal::read(src) {
            Ok(Value::Type(ref t)) => (**t).clone(),
            other => panic!("{src}: {other:?}"),
        }
    }

    fn val(src: &str) -> Value {
        literal::read(src).unwrap_or_else(|e| panic!("{src}: {e}"))
    }

    fn assert_msg(t: &str, v: &str) -> String {
        assert_type_message(&ty(t), &val(v))
    }

    #[test]
    fn scalars() {
        assert_eq!(assert_msg("Integer", "'a'"), "assert_type(): expects an Integer value, got String");
        assert_eq!(assert_msg("Integer", "undef"), "assert_type(): expects an Integer value, got Undef");
        assert_eq!(
            assert_msg("Integer[1, 10]", "11"),
            "assert_type(): expects an Integer[1, 10] value, got Integer[11, 11]"
        );
        assert_eq!(assert_msg("Integer[1, 10]", "'a'"), "assert_type(): expects an Integer value, got String");
        assert_eq!(assert_msg("String[1, 2]", "'abc'"), "assert_type(): expects a String[1, 2] value, got String");
        assert_eq!(assert_msg("Integer", "Integer"), "assert_type(): expects an Integer value, got Type[Integer]");
        assert_eq!(assert_msg("Integer", "[1]"), "assert_type(): expects an Integer value, got Tuple");
        assert_eq!(assert_msg("URI", "'x'"), "assert_type(): expects an URI value, got String");
        assert_eq!(assert_msg("Integer", "1"), "");
    }

    #[test]
    fn patterns_optional_variants() {
        assert_eq!(assert_msg("Enum['a', 'b']", "'c'"), "assert_type(): expects a match for Enum['a', 'b'], got 'c'");
        assert_eq!(assert_msg("Pattern[/a/]", "1"), "assert_type(): expects a match for Pattern[/a/], got Integer");
        assert_eq!(
            assert_msg("Optional[Enum['a', 'b']]", "'c'"),
            "assert_type(): expects an undef value or a match for Enum['a', 'b'], got 'c'"
        );
        assert_eq!(
            assert_msg("Optional[Integer]", "'a'"),
            "assert_type(): expects a value of type Undef or Integer, got String"
        );
        assert_eq!(
            assert_msg("Variant[Integer, String, Boolean]", "1.5"),
            "assert_type(): expects a value of type Integer, String, or Boolean, got Float"
        );
        assert_eq!(
            assert_msg("Variant[Integer[1, 2], Integer[5, 6]]", "3"),
            "assert_type(): expects a value of type Integer[1, 2] or Integer[5, 6], got Integer[3, 3]"
        );
        assert_eq!(
            assert_msg("Variant[Enum['a'], Integer]", "true"),
            "assert_type(): expects a match for Variant[Enum['a'], Integer], got Boolean"
        );
        assert_eq!(
            assert_msg("Variant[Array[Integer, 2], Array[String, 3]]", "[1]"),
            "assert_type(): expects size to be at least 2, got 1"
        );
        assert_eq!(
            assert_msg("Variant[Tuple[Integer], Tuple[String]]", "[true]"),
            "assert_type(): index 0 expects a value of type Integer or String, got Boolean"
        );
    }

    #[test]
    fn containers() {
        assert_eq!(
            assert_msg("Struct[{a => Integer}]", "{a => 'x'}"),
            "assert_type(): entry 'a' expects an Integer value, got String"
        );
        assert_eq!(
            assert_msg("Struct[{a => Integer, b => String}]", "{a => 'x', b => 1}"),
            " assert_type(): entry 'a' expects an Integer value, got String\n  assert_type(): entry 'b' expects a String value, got Integer"
        );
        assert_eq!(
            assert_msg("Struct[{a => Integer}]", "{b => 1}").lines().next(),
            Some(" assert_type(): expects a value for key 'a'")
        );
        assert_eq!(assert_msg("Struct[{a => Integer}]", "{a => 1, b => 1}"), "assert_type(): unrecognized key 'b'");
        assert_eq!(assert_msg("Struct[{a => Integer}]", "{}"), "assert_type(): expects size to be 1, got 0");
        assert_eq!(
            assert_msg("Struct[{a => Integer}]", "{1 => 1}"),
            "assert_type(): expects a Struct[{'a' => Integer}] value, got Hash[Integer[1, 1], Integer[1, 1]]"
        );
        assert_eq!(
            assert_msg("Tuple[Integer, String]", "[1, 2]"),
            "assert_type(): index 1 expects a String value, got Integer"
        );
        assert_eq!(assert_msg("Tuple[Integer, String]", "[1]"), "assert_type(): expects size to be 2, got 1");
        assert_eq!(
            assert_msg("Array[Integer, 1, 2]", "[1, 2, 3]"),
            "assert_type(): expects size to be between 1 and 2, got 3"
        );
        assert_eq!(
            assert_msg("Array[Array[Integer]]", "[[1], ['a']]"),
            "assert_type(): index 1 index 0 expects an Integer value, got String"
        );
        assert_eq!(
            assert_msg("Hash[Integer, Integer]", "{a => 1}"),
            "assert_type(): key of entry 'a' expects an Integer value, got String"
        );
        assert_eq!(
            assert_msg("Hash[String, Integer]", "{1 => 'a'}"),
            "assert_type(): expects a Hash[String, Integer] value, got Hash[Integer[1, 1], String]"
        );
        assert_eq!(
            assert_msg("Data", "[/x/]").lines().next(),
            Some(" assert_type(): variant 0 expects a ScalarData value, got Tuple")
        );
    }

    #[test]
    fn subjects() {
        assert_eq!(
            describe_value("parameter 'x'", &Type::INTEGER, &Value::from("a")),
            "parameter 'x' expects an Integer value, got String"
        );
    }

    #[test]
    fn ranges() {
        let r = Size::new;
        assert_eq!(range_to_s(&r(0, Some(0)), "no"), "no");
        assert_eq!(range_to_s(&r(2, Some(2)), "no"), "2");
        assert_eq!(range_to_s(&r(0, None), "no"), "unlimited");
        assert_eq!(range_to_s(&r(0, Some(3)), "no"), "at most 3");
        assert_eq!(range_to_s(&r(2, None), "no"), "at least 2");
        assert_eq!(range_to_s(&r(1, Some(3)), "no"), "between 1 and 3");
    }

    fn params(types: &[&str], from: i64, to: Option<i64>) -> Type {
        Type::Tuple { types: types.iter().map(|t| ty(t)).collect(), size: Some(Size::new(from, to)) }
    }

    fn type_function() -> Vec<Signature> {
        vec![
            Signature::new(&["value", "inference_method"], params(&["Any", "Enum[detailed]"], 1, Some(2))),
            Signature::new(&["value", "inference_method"], params(&["Any", "Enum[reduced]"], 2, Some(2))),
            Signature::new(&["value", "inference_method"], params(&["Any", "Enum[generalized]"], 2, Some(2))),
        ]
    }

    #[test]
    fn signatures_merge() {
        let sigs = type_function();
        assert_eq!(
            describe_signatures("type", &sigs, &[val("1"), val("'foo'")], false),
            "'type' parameter 'inference_method' expects a match for Enum['detailed', 'generalized', 'reduced'], got 'foo'"
        );
        assert_eq!(
            describe_signatures("type", &sigs, &[val("1"), val("undef")], false),
            "'type' parameter 'inference_method' expects a match for Enum['detailed', 'generalized', 'reduced'], got Undef"
        );
        assert_eq!(
            describe_signatures("type", &sigs, &[], false),
            "'type' expects between 1 and 2 arguments, got none"
        );
        assert_eq!(
            describe_signatures("type", &sigs, &[val("1"), val("'reduced'"), val("3")], false),
            "'type' expects between 1 and 2 arguments, got 3"
        );
    }

    #[test]
    fn signatures_single() {
        let split = vec![
            Signature::new(&["str", "pattern"], params(&["String", "String"], 2, Some(2))),
            Signature::new(&["str", "pattern"], params(&["String", "Regexp"], 2, Some(2))),
            Signature::new(&["str", "pattern"], params(&["String", "Type[Regexp]"], 2, Some(2))),
        ];
        assert_eq!(
            describe_signatures("split", &split, &[val("1"), val("2")], false),
            "'split' parameter 'str' expects a String value, got Integer"
        );
        assert_eq!(describe_signatures("split", &split, &[val("'a'")], false), "'split' expects 2 arguments, got 1");
        let f = vec![Signature::new(&[], params(&[], 0, Some(0)))];
        assert_eq!(describe_signatures("f", &f, &[val("1")], false), "'f' expects no arguments, got 1");
        let f = vec![Signature::new(&["x"], params(&["Integer"], 1, Some(1)))];
        assert_eq!(describe_signatures("f", &f, &[val("1")], true), "'f' does not expect a block");
        let r = vec![Signature::new(&["x", "r"], params(&["Integer", "String"], 1, None))];
        assert_eq!(
            describe_signatures("f", &r, &[val("1"), val("2"), val("'a'")], false),
            "'f' parameter 'r' expects a String value, got Integer"
        );
        assert_eq!(
            describe_signatures("lambda", &r, &[val("1"), val("2")], false),
            "block parameter 'r' expects a String value, got Integer"
        );
    }

    #[test]
    fn signatures_list() {
        let mut reader = Reader::default();
        reader.alias_type("Base64Format", ty("Enum['%b', '%u', '%B', '%s', '%r']"));
        reader.alias_type("ByteInteger", ty("Integer[0, 255]"));
        let rty = |s: &str| match reader.read(s) {
            Ok(Value::Type(ref t)) => (**t).clone(),
            other => panic!("{s}: {other:?}"),
        };
        let tuple = |ts: Vec<Type>, from, to| Type::Tuple { types: ts.into(), size: Some(Size::new(from, Some(to))) };
        let sigs = vec![
            Signature::new(&["str", "format"], tuple(vec![rty("String"), rty("Base64Format")], 1, 2)),
            Signature::new(&["byte_array"], tuple(vec![rty("Array[ByteInteger]")], 1, 1)),
        ];
        let expected = "The function 'new_Binary' was called with arguments it does not accept. It expects one of:\n  \
            (String str, Base64Format = Enum['%B', '%b', '%r', '%s', '%u'] format?)\n    \
            rejected: parameter 'str' expects a String value, got Integer\n  \
            (Array[ByteInteger] byte_array)\n    \
            rejected: parameter 'byte_array' expects an Array value, got Integer";
        assert_eq!(describe_signatures("new_Binary", &sigs, &[val("1")], false), expected);
        let one = vec![Signature::new(&["a", "b"], tuple(vec![rty("Integer"), rty("Struct[{x => Integer}]")], 2, 2))];
        // a single type mismatch wins over the other kinds (merge_descriptions)
        assert_eq!(
            describe_signatures("f", &one, &[val("1"), val("{x => 'a', y => 1}")], false),
            "'f' parameter 'b' entry 'x' expects an Integer value, got String"
        );
        assert_eq!(
            describe_signatures("f", &one, &[val("1"), val("{y => 1}")], false),
            "'f' expects (Integer a, Struct[{'x' => Integer}] b)\n  rejected: parameter 'b' expects a value for key 'x'\n  rejected: parameter 'b' unrecognized key 'y'"
        );
        let arr = vec![Signature::new(&["a", "b"], tuple(vec![rty("Integer"), rty("Array[String]")], 2, 2))];
        assert_eq!(
            describe_signatures("f", &arr, &[val("1"), val("[1, 2]")], false),
            "'f' expects (Integer a, Array[String] b)\n  rejected: parameter 'b' index 0 expects a String value, got Integer\n  rejected: parameter 'b' index 1 expects a String value, got Integer"
        );
    }

    struct Lambda(Type);

    impl Callable for Lambda {
        fn signature(&self) -> Type {
            self.0.clone()
        }
        fn name(&self) -> &str {
            "lambda"
        }
        fn identity(&self) -> usize {
            0
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
    }

    #[test]
    fn blocks() {
        let callable = |n: usize| ty(&format!("Callable[{n}, {n}]"));
        let map = vec![
            Signature::new(&["hash"], params(&["Hash[Any, Any]"], 1, Some(1))).with_block(callable(2), "block"),
            Signature::new(&["hash"], params(&["Hash[Any, Any]"], 1, Some(1))).with_block(callable(1), "block"),
            Signature::new(&["enumerable"], params(&["Iterable"], 1, Some(1))).with_block(callable(2), "block"),
            Signature::new(&["enumerable"], params(&["Iterable"], 1, Some(1))).with_block(callable(1), "block"),
        ];
        let three = Value::Callable(Rc::new(Lambda(ty("Callable[Any, Any, Any]"))));
        assert_eq!(
            describe_signatures_with_block("map", &map, &[val("[1]")], Some(&three)),
            "'map' block expects between 1 and 2 arguments, got 3"
        );
        assert_eq!(describe_signatures("map", &map, &[val("[1]")], false), "'map' expects a block");
        assert_eq!(signature_string(&map[0]), "Hash hash, Callable[2, 2] block");
        let one = Value::Callable(Rc::new(Lambda(ty("Callable[Any]"))));
        let sigs = crate::assert_type::assert_type_signatures();
        let e = crate::dispatch::select_signature("assert_type", &sigs, &[val("Integer"), val("'a'")], Some(&one));
        assert_eq!(e.map_err(|e| e.message), Err("'assert_type' block expects 2 arguments, got 1".into()));
        let opt =
            Signature::new(&["x"], params(&["Integer"], 1, Some(1))).with_block(ty("Optional[Callable[1, 1]]"), "blk");
        assert_eq!(signature_string(&opt), "Integer x, Callable[1, 1] blk?");
    }

    #[test]
    fn signature_strings() {
        let s = Signature::new(&["a", "b", "c"], params(&["String", "Optional[Integer]", "Any"], 1, None));
        assert_eq!(signature_string(&s), "String a, Integer b?, Any c*");
        let s = Signature::new(&["a"], params(&["String"], 1, None));
        assert_eq!(signature_string(&s), "String a+");
        let s = Signature::new(&[], params(&[], 0, Some(0)));
        assert_eq!(signature_string(&s), "");
    }

    #[test]
    fn parameters() {
        let p = ty("Struct[{x => Integer, Optional[y] => String}]");
        let h = |src: &str| match val(src) {
            Value::Hash(ref h) => (*h).clone(),
            other => panic!("{other:?}"),
        };
        let e = validate_parameters("Class[Foo]", &p, &h("{x => 'a'}"), false).map_err(|e| e.message);
        assert_eq!(e, Err("Class[Foo]: parameter 'x' expects an Integer value, got String".to_owned()));
        let e = validate_parameters("Class[Foo]", &p, &h("{z => 1}"), false).map_err(|e| e.message);
        assert_eq!(e, Err("Class[Foo]:\n  has no parameter named 'z'\n  expects a value for parameter 'x'".to_owned()));
        assert!(validate_parameters("Class[Foo]", &p, &h("{z => 1}"), true).is_err());
        assert!(validate_parameters("Class[Foo]", &p, &h("{x => 1}"), false).is_ok());
    }

    #[test]
    fn alias_expansion() {
        let inner = Type::Alias(TypeAlias::with_type("Inner", Type::INTEGER));
        let outer = Type::Alias(TypeAlias::with_type("Outer", Type::array_of(inner.clone())));
        assert_eq!(alias_expanded_s(&outer), "Outer = Array[Inner = Integer]");
        assert_eq!(type_to_s(&Type::array_of(inner)), "Array[Inner]");
        let rec = TypeAlias::new("Tree");
        rec.resolve_to(Type::array_of(Type::Alias(rec.clone())));
        assert_eq!(alias_expanded_s(&Type::Alias(rec)), "Tree = Array[Tree]");
    }

    #[test]
    fn deep_types_do_not_overflow() {
        let mut t = Type::INTEGER;
        let mut v = Value::from("x");
        for _ in 0..400 {
            t = Type::array_of(t);
            v = Value::array(vec![v]);
        }
        let m = assert_type_message(&t, &v);
        assert!(m.contains("expects"), "{m}");
    }
}
