//! Puppet's side of a template: its values as Ruby objects and back (as Puppet 7 hands
//! them to Ruby: `undef` is nil, `default` the symbol `:default`, strings frozen), `scope`
//! and its methods, and `format` through Puppet's `sprintf`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use indexmap::IndexMap;
use puppet_types::Value;

use crate::error::Error;
use crate::interp::{raise, unsupported, Ctrl, Interp, R};
use crate::methods::{arity, Found};
use crate::value::{RArray, RHash, RRegexp, RValue};

/// A Puppet variable's value as Ruby sees it: arrays and hashes are Ruby's mutable objects,
/// and what a template changes in them Puppet's variable holds afterwards (as in Puppet,
/// where the template has the variable's very object), so the object is kept for
/// the write-back at the end of the render.
pub fn variable(it: &mut Interp<'_>, name: &str, v: &Value) -> RValue {
    let object = to_ruby(v);
    if matches!(object, RValue::Array(_) | RValue::Hash(_)) {
        it.puppet_variables.push((name.to_string(), v.clone(), object.clone()));
    }
    object
}

/// A Puppet value as Ruby sees it.
pub fn to_ruby(v: &Value) -> RValue {
    match v {
        Value::Undef => RValue::Nil,
        Value::Default => RValue::sym("default"),
        Value::Boolean(b) => RValue::Bool(*b),
        Value::Integer(i) => RValue::Int(*i),
        Value::Float(f) => RValue::Float(*f),
        Value::String(s) => RValue::frozen_str(s.to_string()),
        Value::Regexp(r) => match RRegexp::new(r.source().to_string(), "") {
            Ok(re) => RValue::Regexp(Rc::new(re)),
            Err(_) => RValue::Puppet(v.clone()),
        },
        Value::Array(items) => RValue::Array(Rc::new(RArray {
            v: RefCell::new(items.iter().map(to_ruby).collect()),
            frozen: Cell::new(false),
        })),
        Value::Hash(h) => {
            let map: IndexMap<_, _> = h
                .iter()
                .map(|(k, v)| {
                    let k = to_ruby(k);
                    (k.key(), (k, to_ruby(v)))
                })
                .collect();
            RValue::Hash(Rc::new(RHash { map: RefCell::new(map), ..RHash::default() }))
        }
        other => RValue::Puppet(other.clone()),
    }
}

/// A Ruby object as a Puppet value (arguments of Puppet functions).
pub fn to_puppet(v: &RValue) -> R<Value> {
    to_puppet_depth(v, 0)
}

fn to_puppet_depth(v: &RValue, depth: usize) -> R<Value> {
    if depth > crate::value::MAX_NESTING {
        return unsupported("handing Puppet a value nested more than 512 levels deep");
    }
    Ok(match v {
        RValue::Nil => Value::Undef,
        RValue::Bool(b) => Value::Boolean(*b),
        RValue::Int(i) => Value::Integer(*i),
        RValue::Float(f) => Value::Float(*f),
        RValue::Str(s) => Value::from(s.s.borrow().as_str()),
        RValue::Sym(s) if &**s == "default" => Value::Default,
        RValue::Sym(s) if &**s == "undef" => Value::Undef,
        RValue::Sym(s) => Value::from(&**s),
        RValue::Array(a) => {
            let items = a.v.borrow().clone();
            let mut out = Vec::with_capacity(items.len());
            for x in &items {
                out.push(to_puppet_depth(x, depth + 1)?);
            }
            Value::array(out)
        }
        RValue::Hash(h) => {
            let pairs: Vec<_> = h.map.borrow().values().cloned().collect();
            let mut out = puppet_types::value::Hash::default();
            for (k, x) in &pairs {
                out.insert(to_puppet_depth(k, depth + 1)?, to_puppet_depth(x, depth + 1)?);
            }
            Value::hash(out)
        }
        RValue::Regexp(r) if r.flags.is_empty() => {
            Value::Regexp(Rc::new(puppet_types::regexp::Regexp::new(r.source.clone())))
        }
        RValue::Puppet(p) => p.clone(),
        other => return unsupported(format!("handing Puppet a Ruby {}", other.class_name())),
    })
}

fn host_error(e: Error) -> Ctrl {
    Ctrl::Error(e)
}

