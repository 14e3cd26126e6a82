//! stdlib's functions about the node and its secrets (interfaces and addresses from facts,
//! OS versions, password hashes, escaping for shells and XML), ported from its Ruby (8.5.0
//! and 9.7.0).

use puppet_types::Value;

use super::{select_dispatch, stdlib_9, v3, v3_statement, v4, Port};
use crate::error::{fail, Eval};
use crate::eval::{Evaluator, Level, Strict};
use crate::functions::ruby::{self, to_s};
use crate::functions::{warn_once, Call};

pub static PORTS: &[Port] = &[
    v3("stdlib", "has_interface_with", -1, has_interface_with),
    v4("stdlib", "has_interface_with", SHIM, |ev, c| shim(ev, c, "has_interface_with")),
    v4("stdlib", "stdlib::has_interface_with", STDLIB_HAS_INTERFACE_WITH, stdlib_has_interface_with),
    v3("stdlib", "has_ip_address", -1, |ev, c| has_ip(ev, c, "has_ip_address", "ipaddress")),
    v4("stdlib", "has_ip_address", SHIM, |ev, c| shim(ev, c, "has_ip_address")),
    v3("stdlib", "has_ip_network", -1, |ev, c| has_ip(ev, c, "has_ip_network", "network")),
    v4("stdlib", "has_ip_network", SHIM, |ev, c| shim(ev, c, "has_ip_network")),
    v4("stdlib", "stdlib::ip_in_range", &["String $ipaddress, Variant[String, Array] $range"], ip_in_range),
    v3("stdlib", "enclose_ipv6", -1, enclose_ipv6),
    v4("stdlib", "os_version_gte", SHIM, |ev, c| real_or_shim(ev, c, "os_version_gte", OS_VERSION_GTE, os_version_gte)),
    v4("stdlib", "stdlib::os_version_gte", OS_VERSION_GTE, os_version_gte),
    v3("stdlib", "fqdn_uuid", -1, fqdn_uuid),
    v3("stdlib", "pw_hash", 3, pw_hash),
    v3("stdlib", "str2saltedsha512", -1, str2saltedsha512),
    v3("stdlib", "str2saltedpbkdf2", -1, str2saltedpbkdf2),
    v4("stdlib", "batch_escape", SHIM, |ev, c| real_or_shim(ev, c, "batch_escape", ANY, batch_escape)),
    v4("stdlib", "stdlib::batch_escape", ANY, batch_escape),
    v4("stdlib", "powershell_escape", SHIM, |ev, c| real_or_shim(ev, c, "powershell_escape", ANY, powershell_escape)),
    v4("stdlib", "stdlib::powershell_escape", ANY, powershell_escape),
    v4("stdlib", "stdlib::xml_encode", &["String $str, Enum['text','attr'] $type?"], xml_encode),
    v4("stdlib", "stdlib::rewrap_sensitive_data", &["Any $data, Callable[Any] &$block?"], rewrap_sensitive_data),
    v3_statement("stdlib", "private", -1, private),
];

const ANY: &[&str] = &["Any $string"];

/// The dispatch of stdlib 9.7.0's deprecated global names of its `stdlib::` functions.
const SHIM: &[&str] = &["Any *$args"];
const STDLIB_HAS_INTERFACE_WITH: &[&str] =
    &["String[1] $interface", "Enum['macaddress','netmask','ipaddress','network','ip','mac'] $kind, String[1] $value"];
const OS_VERSION_GTE: &[&str] = &["String[1] $os, String[1] $version"];

/// stdlib 9.7.0's deprecated global names (`has_interface_with`, `os_version_gte`, ...): the
/// deprecation warning (`deprecation(name, message, false)`), then the `stdlib::` function
/// with the same arguments.
fn shim(ev: &mut Evaluator, call: Call, name: &str) -> Eval<Value> {
    let message = format!("This function is deprecated, please use stdlib::{name} instead.");
    let args = vec![Value::from(name), Value::from(message.as_str()), Value::Boolean(false)];
    ev.call_function_inner("deprecation", args, None, call.at)?;
    ev.call_function_inner(&format!("stdlib::{name}"), call.args, call.block, call.at)
}

/// A 4.x function of stdlib 8.5.0 that 9.x made a deprecated [`shim`]: with stdlib 8 the
/// arguments are checked against the 8.5.0 function's `dispatches` before `real` runs.
fn real_or_shim(
    ev: &mut Evaluator,
    call: Call,
    name: &str,
    dispatches: &[&str],
    real: fn(&mut Evaluator, Call) -> Eval<Value>,
) -> Eval<Value> {
    if stdlib_9(ev) {
        return shim(ev, call, name);
    }
    let dispatch = select_dispatch(name, dispatches, &call.args, call.block.as_ref())?;
    real(ev, Call { dispatch, ..call })
}

// --- facts of interfaces -------------------------------------------------------------------

/// `scope.lookupvar(name)` of a 3.x function: the variable as the calling code sees it
/// (`::x` and `a::b` at the top), `None` when it is not set.
fn lookupvar(ev: &Evaluator, name: &str) -> Option<Value> {
    match name.strip_prefix("::") {
        Some(top) => ev.top.get(top),
        None if name.contains("::") => ev.top.get(name),
        None => ev.scope.get(name),
    }
}

