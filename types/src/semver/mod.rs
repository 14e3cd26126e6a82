//! `SemVer` and `SemVerRange`, with the semantics of Puppet's `SemanticPuppet` library
//! (semantic_puppet 1.0.4) and of `PSemVerType` / `PSemVerRangeType`:
//!
//! - [`version`]: `SemVer` values (parsing, precedence, printing);
//! - [`bound`] and [`range`]: `SemVerRange` values (the range grammar, inclusion,
//!   intersection and merging);
//! - this file: the `new` functions (`new_Version`, `new_VersionRange`) and what the
//!   `SemVer[ranges]` type asks of ranges (merging its parameters, coverage, `=~`);

pub mod bound;
pub mod range;
pub mod version;

pub use range::SemVerRange;
pub use version::{Ident, Num, SemVer};

use std::cmp::Ordering;
use std::rc::Rc;

use crate::error::{Error, Result};
use crate::ty::Type;
use crate::value::Value;

use crate::dispatch::{
    alias, entry, get, hash_with_keys, pattern, string_sized, Dispatch, Dispatcher, Selected, Signature,
};

// ---- SemVer.new ------------------------------------------------------------------------

/// `REGEX_FULL`, Puppet's `SemVerPattern`.
const SEMVER_PATTERN: &str = r"\A(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?\Z";
/// Puppet's `SemVerQualifier`.
const QUALIFIER_PATTERN: &str = r"\A(?<part>[0-9A-Za-z-]+)(?:\.\g<part>)*\Z";

fn positive_integer() -> Type {
    alias("PositiveInteger", Type::integer(Some(0), None))
}

fn qualifier_type() -> Type {
    alias("SemVerQualifier", pattern(QUALIFIER_PATTERN))
}

fn is_positive_integer(v: &Value) -> bool {
    matches!(v, Value::Integer(n) if *n >= 0)
}

/// `SemVerQualifier`: dot-separated `[0-9A-Za-z-]+` parts (and, as `\Z` allows, a final
/// line feed).
fn is_qualifier(v: &Value) -> bool {
    v.as_str().is_some_and(|s| version::is_parts(s.strip_suffix('\n').unwrap_or(s)))
}

fn is_semver_string(v: &Value) -> bool {
    v.as_str().is_some_and(SemVer::matches_pattern)
}

fn is_semver_hash(v: &Value) -> bool {
    let keys = ["major", "minor", "patch", "prerelease", "build"];
    let Some(h) = hash_with_keys(v, &keys, &keys[..3]) else { return false };
    keys[..3].iter().all(|k| get(h, k).is_some_and(is_positive_integer))
        && keys[3..].iter().all(|k| get(h, k).is_none_or(is_qualifier))
}

fn semver_hash_type() -> Type {
    let struct_type = Type::Struct(
        vec![
            entry("major", false, positive_integer()),
            entry("minor", false, positive_integer()),
            entry("patch", false, positive_integer()),
            entry("prerelease", true, qualifier_type()),
            entry("build", true, qualifier_type()),
        ]
        .into(),
    );
    alias("SemVerHash", struct_type)
}

/// The dispatches of `new_Version` (`PSemVerType.new_function`). Their checks decide
/// what the types say, where the types' Ruby regexps (`\g<part>`) cannot run here.
fn semver_function() -> Dispatcher<u8> {
    Dispatcher {
        name: "new_Version",
        dispatches: vec![
            Dispatch::new(0).req_checked("str", alias("SemVerPattern", pattern(SEMVER_PATTERN)), is_semver_string),
            Dispatch::new(1)
                .req_checked("major", positive_integer(), is_positive_integer)
                .req_checked("minor", positive_integer(), is_positive_integer)
                .req_checked("patch", positive_integer(), is_positive_integer)
                .opt_checked("prerelease", qualifier_type(), is_qualifier)
                .opt_checked("build", qualifier_type(), is_qualifier),
            Dispatch::new(2).req_checked("hash_args", semver_hash_type(), is_semver_hash),
        ],
    }
}

thread_local! {
    static NEW_VERSION: Dispatcher<u8> = semver_function();
    static NEW_VERSION_RANGE: Dispatcher<u8> = range_function();
}

/// The signatures of `SemVer.new` (for `Init[SemVer]`).
pub(crate) fn semver_signatures() -> Vec<Signature> {
    NEW_VERSION.with(|f| f.signatures())
}

/// The signatures of `SemVerRange.new` (for `Init[SemVerRange]`).
pub(crate) fn range_signatures() -> Vec<Signature> {
    NEW_VERSION_RANGE.with(|f| f.signatures())
}

