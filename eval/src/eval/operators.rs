//! Binary and unary operators (`evaluator_impl.rb`'s `calculate`, `eval_MatchExpression`,
//! `CompareOperator#include?`).

use std::rc::Rc;

use num_bigint::BigInt;
use num_integer::Integer as _;
use puppet_syntax::ast::{BinaryOp, Expr, ExprKind};
use puppet_syntax::Span;
use puppet_types::compare::{compare_op, equals, ComparisonOp};
use puppet_types::display::{a_an, a_an_uc, label};
use puppet_types::new::numeric::string_to_number;
use puppet_types::time::{Timespan, Timestamp};
use puppet_types::{Int, Value};

use super::{match_groups, truthy, Evaluator, Strict};
use crate::error::{fail_at, Eval};
// Ruby's `==` as `Array#delete` uses it: strings case-sensitively, `1 == 1.0`.
use crate::functions::ruby_eq;

impl Evaluator {
    pub(super) fn binary(&mut self, op: BinaryOp, left: &Expr, right: &Expr, e: &Expr) -> Eval<Value> {
        use BinaryOp as B;
        match op {
            B::And => {
                let l = truthy(&self.eval(left)?);
                Ok(Value::Boolean(l && truthy(&self.eval(right)?)))
            }
            B::Or => {
                let l = truthy(&self.eval(left)?);
                Ok(Value::Boolean(l || truthy(&self.eval(right)?)))
            }
            _ => {
                let l = self.eval(left)?;
                let r = self.eval(right)?;
                self.operate(op, l, r, left, right, e)
            }
        }
    }

    fn operate(&mut self, op: BinaryOp, l: Value, r: Value, left: &Expr, right: &Expr, e: &Expr) -> Eval<Value> {
        use BinaryOp as B;
        // Integers without overflow, the most common case, straight away.
        if let (Value::Integer(x), Value::Integer(y)) = (&l, &r) {
            let (x, y) = (*x, *y);
            let fast = match op {
                B::Add => x.checked_add(y).map(Value::Integer),
                B::Subtract => x.checked_sub(y).map(Value::Integer),
                B::Multiply => x.checked_mul(y).map(Value::Integer),
                // Ruby's flooring division and modulo.
                B::Divide if y != 0 && !(x == i64::MIN && y == -1) => {
                    Some(Value::Integer(x.div_euclid(y) - i64::from(y < 0 && x.rem_euclid(y) != 0)))
                }
                B::Modulo if y != 0 && y != -1 => Some(Value::Integer({
                    let m = x % y;
                    if m != 0 && ((m < 0) != (y < 0)) {
                        m + y
                    } else {
                        m
                    }
                })),
                B::Equal => Some(Value::Boolean(x == y)),
                B::NotEqual => Some(Value::Boolean(x != y)),
                B::Less => Some(Value::Boolean(x < y)),
                B::LessEqual => Some(Value::Boolean(x <= y)),
                B::Greater => Some(Value::Boolean(x > y)),
                B::GreaterEqual => Some(Value::Boolean(x >= y)),
                _ => None,
            };
            if let Some(v) = fast {
                return Ok(v);
            }
        }
        let comparison = |op| compare_op(op, &l, &r).map(Value::Boolean).map_err(|err| fail_at(err.message, e.at));
        if let (Value::Type(t), B::Equal | B::LessEqual | B::GreaterEqual) = (&l, op) {
            let op = match op {
                B::Equal => ComparisonOp::Eq,
                B::LessEqual => ComparisonOp::Le,
                _ => ComparisonOp::Ge,
            };
            return Ok(puppet_types::compare::compare_types_value(op, t, &r));
        }
        match op {
            B::Equal => Ok(Value::Boolean(equals(&l, &r))),
            B::NotEqual => Ok(Value::Boolean(!equals(&l, &r))),
            B::Less => comparison(ComparisonOp::Lt),
            B::LessEqual => comparison(ComparisonOp::Le),
            B::Greater => comparison(ComparisonOp::Gt),
            B::GreaterEqual => comparison(ComparisonOp::Ge),
            B::Match | B::NotMatch => {
                let matched = self.match_op(&l, &r, left, right)?;
                Ok(Value::Boolean(matched == (op == B::Match)))
            }
            B::In => self.in_op(&l, &r).map(Value::Boolean),
            B::And | B::Or => unreachable_logic(e.at),
            B::Add | B::Subtract | B::Multiply | B::Divide | B::Modulo | B::LeftShift | B::RightShift => {
                self.arithmetic(op, l, r, left, right, e)
            }
        }
    }