/// `scope`'s methods.
pub fn scope(it: &mut Interp<'_>, name: &str, args: &[RValue]) -> Found {
    Some(match name {
        "[]" | "lookupvar" => (|| {
            arity(args, 1, 2)?;
            let var = match &args[0] {
                RValue::Str(s) => s.s.borrow().clone(),
                RValue::Sym(s) => s.to_string(),
                other => {
                    return raise(
                        "TypeError",
                        format!("no implicit conversion of {} into String", crate::methods::conversion_name(other)),
                    )
                }
            };
            if let Some(object) = it.host.ruby_object(&var) {
                return Ok(object);
            }
            let v = it.host.lookupvar(&var).map_err(host_error)?;
            Ok(match &v {
                Some(v) => variable(it, &var, v),
                None => RValue::Nil,
            })
        })(),
        "to_hash" => arity(args, 0, 2).map(|_| {
            let vars = it.host.variables();
            RValue::hash(vars.iter().map(|(k, v)| (RValue::str(k.clone()), to_ruby(v))))
        }),
        "include?" | "exist?" | "bound?" => arity(args, 1, 1).and_then(|_| {
            let n = it.to_s(&args[0])?;
            Ok(RValue::Bool(it.host.has_variable(&n)))
        }),
        "call_function" => (|| {
            arity(args, 1, 2)?;
            let fname = crate::methods::str_arg(&args[0])?;
            let fargs = match args.get(1) {
                Some(RValue::Array(a)) => a.v.borrow().clone(),
                Some(other) => vec![other.clone()],
                None => Vec::new(),
            };
            call(it, &fname, &fargs, false)
        })(),
        "to_s" | "inspect" => Ok(RValue::str(it.host.scope_to_s())),
        "setvar" | "[]=" => (|| {
            arity(args, 2, 3)?;
            let var = match &args[0] {
                RValue::Str(s) => s.s.borrow().clone(),
                other => {
                    let shown = it.inspect(other)?;
                    return Err(Ctrl::Error(Error::puppet(format!(
                        "Scope variable name {shown} is a {}, not a string",
                        other.class_name()
                    ))));
                }
            };
            let value = to_puppet(&args[1])?;
            let object =
                matches!(args[1], RValue::Array(_) | RValue::Hash(_) | RValue::Str(_)).then(|| args[1].clone());
            it.host.setvar(&var, value, object).map_err(host_error)?;
            Ok(args[1].clone())
        })(),
        _ if name.starts_with("function_") => return None,
        _ => return None,
    })
}

/// `scope.function_NAME([args])`: a Puppet function of the 3.x API.
pub fn legacy_function(it: &mut Interp<'_>, name: &str, args: &[RValue]) -> R<RValue> {
    let fargs = match args {
        [RValue::Array(a)] => a.v.borrow().clone(),
        _ => {
            // Puppet's message when `function_*` is given anything but one array
            let probe = call(it, name, &[], true);
            if let Err(Ctrl::Error(e)) = &probe {
                if e.message.starts_with("undefined method") {
                    return probe;
                }
            }
            return raise(
                "ArgumentError",
                "custom functions must be called with a single array that contains the arguments. For example, function_example([1]) instead of function_example(1)",
            );
        }
    };
    call(it, name, &fargs, true)
}

fn call(it: &mut Interp<'_>, name: &str, args: &[RValue], legacy: bool) -> R<RValue> {
    let mut values = Vec::with_capacity(args.len());
    for a in args {
        values.push(to_puppet(a)?);
    }
    match it.host.call_function(name, values, legacy).map_err(host_error)? {
        Some(v) => Ok(to_ruby(&v)),
        None => {
            let scope = it.host.scope_to_s();
            raise("NoMethodError", format!("undefined method `function_{name}' for {scope}:Puppet::Parser::Scope"))
        }
    }
}

/// Methods of Puppet's own objects (types, `Sensitive`, time values, ...).
pub fn puppet_object(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue]) -> Found {
    let RValue::Puppet(v) = recv else { return None };
    Some(match name {
        "to_s" => Ok(RValue::str(it.host.to_s(v))),
        "inspect" => it.inspect(recv).map(RValue::str),
        "==" | "eql?" => arity(args, 1, 1).map(|_| RValue::Bool(matches!(&args[0], RValue::Puppet(w) if w == v))),
        "unwrap" => match v {
            Value::Sensitive(inner) => Ok(to_ruby(inner)),
            _ => return None,
        },
        // The attribute readers of a user-defined Object type's generated class.
        _ => match v {
            Value::Object(o) if args.is_empty() => match o.get(name) {
                Some(value) => Ok(to_ruby(value)),
                None => {
                    let found = puppet_types::object::find_member(&o.ty, name)?;
                    let constant = found.member.kind == Some(puppet_types::ty::AttributeKind::Constant);
                    Ok(to_ruby(found.member.value.as_ref().filter(|_| constant)?))
                }
            },
            _ => return None,
        },
    })
}

/// `format` / `sprintf` / `String#%`: Ruby's `Kernel#format`, which Puppet's `sprintf`
/// function is.
pub fn format(it: &mut Interp<'_>, args: &[RValue]) -> R<RValue> {
    arity(args, 1, usize::MAX)?;
    crate::methods::str_arg(&args[0])?;
    if args.iter().any(|a| matches!(a, RValue::Sym(s) if &**s != "default")) {
        return unsupported("`format` of symbols");
    }
    let format = crate::methods::str_arg(&args[0])?;
    let mut values = Vec::with_capacity(args.len());
    for a in &args[1..] {
        values.push(to_puppet(a)?);
    }
    let text = it
        .host
        .format(&format, values)
        .map_err(|e| Ctrl::Error(Error { kind: crate::error::Kind::Ruby("ArgumentError"), ..e }))?;
    Ok(RValue::str(text))
}
