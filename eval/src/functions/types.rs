//! The type and conversion functions: `type` (`detailed`, `reduced`, `generalized`
//! inference), `assert_type` (a type or a type string; with a block, the block gets the
//! expected and the actual type and its result is the value), `new` (Puppet's conversion to
//! any type: `new(T, x)`, also written `T(x)` and `T.new(x)`), `convert_to`, `unwrap`,
//! `getvar` (a variable by name, with `.`-navigation into its value) and `call` (a function
//! by name, or a `Deferred`).

use std::rc::Rc;

use puppet_types::dispatch::{select_signature, Signature};
use puppet_types::infer::{infer, infer_generalized, infer_set};
use puppet_types::instance::is_instance;
use puppet_types::{Type, Value};

use super::{parse_dispatch, Builtin, Call};
use crate::error::{fail, Eval};
use crate::eval::Evaluator;

pub static FUNCTIONS: &[Builtin] = &[
    // Annotations are Pcore objects (`Object[{parent => Annotation}]`), which the type system
    // does not have yet: the arguments are counted as Puppet counts them, and a call that
    // gets that far says what is missing.
    Builtin {
        name: "annotate",
        dispatches: &["Any $type, Any $value, Callable[0, 0] &$block?", "Any $type, Any $value, Any $annotations"],
        call: |_, _| Err(fail("annotate() needs Pcore annotation types (Object types), which are not supported yet")),
    },
    Builtin {
        name: "type",
        dispatches: &[
            "Any $value, Enum['detailed'] $inference_method?",
            "Any $value, Enum['reduced'] $inference_method",
            "Any $value, Enum['generalized'] $inference_method",
        ],
        call: type_function,
    },
    Builtin {
        name: "assert_type",
        dispatches: &[
            "Type $type, Any $value, Callable[Type, Type] &$block?",
            "String $type_string, Any $value, Callable[Type, Type] &$block?",
        ],
        call: assert_type,
    },
    Builtin { name: "new", dispatches: &["Type $type, Any *$args, Callable &$block?"], call: new },
    Builtin {
        name: "convert_to",
        dispatches: &["Any $value, Type $type, Any *$args, Callable[1,1] &$block?"],
        call: convert_to,
    },
    Builtin {
        name: "unwrap",
        dispatches: &["Sensitive $arg, Callable &$block?", "Any $arg, Callable &$block?"],
        call: unwrap,
    },
    // The dispatch is checked by the function itself (`GETVAR_DISPATCH`), which has Puppet's
    // `argument_mismatch` handler as well.
    Builtin { name: "getvar", dispatches: &["Any *$args, Callable &$block?"], call: getvar },
    Builtin {
        name: "call",
        dispatches: &["String $function_name, Any *$arguments, Callable &$block?", "Deferred $deferred"],
        call: call_function,
    },
];

// ---- type, assert_type --------------------------------------------------------------------

fn type_function(_ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let v = call.arg(0);
    Ok(Value::ty(match call.dispatch {
        0 => infer_set(&v),
        1 => infer(&v),
        _ => infer_generalized(&v),
    }))
}

/// `TypeParser#parse` of a type string with the loader of the code that calls it: the
/// type map, Puppet's static types, then what the program and its modules define (type
/// aliases, Object types, defined and resource types); an unknown name is an unresolved
/// type reference.
pub(crate) fn parse_type_string(ev: &mut Evaluator, src: &str) -> Eval<Type> {
    let loader = EvaluatorLoader { ev: std::cell::RefCell::new(ev), error: std::cell::RefCell::new(None) };
    let parsed = puppet_types::type_parser::parse(src, &loader);
    if let Some(flow) = loader.error.into_inner() {
        return Err(flow);
    }
    Ok(parsed?)
}

/// The loaders of the evaluated code as the type parser asks them (`loader.load(:type, name)`).
struct EvaluatorLoader<'a> {
    ev: std::cell::RefCell<&'a mut Evaluator>,
    /// The first error loading a type raised (a broken Object type), raised after parsing.
    error: std::cell::RefCell<Option<crate::error::Flow>>,
}

