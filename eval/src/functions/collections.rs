//! The collection functions (`functions/keys.rb`, `values.rb`, `length.rb`, `size.rb`,
//! `empty.rb`, `flatten.rb`, `unique.rb`, `sort.rb`, `dig.rb`, `get.rb`, `index.rb`,
//! `group_by.rb`, `partition.rb`, `slice.rb`, `compare.rb`).
//!
//! Several of them are Ruby's methods on Puppet's values, and behave as those do: `sort`
//! orders with Ruby's `<=>` (case-sensitive strings, element-wise arrays) in glibc's merge
//! sort order, failing with Ruby's `comparison of X with Y failed`; `unique` and `group_by`
//! tell values apart by Ruby's `eql?`; `index` finds a value by Ruby's `==`.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashSet;
use std::rc::{Rc, Weak};

use indexmap::IndexMap;
use puppet_types::display::label;
use puppet_types::value::{ErrorValue, Hash};
use puppet_types::Value;

use super::iteration::{block_of, pair, ruby_arity, spread, yield_to, Mode, Walk, Yield};
use super::ruby;
use super::{Builtin, Call};
use crate::error::{fail, Eval};
use crate::eval::{truthy, Evaluator, Level};
use crate::scope::Scope;

// --- keys, values, length, size, empty ----------------------------------------------------

fn keys(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    match &call.arg(0) {
        Value::Hash(h) => Ok(Value::array(h.keys().cloned().collect())),
        _ => Ok(Value::array(Vec::new())),
    }
}

fn values(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    match &call.arg(0) {
        Value::Hash(h) => Ok(Value::array(h.values().cloned().collect())),
        _ => Ok(Value::array(Vec::new())),
    }
}

fn length_of(v: &Value) -> i64 {
    let n = match v {
        Value::Array(a) => a.len(),
        Value::Hash(h) => h.len(),
        Value::String(s) => s.chars().count(),
        Value::Binary(b) => b.0.len(),
        _ => 0,
    };
    n as i64
}

fn length(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    Ok(Value::Integer(length_of(&call.arg(0))))
}

thread_local! {
    /// The lines where `empty()` warned about a Numeric, per session (its top scope).
    static EMPTY_WARNED: RefCell<Vec<(Weak<Scope>, HashSet<u32>)>> = const { RefCell::new(Vec::new()) };
}

/// `Puppet.warn_once('deprecations', "empty-from-#{file}-#{line}", ...)`.
fn warn_once_per_line(ev: &mut Evaluator, line: u32, message: &str) {
    let top = Rc::downgrade(&ev.top);
    let first = EMPTY_WARNED.with(|w| {
        let mut w = w.borrow_mut();
        w.retain(|(scope, _)| scope.strong_count() > 0);
        match w.iter_mut().find(|(scope, _)| scope.ptr_eq(&top)) {
            Some((_, lines)) => lines.insert(line),
            None => {
                w.push((top, HashSet::from([line])));
                true
            }
        }
    });
    if first {
        ev.log(Level::Warning, message);
    }
}

fn empty(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let v = call.arg(0);
    Ok(Value::Boolean(match &v {
        Value::Sensitive(inner) => matches!(&**inner, Value::String(s) if s.is_empty()),
        Value::Integer(_) | Value::BigInt(_) | Value::Float(_) => {
            warn_once_per_line(ev, call.at.line, "Calling function empty() with Numeric value is deprecated.");
            false
        }
        Value::Undef => true,
        other => length_of(other) == 0,
    }))
}

// --- flatten, unique ----------------------------------------------------------------------

fn flatten(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let mut out = Vec::new();
    let mut stack: Vec<(Rc<Vec<Value>>, usize)> = vec![(Rc::new(call.args), 0)];
    while let Some((items, i)) = stack.last_mut() {
        let Some(v) = items.get(*i).cloned() else {
            stack.pop();
            continue;
        };
        *i += 1;
        match &v {
            Value::Array(a) => {
                if stack.len() > 100_000 {
                    return Err(fail("flatten(): nesting too deep"));
                }
                stack.push((a.clone(), 0));
            }
            _ => {
                out.push(v);
                if out.len() % 65536 == 0 {
                    ev.check_interrupt(call.at)?;
                }
            }
        }
    }
    Ok(Value::array(out))
}

