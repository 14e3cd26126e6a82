//! Making a URI from its components: `URI::Generic#initialize` and the `initialize` of the
//! scheme classes (for parsed URIs, without checks), and `URI(hash)`, which Puppet makes
//! with `build` of the scheme's class (Generic for another scheme), checking each
//! component with the RFC 2396 patterns:
//!
//! | component | check (message after `bad component(expected ...`)                      |
//! |-----------|--------------------------------------------------------------------------|
//! | scheme    | `scheme component): x`                                                   |
//! | userinfo  | `userinfo component or user component): u`, `bad password component`    |
//! | host      | `host component): h` (a host with `:` is bracketed first)                |
//! | path      | `absolute path component): p` with a scheme (not ftp), else `relative path component): p` |
//! | opaque    | `opaque component): o`; `can not set opaque with host, port, userinfo or path` |
//!
//! Query and fragment are escaped rather than checked (`a b` is `a%20b`); a `%` followed by
//! two non-hex characters in a query is `invalid percent escape: %zz`.

use std::sync::OnceLock;

use regex::Regex;

use super::parse::{rfc2396, Split};
use super::{Class, Parser, Uri};
use crate::dispatch::{entry, get, hash_with_keys, string_sized, Dispatch, Dispatcher, Signature};
use crate::error::{Error, Result};
use crate::ty::Type;
use crate::value::{Hash, Value};

/// The URI from parsed components (`URI.for(scheme, ...)`, no checks).
pub(crate) fn from_split(split: Split, parser: Parser) -> Result<Uri> {
    let class = Class::for_scheme(split.scheme.as_deref());
    init(class, parser, split, false).map_err(Error::new)
}

/// `initialize` of `class` with the components (and their checks when `arg_check`).
fn init(class: Class, parser: Parser, mut c: Split, arg_check: bool) -> std::result::Result<Uri, String> {
    if class == Class::Ftp {
        // FTP#initialize: the path is relative to the login directory
        let Some(path) = c.path.take() else { return Err("URI::InvalidURIError".to_owned()) };
        let p = path.strip_prefix('/').unwrap_or(&path);
        c.path = Some(match p.strip_prefix("%2F") {
            Some(rest) => format!("/{rest}"),
            None => p.to_owned(),
        });
    }
    let mut u = Uri {
        text: String::new(),
        class,
        parser,
        scheme: None,
        user: None,
        password: None,
        host: None,
        port: None,
        path: None,
        query: None,
        opaque: None,
        fragment: None,
        typecode: None,
        mailto: None,
    };
    if arg_check {
        set_checked(&mut u, c.clone())?;
    } else {
        u.scheme = c.scheme.map(|s| s.to_ascii_lowercase());
        u.set_userinfo(c.userinfo.as_deref());
        u.set_host(c.host);
        u.set_port(c.port.as_deref());
        if let Some(p) = &c.path {
            u.set_path(p);
        }
        u.set_query(c.query.as_deref())?;
        u.opaque = c.opaque;
        u.set_fragment(c.fragment.as_deref());
    }
    if let Some(registry) = c.registry {
        let scheme = u.scheme.clone().unwrap_or_default();
        return Err(format!("the scheme {scheme} does not accept registry part: {registry} (or bad hostname?)"));
    }
    if u.path.is_none() && u.opaque.is_none() {
        u.set_path("");
    }
    if u.port.is_none() {
        if let Some(p) = class.default_port() {
            u.set_port(Some(p));
        }
    }
    after_init(&mut u, arg_check)?;
    u.refresh();
    Ok(u)
}

