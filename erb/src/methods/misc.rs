//! The methods of Symbol, NilClass, TrueClass/FalseClass, Range, Regexp, MatchData, Proc and
//! of classes themselves (`String === x`, `Regexp.escape`, `File.basename`, ...).

use std::rc::Rc;

use super::string::{byte_at, char_at, match_index, regex_match};
use super::{arity, enumerable, eq, int_arg, str_arg, Found};
use crate::interp::{raise, unsupported, Block, Interp, R};
use crate::value::{RProc, RRange, RRegexp, RValue};

pub fn symbol(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue], block: Option<&Block>) -> Found {
    let RValue::Sym(s) = recv else { return None };
    Some(match name {
        "to_s" | "id2name" | "name" => Ok(RValue::str(s.to_string())),
        "to_sym" => Ok(recv.clone()),
        "to_proc" => Ok(RValue::Proc(Rc::new(RProc::Symbol(s.clone())))),
        "inspect" => Ok(RValue::str(crate::value::symbol_inspect(s))),
        "length" | "size" => Ok(RValue::Int(s.chars().count() as i64)),
        "<=>" | "<" | "<=" | ">" | ">=" | "==" | "===" => match &args.first() {
            Some(RValue::Sym(o)) => {
                let o = s.as_bytes().cmp(o.as_bytes());
                Ok(match name {
                    "<=>" => RValue::Int(o as i64),
                    "<" => RValue::Bool(o.is_lt()),
                    "<=" => RValue::Bool(o.is_le()),
                    ">" => RValue::Bool(o.is_gt()),
                    ">=" => RValue::Bool(o.is_ge()),
                    _ => RValue::Bool(o.is_eq()),
                })
            }
            _ if matches!(name, "==" | "===") => Ok(RValue::Bool(false)),
            _ if name == "<=>" => Ok(RValue::Nil),
            Some(other) => raise("ArgumentError", format!("comparison of Symbol with {} failed", other.class_name())),
            None => arity(args, 1, 1).map(|_| RValue::Nil),
        },
        "upcase" | "downcase" | "capitalize" | "swapcase" | "succ" | "next" | "empty?" | "start_with?"
        | "end_with?" | "[]" | "=~" | "match" | "match?" => {
            let as_str = RValue::str(s.to_string());
            let r = it.send(&as_str, name, args.to_vec(), block);
            match (name, r) {
                ("upcase" | "downcase" | "capitalize" | "swapcase" | "succ" | "next", Ok(RValue::Str(t))) => {
                    Ok(RValue::Sym(t.s.borrow().as_str().into()))
                }
                (_, other) => other,
            }
        }
        _ => return None,
    })
}

pub fn nil(it: &mut Interp<'_>, name: &str, args: &[RValue]) -> Found {
    let _ = it;
    Some(match name {
        "to_s" => Ok(RValue::frozen_str("")),
        "to_a" => Ok(RValue::array(vec![])),
        "to_h" => Ok(RValue::hash(vec![])),
        "to_i" => Ok(RValue::Int(0)),
        "to_f" => Ok(RValue::Float(0.0)),
        "inspect" => Ok(RValue::str("nil")),
        "&" => arity(args, 1, 1).map(|_| RValue::Bool(false)),
        "|" | "^" => arity(args, 1, 1).map(|_| RValue::Bool(args[0].truthy())),
        _ => return None,
    })
}

pub fn boolean(b: bool, name: &str, args: &[RValue]) -> Found {
    Some(match name {
        "to_s" | "inspect" => Ok(RValue::frozen_str(b.to_string())),
        "&" => arity(args, 1, 1).map(|_| RValue::Bool(b && args[0].truthy())),
        "|" => arity(args, 1, 1).map(|_| RValue::Bool(b || args[0].truthy())),
        "^" => arity(args, 1, 1).map(|_| RValue::Bool(b != args[0].truthy())),
        _ => return None,
    })
}

