//! stdlib's functions that read and write data formats (YAML, JSON, TOML, Python and Ruby literals, HOCON) and number and string conversions, ported from its Ruby (8.5.0 and 9.7.0).

use std::collections::HashMap;

use poppet_ruby::yaml::{self, Node};
use puppet_types::Value;

use super::stdlib_strings::{real_or_shim, rewrap_sensitive, SHIM};
use super::{v4, Port};
use crate::error::{fail, Eval};
use crate::eval::Evaluator;
use crate::functions::{ruby, Call};

pub static PORTS: &[Port] = &[
    v4("stdlib", "to_yaml", SHIM, |ev, c| real_or_shim(ev, c, "to_yaml", TO_YAML, to_yaml)),
    v4("stdlib", "stdlib::to_yaml", TO_YAML, |ev, c| rewrap_sensitive(ev, c, to_yaml)),
];

const TO_YAML: &[&str] = &["Any $data, Hash $options?"];

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
