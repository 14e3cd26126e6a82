//! Ruby's methods, by receiver class. Each class's table answers `None` for a method it does
//! not implement; then come the methods every object has ([`object`]); then, if Ruby has
//! the method, the call stops as unsupported, else with Ruby's `NoMethodError`.

pub mod array;
pub mod enumerable;
pub mod enumerator;
pub mod hash;
pub mod misc;
pub mod numeric;
pub mod string;

use std::cmp::Ordering;
use std::rc::Rc;

use crate::bridge;
use crate::interp::{raise, unsupported, Block, Ctrl, Interp, R};
use crate::value::{RValue, MAX_NESTING};

/// What a method call's table answers: `None` when the class does not have the method here.
pub type Found = Option<R<RValue>>;

/// How Ruby shows the template object in messages (its real form holds an address).
pub const WRAPPER_INSPECT: &str = "#<Puppet::Parser::TemplateWrapper>";

const RUBY_METHODS: &str = include_str!("../ruby_methods.tsv");

/// Whether Ruby's `class` (a line of `ruby_methods.tsv`) has method `name`.
pub fn ruby_has(class: &str, name: &str) -> bool {
    RUBY_METHODS.lines().any(|line| {
        let mut fields = line.splitn(2, '\t');
        fields.next() == Some(class) && fields.next().is_some_and(|methods| methods.split(' ').any(|m| m == name))
    })
}

/// Ruby's methods of `class` (a line of `ruby_methods.tsv`).
pub fn methods_of(class: &str) -> Vec<&'static str> {
    RUBY_METHODS
        .lines()
        .find_map(|line| {
            let (c, methods) = line.split_once('\t')?;
            (c == class).then(|| methods.split(' ').collect())
        })
        .unwrap_or_default()
}

/// Whether the template's own code can call `name` without a receiver in Ruby.
pub fn wrapper_has(name: &str) -> bool {
    ruby_has("self", name)
}

/// Whether `recv` has method `name` in Ruby (`respond_to?`, `defined?`).
pub fn responds_to(recv: &RValue, name: &str) -> bool {
    let class = match recv {
        RValue::Scope => "Puppet::Parser::Scope".to_string(),
        RValue::Puppet(_) | RValue::Class(_) | RValue::Wrapper | RValue::Enum(_) | RValue::Exception(_) => {
            return false
        }
        other => other.class_name(),
    };
    ruby_has(&class, name)
}

/// Calls method `name` of `recv` (not the template object).
pub fn dispatch(it: &mut Interp<'_>, recv: &RValue, name: &str, args: Vec<RValue>, block: Option<&Block>) -> R<RValue> {
    if block.is_none() && enumerator::makes_enumerator(recv, name, &args) {
        let e = crate::value::REnum { recv: recv.clone(), meth: name.into(), args };
        return Ok(RValue::Enum(Rc::new(e)));
    }
    let found = match recv {
        RValue::Enum(_) => enumerator::call(it, recv, name, &args, block),
        RValue::Str(_) => string::call(it, recv, name, &args, block),
        RValue::Array(_) => array::call(it, recv, name, &args, block),
        RValue::Hash(_) => hash::call(it, recv, name, &args, block),
        RValue::Int(_) | RValue::Float(_) => numeric::call(it, recv, name, &args, block),
        RValue::Sym(_) => misc::symbol(it, recv, name, &args, block),
        RValue::Nil => misc::nil(it, name, &args),
        RValue::Bool(b) => misc::boolean(*b, name, &args),
        RValue::Range(_) => misc::range(it, recv, name, &args, block),
        RValue::Regexp(_) => misc::regexp(it, recv, name, &args, block),
        RValue::Match(_) => misc::matchdata(it, recv, name, &args),
        RValue::Proc(_) => misc::proc(it, recv, name, &args),
        RValue::Exception(_) => misc::exception(it, recv, name, &args),
        RValue::Class(c) => misc::class(it, c, name, &args, block),
        RValue::Scope => bridge::scope(it, name, &args),
        RValue::Puppet(_) => bridge::puppet_object(it, recv, name, &args),
        RValue::Wrapper => None,
    };
    if let Some(r) = found {
        return r;
    }
    if let Some(r) = object(it, recv, name, &args, block) {
        return r;
    }
    let class = recv.class_name();
    if responds_to(recv, name) {
        return unsupported(format!("the method `{class}#{name}`"));
    }
    if let (RValue::Scope, Some(function)) = (recv, name.strip_prefix("function_")) {
        return bridge::legacy_function(it, function, &args);
    }
    if matches!(recv, RValue::Puppet(_) | RValue::Enum(_) | RValue::Exception(_)) {
        return unsupported(format!("the method `{name}` of a {class}"));
    }
    Err(no_method(it, name, recv))
}

