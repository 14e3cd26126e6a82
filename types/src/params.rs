//! Parameterising a type from values, as Puppet's access operator does on types
//! (`access_operator.rb`, `access_P*Type`, and the `TypeFactory` it calls):
//! `Integer[1, default]`, `String[$n]`, `Pattern['a', /b/]`, `Struct[{Optional[k] => T}]`,
//! `File['x']`, `Class['a', 'b']`, with Puppet's errors for bad parameters.
//!
//! Messages are Puppet's without the "Evaluation Error: " prefix; errors that Puppet raises
//! as Ruby exceptions inside the type factory carry the evaluator's
//! "Error while evaluating a '[]' expression, " prefix, as Puppet reports them.

use std::rc::Rc;

use crate::display::{a_an, a_an_uc, capitalize_segments};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::regexp::Regexp;
use crate::ty::{CallableType, IntBound, RuntimeName, Size, StringParam, StructElement, Type};
use crate::value::Value;

/// `base[keys...]` where `base` is a type.
pub fn parameterize(base: &Type, keys: &[Value]) -> Result<Value> {
    let t = match base {
        Type::Resource { type_name, title } => return resource(base, type_name.as_deref(), title.as_deref(), keys),
        Type::Class(name) => return class(base, name.as_deref(), keys),
        // Callable, Init and Struct take their keys as given; every other type flattens them.
        Type::Callable(_) | Type::Init { .. } | Type::Struct(_) => type_access(base, keys)?,
        _ => type_access(base, &flatten(keys))?,
    };
    Ok(Value::ty(t))
}

/// Ruby's `keys.flatten!`.
fn flatten(keys: &[Value]) -> Vec<Value> {
    let mut out = Vec::with_capacity(keys.len());
    let mut stack: Vec<std::slice::Iter<'_, Value>> = vec![keys.iter()];
    while let Some(top) = stack.last_mut() {
        match top.next() {
            Some(Value::Array(items)) if stack.len() < 1000 => stack.push(items.iter()),
            Some(v) => out.push(v.clone()),
            None => {
                stack.pop();
            }
        }
    }
    out
}

fn type_access(base: &Type, keys: &[Value]) -> Result<Type> {
    match base {
        Type::Object(o) if o.name.is_some() => crate::object::extend(o, keys).map_err(|e| in_access(e.message)),
        Type::Object(_) => object(keys),
        Type::Integer { .. } => integer(keys),
        Type::Float { .. } => float(keys),
        Type::String(_) => {
            let size = match keys {
                [a] => collection_size(std::slice::from_ref(a))?,
                [a, b] => collection_size(&[a.clone(), b.clone()])?,
                _ => {
                    return Err(Error::new(format!("String supports [] with one or two arguments. Got {}", keys.len())))
                }
            };
            Ok(Type::String(Some(StringParam::Size(size))))
        }
        Type::Boolean(_) => {
            assert_keys(base, keys, 1, Some(1), &[Allowed::Boolean])?;
            Ok(Type::Boolean(keys.first().and_then(|k| match k {
                Value::Boolean(b) => Some(*b),
                _ => None,
            })))
        }
        Type::Enum { .. } => {
            let (keys, case_insensitive) = match keys.split_last() {
                Some((Value::Boolean(b), rest)) => (rest, *b),
                _ => (keys, false),
            };
            assert_keys(base, keys, 1, None, &[Allowed::String])?;
            let mut values: Vec<Rc<str>> = keys.iter().filter_map(|k| k.as_str().map(Rc::from)).collect();
            values.sort();
            values.dedup();
            Ok(Type::Enum { values: values.into(), case_insensitive })
        }
        Type::Variant(_) => {
            assert_keys(base, keys, 1, None, &[Allowed::Type])?;
            Ok(crate::normalize::maybe_create_variant(keys.iter().filter_map(|k| k.as_type().cloned()).collect()))
        }
        Type::Pattern(_) => {
            assert_keys(
                base,
                keys,
                1,
                None,
                &[Allowed::String, Allowed::Regexp, Allowed::PatternType, Allowed::RegexpType],
            )?;
            pattern(keys)
        }
        Type::Regexp(_) => {
            if keys.len() != 1 {
                return Err(slice_arity(&label_a_an_uc(base), 1, Some(1), keys.len()));
            }
            assert_keys(base, keys, 1, Some(1), &[Allowed::String, Allowed::Regexp])?;
            let source: Box<str> = match &keys[0] {
                Value::Regexp(r) => r.source().into(),
                Value::String(s) => (**s).into(),
                _ => "".into(),
            };
            Ok(Type::Regexp(Some(Rc::new(Regexp::new(source)))))
        }
        Type::SemVer(_) => {
            assert_keys(base, keys, 1, None, &[Allowed::String, Allowed::SemVerRange])?;
            let ranges = crate::semver::semver_type_ranges(keys).map_err(|e| in_access(e.message))?;
            Ok(Type::SemVer(ranges.into()))
        }
        Type::Timespan { .. } | Type::Timestamp { .. } => time_range(base, keys),
        Type::Tuple { .. } => {
            let (types, size) = trailing_size(keys)?;
            assert_keys(base, types, 1, None, &[Allowed::Type])?;
            Ok(Type::Tuple { types: types.iter().filter_map(|k| k.as_type().cloned()).collect(), size })
        }
        Type::Callable(_) => callable(base, keys),
        Type::Struct(_) => {
            assert_keys(base, keys, 1, Some(1), &[Allowed::Hash])?;
            match keys.first() {
                Some(Value::Hash(h)) => structure(h),
                _ => Err(Error::new("Struct[] requires a Hash")),
            }
        }
        Type::Uri(_) => {
            if keys.len() != 1 {
                return Err(slice_arity("URI-Type", 1, None, keys.len()));
            }
            uri(&keys[0])
        }
        Type::Optional(_) => match keys {
            [Value::Type(t)] => Ok(Type::Optional(Some(t.clone()))),
            [Value::String(s)] => Ok(Type::optional(Type::String(Some(StringParam::Value(s.clone()))))),
            [k] => Err(slice_type("Optional-Type", k)),
            _ => Err(slice_arity("Optional-Type", 1, None, keys.len())),
        },
        Type::NotUndef(_) => match keys {
            [] => Ok(Type::NotUndef(None)),
            [Value::String(s)] => Ok(Type::NotUndef(Some(Rc::new(Type::String(Some(StringParam::Value(s.clone()))))))),
            [Value::Type(t)] if **t == Type::Any => Ok(Type::NotUndef(None)),
            [Value::Type(t)] => Ok(Type::NotUndef(Some(t.clone()))),
            [k] => {
                Err(Error::new(format!("NotUndef-Type[] argument must be a Type or a String. Got {}", ruby_class(k))))
            }
            _ => Err(slice_arity("NotUndef-Type", 0, Some(1), keys.len())),
        },
        // PSensitiveType keeps the generalization of its type.
        Type::Sensitive(_) => {
            contained(keys, "Sensitive-Type", |t| Type::Sensitive(t.map(|t| Rc::new(crate::infer::generalize(&t)))))
        }
        Type::Type(_) => contained(keys, "Type-Type", Type::Type),
        Type::Iterable(_) => contained(keys, "Iterable-Type", Type::Iterable),
        Type::Iterator(_) => contained(keys, "Iterator-Type", Type::Iterator),
        Type::Init { .. } => match keys.split_first() {
            Some((Value::Type(t), args)) => Ok(Type::Init { ty: Some(t.clone()), args: args.into() }),
            Some((k, _)) => Err(slice_type("Init-Type", k)),
            None => Err(slice_type("Init-Type", &Value::Undef)),
        },
        Type::Runtime { .. } => {
            assert_keys(base, keys, 2, Some(2), &[Allowed::String, Allowed::String])?;
            let runtime = keys[0].as_str().map(Rc::from);
            let name = keys[1].as_str().map(|s| RuntimeName::Name(s.into()));
            Ok(Type::Runtime { runtime, name })
        }
        Type::Hash { .. } => hash(keys),
        Type::Collection(_) => match keys {
            [_] | [_, _] => Ok(Type::Collection(Some(collection_size(keys)?))),
            _ => Err(slice_arity("Collection-Type", 1, Some(2), keys.len())),
        },
        Type::Array { .. } => array(keys),
        Type::Deferred => Err(in_access("The Deferred-Type cannot be parameterized using []")),
        Type::Error(None) => error_type(keys),
        Type::Reference(name) => Err(Error::new(format!("Resource type not found: {name}"))),
        Type::Alias(a) => Err(not_applicable(&Type::Alias(a.clone()))),
        other => Err(not_applicable(other)),
    }
}

