//! stdlib's functions that read and write data formats (YAML, JSON, TOML, Python and Ruby
//! literals, HOCON) and number and string conversions, ported from its Ruby (8.5.0 and
//! 9.7.0).

use std::collections::HashMap;

use poppet_ruby::yaml::{self, Node};
use puppet_types::Value;

use super::stdlib_strings::{real_or_shim, rewrap_sensitive, SHIM};
use super::{stdlib_9, v3, v4, Port};
use crate::error::{fail, Eval};
use crate::eval::Evaluator;
use crate::functions::{ruby, Call};

pub static PORTS: &[Port] = &[
    v4("stdlib", "to_yaml", SHIM, |ev, c| real_or_shim(ev, c, "to_yaml", TO_YAML, to_yaml)),
    v4("stdlib", "stdlib::to_yaml", TO_YAML, |ev, c| rewrap_sensitive(ev, c, to_yaml)),
    v3("stdlib", "parseyaml", -1, |_, c| parse_or_default(c, parse_yaml)),
    v3("stdlib", "parsejson", -1, |_, c| parse_or_default(c, parse_json)),
    v4("stdlib", "parsepson", &["String[1] $pson_string, Any $default?"], parsepson),
    v3("stdlib", "range", -1, range),
    v3("stdlib", "reverse", -1, |_, c| collection_op(c, "reverse", |v| v.reverse())),
    v3("stdlib", "shuffle", -1, |_, c| collection_op(c, "shuffle", shuffle)),
    v3("stdlib", "time", -1, time),
    v4("stdlib", "time", SHIM, |ev, c| ev.call_function_inner("stdlib::time", c.args, None, c.at)),
    v3("stdlib", "to_bytes", -1, to_bytes),
    v3("stdlib", "convert_base", 2, convert_base),
    v3("stdlib", "uriescape", -1, uriescape),
    v4("stdlib", "sprintf_hash", &["String $format, Hash $arguments"], sprintf_hash),
    v3("stdlib", "try_get_value", -2, try_get_value),
    v4("stdlib", "to_python", SHIM, |ev, c| {
        real_or_shim(ev, c, "to_python", &["Any $object"], |_, c| literal(c, PYTHON))
    }),
    v4("stdlib", "stdlib::to_python", &["Any $object"], |_, c| literal(c, PYTHON)),
    v4("stdlib", "to_ruby", SHIM, |ev, c| real_or_shim(ev, c, "to_ruby", &["Any $object"], |_, c| literal(c, RUBY))),
    v4("stdlib", "stdlib::to_ruby", &["Any $object"], |_, c| literal(c, RUBY)),
    v4("stdlib", "to_toml", SHIM, |ev, c| real_or_shim(ev, c, "to_toml", &["Hash $data"], to_toml)),
    v4("stdlib", "stdlib::to_toml", &["Hash $data"], |ev, c| rewrap_sensitive(ev, c, to_toml)),
    v4("stdlib", "parsehocon", SHIM, |ev, c| real_or_shim(ev, c, "parsehocon", PARSEHOCON, parsehocon)),
    v4("stdlib", "stdlib::parsehocon", PARSEHOCON, parsehocon),
];

const PARSEHOCON: &[&str] = &["String $hocon_string, Any $default?"];

/// How `to_python` and `to_ruby` write `true`, `false`, `nil` and a hash's `key: value`.
struct Literals {
    words: [&'static str; 3],
    arrow: &'static str,
}

const PYTHON: Literals = Literals { words: ["True", "False", "None"], arrow: ": " };
const RUBY: Literals = Literals { words: ["true", "false", "nil"], arrow: " => " };

/// `to_python(value)` and `to_ruby(value)` (and 9.7.0's `stdlib::` names): the value's rich
/// data (Puppet's `ToDataConverter`) as a literal: strings as Ruby's `inspect`, arrays and
/// hashes as `[a, b]` and `{k: v}` (`{k => v}`); `default`, a sensitive value, a regexp, a
/// hash with keys that are no strings and the values Pcore writes as text (timestamps,
/// timespans, versions, binaries) as `{"__ptype" => TYPE, "__pvalue" => VALUE}`.
fn literal(call: Call, lang: Literals) -> Eval<Value> {
    fn write(v: &Value, lang: &Literals, out: &mut String, depth: usize) -> Eval<()> {
        if depth > MAX_DEPTH {
            return Err(fail("the value nests too deeply"));
        }
        match v {
            Value::Boolean(true) => out.push_str(lang.words[0]),
            Value::Boolean(false) => out.push_str(lang.words[1]),
            Value::Undef => out.push_str(lang.words[2]),
            Value::String(s) => out.push_str(&poppet_ruby::string::inspect(s)),
            Value::Integer(_) | Value::BigInt(_) | Value::Float(_) => out.push_str(&ruby::to_s(v)),
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write(item, lang, out, depth + 1)?;
                }
                out.push(']');
            }
            Value::Hash(h) if h.keys().all(|k| matches!(k, Value::String(_))) => {
                out.push('{');
                for (i, (k, item)) in h.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write(k, lang, out, depth + 1)?;
                    out.push_str(lang.arrow);
                    write(item, lang, out, depth + 1)?;
                }
                out.push('}');
            }
            Value::Hash(h) => {
                let pairs = h.iter().flat_map(|(k, x)| [k.clone(), x.clone()]).collect();
                write(&rich("Hash", Some(Value::array(pairs))), lang, out, depth + 1)?;
            }
            Value::Default => write(&rich("Default", None), lang, out, depth + 1)?,
            Value::Sensitive(inner) => write(&rich("Sensitive", Some((**inner).clone())), lang, out, depth + 1)?,
            Value::Regexp(r) => write(&rich("Regexp", Some(Value::from(r.source()))), lang, out, depth + 1)?,
            // the values Pcore writes as their text
            Value::Timestamp(_) | Value::Timespan(_) | Value::SemVer(_) | Value::SemVerRange(_) | Value::Binary(_) => {
                let ptype = match v {
                    Value::Timestamp(_) => "Timestamp",
                    Value::Timespan(_) => "Timespan",
                    Value::SemVer(_) => "SemVer",
                    Value::SemVerRange(_) => "SemVerRange",
                    _ => "Binary",
                };
                let text = Value::from(puppet_types::display::value_to_s(v).as_str());
                write(&rich(ptype, Some(text)), lang, out, depth + 1)?
            }
            other => {
                return Err(fail(format!(
                    "Poppet does not write the rich data of a {} as a literal",
                    puppet_types::infer::infer(other)
                )))
            }
        }
        Ok(())
    }
    /// Rich data's `{"__ptype" => type, "__pvalue" => value}`.
    fn rich(ptype: &str, value: Option<Value>) -> Value {
        let mut h = puppet_types::value::Hash::default();
        h.insert(Value::from("__ptype"), Value::from(ptype));
        if let Some(v) = value {
            h.insert(Value::from("__pvalue"), v);
        }
        Value::hash(h)
    }
    let mut out = String::new();
    write(&call.arg(0), &lang, &mut out, 0)?;
    Ok(Value::from(out.as_str()))
}