/// stdlib 8.5.0's `has_interface_with(interface)` / `has_interface_with(kind, value)`: whether
/// the `interfaces` fact (a comma-separated string) names the interface; with a kind, whether
/// the variable `KIND` or some `KIND_IFACE` (the interface lowercased) equals the value. The
/// variables are read where the function is called, as Ruby's `lookupvar` does.
fn has_interface_with(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let n = call.args.len();
    if n == 0 || n > 2 {
        return Err(fail(format!("has_interface_with(): Wrong number of arguments given ({n} for 1 or 2)")));
    }
    let interfaces = match &lookupvar(ev, "interfaces") {
        None | Some(Value::Undef) => return Ok(Value::Boolean(false)),
        Some(Value::String(s)) => ruby_split(s, ','),
        Some(other) => return Err(ruby::no_method("split", other)),
    };
    let [kind, value] = call.args.as_slice() else {
        return Ok(Value::Boolean(interfaces.iter().any(|i| ruby::eq(&Value::from(i.as_str()), &call.args[0]))));
    };
    // a kind that is no string: Puppet's "not a string" error, rescued by the function
    let fact = match kind {
        Value::String(kind) => lookupvar(ev, kind),
        _ => None,
    };
    if ruby::eq(&fact.unwrap_or(Value::Undef), value) {
        return Ok(Value::Boolean(true));
    }
    let kind = to_s(kind);
    let found = interfaces.iter().any(|iface| {
        let fact = lookupvar(ev, &format!("{kind}_{}", iface.to_lowercase())).unwrap_or(Value::Undef);
        ruby::eq(value, &fact)
    });
    Ok(Value::Boolean(found))
}

/// Ruby's `String#split(sep)` by one character: the pieces, trailing empty ones dropped.
fn ruby_split(s: &str, sep: char) -> Vec<String> {
    let mut parts: Vec<String> = s.split(sep).map(str::to_owned).collect();
    while parts.last().is_some_and(String::is_empty) {
        parts.pop();
    }
    parts
}

/// stdlib 9.7.0's `stdlib::has_interface_with(interface)` / `(kind, value)`: whether
/// `$facts['networking']['interfaces']` has the interface, or one whose `kind` (`ipaddress`
/// read `ip`, `macaddress` read `mac`) is the value.
fn stdlib_has_interface_with(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let facts = ev.top.get("facts").unwrap_or(Value::Undef);
    let interfaces = dig(&facts, &["networking", "interfaces"]);
    let Value::Hash(interfaces) = &interfaces else {
        return Err(ruby::no_method(if call.dispatch == 0 { "key?" } else { "any?" }, &interfaces));
    };
    let found = if call.dispatch == 0 {
        interfaces.contains_key(&call.arg(0))
    } else {
        let kind = match to_s(&call.arg(0)).as_str() {
            "ipaddress" => "ip".to_owned(),
            "macaddress" => "mac".to_owned(),
            other => other.to_owned(),
        };
        let value = call.arg(1);
        interfaces.values().any(|params| ruby::eq(&dig(params, &[&kind]), &value))
    };
    Ok(Value::Boolean(found))
}

/// The value at the keys of nested hashes, undef where one is missing.
fn dig(value: &Value, keys: &[&str]) -> Value {
    keys.iter()
        .try_fold(value.clone(), |v, key| match &v {
            Value::Hash(h) => Some(h.get(&Value::from(*key)).cloned().unwrap_or(Value::Undef)),
            _ => None,
        })
        .unwrap_or(Value::Undef)
}

/// stdlib 8.5.0's `has_ip_address(address)` and `has_ip_network(network)`:
/// `has_interface_with(kind, value)`, the helper loaded through Puppet's deprecated 3.x
/// autoloader ([`autoloader_load`]).
fn has_ip(ev: &mut Evaluator, call: Call, name: &str, kind: &str) -> Eval<Value> {
    if call.args.len() != 1 {
        return Err(fail(format!("{name}(): Wrong number of arguments given ({} for 1)", call.args.len())));
    }
    autoloader_load(ev, "has_interface_with")?;
    let args = vec![Value::from(kind), call.arg(0)];
    ev.call_function_inner("has_interface_with", args, None, call.at)
}

/// What a 3.x function does with `Puppet::Parser::Functions.autoloader.loaded?(name)` and
/// `.load(name)` before calling another (`private`, `has_ip_address`): unless `strict` is
/// off, a deprecation warning for each method (once a session); loading the function the
/// first time, which warns when it was loaded already ("Overwriting previous definition").
fn autoloader_load(ev: &mut Evaluator, name: &str) -> Eval<()> {
    let strict = ev.options.strict != Strict::Off;
    let deprecated = |method: &str| {
        format!("The method 'Puppet::Parser::Functions.autoloader#{method}(\"{name}\")' is deprecated in favor of using 'Scope#call_function'.")
    };
    if strict {
        warn_once(ev, &format!("Puppet::Parser::Functions.loaded?('{name}')"), &deprecated("loaded?"));
    }
    let first = ev.first_time(&format!("Puppet::Parser::Functions.autoloader.load('{name}')"));
    if first {
        if strict {
            warn_once(ev, &format!("Puppet::Parser::Functions#load('{name}')"), &deprecated("load"));
        }
        if ev.function_exists(name) {
            ev.log(Level::Warning, format!("Overwriting previous definition for function {name}"));
        }
    }
    if !ev.function_exists(name) {
        ev.autoload(crate::eval::modules::Entity::Function, name)?;
    }
    Ok(())
}

