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
use crate::dispatch::{alias, array_sized, entry, string_sized, struct_of, Dispatch, Dispatcher, Selected, Signature};
use crate::error::Result;
use crate::ty::Type;
use crate::value::{Hash, Value};

/// The keys of a fields hash, in `Timespan.from_fields` order after `negative`.
const FIELD_KEYS: [&str; 7] = ["days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"];

/// The dispatches of both functions.
#[derive(Clone, Copy)]
enum Method {
    Now,
    Seconds,
    Parse,
    Fields,
    ParseHash,
    FieldsHash,
}

/// `Formats = Variant[String[2], Array[String[2], 1]]`.
fn formats_type() -> Type {
    let two = || string_sized(2, None);
    alias("Formats", Type::variant(vec![two(), array_sized(two(), 1, None)]))
}

fn seconds_type() -> Type {
    Type::variant(vec![Type::INTEGER, Type::FLOAT])
}

/// The dispatches of `new_timespan` (`PTimespanType.new_function`).
fn timespan_function() -> Dispatcher<Method> {
    let mut fields = Dispatch::new(Method::Fields);
    for (i, k) in FIELD_KEYS.iter().enumerate() {
        fields = if i < 4 { fields.req(k, Type::INTEGER) } else { fields.opt(k, Type::INTEGER) };
    }
    let mut field_entries = vec![entry("negative", true, Type::Boolean(None))];
    field_entries.extend(FIELD_KEYS.iter().map(|k| entry(k, true, Type::INTEGER)));
    let string_hash =
        struct_of(vec![entry("string", false, string_sized(1, None)), entry("format", true, formats_type())]);
    Dispatcher {
        name: "new_timespan",
        dispatches: vec![
            Dispatch::new(Method::Seconds).req("seconds", seconds_type()),
            Dispatch::new(Method::Parse).req("string", string_sized(1, None)).opt("format", formats_type()),
            fields,
            Dispatch::new(Method::ParseHash).req("hash_arg", string_hash),
            Dispatch::new(Method::FieldsHash).req("hash_arg", struct_of(field_entries)),
        ],
    }
}

/// The dispatches of `new_timestamp` (`PTimestampType.new_function`).
fn timestamp_function() -> Dispatcher<Method> {
    let string_hash = struct_of(vec![
        entry("string", false, string_sized(1, None)),
        entry("format", true, formats_type()),
        entry("timezone", true, string_sized(1, None)),
    ]);
    Dispatcher {
        name: "new_timestamp",
        dispatches: vec![
            Dispatch::new(Method::Now),
            Dispatch::new(Method::Seconds).req("seconds", seconds_type()),
            Dispatch::new(Method::Parse)
                .req("string", string_sized(1, None))
                .opt("format", formats_type())
                .opt("timezone", string_sized(1, None)),
            Dispatch::new(Method::ParseHash).req("hash_arg", string_hash),
        ],
    }
}

thread_local! {
    static NEW_TIMESPAN: Dispatcher<Method> = timespan_function();
    static NEW_TIMESTAMP: Dispatcher<Method> = timestamp_function();
}

/// The signatures of `Timespan.new` (for `Init[Timespan]`).
pub(crate) fn timespan_signatures() -> Vec<Signature> {
    NEW_TIMESPAN.with(|f| f.signatures())
}

/// The signatures of `Timestamp.new` (for `Init[Timestamp]`).
pub(crate) fn timestamp_signatures() -> Vec<Signature> {
    NEW_TIMESTAMP.with(|f| f.signatures())
}

/// `new_timespan(args)`.
pub fn new_timespan(args: &[Value]) -> Result<Value> {
    let value = |t: Timespan| Value::Timespan(Rc::new(t));
    let (Selected::Call(method) | Selected::Mismatch(method)) = NEW_TIMESPAN.with(|f| f.select(args))?;
    match (method, args) {
        (Method::Seconds, [Value::Integer(i)]) => Ok(value(Timespan::new(i128::from(*i) * 1_000_000_000))),
        (Method::Seconds, [Value::Float(f)]) => Ok(value(Timespan::from_seconds_f64(*f)?)),
        (Method::Parse, [s, rest @ ..]) => {
            let formats = rest.first().map_or(SpanFormats::Default, span_formats);
            Ok(value(Timespan::parse(text(s), &formats)?))
        }
        (Method::Fields, _) => {
            let mut fields = [0i64; 7];
            for (f, a) in fields.iter_mut().zip(args) {
                if let Value::Integer(i) = a {
                    *f = *i;
                }
            }
            Ok(value(Timespan::from_fields(false, fields)))
        }
        (Method::ParseHash, [Value::Hash(h)]) => {
            let formats = hash_get(h, "format").map_or(SpanFormats::Default, span_formats);
            Ok(value(Timespan::parse(hash_get(h, "string").map_or("", text), &formats)?))
        }
        (Method::FieldsHash, [Value::Hash(h)]) => {
            let negative = matches!(hash_get(h, "negative"), Some(Value::Boolean(true)));
            let fields = FIELD_KEYS.map(|k| match hash_get(h, k) {
                Some(Value::Integer(i)) => *i,
                _ => 0,
            });
            Ok(value(Timespan::from_fields(negative, fields)))
        }
        _ => Err(NEW_TIMESPAN.with(|f| f.no_match(args))),
    }
}

/// `new_timestamp(args)`.
pub fn new_timestamp(args: &[Value]) -> Result<Value> {
    let value = |t: Timestamp| Value::Timestamp(Rc::new(t));
    let (Selected::Call(method) | Selected::Mismatch(method)) = NEW_TIMESTAMP.with(|f| f.select(args))?;
    match (method, args) {
        (Method::Now, []) => Ok(value(Timestamp::now())),
        (Method::Seconds, [Value::Integer(i)]) => Ok(value(Timestamp::new(i128::from(*i) * 1_000_000_000))),
        (Method::Seconds, [Value::Float(f)]) => Ok(value(Timestamp::from_seconds_f64(*f)?)),
        (Method::Parse, [s, rest @ ..]) => {
            let formats = rest.first().map_or(StampFormats::Default, stamp_formats);
            let tz = rest.get(1).map(text);
            Ok(value(Timestamp::parse(text(s), &formats, tz)?))
        }
        (Method::ParseHash, [Value::Hash(h)]) => {
            let formats = hash_get(h, "format").map_or(StampFormats::Default, stamp_formats);
            let tz = hash_get(h, "timezone").map(text);
            Ok(value(Timestamp::parse(hash_get(h, "string").map_or("", text), &formats, tz)?))
        }
        _ => Err(NEW_TIMESTAMP.with(|f| f.no_match(args))),
    }
}

/// The text of a String value (`""` for others, which the checks exclude).
fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn hash_get<'h>(h: &'h Hash, key: &str) -> Option<&'h Value> {
    h.get(&Value::from(key))
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
