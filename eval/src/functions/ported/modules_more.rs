//! Ruby functions of the corpus's other modules (archive, inifile, monit, neutron, staging,
//! ...), ported.
//!
//! One section per module, each port following its Ruby line by line (Ruby's `to_s`,
//! `inspect` and its error messages where Puppet shows them). Functions whose Ruby reaches the
//! network (redis, archive's Artifactory and Go helpers) or a library Poppet does not have
//! (Augeas) check their arguments as Puppet does, then refuse with an error saying what they
//! would do; `cert_date_valid`, which runs `openssl`, runs it only where commands are allowed
//! (`Options::allow_generate`, as `generate()`).

use std::rc::Rc;

use num_bigint::BigUint;
use puppet_types::display::float_to_s;
use puppet_types::value::Hash;
use puppet_types::Value;

use super::modules::shim;
use super::openstacklib::{ipaddr_new, is_ruby_space, percent_encode};
use super::stdlib_strings::{file_basename, file_extname, ruby_to_json};
use super::{v3, v4, Port};
use crate::error::{fail, Eval, Flow};
use crate::eval::{truthy, Evaluator, Level};
use crate::functions::ruby::{class, inspect, no_method, to_s};
use crate::functions::Call;

/// datacat's `template_body(names...)`: each template's text (found as `template()` finds
/// it), unrendered, concatenated: datacat renders it itself later.
fn template_body(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let mut out = String::new();
    for name in &call.args {
        let name = to_s(name);
        let Some(path) = crate::functions::templates::find_in_module(ev, &name, "templates") else {
            return Err(fail(format!("Could not find template '{name}'")));
        };
        let text = std::fs::read(&path).map_err(|e| fail(format!("{e}")))?;
        out.push_str(&String::from_utf8_lossy(&text));
    }
    Ok(Value::from(out.as_str()))
}

/// The dispatch Puppet makes for a 4.x function whose method is `def f(*args)`.
const ANY_ARGS: &[&str] = &["Any *$args"];

/// stdlib's URL types, as archive's dispatches name them.
const HTTP_URL: &str = "type Stdlib::HTTPUrl = Pattern[/(?i:\\Ahttps?:\\/\\/.*\\z)/]";
const HTTPS_URL: &str = "type Stdlib::HTTPSUrl = Pattern[/(?i:\\Ahttps:\\/\\/.*\\z)/]";

pub static PORTS: &[Port] = &[
    // staging
    v3("datacat", "template_body", -1, template_body),
    v3("staging", "staging_parse", -1, staging_parse),
    v3("staging", "scope_defaults", -1, scope_defaults),
    // redis
    v3("redis", "getvar_emptystring", -1, getvar_emptystring),
    v3("redis", "redisget", -1, redisget),
    // archive
    v3("archive", "assemble_nexus_url", -1, assemble_nexus_url),
    v3("archive", "go_md5", -1, go_md5),
    v4(
        "archive",
        "archive::parse_artifactory_url",
        &[HTTP_URL, HTTPS_URL, "Variant[Stdlib::HTTPUrl, Stdlib::HTTPSUrl] $url"],
        parse_artifactory_url,
    ),
    v4(
        "archive",
        "archive::artifactory_checksum",
        &[HTTP_URL, "Stdlib::HTTPUrl $url, Enum['sha1','sha256','md5'] $checksum_type?"],
        artifactory_checksum,
    ),
    v4(
        "archive",
        "archive::artifactory_latest_url",
        &[HTTP_URL, HTTPS_URL, "Variant[Stdlib::HTTPUrl, Stdlib::HTTPSUrl] $url, Hash $maven_data"],
        artifactory_latest_url,
    ),
    // dns, ssh
    v3("dns", "date", -1, date),
    v3("ssh", "ipaddresses", -1, ipaddresses),
    // monit, translate, memcached
    v3("monit", "monit_validate_tests", -1, monit_validate_tests),
    v4("translate", "translate", &["String $message, Hash $interpolation_values?"], translate),
    v4("memcached", "memcached::max_memory", &["Any $arg"], max_memory),
    // neutron, nova, vswitch, ironic, openstack_extras
    v4("neutron", "convert_cert_to_string", &["String $cert_file"], convert_cert_to_string),
    v4("neutron", "convert_to_json_string", ANY_ARGS, convert_to_json_string),
    v4("nova", "to_array_of_json_strings", ANY_ARGS, to_array_of_json_strings),
    v4(
        "vswitch",
        "range_to_mask",
        &["Pattern[/^$/] $range", "Pattern[/^[0-9\\-\\,]/] $range", "Undef $range"],
        range_to_mask,
    ),
    v4("ironic", "ipv6_normalize_dnsmasq_ip_subnets", &["Any $args"], ipv6_normalize_dnsmasq_ip_subnets),
    v4("openstack_extras", "validate_yum_hash", ANY_ARGS, validate_yum_hash),
    // collectd, inifile
    v3("collectd", "collectd_convert_processes", 1, collectd_convert_processes),
    v4("inifile", "inifile::create_ini_settings", &["Hash $settings, Hash $defaults?"], create_ini_settings),
    v4("inifile", "create_ini_settings", ANY_ARGS, |ev, call| {
        shim(
            ev,
            call,
            "create_ini_settings",
            "This method is deprecated, please use inifile::create_ini_settings instead.",
            "inifile::create_ini_settings",
        )
    }),
    // openssl, augeas_core
    v3("openssl", "cert_date_valid", -1, cert_date_valid),
    v4("augeas_core", "augeas", &["String $content, String $lens, Array[String] $changes"], augeas),
];

/// The refusal of a function that would reach the network: what it would do, and why not.
fn offline(function: &str, would: &str) -> Flow {
    fail(format!("{function}() would {would}: Poppet does not reach the network"))
}

/// A hash's value at a string key (undef when absent or not a hash): Ruby's `h['key']`.
fn get(v: &Value, key: &str) -> Value {
    match v {
        Value::Hash(h) => h.get(&Value::from(key)).cloned().unwrap_or(Value::Undef),
        _ => Value::Undef,
    }
}

/// Whether a hash has a string key: Ruby's `h.key?('key')`.
fn has(h: &Hash, key: &str) -> bool {
    h.contains_key(&Value::from(key))
}

/// Ruby's `String#upcase` of a value (`NoMethodError` for another object).
fn upcase(v: &Value) -> Eval<String> {
    match v {
        Value::String(s) => Ok(s.to_uppercase()),
        other => Err(no_method("upcase", other)),
    }
}

/// A Ruby String argument where Ruby calls `method` on it (`NoMethodError` otherwise).
fn string<'a>(v: &'a Value, method: &str) -> Eval<&'a str> {
    match v {
        Value::String(s) => Ok(s),
        other => Err(no_method(method, other)),
    }
}

/// Ruby's `String#split(sep)` with a one-character separator: the empty strings at the end
/// dropped.
fn split_trailing(s: &str, sep: char) -> Vec<&str> {
    let mut parts: Vec<&str> = s.split(sep).collect();
    while parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts
}

/// `scope.lookupvar(name)`: a variable as a 3.x function sees it from its caller's scope
/// (`::x` and `a::b` at the top or in their class); a missing one is `None`, with Puppet's
/// warning (`Undefined variable 'x'; `) once per name, as Hiera's interpolation looks it up.
fn lookupvar(ev: &mut Evaluator, name: &str) -> Eval<Option<Value>> {
    Ok(ev.hiera_variable(name)?)
}

