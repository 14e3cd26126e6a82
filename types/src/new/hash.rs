//! `Hash.new` and `Struct.new` (`PHashType.new_function`, the function named `new_hash`; a
//! Struct's result is then asserted against the Struct by `new`).
//!
//! ```puppet
//! type KeyValueArray = Array[Tuple[Any,Any],1]
//! type TreeArray     = Array[Tuple[Array,Any],1]
//! type NewHashOption = Enum[tree, hash_tree]
//!
//! dispatch from_tree(TreeArray from, NewHashOption build_option?)
//! dispatch from_tuples(KeyValueArray from)
//! dispatch from_array(Any from)
//! ```
//!
//! | call                                  | result                               |
//! |---------------------------------------|--------------------------------------|
//! | `Hash([[1, 2], [3, 4]])`              | `{1 => 2, 3 => 4}` (pairs)           |
//! | `Hash([1, 2, 3, 4])`                  | `{1 => 2, 3 => 4}` (flat)            |
//! | `Hash({a => 1})`                      | the hash                             |
//! | `Hash('abcd')`, `Hash(4)`             | the iteration, flat: `{a => b, c => d}`, `{0 => 1, 2 => 3}` |
//! | `Hash([[[a, b], 1]], tree)`           | `{a => {b => 1}}`: each path builds nested hashes (or indexes arrays it meets) |
//! | `Hash([[[a], [1, 2]]], hash_tree)`    | like `tree`, arrays among the values become hashes: `{a => {0 => 1, 1 => 2}}` |
//!
//! Errors: `odd number of arguments for Hash`, `Value of type Float cannot be converted to
//! Hash`, and in tree mode the Ruby errors of indexing what the path meets (`undefined
//! method `[]=' for 1:Integer`, `no implicit conversion of String into Integer`).

use indexmap::IndexMap;

use crate::error::{Error, Result};
use crate::ty::Type;
use crate::value::{Hash, Value};

use super::{iterate, ruby};
use crate::dispatch::{alias, array_sized, enum_of, tuple, Dispatch, Dispatcher, Selected, Signature};

#[derive(Clone, Copy)]
enum Method {
    Tree,
    Tuples,
    Flat,
}

fn build() -> Dispatcher<Method> {
    let tree_array = alias("TreeArray", array_sized(tuple(vec![Type::ARRAY, Type::Any]), 1, None));
    let key_value_array = alias("KeyValueArray", array_sized(tuple(vec![Type::Any, Type::Any]), 1, None));
    let option = alias("NewHashOption", enum_of(&["tree", "hash_tree"]));
    Dispatcher {
        name: "new_hash",
        dispatches: vec![
            Dispatch::new(Method::Tree).req("from", tree_array).opt("build_option", option),
            Dispatch::new(Method::Tuples).req("from", key_value_array),
            Dispatch::new(Method::Flat).req("from", Type::Any),
        ],
    }
}

thread_local! {
    static FUNCTION: Dispatcher<Method> = build();
}

/// `Hash.new(args...)` (also Struct's), before `new`'s assertion of the result.
pub fn new_hash(args: &[Value]) -> Result<Value> {
    let undef = Value::Undef;
    let from = args.first().unwrap_or(&undef);
    FUNCTION.with(|f| match f.select(args)? {
        Selected::Call(Method::Tree) => match args.get(1) {
            Some(Value::String(option)) => from_tree(from, option.as_ref() == "hash_tree"),
            _ => from_tuples(from),
        },
        Selected::Call(Method::Tuples) => from_tuples(from),
        Selected::Call(Method::Flat) | Selected::Mismatch(_) => from_array(from),
    })
}

/// The signatures (for `Init[Hash]`).
pub(crate) fn signatures() -> Vec<Signature> {
    FUNCTION.with(|f| f.signatures())
}

