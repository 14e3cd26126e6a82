//! Merge strategies (`pops/merge_strategy.rb`): how the values found for one key at several
//! places combine. `first` (the default) takes the first; `unique` flattens arrays and
//! scalars into one array without duplicates; `hash` merges hashes, the first found winning
//! each key; `deep` merges recursively as the `deep_merge` gem does (with its options
//! `knockout_prefix`, `sort_merged_arrays`, `merge_hash_arrays`).

use std::cmp::Ordering;

use puppet_types::value::Hash;
use puppet_types::{Type, Value};

use super::HieraError;

/// A merge strategy.
#[derive(Clone, Debug)]
pub enum Strategy {
    First,
    Unique,
    Hash,
    /// `deep`; `reverse` is Hiera 3's `reverse_deep` (the later value wins).
    Deep {
        options: DeepOptions,
        reverse: bool,
        /// The options as given, without `strategy` (what an explanation shows).
        given: Option<Hash>,
    },
}

/// The options of a deep merge.
#[derive(Clone, Debug, Default)]
pub struct DeepOptions {
    pub knockout_prefix: Option<String>,
    pub sort_merged_arrays: bool,
    pub merge_hash_arrays: bool,
}

/// Reads a type given as Puppet source (the strategies' value and option types).
fn read_type(src: &str) -> Type {
    match &puppet_types::literal::read(src) {
        Ok(Value::Type(t)) => (**t).clone(),
        _ => Type::Any,
    }
}

/// `TypeAsserter.assert_instance_of("SUBJECT", t, value)`.
fn assert_type(subject: &str, t: &Type, value: &Value) -> Result<(), HieraError> {
    if puppet_types::instance::is_instance(t, value) {
        return Ok(());
    }
    Err(HieraError::Puppet(puppet_types::mismatch::describe_value(&format!("{subject} has wrong type,"), t, value)))
}

impl Strategy {
    /// `MergeStrategy.strategy(merge)`: a name (`'deep'`) or a hash with the name under
    /// `strategy` and options; `undef` is the default (first found). Its errors are Ruby's
    /// ArgumentErrors (reported at the call).
    pub fn from_value(merge: &Value) -> Result<Strategy, HieraError> {
        let (name, options) = match merge {
            Value::Undef => return Ok(Strategy::First),
            Value::Hash(h) => match h.get(&Value::from("strategy")) {
                Some(Value::String(s)) => (s.to_string(), (h.len() > 1).then(|| (**h).clone())),
                Some(Value::Undef) | None => {
                    return Err(HieraError::Other(
                        "The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'".into(),
                    ))
                }
                Some(other) => (puppet_types::display::value_to_s(other), (h.len() > 1).then(|| (**h).clone())),
            },
            other => (puppet_types::display::value_to_s(other), None),
        };
        let options_type = |key: &str| format!("Struct[{{strategy => Optional[Pattern[/{key}/]]}}]");
        let deep_options = |key: &str| {
            format!(
                "Struct[{{strategy => Optional[Pattern[{key}]], knockout_prefix => Optional[String], \
                 merge_debug => Optional[Boolean], merge_hash_arrays => Optional[Boolean], \
                 sort_merged_arrays => Optional[Boolean]}}]"
            )
        };
        let check = |t: String| -> Result<(), HieraError> {
            match &options {
                Some(o) => {
                    assert_type("The merge options", &read_type(&t), &Value::hash(o.clone())).map_err(|e| match e {
                        HieraError::Puppet(m) => HieraError::Other(m),
                        other => other,
                    })
                }
                None => Ok(()),
            }
        };
        let strategy = match name.as_str() {
            "first" | "default" => {
                check(options_type(&name))?;
                Strategy::First
            }
            "unique" => {
                check(options_type("unique"))?;
                Strategy::Unique
            }
            "hash" => {
                check(options_type("hash"))?;
                Strategy::Hash
            }
            "deep" | "unconstrained_deep" | "reverse_deep" => {
                if name == "deep" {
                    check(deep_options("deep"))?;
                } else {
                    check("Hash[String[1], Any]".into())?;
                }
                let o = options.unwrap_or_default();
                let flag = |k: &str| matches!(o.get(&Value::from(k)), Some(Value::Boolean(true)));
                let knockout_prefix = match o.get(&Value::from("knockout_prefix")) {
                    None | Some(Value::Undef) => None,
                    Some(v) => Some(puppet_types::display::value_to_s(v)),
                };
                let mut given = o.clone();
                given.shift_remove(&Value::from("strategy"));
                Strategy::Deep {
                    given: (!given.is_empty()).then_some(given),
                    options: DeepOptions {
                        knockout_prefix,
                        sort_merged_arrays: flag("sort_merged_arrays"),
                        merge_hash_arrays: flag("merge_hash_arrays"),
                    },
                    reverse: name == "reverse_deep",
                }
            }
            _ => return Err(HieraError::Other(format!("Unknown merge strategy: '{name}'"))),
        };
        Ok(strategy)
    }

