//! `URI`: an RFC 3986 URI as Ruby 3.1's `URI` library parses, builds, prints and merges it
//! (`PURIType` in `pops/types/p_uri_type.rb` holds Ruby `URI` objects).
//!
//! Ruby's `URI` is not the WHATWG URL standard the `url` crate implements: it keeps what it
//! parsed (no path normalisation, no percent-decoding, the host's case), only downcases the
//! scheme, drops a port equal to the scheme's default, and has a class per scheme with its
//! own rules. So this is a port of Ruby's classes, not a use of a crate:
//!
//! | class (scheme)        | default port | particulars                                              |
//! |-----------------------|--------------|----------------------------------------------------------|
//! | Generic (other)       |              | `file:` and `postgres:` print `//` even without a host    |
//! | HTTP, HTTPS           | 80, 443      |                                                          |
//! | WS, WSS               | 80, 443      |                                                          |
//! | FTP                   | 21           | the path is relative (`/%2F` for an absolute one), `;type=` typecode |
//! | File                  |              | no userinfo or port; host `localhost` or none is `""`     |
//! | LDAP, LDAPS           | 389, 636     | no fragment; `bad LDAP URL`                              |
//! | MailTo                |              | the opaque part is `to?headers`                          |
//!
//! - [`parse`]: splitting strings (RFC 3986 for `URI(string)`, RFC 2396 for the string given
//!   to `+` on a URI built from a hash);
//! - [`build`]: `URI(hash)` (`URI::Generic.build` and its checks);
//! - [`merge`]: `URI + string`, `URI + URI` (`URI::Generic#merge`, RFC 3986 section 5.2 as
//!   Ruby does it);
//! - this file: the value, its parts (`$uri.host`, `URI[{host => ...}]`), printing and `==`.

pub mod build;
pub mod merge;
pub mod parse;

pub(crate) use build::signatures;

use std::fmt;
use std::rc::Rc;

use crate::dispatch::Selected;
use crate::error::{Error, Result};
use crate::value::{Hash, Value};

/// Ruby's class of a URI, chosen by its scheme (`URI.for`; `URI.scheme_list`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    Generic,
    Http,
    Https,
    Ftp,
    File,
    Ldap,
    Ldaps,
    MailTo,
    Ws,
    Wss,
}

impl Class {
    /// The class `URI.for` picks for `scheme` (case-insensitive).
    pub fn for_scheme(scheme: Option<&str>) -> Class {
        match scheme.map(str::to_ascii_uppercase).as_deref() {
            Some("HTTP") => Class::Http,
            Some("HTTPS") => Class::Https,
            Some("FTP") => Class::Ftp,
            Some("FILE") => Class::File,
            Some("LDAP") => Class::Ldap,
            Some("LDAPS") => Class::Ldaps,
            Some("MAILTO") => Class::MailTo,
            Some("WS") => Class::Ws,
            Some("WSS") => Class::Wss,
            _ => Class::Generic,
        }
    }

    /// `DEFAULT_PORT`.
    pub fn default_port(self) -> Option<&'static str> {
        match self {
            Class::Http | Class::Ws => Some("80"),
            Class::Https | Class::Wss => Some("443"),
            Class::Ftp => Some("21"),
            Class::Ldap => Some("389"),
            Class::Ldaps => Some("636"),
            Class::Generic | Class::File | Class::MailTo => None,
        }
    }

    /// The scheme `build` gives a URI of this class (`Util.make_components_hash`).
    fn scheme_name(self) -> Option<&'static str> {
        match self {
            Class::Generic => None,
            Class::Http => Some("http"),
            Class::Https => Some("https"),
            Class::Ftp => Some("ftp"),
            Class::File => Some("file"),
            Class::Ldap => Some("ldap"),
            Class::Ldaps => Some("ldaps"),
            Class::MailTo => Some("mailto"),
            Class::Ws => Some("ws"),
            Class::Wss => Some("wss"),
        }
    }
}

/// Which of Ruby's parsers made the URI: `URI.parse` uses RFC 3986; a URI built from parts
/// has the default parser, RFC 2396, which also reads the string given to its `+`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Parser {
    Rfc3986,
    Rfc2396,
}