/// Ruby's `NoMethodError` for `name` on `recv`.
pub fn no_method(it: &mut Interp<'_>, name: &str, recv: &RValue) -> Ctrl {
    let class = recv.class_name();
    let suggestions = if matches!(recv, RValue::Nil) {
        String::new()
    } else {
        let methods = methods_of(&class);
        let dictionary: Vec<&str> = methods.iter().copied().filter(|m| *m != name).collect();
        let found: Vec<String> =
            poppet_ruby::did_you_mean::correct(&dictionary, name).into_iter().map(str::to_string).collect();
        poppet_ruby::did_you_mean::format(&found)
    };
    let receiver = receiver(it, recv);
    Ctrl::Error(crate::error::Error::ruby(
        "NoMethodError",
        format!("undefined method `{name}' for {receiver}{suggestions}"),
    ))
}

/// How a message names a receiver: `nil:NilClass`, `"a":String`, `[1]:Array`, or
/// `#<Array...>` when its inspect is long.
fn receiver(it: &mut Interp<'_>, recv: &RValue) -> String {
    match recv {
        RValue::Nil => "nil:NilClass".into(),
        RValue::Bool(b) => format!("{b}:{}", recv.class_name()),
        RValue::Scope => format!("{}:Puppet::Parser::Scope", it.host.scope_to_s()),
        RValue::Class(c) => format!("{c}:Class"),
        _ => match it.inspect(recv) {
            Ok(s) if s.chars().count() <= 65 && !s.starts_with("#<") => format!("{s}:{}", recv.class_name()),
            Ok(s) if s.starts_with("#<") => s,
            _ => format!("#<{}>", recv.class_name()),
        },
    }
}

// ---- argument checks ------------------------------------------------------------------

/// Ruby's arity check: `ArgumentError (wrong number of arguments (given 2, expected 0..1))`.
pub fn arity(args: &[RValue], min: usize, max: usize) -> R<()> {
    if args.len() >= min && args.len() <= max {
        return Ok(());
    }
    let expected = if min == max {
        min.to_string()
    } else if max == usize::MAX {
        format!("{min}+")
    } else {
        format!("{min}..{max}")
    };
    raise("ArgumentError", format!("wrong number of arguments (given {}, expected {expected})", args.len()))
}

/// An argument that must be a string (Ruby's implicit conversion: `TypeError` otherwise).
pub fn str_arg(v: &RValue) -> R<String> {
    match v {
        RValue::Str(s) => Ok(s.s.borrow().clone()),
        other => raise("TypeError", format!("no implicit conversion of {} into String", conversion_name(other))),
    }
}

/// An argument that must be an integer (floats are truncated, as Ruby's `NUM2LONG`).
pub fn int_arg(v: &RValue) -> R<i64> {
    match v {
        RValue::Int(i) => Ok(*i),
        RValue::Float(f) if f.is_finite() && f.abs() < 9.2e18 => Ok(f.trunc() as i64),
        RValue::Float(f) => raise("FloatDomainError", poppet_ruby::float::float_to_s(*f)),
        RValue::Nil => raise("TypeError", "no implicit conversion from nil to integer"),
        other => raise("TypeError", format!("no implicit conversion of {} into Integer", conversion_name(other))),
    }
}