    /// The strategy's name (`MergeStrategy.key`), as an explanation shows it.
    pub fn key(&self) -> &'static str {
        match self {
            Strategy::First => "first",
            Strategy::Unique => "unique",
            Strategy::Hash => "hash",
            Strategy::Deep { reverse: true, .. } => "reverse_deep",
            Strategy::Deep { .. } => "deep",
        }
    }

    /// The options an explanation shows (`options_wo_strategy`).
    pub fn shown_options(&self) -> Option<Value> {
        match self {
            Strategy::Deep { given: Some(g), .. } => Some(Value::hash(g.clone())),
            _ => None,
        }
    }

    /// `convert_value`: how the first value found enters a merge.
    pub fn convert_value(&self, value: Value) -> Value {
        match self {
            Strategy::Unique => match &value {
                Value::Array(_) => flatten(&value),
                _ => Value::array(vec![value]),
            },
            _ => value,
        }
    }

    pub fn merge_single(&self, value: Value) -> Value {
        match (self, &value) {
            (Strategy::Unique, Value::Array(items)) => Value::array(uniq(items.iter().cloned())),
            _ => value,
        }
    }

    /// `MergeStrategy#merge(e1, e2)`: both checked against the strategy's type, then merged
    /// (`e1` has priority).
    pub fn merge(&self, e1: Value, e2: Value) -> Result<Value, HieraError> {
        let value_type = match self {
            Strategy::Unique => Some(read_type("Variant[Scalar, Array[Data]]")),
            Strategy::Hash => Some(read_type("Hash[String, Data]")),
            _ => None,
        };
        if let Some(t) = &value_type {
            assert_type("The first element of the merge", t, &e1)?;
            assert_type("The second element of the merge", t, &e2)?;
        }
        match self {
            Strategy::First => Ok(e1),
            Strategy::Unique => {
                let (a, b) = (self.convert_value(e1), self.convert_value(e2));
                let items = items_of(&a).into_iter().chain(items_of(&b));
                Ok(Value::array(uniq(items)))
            }
            Strategy::Hash => {
                let (Value::Hash(h1), Value::Hash(h2)) = (&e1, &e2) else { return Ok(e1) };
                let mut merged = (**h2).clone();
                for (k, v) in h1.iter() {
                    merged.insert(k.clone(), v.clone());
                }
                Ok(Value::hash(merged))
            }
            Strategy::Deep { options, reverse, .. } => {
                let (source, dest) = if *reverse { (e2, e1) } else { (e1, e2) };
                deep_merge(source, dest, options, 0)
            }
        }
    }
}

fn items_of(v: &Value) -> Vec<Value> {
    match v {
        Value::Array(items) => items.to_vec(),
        other => vec![other.clone()],
    }
}

/// Ruby's `Array#flatten`.
fn flatten(v: &Value) -> Value {
    fn into(out: &mut Vec<Value>, v: &Value, depth: usize) {
        match v {
            Value::Array(items) if depth < 1000 => items.iter().for_each(|i| into(out, i, depth + 1)),
            other => out.push(other.clone()),
        }
    }
    let mut out = Vec::new();
    into(&mut out, v, 0);
    Value::array(out)
}