/// `Error[kind, issue_code]` or `Error[{name => value}]` (`PObjectTypeExtension#initialize`):
/// each parameter a string, regexp, `Enum`, `Pattern`, `NotUndef` or `Undef` type, or undef;
/// `default` leaves it free.
fn error_type(keys: &[Value]) -> Result<Type> {
    let allowed = Type::optional(crate::normalize::maybe_create_variant(vec![
        Type::STRING,
        Type::Regexp(None),
        Type::Type(Some(Rc::new(Type::Enum { values: Rc::from([]), case_insensitive: false }))),
        Type::Type(Some(Rc::new(Type::Pattern(Rc::from([]))))),
        Type::Type(Some(Rc::new(Type::NotUndef(None)))),
        Type::Type(Some(Rc::new(Type::Undef))),
    ]));
    const NAMES: [&str; 2] = ["kind", "issue_code"];
    let mut by_name: [Option<Value>; 2] = [None, None];
    let mut set = |name: &str, v: &Value| -> Result<()> {
        let Some(index) = NAMES.iter().position(|n| *n == name) else {
            return Err(in_access(format!("'{name}' is not a known type parameter for Error-Type")));
        };
        if matches!(v, Value::Default) {
            return Ok(());
        }
        if !crate::instance::is_instance(&allowed, v) {
            let subject = format!("type_parameter Error[{name}] has wrong type,");
            return Err(in_access(crate::mismatch::describe_value(&subject, &allowed, v)));
        }
        by_name[index] = Some(v.clone());
        Ok(())
    };
    // A single hash that is not itself a valid first parameter names the parameters.
    match keys {
        [Value::Hash(h)] => {
            for (k, v) in h.iter() {
                set(k.as_str().unwrap_or_default(), v)?;
            }
        }
        _ => {
            for (name, v) in NAMES.iter().zip(keys) {
                set(name, v)?;
            }
        }
    }
    let [kind, issue_code] = by_name;
    if kind.is_none() && issue_code.is_none() {
        return Err(in_access("The Error-Type cannot be parameterized using an empty parameter list"));
    }
    Ok(Type::Error(Some(Rc::new(crate::ty::ErrorParams { kind, issue_code }))))
}

/// `Operator '[]' is not applicable to a Scalar-Type.`
fn not_applicable(t: &Type) -> Error {
    Error::new(format!("Operator '[]' is not applicable to {}.", label_a_an(t)))
}

/// Ruby exceptions from the type factory, as the evaluator reports them.
/// `access_PObjectType` of an unnamed Object type (`TypeFactory.object`): `Object[{...}]`,
/// `Object['Name']` (a named type with no members).
fn object(keys: &[Value]) -> Result<Type> {
    use crate::ty::ObjectType;
    let [key] = keys else { return Err(slice_arity("Object-Type", 1, Some(1), keys.len())) };
    let ty = match key {
        Value::Undef => ObjectType::default(),
        Value::Hash(h) if h.is_empty() => ObjectType::default(),
        Value::Hash(_) => crate::object::from_init_hash(None, key).map_err(|e| in_access(e.message))?,
        Value::String(s) if !s.is_empty() => ObjectType { name: Some(s.clone()), ..ObjectType::default() },
        Value::String(_) | Value::Array(_) => ObjectType::default(),
        other => {
            return Err(in_access(format!(
                "undefined method `empty?' for {}\n\n    hash.nil? || hash.empty? ? PObjectType::DEFAULT : PObjectType.new(hash, loader)\n                     ^^^^^^^",
                ruby_receiver(other)
            )))
        }
    };
    Ok(Type::Object(Rc::new(ty)))
}

