//! puppetlabs-stdlib's validation and test functions (`validate_legacy`,
//! `validate_*`, `is_*`).
//!
//! In stdlib 8.5.0 most of them are 3.x functions (`lib/puppet/parser/functions/`) with a 4.x
//! shim of the same name (`lib/puppet/functions/`), which Puppet finds first: the shim logs
//! stdlib's deprecation warning and calls the 3.x function from Ruby
//! (`scope.function_NAME(args)`), so the 3.x code gets the arguments as they are (an `undef`
//! is `nil`, a regexp a `Regexp`) rather than with the conversions of a call from Puppet code
//! (`''`, the regexp's text). Here each 3.x function is one body over the arguments as Ruby
//! sees them ([`Body`]), used by its 3.x port, by its shim and by `validate_legacy`'s
//! previous validation; what the body raises keeps apart Puppet's `ParseError` (which
//! `validate_legacy` catches) from other errors ([`Raise`]).
//!
//! stdlib 9.7.0 dropped these functions but for `validate_legacy` (which then only checks the
//! type, with a deprecation warning), `is_a`, `type_of`, `validate_domain_name`,
//! `validate_email_address` (shims of their `stdlib::` replacements), `validate_cmd`,
//! `validate_augeas`, `validate_x509_rsa_key_pair` and `stdlib::has_function`.
//!
//! `validate_cmd` runs its command where running commands is allowed (as `generate()`);
//! `validate_augeas` and `validate_x509_rsa_key_pair` would run Augeas or OpenSSL on the
//! content: after their argument checks they refuse, saying so.

use std::rc::Rc;

use num_bigint::BigInt;
use puppet_syntax::Span;
use puppet_types::dispatch::{select_signature, Signature};
use puppet_types::display::{float_to_s, value_to_s};
use puppet_types::infer::infer_set;
use puppet_types::instance::is_instance;
use puppet_types::mismatch::describe_mismatch;
use puppet_types::regexp::Regexp;
use puppet_types::ty::Size;
use puppet_types::{Type, Value};

use super::{select_dispatch, stdlib_9, v3, v3_statement, v4, Api, Port};
use crate::error::{fail, Eval, Flow};
use crate::eval::{Evaluator, Level};
use crate::functions::ruby::{class, inspect, to_s};
use crate::functions::Call;

/// The deprecation message of a `validate_*` shim: use `validate_legacy` with `$type` (the
/// Ruby's string runs over two lines).
macro_rules! validate_message {
    ($type:literal) => {
        concat!(
            "This method is deprecated, please use the stdlib validate_legacy function,\n                    with ",
            $type,
            ". There is further documentation for validate_legacy function in the README."
        )
    };
}

/// The deprecation message of an `is_*` shim: use a match expression with `$type`.
macro_rules! match_message {
    ($type:literal) => {
        concat!(
            "This method is deprecated, please use match expressions with ",
            $type,
            " instead. They are described at https://docs.puppet.com/puppet/latest/reference/lang_data_type.html#match-expressions."
        )
    };
}

/// The dispatch of a shim that takes anything (`repeated_param 'Any', :args`, after the
/// scope Puppet hands it).
const ANY: &[&str] = &["Any *$args"];

pub static PORTS: &[Port] = &[
    v4("stdlib", "validate_legacy", ANY, validate_legacy),
    // stdlib 8.5.0's 4.x shims: a deprecation warning, then the 3.x function
    v4("stdlib", "validate_absolute_path", ANY, |ev, c| {
        shim(ev, c, "validate_absolute_path", validate_message!("Stdlib::Compat::Absolute_Path"))
    }),
    v4("stdlib", "validate_array", ANY, |ev, c| {
        shim(ev, c, "validate_array", validate_message!("Stdlib::Compat::Array"))
    }),
    v4("stdlib", "validate_bool", ANY, |ev, c| shim(ev, c, "validate_bool", validate_message!("Stdlib::Compat::Bool"))),
    v4("stdlib", "validate_hash", ANY, |ev, c| shim(ev, c, "validate_hash", validate_message!("Stdlib::Compat::Hash"))),
    v4("stdlib", "validate_integer", ANY, |ev, c| {
        shim(ev, c, "validate_integer", validate_message!("Stdlib::Compat::Integer"))
    }),
    v4("stdlib", "validate_ip_address", ANY, |ev, c| {
        shim(ev, c, "validate_ip_address", validate_message!("Stdlib::Compat::Ip_Address"))
    }),
    v4("stdlib", "validate_ipv4_address", ANY, |ev, c| {
        shim(ev, c, "validate_ipv4_address", validate_message!("Stdlib::Compat::Ipv4_Address"))
    }),
    v4("stdlib", "validate_ipv6_address", ANY, |ev, c| {
        shim(ev, c, "validate_ipv6_address", validate_message!("Stdlib::Compat::Ipv6_address"))
    }),
    v4("stdlib", "validate_numeric", ANY, |ev, c| {
        shim(ev, c, "validate_numeric", validate_message!("Stdlib::Compat::Numeric"))
    }),
    v4("stdlib", "validate_re", ANY, |ev, c| shim(ev, c, "validate_re", validate_message!("Pattern[]"))),
    v4("stdlib", "validate_slength", ANY, |ev, c| shim(ev, c, "validate_slength", validate_message!("String[]"))),
    v4("stdlib", "validate_string", ANY, |ev, c| {
        shim(ev, c, "validate_string", validate_message!("Stdlib::Compat::String"))
    }),
    v4("stdlib", "is_absolute_path", ANY, |ev, c| {
        shim(ev, c, "is_absolute_path", match_message!("Stdlib::Compat::Absolute_Path"))
    }),
    v4("stdlib", "is_array", ANY, |ev, c| shim(ev, c, "is_array", match_message!("Stdlib::Compat::Array"))),
    v4("stdlib", "is_bool", ANY, |ev, c| shim(ev, c, "is_bool", match_message!("Stdlib::Compat::Bool"))),
    v4("stdlib", "is_float", ANY, |ev, c| shim(ev, c, "is_float", match_message!("Stdlib::Compat::Float"))),
    v4("stdlib", "is_ip_address", ANY, |ev, c| {
        shim(ev, c, "is_ip_address", match_message!("Stdlib::Compat::Ip_address"))
    }),
    v4("stdlib", "is_ipv4_address", ANY, |ev, c| {
        shim(ev, c, "is_ipv4_address", match_message!("Stdlib::Compat::Ipv4"))
    }),
    // (the Ruby warns under is_ipv4_address's key)
    v4("stdlib", "is_ipv6_address", ANY, |ev, c| {
        shim_keyed(ev, c, "is_ipv6_address", "is_ipv4_address", match_message!("Stdlib::Compat::Ipv6"))
    }),
    v4("stdlib", "is_numeric", ANY, |ev, c| shim(ev, c, "is_numeric", match_message!("Stdlib::Compat::Numeric"))),
    v4("stdlib", "is_string", ANY, |ev, c| shim(ev, c, "is_string", match_message!("Stdlib::Compat::String"))),
    // stdlib 9.7.0's shims of the `stdlib::` functions (8.5.0 has 3.x ones, below)
    v4("stdlib", "validate_domain_name", ANY, |ev, c| namespaced_shim(ev, c, "validate_domain_name")),
    v4("stdlib", "validate_email_address", ANY, |ev, c| namespaced_shim(ev, c, "validate_email_address")),
    v4("stdlib", "stdlib::validate_domain_name", ANY, stdlib_validate_domain_name),
    v4("stdlib", "stdlib::validate_email_address", ANY, stdlib_validate_email_address),
    v4("stdlib", "type_of", ANY, type_of),
    v4("stdlib", "stdlib::type_of", &["Any $value"], |_, c| Ok(Value::ty(infer_set(&c.arg(0))))),
    v4("stdlib", "is_a", &["Any $value, Type $type"], is_a),
    v4("stdlib", "stdlib::has_function", &["String[1] $function_name"], has_function),
    // the 3.x functions
    v3_statement("stdlib", "validate_absolute_path", -1, |ev, c| run(validate_absolute_path, ev, &c.args)),
    v3_statement("stdlib", "validate_array", -1, |ev, c| run(validate_array, ev, &c.args)),
    v3_statement("stdlib", "validate_bool", -1, |ev, c| run(validate_bool, ev, &c.args)),
    v3_statement("stdlib", "validate_hash", -1, |ev, c| run(validate_hash, ev, &c.args)),
    v3_statement("stdlib", "validate_integer", -1, |ev, c| run(validate_integer, ev, &c.args)),
    v3_statement("stdlib", "validate_ip_address", -1, |ev, c| run(validate_ip_address, ev, &c.args)),
    v3_statement("stdlib", "validate_ipv4_address", -1, |ev, c| run(validate_ipv4_address, ev, &c.args)),
    v3_statement("stdlib", "validate_ipv6_address", -1, |ev, c| run(validate_ipv6_address, ev, &c.args)),
    v3_statement("stdlib", "validate_numeric", -1, |ev, c| run(validate_numeric, ev, &c.args)),
    v3_statement("stdlib", "validate_re", -1, |ev, c| run(validate_re, ev, &c.args)),
    v3_statement("stdlib", "validate_slength", -1, |ev, c| run(validate_slength, ev, &c.args)),
    v3_statement("stdlib", "validate_string", -1, |ev, c| run(validate_string, ev, &c.args)),
    v3_statement("stdlib", "validate_domain_name", -1, |ev, c| run(validate_domain_name, ev, &c.args)),
    v3_statement("stdlib", "validate_email_address", -1, |ev, c| run(validate_email_address, ev, &c.args)),
    v3_statement("stdlib", "validate_cmd", -1, |ev, c| run(validate_cmd, ev, &c.args)),
    v3_statement("stdlib", "validate_augeas", -1, |ev, c| run(validate_augeas, ev, &c.args)),
    v3_statement("stdlib", "validate_x509_rsa_key_pair", -1, |ev, c| run(validate_x509_rsa_key_pair, ev, &c.args)),
    v3("stdlib", "is_absolute_path", 1, |ev, c| run(is_absolute_path, ev, &c.args)),
    v3("stdlib", "is_array", -1, |ev, c| run(is_array, ev, &c.args)),
    v3("stdlib", "is_bool", -1, |ev, c| run(is_bool, ev, &c.args)),
    v3("stdlib", "is_hash", -1, |ev, c| run(is_hash, ev, &c.args)),
    v3("stdlib", "is_float", -1, |ev, c| run(is_float, ev, &c.args)),
    v3("stdlib", "is_integer", -1, |ev, c| run(is_integer, ev, &c.args)),
    v3("stdlib", "is_numeric", -1, |ev, c| run(is_numeric, ev, &c.args)),
    v3("stdlib", "is_string", -1, |ev, c| run(is_string, ev, &c.args)),
    v3("stdlib", "is_ip_address", -1, |ev, c| run(is_ip_address, ev, &c.args)),
    v3("stdlib", "is_ipv4_address", -1, |ev, c| run(is_ipv4_address, ev, &c.args)),
    v3("stdlib", "is_ipv6_address", -1, |ev, c| run(is_ipv6_address, ev, &c.args)),
    v3("stdlib", "is_domain_name", -1, |ev, c| run(is_domain_name, ev, &c.args)),
    v3("stdlib", "is_email_address", -1, |ev, c| run(is_email_address, ev, &c.args)),
    v3("stdlib", "is_mac_address", -1, |ev, c| run(is_mac_address, ev, &c.args)),
    v3("stdlib", "is_function_available", -1, |ev, c| run(is_function_available, ev, &c.args)),
    v3("stdlib", "type3x", -1, |ev, c| run(type3x, ev, &c.args)),
];