/// How Ruby's conversion errors name a value's class (`nil`, `true`, `false` by value).
pub fn conversion_name(v: &RValue) -> String {
    match v {
        RValue::Nil => "nil".into(),
        RValue::Bool(b) => b.to_string(),
        other => other.class_name(),
    }
}

/// Ruby's `FrozenError` unless `v` may be changed.
pub fn check_mutable(it: &mut Interp<'_>, v: &RValue) -> R<()> {
    let frozen = match v {
        RValue::Str(s) => s.frozen.get(),
        RValue::Array(a) => a.frozen.get(),
        RValue::Hash(h) => h.frozen.get(),
        _ => false,
    };
    if frozen {
        let shown = it.inspect(v)?;
        return raise("FrozenError", format!("can't modify frozen {}: {shown}", v.class_name()));
    }
    Ok(())
}

// ---- equality and order ---------------------------------------------------------------

/// Ruby's `==`.
pub fn eq(a: &RValue, b: &RValue) -> R<bool> {
    eq_depth(a, b, 0)
}

fn eq_depth(a: &RValue, b: &RValue, depth: usize) -> R<bool> {
    if depth > MAX_NESTING {
        return unsupported("comparing values nested more than 512 levels deep");
    }
    Ok(match (a, b) {
        (RValue::Nil, RValue::Nil) => true,
        (RValue::Bool(x), RValue::Bool(y)) => x == y,
        (RValue::Int(x), RValue::Int(y)) => x == y,
        (RValue::Int(x), RValue::Float(y)) | (RValue::Float(y), RValue::Int(x)) => (*x as f64) == *y,
        (RValue::Float(x), RValue::Float(y)) => x == y,
        (RValue::Str(x), RValue::Str(y)) => *x.s.borrow() == *y.s.borrow(),
        (RValue::Sym(x), RValue::Sym(y)) => x == y,
        (RValue::Array(x), RValue::Array(y)) => {
            if Rc::ptr_eq(x, y) {
                return Ok(true);
            }
            let (xs, ys) = (x.v.borrow().clone(), y.v.borrow().clone());
            if xs.len() != ys.len() {
                return Ok(false);
            }
            for (p, q) in xs.iter().zip(&ys) {
                if !eq_depth(p, q, depth + 1)? {
                    return Ok(false);
                }
            }
            true
        }
        (RValue::Hash(x), RValue::Hash(y)) => {
            if Rc::ptr_eq(x, y) {
                return Ok(true);
            }
            let xs: Vec<_> = x.map.borrow().iter().map(|(k, (_, v))| (k.clone(), v.clone())).collect();
            if xs.len() != y.map.borrow().len() {
                return Ok(false);
            }
            for (k, v) in xs {
                let other = y.map.borrow().get(&k).map(|(_, v)| v.clone());
                match other {
                    Some(w) if eq_depth(&v, &w, depth + 1)? => {}
                    _ => return Ok(false),
                }
            }
            true
        }
        (RValue::Range(x), RValue::Range(y)) => {
            x.exclusive == y.exclusive && eq_depth(&x.lo, &y.lo, depth + 1)? && eq_depth(&x.hi, &y.hi, depth + 1)?
        }
        (RValue::Regexp(x), RValue::Regexp(y)) => x.source == y.source && x.flags == y.flags,
        (RValue::Class(x), RValue::Class(y)) => x == y,
        (RValue::Puppet(x), RValue::Puppet(y)) => x == y,
        (RValue::Scope, RValue::Scope) | (RValue::Wrapper, RValue::Wrapper) => true,
        _ => a.identity() != 0 && a.identity() == b.identity(),
    })
}