fn in_access(message: impl std::fmt::Display) -> Error {
    Error::new(format!("Error while evaluating a '[]' expression, {message}"))
}

fn contained(keys: &[Value], base: &str, make: fn(Option<Rc<Type>>) -> Type) -> Result<Type> {
    match keys {
        [Value::Type(t)] => Ok(make(Some(t.clone()))),
        [k] => Err(slice_type(base, k)),
        _ => Err(slice_arity(base, 1, None, keys.len())),
    }
}

fn integer(keys: &[Value]) -> Result<Type> {
    if !(1..=2).contains(&keys.len()) {
        return Err(Error::new(format!(
            "Integer-Type supports [] with one or two arguments (from, to). Got {}",
            keys.len()
        )));
    }
    let mut bounds = [None, None];
    for (i, k) in keys.iter().enumerate() {
        bounds[i] = match k {
            Value::Integer(_) | Value::BigInt(_) => k.as_int(),
            Value::Default => None,
            other => {
                return Err(Error::new(format!(
                    "Integer-Type [] requires all arguments to be integers (or default). Got {}",
                    ruby_class(other)
                )))
            }
        };
    }
    let [from, to] = bounds;
    int_range(from, if keys.len() == 1 { None } else { to })
}

/// `PIntegerType.new(from, to)` with its order check.
fn int_range(from: IntBound, to: IntBound) -> Result<Type> {
    if let (Some(f), Some(t)) = (&from, &to) {
        if f > t {
            return Err(in_access(format!("'from' must be less or equal to 'to'. Got ({f}, {t}")));
        }
    }
    Ok(Type::Integer { from, to })
}

/// A size from its checked bounds: `from` defaults to 0, and a negative one is 0.
fn size_range(from: IntBound, to: IntBound) -> Result<Size> {
    int_range(from.clone(), to.clone())?;
    let from = from.filter(|f| !f.is_negative()).unwrap_or(Int::Small(0));
    Ok(Size { from, to })
}

fn float(keys: &[Value]) -> Result<Type> {
    if !(1..=2).contains(&keys.len()) {
        return Err(Error::new(format!(
            "Float-Type supports [] with one or two arguments (from, to). Got {}",
            keys.len()
        )));
    }
    let mut bounds = [f64::NEG_INFINITY, f64::INFINITY];
    for (i, k) in keys.iter().enumerate() {
        match k {
            Value::Integer(n) => bounds[i] = *n as f64,
            Value::BigInt(_) => bounds[i] = k.as_int().map_or(0.0, |n| n.to_f64()),
            Value::Float(f) => bounds[i] = *f,
            Value::Default => {}
            other => {
                return Err(Error::new(format!(
                    "Float-Type [] requires all arguments to be floats, or integers (or default). Got {}",
                    ruby_class(other)
                )))
            }
        }
    }
    if bounds[0] > bounds[1] {
        return Err(in_access(format!(
            "'from' must be less or equal to 'to'. Got ({}, {}",
            crate::display::float_to_s(bounds[0]),
            crate::display::float_to_s(bounds[1])
        )));
    }
    Ok(Type::Float { from: bounds[0], to: bounds[1] })
}

/// A size constraint: one `Integer` type, or one or two integers (or `default`).
fn collection_size(keys: &[Value]) -> Result<Size> {
    if let [Value::Type(t)] = keys {
        if let Type::Integer { from, to } = &**t {
            let from = from.clone().filter(|f| !f.is_negative()).unwrap_or(Int::Small(0));
            return Ok(Size { from, to: to.clone() });
        }
    }
    let mut bounds = [None, None];
    for (i, k) in keys.iter().enumerate().take(2) {
        bounds[i] = match k {
            Value::Integer(_) | Value::BigInt(_) => k.as_int(),
            Value::Default => None,
            other => {
                return Err(Error::new(format!(
                    "A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got {}",
                    a_an(&class_label(other))
                )))
            }
        };
    }
    let [from, to] = bounds;
    size_range(from, if keys.len() == 1 { None } else { to })
}

/// `Puppet's TypeFactory.is_range_parameter?`.
fn is_range_param(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::Integer(_) | Value::BigInt(_) | Value::Default))
        || v.and_then(Value::as_str) == Some("default")
}

/// Splits trailing size arguments (`Tuple[T, 1, 2]`, `Callable[T, 1]`) off the types.
fn trailing_size(keys: &[Value]) -> Result<(&[Value], Option<Size>)> {
    let n = keys.len();
    if n >= 2 && is_range_param(keys.get(n - 2)) && is_range_param(keys.get(n - 1)) {
        Ok((&keys[..n - 2], Some(size_range(keys[n - 2].as_int(), keys[n - 1].as_int())?)))
    } else if is_range_param(keys.last()) {
        Ok((&keys[..n - 1], Some(size_range(keys.last().and_then(Value::as_int), None)?)))
    } else {
        Ok((keys, None))
    }
}

fn pattern(keys: &[Value]) -> Result<Type> {
    pattern_from(keys, in_access, |_| Ok(()))
}