/// The 3.x functions' bodies, by name, for the Ruby that calls them (`scope.function_NAME`).
const BODIES: &[(&str, Body)] = &[
    ("validate_absolute_path", validate_absolute_path),
    ("validate_array", validate_array),
    ("validate_bool", validate_bool),
    ("validate_hash", validate_hash),
    ("validate_integer", validate_integer),
    ("validate_ip_address", validate_ip_address),
    ("validate_ipv4_address", validate_ipv4_address),
    ("validate_ipv6_address", validate_ipv6_address),
    ("validate_numeric", validate_numeric),
    ("validate_re", validate_re),
    ("validate_slength", validate_slength),
    ("validate_string", validate_string),
    ("validate_domain_name", validate_domain_name),
    ("validate_email_address", validate_email_address),
    ("validate_cmd", validate_cmd),
    ("validate_augeas", validate_augeas),
    ("validate_x509_rsa_key_pair", validate_x509_rsa_key_pair),
    ("is_absolute_path", is_absolute_path),
    ("is_array", is_array),
    ("is_bool", is_bool),
    ("is_hash", is_hash),
    ("is_float", is_float),
    ("is_integer", is_integer),
    ("is_numeric", is_numeric),
    ("is_string", is_string),
    ("is_ip_address", is_ip_address),
    ("is_ipv4_address", is_ipv4_address),
    ("is_ipv6_address", is_ipv6_address),
    ("is_domain_name", is_domain_name),
    ("is_email_address", is_email_address),
    ("is_mac_address", is_mac_address),
    ("is_function_available", is_function_available),
    ("type3x", type3x),
];

// ---- Ruby's errors, 3.x calls, deprecations ----------------------------------------------

/// What the Ruby of a 3.x function raised.
enum Raise {
    /// A `Puppet::ParseError`: the functions' own refusals, which `validate_legacy` takes as
    /// "the previous validation failed".
    Parse(String),
    /// Anything else (the arity's `ArgumentError`, a `RegexpError`, ...): an error of the
    /// caller too.
    Other(Flow),
}

impl From<Flow> for Raise {
    fn from(flow: Flow) -> Raise {
        Raise::Other(flow)
    }
}

impl Raise {
    /// The error as Puppet reports it.
    fn into_flow(self) -> Flow {
        match self {
            Raise::Parse(message) => fail(message),
            Raise::Other(flow) => flow,
        }
    }
}

/// The outcome of a 3.x function's Ruby.
type Ruby<T> = Result<T, Raise>;

/// A 3.x function's body over its arguments as Ruby gets them.
type Body = fn(&mut Evaluator, &[Value]) -> Ruby<Value>;

/// `raise Puppet::ParseError, message`.
fn parse_error<T>(message: impl Into<String>) -> Ruby<T> {
    Err(Raise::Parse(message.into()))
}

/// Calls a 3.x body for a call from Puppet code (the arguments already converted).
fn run(body: Body, ev: &mut Evaluator, args: &[Value]) -> Eval<Value> {
    body(ev, args).map_err(Raise::into_flow)
}

/// Puppet 7's own 3.x functions (`Puppet::Parser::Functions`: its `parser/functions/`
/// files and one function per log level), which `scope.function_NAME` and
/// `is_function_available` find besides the modules' 3.x functions.
const PUPPET_3X: &[&str] = &[
    "alert",
    "assert_type",
    "binary_file",
    "break",
    "contain",
    "create_resources",
    "crit",
    "debug",
    "defined",
    "dig",
    "digest",
    "each",
    "emerg",
    "epp",
    "err",
    "fail",
    "file",
    "filter",
    "find_file",
    "fqdn_rand",
    "generate",
    "hiera",
    "hiera_array",
    "hiera_hash",
    "hiera_include",
    "include",
    "info",
    "inline_epp",
    "inline_template",
    "lest",
    "lookup",
    "map",
    "match",
    "md5",
    "new",
    "next",
    "notice",
    "realize",
    "reduce",
    "regsubst",
    "require",
    "return",
    "reverse_each",
    "scanf",
    "sha1",
    "sha256",
    "shellquote",
    "slice",
    "split",
    "sprintf",
    "step",
    "strftime",
    "tag",
    "tagged",
    "template",
    "then",
    "type",
    "versioncmp",
    "warning",
    "with",
];

