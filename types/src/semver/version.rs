//! `SemVer` values: `SemanticPuppet::Version` (semantic_puppet 1.0.4, `version.rb`).
//!
//! Puppet's versions keep what they were built from: `SemVer('1.2.3-rc.1')` has the
//! prerelease identifiers `['rc', 1]`, while `SemVer(1, 2, 3, 'rc.1')` has the single string
//! identifier `'rc.1'`; the two print alike but are not equal, and order differently.

use std::cmp::Ordering;
use std::fmt;

/// A non-negative integer of any size, as Ruby's `Integer` holds a version part, or
/// `Float::INFINITY` (the major of `Version::MAX`, which prints as `Infinity`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Num {
    /// Canonical decimal digits: no leading zeros (`"0"` for zero).
    Int(String),
    Infinity,
}

impl Num {
    /// The number of `digits` (ASCII digits, leading zeros allowed: Ruby's `to_i`).
    pub fn from_digits(digits: &str) -> Num {
        let trimmed = digits.trim_start_matches('0');
        Num::Int(if trimmed.is_empty() { "0".to_owned() } else { trimmed.to_owned() })
    }

    pub fn from_u64(n: u64) -> Num {
        Num::Int(n.to_string())
    }

    /// Zero.
    pub fn zero() -> Num {
        Num::Int("0".to_owned())
    }

    /// Ruby's `Integer#next` (`Infinity` stays itself).
    pub fn succ(&self) -> Num {
        match self {
            Num::Infinity => Num::Infinity,
            Num::Int(d) => {
                let mut bytes = d.clone().into_bytes();
                let mut i = bytes.len();
                loop {
                    if i == 0 {
                        bytes.insert(0, b'1');
                        break;
                    }
                    i -= 1;
                    if bytes[i] == b'9' {
                        bytes[i] = b'0';
                    } else {
                        bytes[i] += 1;
                        break;
                    }
                }
                Num::Int(String::from_utf8(bytes).unwrap_or_default())
            }
        }
    }

    /// The value as an `i64` when it fits.
    pub fn to_i64(&self) -> Option<i64> {
        match self {
            Num::Int(d) => d.parse().ok(),
            Num::Infinity => None,
        }
    }
}

impl Ord for Num {
    fn cmp(&self, other: &Num) -> Ordering {
        match (self, other) {
            (Num::Infinity, Num::Infinity) => Ordering::Equal,
            (Num::Infinity, _) => Ordering::Greater,
            (_, Num::Infinity) => Ordering::Less,
            (Num::Int(a), Num::Int(b)) => a.len().cmp(&b.len()).then_with(|| a.cmp(b)),
        }
    }
}

impl PartialOrd for Num {
    fn partial_cmp(&self, other: &Num) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(d) => f.write_str(d),
            Num::Infinity => f.write_str("Infinity"),
        }
    }
}

/// One prerelease identifier: numeric identifiers of a parsed version are Integers, the
/// others (and every identifier given to `SemVer(major, minor, patch, prerelease)`) Strings.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ident {
    Num(Num),
    Str(String),
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ident::Num(n) => n.fmt(f),
            Ident::Str(s) => f.write_str(s),
        }
    }
}

/// A semantic version (`SemanticPuppet::Version`). Equality is Ruby's `eql?` (every part,
/// the build included); [`Ord`] is the version precedence (`<=>`), which ignores the build,
/// so `Ordering::Equal` does not imply `==` (`1.0.0+a` and `1.0.0+b`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SemVer {
    pub major: Num,
    pub minor: Num,
    pub patch: Num,
    /// `None` for a release; `Some([])` only for [`SemVer::min`].
    pub prerelease: Option<Vec<Ident>>,
    pub build: Option<Vec<String>>,
}

/// Why a string is not a version (`SemanticPuppet::Version::ValidationFailure`).
pub const LEADING_ZEROES: &str = "Numeric pre-release identifiers MUST NOT contain leading zeroes";

impl SemVer {
    /// A release `major.minor.patch`.
    pub fn new(major: Num, minor: Num, patch: Num) -> SemVer {
        SemVer { major, minor, patch, prerelease: None, build: None }
    }

    /// `Version::MIN`: `0.0.0` with an empty prerelease, below every other version; prints as
    /// `0.0.0-`.
    pub fn min() -> SemVer {
        SemVer { prerelease: Some(Vec::new()), ..SemVer::new(Num::zero(), Num::zero(), Num::zero()) }
    }