/// `SemVer.new(args...)` (the function `new_Version`):
///
/// | arguments                                        | version                           |
/// |--------------------------------------------------|-----------------------------------|
/// | `'1.2.3-rc.1+b'` (matching `SemVerPattern`)       | parsed                            |
/// | `major, minor, patch, prerelease?, build?`        | the qualifiers kept whole (`'rc.1'` is one identifier) |
/// | `{major, minor, patch, prerelease?, build?}`      | as the positional form            |
///
/// Another single string fails with `'new_Version' The string 'x' cannot be converted to a
/// SemVer`; a prerelease number with leading zeros with SemanticPuppet's message.
pub fn new_semver(args: &[Value]) -> Result<Value> {
    let index = match NEW_VERSION.with(|f| f.select(args)) {
        Ok(Selected::Call(index) | Selected::Mismatch(index)) => index,
        Err(_) if matches!(args, [Value::String(_)]) => {
            let s = args.first().and_then(Value::as_str).unwrap_or_default();
            return Err(Error::new(format!("'new_Version' The string '{s}' cannot be converted to a SemVer")));
        }
        Err(e) => return Err(e),
    };
    let v = match (index, args) {
        (0, [Value::String(s)]) => SemVer::parse(s).map_err(Error::new)?,
        (1, [major, minor, patch, rest @ ..]) => from_parts(major, minor, patch, rest.first(), rest.get(1)),
        (_, [Value::Hash(h)]) => {
            let undef = Value::Undef;
            let part = |k| get(h, k).unwrap_or(&undef);
            from_parts(part("major"), part("minor"), part("patch"), get(h, "prerelease"), get(h, "build"))
        }
        _ => return Err(NEW_VERSION.with(|f| f.no_match(args))),
    };
    Ok(Value::SemVer(Rc::new(v)))
}

/// `Version.new(major, minor, patch, [prerelease], [build])`: each qualifier is one
/// identifier.
fn from_parts(major: &Value, minor: &Value, patch: &Value, pre: Option<&Value>, build: Option<&Value>) -> SemVer {
    let num = |v: &Value| match v {
        Value::Integer(n) => Num::from_u64(u64::try_from(*n).unwrap_or(0)),
        _ => Num::zero(),
    };
    let qualifier = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    SemVer {
        major: num(major),
        minor: num(minor),
        patch: num(patch),
        prerelease: qualifier(pre).map(|p| vec![Ident::Str(p)]),
        build: qualifier(build).map(|b| vec![b]),
    }
}

// ---- SemVerRange.new -------------------------------------------------------------------

fn is_range_string(v: &Value) -> bool {
    v.as_str().is_some_and(|s| !s.is_empty())
}

fn is_version_or_default(v: &Value) -> bool {
    matches!(v, Value::Default | Value::SemVer(_))
}

fn is_boolean(v: &Value) -> bool {
    matches!(v, Value::Boolean(_))
}

fn version_or_default_type() -> Type {
    Type::variant(vec![Type::Default, Type::SemVer(Rc::from(Vec::new()))])
}

fn is_range_hash(v: &Value) -> bool {
    let Some(h) = hash_with_keys(v, &["min", "max", "exclude_max"], &["min"]) else { return false };
    get(h, "min").is_some_and(is_version_or_default)
        && get(h, "max").is_none_or(is_version_or_default)
        && get(h, "exclude_max").is_none_or(is_boolean)
}

fn range_hash_type() -> Type {
    let struct_type = Type::Struct(
        vec![
            entry("min", false, version_or_default_type()),
            entry("max", true, version_or_default_type()),
            entry("exclude_max", true, Type::Boolean(None)),
        ]
        .into(),
    );
    alias("SemVerRangeHash", struct_type)
}

/// The dispatches of `new_VersionRange` (`PSemVerRangeType.new_function`).
fn range_function() -> Dispatcher<u8> {
    Dispatcher {
        name: "new_VersionRange",
        dispatches: vec![
            Dispatch::new(0).req_checked("str", alias("SemVerRangeString", string_sized(1, None)), is_range_string),
            Dispatch::new(1)
                .req_checked("min", version_or_default_type(), is_version_or_default)
                .req_checked("max", version_or_default_type(), is_version_or_default)
                .opt_checked("exclude_max", Type::Boolean(None), is_boolean),
            Dispatch::new(2).req_checked("hash_args", range_hash_type(), is_range_hash),
        ],
    }
}