/// Whether `Puppet::Parser::Functions.function(name)` finds a 3.x function: Puppet's own,
/// or a module's `lib/puppet/parser/functions/NAME.rb`.
pub(crate) fn has_3x_function(ev: &Evaluator, name: &str) -> bool {
    if PUPPET_3X.contains(&name) {
        return true;
    }
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return false;
    }
    let file = format!("lib/puppet/parser/functions/{name}.rb");
    let mut seen = std::collections::HashSet::new();
    for dir in &ev.loader.modulepath {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        for entry in entries.flatten() {
            let module = entry.file_name().to_string_lossy().into_owned();
            if seen.insert(module.clone()) && ev.module_dir(&module).is_some_and(|d| d.join(&file).is_file()) {
                return true;
            }
        }
    }
    false
}

/// `scope.function_NAME(args)`: a 3.x function called from Ruby, its arguments as they
/// are, its arity checked (an `ArgumentError`), a statement's value `nil`; Ruby's
/// `NoMethodError` where there is no such 3.x function.
fn function_3x(ev: &mut Evaluator, name: &str, args: &[Value], at: Span) -> Ruby<Value> {
    if !has_3x_function(ev, name) {
        return Err(Raise::Other(fail(format!(
            "undefined method `function_{name}' for {SCOPE}:Puppet::Parser::Scope"
        ))));
    }
    let ours = BODIES.iter().find(|(n, _)| *n == name).map(|(_, body)| *body);
    let port = super::find("stdlib", name, false);
    if let (Some(body), Some(Port { api: Api::V3 { arity, rvalue }, .. })) = (ours, port) {
        if ev.module_dir("stdlib").is_some_and(|d| d.join(format!("lib/puppet/parser/functions/{name}.rb")).is_file()) {
            check_arity(name, *arity, args.len())?;
            let value = body(ev, args)?;
            return Ok(if *rvalue { value } else { Value::Undef });
        }
    }
    // another module's or Puppet's own 3.x function: through the function Poppet has
    // (Puppet's `fail` raises a ParseError; any failure is taken as one)
    load_function(ev, name);
    ev.call_function_inner(name, args.to_vec(), None, at).map_err(|flow| match flow {
        Flow::Error(e) => Raise::Parse(e.message),
        other => Raise::Other(other),
    })
}

/// The arity check of a 3.x function's `function_NAME` method (an `ArgumentError`).
fn check_arity(name: &str, arity: i32, count: usize) -> Ruby<()> {
    let minimum = (arity + 1).unsigned_abs() as usize;
    if arity >= 0 && count != arity as usize {
        return Err(Raise::Other(fail(format!("{name}(): Wrong number of arguments given ({count} for {arity})"))));
    }
    if arity < 0 && count < minimum {
        return Err(Raise::Other(fail(format!(
            "{name}(): Wrong number of arguments given ({count} for minimum {minimum})"
        ))));
    }
    Ok(())
}

/// Makes a function callable if a module has it (Puppet's loaders find it on first use);
/// whether it is.
fn load_function(ev: &mut Evaluator, name: &str) -> bool {
    ev.function_exists(name) || ev.autoload(crate::eval::modules::Entity::Function, name).is_ok_and(|found| found)
}

/// The Puppet scope's `to_s` as Ruby's messages show it. The evaluator does not say which
/// class or defined type a scope belongs to: always the top scope's.
const SCOPE: &str = "Scope(Class[main])";

/// stdlib's 4.x `deprecation(key, message, use_strict_setting)` (the catalog family's).
fn deprecation(ev: &mut Evaluator, key: &str, message: &str, use_strict: bool) -> Eval<()> {
    super::stdlib_catalog::deprecate(ev, key, message, use_strict).map(drop)
}

// ---- validate_legacy and the shims --------------------------------------------------------

/// `validate_legacy(type, function_name, value, args...)`: whether `value` is of the type
/// (a type, or a type's name as a string). stdlib 8.5.0 also calls the previous validation
/// function (3.x) on the value and the args: a value of the type that the function rejects
/// is accepted with a notice, a value not of the type that it accepts gives a deprecation
/// warning, and one both reject is an error. stdlib 9.7.0 logs its own deprecation and
/// fails on a value not of the type.
fn validate_legacy(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    // The Ruby dispatches with the scope in front (`call(scope, *args)`), so Puppet's
    // messages count it.
    let mut args = vec![Value::Undef];
    args.extend(call.args.iter().cloned());
    select_dispatch(
        "validate_legacy",
        &[
            "Any $scope, Type $target_type, String $function_name, Any $value, Any *$args",
            "Any $scope, String $type_string, String $function_name, Any $value, Any *$args",
        ],
        &args,
        None,
    )?;
    let target = match &call.args[0] {
        Value::Type(t) => (**t).clone(),
        other => type_from_string(&to_s(other))?,
    };
    let function_name = to_s(&call.args[1]);
    let value = &call.args[2];
    let shown = value_to_s(&Value::ty(target.clone()));
    if stdlib_9(ev) {
        deprecation(
            ev,
            "validate_legacy",
            "This method is deprecated, please use Puppet data types to validate parameters",
            true,
        )?;
        if is_instance(&target, value) {
            return Ok(Value::Undef);
        }
        let subject = format!("validate_legacy({shown}, ...)");
        return Err(fail(describe_mismatch(&subject, &target, &infer_set(value))));
    }
    let previous = |ev: &mut Evaluator| match function_3x(ev, &function_name, &call.args[2..], call.at) {
        Ok(_) => Ok(true),
        Err(Raise::Parse(_)) => Ok(false),
        Err(Raise::Other(flow)) => Err(flow),
    };
    if is_instance(&target, value) {
        if !previous(ev)? {
            ev.log(Level::Notice, format!("Accepting previously invalid value for target type '{shown}'"));
        }
        return Ok(Value::Undef);
    }
    let message = describe_mismatch(&format!("validate_legacy({function_name})"), &target, &infer_set(value));
    if previous(ev)? {
        deprecation(ev, "validate_legacy", &message, true)?;
        Ok(Value::Undef)
    } else {
        Err(fail(message))
    }
}

/// `TypeParser.new.parse(type_string, scope)`: Puppet's own types only; a name it would
/// load (a type alias, a resource type) makes it call the scope's private `load` method.
fn type_from_string(source: &str) -> Eval<Type> {
    let reader = puppet_types::literal::Reader::default();
    match puppet_types::assert_type::parse_type_string_with(&reader, source) {
        Ok(t) if !names_other_type(&t) => Ok(t),
        Ok(_) => Err(fail(format!("private method `load' called for {SCOPE}:Puppet::Parser::Scope"))),
        Err(e) if e.message.starts_with("Resource type not found") => {
            Err(fail(format!("private method `load' called for {SCOPE}:Puppet::Parser::Scope")))
        }
        Err(e) => Err(e.into()),
    }
}

/// Whether a type read from a string refers to a type the parser would have to load.
fn names_other_type(t: &Type) -> bool {
    matches!(t, Type::Reference(_) | Type::Resource { .. })
}

/// An 8.5.0 shim of a 3.x function: the deprecation warning under the function's name,
/// then the function with the arguments as they are.
fn shim(ev: &mut Evaluator, call: Call, name: &str, message: &str) -> Eval<Value> {
    shim_keyed(ev, call, name, name, message)
}

/// [`shim`] warning under another key.
fn shim_keyed(ev: &mut Evaluator, call: Call, name: &str, key: &str, message: &str) -> Eval<Value> {
    deprecation(ev, key, message, true)?;
    function_3x(ev, name, &call.args, call.at).map_err(Raise::into_flow)
}

