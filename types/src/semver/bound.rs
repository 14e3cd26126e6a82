//! The pieces of a version range: SemanticPuppet's `AbstractRange` subclasses (`AllRange`,
//! `MinMaxRange`, `GtRange`, `GtEqRange`, `LtRange`, `LtEqRange`, `EqRange`), with their
//! intersection and merge exactly as `version_range.rb` computes them, bugs included.

use std::cmp::Ordering;
use std::fmt;

use super::version::SemVer;

/// One matcher of a range (`VersionRange::AbstractRange`). A `MinMax` never holds another
/// `MinMax` (`MinMaxRange.new` unwraps them).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// `*`: every version, prereleases included.
    All,
    /// Both matchers (`>=1.0.0 <2.0.0`).
    MinMax(Box<Bound>, Box<Bound>),
    Gt(SemVer),
    GtEq(SemVer),
    /// `<v`; `<0.0.0-` (`Version::MIN`) is `MATCH_NOTHING`, which prints as `<0.0.0`.
    Lt(SemVer),
    LtEq(SemVer),
    Eq(SemVer),
}

impl Bound {
    /// `LtRange::MATCH_NOTHING`.
    pub fn match_nothing() -> Bound {
        Bound::Lt(SemVer::min())
    }

    /// `MinMaxRange.new(min, max)`: nested min-max ranges contribute their own min and max.
    pub fn min_max(min: Bound, max: Bound) -> Bound {
        let min = match min {
            Bound::MinMax(m, _) => *m,
            other => other,
        };
        let max = match max {
            Bound::MinMax(_, m) => *m,
            other => other,
        };
        Bound::MinMax(Box::new(min), Box::new(max))
    }

    /// `MinMaxRange.create(*ranges)`: the intersection of all (`nil` when one is empty; an
    /// empty intersection followed by more ranges is Ruby's `NoMethodError`).
    pub fn create(ranges: Vec<Bound>) -> Result<Option<Bound>, String> {
        let mut it = ranges.into_iter();
        let Some(mut memo) = it.next() else { return Ok(None) };
        let mut rest = it.peekable();
        while let Some(r) = rest.next() {
            match memo.intersection(&r) {
                Some(m) => memo = m,
                None if rest.peek().is_some() => {
                    return Err("undefined method `intersection' for nil:NilClass".to_owned());
                }
                None => return Ok(None),
            }
        }
        Ok(Some(memo))
    }

    /// The lowest version matched (`begin`).
    pub fn begin(&self) -> SemVer {
        match self {
            Bound::MinMax(min, _) => min.begin(),
            Bound::Gt(v) | Bound::GtEq(v) | Bound::Eq(v) => v.clone(),
            Bound::All | Bound::Lt(_) | Bound::LtEq(_) => SemVer::min(),
        }
    }

    /// The highest version matched (`end`).
    pub fn end(&self) -> SemVer {
        match self {
            Bound::MinMax(_, max) => max.end(),
            Bound::Lt(v) | Bound::LtEq(v) | Bound::Eq(v) => v.clone(),
            Bound::All | Bound::Gt(_) | Bound::GtEq(_) => SemVer::max(),
        }
    }

    pub fn exclude_begin(&self) -> bool {
        match self {
            Bound::MinMax(min, _) => min.exclude_begin(),
            Bound::Gt(_) => true,
            _ => false,
        }
    }

    pub fn exclude_end(&self) -> bool {
        match self {
            Bound::MinMax(_, max) => max.exclude_end(),
            Bound::Lt(_) => true,
            _ => false,
        }
    }

    /// Whether the range has a real lower bound (`lower_bound?`).
    fn lower_bound(&self) -> bool {
        match self {
            Bound::MinMax(min, _) => min.lower_bound(),
            Bound::Gt(_) => true,
            Bound::GtEq(v) | Bound::Eq(v) => *v != SemVer::min(),
            _ => false,
        }
    }

    /// Whether the range has a real upper bound (`upper_bound?`).
    fn upper_bound(&self) -> bool {
        match self {
            Bound::MinMax(_, max) => max.upper_bound(),
            Bound::Lt(_) => true,
            Bound::LtEq(v) | Bound::Eq(v) => *v != SemVer::max(),
            _ => false,
        }
    }

    /// `include?`: the comparison alone (`EqRange` compares with `==`, so the build counts).
    pub fn includes(&self, v: &SemVer) -> bool {
        match self {
            Bound::All => true,
            Bound::MinMax(min, max) => min.includes(v) && max.includes(v),
            Bound::Gt(b) => v > b,
            Bound::GtEq(b) => v >= b,
            Bound::Lt(b) => v < b,
            Bound::LtEq(b) => v <= b,
            Bound::Eq(b) => v == b,
        }
    }

