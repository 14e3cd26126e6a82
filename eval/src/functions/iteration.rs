//! The iteration functions (`functions/each.rb`, `map.rb`, `filter.rb`, `reduce.rb`, `any.rb`,
//! `all.rb`, `step.rb`, `reverse_each.rb`, `tree_each.rb`), and the model of Puppet's
//! iterables (`pops/types/iterable.rb`) the collection functions share.
//!
//! ## Iterables
//!
//! `Iterable.on(value)` makes a Ruby iterator of an Array, Hash (a "hash style" iterator of
//! `[key, value]` pairs), String (its characters), Integer `n` (`0` to `n - 1`), finite
//! `Integer[a, b]` type, `Enum` type (its values), or is the Iterator value itself. Puppet's
//! iterators are Ruby objects with state: they are used up by the functions that pull their
//! elements one by one (`loop { enum.next }`), so that
//!
//! ```puppet
//! $it = [1, 2].reverse_each
//! notice($it.map |$x| { $x })   # [2, 1]
//! notice($it.map |$x| { $x })   # []
//! ```
//!
//! while other functions (`reduce`, `any`, `all`, `index`, `unique`, `slice`) walk a plain
//! iterator's underlying enumeration from its start, leaving its state alone. Integer-range
//! and step iterators include Ruby's `Enumerable`, whose methods go through `each` and so use
//! them up too; and because `each` runs `loop`, which stops quietly at `StopIteration`, a
//! `break()` inside those functions' lambdas ends the walk instead of escaping the function.
//!
//! [`Walk`] models this: the iterator class of a value ([`Class`]), the sequence of its
//! elements ([`Seq`]), the used-up position of each Iterator value (kept beside it, keyed by
//! the value's identity), and whether a `break()` ends the walk quietly ([`Walk::catches`]).

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use puppet_types::instance::is_instance;
use puppet_types::value::{Hash, Iterator as PIterator, IteratorKind};
use puppet_types::{Type, Value};

use super::{Builtin, Call};
use crate::error::{fail, Eval, Flow};
use crate::eval::{truthy, Closure, Evaluator};

// ---------------------------------------------------------------------------------------
// Iterables
// ---------------------------------------------------------------------------------------

/// How deep iterators over iterators may nest before the functions give up.
const MAX_NEST: usize = 400;

/// The Ruby class of `Iterable.on(value)`, which decides how functions walk it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// `Iterator` over an enumeration (Array, String, `0`, Enum, a reversed iterator).
    Plain,
    /// `HashIterator`: `[key, value]` pairs, `hash_style?`.
    HashStyle,
    /// `IntegerRangeIterator` (includes `Enumerable`).
    Range,
    /// `StepIterator` over another iterator (includes `Enumerable`).
    Step,
}

fn too_deep() -> Flow {
    fail("Iterators nested too deep")
}

fn not_iterable(v: &Value) -> Flow {
    fail(format!("{} is not Iterable", puppet_types::display::label(v)))
}

/// The iterator class of a value, `None` when it is not iterable.
pub(crate) fn class_of(v: &Value) -> Eval<Option<Class>> {
    class_at(v, 0)
}

fn class_at(v: &Value, depth: usize) -> Eval<Option<Class>> {
    if depth > MAX_NEST {
        return Err(too_deep());
    }
    Ok(match v {
        Value::Iterator(it) => match it.kind {
            IteratorKind::Forward | IteratorKind::Step(i64::MIN..=1) => class_at(&it.source, depth + 1)?,
            IteratorKind::Reverse => match class_at(&it.source, depth + 1)? {
                Some(Class::Range) => Some(Class::Range),
                Some(_) => Some(Class::Plain),
                None => None,
            },
            IteratorKind::Step(_) => match class_at(&it.source, depth + 1)? {
                Some(Class::Range) => Some(Class::Range),
                Some(_) => Some(Class::Step),
                None => None,
            },
        },
        Value::Array(_) | Value::String(_) | Value::Integer(0) => Some(Class::Plain),
        Value::Hash(_) => Some(Class::HashStyle),
        Value::Integer(n) if *n > 0 => Some(Class::Range),
        Value::BigInt(_) if v.as_int().is_some_and(|n| !n.is_negative()) => Some(Class::Range),
        Value::Type(t) => match t.resolved() {
            Type::Integer { from: Some(_), to: Some(_) } => Some(Class::Range),
            Type::Enum { .. } => Some(Class::Plain),
            _ => None,
        },
        _ => None,
    })
}

/// Whether walking `v` gives `[key, value]` entries that two-parameter lambdas get spread.
pub(crate) fn hash_style(v: &Value) -> Eval<bool> {
    Ok(class_of(v)? == Some(Class::HashStyle))
}

/// An integer range as `IntegerRangeIterator` walks it: from `from` (or `to` when `step` is
/// negative) by `step` while within `from..=to`.
#[derive(Clone, Copy, Debug)]
struct IntRange {
    from: i128,
    to: i128,
    step: i128,
}

