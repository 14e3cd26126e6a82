//! `URI + 'ref'` and `URI + URI`: reference resolution as Ruby's `URI::Generic#merge`
//! does it (RFC 3986 section 5.2 in Ruby's version, with its `merge_path`):
//!
//! | reference            | result                                                     |
//! |----------------------|------------------------------------------------------------|
//! | has a scheme         | the reference                                              |
//! | empty, or `#f` only  | the base (with the reference's fragment)                   |
//! | `//authority/p`      | the base's scheme with the reference's authority, path, query, fragment |
//! | a path, `?q`         | the paths merged (`.` and `..` resolved), the reference's query and fragment |
//!
//! A relative base is `both URI are relative`; a query on an opaque base (`urn:a` + `?x`)
//! is `query conflicts with opaque`. The string is parsed with the base's parser (RFC 3986,
//! or RFC 2396 for a URI built from a hash).

use super::build::from_split;
use super::parse::{split_rfc2396, split_rfc3986};
use super::{Parser, Uri};
use crate::error::{Error, Result};
use crate::value::Value;

impl Uri {
    /// `self + s` (`merge(parser.parse(s))`).
    pub fn merge_str(&self, s: &str) -> Result<Uri> {
        let split = match self.parser {
            Parser::Rfc3986 => split_rfc3986(s),
            Parser::Rfc2396 => split_rfc2396(s),
        }
        .map_err(Error::new)?;
        self.merge(&from_split(split, self.parser)?)
    }

    /// `self + rel` (`URI::Generic#merge`).
    pub fn merge(&self, rel: &Uri) -> Result<Uri> {
        if rel.scheme.is_some() {
            return Ok(rel.clone());
        }
        if self.scheme.is_none() {
            return Err(Error::new("both URI are relative"));
        }
        let mut base = self.clone();
        let authority = rel.userinfo().is_some() || rel.host.is_some() || rel.port.is_some();
        let rel_path = rel.path_part();
        if rel_path.as_deref().is_none_or(str::is_empty) && !authority && rel.query.is_none() {
            if rel.fragment.is_some() {
                base.set_fragment(rel.fragment.as_deref());
            }
            base.refresh();
            return Ok(base);
        }
        base.set_query(None).map_err(Error::new)?;
        base.set_fragment(None);
        if authority {
            base.set_userinfo(rel.userinfo().as_deref());
            base.set_host(rel.host.clone());
            let port = rel.port.clone().or_else(|| base.class.default_port().map(str::to_owned));
            base.set_port(port.as_deref());
            base.set_path(rel_path.as_deref().unwrap_or_default());
        } else if let (Some(bp), Some(rp)) = (base.path_part(), &rel_path) {
            base.set_path(&merge_path(&bp, rp));
        }
        if rel.query.is_some() {
            base.set_query(rel.query.as_deref()).map_err(Error::new)?;
        }
        if rel.fragment.is_some() {
            base.set_fragment(rel.fragment.as_deref());
        }
        base.refresh();
        Ok(base)
    }
}

/// `URI + other` as the evaluator's `concatenate` does it: a String or a URI, else
/// `An URI can only be merged with an URI or String`.
pub fn concatenate(uri: &Uri, other: &Value) -> Result<Uri> {
    match other {
        Value::String(s) => uri.merge_str(s),
        Value::Uri(u) => uri.merge(u),
        _ => Err(Error::new("An URI can only be merged with an URI or String")),
    }
}

/// Ruby's `path.split("/", -1)` (`""` has no fields).
fn split_path(path: &str) -> Vec<String> {
    if path.is_empty() {
        return Vec::new();
    }
    path.split('/').map(str::to_owned).collect()
}

