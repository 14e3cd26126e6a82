//! The Ruby functions of the other modules of the corpus (mysql, postgresql, apache,
//! mongodb, dns, mcollective, neutron, murano), one section per module, ported from their
//! Ruby. A deprecated name that a module keeps as a shim logs through stdlib's `deprecation`
//! and calls the new function, as its Ruby does.

use num_bigint::BigInt;
use puppet_types::binary::Binary;
use puppet_types::value::Hash;
use puppet_types::Value;

use super::openstacklib::{is_ruby_space, lines};
use super::{v3, v4, Port};
use crate::error::{fail, Eval};
use crate::eval::Evaluator;
use crate::functions::ruby::{class, no_method, to_s};
use crate::functions::Call;

/// The dispatch Puppet makes for a 4.x function whose method is `def f(*args)`.
const ANY_ARGS: &[&str] = &["Any *$args"];

pub static PORTS: &[Port] = &[
    // mysql
    v4("mysql", "mysql::password", &["String $password"], mysql_password4),
    v3("mysql", "mysql_password", -1, mysql_password3),
    v4("mysql", "mysql::strip_hash", &["Hash $hash"], mysql_strip_hash),
    // postgresql
    v4(
        "postgresql",
        "postgresql::postgresql_password",
        &["Variant[String[1],Integer] $username, Variant[String[1],Integer] $password"],
        postgresql_password,
    ),
    v4("postgresql", "postgresql_password", ANY_ARGS, |ev, call| {
        shim(
            ev,
            call,
            "postgresql_password",
            "This method is deprecated, please use postgresql::postgresql_password instead.",
            "postgresql::postgresql_password",
        )
    }),
    v4("postgresql", "postgresql::postgresql_escape", &["String[1] $input_string"], postgresql_escape),
    v4("postgresql", "postgresql_escape", ANY_ARGS, |ev, call| {
        shim(
            ev,
            call,
            "postgresql_escape",
            "This method is deprecated, please use postgresql::postgresql_escape instead.",
            "postgresql::postgresql_escape",
        )
    }),
    v4(
        "postgresql",
        "postgresql::postgresql_acls_to_resources_hash",
        &["Array[String] $acls, String[1] $id, Integer[0] $offset"],
        postgresql_acls_to_resources_hash,
    ),
    // apache
    v4("apache", "apache::bool2httpd", &["Any $arg"], apache_bool2httpd),
    v4("apache", "bool2httpd", ANY_ARGS, |ev, call| {
        shim(
            ev,
            call,
            "bool2httpd",
            "This function is deprecated, please use apache::bool2httpd instead.",
            "apache::bool2httpd",
        )
    }),
    v4("apache", "apache::pw_hash", &["String[1] $password"], apache_pw_hash),
    v4("apache", "apache_pw_hash", ANY_ARGS, |ev, call| {
        shim(
            ev,
            call,
            "apache_pw_hash",
            "This function is deprecated, please use apache::pw_hash instead.",
            "apache::pw_hash",
        )
    }),
    v4("apache", "apache::apache_pw_hash", ANY_ARGS, |ev, call| {
        shim(
            ev,
            call,
            "apache::apache_pw_hash",
            "This function is deprecated, please use apache::pw_hash instead.",
            "apache::pw_hash",
        )
    }),
    // mongodb, dns, mcollective
    v3("mongodb", "mongodb_password", -1, mongodb_password),
    v3("dns", "get_in_addr_arpa", -1, get_in_addr_arpa),
    v3("mcollective", "mco_array_to_string", -1, mco_array_to_string),
    // neutron
    v4("neutron", "validate_network_vlan_ranges", ANY_ARGS, validate_network_vlan_ranges),
    v4("neutron", "validate_tunnel_id_ranges", ANY_ARGS, validate_tunnel_id_ranges),
    v4("neutron", "validate_vni_ranges", ANY_ARGS, validate_vni_ranges),
    v4("neutron", "validate_vxlan_udp_port", ANY_ARGS, validate_vxlan_udp_port),
    // murano
    v4("murano", "get_ext_net_name", ANY_ARGS, get_ext_net_name),
];