// ---- staging --------------------------------------------------------------------------------

/// `staging_parse(source, [info], [extension])` (3.x): a part of the path of a file name or
/// URL (backslashes read as slashes): its `filename` (the default), `basename` (without
/// the extension given, or its own), `extname`, or `parent` directory.
fn staging_parse(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let args = &call.args;
    if args.is_empty() || args.len() > 3 {
        return Err(fail(format!("staging_parse(): Wrong number of arguments given ({} for 1, 2, 3)", args.len())));
    }
    let source = string(&args[0], "gsub")?;
    let Some(path) = uri_path(&source.replace('\\', "/"))? else {
        return Err(fail(format!("staging_parse(): {} has no URI 'path' component", inspect(&args[0]))));
    };
    let given = |i: usize| args.get(i).filter(|v| truthy(v));
    let info = given(1).cloned().unwrap_or_else(|| Value::from("filename"));
    let extension = match given(2) {
        Some(Value::String(s)) => s.to_string(),
        Some(other) => return Err(fail(format!("no implicit conversion of {} into String", class(other)))),
        None => file_extname(&path).to_owned(),
    };
    let result = match info.as_str() {
        Some("filename") => file_basename(&path, None).to_owned(),
        Some("basename") => file_basename(&path, Some(&extension)).to_owned(),
        Some("extname") => file_extname(&path).to_owned(),
        Some("parent") => expand_path(&format!("{path}/..")),
        _ => return Err(fail(format!("staging_parse(), unknown parse info {}.", to_s(&info)))),
    };
    Ok(Value::from(result.as_str()))
}

/// Ruby's `URI.parse(text).path` (RFC 3986): `None` for a URI without one (`mailto:x`, an
/// opaque part), the `InvalidURIError` for a text that is no URI reference.
fn uri_path(text: &str) -> Eval<Option<String>> {
    if !text.is_ascii() {
        return Err(fail(format!("URI must be ascii only {}", poppet_ruby::string::dump(text))));
    }
    let bad = || fail(format!("bad URI(is not URI?): {}", poppet_ruby::string::inspect(text)));
    // fragment, query
    let (rest, fragment) = text.split_once('#').map_or((text, None), |(r, f)| (r, Some(f)));
    if fragment.is_some_and(|f| !f.bytes().all(|b| is_pchar(b) || b == b'/' || b == b'?') || !escapes_ok(f)) {
        return Err(bad());
    }
    let rest = rest.split_once('?').map_or(rest, |(r, _)| r);
    let scheme_end = rest.find(':').filter(|&i| {
        let s = &rest.as_bytes()[..i];
        !s.is_empty()
            && s[0].is_ascii_alphabetic()
            && s.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
            && !rest[..i].contains('/')
    });
    let (hier, absolute) = match scheme_end {
        Some(i) => (&rest[i + 1..], true),
        None => (rest, false),
    };
    let path = match hier.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            if !authority_ok(&after[..end]) {
                return Err(bad());
            }
            &after[end..]
        }
        None => {
            if absolute && !hier.is_empty() && !hier.starts_with('/') {
                // an opaque part (`mailto:a@b`): no path
                return if segments_ok(hier, true) { Ok(None) } else { Err(bad()) };
            }
            hier
        }
    };
    // a relative reference's first segment has no colon (it would be a scheme)
    if !segments_ok(path, absolute || path.starts_with('/')) {
        return Err(bad());
    }
    Ok(Some(path.to_owned()))
}

/// RFC 3986's `pchar` (but `%`, checked apart): `[!$&-.0-9:;=@-Z_a-z~]`.
fn is_pchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!$&'()*+,-.:;=@_~%".contains(&b)
}

/// Whether every `%` of a text starts a `%XX` escape.
fn escapes_ok(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter().enumerate().filter(|(_, &c)| c == b'%').all(|(i, _)| {
        b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    })
}

/// Whether a path's segments are `pchar`s (its first without a colon unless `colon_first`).
fn segments_ok(path: &str, colon_first: bool) -> bool {
    let first = path.split('/').next().unwrap_or("");
    path.bytes().all(|b| b == b'/' || is_pchar(b)) && escapes_ok(path) && (colon_first || !first.contains(':'))
}

