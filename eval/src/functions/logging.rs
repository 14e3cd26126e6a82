//! The logging functions (`functions/notice.rb` and its siblings): each argument in its
//! string form, joined by spaces, logged at the function's level.

use puppet_types::Value;

use super::{Builtin, Call};
use crate::error::Eval;
use crate::eval::{Evaluator, Level};

const VALUES: &[&str] = &["Any *$values"];

fn log(ev: &mut Evaluator, call: &Call, level: Level) -> Eval<Value> {
    let message: Vec<String> = call.args.iter().map(|v| ev.interpolate(v)).collect();
    ev.log_call(level, message.join(" "), call.at);
    Ok(Value::Undef)
}

pub static FUNCTIONS: &[Builtin] = &[
    Builtin { name: "debug", dispatches: VALUES, call: |ev, c| log(ev, &c, Level::Debug) },
    Builtin { name: "info", dispatches: VALUES, call: |ev, c| log(ev, &c, Level::Info) },
    Builtin { name: "notice", dispatches: VALUES, call: |ev, c| log(ev, &c, Level::Notice) },
    Builtin { name: "warning", dispatches: VALUES, call: |ev, c| log(ev, &c, Level::Warning) },
    Builtin { name: "err", dispatches: VALUES, call: |ev, c| log(ev, &c, Level::Err) },
    Builtin { name: "alert", dispatches: VALUES, call: |ev, c| log(ev, &c, Level::Alert) },
    Builtin { name: "emerg", dispatches: VALUES, call: |ev, c| log(ev, &c, Level::Emerg) },
    Builtin { name: "crit", dispatches: VALUES, call: |ev, c| log(ev, &c, Level::Crit) },
];
