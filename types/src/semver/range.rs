//! `SemVerRange` values: `SemanticPuppet::VersionRange` (semantic_puppet 1.0.4,
//! `version_range.rb`), Puppet's (npm-like) range grammar:
//!
//! | form                   | matches                                           |
//! |------------------------|---------------------------------------------------|
//! | `1.2.3`, `=1.2.3`      | exactly `1.2.3` (the build too)                   |
//! | `1.x`, `1.2.*`, `1`    | `>=1.0.0 <2.0.0`, `>=1.2.0 <1.3.0`                |
//! | `*`, `x`, empty        | everything                                        |
//! | `>1.2`, `>1`           | `>=1.3.0`, `>=2.0.0`; `>1.2.3` is strict          |
//! | `>=1.2`                | `>=1.2.0` (missing parts are zeros)               |
//! | `<1.2`                 | `<1.2.0`                                          |
//! | `<=1.2`, `<=1`         | `<1.3.0`, `<2.0.0`; `<=1.2.3` is inclusive        |
//! | `~1.2.3`, `~>`, `~=`   | `>=1.2.3 <1.3.0`; `~1.2` is `1.2.x`, `~1` is `1.x`|
//! | `^1.2.3`               | `>=1.2.3 <2.0.0`; `^0.2.3` is `>=0.2.3 <0.3.0`    |
//! | `1.0.0 - 2.0.0`        | `>=1.0.0 <=2.0.0`                                 |
//! | `>=1.0.0 <2.0.0`       | both (whitespace-separated comparators intersect) |
//! | `1.x \|\| 3.x`         | either                                            |
//!
//! A `v` and whitespace after an operator are dropped (`>= 1.0`, `>=v1.0`). A prerelease
//! version is only matched by a comparator naming a prerelease of the same `major.minor.patch`.
//! `^x` and `<=x` fail with SemanticPuppet's own `NoMethodError`.

use std::fmt;
use std::hash::{Hash, Hasher};

use super::bound::Bound;
use super::version::{is_parts, numeric, parse_build, parse_prerelease, Num, SemVer};

/// A version range. Equality is Ruby's `eql?`: the matchers, not the string
/// (`SemVerRange('1.x') == SemVerRange('>=1.0.0 <2.0.0')`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SemVerRange {
    /// The matchers, one per `||` alternative left after merging (never empty).
    pub ranges: Vec<Bound>,
    text: Text,
}

/// The string a range prints as: what it was parsed from, or what SemanticPuppet made up.
/// Not part of equality or hashing.
#[derive(Clone, Debug)]
struct Text(String);

impl PartialEq for Text {
    fn eq(&self, _: &Text) -> bool {
        true
    }
}

impl Eq for Text {}

impl Hash for Text {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

impl SemVerRange {
    /// `VersionRange.new(ranges, string)`: merges the ranges that overlap or touch (the
    /// `None`s, empty intersections, are dropped); no range left is `<0.0.0`. The string is
    /// `string`, or the ranges joined with ` || `.
    pub fn from_ranges(ranges: Vec<Option<Bound>>, string: Option<String>) -> Result<SemVerRange, String> {
        let mut ranges: Vec<Bound> = ranges.into_iter().flatten().collect();
        let mut merge_happened = true;
        while ranges.len() > 1 && merge_happened {
            merge_happened = false;
            let mut result = Vec::new();
            while let Some(x) = ranges.pop() {
                let mut unmerged = Vec::new();
                let mut memo = x;
                for y in ranges.drain(..) {
                    match memo.merge(&y)? {
                        Some(merged) => {
                            merge_happened = true;
                            memo = merged;
                        }
                        None => unmerged.push(y),
                    }
                }
                result.push(memo);
                ranges = unmerged;
            }
            result.reverse();
            ranges = result;
        }
        if ranges.is_empty() {
            ranges.push(Bound::match_nothing());
        }
        let text = string.unwrap_or_else(|| join(&ranges));
        Ok(SemVerRange { ranges, text: Text(text) })
    }

