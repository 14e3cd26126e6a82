//! puppetlabs-stdlib's functions about the catalog, the code calling them and files:
//! declaring resources (`ensure_resource`, `ensure_resources`, `ensure_packages`), reading
//! the catalog (`defined_with_params`, `getparam`, `stdlib::str2resource`), `assert_private`,
//! `deprecation`, modules and the host's files (`get_module_path`, `load_module_metadata`,
//! `loadjson`, `loadyaml`, `glob`) and `pry`.
//!
//! These functions call one another as their Ruby does (`ensure_packages` through
//! `ensure_resource`, which asks `defined_with_params` and declares with `create_resources`);
//! here through the shared helpers below, with the values the Ruby code would hand over.

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::{Rc, Weak};

use puppet_syntax::Span;
use puppet_types::display::capitalize_segments;
use puppet_types::value::Hash;
use puppet_types::{Type, Value};

use super::{select_dispatch, stdlib_9, v3, v3_statement, v4, Port};
use crate::error::{fail, Eval, Flow};
use crate::eval::{Evaluator, Strict};
use crate::functions::ruby::{self, no_method, to_s};
use crate::functions::Call;
use crate::scope::Scope;

pub static PORTS: &[Port] = &[
    v4("stdlib", "ensure_packages", &["Any *$args"], ensure_packages),
    v4("stdlib", "stdlib::ensure_packages", STDLIB_ENSURE_PACKAGES, stdlib_ensure_packages),
    v3_statement("stdlib", "ensure_resource", -1, ensure_resource),
    v3_statement("stdlib", "ensure_resources", -1, ensure_resources),
    v3("stdlib", "defined_with_params", -1, defined_with_params),
    v3("stdlib", "getparam", -1, getparam),
    v3_statement("stdlib", "assert_private", -1, assert_private),
    v4("stdlib", "deprecation", &["Any *$args"], deprecation),
    v4("stdlib", "stdlib::str2resource", &["String $res_string"], str2resource),
    v3("stdlib", "get_module_path", -1, get_module_path),
    v3("stdlib", "load_module_metadata", -1, load_module_metadata),
    v3("stdlib", "loadjson", -2, loadjson),
    v3("stdlib", "loadyaml", -2, loadyaml),
    v3("stdlib", "glob", -1, glob),
    v3_statement("stdlib", "pry", -1, pry),
];

/// stdlib 8.5.0's `ensure_packages` dispatch (9.7.0's takes anything and hands it on).
const ENSURE_PACKAGES_8: &[&str] =
    &["Variant[String[1], Array[String[1]], Hash[String[1], Any]] $packages, Hash $default_attributes?"];

/// stdlib 9.7.0's `stdlib::ensure_packages` dispatches: names, then a hash of names.
const STDLIB_ENSURE_PACKAGES: &[&str] = &[
    "Variant[String[1], Array[String[1]]] $packages, Hash $default_attributes?",
    "Hash[String[1], Any] $packages, Hash $default_attributes?",
];

/// stdlib 8.5.0's `deprecation` dispatch; 9.7.0's adds `use_strict_setting`.
const DEPRECATION_8: &[&str] = &["String $key, String $message"];
const DEPRECATION_9: &[&str] = &["String $key, String $message, Boolean $use_strict_setting?"];

/// Calls another of the module's functions as Ruby's `call_function` does, loading it first.
fn call_module_function(ev: &mut Evaluator, name: &str, args: Vec<Value>, at: Span) -> Eval<Value> {
    if !ev.function_exists(name) {
        ev.autoload(crate::eval::modules::Entity::Function, name)?;
    }
    ev.call_function_inner(name, args, None, at)
}

// --- references --------------------------------------------------------------------------

/// A resource reference as Puppet's `Puppet::Resource` has it: the type as references print
/// it (`Package`, `Class`, `My::Thing`; empty where the type is not known) and the title.
struct Reference {
    type_name: String,
    title: String,
}

