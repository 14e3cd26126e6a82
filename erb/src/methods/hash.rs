//! Hash's methods. Iteration yields `[key, value]` pairs (which `|k, v|` splats), except
//! where Ruby yields key and value apart (`select`, `reject`, `delete_if`, ...).

use super::{arity, check_mutable, enumerable, eq, Found};
use crate::interp::{raise, unsupported, Block, Interp};
use crate::value::RValue;

fn pairs(recv: &RValue) -> Vec<(RValue, RValue)> {
    match recv {
        RValue::Hash(h) => h.map.borrow().values().cloned().collect(),
        _ => Vec::new(),
    }
}

fn get(recv: &RValue, key: &RValue) -> Option<RValue> {
    match recv {
        RValue::Hash(h) => h.map.borrow().get(&key.key()).map(|(_, v)| v.clone()),
        _ => None,
    }
}

fn store(recv: &RValue, key: &RValue, value: RValue) {
    if let RValue::Hash(h) = recv {
        let k = key.key();
        let mut map = h.map.borrow_mut();
        match map.get_mut(&k) {
            Some(slot) => slot.1 = value,
            None => {
                map.insert(k, (key.hash_key_copy(), value));
            }
        }
    }
}

fn pair(k: &RValue, v: &RValue) -> RValue {
    RValue::array(vec![k.clone(), v.clone()])
}

