//! The math functions: `abs ceiling floor round` (`functions/*.rb`; a String argument is
//! still converted, with a deprecation warning, as stdlib's versions did) and `min max`, whose
//! dispatches keep stdlib's comparisons: numbers numerically, strings that look like
//! numbers (`'10'`, `'1_000'`, `'2e3'`) by their `to_f` with a deprecation warning, anything
//! else by its Ruby `to_s` (with another); a lambda compares the values itself.
//!
//! Results are Ruby Integers: one beyond Puppet's 64 bits (`round(1e300)`, `abs` of the
//! smallest Integer) is an error here, where Puppet would carry a Ruby Bignum on.

use std::cmp::Ordering;

use num_bigint::BigInt;
use puppet_types::regexp::Regexp;
use puppet_types::{Int, Value};

use super::ruby;
use super::strings::warn_once;
use super::{Builtin, Call};
use crate::error::{fail, Eval};
use crate::eval::Evaluator;

const NUMERIC_OR_STRING: &[&str] = &["Numeric $val", "String $val"];

const MIN_MAX: &[&str] = &[
    "Numeric *$values",
    "String *$values",
    "Array[Numeric] $values, Callable[2,2] &$block?",
    "Array[String] $values, Callable[2,2] &$block?",
    "Array $values, Callable[2,2] &$block?",
    "Any *$values, Callable[2,2] &$block",
    "Any *$values",
];

pub static FUNCTIONS: &[Builtin] = &[
    Builtin { name: "abs", dispatches: NUMERIC_OR_STRING, call: abs },
    Builtin { name: "ceiling", dispatches: NUMERIC_OR_STRING, call: |ev, c| ceil_floor(ev, c, "ceiling", f64::ceil) },
    Builtin { name: "floor", dispatches: NUMERIC_OR_STRING, call: |ev, c| ceil_floor(ev, c, "floor", f64::floor) },
    Builtin { name: "round", dispatches: &["Numeric $val"], call: round },
    Builtin { name: "min", dispatches: MIN_MAX, call: |ev, c| min_max(ev, c, Extreme::Min) },
    Builtin { name: "max", dispatches: MIN_MAX, call: |ev, c| min_max(ev, c, Extreme::Max) },
];

/// An integral float as an Integer (Ruby's `Float#to_i`, `ceil`, `floor`: a bignum beyond 64
/// bits), or Ruby's error for NaN and the infinities.
fn float_to_integer(f: f64) -> Eval<Value> {
    puppet_types::new::integer::float_to_i(f).map(Int::into_value).map_err(|e| fail(e.message))
}

/// Ruby's `String#to_i`: the leading decimal integer (`0` when there is none).
pub(crate) fn ruby_to_i(s: &str) -> Int {
    let t = s.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let mut digits = String::new();
    let mut last_underscore = false;
    for c in body.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            last_underscore = false;
        } else if c == '_' && !digits.is_empty() && !last_underscore {
            last_underscore = true;
        } else {
            break;
        }
    }
    let magnitude: BigInt = digits.parse().unwrap_or_default();
    Int::from_big(if neg { -magnitude } else { magnitude })
}

/// Ruby's `String#to_f`: the leading decimal float (`0.0` when there is none); underscores
/// between digits are allowed.
pub(crate) fn ruby_to_f(s: &str) -> f64 {
    let t = s.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let b = t.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    if matches!(b.first(), Some(b'-' | b'+')) {
        out.push(b[0] as char);
        i += 1;
    }
    let digits = |i: &mut usize, out: &mut String| -> bool {
        let start = out.len();
        while *i < b.len() {
            if b[*i].is_ascii_digit() {
                out.push(b[*i] as char);
            } else if b[*i] == b'_' && out.len() > start && b.get(*i + 1).is_some_and(u8::is_ascii_digit) {
                // an underscore between digits
            } else {
                break;
            }
            *i += 1;
        }
        out.len() > start
    };
    let int_part = digits(&mut i, &mut out);
    if !int_part {
        return 0.0;
    }
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        out.push('.');
        i += 1;
        digits(&mut i, &mut out);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        let mut exp = String::from("e");
        if matches!(b.get(j), Some(b'-' | b'+')) {
            exp.push(b[j] as char);
            j += 1;
        }
        if digits(&mut j, &mut exp) {
            out.push_str(&exp);
        }
    }
    out.parse::<f64>().unwrap_or(0.0)
}

fn abs(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    match &call.arg(0) {
        v @ (Value::Integer(_) | Value::BigInt(_)) => Ok(v.as_int().map_or(Value::Undef, |i| i.abs().into_value())),
        Value::Float(f) => Ok(Value::Float(f.abs())),
        Value::String(s) => {
            warn_once(
                ev,
                "abs_function_numeric_coerce_string",
                "The abs() function's auto conversion of String to Numeric is deprecated - change to convert input before calling",
            );
            if Regexp::new(r"^-?(?:\d+)(?:\.\d+){1}$").is_match(s) {
                Ok(Value::Float(ruby_to_f(s).abs()))
            } else if Regexp::new(r"^-?\d+$").is_match(s) {
                Ok(ruby_to_i(s).abs().into_value())
            } else {
                Err(fail("abs(): Requires float or integer to work with - was given non decimal string"))
            }
        }
        other => Ok(other.clone()),
    }
}