/// Ruby's `/^([^\[\]]+)\[(.+)\]$/m` (`Puppet::Resource.extract_type_and_title`): a type
/// without brackets, then the title between the first `[` and a `]` ending a line, from the
/// first line start where it matches.
fn split_reference(text: &str) -> Option<(&str, &str)> {
    let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1));
    for start in starts {
        let rest = &text[start..];
        let Some(open) = rest.find(['[', ']']) else { continue };
        if open == 0 || !rest[open..].starts_with('[') {
            continue;
        }
        let inner = &rest[open + 1..];
        // the greedy `.+` ends at the last `]` that ends a line, with a title before it
        let end = inner
            .rmatch_indices(']')
            .map(|(i, _)| i)
            .find(|&i| i > 0 && (i + 1 == inner.len() || inner[i + 1..].starts_with('\n')));
        if let Some(end) = end {
            return Some((&rest[..open], &inner[..end]));
        }
    }
    None
}

/// `Puppet::Resource.type_and_title(text, nil)`: the type capitalized (`Class` for a class,
/// whose title is capitalized too), or Puppet's error for a string that is no reference.
fn parse_reference(text: &str) -> Eval<Reference> {
    let Some((type_name, title)) = split_reference(text) else {
        return Err(fail(format!(
            "No title provided and {} is not a valid resource reference",
            poppet_ruby::string::inspect(text)
        )));
    };
    Ok(munged(type_name, title))
}

/// A type and title as `Puppet::Resource.munge_type_name` names them.
fn munged(type_name: &str, title: &str) -> Reference {
    let class = type_name.is_empty() || type_name.eq_ignore_ascii_case("component") || type_name == "class";
    let type_name = if class { "Class".to_owned() } else { capitalize_segments(type_name) };
    let title = if type_name == "Class" { capitalize_segments(title) } else { title.to_owned() };
    Reference { type_name, title }
}

/// Whether `lower` names a resource type Puppet finds (core, a module's Ruby type, a defined
/// type) or a class (`find_resource_type_or_class`).
fn known_type_or_class(ev: &mut Evaluator, lower: &str) -> Eval<bool> {
    if !lower.contains(':') && (crate::resource_types::get(lower).is_some() || ev.ruby_type_exists(lower)) {
        return Ok(true);
    }
    ev.load_definition(lower)?;
    Ok(ev.is_class_or_define(lower))
}

/// The resource a reference finds in the catalog (`Catalog#resource`): a reference of a type
/// Puppet does not know is a class's (`Puppet::Resource.new(nil, title)`).
fn find_resource(ev: &mut Evaluator, r: &Reference) -> Eval<Option<usize>> {
    let lower = r.type_name.to_lowercase();
    let type_name = if lower == "class" || known_type_or_class(ev, &lower)? { r.type_name.as_str() } else { "Class" };
    Ok(ev.compiler.catalog.position(type_name, &r.title))
}

/// A reference value as a 3.x function gets it (`Runtime3Converter`): `Package['x']` and
/// `Class['x']` as a `Puppet::Resource`, a type without title with an empty title; `None`
/// for any other value.
fn reference_of_type(ev: &mut Evaluator, t: &Type) -> Eval<Option<Reference>> {
    Ok(match t {
        Type::Class(Some(name)) => Some(munged("class", name.trim_start_matches("::"))),
        Type::Resource { type_name: Some(n), title } => {
            let lower = n.trim_start_matches("::").to_lowercase();
            let title = title.as_deref().unwrap_or_default();
            if lower == "class" {
                Some(munged("class", title.trim_start_matches("::")))
            } else if known_type_or_class(ev, &lower)? {
                Some(Reference { type_name: capitalize_segments(&lower), title: title.to_owned() })
            } else {
                Some(munged("", title))
            }
        }
        _ => None,
    })
}

/// Ruby's `TypeError` of `Hash#merge` given something else: `no implicit conversion of
/// String into Hash` (`nil`, `true`, `false` by name).
fn no_implicit_hash(v: &Value) -> Flow {
    let shown = match v {
        Value::Undef => "nil".to_owned(),
        Value::Boolean(b) => b.to_string(),
        other => ruby::class(other),
    };
    fail(format!("no implicit conversion of {shown} into Hash"))
}

/// Ruby's `a.merge(b)` of two hashes: `b`'s entries over `a`'s.
fn merge(a: &Value, b: &Value) -> Eval<Value> {
    let Value::Hash(base) = a else { return Err(no_method("merge", a)) };
    let Value::Hash(over) = b else { return Err(no_implicit_hash(b)) };
    let mut merged: Hash = (**base).clone();
    for (k, v) in over.iter() {
        merged.insert(k.clone(), v.clone());
    }
    Ok(Value::hash(merged))
}