/// `SemVerRange.new(args...)` (the function `new_VersionRange`):
///
/// | arguments                                  | range                                  |
/// |--------------------------------------------|----------------------------------------|
/// | a non-empty string                         | parsed (see [`range`]), printing as given |
/// | `min, max, exclude_max?` (`default` is unbounded) | `>=min <=max` (`<max` when excluded) |
/// | `{min, max?, exclude_max?}`                | the same                               |
///
/// The range of two versions prints as SemanticPuppet makes it up: `max - min`, or
/// `>=max <min` when the end is excluded (the versions swapped, as in SemanticPuppet).
pub fn new_semver_range(args: &[Value]) -> Result<Value> {
    let (Selected::Call(index) | Selected::Mismatch(index)) = NEW_VERSION_RANGE.with(|f| f.select(args))?;
    let r = match (index, args) {
        (0, [Value::String(s)]) => SemVerRange::parse(s).map_err(Error::new)?,
        (1, [min, max, rest @ ..]) => from_versions(min, max, rest.first())?,
        (_, [Value::Hash(h)]) => {
            let default = Value::Default;
            let min = get(h, "min").unwrap_or(&default);
            from_versions(min, get(h, "max").unwrap_or(&default), get(h, "exclude_max"))?
        }
        _ => return Err(NEW_VERSION_RANGE.with(|f| f.no_match(args))),
    };
    Ok(Value::SemVerRange(Rc::new(r)))
}

/// `from_versions(min, max = :default, exclude_max = false)`.
fn from_versions(min: &Value, max: &Value, exclude_max: Option<&Value>) -> Result<SemVerRange> {
    let version = |v: &Value, default: SemVer| match v {
        Value::SemVer(s) => (**s).clone(),
        _ => default,
    };
    let exclude = matches!(exclude_max, Some(Value::Boolean(true)));
    SemVerRange::from_bounds(&version(min, SemVer::min()), &version(max, SemVer::max()), exclude).map_err(Error::new)
}

// ---- what the types ask of ranges -------------------------------------------------------

/// `PSemVerRangeType.include?(range, v)` (`=~` with a range on the right, and `in`): a
/// version, or a string that parses as one, in the range; anything else is false.
pub fn range_includes_value(range: &SemVerRange, v: &Value) -> bool {
    match v {
        Value::SemVer(ver) => range.includes(ver),
        Value::String(s) => SemVer::parse(s).is_ok_and(|ver| range.includes(&ver)),
        _ => false,
    }
}

/// `SemVer[ranges]` from its parameters (`PSemVerType#initialize`): strings are parsed,
/// and several ranges merged ([`merge_type_ranges`]).
pub fn semver_type_ranges(params: &[Value]) -> Result<Vec<SemVerRange>> {
    let mut ranges = Vec::with_capacity(params.len());
    for p in params {
        ranges.push(match p {
            Value::SemVerRange(r) => (**r).clone(),
            Value::String(s) => SemVerRange::parse(s).map_err(Error::new)?,
            other => {
                let t = crate::infer::infer_generalized(other);
                return Err(Error::new(format!(
                    "Cannot use {} where String or SemanticPuppet::VersionRange is expected",
                    t.name()
                )));
            }
        });
    }
    if ranges.len() > 1 {
        ranges = merge_type_ranges(ranges)?;
    }
    Ok(ranges)
}

/// `PSemVerType#merge_ranges`: repeatedly merges the last range with those it overlaps or
/// touches ([`merge_for_type`]); the result keeps the original order of what is left.
pub fn merge_type_ranges(mut ranges: Vec<SemVerRange>) -> Result<Vec<SemVerRange>> {
    let mut result = Vec::new();
    while let Some(x) = ranges.pop() {
        let mut unmerged = Vec::new();
        let mut memo = x;
        for y in ranges.drain(..) {
            match merge_for_type(&memo, &y)? {
                Some(merged) => memo = merged,
                None => unmerged.push(y),
            }
        }
        result.push(memo);
        ranges = unmerged;
    }
    result.reverse();
    Ok(result)
}