    /// `Version::MAX`: `Infinity.0.0`.
    pub fn max() -> SemVer {
        SemVer::new(Num::Infinity, Num::zero(), Num::zero())
    }

    /// `Version.parse`: the string must match `REGEX_FULL` (a final line feed is allowed, as
    /// Ruby's `\Z` allows it); numeric prerelease identifiers must not have leading zeros.
    pub fn parse(s: &str) -> Result<SemVer, String> {
        let Some(parts) = split_full(s) else {
            return Err(format!("Unable to parse '{s}' as a semantic version identifier"));
        };
        Ok(SemVer {
            major: Num::from_digits(parts.major),
            minor: Num::from_digits(parts.minor),
            patch: Num::from_digits(parts.patch),
            prerelease: parse_prerelease(parts.prerelease)?,
            build: parse_build(parts.build),
        })
    }

    /// Whether `s` matches `REGEX_FULL` (Puppet's `SemVerPattern`).
    pub fn matches_pattern(s: &str) -> bool {
        split_full(s).is_some()
    }

    /// `Version#stable?`: no prerelease (or the empty one of `MIN`).
    pub fn is_stable(&self) -> bool {
        self.prerelease.as_ref().is_none_or(Vec::is_empty)
    }

    /// `Version#next(:patch)`.
    pub fn next_patch(&self) -> SemVer {
        SemVer::new(self.major.clone(), self.minor.clone(), self.patch.succ())
    }

    /// `Version#prerelease`: the identifiers joined with dots, `None` when there are none.
    pub fn prerelease_string(&self) -> Option<String> {
        let p = self.prerelease.as_ref().filter(|p| !p.is_empty())?;
        Some(p.iter().map(Ident::to_string).collect::<Vec<_>>().join("."))
    }

    /// `Version#build`: the identifiers joined with dots, `None` when there are none.
    pub fn build_string(&self) -> Option<String> {
        let b = self.build.as_ref().filter(|b| !b.is_empty())?;
        Some(b.join("."))
    }

    /// `Version#compare_prerelease`: a release is above its prereleases; identifiers
    /// compare one by one (numbers numerically and below strings, strings bytewise); when
    /// one list is a prefix of the other, the longer one is greater.
    fn compare_prerelease(&self, other: &SemVer) -> Ordering {
        match (&self.prerelease, &other.prerelease) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Greater,
            (Some(_), None) => Ordering::Less,
            (Some(mine), Some(yours)) => {
                for (x, y) in mine.iter().zip(yours) {
                    let c = match (x, y) {
                        (Ident::Num(a), Ident::Num(b)) => a.cmp(b),
                        (Ident::Num(_), Ident::Str(_)) => Ordering::Less,
                        (Ident::Str(_), Ident::Num(_)) => Ordering::Greater,
                        (Ident::Str(a), Ident::Str(b)) => a.as_bytes().cmp(b.as_bytes()),
                    };
                    if c != Ordering::Equal {
                        return c;
                    }
                }
                mine.len().cmp(&yours.len())
            }
        }
    }
}

impl Ord for SemVer {
    /// `Version#<=>`: major, minor, patch, then the prerelease; the build is ignored.
    fn cmp(&self, other: &SemVer) -> Ordering {
        self.major
            .cmp(&other.major)
            .then_with(|| self.minor.cmp(&other.minor))
            .then_with(|| self.patch.cmp(&other.patch))
            .then_with(|| self.compare_prerelease(other))
    }
}

impl PartialOrd for SemVer {
    fn partial_cmp(&self, other: &SemVer) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for SemVer {
    /// `Version#to_s`: `major.minor.patch`, then `-` and the prerelease identifiers, then `+`
    /// and the build identifiers (`MIN`, with its empty prerelease, is `0.0.0-`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if let Some(pre) = &self.prerelease {
            f.write_str("-")?;
            write_joined(f, pre)?;
        }
        if let Some(build) = &self.build {
            f.write_str("+")?;
            write_joined(f, build)?;
        }
        Ok(())
    }
}

fn write_joined<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(".")?;
        }
        item.fmt(f)?;
    }
    Ok(())
}

/// The captures of `REGEX_FULL`.
struct FullParts<'a> {
    major: &'a str,
    minor: &'a str,
    patch: &'a str,
    prerelease: Option<&'a str>,
    build: Option<&'a str>,
}