/// A 9.7.0 shim of a namespaced function: its deprecation warning (whatever the `strict`
/// setting), then `stdlib::NAME` with the arguments.
fn namespaced_shim(ev: &mut Evaluator, call: Call, name: &str) -> Eval<Value> {
    let namespaced = format!("stdlib::{name}");
    let message = format!("This function is deprecated, please use {namespaced} instead.");
    deprecation(ev, name, &message, false)?;
    load_function(ev, &namespaced);
    ev.call_function_inner(&namespaced, call.args, None, call.at)
}

/// `type_of(value)`: the value's detailed type (`TypeCalculator.infer_set`); in 9.7.0 a
/// deprecated shim of `stdlib::type_of`.
fn type_of(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    if stdlib_9(ev) {
        return namespaced_shim(ev, call, "type_of");
    }
    select_dispatch("type_of", &["Any $value"], &call.args, None)?;
    Ok(Value::ty(infer_set(&call.args[0])))
}

/// `is_a(value, type)`: whether the value is an instance of the type.
fn is_a(_: &mut Evaluator, call: Call) -> Eval<Value> {
    Ok(Value::Boolean(match &call.args[1] {
        Value::Type(t) => is_instance(t, &call.args[0]),
        _ => false,
    }))
}

/// `stdlib::has_function(name)`: whether a function of that name can be called: one Puppet's
/// loaders find (built in, in Puppet or Ruby, of any module), or a 3.x function.
fn has_function(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let name = to_s(&call.args[0]);
    // a module's Ruby function Poppet has no port of still exists
    let loadable =
        ev.function_exists(&name) || !matches!(ev.autoload(crate::eval::modules::Entity::Function, &name), Ok(false));
    Ok(Value::Boolean(loadable || has_3x_function(ev, &name)))
}

/// The type of a `stdlib::validate_*` function's values, from stdlib's type aliases (as its
/// dispatch names them): each value must be one, with Puppet's message.
fn validate_with_types(ev: &mut Evaluator, call: &Call, name: &str, aliases: &[&str]) -> Eval<Value> {
    let mut types = Vec::new();
    for alias in aliases {
        types.push(ev.type_reference(alias, call.at)?);
    }
    let param = match types.len() {
        1 => types.remove(0),
        _ => Type::Variant(types.into()),
    };
    let signature = Signature::new(&["values"], Type::Tuple { types: Rc::from(vec![param]), size: Some(Size::ANY) });
    select_signature(name, std::slice::from_ref(&signature), &call.args, None)?;
    if call.args.is_empty() {
        return Err(fail(format!("{name}(): Wrong number of arguments need at least one")));
    }
    Ok(Value::Undef)
}

/// `stdlib::validate_domain_name(values...)`: each value is a `Stdlib::Fqdn` or a
/// `Stdlib::Dns::Zone`; at least one.
fn stdlib_validate_domain_name(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    validate_with_types(ev, &call, "stdlib::validate_domain_name", &["Stdlib::Fqdn", "Stdlib::Dns::Zone"])
}

/// `stdlib::validate_email_address(values...)`: each value is a `Stdlib::Email`; at least
/// one.
fn stdlib_validate_email_address(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    validate_with_types(ev, &call, "stdlib::validate_email_address", &["Stdlib::Email"])
}

// ---- the 3.x validate functions -------------------------------------------------------

/// The "wrong number of arguments (N; must be > 0)" check of the `validate_*` functions
/// that take any number of values.
fn some_values(name: &str, args: &[Value]) -> Ruby<()> {
    if args.is_empty() {
        return parse_error(format!("{name}(): wrong number of arguments (0; must be > 0)"));
    }
    Ok(())
}

/// `validate_absolute_path(paths...)`: each value, or each element of an array value, is
/// an absolute path (`is_absolute_path`).
fn validate_absolute_path(ev: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    some_values("validate_absolute_path", args)?;
    for arg in args {
        let candidates = match arg {
            Value::Array(items) => items.to_vec(),
            other => vec![other.clone()],
        };
        for path in candidates {
            if !absolute_path(ev, &path) {
                return parse_error(format!("{} is not an absolute path.", inspect(&path)));
            }
        }
    }
    Ok(Value::Undef)
}

/// Checks each value with `ok`, failing with `"VALUE is not WHAT.  It looks to be a
/// CLASS"` (the message of `validate_array`, `validate_bool`, `validate_hash`,
/// `validate_string`).
fn each_value(name: &str, args: &[Value], what: &str, ok: fn(&Value) -> bool) -> Ruby<Value> {
    some_values(name, args)?;
    match args.iter().find(|a| !ok(a)) {
        Some(bad) => parse_error(format!("{} is not {what}.  It looks to be a {}", inspect(bad), class(bad))),
        None => Ok(Value::Undef),
    }
}

/// `validate_array(values...)`: each value is an array.
fn validate_array(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    each_value("validate_array", args, "an Array", |v| matches!(v, Value::Array(_)))
}

/// `validate_bool(values...)`: each value is a boolean.
fn validate_bool(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    each_value("validate_bool", args, "a boolean", |v| matches!(v, Value::Boolean(_)))
}

/// `validate_hash(values...)`: each value is a hash.
fn validate_hash(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    each_value("validate_hash", args, "a Hash", |v| matches!(v, Value::Hash(_)))
}

/// `validate_string(values...)`: each value is a string or undef (`nil`).
fn validate_string(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    each_value("validate_string", args, "a string", |v| matches!(v, Value::String(_) | Value::Undef))
}

/// `validate_re(string, regexps, message?)`: the string matches one of the regular
/// expressions (strings compiled as Ruby does, or regexps); else the message, or
/// `validate_re(): "S" does not match R`.
fn validate_re(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    if !(2..=3).contains(&args.len()) {
        return parse_error(format!("validate_re(): wrong number of arguments ({}; must be 2 or 3)", args.len()));
    }
    let Value::String(input) = &args[0] else {
        return parse_error(format!("validate_re(): input needs to be a String, not a {}", class(&args[0])));
    };
    let message = match args.get(2) {
        Some(m) if !m.is_undef() && !matches!(m, Value::Boolean(false)) => to_s(m),
        _ => format!("validate_re(): {} does not match {}", inspect(&args[0]), inspect(&args[1])),
    };
    for re in flatten(&args[1]) {
        if ruby_regexp(&re)?.is_match(input) {
            return Ok(Value::Undef);
        }
    }
    parse_error(message)
}

/// Ruby's `[value].flatten`.
fn flatten(v: &Value) -> Vec<Value> {
    match v {
        Value::Array(items) => items.iter().flat_map(flatten).collect(),
        other => vec![other.clone()],
    }
}

/// `Regexp.compile(value)`: a regexp as it is, a string compiled with Ruby's syntax (its
/// `RegexpError`), anything else Ruby's `TypeError`.
fn ruby_regexp(v: &Value) -> Ruby<Regexp> {
    match v {
        Value::Regexp(r) => Ok((**r).clone()),
        Value::String(s) => {
            poppet_ruby::regexp::check(s).map_err(|e| Raise::Other(fail(e)))?;
            Ok(Regexp::new(s.to_string()))
        }
        other => Err(Raise::Other(fail(format!("no implicit conversion of {} into String", implicit_class(other))))),
    }
}

/// The class Ruby's `TypeError` names for a value that is no string (`nil`, `true`, ...).
fn implicit_class(v: &Value) -> String {
    match v {
        Value::Undef => "nil".into(),
        Value::Boolean(b) => b.to_string(),
        other => class(other),
    }
}

/// The bounds of `validate_integer` and `validate_numeric`: a kind of number read with
/// Ruby's `Integer()` or `Float()`.
struct Numbers {
    name: &'static str,
    /// `an Integer`, `a Numeric`.
    what: &'static str,
    read: fn(&str) -> Option<Number>,
}

/// A number read by `Integer()` or `Float()`.
#[derive(Clone, PartialEq, PartialOrd)]
enum Number {
    Int(BigInt),
    Float(f64),
}

