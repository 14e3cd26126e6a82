//! Splitting a URI string into its components, as Ruby 3.1's `URI` does:
//! `URI::RFC3986_Parser#split` (what `URI.parse` and `URI('...')` use) and
//! `URI::RFC2396_Parser#split` (what a URI built from parts uses to read the string given
//! to `+`).
//!
//! The regular expressions are Ruby's, transcribed for the `regex` crate: `\h` spelled out,
//! group names without hyphens, possessive quantifiers made greedy (no alternative after
//! them can match what they would give back, so the matches are the same), and the
//! `(?!//)` look-ahead of RFC 2396 dropped (whenever its alternative would match a string
//! starting with `//`, the authority alternative before it matches too).

use std::sync::OnceLock;

use regex::Regex;

/// The components a parser finds (`[scheme, userinfo, host, port, registry, path, opaque,
/// query, fragment]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    pub scheme: Option<String>,
    pub userinfo: Option<String>,
    pub host: Option<String>,
    pub port: Option<String>,
    pub registry: Option<String>,
    pub path: Option<String>,
    pub opaque: Option<String>,
    pub query: Option<String>,
    pub fragment: Option<String>,
}

const HEX: &str = "[0-9A-Fa-f]";

/// RFC 3986's `IP-literal`, `IPv4address`, as in Ruby's `RFC3986_URI`.
fn rfc3986_hosts() -> (String, String) {
    let h16 = format!("{HEX}{{1,4}}");
    let dec_octet = "(?:[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5]|[0-9])";
    let ipv4 = format!(r"{dec_octet}\.{dec_octet}\.{dec_octet}\.{dec_octet}");
    let ls32 = format!("(?:{h16}:{h16}|{ipv4})");
    let ipv6 = [
        format!("(?:{h16}:){{6}}{ls32}"),
        format!("::(?:{h16}:){{5}}{ls32}"),
        format!("{HEX}{{1,4}}?::(?:{h16}:){{4}}{ls32}"),
        format!("(?:(?:{h16}:)?{h16})?::(?:{h16}:){{3}}{ls32}"),
        format!("(?:(?:{h16}:){{0,2}}{h16})?::(?:{h16}:){{2}}{ls32}"),
        format!("(?:(?:{h16}:){{0,3}}{h16})?::{h16}:{ls32}"),
        format!("(?:(?:{h16}:){{0,4}}{h16})?::{ls32}"),
        format!("(?:(?:{h16}:){{0,5}}{h16})?::{h16}"),
        format!("(?:(?:{h16}:){{0,6}}{h16})?::"),
    ]
    .join("|");
    let ipvfuture = format!(r"v{HEX}+\.[!$&-.0-;=A-Z_a-z~]+");
    (format!(r"\[(?:{ipv6}|{ipvfuture})\]"), ipv4)
}

/// `RFC3986_Parser::RFC3986_URI` and `RFC3986_relative_ref`.
fn rfc3986() -> &'static (Regex, Regex) {
    static RE: OnceLock<(Regex, Regex)> = OnceLock::new();
    RE.get_or_init(|| {
        let pct = format!("%{HEX}{HEX}");
        let (ip_literal, ipv4) = rfc3986_hosts();
        let userinfo = format!("(?:{pct}|[!$&-.0-;=A-Z_a-z~])*");
        let reg_name_char = format!("(?:{pct}|[!$&-.0-9;=A-Z_a-z~])");
        let segment = format!("(?:{pct}|[!$&-.0-;=@-Z_a-z~])*");
        let segment_nz = format!("(?:{pct}|[!$&-.0-;=@-Z_a-z~])+");
        let segment_nz_nc = format!("(?:{pct}|[!$&-.0-9;=@-Z_a-z~])+");
        let fragment = format!("(?:{pct}|[!$&-.0-;=@-Z_a-z~/?])*");
        let tail = format!(r"(?:\?(?P<query>[^#]*))?(?:\#(?P<fragment>{fragment}))?\z");
        let absolute = format!(
            r"\A(?P<scheme>[A-Za-z][+\-.0-9A-Za-z]*):(?://(?:(?P<userinfo>{userinfo})@)?(?P<host>{ip_literal}|{ipv4}|{reg_name_char}*)(?::(?P<port>[0-9]*))?(?P<path_abempty>(?:/{segment})*)|(?P<path_absolute>/(?:{segment_nz}(?:/{segment})*)?)|(?P<path_rootless>{segment_nz}(?:/{segment})*)|(?P<path_empty>)){tail}"
        );
        let relative = format!(
            r"\A(?://(?:(?P<userinfo>{userinfo})@)?(?P<host>{ip_literal}|{ipv4}|{reg_name_char}+)?(?::(?P<port>[0-9]*))?(?P<path_abempty>(?:/{segment})*)|(?P<path_absolute>/(?:{segment_nz}(?:/{segment})*)?)|(?P<path_noscheme>{segment_nz_nc}(?:/{segment})*)|(?P<path_empty>)){tail}"
        );
        (compile(&absolute), compile(&relative))
    })
}