/// `Hash[tuple_array]`: each `[key, value]` pair is an entry (a later key replaces the value
/// of an earlier equal one).
fn from_tuples(from: &Value) -> Result<Value> {
    let Value::Array(pairs) = from else { return from_array(from) };
    let mut h = Hash::default();
    for pair in pairs.iter() {
        match pair {
            Value::Array(kv) if kv.len() == 2 => {
                h.insert(kv[0].clone(), kv[1].clone());
            }
            _ => return Err(Error::new("wrong element type in Hash[]")),
        }
    }
    Ok(Value::hash(h))
}

/// `from_array(from)`: a flat array of keys and values, a hash as it is, or the flat
/// iteration of an iterable.
fn from_array(from: &Value) -> Result<Value> {
    match from {
        Value::Array(items) => flat(items),
        Value::Hash(_) => Ok(from.clone()),
        other => match iterate::elements(other) {
            Some(items) => flat(&items?),
            None => Err(Error::new(format!(
                "Value of type {} cannot be converted to Hash",
                crate::infer::infer_generalized(other)
            ))),
        },
    }
}

/// `Hash[*items]`: keys and values alternating.
fn flat(items: &[Value]) -> Result<Value> {
    if !items.len().is_multiple_of(2) {
        return Err(Error::new("odd number of arguments for Hash"));
    }
    let mut h = Hash::default();
    for kv in items.chunks(2) {
        if let [k, v] = kv {
            h.insert(k.clone(), v.clone());
        }
    }
    Ok(Value::hash(h))
}

/// A hash under construction by `from_tree`: Ruby mutates the hashes and arrays it meets in
/// place, so the values on a path become containers that can be changed.
enum Node {
    Leaf(Value),
    Hash(IndexMap<Value, Node>),
    Array(Vec<Node>),
}

impl Node {
    /// Turns a hash or array leaf into a container node (Ruby would mutate it in place).
    fn open(&mut self) {
        if let Node::Leaf(v) = self {
            match v {
                Value::Hash(h) => {
                    *self = Node::Hash(h.iter().map(|(k, v)| (k.clone(), Node::Leaf(v.clone()))).collect())
                }
                Value::Array(a) => *self = Node::Array(a.iter().map(|v| Node::Leaf(v.clone())).collect()),
                _ => {}
            }
        }
    }

    fn into_value(self) -> Value {
        match self {
            Node::Leaf(v) => v,
            Node::Hash(h) => Value::hash(h.into_iter().map(|(k, n)| (k, n.into_value())).collect()),
            Node::Array(a) => Value::array(a.into_iter().map(Node::into_value).collect()),
        }
    }
}

/// `from_tree(tuple_array, build_option)`: each `[path, value]` sets `value` at `path`,
/// creating hashes along the way; an empty path merges the value into the result.
/// `hash_tree` turns the arrays among the set values into hashes keyed by index.
fn from_tree(from: &Value, all_hashes: bool) -> Result<Value> {
    let Value::Array(entries) = from else { return from_array(from) };
    let mut root = Node::Hash(IndexMap::new());
    for entry in entries.iter() {
        let (path, value) = match entry {
            Value::Array(pv) if pv.len() == 2 => (&pv[0], &pv[1]),
            _ => return Err(Error::new("wrong element type in tree")),
        };
        let Value::Array(path) = path else { return Err(Error::new("wrong element type in tree")) };
        match path.split_last() {
            None => merge_root(&mut root, value)?,
            Some((last, steps)) => {
                let value = if all_hashes { array_as_hash(value) } else { value.clone() };
                set_at(&mut root, steps, last, value)?
            }
        }
    }
    Ok(root.into_value())
}

/// A value for the empty path: an array's elements go in by index, a hash is merged.
fn merge_root(root: &mut Node, value: &Value) -> Result<()> {
    let Node::Hash(result) = root else { return Ok(()) };
    match value {
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                result.insert(Value::Integer(i as i64), Node::Leaf(v.clone()));
            }
            Ok(())
        }
        Value::Hash(h) => {
            for (k, v) in h.iter() {
                result.insert(k.clone(), Node::Leaf(v.clone()));
            }
            Ok(())
        }
        other => Err(Error::new(format!("no implicit conversion of {} into Hash", ruby::conversion_class(other)))),
    }
}