/// Ruby's `uniq`: the first of the elements with `eql?` keys (the element, or the lambda's
/// value for it).
// Values hash by their contents; a regexp's lazily compiled form does not take part.
#[allow(clippy::mutable_key_type)]
fn uniq(ev: &mut Evaluator, items: Vec<Value>, block: Option<&Value>) -> Eval<Vec<Value>> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for item in items {
        let key = match block {
            Some(b) => ev.call_block(b, std::slice::from_ref(&item))?,
            None => item.clone(),
        };
        if seen.insert(key) {
            out.push(item);
        }
    }
    Ok(out)
}

#[allow(clippy::mutable_key_type)]
fn unique(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let v = call.arg(0);
    let block = call.block.clone();
    match (&v, call.dispatch) {
        (Value::String(s), 0) => {
            let chars: Vec<Value> = s.chars().map(|c| Value::from(c.to_string().as_str())).collect();
            let kept = uniq(ev, chars, block.as_ref())?;
            Ok(Value::from(kept.iter().filter_map(Value::as_str).collect::<String>().as_str()))
        }
        (Value::Hash(h), 1) => {
            let mut groups: IndexMap<Value, (Vec<Value>, Vec<Value>)> = IndexMap::new();
            for (k, x) in h.iter() {
                let key = match &block {
                    Some(b) => ev.call_block(b, std::slice::from_ref(x))?,
                    None => x.clone(),
                };
                let entry = groups.entry(key).or_default();
                entry.0.push(k.clone());
                entry.1.push(x.clone());
            }
            let mut result = Hash::default();
            for (_, (ks, xs)) in groups {
                let xs = uniq(ev, xs, None)?;
                result.insert(Value::array(ks), Value::array(xs));
            }
            Ok(Value::hash(result))
        }
        (Value::Array(a), 2) => Ok(Value::array(uniq(ev, a.to_vec(), block.as_ref())?)),
        _ => {
            // `Iterable.on(iterable).uniq`: a break() may end the walk quietly.
            let mut walk = Walk::new(&v, Mode::Internal, call.at)?;
            let mut seen = HashSet::new();
            let mut out = Vec::new();
            while let Some(e) = walk.next(ev)? {
                let key = match &block {
                    Some(b) => match yield_to(ev, b, vec![e.clone()], walk.catches)? {
                        Yield::Value(k) => k,
                        Yield::Stop => break,
                    },
                    None => e.clone(),
                };
                if seen.insert(key) {
                    out.push(e);
                }
            }
            Ok(Value::array(out))
        }
    }
}

// --- sort -------------------------------------------------------------------------------

/// glibc's merge sort (`msort_with_tmp`, which Ruby's `sort` runs through `qsort_r`): the
/// same comparisons in the same order, so that the first failing one is Ruby's.
pub(crate) fn msort(items: &mut [Value], cmp: &mut dyn FnMut(&Value, &Value) -> Eval<Ordering>) -> Eval<()> {
    let n = items.len();
    if n <= 1 {
        return Ok(());
    }
    let n1 = n / 2;
    msort(&mut items[..n1], cmp)?;
    msort(&mut items[n1..], cmp)?;
    let mut merged = Vec::with_capacity(n);
    let (mut i, mut j) = (0, n1);
    while i < n1 && j < n {
        if cmp(&items[i], &items[j])? != Ordering::Greater {
            merged.push(items[i].clone());
            i += 1;
        } else {
            merged.push(items[j].clone());
            j += 1;
        }
    }
    merged.extend(items[i..n1].iter().cloned());
    merged.extend(items[j..n].iter().cloned());
    for (slot, v) in items.iter_mut().zip(merged) {
        *slot = v;
    }
    Ok(())
}

fn sort_values(ev: &mut Evaluator, items: &mut [Value], block: Option<&Value>) -> Eval<()> {
    match block {
        None => msort(items, &mut |a, b| ruby::cmp(a, b).ok_or_else(|| ruby::cmperr(a, b))),
        Some(block) => msort(items, &mut |a, b| {
            let r = ev.call_block(block, &[a.clone(), b.clone()])?;
            ruby::cmpint(&r, a, b)
        }),
    }
}

