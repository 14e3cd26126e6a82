//! `lookup` (Puppet's `functions/lookup.rb`) and the deprecated `hiera`, `hiera_array`,
//! `hiera_hash` and `hiera_include` (`hiera/puppet_function.rb`). The search itself is
//! `crate::hiera`. `lookup` has Puppet's five signatures (with local types, in the dispatch
//! notation of `functions/mod.rs`), its type checks and its error kinds. The `hiera_*`
//! functions warn that they are deprecated, once per session.
//!
//! The `hiera_*` functions search Hiera's global layer only (Puppet lets them see the
//! environment's data when the environment has a version 5 `hiera.yaml`); the evaluator
//! compiles without a global layer (`hiera::Layers`), so they find nothing, and give their
//! default, their block's value or Puppet's error.

use puppet_types::value::Hash;
use puppet_types::Value;

use super::{Builtin, Call};
use crate::error::{fail, Eval, Flow};
use crate::eval::{Evaluator, Strict};
use crate::hiera::{Invocation, LookupKey, Request};

fn lookup(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let arg = |i: usize| call.args.get(i).cloned().filter(|v| !v.is_undef());
    let names = |v: &Value| -> Vec<String> {
        match v {
            Value::Array(items) => items.iter().map(puppet_types::display::value_to_s).collect(),
            other => vec![puppet_types::display::value_to_s(other)],
        }
    };
    let value_type = |v: Option<Value>| match &v {
        Some(Value::Type(t)) => Some((**t).clone()),
        _ => None,
    };
    let request = match call.dispatch {
        // (name, value_type?, merge?), with a block or not; (name, value_type, merge, default).
        0..=2 => {
            let name = call.arg(0);
            Request {
                names: names(&name),
                name,
                value_type: value_type(arg(1)),
                merge: call.arg(2),
                default: (call.dispatch == 1).then(|| call.arg(3)),
                block: call.block.clone(),
                invocation: Invocation::default(),
            }
        }
        // (options with a name) or (name, options).
        _ => {
            let (name, options) = if call.dispatch == 3 {
                let Value::Hash(o) = &call.arg(0) else { return Err(fail("lookup: options must be a hash")) };
                (o.get(&Value::from("name")).cloned().unwrap_or(Value::Undef), o.clone())
            } else {
                let Value::Hash(o) = &call.arg(1) else { return Err(fail("lookup: options must be a hash")) };
                (call.arg(0), o.clone())
            };
            let option = |k: &str| options.get(&Value::from(k)).cloned();
            let hash = |k: &str| match &option(k) {
                Some(Value::Hash(h)) => (**h).clone(),
                _ => Hash::default(),
            };
            Request {
                names: names(&name),
                name,
                value_type: value_type(option("value_type")),
                merge: option("merge").unwrap_or(Value::Undef),
                default: options
                    .contains_key(&Value::from("default_value"))
                    .then(|| option("default_value").unwrap_or(Value::Undef)),
                block: call.block.clone(),
                invocation: Invocation {
                    overrides: hash("override"),
                    defaults: hash("default_values_hash"),
                    global_only: false,
                },
            }
        }
    };
    ev.lookup(request)
}

/// What a `hiera_*` function does with what it found (Puppet's `post_lookup`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    Return,
    Include,
}