impl Number {
    /// Ruby's `to_s` (`inspect` is the same).
    fn to_s(&self) -> String {
        match self {
            Number::Int(i) => i.to_string(),
            Number::Float(f) => float_to_s(*f),
        }
    }
}

const INTEGERS: Numbers = Numbers {
    name: "validate_integer",
    what: "an Integer",
    read: |s| poppet_ruby::kernel::integer(s, None).map(Number::Int),
};

const NUMERICS: Numbers =
    Numbers { name: "validate_numeric", what: "a Numeric", read: |s| poppet_ruby::kernel::float(s).map(Number::Float) };

/// `validate_integer(value, max?, min?)`: the value (or each element of an array value) is
/// an integer, or a string `Integer()` reads, within the bounds.
fn validate_integer(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    validate_number(&INTEGERS, args)
}

/// `validate_numeric(value, max?, min?)`: the value (or each element of an array value) is
/// a number, or a string `Float()` reads, within the bounds.
fn validate_numeric(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    validate_number(&NUMERICS, args)
}

/// The Ruby shared by `validate_integer` and `validate_numeric` (each value read from its
/// `to_s`).
fn validate_number(kind: &Numbers, args: &[Value]) -> Ruby<Value> {
    let name = kind.name;
    if args.is_empty() || args.len() > 3 {
        return parse_error(format!("{name}(): Wrong number of arguments; must be 1, 2 or 3, got {}", args.len()));
    }
    let max = match args.get(1) {
        None => None,
        Some(m) if args.len() > 2 && to_s(m).is_empty() => None,
        Some(m) => match (kind.read)(&to_s(m)) {
            Some(n) => Some(n),
            None => {
                return parse_error(format!(
                    "{name}(): Expected second argument to be unset or {}, got {}:String",
                    kind.what,
                    to_s(m)
                ))
            }
        },
    };
    let min = match args.get(2) {
        None => None,
        Some(m) => match (kind.read)(&to_s(m)) {
            Some(n) => Some(n),
            None => {
                return parse_error(format!(
                    "{name}(): Expected third argument to be unset or {}, got {}:{}",
                    kind.what,
                    to_s(m),
                    class(m)
                ))
            }
        },
    };
    if let (Some(lo), Some(hi)) = (&min, &max) {
        if lo > hi {
            return parse_error(format!(
                "{name}(): Expected second argument to be larger than third argument, got {} < {}",
                hi.to_s(),
                lo.to_s()
            ));
        }
    }
    // the value's inspect in the messages: the number read, or the array given
    let check = |n: &Number, shown: &str| -> Ruby<()> {
        if let Some(hi) = &max {
            if n > hi {
                return parse_error(format!(
                    "{name}(): Expected {shown} to be smaller or equal to {}, got {shown}.",
                    hi.to_s()
                ));
            }
        }
        if let Some(lo) = &min {
            if n < lo {
                return parse_error(format!(
                    "{name}(): Expected {shown} to be greater or equal to {}, got {shown}.",
                    lo.to_s()
                ));
            }
        }
        Ok(())
    };
    match &args[0] {
        Value::Array(items) => {
            for (pos, item) in items.iter().enumerate() {
                let n = match item {
                    Value::Hash(_) => None,
                    other => (kind.read)(&to_s(other)),
                };
                let Some(n) = n else {
                    return parse_error(format!(
                        "{name}(): Expected element at array position {pos} to be {}, got {}",
                        kind.what,
                        class(item)
                    ));
                };
                check(&n, &inspect(&args[0]))?;
            }
        }
        // (the Ruby of validate_numeric names validate_integer here)
        Value::Hash(_) => {
            return parse_error(format!(
                "validate_integer(): Expected first argument to be {} or Array, got Hash",
                kind.what
            ))
        }
        other => match (kind.read)(&to_s(other)) {
            Some(n) => check(&n, &n.to_s())?,
            None => {
                return parse_error(format!(
                    "{name}(): Expected first argument to be {} or Array, got {}",
                    kind.what,
                    class(other)
                ))
            }
        },
    }
    Ok(Value::Undef)
}

/// Ruby's `Integer(value)` of a value that is not first made a string: an integer as it
/// is, a float truncated, a string read; `None` for what Ruby refuses. A float beyond
/// integers (NaN, infinite) is Ruby's `FloatDomainError`.
fn kernel_integer(v: &Value) -> Ruby<Option<BigInt>> {
    Ok(match v {
        Value::Integer(i) => Some(BigInt::from(*i)),
        Value::BigInt(b) => Some((**b).clone()),
        Value::Float(f) if !f.is_finite() => return Err(Raise::Other(fail(float_to_s(*f)))),
        Value::Float(f) => num_traits::FromPrimitive::from_f64(f.trunc()),
        Value::String(s) => poppet_ruby::kernel::integer(s, None),
        _ => None,
    })
}

/// `validate_slength(strings, max, min?)`: the string (or each string of an array) is
/// between `min` (default 0) and `max` characters long.
fn validate_slength(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    if !(2..=3).contains(&args.len()) {
        return parse_error(format!("validate_slength(): Wrong number of arguments ({}; must be 2 or 3)", args.len()));
    }
    let max = match kernel_integer(&args[1])? {
        Some(n) if n > BigInt::from(0) => n,
        read => {
            let shown =
                read.map_or_else(|| format!("{}:{}", to_s(&args[1]), class(&args[1])), |n| format!("{n}:Integer"));
            return parse_error(format!(
                "validate_slength(): Expected second argument to be a positive Numeric, got {shown}"
            ));
        }
    };
    let min = match args.get(2) {
        None | Some(Value::Undef | Value::Boolean(false)) => BigInt::from(0),
        Some(m) => match kernel_integer(m)? {
            Some(n) if n >= BigInt::from(0) => n,
            read => {
                let shown = read.map_or_else(|| format!("{}:{}", to_s(m), class(m)), |n| format!("{n}:Integer"));
                return parse_error(format!(
                    "validate_slength(): Expected third argument to be unset or a positive Numeric, got {shown}"
                ));
            }
        },
    };
    if max < min {
        return parse_error(
            "validate_slength(): Expected second argument to be equal to or larger than third argument",
        );
    }
    let check = |s: &str| -> Ruby<()> {
        let length = BigInt::from(s.chars().count());
        if length > max || length < min {
            let input = &args[0];
            let input_length = match input {
                Value::String(s) => s.chars().count(),
                Value::Array(items) => items.len(),
                _ => 0,
            };
            return parse_error(format!(
                "validate_slength(): Expected length of {} to be between {min} and {max}, was {input_length}",
                inspect(input)
            ));
        }
        Ok(())
    };
    match &args[0] {
        Value::String(s) => check(s)?,
        Value::Array(items) => {
            for (pos, item) in items.iter().enumerate() {
                let Value::String(s) = item else {
                    return parse_error(format!(
                        "validate_slength(): Expected element at array position {pos} to be a String, got {}",
                        class(item)
                    ));
                };
                check(s)?;
            }
        }
        other => {
            return parse_error(format!(
                "validate_slength(): Expected first argument to be a String or Array, got {}",
                class(other)
            ))
        }
    }
    Ok(Value::Undef)
}

/// An IP address family `IPAddr.new` gives a string.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    V4,
    V6,
}

/// The `validate_ip*_address` functions: each value is a string `IPAddr.new` reads, of one
/// of the families; else `"V" is not a valid WHAT address.`.
fn validate_addresses(name: &str, args: &[Value], families: &[Family], what: &str) -> Ruby<Value> {
    some_values(name, args)?;
    for arg in args {
        let Value::String(s) = arg else { return parse_error(format!("{} is not a string.", inspect(arg))) };
        if !ipaddr_family(s).is_some_and(|f| families.contains(&f)) {
            return parse_error(format!("{} is not a valid {what} address.", inspect(arg)));
        }
    }
    Ok(Value::Undef)
}