/// A deprecated name's shim: stdlib's `deprecation(key, message)`, then the new function with
/// the same arguments.
pub(super) fn shim(ev: &mut Evaluator, call: Call, key: &str, message: &str, target: &str) -> Eval<Value> {
    ev.call_function_inner("deprecation", vec![Value::from(key), Value::from(message)], None, call.at)?;
    ev.call_function_inner(target, call.args, None, call.at)
}

/// Lower-case hex of bytes.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn md5_hex(bytes: &[u8]) -> String {
    hex(&<md5::Md5 as md5::Digest>::digest(bytes))
}

fn sha1(bytes: &[u8]) -> Vec<u8> {
    <sha1::Sha1 as sha1::Digest>::digest(bytes).to_vec()
}

/// A Ruby value given where Ruby wants a String (`Regexp#match`, `Digest.digest`): a string
/// as it is, `default` as its name (a Symbol), undef as `None`; anything else Ruby's
/// `TypeError`.
fn implicit_string(v: &Value) -> Eval<Option<String>> {
    match v {
        Value::String(s) => Ok(Some(s.to_string())),
        Value::Default => Ok(Some("default".to_owned())),
        Value::Undef => Ok(None),
        Value::Boolean(b) => Err(fail(format!("no implicit conversion of {b} into String"))),
        other => Err(fail(format!("no implicit conversion of {} into String", class(other)))),
    }
}

// ---- mysql ----------------------------------------------------------------------------------

/// MySQL's `PASSWORD()`: `*` and the upper-case SHA-1 of the SHA-1 of the password; `''`
/// for `''`, the text itself when a line ends with such a hash.
fn mysql_hash(password: &str) -> String {
    if password.is_empty() {
        return String::new();
    }
    let is_hash = |l: &str| {
        l.len() >= 41 && {
            let tail = &l.as_bytes()[l.len() - 41..];
            tail[0] == b'*' && tail[1..].iter().all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(b))
        }
    };
    if lines(password).any(is_hash) {
        return password.to_owned();
    }
    format!("*{}", hex(&sha1(&sha1(password.as_bytes()))).to_uppercase())
}

/// `mysql::password(password)`: MySQL's `PASSWORD()` hash of the password.
fn mysql_password4(_: &mut Evaluator, call: Call) -> Eval<Value> {
    Ok(Value::from(mysql_hash(&to_s(&call.arg(0))).as_str()))
}

/// `mysql_password(password)` (3.x): as `mysql::password`; an empty array or hash is `''`,
/// another non-string fails as Ruby does.
fn mysql_password3(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let [arg] = call.args.as_slice() else {
        return Err(fail(format!("mysql_password(): Wrong number of arguments given ({} for 1)", call.args.len())));
    };
    match arg {
        Value::String(s) => Ok(Value::from(mysql_hash(s).as_str())),
        Value::Array(a) if a.is_empty() => Ok(Value::from("")),
        Value::Hash(h) if h.is_empty() => Ok(Value::from("")),
        Value::Array(_) | Value::Hash(_) => Err(fail(format!("no implicit conversion of {} into String", class(arg)))),
        other => Err(no_method("empty?", other)),
    }
}

/// `mysql::strip_hash(hash)`: the hash without its `''` values, and its hash values without
/// theirs.
fn mysql_strip_hash(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let Some(Value::Hash(h)) = call.args.first() else { return Ok(call.arg(0)) };
    let blank = |v: &Value| matches!(v, Value::String(s) if s.is_empty());
    let stripped: Hash = h
        .iter()
        .filter(|(_, v)| !blank(v))
        .map(|(k, v)| {
            let v = match v {
                Value::Hash(inner) => {
                    Value::hash(inner.iter().filter(|(_, x)| !blank(x)).map(|(a, b)| (a.clone(), b.clone())).collect())
                }
                other => other.clone(),
            };
            (k.clone(), v)
        })
        .collect();
    Ok(Value::hash(stripped))
}

// ---- postgresql -----------------------------------------------------------------------------

/// `postgresql::postgresql_password(username, password)`: `md5` and the MD5 of the password
/// followed by the username.
fn postgresql_password(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let text = format!("{}{}", to_s(&call.arg(1)), to_s(&call.arg(0)));
    Ok(Value::from(format!("md5{}", md5_hex(text.as_bytes())).as_str()))
}