    /// `VersionRange.new(min, max, exclude_end)`: `>=min <max` or `>=min <=max`. The string
    /// is SemanticPuppet's, which has the two versions the wrong way round:
    /// `>=max <min` and `max - min`.
    pub fn from_bounds(min: &SemVer, max: &SemVer, exclude_end: bool) -> Result<SemVerRange, String> {
        let lower = Bound::GtEq(min.clone());
        let (upper, text) = if exclude_end {
            (Bound::Lt(max.clone()), format!(">={max} <{min}"))
        } else {
            (Bound::LtEq(max.clone()), format!("{max} - {min}"))
        };
        SemVerRange::from_ranges(vec![Bound::create(vec![lower, upper])?], Some(text))
    }

    /// `VersionRange::EMPTY_RANGE`.
    pub fn empty() -> SemVerRange {
        SemVerRange { ranges: vec![Bound::match_nothing()], text: Text("<0.0.0".to_owned()) }
    }

    /// `VersionRange::ALL_RANGE`.
    pub fn all() -> SemVerRange {
        SemVerRange { ranges: vec![Bound::All], text: Text("*".to_owned()) }
    }

    /// `VersionRange.parse`; the error is SemanticPuppet's (`Unparsable version range: "x"`).
    pub fn parse(range_string: &str) -> Result<SemVerRange, String> {
        let range_set = drop_space_after_operators(range_string);
        let alternatives = split_logical_or(&range_set);
        if alternatives.is_empty() {
            return Ok(SemVerRange::all());
        }
        let mut ranges: Vec<Option<Bound>> = Vec::new();
        for alt in alternatives {
            let r = parse_alternative(alt, range_string)?;
            if !ranges.contains(&r) {
                ranges.push(r);
            }
        }
        SemVerRange::from_ranges(ranges, Some(range_string.to_owned()))
    }

    /// `include?`: some range matches `v`, and `v` is a release or that range allows
    /// prereleases of `v`'s `major.minor.patch`.
    pub fn includes(&self, v: &SemVer) -> bool {
        self.ranges.iter().any(|r| r.includes(v) && (v.is_stable() || r.test_prerelease(v)))
    }

    /// `include?(v)` where `v` may be Ruby's `nil` (the `begin` of a range of several
    /// parts), failing as Ruby does.
    pub(crate) fn includes_opt(&self, v: Option<&SemVer>) -> Result<bool, String> {
        let Some(v) = v else {
            for r in &self.ranges {
                if r.includes_nil()? {
                    return Err("undefined method `stable?' for nil:NilClass".to_owned());
                }
            }
            return Ok(false);
        };
        Ok(self.includes(v))
    }

    /// `intersection` (`&`): the versions in both, `<0.0.0` when there are none.
    pub fn intersection(&self, other: &SemVerRange) -> Result<SemVerRange, String> {
        let mut result: Vec<Option<Bound>> = Vec::new();
        for r in &self.ranges {
            for o in &other.ranges {
                let i = r.intersection(o);
                if i.is_some() && !result.contains(&i) {
                    result.push(i);
                }
            }
        }
        if result.is_empty() {
            return Ok(SemVerRange::empty());
        }
        SemVerRange::from_ranges(result, None)
    }

    /// The lowest version of the range; `None` (Ruby's `nil`) when it has several parts.
    pub fn begin(&self) -> Option<SemVer> {
        self.single().map(Bound::begin)
    }

    /// The highest version of the range; `None` when it has several parts.
    pub fn end(&self) -> Option<SemVer> {
        self.single().map(Bound::end)
    }

    /// `exclude_begin?`; `None` when the range has several parts.
    pub fn exclude_begin(&self) -> Option<bool> {
        self.single().map(Bound::exclude_begin)
    }

