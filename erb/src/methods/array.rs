//! Array's methods (Enumerable's come from [`super::enumerable`]).

use super::{arity, check_mutable, cmp, enumerable, eq, int_arg, str_arg, Found};
use crate::interp::{raise, unsupported, Block, Interp, MAX_LEN, R};
use crate::value::RValue;

fn elems(recv: &RValue) -> Vec<RValue> {
    recv.as_vec().unwrap_or_default()
}

fn set(recv: &RValue, v: Vec<RValue>) {
    if let RValue::Array(a) = recv {
        *a.v.borrow_mut() = v;
    }
}

/// An index counted from the end when negative; `None` when before the start.
fn norm(i: i64, len: usize) -> Option<usize> {
    let i = if i < 0 { len as i64 + i } else { i };
    (i >= 0).then_some(i as usize)
}

pub fn call(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue], block: Option<&Block>) -> Found {
    let items = elems(recv);
    let len = items.len();
    Some(match name {
        "length" | "size" => arity(args, 0, 0).map(|_| RValue::Int(len as i64)),
        "empty?" => arity(args, 0, 0).map(|_| RValue::Bool(len == 0)),
        "any?" if args.is_empty() && block.is_none() => Ok(RValue::Bool(items.iter().any(RValue::truthy))),
        "join" => arity(args, 0, 1).and_then(|_| {
            let sep = match args.first() {
                None | Some(RValue::Nil) => String::new(),
                Some(s) => str_arg(s)?,
            };
            let mut out = String::new();
            join(it, recv, &sep, &mut out, &mut Vec::new())?;
            Ok(RValue::str(out))
        }),
        "to_a" | "to_ary" | "entries" => Ok(recv.clone()),
        "to_s" | "inspect" => it.inspect(recv).map(RValue::str),
        "first" if args.is_empty() => Ok(items.first().cloned().unwrap_or(RValue::Nil)),
        "first" => arity(args, 0, 1).and_then(|_| {
            let n = int_arg(&args[0])?;
            if n < 0 {
                return raise("ArgumentError", "negative array size");
            }
            Ok(RValue::array(items.into_iter().take(n as usize).collect()))
        }),
        "intersect?" => arity(args, 1, 1).and_then(|_| {
            let other = match &args[0] {
                RValue::Array(o) => o.v.borrow().iter().map(RValue::key).collect::<std::collections::HashSet<_>>(),
                o => {
                    return raise(
                        "TypeError",
                        format!("no implicit conversion of {} into Array", super::conversion_name(o)),
                    )
                }
            };
            Ok(RValue::Bool(items.iter().any(|x| other.contains(&x.key()))))
        }),
        "grep" | "grep_v" => (|| {
            arity(args, 1, 1)?;
            let mut out = Vec::new();
            for x in items {
                let hit = it.send(&args[0], "===", vec![x.clone()], None)?.truthy();
                if hit == (name == "grep") {
                    out.push(match block {
                        Some(b) => it.yield1(b, x)?,
                        None => x,
                    });
                }
            }
            Ok(RValue::array(out))
        })(),
        "last" => arity(args, 0, 1).and_then(|_| match args.first() {
            None => Ok(items.last().cloned().unwrap_or(RValue::Nil)),
            Some(n) => {
                let n = int_arg(n)?;
                if n < 0 {
                    return raise("ArgumentError", "negative array size");
                }
                Ok(RValue::array(items[len.saturating_sub(n as usize)..].to_vec()))
            }
        }),
        "at" => arity(args, 1, 1)
            .and_then(|_| Ok(norm(int_arg(&args[0])?, len).and_then(|i| items.get(i).cloned()).unwrap_or(RValue::Nil))),
        "fetch" => arity(args, 1, 2).and_then(|_| {
            let i = int_arg(&args[0])?;
            match norm(i, len).and_then(|k| items.get(k).cloned()) {
                Some(v) => Ok(v),
                None => match (args.get(1), block) {
                    (_, Some(b)) => it.yield1(b, args[0].clone()),
                    (Some(d), None) => Ok(d.clone()),
                    (None, None) => {
                        raise("IndexError", format!("index {i} outside of array bounds: {}...{len}", -(len as i64)))
                    }
                },
            }
        }),
        "[]" | "slice" => arity(args, 1, 2).and_then(|_| index(&items, args)),
        "[]=" => (|| {
            check_mutable(it, recv)?;
            arity(args, 2, 3)?;
            let mut v = items.clone();
            match args {
                [RValue::Int(i), value] => {
                    let Some(k) = norm(*i, len) else {
                        return raise("IndexError", format!("index {i} too small for array; minimum: -{len}"));
                    };
                    if k >= MAX_LEN {
                        return unsupported("arrays of more than 2^26 elements");
                    }
                    if k >= v.len() {
                        v.resize(k + 1, RValue::Nil);
                    }
                    v[k] = value.clone();
                }
                [RValue::Int(start), RValue::Int(count), value] => {
                    let Some(k) = norm(*start, len) else {
                        return raise("IndexError", format!("index {start} too small for array; minimum: -{len}"));
                    };
                    if *count < 0 {
                        return raise("IndexError", format!("negative length ({count})"));
                    }
                    if k > v.len() {
                        v.resize(k, RValue::Nil);
                    }
                    let end = k.saturating_add(*count as usize).min(v.len());
                    let with = value.as_vec().unwrap_or_else(|| vec![value.clone()]);
                    v.splice(k..end, with);
                }
                _ => return unsupported("this form of `Array#[]=`"),
            }
            set(recv, v);
            Ok(args[args.len() - 1].clone())
        })(),
        "dig" => (|| {
            arity(args, 1, usize::MAX)?;
            let first = index(&items, &args[..1])?;
            if args.len() == 1 || first.is_nil() {
                return Ok(first);
            }
            dig_into(it, &first, &args[1..])
        })(),
        "values_at" => (|| {
            let mut out = Vec::new();
            for a in args {
                match a {
                    RValue::Range(r) => {
                        if let Some((s, c)) = super::misc::range_bounds(r, len as i64)? {
                            for k in s..s.saturating_add(c.max(0)) {
                                out.push(items.get(k as usize).cloned().unwrap_or(RValue::Nil));
                            }
                            // a range past the end pads with nil up to its end
                            if let RValue::Int(hi) = r.hi {
                                let end = if r.exclusive { hi } else { hi.saturating_add(1) };
                                if end.saturating_sub(s) > MAX_LEN as i64 {
                                    return unsupported("arrays of more than 2^26 elements");
                                }
                                for _ in s.saturating_add(c.max(0))..end {
                                    out.push(RValue::Nil);
                                }
                            }
                        }
                    }
                    other => out.push(index(&items, std::slice::from_ref(other))?),
                }
            }
            Ok(RValue::array(out))
        })(),
        "push" | "append" | "<<" | "unshift" | "prepend" | "concat" | "insert" => (|| {
            check_mutable(it, recv)?;
            if name == "<<" {
                arity(args, 1, 1)?;
            }
            let mut v = items.clone();
            match name {
                "unshift" | "prepend" => {
                    let mut front = args.to_vec();
                    front.extend(v);
                    v = front;
                }
                "concat" => {
                    for a in args {
                        if v.len() > MAX_LEN {
                            return unsupported("arrays of more than 2^26 elements");
                        }
                        match a {
                            RValue::Array(other) => v.extend(other.v.borrow().iter().cloned()),
                            other => {
                                return raise(
                                    "TypeError",
                                    format!("no implicit conversion of {} into Array", super::conversion_name(other)),
                                )
                            }
                        }
                    }
                }
                "insert" => {
                    arity(args, 1, usize::MAX)?;
                    let i = int_arg(&args[0])?;
                    let k = if i < 0 { len as i64 + i + 1 } else { i };
                    if k < 0 {
                        return raise("IndexError", format!("index {i} too small for array; minimum: -{}", len + 1));
                    }
                    let k = k as usize;
                    if k > MAX_LEN {
                        return unsupported("arrays of more than 2^26 elements");
                    }
                    if k > v.len() {
                        v.resize(k, RValue::Nil);
                    }
                    v.splice(k..k, args[1..].iter().cloned());
                }
                _ => v.extend(args.iter().cloned()),
            }
            if v.len() > MAX_LEN {
                return unsupported("arrays of more than 2^26 elements");
            }
            set(recv, v);
            Ok(recv.clone())
        })(),
        "pop" | "shift" => (|| {
            check_mutable(it, recv)?;
            arity(args, 0, 1)?;
            let mut v = items.clone();
            let out = match args.first() {
                None => {
                    let x = if name == "pop" {
                        v.pop()
                    } else if v.is_empty() {
                        None
                    } else {
                        Some(v.remove(0))
                    };
                    x.unwrap_or(RValue::Nil)
                }
                Some(n) => {
                    let n = (int_arg(n)?.max(0) as usize).min(v.len());
                    let taken: Vec<RValue> =
                        if name == "pop" { v.split_off(v.len() - n) } else { v.drain(..n).collect() };
                    RValue::array(taken)
                }
            };
            set(recv, v);
            Ok(out)
        })(),
        "clear" | "replace" => (|| {
            check_mutable(it, recv)?;
            let v = match (name, args) {
                ("replace", [RValue::Array(o)]) => o.v.borrow().clone(),
                ("replace", _) => return raise("TypeError", "no implicit conversion into Array"),
                _ => Vec::new(),
            };
            set(recv, v);
            Ok(recv.clone())
        })(),
        "delete" => (|| {
            check_mutable(it, recv)?;
            arity(args, 1, 1)?;
            let mut kept = Vec::new();
            let mut found = None;
            for x in items {
                if eq(&x, &args[0])? {
                    found = Some(x);
                } else {
                    kept.push(x);
                }
            }
            set(recv, kept);
            Ok(found.unwrap_or(RValue::Nil))
        })(),
        "delete_at" => (|| {
            check_mutable(it, recv)?;
            arity(args, 1, 1)?;
            let mut v = items.clone();
            let out = match norm(int_arg(&args[0])?, len) {
                Some(k) if k < len => v.remove(k),
                _ => RValue::Nil,
            };
            set(recv, v);
            Ok(out)
        })(),
        "delete_if" | "reject!" | "select!" | "keep_if" | "filter!" | "map!" | "collect!" => (|| {
            check_mutable(it, recv)?;
            let Some(b) = block else { return unsupported(format!("`{name}` without a block")) };
            let mut out = Vec::new();
            let mut changed = false;
            for x in items {
                let v = it.yield1(b, x.clone())?;
                match name {
                    "map!" | "collect!" => out.push(v),
                    "delete_if" | "reject!" => {
                        if v.truthy() {
                            changed = true;
                        } else {
                            out.push(x);
                        }
                    }
                    _ => {
                        if v.truthy() {
                            out.push(x);
                        } else {
                            changed = true;
                        }
                    }
                }
            }
            set(recv, out);
            Ok(if !changed && matches!(name, "reject!" | "select!" | "filter!") { RValue::Nil } else { recv.clone() })
        })(),
        "sort!" | "sort_by!" | "uniq!" | "compact!" | "flatten!" | "reverse!" | "shuffle!" => (|| {
            check_mutable(it, recv)?;
            let base = &name[..name.len() - 1];
            let new = it.send(&RValue::array(items.clone()), base, args.to_vec(), block)?;
            let new = new.as_vec().unwrap_or_default();
            let changed = new.len() != items.len() || !seq_eq(&new, &items)?;
            set(recv, new);
            Ok(if !changed && matches!(name, "uniq!" | "compact!" | "flatten!") { RValue::Nil } else { recv.clone() })
        })(),
        "+" => arity(args, 1, 1).and_then(|_| match &args[0] {
            RValue::Array(o) if len + o.v.borrow().len() > MAX_LEN => unsupported("arrays of more than 2^26 elements"),
            RValue::Array(o) => {
                let mut v = items.clone();
                v.extend(o.v.borrow().iter().cloned());
                Ok(RValue::array(v))
            }
            other => {
                raise("TypeError", format!("no implicit conversion of {} into Array", super::conversion_name(other)))
            }
        }),
        "-" | "difference" | "&" | "intersection" | "|" | "union" => (|| {
            let mut sets = Vec::new();
            for a in args {
                match a {
                    RValue::Array(o) => sets.push(o.v.borrow().clone()),
                    other => {
                        return raise(
                            "TypeError",
                            format!("no implicit conversion of {} into Array", super::conversion_name(other)),
                        )
                    }
                }
            }
            let keys = |v: &[RValue]| v.iter().map(RValue::key).collect::<std::collections::HashSet<_>>();
            let out: Vec<RValue> = match name {
                "-" | "difference" => {
                    let drop: std::collections::HashSet<_> = sets.iter().flat_map(|s| keys(s)).collect();
                    items.into_iter().filter(|x| !drop.contains(&x.key())).collect()
                }
                "&" | "intersection" => {
                    let mut seen = std::collections::HashSet::new();
                    items
                        .into_iter()
                        .filter(|x| sets.iter().all(|s| keys(s).contains(&x.key())) && seen.insert(x.key()))
                        .collect()
                }
                _ => {
                    let mut seen = std::collections::HashSet::new();
                    items.into_iter().chain(sets.into_iter().flatten()).filter(|x| seen.insert(x.key())).collect()
                }
            };
            Ok(RValue::array(out))
        })(),
        "*" => arity(args, 1, 1).and_then(|_| match &args[0] {
            RValue::Str(_) => it.send(recv, "join", args.to_vec(), None),
            n => {
                let n = int_arg(n)?;
                if n < 0 {
                    return raise("ArgumentError", "negative argument");
                }
                if (n as u128) * (len as u128) > MAX_LEN as u128 {
                    return raise("ArgumentError", "argument too big");
                }
                Ok(RValue::array(items.iter().cloned().cycle().take(len * n as usize).collect()))
            }
        }),
        "reverse" => Ok(RValue::array(items.into_iter().rev().collect())),
        "rotate" => arity(args, 0, 1).and_then(|_| {
            let n = match args.first() {
                Some(n) => int_arg(n)?,
                None => 1,
            };
            let mut v = items;
            if !v.is_empty() {
                let k = n.rem_euclid(v.len() as i64) as usize;
                v.rotate_left(k);
            }
            Ok(RValue::array(v))
        }),
        "compact" => Ok(RValue::array(items.into_iter().filter(|x| !x.is_nil()).collect())),
        "flatten" => arity(args, 0, 1).and_then(|_| {
            let depth = match args.first() {
                Some(RValue::Nil) | None => -1,
                Some(d) => int_arg(d)?,
            };
            let mut out = Vec::new();
            flatten(recv, depth, &mut out, &mut Vec::new())?;
            if out.len() > MAX_LEN {
                return unsupported("arrays of more than 2^26 elements");
            }
            Ok(RValue::array(out))
        }),
        "index" | "rindex" => (|| {
            arity(args, 0, 1)?;
            let order: Vec<usize> = if name == "index" { (0..len).collect() } else { (0..len).rev().collect() };
            for i in order {
                let hit = match (args.first(), block) {
                    (Some(v), _) => eq(&items[i], v)?,
                    (None, Some(b)) => it.yield1(b, items[i].clone())?.truthy(),
                    (None, None) => return unsupported(format!("`{name}` without a block (enumerators)")),
                };
                if hit {
                    return Ok(RValue::Int(i as i64));
                }
            }
            Ok(RValue::Nil)
        })(),
        "assoc" | "rassoc" => arity(args, 1, 1).and_then(|_| {
            let k = usize::from(name == "rassoc");
            for x in &items {
                if let Some(pair) = x.as_vec() {
                    if let Some(first) = pair.get(k) {
                        if eq(first, &args[0])? {
                            return Ok(x.clone());
                        }
                    }
                }
            }
            Ok(RValue::Nil)
        }),
        "transpose" => (|| {
            let rows: Vec<Vec<RValue>> = items.iter().map(|r| r.as_vec().unwrap_or_default()).collect();
            let width = rows.first().map_or(0, Vec::len);
            if rows.iter().any(|r| r.len() != width) {
                return raise(
                    "IndexError",
                    format!(
                        "element size differs ({} should be {width})",
                        rows.iter().map(Vec::len).find(|l| *l != width).unwrap_or(0)
                    ),
                );
            }
            Ok(RValue::array((0..width).map(|c| RValue::array(rows.iter().map(|r| r[c].clone()).collect())).collect()))
        })(),
        "product" => (|| {
            let mut out: Vec<Vec<RValue>> = items.into_iter().map(|x| vec![x]).collect();
            for a in args {
                let other = a.as_vec().unwrap_or_default();
                if out.len().saturating_mul(other.len()) > MAX_LEN / 16 {
                    return unsupported("products this large");
                }
                out = out
                    .into_iter()
                    .flat_map(|row| {
                        other.iter().map(move |o| {
                            let mut r = row.clone();
                            r.push(o.clone());
                            r
                        })
                    })
                    .collect();
            }
            Ok(RValue::array(out.into_iter().map(RValue::array).collect()))
        })(),
        "fill" => (|| {
            check_mutable(it, recv)?;
            match (args, block) {
                ([v], None) => {
                    set(recv, vec![v.clone(); len]);
                    Ok(recv.clone())
                }
                _ => unsupported("this form of `Array#fill`"),
            }
        })(),
        "==" => arity(args, 1, 1).and_then(|_| Ok(RValue::Bool(eq(recv, &args[0])?))),
        "eql?" => arity(args, 1, 1).map(|_| RValue::Bool(recv.key() == args[0].key())),
        "<=>" => arity(args, 1, 1).and_then(|_| {
            Ok(match cmp(recv, &args[0])? {
                Some(o) => RValue::Int(o as i64),
                None => RValue::Nil,
            })
        }),
        "sample" | "shuffle" => unsupported(format!("`Array#{name}` (random)")),
        "pack" | "combination" | "permutation" | "repeated_combination" | "bsearch" => {
            unsupported(format!("`Array#{name}`"))
        }
        _ => return enumerable::call(it, recv, items, name, args, block),
    })
}