const TO_YAML: &[&str] = &["Any $data, Hash $options?"];

// ---- conversions --------------------------------------------------------------------------

/// `range(start, stop, [step])` or `range('start..stop')` (`...` leaves the stop out, `-` as
/// `..`) (3.x): the integers (where the start is all digits) or the strings (Ruby's
/// `String#upto`, each `String#succ` of the last) from the start to the stop, every step-th
/// of them, at most a million.
fn range(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let args = &call.args;
    let (start, stop, step, exclusive) = match args.as_slice() {
        [] => return Err(fail("range(): Wrong number of arguments given (0 for 1)")),
        [one] => {
            let Value::String(text) = one else { return Err(ruby::no_method("match", one)) };
            match range_text(text) {
                Some((start, op, stop)) => (start.to_owned(), stop.to_owned(), 1, op == "..."),
                None if text.lines().any(|l| !l.is_empty()) => {
                    return Err(fail(format!("range(): Unable to compute range from the value: {text}")))
                }
                None => return Err(fail(format!("range(): Unknown range format: {text}"))),
            }
        }
        [start, stop, rest @ ..] => {
            let step = match rest.first() {
                None => 1,
                Some(Value::Integer(i)) => i.unsigned_abs(),
                Some(Value::Float(f)) => f.trunc().abs() as u64,
                Some(Value::String(s)) => {
                    crate::functions::math::ruby_to_i(s).as_i64().map_or(u64::MAX, i64::unsigned_abs)
                }
                Some(other) => return Err(ruby::no_method("to_i", other)),
            };
            if step == 0 {
                return Err(fail("range(): 3rd arg (step size) must be a non zero integer (e.g. 1 or -1)"));
            }
            (ruby::to_s(start), ruby::to_s(stop), step, false)
        }
    };
    let step = usize::try_from(step).unwrap_or(usize::MAX);
    let all_digits = |s: &str| s.lines().any(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()));
    let items: Vec<Value> = if all_digits(&start) {
        let int = |s: &str| crate::functions::math::ruby_to_i(s).as_i64().unwrap_or(i64::MAX);
        let (a, b) = (int(&start), int(&stop));
        let b = if exclusive { b.saturating_sub(1) } else { b };
        (a..=b).step_by(step).take(RANGE_MAX).map(Value::Integer).collect()
    } else {
        string_upto(&start, &stop, exclusive).step_by(step).take(RANGE_MAX).map(|s| Value::from(s.as_str())).collect()
    };
    Ok(Value::array(items))
}

/// How many values `range` gives at most (its `first(1_000_000)`).
const RANGE_MAX: usize = 1_000_000;

/// `^(\w+)(\.\.\.?|-)(\w+)$` of one of the text's lines: the start, the operator, the stop.
fn range_text(text: &str) -> Option<(&str, &str, &str)> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.split('\n').find_map(|line| {
        let start_end = line.find(|c: char| !word(c))?;
        let (start, rest) = line.split_at(start_end);
        let op = ["...", "..", "-"].into_iter().find(|op| rest.starts_with(op))?;
        let stop = &rest[op.len()..];
        (!start.is_empty() && !stop.is_empty() && stop.chars().all(word)).then_some((start, op, stop))
    })
}

/// Ruby's `String#upto(stop, exclusive)`: two one-character ASCII strings by their codes,
/// others by `succ` while not longer than the stop.
fn string_upto(start: &str, stop: &str, exclusive: bool) -> Box<dyn Iterator<Item = String>> {
    if start.len() == 1 && stop.len() == 1 && start.is_ascii() && stop.is_ascii() {
        let (a, b) = (start.as_bytes()[0], stop.as_bytes()[0]);
        let b = if exclusive { b.checked_sub(1) } else { Some(b) };
        return match b {
            Some(b) => Box::new((a..=b).map(|c| char::from(c).to_string())),
            None => Box::new(std::iter::empty()),
        };
    }
    if start > stop || (exclusive && start == stop) {
        return Box::new(std::iter::empty());
    }
    let after_end = poppet_ruby::string::succ(stop);
    let (stop, mut current, mut done) = (stop.to_owned(), Some(start.to_owned()), false);
    Box::new(std::iter::from_fn(move || {
        let this = current.take()?;
        if done || this == after_end {
            return None;
        }
        let next = (exclusive || this != stop).then(|| poppet_ruby::string::succ(&this));
        match next {
            Some(n) if !(exclusive && n == stop) && n.len() <= stop.len() && !n.is_empty() => current = Some(n),
            _ => done = true,
        }
        Some(this)
    }))
}

/// `reverse` and `shuffle` (3.x): `op` of an array's elements or a string's characters.
fn collection_op(call: Call, name: &str, op: fn(&mut [Value])) -> Eval<Value> {
    let Some(value) = call.args.first() else {
        return Err(fail(format!("{name}(): Wrong number of arguments given (0 for 1)")));
    };
    match value {
        Value::Array(items) => {
            let mut items = items.to_vec();
            op(&mut items);
            Ok(Value::array(items))
        }
        Value::String(s) => {
            let mut chars: Vec<Value> = s.chars().map(|c| Value::from(c.to_string().as_str())).collect();
            op(&mut chars);
            Ok(Value::from(chars.iter().map(ruby::to_s).collect::<String>().as_str()))
        }
        _ => Err(fail(format!("{name}(): Requires either array or string to work with"))),
    }
}

/// Ruby's in-place shuffle of `shuffle` (each place swapped with a random later one), from
/// a seed the standard library draws at random.
fn shuffle(items: &mut [Value]) {
    use std::hash::{BuildHasher, Hasher};
    let mut state = std::collections::hash_map::RandomState::new().build_hasher().finish() | 1;
    let n = items.len();
    for i in 0..n {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let j = i + (state % (n - i) as u64) as usize;
        items.swap(i, j);
    }
}