    fn arithmetic(&mut self, op: BinaryOp, l: Value, r: Value, left: &Expr, right: &Expr, e: &Expr) -> Eval<Value> {
        use BinaryOp as B;
        let runtime =
            |message: &str| fail_at(format!("Error while evaluating a '{}' expression, {message}", op.symbol()), e.at);
        match (&l, op) {
            (Value::Uri(u), B::Add) => {
                return puppet_types::uri::merge::concatenate(u, &r)
                    .map(|u| Value::Uri(Rc::new(u)))
                    .map_err(|err| runtime(&err.message));
            }
            (Value::Binary(b), B::Add) => {
                return match &r {
                    Value::Binary(other) => Ok(Value::Binary(Rc::new(b.concat(other)))),
                    _ => Err(runtime("Can only append Binary to a Binary")),
                };
            }
            (Value::Array(a), B::Add) => {
                let mut out = a.to_vec();
                match &r {
                    Value::Array(b) => out.extend(b.iter().cloned()),
                    Value::Hash(h) => out.extend(h.iter().map(|(k, v)| Value::array(vec![k.clone(), v.clone()]))),
                    other => out.push(other.clone()),
                }
                return Ok(Value::array(out));
            }
            (Value::Hash(h), B::Add) => {
                let mut out = (**h).clone();
                match &r {
                    Value::Hash(b) => out.extend(b.iter().map(|(k, v)| (k.clone(), v.clone()))),
                    Value::Array(a) => {
                        for (k, v) in array_to_hash(a).map_err(|m| runtime(&m))? {
                            out.insert(k, v);
                        }
                    }
                    _ => return Err(runtime("Can only append Array or Hash to a Hash")),
                }
                return Ok(Value::hash(out));
            }
            (Value::Array(a), B::Subtract) => {
                let remove: Vec<Value> = match &r {
                    Value::Array(b) => b.to_vec(),
                    Value::Hash(h) => h.iter().map(|(k, v)| Value::array(vec![k.clone(), v.clone()])).collect(),
                    other => vec![other.clone()],
                };
                let out: Vec<Value> = a.iter().filter(|x| !remove.iter().any(|y| ruby_eq(x, y))).cloned().collect();
                return Ok(Value::array(out));
            }
            (Value::Hash(h), B::Subtract) => {
                let remove: Vec<Value> = match &r {
                    Value::Array(b) => b.to_vec(),
                    Value::Hash(b) => b.keys().cloned().collect(),
                    other => vec![other.clone()],
                };
                let mut out = (**h).clone();
                for k in &remove {
                    out.shift_remove(k);
                }
                return Ok(Value::hash(out));
            }
            (Value::Array(a), B::LeftShift) => {
                let mut out = a.to_vec();
                out.push(r);
                return Ok(Value::array(out));
            }
            (Value::Hash(_), B::LeftShift) => {
                return Err(not_applicable(op, &l, left.at));
            }
            _ => {}
        }
        let mut a = self.coerce_numeric(l, left)?;
        let mut b = self.coerce_numeric(r, right)?;
        if is_time(&a) || is_time(&b) {
            // Puppet's order: `%` with a Float is refused first; a number on the left of a
            // time is added to it or multiplies a Timespan (the two change places), or has a
            // Timespan taken from it (the number is read as seconds); nothing else.
            if op == B::Modulo && (matches!(a, Value::Float(_)) || matches!(b, Value::Float(_))) {
                if matches!(a, Value::Float(_)) {
                    return Err(not_applicable(op, &a, left.at));
                }
                return Err(not_applicable_when(op, &a, &b, left.at));
            }
            if is_time(&b) && !is_time(&a) {
                let timespan = matches!(b, Value::Timespan(_));
                if op == B::Add || (op == B::Multiply && timespan) {
                    std::mem::swap(&mut a, &mut b);
                } else if op == B::Subtract && timespan {
                    let Some(nsecs) = seconds_nanos(&a) else {
                        return Err(runtime("The result is outside of the time range"));
                    };
                    a = Value::Timespan(Rc::new(Timespan::new(nsecs)));
                } else {
                    return Err(not_applicable_when(op, &a, &b, left.at));
                }
            }
            return time_arithmetic(op, &a, &b, left).map_err(|message| match message {
                TimeError::Runtime(m) => runtime(&m),
                TimeError::NotApplicable => not_applicable(op, &a, left.at),
            });
        }
        let sym = op.symbol();
        let overflow = |value: BigInt| {
            let (sign, bound) = if value.sign() == num_bigint::Sign::Minus { ('-', "min") } else { ('+', "max") };
            fail_at(
                format!("A '{sym}' expression resulted in a value outside of Puppet Integer {bound} range, got '{sign}0x{:x}'", value.magnitude()),
                e.at,
            )
        };
        match (a, b) {
            (Value::Integer(x), Value::Integer(y)) => {
                let (x128, y128) = (x as i128, y as i128);
                let result: i128 = match op {
                    B::Add => x128 + y128,
                    B::Subtract => x128 - y128,
                    B::Multiply => x128 * y128,
                    B::Divide => {
                        if y == 0 {
                            return Err(fail_at("Division by 0", right.at));
                        }
                        x128.div_euclid(y128) - if (x128.rem_euclid(y128) != 0) && y128 < 0 { 1 } else { 0 }
                    }
                    B::Modulo => {
                        if y == 0 {
                            return Err(fail_at("Division by 0", right.at));
                        }
                        let m = x128 % y128;
                        if m != 0 && ((m < 0) != (y128 < 0)) {
                            m + y128
                        } else {
                            m
                        }
                    }
                    B::LeftShift | B::RightShift => {
                        let left_shift = (op == B::LeftShift) == (y >= 0);
                        let n = y.unsigned_abs();
                        if left_shift {
                            if x == 0 {
                                0
                            } else if n >= 64 {
                                return Err(overflow(BigInt::from(x) << n.min(1 << 20)));
                            } else {
                                (x as i128) << n
                            }
                        } else if n >= 64 {
                            if x < 0 {
                                -1
                            } else {
                                0
                            }
                        } else {
                            (x >> n) as i128
                        }
                    }
                    _ => return unreachable_logic(e.at),
                };
                match i64::try_from(result) {
                    Ok(i) => Ok(Value::Integer(i)),
                    Err(_) => Err(overflow(BigInt::from(result))),
                }
            }
            // a bignum (see `puppet_types::int`) computes as Ruby does; the result must fit
            (x, y) if x.is_integer() && y.is_integer() => {
                let (Some(x), Some(y)) = (x.as_int(), y.as_int()) else { return unreachable_logic(e.at) };
                let (x, y) = (x.to_big(), y.to_big());
                let zero = BigInt::from(0);
                if matches!(op, B::Divide | B::Modulo) && y == zero {
                    return Err(fail_at("Division by 0", right.at));
                }
                let result = match op {
                    B::Add => x + y,
                    B::Subtract => x - y,
                    B::Multiply => x * y,
                    B::Divide => x.div_floor(&y),
                    B::Modulo => x.mod_floor(&y),
                    B::LeftShift | B::RightShift => {
                        let left_shift = (op == B::LeftShift) == (y >= zero);
                        // a shift this far leaves no bits, or more than any range holds
                        let n = usize::try_from(y.magnitude()).unwrap_or(usize::MAX).min(1 << 20);
                        if left_shift {
                            x << n
                        } else {
                            x >> n
                        }
                    }
                    _ => return unreachable_logic(e.at),
                };
                match Int::from_big(result) {
                    Int::Small(i) => Ok(Value::Integer(i)),
                    Int::Big(b) => Err(overflow((*b).clone())),
                }
            }
            (x, y) => {
                let (Some(fx), Some(fy)) = (as_f64(&x), as_f64(&y)) else {
                    return Err(not_applicable(op, &x, left.at));
                };
                let result = match op {
                    B::Add => fx + fy,
                    B::Subtract => fx - fy,
                    B::Multiply => fx * fy,
                    B::Divide => fx / fy,
                    B::Modulo if !matches!(x, Value::Float(_)) => return Err(not_applicable_when(op, &x, &y, left.at)),
                    _ => return Err(not_applicable(op, &x, left.at)),
                };
                if result.is_infinite() {
                    return Err(fail_at(format!("The result of the {sym} expression is Infinity"), left.span_start()));
                }
                Ok(Value::Float(result))
            }
        }
    }

