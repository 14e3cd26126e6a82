//! The golden tables (`tests/golden/*.txt`, recorded from Puppet 7.23 by
//! `cargo xtask record types`; the format is the test kit's `poppet_tests::table`): each line of Puppet is computed with this crate alone and its
//! notice (or error) compared with Puppet's. A line is a literal read by the literal reader,
//! or a comparison (`==`, `!=`, `<` …) or match (`=~`, `!~`) of such, or a call of
//! `type()`, `assert_type()` or `strftime()`. Cases where Puppet itself crashes (Ruby
//! `NoMethodError`s) or prints object addresses are not in the tables.
//!
//! `GOLDEN=name` runs only the files whose name contains `name`; `GOLDEN_SHOW=n` prints up to
//! `n` failures per file (default 10).
//!
//! `tests/golden/disagree.todo` lists the cases known to disagree with Puppet (open work, one
//! `file: code` line each). The test fails when any other case disagrees, and when a listed
//! case agrees (so the list only shrinks); `GOLDEN_TODO=write` rewrites it.

use poppet_tests::table;
use puppet_syntax::ast::{BinaryOp, CallKind, Expr, ExprKind};
use puppet_types::literal::Reader;
use puppet_types::{display, Error, Value};

/// Computes one golden line: what `notice(CODE)` logs, or the error message.
fn run(code: &str) -> Result<String, String> {
    let program = puppet_syntax::parse(code).map_err(|d| d.first().map(|d| d.message.clone()).unwrap_or_default())?;
    let Some(body) = program.body else { return Ok(String::new()) };
    let reader = Reader::default();
    // Puppet's log shows the first line of a message (the oracle records that line).
    let value = eval(&reader, &body).map_err(|e| {
        let first = e.message.lines().next().unwrap_or_default();
        // Integer literals beyond 64 bits are rejected before evaluation, without the prefix.
        if first.starts_with("A Literal Integer resulted in a value outside") {
            first.to_owned()
        } else {
            format!("Evaluation Error: {first}")
        }
    })?;
    Ok(display::value_to_s(&value))
}

fn eval(reader: &Reader, e: &Expr) -> Result<Value, Error> {
    match &e.kind {
        ExprKind::Block(stmts) if stmts.len() == 1 => eval(reader, &stmts[0]),
        ExprKind::Binary { op, left, right } => {
            let a = eval(reader, left)?;
            let b = eval(reader, right)?;
            binary(*op, &a, &b).map(Value::Boolean)
        }
        ExprKind::Call { kind, functor, arguments, lambda: None, .. } => {
            let (name, receiver) = match (kind, &functor.kind) {
                (CallKind::Function, ExprKind::QualifiedName(n)) if n != "new" => (n.as_str(), None),
                (CallKind::Method, ExprKind::NamedAccess { left, right }) => match &right.kind {
                    ExprKind::QualifiedName(n) if n != "new" => (n.as_str(), Some(&**left)),
                    _ => return reader.eval(e),
                },
                _ => return reader.eval(e),
            };
            let mut args = Vec::new();
            if let Some(r) = receiver {
                args.push(eval(reader, r)?);
            }
            for a in arguments {
                args.push(eval(reader, a)?);
            }
            let what = if receiver.is_some() { "Method call" } else { "Function Call" };
            call(name, &args).map_err(|e| Error::new(format!("Error while evaluating a {what}, {}", e.message)))
        }
        _ => reader.eval(e),
    }
}

fn binary(op: BinaryOp, a: &Value, b: &Value) -> Result<bool, Error> {
    use puppet_types::compare::{compare_op, ComparisonOp};
    match op {
        BinaryOp::Match => matches(a, b),
        BinaryOp::NotMatch => matches(a, b).map(|m| !m),
        other => match ComparisonOp::parse(other.symbol()) {
            Some(op) => compare_op(op, a, b),
            None => Err(Error::new(format!("the golden runner has no operator {}", other.symbol()))),
        },
    }
}

/// `a =~ b` for a type, a regexp or a string pattern on the right.
fn matches(a: &Value, b: &Value) -> Result<bool, Error> {
    match b {
        Value::Type(t) => puppet_types::instance::try_is_instance(t, a)
            .map_err(|e| Error::new(format!("Error while evaluating a '=~' expression, {}", e.message))),
        // `PSemVerRangeType.include?`: a version, or a string that reads as one.
        Value::SemVerRange(r) => Ok(match a {
            Value::SemVer(v) => r.includes(v),
            Value::String(_) => match puppet_types::semver::new_semver(std::slice::from_ref(a)) {
                Ok(Value::SemVer(ref v)) => r.includes(v),
                _ => false,
            },
            _ => false,
        }),
        Value::Regexp(r) => match a {
            Value::String(s) => Ok(r.is_match(s)),
            _ => Err(Error::new("the golden runner matches only strings against regexps")),
        },
        Value::String(p) => match a {
            Value::String(s) => Ok(puppet_types::regexp::Regexp::new(&**p).is_match(s)),
            _ => Err(Error::new("the golden runner matches only strings against patterns")),
        },
        _ => Err(Error::new("the golden runner has no such match")),
    }
}

fn call(name: &str, args: &[Value]) -> Result<Value, Error> {
    use puppet_types::{assert_type, infer, time};
    match (name, args) {
        ("type", _) => infer::type_function(args, None).map(Value::ty),
        ("assert_type", _) => assert_type::assert_type_function(args),
        ("strftime", [Value::Timespan(t), Value::String(f)]) => {
            Ok(Value::from(time::strftime_timespan(t, f)?.as_str()))
        }
        ("strftime", [Value::Timestamp(t), Value::String(f)]) => {
            Ok(Value::from(time::strftime_timestamp(t, f, None)?.as_str()))
        }
        ("strftime", [Value::Timestamp(t), Value::String(f), Value::String(tz)]) => {
            Ok(Value::from(time::strftime_timestamp(t, f, Some(tz))?.as_str()))
        }
        _ => Err(Error::new(format!("the golden runner has no function {name}"))),
    }
}

#[test]
fn golden_tables() {
    table::check_tables(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"), "puppet-types", run);
}