    /// `include?(nil)`, which Puppet reaches when it asks a range of several parts for its
    /// (missing) begin: Ruby's `NoMethodError` for the comparisons.
    pub(crate) fn includes_nil(&self) -> Result<bool, String> {
        let op = match self {
            Bound::All => return Ok(true),
            Bound::Eq(_) => return Ok(false),
            Bound::MinMax(min, max) => return Ok(min.includes_nil()? && max.includes_nil()?),
            Bound::Gt(_) => ">",
            Bound::GtEq(_) => ">=",
            Bound::Lt(_) => "<",
            Bound::LtEq(_) => "<=",
        };
        Err(format!("undefined method `{op}' for nil:NilClass"))
    }

    /// `test_prerelease?`: whether a prerelease of `v`'s `major.minor.patch` is matched,
    /// which only a bound that itself names a prerelease of that triple allows (and `*`).
    pub fn test_prerelease(&self, v: &SemVer) -> bool {
        match self {
            Bound::All => true,
            Bound::MinMax(min, max) => min.test_prerelease(v) || max.test_prerelease(v),
            Bound::Gt(b) | Bound::GtEq(b) | Bound::Lt(b) | Bound::LtEq(b) | Bound::Eq(b) => {
                !b.is_stable() && b.major == v.major && b.minor == v.minor && b.patch == v.patch
            }
        }
    }

    /// `AbstractRange#intersection` (`AllRange#intersection` is the other range): `None`
    /// when nothing is in both.
    pub fn intersection(&self, range: &Bound) -> Option<Bound> {
        if *self == Bound::All {
            return Some(range.clone());
        }
        match self.begin().cmp(&range.end()) {
            Ordering::Greater => return None,
            Ordering::Equal => {
                return if self.exclude_begin() || range.exclude_end() { None } else { Some(Bound::Eq(self.begin())) };
            }
            Ordering::Less => {}
        }
        match range.begin().cmp(&self.end()) {
            Ordering::Greater => return None,
            Ordering::Equal => {
                return if range.exclude_begin() || self.exclude_end() { None } else { Some(Bound::Eq(range.begin())) };
            }
            Ordering::Less => {}
        }
        let min = match self.begin().cmp(&range.begin()) {
            Ordering::Less => range,
            Ordering::Greater => self,
            Ordering::Equal if self.exclude_begin() => self,
            Ordering::Equal => range,
        };
        let max = match self.end().cmp(&range.end()) {
            Ordering::Greater => range,
            Ordering::Less => self,
            Ordering::Equal if self.exclude_end() => self,
            Ordering::Equal => range,
        };
        Some(if !max.upper_bound() {
            min.clone()
        } else if !min.lower_bound() {
            max.clone()
        } else {
            Bound::min_max(min.clone(), max.clone())
        })
    }

    /// `AbstractRange#merge` (`AllRange#merge` is itself): one range matching what either
    /// matches, when they overlap or are adjacent. Overlapping ranges with the same end hit
    /// SemanticPuppet's misspelt `exclude_end`, a `NameError`.
    pub fn merge(&self, other: &Bound) -> Result<Option<Bound>, String> {
        if *self == Bound::All {
            return Ok(Some(Bound::All));
        }
        if self.includes(&other.begin()) || other.includes(&self.begin()) {
            let (min, excl_begin) = match self.begin().cmp(&other.begin()) {
                Ordering::Less => (self.begin(), self.exclude_begin()),
                Ordering::Greater => (other.begin(), other.exclude_begin()),
                Ordering::Equal => (self.begin(), self.exclude_begin() && other.exclude_begin()),
            };
            let (max, excl_end) = match self.end().cmp(&other.end()) {
                Ordering::Greater => (self.end(), self.exclude_end()),
                Ordering::Less => (other.end(), other.exclude_end()),
                Ordering::Equal => return Err(self.name_error("exclude_end")),
            };
            let lower = if excl_begin { Bound::Gt(min) } else { Bound::GtEq(min) };
            let upper = if excl_end { Bound::Lt(max) } else { Bound::LtEq(max) };
            return Bound::create(vec![lower, upper]);
        }
        if self.exclude_end() && !other.exclude_begin() && self.end() == other.begin() {
            return Bound::from_to(self, other);
        }
        if other.exclude_end() && !self.exclude_begin() && other.end() == self.begin() {
            return Bound::from_to(other, self);
        }
        if !self.exclude_end() && !other.exclude_begin() && self.end().next_patch() == other.begin() {
            return Bound::from_to(self, other);
        }
        if !other.exclude_end() && !self.exclude_begin() && other.end().next_patch() == self.begin() {
            return Bound::from_to(other, self);
        }
        Ok(None)
    }