// --- addresses -----------------------------------------------------------------------------

/// An address as Ruby's `IPAddr` has it: its family, the address (masked by its prefix),
/// the mask and the zone of an IPv6 address (`%eth0`).
#[derive(Clone, Debug)]
struct IpAddr {
    v6: bool,
    addr: u128,
    mask: u128,
    zone: Option<String>,
}

const IN4MASK: u128 = 0xffff_ffff;

/// Ruby's `IPAddr::InvalidAddressError` with an empty address (the message as Ruby's
/// IPAddr gives it while parsing).
fn invalid() -> String {
    "invalid address: ".to_owned()
}

impl IpAddr {
    /// `IPAddr.new(text)`: `address`, `address/prefix` or `address/mask`, an IPv6 address
    /// possibly in brackets or with a zone; the errors are Ruby's messages.
    fn parse(text: &str) -> Result<IpAddr, String> {
        let (mut prefix, prefixlen) = match text.split_once('/') {
            Some((p, l)) => (p, Some(l)),
            None => (text, None),
        };
        let mut v6_only = false;
        if let Some(inner) = prefix.strip_prefix('[').and_then(|p| p.strip_suffix(']')) {
            if !inner.contains('\n') {
                prefix = inner;
                v6_only = true;
            }
        }
        let mut zone = None;
        if let Some(i) = prefix.rfind('%') {
            let (head, tail) = prefix.split_at(i);
            let word = &tail[1..];
            if !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && !head.contains('\n')
            {
                prefix = head;
                zone = Some(tail.to_owned());
                v6_only = true;
            }
        }
        let (v6, addr) = match (!v6_only).then(|| ipv4(prefix)).transpose()?.flatten() {
            Some(a) => (false, u128::from(a)),
            None => (true, ipv6(prefix)?.ok_or_else(invalid)?),
        };
        let full = if v6 { u128::MAX } else { IN4MASK };
        let mut ip = IpAddr { v6, addr, mask: full, zone };
        if let Some(len) = prefixlen {
            ip.mask_by(len)?;
        }
        Ok(ip)
    }

    /// `IPAddr#mask!(text)`: a prefix length or a netmask.
    fn mask_by(&mut self, mask: &str) -> Result<(), String> {
        let bits: u32 = if self.v6 { 128 } else { 32 };
        let digits = !mask.is_empty() && mask.bytes().all(|b| b.is_ascii_digit());
        if digits && (mask == "0" || !mask.starts_with('0')) {
            let len = mask.parse::<u32>().ok().filter(|&l| l <= bits);
            let Some(len) = len else { return Err(format!("invalid length: {}", self.addr)) };
            let full = if self.v6 { u128::MAX } else { IN4MASK };
            self.mask = if len == 0 { 0 } else { (full >> (bits - len)) << (bits - len) & full };
        } else if digits {
            return Err("leading zeros in prefix".to_owned());
        } else {
            let m = IpAddr::parse(mask)?;
            if m.v6 != self.v6 {
                return Err(format!("address family is not same: {}", self.addr));
            }
            let n = m.addr ^ m.mask;
            if n.wrapping_add(1) & n != 0 {
                return Err(format!("invalid mask {mask}: {}", self.addr));
            }
            self.mask = m.addr;
        }
        self.addr &= self.mask;
        Ok(())
    }

    /// `IPAddr#include?`: of the same family, and its range within this one.
    fn includes(&self, other: &IpAddr) -> bool {
        let (begin, end) = (self.addr & self.mask, self.addr | !self.mask & self.full());
        let (obegin, oend) = (other.addr & other.mask, other.addr | !other.mask & other.full());
        self.v6 == other.v6 && begin <= obegin && end >= oend
    }

    fn full(&self) -> u128 {
        if self.v6 {
            u128::MAX
        } else {
            IN4MASK
        }
    }

    /// `IPAddr#to_s` of an IPv6 address: groups without leading zeros, the longest run of
    /// two or more zero groups (the first of equal ones) written `::`, an IPv4-compatible or
    /// -mapped address with its last 32 bits dotted; the zone after it.
    fn ipv6_to_s(&self) -> String {
        let groups: Vec<u16> = (0..8).map(|i| (self.addr >> (112 - 16 * i)) as u16).collect();
        let zone = self.zone.as_deref().unwrap_or("");
        let mut run = (0, 0);
        // Ruby tries the whole address (when it has no zone), then runs of 7 down to 2
        let longest = if zone.is_empty() { 8 } else { 7 };
        for len in (2..=longest).rev() {
            if let Some(start) = (0..=8 - len).find(|&s| groups[s..s + len].iter().all(|&g| g == 0)) {
                run = (start, len);
                break;
            }
        }
        let hex = |gs: &[u16]| gs.iter().map(|g| format!("{g:x}")).collect::<Vec<_>>().join(":");
        let text = if run.1 == 0 {
            hex(&groups)
        } else {
            format!("{}::{}", hex(&groups[..run.0]), hex(&groups[run.0 + run.1..]))
        };
        let dotted = |g: u16, h: u16| format!("{}.{}.{}.{}", g >> 8, g & 0xff, h >> 8, h & 0xff);
        if zone.is_empty() && run == (0, 5) && groups[5] == 0xffff {
            return format!("::ffff:{}", dotted(groups[6], groups[7]));
        }
        if zone.is_empty() && run.0 == 0 && run.1 == 6 {
            return format!("::{}", dotted(groups[6], groups[7]));
        }
        format!("{text}{zone}")
    }
}