pub fn call(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue], block: Option<&Block>) -> Found {
    let entries = pairs(recv);
    Some(match name {
        "[]" => arity(args, 1, 1).and_then(|_| match get(recv, &args[0]) {
            Some(v) => Ok(v),
            None => match recv {
                RValue::Hash(h) => {
                    let default_proc = h.default_proc.borrow().clone();
                    match default_proc {
                        Some(b) => it.call_block(&b, vec![recv.clone(), args[0].clone()]),
                        None => Ok(h.default.borrow().clone().unwrap_or(RValue::Nil)),
                    }
                }
                _ => Ok(RValue::Nil),
            },
        }),
        "[]=" | "store" => (|| {
            arity(args, 2, 2)?;
            check_mutable(it, recv)?;
            store(recv, &args[0], args[1].clone());
            Ok(args[1].clone())
        })(),
        "fetch" => (|| {
            arity(args, 1, 2)?;
            match get(recv, &args[0]) {
                Some(v) => Ok(v),
                None => match (block, args.get(1)) {
                    (Some(b), _) => it.yield1(b, args[0].clone()),
                    (None, Some(d)) => Ok(d.clone()),
                    (None, None) => {
                        let shown = it.inspect(&args[0])?;
                        let suggestions = key_suggestions(it, &entries, &args[0])?;
                        raise("KeyError", format!("key not found: {shown}{suggestions}"))
                    }
                },
            }
        })(),
        "key?" | "has_key?" | "include?" | "member?" => {
            arity(args, 1, 1).map(|_| RValue::Bool(get(recv, &args[0]).is_some()))
        }
        "value?" | "has_value?" => (|| {
            arity(args, 1, 1)?;
            for (_, v) in &entries {
                if eq(v, &args[0])? {
                    return Ok(RValue::Bool(true));
                }
            }
            Ok(RValue::Bool(false))
        })(),
        "key" => (|| {
            arity(args, 1, 1)?;
            for (k, v) in &entries {
                if eq(v, &args[0])? {
                    return Ok(k.clone());
                }
            }
            Ok(RValue::Nil)
        })(),
        "keys" => arity(args, 0, 0).map(|_| RValue::array(entries.into_iter().map(|(k, _)| k).collect())),
        "values" => arity(args, 0, 0).map(|_| RValue::array(entries.into_iter().map(|(_, v)| v).collect())),
        "values_at" | "fetch_values" => (|| {
            let mut out = Vec::new();
            for a in args {
                match get(recv, a) {
                    Some(v) => out.push(v),
                    None if name == "fetch_values" => {
                        let shown = it.inspect(a)?;
                        return raise("KeyError", format!("key not found: {shown}"));
                    }
                    None => out.push(RValue::Nil),
                }
            }
            Ok(RValue::array(out))
        })(),
        "length" | "size" => Ok(RValue::Int(entries.len() as i64)),
        "count" if args.is_empty() && block.is_none() => Ok(RValue::Int(entries.len() as i64)),
        "empty?" => Ok(RValue::Bool(entries.is_empty())),
        "each" | "each_pair" => (|| {
            let Some(b) = block else { return unsupported(format!("`{name}` without a block (enumerators)")) };
            for (k, v) in entries {
                it.yield1(b, pair(&k, &v))?;
            }
            Ok(recv.clone())
        })(),
        "each_key" | "each_value" => (|| {
            let Some(b) = block else { return unsupported(format!("`{name}` without a block (enumerators)")) };
            for (k, v) in entries {
                it.yield1(b, if name == "each_key" { k } else { v })?;
            }
            Ok(recv.clone())
        })(),
        "select" | "filter" | "reject" | "filter_map_hash" => (|| {
            let Some(b) = block else { return unsupported(format!("`{name}` without a block (enumerators)")) };
            let keep = name != "reject";
            let mut out = Vec::new();
            for (k, v) in entries {
                if it.call_block(b, vec![k.clone(), v.clone()])?.truthy() == keep {
                    out.push((k, v));
                }
            }
            Ok(RValue::hash(out))
        })(),
        "select!" | "filter!" | "keep_if" | "reject!" | "delete_if" => (|| {
            check_mutable(it, recv)?;
            let Some(b) = block else { return unsupported(format!("`{name}` without a block")) };
            let keep = matches!(name, "select!" | "filter!" | "keep_if");
            let mut out = Vec::new();
            let before = entries.len();
            for (k, v) in entries {
                if it.call_block(b, vec![k.clone(), v.clone()])?.truthy() == keep {
                    out.push((k, v));
                }
            }
            let changed = out.len() != before;
            if let RValue::Hash(h) = recv {
                *h.map.borrow_mut() = out.into_iter().map(|(k, v)| (k.key(), (k, v))).collect();
            }
            Ok(if !changed && name.ends_with('!') { RValue::Nil } else { recv.clone() })
        })(),
        "any?" if block.is_some() && args.is_empty() => (|| {
            let Some(b) = block else { return Ok(RValue::Bool(false)) };
            for (k, v) in entries {
                if it.yield1(b, pair(&k, &v))?.truthy() {
                    return Ok(RValue::Bool(true));
                }
            }
            Ok(RValue::Bool(false))
        })(),
        "merge" | "update" | "merge!" => (|| {
            if name != "merge" {
                check_mutable(it, recv)?;
            }
            let mut out = entries.clone();
            let mut index: std::collections::HashMap<_, usize> =
                out.iter().enumerate().map(|(i, (k, _))| (k.key(), i)).collect();
            for other in args {
                let RValue::Hash(_) = other else {
                    return raise(
                        "TypeError",
                        format!("no implicit conversion of {} into Hash", super::conversion_name(other)),
                    );
                };
                for (k, v) in pairs(other) {
                    match index.get(&k.key()) {
                        Some(&i) => {
                            let merged = match block {
                                Some(b) => it.call_block(b, vec![k.clone(), out[i].1.clone(), v])?,
                                None => v,
                            };
                            out[i].1 = merged;
                        }
                        None => {
                            index.insert(k.key(), out.len());
                            out.push((k, v));
                        }
                    }
                }
            }
            if name == "merge" {
                return Ok(RValue::hash(out));
            }
            if let RValue::Hash(h) = recv {
                *h.map.borrow_mut() = out.into_iter().map(|(k, v)| (k.key(), (k.hash_key_copy(), v))).collect();
            }
            Ok(recv.clone())
        })(),
        "delete" => (|| {
            arity(args, 1, 1)?;
            check_mutable(it, recv)?;
            let removed = match recv {
                RValue::Hash(h) => h.map.borrow_mut().shift_remove(&args[0].key()).map(|(_, v)| v),
                _ => None,
            };
            match (removed, block) {
                (Some(v), _) => Ok(v),
                (None, Some(b)) => it.yield1(b, args[0].clone()),
                (None, None) => Ok(RValue::Nil),
            }
        })(),
        "clear" => (|| {
            check_mutable(it, recv)?;
            if let RValue::Hash(h) = recv {
                h.map.borrow_mut().clear();
            }
            Ok(recv.clone())
        })(),
        "dig" => (|| {
            arity(args, 1, usize::MAX)?;
            let first = it.send(recv, "[]", vec![args[0].clone()], None)?;
            if args.len() == 1 || first.is_nil() {
                return Ok(first);
            }
            super::array::dig_into(it, &first, &args[1..])
        })(),
        "to_h" if block.is_none() => Ok(recv.clone()),
        "to_hash" => Ok(recv.clone()),
        "to_a" => Ok(RValue::array(entries.iter().map(|(k, v)| pair(k, v)).collect())),
        "to_s" | "inspect" => it.inspect(recv).map(RValue::str),
        "invert" => Ok(RValue::hash(entries.into_iter().map(|(k, v)| (v, k)))),
        "transform_values" | "transform_keys" => (|| {
            let Some(b) = block else { return unsupported(format!("`{name}` without a block")) };
            let mut out = Vec::new();
            for (k, v) in entries {
                if name == "transform_values" {
                    out.push((k, it.yield1(b, v)?));
                } else {
                    out.push((it.yield1(b, k)?, v));
                }
            }
            Ok(RValue::hash(out))
        })(),
        "slice" | "except" => {
            let keys: Vec<_> = args.iter().map(RValue::key).collect();
            let out: Vec<_> = if name == "slice" {
                keys.iter().filter_map(|k| entries.iter().find(|(ek, _)| ek.key() == *k).cloned()).collect()
            } else {
                entries.into_iter().filter(|(k, _)| !keys.contains(&k.key())).collect()
            };
            Ok(RValue::hash(out))
        }
        "compact" => Ok(RValue::hash(entries.into_iter().filter(|(_, v)| !v.is_nil()))),
        "default" => Ok(match recv {
            RValue::Hash(h) => h.default.borrow().clone().unwrap_or(RValue::Nil),
            _ => RValue::Nil,
        }),
        "default=" => (|| {
            check_mutable(it, recv)?;
            if let RValue::Hash(h) = recv {
                *h.default.borrow_mut() = Some(args.first().cloned().unwrap_or(RValue::Nil));
            }
            Ok(args.first().cloned().unwrap_or(RValue::Nil))
        })(),
        "==" => arity(args, 1, 1).and_then(|_| Ok(RValue::Bool(eq(recv, &args[0])?))),
        "eql?" => arity(args, 1, 1).map(|_| RValue::Bool(recv.key() == args[0].key())),
        "<=" | "<" | ">=" | ">" => (|| {
            arity(args, 1, 1)?;
            let RValue::Hash(_) = &args[0] else {
                return raise(
                    "TypeError",
                    format!("no implicit conversion of {} into Hash", super::conversion_name(&args[0])),
                );
            };
            let other = pairs(&args[0]);
            let (small, big) = if name.starts_with('<') { (&entries, &other) } else { (&other, &entries) };
            let mut subset = true;
            for (k, v) in small {
                match big.iter().find(|(bk, _)| bk.key() == k.key()) {
                    Some((_, bv)) if eq(v, bv)? => {}
                    _ => {
                        subset = false;
                        break;
                    }
                }
            }
            let strict = name.len() == 1;
            Ok(RValue::Bool(subset && (!strict || small.len() < big.len())))
        })(),
        "sort" | "min_by" | "max_by" | "sort_by" | "map" | "collect" | "flat_map" | "find" | "detect" | "group_by"
        | "partition" | "sum" | "count" | "each_with_index" | "each_with_object" | "inject" | "reduce" | "min"
        | "max" | "find_all" | "filter_map" | "to_h" | "any?" | "all?" | "none?" | "one?" | "first" | "take"
        | "drop" | "each_slice" | "zip" | "sort_by!" | "uniq" | "tally" | "entries" | "minmax" | "take_while"
        | "drop_while" | "reverse_each" | "find_index" => {
            let items = entries.iter().map(|(k, v)| pair(k, v)).collect();
            return enumerable::call(it, recv, items, name, args, block);
        }
        "compare_by_identity" | "rehash" | "default_proc" | "to_proc" => unsupported(format!("`Hash#{name}`")),
        _ => return None,
    })
}

/// The did_you_mean gem's `KeyError` suggestions: keys spelled like the missing one.
fn key_suggestions(it: &mut Interp<'_>, entries: &[(RValue, RValue)], key: &RValue) -> crate::interp::R<String> {
    let wanted = match key {
        RValue::Str(_) | RValue::Sym(_) => it.to_s(key)?,
        _ => return Ok(String::new()),
    };
    let mut names = Vec::new();
    for (k, _) in entries {
        if let RValue::Str(_) | RValue::Sym(_) = k {
            names.push((it.to_s(k)?, k.clone()));
        }
    }
    let exact: Vec<&RValue> = names.iter().filter(|(n, _)| *n == wanted).map(|(_, k)| k).collect();
    let chosen: Vec<RValue> = if exact.is_empty() {
        let dictionary: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
        let found = poppet_ruby::did_you_mean::correct(&dictionary, &wanted);
        found.iter().filter_map(|f| names.iter().find(|(n, _)| n == f).map(|(_, k)| k.clone())).collect()
    } else {
        exact.into_iter().cloned().collect()
    };
    let mut shown = Vec::new();
    for k in &chosen {
        shown.push(it.inspect(k)?);
    }
    Ok(poppet_ruby::did_you_mean::format(&shown))
}