/// A range's start and length over `len` elements (Ruby's `rb_range_beg_len`): `None` when
/// it starts outside.
pub fn range_bounds(r: &RRange, len: i64) -> R<Option<(i64, i64)>> {
    let start = match &r.lo {
        RValue::Nil => 0,
        v => int_arg(v)?,
    };
    let end = match &r.hi {
        RValue::Nil => len,
        v => int_arg(v)?,
    };
    let start = if start < 0 { start + len } else { start };
    if start < 0 || start > len {
        return Ok(None);
    }
    let mut end = if end < 0 { end + len } else { end };
    if !r.exclusive && !r.hi.is_nil() {
        end = end.saturating_add(1);
    }
    Ok(Some((start, (end - start).max(0))))
}

pub fn range(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue], block: Option<&Block>) -> Found {
    let RValue::Range(r) = recv else { return None };
    Some(match name {
        "begin" => Ok(r.lo.clone()),
        "end" => Ok(r.hi.clone()),
        "first" if args.is_empty() => Ok(r.lo.clone()),
        "last" if args.is_empty() => Ok(r.hi.clone()),
        "last" => (|| {
            arity(args, 1, 1)?;
            let n = int_arg(&args[0])?;
            let items = enumerable::items(it, recv)?;
            let skip = items.len().saturating_sub(n.max(0) as usize);
            Ok(RValue::array(items[skip..].to_vec()))
        })(),
        "exclude_end?" => Ok(RValue::Bool(r.exclusive)),
        "include?" | "member?" if matches!((&r.lo, &r.hi, args.first()), (RValue::Str(a), RValue::Str(b), Some(RValue::Str(v))) if a.s.borrow().chars().count() == 1 && b.s.borrow().chars().count() == 1 && v.s.borrow().chars().count() != 1) =>
        {
            // single-character ends: only single characters are in the range
            Ok(RValue::Bool(false))
        }
        "include?" | "member?" if matches!((&r.lo, &r.hi), (RValue::Str(a), RValue::Str(b)) if a.s.borrow().chars().count() != 1 || b.s.borrow().chars().count() != 1) =>
        {
            // string ranges iterate (unless both ends are single characters)
            let items = match enumerable::items(it, recv) {
                Ok(i) => i,
                Err(e) => return Some(Err(e)),
            };
            return enumerable::call(it, recv, items, "include?", args, block);
        }
        "include?" | "member?" | "cover?" | "===" => arity(args, 1, 1).and_then(|_| {
            let v = &args[0];
            let lo_ok = r.lo.is_nil() || super::cmp(&r.lo, v)?.is_some_and(|o| o.is_le());
            let hi_ok =
                r.hi.is_nil() || super::cmp(v, &r.hi)?.is_some_and(|o| if r.exclusive { o.is_lt() } else { o.is_le() });
            Ok(RValue::Bool(lo_ok && hi_ok))
        }),
        "size" | "count" if args.is_empty() && block.is_none() => match (&r.lo, &r.hi) {
            (RValue::Int(a), RValue::Int(b)) => {
                let n = if r.exclusive { b - a } else { b - a + 1 };
                Ok(RValue::Int(n.max(0)))
            }
            _ if name == "size" => Ok(RValue::Nil),
            _ => {
                let items = match enumerable::items(it, recv) {
                    Ok(i) => i,
                    Err(e) => return Some(Err(e)),
                };
                Ok(RValue::Int(items.len() as i64))
            }
        },
        "to_s" | "inspect" => {
            if name == "to_s" {
                it.to_s(recv).map(RValue::str)
            } else {
                it.inspect(recv).map(RValue::str)
            }
        }
        "==" | "eql?" => arity(args, 1, 1).and_then(|_| Ok(RValue::Bool(eq(recv, &args[0])?))),
        "step" | "%" if matches!(args.first(), Some(RValue::Float(_))) || matches!(r.lo, RValue::Float(_)) => (|| {
            arity(args, 1, 1)?;
            let num = |v: &RValue| match v {
                RValue::Int(i) => Ok(*i as f64),
                RValue::Float(x) => Ok(*x),
                other => raise("TypeError", format!("no implicit conversion of {} into Float", other.class_name())),
            };
            let values = super::numeric::float_step(num(&r.lo)?, num(&r.hi)?, num(&args[0])?, r.exclusive)?;
            let values: Vec<RValue> = values.into_iter().map(RValue::Float).collect();
            match block {
                Some(b) => {
                    for x in values {
                        it.yield1(b, x)?;
                    }
                    Ok(recv.clone())
                }
                None => Ok(RValue::array(values)),
            }
        })(
        ),
        "step" | "%" => (|| {
            arity(args, 1, 1)?;
            let by = int_arg(&args[0])?;
            if by <= 0 {
                return raise("ArgumentError", if by == 0 { "step can't be 0" } else { "step can't be negative" });
            }
            let items = enumerable::items(it, recv)?;
            let picked: Vec<RValue> = items.into_iter().step_by(by as usize).collect();
            match block {
                Some(b) => {
                    for x in picked {
                        it.yield1(b, x)?;
                    }
                    Ok(recv.clone())
                }
                None => Ok(RValue::array(picked)),
            }
        })(),
        _ => {
            let items = match enumerable::items(it, recv) {
                Ok(i) => i,
                Err(e) => return Some(Err(e)),
            };
            return enumerable::call(it, recv, items, name, args, block);
        }
    })
}