fn compile(pattern: &str) -> Regex {
    // The patterns are constants of this file; a failure here is a bug caught by the tests.
    Regex::new(pattern).unwrap_or_else(|e| panic!("bad URI pattern: {e}"))
}

/// `RFC3986_Parser#split`: an absolute URI, else a relative reference. A `path-rootless`
/// (`mailto:a@b`, `urn:x:y`) is the opaque part, with the query appended.
pub fn split_rfc3986(uri: &str) -> Result<Split, String> {
    if !uri.is_ascii() {
        return Err(format!("URI must be ascii only {}", poppet_ruby::string::dump(uri)));
    }
    let (absolute, relative) = rfc3986();
    let get = |c: &regex::Captures<'_>, name: &str| c.name(name).map(|m| m.as_str().to_owned());
    if let Some(m) = absolute.captures(uri) {
        let query = get(&m, "query");
        if let Some(mut opaque) = get(&m, "path_rootless") {
            if let Some(q) = query {
                opaque.push('?');
                opaque.push_str(&q);
            }
            return Ok(Split {
                scheme: get(&m, "scheme"),
                opaque: Some(opaque),
                fragment: get(&m, "fragment"),
                ..Split::default()
            });
        }
        let path = get(&m, "path_abempty").or_else(|| get(&m, "path_absolute")).or_else(|| get(&m, "path_empty"));
        return Ok(Split {
            scheme: get(&m, "scheme"),
            userinfo: get(&m, "userinfo"),
            host: get(&m, "host"),
            port: get(&m, "port"),
            path,
            query,
            fragment: get(&m, "fragment"),
            ..Split::default()
        });
    }
    if let Some(m) = relative.captures(uri) {
        let path = get(&m, "path_abempty")
            .or_else(|| get(&m, "path_absolute"))
            .or_else(|| get(&m, "path_noscheme"))
            .or_else(|| get(&m, "path_empty"));
        return Ok(Split {
            userinfo: get(&m, "userinfo"),
            host: get(&m, "host"),
            port: get(&m, "port"),
            path,
            query: get(&m, "query"),
            fragment: get(&m, "fragment"),
            ..Split::default()
        });
    }
    Err(format!("bad URI(is not URI?): {}", poppet_ruby::string::inspect(uri)))
}

/// The patterns of `RFC2396_Parser` (`RFC2396_REGEXP::PATTERN` and `initialize_pattern`).
pub(crate) struct Rfc2396 {
    pub abs_uri: Regex,
    pub rel_uri: Regex,
    pub scheme: Regex,
    pub userinfo: Regex,
    pub host: Regex,
    pub abs_path: Regex,
    pub rel_path: Regex,
    pub opaque: Regex,
}

