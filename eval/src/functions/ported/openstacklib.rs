//! puppet-openstacklib's functions (`is_service_default`, `normalize_ip_for_uri`,
//! `inet6_prefix`, `os_database_connection`, `os_transport_url`), ported from its Ruby, with
//! the parts of Ruby's libraries they lean on: `IPAddr.new` (ipaddr 1.2.4, Ruby 3.1),
//! `ERB::Util.url_encode` and `URI::Generic.build`.
//!
//! The five are 4.x functions without `dispatch`: Puppet gives them one dispatch made from
//! the method (`*args`: any number of anything) and they check their arguments themselves.

use puppet_types::value::Hash;
use puppet_types::Value;

use super::{v4, Port};
use crate::error::{fail, Eval};
use crate::eval::{Evaluator, Level};
use crate::functions::ruby::{class, to_s};
use crate::functions::Call;

/// The dispatch Puppet makes for a 4.x function whose method is `def f(*args)`.
const ANY_ARGS: &[&str] = &["Any *$args"];

pub static PORTS: &[Port] = &[
    v4("openstacklib", "is_service_default", ANY_ARGS, is_service_default),
    v4("openstacklib", "normalize_ip_for_uri", ANY_ARGS, normalize_ip_for_uri),
    v4("openstacklib", "inet6_prefix", ANY_ARGS, inet6_prefix),
    v4("openstacklib", "os_database_connection", ANY_ARGS, os_database_connection),
    v4("openstacklib", "os_transport_url", ANY_ARGS, os_transport_url),
];

/// What openstacklib's `$::os_service_default` fact holds: "leave the service's default".
const SERVICE_DEFAULT: &str = "<SERVICE DEFAULT>";

/// `is_service_default(value)`: whether the one value is the string `<SERVICE DEFAULT>`
/// (anything else, an undef `$::os_service_default` included, is false).
fn is_service_default(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let [value] = call.args.as_slice() else {
        return Err(fail(format!("is_service_default(): Wrong number of argumentsgiven ({} for 1)", call.args.len())));
    };
    Ok(Value::Boolean(matches!(value, Value::String(s) if &**s == SERVICE_DEFAULT)))
}

/// `normalize_ip_for_uri(ip...)`: an IPv6 address (as `IPAddr` reads it, a prefix or zone
/// included) in brackets unless it has some already; anything else as it is. The addresses
/// are the arguments, or the first argument when it is an array; one address gives one
/// value, several (or none) an array.
fn normalize_ip_for_uri(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    each_address(call.args, |ip| {
        Ok(match &ip {
            Value::String(s) if is_ipv6(s) && !has_bracketed(s) => {
                ev.log(Level::Debug, format!("IP {s} is changed to [{s}]"));
                Value::from(format!("[{s}]").as_str())
            }
            _ => ip,
        })
    })
}

/// `inet6_prefix(ip...)`: `inet6:[address]rest` for a string whose first part (split at
/// whitespace and brackets) is an IPv6 address and that has no line starting `inet6:`;
/// anything else as it is. Arguments and results as for `normalize_ip_for_uri`.
fn inet6_prefix(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    each_address(call.args, |ip| {
        let s = match &ip {
            Value::String(s) => s.clone(),
            // `Regexp#match(regexp)`: a TypeError the function does not rescue
            Value::Regexp(_) => return Err(fail("no implicit conversion of Regexp into String")),
            _ => return Ok(ip),
        };
        if lines(&s).any(|l| l.len() > "inet6:".len() && l.starts_with("inet6:")) {
            return Ok(ip);
        }
        let mut parts = s.split(|c: char| c == '[' || c == ']' || is_ruby_space(c)).filter(|p| !p.is_empty());
        match parts.next() {
            Some(first) if is_ipv6(first) => {
                let prefixed = format!("inet6:[{first}]{}", parts.collect::<String>());
                ev.log(Level::Debug, format!("{s} is changed to {prefixed}"));
                Ok(Value::from(prefixed.as_str()))
            }
            _ => Ok(ip),
        }
    })
}