/// The checked setters (`scheme=`, `userinfo=`, `hostname=`, `port=`, `path=`, `query=`,
/// `opaque=`, `fragment=`), in that order.
fn set_checked(u: &mut Uri, c: Split) -> std::result::Result<(), String> {
    let re = rfc2396();
    if let Some(s) = &c.scheme {
        if !re.scheme.is_match(s) {
            return Err(format!("bad component(expected scheme component): {s}"));
        }
    }
    u.scheme = c.scheme.map(|s| s.to_ascii_lowercase());
    if let Some(ui) = &c.userinfo {
        check_userinfo(u, ui)?;
        u.set_userinfo(Some(ui));
    }
    let host =
        c.host.map(|h| if !(h.starts_with('[') && h.ends_with(']')) && h.contains(':') { format!("[{h}]") } else { h });
    if let Some(h) = &host {
        if u.opaque.is_some() {
            return Err("can not set host with registry or opaque".to_owned());
        }
        if !re.host.is_match(h) {
            return Err(format!("bad component(expected host component): {h}"));
        }
    }
    u.set_host(host);
    u.set_port(c.port.as_deref());
    if let Some(p) = &c.path {
        check_path(u, p)?;
        u.set_path(p);
    }
    u.set_query(c.query.as_deref())?;
    if let Some(o) = &c.opaque {
        if u.host.is_some() || u.port.is_some() || u.user.is_some() || u.path.is_some() {
            return Err("can not set opaque with host, port, userinfo or path".to_owned());
        }
        if !re.opaque.is_match(o) {
            return Err(format!("bad component(expected opaque component): {o}"));
        }
    }
    u.opaque = c.opaque;
    u.set_fragment(c.fragment.as_deref());
    Ok(())
}

/// `check_userinfo`: the user and the password must be userinfo characters (a file URI
/// has none).
fn check_userinfo(u: &Uri, ui: &str) -> std::result::Result<(), String> {
    if u.class == Class::File {
        return Err("can not set userinfo for file URI".to_owned());
    }
    let (user, password) = split_userinfo(ui);
    let re = &rfc2396().userinfo;
    if let Some(user) = &user {
        if !re.is_match(user) {
            return Err(format!("bad component(expected userinfo component or user component): {user}"));
        }
    }
    if let Some(password) = &password {
        if user.is_none() {
            return Err("password component depends user component".to_owned());
        }
        if !re.is_match(password) {
            return Err("bad password component".to_owned());
        }
    }
    Ok(())
}

/// `check_path`: absolute when there is a scheme (other than ftp), else absolute or relative.
fn check_path(u: &Uri, p: &str) -> std::result::Result<(), String> {
    let re = rfc2396();
    if p.is_empty() {
        return Ok(());
    }
    match u.scheme.as_deref() {
        Some(s) if s != "ftp" => {
            if !re.abs_path.is_match(p) {
                return Err(format!("bad component(expected absolute path component): {p}"));
            }
        }
        _ => {
            if !re.abs_path.is_match(p) && !re.rel_path.is_match(p) {
                return Err(format!("bad component(expected relative path component): {p}"));
            }
        }
    }
    Ok(())
}

/// `split_userinfo`: `ui.split(':', 2)` (Ruby's: `""` has no fields).
fn split_userinfo(ui: &str) -> (Option<String>, Option<String>) {
    if ui.is_empty() {
        return (None, None);
    }
    match ui.split_once(':') {
        Some((u, p)) => (Some(u.to_owned()), Some(p.to_owned())),
        None => (Some(ui.to_owned()), None),
    }
}

impl Uri {
    /// `set_userinfo` (a no-op for file URIs); a missing password keeps the previous one.
    pub(crate) fn set_userinfo(&mut self, ui: Option<&str>) {
        if self.class == Class::File {
            return;
        }
        let (user, password) = ui.map(split_userinfo).unwrap_or((None, None));
        self.user = user;
        if password.is_some() {
            self.password = password;
        }
    }

    /// `set_host` (a file URI's missing or `localhost` host is `""`).
    pub(crate) fn set_host(&mut self, host: Option<String>) {
        self.host =
            if self.class == Class::File { Some(host.filter(|h| h != "localhost").unwrap_or_default()) } else { host };
    }