/// `TypeFactory.pattern(*regular_expressions)`: the distinct regexps of strings, regexps,
/// and Regexp and Pattern types. A string that does not compile gives `bad_regexp`'s error
/// of Ruby's message; `other` decides about any other value (ignored, or an error).
pub(crate) fn pattern_from(
    values: &[Value],
    bad_regexp: impl Fn(String) -> Error,
    other: impl Fn(&Value) -> Result<()>,
) -> Result<Type> {
    let mut patterns: Vec<Rc<Regexp>> = Vec::new();
    let mut push = |r: Rc<Regexp>| {
        if !patterns.iter().any(|p| p.source() == r.source()) {
            patterns.push(r);
        }
    };
    for v in values {
        match v {
            Value::String(s) => {
                let r = Regexp::new(&**s);
                if let Err(e) = r.check() {
                    return Err(bad_regexp(ruby_regexp_error(&e, s)));
                }
                push(Rc::new(r));
            }
            Value::Regexp(r) => push(r.clone()),
            Value::Type(t) if matches!(**t, Type::Regexp(_) | Type::Pattern(_)) => match &**t {
                Type::Regexp(Some(r)) => push(r.clone()),
                Type::Pattern(ps) => ps.iter().cloned().for_each(&mut push),
                _ => push(Rc::new(Regexp::new(""))),
            },
            v => other(v)?,
        }
    }
    Ok(Type::Pattern(patterns.into()))
}

/// A regexp compile error in the shape of Ruby's (`end pattern with unmatched parenthesis:
/// /(/`); the reason is the compiler's own where Ruby's wording is not known.
pub(crate) fn ruby_regexp_error(message: &str, source: &str) -> String {
    let reason = if message.contains("Opening parenthesis without closing") || message.contains("unclosed group") {
        "end pattern with unmatched parenthesis"
    } else if message.contains("Closing parenthesis without") || message.contains("unopened group") {
        "unmatched close parenthesis"
    } else if message.contains("Invalid character class") || message.contains("unclosed character class") {
        "premature end of char-class"
    } else if message.contains("Target of repeat operator is invalid")
        || message.contains("repetition operator missing expression")
    {
        "target of repeat operator is not specified"
    } else {
        message.lines().last().unwrap_or(message).trim()
    };
    format!("{reason}: {}", crate::display::regexp_with_delimiters(source))
}

pub(crate) fn time_range(base: &Type, keys: &[Value]) -> Result<Type> {
    if keys.len() > 2 {
        return Err(slice_arity(&label_a_an_uc(base), 0, Some(2), keys.len()));
    }
    let timespan = matches!(base, Type::Timespan { .. });
    let mut bounds = [None, None];
    for (i, k) in keys.iter().enumerate() {
        bounds[i] = match k {
            Value::Default | Value::Undef => None,
            Value::Timespan(t) if timespan => Some(t.nsecs),
            Value::Timestamp(t) if !timespan => Some(t.nsecs),
            Value::Integer(n) => Some(*n as i128 * 1_000_000_000),
            Value::Float(f) => Some((*f * 1e9) as i128),
            Value::String(_) | Value::Hash(_) => {
                let made = if timespan {
                    crate::time::new_timespan(std::slice::from_ref(k))
                } else {
                    crate::time::new_timestamp(std::slice::from_ref(k))
                };
                match made {
                    Ok(Value::Timespan(ref t)) => Some(t.nsecs),
                    Ok(Value::Timestamp(ref t)) => Some(t.nsecs),
                    Ok(_) => None,
                    Err(e) => return Err(in_access(e.message)),
                }
            }
            other => {
                let class = if timespan { "Puppet::Pops::Time::Timespan" } else { "Puppet::Pops::Time::Timestamp" };
                return Err(in_access(format!("Unable to create a {class} from a {}", ruby_class(other))));
            }
        };
    }
    if let (Some(f), Some(t)) = (bounds[0], bounds[1]) {
        if f > t {
            let show = |n: i128| {
                if timespan {
                    crate::time::Timespan { nsecs: n }.to_string()
                } else {
                    crate::time::Timestamp { nsecs: n }.to_string()
                }
            };
            return Err(in_access(format!("'from' must be less or equal to 'to'. Got ({}, {}", show(f), show(t))));
        }
    }
    let (from, to) = (bounds[0], bounds[1]);
    Ok(if timespan { Type::Timespan { from, to } } else { Type::Timestamp { from, to } })
}

fn callable(base: &Type, keys: &[Value]) -> Result<Type> {
    let (params, return_type): (Vec<Value>, Option<Rc<Type>>) = match keys {
        [Value::Array(params), ret] => match ret {
            Value::Type(t) => ((**params).clone(), Some(t.clone())),
            other => {
                return Err(specialization(base, other, &[Allowed::Type]));
            }
        },
        [Value::Array(_), ..] => return Err(slice_arity(&label_a_an_uc(base), 2, Some(2), keys.len())),
        _ => (keys.to_vec(), None),
    };
    let mut params = params;
    let block = match params.last() {
        Some(Value::Type(t)) if is_kind_of_callable(t) => {
            let b = t.clone();
            params.pop();
            Some(b)
        }
        _ => None,
    };
    let (types, size) = trailing_size(&params)?;
    let mut types: Vec<Type> = types.iter().map(type_of).collect();
    if types.is_empty() && size.as_ref().is_some_and(|s| s.to.as_ref().is_none_or(|to| *to > 0)) {
        types.push(Type::Unit);
    }
    let tuple = Type::Tuple { types: types.into(), size };
    let return_type = return_type.filter(|t| **t != Type::Any);
    Ok(Type::Callable(Rc::new(CallableType { params: Some(Rc::new(tuple)), block, return_type })))
}

/// `TypeCalculator.is_kind_of_callable?`: a Callable, or an Optional/Variant of them.
pub(crate) fn is_kind_of_callable(t: &Type) -> bool {
    match t {
        Type::Callable(_) => true,
        Type::Optional(Some(t)) => is_kind_of_callable(t),
        Type::Variant(ts) => ts.iter().all(is_kind_of_callable),
        Type::Alias(a) => matches!(a.resolved_type(), Type::Callable(_)),
        _ => false,
    }
}

/// `TypeFactory.type_of`: a type is itself, a string is a Ruby runtime type, anything else
/// its generalized inferred type (`infer_generic`).
pub(crate) fn type_of(v: &Value) -> Type {
    match v {
        Value::Type(t) => (**t).clone(),
        Value::String(s) => Type::Runtime { runtime: Some("ruby".into()), name: Some(RuntimeName::Name(s.clone())) },
        other => crate::infer::infer_generalized(other),
    }
}