/// `PSemVerRangeType.merge(a, b)`: one range from the lower begin to the higher end when
/// the ranges overlap or are adjacent (it prints as [`SemVerRange::from_bounds`] makes it:
/// `SemVer['1.x', '2.x']` is `SemVer['>=3.0.0 <1.0.0']`). Ranges of several parts have no
/// begin or end (Ruby's `nil`), which fails as in Ruby when it is compared.
pub fn merge_for_type(a: &SemVerRange, b: &SemVerRange) -> Result<Option<SemVerRange>> {
    let (ab, ae, bb, be) = (a.begin(), a.end(), b.begin(), b.end());
    let overlap =
        a.includes_opt(bb.as_ref()).map_err(Error::new)? || b.includes_opt(ab.as_ref()).map_err(Error::new)?;
    if overlap {
        let max = ruby_max(ae.as_ref(), be.as_ref())?;
        let exclude_end = if a.exclude_end() == Some(true) {
            max == ae
                && (compare_op(max.as_ref(), be.as_ref(), ">")? == Ordering::Greater || b.exclude_end() == Some(true))
        } else if b.exclude_end() == Some(true) {
            max == be
                && (compare_op(max.as_ref(), ae.as_ref(), ">")? == Ordering::Greater || a.exclude_end() == Some(true))
        } else {
            false
        };
        let min = ruby_min(ab.as_ref(), bb.as_ref())?;
        return bounds(min, max, exclude_end).map(Some);
    }
    if a.exclude_end() == Some(true) && ae.is_some() && ae == bb {
        return bounds(ab, be, b.exclude_end() == Some(true)).map(Some);
    }
    if b.exclude_end() == Some(true) && be.is_some() && be == ab {
        return bounds(bb, ae, a.exclude_end() == Some(true)).map(Some);
    }
    Ok(None)
}

/// `VersionRange.new(min, max, exclude_end)` with Ruby's `nil` failing.
fn bounds(min: Option<SemVer>, max: Option<SemVer>, exclude_end: bool) -> Result<SemVerRange> {
    match (min, max) {
        (Some(min), Some(max)) => SemVerRange::from_bounds(&min, &max, exclude_end).map_err(Error::new),
        _ => Err(Error::new("undefined method `>' for nil:NilClass")),
    }
}

/// `PSemVerRangeType.covered_by?(a, b)`: whether `b` holds all of `a` (judged by their
/// begins and ends).
pub fn covered_by(a: &SemVerRange, b: &SemVerRange) -> Result<bool> {
    let (ab, ae, bb, be) = (a.begin(), a.end(), b.begin(), b.end());
    if compare_op(bb.as_ref(), ab.as_ref(), "<=")? == Ordering::Greater {
        return Ok(false);
    }
    if compare_op(be.as_ref(), ae.as_ref(), ">")? == Ordering::Greater {
        return Ok(true);
    }
    Ok(be == ae && (b.exclude_end() != Some(true) || a.exclude_end() == Some(true)))
}

/// `x OP y` for Comparable versions where either may be Ruby's `nil`: the ordering, or
/// Ruby's error (`nil` has no `OP`; a version does not compare with `nil`).
fn compare_op(x: Option<&SemVer>, y: Option<&SemVer>, op: &str) -> Result<Ordering> {
    match (x, y) {
        (None, _) => Err(Error::new(format!("undefined method `{op}' for nil:NilClass"))),
        (Some(_), None) => Err(Error::new("comparison of SemanticPuppet::Version with nil failed")),
        (Some(x), Some(y)) => Ok(x.cmp(y)),
    }
}

/// `b <=> a` as `Array#max` and `Array#min` compute it for `[a, b]`.
fn array_cmp(a: Option<&SemVer>, b: Option<&SemVer>) -> Result<Ordering> {
    match (b, a) {
        (None, None) => Ok(Ordering::Equal),
        (Some(_), None) => Err(Error::new("comparison of SemanticPuppet::Version with nil failed")),
        (None, Some(_)) => Err(Error::new("comparison of NilClass with SemanticPuppet::Version failed")),
        (Some(b), Some(a)) => Ok(b.cmp(a)),
    }
}

/// `[a, b].max` (the first on a tie).
fn ruby_max(a: Option<&SemVer>, b: Option<&SemVer>) -> Result<Option<SemVer>> {
    Ok(if array_cmp(a, b)? == Ordering::Greater { b.cloned() } else { a.cloned() })
}