/// A URI: Ruby's instance variables, and its string.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Uri {
    /// What the URI prints as (`to_s`).
    pub text: String,
    pub class: Class,
    pub parser: Parser,
    pub scheme: Option<String>,
    pub user: Option<String>,
    pub password: Option<String>,
    pub host: Option<String>,
    /// The port's decimal digits (Ruby's `to_i` of what was parsed, or the default port).
    pub port: Option<String>,
    /// Ruby's `@path` (for FTP, with the `/` its `set_path` adds).
    pub path: Option<String>,
    pub query: Option<String>,
    pub opaque: Option<String>,
    pub fragment: Option<String>,
    /// FTP's `;type=` code.
    pub typecode: Option<String>,
    /// MailTo's `to` and `headers`.
    pub mailto: Option<(String, Vec<Vec<String>>)>,
}

impl Uri {
    /// `URI.parse(s)` (RFC 3986).
    pub fn parse(s: &str) -> Result<Uri> {
        let split = parse::split_rfc3986(s).map_err(Error::new)?;
        build::from_split(split, Parser::Rfc3986)
    }

    /// `userinfo`: `user`, or `user:password`.
    pub fn userinfo(&self) -> Option<String> {
        let user = self.user.as_ref()?;
        Some(match &self.password {
            Some(p) => format!("{user}:{p}"),
            None => user.clone(),
        })
    }

    /// The `path` accessor: `@path`, except for FTP, whose path is relative
    /// (`@path.sub(/^\//,'').sub(/^%2F/,'/')`).
    pub fn path_part(&self) -> Option<String> {
        let path = self.path.as_ref()?;
        if self.class != Class::Ftp {
            return Some(path.clone());
        }
        let p = path.strip_prefix('/').unwrap_or(path);
        Some(match p.strip_prefix("%2F") {
            Some(rest) => format!("/{rest}"),
            None => p.to_owned(),
        })
    }

    /// One of the parts Puppet reads from a URI (`$uri.host`, the keys of `URI[{...}]`):
    /// `scheme`, `userinfo`, `host`, `port` (an Integer), `path`, `query`, `fragment`,
    /// `opaque`; `Some(Value::Undef)` when the URI has no such part, `None` for another name.
    pub fn part(&self, name: &str) -> Option<Value> {
        let s = |v: Option<String>| v.map_or(Value::Undef, Value::string);
        Some(match name {
            "scheme" => s(self.scheme.clone()),
            "userinfo" => s(self.userinfo()),
            "host" => s(self.host.clone()),
            "port" => match &self.port {
                None => Value::Undef,
                Some(p) => p.parse::<i64>().map_or_else(|_| Value::string(p.as_str()), Value::Integer),
            },
            "path" => s(self.path_part()),
            "query" => s(self.query.clone()),
            "fragment" => s(self.fragment.clone()),
            "opaque" => s(self.opaque.clone()),
            _ => return None,
        })
    }

    /// `PURIType#uri_to_hash`: the parameters of `URI['string']` (and of the type inferred
    /// for a URI): the scheme downcased, the userinfo, the host downcased (unless empty), the
    /// port *as a string* (unless 80 for http or 443 for https), the path (unless empty),
    /// query, fragment and opaque; `None` when there are none.
    pub fn type_parameters(&self) -> Option<Hash> {
        let mut h = Hash::default();
        let mut put = |k: &str, v: String| {
            h.insert(Value::from(k), Value::string(v));
        };
        let scheme = self.scheme.as_ref().map(|s| s.to_ascii_lowercase());
        if let Some(s) = &scheme {
            put("scheme", s.clone());
        }
        if let Some(u) = self.userinfo() {
            put("userinfo", u);
        }
        if let Some(host) = self.host.as_ref().filter(|h| !h.is_empty()) {
            put("host", host.to_ascii_lowercase());
        }
        if let Some(port) = &self.port {
            let implicit = (port == "80" && scheme.as_deref() == Some("http"))
                || (port == "443" && scheme.as_deref() == Some("https"));
            if !implicit {
                put("port", port.clone());
            }
        }
        if let Some(path) = self.path_part().filter(|p| !p.is_empty()) {
            put("path", path);
        }
        if let Some(q) = &self.query {
            put("query", q.clone());
        }
        if let Some(f) = &self.fragment {
            put("fragment", f.clone());
        }
        if let Some(o) = &self.opaque {
            put("opaque", o.clone());
        }
        (!h.is_empty()).then_some(h)
    }

    /// Ruby's `==` (Puppet's `==` on URIs): the same class, and the same components once
    /// both are normalised (an empty path is `/`, scheme and host downcased).
    pub fn equals(&self, other: &Uri) -> bool {
        self.class == other.class && self.normalized().components() == other.normalized().components()
    }