pub(crate) fn structure(h: &crate::value::Hash) -> Result<Type> {
    let mut elements = Vec::with_capacity(h.len());
    for (k, v) in h.iter() {
        let value_type = type_of(v);
        let key_type = match k {
            Value::String(s) => {
                if s.is_empty() {
                    return Err(in_access("Struct element key cannot be an empty String"));
                }
                let key = Type::String(Some(StringParam::Value(s.clone())));
                if crate::assignable::is_assignable(&value_type, &Type::Undef) {
                    Type::optional(key)
                } else {
                    key
                }
            }
            Value::Type(t) => struct_key(t)?,
            other => {
                return Err(in_access(format!(
                    "Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: {}",
                    ruby_class(other)
                )))
            }
        };
        elements.push(StructElement { key_type, value_type });
    }
    Ok(Type::Struct(elements.into()))
}

/// A struct key given as a type: `NotUndef[k]` (the wrapper dropped), `Optional[k]`,
/// `String` with a value, or an `Enum` of one value.
fn struct_key(t: &Rc<Type>) -> Result<Type> {
    let (key, literal) = match &**t {
        Type::NotUndef(inner) => {
            let inner = inner.as_deref().cloned().unwrap_or(Type::Any);
            (inner.clone(), Some(inner))
        }
        Type::Optional(inner) => ((**t).clone(), inner.as_deref().cloned()),
        Type::String(_) => ((**t).clone(), Some((**t).clone())),
        Type::Enum { values, .. } => {
            let s = (values.len() == 1).then(|| Type::String(Some(StringParam::Value(values[0].clone()))));
            ((**t).clone(), s)
        }
        other => {
            return Err(in_access(format!(
                "Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: {}",
                ruby_class(&Value::Type(Rc::new(other.clone())))
            )))
        }
    };
    // Puppet means to say this, but crashes building the message (`TypeCalculator#string`
    // does not exist): the message it intends is given instead.
    match literal {
        Some(Type::String(Some(StringParam::Value(_)))) => Ok(key),
        _ => Err(in_access(format!("Unable to extract a non-empty literal string from Struct member key type {}", t))),
    }
}

/// `URI[param]`: a non-empty URI string (kept as the hash of its parts), or a hash of parts
/// matching `TYPE_URI_PARAM_HASH_TYPE` (strings, regexps, or Pattern/Enum/NotUndef/Undef
/// types for the string parts, an integer or such a type for `port`).
pub(crate) fn uri(param: &Value) -> Result<Type> {
    match param {
        Value::String(s) if !s.is_empty() => match crate::uri::new_uri(std::slice::from_ref(param)) {
            Ok(Value::Uri(ref u)) => Ok(Type::Uri(Some(Rc::new(uri_parts(u))))),
            Ok(_) => Ok(Type::Uri(None)),
            Err(e) => Err(in_access(e.message)),
        },
        Value::Hash(h) if h.iter().all(|(k, v)| uri_param_entry(k, v)) => Ok(Type::Uri(Some(Rc::new(param.clone())))),
        other => Err(Error::new(format!("URI-Type[] arguments must be types. Got {}", ruby_class(other)))),
    }
}

fn uri_param_entry(key: &Value, value: &Value) -> bool {
    // An instance of Type[Pattern], Type[Enum], Type[NotUndef] or Type[Undef].
    let matcher_type = |v: &Value| match v {
        Value::Type(t) => [
            Type::Pattern(Rc::from([])),
            Type::Enum { values: Rc::from([]), case_insensitive: false },
            Type::NotUndef(None),
            Type::Undef,
        ]
        .iter()
        .any(|m| crate::assignable::is_assignable(m, t)),
        _ => false,
    };
    match key.as_str() {
        Some("port") => {
            matches!(value, Value::Undef) || matches!(value, Value::Integer(n) if *n >= 0) || matcher_type(value)
        }
        Some("scheme" | "userinfo" | "host" | "path" | "query" | "fragment" | "opaque") => match value {
            Value::Undef | Value::Regexp(_) => true,
            Value::String(s) => !s.is_empty(),
            v => matcher_type(v),
        },
        _ => false,
    }
}

/// `uri_to_hash`: the URI's parts as `URI['...']` keeps them.
fn uri_parts(u: &crate::uri::Uri) -> Value {
    Value::hash(u.type_parameters().unwrap_or_default())
}

fn hash(keys: &[Value]) -> Result<Type> {
    if let [a, b] = keys {
        if a.is_integer() && b.is_integer() {
            return Ok(Type::Hash { key: None, value: None, size: Some(size_range(a.as_int(), b.as_int())?) });
        }
    }
    for k in keys.iter().take(2) {
        if k.as_type().is_none() {
            return Err(slice_type("Hash-Type", k));
        }
    }
    let size = match keys.len() {
        2 => None,
        // Puppet makes `Integer[k]` of a third key that is not an Integer type.
        3 => Some(match &keys[2] {
            Value::Type(t) if matches!(**t, Type::Integer { .. }) => collection_size(&keys[2..3])?,
            n @ (Value::Integer(_) | Value::BigInt(_)) => size_range(n.as_int(), None)?,
            Value::Default => Size::ANY,
            other => return Err(in_access(format!("comparison of {} with Infinity failed", ruby_class(other)))),
        }),
        4 => Some(collection_size(&keys[2..4])?),
        n => return Err(slice_arity("Hash-Type", 2, Some(4), n)),
    };
    let key = keys[0].as_type().map(|t| Rc::new(t.clone()));
    let value = keys[1].as_type().map(|t| Rc::new(t.clone()));
    Ok(empty_collection(Type::Hash { key, value, size }))
}