/// `postgresql::postgresql_escape(text)`: the text in `$$` (dollar quoting), or, when it has
/// `$$` or ends with `$`, in `$tag$` with a tag of the letters of the first six hex digits of
/// its MD5 (of the tag's MD5 again while the text holds the tag).
fn postgresql_escape(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let input = to_s(&call.arg(0));
    if !(input.contains("$$") || input.ends_with('$')) {
        return Ok(Value::from(format!("$${input}$$").as_str()));
    }
    let tag_of = |text: &str| md5_hex(text.as_bytes())[..6].chars().filter(|c| !c.is_ascii_digit()).collect::<String>();
    let mut tag = tag_of(&input);
    let mut rounds = 0;
    while input.contains(tag.as_str()) {
        rounds += 1;
        if rounds > 100_000 {
            return Err(fail("postgresql::postgresql_escape(): no tag found that is not in the text"));
        }
        tag = tag_of(&tag);
    }
    Ok(Value::from(format!("${tag}${input}${tag}$").as_str()))
}

/// Ruby's `String#split` without arguments: the words between ASCII whitespace.
fn words(s: &str) -> Vec<&str> {
    s.split(is_ruby_space).filter(|w| !w.is_empty()).collect()
}

/// `postgresql::postgresql_acls_to_resources_hash(acls, id, offset)`: a `pg_hba_rule` per
/// acl line (`type database user [address [mask]] method [options]`), titled `postgresql
/// class generated rule ID INDEX`, ordered from `offset` (an equal line takes the index of
/// the first).
fn postgresql_acls_to_resources_hash(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let acls = match call.args.first() {
        Some(Value::Array(a)) => a.iter().map(to_s).collect::<Vec<_>>(),
        _ => Vec::new(),
    };
    let id = to_s(&call.arg(1));
    let offset = match call.args.get(2) {
        Some(Value::Integer(n)) => BigInt::from(*n),
        Some(Value::BigInt(b)) => (**b).clone(),
        _ => BigInt::from(0),
    };
    let mut resources = Hash::default();
    for acl in &acls {
        let index = acls.iter().position(|a| a == acl).unwrap_or(0);
        let parts = words(acl);
        if parts.len() < 4 {
            return Err(fail(format!(
                "postgresql::postgresql_acls_to_resources_hash(): acl line {index} does not have enough parts"
            )));
        }
        let s = |x: &str| Value::from(x);
        let part = |i: usize| parts.get(i).map_or(Value::Undef, |p| s(p));
        let rest = |from: usize| s(&parts[from.min(parts.len())..].join(" "));
        let mut r = Hash::default();
        r.insert(s("type"), s(parts[0]));
        r.insert(s("database"), s(parts[1]));
        r.insert(s("user"), s(parts[2]));
        r.insert(s("order"), s(&format!("{:03}", offset.clone() + index)));
        if parts[0] == "local" {
            r.insert(s("auth_method"), s(parts[3]));
            if parts.len() > 4 {
                r.insert(s("auth_option"), rest(4));
            }
        } else if parts.get(4).is_some_and(|p| p.starts_with(|c: char| c.is_ascii_digit())) {
            r.insert(s("address"), s(&format!("{} {}", parts[3], parts[4])));
            r.insert(s("auth_method"), part(5));
            if parts.len() > 6 {
                r.insert(s("auth_option"), rest(6));
            }
        } else {
            r.insert(s("address"), s(parts[3]));
            r.insert(s("auth_method"), part(4));
            if parts.len() > 5 {
                r.insert(s("auth_option"), rest(5));
            }
        }
        resources.insert(s(&format!("postgresql class generated rule {id} {index}")), Value::hash(r));
    }
    Ok(Value::hash(resources))
}

// ---- apache ---------------------------------------------------------------------------------