impl IntRange {
    /// `IntegerRangeIterator#step_iterator`: the range cut at a whole number of steps (a
    /// reversed range can be cut past its start: Puppet's error then).
    fn stepped(self, n: i64) -> Eval<IntRange> {
        // Kept off i128::MIN so that it can be negated.
        let step = self.step.saturating_mul(i128::from(n)).max(-i128::MAX);
        if step == 0 {
            return Ok(self);
        }
        // Ruby's modulo takes the sign of the divisor.
        let m = (self.to - self.from).rem_euclid(step.abs());
        let m = if step < 0 && m != 0 { m - step.abs() } else { m };
        let r = if m < 0 {
            IntRange { from: self.from - m, to: self.to, step }
        } else if m > 0 {
            IntRange { from: self.from, to: self.to - m, step }
        } else {
            IntRange { step, ..self }
        };
        if r.from > r.to {
            return Err(fail(format!("'from' must be less or equal to 'to'. Got ({}, {}", r.from, r.to)));
        }
        Ok(r)
    }
}

fn range_of(v: &Value, depth: usize) -> Eval<Option<IntRange>> {
    if depth > MAX_NEST {
        return Err(too_deep());
    }
    Ok(match v {
        Value::Integer(n) if *n > 0 => Some(IntRange { from: 0, to: i128::from(*n) - 1, step: 1 }),
        // a bignum's range is as long as anything iterates
        Value::BigInt(_) => {
            v.as_int().filter(|n| !n.is_negative()).map(|n| IntRange { from: 0, to: n.saturating_i128() - 1, step: 1 })
        }
        Value::Type(t) => match &t.resolved() {
            Type::Integer { from: Some(a), to: Some(b) } => {
                Some(IntRange { from: a.saturating_i128(), to: b.saturating_i128(), step: 1 })
            }
            _ => None,
        },
        Value::Iterator(it) => match range_of(&it.source, depth + 1)? {
            None => None,
            Some(r) => Some(match it.kind {
                IteratorKind::Forward => r,
                IteratorKind::Reverse => IntRange { step: -r.step, ..r },
                IteratorKind::Step(n) if n <= 1 => r,
                IteratorKind::Step(n) => r.stepped(n)?,
            }),
        },
        _ => None,
    })
}

/// Elements held in memory.
enum Items {
    Array(Rc<Vec<Value>>),
    Hash(Rc<Hash>),
    Enum(Rc<[Rc<str>]>),
    Owned(Vec<Value>),
}

impl Items {
    fn len(&self) -> usize {
        match self {
            Items::Array(a) => a.len(),
            Items::Hash(h) => h.len(),
            Items::Enum(e) => e.len(),
            Items::Owned(v) => v.len(),
        }
    }

    fn get(&self, i: usize) -> Option<Value> {
        match self {
            Items::Array(a) => a.get(i).cloned(),
            Items::Hash(h) => h.get_index(i).map(|(k, v)| Value::array(vec![k.clone(), v.clone()])),
            Items::Enum(e) => e.get(i).map(|s| Value::String(s.clone())),
            Items::Owned(v) => v.get(i).cloned(),
        }
    }
}

/// A sequence of elements, pulled one at a time (Ruby's `next`).
enum Seq {
    Items {
        items: Items,
        taken: usize,
        reverse: bool,
    },
    /// The next number, while there is one.
    Range {
        next: Option<i128>,
        range: IntRange,
    },
    /// `StepIterator#next`: an element, then `n - 1` skipped.
    Step {
        inner: Box<Seq>,
        n: i64,
    },
    /// An Iterator value's own state: its elements used up so far are skipped (`local` counts
    /// those `inner` has given), and each element given counts as used up.
    Tracked {
        inner: Box<Seq>,
        key: Rc<PIterator>,
        local: usize,
    },
}

impl Seq {
    fn items(items: Items) -> Seq {
        Seq::Items { items, taken: 0, reverse: false }
    }

    fn range(range: IntRange) -> Seq {
        let start = if range.step < 0 { range.to } else { range.from };
        let next = (range.from <= range.to).then_some(start);
        Seq::Range { next, range }
    }

    fn next(&mut self) -> Option<Value> {
        match self {
            Seq::Items { items, taken, reverse } => {
                let len = items.len();
                if *taken >= len {
                    return None;
                }
                let i = if *reverse { len - 1 - *taken } else { *taken };
                *taken += 1;
                items.get(i)
            }
            Seq::Range { next, range } => {
                let value = (*next)?;
                *next = value.checked_add(range.step).filter(|v| (range.from..=range.to).contains(v));
                i64::try_from(value).ok().map(Value::Integer)
            }
            Seq::Step { inner, n } => {
                let result = inner.next()?;
                for _ in 1..*n {
                    if inner.next().is_none() {
                        break;
                    }
                }
                Some(result)
            }
            Seq::Tracked { inner, key, local } => {
                // Another walk of the same iterator may have used up more of it meanwhile.
                let used = position(key);
                while *local < used {
                    inner.next()?;
                    *local += 1;
                }
                let v = inner.next()?;
                *local += 1;
                set_position(key, *local);
                Some(v)
            }
        }
    }
}