fn array(keys: &[Value]) -> Result<Type> {
    let (element, size) = match keys {
        [Value::Type(t)] => (Some(t.clone()), None),
        [k] => return Err(slice_type("Array-Type", k)),
        [Value::Type(t), n] => (Some(t.clone()), Some(collection_size(std::slice::from_ref(n))?)),
        [_, _] => (None, Some(collection_size(keys)?)),
        [Value::Type(t), a, b] => (Some(t.clone()), Some(collection_size(&[a.clone(), b.clone()])?)),
        [k, _, _] => return Err(slice_type("Array-Type", k)),
        _ => return Err(slice_arity("Array-Type", 1, Some(3), keys.len())),
    };
    Ok(empty_collection(Type::Array { element, size }))
}

/// An Array or Hash of size 0..0 has `Unit` elements, as Puppet makes them.
fn empty_collection(t: Type) -> Type {
    match t {
        Type::Array { size: Some(ref s), .. } if *s == Size::exact(0) => {
            Type::Array { element: Some(Rc::new(Type::Unit)), size: Some(s.clone()) }
        }
        Type::Hash { size: Some(ref s), .. } if *s == Size::exact(0) => {
            Type::Hash { key: Some(Rc::new(Type::Unit)), value: Some(Rc::new(Type::Unit)), size: Some(s.clone()) }
        }
        t => t,
    }
}

fn resource(base: &Type, type_name: Option<&str>, title: Option<&str>, keys: &[Value]) -> Result<Value> {
    if keys.is_empty() {
        return Err(slice_arity(&base.to_string(), 1, UNBOUNDED, 0));
    }
    let mut keys: Vec<Value> = keys.to_vec();
    let name: String = match type_name {
        Some(n) => n.to_owned(),
        None => match keys.remove(0) {
            Value::String(ref s) => capitalize_segments(s),
            Value::Type(ref t) => match &**t {
                Type::Resource { type_name: Some(n), .. } => n.to_string(),
                other => {
                    return Err(Error::new(format!(
                        "First argument to Resource[] must be a resource type or a String. Got {}.",
                        bad_key_type_name(&Value::Type(Rc::new(other.clone())))
                    )))
                }
            },
            other => {
                return Err(Error::new(format!(
                    "First argument to Resource[] must be a resource type or a String. Got {}.",
                    bad_key_type_name(&other)
                )))
            }
        },
    };
    if !is_classref_ext(&name) {
        return Err(Error::new(format!(
            "Illegal type reference. The given name '{name}' does not conform to the naming rule"
        )));
    }
    if let Some(title) = title {
        return Err(Error::new(format!("Resource not found: {name}['{title}']")));
    }
    let as_array = keys.len() > 1 || matches!(keys.first(), Some(Value::Array(_)));
    let orig = keys.len();
    let mut titles: Vec<Value> = flatten(&keys).into_iter().filter(|k| !k.is_undef()).collect();
    // EMPTY_RESOURCE_SPECIALIZATION is a warning: the result is nothing.
    if titles.is_empty() && orig > 0 {
        return Ok(if as_array { Value::array(Vec::new()) } else { Value::Undef });
    }
    if titles.is_empty() {
        titles.push(Value::Default);
    }
    let mut result = Vec::with_capacity(titles.len());
    for t in titles {
        let title = match t {
            Value::String(ref s) => Some(s),
            Value::Default if orig == 0 => None,
            other => {
                return Err(Error::new(format!(
                    "Error creating type specialization of {}, Cannot use {} where a resource title String is expected",
                    label_a_an(base),
                    bad_key_type_name(&other)
                )))
            }
        };
        result.push(Value::ty(Type::Resource { type_name: Some(name.as_str().into()), title: title.cloned() }));
    }
    Ok(if as_array { Value::array(result) } else { result.pop().unwrap_or(Value::Undef) })
}