/// Ruby's `<=>`: `None` when the values do not compare.
pub fn cmp(a: &RValue, b: &RValue) -> R<Option<Ordering>> {
    Ok(match (a, b) {
        (RValue::Int(x), RValue::Int(y)) => Some(x.cmp(y)),
        (RValue::Int(x), RValue::Float(y)) => (*x as f64).partial_cmp(y),
        (RValue::Float(x), RValue::Int(y)) => x.partial_cmp(&(*y as f64)),
        (RValue::Float(x), RValue::Float(y)) => x.partial_cmp(y),
        (RValue::Str(x), RValue::Str(y)) => Some(x.s.borrow().as_bytes().cmp(y.s.borrow().as_bytes())),
        (RValue::Sym(x), RValue::Sym(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (RValue::Array(x), RValue::Array(y)) => {
            let (xs, ys) = (x.v.borrow().clone(), y.v.borrow().clone());
            for (p, q) in xs.iter().zip(&ys) {
                match cmp(p, q)? {
                    Some(Ordering::Equal) => {}
                    other => return Ok(other),
                }
            }
            Some(xs.len().cmp(&ys.len()))
        }
        _ if eq(a, b)? => Some(Ordering::Equal),
        _ => None,
    })
}

/// `<=>` that must succeed: Ruby's `comparison of X with Y failed` otherwise.
pub fn cmp_strict(it: &mut Interp<'_>, a: &RValue, b: &RValue) -> R<Ordering> {
    match cmp(a, b)? {
        Some(o) => Ok(o),
        None => {
            let shown = match b {
                RValue::Nil | RValue::Bool(_) | RValue::Int(_) | RValue::Float(_) | RValue::Sym(_) => it.inspect(b)?,
                other => other.class_name(),
            };
            raise("ArgumentError", format!("comparison of {} with {shown} failed", a.class_name()))
        }
    }
}

/// The ordering a sort block returned (an integer, as Ruby's `rb_cmpint`).
pub fn block_order(it: &mut Interp<'_>, v: &RValue, a: &RValue, b: &RValue) -> R<Ordering> {
    match v {
        RValue::Int(i) => Ok(i.cmp(&0)),
        RValue::Float(f) => Ok(f.partial_cmp(&0.0).unwrap_or(Ordering::Equal)),
        RValue::Nil => {
            let _ = it;
            raise("ArgumentError", format!("comparison of {} with {} failed", a.class_name(), b.class_name()))
        }
        other => raise("NoMethodError", format!("undefined method `>' for {}", other.class_name())),
    }
}

// ---- what every object has --------------------------------------------------------------

/// Object's and Kernel's methods.
pub fn object(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue], block: Option<&Block>) -> Found {
    Some(match name {
        "nil?" => arity(args, 0, 0).map(|_| RValue::Bool(recv.is_nil())),
        "==" | "eql?" | "equal?" => arity(args, 1, 1).and_then(|_| {
            let same = match name {
                "equal?" => match (recv, &args[0]) {
                    (RValue::Str(_) | RValue::Array(_) | RValue::Hash(_), _) => recv.identity() == args[0].identity(),
                    _ => eq(recv, &args[0])?,
                },
                "eql?" => recv.key() == args[0].key(),
                _ => eq(recv, &args[0])?,
            };
            Ok(RValue::Bool(same))
        }),
        "!=" => arity(args, 1, 1).and_then(|_| {
            let same = it.send(recv, "==", args.to_vec(), None)?;
            Ok(RValue::Bool(!same.truthy()))
        }),
        "!" => Ok(RValue::Bool(!recv.truthy())),
        "===" => arity(args, 1, 1).and_then(|_| Ok(RValue::Bool(it.send(recv, "==", args.to_vec(), None)?.truthy()))),
        "=~" => Ok(RValue::Nil),
        "!~" => arity(args, 1, 1).and_then(|_| Ok(RValue::Bool(!it.send(recv, "=~", args.to_vec(), None)?.truthy()))),
        "<=>" => arity(args, 1, 1).and_then(|_| Ok(if eq(recv, &args[0])? { RValue::Int(0) } else { RValue::Nil })),
        "class" => arity(args, 0, 0).map(|_| RValue::Class(recv.class_name().into())),
        "is_a?" | "kind_of?" | "instance_of?" => arity(args, 1, 1).and_then(|_| match &args[0] {
            RValue::Class(c) => Ok(RValue::Bool(if name == "instance_of?" {
                recv.class_name() == **c
            } else {
                recv.ancestors().iter().any(|a| a == &**c)
            })),
            _ => raise("TypeError", "class or module required"),
        }),
        "respond_to?" => arity(args, 1, 2).and_then(|_| {
            let m = match &args[0] {
                RValue::Sym(s) => s.to_string(),
                RValue::Str(s) => s.s.borrow().clone(),
                other => return raise("TypeError", format!("{} is not a symbol nor a string", it.inspect(other)?)),
            };
            Ok(RValue::Bool(responds_to(recv, &m)))
        }),
        "inspect" => arity(args, 0, 0).and_then(|_| Ok(RValue::str(it.inspect(recv)?))),
        "to_s" => arity(args, 0, 0).and_then(|_| Ok(RValue::str(it.to_s(recv)?))),
        "frozen?" => Ok(RValue::Bool(match recv {
            RValue::Str(s) => s.frozen.get(),
            RValue::Array(a) => a.frozen.get(),
            RValue::Hash(h) => h.frozen.get(),
            _ => true,
        })),
        "freeze" => {
            match recv {
                RValue::Str(s) => s.frozen.set(true),
                RValue::Array(a) => a.frozen.set(true),
                RValue::Hash(h) => h.frozen.set(true),
                _ => {}
            }
            Ok(recv.clone())
        }
        "dup" | "clone" => Ok(match recv {
            RValue::Str(s) => {
                let copy = RValue::str(s.s.borrow().clone());
                if name == "clone" && s.frozen.get() {
                    if let RValue::Str(c) = &copy {
                        c.frozen.set(true);
                    }
                }
                copy
            }
            RValue::Array(a) => RValue::array(a.v.borrow().clone()),
            RValue::Hash(h) => {
                let pairs: Vec<_> = h.map.borrow().values().cloned().collect();
                RValue::hash(pairs)
            }
            other => other.clone(),
        }),
        "itself" => Ok(recv.clone()),
        "tap" => match block {
            Some(b) => it.yield1(b, recv.clone()).map(|_| recv.clone()),
            None => raise("LocalJumpError", "no block given (yield)"),
        },
        "then" | "yield_self" => match block {
            Some(b) => it.yield1(b, recv.clone()),
            None => unsupported("`then` without a block"),
        },
        "send" | "public_send" | "__send__" => {
            if args.is_empty() {
                return Some(raise("ArgumentError", "no method name given"));
            }
            let m = match &args[0] {
                RValue::Sym(s) => s.to_string(),
                RValue::Str(s) => s.s.borrow().clone(),
                other => {
                    return Some(
                        it.inspect(other).and_then(|s| raise("TypeError", format!("{s} is not a symbol nor a string"))),
                    )
                }
            };
            it.send(recv, &m, args[1..].to_vec(), block)
        }
        "to_yaml" => arity(args, 0, 1).and_then(|_| {
            if !args.is_empty() {
                return unsupported("`to_yaml` with options");
            }
            if contains_symbol(recv, 0) {
                return unsupported("`to_yaml` of symbols");
            }
            let value = bridge::to_puppet(recv)?;
            let text = it.host.to_yaml(value).map_err(Ctrl::Error)?;
            Ok(RValue::str(text))
        }),
        "hash" => arity(args, 0, 0).map(|_| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            recv.key().hash(&mut h);
            RValue::Int((h.finish() >> 2) as i64)
        }),
        "instance_variable_get"
        | "instance_variables"
        | "instance_variable_set"
        | "method"
        | "methods"
        | "object_id"
        | "__id__"
        | "display"
        | "extend"
        | "instance_eval"
        | "instance_exec" => unsupported(format!("the method `{name}`")),
        _ => return None,
    })
}