/// The loop of `normalize_ip_for_uri` and `inet6_prefix`: `f` on each address (the
/// arguments, or the first argument's elements when it is an array), the one result alone.
fn each_address(args: Vec<Value>, f: impl FnMut(Value) -> Eval<Value>) -> Eval<Value> {
    let list = match args.first() {
        Some(Value::Array(items)) => items.to_vec(),
        _ => args,
    };
    let single = list.len() == 1;
    let mut result = list.into_iter().map(f).collect::<Eval<Vec<Value>>>()?;
    Ok(if single { result.pop().unwrap_or(Value::Undef) } else { Value::array(result) })
}

/// Ruby's `ip.match(/\[.+\]/)`: a `[`, then at least one character, then a `]`, on one line.
fn has_bracketed(s: &str) -> bool {
    s.split('\n').any(|line| match (line.find('['), line.rfind(']')) {
        (Some(open), Some(close)) => close > open + 1,
        _ => false,
    })
}

/// Ruby's `\s` (ASCII whitespace).
pub(super) fn is_ruby_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// The lines Ruby's `^`...`$` see: split at newlines, no empty line after a final newline.
pub(super) fn lines(s: &str) -> impl Iterator<Item = &str> {
    let body = s.strip_suffix('\n').unwrap_or(s);
    body.split('\n')
}

// ---- IPAddr ---------------------------------------------------------------------------------

/// An address as Ruby's `IPAddr.new(text)` makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct IpAddr {
    pub v6: bool,
    /// The address (`to_i`), masked by its prefix.
    pub addr: u128,
    /// The mask (`@mask_addr`).
    pub mask: u128,
}

const IN4MASK: u128 = 0xffff_ffff;
const IN6MASK: u128 = u128::MAX;

/// Whether Ruby's `IPAddr.new(s).ipv6?` is true (false where it raises).
pub(super) fn is_ipv6(s: &str) -> bool {
    ipaddr_new(s).is_some_and(|a| a.v6)
}

/// Ruby's `IPAddr.new(text)` (ipaddr 1.2.4): `None` where it raises one of its errors (all
/// `ArgumentError`s). `a.b.c.d` is IPv4 (no zero-filled or too large parts), else IPv6 in
/// full or compressed form (with an IPv4 tail), in brackets or with a `%zone`; a `/prefix`
/// is a length or a mask of the same family.
pub(super) fn ipaddr_new(text: &str) -> Option<IpAddr> {
    let (mut prefix, prefixlen) = match text.split_once('/') {
        Some((p, l)) => (p, Some(l)),
        None => (text, None),
    };
    let mut v6_only = false;
    if let Some(inner) = prefix.strip_prefix('[').and_then(|p| p.strip_suffix(']')).filter(|p| !p.contains('\n')) {
        prefix = inner;
        v6_only = true;
    }
    if let Some(percent) = prefix.rfind('%') {
        let zone = &prefix[percent + 1..];
        if !zone.is_empty()
            && zone.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !prefix[..percent].contains('\n')
        {
            prefix = &prefix[..percent];
            v6_only = true;
        }
    }
    let mut ip = match (!v6_only).then(|| in_addr(prefix)).flatten() {
        Some(v4) => IpAddr { v6: false, addr: u128::from(v4?), mask: IN4MASK },
        None => IpAddr { v6: true, addr: in6_addr(prefix)?, mask: IN6MASK },
    };
    if let Some(len) = prefixlen {
        mask(&mut ip, len)?;
    }
    Some(ip)
}

/// `IPAddr#mask!(text)`: a prefix length (no leading zero), or an address of the same family
/// whose bits are contiguous.
fn mask(ip: &mut IpAddr, len: &str) -> Option<()> {
    let bits: u32 = if ip.v6 { 128 } else { 32 };
    let full = if ip.v6 { IN6MASK } else { IN4MASK };
    if !len.is_empty() && len.bytes().all(|b| b.is_ascii_digit()) {
        if len.len() > 1 && len.starts_with('0') {
            return None;
        }
        let n: u32 = len.parse().ok().filter(|&n| n <= bits)?;
        let masklen = bits - n;
        ip.mask = if masklen == 128 { 0 } else { (full >> masklen) << masklen };
        ip.addr &= ip.mask;
        return Some(());
    }
    let m = ipaddr_new(len)?;
    if m.v6 != ip.v6 {
        return None;
    }
    let n = m.addr ^ m.mask;
    if (n.wrapping_add(1) & n) != 0 {
        return None;
    }
    ip.mask = m.addr;
    ip.addr &= m.addr;
    Some(())
}

