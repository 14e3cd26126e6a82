//! Enumerators: a method that takes a block, called without one (`each_with_index`, `map`,
//! `each_slice(2)`, `times`), answers an enumerator; its methods run the method with a
//! block of their own (`with_index` counting, `to_a` collecting what it yields).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use super::{arity, enumerable, int_arg, Found};
use crate::interp::{unsupported, Block, Interp, R};
use crate::value::{REnum, RValue};

/// The methods that answer an enumerator when called without a block, by receiver class
/// (`None`: any number of arguments).
pub fn makes_enumerator(recv: &RValue, name: &str, args: &[RValue]) -> bool {
    let collection = matches!(recv, RValue::Array(_) | RValue::Hash(_) | RValue::Range(_) | RValue::Enum(_));
    match name {
        "each" | "map" | "collect" | "flat_map" | "collect_concat" | "select" | "filter" | "reject" | "filter_map"
        | "each_with_index" | "each_entry" | "sort_by" | "min_by" | "max_by" | "group_by" | "partition"
        | "reverse_each" | "find_all" | "each_index" | "each_pair" | "each_key" | "each_value" | "take_while"
        | "drop_while" | "find" | "detect" | "uniq_by" | "transform_values" | "transform_keys" => {
            collection && args.is_empty()
        }
        "each_slice" | "each_cons" | "each_with_object" => collection && args.len() == 1,
        "find_index" | "index" => matches!(recv, RValue::Array(_)) && args.is_empty(),
        "times" => matches!(recv, RValue::Int(_)) && args.is_empty(),
        "upto" | "downto" => matches!(recv, RValue::Int(_)) && args.len() == 1,
        "step" => {
            matches!(recv, RValue::Int(_) | RValue::Float(_)) && !args.is_empty() || matches!(recv, RValue::Range(_))
        }
        "each_char" | "each_line" | "each_byte" | "chars_each" => matches!(recv, RValue::Str(_)) && args.is_empty(),
        _ => false,
    }
}

/// The values the enumerator's method yields, each call's arguments packed as Ruby packs
/// them (one value as it is, several as an array).
pub fn items(it: &mut Interp<'_>, e: &REnum) -> R<Vec<RValue>> {
    let out = Rc::new(RefCell::new(Vec::new()));
    let sink = out.clone();
    let block = Block::Native(Rc::new(move |_: &mut Interp<'_>, args: Vec<RValue>| {
        sink.borrow_mut().push(pack(args));
        Ok(RValue::Nil)
    }));
    it.send(&e.recv, &e.meth, e.args.clone(), Some(&block))?;
    let items = out.borrow().clone();
    Ok(items)
}

fn pack(mut args: Vec<RValue>) -> RValue {
    if args.len() == 1 {
        args.pop().unwrap_or(RValue::Nil)
    } else {
        RValue::array(args)
    }
}

pub fn call(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue], block: Option<&Block>) -> Found {
    let RValue::Enum(e) = recv else { return None };
    Some(match (name, block) {
        ("with_index" | "each_with_index", Some(user)) => (|| {
            arity(args, 0, 1)?;
            let start = match args.first() {
                Some(RValue::Nil) | None => 0,
                Some(n) => int_arg(n)?,
            };
            let index = Rc::new(Cell::new(start));
            let user = user.clone();
            let counting = Block::Native(Rc::new(move |it: &mut Interp<'_>, yielded: Vec<RValue>| {
                let i = index.get();
                index.set(i + 1);
                it.call_block(&user, vec![pack(yielded), RValue::Int(i)])
            }));
            it.send(&e.recv, &e.meth, e.args.clone(), Some(&counting))
        })(),
        ("with_object" | "each_with_object", Some(user)) => (|| {
            arity(args, 1, 1)?;
            let memo = args[0].clone();
            let user = user.clone();
            let m = memo.clone();
            let with = Block::Native(Rc::new(move |it: &mut Interp<'_>, yielded: Vec<RValue>| {
                it.call_block(&user, vec![pack(yielded), m.clone()])
            }));
            it.send(&e.recv, &e.meth, e.args.clone(), Some(&with))?;
            Ok(memo)
        })(),
        ("each", Some(user)) => it.send(&e.recv, &e.meth, e.args.clone(), Some(user)),
        ("size", None) => items(it, e).map(|v| RValue::Int(v.len() as i64)),
        ("next" | "peek" | "rewind" | "inspect" | "to_s" | "lazy", _) => unsupported(format!("`Enumerator#{name}`")),
        _ => {
            let list = match items(it, e) {
                Ok(l) => l,
                Err(err) => return Some(Err(err)),
            };
            if matches!(name, "with_index" | "each_with_index") {
                // `each_slice(2).with_index` without a block: pairs
                let start = args.first().and_then(|a| int_arg(a).ok()).unwrap_or(0);
                let pairs: Vec<RValue> = list
                    .into_iter()
                    .enumerate()
                    .map(|(i, x)| RValue::array(vec![x, RValue::Int(start + i as i64)]))
                    .collect();
                return Some(Ok(RValue::Enum(Rc::new(REnum {
                    recv: RValue::array(pairs),
                    meth: "each".into(),
                    args: vec![],
                }))));
            }
            return enumerable::call(it, recv, list, name, args, block);
        }
    })
}