    /// `set_port`: digits as Ruby's `to_i` reads them, an empty port none (a no-op for
    /// file URIs).
    pub(crate) fn set_port(&mut self, port: Option<&str>) {
        if self.class == Class::File {
            return;
        }
        self.port = port.filter(|p| !p.is_empty()).map(|p| {
            let digits: String = p.chars().take_while(char::is_ascii_digit).collect();
            let trimmed = digits.trim_start_matches('0');
            if trimmed.is_empty() {
                "0".to_owned()
            } else {
                trimmed.to_owned()
            }
        });
    }

    /// `query=`: tabs and line breaks dropped, `%` followed by two non-hex characters
    /// rejected, bytes other than `!$%&'()*+,-./0-9:;=?@A-Z[\]^_a-z{|}~` percent-encoded.
    pub(crate) fn set_query(&mut self, v: Option<&str>) -> std::result::Result<(), String> {
        let Some(v) = v else {
            self.query = None;
            return Ok(());
        };
        if self.opaque.is_some() {
            return Err("query conflicts with opaque".to_owned());
        }
        let bytes: Vec<u8> = v.bytes().filter(|b| !matches!(b, b'\t' | b'\r' | b'\n')).collect();
        if let Some(bad) =
            bytes.windows(3).find(|w| w[0] == b'%' && !w[1].is_ascii_hexdigit() && !w[2].is_ascii_hexdigit())
        {
            return Err(format!("invalid percent escape: {}", String::from_utf8_lossy(bad)));
        }
        let allowed = |b: u8| matches!(b, b'!' | b'$'..=b'&' | b'('..=b';' | b'=' | b'?'..=b'_' | b'a'..=b'~');
        self.query = Some(escape(&bytes, allowed));
        Ok(())
    }

    /// `fragment=`: tabs and line breaks dropped, bytes outside `!`..`~` percent-encoded.
    pub(crate) fn set_fragment(&mut self, v: Option<&str>) {
        self.fragment = v.map(|v| {
            let bytes: Vec<u8> = v.bytes().filter(|b| !matches!(b, b'\t' | b'\r' | b'\n')).collect();
            escape(&bytes, |b| (b'!'..=b'~').contains(&b))
        });
    }
}