/// Ruby's `IPAddr#in_addr`: a dotted IPv4 address (`None` when the text is not four runs of
/// digits), its numbers below 256 and without leading zeros.
fn ipv4(text: &str) -> Result<Option<u32>, String> {
    let parts: Vec<&str> = text.split('.').collect();
    if parts.len() != 4 || parts.iter().any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit())) {
        return Ok(None);
    }
    octets(&parts).map(Some)
}

/// Four runs of digits as an IPv4 address, with Ruby's errors.
fn octets(parts: &[&str]) -> Result<u32, String> {
    parts.iter().try_fold(0u32, |acc, p| {
        let n = p.parse::<u32>().ok().filter(|&n| n < 256).ok_or_else(invalid)?;
        if p.len() > 1 && p.starts_with('0') {
            return Err("zero-filled number in IPv4 address is ambiguous: ".to_owned());
        }
        Ok(acc << 8 | n)
    })
}

/// Ruby's `IPAddr#in6_addr`: eight groups, or fewer around one `::`, the last two possibly
/// a dotted IPv4 address; `None` where Ruby's would give nil (too many groups).
fn ipv6(text: &str) -> Result<Option<u128>, String> {
    let hex_group = |g: &str| !g.is_empty() && g.len() <= 4 && g.bytes().all(|b| b.is_ascii_hexdigit());
    // a dotted IPv4 tail: its four numbers
    fn tail4(last: &str) -> Option<Vec<&str>> {
        let p: Vec<&str> = last.split('.').collect();
        (p.len() == 4 && p.iter().all(|x| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit()))).then_some(p)
    }
    let (left, right, v4) = match text.split_once("::") {
        None => {
            let groups: Vec<&str> = text.split(':').collect();
            let last = groups.last().copied().unwrap_or("");
            if groups.len() == 8 && groups.iter().all(|g| hex_group(g)) {
                (groups, Vec::new(), None)
            } else if let (7, Some(v4)) = (groups.len(), tail4(last)) {
                if !groups[..6].iter().all(|g| hex_group(g)) {
                    return Err(invalid());
                }
                (groups[..6].to_vec(), vec!["0", "0"], Some(v4))
            } else {
                return Err(invalid());
            }
        }
        Some((l, r)) => {
            let lg: Vec<&str> = if l.is_empty() { Vec::new() } else { l.split(':').collect() };
            if !lg.iter().all(|g| hex_group(g)) {
                return Err(invalid());
            }
            let mut rg: Vec<&str> = if r.is_empty() { Vec::new() } else { r.split(':').collect() };
            let last = rg.last().copied();
            let v4 = last.and_then(tail4);
            if v4.is_some() {
                rg.pop();
            }
            if !rg.iter().all(|g| hex_group(g)) || (v4.is_none() && last.is_some() && !last.is_some_and(hex_group)) {
                return Err(invalid());
            }
            let colons = text.matches(':').count();
            if v4.is_some() {
                if colons > 6 {
                    return Err(invalid());
                }
                rg.extend(["0", "0"]);
            } else if colons > if l.is_empty() || r.is_empty() { 8 } else { 7 } {
                return Err(invalid());
            }
            (lg, rg, v4)
        }
    };
    let v4 = v4.map(|p| octets(&p)).transpose()?.map_or(0, u128::from);
    let rest = 8i64 - left.len() as i64 - right.len() as i64;
    if rest < 0 {
        return Ok(None);
    }
    let zeros = std::iter::repeat_n("0", rest as usize);
    let groups = left.iter().copied().chain(zeros).chain(right.iter().copied());
    let addr = groups.fold(0u128, |acc, g| acc << 16 | u128::from(u16::from_str_radix(g, 16).unwrap_or(0)));
    Ok(Some(addr | v4))
}

/// `stdlib::ip_in_range(address, range)`: whether the address (its network where it has a
/// prefix) is within the range, or within one of an array of ranges (Ruby's `IPAddr`).
fn ip_in_range(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let ip = IpAddr::parse(&to_s(&call.arg(0))).map_err(fail)?;
    let ranges = match &call.arg(1) {
        Value::Array(items) => items.iter().map(ip_value).collect::<Result<Vec<_>, _>>(),
        range => ip_value(range).map(|r| vec![r]),
    }
    .map_err(fail)?;
    Ok(Value::Boolean(ranges.iter().any(|r| r.includes(&ip))))
}

/// `IPAddr.new(value)`: a string read as an address; another value (which Ruby would read as
/// a number of a family) is Ruby's error asking for the family.
fn ip_value(value: &Value) -> Result<IpAddr, String> {
    match value {
        Value::String(s) => IpAddr::parse(s),
        _ => Err("address family must be specified".to_owned()),
    }
}