/// Ruby's `uniq` (and what `|` keeps): the first of equal (`eql?`) elements.
fn uniq(items: impl Iterator<Item = Value>) -> Vec<Value> {
    let mut seen = indexmap::IndexSet::<Value, foldhash::fast::RandomState>::default();
    for i in items {
        seen.insert(i);
    }
    seen.into_iter().collect()
}

/// Ruby truthiness: anything but `nil` and `false`.
fn truthy(v: &Value) -> bool {
    !matches!(v, Value::Undef | Value::Boolean(false))
}

/// `DeepMerge.deep_merge!(source, dest, options)` with `preserve_unmergeables` off: `source`
/// merged into `dest`, `source` winning where the two cannot merge.
fn deep_merge(source: Value, dest: Value, o: &DeepOptions, depth: usize) -> Result<Value, HieraError> {
    if o.knockout_prefix.as_deref() == Some("") {
        return Err(HieraError::Puppet("knockout_prefix cannot be an empty string in deep_merge!".into()));
    }
    if depth > 1000 {
        return Ok(source);
    }
    if source.is_undef() {
        return Ok(dest);
    }
    if !truthy(&dest) {
        return Ok(source);
    }
    match &source {
        Value::Hash(src) => {
            let mut dest = dest;
            for (k, sv) in src.iter() {
                dest = match &dest {
                    Value::Hash(d) => {
                        let mut d = (**d).clone();
                        let merged = match d.get(k).filter(|v| truthy(v)) {
                            Some(dv) => deep_merge(sv.clone(), dv.clone(), o, depth + 1)?,
                            None => deep_merge(sv.clone(), sv.clone(), o, depth + 1)?,
                        };
                        d.insert(k.clone(), merged);
                        Value::hash(d)
                    }
                    _ => overwrite_unmergeables(&source, dest, o),
                };
            }
            Ok(dest)
        }
        Value::Array(src) => {
            let mut src: Vec<Value> = src.to_vec();
            let mut dest = dest;
            if let Some(ko) = &o.knockout_prefix {
                let ko_value = Value::from(ko.as_str());
                if src.contains(&ko_value) {
                    dest = clear(dest);
                    src.retain(|i| i != &ko_value);
                }
            }
            match &dest {
                Value::Array(d) => {
                    let mut d: Vec<Value> = d.to_vec();
                    if let Some(ko) = &o.knockout_prefix {
                        src.retain(|item| {
                            let Value::String(s) = item else { return true };
                            let stripped = strip_knockout(s, ko);
                            if stripped == **s {
                                return true;
                            }
                            let plain = Value::from(stripped.as_str());
                            d.retain(|x| x != &plain && x != item);
                            false
                        });
                    }
                    let all_hashes = |v: &[Value]| v.iter().all(|i| matches!(i, Value::Hash(_)));
                    let mut merged = if o.merge_hash_arrays && all_hashes(&src) && all_hashes(&d) {
                        let mut list = Vec::with_capacity(d.len().max(src.len()));
                        for (i, dv) in d.iter().enumerate() {
                            let sv = src.get(i).cloned().unwrap_or_else(|| Value::hash(Hash::default()));
                            list.push(deep_merge(sv, dv.clone(), o, depth + 1)?);
                        }
                        list.extend(src.iter().skip(d.len()).cloned());
                        list
                    } else {
                        uniq(d.into_iter().chain(src))
                    };
                    if o.sort_merged_arrays {
                        sort(&mut merged)?;
                    }
                    Ok(Value::array(merged))
                }
                _ => Ok(overwrite_unmergeables(&Value::array(src), dest, o)),
            }
        }
        _ => Ok(overwrite_unmergeables(&source, dest, o)),
    }
}

/// `gsub(/^PREFIX/, "")`: the prefix taken off the start of each line.
fn strip_knockout(s: &str, prefix: &str) -> String {
    s.split_inclusive('\n').map(|line| line.strip_prefix(prefix).unwrap_or(line)).collect()
}

/// `clear_or_nil`: an emptied container or string, else `nil`.
fn clear(v: Value) -> Value {
    match v {
        Value::Array(_) => Value::array(Vec::new()),
        Value::Hash(_) => Value::hash(Hash::default()),
        Value::String(_) => Value::from(""),
        _ => Value::Undef,
    }
}

