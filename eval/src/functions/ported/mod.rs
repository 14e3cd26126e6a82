//! Native ports of the functions modules implement in Ruby (stdlib's, openstacklib's, ...).
//!
//! Poppet cannot run a module's Ruby code, so the functions real modules call are ported:
//! each [`Port`] stands for one Ruby file of one module, and is used exactly where Puppet
//! would load that file (see `Evaluator::autoload`): its module is on the module path and the
//! file is there, found first as Puppet's loaders find it (a global name in any module, the
//! 4.x API's `lib/puppet/functions/` before the 3.x API's `lib/puppet/parser/functions/`; a
//! namespaced name in its module). Without the module, `pick` stays an unknown function; a
//! module's own copy of a function Poppet has no port for stays an error saying it is Ruby.
//!
//! A port of a 4.x function ([`Api::V4`]) is a [`Builtin`]: its dispatches are those of the
//! Ruby file's `dispatch` blocks, so arguments are checked with Puppet's messages. A port of
//! a 3.x function ([`Api::V3`]) gets Puppet's 3.x calling conventions ([`v3_arguments`]):
//! its arity checked with the 3.x message, a top-level `undef` given as `''`, a regular
//! expression as its source text; one declared as a statement returns `undef`.
//!
//! Where module versions differ (stdlib 8.5.0, Debian's, and 9.7.0), a port reads the
//! version of the module it was loaded from (`Evaluator::module_version`).

use puppet_types::Value;

use super::{Builtin, Call};
use crate::error::{fail, Eval};
use crate::eval::Evaluator;

mod modules;
mod modules_more;
mod openstacklib;
mod stdlib;
mod stdlib_catalog;
mod stdlib_collections;
pub(crate) mod stdlib_data;
mod stdlib_host;
mod stdlib_strings;
pub(crate) mod stdlib_validate;

/// How Puppet calls the Ruby function a port stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// `Puppet::Functions.create_function`: dispatches with types.
    V4,
    /// `Puppet::Parser::Functions.newfunction`: an arity (`-2`: one or more) and whether it
    /// returns a value (`:type => :rvalue`).
    V3 { arity: i32, rvalue: bool },
}

/// A native port of one module's Ruby function.
pub struct Port {
    /// The module whose Ruby file it stands for (`stdlib`).
    pub module: &'static str,
    pub api: Api,
    /// The function as called (`pick`, `stdlib::ensure_packages`); for a 3.x function its
    /// dispatch is `Any *$args`, the arity being checked apart.
    pub builtin: Builtin,
}

/// Every port, of every module.
pub fn all() -> impl Iterator<Item = &'static Port> {
    [
        stdlib::PORTS,
        stdlib_catalog::PORTS,
        stdlib_collections::PORTS,
        stdlib_data::PORTS,
        stdlib_host::PORTS,
        stdlib_strings::PORTS,
        stdlib_validate::PORTS,
        openstacklib::PORTS,
        modules::PORTS,
        modules_more::PORTS,
    ]
    .into_iter()
    .flatten()
}

/// A port of `module`'s 3.x function `name` that returns a value.
pub const fn v3(
    module: &'static str,
    name: &'static str,
    arity: i32,
    call: fn(&mut Evaluator, Call) -> Eval<Value>,
) -> Port {
    Port { module, api: Api::V3 { arity, rvalue: true }, builtin: Builtin { name, dispatches: V3_DISPATCH, call } }
}

/// A port of `module`'s 3.x function `name` declared as a statement (`:type => :statement`,
/// the default): called for its effect, its value `undef`.
pub const fn v3_statement(
    module: &'static str,
    name: &'static str,
    arity: i32,
    call: fn(&mut Evaluator, Call) -> Eval<Value>,
) -> Port {
    Port { module, api: Api::V3 { arity, rvalue: false }, builtin: Builtin { name, dispatches: V3_DISPATCH, call } }
}

/// A port of `module`'s 4.x function `name` with its dispatches.
pub const fn v4(
    module: &'static str,
    name: &'static str,
    dispatches: &'static [&'static str],
    call: fn(&mut Evaluator, Call) -> Eval<Value>,
) -> Port {
    Port { module, api: Api::V4, builtin: Builtin { name, dispatches, call } }
}