/// `time([zone])` (stdlib 8.5.0, 3.x): the seconds since the epoch (the zone changes nothing).
fn time(_: &mut Evaluator, call: Call) -> Eval<Value> {
    if call.args.len() > 1 {
        return Err(fail(format!("time(): Wrong number of arguments given {} for 0 or 1", call.args.len())));
    }
    if let Some(zone) = call.args.first() {
        if !matches!(zone, Value::String(_) | Value::Array(_) | Value::Hash(_) | Value::Boolean(false) | Value::Undef) {
            return Err(ruby::no_method("empty?", zone));
        }
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    Ok(Value::Integer(i64::try_from(now).unwrap_or(i64::MAX)))
}

/// `to_bytes(size)` (3.x): a number as it is; a text's leading number times the power of
/// 1024 its unit prefix (`k`, `M`, `G`, `T`, `P`, `E`) names, as an integer.
fn to_bytes(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let [arg] = call.args.as_slice() else {
        return Err(fail(format!("to_bytes(): Wrong number of arguments given ({} for 1)", call.args.len())));
    };
    let text = match arg {
        Value::Integer(_) | Value::BigInt(_) | Value::Float(_) => return Ok(arg.clone()),
        Value::String(s) => s,
        Value::Boolean(b) => return Err(fail(format!("no implicit conversion of {b} into String"))),
        other => return Err(fail(format!("no implicit conversion of {} into String", ruby::class(other)))),
    };
    // `([0-9.e+-]*)\s*([^bB]?)` from the start
    let number_end = text.find(|c: char| !(c.is_ascii_digit() || ".e+-".contains(c))).unwrap_or(text.len());
    let value = crate::functions::math::ruby_to_f(&text[..number_end]);
    let rest = text[number_end..].trim_start_matches(|c: char| c.is_ascii_whitespace());
    let prefix = rest.chars().next().filter(|c| *c != 'b' && *c != 'B');
    let power = match prefix {
        None => 0,
        Some('k') => 10,
        Some('M') => 20,
        Some('G') => 30,
        Some('T') => 40,
        Some('P') => 50,
        Some('E') => 60,
        Some(other) => return Err(fail(format!("to_bytes(): Unknown prefix {other}"))),
    };
    let bytes = value * f64::from(1u32 << (power / 2)) * f64::from(1u32 << (power - power / 2));
    puppet_types::Int::from_f64(bytes)
        .map(puppet_types::Int::into_value)
        .ok_or_else(|| fail(poppet_ruby::float::float_to_s(bytes)))
}

/// `convert_base(number, base)` (3.x): an integer (or a text of decimal digits) written in
/// a base from 2 to 36.
fn convert_base(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let decimal = |v: &Value, which: &str| -> Eval<i128> {
        match v {
            Value::Integer(i) => Ok(i128::from(*i)),
            Value::String(s) => {
                if !s.lines().any(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit())) {
                    return Err(fail(
                        "convert_base(): First argument must be an integer or a string corresponding to an integer in base 10",
                    ));
                }
                Ok(crate::functions::math::ruby_to_i(s).as_i64().map_or(i128::MAX, i128::from))
            }
            _ => Err(fail(format!("convert_base(): {which} argument must be either a string or an integer"))),
        }
    };
    let number = decimal(&call.arg(0), "First")?;
    let base = decimal(&call.arg(1), "Second")?;
    let Some(base) = u32::try_from(base).ok().filter(|b| (2..=36).contains(b)) else {
        return Err(fail("convert_base(): base must be at least 2 and must not be greater than 36"));
    };
    let mut digits = Vec::new();
    let mut n = number.unsigned_abs();
    loop {
        digits.push(char::from_digit((n % u128::from(base)) as u32, base).unwrap_or('0'));
        n /= u128::from(base);
        if n == 0 {
            break;
        }
    }
    if number < 0 {
        digits.push('-');
    }
    Ok(Value::from(digits.into_iter().rev().collect::<String>().as_str()))
}

/// `uriescape(string or array)` (3.x): Ruby's `URI::DEFAULT_PARSER.escape`: each byte but
/// letters, digits and `-_.!~*'();/?:@&=+$,[]` as `%XX`; of an array, each string.
fn uriescape(_: &mut Evaluator, call: Call) -> Eval<Value> {
    fn escape(s: &str) -> String {
        let mut out = String::new();
        for b in s.bytes() {
            if b.is_ascii_alphanumeric() || b"-_.!~*'();/?:@&=+$,[]".contains(&b) {
                out.push(char::from(b));
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    }
    match call.args.first() {
        None => Err(fail("uriescape(): Wrong number of arguments given (0 for 1)")),
        Some(Value::String(s)) => Ok(Value::from(escape(s).as_str())),
        Some(Value::Array(items)) => Ok(Value::array(
            items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Value::from(escape(s).as_str()),
                    other => other.clone(),
                })
                .collect(),
        )),
        Some(_) => Err(fail("uriescape(): Requires either array or string to work with")),
    }
}

/// `sprintf_hash(format, hash)` (stdlib 8.5.0, 4.x, deprecated): Ruby's `sprintf` with
/// references to the hash's values by name (`%<name>s`, `%{name}`): Puppet's `sprintf`.
fn sprintf_hash(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let message = "This method is deprecated. From Puppet 4.10.10/5.3.4 please use the built-in sprintf instead";
    ev.call_function_inner("deprecation", vec![Value::from("sprintf_hash"), Value::from(message)], None, call.at)?;
    ev.call_function_inner("sprintf", call.args, None, call.at)
}

/// `try_get_value(data, path, [default], [separator])` (stdlib 8.5.0, 3.x, deprecated): the
/// value at the path (keys split at the separator, `/` by default; all-digit keys as
/// indices) of a hash or array, by stdlib's deprecated 3.x `dig`, which calls `dig44`;
/// the default where there is none. Data that is no collection, or an empty path, gives
/// the default, else the data. (Puppet also warns that the 3.x autoloader loads `dig44`,
/// once per Puppet process: Poppet leaves that warning out.)
fn try_get_value(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    use crate::eval::Level;
    ev.log(Level::Warning, "try_get_value() DEPRECATED: this function is deprecated, please use dig() instead.");
    let data = call.arg(0);
    let path = call.args.get(1).cloned().unwrap_or(Value::from(""));
    let default = call.args.get(2).cloned();
    let or_data = |default: Option<Value>, data: Value| match default {
        Some(d) if crate::eval::truthy(&d) => d,
        _ => data,
    };
    if !matches!(data, Value::Array(_) | Value::Hash(_)) || path == Value::from("") {
        return Ok(or_data(default, data));
    }
    let separator = match call.args.get(3) {
        Some(Value::String(s)) => s.to_string(),
        Some(other) if crate::eval::truthy(other) => ruby::to_s(other),
        _ => "/".into(),
    };
    let Value::String(ref path) = path else { return Err(ruby::no_method("split", &path)) };
    let mut keys: Vec<&str> = if separator.is_empty() {
        path.char_indices().map(|(i, c)| &path[i..i + c.len_utf8()]).collect()
    } else {
        path.split(separator.as_str()).collect()
    };
    while keys.last() == Some(&"") {
        keys.pop();
    }
    let keys = keys
        .into_iter()
        .map(|k| match k.parse::<i64>() {
            Ok(i) if k.bytes().all(|b| b.is_ascii_digit()) => Value::Integer(i),
            _ => Value::from(k),
        })
        .collect();
    ev.log(
        Level::Warning,
        "dig() DEPRECATED: This function has been replaced in Puppet 4.5.0, please use dig44() for backwards compatibility or use the new version.",
    );
    crate::functions::strings::warn_once(
        ev,
        "autoloader#loaded?(dig44)",
        "The method 'Puppet::Parser::Functions.autoloader#loaded?(\"dig44\")' is deprecated in favor of using 'Scope#call_function'.",
    );
    let args = vec![data, Value::array(keys), default.unwrap_or(Value::Undef)];
    ev.call_function_inner("dig44", args, None, call.at)
}