    /// `normalize`.
    fn normalized(&self) -> Uri {
        let mut u = self.clone();
        if u.path_part().is_some_and(|p| p.is_empty()) {
            u.set_path("/");
        }
        u.scheme = u.scheme.map(|s| s.to_ascii_lowercase());
        u.host = u.host.map(|h| h.to_ascii_lowercase());
        u
    }

    /// `component_ary`: the values of the class's `COMPONENT` list.
    fn components(&self) -> Vec<Option<String>> {
        let (to, headers) = match &self.mailto {
            Some((to, headers)) => {
                (Some(to.clone()), Some(headers.iter().map(|h| h.join("=")).collect::<Vec<_>>().join("&")))
            }
            None => (None, None),
        };
        match self.class {
            Class::Generic => vec![
                self.scheme.clone(),
                self.userinfo(),
                self.host.clone(),
                self.port.clone(),
                None,
                self.path_part(),
                self.opaque.clone(),
                self.query.clone(),
                self.fragment.clone(),
            ],
            Class::Http | Class::Https => vec![
                self.scheme.clone(),
                self.userinfo(),
                self.host.clone(),
                self.port.clone(),
                self.path_part(),
                self.query.clone(),
                self.fragment.clone(),
            ],
            Class::Ws | Class::Wss => vec![
                self.scheme.clone(),
                self.userinfo(),
                self.host.clone(),
                self.port.clone(),
                self.path_part(),
                self.query.clone(),
            ],
            Class::Ftp => vec![
                self.scheme.clone(),
                self.userinfo(),
                self.host.clone(),
                self.port.clone(),
                self.path_part(),
                self.typecode.clone(),
            ],
            Class::File => vec![self.scheme.clone(), self.host.clone(), self.path_part()],
            Class::Ldap | Class::Ldaps => {
                let mut v = vec![self.scheme.clone(), self.host.clone(), self.port.clone()];
                v.push(self.path.as_ref().and_then(|p| p.get(1..)).map(str::to_owned));
                v.extend(build::ldap_query_parts(self.query.as_deref()));
                v
            }
            Class::MailTo => vec![self.scheme.clone(), to, headers],
        }
    }

    /// `set_path` (FTP's makes the path absolute, an absolute one as `/%2F...`).
    pub(crate) fn set_path(&mut self, v: &str) {
        self.path = Some(if self.class == Class::Ftp {
            match v.strip_prefix('/') {
                Some(rest) => format!("/%2F{rest}"),
                None => format!("/{v}"),
            }
        } else {
            v.to_owned()
        });
    }

    /// Recomputes [`Uri::text`] after a change.
    pub(crate) fn refresh(&mut self) {
        self.text = self.to_s();
    }

    /// `to_s`.
    fn to_s(&self) -> String {
        let mut s = String::new();
        if let Some(scheme) = &self.scheme {
            s.push_str(scheme);
            s.push(':');
        }
        if let Some((to, headers)) = &self.mailto {
            s.push_str(to);
            if !headers.is_empty() {
                s.push('?');
                s.push_str(&headers.iter().map(|h| h.join("=")).collect::<Vec<_>>().join("&"));
            }
        } else if let Some(opaque) = &self.opaque {
            s.push_str(opaque);
        } else {
            if self.host.is_some() || matches!(self.scheme.as_deref(), Some("file" | "postgres")) {
                s.push_str("//");
            }
            if let Some(u) = self.userinfo() {
                s.push_str(&u);
                s.push('@');
            }
            if let Some(h) = &self.host {
                s.push_str(h);
            }
            if let Some(p) = &self.port {
                if Some(p.as_str()) != self.class.default_port() {
                    s.push(':');
                    s.push_str(p);
                }
            }
            s.push_str(self.path.as_deref().unwrap_or_default());
            if let Some(t) = &self.typecode {
                s.push_str(";type=");
                s.push_str(t);
            }
            if let Some(q) = &self.query {
                s.push('?');
                s.push_str(q);
            }
        }
        if let Some(f) = &self.fragment {
            s.push('#');
            s.push_str(f);
        }
        s
    }
}