/// `IPAddr#in_addr`: `None` when the text is not `d.d.d.d`; `Some(None)` when it is but a
/// part is over 255 or zero-filled (`InvalidAddressError`).
fn in_addr(s: &str) -> Option<Option<u32>> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 || parts.iter().any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    Some(octets(&parts))
}

/// The value of four decimal parts, each below 256 and not zero-filled.
fn octets(parts: &[&str]) -> Option<u32> {
    parts.iter().try_fold(0u32, |acc, p| {
        let n: u32 = p.parse().ok().filter(|&n| n < 256)?;
        if p.len() > 1 && p.starts_with('0') {
            return None;
        }
        Some(acc << 8 | n)
    })
}

/// Whether `s` is 1 to 4 hex digits.
fn is_hex4(s: &str) -> bool {
    (1..=4).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Whether `s` is hex groups joined by single colons (`(?:h{1,4}:)*h{1,4}`).
fn is_hex_groups(s: &str) -> bool {
    s.split(':').all(is_hex4)
}

/// An IPv4 tail `d.d.d.d` (any number of digits in each part, as the regexps read it).
fn ipv4_tail(s: &str) -> Option<Vec<&str>> {
    let parts: Vec<&str> = s.split('.').collect();
    (parts.len() == 4 && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))).then_some(parts)
}

/// `IPAddr#in6_addr`: the value of a full (`RE_IPV6ADDRLIKE_FULL`) or compressed
/// (`RE_IPV6ADDRLIKE_COMPRESSED`) IPv6 address; `None` where it raises.
fn in6_addr(s: &str) -> Option<u128> {
    let groups = |text: &str| -> Vec<u128> {
        text.split(':').filter(|g| !g.is_empty()).map(|g| u128::from_str_radix(g, 16).unwrap_or(0)).collect()
    };
    let assemble = |left: Vec<u128>, right: Vec<u128>, low: u128| -> Option<u128> {
        let rest = 8usize.checked_sub(left.len() + right.len())?;
        let all = left.into_iter().chain(std::iter::repeat_n(0, rest)).chain(right);
        Some(all.fold(0u128, |acc, g| acc << 16 | g) | low)
    };
    let pieces: Vec<&str> = s.split(':').collect();
    // full: eight groups, or six and an IPv4 tail
    if pieces.len() == 8 && pieces.iter().all(|p| is_hex4(p)) {
        return assemble(groups(s), Vec::new(), 0);
    }
    if pieces.len() == 7 && pieces[..6].iter().all(|p| is_hex4(p)) {
        if let Some(tail) = ipv4_tail(pieces[6]) {
            let low = u128::from(octets(&tail)?);
            return assemble(groups(&pieces[..6].join(":")), Vec::new(), low);
        }
    }
    // compressed: groups, `::`, groups ending with a group or an IPv4 tail
    let at = s.find("::")?;
    let (left, right) = (&s[..at], &s[at + 2..]);
    if !(left.is_empty() || is_hex_groups(left)) {
        return None;
    }
    let colons = s.matches(':').count();
    if right.is_empty() {
        return (colons <= 8).then(|| assemble(groups(left), Vec::new(), 0)).flatten();
    }
    let (head, last) = match right.rfind(':') {
        Some(i) => (&right[..i], &right[i + 1..]),
        None => ("", right),
    };
    if right.contains(':') && !is_hex_groups(head) {
        return None;
    }
    if is_hex4(last) {
        let limit = if left.is_empty() { 8 } else { 7 };
        return (colons <= limit).then(|| assemble(groups(left), groups(right), 0)).flatten();
    }
    let tail = ipv4_tail(last)?;
    if colons > 6 {
        return None;
    }
    let low = u128::from(octets(&tail)?);
    assemble(groups(left), groups(&format!("{head}:0:0")), low)
}