// ---- reading ------------------------------------------------------------------------------

/// stdlib's `parseyaml(text, [default])` and `parsejson(text, [default])` (3.x): the data the
/// text holds; the default (undef without one) where that is nothing, `false` or `null`, and
/// where it cannot be read, when one is given (else the error).
fn parse_or_default(call: Call, parse: fn(&str) -> Eval<Value>) -> Eval<Value> {
    let Some(text) = call.args.first() else {
        return Err(fail("Wrong number of arguments. 1 or 2 arguments should be provided."));
    };
    let default = call.args.get(1).cloned();
    let parsed = match text {
        Value::String(s) => parse(s),
        Value::Boolean(b) => Err(fail(format!("no implicit conversion of {b} into String"))),
        other => Err(fail(format!("no implicit conversion of {} into String", ruby::class(other)))),
    };
    match parsed {
        Ok(v) if crate::eval::truthy(&v) => Ok(v),
        Ok(_) => Ok(default.unwrap_or(Value::Undef)),
        Err(e) => match default {
            Some(d) if crate::eval::truthy(&d) => Ok(d),
            _ => Err(e),
        },
    }
}

/// `parsehocon(text, [default])` (4.x; 9.7.0's `stdlib::parsehocon`, the global name a
/// deprecated shim): the data of a HOCON document (an object), its substitutions resolved
/// and its includes read (the hocon gem's `ConfigFactory.parse_string(text).resolve.root.unwrapped`);
/// the default, when one is given, where the gem cannot parse or resolve it (its
/// `ConfigParseError`; other errors are raised whatever the default).
fn parsehocon(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let text = call.arg(0);
    let text = text.as_str().unwrap_or_default();
    let parsed = match hocon_refused(text) {
        Some(message) => Err(HoconFailure { message, parse_error: true }),
        None => match hocon::parse(text) {
            Ok(config) => crate::hiera::hocon_object(&config)
                .map(Value::hash)
                .map_err(|message| HoconFailure { message, parse_error: false }),
            Err(e) => Err(hocon_failure(text, &e)),
        },
    };
    match (parsed, call.args.get(1)) {
        (Ok(v), _) => Ok(v),
        (Err(HoconFailure { parse_error: true, .. }), Some(default)) => Ok(default.clone()),
        (Err(failure), _) => Err(fail(failure.message)),
    }
}

/// Why the hocon gem refuses a text: its message, and whether it is a `ConfigParseError`
/// (which `parsehocon` answers with its default).
struct HoconFailure {
    message: String,
    parse_error: bool,
}

/// The gem's `ConfigParseError` message, `String: LINE: what`.
fn hocon_parse_error(line: usize, what: &str) -> HoconFailure {
    HoconFailure { message: format!("String: {line}: {what}"), parse_error: true }
}

/// The gem's `add_quote_suggestion` for a token other than the end of the file.
fn quote_suggestion(token: &str, message: &str) -> String {
    format!("{message} (if you intended {token} to be part of a key or string value, try enclosing the key or value in double quotes")
}

/// What the gem's parser refuses that the `hocon-parser` crate reads: a `}` closing no
/// brace in a document without braces around it, and an `include` of a form other than a
/// quoted name, `file(`, `url(` or `classpath(` (so `required(`).
fn hocon_refused(text: &str) -> Option<String> {
    use hocon::TokenKind;
    let tokens = hocon::tokenize(text).ok()?;
    let mut significant = tokens.iter().filter(|t| t.kind != TokenKind::Newline);
    let braced = significant.next().is_some_and(|t| matches!(t.kind, TokenKind::LBrace | TokenKind::LBracket));
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        match t.kind {
            TokenKind::LBrace | TokenKind::LBracket => depth += 1,
            TokenKind::RBrace if depth == 0 && !braced => {
                let what = quote_suggestion("'}'", "unbalanced close brace '}' with no open brace");
                return Some(hocon_parse_error(t.line, &what).message);
            }
            TokenKind::RBrace | TokenKind::RBracket => depth = depth.saturating_sub(1),
            TokenKind::Unquoted if t.value == "include" => {
                let Some(next) = tokens.get(i + 1).filter(|n| n.kind == TokenKind::Unquoted) else { continue };
                if !["url(", "file(", "classpath("].contains(&next.value.as_str()) {
                    let what = format!("expecting include parameter to be quoted filename, file(), classpath(), or url(). No spaces are allowed before the open paren. Not expecting: '{}'", next.value);
                    return Some(hocon_parse_error(next.line, &what).message);
                }
            }
            _ => {}
        }
    }
    None
}

