//! The format map: types to formats, Puppet's defaults merged with the user's, most specific
//! type first (`StringConverter::Format.merge_string_formats`, `sort_formats`,
//! `validate_input`, `get_format`).
//!
//! Puppet's defaults (`DEFAULT_STRING_FORMATS`), in this order:
//!
//! | type      | format                                                              |
//! |-----------|---------------------------------------------------------------------|
//! | `Object`  | `%p`                                                                |
//! | `Float`   | `%f`                                                                |
//! | `Numeric` | `%d`                                                                |
//! | `Array`   | `%a`, separator `, `, elements formatted with `{Any => '%p'}`        |
//! | `Hash`    | `%h`, separator `, `, separator2 ` => `, entries with `{Any => '%p'}` |
//! | `Binary`  | `%B`                                                                |
//! | `Any`     | `%s`                                                                |
//!
//! A value takes the format of the first type that accepts its inferred type
//! (`infer_set`); a value no type accepts takes `%s`.
//!
//! The sort reproduces Ruby's actual sort, whose comparison is not a consistent order. For
//! speed, merged maps are cached per thread by the formats value, and when every type of the
//! maps in play decides by a value's kind alone (Puppet's defaults are such), an Array or
//! Hash is looked up as `Array` or `Hash` without inferring its elements (`value_type`): the
//! result is the same and it is most of the work saved.

use std::cmp::Ordering;
use std::rc::Rc;

use puppet_types::assignable::is_assignable;
use puppet_types::{Type, Value};

use crate::error::FormatError;
use crate::format::Format;

/// Types and their formats, in the order they are tried.
#[derive(Clone, Debug, Default)]
pub struct FormatMap {
    pub entries: Vec<(Type, Rc<Format>)>,
}

fn fmt(s: &str) -> Rc<Format> {
    // the default formats are valid
    Rc::new(Format::parse(s).unwrap_or_else(|_| unreachable_format()))
}

fn unreachable_format() -> Format {
    Format {
        orig_fmt: Rc::from("%s"),
        letter: 's',
        alt: false,
        left: false,
        zero_pad: false,
        plus: crate::format::Plus::Ignore,
        width: None,
        prec: None,
        delimiters: None,
        separator: None,
        separator2: None,
        container_string_formats: None,
    }
}

/// The unparameterised `Object` type.
fn object_type() -> Type {
    Type::Object(Rc::default())
}

struct Defaults {
    string_formats: Rc<FormatMap>,
    container_formats: Rc<FormatMap>,
    percent_s: Rc<Format>,
}

fn build_defaults() -> Defaults {
    let container_formats = Rc::new(FormatMap { entries: vec![(Type::Any, fmt("%p"))] });
    let mut array = Format::parse("%a").unwrap_or_else(|_| unreachable_format());
    array.separator = Some(Rc::from(", "));
    array.separator2 = Some(Rc::from(", "));
    array.container_string_formats = Some(container_formats.clone());
    let array_format = Rc::new(array); // DEFAULT_ARRAY_FORMAT
    let mut hash = Format::parse("%h").unwrap_or_else(|_| unreachable_format());
    hash.separator = Some(Rc::from(", "));
    hash.separator2 = Some(Rc::from(" => "));
    hash.container_string_formats = Some(container_formats.clone());
    let hash_format = Rc::new(hash); // DEFAULT_HASH_FORMAT
    let string_formats = Rc::new(FormatMap {
        entries: vec![
            (object_type(), fmt("%p")),
            (Type::FLOAT, fmt("%f")),
            (Type::Numeric, fmt("%d")),
            (Type::ARRAY, array_format),
            (Type::HASH, hash_format),
            (Type::Binary, fmt("%B")),
            (Type::Any, fmt("%s")),
        ],
    });
    Defaults { string_formats, container_formats, percent_s: fmt("%s") }
}

thread_local! {
    static DEFAULTS: Defaults = build_defaults();
}

/// `DEFAULT_STRING_FORMATS`.
pub fn default_string_formats() -> Rc<FormatMap> {
    DEFAULTS.with(|d| d.string_formats.clone())
}

/// `DEFAULT_CONTAINER_FORMATS`: `{Any => '%p'}`, for the elements of containers.
pub fn default_container_formats() -> Rc<FormatMap> {
    DEFAULTS.with(|d| d.container_formats.clone())
}

