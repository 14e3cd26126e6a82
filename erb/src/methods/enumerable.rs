//! Enumerable's methods, over the elements an iteration sees: an array's elements, a
//! hash's `[key, value]` pairs, a range's members. Arrays, hashes and ranges send the
//! methods they do not define themselves here.

use std::cmp::Ordering;

use super::{arity, block_order, cmp_strict, eq, int_arg, Found};
use crate::interp::{raise, unsupported, Block, Ctrl, Interp, MAX_LEN, R};
use crate::value::{RRange, RValue};

/// The most members a range may expand to.
const MAX_RANGE: i64 = 1_000_000;

/// The elements an iteration over `v` sees.
pub fn items(it: &mut Interp<'_>, v: &RValue) -> R<Vec<RValue>> {
    match v {
        RValue::Array(a) => Ok(a.v.borrow().clone()),
        RValue::Hash(h) => {
            Ok(h.map.borrow().values().map(|(k, v)| RValue::array(vec![k.clone(), v.clone()])).collect())
        }
        RValue::Range(r) => range_items(it, r),
        RValue::Enum(e) => super::enumerator::items(it, e),
        RValue::Nil => raise("NoMethodError", "undefined method `each' for nil:NilClass"),
        other => raise("NoMethodError", format!("undefined method `each' for {}", other.class_name())),
    }
}

fn range_items(it: &mut Interp<'_>, r: &RRange) -> R<Vec<RValue>> {
    match (&r.lo, &r.hi) {
        (RValue::Int(lo), RValue::Int(hi)) => {
            let hi = if r.exclusive { hi.saturating_sub(1) } else { *hi };
            if hi.saturating_sub(*lo) > MAX_RANGE {
                return unsupported(format!("iterating over a range of more than {MAX_RANGE} members"));
            }
            Ok((*lo..=hi).map(RValue::Int).collect())
        }
        (RValue::Int(lo), RValue::Float(hi)) => {
            let mut out = Vec::new();
            let mut i = *lo;
            while (i as f64) < *hi || !r.exclusive && (i as f64) == *hi {
                if out.len() as i64 > MAX_RANGE {
                    return unsupported(format!("iterating over a range of more than {MAX_RANGE} members"));
                }
                out.push(RValue::Int(i));
                i += 1;
            }
            Ok(out)
        }
        (RValue::Str(lo), RValue::Str(hi)) => {
            let (lo, hi) = (lo.s.borrow().clone(), hi.s.borrow().clone());
            let mut out = Vec::new();
            if lo.len() > hi.len() {
                return Ok(out);
            }
            let mut cur = lo;
            loop {
                it.step()?;
                if cur == hi {
                    if !r.exclusive {
                        out.push(RValue::str(cur));
                    }
                    break;
                }
                if cur.len() > hi.len() || out.len() as i64 > MAX_RANGE {
                    break;
                }
                out.push(RValue::str(cur.clone()));
                cur = super::string::succ(&cur);
            }
            Ok(out)
        }
        (RValue::Float(_), _) => raise("TypeError", "can't iterate from Float"),
        (_, RValue::Nil) => unsupported("iterating over an endless range"),
        (lo, _) => raise("TypeError", format!("can't iterate from {}", lo.class_name())),
    }
}

fn need(block: Option<&Block>, name: &str) -> R<Block> {
    match block {
        Some(b) => Ok(b.clone()),
        None => unsupported(format!("`{name}` without a block (enumerators)")),
    }
}

