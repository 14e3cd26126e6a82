//! Control flow: `fail` (`parser/functions/fail.rb`), `break`, `next`, `return` (which leave
//! the evaluation through [`Flow`]), and the lambda-calling `with`, `then` and `lest`.

use puppet_types::Value;

use super::ruby;
use super::{Builtin, Call};
use crate::error::{fail, Eval, Flow};
use crate::eval::Evaluator;

/// `fail`'s message: each argument as the 3.x function API gets it (undef as `''`, an
/// Iterator refused), in Ruby's `to_s`, joined by spaces.
fn fail_fn(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let parts: Vec<String> = super::strings::args_3x(&call.args)?.iter().map(ruby::to_s).collect();
    Err(fail(parts.join(" ")))
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