    /// A number, or a string that reads as one (with Puppet's coercion warning).
    fn coerce_numeric(&mut self, v: Value, at: &Expr) -> Eval<Value> {
        match v {
            Value::Integer(_) | Value::BigInt(_) | Value::Float(_) | Value::Timespan(_) | Value::Timestamp(_) => Ok(v),
            Value::String(ref s) => match string_to_number(s) {
                Some(n) => {
                    self.coercion_warning(s, &n, at.at)?;
                    Ok(n)
                }
                None => Err(not_numeric(&v, at.at)),
            },
            _ => Err(not_numeric(&v, at.at)),
        }
    }

    /// The body of an accumulator lambda, `$acc OP right` (see `call::accumulator_body`):
    /// the right side is evaluated, then `$acc` is taken out of the scope (nothing reads it
    /// after), and when nothing else holds its array or hash, `+` and `<<` add to it in place
    /// instead of copying it.
    pub(crate) fn accumulate(&mut self, op: BinaryOp, acc: &str, right: &Expr, e: &Expr) -> Eval<Value> {
        let ExprKind::Binary { left, .. } = &e.kind else { return self.eval(e) };
        if !self.scope.has_own(acc) {
            return self.eval(e);
        }
        let r = self.eval(right)?;
        let Some(mut l) = self.scope.take_own(acc) else { return self.eval(e) };
        match (&mut l, op) {
            (Value::Hash(rc), BinaryOp::Add) => {
                if let (Some(h), Value::Hash(more)) = (Rc::get_mut(rc), &r) {
                    for (k, v) in more.iter() {
                        h.insert(k.clone(), v.clone());
                    }
                    return Ok(l);
                }
            }
            (Value::Array(rc), BinaryOp::Add | BinaryOp::LeftShift) => {
                if let Some(a) = Rc::get_mut(rc) {
                    match (&r, op) {
                        (Value::Array(more), BinaryOp::Add) => a.extend(more.iter().cloned()),
                        (Value::Hash(more), BinaryOp::Add) => {
                            a.extend(more.iter().map(|(k, v)| Value::array(vec![k.clone(), v.clone()])))
                        }
                        _ => a.push(r),
                    }
                    return Ok(l);
                }
            }
            _ => {}
        }
        self.operate(op, l, r, left, right, e)
    }