fn seq_eq(a: &[RValue], b: &[RValue]) -> R<bool> {
    for (x, y) in a.iter().zip(b) {
        if !eq(x, y)? {
            return Ok(false);
        }
    }
    Ok(a.len() == b.len())
}

/// `array[i]`, `array[start, len]`, `array[range]`.
fn index(items: &[RValue], args: &[RValue]) -> R<RValue> {
    let len = items.len();
    let piece = |start: i64, count: i64| -> RValue {
        match norm(start, len) {
            Some(s) if s <= len && count >= 0 => {
                RValue::array(items[s..s.saturating_add(count as usize).min(len)].to_vec())
            }
            _ => RValue::Nil,
        }
    };
    Ok(match args {
        [RValue::Int(i)] => norm(*i, len).and_then(|k| items.get(k).cloned()).unwrap_or(RValue::Nil),
        [RValue::Float(f)] => norm(f.trunc() as i64, len).and_then(|k| items.get(k).cloned()).unwrap_or(RValue::Nil),
        [RValue::Int(s), RValue::Int(c)] => piece(*s, *c),
        [RValue::Range(r)] => match super::misc::range_bounds(r, len as i64)? {
            Some((s, c)) => piece(s, c),
            None => RValue::Nil,
        },
        [other, ..] => {
            return raise(
                "TypeError",
                format!("no implicit conversion of {} into Integer", super::conversion_name(other)),
            )
        }
        [] => RValue::Nil,
    })
}