/// The used-up positions of Iterator values, by address (the weak handle tells a live
/// iterator from a later one at the same address).
#[derive(Default)]
struct Positions {
    by_address: std::collections::HashMap<usize, (Weak<PIterator>, usize)>,
    pruned_at: usize,
}

thread_local! {
    static POSITIONS: RefCell<Positions> = RefCell::new(Positions::default());
}

fn position(key: &Rc<PIterator>) -> usize {
    let address = Rc::as_ptr(key) as usize;
    POSITIONS.with(|p| match p.borrow().by_address.get(&address) {
        Some((w, n)) if std::ptr::eq(w.as_ptr(), Rc::as_ptr(key)) && w.strong_count() > 0 => *n,
        _ => 0,
    })
}

fn set_position(key: &Rc<PIterator>, n: usize) {
    let address = Rc::as_ptr(key) as usize;
    POSITIONS.with(|p| {
        let mut p = p.borrow_mut();
        if p.by_address.len() >= 64 && p.by_address.len() >= 2 * p.pruned_at {
            p.by_address.retain(|_, (w, _)| w.strong_count() > 0);
            p.pruned_at = p.by_address.len();
        }
        p.by_address.insert(address, (Rc::downgrade(key), n));
    });
}

/// A reversed step iterator and the elements it was made of.
type Snapshot = (Weak<PIterator>, Rc<Vec<Value>>);

thread_local! {
    /// The elements of the step iterators reversed without a block: `StepIterator#reverse_each`
    /// takes them (`to_a`) when it makes the reversed iterator.
    static SNAPSHOTS: RefCell<Vec<Snapshot>> = const { RefCell::new(Vec::new()) };
}

fn snapshot(key: &Rc<PIterator>) -> Option<Rc<Vec<Value>>> {
    SNAPSHOTS.with(|s| {
        s.borrow().iter().find(|(w, _)| std::ptr::eq(w.as_ptr(), Rc::as_ptr(key))).map(|(_, items)| items.clone())
    })
}

fn take_snapshot(key: &Rc<PIterator>, items: Vec<Value>) {
    SNAPSHOTS.with(|s| {
        let mut s = s.borrow_mut();
        s.retain(|(w, _)| w.strong_count() > 0);
        s.push((Rc::downgrade(key), Rc::new(items)));
    });
}

/// The whole sequence of `v`, as a new Ruby iterator of it gives it (ignoring the state of
/// `v` itself when it is an Iterator).
fn fresh(v: &Value, depth: usize) -> Eval<Seq> {
    if depth > MAX_NEST {
        return Err(too_deep());
    }
    Ok(match v {
        Value::Array(a) => Seq::items(Items::Array(a.clone())),
        Value::Hash(h) => Seq::items(Items::Hash(h.clone())),
        Value::String(s) => Seq::items(Items::Owned(s.chars().map(|c| Value::from(c.to_string().as_str())).collect())),
        Value::Integer(0) => Seq::items(Items::Owned(Vec::new())),
        Value::Iterator(it) => iter_fresh(it, depth)?,
        Value::Type(t) => match &t.resolved() {
            Type::Enum { values, .. } => Seq::items(Items::Enum(values.clone())),
            _ => match range_of(v, depth)? {
                Some(r) => Seq::range(r),
                None => return Err(not_iterable(v)),
            },
        },
        _ => match range_of(v, depth)? {
            Some(r) => Seq::range(r),
            None => return Err(not_iterable(v)),
        },
    })
}

fn iter_fresh(it: &Rc<PIterator>, depth: usize) -> Eval<Seq> {
    if let Some(r) = range_of(&Value::Iterator(it.clone()), depth)? {
        return Ok(Seq::range(r));
    }
    Ok(match it.kind {
        IteratorKind::Forward | IteratorKind::Step(i64::MIN..=1) => fresh(&it.source, depth + 1)?,
        IteratorKind::Reverse => {
            // A step iterator is reversed through `to_a`, which uses it up when the reversed
            // iterator is made (see `reverse_each`).
            let inner = if class_at(&it.source, depth + 1)? == Some(Class::Step) {
                match snapshot(it) {
                    Some(items) => Seq::items(Items::Array(items)),
                    None => consuming(&it.source, depth + 1)?,
                }
            } else {
                fresh(&it.source, depth + 1)?
            };
            match inner {
                Seq::Items { items, taken: 0, reverse } => Seq::Items { items, taken: 0, reverse: !reverse },
                Seq::Range { range, .. } => Seq::range(IntRange { step: -range.step, ..range }),
                other => {
                    let mut all = Vec::new();
                    let mut other = other;
                    while let Some(v) = other.next() {
                        all.push(v);
                    }
                    all.reverse();
                    Seq::items(Items::Owned(all))
                }
            }
        }
        IteratorKind::Step(n) => Seq::Step { inner: Box::new(fresh(&it.source, depth + 1)?), n },
    })
}

