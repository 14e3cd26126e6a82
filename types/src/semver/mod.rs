//! `SemVer` and `SemVerRange`, with the semantics of Puppet's `SemanticPuppet` library
//! (semantic_puppet 1.0.4) and of `PSemVerType` / `PSemVerRangeType`:
//!
//! - [`version`]: `SemVer` values (parsing, precedence, printing);
//! - [`bound`] and [`range`]: `SemVerRange` values (the range grammar, inclusion,
//!   intersection and merging);
//! - this file: the `new` functions (`new_Version`, `new_VersionRange`) and what the
//!   `SemVer[ranges]` type asks of ranges (merging its parameters, coverage, `=~`);
//! - [`signature`]: the argument dispatch of the `new` functions of SemVer, SemVerRange,
//!   Binary and URI.

pub mod bound;
pub mod range;
pub(crate) mod signature;
pub mod version;

pub use range::SemVerRange;
pub use version::{Ident, Num, SemVer};

use std::cmp::Ordering;
use std::rc::Rc;

use crate::error::{Error, Result};
use crate::ty::Type;
use crate::value::Value;

use signature::{alias, entry, get, hash_with_keys, pattern, select, string_min, Param, Signature};

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

static SEMVER_FROM_STRING: [Param; 1] = [Param {
    name: "str",
    accepts: is_semver_string,
    ty: || alias("SemVerPattern", pattern(SEMVER_PATTERN)),
}];

static SEMVER_FROM_ARGS: [Param; 5] = [
    Param { name: "major", accepts: is_positive_integer, ty: positive_integer },
    Param { name: "minor", accepts: is_positive_integer, ty: positive_integer },
    Param { name: "patch", accepts: is_positive_integer, ty: positive_integer },
    Param { name: "prerelease", accepts: is_qualifier, ty: qualifier_type },
    Param { name: "build", accepts: is_qualifier, ty: qualifier_type },
];

static SEMVER_FROM_HASH: [Param; 1] = [Param { name: "hash_args", accepts: is_semver_hash, ty: semver_hash_type }];

/// The signatures of `new_Version` (`PSemVerType.new_function`).
static SEMVER_SIGNATURES: [Signature; 3] = [
    Signature {
        text: r"SemVerPattern = Pattern[/\A(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?\Z/] str",
        params: &SEMVER_FROM_STRING,
        required: 1,
    },
    Signature {
        text: r"PositiveInteger = Integer[0] major, PositiveInteger = Integer[0] minor, PositiveInteger = Integer[0] patch, SemVerQualifier = Pattern[/\A(?<part>[0-9A-Za-z-]+)(?:\.\g<part>)*\Z/] prerelease?, SemVerQualifier = Pattern[/\A(?<part>[0-9A-Za-z-]+)(?:\.\g<part>)*\Z/] build?",
        params: &SEMVER_FROM_ARGS,
        required: 3,
    },
    Signature {
        text: r"SemVerHash = Struct[{'major' => PositiveInteger = Integer[0], 'minor' => PositiveInteger = Integer[0], 'patch' => PositiveInteger = Integer[0], Optional['prerelease'] => SemVerQualifier = Pattern[/\A(?<part>[0-9A-Za-z-]+)(?:\.\g<part>)*\Z/], Optional['build'] => SemVerQualifier = Pattern[/\A(?<part>[0-9A-Za-z-]+)(?:\.\g<part>)*\Z/]}] hash_args",
        params: &SEMVER_FROM_HASH,
        required: 1,
    },
];

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
    let Some(index) = select(&SEMVER_SIGNATURES, args) else {
        if let [Value::String(s)] = args {
            return Err(Error::new(format!("'new_Version' The string '{s}' cannot be converted to a SemVer")));
        }
        return Err(signature::mismatch("new_Version", &SEMVER_SIGNATURES, args));
    };
    let v = match (index, args) {
        (0, [Value::String(s)]) => SemVer::parse(s).map_err(Error::new)?,
        (1, [major, minor, patch, rest @ ..]) => from_parts(major, minor, patch, rest.first(), rest.get(1)),
        (_, [Value::Hash(h)]) => {
            let undef = Value::Undef;
            let part = |k| get(h, k).unwrap_or(&undef);
            from_parts(part("major"), part("minor"), part("patch"), get(h, "prerelease"), get(h, "build"))
        }
        _ => return Err(signature::mismatch("new_Version", &SEMVER_SIGNATURES, args)),
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

static RANGE_FROM_STRING: [Param; 1] =
    [Param { name: "str", accepts: is_range_string, ty: || alias("SemVerRangeString", string_min(1)) }];

static RANGE_FROM_VERSIONS: [Param; 3] = [
    Param { name: "min", accepts: is_version_or_default, ty: version_or_default_type },
    Param { name: "max", accepts: is_version_or_default, ty: version_or_default_type },
    Param { name: "exclude_max", accepts: is_boolean, ty: || Type::Boolean(None) },
];

static RANGE_FROM_HASH: [Param; 1] = [Param { name: "hash_args", accepts: is_range_hash, ty: range_hash_type }];

/// The signatures of `new_VersionRange` (`PSemVerRangeType.new_function`).
static RANGE_SIGNATURES: [Signature; 3] = [
    Signature { text: "SemVerRangeString = String[1] str", params: &RANGE_FROM_STRING, required: 1 },
    Signature {
        text: "Variant[Default, SemVer] min, Variant[Default, SemVer] max, Boolean exclude_max?",
        params: &RANGE_FROM_VERSIONS,
        required: 2,
    },
    Signature {
        text: "SemVerRangeHash = Struct[{'min' => Variant[Default, SemVer], Optional['max'] => Variant[Default, SemVer], Optional['exclude_max'] => Boolean}] hash_args",
        params: &RANGE_FROM_HASH,
        required: 1,
    },
];

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
    let Some(index) = select(&RANGE_SIGNATURES, args) else {
        return Err(signature::mismatch("new_VersionRange", &RANGE_SIGNATURES, args));
    };
    let r = match (index, args) {
        (0, [Value::String(s)]) => SemVerRange::parse(s).map_err(Error::new)?,
        (1, [min, max, rest @ ..]) => from_versions(min, max, rest.first())?,
        (_, [Value::Hash(h)]) => {
            let default = Value::Default;
            let min = get(h, "min").unwrap_or(&default);
            from_versions(min, get(h, "max").unwrap_or(&default), get(h, "exclude_max"))?
        }
        _ => return Err(signature::mismatch("new_VersionRange", &RANGE_SIGNATURES, args)),
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
    let overlap = a.includes_opt(bb.as_ref()).map_err(Error::new)? || b.includes_opt(ab.as_ref()).map_err(Error::new)?;
    if overlap {
        let max = ruby_max(ae.as_ref(), be.as_ref())?;
        let exclude_end = if a.exclude_end() == Some(true) {
            max == ae && (compare_op(max.as_ref(), be.as_ref(), ">")? == Ordering::Greater || b.exclude_end() == Some(true))
        } else if b.exclude_end() == Some(true) {
            max == be && (compare_op(max.as_ref(), ae.as_ref(), ">")? == Ordering::Greater || a.exclude_end() == Some(true))
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
        assert_eq!(shown(new_semver(&[s("1.2.3-01")])), "!! Numeric pre-release identifiers MUST NOT contain leading zeroes");
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