/// Enumerable's methods over `items` (`recv` is what `each` returns).
pub fn call(
    it: &mut Interp<'_>,
    recv: &RValue,
    items: Vec<RValue>,
    name: &str,
    args: &[RValue],
    block: Option<&Block>,
) -> Found {
    Some(match name {
        "each" | "each_entry" => (|| {
            arity(args, 0, 0)?;
            let b = need(block, name)?;
            for x in items {
                it.yield1(&b, x)?;
            }
            Ok(recv.clone())
        })(),
        "map" | "collect" | "flat_map" | "collect_concat" => (|| {
            arity(args, 0, 0)?;
            let b = need(block, name)?;
            let mut out = Vec::with_capacity(items.len());
            for x in items {
                let v = it.yield1(&b, x)?;
                match (&v, name) {
                    (RValue::Array(a), "flat_map" | "collect_concat") => out.extend(a.v.borrow().iter().cloned()),
                    _ => out.push(v),
                }
            }
            Ok(RValue::array(out))
        })(),
        "select" | "filter" | "find_all" | "reject" => (|| {
            arity(args, 0, 0)?;
            let b = need(block, name)?;
            let keep = name != "reject";
            let mut out = Vec::new();
            for x in items {
                if it.yield1(&b, x.clone())?.truthy() == keep {
                    out.push(x);
                }
            }
            Ok(RValue::array(out))
        })(),
        "filter_map" => (|| {
            let b = need(block, name)?;
            let mut out = Vec::new();
            for x in items {
                let v = it.yield1(&b, x)?;
                if v.truthy() {
                    out.push(v);
                }
            }
            Ok(RValue::array(out))
        })(),
        "partition" => (|| {
            let b = need(block, name)?;
            let (mut yes, mut no) = (Vec::new(), Vec::new());
            for x in items {
                if it.yield1(&b, x.clone())?.truthy() {
                    yes.push(x);
                } else {
                    no.push(x);
                }
            }
            Ok(RValue::array(vec![RValue::array(yes), RValue::array(no)]))
        })(),
        "find" | "detect" => (|| {
            arity(args, 0, 1)?;
            let b = need(block, name)?;
            for x in items {
                if it.yield1(&b, x.clone())?.truthy() {
                    return Ok(x);
                }
            }
            Ok(RValue::Nil)
        })(),
        "find_index" => (|| {
            arity(args, 0, 1)?;
            for (i, x) in items.into_iter().enumerate() {
                let hit = match (args.first(), block) {
                    (Some(v), _) => eq(&x, v)?,
                    (None, Some(b)) => it.yield1(b, x)?.truthy(),
                    (None, None) => return unsupported("`find_index` without a block (enumerators)"),
                };
                if hit {
                    return Ok(RValue::Int(i as i64));
                }
            }
            Ok(RValue::Nil)
        })(),
        "inject" | "reduce" => inject(it, items, args, block),
        "sum" => (|| {
            arity(args, 0, 1)?;
            let mut values = Vec::with_capacity(items.len());
            for x in items {
                values.push(match block {
                    Some(b) => it.yield1(b, x)?,
                    None => x,
                });
            }
            sum(it, args.first().cloned().unwrap_or(RValue::Int(0)), values)
        })(),
        "count" => (|| {
            arity(args, 0, 1)?;
            let mut n = 0;
            for x in items {
                let hit = match (args.first(), block) {
                    (Some(v), _) => eq(&x, v)?,
                    (None, Some(b)) => it.yield1(b, x)?.truthy(),
                    (None, None) => true,
                };
                n += i64::from(hit);
            }
            Ok(RValue::Int(n))
        })(),
        "min" | "max" => (|| {
            arity(args, 0, 1)?;
            if let Some(n) = args.first() {
                let n = int_arg(n)?;
                if n < 0 {
                    return raise("ArgumentError", format!("negative size ({n})"));
                }
                let mut sorted = sort(it, items, block)?;
                if name == "max" {
                    sorted.reverse();
                }
                sorted.truncate(n as usize);
                return Ok(RValue::array(sorted));
            }
            // the best so far is compared with each next one (Ruby's `optimized cmp`)
            let replace = if name == "min" { Ordering::Greater } else { Ordering::Less };
            let mut best: Option<RValue> = None;
            for x in items {
                best = Some(match best {
                    None => x,
                    Some(b) => {
                        let o = match block {
                            Some(blk) => {
                                let r = it.call_block(blk, vec![b.clone(), x.clone()])?;
                                block_order(it, &r, &b, &x)?
                            }
                            None => cmp_strict(it, &b, &x)?,
                        };
                        if o == replace {
                            x
                        } else {
                            b
                        }
                    }
                });
            }
            Ok(best.unwrap_or(RValue::Nil))
        })(),
        "min_by" | "max_by" if !args.is_empty() => (|| {
            arity(args, 1, 1)?;
            let n = int_arg(&args[0])?;
            let b = need(block, name)?;
            let mut keyed = Vec::with_capacity(items.len());
            for x in items {
                let k = it.yield1(&b, x.clone())?;
                keyed.push((k, x));
            }
            let mut keyed = merge_sort(it, keyed, &mut |it, a, b| cmp_strict(it, &a.0, &b.0))?;
            if name == "max_by" {
                keyed.reverse();
            }
            Ok(RValue::array(keyed.into_iter().take(n.max(0) as usize).map(|(_, x)| x).collect()))
        })(),
        "min_by" | "max_by" => (|| {
            let b = need(block, name)?;
            let want = if name == "min_by" { Ordering::Less } else { Ordering::Greater };
            let mut best: Option<(RValue, RValue)> = None;
            for x in items {
                let k = it.yield1(&b, x.clone())?;
                best = Some(match best {
                    None => (x, k),
                    Some((bx, bk)) => {
                        if cmp_strict(it, &k, &bk)? == want {
                            (x, k)
                        } else {
                            (bx, bk)
                        }
                    }
                });
            }
            Ok(best.map_or(RValue::Nil, |(x, _)| x))
        })(),
        "minmax" => (|| {
            let min = it.send(&RValue::array(items.clone()), "min", vec![], None)?;
            let max = it.send(&RValue::array(items), "max", vec![], None)?;
            Ok(RValue::array(vec![min, max]))
        })(),
        "sort" => (|| {
            arity(args, 0, 0)?;
            Ok(RValue::array(sort(it, items, block)?))
        })(),
        "sort_by" => (|| {
            let b = need(block, name)?;
            let mut keyed = Vec::with_capacity(items.len());
            for x in items {
                let k = it.yield1(&b, x.clone())?;
                keyed.push((k, x));
            }
            let keyed = merge_sort(it, keyed, &mut |it, a, b| cmp_strict(it, &a.0, &b.0))?;
            Ok(RValue::array(keyed.into_iter().map(|(_, x)| x).collect()))
        })(),
        "group_by" => (|| {
            let b = need(block, name)?;
            let mut groups: Vec<(RValue, Vec<RValue>)> = Vec::new();
            for x in items {
                let k = it.yield1(&b, x.clone())?;
                let key = k.key();
                match groups.iter_mut().find(|(g, _)| g.key() == key) {
                    Some((_, v)) => v.push(x),
                    None => groups.push((k, vec![x])),
                }
            }
            Ok(RValue::hash(groups.into_iter().map(|(k, v)| (k, RValue::array(v)))))
        })(),
        "tally" => {
            let mut counts: Vec<(RValue, i64)> = Vec::new();
            for x in items {
                let key = x.key();
                match counts.iter_mut().find(|(g, _)| g.key() == key) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((x, 1)),
                }
            }
            Ok(RValue::hash(counts.into_iter().map(|(k, n)| (k, RValue::Int(n)))))
        }
        "each_with_index" => (|| {
            let b = need(block, name)?;
            for (i, x) in items.into_iter().enumerate() {
                it.call_block(&b, vec![x, RValue::Int(i as i64)])?;
            }
            Ok(recv.clone())
        })(),
        "each_with_object" => (|| {
            arity(args, 1, 1)?;
            let b = need(block, name)?;
            let memo = args[0].clone();
            for x in items {
                it.call_block(&b, vec![x, memo.clone()])?;
            }
            Ok(memo)
        })(),
        "each_slice" | "each_cons" => (|| {
            arity(args, 1, 1)?;
            let n = int_arg(&args[0])?;
            if n <= 0 {
                return raise(
                    "ArgumentError",
                    format!("invalid {}", if name == "each_slice" { "slice size" } else { "size" }),
                );
            }
            let n = n as usize;
            let groups: Vec<RValue> = if name == "each_slice" {
                items.chunks(n).map(|c| RValue::array(c.to_vec())).collect()
            } else {
                items.windows(n).map(|c| RValue::array(c.to_vec())).collect()
            };
            match block {
                Some(b) => {
                    for g in groups {
                        it.yield1(b, g)?;
                    }
                    Ok(if name == "each_slice" { RValue::Nil } else { recv.clone() })
                }
                None => unsupported(format!("`{name}` without a block (enumerators)")),
            }
        })(),
        "zip" => (|| {
            let mut others = Vec::new();
            for a in args {
                others.push(self::items(it, a)?);
            }
            let out: Vec<RValue> = items
                .into_iter()
                .enumerate()
                .map(|(i, x)| {
                    let mut row = vec![x];
                    row.extend(others.iter().map(|o| o.get(i).cloned().unwrap_or(RValue::Nil)));
                    RValue::array(row)
                })
                .collect();
            match block {
                Some(b) => {
                    for row in out {
                        it.yield1(b, row)?;
                    }
                    Ok(RValue::Nil)
                }
                None => Ok(RValue::array(out)),
            }
        })(),
        "include?" | "member?" => (|| {
            arity(args, 1, 1)?;
            for x in items {
                if eq(&x, &args[0])? {
                    return Ok(RValue::Bool(true));
                }
            }
            Ok(RValue::Bool(false))
        })(),
        "first" => (|| {
            arity(args, 0, 1)?;
            match args.first() {
                None => Ok(items.into_iter().next().unwrap_or(RValue::Nil)),
                Some(n) => {
                    let n = int_arg(n)?;
                    if n < 0 {
                        return raise("ArgumentError", "attempt to take negative size");
                    }
                    Ok(RValue::array(items.into_iter().take(n as usize).collect()))
                }
            }
        })(),
        "take" | "drop" => (|| {
            arity(args, 1, 1)?;
            let n = int_arg(&args[0])?;
            if n < 0 {
                return raise(
                    "ArgumentError",
                    if name == "take" { "attempt to take negative size" } else { "attempt to drop negative size" },
                );
            }
            let n = n as usize;
            Ok(RValue::array(if name == "take" {
                items.into_iter().take(n).collect()
            } else {
                items.into_iter().skip(n).collect()
            }))
        })(),
        "take_while" | "drop_while" => (|| {
            let b = need(block, name)?;
            let mut cut = items.len();
            for (i, x) in items.iter().enumerate() {
                if !it.yield1(&b, x.clone())?.truthy() {
                    cut = i;
                    break;
                }
            }
            Ok(RValue::array(if name == "take_while" { items[..cut].to_vec() } else { items[cut..].to_vec() }))
        })(),
        "any?" | "all?" | "none?" | "one?" => (|| {
            arity(args, 0, 1)?;
            let mut hits = 0usize;
            for x in items {
                let hit = match (args.first(), block) {
                    (Some(pattern), _) => it.send(pattern, "===", vec![x], None)?.truthy(),
                    (None, Some(b)) => it.yield1(b, x)?.truthy(),
                    (None, None) => x.truthy(),
                };
                match (name, hit) {
                    ("any?", true) => return Ok(RValue::Bool(true)),
                    ("all?", false) => return Ok(RValue::Bool(false)),
                    ("none?", true) => return Ok(RValue::Bool(false)),
                    _ => {}
                }
                hits += usize::from(hit);
                if name == "one?" && hits > 1 {
                    return Ok(RValue::Bool(false));
                }
            }
            Ok(RValue::Bool(match name {
                "any?" => false,
                "one?" => hits == 1,
                _ => true,
            }))
        })(),
        "uniq" => (|| {
            let mut seen = std::collections::HashSet::new();
            let mut out = Vec::new();
            for x in items {
                let k = match block {
                    Some(b) => it.yield1(b, x.clone())?.key(),
                    None => x.key(),
                };
                if seen.insert(k) {
                    out.push(x);
                }
            }
            Ok(RValue::array(out))
        })(),
        "to_a" | "entries" => Ok(RValue::array(items)),
        "to_h" => (|| {
            let mut pairs = Vec::new();
            for x in items {
                let x = match block {
                    Some(b) => it.yield1(b, x)?,
                    None => x,
                };
                let at = pairs.len();
                match x.as_vec() {
                    Some(p) if p.len() == 2 => pairs.push((p[0].clone(), p[1].clone())),
                    Some(p) => {
                        return raise(
                            "ArgumentError",
                            format!("wrong array length at {at} (expected 2, was {})", p.len()),
                        )
                    }
                    None => {
                        return raise(
                            "TypeError",
                            format!("wrong element type {} at {at} (expected array)", x.class_name()),
                        )
                    }
                }
            }
            Ok(RValue::hash(pairs))
        })(),
        "reverse_each" => (|| {
            let b = need(block, name)?;
            for x in items.into_iter().rev() {
                it.yield1(&b, x)?;
            }
            Ok(recv.clone())
        })(),
        "cycle" => (|| {
            arity(args, 1, 1)?;
            let n = int_arg(&args[0])?;
            let b = need(block, name)?;
            for _ in 0..n.max(0) {
                for x in &items {
                    it.yield1(&b, x.clone())?;
                }
            }
            Ok(RValue::Nil)
        })(),
        "each_index" => (|| {
            let b = need(block, name)?;
            for i in 0..items.len() {
                it.yield1(&b, RValue::Int(i as i64))?;
            }
            Ok(recv.clone())
        })(),
        _ => return None,
    })
}