    /// `exclude_end?`; `None` when the range has several parts.
    pub fn exclude_end(&self) -> Option<bool> {
        self.single().map(Bound::exclude_end)
    }

    fn single(&self) -> Option<&Bound> {
        match self.ranges.as_slice() {
            [only] => Some(only),
            _ => None,
        }
    }

    /// `inspect`: the ranges as SemanticPuppet normalised them (`>=1.0.0 <2.0.0 || 3.0.0`).
    pub fn canonical(&self) -> String {
        join(&self.ranges)
    }
}

impl fmt::Display for SemVerRange {
    /// `to_s`: the string the range was parsed from (`~1.2`, `>= 1.0 || 3.x`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text.0)
    }
}

fn join(ranges: &[Bound]) -> String {
    ranges.iter().map(Bound::to_string).collect::<Vec<_>>().join(" || ")
}

/// Ruby's `\s`.
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// `gsub(/([><=~^])(?:\s+|\s*v)/, '\1')`: whitespace, or else one `v`, after an operator
/// character is removed.
fn drop_space_after_operators(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if !matches!(c, '>' | '<' | '=' | '~' | '^') {
            continue;
        }
        if chars.peek().copied().is_some_and(is_space) {
            while chars.peek().copied().is_some_and(is_space) {
                chars.next();
            }
        } else if chars.peek() == Some(&'v') {
            chars.next();
        }
    }
    out
}

/// `split(/\s*\|\|\s*/)`, with Ruby's `split` dropping trailing empty fields.
fn split_logical_or(s: &str) -> Vec<&str> {
    let mut fields = Vec::new();
    let mut rest = s;
    while let Some(at) = rest.find("||") {
        let before = rest[..at].trim_end_matches(is_space);
        fields.push(before);
        rest = rest[at + 2..].trim_start_matches(is_space);
    }
    fields.push(rest);
    while fields.last().is_some_and(|f| f.is_empty()) {
        fields.pop();
    }
    fields
}

/// `split(/\s+/)`: a leading empty field when `s` starts with whitespace, none at the end.
fn split_whitespace_ruby(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    if s.starts_with(is_space) {
        out.push("");
    }
    out.extend(s.split(is_space).filter(|f| !f.is_empty()));
    if out == [""] {
        out.clear();
    }
    out
}

/// One `||` alternative: a hyphen range, or comparators separated by whitespace.
fn parse_alternative(range: &str, range_string: &str) -> Result<Option<Bound>, String> {
    if let Some((from, to)) = hyphen(range) {
        let lower = Bound::GtEq(parse_version(&from)?);
        let upper = Bound::LtEq(parse_version(&to)?);
        return Bound::create(vec![lower, upper]);
    }
    let mut simples = Vec::new();
    for simple in split_whitespace_ruby(range) {
        let (op, operand) = simple_expr(simple).ok_or_else(|| unparsable(range_string))?;
        simples.push(parse_simple(op, &operand)?);
    }
    if simples.len() == 1 {
        return Ok(simples.pop());
    }
    Bound::create(simples)
}

fn unparsable(s: &str) -> String {
    format!("Unparsable version range: \"{s}\"")
}

/// The comparator of one operator and its partial version.
fn parse_simple(op: &str, p: &Partial) -> Result<Bound, String> {
    Ok(match op {
        "~" | "~>" | "~=" => allow_patch_updates(p, true)?,
        "^" => parse_caret(p)?,
        ">" => parse_gt_version(p)?,
        ">=" => Bound::GtEq(parse_version(p)?),
        "<" => Bound::Lt(parse_version(p)?),
        "<=" => parse_lteq_version(p)?,
        _ => allow_patch_updates(p, false)?,
    })
}

/// The `NoMethodError` of SemanticPuppet's `AllRange.SINGLETON` (a method call where the
/// constant `AllRange::SINGLETON` was meant), reached by `^x` and `<=x`.
const ALL_RANGE_BUG: &str = "undefined method `SINGLETON' for SemanticPuppet::VersionRange::AllRange:Class";