/// The elements `loop { enum.next }` pulls from `Iterable.on(v)`, using up an Iterator's
/// state.
fn consuming(v: &Value, depth: usize) -> Eval<Seq> {
    if depth > MAX_NEST {
        return Err(too_deep());
    }
    let Value::Iterator(it) = v else { return fresh(v, depth) };
    match it.kind {
        IteratorKind::Forward | IteratorKind::Step(i64::MIN..=1) if matches!(it.source, Value::Iterator(_)) => {
            consuming(&it.source, depth + 1)
        }
        IteratorKind::Step(n)
            if n > 1 && matches!(it.source, Value::Iterator(_)) && class_at(v, depth)? == Some(Class::Step) =>
        {
            Ok(Seq::Step { inner: Box::new(consuming(&it.source, depth + 1)?), n })
        }
        // An iterator only this walk holds has no state anyone else could see.
        _ if Rc::strong_count(it) == 1 => iter_fresh(it, depth),
        _ => Ok(Seq::Tracked { inner: Box::new(iter_fresh(it, depth)?), key: it.clone(), local: 0 }),
    }
}

/// How a function goes over an iterable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `loop { enum.next }` (or `Iterable#each`): uses an iterator up; `break()` ends the walk.
    Consume,
    /// A method of the enumeration (`reduce`, `any?`, `each_with_index`, `uniq`,
    /// `each_slice`): a plain iterator's enumeration from its start; range and step
    /// iterators go through `each` (as [`Mode::Consume`]).
    Internal,
}

/// A walk over an iterable value.
pub(crate) struct Walk {
    seq: Seq,
    /// Whether a `break()` in the lambda ends the walk quietly (Ruby's `loop` around `next`)
    /// rather than leaving the function.
    pub catches: bool,
    at: puppet_syntax::Span,
    count: usize,
}

impl Walk {
    pub(crate) fn new(v: &Value, mode: Mode, at: puppet_syntax::Span) -> Eval<Walk> {
        let class = class_of(v)?.ok_or_else(|| not_iterable(v))?;
        let enumerable = matches!(class, Class::Range | Class::Step);
        let (seq, catches) = match mode {
            Mode::Consume => (consuming(v, 0)?, true),
            Mode::Internal if enumerable => (consuming(v, 0)?, true),
            Mode::Internal => (fresh(v, 0)?, false),
        };
        Ok(Walk { seq, catches, at, count: 0 })
    }

    /// The next element; checks for an interrupt now and then.
    pub(crate) fn next(&mut self, ev: &Evaluator) -> Eval<Option<Value>> {
        self.count += 1;
        if self.count.is_multiple_of(4096) {
            ev.check_interrupt(self.at)?;
        }
        Ok(self.seq.next())
    }
}

/// The elements of an iterable as Ruby's `Iterable#to_a` gives them (what `Array($it)` and
/// `*$it` need): a plain iterator's whole enumeration, a range or step iterator's remaining
/// elements (using it up).
#[allow(dead_code)]
pub(crate) fn iterable_elements(ev: &Evaluator, v: &Value, at: puppet_syntax::Span) -> Eval<Vec<Value>> {
    let mut walk = Walk::new(v, Mode::Internal, at)?;
    let mut out = Vec::new();
    while let Some(e) = walk.next(ev)? {
        out.push(e);
    }
    Ok(out)
}

/// Outcome of one lambda call inside a walk.
pub(crate) enum Yield {
    Value(Value),
    /// `break()`, ended quietly.
    Stop,
}

/// Calls `block` with `args`; a `break()` is [`Yield::Stop`] when `catches`, else leaves.
pub(crate) fn yield_to(ev: &mut Evaluator, block: &Value, args: Vec<Value>, catches: bool) -> Eval<Yield> {
    match ev.call_block_with(block, args) {
        Ok(v) => Ok(Yield::Value(v)),
        Err(Flow::Break(_)) if catches => Ok(Yield::Stop),
        Err(e) => Err(e),
    }
}

/// The arguments of a lambda for one element of an enumeration: `(index, element)` for a
/// two-parameter dispatch (the entry's key and value for a hash-style enumeration), else
/// the element.
fn element_args(two: bool, spread_entries: bool, index: i64, e: Value) -> Vec<Value> {
    match (two, spread_entries) {
        (true, true) => spread(e),
        (true, false) => vec![Value::Integer(index), e],
        _ => vec![e],
    }
}