/// `apache::bool2httpd(value)`: `Off` for undef, false or a text holding `false` (any case),
/// `On` for true or a text holding `true`, anything else as Ruby's text of it.
fn apache_bool2httpd(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let arg = call.arg(0);
    let holds = |word: &str| -> Eval<bool> {
        match &arg {
            Value::String(s) => Ok(s.to_lowercase().contains(word)),
            Value::Regexp(_) => Err(fail("no implicit conversion of Regexp into String")),
            _ => Ok(false),
        }
    };
    let text = match &arg {
        Value::Undef | Value::Boolean(false) => "Off".to_owned(),
        _ if holds("false")? => "Off".to_owned(),
        Value::Boolean(true) => "On".to_owned(),
        _ if holds("true")? => "On".to_owned(),
        other => to_s(other),
    };
    Ok(Value::from(text.as_str()))
}

/// `apache::pw_hash(password)`: `{SHA}` and the Base64 of the password's SHA-1 (htpasswd).
fn apache_pw_hash(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let digest = Binary(sha1(to_s(&call.arg(0)).as_bytes()));
    Ok(Value::from(format!("{{SHA}}{}", digest.to_base64_strict()).as_str()))
}

// ---- mongodb, dns, mcollective --------------------------------------------------------------

/// `mongodb_password(user, password)` (3.x): the MD5 of `user:mongo:password`.
fn mongodb_password(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let [user, password] = call.args.as_slice() else {
        return Err(fail(format!("mongodb_password(): Wrong number of arguments given ({} for 2)", call.args.len())));
    };
    let text = format!("{}:mongo:{}", to_s(user), to_s(password));
    Ok(Value::from(md5_hex(text.as_bytes()).as_str()))
}

/// `get_in_addr_arpa(address)` (3.x): the parts between dots reversed, and `.in-addr.arpa`.
fn get_in_addr_arpa(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let s = match call.args.first() {
        Some(Value::String(s)) => s.to_string(),
        Some(other) => return Err(no_method("split", other)),
        None => return Err(no_method("split", &Value::Undef)),
    };
    // Ruby's `split('.')` drops the empty strings at the end
    let mut parts: Vec<&str> = s.split('.').collect();
    while parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts.reverse();
    Ok(Value::from(format!("{}.in-addr.arpa", parts.join(".")).as_str()))
}

/// `mco_array_to_string(array)` (3.x): the elements as Ruby's text of them.
fn mco_array_to_string(_: &mut Evaluator, call: Call) -> Eval<Value> {
    match call.args.first() {
        Some(Value::Array(items)) => Ok(Value::array(items.iter().map(|v| Value::from(to_s(v).as_str())).collect())),
        other => Err(fail(format!("Expected an array, but got a {}", class(other.unwrap_or(&Value::Undef))))),
    }
}

// ---- neutron --------------------------------------------------------------------------------

/// The ranges a neutron validator checks: its first argument, an array or one value; each is
/// checked by `check` (given its text, undef skipped), and the list returned.
fn each_range(call: &Call, mut check: impl FnMut(&str) -> Eval<()>) -> Eval<Value> {
    let list = match call.args.first() {
        Some(Value::Array(items)) => items.to_vec(),
        _ => vec![call.arg(0)],
    };
    for range in &list {
        if let Some(text) = implicit_string(range)? {
            check(&text)?;
        }
    }
    Ok(Value::array(list))
}

/// A line `A:B` (digits each, after `prefix` when given) of the text: Ruby's
/// `/^(.+:)?(\d+):(\d+)$/` (with a prefix) or `/^(\d+):(\d+)$/`, the numbers by `Integer()`.
fn numeric_range(text: &str, allow_prefix: bool) -> Eval<Option<(BigInt, BigInt)>> {
    for line in lines(text) {
        let Some((head, second)) = line.rsplit_once(':') else { continue };
        let first = match head.rsplit_once(':') {
            Some((prefix, first)) if allow_prefix && !prefix.is_empty() => first,
            Some(_) => continue,
            None => head,
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if digits(first) && digits(second) {
            return Ok(Some((kernel_integer(first)?, kernel_integer(second)?)));
        }
    }
    Ok(None)
}

/// Ruby's `Integer(text)`.
fn kernel_integer(s: &str) -> Eval<BigInt> {
    poppet_ruby::kernel::integer(s, None)
        .ok_or_else(|| fail(format!("invalid value for Integer(): {}", poppet_ruby::string::inspect(s))))
}

/// `validate_network_vlan_ranges(ranges)`: each `[physnet:]first:last` with both ids at most
/// 4094 and in order, or a physnet name or `[name]:id`; fails otherwise.
fn validate_network_vlan_ranges(_: &mut Evaluator, call: Call) -> Eval<Value> {
    each_range(&call, |text| {
        if let Some((first, second)) = numeric_range(text, true)? {
            let max = BigInt::from(4094);
            if first > max || second > max {
                return Err(fail("vlan id are invalid."));
            }
            if second < first {
                return Err(fail("network vlan ranges are invalid."));
            }
            return Ok(());
        }
        // `/^([^:]+)?(:\d+)?$/`: a name, an id after a colon, or both
        let plain = |l: &str| match l.split_once(':') {
            Some((_, id)) => !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()),
            None => true,
        };
        if lines(text).any(plain) {
            Ok(())
        } else {
            Err(fail("network vlan ranges are invalid."))
        }
    })
}

