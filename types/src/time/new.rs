//! `Timespan.new` (`new_timespan`) and `Timestamp.new` (`new_timestamp`): the dispatches of
//! `p_timespan_type.rb` and `p_timestamp_type.rb`, tried in order, with Puppet's message
//! when none accepts the arguments.
//!
//! ```text
//! new_timespan:
//!   (Variant[Integer, Float] seconds)
//!   (String[1] string, Formats format?)              Formats = Variant[String[2], Array[String[2], 1]]
//!   (Integer days, Integer hours, Integer minutes, Integer seconds,
//!    Integer milliseconds?, Integer microseconds?, Integer nanoseconds?)
//!   (Struct[{string => String[1], Optional[format] => Formats}] hash_arg)
//!   (Struct[{Optional[negative] => Boolean, Optional[days] => Integer, ... nanoseconds}] hash_arg)
//! new_timestamp:
//!   ()                                               now
//!   (Variant[Integer, Float] seconds)
//!   (String[1] string, Formats format?, String[1] timezone?)
//!   (Struct[{string => String[1], Optional[format] => Formats, Optional[timezone] => String[1]}] hash_arg)
//! ```

use std::rc::Rc;

use super::timespan::SpanFormats;
use super::timestamp::StampFormats;
use super::{Timespan, Timestamp};
use crate::error::{Error, Result};
use crate::ty::{Size, StringParam, StructElement, Type, TypeAlias};
use crate::value::{Hash, Value};

/// The keys of a fields hash, in `Timespan.from_fields` order after `negative`.
const FIELD_KEYS: [&str; 7] = ["days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"];

/// `new_timespan(args)`.
pub fn new_timespan(args: &[Value]) -> Result<Value> {
    let value = |t: Timespan| Value::Timespan(Rc::new(t));
    match args {
        [Value::Integer(i)] => return Ok(value(Timespan::new(i128::from(*i) * 1_000_000_000))),
        [Value::Float(f)] => return Ok(value(Timespan::from_seconds_f64(*f)?)),
        [s, rest @ ..] if rest.len() <= 1 && is_string(s, 1) && rest.iter().all(is_formats) => {
            let formats = rest.first().map_or(SpanFormats::Default, span_formats);
            return Ok(value(Timespan::parse(text(s), &formats)?));
        }
        _ if (4..=7).contains(&args.len()) && args.iter().all(|a| matches!(a, Value::Integer(_))) => {
            let mut fields = [0i64; 7];
            for (f, a) in fields.iter_mut().zip(args) {
                if let Value::Integer(i) = a {
                    *f = *i;
                }
            }
            return Ok(value(Timespan::from_fields(false, fields)));
        }
        [Value::Hash(h)] if is_string_hash(h, false) => {
            let formats = hash_get(h, "format").map_or(SpanFormats::Default, span_formats);
            return Ok(value(Timespan::parse(hash_get(h, "string").map_or("", text), &formats)?));
        }
        [Value::Hash(h)] if is_fields_hash(h) => {
            let negative = matches!(hash_get(h, "negative"), Some(Value::Boolean(true)));
            let fields = FIELD_KEYS.map(|k| match hash_get(h, k) {
                Some(Value::Integer(i)) => *i,
                _ => 0,
            });
            return Ok(value(Timespan::from_fields(negative, fields)));
        }
        _ => {}
    }
    Err(Error::new(describe("new_timespan", &timespan_signatures(), args)))
}

/// `new_timestamp(args)`.
pub fn new_timestamp(args: &[Value]) -> Result<Value> {
    let value = |t: Timestamp| Value::Timestamp(Rc::new(t));
    match args {
        [] => return Ok(value(Timestamp::now())),
        [Value::Integer(i)] => return Ok(value(Timestamp::new(i128::from(*i) * 1_000_000_000))),
        [Value::Float(f)] => return Ok(value(Timestamp::from_seconds_f64(*f)?)),
        [s, rest @ ..]
            if rest.len() <= 2
                && is_string(s, 1)
                && rest.first().is_none_or(is_formats)
                && rest.get(1).is_none_or(|tz| is_string(tz, 1)) =>
        {
            let formats = rest.first().map_or(StampFormats::Default, stamp_formats);
            let tz = rest.get(1).map(text);
            return Ok(value(Timestamp::parse(text(s), &formats, tz)?));
        }
        [Value::Hash(h)] if is_string_hash(h, true) => {
            let formats = hash_get(h, "format").map_or(StampFormats::Default, stamp_formats);
            let tz = hash_get(h, "timezone").map(text);
            return Ok(value(Timestamp::parse(hash_get(h, "string").map_or("", text), &formats, tz)?));
        }
        _ => {}
    }
    Err(Error::new(describe("new_timestamp", &timestamp_signatures(), args)))
}