/// The bytes, those not `allowed` as `%XX`.
fn escape(bytes: &[u8], allowed: impl Fn(u8) -> bool) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if allowed(b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// What the scheme classes do after `Generic#initialize`: FTP takes the typecode off the
/// path, LDAP refuses fragments and opaque URIs, MailTo splits its opaque part.
fn after_init(u: &mut Uri, arg_check: bool) -> std::result::Result<(), String> {
    match u.class {
        Class::Ftp => {
            let Some(path) = u.path.clone() else { return Ok(()) };
            if let Some(at) = path.find(";type=") {
                let typecode = path[at + 6..].to_owned();
                if arg_check && !["a", "i", "d"].contains(&typecode.as_str()) {
                    return Err(format!("bad typecode(expected a, i, d): {typecode}"));
                }
                u.path = Some(path[..at].to_owned());
                u.typecode = Some(typecode);
            }
        }
        Class::Ldap | Class::Ldaps if u.fragment.is_some() || u.path.is_none() => {
            return Err("bad LDAP URL".to_owned());
        }
        Class::MailTo => mailto_init(u)?,
        _ => {}
    }
    Ok(())
}

/// `MailTo#initialize`: the opaque part (or `?query`) is `to?headers`; `to` must be
/// addresses separated by `,` or `;`.
fn mailto_init(u: &mut Uri) -> std::result::Result<(), String> {
    if u.opaque.is_none() {
        if let Some(q) = &u.query {
            u.opaque = Some(format!("?{q}"));
        }
    }
    let Some(opaque) = u.opaque.clone() else {
        return Err("missing opaque part for mailto URL".to_owned());
    };
    let (to, header) = match opaque.split_once('?') {
        Some((t, h)) => (t.to_owned(), Some(h.to_owned())),
        None => (opaque.clone(), None),
    };
    static TO: OnceLock<Option<Regex>> = OnceLock::new();
    let to_ok = TO
        .get_or_init(|| Regex::new(r"\A(?:[^@,;]+@[^@,;]+(?:\z|[,;]))*\z").ok())
        .as_ref()
        .is_some_and(|re| re.is_match(&to));
    if !to_ok {
        return Err(format!("unrecognised opaque part for mailtoURL: {opaque}"));
    }
    let headers =
        header.map(|h| split_dropping_trailing(&h, '&').into_iter().map(header_fields).collect()).unwrap_or_default();
    u.mailto = Some((to, headers));
    Ok(())
}

/// Ruby's `s.split(sep)`: no trailing empty fields.
fn split_dropping_trailing(s: &str, sep: char) -> Vec<&str> {
    let mut fields: Vec<&str> = s.split(sep).collect();
    while fields.last().is_some_and(|f| f.is_empty()) {
        fields.pop();
    }
    fields
}

/// `x.split(/=/, 2)`.
fn header_fields(x: &str) -> Vec<String> {
    if x.is_empty() {
        return Vec::new();
    }
    match x.split_once('=') {
        Some((k, v)) => vec![k.to_owned(), v.to_owned()],
        None => vec![x.to_owned()],
    }
}

/// `LDAP#parse_query`: attributes, scope, filter and extensions of the query
/// (`attrs?scope?filter?extensions`), the empty ones `None`.
pub(crate) fn ldap_query_parts(query: Option<&str>) -> Vec<Option<String>> {
    let fields = query.map(|q| split_dropping_trailing(q, '?')).unwrap_or_default();
    (0..4).map(|i| fields.get(i).filter(|f| !f.is_empty()).map(|f| (*f).to_owned())).collect()
}

// ---- URI.new ---------------------------------------------------------------------------

const PARTS: [&str; 8] = ["scheme", "userinfo", "host", "port", "path", "query", "fragment", "opaque"];

fn is_uri_string(v: &Value) -> bool {
    v.as_str().is_some_and(|s| !s.is_empty())
}

/// `TYPE_URI_INIT_HASH`: optional parts, non-empty strings (the port an `Integer[0]`).
fn is_init_hash(v: &Value) -> bool {
    let Some(h) = hash_with_keys(v, &PARTS, &[]) else { return false };
    h.iter().all(|(k, v)| match (k.as_str(), v) {
        (Some("port"), Value::Integer(n)) => *n >= 0,
        (Some("port"), _) => false,
        (_, v) => is_uri_string(v),
    })
}

fn init_hash_type() -> Type {
    let entries = PARTS
        .iter()
        .map(|p| entry(p, true, if *p == "port" { Type::integer(Some(0), None) } else { string_sized(1, None) }))
        .collect::<Vec<_>>();
    Type::Struct(entries.into())
}

/// The dispatches of `URI.new` (`PURIType.new_function`, named `new_error`).
fn function() -> Dispatcher<u8> {
    Dispatcher {
        name: "new_error",
        dispatches: vec![
            Dispatch::new(0).req_checked("uri", string_sized(1, None), is_uri_string),
            Dispatch::new(1).req_checked("hash", init_hash_type(), is_init_hash),
        ],
    }
}

thread_local! {
    pub(crate) static FUNCTION: Dispatcher<u8> = function();
}

/// The signatures of `URI.new` (for `Init[URI]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
}