// ---- URLs -----------------------------------------------------------------------------------

/// `ERB::Util.url_encode`: every byte but `a-zA-Z0-9_.~-` as `%XX`.
pub(super) fn url_encode(s: &str) -> String {
    percent_encode(s.as_bytes(), |b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'~'))
}

/// The bytes, those not `keep` as `%XX` (upper-case hex).
pub(super) fn percent_encode(bytes: &[u8], keep: impl Fn(u8) -> bool) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if keep(b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The userinfo both functions make: the escaped username, and `:password` when there is
/// a password, neither when the username is missing or empty.
fn userinfo(v: &Hash) -> Option<String> {
    let part = |k: &str| v.get(&Value::from(k)).map(to_s).filter(|s| !s.is_empty());
    let user = part("username")?;
    Some(match part("password") {
        Some(password) => format!("{}:{}", url_encode(&user), url_encode(&password)),
        None => url_encode(&user),
    })
}

/// `k=v` pairs joined with `&`, each written with Ruby's `to_s`.
fn query_text(query: &Hash) -> String {
    query.iter().map(|(k, v)| format!("{}={}", to_s(k), to_s(v))).collect::<Vec<_>>().join("&")
}

/// Checks each value of the parameters hash is of the class its key wants (`String`, or
/// `want(key)`); the message names the function, the key and the class.
fn check_classes(function: &str, v: &Hash, want: impl Fn(&Value) -> &'static str) -> Eval<()> {
    for (key, value) in v {
        let klass = want(key);
        if class(value) != klass {
            return Err(fail(format!("{function}(): {} should be a {klass}", to_s(key))));
        }
    }
    Ok(())
}

/// The parameters hash given to `os_database_connection` and `os_transport_url`: exactly one
/// argument, a hash.
fn parameters<'a>(function: &str, args: &'a [Value], count_error: &str) -> Eval<&'a Hash> {
    let [arg] = args else { return Err(fail(count_error.to_owned())) };
    match arg {
        Value::Hash(h) => Ok(h),
        other => Err(fail(format!("{function}(): Requires an hash, got {}", class(other)))),
    }
}

/// `os_database_connection(parts)`: `dialect://user:password@host:port/database?extra`,
/// made by `URI::Generic.build` (`dialect:///database` without a host); `charset` is one more
/// of the `extra` parameters.
fn os_database_connection(_: &mut Evaluator, call: Call) -> Eval<Value> {
    const NAME: &str = "os_database_connection";
    let count = format!("{NAME}(): Wrong number of arguments given ({} for 1)", call.args.len());
    let v = parameters(NAME, &call.args, &count)?;
    check_classes(NAME, v, |k| if matches!(k, Value::String(s) if &**s == "extra") { "Hash" } else { "String" })?;
    let get = |k: &str| v.get(&Value::from(k));
    let text = |k: &str| get(k).map(to_s);
    let Some(dialect) = text("dialect") else { return Err(fail(format!("{NAME}(): dialect is required"))) };
    let host = text("host");
    let Some(database) = text("database") else { return Err(fail(format!("{NAME}(): database is required"))) };
    let port = match text("port") {
        Some(_) if host.is_none() => return Err(fail(format!("{NAME}(): host is required with port"))),
        Some(p) => Some(string_to_i(&p)),
        None => None,
    };
    let mut extra: Hash = match get("extra") {
        Some(Value::Hash(h)) => (**h).clone(),
        _ => Hash::default(),
    };
    if let Some(charset) = get("charset") {
        extra.insert(Value::from("charset"), charset.clone());
    }
    let query = (!extra.is_empty()).then(|| query_text(&extra));
    let path = if host.is_some() { format!("/{database}") } else { format!("///{database}") };
    let url = generic_build(&dialect, userinfo(v), host, port, &path, query.as_deref())?;
    Ok(Value::from(url.as_str()))
}