/// A partial version: `PARTIAL_EXPR`'s captures, `None` for a missing part or `x`/`X`/`*`.
#[derive(Debug, Default)]
struct Partial {
    major: Option<Num>,
    minor: Option<Num>,
    patch: Option<Num>,
    prerelease: Option<String>,
    build: Option<String>,
}

/// `XR`: `x`, `X`, `*` or a number without leading zeros, and the rest. The number is
/// `None` for the wildcards.
fn xr(s: &str) -> Option<(Option<Num>, &str)> {
    if let Some(rest) = s.strip_prefix(['x', 'X', '*']) {
        return Some((None, rest));
    }
    let (digits, rest) = numeric(s)?;
    Some((Some(Num::from_digits(digits)), rest))
}

/// `PARTIAL_EXPR`: `XR(.XR(.XR(-PARTS)?(+PARTS)?)?)?`, the whole of `s`.
fn partial(s: &str) -> Option<Partial> {
    let mut p = Partial::default();
    let (major, rest) = xr(s)?;
    p.major = major;
    if rest.is_empty() {
        return Some(p);
    }
    let (minor, rest) = xr(rest.strip_prefix('.')?)?;
    p.minor = minor;
    if rest.is_empty() {
        return Some(p);
    }
    let (patch, mut rest) = xr(rest.strip_prefix('.')?)?;
    p.patch = patch;
    if let Some(r) = rest.strip_prefix('-') {
        let end = r.find('+').unwrap_or(r.len());
        if !is_parts(&r[..end]) {
            return None;
        }
        p.prerelease = Some(r[..end].to_owned());
        rest = &r[end..];
    }
    if let Some(b) = rest.strip_prefix('+') {
        if !is_parts(b) {
            return None;
        }
        p.build = Some(b.to_owned());
        rest = "";
    }
    rest.is_empty().then_some(p)
}

/// `SIMPLE_EXPR`: an optional operator (`<`, `>`, `=`, `~`, `^`, `<=`, `>=`, `~>`, `~=`)
/// and a partial version.
fn simple_expr(s: &str) -> Option<(&'static str, Partial)> {
    for op in ["<", ">", "=", "~", "^", "<=", ">=", "~>", "~="] {
        if let Some(p) = s.strip_prefix(op).and_then(partial) {
            return Some((op, p));
        }
    }
    partial(s).map(|p| ("", p))
}

/// `HYPHEN_EXPR`: `PARTIAL \s+ - \s+ PARTIAL`, the whole of `s`.
fn hyphen(s: &str) -> Option<(Partial, Partial)> {
    let first_end = s.find(is_space)?;
    let (from, rest) = s.split_at(first_end);
    let rest = rest.trim_start_matches(is_space).strip_prefix('-')?;
    let to = rest.trim_start_matches(is_space);
    if to.len() == rest.len() || to.contains(is_space) {
        return None;
    }
    Some((partial(from)?, partial(to)?))
}

/// `parse_version`: missing parts are zeros.
fn parse_version(p: &Partial) -> Result<SemVer, String> {
    let zero = || Num::zero();
    version_of(
        p.major.clone().unwrap_or_else(zero),
        p.minor.clone().unwrap_or_else(zero),
        p.patch.clone().unwrap_or_else(zero),
        p,
    )
}

/// `Version.new(major, minor, patch, parse_prerelease(pre), parse_build(build))`: a numeric
/// prerelease identifier with leading zeros fails as in `Version.parse`.
fn version_of(major: Num, minor: Num, patch: Num, p: &Partial) -> Result<SemVer, String> {
    let prerelease = parse_prerelease(p.prerelease.as_deref())?;
    Ok(SemVer { major, minor, patch, prerelease, build: parse_build(p.build.as_deref()) })
}

fn release(major: &Num, minor: &Num, patch: &Num) -> SemVer {
    SemVer::new(major.clone(), minor.clone(), patch.clone())
}