impl puppet_types::type_parser::TypeLoader for EvaluatorLoader<'_> {
    fn load_type(&self, name: &str) -> Option<Type> {
        if let Some(t) = puppet_types::type_parser::StaticLoader.load_type(name) {
            return Some(t);
        }
        let mut ev = self.ev.try_borrow_mut().ok()?;
        // an Object type's errors are the caller's (not a Type-Name's)
        if let Err(flow) = ev.resolve_pending_object(&name.to_lowercase()) {
            self.error.borrow_mut().get_or_insert(flow);
            return None;
        }
        let saved = std::mem::replace(&mut ev.in_type_alias, true);
        let found = ev.type_reference(name, puppet_syntax::Span::default());
        ev.in_type_alias = saved;
        match found {
            Ok(Type::Reference(_)) => None,
            Ok(t) => Some(t),
            Err(flow) => {
                self.error.borrow_mut().get_or_insert(flow);
                None
            }
        }
    }
}

fn assert_type(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let value = call.arg(1);
    let expected = match &call.arg(0) {
        Value::Type(t) => (**t).clone(),
        Value::String(s) => parse_type_string(ev, s)?,
        _ => Type::Any,
    };
    if is_instance(&expected, &value) {
        return Ok(value);
    }
    let actual = infer_set(&value);
    match &call.block {
        Some(block) => ev.call_block(block, &[Value::ty(expected), Value::ty(actual)]),
        None => Err(fail(puppet_types::mismatch::describe_mismatch("assert_type():", &expected, &actual))),
    }
}

// ---- new, convert_to, unwrap ----------------------------------------------------------------

/// Puppet's `new(type, args...)`: a single argument that already is an instance (of a type
/// that is no `Init`) is returned as it is, without calling the block; otherwise the type's
/// conversion, whose result the block (if any) gets.
fn new_instance(ev: &mut Evaluator, t: &Type, args: &[Value], block: Option<&Value>) -> Eval<Value> {
    if let [single] = args {
        if !matches!(t, Type::Init { .. }) && is_instance(t, single) {
            return Ok(single.clone());
        }
    }
    let result = pfmt::new_value(t, args)?;
    match block {
        Some(b) => ev.call_block(b, &[result]),
        None => Ok(result),
    }
}

fn new(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let t = match &call.arg(0) {
        Value::Type(t) => (**t).clone(),
        _ => Type::Any,
    };
    new_instance(ev, &t, &call.args[1..], call.block.as_ref())
}

fn convert_to(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let t = match &call.arg(1) {
        Value::Type(t) => (**t).clone(),
        _ => Type::Any,
    };
    let mut args = vec![call.arg(0)];
    args.extend(call.args.iter().skip(2).cloned());
    let result = new_instance(ev, &t, &args, None)?;
    match &call.block {
        Some(b) => ev.call_block(b, &[result]),
        None => Ok(result),
    }
}

fn unwrap(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let unwrapped = match &call.arg(0) {
        Value::Sensitive(inner) => (**inner).clone(),
        other => other.clone(),
    };
    match &call.block {
        Some(b) => ev.call_block(b, &[unwrapped]),
        None => Ok(unwrapped),
    }
}

// ---- calling other functions ----------------------------------------------------------------

/// Calls the function `name` from inside a function, as Puppet's `call_function` does: its
/// argument errors and failures are reported as the calling function's.
pub(crate) fn call_inner(
    ev: &mut Evaluator,
    name: &str,
    args: Vec<Value>,
    block: Option<Value>,
    at: puppet_syntax::Span,
) -> Eval<Value> {
    ev.call_function_inner(name, args, block, at)
}

fn call_function(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    match &call.arg(0) {
        Value::Deferred(d) => resolve_deferred(ev, d, call.at, 0),
        Value::String(name) => call_inner(ev, name, call.args[1..].to_vec(), call.block.clone(), call.at),
        _ => Ok(Value::Undef),
    }
}

/// `DeferredResolver#resolve`: Deferred values (also inside arrays, hashes and Sensitive
/// values) replaced by the result of their call.
fn resolve(ev: &mut Evaluator, v: &Value, at: puppet_syntax::Span, depth: usize) -> Eval<Value> {
    if depth > 100 {
        return Err(fail("stack level too deep"));
    }
    match v {
        Value::Deferred(d) => resolve_deferred(ev, d, at, depth + 1),
        Value::Array(a) => {
            let mut out = Vec::with_capacity(a.len());
            for x in a.iter() {
                out.push(resolve(ev, x, at, depth + 1)?);
            }
            Ok(Value::array(out))
        }
        Value::Hash(h) => {
            let mut out = puppet_types::value::Hash::with_capacity_and_hasher(h.len(), Default::default());
            for (k, x) in h.iter() {
                out.insert(k.clone(), resolve(ev, x, at, depth + 1)?);
            }
            Ok(Value::hash(out))
        }
        Value::Sensitive(inner) => Ok(Value::Sensitive(Rc::new(resolve(ev, inner, at, depth + 1)?))),
        other => Ok(other.clone()),
    }
}