/// Whether a value holds a Symbol (other than `:default`, Puppet's default), which
/// Puppet's values cannot carry.
fn contains_symbol(v: &RValue, depth: usize) -> bool {
    if depth > MAX_NESTING {
        return false;
    }
    match v {
        RValue::Sym(s) => &**s != "default",
        RValue::Array(a) => a.v.borrow().iter().any(|x| contains_symbol(x, depth + 1)),
        RValue::Hash(h) => {
            h.map.borrow().values().any(|(k, x)| contains_symbol(k, depth + 1) || contains_symbol(x, depth + 1))
        }
        _ => false,
    }
}

/// The template object's methods (`scope`, `file`, ...) and Kernel's functions.
pub fn wrapper(it: &mut Interp<'_>, name: &str, args: &[RValue], block: Option<&Block>) -> Found {
    Some(match name {
        "scope" => arity(args, 0, 0).map(|_| RValue::Scope),
        "file" => arity(args, 0, 0).map(|_| it.host.file().map_or(RValue::Nil, RValue::str)),
        "has_variable?" => arity(args, 1, 1).and_then(|_| {
            let n = it.to_s(&args[0])?;
            Ok(RValue::Bool(it.host.has_variable(&n)))
        }),
        "instance_variable_get" => arity(args, 1, 1).and_then(|_| {
            let n = it.to_s(&args[0])?;
            let Some(name) = n.strip_prefix('@').filter(|s| !s.is_empty() && !s.starts_with('@')) else {
                return raise("NameError", format!("'{n}' is not allowed as an instance variable name"));
            };
            Ok(it.ivars.get(name).cloned().unwrap_or(RValue::Nil))
        }),
        "instance_variable_defined?" => arity(args, 1, 1).and_then(|_| {
            let n = it.to_s(&args[0])?;
            Ok(RValue::Bool(n.strip_prefix('@').is_some_and(|name| it.ivars.contains_key(name))))
        }),
        "instance_variables" => arity(args, 0, 0).map(|_| {
            let mut names: Vec<String> = it.ivars.keys().map(|k| format!("@{k}")).collect();
            names.sort();
            RValue::array(names.iter().map(|n| RValue::Sym(n.as_str().into())).collect())
        }),
        "class" => Ok(RValue::Class("Puppet::Parser::TemplateWrapper".into())),
        "Hash" => arity(args, 1, 1).and_then(|_| match &args[0] {
            RValue::Nil => Ok(RValue::hash(vec![])),
            RValue::Array(a) if a.v.borrow().is_empty() => Ok(RValue::hash(vec![])),
            RValue::Hash(_) => Ok(args[0].clone()),
            other => raise("TypeError", format!("can't convert {} into Hash", other.class_name())),
        }),
        "tags" => raise("NotImplementedError", "Call 'all_tags' instead."),
        "raise" | "fail" => kernel_raise(it, args),
        "format" | "sprintf" => bridge::format(it, args),
        "Integer" | "Float" if matches!(args.last(), Some(RValue::Hash(_))) => (|| {
            let (opts, rest) = args.split_last().unwrap_or((&RValue::Nil, &[]));
            let quiet = matches!(it.send(opts, "[]", vec![RValue::sym("exception")], None)?, RValue::Bool(false));
            let r = if name == "Integer" {
                arity(rest, 1, 2).and_then(|_| numeric::kernel_integer(it, rest))
            } else {
                arity(rest, 1, 1).and_then(|_| numeric::kernel_float(it, &rest[0]))
            };
            match r {
                Err(Ctrl::Error(e)) if quiet && matches!(e.kind, crate::error::Kind::Ruby(_)) => Ok(RValue::Nil),
                other => other,
            }
        })(),
        "Integer" => arity(args, 1, 2).and_then(|_| numeric::kernel_integer(it, args)),
        "Float" => arity(args, 1, 1).and_then(|_| numeric::kernel_float(it, &args[0])),
        "String" => arity(args, 1, 1).and_then(|_| Ok(RValue::str(it.to_s(&args[0])?))),
        "Array" => arity(args, 1, 1).and_then(|_| {
            Ok(match &args[0] {
                RValue::Nil => RValue::array(vec![]),
                RValue::Array(_) => args[0].clone(),
                RValue::Range(_) | RValue::Enum(_) => RValue::array(it.to_items(&args[0])?),
                RValue::Hash(h) => RValue::array(
                    h.map.borrow().values().map(|(k, v)| RValue::array(vec![k.clone(), v.clone()])).collect(),
                ),
                other => RValue::array(vec![other.clone()]),
            })
        }),
        "lambda" | "proc" => match block {
            Some(Block::Def(def, env)) => {
                let def = if name == "lambda" && !def.lambda {
                    return Some(unsupported("`lambda` with a block (use `->`)"));
                } else {
                    def.clone()
                };
                Ok(RValue::Proc(Rc::new(crate::value::RProc::Block(def, env.clone()))))
            }
            Some(Block::Sym(s)) => Ok(RValue::Proc(Rc::new(crate::value::RProc::Symbol(s.clone())))),
            Some(Block::Native(_)) => unsupported("a proc of a native block"),
            None => raise("ArgumentError", "tried to create Proc object without a block"),
        },
        "loop" => match block {
            Some(b) => loop {
                if let Err(e) = it.step() {
                    break Err(e);
                }
                match it.call_block(b, vec![]) {
                    Ok(_) => {}
                    Err(Ctrl::Break(v)) => break Ok(v),
                    // `loop` ends quietly on StopIteration
                    Err(Ctrl::Error(e)) if e.kind == crate::error::Kind::Ruby("StopIteration") => {
                        break Ok(RValue::Nil)
                    }
                    Err(e) => break Err(e),
                }
            },
            None => unsupported("`loop` without a block"),
        },
        "block_given?" => Ok(RValue::Bool(false)),
        "puts" | "print" | "p" | "pp" => {
            // Ruby writes these to Puppet's standard output, not into the template
            Ok(match (name, args) {
                ("p" | "pp", [one]) => one.clone(),
                ("p" | "pp", []) => RValue::Nil,
                ("p" | "pp", many) => RValue::array(many.to_vec()),
                _ => RValue::Nil,
            })
        }
        "debug" | "info" | "notice" | "warning" | "err" | "alert" | "emerg" | "crit" => {
            let mut text = Vec::new();
            for a in args {
                match it.to_s(a) {
                    Ok(s) => text.push(s),
                    Err(e) => return Some(Err(e)),
                }
            }
            it.host.log(name, &text.join(" "));
            Ok(RValue::Nil)
        }
        "nil?" => Ok(RValue::Bool(false)),
        "to_s" => Ok(RValue::str(it.to_s(&RValue::Wrapper).unwrap_or_default())),
        "require" | "require_relative" | "load" => unsupported(format!("`{name}` (loading Ruby libraries)")),
        _ => return None,
    })
}

/// `raise` / `fail`: `raise "msg"`, `raise Class`, `raise Class, "msg"`, `raise exception`.
fn kernel_raise(it: &mut Interp<'_>, args: &[RValue]) -> R<RValue> {
    match args {
        // Puppet's templates run where `$!` is an exception without a message
        [] => match it.last_error.clone() {
            Some(RValue::Exception(e)) => raise(e.class, e.message.clone()),
            _ => raise("RuntimeError", ""),
        },
        [RValue::Str(s)] => raise("RuntimeError", s.s.borrow().clone()),
        [RValue::Exception(e)] => raise(e.class, e.message.clone()),
        [RValue::Class(c)] | [RValue::Class(c), _] => {
            let Some(class) = crate::value::exception_ancestors(c).first().copied() else {
                return raise("TypeError", "exception class/object expected");
            };
            let message = match args.get(1) {
                Some(m) => it.to_s(m)?,
                None => c.to_string(),
            };
            raise(class, message)
        }
        [_] => raise("TypeError", "exception class/object expected"),
        _ => unsupported("`raise` with these arguments"),
    }
}