/// `PHashType.array_as_hash`: arrays (nested in arrays) become hashes keyed by index.
fn array_as_hash(value: &Value) -> Value {
    match value {
        Value::Array(items) => {
            Value::hash(items.iter().enumerate().map(|(i, v)| (Value::Integer(i as i64), array_as_hash(v))).collect())
        }
        other => other.clone(),
    }
}

/// Walks `steps` from `root` (`memo.is_a?(Array) || memo.has_key?(idx) ? memo[idx] :
/// memo[idx] = {}`) and sets `last` to `value` in what it reaches (`r[path[-1]] = value`).
fn set_at(root: &mut Node, steps: &[Value], last: &Value, value: Value) -> Result<()> {
    let mut memo: Option<&mut Node> = Some(root);
    for idx in steps {
        let Some(node) = memo else { return Err(ruby::no_method("has_key?", &Value::Undef)) };
        node.open();
        memo = match node {
            Node::Array(items) => {
                let i = array_index(idx)?;
                let len = items.len() as i128;
                let at = if i < 0 { i + len } else { i };
                if at < 0 || at >= len {
                    None
                } else {
                    items.get_mut(at as usize)
                }
            }
            Node::Hash(h) => Some(h.entry(idx.clone()).or_insert_with(|| Node::Hash(IndexMap::new()))),
            Node::Leaf(v) => return Err(ruby::no_method("has_key?", v)),
        };
    }
    let Some(r) = memo else { return Err(ruby::no_method("[]=", &Value::Undef)) };
    r.open();
    match r {
        Node::Hash(h) => {
            h.insert(last.clone(), Node::Leaf(value));
            Ok(())
        }
        Node::Array(items) => store(items, last, value),
        Node::Leaf(Value::String(s)) => store_in_string(s, last, &value).map(|_| ()),
        Node::Leaf(v) => Err(ruby::no_method("[]=", v)),
    }
}

/// Ruby's `String#[]=` on one of Puppet's strings, which are frozen: the index is looked
/// up, the value converted, then the string cannot be modified.
fn store_in_string(s: &str, idx: &Value, value: &Value) -> Result<String> {
    match idx {
        Value::String(needle) => {
            if !s.contains(needle.as_ref()) {
                return Err(Error::new("string not matched"));
            }
        }
        _ => {
            let i = array_index(idx)?;
            let len = s.chars().count() as i128;
            let at = if i < 0 { i + len } else { i };
            if at < 0 || at >= len {
                return Err(Error::new(format!("index {i} out of string")));
            }
        }
    }
    if !matches!(value, Value::String(_)) {
        let class = ruby::conversion_class(value);
        return Err(Error::new(format!("no implicit conversion of {class} into String")));
    }
    Err(Error::new(format!("can't modify frozen String: {}", ruby::inspect_str(s))))
}

/// `array[idx] = value`: past the end fills with `nil`; a negative index counts from the
/// end.
fn store(items: &mut Vec<Node>, idx: &Value, value: Value) -> Result<()> {
    let i = array_index(idx)?;
    let len = items.len() as i128;
    if i < 0 {
        if i + len < 0 {
            return Err(Error::new(format!("index {i} too small for array; minimum: -{len}")));
        }
        if let Some(slot) = items.get_mut((i + len) as usize) {
            *slot = Node::Leaf(value);
        }
        return Ok(());
    }
    if i >= iterate::MAX_ELEMENTS {
        return Err(Error::new(format!("index {i} too big")));
    }
    let at = i as usize;
    while items.len() <= at {
        items.push(Node::Leaf(Value::Undef));
    }
    if let Some(slot) = items.get_mut(at) {
        *slot = Node::Leaf(value);
    }
    Ok(())
}