/// `enclose_ipv6(addresses)`: the addresses of a string or array (flattened, undef dropped),
/// each IPv6 one written `[ADDRESS]` as Ruby's `IPAddr` writes it, `*` and IPv4 ones as they
/// are; without duplicates.
fn enclose_ipv6(_: &mut Evaluator, call: Call) -> Eval<Value> {
    if call.args.len() != 1 {
        return Err(fail(format!("enclose_ipv6(): Wrong number of arguments given {} for 1", call.args.len())));
    }
    let arg = call.arg(0);
    if !matches!(arg, Value::String(_) | Value::Array(_)) {
        return Err(fail(format!(
            "enclose_ipv6(): Wrong argument type given {} expected String or Array",
            ruby::class(&arg)
        )));
    }
    let mut values = Vec::new();
    flatten_into(&arg, &mut values);
    let mut result: Vec<Value> = Vec::new();
    for value in values {
        let text = match &value {
            Value::String(s) if &**s == "*" => value.clone(),
            _ => match ip_value(&value) {
                Ok(ip) if ip.v6 => Value::from(format!("[{}]", ip.ipv6_to_s()).as_str()),
                Ok(_) => value.clone(),
                Err(_) => {
                    return Err(fail(format!(
                        "enclose_ipv6(): Wrong argument given {} is not an ip address.",
                        to_s(&value)
                    )))
                }
            },
        };
        if !result.iter().any(|r| r == &text) {
            result.push(text);
        }
    }
    Ok(Value::array(result))
}

/// Ruby's `[value].flatten.compact`: the values of nested arrays, in order, without nil.
fn flatten_into(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| flatten_into(v, out)),
        Value::Undef => {}
        other => out.push(other.clone()),
    }
}

// --- OS versions ---------------------------------------------------------------------------

/// `os_version_gte(os, version)` (stdlib 8.5.0; 9.7.0's `stdlib::os_version_gte`): whether
/// the node's OS name is `os` and its major release at least `version` (Puppet's
/// `versioncmp`). 8.5.0 reads the legacy facts `operatingsystem` and
/// `operatingsystemmajrelease`, 9.7.0 `os.name` and `os.release.major`.
fn os_version_gte(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let facts = ev.top.get("facts").unwrap_or(Value::Undef);
    let (name, major) = if stdlib_9(ev) {
        (dig(&facts, &["os", "name"]), dig(&facts, &["os", "release", "major"]))
    } else {
        (dig(&facts, &["operatingsystem"]), dig(&facts, &["operatingsystemmajrelease"]))
    };
    if !ruby::eq(&name, &call.arg(0)) {
        return Ok(Value::Boolean(false));
    }
    let order = crate::functions::strings::versioncmp(&to_s(&major), &to_s(&call.arg(1)), false)?;
    Ok(Value::Boolean(order >= 0))
}

// --- identifiers and password hashes -------------------------------------------------------

/// `fqdn_uuid(fqdn)`: the RFC 4122 version 5 UUID of the name in the DNS namespace (the
/// SHA-1 of the namespace and the name, its version and variant bits set).
fn fqdn_uuid(_: &mut Evaluator, call: Call) -> Eval<Value> {
    use sha1::{Digest, Sha1};
    match call.args.len() {
        0 => return Err(fail("fqdn_uuid: No arguments given")),
        1 => {}
        n => return Err(fail(format!("fqdn_uuid: Too many arguments given ({n})"))),
    }
    let Value::String(fqdn) = &call.args[0] else {
        return Err(fail(format!("no implicit conversion of {} into String", ruby::class(&call.args[0]))));
    };
    const DNS_NAMESPACE: [u8; 16] =
        [0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8];
    let mut sha1 = Sha1::new();
    sha1.update(DNS_NAMESPACE);
    sha1.update(fqdn.as_bytes());
    let mut bytes: Vec<u8> = sha1.finalize()[..16].to_vec();
    bytes[6] = bytes[6] & 0x0f | 0x50;
    bytes[8] = bytes[8] & 0x3f | 0x80;
    let hex = |range: std::ops::Range<usize>| bytes[range].iter().map(|b| format!("{b:02x}")).collect::<String>();
    let uuid = [hex(0..4), hex(4..6), hex(6..8), hex(8..10), hex(10..16)].join("-");
    Ok(Value::from(uuid.as_str()))
}

/// A Sensitive argument unwrapped (what pw_hash and str2saltedpbkdf2 do first).
fn unwrap_sensitive(value: Value) -> Value {
    match &value {
        Value::Sensitive(inner) => (**inner).clone(),
        _ => value,
    }
}