fn sort(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let block = call.block.clone();
    match &call.arg(0) {
        Value::String(s) => {
            let mut chars: Vec<Value> = s.chars().map(|c| Value::from(c.to_string().as_str())).collect();
            sort_values(ev, &mut chars, block.as_ref())?;
            Ok(Value::from(chars.iter().filter_map(Value::as_str).collect::<String>().as_str()))
        }
        Value::Array(a) => {
            let mut items = a.to_vec();
            sort_values(ev, &mut items, block.as_ref())?;
            Ok(Value::array(items))
        }
        _ => Ok(Value::Undef),
    }
}

// --- dig, get ---------------------------------------------------------------------------

/// `Puppet::ErrorWithData` of dig: the message and its `Error` data.
struct DigError {
    message: String,
    issue_code: &'static str,
    details: Hash,
}

impl DigError {
    /// `The given data WHAT at [walked path], got 'T'`, `T` the type of `culprit`, which
    /// the details hold as `type_key` beside the `walked_path`.
    fn new(walked: Vec<Value>, what: &str, type_key: &str, culprit: &Value, issue_code: &'static str) -> DigError {
        let t = puppet_types::infer::infer(culprit);
        let path = ruby::inspect(&Value::array(walked.clone()));
        let mut details = Hash::default();
        details.insert(Value::from("walked_path"), Value::array(walked));
        details.insert(Value::from(type_key), Value::ty(t.clone()));
        DigError { message: format!("The given data {what} at {path}, got '{t}'"), issue_code, details }
    }

    /// The `Error` value a `get` lambda receives: its `msg`, `kind`, `details` and
    /// `issue_code`.
    fn to_value(&self) -> Value {
        Value::Error(Rc::new(ErrorValue {
            msg: self.message.as_str().into(),
            kind: Some("SLICE_ERROR".into()),
            details: Some(Value::hash(self.details.clone())),
            issue_code: Some(self.issue_code.into()),
        }))
    }
}

fn dig_path(data: Value, keys: &[Value]) -> Result<Value, DigError> {
    let mut d = data;
    let mut walked: Vec<Value> = Vec::new();
    for k in keys {
        if d.is_undef() || k.is_undef() {
            return Ok(Value::Undef);
        }
        if !matches!(d, Value::Array(_) | Value::Hash(_)) {
            return Err(DigError::new(
                walked,
                "does not contain a Collection",
                "value_type",
                &d,
                "EXPECTED_COLLECTION",
            ));
        }
        walked.push(k.clone());
        d = match (&d, k) {
            (Value::Array(a), Value::Integer(i)) => {
                let len = a.len() as i64;
                let i = if *i < 0 { i.saturating_add(len) } else { *i };
                usize::try_from(i).ok().and_then(|i| a.get(i)).cloned().unwrap_or(Value::Undef)
            }
            (Value::Array(_), _) => {
                return Err(DigError::new(
                    walked,
                    "requires an Integer index",
                    "index_type",
                    k,
                    "EXPECTED_INTEGER_INDEX",
                ));
            }
            (Value::Hash(h), _) => h.get(k).cloned().unwrap_or(Value::Undef),
            _ => Value::Undef,
        };
    }
    Ok(d)
}

fn dig(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let mut args = call.args.into_iter();
    let data = args.next().unwrap_or(Value::Undef);
    let keys: Vec<Value> = args.collect();
    dig_path(data, &keys).map_err(|e| fail(e.message))
}