/// `DEFAULT_ARRAY_FORMAT`'s separator.
pub const DEFAULT_ARRAY_SEPARATOR: &str = ", ";
/// `DEFAULT_HASH_FORMAT`'s separator.
pub const DEFAULT_HASH_SEPARATOR: &str = ", ";
/// `DEFAULT_HASH_FORMAT`'s separator2.
pub const DEFAULT_HASH_SEPARATOR2: &str = " => ";

/// `Format.new('%s')`: the format of a value no type of the map accepts.
fn percent_s() -> Rc<Format> {
    DEFAULTS.with(|d| d.percent_s.clone())
}

impl FormatMap {
    /// Whether every type of the map decides by a value's kind alone (unparameterised
    /// Integer, String, Array, Hash, Any ...): the format of an Array or Hash value then does
    /// not depend on its elements, and `value_type` need not infer them.
    pub fn is_kind_level(&self) -> bool {
        self.entries.iter().all(|(t, _)| is_kind_level_type(t))
    }

    /// Puppet's defaults (`DEFAULT_STRING_FORMATS`), unsorted as Puppet uses them when no
    /// formats are given.
    pub fn defaults() -> FormatMap {
        (*default_string_formats()).clone()
    }

    /// The map `String(value, formats)` uses: `formats` is `default`, a format string (for
    /// `value`'s own type; for an Array or Hash the container's `format`), or a hash from
    /// types to formats or container formats, merged over Puppet's defaults.
    pub fn from_formats(value: &Value, formats: &Value) -> Result<FormatMap, FormatError> {
        Ok((*map_for(&puppet_types::infer::infer_set(value), formats)?).clone())
    }

    /// `get_format`: the format of the first type that accepts `val_type`, else `%s`.
    pub fn get_format(&self, val_type: &Type) -> Result<Rc<Format>, FormatError> {
        for (t, f) in &self.entries {
            if try_assignable(t, val_type)? {
                return Ok(f.clone());
            }
        }
        Ok(percent_s())
    }

    fn get(&self, t: &Type) -> Option<&Rc<Format>> {
        self.entries.iter().find(|(k, _)| k == t).map(|(_, f)| f)
    }
}

/// The map of `convert(value, string_formats)` for a value of type `value_type`.
pub(crate) fn map_for(value_type: &Type, formats: &Value) -> Result<Rc<FormatMap>, FormatError> {
    let key = match formats {
        Value::Default => return Ok(default_string_formats()),
        Value::String(_) => string_format_key(value_type),
        Value::Hash(_) => Type::Any,
        other => {
            return Err(FormatError::new(format!(
                "string conversion expects a Default value or a Hash of type to format mappings, got a '{}'",
                puppet_types::params::ruby_class(other)
            )))
        }
    };
    if let Some(map) = cached(formats, &key) {
        return Ok(map);
    }
    let user = match formats {
        Value::String(s) => FormatMap { entries: vec![(key.clone(), Rc::new(Format::parse(s)?))] },
        _ => validate_input(formats, 0)?,
    };
    let map = merge_string_formats(Some(&default_string_formats()), Some(&Rc::new(user)))?
        .unwrap_or_else(default_string_formats);
    remember(formats, key, map.clone());
    Ok(map)
}

/// The type a format string is given for: Array or Hash for those values (the container's
/// `format`), else the value's own type.
fn string_format_key(value_type: &Type) -> Type {
    if is_assignable(&Type::ARRAY, value_type) {
        Type::ARRAY
    } else if is_assignable(&Type::HASH, value_type) {
        Type::HASH
    } else {
        value_type.clone()
    }
}

/// How many merged maps are remembered per thread.
const CACHE_SIZE: usize = 8;

thread_local! {
    /// Merged maps of recent formats (the formats value, the type a format string is for, the
    /// map): formatting many values with the same formats merges and sorts them once. Only
    /// formats that passed `new_string`'s checks and validated are here.
    static CACHE: std::cell::RefCell<Vec<(Value, Type, Rc<FormatMap>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn same_formats(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Hash(x), Value::Hash(y)) if Rc::ptr_eq(x, y) => true,
        _ => a == b,
    }
}