/// The text of a String value (`""` for others, which the checks exclude).
fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn hash_get<'h>(h: &'h Hash, key: &str) -> Option<&'h Value> {
    h.get(&Value::from(key))
}

/// An instance of `String[min]`.
fn is_string(v: &Value, min: usize) -> bool {
    v.as_str().is_some_and(|s| s.chars().count() >= min)
}

/// An instance of `Formats = Variant[String[2], Array[String[2], 1]]`.
fn is_formats(v: &Value) -> bool {
    match v {
        Value::Array(a) => !a.is_empty() && a.iter().all(|f| is_string(f, 2)),
        _ => is_string(v, 2),
    }
}

fn format_list(v: &Value) -> Vec<&str> {
    match v {
        Value::Array(a) => a.iter().map(text).collect(),
        _ => vec![text(v)],
    }
}

fn span_formats(v: &Value) -> SpanFormats<'_> {
    match v {
        Value::Array(_) => SpanFormats::Many(format_list(v)),
        _ => SpanFormats::One(text(v)),
    }
}

fn stamp_formats(v: &Value) -> StampFormats<'_> {
    match v {
        Value::Array(_) => StampFormats::Many(format_list(v)),
        _ => StampFormats::One(text(v)),
    }
}

/// An instance of `Struct[{string => String[1], Optional[format] => Formats}]` (and
/// `Optional[timezone] => String[1]` for timestamps).
fn is_string_hash(h: &Hash, with_timezone: bool) -> bool {
    let known = |k: &Value| match k.as_str() {
        Some("string" | "format") => true,
        Some("timezone") => with_timezone,
        _ => false,
    };
    h.keys().all(known)
        && hash_get(h, "string").is_some_and(|s| is_string(s, 1))
        && hash_get(h, "format").is_none_or(is_formats)
        && hash_get(h, "timezone").is_none_or(|tz| is_string(tz, 1))
}

/// An instance of the fields `Struct` (every key optional).
fn is_fields_hash(h: &Hash) -> bool {
    h.iter().all(|(k, v)| match k.as_str() {
        Some("negative") => matches!(v, Value::Boolean(_)),
        Some(k) if FIELD_KEYS.contains(&k) => matches!(v, Value::Integer(_)),
        _ => false,
    })
}

// ---- the message when no dispatch accepts the arguments ---------------------------------