/// `pw_hash(password, hash_type, salt)`: the password hashed by the host's `crypt(3)` with
/// the salt (`$1$` MD5, `$5$` SHA-256, `$6$` SHA-512, `$2b$`-style bcrypt): glibc's (libxcrypt's)
/// algorithms, its `*0` where bcrypt's cost is out of range; undef for an empty password.
/// Sensitive arguments are unwrapped. The bcrypt salt (`NN$` and 22 characters) is checked
/// as in the version on the module path (9.7.0 asks for a cost from 04 to 31).
fn pw_hash(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let args: Vec<Value> = call.args.into_iter().map(unwrap_sensitive).collect();
    let [password, hash_type, salt] = args.as_slice() else {
        return Err(fail(format!("pw_hash(): wrong number of arguments ({} for 3)", args.len())));
    };
    let Value::String(password) = password else { return Err(fail("pw_hash(): first argument must be a string")) };
    let Value::String(hash_type) = hash_type else { return Err(fail("pw_hash(): second argument must be a string")) };
    let prefix = match hash_type.to_lowercase().as_str() {
        "md5" => "1",
        "sha-256" => "5",
        "sha-512" => "6",
        "bcrypt" => "2b",
        "bcrypt-a" => "2a",
        "bcrypt-x" => "2x",
        "bcrypt-y" => "2y",
        _ => return Err(fail(format!("pw_hash(): {hash_type} is not a valid hash type"))),
    };
    let Value::String(salt) = salt else { return Err(fail("pw_hash(): third argument must be a string")) };
    if salt.is_empty() {
        return Err(fail("pw_hash(): third argument must not be empty"));
    }
    let crypt_char = |b: u8| b.is_ascii_alphanumeric() || b == b'.' || b == b'/';
    if prefix.starts_with('2') {
        let nine = stdlib_9(ev);
        // Ruby's `^` matches at the start of any line, and nothing ends the match
        if !salt.split('\n').any(|line| bcrypt_salt(line, nine)) {
            let pattern = if nine {
                r"(?-mix:^(0[4-9]|[12][0-9]|3[01])\$[.\/A-Za-z0-9]{22})"
            } else {
                r"(?-mix:^[0-9]{2}\$[.\/A-Za-z0-9]{22})"
            };
            return Err(fail(format!("pw_hash(): characters in salt must match {pattern}")));
        }
    } else if !salt.bytes().all(crypt_char) {
        return Err(fail("pw_hash(): characters in salt must be in the set [a-zA-Z0-9./]"));
    }
    if password.is_empty() {
        return Ok(Value::Undef);
    }
    if password.contains('\0') {
        return Err(fail("string contains null byte"));
    }
    Ok(Value::from(crypt(password.as_bytes(), prefix, salt).as_str()))
}

/// Whether a line starts as pw_hash's bcrypt salt pattern asks: a cost of two digits (9.7.0:
/// from 04 to 31), `$`, 22 characters of bcrypt's Base64.
fn bcrypt_salt(line: &str, nine: bool) -> bool {
    let b = line.as_bytes();
    let cost_ok = match b {
        [c0, c1, ..] if c0.is_ascii_digit() && c1.is_ascii_digit() => {
            !nine || (4..=31).contains(&((c0 - b'0') * 10 + (c1 - b'0')))
        }
        _ => false,
    };
    cost_ok && b.get(2) == Some(&b'$') && b.len() >= 25 && b[3..25].iter().all(|&c| BCRYPT64.contains(&c))
}

/// `crypt(password, "$PREFIX$SALT")` as libxcrypt computes it.
fn crypt(password: &[u8], prefix: &str, salt: &str) -> String {
    match prefix {
        "1" => md5_crypt(password, salt),
        "5" | "6" => sha_crypt(password, prefix, salt),
        _ => bcrypt(password, prefix, salt).unwrap_or_else(|| "*0".to_owned()),
    }
}

/// The Base64 of crypt(3) (`./0-9A-Za-z`, least significant six bits first).
const CRYPT64: &[u8; 64] = b"./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// The crypt Base64 of three bytes (the first the most significant), `n` characters of it.
fn crypt64(out: &mut String, a: u8, b: u8, c: u8, n: usize) {
    let mut v = u32::from(a) << 16 | u32::from(b) << 8 | u32::from(c);
    for _ in 0..n {
        out.push(char::from(CRYPT64[(v & 0x3f) as usize]));
        v >>= 6;
    }
}

/// MD5-crypt (`$1$`, Poul-Henning Kamp's): the salt's first 8 characters, 1000 rounds.
fn md5_crypt(password: &[u8], salt: &str) -> String {
    use md5::{Digest, Md5};
    let salt = &salt.as_bytes()[..salt.len().min(8)];
    let alternate = Md5::new().chain_update(password).chain_update(salt).chain_update(password).finalize();
    let mut ctx = Md5::new().chain_update(password).chain_update(b"$1$").chain_update(salt);
    let mut left = password.len();
    while left > 0 {
        let n = left.min(16);
        ctx.update(&alternate[..n]);
        left -= n;
    }
    let mut i = password.len();
    while i > 0 {
        ctx.update(if i & 1 == 1 { &[0u8][..] } else { &password[..1] });
        i >>= 1;
    }
    let mut digest = ctx.finalize();
    for round in 0..1000 {
        let mut ctx = Md5::new();
        if round & 1 == 1 {
            ctx.update(password);
        } else {
            ctx.update(digest);
        }
        if round % 3 != 0 {
            ctx.update(salt);
        }
        if round % 7 != 0 {
            ctx.update(password);
        }
        if round & 1 == 1 {
            ctx.update(digest);
        } else {
            ctx.update(password);
        }
        digest = ctx.finalize();
    }
    let d = digest;
    let mut out = format!("$1${}$", String::from_utf8_lossy(salt));
    for (a, b, c) in [(0, 6, 12), (1, 7, 13), (2, 8, 14), (3, 9, 15), (4, 10, 5)] {
        crypt64(&mut out, d[a], d[b], d[c], 4);
    }
    crypt64(&mut out, 0, 0, d[11], 2);
    out
}