/// `validate_ip_address(values...)`: each value is an IPv4 or IPv6 address.
fn validate_ip_address(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    validate_addresses("validate_ip_address", args, &[Family::V4, Family::V6], "IP")
}

/// `validate_ipv4_address(values...)`: each value is an IPv4 address.
fn validate_ipv4_address(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    validate_addresses("validate_ipv4_address", args, &[Family::V4], "IPv4")
}

/// `validate_ipv6_address(values...)`: each value is an IPv6 address.
fn validate_ipv6_address(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    validate_addresses("validate_ipv6_address", args, &[Family::V6], "IPv6")
}

/// `validate_domain_name(values...)`: each value is a string `is_domain_name` accepts
/// (stdlib 8.5.0's 3.x function).
fn validate_domain_name(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    some_values("validate_domain_name", args)?;
    for arg in args {
        let Value::String(s) = arg else { return parse_error(format!("{} is not a string.", inspect(arg))) };
        if !domain_name(s) {
            return parse_error(format!("{} is not a syntactically correct domain name", inspect(arg)));
        }
    }
    Ok(Value::Undef)
}

/// `validate_email_address(values...)`: each value is a string `is_email_address` accepts
/// (stdlib 8.5.0's 3.x function).
fn validate_email_address(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    some_values("validate_email_address", args)?;
    for arg in args {
        if !matches!(arg, Value::String(_)) {
            return parse_error(format!("{} is not a string.", inspect(arg)));
        }
        if !email_address(arg) {
            return parse_error(format!("{} is not a valid email address", inspect(arg)));
        }
    }
    Ok(Value::Undef)
}

/// `validate_cmd(content, command, message?)`: writes the content to a temporary file and
/// runs the command on it (the file replaces each `%` where a `%` stands alone as a word,
/// else it is added at the end); a command that fails is a `ParseError` of the message (by
/// default `validate_cmd(): failed to validate content with command "CMD"`) and what went
/// wrong. The command runs only where running commands is allowed (as `generate()`).
fn validate_cmd(ev: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    if !(2..=3).contains(&args.len()) {
        return parse_error(format!("validate_cmd(): wrong number of arguments ({}; must be 2 or 3)", args.len()));
    }
    let message = || match args.get(2) {
        Some(message) => to_s(message),
        None => format!("validate_cmd(): failed to validate content with command {}", inspect(&args[1])),
    };
    // the Ruby matches a regexp on the command, inside its `rescue StandardError`
    let Value::String(script) = &args[1] else {
        return parse_error(format!(
            "{}\nTypeError no implicit conversion of {} into String",
            message(),
            crate::functions::strings::implicit_name(&args[1])
        ));
    };
    if !ev.options.allow_generate {
        return Err(Raise::Other(fail(format!(
            "validate_cmd() would run {}: running commands is off (allow it with poppet --allow-generate)",
            inspect(&args[1])
        ))));
    }
    match run_on_tempfile("validate_cmd", &to_s(&args[0]), script) {
        Ok(()) => Ok(Value::Undef),
        Err(failure) => parse_error(format!("{}\n{failure}", message())),
    }
}

/// Writes `content` to a new temporary file named as Ruby's `Tempfile.new(prefix)` names
/// it, runs `script` on it (at a lone `%`, else at the end) as Puppet's
/// `Execution.execute(string)` does (Ruby's `exec` of a string: through `/bin/sh -c` when it
/// has shell characters, else its words; output and errors together, in the C locale), and
/// removes the file: `Err` with Puppet's `Execution of 'CMD' returned N: OUTPUT` where it fails.
fn run_on_tempfile(prefix: &str, content: &str, script: &str) -> Result<(), String> {
    use std::io::Write;
    let dir = std::env::temp_dir();
    let date = chrono_free_date();
    let pid = std::process::id();
    let mut seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let (path, mut file) = (0..100)
        .find_map(|_| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let suffix: String = (0..6).map(|i| char::from(b'a' + ((seed >> (i * 5 + 20)) % 26) as u8)).collect();
            let path = dir.join(format!("{prefix}{date}-{pid}-{suffix}"));
            std::fs::OpenOptions::new().write(true).create_new(true).open(&path).ok().map(|f| (path, f))
        })
        .ok_or_else(|| format!("Errno::EEXIST cannot create a temporary file in {}", dir.display()))?;
    let written = file.write_all(content.as_bytes()).map_err(|e| format!("IOError {e}"));
    drop(file);
    let path_text = path.display().to_string();
    let command = if lone_percent(script) { script.replace('%', &path_text) } else { format!("{script} {path_text}") };
    let result = written.and_then(|()| execute(&command));
    let _ = std::fs::remove_file(&path);
    result
}

/// Whether a `%` stands alone as a word of a command (Ruby's `%r{\s%(\s|$)}`).
fn lone_percent(script: &str) -> bool {
    let chars: Vec<char> = script.chars().collect();
    chars
        .windows(2)
        .enumerate()
        .any(|(i, w)| w[0].is_whitespace() && w[1] == '%' && chars.get(i + 2).is_none_or(|c| c.is_whitespace()))
}

/// Today's date as `YYYYMMDD` (UTC), as in Ruby's temporary file names.
fn chrono_free_date() -> String {
    let days = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400);
    // civil date from days since 1970-01-01 (Howard Hinnant's algorithm)
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}{month:02}{day:02}")
}

/// Runs a command line as Puppet's `Execution.execute(string)`: `Err` with its message where
/// the command fails or cannot start.
fn execute(command: &str) -> Result<(), String> {
    const SHELL: &str = "*?{}[]<>()~&|\\$;'`\"\n#=";
    let mut process = if command.chars().any(|c| SHELL.contains(c)) {
        let mut sh = std::process::Command::new("/bin/sh");
        sh.arg("-c").arg(command);
        sh
    } else {
        let mut words = command.split_whitespace();
        let mut direct = std::process::Command::new(words.next().unwrap_or_default());
        direct.args(words);
        direct
    };
    process.env("LANG", "C").env("LC_ALL", "C");
    let (code, output) = match crate::functions::system::run_combined(process) {
        Ok((status, _)) if status.success() => return Ok(()),
        Ok((status, output)) => (status.code().unwrap_or(1), String::from_utf8_lossy(&output).into_owned()),
        // Puppet's child process cannot start the command: it exits with 1, having written nothing
        Err(_) => (1, String::new()),
    };
    Err(format!("Execution of '{command}' returned {code}: {}", output.trim()))
}

/// `validate_augeas(content, lens, tests?, message?)`: would parse the content with an
/// Augeas lens; Poppet has no Augeas, so after the argument count and ruby-augeas's first
/// looks at the lens (`No lens specified` for false, then `lens.include?('.')`: a
/// `NoMethodError` for a lens that is no text, array or hash) it refuses.
fn validate_augeas(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    if !(2..=4).contains(&args.len()) {
        return parse_error(format!(
            "validate_augeas(): wrong number of arguments ({}; must be 2, 3, or 4)",
            args.len()
        ));
    }
    let lens = &args[1];
    if matches!(lens, Value::Boolean(false) | Value::Undef) {
        return Err(Raise::Other(fail("No lens specified")));
    }
    if !matches!(lens, Value::String(_) | Value::Array(_) | Value::Hash(_)) {
        // Ruby 3.1's NoMethodError, with the line of ruby-augeas its error_highlight shows
        let suggestions = poppet_ruby::did_you_mean::suggestions(&puppet_types::params::ruby_class(lens), "include?");
        return Err(Raise::Other(fail(format!(
            "undefined method `include?' for {}{suggestions}\n\n        lens = \"#{{lens}}.lns\" unless lens.include? '.'\n{}^^^^^^^^^",
            puppet_types::params::ruby_receiver(lens),
            " ".repeat(40)
        ))));
    }
    Err(Raise::Other(fail(format!(
        "validate_augeas() would parse the content with the Augeas lens {}: Poppet has no Augeas",
        inspect(lens)
    ))))
}