pub fn regexp(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue], block: Option<&Block>) -> Found {
    let RValue::Regexp(r) = recv else { return None };
    let _ = block;
    Some(match name {
        "source" => Ok(RValue::str(r.source.clone())),
        "to_s" => Ok(RValue::str(crate::value::regexp_to_s(r))),
        "inspect" => Ok(RValue::str(crate::value::regexp_inspect(r))),
        "options" => Ok(RValue::Int(
            i64::from(r.flags.contains('i'))
                | i64::from(r.flags.contains('x')) << 1
                | i64::from(r.flags.contains('m')) << 2,
        )),
        "casefold?" => Ok(RValue::Bool(r.flags.contains('i'))),
        "=~" => arity(args, 1, 1).and_then(|_| match &args[0] {
            RValue::Nil => {
                it.last_match = RValue::Nil;
                Ok(RValue::Nil)
            }
            RValue::Sym(s) => match_index(it, r, s),
            other => {
                let s = str_arg(other)?;
                match_index(it, r, &s)
            }
        }),
        "match" | "match?" => arity(args, 1, 2).and_then(|_| {
            let s = match &args[0] {
                RValue::Nil => {
                    it.last_match = RValue::Nil;
                    return Ok(if name == "match?" { RValue::Bool(false) } else { RValue::Nil });
                }
                RValue::Sym(s) => s.to_string(),
                other => str_arg(other)?,
            };
            let start = match args.get(1) {
                Some(p) => int_arg(p)?.max(0) as usize,
                None => 0,
            };
            let m = regex_match(it, r, &s, byte_at(&s, start))?;
            if name == "match?" {
                return Ok(RValue::Bool(m.is_some()));
            }
            let v = m.map_or(RValue::Nil, |m| RValue::Match(Rc::new(m)));
            it.last_match = v.clone();
            Ok(v)
        }),
        "===" => arity(args, 1, 1).and_then(|_| match &args[0] {
            RValue::Str(s) => {
                let s = s.s.borrow().clone();
                Ok(RValue::Bool(!match_index(it, r, &s)?.is_nil()))
            }
            RValue::Sym(s) => Ok(RValue::Bool(!match_index(it, r, s)?.is_nil())),
            _ => Ok(RValue::Bool(false)),
        }),
        "==" | "eql?" => arity(args, 1, 1).and_then(|_| Ok(RValue::Bool(eq(recv, &args[0])?))),
        _ => return None,
    })
}