/// The merged map of `formats` (for values whose format-string key is `key`), when known.
pub(crate) fn cached(formats: &Value, key: &Type) -> Option<Rc<FormatMap>> {
    CACHE.with(|c| c.borrow().iter().find(|(f, k, _)| k == key && same_formats(f, formats)).map(|(_, _, m)| m.clone()))
}

fn remember(formats: &Value, key: Type, map: Rc<FormatMap>) {
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_SIZE {
            c.remove(0);
        }
        c.push((formats.clone(), key, map));
    });
}

/// The cache key of `formats` for a value of type `value_type`, when `formats` can be cached.
pub(crate) fn cache_key(value_type: &Type, formats: &Value) -> Option<Type> {
    match formats {
        Value::String(_) => Some(string_format_key(value_type)),
        Value::Hash(_) => Some(Type::Any),
        _ => None,
    }
}

/// `validate_input`: a hash from types to format strings or container format hashes.
fn validate_input(fmt: &Value, depth: usize) -> Result<FormatMap, FormatError> {
    if depth > 100 {
        return Err(FormatError::new("stack level too deep"));
    }
    let Value::Hash(h) = fmt else {
        return Err(FormatError::new(format!(
            "expected a hash with type to format mappings, got instance of '{}'",
            puppet_types::params::ruby_class(fmt)
        )));
    };
    let mut entries: Vec<(Type, Rc<Format>)> = Vec::with_capacity(h.len());
    for (key, value) in h.iter() {
        let Value::Type(t) = key else {
            return Err(FormatError::new(format!(
                "top level keys in the format hash must be data types, got instance of '{}'",
                puppet_types::params::ruby_class(key)
            )));
        };
        let f = match value {
            Value::Hash(_) => validate_container_input(value, depth)?,
            Value::String(s) => Format::parse(s)?,
            other => return Err(no_implicit_string(other)),
        };
        match entries.iter_mut().find(|(k, _)| k == &**t) {
            Some(slot) => slot.1 = Rc::new(f),
            None => entries.push(((**t).clone(), Rc::new(f))),
        }
    }
    Ok(FormatMap { entries })
}

/// Ruby's error for `Format.new(x)` of something not a String.
fn no_implicit_string(v: &Value) -> FormatError {
    let class = match v {
        Value::Undef => "nil".to_owned(),
        other => puppet_types::params::ruby_class(other),
    };
    FormatError::new(format!("no implicit conversion of {class} into String"))
}

const FMT_KEYS: [&str; 4] = ["separator", "separator2", "format", "string_formats"];

/// `validate_container_input`: `{format => ..., separator => ..., separator2 => ...,
/// string_formats => {...}}`.
fn validate_container_input(fmt: &Value, depth: usize) -> Result<Format, FormatError> {
    let Value::Hash(h) = fmt else {
        return Err(no_implicit_string(fmt));
    };
    let unknown = h.keys().any(|k| !matches!(k, Value::String(s) if FMT_KEYS.contains(&&**s)));
    if unknown {
        return Err(FormatError::new(format!(
            "only 'separator', 'separator2', 'format', 'string_formats' are allowed in a container format, got {}",
            ruby_hash_inspect(fmt)
        )));
    }
    let get = |k: &str| h.get(&Value::from(k));
    let mut result = match get("format") {
        Some(Value::String(s)) => Format::parse(s)?,
        None | Some(Value::Undef) => Format::parse("").map_err(|_| FormatError::invalid_format(""))?,
        Some(other) => return Err(no_implicit_string(other)),
    };
    let sep = |k: &str| -> Result<Option<Rc<str>>, FormatError> {
        match get(k) {
            None | Some(Value::Undef) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(FormatError::new(format!(
                "no implicit conversion of {} into String",
                puppet_types::params::ruby_class(other)
            ))),
        }
    };
    result.separator = sep("separator")?;
    result.separator2 = sep("separator2")?;
    result.container_string_formats = match get("string_formats") {
        None | Some(Value::Undef) => None,
        Some(sf) => Some(Rc::new(validate_input(sf, depth + 1)?)),
    };
    Ok(result)
}