// --- defined_with_params -----------------------------------------------------------------

/// `defined_with_params(reference, params)`: whether the resource (a reference string or
/// value; a type without title: any resource of the type) is in the catalog with each of
/// the parameters at the value given (an unset parameter matching undef), not counting the
/// resource whose code is calling.
fn defined_with_params(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let Some(reference) = call.args.first() else { return Err(fail("Must specify a reference")) };
    let params = call.args.get(1).cloned().unwrap_or(Value::Undef);
    Ok(Value::Boolean(is_defined_with_params(ev, reference, &params)?))
}

/// The answer of `defined_with_params` (see there), its parameters undef or `''` for none.
fn is_defined_with_params(ev: &mut Evaluator, reference: &Value, params: &Value) -> Eval<bool> {
    let params = match params {
        Value::Undef => Value::hash(Hash::default()),
        Value::String(s) if s.is_empty() => Value::hash(Hash::default()),
        other => other.clone(),
    };
    let reference = match reference {
        Value::String(s) => parse_reference(s)?,
        Value::Type(t) => match reference_of_type(ev, t)? {
            Some(r) => r,
            None => return Err(fail(format!("Reference is not understood: '{}'", ruby::class(reference)))),
        },
        other => return Err(fail(format!("Reference is not understood: '{}'", ruby::class(other)))),
    };
    let candidates: Vec<usize> = if reference.title.is_empty() {
        let catalog = &ev.compiler.catalog;
        (0..catalog.len()).filter(|&i| catalog.at(i).type_name.eq_ignore_ascii_case(&reference.type_name)).collect()
    } else {
        find_resource(ev, &reference)?.into_iter().collect()
    };
    let caller = ev.compiler.container.reference();
    for index in candidates {
        let resource = ev.compiler.catalog.at(index);
        // called from a defined type, it would find itself
        if resource.reference() == caller {
            continue;
        }
        let pairs = parameter_pairs(&params)?;
        let mut all = true;
        for (key, value) in &pairs {
            let Value::String(name) = key else { return Err(no_method("intern", key)) };
            let current = if &**name == "title" {
                Some(Value::String(resource.title.clone()))
            } else {
                resource.params.get(&**name).cloned()
            };
            let current_undef = current.as_ref().is_none_or(Value::is_undef);
            let matched = (current_undef && value.is_undef()) || current.is_some_and(|c| ruby::eq(&c, value));
            all &= matched;
        }
        if pairs.is_empty() || all {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The `|key, value|` pairs Ruby's `params.map` gives: a hash's entries, an array's elements
/// (an array element as its first two values, another element as a key without value).
fn parameter_pairs(params: &Value) -> Eval<Vec<(Value, Value)>> {
    match params {
        Value::Hash(h) => Ok(h.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
        Value::Array(items) => Ok(items
            .iter()
            .map(|item| match item {
                Value::Array(pair) => {
                    (pair.first().cloned().unwrap_or(Value::Undef), pair.get(1).cloned().unwrap_or(Value::Undef))
                }
                other => (other.clone(), Value::Undef),
            })
            .collect()),
        other => Err(no_method("map", other)),
    }
}

// --- ensure_resource, ensure_resources -----------------------------------------------------

/// `ensure_resource(type, title(s), params)`: declares each title (an array flattened) of
/// the type with the parameters, through `create_resources`, unless `defined_with_params`
/// finds it with them (otherwise a resource of that title is a duplicate declaration).
fn ensure_resource(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let Some(type_arg) = call.args.first() else { return Err(fail("Must specify a type")) };
    let Some(title) = call.args.get(1) else { return Err(fail("Must specify a title")) };
    let params = call.args.get(2).cloned().unwrap_or_else(|| Value::hash(Hash::default()));
    ensure_one(ev, type_arg, title, &params, call.at)?;
    Ok(Value::Undef)
}

/// The work of `ensure_resource` for its type, title(s) and parameters.
fn ensure_one(ev: &mut Evaluator, type_arg: &Value, title: &Value, params: &Value, at: Span) -> Eval<()> {
    for item in crate::catalog::flatten(title) {
        let reference = Value::from(format!("{}[{}]", to_s(type_arg), to_s(&item)).as_str());
        if is_defined_with_params(ev, &reference, params)? {
            continue;
        }
        let Value::String(type_name) = type_arg else { return Err(no_method("capitalize", type_arg)) };
        let Value::Hash(_) = params else { return Err(no_implicit_hash(params)) };
        let mut instances = Hash::default();
        // the item as it is: create_resources makes an integer title a string and its `name`
        instances.insert(item.clone(), params.clone());
        let type_name = Value::from(poppet_ruby::string::capitalize(type_name).as_str());
        ev.create_resources(&[type_name, Value::hash(instances)], at)?;
    }
    Ok(())
}

/// `ensure_resources(type, {title => params}, defaults)`: `ensure_resource` for each title,
/// its parameters merged over the defaults (an undef entry takes the defaults).
fn ensure_resources(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let Some(type_arg) = call.args.first() else { return Err(fail("Must specify a type")) };
    let Some(titles) = call.args.get(1) else { return Err(fail("Must specify a title")) };
    let defaults = call.args.get(2).cloned().unwrap_or_else(|| Value::hash(Hash::default()));
    ensure_each(ev, type_arg, titles, &defaults, call.at)?;
    Ok(Value::Undef)
}

/// The work of `ensure_resources` for its type, hash of titles and defaults.
fn ensure_each(ev: &mut Evaluator, type_arg: &Value, titles: &Value, defaults: &Value, at: Span) -> Eval<()> {
    let Value::Hash(titles) = titles else {
        return Err(fail("ensure_resources(): Requires second argument to be a Hash"));
    };
    for (title, params) in titles.iter() {
        let merged = if crate::eval::truthy(params) { merge(defaults, params)? } else { defaults.clone() };
        ensure_one(ev, type_arg, title, &merged, at)?;
    }
    Ok(())
}

// --- ensure_packages -----------------------------------------------------------------------

/// `ensure_packages(packages, default_attributes)`. stdlib 8.5.0: each package (a name, an
/// array of names, or a hash of names and their attributes) declared with `ensure =>
/// installed` (`present` given is `installed`) and the default attributes, through
/// `ensure_resource` (a hash through `ensure_resources`). stdlib 9.7.0: a deprecation warning
/// (once), then `stdlib::ensure_packages`.
fn ensure_packages(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    if stdlib_9(ev) {
        let message = "This function is deprecated, please use stdlib::ensure_packages instead.";
        deprecate(ev, "ensure_packages", message, false)?;
        return call_module_function(ev, "stdlib::ensure_packages", call.args, call.at);
    }
    select_dispatch("ensure_packages", ENSURE_PACKAGES_8, &call.args, None)?;
    let mut defaults = Hash::default();
    defaults.insert(Value::from("ensure"), Value::from("installed"));
    if let Some(Value::Hash(given)) = call.args.get(1) {
        for (k, v) in given.iter() {
            defaults.insert(k.clone(), v.clone());
        }
        if defaults.get(&Value::from("ensure")) == Some(&Value::from("present")) {
            defaults.insert(Value::from("ensure"), Value::from("installed"));
        }
    }
    let defaults = Value::hash(defaults);
    let package = Value::from("package");
    match call.arg(0) {
        packages @ Value::Hash(_) => ensure_each(ev, &package, &packages, &defaults, call.at)?,
        packages => ensure_one(ev, &package, &packages, &defaults, call.at)?,
    }
    Ok(Value::Undef)
}

/// stdlib 9.7.0's `stdlib::ensure_packages(packages, default_attributes)`: each package (a
/// name or names; a hash: each name with its attributes over the defaults) declared through
/// `ensure_resource` with the attributes and `ensure => installed`, or `present` where the
/// package is declared `present` already (`present` and `installed` given count as that).
fn stdlib_ensure_packages(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let defaults = call.args.get(1).cloned().unwrap_or_else(|| Value::hash(Hash::default()));
    match &call.arg(0) {
        Value::Hash(packages) => {
            for (name, attributes) in packages.iter() {
                let merged = merge(&defaults, attributes)?;
                ensure_packages_9(ev, name, &merged, call.at)?;
            }
        }
        names => ensure_packages_9(ev, names, &defaults, call.at)?,
    }
    Ok(Value::Undef)
}

/// 9.7.0's `ensure_packages` method: each of the names declared with the attributes.
fn ensure_packages_9(ev: &mut Evaluator, names: &Value, attributes: &Value, at: Span) -> Eval<()> {
    let ensure = Value::from("ensure");
    for name in crate::catalog::flatten(names) {
        let mut defaults = Hash::default();
        defaults.insert(ensure.clone(), Value::from("installed"));
        if let Value::Hash(given) = attributes {
            for (k, v) in given.iter() {
                defaults.insert(k.clone(), v.clone());
            }
        }
        let asked = defaults.get(&ensure).cloned();
        if asked.as_ref().is_some_and(|v| *v == Value::from("present") || *v == Value::from("installed")) {
            let reference = Value::from(format!("Package[{}]", to_s(&name)).as_str());
            let mut present = Hash::default();
            present.insert(ensure.clone(), Value::from("present"));
            let declared_present = is_defined_with_params(ev, &reference, &Value::hash(present))?;
            defaults.insert(ensure.clone(), Value::from(if declared_present { "present" } else { "installed" }));
        }
        ensure_one(ev, &Value::from("package"), &name, &Value::hash(defaults), at)?;
    }
    Ok(())
}

// --- getparam, stdlib::str2resource -------------------------------------------------------

/// `getparam(reference, name)`: the value of a parameter of a resource in the catalog, `''`
/// when the resource is not there or the parameter not set (`title` is its title).
fn getparam(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let Some(reference) = call.args.first() else { return Err(fail("Must specify a reference")) };
    let Some(Value::String(param)) = call.args.get(1) else {
        return Err(fail("Must specify name of a parameter"));
    };
    if param.is_empty() {
        return Ok(Value::from(""));
    }
    let text = match reference {
        Value::Type(t) => match reference_of_type(ev, t)? {
            Some(r) => format!("{}[{}]", r.type_name, r.title),
            None => to_s(reference),
        },
        other => to_s(other),
    };
    let r = parse_reference(&text)?;
    let Some(resource) = ev.compiler.catalog.get(&r.type_name, &r.title) else { return Ok(Value::from("")) };
    let value =
        if &**param == "title" { Some(Value::from(r.title.as_str())) } else { resource.params.get(&**param).cloned() };
    Ok(value.filter(|v| !v.is_undef()).unwrap_or_else(|| Value::from("")))
}

/// `stdlib::str2resource('Type[title]')`: the reference of that resource, which must be in
/// the catalog already.
fn str2resource(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let text = to_s(&call.arg(0));
    let r = parse_reference(&text)?;
    match ev.compiler.catalog.get(&r.type_name, &r.title) {
        Some(resource) => {
            Ok(crate::catalog::reference_value(&resource.type_name.clone(), &resource.title.clone()))
        }
        None => Err(fail(format!(
            "stdlib::str2resource(): could not find {}[{}], this is parse order dependent and values should not be quoted",
            r.type_name, r.title
        ))),
    }
}

// --- assert_private ------------------------------------------------------------------------

/// `assert_private(message)`: fails (with the message, or `Class NAME is private`,
/// `Definition NAME is private`) when the code calling is not of the module its class or
/// defined type is in: when `$module_name` differs from `$caller_module_name`.
fn assert_private(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    if call.args.len() > 1 {
        return Err(fail(format!(
            "assert_private(): Wrong number of arguments given ({}}}) for 0 or 1)",
            call.args.len()
        )));
    }
    let (module_name, caller_module_name) = module_names(ev);
    if caller_module_name.as_deref() == Some(module_name.as_str()) {
        return Ok(Value::Undef);
    }
    let message = match call.args.first() {
        Some(Value::String(message)) => message.to_string(),
        _ => {
            let container = ev.compiler.container.clone();
            if container.is_main() {
                "Class  is private".to_owned()
            } else if &*container.type_name == "Class" {
                format!("Class {} is private", container.title)
            } else {
                format!("Definition {} is private", container.type_name.to_lowercase())
            }
        }
    };
    Err(fail(message))
}

/// `$module_name` and `$caller_module_name` as Puppet has them where code runs: the module
/// of the class or defined type being evaluated (`''` for one the program defines), and the
/// module of the code that declared it or of its parent class (`''` for the program's
/// code); at the top, `$caller_module_name` is not set (`None`, Ruby's nil).
fn module_names(ev: &mut Evaluator) -> (String, Option<String>) {
    let container = ev.compiler.container.clone();
    if container.is_main() {
        return (String::new(), None);
    }
    if container.type_name.eq_ignore_ascii_case("node") {
        return (String::new(), Some(String::new()));
    }
    let class = &*container.type_name == "Class";
    let lower = if class { container.title.to_string() } else { container.type_name.to_lowercase() };
    let parent = if class {
        let def = ev.compiler.classes_defs.get(&lower);
        def.and_then(|d| d.parent.clone()).map(|p| p.trim_start_matches("::").to_lowercase())
    } else {
        None
    };
    let caller = match parent {
        Some(parent) => definition_module(ev, &parent, true),
        None => {
            let declarer = ev.compiler.catalog.get(&container.type_name, &container.title).and_then(|r| r.declarer);
            match declarer.map(|i| ev.compiler.catalog.at(i)) {
                Some(r) if &*r.type_name == "Class" => definition_module(ev, &r.title, true),
                Some(r) if !r.type_name.eq_ignore_ascii_case("node") => {
                    definition_module(ev, &r.type_name.to_lowercase(), false)
                }
                _ => String::new(),
            }
        }
    };
    (definition_module(ev, &lower, class), Some(caller))
}

/// The module a class or defined type was loaded from (`''` when the program defines it).
fn definition_module(ev: &Evaluator, lower: &str, class: bool) -> String {
    let defs = if class { &ev.compiler.classes_defs } else { &ev.compiler.defines };
    match defs.get(lower) {
        Some(def) if def.file.is_some() => ev.module_of(lower),
        _ => String::new(),
    }
}

// --- deprecation ---------------------------------------------------------------------------

/// `deprecation(key, message, use_strict_setting)`: Puppet's deprecation warning, once per
/// key, the message followed by where it was called (as stdlib writes it: `at ["FILE",
/// LINE]:["FILE", LINE]`, the call's frame and the one around it); under `strict=error` an
/// error, under `strict=off` nothing (9.7.0: unless `use_strict_setting` is false). Its value
/// is undef, but stdlib 8.5.0's gives back what `Puppet.deprecation_warning` did: the warning
/// with its Ruby location line, the first time.
fn deprecation(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let nine = stdlib_9(ev);
    select_dispatch("deprecation", if nine { DEPRECATION_9 } else { DEPRECATION_8 }, &call.args, None)?;
    let use_strict = !matches!(call.args.get(2), Some(Value::Boolean(false)));
    let warned = deprecate(ev, &to_s(&call.arg(0)), &to_s(&call.arg(1)), use_strict)?;
    let stdlib = ev.module_dir("stdlib");
    Ok(match (warned, stdlib) {
        (Some(warning), Some(dir)) if !nine => {
            let file = dir.join("lib/puppet/functions/deprecation.rb");
            Value::from(format!("{warning}\n   (location: {}:36:in `deprecation')", file.display()).as_str())
        }
        _ => Value::Undef,
    })
}

/// The work of `deprecation` (see there): the warning when it was logged. The message ends
/// with where the call is in Puppet's stack of calls (`Evaluator::stack_location`).
pub(super) fn deprecate(ev: &mut Evaluator, key: &str, message: &str, use_strict: bool) -> Eval<Option<String>> {
    let message = format!("{message} at {}", ev.stack_location());
    if use_strict {
        match ev.options.strict {
            Strict::Off => return Ok(None),
            Strict::Error => return Err(fail(format!("deprecation. {key}. {message}"))),
            Strict::Warning => {}
        }
    }
    if std::env::var("STDLIB_LOG_DEPRECATIONS").as_deref() == Ok("false") || !first_deprecation(ev, key) {
        return Ok(None);
    }
    // `Puppet.deprecation_warning` says where in the Ruby it was called
    let line = if stdlib_9(ev) { 35 } else { 36 };
    let location = ev
        .module_dir("stdlib")
        .map(|dir| format!("{}:{line}:in `deprecation'", dir.join("lib/puppet/functions/deprecation.rb").display()));
    ev.log_at(crate::eval::Level::Warning, message.clone(), location);
    Ok(Some(message))
}

thread_local! {
    /// The keys `Puppet.deprecation_warning` has warned about, per session (its top scope).
    static DEPRECATIONS: RefCell<Vec<(Weak<Scope>, HashSet<String>)>> = const { RefCell::new(Vec::new()) };
}

/// Whether `Puppet.deprecation_warning` warns about `key` now: the first time in the session,
/// among its first 100 keys (`$deprecation_warnings`).
fn first_deprecation(ev: &Evaluator, key: &str) -> bool {
    let top = Rc::downgrade(&ev.top);
    DEPRECATIONS.with(|d| {
        let mut d = d.borrow_mut();
        d.retain(|(scope, _)| scope.strong_count() > 0);
        let keys = match d.iter().position(|(scope, _)| scope.ptr_eq(&top)) {
            Some(i) => &mut d[i].1,
            None => {
                d.push((top, HashSet::new()));
                let last = d.len() - 1;
                &mut d[last].1
            }
        };
        keys.len() < 100 && keys.insert(key.to_owned())
    })
}

// --- modules and files ---------------------------------------------------------------------

/// `get_module_path(name)`: the directory of the module on the module path.
fn get_module_path(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    let [name] = call.args.as_slice() else {
        return Err(fail("get_module_path(): Wrong number of arguments, expects one"));
    };
    Ok(Value::from(module_path(ev, name)?.display().to_string().as_str()))
}

/// The directory of the module named `name` (`Puppet::Module.find`), or Puppet's error.
fn module_path(ev: &Evaluator, name: &Value) -> Eval<std::path::PathBuf> {
    let text = to_s(name);
    let found = match name {
        Value::String(_) => ev.module_dir(&text),
        _ => None,
    };
    found.ok_or_else(|| fail(format!("Could not find module {text} in environment production")))
}

/// `load_module_metadata(name, allow_empty)`: the module's `metadata.json` as a hash;
/// without the file `{}` where allowed, else an error.
fn load_module_metadata(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    if !(1..=2).contains(&call.args.len()) {
        return Err(fail("load_module_metadata(): Wrong number of arguments, expects one or two"));
    }
    let name = call.arg(0);
    let file = module_path(ev, &name)?.join("metadata.json");
    if file.exists() {
        return read_json(&file);
    }
    if call.args.get(1).is_some_and(crate::eval::truthy) {
        return Ok(Value::hash(Hash::default()));
    }
    Err(fail(format!("load_module_metadata(): No metadata.json file for module {}", to_s(&name))))
}

/// The data of a JSON file (its first document).
fn read_json(file: &std::path::Path) -> Eval<Value> {
    let text = std::fs::read_to_string(file).map_err(|e| fail(format!("{}: {e}", file.display())))?;
    let first = pfmt::data::json::documents(&text).next();
    match first {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => Err(fail(format!("{}: {e}", file.display()))),
        None => Ok(Value::Undef),
    }
}

/// `loadjson(path, default)`: the data of a JSON file; the default (with a warning) when the
/// file does not exist, and when it cannot be read or its data is null or false. A URL is
/// refused: Poppet does not fetch anything over the network.
fn loadjson(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    load_data(ev, call, "loadjson", |_, file| read_json(file))
}

/// `loadyaml(path, default)`: as `loadjson`, for a YAML file (Psych's safe load: stdlib
/// 8.5.0 allows Symbols, 9.7.0 does not).
fn loadyaml(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    load_data(ev, call, "loadyaml", |nine, file| {
        let text = std::fs::read_to_string(file).map_err(|e| fail(format!("{}: {e}", file.display())))?;
        let shown = if nine { "<unknown>".to_owned() } else { file.display().to_string() };
        match crate::hiera::yaml::read(&text) {
            Ok(doc) if nine && !doc.unusable.is_empty() => Err(fail("Tried to load unspecified class: Symbol")),
            Ok(doc) => Ok(doc.value.unwrap_or(Value::Undef)),
            Err(crate::hiera::yaml::YamlError::DisallowedClass(c)) => {
                Err(fail(format!("Tried to load unspecified class: {c}")))
            }
            Err(crate::hiera::yaml::YamlError::Syntax(m)) => Err(fail(format!("({shown}): {m}"))),
        }
    })
}

/// The work of `loadjson` and `loadyaml` (`function`), `read` reading an existing file (told
/// whether stdlib is 9.x).
fn load_data(
    ev: &mut Evaluator,
    call: Call,
    function: &str,
    read: fn(bool, &std::path::Path) -> Eval<Value>,
) -> Eval<Value> {
    let default = call.args.get(1).cloned();
    // Ruby's `rescue StandardError`: an error gives the default, when there is one
    let or_default = |e: Flow| match &default {
        Some(d) if crate::eval::truthy(d) => Ok(d.clone()),
        _ => Err(e),
    };
    let path = match call.arg(0) {
        Value::String(ref path) => path.clone(),
        other => return or_default(no_method("start_with?", &other)),
    };
    if path.starts_with("http://") || path.starts_with("https://") {
        return Err(fail(format!("{function}(): cannot load '{path}': Poppet does not read data over the network")));
    }
    let file = std::path::Path::new(&*path);
    if !file.exists() {
        ev.log(crate::eval::Level::Warning, format!("Can't load '{path}' File does not exist!"));
        return Ok(default.unwrap_or(Value::Undef));
    }
    match read(stdlib_9(ev), file) {
        Ok(v) if crate::eval::truthy(&v) => Ok(v),
        Ok(_) => Ok(default.unwrap_or(Value::Undef)),
        Err(e) => or_default(e),
    }
}

/// `glob(pattern or patterns)`: the names of the host's files matching the patterns, as
/// Ruby's `Dir.glob` (each pattern's matches sorted, `{a,b}` alternatives in turn, hidden
/// files only where a pattern names the dot).
fn glob(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let [pattern] = call.args.as_slice() else {
        return Err(fail(format!("glob(): Wrong number of arguments given ({} for 1)", call.args.len())));
    };
    let patterns: Vec<String> = match pattern {
        Value::String(s) => vec![s.to_string()],
        Value::Array(items) => items.iter().map(to_s).collect(),
        _ => return Err(fail("glob(): Requires either array or string to work")),
    };
    let options =
        glob::MatchOptions { case_sensitive: true, require_literal_separator: true, require_literal_leading_dot: true };
    let expanded: Vec<String> = patterns.iter().flat_map(|p| expand_braces(p)).collect();
    if expanded.len() > MAX_GLOB_PATTERNS {
        return Err(fail("glob(): the pattern has too many {a,b} alternatives"));
    }
    let mut found = Vec::new();
    for pattern in expanded {
        let Ok(paths) = glob::glob_with(&pattern, options) else { continue };
        let mut names: Vec<String> = paths.flatten().map(|p| p.display().to_string()).collect();
        names.sort();
        found.extend(names.into_iter().map(|n| Value::from(n.as_str())));
    }
    Ok(Value::array(found))
}

/// How many patterns `{a,b}` alternatives may make (a bound for memory: they multiply).
const MAX_GLOB_PATTERNS: usize = 10_000;

/// A glob pattern's `{a,b}` alternatives (the first group, then the rest of each), in order;
/// more than [`MAX_GLOB_PATTERNS`] are cut short (the caller refuses them).
fn expand_braces(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else { return vec![pattern.to_owned()] };
    let mut depth = 0;
    let mut parts = Vec::new();
    let mut start = open + 1;
    for (i, c) in pattern[open..].char_indices().map(|(i, c)| (i + open, c)) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    parts.push(&pattern[start..i]);
                    let (head, tail) = (&pattern[..open], &pattern[i + 1..]);
                    let mut out = Vec::new();
                    for p in parts {
                        out.extend(expand_braces(&format!("{head}{p}{tail}")));
                        if out.len() > MAX_GLOB_PATTERNS {
                            break;
                        }
                    }
                    return out;
                }
            }
            ',' if depth == 1 => {
                parts.push(&pattern[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    vec![pattern.to_owned()]
}

/// `pry()`: Puppet's debugger, which needs the `pry` gem: an error, as Puppet without it.
fn pry(_: &mut Evaluator, _: Call) -> Eval<Value> {
    Err(fail("pry(): Requires the 'pry' rubygem to use, but it was not found"))
}