/// `SubLookup#split_key` of `"x." + navigation`, without the leading `x`.
fn split_dotted(navigation: &str) -> Option<Vec<Value>> {
    let key = format!("x.{navigation}");
    // Ruby's `\s` is ASCII whitespace.
    let re = puppet_types::regexp::Regexp::new(
        r#"([ \t\n\x0B\f\r]*"[^"]+"[ \t\n\x0B\f\r]*|[ \t\n\x0B\f\r]*'[^']+'[ \t\n\x0B\f\r]*|[^'".]+)"#,
    );
    let compiled = re.compiled().ok()?;
    // Ruby's `split` with a capturing group: the text between matches, and each match.
    let mut pieces: Vec<&str> = Vec::new();
    let mut last = 0;
    for m in compiled.find_iter(&key) {
        let m = m.ok()?;
        pieces.push(&key[last..m.start()]);
        pieces.push(m.as_str());
        last = m.end();
    }
    pieces.push(&key[last..]);
    while pieces.last().is_some_and(|p| p.is_empty()) {
        pieces.pop();
    }
    if pieces.is_empty() || !pieces.remove(0).is_empty() {
        return None;
    }
    let count = pieces.len();
    if count == 0 {
        return None;
    }
    let segments: Vec<&str> = pieces.into_iter().filter(|s| *s != ".").collect();
    if segments.len() * 2 != count + 1 {
        return None;
    }
    let ruby_strip =
        |s: &str| s.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\0' || c == '\x0b').to_string();
    let mut out = Vec::with_capacity(segments.len());
    for seg in segments.into_iter().skip(1) {
        let seg = ruby_strip(seg);
        if let Some(inner) = seg.get(1..seg.len().saturating_sub(1)).filter(|_| seg.starts_with(['"', '\''])) {
            out.push(Value::from(inner));
        } else if is_ruby_integer_segment(&seg) {
            // `to_i` (which reads `:5` as 0); beyond 64 bits no index can match.
            let digits = seg.trim_start_matches(':');
            out.push(match digits.parse::<i64>() {
                Ok(i) if !seg.starts_with(':') => Value::Integer(i),
                Ok(_) => Value::Integer(0),
                Err(_) => Value::Integer(if digits.starts_with('-') { i64::MIN } else { i64::MAX }),
            });
        } else {
            out.push(Value::from(seg.as_str()));
        }
    }
    Some(out)
}