/// The arguments of a lambda for one entry of a hash: `(key, value)` for the two-parameter
/// dispatch (0), else `([key, value])`.
fn entry_args(dispatch: usize, k: &Value, v: &Value) -> Vec<Value> {
    if dispatch == 0 {
        vec![k.clone(), v.clone()]
    } else {
        vec![pair(k, v)]
    }
}

/// Ruby's `yield(*x)`: an array's elements, a hash's pairs, nothing for nil, else `x`.
pub(crate) fn spread(x: Value) -> Vec<Value> {
    match &x {
        Value::Array(a) => a.to_vec(),
        Value::Hash(h) => h.iter().map(|(k, v)| Value::array(vec![k.clone(), v.clone()])).collect(),
        Value::Undef => Vec::new(),
        _ => vec![x],
    }
}

/// The `arity` of the Ruby proc Puppet makes of a lambda: the number of parameters, negated
/// (counting the first one) from the first optional or captures-rest one.
pub(crate) fn ruby_arity(block: &Value) -> i64 {
    let Value::Callable(c) = block else { return -1 };
    let Some(closure) = c.as_any().downcast_ref::<Closure>() else { return -1 };
    let mut count = 0;
    for p in &closure.lambda.parameters {
        count += 1;
        if p.captures_rest || p.value.is_some() {
            return -count;
        }
    }
    count
}

/// The call's block (the dispatch requires one where this is used).
pub(crate) fn block_of(call: &Call) -> Eval<Value> {
    call.block.clone().ok_or_else(|| fail("expects a block"))
}

/// `[key, value]`.
pub(crate) fn pair(k: &Value, v: &Value) -> Value {
    Value::array(vec![k.clone(), v.clone()])
}

// ---------------------------------------------------------------------------------------
// The functions
// ---------------------------------------------------------------------------------------

/// The dispatches of each, map, filter, any, all: two- and one-parameter lambdas over a
/// Hash, then over any Iterable.
const ENUMERATING: &[&str] = &[
    "Hash[Any, Any] $hash, Callable[2,2] &$block",
    "Hash[Any, Any] $hash, Callable[1,1] &$block",
    "Iterable $enumerable, Callable[2,2] &$block",
    "Iterable $enumerable, Callable[1,1] &$block",
];

fn each(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let block = block_of(&call)?;
    let receiver = call.arg(0);
    match (&receiver, call.dispatch) {
        (Value::Hash(h), 0 | 1) => {
            for (k, v) in h.iter() {
                let args = entry_args(call.dispatch, k, v);
                if let Yield::Stop = yield_to(ev, &block, args, true)? {
                    break;
                }
            }
        }
        _ => {
            let spread_entries = call.dispatch == 2 && hash_style(&receiver)?;
            let mut walk = Walk::new(&receiver, Mode::Consume, call.at)?;
            let mut index = 0i64;
            while let Some(e) = walk.next(ev)? {
                let args = element_args(call.dispatch == 2, spread_entries, index, e);
                index += 1;
                if let Yield::Stop = yield_to(ev, &block, args, true)? {
                    break;
                }
            }
        }
    }
    Ok(receiver)
}

fn map(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let block = block_of(&call)?;
    let receiver = call.arg(0);
    let mut result = Vec::new();
    match (&receiver, call.dispatch) {
        (Value::Hash(h), 0 | 1) => {
            for (k, v) in h.iter() {
                let args = entry_args(call.dispatch, k, v);
                match yield_to(ev, &block, args, true)? {
                    Yield::Value(x) => result.push(x),
                    Yield::Stop => break,
                }
            }
        }
        _ => {
            // `enum.map { |entry| yield(*entry) }` for hash style iterators: the
            // enumeration's own map, through which a break() escapes.
            let spread_entries = call.dispatch == 2 && hash_style(&receiver)?;
            let mode = if spread_entries { Mode::Internal } else { Mode::Consume };
            let mut walk = Walk::new(&receiver, mode, call.at)?;
            let catches = !spread_entries;
            let mut index = 0i64;
            while let Some(e) = walk.next(ev)? {
                let args = element_args(call.dispatch == 2, spread_entries, index, e);
                index += 1;
                match yield_to(ev, &block, args, catches)? {
                    Yield::Value(x) => result.push(x),
                    Yield::Stop => break,
                }
            }
        }
    }
    Ok(Value::array(result))
}