/// `validate_x509_rsa_key_pair(certificate, key)`: would check with OpenSSL that the key
/// signed the certificate; after the argument checks (and OpenSSL's error for a text with
/// no certificate block) Poppet refuses (it has no OpenSSL).
fn validate_x509_rsa_key_pair(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    if args.len() != 2 {
        return parse_error(format!(
            "validate_x509_rsa_key_pair(): wrong number of arguments ({}; must be 2)",
            args.len()
        ));
    }
    if let Some(bad) = args.iter().find(|a| !matches!(a, Value::String(_))) {
        return parse_error(format!("{} is not a string.", inspect(bad)));
    }
    // OpenSSL's PEM reader finds no certificate block: its error, without OpenSSL
    let pem_names = ["CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"];
    let has_block = to_s(&args[0])
        .lines()
        .any(|line| pem_names.iter().any(|name| line.starts_with(&format!("-----BEGIN {name}-----"))));
    if !has_block {
        return parse_error("Not a valid x509 certificate: PEM_read_bio_X509: no start line");
    }
    Err(Raise::Other(fail(
        "validate_x509_rsa_key_pair() would check the certificate and key with OpenSSL: Poppet has no OpenSSL",
    )))
}

// ---- the 3.x is_ functions ------------------------------------------------------------

/// The argument count check of most `is_*` functions: exactly one, else `NAME(): Wrong
/// number of arguments given N for 1` (`(N for 1)` where `parens`).
fn one_argument<'a>(name: &str, args: &'a [Value], parens: bool) -> Ruby<&'a Value> {
    match args {
        [one] => Ok(one),
        _ if parens => parse_error(format!("{name}(): Wrong number of arguments given ({} for 1)", args.len())),
        _ => parse_error(format!("{name}(): Wrong number of arguments given {} for 1", args.len())),
    }
}

/// The first argument of `is_string` and `is_array` (which only refuse none).
fn first_argument<'a>(name: &str, args: &'a [Value]) -> Ruby<&'a Value> {
    args.first().map_or_else(|| parse_error(format!("{name}(): Wrong number of arguments given (0 for 1)")), Ok)
}

/// `Puppet::Util.absolute_path?(path)` for POSIX and Windows, as `is_absolute_path` asks
/// it: a string that starts a line with `/`, a drive, a UNC path or `\\?\`; for anything
/// else a warning from each check.
fn absolute_path(ev: &mut Evaluator, path: &Value) -> bool {
    let Value::String(s) = path else {
        let message = format!(
            "Cannot check if {} is an absolute path because it is a '{}' and not a String'",
            to_s(path),
            class(path)
        );
        ev.log(Level::Warning, message.clone());
        ev.log(Level::Warning, message);
        return false;
    };
    let slash = r"[\\/]";
    let label = r"[^\\/]+";
    let windows = format!(
        r"(?i)^(?:(?:[A-Z]:{slash})|(?:{slash}{slash}{label}{slash}{label})|(?:{slash}{slash}\?{slash}{label}))"
    );
    Regexp::new("^/").is_match(s) || Regexp::new(windows).is_match(s)
}

/// `is_absolute_path(path)`: whether the path is absolute (POSIX or Windows).
fn is_absolute_path(ev: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    let path = args.first().cloned().unwrap_or(Value::Undef);
    Ok(Value::Boolean(absolute_path(ev, &path)))
}

/// `is_array(value)`: whether the value is an array.
fn is_array(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    Ok(Value::Boolean(matches!(first_argument("is_array", args)?, Value::Array(_))))
}

/// `is_bool(value)`: whether the value is a boolean.
fn is_bool(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    Ok(Value::Boolean(matches!(one_argument("is_bool", args, true)?, Value::Boolean(_))))
}

/// `is_hash(value)`: whether the value is a hash.
fn is_hash(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    Ok(Value::Boolean(matches!(one_argument("is_hash", args, true)?, Value::Hash(_))))
}

/// `is_string(value)`: whether the value is a string (or undef) that does not read as a
/// number (`s == s.to_i.to_s`, `s == s.to_f.to_s`).
fn is_string(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    Ok(Value::Boolean(match first_argument("is_string", args)? {
        Value::String(s) => !integer_text(s) && !float_text(s),
        Value::Undef => true,
        _ => false,
    }))
}

/// Whether `s == s.to_i.to_s` (an integer written as Ruby writes it: `0`, `-12`).
fn integer_text(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !digits.starts_with('0'))
}

/// Whether `s == s.to_f.to_s` (a float written as Ruby writes it).
fn float_text(s: &str) -> bool {
    s == float_to_s(crate::functions::math::ruby_to_f(s))
}

/// Whether a value is a Ruby `Numeric`.
fn numeric(v: &Value) -> bool {
    matches!(v, Value::Integer(_) | Value::BigInt(_) | Value::Float(_))
}

/// Whether `regexp` (Ruby's syntax, lines anchored by `^` and `$`) matches a string value.
fn string_matches(v: &Value, regexp: &str) -> bool {
    matches!(v, Value::String(s) if Regexp::new(regexp).is_match(s))
}

/// `is_float(value)`: whether the value is a float, or a string written as Ruby writes a
/// float.
fn is_float(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    Ok(Value::Boolean(match one_argument("is_float", args, false)? {
        Value::Float(_) => true,
        Value::String(s) => float_text(s),
        _ => false,
    }))
}

/// `is_integer(value)`: whether the value is an integer, or a string with a line that is a
/// decimal integer.
fn is_integer(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    let value = one_argument("is_integer", args, false)?;
    Ok(Value::Boolean(
        matches!(value, Value::Integer(_) | Value::BigInt(_)) || string_matches(value, r"^-?(?:(?:[1-9]\d*)|0)$"),
    ))
}

/// `is_numeric(value)`: whether the value is a number, or a string with a line that is a
/// decimal number (a fraction and an exponent allowed).
fn is_numeric(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    let value = one_argument("is_numeric", args, false)?;
    Ok(Value::Boolean(numeric(value) || string_matches(value, r"^-?(?:(?:[1-9]\d*)|0)(?:\.\d+)?(?:[eE]-?\d+)?$")))
}

/// `IPAddr.new(s)`'s family, `None` where it raises (an `ArgumentError`): an IPv4 or IPv6
/// address, in brackets or with a zone for IPv6, with a prefix length or a mask.
fn ipaddr_family(s: &str) -> Option<Family> {
    let (prefix, length) = match s.split_once('/') {
        Some((p, l)) => (p, Some(l)),
        None => (s, None),
    };
    let mut v6_only = false;
    let mut prefix = prefix;
    if let Some(inner) = prefix.strip_prefix('[').and_then(|p| p.strip_suffix(']')).filter(|p| !p.contains('\n')) {
        prefix = inner;
        v6_only = true;
    }
    if let Some(at) = prefix.rfind('%') {
        let zone = &prefix[at + 1..];
        if !zone.is_empty()
            && zone.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !prefix[..at].contains('\n')
        {
            prefix = &prefix[..at];
            v6_only = true;
        }
    }
    let family = match (v6_only, ipv4(prefix)) {
        (_, Err(())) => return None,
        (false, Ok(Some(_))) => Family::V4,
        _ => {
            ipv6(prefix)?;
            Family::V6
        }
    };
    if let Some(length) = length {
        mask_ok(family, length)?;
    }
    Some(family)
}

/// `IPAddr#in_addr`: an IPv4 address's value, `Ok(None)` for text of another form,
/// `Err` for a number beyond 255 or with a leading zero.
fn ipv4(s: &str) -> Result<Option<u32>, ()> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 || !parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())) {
        return Ok(None);
    }
    octets(&parts).map(Some)
}