/// `Hiera::PuppetFunction`: the deprecation warning, then a lookup (`hiera` as its
/// `lookup_options` say, `hiera_array` and `hiera_include` unique, `hiera_hash` a hash
/// merge) in all three layers when the environment has data of its own, else in the global
/// layer only. Hiera 3's location overrides (the third argument) are not supported: the
/// argument is accepted and has no effect.
fn hiera_function(ev: &mut Evaluator, call: &Call, name: &str, after: After) -> Eval<Value> {
    if call.dispatch == 0 {
        // Puppet 7.23's `hiera_splat` calls a method that does not exist.
        return Err(fail(format!("undefined method `hiera' for the '{name}' function")));
    }
    if ev.options.strict != Strict::Off {
        let message = format!(
            "The function '{name}' is deprecated in favor of using 'lookup'. See https://puppet.com/docs/puppet/7.23/deprecated_language.html"
        );
        super::warn_once(ev, name, &message);
    }
    let key = call.arg(0);
    let key_text = key.as_str().unwrap_or_default().to_string();
    if key_text != "lookup_options" && !key_text.starts_with("lookup_options.") {
        LookupKey::parse(&key_text)?;
    }
    // Dispatches: (key), (key, default, override?), (key) { block }, (key, override) { block }.
    let merge = match name {
        "hiera_array" | "hiera_include" => Value::from("unique"),
        "hiera_hash" => Value::from("hash"),
        _ => Value::Undef,
    };
    let global_only = !ev.environment_has_data().map_err(Flow::from)?;
    let request = Request {
        name: key.clone(),
        names: vec![key_text.clone()],
        value_type: None,
        merge,
        default: (call.block.is_none() && call.dispatch == 2).then(|| call.arg(1)),
        block: call.block.clone(),
        invocation: Invocation { global_only, ..Invocation::default() },
    };
    let value = ev.lookup(request)?;
    match after {
        After::Return => Ok(value),
        After::Include => {
            let empty = match &value {
                Value::Undef => return Err(fail(format!("Could not find data item {key_text}"))),
                Value::String(s) => s.is_empty(),
                Value::Array(a) => a.is_empty(),
                Value::Hash(h) => h.is_empty(),
                other => {
                    return Err(fail(format!(
                        "undefined method `empty?' for {}",
                        puppet_types::params::ruby_receiver(other)
                    )))
                }
            };
            if !empty {
                ev.call_function_inner("include", vec![value.clone()], None, call.at)?;
            }
            Ok(value)
        }
    }
}

fn hiera(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    hiera_function(ev, &call, "hiera", After::Return)
}

fn hiera_array(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    hiera_function(ev, &call, "hiera_array", After::Return)
}

fn hiera_hash(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    hiera_function(ev, &call, "hiera_hash", After::Return)
}

fn hiera_include(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    hiera_function(ev, &call, "hiera_include", After::Include)
}

/// `lookup`'s local types and dispatches, in Puppet's order.
const LOOKUP: &[&str] = &[
    "type NameType = Variant[String, Array[String]]",
    "type ValueType = Type",
    "type DefaultValueType = Any",
    "type MergeType = Variant[String[1], Hash[String, Scalar]]",
    "type BlockType = Callable[NameType]",
    "type OptionsWithName = Struct[{name => NameType, value_type => Optional[ValueType], \
     default_value => Optional[DefaultValueType], override => Optional[Hash[String, Any]], \
     default_values_hash => Optional[Hash[String, Any]], merge => Optional[MergeType]}]",
    "type OptionsWithoutName = Struct[{value_type => Optional[ValueType], \
     default_value => Optional[DefaultValueType], override => Optional[Hash[String, Any]], \
     default_values_hash => Optional[Hash[String, Any]], merge => Optional[MergeType]}]",
    "NameType $name, ValueType $value_type?, MergeType $merge?",
    "NameType $name, Optional[ValueType] $value_type, Optional[MergeType] $merge, DefaultValueType $default_value",
    "NameType $name, ValueType $value_type?, MergeType $merge?, BlockType &$block",
    "OptionsWithName $options_hash, BlockType &$block?",
    "Variant[String, Array[String]] $name, OptionsWithoutName $options_hash, BlockType &$block?",
];

/// The dispatches of the `hiera_*` functions (`init_dispatch`).
const HIERA: &[&str] = &[
    "Tuple[String, Any, Any, 1, 3] $args",
    "String $key",
    "String $key, Any $default, Any $override?",
    "String $key, Callable[1, 1] &$default_block",
    "String $key, Any $override, Callable[1, 1] &$default_block",
];

pub static FUNCTIONS: &[Builtin] = &[
    Builtin { name: "lookup", dispatches: LOOKUP, call: lookup },
    Builtin { name: "hiera", dispatches: HIERA, call: hiera },
    Builtin { name: "hiera_array", dispatches: HIERA, call: hiera_array },
    Builtin { name: "hiera_hash", dispatches: HIERA, call: hiera_hash },
    Builtin { name: "hiera_include", dispatches: HIERA, call: hiera_include },
];