/// Ruby's `String#to_i`: leading whitespace, a sign, digits (with single underscores
/// between them); 0 when there are none.
fn string_to_i(s: &str) -> String {
    let t = s.trim_start_matches(|c: char| is_ruby_space(c));
    let (sign, rest) = match t.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", t.strip_prefix('+').unwrap_or(t)),
    };
    let mut digits = String::new();
    let mut last_underscore = false;
    for c in rest.chars() {
        match c {
            '0'..='9' => {
                digits.push(c);
                last_underscore = false;
            }
            '_' if !digits.is_empty() && !last_underscore => last_underscore = true,
            _ => break,
        }
    }
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() {
        "0".to_owned()
    } else {
        format!("{sign}{trimmed}")
    }
}

/// `URI::Generic.build(scheme:, userinfo:, host:, port:, path:, query:).to_s` with its
/// checks (RFC 2396 patterns) and messages: the scheme lower-cased, a host with a `:` put in
/// brackets, the path absolute, the query escaped; `//` before the authority when there is
/// a host (or the scheme is `file` or `postgres`).
fn generic_build(
    scheme: &str,
    userinfo: Option<String>,
    host: Option<String>,
    port: Option<String>,
    path: &str,
    query: Option<&str>,
) -> Eval<String> {
    if !puppet_types::uri::parse::is_rfc2396_scheme(scheme) {
        return Err(fail(format!("bad component(expected scheme component): {scheme}")));
    }
    let scheme = scheme.to_ascii_lowercase();
    let host =
        host.map(|h| if !(h.starts_with('[') && h.ends_with(']')) && h.contains(':') { format!("[{h}]") } else { h });
    if let Some(h) = &host {
        if !puppet_types::uri::parse::is_rfc2396_host(h) {
            return Err(fail(format!("bad component(expected host component): {h}")));
        }
    }
    if !path.is_empty() && !puppet_types::uri::parse::is_rfc2396_abs_path(path) {
        let kind = if scheme == "ftp" { "relative" } else { "absolute" };
        return Err(fail(format!("bad component(expected {kind} path component): {path}")));
    }
    let query = query.map(uri_query).transpose()?;
    let mut out = format!("{scheme}:");
    if host.is_some() || scheme == "file" || scheme == "postgres" {
        out.push_str("//");
    }
    if let Some(u) = userinfo {
        out.push_str(&u);
        out.push('@');
    }
    if let Some(h) = &host {
        out.push_str(h);
    }
    if let Some(p) = port {
        out.push(':');
        out.push_str(&p);
    }
    out.push_str(path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(&q);
    }
    Ok(out)
}

/// `URI::Generic#query=`: tabs and line breaks dropped, `%` and two non-hex characters
/// refused, bytes other than `!$%&'()*+,-./0-9:;=?@A-Z[\]^_a-z{|}~` as `%XX`.
fn uri_query(v: &str) -> Eval<String> {
    let bytes: Vec<u8> = v.bytes().filter(|b| !matches!(b, b'\t' | b'\r' | b'\n')).collect();
    if let Some(bad) = bytes.windows(3).find(|w| w[0] == b'%' && !w[1].is_ascii_hexdigit() && !w[2].is_ascii_hexdigit())
    {
        return Err(fail(format!("invalid percent escape: {}", String::from_utf8_lossy(bad))));
    }
    Ok(percent_encode(&bytes, |b| matches!(b, b'!' | b'$'..=b'&' | b'('..=b';' | b'=' | b'?'..=b'_' | b'a'..=b'~')))
}