fn filter(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let block = block_of(&call)?;
    let receiver = call.arg(0);
    match (&receiver, call.dispatch) {
        (Value::Hash(h), 0 | 1) => {
            // `hash.select`: a break() escapes.
            let mut result = Hash::default();
            for (k, v) in h.iter() {
                let args = entry_args(call.dispatch, k, v);
                if truthy(&ev.call_block(&block, &args)?) {
                    result.insert(k.clone(), v.clone());
                }
            }
            Ok(Value::hash(result))
        }
        _ if call.dispatch == 2 && hash_style(&receiver)? => {
            let mut result = Hash::default();
            let mut walk = Walk::new(&receiver, Mode::Consume, call.at)?;
            while let Some(e) = walk.next(ev)? {
                let args = spread(e);
                match yield_to(ev, &block, args.clone(), true)? {
                    Yield::Value(x) if truthy(&x) => {
                        let k = args.first().cloned().unwrap_or(Value::Undef);
                        let v = args.get(1).cloned().unwrap_or(Value::Undef);
                        result.insert(k, v);
                    }
                    Yield::Value(_) => {}
                    Yield::Stop => break,
                }
            }
            Ok(Value::hash(result))
        }
        _ => {
            let mut result = Vec::new();
            let mut walk = Walk::new(&receiver, Mode::Consume, call.at)?;
            let mut index = 0i64;
            while let Some(e) = walk.next(ev)? {
                let args = if call.dispatch == 2 { vec![Value::Integer(index), e.clone()] } else { vec![e.clone()] };
                index += 1;
                match yield_to(ev, &block, args, true)? {
                    Yield::Value(x) if truthy(&x) => result.push(e),
                    Yield::Value(_) => {}
                    Yield::Stop => break,
                }
            }
            Ok(Value::array(result))
        }
    }
}

fn reduce(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let block = block_of(&call)?;
    let receiver = call.arg(0);
    let mut walk = Walk::new(&receiver, Mode::Internal, call.at)?;
    let mut memo = if call.dispatch == 1 {
        call.arg(1)
    } else {
        match walk.next(ev)? {
            Some(first) => first,
            None => return Ok(Value::Undef),
        }
    };
    // A lambda that consumes its accumulator (`|$memo, $x| { $memo + {...} }`) may update it
    // in place: it gets the only handle. Such a lambda never calls break(), so the memo is
    // not needed again; other lambdas get a copy, kept for break().
    let consumes = ev.block_consumes_first(&block);
    while let Some(x) = walk.next(ev)? {
        // `rescue StopIteration; return memo` around each yield.
        let first = if consumes { std::mem::replace(&mut memo, Value::Undef) } else { memo.clone() };
        match yield_to(ev, &block, vec![first, x], true)? {
            Yield::Value(v) => memo = v,
            Yield::Stop => break,
        }
    }
    Ok(memo)
}

/// any (`want` true) and all (`want` false): stops at the first lambda value whose
/// truthiness is `want`.
fn any_all(ev: &mut Evaluator, call: Call, want: bool) -> Eval<Value> {
    let block = block_of(&call)?;
    let receiver = call.arg(0);
    match (&receiver, call.dispatch) {
        (Value::Hash(h), 0 | 1) => {
            for (k, v) in h.iter() {
                let args = entry_args(call.dispatch, k, v);
                if truthy(&ev.call_block(&block, &args)?) == want {
                    return Ok(Value::Boolean(want));
                }
            }
        }
        _ => {
            let spread_entries = call.dispatch == 2 && hash_style(&receiver)?;
            let mut walk = Walk::new(&receiver, Mode::Internal, call.at)?;
            let catches = walk.catches;
            let mut index = 0i64;
            while let Some(e) = walk.next(ev)? {
                let args = element_args(call.dispatch == 2, spread_entries, index, e);
                index += 1;
                match yield_to(ev, &block, args, catches)? {
                    Yield::Value(x) if truthy(&x) == want => return Ok(Value::Boolean(want)),
                    Yield::Value(_) => {}
                    Yield::Stop => break,
                }
            }
        }
    }
    Ok(Value::Boolean(!want))
}

/// Calls a block given to `Iterator#step`/`#each` with one element: `yield(e)` when the
/// lambda's arity is 1, `yield(*e)` otherwise.
fn yield_element(ev: &mut Evaluator, block: &Value, e: Value) -> Eval<Yield> {
    let args = if ruby_arity(block) == 1 { vec![e] } else { spread(e) };
    yield_to(ev, block, args, true)
}

/// `iterator.each(&block)`: the block called with each element ([`yield_element`]) until
/// the iterator ends or the block calls `break()`; `undef`.
fn each_element(ev: &mut Evaluator, iterator: &Value, block: &Value, at: puppet_syntax::Span) -> Eval<Value> {
    let mut walk = Walk::new(iterator, Mode::Consume, at)?;
    while let Some(e) = walk.next(ev)? {
        if let Yield::Stop = yield_element(ev, block, e)? {
            break;
        }
    }
    Ok(Value::Undef)
}

fn step(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let receiver = call.arg(0);
    let n = match call.arg(1) {
        Value::Integer(n) => n,
        _ => 1,
    };
    let stepped = if n <= 1 {
        match &receiver {
            Value::Iterator(_) => receiver.clone(),
            _ => Value::Iterator(Rc::new(PIterator { source: receiver.clone(), kind: IteratorKind::Forward })),
        }
    } else {
        Value::Iterator(Rc::new(PIterator { source: receiver.clone(), kind: IteratorKind::Step(n) }))
    };
    // A range is cut when the stepping iterator is made.
    range_of(&stepped, 0)?;
    match &call.block {
        Some(block) => each_element(ev, &stepped, block, call.at),
        None => Ok(stepped),
    }
}

