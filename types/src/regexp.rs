//! `Regexp` values: Ruby's regular-expression dialect on top of `fancy-regex` (which hands
//! everything without look-around or back-references to the linear-time `regex` crate).
//!
//! The source is translated to the Rust crates' syntax by [`poppet_ruby::regexp::translate`]
//! (which lists the differences), checked and printed as Ruby does by
//! [`poppet_ruby::regexp`].

use std::cell::OnceCell;
use std::fmt;

/// A compiled regular expression with its Puppet source (the text between the slashes of
/// `/…/`, or the string given to `Regexp[...]`).
pub struct Regexp {
    source: Box<str>,
    compiled: OnceCell<Result<fancy_regex::Regex, String>>,
}

impl Regexp {
    /// A regexp for `source`; it compiles on first use. See [`Regexp::check`].
    pub fn new(source: impl Into<Box<str>>) -> Regexp {
        Regexp { source: source.into(), compiled: OnceCell::new() }
    }

    /// A regexp that compiles, or the compiler's message.
    pub fn compile(source: impl Into<Box<str>>) -> Result<Regexp, String> {
        let r = Regexp::new(source);
        r.check()?;
        Ok(r)
    }

    /// `Regexp.escape`: the source that matches `s` literally (Ruby's escaping).
    pub fn escape(s: &str) -> String {
        poppet_ruby::regexp::escape(s)
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// The compiler's message when the source is not a valid regexp.
    pub fn check(&self) -> Result<(), String> {
        self.regex().map(|_| ())
    }

    fn regex(&self) -> Result<&fancy_regex::Regex, String> {
        self.compiled
            .get_or_init(|| {
                fancy_regex::RegexBuilder::new(&poppet_ruby::regexp::translate(&self.source))
                    .backtrack_limit(1_000_000)
                    .build()
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Whether the regexp matches somewhere in `s` (false when it does not compile).
    pub fn is_match(&self, s: &str) -> bool {
        self.regex().is_ok_and(|r| r.is_match(s).unwrap_or(false))
    }

    /// The first match: the whole match and each group (`None` for groups that did not take
    /// part), as Puppet's match variables `$0`, `$1`, … hold them.
    pub fn captures(&self, s: &str) -> Option<Vec<Option<String>>> {
        let r = self.regex().ok()?;
        let caps = r.captures(s).ok()??;
        Some((0..caps.len()).map(|i| caps.get(i).map(|m| m.as_str().to_owned())).collect())
    }

    /// The compiled regex, for callers that iterate over matches.
    pub fn compiled(&self) -> Result<&fancy_regex::Regex, String> {
        self.regex()
    }
}

impl Clone for Regexp {
    fn clone(&self) -> Regexp {
        Regexp { source: self.source.clone(), compiled: self.compiled.clone() }
    }
}

impl fmt::Debug for Regexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/{}/", self.source)
    }
}

impl PartialEq for Regexp {
    fn eq(&self, other: &Regexp) -> bool {
        self.source == other.source
    }
}

impl Eq for Regexp {}

impl std::hash::Hash for Regexp {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.source.hash(state)
    }
}

// ---- Ruby's printed forms of a regexp -------------------------------------------------

/// `PRegexpType.regexp_to_s` (what `%s` shows): the source, in an options group when Ruby
/// gives the regexp options (its fixed encoding).
pub fn to_s(source: &str) -> String {
    if poppet_ruby::regexp::has_fixed_encoding(source) {
        format!("(?-imx:{source})")
    } else {
        source.to_owned()
    }
}

/// `PRegexpType.regexp_to_s_with_delimiters`: `inspect` (`/a\/b/`), or `/#{to_s}/` when the
/// regexp has options.
pub fn to_s_with_delimiters(source: &str) -> String {
    if poppet_ruby::regexp::has_fixed_encoding(source) {
        format!("/{}/", poppet_ruby::regexp::to_s(source))
    } else {
        format!("/{}/", poppet_ruby::regexp::expr_str(source, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruby_dialect() {
        assert!(Regexp::new("^b").is_match("a\nb"));
        assert!(Regexp::new("(?m-ix:a.b)").is_match("a\nb"));
        assert!(!Regexp::new("(?i-mx:a.b)").is_match("a\nb"));
        assert!(Regexp::new("(?i-mx:A)").is_match("a"));
        assert!(Regexp::new("\\h+\\Z").is_match("ff\n"));
        assert!(Regexp::new("(?<x>a)\\k<x>").is_match("aa"));
        assert!(Regexp::new("[]a]").is_match("]"));
        assert!(Regexp::new("(").check().is_err());
        // Ruby's \d, \w and \s are ASCII-only; \b is not.
        assert!(!Regexp::new("\\d").is_match("\u{663}"));
        assert!(!Regexp::new("^\\w$").is_match("é"));
        assert!(Regexp::new("^\\W$").is_match("é"));
        assert!(!Regexp::new("\\s").is_match("\u{a0}"));
        assert!(Regexp::new("^[\\w.]+$").is_match("a_1.b"));
        assert!(Regexp::new("^\\s\\S\\d\\D$").is_match(" x1y"));
        assert!(!Regexp::new("a\\b").is_match("aé"));
        assert!(Regexp::new("^[[:alpha:]]$").is_match("é"));
        assert!(Regexp::new("^[x[:digit:]]+$").is_match("x٣1"));
        assert!(!Regexp::new("^[[:^alpha:]]$").is_match("é"));
        // Octal escapes after \0 (stdlib's Unixpath has `[^\n\/\0]`).
        assert!(Regexp::new("\\A\\/([^\\n\\/\\0]+\\/*)*\\z").is_match("/var/lib"));
        assert!(Regexp::new("\\0").is_match("a\0"));
        assert!(Regexp::new("^a\\01$").is_match("a\u{1}"));
        assert!(Regexp::new("^\\078$").is_match("\u{7}8"));
    }

    #[test]
    fn ruby_to_s_beyond_ascii() {
        assert_eq!(to_s("é+"), "(?-imx:é+)");
        assert_eq!(to_s_with_delimiters("é+"), "/(?-mix:é+)/");
        assert_eq!(to_s_with_delimiters("(?i:é)"), "/(?i-mx:é)/");
        assert_eq!(to_s_with_delimiters("(?i)é"), "/(?i-mx:é)/");
        assert_eq!(to_s_with_delimiters("(?i:a)é"), "/(?-mix:(?i:a)é)/");
        assert_eq!(to_s_with_delimiters("a/b\\/c"), "/a\\/b\\/c/");
        assert_eq!(to_s_with_delimiters("a\u{1}b"), "/a\\x01b/");
        assert_eq!(to_s_with_delimiters("(?i:a)"), "/(?i:a)/");
    }
}