/// Whether a URI's authority is `[userinfo@]host[:port]`.
fn authority_ok(authority: &str) -> bool {
    let (userinfo, hostport) = authority.rsplit_once('@').map_or((None, authority), |(u, h)| (Some(u), h));
    if userinfo.is_some_and(|u| !u.bytes().all(|b| b != b'@' && is_pchar(b)) || !escapes_ok(u)) {
        return false;
    }
    let (host, port) = if let Some(inner) = hostport.strip_prefix('[') {
        let Some((literal, after)) = inner.split_once(']') else { return false };
        if literal.is_empty() || !literal.bytes().all(|b| b.is_ascii_hexdigit() || b":.vV".contains(&b)) {
            return false;
        }
        match after {
            "" => ("", None),
            _ => match after.strip_prefix(':') {
                Some(port) => ("", Some(port)),
                None => return false,
            },
        }
    } else {
        hostport.rsplit_once(':').map_or((hostport, None), |(h, p)| (h, Some(p)))
    };
    let host_ok = host.bytes().all(|b| b != b':' && b != b'@' && is_pchar(b)) && escapes_ok(host);
    host_ok && port.is_none_or(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

/// Ruby's `File.expand_path(path)`: absolute (from the working directory), `.` and `..`
/// resolved.
fn expand_path(path: &str) -> String {
    let full = if path.starts_with('/') {
        path.to_owned()
    } else {
        let cwd = std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_else(|_| "/".to_owned());
        format!("{cwd}/{path}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in full.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

/// `scope_defaults(type, attribute)` (3.x): whether the resource defaults in scope for the
/// type (`File { mode => ... }`) set the attribute.
fn scope_defaults(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let [type_name, attribute] = call.args.as_slice() else {
        return Err(fail(format!("scope_defaults(): Wrong number of arguments given ({} for 2)", call.args.len())));
    };
    let lower = string(type_name, "split")?.to_lowercase();
    let attribute = match attribute {
        Value::String(s) => s.clone(),
        other => return Err(no_method("to_sym", other)),
    };
    let catalog = &ev.compiler.catalog;
    let mut scope = Some(ev.scope.clone());
    // a chain of scopes is finite; the bound only guards against a cycle
    for _ in 0..10_000 {
        let Some(s) = scope else { break };
        let key = Rc::as_ptr(&s) as usize;
        let set = catalog.defaults.get(&key).and_then(|d| d.by_type.get(&lower));
        if set.is_some_and(|d| d.contains_key(&attribute)) {
            return Ok(Value::Boolean(true));
        }
        scope = catalog.defaults_parent.get(&key).cloned().or_else(|| s.parent());
    }
    Ok(Value::Boolean(false))
}

// ---- redis ----------------------------------------------------------------------------------

/// `getvar_emptystring(name)` (3.x): the variable's value, `''` when it is not set or undef.
fn getvar_emptystring(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let [name] = call.args.as_slice() else {
        return Err(fail(format!("getvar_emptystring(): wrong number of arguments ({}; must be 1)", call.args.len())));
    };
    Ok(lookupvar(ev, &to_s(name))?.filter(|v| !v.is_undef()).unwrap_or_else(|| Value::from("")))
}

/// `redisget(key, url, [default])` (3.x): the key's value on a Redis server. Its arguments
/// are checked as the Ruby does; then Poppet refuses, not reaching the network.
fn redisget(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let args = &call.args;
    if args.len() != 2 && args.len() != 3 {
        return Err(fail(format!("redisget(): Wrong number of arguments given ({} for 2 or 3)", args.len())));
    }
    let wrong = |v: &Value, which: &str| {
        fail(format!("redisget(): Wrong argument type given ({} for String) for {which}", class(v)))
    };
    if let Some(default) = args.get(2).filter(|v| !matches!(v, Value::String(_))) {
        return Err(wrong(default, "arg3 (default)"));
    }
    let (key, url) = match (&args[0], &args[1]) {
        (Value::String(k), Value::String(u)) => (k, u),
        (Value::String(_), u) => return Err(wrong(u, "arg2 (url)")),
        (k, _) => return Err(wrong(k, "arg1 (key)")),
    };
    Err(offline("redisget", &format!("read the key {key} from the Redis server at {url}")))
}

// ---- archive --------------------------------------------------------------------------------

/// `assemble_nexus_url(url, params)` (3.x): the Nexus URL of an artifact, the URL and
/// `/service/local/artifact/maven/content?` and the parameters as `key=value` (the value
/// CGI-escaped) joined with `&`.
fn assemble_nexus_url(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let base = call.args.first().map(to_s).unwrap_or_default();
    let pairs: Vec<Value> = match call.args.get(1) {
        None => Vec::new(),
        Some(Value::Hash(h)) => h.iter().map(|(k, v)| Value::array(vec![k.clone(), v.clone()])).collect(),
        Some(Value::Array(items)) => items.to_vec(),
        Some(other) => return Err(no_method("to_a", other)),
    };
    let mut query = Vec::with_capacity(pairs.len());
    for pair in &pairs {
        let (key, value) = match pair {
            Value::Array(kv) => {
                (kv.first().cloned().unwrap_or(Value::Undef), kv.get(1).cloned().unwrap_or(Value::Undef))
            }
            Value::String(s) => {
                // `String#[]` with an index: the characters at 0 and 1
                let char_at = |i: usize| s.chars().nth(i).map_or(Value::Undef, |c| Value::from(c.to_string().as_str()));
                (char_at(0), char_at(1))
            }
            other => return Err(no_method("[]", other)),
        };
        let value = match &value {
            Value::String(v) => cgi_escape(v),
            Value::Undef => return Err(fail("no implicit conversion of nil into String")),
            other => return Err(fail(format!("no implicit conversion of {} into String", class(other)))),
        };
        query.push(format!("{}={value}", to_s(&key)));
    }
    Ok(Value::from(format!("{base}/service/local/artifact/maven/content?{}", query.join("&")).as_str()))
}

/// Ruby's `CGI.escape`: a space as `+`, every byte but `a-zA-Z0-9_.~-` as `%XX`.
fn cgi_escape(s: &str) -> String {
    s.split(' ')
        .map(|part| {
            percent_encode(part.as_bytes(), |b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'~'))
        })
        .collect::<Vec<_>>()
        .join("+")
}

/// `go_md5(username, password, file, url)` (3.x): a file's MD5 from a Go server's checksum
/// file. Poppet refuses (after the Ruby's argument check): it does not reach the network.
fn go_md5(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let [_, _, file, url] = call.args.as_slice() else {
        return Err(fail(format!("Invalid go md5 info url {}", inspect(&Value::array(call.args)))));
    };
    Err(offline("go_md5", &format!("read the MD5 of {} from {}", to_s(file), to_s(url))))
}

/// `archive::parse_artifactory_url(url)`: the parts of an Artifactory URL of the maven-2
/// layout (`base_url`, `repository`, `org_path`, `module`, `base_rev`, `folder_iteg_rev`,
/// `file_iteg_rev`, `classifier`, `ext`), undef for another URL.
fn parse_artifactory_url(_: &mut Evaluator, call: Call) -> Eval<Value> {
    const NAMES: [&str; 9] = [
        "base_url",
        "repository",
        "org_path",
        "module",
        "base_rev",
        "folder_iteg_rev",
        "file_iteg_rev",
        "classifier",
        "ext",
    ];
    const LAYOUT: &str = concat!(
        r"(?<base_url>.*/artifactory)/(?<repository>[^/]+)/(?<org_path>.+?)/(?<module>[^/]+)/",
        r"(?<base_rev>[^/]+?)(?:-(?<folder_iteg_rev>SNAPSHOT))?/\k<module>-\k<base_rev>",
        r"(?:-(?<file_iteg_rev>SNAPSHOT|(?:(?:[0-9]{8}.[0-9]{6})-(?:[0-9]+))))?(?:-(?<classifier>[^/]+?))?",
        r"\.(?<ext>(?:(?!\d))[^\-/]+|7z)"
    );
    let url = to_s(&call.arg(0));
    let regexp = puppet_types::regexp::Regexp::new(LAYOUT);
    let Some(groups) = regexp.captures(&url) else { return Ok(Value::Undef) };
    let parts = NAMES
        .iter()
        .zip(groups.into_iter().skip(1))
        .map(|(name, group)| (Value::from(*name), group.map_or(Value::Undef, |g| Value::from(g.as_str()))))
        .collect();
    Ok(Value::hash(parts))
}

/// `archive::artifactory_checksum(url, [type])`: an artifact's checksum from Artifactory's
/// storage API. Poppet refuses: it does not reach the network.
fn artifactory_checksum(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let kind = call.args.get(1).map_or_else(|| "sha1".to_owned(), to_s);
    Err(offline(
        "archive::artifactory_checksum",
        &format!("read the {kind} checksum of {} from Artifactory", to_s(&call.arg(0))),
    ))
}

/// `archive::artifactory_latest_url(url, maven_data)`: the URL and SHA-1 of the latest
/// snapshot of an artifact from Artifactory's storage API. Poppet refuses: it does not reach
/// the network.
fn artifactory_latest_url(_: &mut Evaluator, call: Call) -> Eval<Value> {
    Err(offline(
        "archive::artifactory_latest_url",
        &format!("list the snapshots of {} in Artifactory", to_s(&call.arg(0))),
    ))
}

// ---- dns, ssh -------------------------------------------------------------------------------

/// `date()` (3.x, dns): meant to give the current time in seconds, but its Ruby block takes
/// no parameter while Puppet 7 calls a 3.x function's block with the array of arguments: it
/// always fails with Ruby's `ArgumentError`.
fn date(_: &mut Evaluator, _: Call) -> Eval<Value> {
    Err(fail("wrong number of arguments (given 1, expected 0)"))
}

/// `ipaddresses()` (3.x, ssh): the `ipaddress_IFACE` and `ipaddress6_IFACE` of each interface
/// of `$interfaces` (comma-separated) whose name has no `lo`; false without `$interfaces`.
fn ipaddresses(ev: &mut Evaluator, _: Call) -> Eval<Value> {
    let Some(interfaces) = lookupvar(ev, "interfaces")?.filter(|v| !v.is_undef()) else {
        return Ok(Value::Boolean(false));
    };
    let names: Vec<Value> = match &interfaces {
        Value::String(s) if s.contains(',') => split_trailing(s, ',').into_iter().map(Value::from).collect(),
        Value::String(_) => vec![interfaces.clone()],
        // `Array#count(',')` is 0: the array is one name, its `to_s` in the variables' names
        Value::Array(_) => vec![interfaces.clone()],
        other => return Err(no_method("count", other)),
    };
    let mut result = Vec::new();
    for name in &names {
        let has_lo = match name {
            Value::String(s) => s.contains("lo"),
            Value::Array(items) => items.iter().any(|i| i.as_str() == Some("lo")),
            _ => false,
        };
        if has_lo {
            continue;
        }
        let name = to_s(name);
        for variable in [format!("ipaddress_{name}"), format!("ipaddress6_{name}")] {
            if let Some(address) = lookupvar(ev, &variable)?.filter(truthy) {
                result.push(address);
            }
        }
    }
    Ok(Value::array(result))
}

// ---- monit ----------------------------------------------------------------------------------

/// monit's resource tests (`IF resource operator value THEN action`).
const RESOURCE_TESTS: &[&str] = &[
    "CPU",
    "CPU(USER)",
    "CPU(SYSTEM)",
    "CPU(WAIT)",
    "TOTAL CPU",
    "CHILDREN",
    "LOADAVG(1MIN)",
    "LOADAVG(5MIN)",
    "LOADAVG(15MIN)",
    "TOTAL MEMORY",
    "MEMORY",
    "SWAP",
];
const RESOURCE_TESTS_OPERATORS: &[&str] =
    &["<", ">", "!=", "==", "GT", "LT", "EQ", "NE", "GREATER", "LESS", "EQUAL", "NOTEQUAL"];
const TEST_ACTIONS: &[&str] = &["ALERT", "RESTART", "START", "STOP", "EXEC", "UNMONITOR"];
const HTTP_OPTIONS: &[&str] = &["REQUEST", "STATUS", "CHECKSUM", "HOSTHEADER", "CONTENT"];
const APACHE_STATUS_OPTIONS: &[&str] = &[
    "LOGLIMIT",
    "CLOSELIMIT",
    "DNSLIMIT",
    "KEEPALIVELIMIT",
    "REPLYLIMIT",
    "REQUESTLIMIT",
    "STARTLIMIT",
    "WAITLIMIT",
    "GRACEFULLIMIT",
    "CLEANUPLIMIT",
];
const GENERIC_OPTIONS: &[&str] = &["SEND", "EXPECT"];

/// The tests a check type takes (`TEST_TYPES`), `None` for an unknown type.
fn test_types(check: &str) -> Option<Vec<&'static str>> {
    Some(match check {
        "DIRECTORY" | "FIFO" | "FILE" | "PROGRAM" => Vec::new(),
        "FILESYSTEM" => vec!["FSFLAGS", "SPACE", "INODE", "PERM", "PERMISSION"],
        "HOST" => vec!["CONNECTION"],
        "PROCESS" => RESOURCE_TESTS.iter().copied().chain(["CONNECTION"]).collect(),
        "SYSTEM" => RESOURCE_TESTS.to_vec(),
        _ => return None,
    })
}

/// `monit_validate_tests(type, tests)` (3.x): each test of a check validated for the check's
/// type, its names upper-cased, its `tolerance` and `action` in monit's words (`ALERT` by
/// default) and its `condition` written (`CPU > 90%`, `FAILED PORT 80 ...`).
fn monit_validate_tests(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let check = upcase(&call.arg(0))?;
    let tests = match &call.arg(1) {
        Value::Array(items) => items.to_vec(),
        other => return Err(no_method("each_with_index", other)),
    };
    let mut out = Vec::with_capacity(tests.len());
    for test in tests {
        out.push(monit_test(&check, test)?);
    }
    Ok(Value::array(out))
}

/// One test of `monit_validate_tests`.
fn monit_test(check: &str, test: Value) -> Eval<Value> {
    let mut test = match &test {
        Value::Hash(h) => (**h).clone(),
        Value::String(_) => return Err(no_method("upcase", &Value::Undef)),
        Value::Array(_) => return Err(fail("no implicit conversion of String into Integer")),
        other => return Err(no_method("[]", other)),
    };
    let at = |t: &Hash, key: &str| t.get(&Value::from(key)).cloned().unwrap_or(Value::Undef);
    let set = |t: &mut Hash, key: &str, v: Value| {
        t.insert(Value::from(key), v);
    };
    let kind = upcase(&at(&test, "type"))?;
    set(&mut test, "type", Value::from(kind.as_str()));
    let Some(valid) = test_types(check) else { return Err(no_method("include?", &Value::Undef)) };
    if !valid.contains(&kind.as_str()) {
        return Err(fail(format!("Tests for '{check}': invalid test type '{kind}'")));
    }
    let prefix = format!("Tests for '{check}' ('{kind}'): ");
    let error = |message: &str| Err(fail(format!("{prefix}{message}")));
    if has(&test, "tolerance") {
        let tolerance = at(&test, "tolerance");
        let Value::Hash(t) = &tolerance else {
            return error("tolerance must be a hash with 'cycles' key and optionally 'times'.");
        };
        if !has(t, "cycles") {
            return error("tolerance must be a hash with 'cycles' key and optionally 'times'.");
        }
        let cycles = to_s(&get(&tolerance, "cycles"));
        let text = if has(t, "times") {
            format!("{} TIMES WITHIN {cycles} CYCLES", to_s(&get(&tolerance, "times")))
        } else {
            format!("{cycles} CYCLES")
        };
        set(&mut test, "tolerance", Value::from(text.as_str()));
    }
    if has(&test, "action") {
        let action = upcase(&at(&test, "action"))?;
        set(&mut test, "action", Value::from(action.as_str()));
        if !TEST_ACTIONS.contains(&action.as_str()) {
            return error(&format!("invalid action '{action}'"));
        }
        if action == "EXEC" && !has(&test, "exec") {
            return error("missing command for exec action");
        }
    } else {
        set(&mut test, "action", Value::from("ALERT"));
    }
    let condition = if RESOURCE_TESTS.contains(&kind.as_str()) || kind == "SPACE" || kind == "INODE" {
        if !has(&test, "operator") {
            return error("'operator' is mandatory");
        }
        let operator = at(&test, "operator");
        if !operator.as_str().is_some_and(|o| RESOURCE_TESTS_OPERATORS.contains(&o)) {
            return error(&format!("invalid operator: {}", to_s(&operator)));
        }
        if !has(&test, "value") {
            return error("'value' is mandatory");
        }
        let operator = upcase(&operator)?;
        set(&mut test, "operator", Value::from(operator.as_str()));
        Some(format!("{kind} {operator} {}", to_s(&at(&test, "value"))))
    } else if kind == "FSFLAGS" {
        Some(format!("CHANGED {kind}"))
    } else if kind == "PERM" || kind == "PERMISSION" {
        if !has(&test, "value") {
            return error("'value' is mandatory");
        }
        Some(format!("FAILED {kind} {}", to_s(&at(&test, "value"))))
    } else if kind == "CONNECTION" {
        Some(monit_connection(&mut test, &prefix)?)
    } else {
        None
    };
    if let Some(condition) = condition {
        set(&mut test, "condition", Value::from(condition.as_str()));
    }
    Ok(Value::hash(test))
}

/// The condition of a monit connection test (its socket, protocol and protocol test, timeout
/// and retries), upper-casing the names it uses in the test.
fn monit_connection(test: &mut Hash, prefix: &str) -> Eval<String> {
    let at = |t: &Hash, key: &str| t.get(&Value::from(key)).cloned().unwrap_or(Value::Undef);
    let error = |message: String| Err(fail(format!("{prefix}{message}")));
    if !has(test, "port") && !has(test, "unixsocket") {
        return error("'port' or 'unixsocket' is mandatory".into());
    }
    let mut condition = String::from("FAILED");
    if has(test, "unixsocket") {
        condition += &format!("UNIXSOCKET {}", to_s(&at(test, "unixsocket")));
    } else {
        let port = to_s(&at(test, "port"));
        if has(test, "host") {
            condition += &format!(" HOST {} PORT {port}", to_s(&at(test, "host")));
        } else {
            condition += &format!(" PORT {port}");
        }
        if has(test, "socket_type") {
            let socket = upcase(&at(test, "socket_type"))?;
            test.insert(Value::from("socket_type"), Value::from(socket.as_str()));
            condition += &format!(" TYPE {socket}");
            if socket == "TCPSSL" {
                if has(test, "socket_type_cypher") {
                    let cypher = upcase(&at(test, "socket_type_cypher"))?;
                    test.insert(Value::from("socket_type_cypher"), Value::from(cypher.as_str()));
                    condition += &format!(" {cypher}");
                }
                if has(test, "socket_type_checksum") {
                    condition += &format!(" CERTMD5 {}", to_s(&at(test, "socket_type_checksum")));
                }
            }
        }
        if has(test, "protocol") {
            let protocol = upcase(&at(test, "protocol"))?;
            test.insert(Value::from("protocol"), Value::from(protocol.as_str()));
            if protocol != "GENERIC" {
                condition += &format!("\n    PROTOCOL {protocol} ");
            }
            if has(test, "protocol_test") {
                let options = at(test, "protocol_test");
                match protocol.as_str() {
                    "HTTP" | "APACHE-STATUS" => {
                        let valid = if protocol == "HTTP" { HTTP_OPTIONS } else { APACHE_STATUS_OPTIONS };
                        let Value::Hash(h) = &options else {
                            return error(format!(
                                "protocol_test must be a hash with any of this keys: {}.",
                                valid.join(", ")
                            ));
                        };
                        let mut invalid = Vec::new();
                        for key in h.keys() {
                            let key = upcase(key)?;
                            if !valid.contains(&key.as_str()) {
                                invalid.push(key);
                            }
                        }
                        if !invalid.is_empty() {
                            return error(format!("invalid options in {protocol} ckeck: {}", invalid.join(", ")));
                        }
                        if has(h, "request") {
                            condition += &format!("\n    REQUEST {}", to_s(&get(&options, "request")));
                        }
                        for (key, value) in h.iter().filter(|(k, _)| k.as_str() != Some("request")) {
                            condition += &format!("\n    {} {}", upcase(key)?, to_s(value));
                        }
                    }
                    _ => {
                        let Value::Array(pairs) = &options else {
                            return error("protocol_test must be an array of hashes with send/expect pairs.".into());
                        };
                        for pair in pairs.iter() {
                            let Value::Hash(p) = pair else { return Err(no_method("keys", pair)) };
                            let keys = p.keys().map(upcase).collect::<Eval<Vec<_>>>()?;
                            if !GENERIC_OPTIONS.iter().all(|o| keys.iter().any(|k| k == o)) {
                                return error(format!(
                                    "missing options in {protocol} ckeck: {} are mandatory.",
                                    GENERIC_OPTIONS.join(", ")
                                ));
                            }
                            for (key, value) in p.iter() {
                                condition += &format!("\n    {} {}", upcase(key)?, to_s(value));
                            }
                        }
                    }
                }
            }
        }
    }
    if has(test, "timeout") {
        condition += &format!("\n    WITH TIMEOUT {} SECONDS", to_s(&at(test, "timeout")));
    }
    if has(test, "retry") {
        condition += &format!(" RETRY {}", to_s(&at(test, "retry")));
    }
    Ok(condition)
}

// ---- translate, memcached -------------------------------------------------------------------

/// `translate(message, [values])`: the message through gettext (Poppet has no catalogs of
/// translations: as it is), its `%{name}` and `%<name>s` references replaced by the values
/// (Ruby's `String#%` with a Hash).
fn translate(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let message = to_s(&call.arg(0));
    let Some(Value::Hash(values)) = call.args.get(1) else { return Ok(Value::from(message.as_str())) };
    // the keys as Symbols
    let mut symbols = Hash::default();
    for (k, v) in values.iter() {
        let name = match k {
            Value::String(s) => s.clone(),
            Value::Default => Rc::from("default"),
            other => return Err(no_method("to_sym", other)),
        };
        // `%{name}` writes Ruby's `to_s` (an array or hash as its `inspect`)
        let v = match v {
            Value::Array(_) | Value::Hash(_) => Value::from(to_s(v).as_str()),
            other => other.clone(),
        };
        symbols.insert(Value::String(name), v);
    }
    let symbols = Value::hash(symbols);
    let text = pfmt::sprintf::format(&message, &pfmt::sprintf::Arg::Obj(&symbols))?;
    Ok(Value::from(text.as_str()))
}

/// `memcached::max_memory(arg)`: memcached's memory in MB: the argument as a number of MB
/// (Ruby's `to_i`), or, for a percentage (`95%` when undef or false), that part of the
/// `memorysize` fact.
fn max_memory(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let arg = call.arg(0);
    if truthy(&arg) && !to_s(&arg).ends_with('%') {
        return Ok(match &arg {
            Value::String(s) => leading_integer(s),
            Value::Integer(_) | Value::BigInt(_) => arg.clone(),
            Value::Float(f) if f.is_finite() => Value::Integer(f.trunc() as i64),
            other => return Err(no_method("to_i", other)),
        });
    }
    let percent = if truthy(&arg) { leading_float(&to_s(&arg)) } else { 95.0 };
    let facts = ev.top.get("facts").unwrap_or(Value::Undef);
    let memsize = match &get(&facts, "memorysize") {
        Value::String(s) => s.to_string(),
        Value::Undef => return Err(no_method("[]", &Value::Undef)),
        other => return Err(fail(format!("no implicit conversion of {} into String", class(other)))),
    };
    // `/([0-9.e+-]*)\s*([^bB]?)/`: the number and the unit's first letter
    let number_end = memsize.find(|c: char| !(c.is_ascii_digit() || ".e+-".contains(c))).unwrap_or(memsize.len());
    let after = memsize[number_end..].trim_start_matches(is_ruby_space);
    let unit = after.chars().next().filter(|c| *c != 'b' && *c != 'B');
    let shift = match unit {
        None => 0,
        Some('k') => 10,
        Some('M') => 20,
        Some('G') => 30,
        Some('T') => 40,
        Some('E') => 50,
        Some(other) => return Err(fail(format!("memcached_max_memory(): Unknown prefix {other}"))),
    };
    let bytes = (leading_float(&memsize[..number_end]) * (1u64 << shift) as f64).trunc();
    let mb = (bytes / (1u64 << 20) as f64).floor();
    let result = (mb * (percent / 100.0)).floor();
    if !result.is_finite() {
        // Ruby's `Float#floor` of Infinity or NaN
        return Err(fail(float_to_s(result)));
    }
    Ok(Value::Integer(result as i64))
}

/// Ruby's `String#to_i`: the leading integer (after spaces), 0 when there is none.
fn leading_integer(s: &str) -> Value {
    let t = s.trim_start_matches(is_ruby_space);
    let sign_len = usize::from(t.starts_with(['+', '-']));
    let digits: String = t[sign_len..]
        .char_indices()
        .take_while(|(i, c)| c.is_ascii_digit() || (*c == '_' && *i > 0))
        .map(|(_, c)| c)
        .filter(|c| *c != '_')
        .collect();
    let text =
        format!("{}{}", if t.starts_with('-') { "-" } else { "" }, if digits.is_empty() { "0" } else { &digits });
    match text.parse::<i64>() {
        Ok(n) => Value::Integer(n),
        Err(_) => text.parse::<num_bigint::BigInt>().map_or(Value::Integer(0), |b| Value::BigInt(Rc::new(b))),
    }
}

/// Ruby's `String#to_f`: the leading decimal number (after spaces), 0.0 when there is none.
fn leading_float(s: &str) -> f64 {
    let t = s.trim_start_matches(is_ruby_space).as_bytes();
    let digits = |mut i: usize| {
        while i < t.len() && t[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut end = digits(usize::from(t.first().is_some_and(|b| b"+-".contains(b))));
    if t.get(end) == Some(&b'.') && t.get(end + 1).is_some_and(u8::is_ascii_digit) {
        end = digits(end + 1);
    }
    if t.get(end).is_some_and(|b| b"eE".contains(b)) {
        let sign = usize::from(t.get(end + 1).is_some_and(|b| b"+-".contains(b)));
        let exponent_end = digits(end + 1 + sign);
        if exponent_end > end + 1 + sign {
            end = exponent_end;
        }
    }
    std::str::from_utf8(&t[..end]).ok().and_then(|n| n.parse().ok()).unwrap_or(0.0)
}

// ---- neutron, nova --------------------------------------------------------------------------

/// `convert_cert_to_string(file)`: the lines of a certificate file but those with `-----`,
/// stripped and joined.
fn convert_cert_to_string(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let file = to_s(&call.arg(0));
    let path = std::path::Path::new(&file);
    if !path.is_file() {
        return Err(fail(format!("Certificate file not found: {file}")));
    }
    let bytes = std::fs::read(path).map_err(|e| fail(format!("{file}: {e}")))?;
    let text = String::from_utf8_lossy(&bytes);
    let joined: String = text
        .split_inclusive('\n')
        .filter(|l| !l.contains("-----"))
        .map(|l| l.trim_matches(|c: char| is_ruby_space(c) || c == '\0'))
        .collect();
    Ok(Value::from(joined.as_str()))
}

/// `convert_to_json_string(value)`: the value's JSON; an array of `key:value` strings as a
/// JSON object of them.
fn convert_to_json_string(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let value = call.arg(0);
    let pairs = match &value {
        Value::Array(items) => {
            let mut all = true;
            for item in items.iter() {
                let includes = match item {
                    Value::String(s) => s.contains(':'),
                    Value::Array(a) => a.iter().any(|x| x.as_str() == Some(":")),
                    Value::Hash(h) => has(h, ":"),
                    other => return Err(no_method("include?", other)),
                };
                if !includes {
                    all = false;
                    break;
                }
            }
            all.then_some(items)
        }
        _ => None,
    };
    let Some(items) = pairs else { return Ok(Value::from(ruby_to_json(&value)?.as_str())) };
    let mut object = Hash::default();
    for item in items.iter() {
        let parts = split_trailing(string(item, "split")?, ':');
        let part = |i: usize| parts.get(i).map_or(Value::Undef, |p| Value::from(*p));
        object.insert(part(0), part(1));
    }
    Ok(Value::from(ruby_to_json(&Value::hash(object))?.as_str()))
}

/// Ruby's `JSON.load(text)` (a blank text is null), `None` where its parser fails.
fn json_load(text: &str) -> Option<Value> {
    if text.is_empty() {
        return Some(Value::Undef);
    }
    if poppet_ruby::json::parse_error(text).is_some() {
        return None;
    }
    pfmt::data::json::documents(text).next().and_then(Result::ok)
}

/// `to_array_of_json_strings(list)`: an array of hashes, or its JSON text (single quotes
/// allowed, with a warning), as an array of each hash's JSON.
fn to_array_of_json_strings(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let [arg] = call.args.as_slice() else {
        return Err(fail("to_array_of_json_strings(): Wrong number of arguments"));
    };
    let shown = to_s(arg);
    let mut list = arg.clone();
    if let Value::String(text) = arg {
        list = match json_load(text) {
            Some(v) => v,
            None => match json_load(&text.replace('\'', "\"")) {
                Some(v) => {
                    ev.log(
                        Level::Warning,
                        format!("{shown} is not valid JSON. Support for this format is deprecated and may be removed in future."),
                    );
                    v
                }
                None => return Err(fail(format!("Syntax error: {shown} is not valid"))),
            },
        };
        if !matches!(list, Value::Array(_)) {
            list = Value::array(vec![list]);
        }
    }
    let hashes = match &list {
        Value::Array(items) if items.iter().all(|e| matches!(e, Value::Hash(_))) => items.clone(),
        _ => return Err(fail(format!("Syntax error: {shown} is not an Array or JSON encoded String"))),
    };
    let strings = hashes.iter().map(|h| ruby_to_json(h).map(|j| Value::from(j.as_str()))).collect::<Eval<Vec<_>>>()?;
    Ok(Value::array(strings))
}

// ---- vswitch, ironic, openstack_extras ------------------------------------------------------

/// The highest core `range_to_mask` takes (Ruby would build masks of any size).
const MAX_CORE: u64 = 1 << 16;

/// `range_to_mask(range)`: a list of cores and ranges of cores (`1,3-5`) as the hex mask of
/// their bits; undef for `''` or undef.
fn range_to_mask(_: &mut Evaluator, call: Call) -> Eval<Value> {
    if call.dispatch != 1 {
        return Ok(Value::Undef);
    }
    let range = to_s(&call.arg(0));
    // each part a core or `first-last` expanded, joined with commas, split again
    let mut expanded = Vec::new();
    for part in split_trailing(&range, ',') {
        if !part.contains('-') {
            expanded.push(part.to_owned());
            continue;
        }
        let bounds: Vec<BigUint> = split_trailing(part, '-').iter().map(|b| core_number(b)).collect();
        let (first, last) = match (bounds.first(), bounds.get(1)) {
            (Some(f), Some(l)) => (f.clone(), l.clone()),
            (Some(_), None) => return Err(fail("cannot convert endless range to an array")),
            (None, _) => return Err(fail("can't iterate from NilClass")),
        };
        if last > BigUint::from(MAX_CORE) && first <= last {
            return Err(fail(format!("range_to_mask(): core {last} is too high")));
        }
        let mut cores = Vec::new();
        let mut core = first;
        while core <= last {
            cores.push(core.to_string());
            core += 1u32;
        }
        expanded.push(cores.join(","));
    }
    let mut mask = BigUint::default();
    for core in split_trailing(&expanded.join(","), ',') {
        let bit = u64::try_from(core_number(core)).ok().filter(|&b| b <= MAX_CORE);
        let Some(bit) = bit else { return Err(fail(format!("range_to_mask(): core {core} is too high"))) };
        mask.set_bit(bit, true);
    }
    Ok(Value::from(mask.to_str_radix(16).as_str()))
}

/// A core's number as Ruby's `to_i` reads it (0 for none; a negative one is 0 too, as no
/// Ruby text here can hold a minus sign after the split at `-`).
fn core_number(s: &str) -> BigUint {
    match &leading_integer(s) {
        Value::Integer(n) => u64::try_from(*n).map(BigUint::from).unwrap_or_default(),
        Value::BigInt(b) => b.to_biguint().unwrap_or_default(),
        _ => BigUint::default(),
    }
}

/// `ipv6_normalize_dnsmasq_ip_subnets(subnets)`: each subnet hash with an IPv6 `netmask`
/// given as its prefix length (the count of its one bits) and without an IPv6 `gateway`.
fn ipv6_normalize_dnsmasq_ip_subnets(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let subnets = match &call.arg(0) {
        Value::Array(items) => items.to_vec(),
        Value::Hash(h) if h.is_empty() => Vec::new(),
        Value::Hash(_) => return Err(fail("no implicit conversion of String into Integer")),
        other => return Err(no_method("each", other)),
    };
    let v6 = |v: &Value| v.as_str().and_then(ipaddr_new).filter(|a| a.v6);
    let mut result = Vec::with_capacity(subnets.len());
    for subnet in subnets {
        let mut subnet = match &subnet {
            Value::Hash(h) => (**h).clone(),
            // `String#[]`: a string holding `netmask` gives it, not an address: kept
            Value::String(_) => {
                result.push(subnet.clone());
                continue;
            }
            Value::Array(_) | Value::Integer(_) => return Err(fail("no implicit conversion of String into Integer")),
            other => return Err(no_method("[]", other)),
        };
        let netmask = subnet.get(&Value::from("netmask")).cloned().unwrap_or(Value::Undef);
        if let Some(mask) = v6(&netmask) {
            subnet.insert(Value::from("netmask"), Value::Integer(i64::from(mask.addr.count_ones())));
        }
        let gateway = subnet.get(&Value::from("gateway")).cloned().unwrap_or(Value::Undef);
        if v6(&gateway).is_some() {
            subnet.shift_remove(&Value::from("gateway"));
        }
        result.push(Value::hash(subnet));
    }
    Ok(Value::array(result))
}

/// The parameters of Puppet's `yumrepo` type that `validate_yum_hash` allows.
const YUMREPO_PARAMETERS: &[&str] = &[
    "name",
    "ensure",
    "baseurl",
    "cost",
    "descr",
    "enabled",
    "enablegroups",
    "exclude",
    "failovermethod",
    "gpgcheck",
    "gpgkey",
    "http_caching",
    "include",
    "includepkgs",
    "keepalive",
    "metadata_expire",
    "metalink",
    "mirrorlist",
    "priority",
    "protect",
    "provider",
    "proxy",
    "proxy_password",
    "proxy_username",
    "repo_gpgcheck",
    "s3_enabled",
    "skip_if_unavailable",
    "sslcacert",
    "sslclientcert",
    "sslclientkey",
    "sslverify",
    "target",
    "timeout",
];

/// `validate_yum_hash(repos)`: fails unless each repository's parameters are `yumrepo`
/// parameters; the hash when it has repositories (Ruby's `each`), else undef.
fn validate_yum_hash(_: &mut Evaluator, call: Call) -> Eval<Value> {
    if call.args.len() > 1 {
        return Err(fail(format!("validate_yum_hash takes only a single argument, {} provided", call.args.len())));
    }
    let arg = call.arg(0);
    let Value::Hash(repos) = &arg else { return Err(fail("non-hash argument provided to validate_yum_hash")) };
    if repos.is_empty() {
        return Ok(Value::Undef);
    }
    for params in repos.values() {
        let names: Vec<Value> = match params {
            Value::Hash(h) => h.keys().cloned().collect(),
            // `each |param, value|` of an array: an element, or an array's first element
            Value::Array(items) => items
                .iter()
                .map(|i| match i {
                    Value::Array(a) => a.first().cloned().unwrap_or(Value::Undef),
                    other => other.clone(),
                })
                .collect(),
            other => return Err(no_method("each", other)),
        };
        if let Some(bad) = names.iter().find(|n| !n.as_str().is_some_and(|n| YUMREPO_PARAMETERS.contains(&n))) {
            return Err(fail(format!("Parameter {} is not valid for the yumrepo type", to_s(bad))));
        }
    }
    Ok(arg)
}

// ---- collectd, inifile ----------------------------------------------------------------------

/// `collectd_convert_processes(processes)` (3.x): an array of process names and hashes with
/// a `name` as a hash of each name to its hash's other keys (`{}` for a name); a hash as it
/// is.
fn collectd_convert_processes(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let arg = call.arg(0);
    let items = match &arg {
        Value::Hash(_) => return Ok(arg),
        Value::Array(items) => items.clone(),
        _ => return Err(fail("convert_process_array(): Needs an array as argument")),
    };
    let mut processes = Hash::default();
    for item in items.iter() {
        match item {
            Value::String(_) => {
                processes.insert(item.clone(), Value::hash(Hash::default()));
            }
            Value::Hash(h) => {
                let mut rest = (**h).clone();
                let name = rest.shift_remove(&Value::from("name")).unwrap_or(Value::Undef);
                processes.insert(name, Value::hash(rest));
            }
            _ => return Err(fail("convert_process_array(): array element must be string or hash")),
        }
    }
    Ok(Value::hash(processes))
}

/// `inifile::create_ini_settings(settings, [defaults])`: an `ini_setting` for each setting of
/// each section (`PATH [SECTION] SETTING`, the path from the defaults), its value, or its
/// parameters when a hash, declared with the defaults through `create_resources`.
fn create_ini_settings(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let Value::Hash(settings) = &call.arg(0) else { return Ok(Value::Undef) };
    let defaults = match call.args.get(1) {
        Some(Value::Hash(h)) => h.clone(),
        _ => Rc::new(Hash::default()),
    };
    let mut resources = Hash::default();
    for (section, values) in settings.iter() {
        let Value::Hash(values) = values else {
            return Err(fail(format!("create_ini_settings(): Section {} must contain a Hash", to_s(section))));
        };
        // `defaults.merge(settings)['path']`
        let path = match settings.get(&Value::from("path")).or_else(|| defaults.get(&Value::from("path"))) {
            Some(p) if truthy(p) => to_s(p),
            _ => return Err(fail("create_ini_settings(): must pass the path parameter to the Ini_setting resource!")),
        };
        for (setting, value) in values.iter() {
            let mut params = Hash::default();
            params.insert(Value::from("ensure"), Value::from("present"));
            params.insert(Value::from("section"), section.clone());
            params.insert(Value::from("setting"), setting.clone());
            match value {
                Value::Hash(h) => params.extend(h.iter().map(|(k, v)| (k.clone(), v.clone()))),
                other => {
                    params.insert(Value::from("value"), other.clone());
                }
            }
            let title = format!("{path} [{}] {}", to_s(section), to_s(setting));
            resources.insert(Value::from(title.as_str()), Value::hash(params));
        }
    }
    let args = vec![Value::from("ini_setting"), Value::hash(resources), Value::Hash(defaults)];
    // `create_resources` is a 3.x statement: its value is undef
    ev.call_function_inner("create_resources", args, None, call.at)?;
    Ok(Value::Undef)
}

// ---- openssl, augeas_core -------------------------------------------------------------------

/// `cert_date_valid(file)` (3.x): the seconds a certificate file is still valid for, false
/// when it is expired, not yet valid or never valid. The Ruby runs `openssl x509 -dates
/// -noout < FILE` in a shell: the port runs openssl on the file only where running commands
/// is allowed (as `generate()`).
fn cert_date_valid(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let file = call.args.first().map(to_s).unwrap_or_default();
    let command = format!("openssl x509 -dates -noout < {file}");
    if !ev.options.allow_generate {
        return Err(fail(format!(
            "cert_date_valid() would run `{command}`: running commands is off (allow it with poppet --allow-generate)"
        )));
    }
    let stdout = openssl_dates(&file)?;
    let dates = String::from_utf8_lossy(&stdout).replace('\n', "");
    if !dates.contains("notBefore=") && !dates.contains("notAfter=") {
        return Err(fail("No date found in certificate"));
    }
    let begin = openssl_date(&dates, "notBefore=")?;
    let end = openssl_date(&dates, "notAfter=")?;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64());
    if now > end as f64 || now < begin as f64 || end <= begin {
        return Ok(Value::Boolean(false));
    }
    Ok(Value::Integer((end as f64 - now).trunc() as i64))
}

/// How long `cert_date_valid` waits for `openssl` (which never ends reading a directory).
const COMMAND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// What `openssl x509 -dates -noout` writes reading the file (nothing for a file that
/// cannot be opened or is a directory, where the shell would fail or openssl read forever),
/// killed after [`COMMAND_TIMEOUT`]. The file is opened here, not by a shell, so that no text
/// of it runs as shell code.
fn openssl_dates(file: &str) -> Eval<Vec<u8>> {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let Ok(input) = std::fs::File::open(file).and_then(|f| {
        if f.metadata()?.is_dir() {
            Err(std::io::Error::other("a directory"))
        } else {
            Ok(f)
        }
    }) else {
        return Ok(Vec::new());
    };
    let failed = |e: std::io::Error| fail(format!("cannot run openssl: {e}"));
    let mut child = Command::new("openssl")
        .args(["x509", "-dates", "-noout"])
        .stdin(input)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(failed)?;
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(pipe) = stdout.as_mut() {
            let _ = pipe.read_to_end(&mut out);
        }
        out
    });
    let started = std::time::Instant::now();
    loop {
        if child.try_wait().map_err(failed)?.is_some() {
            break;
        }
        if started.elapsed() > COMMAND_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(fail(format!(
                "openssl did not finish reading {file} in {} seconds",
                COMMAND_TIMEOUT.as_secs()
            )));
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    reader.join().map_err(|_| fail("cannot read the output of openssl"))
}

/// The time after `label` in `openssl x509 -dates` output (`notAfter=Jan  1 00:00:00 2030
/// GMT`), as seconds since the epoch.
fn openssl_date(dates: &str, label: &str) -> Eval<i64> {
    let text = dates.rsplit_once(label).map(|(_, t)| t).unwrap_or(dates);
    let text = text.split_once(" GMT").map_or(text, |(t, _)| t);
    let unparsable = || fail(format!("no time information in {}", poppet_ruby::string::inspect(text)));
    let words: Vec<&str> = text.split_whitespace().collect();
    let [month, day, time, year] = words.as_slice() else { return Err(unparsable()) };
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let month = MONTHS.iter().position(|m| m.eq_ignore_ascii_case(month)).ok_or_else(unparsable)? as i64 + 1;
    let number = |s: &str| s.parse::<i64>().map_err(|_| unparsable());
    let (day, year) = (number(day)?, number(year)?);
    let hms: Vec<i64> = time.split(':').map(number).collect::<Eval<_>>()?;
    let [h, m, s] = hms.as_slice() else { return Err(unparsable()) };
    // days from the civil date (Howard Hinnant's algorithm)
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Ok(days * 86_400 + h * 3600 + m * 60 + s)
}

/// `augeas(content, lens, changes)`: the text changed through an Augeas lens. Poppet refuses
/// (after the argument check): it does not run Augeas.
fn augeas(_: &mut Evaluator, call: Call) -> Eval<Value> {
    Err(fail(format!(
        "augeas() would change the text with the Augeas lens {}: Poppet does not run Augeas",
        to_s(&call.arg(1))
    )))
}

#[cfg(test)]
mod tests {
    use crate::Session;

    /// The error of a program run with the corpus modules on the module path (and commands
    /// allowed or not).
    fn error_of(source: &str, allow_commands: bool) -> String {
        let mut session = Session::oracle_node();
        session.evaluator.set_modulepath("/usr/share/puppet/modules");
        session.evaluator.options.allow_generate = allow_commands;
        session.run(source).error.map(|e| e.puppet_text()).unwrap_or_default()
    }

    /// Puppet reaches the network or runs Augeas where these are called (the oracle cannot
    /// load their Ruby: no golden cases); Poppet refuses, saying what the call would do.
    #[test]
    fn refusals_say_what_they_would_do() {
        if !std::path::Path::new("/usr/share/puppet/modules/archive").is_dir() {
            return;
        }
        for (source, expected) in [
            (
                "redisget('version', 'redis://redis:6379')",
                "redisget() would read the key version from the Redis server at redis://redis:6379: Poppet does not reach the network",
            ),
            ("redisget('k', 1)", "redisget(): Wrong argument type given (Integer for String) for arg2 (url)"),
            ("redisget('k')", "redisget(): Wrong number of arguments given (1 for 2 or 3)"),
            ("go_md5('u', 'p', 'f')", "Invalid go md5 info url [\"u\", \"p\", \"f\"]"),
            (
                "go_md5('u', 'p', 'app.jar', 'http://go/md5')",
                "go_md5() would read the MD5 of app.jar from http://go/md5: Poppet does not reach the network",
            ),
            (
                "archive::artifactory_checksum('http://a/artifactory/r/x.jar')",
                "archive::artifactory_checksum() would read the sha1 checksum of http://a/artifactory/r/x.jar from Artifactory",
            ),
            ("archive::artifactory_checksum(1)", "'archive::artifactory_checksum' parameter 'url' expects"),
            (
                "archive::artifactory_latest_url('https://a/artifactory/r/x.jar', {})",
                "archive::artifactory_latest_url() would list the snapshots of https://a/artifactory/r/x.jar",
            ),
            ("augeas('x', 'Fstab.lns', [])", "augeas() would change the text with the Augeas lens Fstab.lns"),
            ("range_to_mask('0,99999999')", "range_to_mask(): core 99999999 is too high"),
        ] {
            let error = error_of(&format!("notice({source})"), true);
            assert!(error.contains(expected), "{source}: {error}");
        }
        let error = error_of("notice(cert_date_valid('/etc/ssl/certs/x.pem'))", false);
        assert!(
            error.contains("cert_date_valid() would run `openssl x509 -dates -noout < /etc/ssl/certs/x.pem`"),
            "{error}"
        );
        let error = error_of("notice(cert_date_valid('/etc'))", true);
        assert!(error.contains("No date found in certificate"), "{error}");
    }
}