/// `Patterns::CLASSREF_EXT`: `\A((::){0,1}[A-Z][\w]*)+\z`.
pub(crate) fn is_classref_ext(name: &str) -> bool {
    let rest = name.strip_prefix("::").unwrap_or(name);
    !rest.is_empty()
        && rest.split("::").all(|seg| {
            seg.starts_with(|c: char| c.is_ascii_uppercase()) && seg.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
}

/// `Patterns::NAME`: `\A((::)?[a-z]\w*)(::[a-z]\w*)*\z`.
fn is_name(name: &str) -> bool {
    let rest = name.strip_prefix("::").unwrap_or(name);
    !rest.is_empty()
        && rest.split("::").all(|seg| {
            seg.starts_with(|c: char| c.is_ascii_lowercase()) && seg.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
}

fn class(base: &Type, class_name: Option<&str>, keys: &[Value]) -> Result<Value> {
    if let Some(name) = class_name {
        return Err(Error::new(format!("Resource not found: Class['{name}']")));
    }
    class_references(base, keys).map_err(|(e, _)| e)
}

/// `Class[keys]` of the unparameterised `Class` (`access_PClassType`): one class reference
/// for one name, an array of them for several or for an array. An error comes with the key
/// Puppet blames: `None` for the access itself, `Some(i)` for the key at index `i` of the
/// flattened names without undefs (Puppet's `@semantic.keys[i]`, which may be past the keys
/// written, then the error has no position: `Class[[a, 1]]`).
pub fn class_references(base: &Type, keys: &[Value]) -> std::result::Result<Value, (Error, Option<usize>)> {
    if keys.is_empty() {
        return Err((slice_arity(&base.to_string(), 1, UNBOUNDED, 0), None));
    }
    let as_array = keys.len() > 1 || matches!(keys.first(), Some(Value::Array(_)));
    let names: Vec<Value> = flatten(keys).into_iter().filter(|k| !k.is_undef()).collect();
    // EMPTY_RESOURCE_SPECIALIZATION is a warning: the result is nothing.
    if names.is_empty() {
        return Ok(if as_array { Value::array(Vec::new()) } else { Value::Undef });
    }
    let mut result = Vec::with_capacity(names.len());
    for (i, c) in names.into_iter().enumerate() {
        let Value::String(s) = &c else {
            let message = format!(
                "Illegal Class name in class reference. {} cannot be used where a String is expected",
                a_an_uc(&value_label(&c))
            );
            return Err((Error::new(message), Some(i)));
        };
        let lower = s.to_lowercase();
        let name = lower.strip_prefix("::").unwrap_or(&lower);
        if !is_name(name) {
            let message = format!(
                "Illegal name. The given name '{s}' does not conform to the naming rule /^((::)?[a-z_]\\w*)(::[a-z]\\w*)*$/"
            );
            return Err((Error::new(message), Some(i)));
        }
        result.push(Value::ty(Type::Class(Some(name.into()))));
    }
    Ok(if as_array { Value::array(result) } else { result.pop().unwrap_or(Value::Undef) })
}

/// What a key may be, for `assert_keys` and its message.
#[derive(Clone, Copy)]
enum Allowed {
    Type,
    String,
    Regexp,
    Hash,
    Boolean,
    PatternType,
    RegexpType,
    SemVerRange,
}

impl Allowed {
    fn accepts(self, v: &Value) -> bool {
        match self {
            Allowed::Type => matches!(v, Value::Type(_)),
            Allowed::String => matches!(v, Value::String(_)),
            Allowed::Regexp => matches!(v, Value::Regexp(_)),
            Allowed::Hash => matches!(v, Value::Hash(_)),
            Allowed::Boolean => matches!(v, Value::Boolean(_)),
            Allowed::PatternType => matches!(v.as_type(), Some(Type::Pattern(_))),
            Allowed::RegexpType => matches!(v.as_type(), Some(Type::Regexp(_))),
            Allowed::SemVerRange => matches!(v, Value::SemVerRange(_)),
        }
    }

    fn label(self) -> &'static str {
        match self {
            Allowed::Type => "Any-Type",
            Allowed::String => "String",
            Allowed::Regexp => "Regexp",
            Allowed::Hash => "Hash",
            Allowed::Boolean => "TrueClass or FalseClass",
            Allowed::PatternType => "Pattern-Type",
            Allowed::RegexpType => "Regexp-Type",
            Allowed::SemVerRange => "SemanticPuppet::VersionRange",
        }
    }
}

/// `assert_keys`: `max` is `None` for no upper bound.
fn assert_keys(base: &Type, keys: &[Value], min: usize, max: Option<usize>, allowed: &[Allowed]) -> Result<()> {
    if keys.len() < min || max.is_some_and(|m| keys.len() > m) {
        return Err(slice_arity(&label_a_an_uc(base), 1, max.or(UNBOUNDED), keys.len()));
    }
    for k in keys {
        if !allowed.iter().any(|a| a.accepts(k)) {
            return Err(specialization(base, k, allowed));
        }
    }
    Ok(())
}

/// `BAD_TYPE_SPECIALIZATION`: "Error creating type specialization of a Tuple-Type, Cannot use
/// String where Any-Type is expected".
fn specialization(base: &Type, actual: &Value, allowed: &[Allowed]) -> Error {
    let expected: Vec<&str> = allowed.iter().map(|a| a.label()).collect();
    Error::new(format!(
        "Error creating type specialization of {}, Cannot use {} where {} is expected",
        label_a_an(base),
        bad_key_type_name(actual),
        expected.join(" or ")
    ))
}

/// No upper bound on the number of arguments (Puppet's `-1` / `Float::INFINITY`).
const UNBOUNDED: Option<usize> = Some(usize::MAX);

/// `BAD_TYPE_SLICE_ARITY`: `max` is `None` when Puppet passes none (the message then says
/// "accepts {min} argument(s)"), [`UNBOUNDED`] for "or more".
fn slice_arity(base_label: &str, min: usize, max: Option<usize>, actual: usize) -> Error {
    let text = match max {
        UNBOUNDED => format!("{base_label}[] accepts {min} or more arguments. Got {actual}"),
        Some(max) if max != min => format!("{base_label}[] accepts {min} to {max} arguments. Got {actual}"),
        _ => format!("{base_label}[] accepts {min} {}. Got {actual}", if min == 1 { "argument" } else { "arguments" }),
    };
    Error::new(text)
}

/// `BAD_TYPE_SLICE_TYPE`.
fn slice_type(base: &str, actual: &Value) -> Error {
    Error::new(format!("{base}[] arguments must be types. Got {}", ruby_class(actual)))
}

/// `bad_key_type_name`: `Undef`, `Default`, or the generalized inferred type.
fn bad_key_type_name(v: &Value) -> String {
    match v {
        Value::Undef => "Undef".into(),
        Value::Default => "Default".into(),
        other => crate::infer::generalize(&crate::infer::infer(other)).to_string(),
    }
}

/// The label of a type in messages: `Struct-Type`.
fn label(t: &Type) -> String {
    crate::display::label(&Value::ty(t.clone()))
}

fn label_a_an(t: &Type) -> String {
    a_an(&label(t))
}

fn label_a_an_uc(t: &Type) -> String {
    a_an_uc(&label(t))
}

// --- Ruby's view of values -----------------------------------------------------------------
//
// Puppet's messages often show values as Ruby does: by class (`comparison of Integer with
// String failed`), by `inspect` (`undefined method `>' for [1]:Array`). These are the one
// place of those rules; the evaluator's functions use them too.

/// The Ruby class of a value as Puppet's messages name it (`Integer`, `NilClass`,
/// `Puppet::Pops::Types::PIntegerType`, `URI::HTTP`).
pub fn ruby_class(v: &Value) -> String {
    match v {
        Value::Undef => "NilClass".into(),
        Value::Default => "Symbol".into(),
        Value::Boolean(true) => "TrueClass".into(),
        Value::Boolean(false) => "FalseClass".into(),
        Value::Integer(_) | Value::BigInt(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::String(_) => "String".into(),
        Value::Regexp(_) => "Regexp".into(),
        Value::Array(_) => "Array".into(),
        Value::Hash(_) => "Hash".into(),
        Value::Type(t) => format!("Puppet::Pops::Types::{}", type_class(t)),
        Value::Timespan(_) => "Puppet::Pops::Time::Timespan".into(),
        Value::Timestamp(_) => "Puppet::Pops::Time::Timestamp".into(),
        Value::SemVer(_) => "SemanticPuppet::Version".into(),
        Value::SemVerRange(_) => "SemanticPuppet::VersionRange".into(),
        Value::Binary(_) => "Puppet::Pops::Types::PBinaryType::Binary".into(),
        Value::Uri(u) => uri_class(u.class).into(),
        Value::Sensitive(_) => "Puppet::Pops::Types::PSensitiveType::Sensitive".into(),
        Value::Deferred(_) => "Puppet::Pops::Evaluator::DeferredValue".into(),
        Value::Error(_) => "Puppet::DataTypes::Error".into(),
        Value::Object(o) => crate::object::label(&o.ty).into(),
        Value::Iterator(_) => "Puppet::Pops::Types::Iterator".into(),
        Value::Callable(_) => "Puppet::Pops::Evaluator::Closure".into(),
    }
}

/// The Ruby class `URI.parse` gives a URI of its scheme (`URI.scheme_list`).
fn uri_class(class: crate::uri::Class) -> &'static str {
    use crate::uri::Class as C;
    match class {
        C::Generic => "URI::Generic",
        C::Http => "URI::HTTP",
        C::Https => "URI::HTTPS",
        C::Ftp => "URI::FTP",
        C::File => "URI::File",
        C::Ldap => "URI::LDAP",
        C::Ldaps => "URI::LDAPS",
        C::MailTo => "URI::MailTo",
        C::Ws => "URI::WS",
        C::Wss => "URI::WSS",
    }
}

/// How deep [`ruby_inspect`] descends into arrays and hashes before it writes `[...]`.
const INSPECT_DEPTH: usize = 500;

/// Ruby's `inspect` of a value as Puppet holds it: `nil`, `:default`, `1.0`, `"a\n"`,
/// `/re/`, `[1, "a"]`, `{"a"=>1}`; versions and ranges as their string, a Sensitive as
/// `#<Sensitive [value redacted]>`, a URI as `#<URI::HTTP http://a/>`; types and time values
/// in Ruby's default form with their instance variables, the address written as zero
/// (Puppet's is a real one).
pub fn ruby_inspect(v: &Value) -> String {
    let mut out = String::new();
    write_inspect(&mut out, v, 0);
    out
}

fn write_inspect(out: &mut String, v: &Value, depth: usize) {
    if depth > INSPECT_DEPTH {
        out.push_str("[...]");
        return;
    }
    match v {
        Value::Undef => out.push_str("nil"),
        Value::Default => out.push_str(":default"),
        Value::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Integer(i) => out.push_str(&i.to_string()),
        Value::BigInt(b) => out.push_str(&b.to_string()),
        Value::Float(f) => out.push_str(&crate::display::float_to_s(*f)),
        Value::String(s) => out.push_str(&poppet_ruby::string::inspect(s)),
        Value::Regexp(r) => out.push_str(&crate::display::regexp_with_delimiters(r.source())),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_inspect(out, x, depth + 1);
            }
            out.push(']');
        }
        Value::Hash(h) => {
            out.push('{');
            for (i, (k, x)) in h.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_inspect(out, k, depth + 1);
                out.push_str("=>");
                write_inspect(out, x, depth + 1);
            }
            out.push('}');
        }
        Value::Sensitive(_) => out.push_str("#<Sensitive [value redacted]>"),
        Value::Type(t) => {
            let class = ruby_class(v);
            match &**t {
                Type::Integer { from, to } => out.push_str(&format!(
                    "#<{class}:0x0000000000000000 @from={}, @to={}>",
                    from.as_ref().map_or("-Infinity".to_string(), |f| f.to_string()),
                    to.as_ref().map_or("Infinity".to_string(), |f| f.to_string())
                )),
                _ => out.push_str(&format!("#<{class}:0x0000000000000000>")),
            }
        }
        Value::Timespan(t) => {
            out.push_str(&format!("#<Puppet::Pops::Time::Timespan:0x0000000000000000 @nsecs={}>", t.nsecs))
        }
        Value::Timestamp(t) => {
            out.push_str(&format!("#<Puppet::Pops::Time::Timestamp:0x0000000000000000 @nsecs={}>", t.nsecs))
        }
        Value::Uri(u) => out.push_str(&format!("#<{} {u}>", uri_class(u.class))),
        other => out.push_str(&crate::display::value_to_s(other)),
    }
}