/// `[a, b].min` (the first on a tie).
fn ruby_min(a: Option<&SemVer>, b: Option<&SemVer>) -> Result<Option<SemVer>> {
    Ok(if array_cmp(a, b)? == Ordering::Less { b.cloned() } else { a.cloned() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value {
        Value::from(x)
    }

    fn shown(r: Result<Value>) -> String {
        match r {
            Ok(Value::SemVer(ref v)) => v.to_string(),
            Ok(Value::SemVerRange(ref r)) => r.to_string(),
            Ok(other) => format!("{other:?}"),
            Err(e) => format!("!! {}", e.message.lines().next().unwrap_or_default()),
        }
    }

    fn hash(entries: &[(&str, Value)]) -> Value {
        Value::hash(entries.iter().map(|(k, v)| (Value::from(*k), v.clone())).collect())
    }

    fn range(x: &str) -> SemVerRange {
        SemVerRange::parse(x).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn semver_new() {
        let i = |n: i64| Value::Integer(n);
        assert_eq!(shown(new_semver(&[s("1.2.3-rc.1+build")])), "1.2.3-rc.1+build");
        assert_eq!(shown(new_semver(&[i(1), i(2), i(3)])), "1.2.3");
        assert_eq!(shown(new_semver(&[i(1), i(2), i(3), s("a.b"), s("c.d")])), "1.2.3-a.b+c.d");
        let h = hash(&[("major", i(1)), ("minor", i(2)), ("patch", i(3)), ("prerelease", s("rc.1"))]);
        assert_eq!(shown(new_semver(&[h])), "1.2.3-rc.1");
        assert_eq!(shown(new_semver(&[s("1.2")])), "!! 'new_Version' The string '1.2' cannot be converted to a SemVer");
        assert_eq!(
            shown(new_semver(&[s("1.2.3-01")])),
            "!! Numeric pre-release identifiers MUST NOT contain leading zeroes"
        );
        assert_eq!(shown(new_semver(&[i(1), i(2)])), "!! 'new_Version' expects between 1 and 5 arguments, got 2");
        assert_eq!(shown(new_semver(&[])), "!! 'new_Version' expects between 1 and 5 arguments, got none");
        assert_eq!(
            shown(new_semver(&[i(-1), i(2), i(3)])),
            "!! The function 'new_Version' was called with arguments it does not accept. It expects one of:"
        );
        let positional = new_semver(&[i(1), i(2), i(3), s("rc.1")]).ok();
        let parsed = new_semver(&[s("1.2.3-rc.1")]).ok();
        assert_ne!(positional, parsed);
    }

    #[test]
    fn range_new() {
        let v = |x: &str| new_semver(&[s(x)]).unwrap_or(Value::Undef);
        assert_eq!(shown(new_semver_range(&[s("~1.2")])), "~1.2");
        assert_eq!(shown(new_semver_range(&[v("1.0.0"), v("2.0.0"), Value::Boolean(true)])), ">=2.0.0 <1.0.0");
        assert_eq!(shown(new_semver_range(&[Value::Default, v("2.0.0")])), "2.0.0 - 0.0.0-");
        assert_eq!(shown(new_semver_range(&[hash(&[("min", v("1.0.0"))])])), "Infinity.0.0 - 1.0.0");
        assert_eq!(shown(new_semver_range(&[s("foo")])), "!! Unparsable version range: \"foo\"");
        assert_eq!(
            shown(new_semver_range(&[s("")])),
            "!! The function 'new_VersionRange' was called with arguments it does not accept. It expects one of:"
        );
    }

    #[test]
    fn type_merging() {
        let merged = semver_type_ranges(&[s("1.x"), s("2.x")]).unwrap_or_default();
        let texts: Vec<String> = merged.iter().map(ToString::to_string).collect();
        assert_eq!(texts, [">=3.0.0 <1.0.0"]);
        let merged = semver_type_ranges(&[s("1.x"), s("3.x")]).unwrap_or_default();
        assert_eq!(merged.len(), 2);
        let merged = semver_type_ranges(&[s(">=1.0.0"), s(">=2.0.0")]).unwrap_or_default();
        assert_eq!(merged.first().map(ToString::to_string).as_deref(), Some("Infinity.0.0 - 1.0.0"));
        let e = semver_type_ranges(&[s("1.x || 3.x"), s("2.x")]).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("undefined method `>=' for nil:NilClass"));
        let e = semver_type_ranges(&[Value::Integer(1)]).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("Cannot use Integer where String or SemanticPuppet::VersionRange is expected"));
    }

    #[test]
    fn coverage() {
        assert_eq!(covered_by(&range("1.2.x"), &range("1.x")).ok(), Some(true));
        assert_eq!(covered_by(&range("1.x"), &range("1.2.x")).ok(), Some(false));
        assert_eq!(covered_by(&range("<=2.0.0"), &range("<2.0.0")).ok(), Some(false));
        assert_eq!(covered_by(&range("<2.0.0"), &range("<=2.0.0")).ok(), Some(true));
    }

    #[test]
    fn matching_values() {
        let r = range("1.x");
        assert!(range_includes_value(&r, &s("1.2.3")));
        assert!(!range_includes_value(&r, &s("x")));
        assert!(!range_includes_value(&r, &Value::Integer(1)));
    }
}