impl fmt::Display for Uri {
    /// `to_s`: what `notice(URI('HTTP://Example.com:80/a/../b'))` prints
    /// (`http://Example.com/a/../b`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// `URI.new(args...)` (Puppet names the function `new_error`): a non-empty string
/// (`URI.parse`), or a hash of parts (`URI::Generic.build`, or the build of the scheme's
/// class), see [`build`]. Ruby's messages: `bad URI(is not URI?): "a b"`,
/// `bad component(expected host component): a b`, ...
pub fn new_uri(args: &[Value]) -> Result<Value> {
    let (Selected::Call(index) | Selected::Mismatch(index)) = build::FUNCTION.with(|f| f.select(args))?;
    let uri = match (index, args) {
        (0, [Value::String(s)]) => Uri::parse(s)?,
        (_, [Value::Hash(h)]) => build::from_hash(h)?,
        _ => return Err(build::FUNCTION.with(|f| f.no_match(args))),
    };
    Ok(Value::Uri(Rc::new(uri)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(s: &str) -> String {
        match Uri::parse(s) {
            Ok(u) => u.to_string(),
            Err(e) => format!("!! {}", e.message),
        }
    }

    #[test]
    fn parsing_and_printing() {
        let cases = [
            ("http://a/b", "http://a/b"),
            ("HTTP://Example.com:80/a/../b", "http://Example.com/a/../b"),
            ("https://Example.com:443/", "https://Example.com/"),
            ("https://Example.com:80/", "https://Example.com:80/"),
            ("http://u:p@h:8080/p?q=1#f", "http://u:p@h:8080/p?q=1#f"),
            ("mailto:a@b.com?subject=hi", "mailto:a@b.com?subject=hi"),
            ("mailto:foo", "!! unrecognised opaque part for mailtoURL: foo"),
            ("mailto:a@b?x&&y&", "mailto:a@b?x&&y"),
            ("mailto:", "!! missing opaque part for mailto URL"),
            ("urn:isbn:123", "urn:isbn:123"),
            ("ftp://ftp.x.com/pub/a.txt;type=i", "ftp://ftp.x.com/pub/a.txt;type=i"),
            ("ftp://ftp.x.com//pub/a.txt", "ftp://ftp.x.com/%2Fpub/a.txt"),
            ("ftp:x", "!! URI::InvalidURIError"),
            ("file://localhost/etc/hosts", "file:///etc/hosts"),
            ("file://u@h/x", "file://h/x"),
            ("file:", "file://"),
            ("file:etc", "file:etc"),
            ("postgres:/x", "postgres:///x"),
            ("ldap://ldap.x.com/dc=x?cn?sub?(cn=a)", "ldap://ldap.x.com/dc=x?cn?sub?(cn=a)"),
            ("ldap://h/dc=x#frag", "!! bad LDAP URL"),
            ("ldap:x", "!! bad LDAP URL"),
            ("ws://a:80/b", "ws://a/b"),
            ("http://[::1]:80/", "http://[::1]/"),
            ("http://a:/b", "http://a/b"),
            ("http://a:0080/b", "http://a/b"),
            ("http://a/?a b", "http://a/?a%20b"),
            ("http://a/?a\"b<c>", "http://a/?a%22b%3Cc%3E"),
            ("http://a/?q=%zz", "!! invalid percent escape: %zz"),
            ("http://@a/", "http://a/"),
            ("http://:8/", "http://:8/"),
            ("//", ""),
            ("///a", "/a"),
            ("http://[::a:b:c:d:1.2.3.4]/", "!! bad URI(is not URI?): \"http://[::a:b:c:d:1.2.3.4]/\""),
        ];
        for (input, expected) in cases {
            assert_eq!(show(input), expected, "{input}");
        }
    }

    #[test]
    fn parts() {
        let u = Uri::parse("HTTP://U:p@Example.com/a?q#f").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(u.part("scheme"), Some(Value::from("http")));
        assert_eq!(u.part("userinfo"), Some(Value::from("U:p")));
        assert_eq!(u.part("host"), Some(Value::from("Example.com")));
        assert_eq!(u.part("port"), Some(Value::Integer(80)));
        assert_eq!(u.part("path"), Some(Value::from("/a")));
        assert_eq!(u.part("opaque"), Some(Value::Undef));
        assert_eq!(u.part("nope"), None);
        let ftp = Uri::parse("ftp://h/x").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ftp.part("path"), Some(Value::from("x")));
        let h = ftp.type_parameters().unwrap_or_default();
        assert_eq!(h.get(&Value::from("port")), Some(&Value::from("21")));
    }

    #[test]
    fn equality() {
        let p = |s: &str| Uri::parse(s).unwrap_or_else(|e| panic!("{e}"));
        assert!(p("http://a").equals(&p("HTTP://A")));
        assert!(p("http://a").equals(&p("http://a:80/")));
        assert!(!p("http://a").equals(&p("https://a")));
        assert!(!p("http://a/b").equals(&p("http://a/c")));
    }
}