fn reverse_each(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let receiver = call.arg(0);
    let step_source = class_of(&receiver)? == Some(Class::Step);
    let reversed = Rc::new(PIterator { source: receiver, kind: IteratorKind::Reverse });
    if step_source {
        let mut elements = Vec::new();
        let mut walk = Walk::new(&reversed.source, Mode::Consume, call.at)?;
        while let Some(e) = walk.next(ev)? {
            elements.push(e);
        }
        take_snapshot(&reversed, elements);
    }
    let reversed = Value::Iterator(reversed);
    match &call.block {
        Some(block) => each_element(ev, &reversed, block, call.at),
        None => Ok(reversed),
    }
}

// --- tree_each ---------------------------------------------------------------------------

/// The keys of a container, walked one at a time (Ruby's `size.times` or `each_key`).
struct Indexer {
    keys: Vec<Value>,
    pos: usize,
}

impl Indexer {
    fn next(&mut self) -> Option<Value> {
        let k = self.keys.get(self.pos).cloned();
        if k.is_some() {
            self.pos += 1;
        }
        k
    }

    fn has_next(&self) -> bool {
        self.pos < self.keys.len()
    }
}

struct TreeOptions {
    containers: Type,
    with_root: bool,
    with_containers: bool,
    with_values: bool,
    depth_first: bool,
}

fn tree_options(options: &Value) -> Eval<TreeOptions> {
    let get = |key: &str| match options {
        Value::Hash(h) => h.get(&Value::from(key)).cloned().unwrap_or(Value::Undef),
        _ => Value::Undef,
    };
    let flag = |key: &str, default: bool| match get(key) {
        Value::Undef => default,
        v => truthy(&v),
    };
    let default_containers = Type::variant(vec![Type::ARRAY, Type::HASH, Type::Object(Rc::default())]);
    let containers = match &get("container_type") {
        Value::Type(t) => {
            if !puppet_types::assignable::is_assignable(&default_containers, t) {
                return Err(fail(format!(
                    "Only Array, Hash, and Object types can be used as container types. Got {t}"
                )));
            }
            (**t).clone()
        }
        _ => default_containers,
    };
    let with_containers = flag("include_containers", true);
    let with_values = flag("include_values", true);
    let with_root = with_containers && flag("include_root", true);
    if !with_containers && !with_values {
        return Err(fail("Options 'include_containers' and 'include_values' cannot both be false"));
    }
    let depth_first = match &get("order") {
        Value::String(s) => &**s == "depth_first",
        _ => true,
    };
    Ok(TreeOptions { containers, with_root, with_containers, with_values, depth_first })
}

/// `DepthFirstTreeIterator` and `BreadthFirstTreeIterator` (`pops/types/tree_iterators.rb`).
struct TreeWalk {
    options: TreeOptions,
    root: Value,
    values: std::collections::VecDeque<Value>,
    indexers: std::collections::VecDeque<Option<Indexer>>,
    paths: std::collections::VecDeque<Vec<Value>>,
    path: Vec<Value>,
    recursed: bool,
    started: bool,
}

fn nil_indexer() -> Flow {
    fail("undefined method `next' for nil:NilClass")
}

impl TreeWalk {
    fn new(root: Value, options: TreeOptions) -> TreeWalk {
        let mut values = std::collections::VecDeque::new();
        values.push_back(root.clone());
        TreeWalk {
            options,
            root,
            values,
            indexers: Default::default(),
            paths: Default::default(),
            path: Vec::new(),
            recursed: false,
            started: false,
        }
    }

    fn indexer_on(&self, v: &Value) -> Option<Indexer> {
        if !is_instance(&self.options.containers, v) {
            return None;
        }
        let keys = match v {
            Value::Array(a) => (0..a.len()).map(|i| Value::Integer(i as i64)).collect(),
            Value::Hash(h) => h.keys().cloned().collect(),
            _ => Vec::new(),
        };
        Some(Indexer { keys, pos: 0 })
    }

    fn child(v: &Value, idx: &Value) -> Value {
        match (v, idx) {
            (Value::Array(a), Value::Integer(i)) => {
                usize::try_from(*i).ok().and_then(|i| a.get(i)).cloned().unwrap_or(Value::Undef)
            }
            (Value::Hash(h), k) => h.get(k).cloned().unwrap_or(Value::Undef),
            _ => Value::Undef,
        }
    }