    /// Puppet's `strict` check of a string used as a number: a warning, an error, or nothing.
    pub(crate) fn coercion_warning(&mut self, s: &str, n: &Value, at: Span) -> Eval<()> {
        let message = format!(
            "The string '{s}' was automatically coerced to the numerical value {}",
            puppet_types::display::value_to_s(n)
        );
        match self.options.strict {
            Strict::Off => Ok(()),
            Strict::Warning => {
                self.warn_at(&message, at);
                Ok(())
            }
            Strict::Error => Err(fail_at(message, at)),
        }
    }

    pub(super) fn negate(&mut self, inner: &Expr, e: &Expr) -> Eval<Value> {
        let v = self.eval(inner)?;
        let v = match v {
            Value::String(_) => self.coerce_numeric(v, e)?,
            other => other,
        };
        match v {
            Value::Integer(i) => i.checked_neg().map(Value::Integer).ok_or_else(|| {
                fail_at("A '-' expression resulted in a value outside of Puppet Integer max range, got '+0x8000000000000000'", e.at)
            }),
            Value::BigInt(_) => Ok(v.as_int().map_or(Value::Undef, |i| i.neg().into_value())),
            Value::Float(f) => Ok(Value::Float(-f)),
            Value::Timespan(ref t) => Ok(Value::Timespan(Rc::new(Timespan::new(-t.nsecs)))),
            other => Err(not_numeric(&other, e.at)),
        }
    }