/// `sum`: integers added exactly, then floats with Kahan-Babuska compensation (Ruby's
/// `ary_sum`), anything else by `+`.
fn sum(it: &mut Interp<'_>, init: RValue, values: Vec<RValue>) -> R<RValue> {
    let mut acc = init;
    let mut rest = values.into_iter().peekable();
    // integers
    while let (RValue::Int(_), Some(RValue::Int(_))) = (&acc, rest.peek()) {
        let x = rest.next().unwrap_or(RValue::Int(0));
        acc = it.send(&acc, "+", vec![x], None)?;
    }
    // floats
    if matches!(acc, RValue::Int(_) | RValue::Float(_)) && matches!(rest.peek(), Some(RValue::Float(_)))
        || matches!(acc, RValue::Float(_))
    {
        let mut f = match acc {
            RValue::Int(i) => i as f64,
            RValue::Float(x) => x,
            _ => 0.0,
        };
        let mut c = 0.0;
        while let Some(RValue::Int(_) | RValue::Float(_)) = rest.peek() {
            let x = match rest.next() {
                Some(RValue::Int(i)) => i as f64,
                Some(RValue::Float(x)) => x,
                _ => 0.0,
            };
            if f.is_nan() {
                continue;
            }
            if x.is_nan() {
                f = x;
                continue;
            }
            if x.is_infinite() {
                f = if f.is_infinite() && x.signum() != f.signum() { f64::NAN } else { x };
                continue;
            }
            if f.is_infinite() {
                continue;
            }
            let t = f + x;
            if f.abs() >= x.abs() {
                c += (f - t) + x;
            } else {
                c += (x - t) + f;
            }
            f = t;
        }
        acc = RValue::Float(f + c);
    }
    for x in rest {
        acc = it.send(&acc, "+", vec![x], None)?;
    }
    Ok(acc)
}