/// `URI::Generic#merge_path`: the reference's path resolved against the base's.
pub fn merge_path(base: &str, rel: &str) -> String {
    let mut base_path = split_path(base);
    let mut rel_path = split_path(rel);
    if base_path.last().is_some_and(|l| l == "..") {
        base_path.push(String::new());
    }
    while let Some(i) = base_path.iter().position(|s| s == "..") {
        // `slice!(i - 1, 2)`; at 0 that is `slice!(-1, 2)`, the last element
        if i == 0 {
            base_path.pop();
        } else {
            base_path.drain(i - 1..(i + 1).min(base_path.len()));
        }
    }
    if rel_path.first().is_some_and(String::is_empty) {
        base_path.clear();
        rel_path.remove(0);
    }
    if rel_path.last().is_some_and(|l| l == "." || l == "..") {
        rel_path.push(String::new());
    }
    rel_path.retain(|s| s != ".");
    let mut tmp: Vec<String> = Vec::new();
    for x in rel_path {
        if x == ".." && !(tmp.is_empty() || tmp.last().is_some_and(|l| l == "..")) {
            tmp.pop();
        } else {
            tmp.push(x);
        }
    }
    let mut add_trailer_slash = !tmp.is_empty();
    if base_path.is_empty() {
        base_path = vec![String::new()];
    } else if add_trailer_slash {
        base_path.pop();
    }
    let mut rest = tmp.into_iter();
    while let Some(x) = rest.next() {
        if x == ".." {
            if base_path.len() > 1 {
                base_path.pop();
            }
        } else {
            base_path.push(x);
            base_path.extend(rest.by_ref());
            add_trailer_slash = false;
            break;
        }
    }
    if add_trailer_slash {
        base_path.push(String::new());
    }
    base_path.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn merged(base: &str, rel: &str) -> String {
        let b = Uri::parse(base).unwrap_or_else(|e| panic!("{e}"));
        match b.merge_str(rel) {
            Ok(u) => u.to_string(),
            Err(e) => format!("!! {}", e.message),
        }
    }

    /// RFC 3986 section 5.4's examples, with Ruby's answers.
    #[test]
    fn reference_resolution() {
        let base = "http://a/b/c/d;p?q";
        let cases = [
            ("g:h", "g:h"),
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("g#s", "http://a/b/c/g#s"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../../g", "http://a/g"),
            ("../../../../g", "http://a/g"),
            ("/./g", "http://a/g"),
            ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            ("./../g", "http://a/b/g"),
            ("g;x=1/../y", "http://a/b/c/y"),
            ("http:g", "http:g"),
        ];
        for (rel, expected) in cases {
            assert_eq!(merged(base, rel), expected, "{rel}");
        }
    }

    #[test]
    fn ruby_specifics() {
        assert_eq!(merged("http://a/b", "c"), "http://a/c");
        assert_eq!(merged("http://a", "b"), "http://a/b");
        assert_eq!(merged("/a", "b"), "!! both URI are relative");
        assert_eq!(merged("urn:a:b", "?x"), "!! query conflicts with opaque");
        assert_eq!(merged("urn:a:b", "#x"), "urn:a:b#x");
        assert_eq!(merged("mailto:a@b", "#f"), "mailto:a@b#f");
        assert_eq!(merged("mailto:a@b", "x"), "mailto:a@b");
        assert_eq!(merged("ftp://h/a/b;type=i", "c"), "ftp://h/a/c;type=i");
        assert_eq!(merged("ftp://h/a/b", "/c"), "ftp://h/%2Fc");
        assert_eq!(merged("ftp://h/a/b", "//h2/c"), "ftp://h2/%2Fc");
        assert_eq!(merged("http://u@a:81/b", "//c"), "http://c");
        assert_eq!(merged("https://a:8443/b", "//c/d"), "https://c/d");
        assert_eq!(merged("file:///a/b", "c"), "file:///a/c");
        assert_eq!(merged("http://a/b?q#f", "#g"), "http://a/b?q#g");
        assert_eq!(merged("http://a/b", "d e"), "!! bad URI(is not URI?): \"d e\"");
    }

    #[test]
    fn built_bases_parse_with_rfc2396() {
        let h = [("scheme", "http"), ("host", "a"), ("path", "/b/c")]
            .iter()
            .map(|(k, v)| (Value::from(*k), Value::from(*v)))
            .collect();
        let b = super::super::build::from_hash(&h).unwrap_or_else(|e| panic!("{e}"));
        let m = |s: &str| b.merge_str(s).map(|u| u.to_string()).unwrap_or_else(|e| format!("!! {}", e.message));
        assert_eq!(m("d"), "http://a/b/d");
        assert_eq!(m(" d "), "http://a/b/d");
        assert_eq!(m("d e"), "!! bad URI(is not URI?): d e");
        assert_eq!(m("http:"), "!! bad URI(absolute but no path): http:");
        assert_eq!(m("//a_b/x"), "!! the scheme  does not accept registry part: a_b (or bad hostname?)");
    }
}