/// `join`: strings as they are, arrays joined recursively, everything else by `to_s`.
fn join(it: &mut Interp<'_>, arr: &RValue, sep: &str, out: &mut String, seen: &mut Vec<usize>) -> R<()> {
    let id = arr.identity();
    if seen.contains(&id) {
        return raise("ArgumentError", "recursive array join");
    }
    seen.push(id);
    for (i, x) in elems(arr).iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        match x {
            RValue::Array(_) => join(it, x, sep, out, seen)?,
            other => out.push_str(&it.to_s(other)?),
        }
        if out.len() > MAX_LEN {
            return unsupported("strings of more than 64 MiB");
        }
    }
    seen.pop();
    Ok(())
}

fn flatten(arr: &RValue, depth: i64, out: &mut Vec<RValue>, seen: &mut Vec<usize>) -> R<()> {
    let id = arr.identity();
    if seen.contains(&id) {
        return raise("ArgumentError", "tried to flatten recursive array");
    }
    seen.push(id);
    for x in elems(arr) {
        match &x {
            RValue::Array(_) if depth != 0 => flatten(&x, depth - 1, out, seen)?,
            _ => out.push(x),
        }
    }
    seen.pop();
    Ok(())
}

/// `dig` on into `v`: Ruby's `TypeError` when it cannot be dug into.
pub fn dig_into(it: &mut Interp<'_>, v: &RValue, rest: &[RValue]) -> R<RValue> {
    match v {
        RValue::Array(_) | RValue::Hash(_) => it.send(v, "dig", rest.to_vec(), None),
        other => raise("TypeError", format!("{} does not have #dig method", other.class_name())),
    }
}
