//! Functions about the catalog: `include`, `contain`, `require` declare classes; `realize`
//! makes virtual resources real; `create_resources` declares resources from a hash; `tag`
//! and `tagged` set and test the container's tags; `defined` answers for variables,
//! resource types, classes and declared resources.

use puppet_types::{Type, Value};

use crate::error::{fail, Eval, Flow};
use crate::eval::Evaluator;
use crate::functions::{Builtin, Call};

/// The class names of `include`'s arguments: strings, `Class['x']` references, arrays.
fn class_names(args: &[Value]) -> Eval<Vec<String>> {
    let mut names = Vec::new();
    for a in args {
        match a {
            Value::String(s) => names.push(s.to_string()),
            Value::Array(items) => names.extend(class_names(items)?),
            Value::Type(t) => match &**t {
                Type::Class(Some(name)) => names.push(name.to_string()),
                Type::Resource { type_name: Some(n), title: Some(title) } if n.eq_ignore_ascii_case("class") => {
                    names.push(title.to_string())
                }
                other => return Err(fail(format!("Cannot use a {other} where a class name is expected"))),
            },
            other => {
                return Err(fail(format!(
                    "Cannot use a {} where a class name is expected",
                    puppet_types::infer::infer_generalized(other)
                )))
            }
        }
    }
    Ok(names)
}

fn include(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    declare_classes(ev, &call, |_, _| {})
}

fn contain(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    declare_classes(ev, &call, Evaluator::contain_class)
}

fn require(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    declare_classes(ev, &call, |ev, name| ev.require_from_container(&name.trim_start_matches("::").to_lowercase()))
}

/// `include` and its kin, as Puppet's `evaluate_classes`: every name checked, then every new
/// class added to the catalog, then each not evaluated yet evaluated in order (also one an
/// earlier call added and left), then each given to `then` (`contain`'s containment,
/// `require`'s relationship); their references.
fn declare_classes(ev: &mut Evaluator, call: &Call, then: fn(&mut Evaluator, &str)) -> Eval<Value> {
    let names = class_names(&call.args)?;
    ev.check_class_names(&names)?;
    ev.add_classes(&names, call.at)?;
    for name in names.iter().map(|n| n.trim_start_matches("::").to_lowercase()) {
        // A next() or return() in a class's parameter defaults (its body catches its own)
        // ends this call, as Puppet's function call catches them: its value is the result.
        match ev.evaluate_class_body(&name) {
            Err(Flow::Next(exit) | Flow::Return(exit)) => return Ok(exit.value),
            other => other?,
        }
    }
    let mut refs = Vec::new();
    for name in names {
        refs.push(ev.include_class(&name, call.at)?);
        then(ev, &name);
    }
    Ok(Value::array(refs))
}

/// Tag names: strings and arrays of them.
fn tag_names(args: &[Value]) -> Vec<String> {
    let mut names = Vec::new();
    for a in args {
        match a {
            Value::Array(items) => names.extend(tag_names(items)),
            other => names.push(puppet_types::display::value_to_s(other)),
        }
    }
    names
}

fn tag(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    ev.add_tags(&tag_names(&call.args))?;
    Ok(Value::Undef)
}

fn tagged(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    Ok(Value::Boolean(ev.has_tags(&tag_names(&call.args))))
}

fn create_resources(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    ev.create_resources(&call.args, call.at)
}

fn realize(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    ev.realize(&call.args, call.at)?;
    Ok(Value::Undef)
}

fn defined(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    for val in &call.args {
        let found = match val {
            Value::String(s) => match s.strip_prefix('$') {
                Some(name) if !name.is_empty() => ev.variable_exists(name),
                _ if s.is_empty() => false,
                // The main class (named '' in Puppet), which is always defined.
                _ if &**s == "main" => true,
                _ => {
                    let lower = s.trim_start_matches("::").to_lowercase();
                    // a class or defined type is loaded from the module path to be found
                    ev.load_definition(&lower)?;
                    puppet_types::literal::RESOURCE_TYPES.contains(&lower.as_str()) || ev.is_class_or_define(&lower)
                }
            },
            Value::Type(t) => match &**t {
                Type::Resource { type_name: None, .. } => {
                    return Err(fail("The given resource type is a reference to all kind of types"))
                }
                Type::Resource { type_name: Some(n), title: None } => {
                    let lower = n.to_lowercase();
                    ev.load_definition(&lower)?;
                    puppet_types::literal::RESOURCE_TYPES.contains(&lower.as_str()) || ev.is_class_or_define(&lower)
                }
                // The main class's resource is titled `:main`, which no string names.
                Type::Resource { type_name: Some(n), title: Some(title) } => {
                    !(n.eq_ignore_ascii_case("class") && &**title == "main")
                        && ev.compiler.catalog.get(n, title).is_some()
                }
                Type::Class(Some(name)) => &**name != "main" && ev.compiler.catalog.get("Class", name).is_some(),
                Type::Class(None) => return Err(fail("The given class type is a reference to all classes")),
                // `Type[File]` is `File`, `Type[File['x']]` is `File['x']`.
                Type::Type(Some(inner)) => match &**inner {
                    Type::Resource { type_name: None, .. } => {
                        return Err(fail("The given resource type is a reference to all kind of types"))
                    }
                    Type::Resource { type_name: Some(n), title: None } => {
                        let lower = n.to_lowercase();
                        ev.load_definition(&lower)?;
                        puppet_types::literal::RESOURCE_TYPES.contains(&lower.as_str())
                            || ev.compiler.defines.contains_key(&lower)
                    }
                    Type::Resource { type_name: Some(n), title: Some(title) } => {
                        !(n.eq_ignore_ascii_case("class") && &**title == "main")
                            && ev.compiler.catalog.get(n, title).is_some()
                    }
                    // A class definition, declared or not.
                    Type::Class(Some(name)) => {
                        let lower = name.to_lowercase();
                        ev.load_definition(&lower)?;
                        ev.compiler.classes_defs.contains_key(&lower)
                    }
                    Type::Class(None) => return Err(fail("The given class type is a reference to all classes")),
                    _ => false,
                },
                _ => false,
            },
            _ => return Err(fail("Invalid argument to 'defined'")),
        };
        if found {
            return Ok(Value::Boolean(true));
        }
    }
    Ok(Value::Boolean(false))
}

pub static FUNCTIONS: &[Builtin] = &[
    Builtin {
        name: "defined",
        dispatches: &["Variant[String, Type[CatalogEntry], Type[Type[CatalogEntry]]] +$vals"],
        call: defined,
    },
    Builtin { name: "include", dispatches: &["Any +$names"], call: include },
    Builtin { name: "contain", dispatches: &["Any +$names"], call: contain },
    Builtin { name: "require", dispatches: &["Any +$names"], call: require },
    Builtin { name: "tag", dispatches: &["Any +$names"], call: tag },
    Builtin { name: "tagged", dispatches: &["Any +$names"], call: tagged },
    Builtin { name: "create_resources", dispatches: &["Any +$args"], call: create_resources },
    Builtin { name: "realize", dispatches: &["Any +$refs"], call: realize },
];