/// Matches `\A(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-(PARTS))?(?:\+(PARTS))?\Z` where
/// `PARTS` is `[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*`.
fn split_full(s: &str) -> Option<FullParts<'_>> {
    let s = s.strip_suffix('\n').unwrap_or(s);
    let (major, rest) = numeric(s)?;
    let rest = rest.strip_prefix('.')?;
    let (minor, rest) = numeric(rest)?;
    let rest = rest.strip_prefix('.')?;
    let (patch, rest) = numeric(rest)?;
    let (prerelease, rest) = match rest.strip_prefix('-') {
        Some(r) => {
            let end = r.find('+').unwrap_or(r.len());
            (Some(&r[..end]), &r[end..])
        }
        None => (None, rest),
    };
    let build = match rest.strip_prefix('+') {
        Some(b) => Some(b),
        None if rest.is_empty() => None,
        None => return None,
    };
    if !prerelease.is_none_or(is_parts) || !build.is_none_or(is_parts) {
        return None;
    }
    Some(FullParts { major, minor, patch, prerelease, build })
}

/// `0|[1-9]\d*` at the start of `s`, and the rest.
pub(crate) fn numeric(s: &str) -> Option<(&str, &str)> {
    let end = s.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(s.len());
    let digits = &s[..end];
    if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
        return None;
    }
    Some((digits, &s[end..]))
}

/// `[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*`, the whole of `s`.
pub(crate) fn is_parts(s: &str) -> bool {
    s.split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

/// `Version.parse_prerelease`: all-digit identifiers become numbers (and must not have
/// leading zeros).
pub(crate) fn parse_prerelease(pre: Option<&str>) -> Result<Option<Vec<Ident>>, String> {
    let Some(pre) = pre else { return Ok(None) };
    let mut out = Vec::new();
    for x in pre.split('.') {
        if !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit()) {
            if x.len() > 1 && x.starts_with('0') {
                return Err(LEADING_ZEROES.to_owned());
            }
            out.push(Ident::Num(Num::from_digits(x)));
        } else {
            out.push(Ident::Str(x.to_owned()));
        }
    }
    Ok(Some(out))
}

/// `Version.parse_build`.
pub(crate) fn parse_build(build: Option<&str>) -> Option<Vec<String>> {
    build.map(|b| b.split('.').map(str::to_owned).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> SemVer {
        SemVer::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn parses_and_prints() {
        assert_eq!(v("1.2.3-rc.1+build.5").to_string(), "1.2.3-rc.1+build.5");
        assert_eq!(v("1.2.3\n").to_string(), "1.2.3");
        assert_eq!(v("99999999999999999999999.0.0").to_string(), "99999999999999999999999.0.0");
        assert_eq!(SemVer::min().to_string(), "0.0.0-");
        assert_eq!(SemVer::max().to_string(), "Infinity.0.0");
        for bad in ["1.2", "01.2.3", "1.2.3 ", "v1.2.3", "1.2.3-", "1.2.3-a..b", "1.2.3+", "1.2.3\n\n", ""] {
            assert!(SemVer::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(SemVer::parse("1.2.3-01"), Err(LEADING_ZEROES.to_owned()));
        assert!(SemVer::parse("1.2.3-0a").is_ok());
    }

    #[test]
    fn precedence() {
        let order = [
            "1.0.0-1",
            "1.0.0-2",
            "1.0.0-10",
            "1.0.0-a",
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0",
            "1.0.1",
            "1.10.0",
            "10.0.0",
        ];
        for w in order.windows(2) {
            assert!(v(w[0]) < v(w[1]), "{} < {}", w[0], w[1]);
        }
        assert_eq!(v("1.0.0+a").cmp(&v("1.0.0+b")), Ordering::Equal);
        assert_ne!(v("1.0.0+a"), v("1.0.0+b"));
        assert!(SemVer::min() < v("0.0.0-0"));
        assert!(SemVer::max() > v("99999999999999999999.0.0"));
    }

    #[test]
    fn numbers() {
        assert_eq!(Num::from_digits("999").succ(), Num::from_digits("1000"));
        assert_eq!(Num::from_digits("0").succ(), Num::from_digits("1"));
        assert_eq!(Num::from_digits("007"), Num::from_digits("7"));
        assert!(Num::from_digits("10") > Num::from_digits("9"));
    }
}