/// Ruby's `Hash#inspect` of a Puppet hash (for a message).
fn ruby_hash_inspect(v: &Value) -> String {
    match v {
        Value::Hash(h) => {
            let parts: Vec<String> =
                h.iter().map(|(k, v)| format!("{}=>{}", ruby_hash_inspect(k), ruby_hash_inspect(v))).collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Array(a) => format!("[{}]", a.iter().map(ruby_hash_inspect).collect::<Vec<_>>().join(", ")),
        Value::String(s) => crate::ruby::inspect_str(s),
        Value::Undef => "nil".into(),
        other => puppet_types::display::value_to_s(other),
    }
}

/// `Format.merge_string_formats(lower, higher)`: `higher` wins; formats of `lower` for types
/// more specific than one of `higher`'s are dropped (a lower map never overrides a higher);
/// formats for the same type are merged (`Format#merge`); the result is sorted.
pub fn merge_string_formats(
    lower: Option<&Rc<FormatMap>>,
    higher: Option<&Rc<FormatMap>>,
) -> Result<Option<Rc<FormatMap>>, FormatError> {
    let (lower, higher) = match (lower, higher) {
        (Some(l), Some(h)) => (l, h),
        (l, h) => return Ok(l.or(h).cloned()),
    };
    let mut kept: Vec<&(Type, Rc<Format>)> = Vec::with_capacity(lower.entries.len());
    'lower: for entry in &lower.entries {
        for (hk, _) in &higher.entries {
            if hk != &entry.0 && try_assignable(hk, &entry.0)? {
                continue 'lower;
            }
        }
        kept.push(entry);
    }
    let mut keys: Vec<&Type> = Vec::with_capacity(kept.len() + higher.entries.len());
    for k in kept.iter().map(|(k, _)| k).chain(higher.entries.iter().map(|(k, _)| k)) {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let lower_kept = FormatMap { entries: kept.into_iter().cloned().collect() };
    let mut merged: Vec<(Type, Rc<Format>)> = Vec::with_capacity(keys.len());
    for k in keys {
        let f = match (lower_kept.get(k), higher.get(k)) {
            (Some(l), Some(h)) => Rc::new(l.merge(h)?),
            (Some(f), None) | (None, Some(f)) => f.clone(),
            (None, None) => continue,
        };
        merged.push((k.clone(), f));
    }
    Ok(Some(Rc::new(FormatMap { entries: sort_formats(merged)? })))
}

/// `Format.sort_formats`: most specific types first. Ruby's `sort` with this comparison is
/// glibc's merge sort (`qsort_r`); the comparison is not always a total order, so the same
/// algorithm is used to get the same order.
fn sort_formats(mut entries: Vec<(Type, Rc<Format>)>) -> Result<Vec<(Type, Rc<Format>)>, FormatError> {
    // `a.to_s <=> b.to_s`: Pcore's Object types (Deferred) show expanded in `to_s`
    let names: Vec<String> =
        entries.iter().map(|(t, _)| puppet_types::display::value_to_s(&Value::Type(Rc::new(t.clone())))).collect();
    let mut order: Vec<usize> = (0..entries.len()).collect();
    let failure: std::cell::RefCell<Option<FormatError>> = std::cell::RefCell::new(None);
    let cmp = |&i: &usize, &j: &usize| -> Ordering {
        if failure.borrow().is_some() {
            return Ordering::Equal;
        }
        let (a, b) = (&entries[i].0, &entries[j].0);
        let both = try_assignable(b, a).and_then(|ab| Ok((ab, try_assignable(a, b)?)));
        let (ab, ba) = match both {
            Ok(x) => x,
            Err(e) => {
                *failure.borrow_mut() = Some(e);
                return Ordering::Equal;
            }
        };
        if a == b {
            Ordering::Equal
        } else if ab && !ba {
            Ordering::Less
        } else if !ab && ba {
            Ordering::Greater
        } else {
            let (ra, rb) = (type_rank(a), type_rank(b));
            if ra == 0 || rb == 0 {
                names[i].cmp(&names[j])
            } else {
                ra.cmp(&rb)
            }
        }
    };
    merge_sort(&mut order, &cmp);
    if let Some(e) = failure.into_inner() {
        return Err(e);
    }
    let mut slots: Vec<Option<(Type, Rc<Format>)>> = entries.drain(..).map(Some).collect();
    Ok(order.into_iter().filter_map(|i| slots.get_mut(i).and_then(Option::take)).collect())
}

/// `t.assignable?(o)`, with the error Puppet 7.23 raises where an `Iterable` of a restricted
/// element type is asked about an Object type (`Iterable[Integer] >= Object`: ``undefined
/// method `element_type' for false:FalseClass``). Every user map meets Puppet's default
/// `Object` format, so `String(1, {Iterable[Integer] => '%x'})` is that error.
pub(crate) fn try_assignable(t: &Type, o: &Type) -> Result<bool, FormatError> {
    if raises(t, o, 0) {
        return Err(FormatError::new("undefined method `element_type' for false:FalseClass"));
    }
    Ok(is_assignable(t, o))
}

/// Whether `t.assignable?(o)` reaches `PIterableType#_assignable?` with an Object type.
fn raises(t: &Type, o: &Type, depth: usize) -> bool {
    if depth > 32 {
        return false;
    }
    match o {
        Type::Object(_) | Type::Deferred | Type::Error(_) => raises_with_object(t, depth + 1),
        Type::Variant(members) if !matches!(t, Type::Any) => {
            // `o.types.all? { |vt| t.assignable?(vt) }`
            for m in members.iter() {
                if raises(t, m, depth + 1) {
                    return true;
                }
                if !is_assignable(t, m) {
                    return false;
                }
            }
            false
        }
        Type::Alias(a) => raises(t, &a.resolved_type(), depth + 1),
        _ => false,
    }
}

/// Whether `t.assignable?(Object)` raises.
fn raises_with_object(t: &Type, depth: usize) -> bool {
    if depth > 32 {
        return false;
    }
    let object = Type::Object(Rc::default());
    match t {
        Type::Iterable(Some(e)) => !is_assignable(e, &Type::Any),
        Type::Optional(Some(x)) | Type::NotUndef(Some(x)) => raises_with_object(x, depth + 1),
        Type::Variant(types) => {
            // `types.any? { |vt| vt.assignable?(o) }`
            for x in types.iter() {
                if raises_with_object(x, depth + 1) {
                    return true;
                }
                if is_assignable(x, &object) {
                    return false;
                }
            }
            false
        }
        Type::Alias(a) => raises_with_object(&a.resolved_type(), depth + 1),
        _ => false,
    }
}

/// `Format.type_rank`: lower is more specific, 0 when it does not matter.
fn type_rank(t: &Type) -> u8 {
    match t {
        Type::Struct(_) => 1,
        Type::Hash { .. } => 2,
        Type::Tuple { .. } => 3,
        Type::Array { .. } => 4,
        Type::Pattern(_) => 10,
        Type::Enum { .. } => 11,
        Type::String(_) => 12,
        _ => 0,
    }
}

/// glibc's `msort_with_tmp`: top-down merge sort, the left run first on ties.
fn merge_sort<T: Copy>(v: &mut [T], cmp: &dyn Fn(&T, &T) -> Ordering) {
    let n = v.len();
    if n <= 1 {
        return;
    }
    let n1 = n / 2;
    merge_sort(&mut v[..n1], cmp);
    merge_sort(&mut v[n1..], cmp);
    let mut tmp: Vec<T> = Vec::with_capacity(n);
    let (mut i, mut j) = (0, n1);
    while i < n1 && j < n {
        if cmp(&v[i], &v[j]) != Ordering::Greater {
            tmp.push(v[i]);
            i += 1;
        } else {
            tmp.push(v[j]);
            j += 1;
        }
    }
    tmp.extend_from_slice(&v[i..n1]);
    tmp.extend_from_slice(&v[j..]);
    v.copy_from_slice(&tmp);
}

/// An unparameterised type whose acceptance of a detailed inferred type depends only on the
/// value's kind (an Array's Tuple type and `Array` alike, a Hash's Struct type and `Hash`).
fn is_kind_level_type(t: &Type) -> bool {
    match t {
        Type::Any
        | Type::Scalar
        | Type::ScalarData
        | Type::Numeric
        | Type::Binary
        | Type::Default
        | Type::Undef
        | Type::SemVerRange
        | Type::CatalogEntry => true,
        Type::Integer { from: None, to: None } | Type::String(None) | Type::Boolean(None) | Type::Regexp(None) => true,
        Type::Float { from, to } => from.is_infinite() && to.is_infinite(),
        Type::Array { element: None, size: None } | Type::Hash { key: None, value: None, size: None } => true,
        Type::Collection(None) | Type::Iterable(None) | Type::Type(None) | Type::Uri(None) | Type::Sensitive(None) => {
            true
        }
        Type::Timespan { from: None, to: None } | Type::Timestamp { from: None, to: None } => true,
        Type::SemVer(ranges) => ranges.is_empty(),
        Type::Object(o) => o.name.is_none() && o.attributes.is_empty(),
        _ => false,
    }
}

/// The type a value's format is looked up with: its detailed inferred type, or for an Array
/// or Hash under maps that decide by kind alone, just `Array` or `Hash` (inferring every
/// nested element is most of the work of formatting a container).
pub(crate) fn value_type(maps: &[&FormatMap], v: &Value) -> Type {
    match v {
        Value::Array(_) if maps.iter().all(|m| m.is_kind_level()) => Type::ARRAY,
        Value::Hash(_) if maps.iter().all(|m| m.is_kind_level()) => Type::HASH,
        other => puppet_types::infer::infer_set(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_sort_is_glibcs() {
        // Ruby: [3,1,2,5,4].sort { |a, b| p [a, b]; a <=> b } compares in this order
        let calls = std::cell::RefCell::new(Vec::new());
        let mut v = [3, 1, 2, 5, 4];
        merge_sort(&mut v, &|a: &i32, b: &i32| {
            calls.borrow_mut().push((*a, *b));
            a.cmp(b)
        });
        assert_eq!(v, [1, 2, 3, 4, 5]);
        assert_eq!(*calls.borrow(), vec![(3, 1), (5, 4), (2, 4), (1, 2), (3, 2), (3, 4)]);
    }

    fn s(v: &str, formats: &str) -> String {
        let v = puppet_types::literal::read(v).unwrap_or(Value::Undef);
        let f = puppet_types::literal::read(formats).unwrap_or(Value::Undef);
        crate::string_new(&v, Some(&f)).unwrap_or_else(|e| format!("!! {}", e.message))
    }

    #[test]
    fn specificity() {
        // Puppet 7.23, the oracle
        assert_eq!(s("10", "{Integer[0,20] => '%x', Integer[5,30] => '%o'}"), "a");
        assert_eq!(s("10", "{Integer[5,30] => '%o', Integer[0,20] => '%x'}"), "a");
        assert_eq!(s("10", "{Numeric => '%b', Integer => '%o'}"), "12");
        assert_eq!(s("1.5", "{Numeric => '%x'}"), "1");
        assert_eq!(s("'a'", "{Enum[a, b] => '%u', Pattern[/a/] => '%p', String => '%d'}"), "'a'");
        assert_eq!(s("[1]", "{Tuple => '%(a', Array => '%[a', Array[Integer] => '%<a'}"), "(1)");
    }

    #[test]
    fn iterable_meets_object() {
        // Puppet raises while sorting the map (Iterable[Integer].assignable?(Object))
        let e = "!! undefined method `element_type' for false:FalseClass";
        assert_eq!(s("1", "{Iterable[Integer] => '%x'}"), e);
        assert_eq!(s("1", "{Iterable => '%x'}"), "1");
        assert_eq!(
            s("2.5", "{Boolean => '%p', Any => '%t', Deferred => '%p', Optional[Iterable[String]] => '%p', Collection => '%e', Enum[a,b] => '%(a'}"),
            e
        );
    }

    #[test]
    fn user_formats_come_first() {
        let user = FormatMap { entries: vec![(Type::INTEGER, fmt("%x"))] };
        let merged = merge_string_formats(Some(&default_string_formats()), Some(&Rc::new(user)));
        let merged = merged.ok().flatten().unwrap_or_default();
        let f = merged.get_format(&Type::integer(Some(1), Some(1))).unwrap_or_else(|_| percent_s());
        assert_eq!(&*f.orig_fmt, "%x");
        let names: Vec<String> = merged.entries.iter().map(|(t, _)| t.to_string()).collect();
        assert_eq!(names.last().map(String::as_str), Some("Any"));
    }
}