/// `/^(:?[+-]?[0-9]+)$/`.
fn is_ruby_integer_segment(s: &str) -> bool {
    let s = s.strip_prefix(':').unwrap_or(s);
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn get(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let value = call.arg(0);
    let navigation = call.arg(1);
    let default = call.arg(2);
    if value.is_undef() {
        return Ok(default);
    }
    let navigation = navigation.as_str().unwrap_or_default();
    if navigation.is_empty() {
        return Ok(value);
    }
    let segments = split_dotted(navigation).ok_or_else(|| fail("Syntax error in dotted-navigation string"))?;
    match dig_path(value, &segments) {
        Ok(Value::Undef) => Ok(default),
        Ok(v) => Ok(v),
        Err(e) => match &call.block {
            Some(block) => ev.call_block(block, &[e.to_value()]),
            None => Err(fail(e.message)),
        },
    }
}

// --- index --------------------------------------------------------------------------------

fn index(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let receiver = call.arg(0);
    match (&receiver, call.dispatch) {
        (Value::Hash(h), 0 | 1) => {
            let block = block_of(&call)?;
            for (k, v) in h.iter() {
                let args = if call.dispatch == 0 { vec![k.clone(), v.clone()] } else { vec![v.clone()] };
                if truthy(&ev.call_block(&block, &args)?) {
                    return Ok(k.clone());
                }
            }
            Ok(Value::Undef)
        }
        (Value::String(s), 4) => string_index(s, &call.arg(1)),
        _ => {
            let block = call.block.clone();
            let target = call.arg(1);
            let hash_style = super::iteration::hash_style(&receiver)?;
            // `enum.each` for hash style iterators, else `each_with_index`.
            let mode = if hash_style { Mode::Consume } else { Mode::Internal };
            let mut walk = Walk::new(&receiver, mode, call.at)?;
            let catches = walk.catches;
            let mut i = 0i64;
            while let Some(e) = walk.next(ev)? {
                let (found_key, probe) = if hash_style {
                    let parts = spread(e.clone());
                    (parts.first().cloned().unwrap_or(Value::Undef), parts)
                } else {
                    (Value::Integer(i), vec![e.clone()])
                };
                i += 1;
                let hit = match &block {
                    None => {
                        let candidate = if hash_style { probe.get(1).cloned().unwrap_or(Value::Undef) } else { e };
                        ruby::eq(&candidate, &target)
                    }
                    Some(b) => {
                        let args = match (call.dispatch, hash_style) {
                            (2, true) => probe,
                            (2, false) => vec![Value::Integer(i - 1), e],
                            (_, true) => vec![probe.get(1).cloned().unwrap_or(Value::Undef)],
                            (_, false) => vec![e],
                        };
                        match yield_to(ev, b, args, catches)? {
                            Yield::Value(x) => truthy(&x),
                            Yield::Stop => break,
                        }
                    }
                };
                if hit {
                    return Ok(found_key);
                }
            }
            Ok(Value::Undef)
        }
    }
}

/// Ruby's `String#index(match)`: the character index of the first occurrence.
fn string_index(s: &str, target: &Value) -> Eval<Value> {
    let byte = match target {
        Value::String(t) => s.find(&**t),
        Value::Regexp(r) => {
            let compiled = r.compiled().map_err(fail)?;
            match compiled.find(s) {
                Ok(m) => m.map(|m| m.start()),
                Err(e) => return Err(fail(e.to_string())),
            }
        }
        _ => None,
    };
    Ok(match byte {
        Some(b) => Value::Integer(s[..b].chars().count() as i64),
        None => Value::Undef,
    })
}

// --- group_by, partition --------------------------------------------------------------------

/// The items of a collection with the lambda arguments for them: `item` (an element, or a
/// hash's `[key, value]`) for one parameter; `index, element` of arrays or `key, value` of
/// hashes for two.
fn collection_items(v: &Value, two: bool) -> Vec<(Value, Vec<Value>)> {
    match v {
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, x)| (x.clone(), if two { vec![Value::Integer(i as i64), x.clone()] } else { vec![x.clone()] }))
            .collect(),
        Value::Hash(h) => h
            .iter()
            .map(|(k, x)| {
                let p = pair(k, x);
                (p.clone(), if two { vec![k.clone(), x.clone()] } else { vec![p] })
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn group_by(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let block = block_of(&call)?;
    let mut groups: IndexMap<Value, Vec<Value>> = IndexMap::new();
    for (item, args) in collection_items(&call.arg(0), call.dispatch != 0) {
        let key = ev.call_block(&block, &args)?;
        groups.entry(key).or_default().push(item);
    }
    let mut result = Hash::default();
    for (k, items) in groups {
        result.insert(k, Value::array(items));
    }
    Ok(Value::hash(result))
}

fn partition(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let block = block_of(&call)?;
    let (mut yes, mut no) = (Vec::new(), Vec::new());
    for (item, args) in collection_items(&call.arg(0), call.dispatch != 0) {
        if truthy(&ev.call_block(&block, &args)?) {
            yes.push(item);
        } else {
            no.push(item);
        }
    }
    Ok(Value::array(vec![Value::array(yes), Value::array(no)]))
}

// --- slice --------------------------------------------------------------------------------

fn slice(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let receiver = call.arg(0);
    let size = match call.arg(1) {
        Value::Integer(n) if n > 0 => usize::try_from(n).unwrap_or(usize::MAX),
        _ => 1,
    };
    let block = call.block.clone();
    let serving = match &block {
        Some(b) => {
            let arity = ruby_arity(b);
            if arity < 0 {
                size
            } else {
                usize::try_from(arity).unwrap_or(0)
            }
        }
        None => 1,
    };
    if serving == 0 {
        return Err(fail("slice(): block must define at least one parameter. Block has 0."));
    }
    if serving != 1 && serving != size {
        return Err(fail("undefined method `parameter_names' for #<Puppet::Pops::Evaluator::PuppetProc>"));
    }
    if serving > 1 << 24 {
        return Err(fail("argument too big"));
    }
    // A short last slice is filled up to the lambda's parameters: with `[]` for hashes.
    let filler = if call.dispatch == 0 { Value::array(Vec::new()) } else { Value::Undef };
    let mut walk = Walk::new(&receiver, Mode::Internal, call.at)?;
    let mut result = Vec::new();
    loop {
        let mut chunk = Vec::new();
        while chunk.len() < size {
            match walk.next(ev)? {
                Some(e) => chunk.push(e),
                None => break,
            }
        }
        if chunk.is_empty() {
            break;
        }
        let full = chunk.len() == size;
        match &block {
            None => result.push(Value::array(chunk)),
            Some(b) => {
                let args = if serving == 1 {
                    vec![Value::array(chunk)]
                } else {
                    chunk.resize(serving, filler.clone());
                    chunk
                };
                // `loop do ... end` ends quietly at a break().
                if let Yield::Stop = yield_to(ev, b, args, true)? {
                    break;
                }
            }
        }
        if !full {
            break;
        }
    }
    Ok(if block.is_some() { receiver } else { Value::array(result) })
}

// --- compare --------------------------------------------------------------------------------

/// `compare`'s real dispatches as one parameter list: Puppet describes a call that no
/// dispatch takes by them (`expects between 2 and 3 arguments`), but its `argument_mismatch`
/// handlers take any number of arguments from two up, without a block.
const COMPARE_DISPATCH: &str = "Any $a, Any $b, Any $ignore_case?";

thread_local! {
    static COMPARE_SIGNATURE: Result<puppet_types::dispatch::Signature, String> = super::parse_dispatch(COMPARE_DISPATCH);
}

fn compare_fn(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    if call.args.len() <= 3 || call.block.is_some() {
        let signature = COMPARE_SIGNATURE.with(|s| s.clone()).map_err(fail)?;
        puppet_types::dispatch::select_signature(
            "compare",
            std::slice::from_ref(&signature),
            &call.args,
            call.block.as_ref(),
        )?;
    }
    let (a, b) = (call.arg(0), call.arg(1));
    let extra = &call.args[2.min(call.args.len())..];
    let num = |v: &Value| matches!(v, Value::Integer(_) | Value::BigInt(_) | Value::Float(_));
    let ord = |o: Ordering| Ok(Value::Integer(o as i64));
    match (&a, &b, extra) {
        _ if num(&a) && num(&b) && extra.is_empty() => {
            return ord(puppet_types::compare::compare(&a, &b).unwrap_or(Ordering::Equal));
        }
        (Value::String(x), Value::String(y), [] | [Value::Boolean(_)]) => {
            let ignore_case = !matches!(extra, [Value::Boolean(false)]);
            return ord(if ignore_case {
                puppet_types::compare::casecmp(x, y)
            } else {
                x.as_bytes().cmp(y.as_bytes())
            });
        }
        (Value::SemVer(x), Value::SemVer(y), []) => return ord((**x).cmp(&**y)),
        (_, Value::Timespan(_) | Value::Timestamp(_), []) if num(&a) => {
            // `-(b <=> a)`: the time value compared with the number.
            return ord(puppet_types::compare::compare(&b, &a).unwrap_or(Ordering::Equal).reverse());
        }
        (Value::Timestamp(_), Value::Timestamp(_), []) | (Value::Timespan(_), Value::Timespan(_), []) => {
            return ord(puppet_types::compare::compare(&a, &b).unwrap_or(Ordering::Equal));
        }
        (Value::Timestamp(_) | Value::Timespan(_), _, []) if num(&b) => {
            return ord(puppet_types::compare::compare(&a, &b).unwrap_or(Ordering::Equal));
        }
        _ => {}
    }
    // The argument_mismatch handlers: on_error for comparable values, on_not_comparable.
    let comparable = |v: &Value| {
        matches!(
            v,
            Value::String(_)
                | Value::SemVer(_)
                | Value::Integer(_)
                | Value::BigInt(_)
                | Value::Float(_)
                | Value::Timespan(_)
                | Value::Timestamp(_)
        )
    };
    let message = if comparable(&a) && comparable(&b) {
        let same_class = std::mem::discriminant(&a) == std::mem::discriminant(&b);
        let both_strings = matches!(a, Value::String(_)) && matches!(b, Value::String(_));
        if !extra.is_empty() && !both_strings {
            "compare(): The third argument (ignore case) can only be used when comparing strings".to_string()
        } else if extra.len() > 1 {
            format!("compare(): Accepts at most 3 arguments, got {}", 2 + extra.len())
        } else if extra.first().is_some_and(|x| !matches!(x, Value::Boolean(_))) {
            // Puppet 7.23's handler names a `Boolean` class Ruby does not know.
            return Err(fail("uninitialized constant Puppet::Pops::Loader::RubyFunctionInstantiator::Boolean"));
        } else if !same_class {
            format!(
                "compare(): Can only compare values of the same type (or for Timestamp/Timespan also against Numeric). Got {} and {}",
                label(&a),
                label(&b)
            )
        } else {
            String::new()
        }
    } else {
        format!(
            "compare(): Non comparable type. Only values of the types Numeric, String, Semver, Timestamp and Timestamp can be compared. Got {} and {}",
            label(&a),
            label(&b)
        )
    };
    Err(fail(format!("'compare' {message}")))
}

pub static FUNCTIONS: &[Builtin] = &[
    Builtin { name: "keys", dispatches: &["Hash $hsh"], call: keys },
    Builtin { name: "values", dispatches: &["Hash $hsh"], call: values },
    Builtin { name: "length", dispatches: &["Collection $arg", "String $arg", "Binary $arg"], call: length },
    Builtin { name: "size", dispatches: &["Variant[Collection, String, Binary] $arg"], call: length },
    Builtin {
        name: "empty",
        dispatches: &[
            "Collection $coll",
            "Sensitive[String] $str",
            "String $str",
            "Numeric $num",
            "Binary $bin",
            "Undef $x",
        ],
        call: empty,
    },
    Builtin { name: "flatten", dispatches: &["Any *$args"], call: flatten },
    Builtin {
        name: "unique",
        dispatches: &[
            "String $string, Callable[String] &$block?",
            "Hash $hash, Callable[Any] &$block?",
            "Array $array, Callable[Any] &$block?",
            "Iterable $iterable, Callable[Any] &$block?",
        ],
        call: unique,
    },
    Builtin {
        name: "sort",
        dispatches: &["String $string_value, Callable[2,2] &$block?", "Array $array_value, Callable[2,2] &$block?"],
        call: sort,
    },
    Builtin { name: "dig", dispatches: &["Optional[Collection] $data, Any *$arg"], call: dig },
    Builtin {
        name: "get",
        dispatches: &["Any $value, String $dotted_string, Any $default_value?, Callable[1,1] &$block?"],
        call: get,
    },
    Builtin {
        name: "index",
        dispatches: &[
            "Hash[Any, Any] $hash, Callable[2,2] &$block",
            "Hash[Any, Any] $hash, Callable[1,1] &$block",
            "Iterable $enumerable, Callable[2,2] &$block",
            "Iterable $enumerable, Callable[1,1] &$block",
            "String $str, Variant[String,Regexp] $match",
            "Iterable $enumerable, Any $match",
        ],
        call: index,
    },
    Builtin {
        name: "group_by",
        dispatches: &[
            "Collection $collection, Callable[1,1] &$block",
            "Array $array, Callable[2,2] &$block",
            "Collection $collection, Callable[2,2] &$block",
        ],
        call: group_by,
    },
    Builtin {
        name: "partition",
        dispatches: &[
            "Collection $collection, Callable[1,1] &$block",
            "Array $array, Callable[2,2] &$block",
            "Collection $collection, Callable[2,2] &$block",
        ],
        call: partition,
    },
    Builtin {
        name: "slice",
        dispatches: &[
            "Hash[Any, Any] $hash, Integer[1, default] $slice_size, Callable &$block?",
            "Iterable $enumerable, Integer[1, default] $slice_size, Callable &$block?",
        ],
        call: slice,
    },
    // The real dispatches (Numeric, String with ignore_case, Semver, time values) and the
    // argument_mismatch handlers are told apart inside; `COMPARE_DISPATCH` gives Puppet's
    // count messages.
    Builtin { name: "compare", dispatches: &["Any *$args, Callable &$block?"], call: compare_fn },
];