pub(crate) fn rfc2396() -> &'static Rfc2396 {
    static RE: OnceLock<Rfc2396> = OnceLock::new();
    RE.get_or_init(|| {
        let escaped = "%[a-fA-F0-9]{2}";
        let unreserved = r"\-_.!~*'()a-zA-Z0-9";
        let reserved = r";/?:@&=+$,\[\]";
        let uric = format!("(?:[{unreserved}{reserved}]|{escaped})");
        let uric_no_slash = format!("(?:[{unreserved};?:@&=+$,]|{escaped})");
        let query = format!("{uric}*");
        let hostname = r"(?:[a-zA-Z0-9\-.]|%[0-9A-Fa-f][0-9A-Fa-f])+";
        let ipv4 = r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}";
        let hex4 = "[a-fA-F0-9]{1,4}";
        let lastpart = format!("(?:{hex4}|{ipv4})");
        let hexseq1 = format!("(?:{hex4}:)*{hex4}");
        let hexseq2 = format!("(?:{hex4}:)*{lastpart}");
        let ipv6 = format!("(?:{hexseq2}|(?:{hexseq1})?::(?:{hexseq2})?)");
        let host = format!(r"(?:{hostname}|{ipv4}|\[{ipv6}\])");
        let userinfo = format!("(?:[{unreserved};:&=+$,]|{escaped})*");
        let pchar = format!("(?:[{unreserved}:@&=+$,]|{escaped})");
        let segment = format!("{pchar}*(?:;{pchar}*)*");
        let path_segments = format!("{segment}(?:/{segment})*");
        let reg_name = format!("(?:[{unreserved}$,;:@&=+]|{escaped})+");
        let rel_segment = format!("(?:[{unreserved};@&=+$,]|{escaped})+");
        let scheme = r"[a-zA-Z][\-+.a-zA-Z0-9]*";
        let abs_path = format!("/{path_segments}");
        let rel_path = format!("{rel_segment}(?:{abs_path})?");
        let opaque_part = format!("{uric_no_slash}{uric}*");
        let space = r"[ \t\n\x0B\x0C\r]";
        let abs_uri = format!(
            r"\A{space}*({scheme}):(?:({opaque_part})|(?:(?://(?:(?:(?:({userinfo})@)?(?:({host})(?::([0-9]*))?))?|({reg_name})))?({abs_path})?)(?:\?({query}))?)(?:\#({query}))?{space}*\z"
        );
        let rel_uri = format!(
            r"\A{space}*(?:(?://(?:(?:({userinfo})@)?({host})?(?::([0-9]*))?|({reg_name})))|({rel_segment}))?({abs_path})?(?:\?({query}))?(?:\#({query}))?{space}*\z"
        );
        let anchored = |p: &str| compile(&format!(r"\A{p}\z"));
        Rfc2396 {
            abs_uri: compile(&abs_uri),
            rel_uri: compile(&rel_uri),
            scheme: anchored(scheme),
            userinfo: anchored(&userinfo),
            host: anchored(&host),
            abs_path: anchored(&abs_path),
            rel_path: anchored(&rel_path),
            opaque: anchored(&opaque_part),
        }
    })
}

/// Whether `s` is an RFC 2396 `scheme`, as `URI::Generic#scheme=` checks it.
pub fn is_rfc2396_scheme(s: &str) -> bool {
    rfc2396().scheme.is_match(s)
}

/// Whether `s` is an RFC 2396 `host` (a name, an IPv4 address or a bracketed IPv6 reference),
/// as `URI::Generic#host=` checks it.
pub fn is_rfc2396_host(s: &str) -> bool {
    rfc2396().host.is_match(s)
}

/// Whether `s` is an RFC 2396 `abs_path`, as `URI::Generic#path=` checks it.
pub fn is_rfc2396_abs_path(s: &str) -> bool {
    rfc2396().abs_path.is_match(s)
}