/// `>=from <to`.
fn between(from: SemVer, to: SemVer) -> Bound {
    Bound::min_max(Bound::GtEq(from), Bound::Lt(to))
}

/// `allow_patch_updates` (tilde, and `=`/no operator when `tilde_or_caret` is false):
/// `1` is `1.x`, `1.2` is `1.2.x`, and a full version is `>=v <major.minor+1.0` (tilde) or
/// exactly `v`.
fn allow_patch_updates(p: &Partial, tilde_or_caret: bool) -> Result<Bound, String> {
    let zero = Num::zero();
    let Some(major) = &p.major else { return Ok(Bound::All) };
    let Some(minor) = &p.minor else {
        return Ok(between(release(major, &zero, &zero), release(&major.succ(), &zero, &zero)));
    };
    let Some(patch) = &p.patch else {
        return Ok(between(release(major, minor, &zero), release(major, &minor.succ(), &zero)));
    };
    let version = version_of(major.clone(), minor.clone(), patch.clone(), p)?;
    if !tilde_or_caret {
        return Ok(Bound::Eq(version));
    }
    Ok(between(version, release(major, &minor.succ(), &zero)))
}

/// `parse_caret`: below the next major (`^0.x.y` is tilde).
fn parse_caret(p: &Partial) -> Result<Bound, String> {
    if p.major == Some(Num::zero()) {
        return allow_patch_updates(p, true);
    }
    allow_minor_updates(p)
}

/// `allow_minor_updates`: `>=major.minor.patch <major+1.0.0`.
fn allow_minor_updates(p: &Partial) -> Result<Bound, String> {
    let zero = Num::zero();
    let Some(major) = &p.major else { return Err(ALL_RANGE_BUG.to_owned()) };
    let next_major = release(&major.succ(), &zero, &zero);
    let Some(minor) = &p.minor else {
        return Ok(between(release(major, &zero, &zero), next_major));
    };
    let Some(patch) = &p.patch else {
        return Ok(between(release(major, minor, &zero), next_major));
    };
    let from = if p.prerelease.is_none() {
        release(major, minor, patch)
    } else {
        version_of(major.clone(), minor.clone(), patch.clone(), p)?
    };
    Ok(between(from, next_major))
}

/// `parse_gt_version`: `>1` is `>=2.0.0`, `>1.2` is `>=1.3.0`, `>x` matches nothing.
fn parse_gt_version(p: &Partial) -> Result<Bound, String> {
    let zero = Num::zero();
    let Some(major) = &p.major else { return Ok(Bound::match_nothing()) };
    let Some(minor) = &p.minor else { return Ok(Bound::GtEq(release(&major.succ(), &zero, &zero))) };
    let Some(patch) = &p.patch else { return Ok(Bound::GtEq(release(major, &minor.succ(), &zero))) };
    Ok(Bound::Gt(version_of(major.clone(), minor.clone(), patch.clone(), p)?))
}