fn ceil_floor(ev: &mut Evaluator, call: Call, name: &str, f: fn(f64) -> f64) -> Eval<Value> {
    match &call.arg(0) {
        Value::Integer(i) => Ok(Value::Integer(*i)),
        Value::Float(x) => float_to_integer(f(*x)),
        Value::String(s) => {
            warn_once(
                ev,
                &format!("{name}_function_numeric_coerce_string"),
                &format!("The {name}() function's auto conversion of String to Float is deprecated - change to convert input before calling"),
            );
            let arg = pfmt::sprintf::Arg::Str(std::borrow::Cow::Borrowed(&**s));
            match pfmt::ruby::to_float(&arg) {
                Ok(x) => float_to_integer(f(x)),
                Err(_) => Err(fail(format!("{name}(): cannot convert given value to a floating point value."))),
            }
        }
        other => Ok(other.clone()),
    }
}

/// `Integer(x + 0.5)` for a positive value, `Integer(x - 0.5)` otherwise (an Integer goes
/// through a Float too).
fn round(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let x = match &call.arg(0) {
        v @ (Value::Integer(_) | Value::BigInt(_)) => v.as_int().map_or(0.0, |i| i.to_f64()),
        Value::Float(f) => *f,
        other => return Ok(other.clone()),
    };
    float_to_integer(if x > 0.0 { x + 0.5 } else { x - 0.5 })
}

#[derive(Clone, Copy, PartialEq)]
enum Extreme {
    Min,
    Max,
}

impl Extreme {
    fn name(self) -> &'static str {
        match self {
            Extreme::Min => "min",
            Extreme::Max => "max",
        }
    }

    /// Whether `v` replaces the current result given `v <=> result`.
    fn replaces(self, o: Ordering) -> bool {
        match self {
            Extreme::Min => o == Ordering::Less,
            Extreme::Max => o == Ordering::Greater,
        }
    }
}

/// How a call of `min`/`max` compares.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Numeric,
    Strings,
    Any,
}

fn min_max(ev: &mut Evaluator, call: Call, which: Extreme) -> Eval<Value> {
    let (values, mode): (Vec<Value>, Mode) = match call.dispatch {
        0 => (call.args.clone(), Mode::Numeric),
        1 => (call.args.clone(), Mode::Strings),
        2..=4 => {
            let items = match &call.arg(0) {
                Value::Array(a) => a.to_vec(),
                _ => Vec::new(),
            };
            let mode = [Mode::Numeric, Mode::Strings, Mode::Any][call.dispatch - 2];
            (items, mode)
        }
        _ => (call.args.clone(), Mode::Any),
    };
    if let Some(block) = &call.block {
        return with_block(ev, values, block, which);
    }
    if values.is_empty() {
        return Err(fail(format!("{}(): Wrong number of arguments need at least one", which.name())));
    }
    let mut result = values[0].clone();
    for v in values.iter().skip(1) {
        let o = match mode {
            Mode::Numeric => compare_numbers(v, &result),
            Mode::Strings => compare_as_strings(ev, v, &result, which, false),
            Mode::Any => compare_as_strings(ev, v, &result, which, true),
        };
        if which.replaces(o) {
            result = v.clone();
        }
    }
    Ok(result)
}

fn compare_numbers(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
        _ if a.is_integer() && b.is_integer() => a.as_int().cmp(&b.as_int()),
        _ => {
            let f = |v: &Value| match v {
                Value::Integer(_) | Value::BigInt(_) => v.as_int().map_or(0.0, |i| i.to_f64()),
                Value::Float(f) => *f,
                _ => 0.0,
            };
            f(a).partial_cmp(&f(b)).unwrap_or(Ordering::Equal)
        }
    }
}

/// stdlib's numeric-looking strings: `\A-?\d+([._eE]\d+)?\z`.
fn looks_numeric(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i == start {
        return false;
    }
    if i == b.len() {
        return true;
    }
    if !matches!(b[i], b'.' | b'_' | b'e' | b'E') {
        return false;
    }
    i += 1;
    let start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i > start && i == b.len()
}

fn numeric_warning(ev: &mut Evaluator, which: Extreme) {
    let name = which.name();
    warn_once(
        ev,
        &format!("{name}_function_numeric_coerce_string"),
        &format!("The {name}() function's auto conversion of String to Numeric is deprecated - change to convert input before calling, or use lambda"),
    );
}

fn compare_floats(a: f64, b: f64) -> Ordering {
    a.partial_cmp(&b).unwrap_or(Ordering::Equal)
}

/// stdlib's comparison of strings, and (`any`) of other values by their `to_s`: numerically
/// when both look like numbers, else byte-wise, each way with its deprecation warning.
fn compare_as_strings(ev: &mut Evaluator, a: &Value, b: &Value, which: Extreme, any: bool) -> Ordering {
    let (x, y) = (ruby::to_s(a), ruby::to_s(b));
    if looks_numeric(&x) && looks_numeric(&y) {
        numeric_warning(ev, which);
        return compare_floats(ruby_to_f(&x), ruby_to_f(&y));
    }
    if any {
        let name = which.name();
        warn_once(
            ev,
            &format!("{name}_function_string_coerce_any"),
            &format!("The {name}() function's auto conversion of Any to String is deprecated - change to convert input before calling, or use lambda"),
        );
    }
    x.as_bytes().cmp(y.as_bytes())
}

/// `args.min { |x, y| block.call(x, y) }`: Ruby calls the block with each element and the
/// current result, and reads its answer with `rb_cmpint`.
fn with_block(ev: &mut Evaluator, values: Vec<Value>, block: &Value, which: Extreme) -> Eval<Value> {
    let mut result: Option<Value> = None;
    for v in values {
        let replace = match &result {
            None => true,
            Some(r) => {
                let answer = ev.call_block(block, &[v.clone(), r.clone()])?;
                which.replaces(ruby::cmpint(&answer, &v, r)?)
            }
        };
        if replace {
            result = Some(v);
        }
    }
    Ok(result.unwrap_or(Value::Undef))
}