/// Ruby's conversion of an array index: Integers, Floats truncated, nothing else.
fn array_index(idx: &Value) -> Result<i128> {
    match idx {
        Value::Integer(i) => Ok(i128::from(*i)),
        Value::Float(f) if f.is_finite() => Ok(f.trunc() as i128),
        Value::Float(f) => Err(Error::new(ruby::to_s(&Value::Float(*f)))),
        Value::Undef => Err(Error::new("no implicit conversion from nil to integer")),
        other => Err(Error::new(format!("no implicit conversion of {} into Integer", ruby::conversion_class(other)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arr(items: Vec<Value>) -> Value {
        Value::array(items)
    }

    fn s(x: &str) -> Value {
        Value::from(x)
    }

    fn i(n: i64) -> Value {
        Value::Integer(n)
    }

    fn show(v: &Result<Value>) -> String {
        match v {
            Ok(v) => crate::display::value_to_s(v),
            Err(e) => format!("!! {}", e.message),
        }
    }

    #[test]
    fn flat_and_pairs() {
        assert_eq!(show(&from_array(&arr(vec![i(1), i(2), i(3), i(4)]))), "{1 => 2, 3 => 4}");
        assert_eq!(show(&from_array(&arr(vec![i(1), i(2), i(3)]))), "!! odd number of arguments for Hash");
        assert_eq!(show(&from_tuples(&arr(vec![arr(vec![i(1), i(2)]), arr(vec![i(1), i(3)])]))), "{1 => 3}");
        assert_eq!(show(&from_array(&s("abcd"))), "{a => b, c => d}");
        assert!(show(&from_array(&Value::Float(1.5))).starts_with("!! Value of type"));
    }

    #[test]
    fn trees() {
        let t = |entries: Vec<Value>, h: bool| show(&from_tree(&arr(entries), h));
        let e = |path: Vec<Value>, v: Value| arr(vec![arr(path), v]);
        assert_eq!(
            t(vec![e(vec![s("a"), s("b")], i(1)), e(vec![s("a"), s("c")], i(2))], false),
            "{a => {b => 1, c => 2}}"
        );
        assert_eq!(
            t(vec![e(vec![s("a")], arr(vec![i(1), i(2)])), e(vec![s("a"), i(1)], i(3))], false),
            "{a => [1, 3]}"
        );
        assert_eq!(
            t(vec![e(vec![s("a")], arr(vec![i(1), i(2)])), e(vec![s("a"), i(1)], i(3))], true),
            "{a => {0 => 1, 1 => 3}}"
        );
        assert_eq!(
            t(vec![e(vec![s("a")], arr(vec![i(1), i(2)])), e(vec![s("a"), i(5)], i(3))], false),
            "{a => [1, 2, , , , 3]}"
        );
        assert_eq!(
            t(vec![e(vec![s("a")], arr(vec![i(1), i(2)])), e(vec![s("a"), i(-5)], i(3))], false),
            "!! index -5 too small for array; minimum: -2"
        );
        assert_eq!(
            t(vec![e(vec![s("a"), s("b")], i(1)), e(vec![s("a"), s("b"), s("c")], i(2))], false),
            "!! undefined method `[]=' for 1:Integer"
        );
        assert_eq!(
            t(vec![e(vec![s("a")], i(1)), e(vec![s("a"), s("b"), s("c")], i(2))], false),
            "!! undefined method `has_key?' for 1:Integer"
        );
        assert_eq!(
            t(vec![e(vec![s("a")], arr(vec![i(1)])), e(vec![s("a"), s("x")], i(2))], false),
            "!! no implicit conversion of String into Integer"
        );
        assert_eq!(t(vec![e(vec![], i(1))], false), "!! no implicit conversion of Integer into Hash");
        assert_eq!(t(vec![e(vec![s("a")], s("x")), e(vec![s("a"), s("b")], i(2))], false), "!! string not matched");
        assert_eq!(
            t(vec![e(vec![s("a")], s("xbx")), e(vec![s("a"), s("b")], s("Z"))], false),
            "!! can't modify frozen String: \"xbx\""
        );
        assert_eq!(t(vec![e(vec![s("a")], i(1)), e(vec![], arr(vec![i(7)]))], false), "{a => 1, 0 => 7}");
        assert_eq!(
            t(vec![e(vec![s("a")], arr(vec![i(1)])), e(vec![s("a"), i(5), s("c")], i(2))], false),
            "!! undefined method `[]=' for nil:NilClass"
        );
    }
}