/// `resolve_future`: the arguments resolved first; a name starting with `$` is a variable
/// of the top scope, dug into with the arguments (`dig`).
fn resolve_deferred(
    ev: &mut Evaluator,
    d: &puppet_types::value::Deferred,
    at: puppet_syntax::Span,
    depth: usize,
) -> Eval<Value> {
    let mut args = Vec::new();
    for a in d.arguments.iter().flatten() {
        args.push(resolve(ev, a, at, depth + 1)?);
    }
    let (name, args) = match d.name.strip_prefix('$') {
        Some(var) => {
            let value = match ev.top.get(var) {
                Some(v) => v,
                None => {
                    // `Scope#[]` of an unknown variable (`variable_not_found`)
                    let message = format!("Undefined variable '{var}'; ");
                    match ev.options.strict {
                        crate::eval::Strict::Off => {}
                        crate::eval::Strict::Warning => {
                            super::strings::warn_once(ev, &format!("undefined_variables Variable: {var}"), &message)
                        }
                        crate::eval::Strict::Error => return Err(fail(message)),
                    }
                    Value::Undef
                }
            };
            let mut with_value = vec![value];
            with_value.extend(args);
            ("dig".to_string(), with_value)
        }
        None => (d.name.to_string(), args),
    };
    call_inner(ev, &name, args, None, at)
}

// ---- getvar ------------------------------------------------------------------------------------

const GETVAR_DISPATCH: &str =
    r"Pattern[/\A(?:::)?(?:[a-z]\w*::)*[a-z_]\w*(?:\.|\Z)/] $get_string, Any $default_value?, Callable[1,1] &$block?";
const GETVAR_MISMATCH: &str = "String $get_string, Any $default_value?, Callable &$block?";

thread_local! {
    static GETVAR_SIGNATURES: Result<(Signature, Signature), String> =
        parse_dispatch(GETVAR_DISPATCH).and_then(|a| parse_dispatch(GETVAR_MISMATCH).map(|b| (a, b)));
}

fn getvar(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let (dispatch, mismatch) = GETVAR_SIGNATURES.with(|s| s.clone()).map_err(fail)?;
    if let Err(e) = select_signature("getvar", std::slice::from_ref(&dispatch), &call.args, call.block.as_ref()) {
        // Puppet's `argument_mismatch` dispatch words a string that is no variable name
        if select_signature("getvar", std::slice::from_ref(&mismatch), &call.args, call.block.as_ref()).is_ok() {
            return Err(fail("'getvar' The given string does not start with a valid variable name"));
        }
        return Err(e.into());
    }
    let navigation = call.arg(0);
    let navigation = navigation.as_str().unwrap_or("");
    let default = call.arg(1);
    // `/^((::)?(\w+::)*\w+)(.*)\z/`
    let name_end = variable_name_end(navigation);
    let (name, rest) = navigation.split_at(name_end);
    let rest = match rest.strip_prefix('.') {
        Some(r) => r,
        None if rest.is_empty() => rest,
        None => {
            let c = rest.chars().next().unwrap_or(' ');
            return Err(fail(format!("First character after var name in get string must be a '.' - got {c}")));
        }
    };
    let value = match lookup_variable(ev, name) {
        Some(v) => v,
        None => return Ok(default),
    };
    call_inner(ev, "get", vec![value, Value::from(rest), default], call.block.clone(), call.at)
}

/// Where `(::)?(\w+::)*\w+` ends at the start of `s`.
fn variable_name_end(s: &str) -> usize {
    let b = s.as_bytes();
    let word = |i: usize| -> usize {
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
            j += 1;
        }
        j
    };
    let mut i = if s.starts_with("::") { 2 } else { 0 };
    let mut end = i;
    loop {
        let j = word(i);
        if j == i {
            break;
        }
        end = j;
        if b.get(j) == Some(&b':') && b.get(j + 1) == Some(&b':') && word(j + 2) > j + 2 {
            i = j + 2;
        } else {
            break;
        }
    }
    end
}

/// `scope.lookupvar(name)`: a variable by its name (`::x` and `a::b` at the top), `None` when
/// it is not set.
fn lookup_variable(ev: &Evaluator, name: &str) -> Option<Value> {
    match name.strip_prefix("::") {
        Some(top) if !top.contains("::") => ev.top.get(top),
        _ if name.contains("::") => ev.top.get(name.trim_start_matches("::")).or_else(|| ev.qualified_variable(name)),
        _ => ev.scope.get(name),
    }
}