    /// `=~`: a type matches its instances, a SemVerRange the versions it includes; otherwise
    /// the right side is a regexp (or a string read as one) and the left side must be a
    /// string.
    fn match_op(&mut self, l: &Value, r: &Value, left: &Expr, right: &Expr) -> Eval<bool> {
        let re = match r {
            Value::Type(t) => return Ok(puppet_types::instance::is_instance(t, l)),
            Value::SemVerRange(range) => return Ok(puppet_types::semver::range_includes_value(range, l)),
            Value::Regexp(re) => re.clone(),
            Value::String(s) => {
                let re = self.regexp(s);
                if let Err(detail) = re.check() {
                    return Err(fail_at(
                        format!("Can not convert right match operand to a regular expression. Caused by '{}'.", ruby_regexp_error(s, &detail)),
                        right.at,
                    ));
                }
                re
            }
            other => {
                return Err(fail_at(
                    format!(
                        "Can not convert right match operand to a regular expression. Caused by 'no implicit conversion of {} into String'.",
                        puppet_types::params::ruby_class(other)
                    ),
                    right.at,
                ))
            }
        };
        let Value::String(s) = l else {
            return Err(fail_at(
                format!("Left match operand must result in a String value. Got {}.", a_an(&label(l))),
                left.at,
            ));
        };
        let groups = match_groups(&re, s);
        let matched = groups.is_some();
        self.set_match_data(groups);
        Ok(matched)
    }

    /// `x in y` (Puppet's `CompareOperator#include?`): a substring (case-insensitive) or a
    /// regexp's match in a string; bytes, a string or a byte (Integer or Float) in a Binary;
    /// a version (or version string) in a range; in an array or a hash's keys, an element
    /// that a string or version matches as a case option, an instance of a type, a string
    /// a regexp matches, else an element equal to it.
    fn in_op(&mut self, needle: &Value, haystack: &Value) -> Eval<bool> {
        match haystack {
            Value::String(h) => match needle {
                Value::String(n) => Ok(h.to_lowercase().contains(&n.to_lowercase())),
                Value::Regexp(re) => {
                    let groups = match_groups(re, h);
                    let found = groups.is_some();
                    self.set_match_data(groups);
                    Ok(found)
                }
                _ => Ok(false),
            },
            Value::Binary(b) => {
                let bytes = &b.0;
                let within = |part: &[u8]| part.is_empty() || bytes.windows(part.len()).any(|w| w == part);
                Ok(match needle {
                    Value::Binary(n) => within(&n.0),
                    Value::String(s) => within(s.as_bytes()),
                    Value::Integer(i) => bytes.iter().any(|&byte| i64::from(byte) == *i),
                    Value::Float(f) => bytes.iter().any(|&byte| f64::from(byte) == *f),
                    _ => false,
                })
            }
            Value::SemVerRange(range) => Ok(puppet_types::semver::range_includes_value(range, needle)),
            Value::Array(items) => self.in_list(needle, items.iter()),
            Value::Hash(h) => self.in_list(needle, h.keys()),
            _ => Ok(false),
        }
    }