/// The gem's failure for an error of the `hocon-parser` crate, where it is known: a text
/// ending early, a key with no separator, an unresolved substitution, an array at the root,
/// a float too big; else the crate's own message (as a parse error where it is one).
fn hocon_failure(text: &str, error: &hocon::HoconError) -> HoconFailure {
    use hocon::{HoconError, TokenKind};
    const EOF: &str = "end of file";
    let tokens = hocon::tokenize(text).unwrap_or_default();
    let significant: Vec<&hocon::Token> =
        tokens.iter().filter(|t| !matches!(t.kind, TokenKind::Newline | TokenKind::Eof)).collect();
    // The key whose last token is `significant[end]`: its tokens on that line, spaced.
    let key_before = |end: usize| {
        let mut start = end;
        while start > 0
            && matches!(significant[start - 1].kind, TokenKind::Unquoted | TokenKind::QuotedString)
            && significant[start - 1].line == significant[end].line
        {
            start -= 1;
        }
        significant[start..=end]
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let word = match t.kind {
                    TokenKind::QuotedString => format!("\"{}\"", t.value.replace('\\', "\\\\").replace('"', "\\\"")),
                    _ => t.value.clone(),
                };
                if i > 0 && t.preceding_space {
                    format!(" {word}")
                } else {
                    word
                }
            })
            .collect::<String>()
    };
    let last = significant.last().map(|t| t.kind.clone());
    match error {
        HoconError::Parse(e) if e.line > 0 => {
            let eof = tokens.iter().find(|t| t.kind == TokenKind::Eof);
            let at_end = eof.is_none_or(|t| (e.line, e.col) >= (t.line, t.col));
            let what = match (e.message.as_str(), last) {
                ("expected }", Some(TokenKind::LBrace | TokenKind::Comma)) if at_end => {
                    format!("expecting a close brace or a field name here, got {EOF}")
                }
                ("expected }", _) if at_end => format!("Expecting close brace }} or a comma, got {EOF}"),
                ("expected ]", Some(TokenKind::LBracket)) if at_end => format!("List should have ] or a first element after the open [, instead had token: {EOF} (if you want {EOF} to be part of a string value, then double-quote it)"),
                ("expected ]", Some(TokenKind::Comma)) if at_end => format!("List should have had new element after a comma, instead had token: {EOF} (if you want the comma or {EOF} to be part of a string value, then double-quote it)"),
                ("expected ]", _) if at_end => format!("List should have ended with ] or had a comma, instead had token: {EOF} (if you want {EOF} to be part of a string value, then double-quote it)"),
                ("expected value", Some(TokenKind::Equals | TokenKind::Colon | TokenKind::PlusEquals)) if at_end => {
                    format!("Expecting a value but got wrong token: {EOF}")
                }
                ("expected value", Some(TokenKind::Unquoted | TokenKind::QuotedString)) if at_end => {
                    format!("Key '{}' may not be followed by token: {EOF}", key_before(significant.len() - 1))
                }
                ("unexpected token after key: Comma", _) => {
                    let comma = significant.iter().position(|t| t.kind == TokenKind::Comma && t.line == e.line && t.col == e.col);
                    match comma {
                        Some(i) if i > 0 => quote_suggestion("','", &format!("Key '{}' may not be followed by token: ','", key_before(i - 1))),
                        _ => return HoconFailure { message: e.to_string(), parse_error: true },
                    }
                }
                (m, _) if m.starts_with("invalid float") => {
                    let raw = m.trim_start_matches("invalid float ").trim_matches('"');
                    return match poppet_ruby::kernel::float(raw) {
                        Some(f) if f.is_infinite() => HoconFailure {
                            message: if f < 0.0 { "-Infinity" } else { "Infinity" }.into(),
                            parse_error: false,
                        },
                        _ => HoconFailure { message: e.to_string(), parse_error: true },
                    };
                }
                _ => return HoconFailure { message: e.to_string(), parse_error: true },
            };
            hocon_parse_error(e.line, &what)
        }
        HoconError::Resolve(e) => {
            let wanted = e
                .message
                .strip_prefix("could not resolve substitution: ")
                .filter(|w| w.starts_with("${") && w.ends_with('}'));
            match wanted {
                Some(w) => hocon_parse_error(e.line, &format!("Could not resolve substitution to a value: {w}")),
                // the gem's concatenation of an object with a string is a `ConfigBugOrBrokenError`
                None => {
                    HoconFailure { message: e.to_string(), parse_error: !e.message.starts_with("value concatenation") }
                }
            }
        }
        HoconError::Config(e) if e.message.contains("document has type array rather than object") => HoconFailure {
            message: "String: 1:  has type LIST rather than object at file root".into(),
            parse_error: false,
        },
        other => HoconFailure { message: other.to_string(), parse_error: false },
    }
}

/// Psych's `YAML.load` (Psych 4: Symbols allowed, aliases not): the first document's data.
fn parse_yaml(text: &str) -> Eval<Value> {
    use crate::hiera::yaml::{read, YamlError};
    match read(text) {
        Ok(doc) => match first_alias(text) {
            Some(name) => Err(fail(format!("Unknown alias: {name}"))),
            None => Ok(doc.value.unwrap_or(Value::Undef)),
        },
        Err(YamlError::DisallowedClass(c)) => Err(fail(format!("Tried to load unspecified class: {c}"))),
        Err(YamlError::Syntax(m)) => Err(fail(format!("(<unknown>): {m}"))),
    }
}

/// The name of the first alias (`*name`) of a YAML text's first document, which Psych's
/// `load` refuses.
fn first_alias(text: &str) -> Option<String> {
    use yaml_rust2::parser::{Event, Parser};
    let mut parser = Parser::new_from_str(text);
    loop {
        match parser.next_token().ok()? {
            (Event::Alias(_), mark) => {
                let rest: String = text.chars().skip(mark.index()).collect();
                let rest = rest.strip_prefix('*').unwrap_or(&rest);
                let end = rest.find(|c: char| c.is_whitespace() || ",[]{}".contains(c)).unwrap_or(rest.len());
                return Some(rest[..end].to_owned());
            }
            (Event::DocumentEnd | Event::StreamEnd, _) => return None,
            _ => {}
        }
    }
}

/// Ruby's `JSON.parse` (the json gem 2.6): its message where it refuses the text.
fn parse_json(text: &str) -> Eval<Value> {
    if let Some(message) = poppet_ruby::json::parse_error(text) {
        return Err(fail(message));
    }
    match pfmt::data::json::documents(text).next() {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => Err(fail(e)),
        None => Ok(Value::Undef),
    }
}

/// `parsepson(text, [default])` (4.x): Puppet's PSON parser's data of an object or array;
/// the default where it fails, when one is given. stdlib 9.7.0 first warns of its
/// deprecation.
fn parsepson(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let result = (|| {
        if stdlib_9(ev) {
            let message = "This method is deprecated. From Puppet 8, PSON is no longer natively supported. Please use JSON.parse().";
            ev.call_function_inner("deprecation", vec![Value::from("parsepson"), Value::from(message)], None, call.at)?;
        }
        Pson { s: call.arg(0).as_str().unwrap_or_default().as_bytes(), i: 0, depth: 0 }.document()
    })();
    match (result, call.args.get(1)) {
        (Err(_), Some(default)) => Ok(default.clone()),
        (result, _) => result,
    }
}

/// Puppet's PSON parser (`PSON::Pure::Parser`, the json gem's old pure-Ruby parser): a
/// StringScanner over the bytes, its messages showing the next 20 bytes.
struct Pson<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

/// How deep PSON nests (the parser's `max_nesting`).
const PSON_MAX_NESTING: usize = 19;