/// `from_hash`: `build` of the class of the scheme (`URI::Generic` when there is none or
/// Ruby has no class for it). The classes' `build` replace the scheme with their own name
/// (`HTTP` is `http`); FTP's requires a path, made absolute (`/x` is `/%2Fx`); LDAP's
/// replaces the query with its (empty) attributes; MailTo's makes the opaque part from its
/// (missing) `to`, so it always fails.
pub(crate) fn from_hash(h: &Hash) -> Result<Uri> {
    let part = |k: &str| match get(h, k) {
        Some(Value::String(s)) => Some(s.to_string()),
        Some(Value::Integer(n)) => Some(n.to_string()),
        _ => None,
    };
    let mut c = Split {
        scheme: part("scheme"),
        userinfo: part("userinfo"),
        host: part("host"),
        port: part("port"),
        registry: None,
        path: part("path"),
        opaque: part("opaque"),
        query: part("query"),
        fragment: part("fragment"),
    };
    let class = Class::for_scheme(c.scheme.as_deref());
    if let Some(name) = class.scheme_name() {
        c.scheme = Some(name.to_owned());
    }
    match class {
        Class::Ftp => {
            let Some(path) = &c.path else {
                return Err(Error::new("undefined method `sub' for nil:NilClass"));
            };
            c.path = Some(match path.strip_prefix('/') {
                Some(rest) => format!("/%2F{rest}"),
                None => format!("/{path}"),
            });
        }
        Class::Ldap | Class::Ldaps => c.query = Some(String::new()),
        Class::MailTo => c.opaque = Some(String::new()),
        _ => {}
    }
    init(class, Parser::Rfc2396, c, true).map_err(Error::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(entries: &[(&str, Value)]) -> String {
        let h: Hash = entries.iter().map(|(k, v)| (Value::from(*k), v.clone())).collect();
        match from_hash(&h) {
            Ok(u) => u.to_string(),
            Err(e) => format!("!! {}", e.message),
        }
    }

    fn s(x: &str) -> Value {
        Value::from(x)
    }

    #[test]
    fn from_parts() {
        let cases: Vec<(Vec<(&str, Value)>, &str)> = vec![
            (vec![("scheme", s("http")), ("host", s("example.com"))], "http://example.com"),
            (
                vec![
                    ("scheme", s("HTTP")),
                    ("host", s("example.com")),
                    ("port", Value::Integer(80)),
                    ("path", s("/x")),
                ],
                "http://example.com/x",
            ),
            (
                vec![("scheme", s("http")), ("host", s("example.com")), ("path", s("x"))],
                "!! bad component(expected absolute path component): x",
            ),
            (vec![("path", s("x"))], "x"),
            (vec![("scheme", s("ftp")), ("host", s("h")), ("path", s("/x"))], "ftp://h/%2Fx"),
            (vec![("scheme", s("ftp")), ("host", s("h")), ("path", s("x"))], "ftp://h/x"),
            (vec![("scheme", s("ftp")), ("host", s("h"))], "!! undefined method `sub' for nil:NilClass"),
            (vec![("scheme", s("mailto")), ("opaque", s("a@b.com"))], "!! bad component(expected opaque component): "),
            (vec![("scheme", s("foo")), ("opaque", s("bar"))], "foo:bar"),
            (
                vec![("scheme", s("foo")), ("opaque", s("bar")), ("host", s("x"))],
                "!! can not set opaque with host, port, userinfo or path",
            ),
            (vec![("host", s("a b"))], "!! bad component(expected host component): a b"),
            (vec![("scheme", s("http")), ("userinfo", s("u:p")), ("host", s("h"))], "http://u:p@h"),
            (
                vec![("scheme", s("http")), ("userinfo", s("u@")), ("host", s("h"))],
                "!! bad component(expected userinfo component or user component): u@",
            ),
            (vec![("scheme", s("http")), ("query", s("a b")), ("host", s("h"))], "http://h?a%20b"),
            (vec![("scheme", s("http")), ("fragment", s("a b")), ("host", s("h"))], "http://h#a%20b"),
            (vec![("scheme", s("http")), ("host", s("::1"))], "http://[::1]"),
            (vec![("scheme", s("1http")), ("host", s("ab"))], "!! bad component(expected scheme component): 1http"),
            (vec![("scheme", s("ldap")), ("host", s("h")), ("query", s("x"))], "ldap://h?"),
            (
                vec![("scheme", s("file")), ("userinfo", s("u")), ("path", s("/x"))],
                "!! can not set userinfo for file URI",
            ),
            (vec![("scheme", s("https")), ("host", s("h")), ("port", Value::Integer(80))], "https://h:80"),
            (vec![("port", Value::Integer(8))], ":8"),
            (vec![("userinfo", s("u"))], "u@"),
            (vec![], ""),
        ];
        for (entries, expected) in cases {
            assert_eq!(build(&entries), expected, "{entries:?}");
        }
    }
}
