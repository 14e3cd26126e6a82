//! puppetlabs-stdlib's functions (8.5.0, Debian's, and 9.7.0), ported from its Ruby.

use puppet_types::Value;

use super::{v3, v4, Port};
use crate::error::{fail, Eval};
use crate::eval::{Evaluator, Level};
use crate::functions::Call;

pub static PORTS: &[Port] = &[
    v3("stdlib", "pick", -1, pick),
    v3("stdlib", "any2array", -1, any2array),
    v4("stdlib", "fact", &["String $fact_name"], fact),
];

/// `pick(values...)`: the first value that is not undef nor `''`.
fn pick(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let first = call.args.into_iter().find(|v| !v.is_undef() && !matches!(v, Value::String(s) if s.is_empty()));
    match first {
        Some(v) => Ok(v),
        None => Err(fail("pick(): must receive at least one non empty value")),
    }
}

/// `any2array(values...)`: an array of the values; one array as it is, one hash as its keys
/// and values in turn, one `''` (an undef) as an empty array.
fn any2array(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let [one] = call.args.as_slice() else { return Ok(Value::array(call.args)) };
    Ok(match one {
        Value::Array(_) => one.clone(),
        Value::String(s) if s.is_empty() => Value::array(Vec::new()),
        Value::Hash(h) => Value::array(h.iter().flat_map(|(k, v)| [k.clone(), v.clone()]).collect()),
        other => Value::array(vec![other.clone()]),
    })
}

/// `fact(name)`: the fact at a dotted path of `$facts` (`os.family`, `"a.b".c`, an array's
/// index), undef where the path leads nowhere (with a warning where it walks into an array
/// by a name that is no index, or into a value that is no collection).
fn fact(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let name = puppet_types::display::value_to_s(&call.arg(0));
    let path = fact_path(&name);
    let mut current = ev.top.get("facts").unwrap_or(Value::Undef);
    let mut walked: Vec<String> = Vec::new();
    for key in path {
        let next = match &current {
            Value::Undef => return Ok(Value::Undef),
            Value::Array(items) => match poppet_ruby::kernel::integer(&key, None).and_then(|i| i64::try_from(i).ok()) {
                Some(i) => {
                    let len = items.len() as i64;
                    let i = if i < 0 { i + len } else { i };
                    usize::try_from(i).ok().and_then(|i| items.get(i)).cloned().unwrap_or(Value::Undef)
                }
                None => {
                    ev.log(
                        Level::Warning,
                        format!(
                            "fact request for {name} returning nil: '{}' is an array; cannot index to '{key}'",
                            dot_syntax(&walked)
                        ),
                    );
                    Value::Undef
                }
            },
            Value::Hash(h) => h.get(&Value::from(key.as_str())).cloned().unwrap_or(Value::Undef),
            _ => {
                ev.log(
                    Level::Warning,
                    format!(
                        "fact request for {name} returning nil: '{}' is not a collection; cannot walk to '{key}'",
                        dot_syntax(&walked)
                    ),
                );
                Value::Undef
            }
        };
        walked.push(key);
        current = next;
    }
    Ok(current)
}

/// The keys of a fact's dotted name: `a."b.c".d` is `a`, `b.c`, `d` (the Ruby's
/// `scan(/([^."]+)|(?:")([^"]+)(?:")/)`).
fn fact_path(name: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('"') {
            if let Some(end) = quoted.find('"').filter(|&e| e > 0) {
                keys.push(quoted[..end].to_owned());
                rest = &quoted[end + 1..];
                continue;
            }
        }
        let end = rest.find(['.', '"']).unwrap_or(rest.len());
        if end > 0 {
            keys.push(rest[..end].to_owned());
            rest = &rest[end..];
        } else {
            rest = &rest[rest.chars().next().map_or(1, char::len_utf8)..];
        }
    }
    keys
}

/// The keys walked so far, joined with dots (a key with a dot in quotes).
fn dot_syntax(keys: &[String]) -> String {
    keys.iter().map(|k| if k.contains('.') { format!("\"{k}\"") } else { k.clone() }).collect::<Vec<_>>().join(".")
}