    /// `from_to(a, b)`: from `a`'s beginning to `b`'s end.
    fn from_to(a: &Bound, b: &Bound) -> Result<Option<Bound>, String> {
        let lower = if a.exclude_begin() { Bound::Gt(a.begin()) } else { Bound::GtEq(a.begin()) };
        let upper = if b.exclude_end() { Bound::Lt(b.end()) } else { Bound::LtEq(b.end()) };
        Bound::create(vec![lower, upper])
    }

    /// Ruby's `NameError` for a method called on this range: the receiver is shown by its
    /// `inspect` (a min-max range's is its string, followed by its class; the others show an
    /// object address, which varies from run to run in Puppet).
    fn name_error(&self, method: &str) -> String {
        let receiver = match self {
            Bound::MinMax(..) => format!("{self}:SemanticPuppet::VersionRange::MinMaxRange"),
            Bound::All => "#<SemanticPuppet::VersionRange::AllRange:0x0000000000000000>".to_owned(),
            Bound::Gt(v) | Bound::GtEq(v) | Bound::Lt(v) | Bound::LtEq(v) | Bound::Eq(v) => {
                format!("#<SemanticPuppet::VersionRange::{}:0x0000000000000000 @version={v}>", self.class_name())
            }
        };
        format!("undefined local variable or method `{method}' for {receiver}")
    }

    fn class_name(&self) -> &'static str {
        match self {
            Bound::All => "AllRange",
            Bound::MinMax(..) => "MinMaxRange",
            Bound::Gt(_) => "GtRange",
            Bound::GtEq(_) => "GtEqRange",
            Bound::Lt(_) => "LtRange",
            Bound::LtEq(_) => "LtEqRange",
            Bound::Eq(_) => "EqRange",
        }
    }
}

impl fmt::Display for Bound {
    /// The matcher's `to_s`: `*`, `>=1.0.0 <2.0.0`, `>1.0.0`, `<=1.0.0`, `1.0.0`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::All => f.write_str("*"),
            Bound::MinMax(min, max) => write!(f, "{min} {max}"),
            Bound::Gt(v) => write!(f, ">{v}"),
            Bound::GtEq(v) => write!(f, ">={v}"),
            Bound::Lt(v) if *v == SemVer::min() => f.write_str("<0.0.0"),
            Bound::Lt(v) => write!(f, "<{v}"),
            Bound::LtEq(v) => write!(f, "<={v}"),
            Bound::Eq(v) => write!(f, "{v}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> SemVer {
        SemVer::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn intersections() {
        let a = Bound::GtEq(v("1.0.0"));
        let b = Bound::Lt(v("2.0.0"));
        assert_eq!(a.intersection(&b).map(|r| r.to_string()).as_deref(), Some(">=1.0.0 <2.0.0"));
        let c = Bound::LtEq(v("1.0.0"));
        assert_eq!(a.intersection(&c), Some(Bound::Eq(v("1.0.0"))));
        assert_eq!(Bound::Gt(v("1.0.0")).intersection(&c), None);
        assert_eq!(Bound::GtEq(SemVer::min()).intersection(&c), Some(c.clone()));
    }

    #[test]
    fn merges() {
        let a = Bound::min_max(Bound::GtEq(v("1.0.0")), Bound::Lt(v("2.0.0")));
        let b = Bound::min_max(Bound::GtEq(v("2.0.0")), Bound::Lt(v("3.0.0")));
        let m = b.merge(&a).ok().flatten().map(|r| r.to_string());
        assert_eq!(m.as_deref(), Some(">=1.0.0 <3.0.0"));
        let e = Bound::GtEq(v("2.0.0")).merge(&Bound::GtEq(v("1.0.0")));
        assert!(e.is_err_and(|e| e.contains("`exclude_end' for #<SemanticPuppet::VersionRange::GtEqRange")));
        let adjacent = Bound::Eq(v("1.0.0")).merge(&Bound::Eq(v("1.0.1")));
        assert_eq!(adjacent.ok().flatten().map(|r| r.to_string()).as_deref(), Some(">=1.0.0 <=1.0.1"));
    }
}