/// A signature as `describe_signatures` needs it.
struct Signature {
    /// As Puppet prints it after "It expects one of:".
    text: &'static str,
    params: Vec<(&'static str, Type)>,
    required: usize,
}

fn string_min(n: i64) -> Type {
    Type::String(Some(StringParam::Size(Size::new(n, None))))
}

fn formats_type() -> Type {
    let array = Type::Array { element: Some(Rc::new(string_min(2))), size: Some(Size::new(1, None)) };
    Type::Alias(TypeAlias::with_type("Formats", Type::variant(vec![string_min(2), array])))
}

fn seconds_type() -> Type {
    Type::variant(vec![Type::INTEGER, Type::FLOAT])
}

fn entry(key: &str, optional: bool, value_type: Type) -> StructElement {
    let key_type = Type::String(Some(StringParam::Value(key.into())));
    StructElement { key_type: if optional { Type::optional(key_type) } else { key_type }, value_type }
}

fn timespan_signatures() -> Vec<Signature> {
    let mut fields = vec![entry("negative", true, Type::Boolean(None))];
    fields.extend(FIELD_KEYS.iter().map(|k| entry(k, true, Type::INTEGER)));
    vec![
        Signature { text: "Variant[Integer, Float] seconds", params: vec![("seconds", seconds_type())], required: 1 },
        Signature {
            text: "String[1] string, Formats = Variant[String[2], Array[String[2], 1]] format?",
            params: vec![("string", string_min(1)), ("format", formats_type())],
            required: 1,
        },
        Signature {
            text: "Integer days, Integer hours, Integer minutes, Integer seconds, Integer milliseconds?, Integer microseconds?, Integer nanoseconds?",
            params: FIELD_KEYS.iter().map(|k| (*k, Type::INTEGER)).collect(),
            required: 4,
        },
        Signature {
            text: "Struct[{'string' => String[1], Optional['format'] => Formats}] hash_arg",
            params: vec![(
                "hash_arg",
                Type::Struct(vec![entry("string", false, string_min(1)), entry("format", true, formats_type())].into()),
            )],
            required: 1,
        },
        Signature {
            text: "Struct[{Optional['negative'] => Boolean, Optional['days'] => Integer, Optional['hours'] => Integer, Optional['minutes'] => Integer, Optional['seconds'] => Integer, Optional['milliseconds'] => Integer, Optional['microseconds'] => Integer, Optional['nanoseconds'] => Integer}] hash_arg",
            params: vec![("hash_arg", Type::Struct(fields.into()))],
            required: 1,
        },
    ]
}

fn timestamp_signatures() -> Vec<Signature> {
    vec![
        Signature { text: "", params: vec![], required: 0 },
        Signature { text: "Variant[Integer, Float] seconds", params: vec![("seconds", seconds_type())], required: 1 },
        Signature {
            text: "String[1] string, Formats = Variant[String[2], Array[String[2], 1]] format?, String[1] timezone?",
            params: vec![("string", string_min(1)), ("format", formats_type()), ("timezone", string_min(1))],
            required: 1,
        },
        Signature {
            text: "Struct[{'string' => String[1], Optional['format'] => Formats, Optional['timezone'] => String[1]}] hash_arg",
            params: vec![(
                "hash_arg",
                Type::Struct(
                    vec![
                        entry("string", false, string_min(1)),
                        entry("format", true, formats_type()),
                        entry("timezone", true, string_min(1)),
                    ]
                    .into(),
                ),
            )],
            required: 1,
        },
    ]
}

/// Whether `v` is an instance of one of the parameter types above.
fn accepts(name: &str, ty: &Type, v: &Value) -> bool {
    match (name, ty) {
        ("seconds", Type::Variant(_)) => matches!(v, Value::Integer(_) | Value::Float(_)),
        ("string" | "timezone", _) => is_string(v, 1),
        ("format", _) => is_formats(v),
        ("hash_arg", Type::Struct(e)) => match v {
            Value::Hash(h) if e.len() == 8 => is_fields_hash(h),
            Value::Hash(h) => is_string_hash(h, e.len() == 3),
            _ => false,
        },
        _ => matches!(v, Value::Integer(_)),
    }
}

/// Why a signature rejects the arguments: the argument count, or the first parameter whose
/// argument is not an instance of its type.
enum Problem<'a> {
    Count { min: usize, max: usize },
    Param { name: &'static str, ty: &'a Type, arg: &'a Value },
}

fn problem<'a>(sig: &'a Signature, args: &'a [Value]) -> Problem<'a> {
    if args.len() < sig.required || args.len() > sig.params.len() {
        return Problem::Count { min: sig.required, max: sig.params.len() };
    }
    sig.params.iter().zip(args).find(|((name, ty), a)| !accepts(name, ty, a)).map_or(
        Problem::Count { min: sig.required, max: sig.params.len() },
        |((name, ty), a)| Problem::Param { name, ty, arg: a },
    )
}

/// `CountMismatch#message`: `expects between 1 and 7 arguments, got 3`.
fn count_message(min: usize, max: usize, actual: usize) -> String {
    let range = |min: usize, max: usize, zero: &str| {
        if min == max {
            if min == 0 {
                zero.to_owned()
            } else {
                min.to_string()
            }
        } else if min == 0 {
            format!("at most {max}")
        } else {
            format!("between {min} and {max}")
        }
    };
    // `min == 1 && max == 1 || min == 0 && max == 1` (no signature here is unbounded)
    let suffix = if max == 1 && min <= 1 { "" } else { "s" };
    format!("expects {} argument{suffix}, got {}", range(min, max, "no"), range(actual, actual, "none"))
}

fn problem_lines(p: &Problem, actual: usize) -> Vec<String> {
    match p {
        Problem::Count { min, max } => vec![count_message(*min, *max, actual)],
        Problem::Param { name, ty, arg } => crate::mismatch::describe_value(&format!("parameter '{name}'"), ty, arg)
            .split('\n')
            .map(|l| l.trim_start().to_owned())
            .collect(),
    }
}

/// `TypeMismatchDescriber#describe_signatures`: when every signature rejects the count,
/// one message with the widest range (`'new_timespan' expects between 1 and 7 arguments,
/// got 3`); else every signature and why it rejects the arguments.
fn describe(name: &str, sigs: &[Signature], args: &[Value]) -> String {
    let problems: Vec<Problem> = sigs.iter().map(|s| problem(s, args)).collect();
    let counts: Option<Vec<(usize, usize)>> = problems
        .iter()
        .map(|p| match p {
            Problem::Count { min, max } => Some((*min, *max)),
            Problem::Param { .. } => None,
        })
        .collect();
    if let Some(counts) = counts {
        let min = counts.iter().map(|c| c.0).min().unwrap_or(0);
        let max = counts.iter().map(|c| c.1).max().unwrap_or(0);
        return format!("'{name}' {}", count_message(min, max, args.len()));
    }
    let mut out = format!("The function '{name}' was called with arguments it does not accept. It expects one of:");
    for (sig, p) in sigs.iter().zip(&problems) {
        out.push_str(&format!("\n  ({})", sig.text));
        for line in problem_lines(p, args.len()) {
            out.push_str(&format!("\n    rejected: {line}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::from(v)
    }

    fn show(r: Result<Value>) -> String {
        match r {
            Ok(Value::Timespan(ref t)) => t.to_s(),
            Ok(Value::Timestamp(ref t)) => t.to_s(),
            Ok(_) => "?".to_owned(),
            Err(e) => format!("!! {}", e.message),
        }
    }

    fn hash(entries: Vec<(&str, Value)>) -> Value {
        Value::hash(entries.into_iter().map(|(k, v)| (Value::from(k), v)).collect())
    }

    #[test]
    fn timespans() {
        assert_eq!(show(new_timespan(&[Value::Integer(1)])), "0-00:00:01.0");
        assert_eq!(show(new_timespan(&[Value::Float(13.5)])), "0-00:00:13.5");
        assert_eq!(show(new_timespan(&[s("13:20:00")])), "0-13:20:00.0");
        assert_eq!(show(new_timespan(&[s("10:03.5"), s("%M:%S.%L")])), "0-00:10:03.5");
        let four = [4, 0, 0, 2].map(Value::Integer);
        assert_eq!(show(new_timespan(&four)), "4-00:00:02.0");
        assert_eq!(show(new_timespan(&[hash(vec![("days", Value::Integer(4))])])), "4-00:00:00.0");
        assert_eq!(show(new_timespan(&[hash(vec![])])), "0-00:00:00.0");
        let neg = hash(vec![("negative", Value::Boolean(true)), ("seconds", Value::Integer(1))]);
        assert_eq!(show(new_timespan(&[neg])), "-0-00:00:01.0");
        let strh = hash(vec![("string", s("1")), ("format", Value::array(vec![s("%H"), s("%M")]))]);
        assert_eq!(show(new_timespan(&[strh])), "0-01:00:00.0");
    }

    #[test]
    fn timespan_dispatch_errors() {
        assert_eq!(show(new_timespan(&[])), "!! 'new_timespan' expects between 1 and 7 arguments, got none");
        let three = [1, 2, 3].map(Value::Integer);
        assert_eq!(show(new_timespan(&three)), "!! 'new_timespan' expects between 1 and 7 arguments, got 3");
        let e = show(new_timespan(&[Value::Boolean(true)]));
        assert!(e.starts_with("!! The function 'new_timespan' was called with arguments it does not accept. It expects one of:\n  (Variant[Integer, Float] seconds)\n    rejected: "));
        assert!(e.contains("\n  (Integer days, Integer hours, Integer minutes, Integer seconds, Integer milliseconds?, Integer microseconds?, Integer nanoseconds?)\n    rejected: expects between 4 and 7 arguments, got 1\n"));
    }

    #[test]
    fn timestamps() {
        assert_eq!(show(new_timestamp(&[Value::Integer(1_473_150_899)])), "2016-09-06T08:34:59.000000000 UTC");
        assert_eq!(
            show(new_timestamp(&[hash(vec![("string", s("2015")), ("format", s("%Y"))])])),
            "2015-01-01T00:00:00.000000000 UTC"
        );
        assert_eq!(show(new_timestamp(&[s("Wed Aug 24 12:13:14 2016"), s("%c")])), "2016-08-24T12:13:14.000000000 UTC");
        assert_eq!(
            show(new_timestamp(&[s("Wed Aug 24 12:13:14 2016 PDT"), s("%c %Z")])),
            "2016-08-24T19:13:14.000000000 UTC"
        );
        assert_eq!(
            show(new_timestamp(&[s("2020-01-01 10:00"), s("%F %R"), s("EST")])),
            "2020-01-01T15:00:00.000000000 UTC"
        );
        assert!(matches!(new_timestamp(&[]), Ok(Value::Timestamp(_))));
    }

    #[test]
    fn timestamp_dispatch_errors() {
        let four = [s("2020"), s("%Y"), s("UTC"), Value::Integer(4)];
        assert_eq!(show(new_timestamp(&four)), "!! 'new_timestamp' expects at most 3 arguments, got 4");
        let e = show(new_timestamp(&[Value::Boolean(true)]));
        assert!(e.contains("\n  ()\n    rejected: expects no arguments, got 1\n"));
    }
}