/// The value of four decimal octets, `Err` for one beyond 255 or with a leading zero.
fn octets(parts: &[&str]) -> Result<u32, ()> {
    let mut value = 0u32;
    for p in parts {
        let n: u32 = if p.len() > 3 { 256 } else { p.parse().map_err(|_| ())? };
        if n > 255 || (p.len() > 1 && p.starts_with('0')) {
            return Err(());
        }
        value = value << 8 | n;
    }
    Ok(value)
}

/// Whether `IPAddr#in6_addr` reads an IPv6 address (full, compressed with `::`, an IPv4
/// address at the end).
fn ipv6(s: &str) -> Option<()> {
    let hextet = |h: &str| (1..=4).contains(&h.len()) && h.bytes().all(|b| b.is_ascii_hexdigit());
    let dotted = |h: &str| {
        let parts: Vec<&str> = h.split('.').collect();
        parts.len() == 4 && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    let groups_ok = |text: &str, last_may_be_v4: bool| -> Option<usize> {
        if text.is_empty() {
            return Some(0);
        }
        let groups: Vec<&str> = text.split(':').collect();
        for (i, g) in groups.iter().enumerate() {
            let last = i + 1 == groups.len();
            if !(hextet(g) || (last && last_may_be_v4 && dotted(g))) {
                return None;
            }
        }
        Some(groups.len())
    };
    match s.split_once("::") {
        None => {
            let groups: Vec<&str> = s.split(':').collect();
            match groups.len() {
                8 if groups.iter().all(|g| hextet(g)) => Some(()),
                7 if groups[..6].iter().all(|g| hextet(g)) && dotted(groups[6]) => {
                    octets(&groups[6].split('.').collect::<Vec<_>>()).ok().map(|_| ())
                }
                _ => None,
            }
        }
        Some((left, right)) => {
            groups_ok(left, false)?;
            groups_ok(right, true)?;
            let v4 = right.rsplit(':').next().filter(|g| dotted(g));
            let colons = s.matches(':').count();
            if let Some(v4) = v4 {
                if colons > 6 {
                    return None;
                }
                octets(&v4.split('.').collect::<Vec<_>>()).ok()?;
            } else if colons > if left.is_empty() || right.is_empty() { 8 } else { 7 } {
                return None;
            }
            Some(())
        }
    }
}

/// `IPAddr#mask!`: a prefix length within the family's bits, or a mask address of the same
/// family whose bits are contiguous.
fn mask_ok(family: Family, length: &str) -> Option<()> {
    let bits = if family == Family::V4 { 32 } else { 128 };
    if !length.is_empty() && length.bytes().all(|b| b.is_ascii_digit()) {
        if length.len() > 1 && length.starts_with('0') {
            return None;
        }
        let n: u32 = length.parse().unwrap_or(u32::MAX);
        return (n <= bits).then_some(());
    }
    match ipaddr_family(length)? {
        f if f != family => None,
        Family::V4 => {
            let mask = ipv4(length).ok()??;
            let inverted = !mask;
            (inverted & inverted.wrapping_add(1) == 0).then_some(())
        }
        // an IPv6 mask's contiguity is left unchecked
        Family::V6 => Some(()),
    }
}

/// `is_ip_address(value)`: whether `IPAddr.new` reads the value.
fn is_ip_address(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    let value = one_argument("is_ip_address", args, false)?;
    Ok(Value::Boolean(matches!(value, Value::String(s) if ipaddr_family(s).is_some())))
}

/// `is_ipv4_address(value)`: whether `IPAddr.new` reads the value as an IPv4 address.
fn is_ipv4_address(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    let value = one_argument("is_ipv4_address", args, false)?;
    Ok(Value::Boolean(matches!(value, Value::String(s) if ipaddr_family(s) == Some(Family::V4))))
}

/// `is_ipv6_address(value)`: whether `IPAddr.new` reads the value as an IPv6 address.
fn is_ipv6_address(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    let value = one_argument("is_ipv6_address", args, false)?;
    Ok(Value::Boolean(matches!(value, Value::String(s) if ipaddr_family(s) == Some(Family::V6))))
}

/// The Ruby of `is_domain_name` for a string: `.`, or labels of letters, digits and inner
/// dashes (1 to 63 characters, 255 in all, a final dot dropped) whose last is alphabetic
/// after a dot.
fn domain_name(s: &str) -> bool {
    if s == "." {
        return true;
    }
    let domain = s.strip_suffix('.').unwrap_or(s);
    if domain.is_empty() || domain.chars().count() > 255 {
        return false;
    }
    if domain.contains('.') && !Regexp::new(r"\.[A-Za-z]+$").is_match(domain) {
        return false;
    }
    // Ruby's split drops trailing empty fields
    let mut labels: Vec<&str> = domain.split('.').collect();
    while labels.last().is_some_and(|l| l.is_empty()) {
        labels.pop();
    }
    let label_re = Regexp::new(r"(?i)^[a-z\d-]+$");
    labels.iter().all(|label| {
        let length = label.chars().count();
        (1..=63).contains(&length) && !label.ends_with('-') && !label.starts_with('-') && label_re.is_match(label)
    })
}

/// `is_domain_name(value)`: whether the value is a syntactically correct domain name.
fn is_domain_name(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    let value = one_argument("is_domain_name", args, false)?;
    Ok(Value::Boolean(matches!(value, Value::String(s) if domain_name(s))))
}

/// The Ruby of `is_email_address`: `value =~ /\A([\w+\-].?)+@[a-z\d\-]+(\.[a-z]+)*\.[a-z]+\z/`.
fn email_address(v: &Value) -> bool {
    string_matches(v, r"\A([\w+\-].?)+@[a-z\d\-]+(\.[a-z]+)*\.[a-z]+\z")
}

/// `is_email_address(value)`: whether the value is a valid email address.
fn is_email_address(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    Ok(Value::Boolean(email_address(one_argument("is_email_address", args, false)?)))
}

/// `is_mac_address(value)`: whether the value has a line of 6 (or 20, InfiniBand) groups
/// of one or two hex digits separated by colons; Ruby's `TypeError` for a value that is no
/// string (nor undef).
fn is_mac_address(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    let mac = match one_argument("is_mac_address", args, false)? {
        Value::Undef => return Ok(Value::Boolean(false)),
        Value::String(s) => s.clone(),
        other => {
            return Err(Raise::Other(fail(format!("no implicit conversion of {} into String", implicit_class(other)))))
        }
    };
    let ok = Regexp::new(r"(?i)^[a-f0-9]{1,2}(:[a-f0-9]{1,2}){5}$").is_match(&mac)
        || Regexp::new(r"(?i)^[a-f0-9]{1,2}(:[a-f0-9]{1,2}){19}$").is_match(&mac);
    Ok(Value::Boolean(ok))
}

/// `is_function_available(name)`: whether a 3.x function of that name exists (Puppet's own
/// or a module's).
fn is_function_available(ev: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    if args.len() != 1 {
        return parse_error(format!("is_function_available?(): Wrong number of arguments given {} for 1", args.len()));
    }
    Ok(Value::Boolean(matches!(&args[0], Value::String(s) if has_3x_function(ev, s))))
}

/// `type3x(value)`: the value's Ruby class in lower case (`string`, `integer`, `float`,
/// `boolean`, `array`, `hash`), a string that reads as a number being `integer` or `float`.
fn type3x(_: &mut Evaluator, args: &[Value]) -> Ruby<Value> {
    if args.len() != 1 {
        return parse_error(format!("type3x(): Wrong number of arguments given ({} for 1)", args.len()));
    }
    let name = match &args[0] {
        Value::Boolean(_) => "boolean",
        Value::Array(_) => "array",
        Value::Integer(_) | Value::BigInt(_) => "integer",
        Value::Float(_) => "float",
        Value::Hash(_) => "hash",
        Value::String(s) if integer_text(s) => "integer",
        Value::String(s) if float_text(s) => "float",
        Value::String(_) => "string",
        _ => return parse_error("type3x(): Unknown type"),
    };
    Ok(Value::from(name))
}