/// `os_transport_url(parts)`: `transport://user:password@host:port[,...]/virtual_host?query`,
/// hosts put through `normalize_ip_for_uri`, `ssl` (a boolean word) as `ssl=0` or `ssl=1`
/// in the query.
fn os_transport_url(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    const NAME: &str = "os_transport_url";
    let raw = parameters(NAME, &call.args, "os_transport_url(): Wrong number of arguments")?;
    let is = |k: &Value, name: &str| matches!(k, Value::String(s) if &**s == name);
    // the port is written as text before the checks
    let v: Hash = raw
        .iter()
        .map(|(k, x)| (k.clone(), if is(k, "port") { Value::from(to_s(x).as_str()) } else { x.clone() }))
        .collect();
    check_classes(NAME, &v, |k| {
        if is(k, "hosts") {
            "Array"
        } else if is(k, "query") {
            "Hash"
        } else {
            "String"
        }
    })?;
    let get = |k: &str| v.get(&Value::from(k));
    let Some(transport) = get("transport") else { return Err(fail(format!("{NAME}(): transport is required"))) };
    let (host, hosts) = (get("host"), get("hosts"));
    if host.is_none() && hosts.is_none() {
        return Err(fail(format!("{NAME}(): host or hosts is required")));
    }
    if host.is_some() && hosts.is_some() {
        return Err(fail(format!("{NAME}(): cannot use both host and hosts.")));
    }
    let user = userinfo(&v);
    let port = get("port").map(to_s);
    let normalize =
        |ev: &mut Evaluator, x: &Value| normalize_ip_for_uri(ev, Call { args: vec![x.clone()], ..call_like(&call) });
    let with_port = |h: String| match &port {
        Some(p) => format!("{h}:{p}"),
        None => h,
    };
    let with_user = |h: String| match &user {
        Some(u) => format!("{u}@{h}"),
        None => h,
    };
    let hostinfo = match (host, hosts) {
        (Some(h), _) => with_user(with_port(to_s(&normalize(ev, h)?))),
        (_, Some(hs)) => {
            let normalized = normalize(ev, hs)?;
            let list = match &normalized {
                Value::Array(items) => items.to_vec(),
                _ => vec![normalized],
            };
            if port.is_some() || user.is_some() {
                let mapped: Vec<String> = list.iter().map(|h| with_user(with_port(to_s(h)))).collect();
                mapped.join(",")
            } else {
                ruby_join(&list, ",")
            }
        }
        _ => String::new(),
    };
    let path = match get("virtual_host") {
        Some(vh) => format!("/{}", to_s(vh)),
        None => "/".to_owned(),
    };
    let mut query: Hash = match get("query") {
        Some(Value::Hash(h)) => (**h).clone(),
        _ => Hash::default(),
    };
    if let Some(ssl) = get("ssl") {
        let on = str2bool(&to_s(ssl))?;
        query.insert(Value::from("ssl"), Value::Integer(i64::from(on)));
    }
    let mut url = format!("{}://{hostinfo}{path}", to_s(transport));
    if !query.is_empty() {
        url.push('?');
        url.push_str(&query_text(&query));
    }
    Ok(Value::from(url.as_str()))
}

/// A call like `call` (its position), for calling a sibling port directly.
fn call_like(call: &Call) -> Call {
    Call { args: Vec::new(), block: None, dispatch: 0, at: call.at }
}

/// Ruby's `Array#join(sep)`: elements with `to_s`, nested arrays joined in place.
fn ruby_join(items: &[Value], sep: &str) -> String {
    items
        .iter()
        .map(|v| match v {
            Value::Array(inner) => ruby_join(inner, sep),
            other => to_s(other),
        })
        .collect::<Vec<_>>()
        .join(sep)
}

/// The `_str2bool` os_transport_url carries (stdlib 5.1.0's `str2bool`): a line that is
/// empty, `undef`/`undefined` or `0|f|n|false|no` is false, one that is `1|t|y|true|yes` is
/// true (any case), in that order of checks; anything else fails.
fn str2bool(s: &str) -> Eval<bool> {
    let any_line = |f: &dyn Fn(&str) -> bool| lines(s).any(f);
    let word = |words: &[&str], l: &str| words.iter().any(|w| w.eq_ignore_ascii_case(l));
    if s.is_empty() || lines(s).any(str::is_empty) {
        return Ok(false);
    }
    if any_line(&|l| word(&["1", "t", "y", "true", "yes"], l)) {
        return Ok(true);
    }
    if any_line(&|l| word(&["0", "f", "n", "false", "no"], l) || l == "undef" || l == "undefined") {
        return Ok(false);
    }
    Err(fail("os_transport_url _str2bool(): Unknown type of boolean given"))
}