pub fn matchdata(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue]) -> Found {
    let RValue::Match(m) = recv else { return None };
    let group = |i: usize| m.group(i).map_or(RValue::Nil, RValue::str);
    Some(match name {
        "[]" => arity(args, 1, 2).and_then(|_| match &args[0] {
            RValue::Int(i) => {
                let n = m.groups.len() as i64;
                let i = if *i < 0 { n + i } else { *i };
                Ok(if i < 0 { RValue::Nil } else { group(i as usize) })
            }
            RValue::Str(_) | RValue::Sym(_) => {
                let key = it.to_s(&args[0])?;
                match m.names.iter().find(|(n, _)| *n == key) {
                    Some((_, i)) => Ok(group(*i)),
                    None => raise("IndexError", format!("undefined group name reference: {key}")),
                }
            }
            _ => unsupported("this form of `MatchData#[]`"),
        }),
        "to_a" => Ok(RValue::array((0..m.groups.len()).map(group).collect())),
        "captures" => Ok(RValue::array((1..m.groups.len()).map(group).collect())),
        "named_captures" => Ok(RValue::hash(m.names.iter().map(|(n, i)| (RValue::str(n.clone()), group(*i))))),
        "names" => Ok(RValue::array(m.names.iter().map(|(n, _)| RValue::str(n.clone())).collect())),
        "pre_match" => Ok(RValue::str(m.subject[..m.groups[0].map_or(0, |g| g.0)].to_string())),
        "post_match" => Ok(RValue::str(m.subject[m.groups[0].map_or(0, |g| g.1)..].to_string())),
        "to_s" => Ok(group(0)),
        "string" => Ok(RValue::frozen_str(m.subject.to_string())),
        "regexp" => Ok(RValue::Regexp(m.regexp.clone())),
        "size" | "length" => Ok(RValue::Int(m.groups.len() as i64)),
        "begin" | "end" | "offset" => arity(args, 1, 1).and_then(|_| {
            let i = int_arg(&args[0])? as usize;
            let Some(g) = m.groups.get(i) else { return raise("IndexError", format!("index {i} out of matches")) };
            Ok(match g {
                Some((s, e)) => {
                    let (s, e) = (char_at(&m.subject, *s) as i64, char_at(&m.subject, *e) as i64);
                    match name {
                        "begin" => RValue::Int(s),
                        "end" => RValue::Int(e),
                        _ => RValue::array(vec![RValue::Int(s), RValue::Int(e)]),
                    }
                }
                None => RValue::Nil,
            })
        }),
        "values_at" => Ok(RValue::array(
            args.iter().map(|a| if let RValue::Int(i) = a { group(*i as usize) } else { RValue::Nil }).collect(),
        )),
        "inspect" => it.inspect(recv).map(RValue::str),
        _ => return None,
    })
}

pub fn exception(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue]) -> Found {
    let RValue::Exception(e) = recv else { return None };
    let _ = (it, args);
    Some(match name {
        "message" | "to_s" => Ok(RValue::str(e.message.clone())),
        "name" if matches!(e.class, "NameError" | "NoMethodError") => {
            // the name in Ruby's message: "undefined method `NAME' for ..."
            let name = e.message.split('`').nth(1).and_then(|rest| rest.split('\'').next()).unwrap_or_default();
            Ok(RValue::Sym(name.into()))
        }
        "full_message" | "backtrace" | "backtrace_locations" | "cause" => unsupported(format!("`Exception#{name}`")),
        _ => return None,
    })
}