fn inject(it: &mut Interp<'_>, items: Vec<RValue>, args: &[RValue], block: Option<&Block>) -> R<RValue> {
    arity(args, 0, 2)?;
    let (mut acc, op) = match (args, block) {
        ([RValue::Sym(op)], None) => (None, Some(op.clone())),
        ([init, RValue::Sym(op)], _) => (Some(init.clone()), Some(op.clone())),
        ([init], Some(_)) => (Some(init.clone()), None),
        ([], Some(_)) => (None, None),
        ([other], None) => {
            return it.inspect(other).and_then(|s| raise("TypeError", format!("{s} is not a symbol nor a string")))
        }
        _ => return unsupported("`inject` without a block"),
    };
    for x in items {
        acc = Some(match acc {
            None => x,
            Some(a) => match (&op, block) {
                (Some(op), _) => it.send(&a, op, vec![x], None)?,
                (None, Some(b)) => it.call_block(b, vec![a, x])?,
                (None, None) => a,
            },
        });
    }
    Ok(acc.unwrap_or(RValue::Nil))
}

/// Sorts by `<=>` (or the block's answer), stably as Ruby's merge sort of small arrays is
/// not: Ruby's sort is unstable, so only orders without ties are reproducible — ties keep
/// their order here.
pub fn sort(it: &mut Interp<'_>, items: Vec<RValue>, block: Option<&Block>) -> R<Vec<RValue>> {
    match block {
        Some(b) => merge_sort(it, items, &mut |it, x, y| {
            let r = it.call_block(b, vec![x.clone(), y.clone()])?;
            block_order(it, &r, x, y)
        }),
        None => merge_sort(it, items, &mut |it, x, y| cmp_strict(it, x, y)),
    }
}

/// A merge sort whose comparison may fail (Ruby's comparison errors).
pub fn merge_sort<T: Clone>(
    it: &mut Interp<'_>,
    items: Vec<T>,
    by: &mut dyn FnMut(&mut Interp<'_>, &T, &T) -> R<Ordering>,
) -> R<Vec<T>> {
    if items.len() <= 1 {
        return Ok(items);
    }
    if items.len() > MAX_LEN {
        return Err(Ctrl::Error(crate::error::Error::unsupported("sorting this many elements", 0)));
    }
    let mut v = items;
    let mid = v.len() / 2;
    let right = v.split_off(mid);
    let left = merge_sort(it, v, by)?;
    let right = merge_sort(it, right, by)?;
    let mut out = Vec::with_capacity(left.len() + right.len());
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        if by(it, &left[i], &right[j])? == Ordering::Greater {
            out.push(right[j].clone());
            j += 1;
        } else {
            out.push(left[i].clone());
            i += 1;
        }
    }
    out.extend_from_slice(&left[i..]);
    out.extend_from_slice(&right[j..]);
    Ok(out)
}