    fn in_list<'a>(&mut self, needle: &Value, items: impl Iterator<Item = &'a Value>) -> Eval<bool> {
        match needle {
            Value::Regexp(re) => {
                let mut found = None;
                for item in items {
                    if let Value::String(s) = item {
                        found = match_groups(re, s);
                        if found.is_some() {
                            break;
                        }
                    }
                }
                let matched = found.is_some();
                self.set_match_data(found);
                Ok(matched)
            }
            // Each element is a case option the string or version is matched against.
            Value::String(_) | Value::SemVer(_) => {
                for item in items {
                    if self.option_match(needle, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Value::Type(t) => Ok(items.into_iter().any(|v| puppet_types::instance::is_instance(t, v))),
            _ => Ok(items.into_iter().any(|v| equals(v, needle))),
        }
    }
}

trait SpanStart {
    fn span_start(&self) -> Span;
}

impl SpanStart for Expr {
    /// Where the expression starts (Puppet's position of an operand).
    fn span_start(&self) -> Span {
        Span { start: self.span.start, end: self.span.start, line: self.span.line, column: self.span.column }
    }
}

enum TimeError {
    Runtime(String),
    NotApplicable,
}

fn is_time(v: &Value) -> bool {
    matches!(v, Value::Timespan(_) | Value::Timestamp(_))
}

const NSECS_PER_SEC: i128 = 1_000_000_000;

/// Seconds as nanoseconds, truncated (`(o * NSECS_PER_SEC).to_i`).
fn seconds_nanos(v: &Value) -> Option<i128> {
    match v {
        Value::Integer(i) => (*i as i128).checked_mul(NSECS_PER_SEC),
        Value::Float(f) => {
            let n = (f * 1e9).trunc();
            (n.is_finite() && n.abs() < 1e36).then_some(n as i128)
        }
        _ => None,
    }
}

/// The arithmetic of `Timespan` and `Timestamp` (`pops/time/timespan.rb`, `timestamp.rb`).
fn time_arithmetic(op: BinaryOp, a: &Value, b: &Value, _left: &Expr) -> Result<Value, TimeError> {
    use BinaryOp as B;
    let span = |n: i128| Ok(Value::Timespan(Rc::new(Timespan::new(n))));
    let stamp = |n: i128| Ok(Value::Timestamp(Rc::new(Timestamp::new(n))));
    let overflow = || TimeError::Runtime("The result is outside of the time range".into());
    match (a, op) {
        (Value::Timespan(x), B::Add) => match b {
            Value::Timestamp(y) => stamp(x.nsecs + y.nsecs),
            Value::Timespan(y) => span(x.nsecs + y.nsecs),
            _ => span(x.nsecs.checked_add(seconds_nanos(b).ok_or_else(overflow)?).ok_or_else(overflow)?),
        },
        (Value::Timespan(x), B::Subtract) => match b {
            Value::Timespan(y) => span(x.nsecs - y.nsecs),
            Value::Timestamp(_) => {
                Err(TimeError::Runtime(format!("{} cannot be subtracted from a Timespan", a_an_uc(&label(b)))))
            }
            _ => span(x.nsecs.checked_sub(seconds_nanos(b).ok_or_else(overflow)?).ok_or_else(overflow)?),
        },
        (Value::Timespan(x), B::Multiply) => match b {
            Value::Integer(i) => span(x.nsecs.checked_mul(*i as i128).ok_or_else(overflow)?),
            Value::Float(f) => span((x.nsecs as f64 * f) as i128),
            _ => Err(TimeError::Runtime(format!("A Timestamp cannot be multiplied by {}", a_an(&label(b))))),
        },
        (Value::Timespan(x), B::Divide) => match b {
            Value::Timespan(y) if y.nsecs != 0 => Ok(Value::Float(x.nsecs as f64 / y.nsecs as f64)),
            Value::Integer(0) => Err(TimeError::Runtime("divided by 0".into())),
            Value::Integer(i) => {
                span(x.nsecs.div_euclid(*i as i128) - if x.nsecs.rem_euclid(*i as i128) != 0 && *i < 0 { 1 } else { 0 })
            }
            Value::Float(f) => span((x.nsecs as f64 / f).floor() as i128),
            _ => Err(TimeError::Runtime(format!("A Timespan cannot be divided by {}", a_an(&label(b))))),
        },
        (Value::Timespan(x), B::Modulo) => match b {
            Value::Integer(0) => Err(TimeError::Runtime("divided by 0".into())),
            Value::Integer(i) => Ok(Value::Integer(
                (x.nsecs / NSECS_PER_SEC).rem_euclid(*i as i128) as i64
                    + if *i < 0 && (x.nsecs / NSECS_PER_SEC).rem_euclid(*i as i128) != 0 { *i } else { 0 },
            )),
            Value::Float(f) => {
                let v = x.nsecs as f64 / 1e9;
                let m = v % f;
                Ok(Value::Float(if m != 0.0 && (m < 0.0) != (*f < 0.0) { m + f } else { m }))
            }
            _ => Err(TimeError::Runtime(format!("Can not do modulus on a Timespan using {}", a_an(&label(b))))),
        },
        (Value::Timestamp(x), B::Add) => match b {
            Value::Timespan(y) => stamp(x.nsecs + y.nsecs),
            Value::Integer(_) | Value::Float(_) => {
                stamp(x.nsecs.checked_add(seconds_nanos(b).ok_or_else(overflow)?).ok_or_else(overflow)?)
            }
            _ => Err(TimeError::Runtime(format!("{} cannot be added to a Timestamp", a_an_uc(&label(b))))),
        },
        (Value::Timestamp(x), B::Subtract) => match b {
            Value::Timestamp(y) => span(x.nsecs - y.nsecs),
            Value::Timespan(y) => stamp(x.nsecs - y.nsecs),
            Value::Integer(_) | Value::Float(_) => {
                stamp(x.nsecs.checked_sub(seconds_nanos(b).ok_or_else(overflow)?).ok_or_else(overflow)?)
            }
            _ => Err(TimeError::Runtime(format!("{} cannot be subtracted from a Timestamp", a_an_uc(&label(b))))),
        },
        _ => Err(TimeError::NotApplicable),
    }
}

/// Ruby's message for a regexp that does not compile, where ours is one Ruby words
/// differently: `end pattern with unmatched parenthesis: /(/`.
fn ruby_regexp_error(source: &str, detail: &str) -> String {
    const RUBY: &[(&str, &str)] = &[
        ("Opening parenthesis without closing parenthesis", "end pattern with unmatched parenthesis"),
        ("Closing parenthesis without opening parenthesis", "unmatched close parenthesis"),
        ("Invalid character class", "premature end of char-class"),
        ("Unclosed character class", "premature end of char-class"),
        ("Target of repeat operator is invalid", "target of repeat operator is not specified"),
    ];
    match RUBY.iter().find(|(ours, _)| detail.contains(ours)) {
        Some((_, ruby)) => format!("{ruby}: /{source}/"),
        None => detail.to_string(),
    }
}

/// `Hash[array]`: pairs, or a flat list of keys and values.
fn array_to_hash(a: &[Value]) -> Result<Vec<(Value, Value)>, String> {
    if a.is_empty() {
        return Ok(Vec::new());
    }
    if matches!(a[0], Value::Array(_)) {
        let mut out = Vec::new();
        for item in a {
            match item {
                Value::Array(pair) if pair.len() == 2 || pair.len() == 1 => {
                    out.push((pair[0].clone(), pair.get(1).cloned().unwrap_or(Value::Undef)))
                }
                Value::Array(pair) => {
                    return Err(format!("invalid number of elements ({} for 1..2)", pair.len()));
                }
                other => {
                    return Err(format!(
                        "wrong element type {} (expected array)",
                        puppet_types::params::ruby_class(other)
                    ));
                }
            }
        }
        return Ok(out);
    }
    if !a.len().is_multiple_of(2) {
        return Err("odd number of arguments for Hash".into());
    }
    Ok(a.chunks(2).map(|kv| (kv[0].clone(), kv[1].clone())).collect())
}

fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Integer(i) => Some(*i as f64),
        Value::BigInt(_) => v.as_int().map(|i| i.to_f64()),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

fn not_numeric(v: &Value, at: Span) -> crate::error::Flow {
    fail_at(format!("The value '{}' cannot be converted to Numeric.", ruby_to_s(v)), at)
}

fn not_applicable(op: BinaryOp, v: &Value, at: Span) -> crate::error::Flow {
    fail_at(format!("Operator '{}' is not applicable to {}.", op.symbol(), a_an(&label(v))), at)
}

fn not_applicable_when(op: BinaryOp, left: &Value, right: &Value, at: Span) -> crate::error::Flow {
    fail_at(
        format!(
            "Operator '{}' is not applicable to {} when right side is {}.",
            op.symbol(),
            a_an(&label(left)),
            a_an(&label(right))
        ),
        at,
    )
}

/// Ruby's `to_s` of a value, as messages interpolate it (a regexp as `Regexp#to_s`:
/// `(?-mix:a)`).
fn ruby_to_s(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string(),
        Value::Undef => String::new(),
        Value::Regexp(r) => poppet_ruby::regexp::to_s(r.source()),
        _ => puppet_types::display::value_to_s(v),
    }
}

fn unreachable_logic<T>(at: Span) -> Eval<T> {
    Err(fail_at("internal error: a logical operator reached arithmetic", at))
}

impl Evaluator {
    /// Sets (or clears, after a failed match) the current frame's match variables.
    pub(crate) fn set_match_data(&mut self, groups: Option<Rc<[Value]>>) {
        // A failed match leaves the match variables as they were.
        if let Some(g) = groups {
            self.set_match(g);
        }
    }
}
