//! Functions about what a catalog holds. `defined` answers for variables and for resource
//! types Puppet ships; classes, defined types and declared resources come with the catalog.

use puppet_types::{Type, Value};

use super::{Builtin, Call};
use crate::error::{fail, Eval};
use crate::eval::Evaluator;

fn defined(ev: &mut Evaluator, call: Call) -> Eval<Value> {
    for val in &call.args {
        let found = match val {
            Value::String(s) => match s.strip_prefix('$') {
                Some(name) if !name.is_empty() => ev.variable_exists(name),
                _ if s.is_empty() => false,
                _ => {
                    let lower = s.to_lowercase();
                    if !puppet_types::literal::RESOURCE_TYPES.contains(&lower.as_str()) {
                        return Err(fail(format!(
                            "defined('{s}'): classes and defined types are not supported yet: they come with the catalog"
                        )));
                    }
                    true
                }
            },
            Value::Type(t) => match &**t {
                Type::Resource { type_name: None, .. } => {
                    return Err(fail("The given resource type is a reference to all kind of types"))
                }
                Type::Resource { title: None, .. } => true,
                Type::Type(Some(inner)) if matches!(**inner, Type::Resource { title: None, type_name: Some(_) }) => true,
                _ => {
                    return Err(fail("defined() of resources and classes is not supported yet: it comes with the catalog"))
                }
            },
            _ => return Err(fail("Invalid argument to 'defined'")),
        };
        if found {
            return Ok(Value::Boolean(true));
        }
    }
    Ok(Value::Boolean(false))
}

pub static FUNCTIONS: &[Builtin] = &[Builtin {
    name: "defined",
    dispatches: &["Variant[String, Type[CatalogEntry], Type[Type[CatalogEntry]]] +$vals"],
    call: defined,
}];