/// The port of `module`'s function `name` in the API whose file was found.
pub fn find(module: &str, name: &str, v4: bool) -> Option<&'static Port> {
    all().find(|p| p.module == module && p.builtin.name == name && matches!(p.api, Api::V4) == v4)
}

/// Whether the stdlib on the module path is 9 or later (where many functions moved to the
/// `stdlib::` namespace, the old names becoming deprecated shims).
pub(super) fn stdlib_9(ev: &Evaluator) -> bool {
    ev.module_version("stdlib")
        .and_then(|v| v.split('.').next().and_then(|major| major.parse::<u32>().ok()))
        .is_some_and(|major| major >= 9)
}

/// Checks arguments against dispatches in the notation of `functions/mod.rs`, with Puppet's
/// messages (for a port whose dispatches depend on the module's version); the index of the
/// one that takes them.
pub(super) fn select_dispatch(name: &str, dispatches: &[&str], args: &[Value], block: Option<&Value>) -> Eval<usize> {
    let signatures = super::parse_dispatches(dispatches).map_err(fail)?;
    Ok(puppet_types::dispatch::select_signature(name, &signatures, args, block)?)
}

/// The dispatch every 3.x port has: anything, the arity being checked apart.
pub const V3_DISPATCH: &[&str] = &["Any *$args"];

/// The arguments as a 3.x function gets them (`Runtime3FunctionArgumentConverter`): checked
/// against its arity (`pick(): Wrong number of arguments given (0 for minimum 1)`), an
/// `undef` argument given as `''` (inside an array or hash it stays `undef`), a regular
/// expression as its source between slashes, a binary value as its Base64 text, a time as
/// its text.
pub fn v3_arguments(name: &str, arity: i32, args: Vec<Value>) -> Eval<Vec<Value>> {
    let count = args.len();
    if arity >= 0 && count != arity as usize {
        return Err(fail(format!("{name}(): Wrong number of arguments given ({count} for {arity})")));
    }
    let minimum = (arity + 1).unsigned_abs() as usize;
    if arity < 0 && count < minimum {
        return Err(fail(format!("{name}(): Wrong number of arguments given ({count} for minimum {minimum})")));
    }
    Ok(args
        .into_iter()
        .map(|a| match a {
            Value::Undef => Value::from(""),
            other => v3_value(other),
        })
        .collect())
}

/// A value inside a 3.x function's argument, as Ruby code gets it.
fn v3_value(v: Value) -> Value {
    match &v {
        Value::Regexp(r) => Value::from(regexp_inspect(r.source()).as_str()),
        Value::Binary(_) | Value::Timestamp(_) | Value::Timespan(_) | Value::SemVer(_) | Value::SemVerRange(_) => {
            Value::from(puppet_types::display::value_to_s(&v).as_str())
        }
        Value::Array(items) => Value::array(items.iter().cloned().map(v3_value).collect()),
        Value::Hash(h) => Value::hash(h.iter().map(|(k, v)| (v3_value(k.clone()), v3_value(v.clone()))).collect()),
        _ => v,
    }
}

/// Ruby's `Regexp#inspect`: the source between slashes, a slash in it escaped.
fn regexp_inspect(source: &str) -> String {
    let mut out = String::from("/");
    let mut escaped = false;
    for c in source.chars() {
        if c == '/' && !escaped {
            out.push('\\');
        }
        escaped = c == '\\' && !escaped;
        out.push(c);
    }
    out.push('/');
    out
}

/// Calls a loaded port: a 3.x one with its conventions.
pub fn call(ev: &mut Evaluator, port: &Port, call: Call) -> Eval<Value> {
    match port.api {
        Api::V4 => (port.builtin.call)(ev, call),
        Api::V3 { arity, rvalue } => {
            let args = v3_arguments(port.builtin.name, arity, call.args)?;
            let result = (port.builtin.call)(ev, Call { args, ..call })?;
            Ok(if rvalue { result } else { Value::Undef })
        }
    }
}