    fn next(&mut self) -> Eval<Option<Value>> {
        loop {
            if self.values.is_empty() {
                return Ok(None);
            }
            if !self.started {
                self.started = true;
                let indexer = self.indexer_on(&self.root);
                self.indexers.push_back(indexer);
                self.recursed = true;
                if self.options.with_root {
                    return Ok(Some(pair(&Value::array(Vec::new()), &self.root)));
                }
            }
            if self.recursed {
                self.path.push(Value::Undef);
                self.recursed = false;
            }
            let depth_first = self.options.depth_first;
            let current = if depth_first { self.indexers.back_mut() } else { self.indexers.front_mut() };
            let idx = match current {
                Some(Some(indexer)) => indexer.next(),
                _ => return Err(nil_indexer()),
            };
            let Some(idx) = idx else {
                // StopIteration: leave the finished levels.
                loop {
                    if depth_first {
                        self.values.pop_back();
                        self.indexers.pop_back();
                        self.path.pop();
                    } else {
                        self.values.pop_front();
                        self.indexers.pop_front();
                        self.path = self.paths.pop_front().unwrap_or_default();
                        self.recursed = true;
                    }
                    let next = if depth_first { self.indexers.back() } else { self.indexers.front() };
                    match next {
                        None => break,
                        Some(Some(indexer)) if indexer.has_next() => break,
                        Some(Some(_)) => {}
                        Some(None) => return Err(fail("undefined method `peek' for nil:NilClass")),
                    }
                }
                continue;
            };
            if let Some(last) = self.path.last_mut() {
                *last = idx.clone();
            }
            let parent = if depth_first { self.values.back() } else { self.values.front() };
            let value = parent.map(|p| Self::child(p, &idx)).unwrap_or(Value::Undef);
            if let Some(indexer) = self.indexer_on(&value) {
                self.values.push_back(value.clone());
                self.indexers.push_back(Some(indexer));
                if depth_first {
                    self.recursed = true;
                } else {
                    self.paths.push_back(self.path.clone());
                }
                if !self.options.with_containers {
                    continue;
                }
            } else if depth_first && !self.options.with_values {
                continue;
            }
            return Ok(Some(pair(&Value::array(self.path.clone()), &value)));
        }
    }
}

fn tree_each(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let tree = call.arg(0);
    let options = tree_options(&call.arg(1))?;
    let mut walk = TreeWalk::new(tree.clone(), options);
    let mut count = 0usize;
    let Some(block) = call.block.clone() else {
        let mut all = Vec::new();
        while let Some(entry) = walk.next()? {
            count += 1;
            if count.is_multiple_of(4096) {
                ev.check_interrupt(call.at)?;
            }
            all.push(entry);
        }
        return Ok(Value::Iterator(Rc::new(PIterator { source: Value::array(all), kind: IteratorKind::Forward })));
    };
    while let Some(entry) = walk.next()? {
        let mut parts = spread(entry);
        let args = if call.dispatch == 0 { parts } else { parts.pop().into_iter().collect() };
        if let Yield::Stop = yield_to(ev, &block, args, true)? {
            break;
        }
    }
    Ok(tree)
}

pub static FUNCTIONS: &[Builtin] = &[
    Builtin { name: "each", dispatches: ENUMERATING, call: each },
    Builtin { name: "map", dispatches: ENUMERATING, call: map },
    Builtin { name: "filter", dispatches: ENUMERATING, call: filter },
    Builtin {
        name: "reduce",
        dispatches: &[
            "Iterable $enumerable, Callable[2,2] &$block",
            "Iterable $enumerable, Any $memo, Callable[2,2] &$block",
        ],
        call: reduce,
    },
    Builtin { name: "any", dispatches: ENUMERATING, call: |ev, c| any_all(ev, c, true) },
    Builtin { name: "all", dispatches: ENUMERATING, call: |ev, c| any_all(ev, c, false) },
    Builtin {
        name: "step",
        dispatches: &[
            "Iterable $iterable, Integer[1] $step",
            "Iterable $iterable, Integer[1] $step, Callable[1,1] &$block",
        ],
        call: step,
    },
    Builtin {
        name: "reverse_each",
        dispatches: &["Iterable $iterable", "Iterable $iterable, Callable[1,1] &$block"],
        call: reverse_each,
    },
    Builtin {
        name: "tree_each",
        dispatches: &[
            // tree_each's local type.
            "type OptionsType = Struct[{container_type => Optional[Type], include_root => Optional[Boolean], \
             include_containers => Optional[Boolean], include_values => Optional[Boolean], \
             order => Optional[Enum[depth_first, breadth_first]], include_refs => Optional[Boolean]}]",
            "Variant[Iterator, Array, Hash, Object] $tree, OptionsType $options?, Callable[2,2] &$block",
            "Variant[Iterator, Array, Hash, Object] $tree, OptionsType $options?, Callable[1,1] &$block",
            "Variant[Iterator, Array, Hash, Object] $tree, OptionsType $options?",
        ],
        call: tree_each,
    },
];