pub fn proc(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue]) -> Found {
    let RValue::Proc(p) = recv else { return None };
    Some(match name {
        "call" | "()" | "yield" | "[]" | "===" => {
            let block = match &**p {
                RProc::Block(def, env) => Block::Def(def.clone(), env.clone()),
                RProc::Symbol(s) => Block::Sym(s.clone()),
            };
            it.call_block(&block, args.to_vec())
        }
        "lambda?" => Ok(RValue::Bool(matches!(&**p, RProc::Block(def, _) if def.lambda))),
        "arity" => Ok(RValue::Int(match &**p {
            RProc::Block(def, _) => def.params.len() as i64,
            RProc::Symbol(_) => -2,
        })),
        "to_proc" => Ok(recv.clone()),
        _ => return None,
    })
}

/// Methods of classes: `===` (what `case`/`when String` asks), and the class methods
/// templates call.
pub fn class(it: &mut Interp<'_>, class: &str, name: &str, args: &[RValue], block: Option<&Block>) -> Found {
    let _ = block;
    if let (Some(exc), "new" | "exception") = (crate::value::exception_ancestors(class).first().copied(), name) {
        return Some(arity(args, 0, 1).and_then(|_| {
            let message = match args.first() {
                Some(m) => it.to_s(m)?,
                None => exc.to_string(),
            };
            Ok(RValue::Exception(Rc::new(crate::value::RException { class: exc, message })))
        }));
    }
    Some(match (class, name) {
        (_, "===") => arity(args, 1, 1).map(|_| RValue::Bool(args[0].ancestors().iter().any(|a| a == class))),
        (_, "name" | "to_s" | "inspect") => Ok(RValue::str(class.to_string())),
        (_, "==") => Ok(RValue::Bool(matches!(args.first(), Some(RValue::Class(c)) if &**c == class))),
        ("Regexp", "escape" | "quote") => arity(args, 1, 1).and_then(|_| {
            let s = match &args[0] {
                RValue::Sym(s) => s.to_string(),
                other => str_arg(other)?,
            };
            Ok(RValue::str(poppet_ruby::regexp::escape(&s)))
        }),
        ("Regexp", "new" | "compile") => arity(args, 1, 2).and_then(|_| {
            let (source, flags) = match &args[0] {
                RValue::Regexp(r) => (r.source.clone(), r.flags.clone()),
                other => {
                    let src = str_arg(other)?;
                    let flags = match args.get(1) {
                        None | Some(RValue::Nil) | Some(RValue::Bool(false)) => String::new(),
                        Some(RValue::Int(o)) => {
                            let mut f = String::new();
                            if o & 1 != 0 {
                                f.push('i');
                            }
                            if o & 2 != 0 {
                                f.push('x');
                            }
                            if o & 4 != 0 {
                                f.push('m');
                            }
                            f
                        }
                        Some(_) => "i".into(),
                    };
                    (src, flags)
                }
            };
            RRegexp::new(source, &flags).map(|r| RValue::Regexp(Rc::new(r))).or_else(|m| raise("RegexpError", m))
        }),
        ("Regexp", "union") => (|| {
            let parts: Vec<RValue> = match args {
                [RValue::Array(a)] => a.v.borrow().clone(),
                _ => args.to_vec(),
            };
            let mut sources = Vec::new();
            for p in parts {
                sources.push(match &p {
                    RValue::Regexp(r) => crate::value::regexp_to_s(r),
                    other => poppet_ruby::regexp::escape(&str_arg(other)?),
                });
            }
            let src = if sources.is_empty() { "(?!)".to_string() } else { sources.join("|") };
            RRegexp::new(src, "").map(|r| RValue::Regexp(Rc::new(r))).or_else(|m| raise("RegexpError", m))
        })(),
        ("Array", "new") => arity(args, 0, 2).and_then(|_| {
            let n = match args.first() {
                Some(n) => int_arg(n)?,
                None => 0,
            };
            if n < 0 {
                return raise("ArgumentError", "negative array size");
            }
            if n > 1 << 20 {
                return unsupported("arrays this large");
            }
            let fill = args.get(1).cloned().unwrap_or(RValue::Nil);
            match block {
                Some(b) => {
                    let mut v = Vec::new();
                    for i in 0..n {
                        v.push(it.yield1(b, RValue::Int(i))?);
                    }
                    Ok(RValue::array(v))
                }
                None => Ok(RValue::array(vec![fill; n as usize])),
            }
        }),
        ("Hash", "new") => {
            let h = RValue::hash(vec![]);
            if let (RValue::Hash(inner), Some(b)) = (&h, block) {
                *inner.default_proc.borrow_mut() = Some(b.clone());
                return Some(Ok(h));
            }
            if let (RValue::Hash(inner), Some(d)) = (&h, args.first()) {
                *inner.default.borrow_mut() = Some(d.clone());
            }
            Ok(h)
        }
        ("String", "new") => Ok(RValue::str(args.first().and_then(RValue::as_string).unwrap_or_default())),
        ("File", "basename" | "dirname" | "extname" | "join") => file(name, args),
        ("Math", "hypot") => arity(args, 2, 2).map(|_| {
            let f = |v: &RValue| match v {
                RValue::Int(i) => *i as f64,
                RValue::Float(f) => *f,
                _ => f64::NAN,
            };
            RValue::Float(f(&args[0]).hypot(f(&args[1])))
        }),
        ("Regexp", "last_match") => arity(args, 0, 1).and_then(|_| match (args.first(), &it.last_match) {
            (None, m) => Ok(m.clone()),
            (Some(_), RValue::Nil) => Ok(RValue::Nil),
            (Some(i), m) => it.send(&m.clone(), "[]", vec![i.clone()], None),
        }),
        ("Hash", "[]") => match args {
            [RValue::Hash(h)] => Ok(RValue::hash(h.map.borrow().values().cloned().collect::<Vec<_>>())),
            [RValue::Array(a)] => {
                let rows = a.v.borrow().clone();
                let mut pairs = Vec::new();
                for row in rows {
                    match row.as_vec() {
                        Some(p) if p.len() == 1 || p.len() == 2 => {
                            pairs.push((p[0].clone(), p.get(1).cloned().unwrap_or(RValue::Nil)))
                        }
                        Some(p) => {
                            return Some(raise(
                                "ArgumentError",
                                format!("invalid number of elements ({} for 1..2)", p.len()),
                            ))
                        }
                        None => return Some(raise("ArgumentError", "wrong element type (expected array)")),
                    }
                }
                Ok(RValue::hash(pairs))
            }
            _ if args.len().is_multiple_of(2) => Ok(RValue::hash(args.chunks(2).map(|c| (c[0].clone(), c[1].clone())))),
            _ => raise("ArgumentError", "odd number of arguments for Hash"),
        },
        (_, "superclass") => Ok(match class {
            "Integer" | "Float" => RValue::Class("Numeric".into()),
            "Object" => RValue::Class("BasicObject".into()),
            "BasicObject" => RValue::Nil,
            c => match crate::value::EXCEPTIONS.iter().find(|(n, _)| *n == c) {
                Some((_, parent)) => RValue::Class((*parent).into()),
                None => RValue::Class("Object".into()),
            },
        }),
        (_, "ancestors") => {
            let mut list: Vec<&str> = match class {
                "Integer" | "Float" => vec![class, "Numeric", "Comparable"],
                "String" | "Symbol" => vec![class, "Comparable"],
                "Array" | "Hash" | "Range" => vec![class, "Enumerable"],
                c => {
                    let mut l = crate::value::exception_ancestors(c);
                    if l.is_empty() {
                        l.push(class);
                    }
                    l
                }
            };
            list.extend(["Object", "Kernel", "BasicObject"]);
            Ok(RValue::array(list.into_iter().map(|c| RValue::Class(c.into())).collect()))
        }
        ("Math", "sqrt" | "log" | "log2" | "log10" | "exp" | "sin" | "cos" | "floor") => {
            arity(args, 1, 2).and_then(|_| {
                let x = match &args[0] {
                    RValue::Int(i) => *i as f64,
                    RValue::Float(f) => *f,
                    other => return raise("TypeError", format!("can't convert {} into Float", other.class_name())),
                };
                if matches!(name, "sqrt" | "log" | "log2" | "log10") && x < 0.0 {
                    return raise("Math::DomainError", format!("Numerical argument is out of domain - {name}"));
                }
                if name == "log" {
                    if let Some(base) = args.get(1) {
                        let b = match base {
                            RValue::Int(i) => *i as f64,
                            RValue::Float(f) => *f,
                            other => {
                                return raise("TypeError", format!("can't convert {} into Float", other.class_name()))
                            }
                        };
                        return Ok(RValue::Float(x.ln() / b.ln()));
                    }
                }
                Ok(RValue::Float(match name {
                    "sqrt" => x.sqrt(),
                    "log" => x.ln(),
                    "log2" => x.log2(),
                    "log10" => x.log10(),
                    "exp" => x.exp(),
                    "sin" => x.sin(),
                    _ => x.cos(),
                }))
            })
        }
        ("Integer", "sqrt") => arity(args, 1, 1).and_then(|_| {
            let n = int_arg(&args[0])?;
            if n < 0 {
                return raise("Math::DomainError", "Numerical argument is out of domain - \"isqrt\"");
            }
            let mut r = (n as f64).sqrt() as i64;
            while r * r > n {
                r -= 1;
            }
            while (r + 1) * (r + 1) <= n {
                r += 1;
            }
            Ok(RValue::Int(r))
        }),
        _ => return None,
    })
}