/// `parse_lteq_version`: `<=1` is `<2.0.0`, `<=1.2` is `<1.3.0`.
fn parse_lteq_version(p: &Partial) -> Result<Bound, String> {
    let zero = Num::zero();
    let Some(major) = &p.major else { return Err(ALL_RANGE_BUG.to_owned()) };
    let Some(minor) = &p.minor else { return Ok(Bound::Lt(release(&major.succ(), &zero, &zero))) };
    let Some(patch) = &p.patch else { return Ok(Bound::Lt(release(major, &minor.succ(), &zero))) };
    Ok(Bound::LtEq(version_of(major.clone(), minor.clone(), patch.clone(), p)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> SemVer {
        SemVer::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }

    fn r(s: &str) -> SemVerRange {
        SemVerRange::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn canonical_forms() {
        let cases = [
            ("1.x", ">=1.0.0 <2.0.0"),
            ("~1.2", ">=1.2.0 <1.3.0"),
            ("~1.2.3", ">=1.2.3 <1.3.0"),
            ("^1.2.3", ">=1.2.3 <2.0.0"),
            ("^0.2.3", ">=0.2.3 <0.3.0"),
            ("^1.2.3-rc", ">=1.2.3-rc <2.0.0"),
            (">1.2", ">=1.3.0"),
            (">1", ">=2.0.0"),
            (">1.2.3", ">1.2.3"),
            ("<=1.2", "<1.3.0"),
            ("<=1.2.3", "<=1.2.3"),
            ("1.0.0 - 2.0.0", ">=1.0.0 <=2.0.0"),
            (">= 1.0.0 < 2.0.0", ">=1.0.0 <2.0.0"),
            (">=v1.0.0", ">=1.0.0"),
            ("*", "*"),
            ("x", "*"),
            ("||", "*"),
            (">x", "<0.0.0"),
            ("1.0.0 || 1.0.1", ">=1.0.0 <=1.0.1"),
            ("1.x || 3.x", ">=1.0.0 <2.0.0 || >=3.0.0 <4.0.0"),
            ("1.x || 2.x", ">=1.0.0 <3.0.0"),
            (">2.0.0 <1.0.0", "<0.0.0"),
        ];
        for (s, canonical) in cases {
            assert_eq!(r(s).canonical(), canonical, "{s}");
            let shown = if s == "||" { "*" } else { s };
            assert_eq!(r(s).to_string(), shown);
        }
    }

    #[test]
    fn errors() {
        assert_eq!(SemVerRange::parse("foo"), Err("Unparsable version range: \"foo\"".to_owned()));
        assert_eq!(SemVerRange::parse(" 1.x"), Err("Unparsable version range: \" 1.x\"".to_owned()));
        assert_eq!(SemVerRange::parse(">= v1.2"), Err("Unparsable version range: \">= v1.2\"".to_owned()));
        assert_eq!(SemVerRange::parse("^x"), Err(ALL_RANGE_BUG.to_owned()));
        assert!(SemVerRange::parse(">=1.0.0 <=2.0.0 || >=1.5.0 <=2.0.0").is_err());
    }

    #[test]
    fn inclusion() {
        assert!(r("~1.2").includes(&v("1.2.5")));
        assert!(!r("~1.2").includes(&v("1.3.0")));
        assert!(!r("1.x").includes(&v("1.0.0-rc.1")));
        assert!(r(">=1.0.0-rc.0 <2.0.0").includes(&v("1.0.0-rc.1")));
        assert!(!r(">=1.0.0-rc.0 <2.0.0").includes(&v("1.0.1-rc.1")));
        assert!(!r("1.0.0").includes(&v("1.0.0+b")));
        assert!(r("*").includes(&v("0.0.1-a")));
        assert_eq!(r("1.x"), r(">=1.0.0 <2.0.0"));
    }

    #[test]
    fn bounds() {
        let b = SemVerRange::from_bounds(&v("1.0.0"), &v("2.0.0"), true).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(b.to_string(), ">=2.0.0 <1.0.0");
        assert_eq!(b.canonical(), ">=1.0.0 <2.0.0");
        assert!(b.includes(&v("1.5.0")));
        let all = SemVerRange::from_bounds(&SemVer::min(), &SemVer::max(), false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(all.to_string(), "Infinity.0.0 - 0.0.0-");
        assert_eq!(r("1.x").begin(), Some(v("1.0.0")));
        assert_eq!(r("1.x").exclude_end(), Some(true));
        assert_eq!(r("1.x || 3.x").end(), None);
    }

    #[test]
    fn intersections() {
        let i = r("1.x").intersection(&r(">=1.5.0")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(i.to_string(), ">=1.5.0 <2.0.0");
        let none = r("1.x").intersection(&r("3.x")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(none.to_string(), "<0.0.0");
    }
}