/// SHA-crypt (`$5$` SHA-256, `$6$` SHA-512, Ulrich Drepper's): the salt's first 16
/// characters, 5000 rounds.
fn sha_crypt(password: &[u8], prefix: &str, salt: &str) -> String {
    let salt = &salt[..salt.len().min(16)];
    let hash = if prefix == "5" {
        sha_crypt::sha256_crypt_b64(password, salt.as_bytes(), &sha_crypt::Sha256Params::default())
    } else {
        sha_crypt::sha512_crypt_b64(password, salt.as_bytes(), &sha_crypt::Sha512Params::default())
    };
    // the default rounds and a salt of crypt characters leave nothing to fail
    format!("${prefix}${salt}${}", hash.unwrap_or_default())
}

/// bcrypt's Base64 (`./A-Za-z0-9`, most significant bits first).
const BCRYPT64: &[u8; 64] = b"./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// bcrypt as Solar Designer's crypt_blowfish (libxcrypt's) computes it from the setting
/// `NN$` + 22 salt characters (what follows is ignored): `None` where crypt fails (a cost
/// out of 04..31). `$2x$` keeps the historic sign-extension bug of 8-bit characters;
/// `$2a$`'s countermeasure for it changes nothing on UTF-8 text (it needs a 0xff byte).
fn bcrypt(password: &[u8], prefix: &str, setting: &str) -> Option<String> {
    use blowfish::Blowfish;
    let s = setting.as_bytes();
    let (c0, c1) = (*s.first()?, *s.get(1)?);
    if !c0.is_ascii_digit() || !c1.is_ascii_digit() || s.get(2) != Some(&b'$') || s.len() < 25 {
        return None;
    }
    let cost = u32::from(c0 - b'0') * 10 + u32::from(c1 - b'0');
    if !(4..=31).contains(&cost) {
        return None;
    }
    let salt_text = &s[3..25];
    let values: Vec<u8> = salt_text
        .iter()
        .map(|&c| BCRYPT64.iter().position(|&x| x == c))
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .map(|v| v as u8)
        .collect();
    let mut salt = [0u8; 16];
    let mut bits = 0u32;
    let mut count = 0;
    let mut k = 0;
    for v in values {
        bits = bits << 6 | u32::from(v);
        count += 6;
        if count >= 8 && k < 16 {
            count -= 8;
            salt[k] = (bits >> count) as u8;
            k += 1;
        }
    }
    // the key's 18 words, read cyclically over the password and its NUL
    let key: Vec<u8> = password.iter().copied().chain([0]).collect();
    let mut words = [0u8; 72];
    let mut pos = 0;
    for word in words.chunks_mut(4) {
        let mut w = 0u32;
        for _ in 0..4 {
            let byte = key[pos];
            // `$2x$`: the byte sign-extended into the word (the historic bug)
            w = if prefix == "2x" { (w << 8) | (byte as i8 as i32 as u32) } else { (w << 8) | u32::from(byte) };
            pos = if pos + 1 == key.len() { 0 } else { pos + 1 };
        }
        word.copy_from_slice(&w.to_be_bytes());
    }
    let mut state = Blowfish::bc_init_state();
    state.salted_expand_key(&salt, &words);
    for _ in 0..1u64 << cost {
        state.bc_expand_key(&words);
        state.bc_expand_key(&salt);
    }
    let mut text = [0u32; 6];
    for (i, chunk) in b"OrpheanBeholderScryDoubt".chunks(4).enumerate() {
        text[i] = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    for pair in text.chunks_mut(2) {
        let mut lr = [pair[0], pair[1]];
        for _ in 0..64 {
            lr = state.bc_encrypt(lr);
        }
        pair.copy_from_slice(&lr);
    }
    let hash: Vec<u8> = text.iter().flat_map(|w| w.to_be_bytes()).take(23).collect();
    Some(format!("${prefix}${c0}{c1}${}{}", bcrypt64(&salt), bcrypt64(&hash), c0 = char::from(c0), c1 = char::from(c1)))
}

/// Bytes in bcrypt's Base64, without padding.
fn bcrypt64(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(char::from(BCRYPT64[(v >> (18 - 6 * i) & 0x3f) as usize]));
        }
    }
    out
}

/// `str2saltedsha512(password)`: a salted SHA-512 hash for macOS: four random bytes of salt
/// and the SHA-512 of them and the password, in hex. A password with non-ASCII text fails
/// as Ruby's does when a salt byte is not ASCII (7 times in 8).
fn str2saltedsha512(_: &mut Evaluator, call: Call) -> Eval<Value> {
    use sha2::{Digest, Sha512};
    if call.args.len() != 1 {
        return Err(fail(format!(
            "str2saltedsha512(): Wrong number of arguments passed ({} but we require 1)",
            call.args.len()
        )));
    }
    let Value::String(password) = &call.args[0] else {
        return Err(fail(format!(
            "str2saltedsha512(): Requires a String argument, you passed: {}",
            ruby::class(&call.args[0])
        )));
    };
    // Ruby's rand(2**31 - 1), packed as a native (little-endian) 32-bit integer
    let seed = (random_u64() % 0x7fff_ffff) as u32;
    let seed = seed.to_le_bytes();
    // Ruby joins the binary salt and the password: an error when both have 8-bit bytes
    if !password.is_ascii() && seed.iter().any(|&b| b >= 0x80) {
        return Err(fail("incompatible character encodings: ASCII-8BIT and UTF-8"));
    }
    let salted = Sha512::new().chain_update(seed).chain_update(password.as_bytes()).finalize();
    let hex: String = seed.iter().chain(salted.iter()).map(|b| format!("{b:02x}")).collect();
    Ok(Value::from(hex.as_str()))
}