/// `File.basename`, `File.dirname`, `File.extname`, `File.join` (Ruby's, on Unix paths).
fn file(name: &str, args: &[RValue]) -> R<RValue> {
    let strs: Vec<String> = args.iter().map(str_arg).collect::<R<_>>()?;
    Ok(RValue::str(match name {
        "join" => {
            let mut out = String::new();
            for (i, part) in strs.iter().enumerate() {
                if i == 0 {
                    out.push_str(part);
                    continue;
                }
                match (out.ends_with('/'), part.starts_with('/')) {
                    (true, true) => out.push_str(&part[1..]),
                    (false, false) => {
                        out.push('/');
                        out.push_str(part);
                    }
                    _ => out.push_str(part),
                }
            }
            out
        }
        _ => {
            arity(args, 1, 2)?;
            let path = &strs[0];
            let trimmed = path.trim_end_matches('/');
            if trimmed.is_empty() {
                return Ok(RValue::str(if path.is_empty() {
                    if name == "dirname" {
                        "."
                    } else {
                        ""
                    }
                } else {
                    "/"
                }));
            }
            let (dir, base) = match trimmed.rfind('/') {
                Some(i) => (&trimmed[..i], &trimmed[i + 1..]),
                None => (".", trimmed),
            };
            match name {
                "dirname" => {
                    let d = dir.trim_end_matches('/');
                    if d.is_empty() && trimmed.starts_with('/') {
                        "/".into()
                    } else if d.is_empty() {
                        ".".into()
                    } else {
                        d.into()
                    }
                }
                "extname" => match base.rfind('.') {
                    Some(i) if i > 0 && i + 1 < base.len() => base[i..].into(),
                    _ => String::new(),
                },
                _ => match strs.get(1) {
                    Some(suffix) if suffix == ".*" => match base.rfind('.') {
                        Some(i) if i > 0 => base[..i].into(),
                        _ => base.into(),
                    },
                    Some(suffix) if base.ends_with(suffix.as_str()) && base != suffix => {
                        base[..base.len() - suffix.len()].into()
                    }
                    _ => base.into(),
                },
            }
        }
    }))
}