/// The receiver in Ruby 3.1's `NoMethodError` message (`undefined method `m' for RECEIVER`):
/// the value's `inspect` and class (`nil:NilClass`, `1:Integer`, `[1, 2]:Array`, however
/// long), or an `inspect` in Ruby's `#<...>` form alone.
pub fn ruby_receiver(v: &Value) -> String {
    let shown = ruby_inspect(v);
    if shown.starts_with('#') {
        shown
    } else {
        format!("{shown}:{}", ruby_class(v))
    }
}

/// The label Puppet's label provider gives a value's Ruby class: the class name, or
/// `Integer-Type` for a type's class.
fn class_label(v: &Value) -> String {
    match v {
        Value::Type(t) => format!("{}-Type", type_class(t).trim_start_matches('P').trim_end_matches("Type")),
        other => ruby_class(other),
    }
}

/// The label Puppet's label provider gives a value.
fn value_label(v: &Value) -> String {
    crate::display::label(v)
}

/// The Ruby class implementing a type (`PIntegerType`).
fn type_class(t: &Type) -> String {
    match t {
        Type::Alias(_) => "PTypeAliasType".into(),
        Type::Reference(_) => "PTypeReferenceType".into(),
        Type::Uri(_) => "PURIType".into(),
        Type::Object(_) | Type::Deferred | Type::Error(None) => "PObjectType".into(),
        Type::Error(Some(_)) => "PObjectTypeExtension".into(),
        other => format!("P{}Type", other.name()),
    }
}