/// `RFC2396_Parser#split`.
pub fn split_rfc2396(uri: &str) -> Result<Split, String> {
    if uri.is_empty() {
        return Ok(Split { path: Some(String::new()), ..Split::default() });
    }
    let re = rfc2396();
    let group = |c: &regex::Captures<'_>, i: usize| c.get(i).map(|m| m.as_str().to_owned());
    let mut s = if let Some(m) = re.abs_uri.captures(uri) {
        let s = Split {
            scheme: group(&m, 1),
            opaque: group(&m, 2),
            userinfo: group(&m, 3),
            host: group(&m, 4),
            port: group(&m, 5),
            registry: group(&m, 6),
            path: group(&m, 7),
            query: group(&m, 8),
            fragment: group(&m, 9),
        };
        if s.opaque.is_none() && s.path.is_none() && s.host.is_none() && s.registry.is_none() {
            return Err(format!("bad URI(absolute but no path): {uri}"));
        }
        s
    } else if let Some(m) = re.rel_uri.captures(uri) {
        let path = match (group(&m, 5), group(&m, 6)) {
            (Some(seg), Some(abs)) => Some(seg + &abs),
            (seg, abs) => seg.or(abs),
        };
        Split {
            userinfo: group(&m, 1),
            host: group(&m, 2),
            port: group(&m, 3),
            registry: group(&m, 4),
            path,
            query: group(&m, 7),
            fragment: group(&m, 8),
            ..Split::default()
        }
    } else {
        return Err(format!("bad URI(is not URI?): {uri}"));
    };
    if s.path.is_none() && s.opaque.is_none() {
        s.path = Some(String::new());
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Split {
        split_rfc3986(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn absolute() {
        let s = split("http://u:p@h:8080/p?q=1#f");
        assert_eq!(s.scheme.as_deref(), Some("http"));
        assert_eq!(s.userinfo.as_deref(), Some("u:p"));
        assert_eq!(s.host.as_deref(), Some("h"));
        assert_eq!(s.port.as_deref(), Some("8080"));
        assert_eq!(s.path.as_deref(), Some("/p"));
        assert_eq!(s.query.as_deref(), Some("q=1"));
        assert_eq!(s.fragment.as_deref(), Some("f"));
        let m = split("mailto:a@b.com?subject=hi");
        assert_eq!(m.opaque.as_deref(), Some("a@b.com?subject=hi"));
        assert_eq!(m.query, None);
        assert_eq!(split("http://[::1]:80/").host.as_deref(), Some("[::1]"));
        assert_eq!(split("file:///etc").host.as_deref(), Some(""));
        assert_eq!(split("http:").path.as_deref(), Some(""));
        assert_eq!(split("http://a/?a b").query.as_deref(), Some("a b"));
    }

    #[test]
    fn relative() {
        assert_eq!(split("/a/b").path.as_deref(), Some("/a/b"));
        assert_eq!(split("a/b").path.as_deref(), Some("a/b"));
        assert_eq!(split("//h/p").host.as_deref(), Some("h"));
        assert_eq!(split("?q").query.as_deref(), Some("q"));
        assert_eq!(split("").path.as_deref(), Some(""));
    }

    #[test]
    fn errors() {
        assert_eq!(split_rfc3986("http://a b"), Err("bad URI(is not URI?): \"http://a b\"".to_owned()));
        assert_eq!(split_rfc3986("åäö"), Err("URI must be ascii only \"\\u00E5\\u00E4\\u00F6\"".to_owned()));
        assert!(split_rfc3986("1a:b").is_err());
        assert!(split_rfc3986("http://a/%zz").is_err());
    }

    #[test]
    fn rfc2396_split() {
        let s = split_rfc2396("http://a/b?c#d").unwrap_or_default();
        assert_eq!((s.host.as_deref(), s.path.as_deref(), s.query.as_deref()), (Some("a"), Some("/b"), Some("c")));
        assert_eq!(split_rfc2396("d e"), Err("bad URI(is not URI?): d e".to_owned()));
        assert_eq!(split_rfc2396("http:"), Err("bad URI(absolute but no path): http:".to_owned()));
        assert_eq!(split_rfc2396("//a_b/x").unwrap_or_default().registry.as_deref(), Some("a_b"));
        assert_eq!(split_rfc2396("g;x=1/../y").unwrap_or_default().path.as_deref(), Some("g;x=1/../y"));
        assert_eq!(split_rfc2396(" http://a ").unwrap_or_default().host.as_deref(), Some("a"));
    }
}