/// A random number, from the standard library's randomly keyed hasher.
fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    hasher.finish()
}

/// `str2saltedpbkdf2(password, salt, iterations)`: the PBKDF2-HMAC-SHA512 key of 128 bytes
/// for macOS, as `{password_hex, salt_hex, iterations}` (Sensitive arguments unwrapped; the
/// salt at least 8 bytes, the iterations between 40,000 and 70,000).
fn str2saltedpbkdf2(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let args: Vec<Value> = call.args.into_iter().map(unwrap_sensitive).collect();
    let [password, salt, iterations] = args.as_slice() else {
        return Err(fail(format!("str2saltedpbkdf2(): wrong number of arguments ({} for 3)", args.len())));
    };
    let Value::String(password) = password else {
        return Err(fail("str2saltedpbkdf2(): first argument must be a string"));
    };
    let Value::String(salt) = salt else { return Err(fail("str2saltedpbkdf2(): second argument must be a string")) };
    if salt.len() < 8 {
        return Err(fail("str2saltedpbkdf2(): second argument must be at least 8 bytes long"));
    }
    let Value::Integer(iterations) = *iterations else {
        return Err(fail("str2saltedpbkdf2(): third argument must be an integer"));
    };
    let Some(rounds) = u32::try_from(iterations).ok().filter(|&n| n > 40_000 && n < 70_000) else {
        return Err(fail("str2saltedpbkdf2(): third argument must be between 40,000 and 70,000"));
    };
    let mut key = [0u8; 128];
    pbkdf2::pbkdf2_hmac::<sha2::Sha512>(password.as_bytes(), salt.as_bytes(), rounds, &mut key);
    let hex = |bytes: &[u8]| Value::from(bytes.iter().map(|b| format!("{b:02x}")).collect::<String>().as_str());
    let mut result = puppet_types::value::Hash::default();
    result.insert(Value::from("password_hex"), hex(&key));
    result.insert(Value::from("salt_hex"), hex(salt.as_bytes()));
    result.insert(Value::from("iterations"), Value::Integer(iterations));
    Ok(Value::hash(result))
}

// --- escaping ------------------------------------------------------------------------------

/// `batch_escape(value)` (9.7.0: `stdlib::batch_escape`): the value's text quoted for
/// Windows' cmd.exe: in double quotes, `"` doubled, `$` and `\` after a backslash.
fn batch_escape(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let mut out = String::from("\"");
    for c in to_s(&call.arg(0)).chars() {
        match c {
            '"' => out.push_str("\"\""),
            '$' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out.push('"');
    Ok(Value::from(out.as_str()))
}

/// `powershell_escape(value)` (9.7.0: `stdlib::powershell_escape`): the value's text with a
/// backtick before a space, `'`, `` ` ``, `|`, a line feed and `$`; `"` written `` \`" ``.
fn powershell_escape(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let mut out = String::new();
    for c in to_s(&call.arg(0)).chars() {
        match c {
            ' ' | '\'' | '`' | '|' | '\n' | '$' => {
                out.push('`');
                out.push(c);
            }
            '"' => out.push_str("\\`\""),
            _ => out.push(c),
        }
    }
    Ok(Value::from(out.as_str()))
}

/// `stdlib::xml_encode(text, type)`: Ruby's `encode(xml: :text)` (`&`, `<`, `>` as entities)
/// or `encode(xml: :attr)` (`"` and `'` too, and the whole in double quotes).
fn xml_encode(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let attr = call.arg(1).as_str() == Some("attr");
    let mut out = String::new();
    if attr {
        out.push('"');
    }
    for c in to_s(&call.arg(0)).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            '\'' if attr => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    if attr {
        out.push('"');
    }
    Ok(Value::from(out.as_str()))
}

/// `stdlib::rewrap_sensitive_data(data) |unwrapped| { ... }`: the data with its Sensitive
/// values (and hash keys) unwrapped, given to the block (or returned); the result Sensitive
/// where the data held one.
fn rewrap_sensitive_data(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    super::stdlib_strings::rewrap_sensitive(ev, call, |ev, call| match &call.block {
        Some(block) => ev.call_block(block, &[call.arg(0)]),
        None => Ok(call.arg(0)),
    })
}

// --- private ---------------------------------------------------------------------------------

/// stdlib 8.5.0's `private(message)` (3.x, deprecated; `private` being a reserved word, only
/// `call('private')` reaches it): a deprecation warning, then `assert_private(message)`,
/// loaded through Puppet's deprecated 3.x autoloader ([`autoloader_load`]).
fn private(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    ev.log(
        Level::Warning,
        "private() DEPRECATED: This function will cease to function on Puppet 4; please use assert_private() before upgrading to puppet 4 for backwards-compatibility, or migrate to the new parser's typing system.",
    );
    autoloader_load(ev, "assert_private")?;
    let args = call.args.into_iter().take(1).collect();
    ev.call_function_inner("assert_private", args, None, call.at)
}
