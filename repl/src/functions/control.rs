//! Control flow: `fail` (`parser/functions/fail.rb`), `break`, `next`, `return` (which leave
//! the evaluation through [`Flow`]), and the lambda-calling `with`, `then` and `lest`.

use puppet_types::display::{float_to_s, value_to_s};
use puppet_types::ruby_string::inspect as inspect_str;
use puppet_types::Value;

use super::{Builtin, Call};
use crate::error::{fail, Eval, Flow};
use crate::eval::Evaluator;

/// `fail`'s message: each argument as the 3.x function API gets it (undef as `''`), in
/// Ruby's `to_s`, joined by spaces.
fn fail_fn(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let parts: Vec<String> = call.args.iter().map(ruby3_to_s).collect();
    Err(fail(parts.join(" ")))
}

/// Ruby's `to_s` of an argument converted for a 3.x function.
fn ruby3_to_s(v: &Value) -> String {
    match v {
        Value::Undef => String::new(),
        Value::Default => "default".into(),
        Value::String(s) => s.to_string(),
        Value::Float(f) => float_to_s(*f),
        Value::Array(_) | Value::Hash(_) => ruby3_inspect(v, 0),
        Value::Regexp(r) => puppet_types::display::regexp_with_delimiters(r.source()),
        Value::Type(t) => t.to_string(),
        other => value_to_s(other),
    }
}

/// Ruby's `inspect` of a value inside an array or hash given to a 3.x function.
fn ruby3_inspect(v: &Value, depth: usize) -> String {
    if depth > 200 {
        return "[...]".into();
    }
    match v {
        Value::Undef => "nil".into(),
        Value::Default => ":default".into(),
        Value::String(s) => inspect_str(s),
        Value::Regexp(r) => inspect_str(&puppet_types::display::regexp_with_delimiters(r.source())),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(|x| ruby3_inspect(x, depth + 1)).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Hash(h) => {
            let parts: Vec<String> =
                h.iter().map(|(k, x)| format!("{}=>{}", ruby3_inspect(k, depth + 1), ruby3_inspect(x, depth + 1))).collect();
            format!("{{{}}}", parts.join(", "))
        }
        other => ruby3_to_s(other),
    }
}

fn with(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let block = call.block.clone().ok_or_else(|| fail("'with' expects a block"))?;
    ev.call_block(&block, &call.args)
}

fn then(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let arg = call.arg(0);
    if arg.is_undef() {
        return Ok(Value::Undef);
    }
    let block = call.block.clone().ok_or_else(|| fail("'then' expects a block"))?;
    ev.call_block(&block, &[arg])
}

fn lest(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let arg = call.arg(0);
    if !arg.is_undef() {
        return Ok(arg);
    }
    let block = call.block.clone().ok_or_else(|| fail("'lest' expects a block"))?;
    ev.call_block(&block, &[])
}

pub static FUNCTIONS: &[Builtin] = &[
    Builtin { name: "fail", dispatches: &["Any *$args"], call: fail_fn },
    Builtin { name: "break", dispatches: &[""], call: |_, c| Err(Flow::brk(c.at)) },
    Builtin { name: "next", dispatches: &["Any $value?"], call: |_, c| Err(Flow::next(c.arg(0), c.at)) },
    Builtin { name: "return", dispatches: &["Any $value?"], call: |_, c| Err(Flow::ret(c.arg(0), c.at)) },
    Builtin { name: "with", dispatches: &["Any *$arg, Callable &$block"], call: with },
    Builtin { name: "then", dispatches: &["Any $arg, Callable[1,1] &$block"], call: then },
    Builtin { name: "lest", dispatches: &["Any $arg, Callable[0,0] &$block"], call: lest },
];