/// `overwrite_unmergeables`: `source` replaces `dest`; with a knockout prefix, a string that
/// has it knocks `dest` out (`""`) and an array loses its knocked-out strings.
fn overwrite_unmergeables(source: &Value, _dest: Value, o: &DeepOptions) -> Value {
    let Some(ko) = &o.knockout_prefix else { return source.clone() };
    match source {
        Value::String(s) if strip_knockout(s, ko) != **s => Value::from(""),
        Value::Array(items) => Value::array(
            items.iter().filter(|i| !matches!(i, Value::String(s) if s.starts_with(ko.as_str()))).cloned().collect(),
        ),
        other => other.clone(),
    }
}

/// `Array#sort!` (`<=>`, which fails between strings and numbers).
fn sort(items: &mut [Value]) -> Result<(), HieraError> {
    let mut failure = None;
    items.sort_by(|a, b| match crate::functions::ruby::cmp(a, b) {
        Some(o) => o,
        None => {
            failure.get_or_insert_with(|| {
                format!(
                    "comparison of {} with {} failed",
                    puppet_types::params::ruby_class(a),
                    puppet_types::params::ruby_inspect(b)
                )
            });
            Ordering::Equal
        }
    });
    match failure {
        Some(m) => Err(HieraError::Puppet(m)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puppet_types::display::value_to_string;

    fn v(src: &str) -> Value {
        puppet_types::literal::read(src).unwrap_or(Value::Undef)
    }

    fn deep(a: &str, b: &str, merge: &str) -> String {
        let s = Strategy::from_value(&v(merge)).ok().unwrap();
        value_to_string(&s.merge(v(a), v(b)).ok().unwrap())
    }

    #[test]
    fn deep_merge_as_the_gem_does() {
        assert_eq!(
            deep(
                "{bob => {uid => 2, groups => [a]}, alice => 1}",
                "{bob => {uid => 20, shell => sh, groups => [b]}, carol => 3}",
                "deep"
            ),
            "{'bob' => {'uid' => 2, 'shell' => 'sh', 'groups' => ['b', 'a']}, 'carol' => 3, 'alice' => 1}"
        );
        let ko = "{strategy => deep, knockout_prefix => '--'}";
        assert_eq!(deep("{x => ['--1', '2']}", "{x => ['1', '3']}", ko), "{'x' => ['3', '2']}");
        assert_eq!(deep("{x => '--'}", "{x => [1, 2]}", ko), "{'x' => ''}");
        assert_eq!(
            deep("{x => [b, a]}", "{x => [c]}", "{strategy => deep, sort_merged_arrays => true}"),
            "{'x' => ['a', 'b', 'c']}"
        );
        assert_eq!(
            deep("{x => [{y => 1}]}", "{x => [{z => 2}]}", "{strategy => deep, merge_hash_arrays => true}"),
            "{'x' => [{'z' => 2, 'y' => 1}]}"
        );
    }

    #[test]
    fn strategies_and_their_errors() {
        assert_eq!(deep("[x, y]", "[y, z]", "unique"), "['x', 'y', 'z']");
        assert_eq!(deep("{a => 1}", "{a => 2, b => 3}", "hash"), "{'a' => 1, 'b' => 3}");
        let err = |m: &str| match Strategy::from_value(&v(m)) {
            Err(HieraError::Other(e)) => e,
            _ => String::new(),
        };
        assert_eq!(err("foo"), "Unknown merge strategy: 'foo'");
        assert_eq!(err("{strategy => hash, x => 1}"), "The merge options has wrong type, unrecognized key 'x'");
        assert_eq!(
            err("{x => 1}"),
            "The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'"
        );
        let s = Strategy::from_value(&v("hash")).ok().unwrap();
        match s.merge(v("[1]"), v("{}")) {
            Err(HieraError::Puppet(m)) => {
                assert_eq!(m, "The first element of the merge has wrong type, expects a Hash value, got Tuple")
            }
            _ => panic!("no error"),
        }
    }
}