/// `validate_tunnel_id_ranges(ranges)`: each `first:last` in order, at most a million apart.
fn validate_tunnel_id_ranges(_: &mut Evaluator, call: Call) -> Eval<Value> {
    each_range(&call, |text| match numeric_range(text, false)? {
        Some((first, second)) if &second - &first > BigInt::from(1_000_000) => {
            Err(fail("tunnel id ranges are to large."))
        }
        Some((first, second)) if second < first => Err(fail("tunnel id ranges are invalid.")),
        Some(_) => Ok(()),
        None => Err(fail("tunnel id ranges are invalid.")),
    })
}

/// `validate_vni_ranges(ranges)`: each `first:last` in order, both at most 16777215.
fn validate_vni_ranges(_: &mut Evaluator, call: Call) -> Eval<Value> {
    each_range(&call, |text| match numeric_range(text, false)? {
        Some((first, second)) if first <= second && second <= BigInt::from(16_777_215) => Ok(()),
        _ => Err(fail("vni ranges are invalid.")),
    })
}

/// `validate_vxlan_udp_port(port)`: `Integer(port)` must be 4789 or a private port
/// (49152-65535).
fn validate_vxlan_udp_port(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let arg = call.arg(0);
    let port = match &arg {
        Value::Integer(n) => BigInt::from(*n),
        Value::BigInt(b) => (**b).clone(),
        Value::Float(f) if f.is_finite() => BigInt::from(f.trunc() as i128),
        Value::String(s) => kernel_integer(s)?,
        Value::Undef => return Err(fail("can't convert nil into Integer")),
        Value::Boolean(b) => return Err(fail(format!("can't convert {b} into Integer"))),
        other => return Err(fail(format!("can't convert {} into Integer", class(other)))),
    };
    let ok = port == BigInt::from(4789) || (port > BigInt::from(49151) && port <= BigInt::from(65535));
    if ok {
        Ok(Value::Undef)
    } else {
        Err(fail("vxlan udp port is invalid."))
    }
}

// ---- murano ---------------------------------------------------------------------------------

/// `get_ext_net_name(networks)`: the name of the first network whose `L2` has a true
/// `router_ext`; undef when none has.
fn get_ext_net_name(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let Some(Value::Hash(networks)) = call.args.first() else {
        return Err(fail("get_ext_net_name(): No network data provided!"));
    };
    for (name, value) in networks.iter() {
        let l2 = match value {
            Value::Hash(h) => h.get(&Value::from("L2")).cloned().unwrap_or_else(|| Value::hash(Hash::default())),
            Value::Array(_) => return Err(fail("no implicit conversion of String into Integer")),
            other => return Err(no_method("fetch", other)),
        };
        let router_ext = match &l2 {
            Value::Hash(h) => h.get(&Value::from("router_ext")).cloned().unwrap_or(Value::Undef),
            Value::String(s) => {
                if s.contains("router_ext") {
                    Value::from("router_ext")
                } else {
                    Value::Undef
                }
            }
            Value::Array(_) | Value::Integer(_) => return Err(fail("no implicit conversion of String into Integer")),
            other => return Err(no_method("[]", other)),
        };
        if !matches!(router_ext, Value::Undef | Value::Boolean(false)) {
            return Ok(name.clone());
        }
    }
    Ok(Value::Undef)
}