impl Pson<'_> {
    fn peek(&self) -> String {
        let end = (self.i + 20).min(self.s.len());
        String::from_utf8_lossy(&self.s[self.i..end]).into_owned()
    }

    fn error(&self, what: &str) -> crate::error::Flow {
        fail(format!("{what} at '{}'!", self.peek()))
    }

    fn scan(&mut self, token: &str) -> bool {
        let found = self.s[self.i..].starts_with(token.as_bytes());
        if found {
            self.i += token.len();
        }
        found
    }

    /// Blanks and comments (`IGNORE`): whether there were any.
    fn skip_ignored(&mut self) -> bool {
        let start = self.i;
        loop {
            let rest = &self.s[self.i..];
            if rest.first().is_some_and(|c| b" \t\r\n".contains(c)) {
                self.i += 1;
            } else if rest.starts_with(b"//") {
                match rest.iter().position(|c| *c == b'\n' || *c == b'\r') {
                    Some(end) => self.i += end + 1,
                    None => break,
                }
            } else if rest.starts_with(b"/*") {
                match rest[2..].windows(2).position(|w| w == b"*/") {
                    Some(end) => self.i += end + 4,
                    None => break,
                }
            } else {
                break;
            }
        }
        self.i > start
    }

    fn document(&mut self) -> Eval<Value> {
        let mut obj = None;
        while self.i < self.s.len() {
            if self.scan("{") || self.scan("[") {
                if obj.is_some() {
                    return Err(fail(format!("source '{}' not in PSON!", self.peek())));
                }
                self.depth = 1;
                obj = Some(if self.s[self.i - 1] == b'{' { self.object()? } else { self.array()? });
            } else if !self.skip_ignored() {
                return Err(fail(format!("source '{}' not in PSON!", self.peek())));
            }
        }
        obj.ok_or_else(|| fail("source did not contain any PSON!"))
    }

    fn nested(&self) -> Eval<()> {
        if self.depth > PSON_MAX_NESTING {
            return Err(fail(format!("nesting of {} is too deep", self.depth)));
        }
        Ok(())
    }

    fn value(&mut self) -> Eval<Option<Value>> {
        if let Some(v) = self.number() {
            return Ok(Some(v));
        }
        for (word, v) in [("true", Value::Boolean(true)), ("false", Value::Boolean(false)), ("null", Value::Undef)] {
            if self.scan(word) {
                return Ok(Some(v));
            }
        }
        if let Some(s) = self.string()? {
            return Ok(Some(Value::from(s.as_str())));
        }
        for (open, is_object) in [("[", false), ("{", true)] {
            if self.scan(open) {
                self.depth += 1;
                let v = if is_object { self.object()? } else { self.array()? };
                self.depth -= 1;
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    /// `FLOAT` (a fraction or an exponent) or `INTEGER` (`-?0|-?[1-9]\d*`).
    fn number(&mut self) -> Option<Value> {
        let s = self.s;
        let digits = |mut j: usize| {
            while s.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            j
        };
        let mut j = self.i + usize::from(s.get(self.i) == Some(&b'-'));
        match s.get(j) {
            Some(b'0') => j += 1,
            Some(b'1'..=b'9') => j = digits(j),
            _ => return None,
        }
        let int_end = j;
        let mut float_end = None;
        if s.get(j) == Some(&b'.') && s.get(j + 1).is_some_and(u8::is_ascii_digit) {
            j = digits(j + 1);
            float_end = Some(j);
        }
        if matches!(s.get(j), Some(b'e' | b'E')) {
            let k = j + 1 + usize::from(matches!(s.get(j + 1), Some(b'+' | b'-')));
            if s.get(k).is_some_and(u8::is_ascii_digit) {
                float_end = Some(digits(k));
            }
        }
        let text = |end: usize| std::str::from_utf8(&s[self.i..end]).unwrap_or_default().to_owned();
        let v = match float_end {
            Some(end) => Value::Float(text(end).parse().ok()?),
            None => {
                let digits = text(int_end);
                match digits.parse::<i64>() {
                    Ok(i) => Value::Integer(i),
                    Err(_) => puppet_types::Int::from_big(digits.parse().ok()?).into_value(),
                }
            }
        };
        self.i = float_end.unwrap_or(int_end);
        Some(v)
    }

    /// `STRING`, its escapes undone (`\uXXXX` as UTF-16); `None` where none starts here.
    fn string(&mut self) -> Eval<Option<String>> {
        if self.s.get(self.i) != Some(&b'"') {
            return Ok(None);
        }
        let mut j = self.i + 1;
        let mut out: Vec<u8> = Vec::new();
        let mut units: Vec<u16> = Vec::new();
        loop {
            let Some(&c) = self.s.get(j) else { return Ok(None) };
            if (c != b'\\' || self.s.get(j + 1) != Some(&b'u')) && !units.is_empty() {
                out.extend_from_slice(String::from_utf16_lossy(&units).as_bytes());
                units.clear();
            }
            match c {
                b'"' => break,
                0..=0x1f => return Ok(None),
                b'\\' => {
                    let Some(&e) = self.s.get(j + 1) else { return Ok(None) };
                    if e == b'u' {
                        let hex = self.s.get(j + 2..j + 6).and_then(|h| std::str::from_utf8(h).ok());
                        let Some(unit) = hex.and_then(|h| u16::from_str_radix(h, 16).ok()) else { return Ok(None) };
                        // Ruby appends each byte as a character: one past ASCII is no UTF-16
                        if unit & 0x8080 != 0 {
                            return Err(fail(
                                "Caught Encoding::InvalidByteSequenceError: a \\u escape PSON cannot decode",
                            ));
                        }
                        units.push(unit);
                        j += 6;
                        continue;
                    }
                    if e < 0x20 {
                        return Ok(None);
                    }
                    out.push(match e {
                        b'b' => 8,
                        b'f' => 12,
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        other => other,
                    });
                    j += 2;
                }
                _ => {
                    out.push(c);
                    j += 1;
                }
            }
        }
        self.i = j + 1;
        Ok(Some(String::from_utf8_lossy(&out).into_owned()))
    }

    fn array(&mut self) -> Eval<Value> {
        self.nested()?;
        let mut items = Vec::new();
        let mut delim = false;
        while self.i < self.s.len() {
            if let Some(v) = self.value()? {
                delim = false;
                items.push(v);
                self.skip_ignored();
                if self.scan(",") {
                    delim = true;
                } else if self.s.get(self.i) != Some(&b']') {
                    return Err(self.error("expected ',' or ']' in array"));
                }
            } else if self.scan("]") {
                if delim {
                    return Err(self.error("expected next element in array"));
                }
                break;
            } else if !self.skip_ignored() {
                return Err(self.error("unexpected token in array"));
            }
        }
        Ok(Value::array(items))
    }

    fn object(&mut self) -> Eval<Value> {
        self.nested()?;
        let mut entries = puppet_types::value::Hash::default();
        let mut delim = false;
        while self.i < self.s.len() {
            if let Some(key) = self.string()? {
                self.skip_ignored();
                if !self.scan(":") {
                    return Err(self.error("expected ':' in object"));
                }
                self.skip_ignored();
                let Some(v) = self.value()? else { return Err(self.error("expected value in object")) };
                entries.insert(Value::from(key.as_str()), v);
                delim = false;
                self.skip_ignored();
                if self.scan(",") {
                    delim = true;
                } else if self.s.get(self.i) != Some(&b'}') {
                    return Err(self.error("expected ',' or '}' in object"));
                }
            } else if self.scan("}") {
                if delim {
                    return Err(self.error("expected next name, value pair in object"));
                }
                break;
            } else if !self.skip_ignored() {
                return Err(self.error("unexpected token in object"));
            }
        }
        Ok(Value::hash(entries))
    }
}

// ---- YAML ---------------------------------------------------------------------------------

/// `to_yaml(data, [options])` (stdlib 8.5.0; 9.7.0's `stdlib::to_yaml`, the global name a
/// deprecated shim): Ruby's `data.to_yaml(options)`, Psych's YAML document of the value
/// with the options' `indentation`, `line_width`, `canonical` and `header`.
fn to_yaml(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let options = yaml_options(&call.arg(1))?;
    let node = YamlNodes::default().node(&call.arg(0), 0)?;
    let text = yaml::dump(&node, &options, &reads_as_string).map_err(fail)?;
    Ok(Value::from(text.as_str()))
}

/// Ruby's `value.to_yaml` (Psych's document with the default options), for ERB templates.
pub(crate) fn ruby_to_yaml(value: &Value) -> Eval<String> {
    let node = YamlNodes::default().node(value, 0)?;
    yaml::dump(&node, &yaml::Options::default(), &reads_as_string).map_err(fail)
}

/// Whether Psych's scanner reads a plain scalar as this very string (not `true`, `1`, a
/// date, a Symbol, ...): Hiera's reader of Psych's scalars decides.
fn reads_as_string(s: &str) -> bool {
    matches!(crate::hiera::yaml::read(s), Ok(crate::hiera::yaml::Document { value: Some(Value::String(ref t)), .. }) if &**t == s)
}

/// Psych's dump options from `to_yaml`'s options hash (its keys made Symbols; others ignored).
fn yaml_options(options: &Value) -> Eval<yaml::Options> {
    let mut out = yaml::Options::default();
    let Value::Hash(h) = options else { return Ok(out) };
    for (key, value) in h.iter() {
        let Value::String(key) = key else { return Err(ruby::no_method("to_sym", key)) };
        match &**key {
            "indentation" => out.indentation = Some(ruby_int(value)?),
            "line_width" => {
                out.line_width = Some(match value {
                    Value::Integer(i) => *i,
                    Value::Float(f) => *f as i64,
                    other => return Err(ruby::cmperr(other, &Value::Integer(0))),
                })
            }
            "canonical" => out.canonical = crate::eval::truthy(value),
            "header" => out.header = crate::eval::truthy(value),
            _ => {}
        }
    }
    Ok(out)
}

/// Ruby's `NUM2INT` of an option: an integer, a float truncated, else a `TypeError`.
fn ruby_int(v: &Value) -> Eval<i64> {
    match v {
        Value::Integer(i) => Ok(*i),
        Value::Float(f) => Ok(*f as i64),
        Value::Undef => Err(fail("no implicit conversion from nil to integer")),
        Value::Boolean(b) => Err(fail(format!("no implicit conversion of {b} into Integer"))),
        other => Err(fail(format!("no implicit conversion of {} into Integer", ruby::class(other)))),
    }
}

/// How deep a value may nest in `to_yaml` (a bound for the stack).
const MAX_DEPTH: usize = 1000;

/// Values turned into Psych's nodes, an array or hash met again (the same object, as Ruby
/// shares it) becoming an alias of the first, numbered in the order the repeats are met.
#[derive(Default)]
struct YamlNodes {
    /// Each array or hash met, by address: its anchor once met again.
    seen: HashMap<usize, Option<u32>>,
    anchors: u32,
}

impl YamlNodes {
    /// The anchors first (a first pass, as Psych numbers them when a repeat is met), then the
    /// nodes.
    fn node(mut self, v: &Value, depth: usize) -> Eval<Node> {
        self.number(v, depth)?;
        let mut written = HashMap::new();
        Ok(self.build(v, &mut written))
    }

    fn number(&mut self, v: &Value, depth: usize) -> Eval<()> {
        if depth > MAX_DEPTH {
            return Err(fail("to_yaml(): the value nests too deeply"));
        }
        let Some(address) = address(v) else {
            return match v {
                Value::Sensitive(inner) => self.number(inner, depth + 1),
                Value::Undef
                | Value::Default
                | Value::Boolean(_)
                | Value::Integer(_)
                | Value::BigInt(_)
                | Value::Float(_)
                | Value::String(_)
                | Value::Regexp(_) => Ok(()),
                other => Err(fail(format!(
                    "to_yaml(): Poppet does not write Puppet's Ruby object of a {} as YAML",
                    puppet_types::infer::infer(other)
                ))),
            };
        };
        if let Some(anchor) = self.seen.get_mut(&address) {
            if anchor.is_none() {
                self.anchors += 1;
                *anchor = Some(self.anchors);
            }
            return Ok(());
        }
        self.seen.insert(address, None);
        match v {
            Value::Array(items) => items.iter().try_for_each(|x| self.number(x, depth + 1)),
            Value::Hash(h) => h.iter().try_for_each(|(k, x)| {
                self.number(k, depth + 1)?;
                self.number(x, depth + 1)
            }),
            _ => Ok(()),
        }
    }

    fn build(&self, v: &Value, written: &mut HashMap<usize, ()>) -> Node {
        if let Some(address) = address(v) {
            let anchor = self.seen.get(&address).copied().flatten();
            if let Some(a) = anchor {
                if written.insert(address, ()).is_some() {
                    return Node::Alias(a);
                }
            }
            return match v {
                Value::Array(items) => Node::Seq(anchor, items.iter().map(|x| self.build(x, written)).collect()),
                Value::Hash(h) => {
                    Node::Map(anchor, h.iter().map(|(k, x)| (self.build(k, written), self.build(x, written))).collect())
                }
                _ => Node::Null,
            };
        }
        match v {
            Value::Undef => Node::Null,
            Value::Default => Node::Symbol("default".into()),
            Value::Boolean(b) => Node::Bool(*b),
            Value::Integer(_) | Value::BigInt(_) => Node::Int(ruby::to_s(v)),
            Value::Float(f) => Node::Float(*f),
            Value::String(s) => Node::Str(s.to_string()),
            Value::Regexp(_) => Node::Regexp(ruby::inspect(v)),
            Value::Sensitive(inner) => Node::Object(
                None,
                "Puppet::Pops::Types::PSensitiveType::Sensitive".into(),
                vec![("value".into(), self.build(inner, written))],
            ),
            _ => Node::Null,
        }
    }
}

/// The address of an array's or hash's shared value (Ruby's object identity).
fn address(v: &Value) -> Option<usize> {
    match v {
        Value::Array(items) => Some(std::rc::Rc::as_ptr(items) as usize),
        Value::Hash(h) => Some(std::rc::Rc::as_ptr(h) as usize),
        _ => None,
    }
}

// ---- TOML ---------------------------------------------------------------------------------

/// `to_toml(hash)` (stdlib 8.5.0; 9.7.0's `stdlib::to_toml`, Sensitive values unwrapped and
/// the result Sensitive, the global name a deprecated shim): the hash as TOML, written by
/// stdlib's `TomlDumper` (toml-rb 2.0.1's dumper).
fn to_toml(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let mut dumper =
        TomlDumper { out: String::new(), source: if stdlib_9(ev) { &TOML_SOURCE_9 } else { &TOML_SOURCE_8 } };
    dumper.visit(&call.arg(0), &[], 0)?;
    Ok(Value::from(dumper.out.as_str()))
}

/// The lines of `toml_dumper.rb` that Ruby's `error_highlight` shows under a `NoMethodError`:
/// `sort_pairs`'s `hash.keys` and `quote_key`'s `key.gsub`.
struct TomlSource {
    keys: &'static str,
    gsub: &'static str,
}

const TOML_SOURCE_8: TomlSource =
    TomlSource { keys: "      hash.keys.sort.each do |key|", gsub: r#"      '"' + key.gsub('"', '\\"') + '"'"# };
const TOML_SOURCE_9: TomlSource =
    TomlSource { keys: "    hash.keys.sort.each do |key|", gsub: r##"    "\"#{key.gsub('"', '\\"')}\"""## };

/// A hash's pairs as `TomlDumper#sort_pairs` sorts them (the keys by `<=>`): simple values,
/// tables (hashes) and arrays of tables (arrays whose first element is a hash).
#[derive(Default)]
struct TomlPairs {
    simple: Vec<(Value, Value)>,
    nested: Vec<(Value, Value)>,
    table_arrays: Vec<(Value, Value)>,
}

/// stdlib's `TomlDumper`: the TOML written so far.
struct TomlDumper {
    out: String,
    source: &'static TomlSource,
}

impl TomlDumper {
    /// `visit`: a table's header (where it has simple values or is empty), then its pairs.
    fn visit(&mut self, hash: &Value, prefix: &[String], depth: usize) -> Eval<()> {
        let pairs = self.sort_pairs(hash, depth)?;
        let empty = matches!(hash, Value::Hash(h) if h.is_empty());
        if !prefix.is_empty() && (!pairs.simple.is_empty() || empty) {
            self.print_prefix(prefix, false);
        }
        self.dump_pairs(pairs, prefix, depth)
    }

    fn sort_pairs(&self, hash: &Value, depth: usize) -> Eval<TomlPairs> {
        if depth > MAX_DEPTH {
            return Err(fail("to_toml(): the value nests too deeply"));
        }
        let Value::Hash(h) = hash else { return Err(highlighted_no_method("keys", hash, self.source.keys)) };
        let mut keys: Vec<Value> = h.keys().cloned().collect();
        crate::functions::collections::msort(&mut keys, &mut |a, b| ruby::cmp(a, b).ok_or_else(|| ruby::cmperr(a, b)))?;
        let mut pairs = TomlPairs::default();
        for key in keys {
            let value = h.get(&key).cloned().unwrap_or(Value::Undef);
            let list = match &value {
                Value::Hash(_) => &mut pairs.nested,
                Value::Array(items) if matches!(items.first(), Some(Value::Hash(_))) => &mut pairs.table_arrays,
                _ => &mut pairs.simple,
            };
            list.push((key, value));
        }
        Ok(pairs)
    }

    /// `dump_pairs`: the simple values, then the tables, then the arrays of tables.
    fn dump_pairs(&mut self, pairs: TomlPairs, prefix: &[String], depth: usize) -> Eval<()> {
        for (key, value) in &pairs.simple {
            let key = self.key(key)?;
            let value = toml_value(value)?;
            self.out.push_str(&format!("{key} = {value}\n"));
        }
        for (key, value) in &pairs.nested {
            let prefix = [prefix, &[self.key(key)?]].concat();
            self.visit(value, &prefix, depth + 1)?;
        }
        for (key, value) in &pairs.table_arrays {
            let prefix = [prefix, &[self.key(key)?]].concat();
            let Value::Array(children) = value else { continue };
            for child in children.iter() {
                self.print_prefix(&prefix, true);
                let pairs = self.sort_pairs(child, depth + 1)?;
                self.dump_pairs(pairs, &prefix, depth + 1)?;
            }
        }
        Ok(())
    }

    /// `print_prefix`: `[a.b]`, or `[[a.b]]` for an element of an array of tables.
    fn print_prefix(&mut self, prefix: &[String], extra_brackets: bool) {
        let joined = prefix.join(".");
        if extra_brackets {
            self.out.push_str(&format!("[[{joined}]]\n"));
        } else {
            self.out.push_str(&format!("[{joined}]\n"));
        }
    }

    /// A key as written: its `to_s` where a line of it is bare (`^[a-zA-Z0-9_-]*$`), else a
    /// string key in double quotes (only `"` escaped); any other key fails (no `gsub`).
    fn key(&self, key: &Value) -> Eval<String> {
        let text = ruby::to_s(key);
        let bare = |line: &str| line.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if text.is_empty() || text.lines().any(bare) {
            return Ok(text);
        }
        match key {
            Value::String(s) => Ok(format!("\"{}\"", s.replace('"', "\\\""))),
            other => Err(highlighted_no_method("gsub", other, self.source.gsub)),
        }
    }
}

/// `TomlDumper#to_toml` of a simple value: a string's `inspect` with `\#` unescaped before
/// `{`, `$` and `@`; a regexp's `inspect` as a string; anything else its `inspect`.
fn toml_value(value: &Value) -> Eval<String> {
    fn check(v: &Value, depth: usize) -> Eval<()> {
        match v {
            _ if depth > MAX_DEPTH => Err(fail("to_toml(): the value nests too deeply")),
            Value::Array(items) => items.iter().try_for_each(|x| check(x, depth + 1)),
            Value::Hash(h) => h.iter().try_for_each(|(k, x)| {
                check(k, depth + 1)?;
                check(x, depth + 1)
            }),
            Value::Undef
            | Value::Default
            | Value::Boolean(_)
            | Value::Integer(_)
            | Value::BigInt(_)
            | Value::Float(_)
            | Value::String(_)
            | Value::Regexp(_)
            | Value::SemVer(_)
            | Value::Sensitive(_) => Ok(()),
            other => Err(fail(format!(
                "to_toml(): Poppet does not write Puppet's Ruby object of a {} as TOML",
                puppet_types::infer::infer(other)
            ))),
        }
    }
    check(value, 0)?;
    Ok(match value {
        Value::Regexp(_) => poppet_ruby::string::inspect(&ruby::inspect(value)),
        Value::String(s) => unescape_interpolation(&poppet_ruby::string::inspect(s)),
        other => ruby::inspect(other),
    })
}

/// `gsub(/\\(#[$@{])/, '\1')`: each backslash before `#{`, `#$` or `#@` removed.
fn unescape_interpolation(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("\\#") {
        let after = &rest[i + 2..];
        if after.starts_with(['$', '@', '{']) {
            out.push_str(&rest[..i]);
            out.push('#');
        } else {
            out.push_str(&rest[..i + 2]);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Ruby 3.1's `NoMethodError` as `error_highlight` shows it when the method was called in
/// a module's Ruby file: the message, a blank line, the line of the call and carets under
/// `.method`.
fn highlighted_no_method(method: &str, receiver: &Value, line: &str) -> crate::error::Flow {
    let call = format!(".{method}");
    let column = line.find(&call).unwrap_or(0);
    let message = format!(
        "undefined method `{method}' for {}\n\n{line}\n{}{}",
        puppet_types::params::ruby_receiver(receiver),
        " ".repeat(column),
        "^".repeat(call.len())
    );
    fail(message)
}
