//! Puppet's values as Ruby shows the objects Puppet makes of them, in messages Puppet's Ruby
//! code words: `to_s` (`{"a"=>1}`, `1.5`, `true`), `inspect` (`"bogus"`, `["a", 1]`) and the
//! class name (`Integer`, `TrueClass`).

use puppet_types::Value;

/// Ruby's `to_s` of the value.
pub fn to_s(value: &Value) -> String {
    match value {
        Value::Undef => String::new(),
        Value::String(s) => s.to_string(),
        Value::Float(f) => poppet_ruby::float::float_to_s(*f),
        Value::Array(_) | Value::Hash(_) => inspect(value),
        other => puppet_types::display::value_to_s(other),
    }
}

/// Ruby's `inspect` of the value.
pub fn inspect(value: &Value) -> String {
    match value {
        Value::String(s) => poppet_ruby::string::inspect(s),
        Value::Undef => "nil".to_owned(),
        Value::Array(items) => format!("[{}]", items.iter().map(inspect).collect::<Vec<_>>().join(", ")),
        Value::Hash(map) => {
            let pairs: Vec<String> = map.iter().map(|(k, v)| format!("{}=>{}", inspect(k), inspect(v))).collect();
            format!("{{{}}}", pairs.join(", "))
        }
        other => to_s(other),
    }
}

/// The name of the value's Ruby class.
pub fn class_name(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "String",
        Value::Integer(_) | Value::BigInt(_) => "Integer",
        Value::Float(_) => "Float",
        Value::Boolean(true) => "TrueClass",
        Value::Boolean(false) => "FalseClass",
        Value::Undef => "NilClass",
        Value::Array(_) => "Array",
        Value::Hash(_) => "Hash",
        _ => "Object",
    }
}

/// Ruby's `to_yaml` of the value (Psych's document with the default options).
pub fn to_yaml(value: &Value) -> Result<String, String> {
    crate::functions::ported::stdlib_data::ruby_to_yaml(value).map_err(|f| match f {
        crate::error::Flow::Error(e) => e.message,
        _ => String::new(),
    })
}

/// Ruby's `to_json` of the value (the `json` gem's compact generator; a float as Ruby
/// prints it).
pub fn to_json(value: &Value) -> String {
    let mut out = String::new();
    write_json(value, &mut out);
    out
}

fn write_json(value: &Value, out: &mut String) {
    match value {
        Value::Undef => out.push_str("null"),
        Value::String(s) => poppet_ruby::json::generate_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(v, out);
            }
            out.push(']');
        }
        Value::Hash(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                match k {
                    Value::String(s) => poppet_ruby::json::generate_string(s, out),
                    other => poppet_ruby::json::generate_string(&to_s(other), out),
                }
                out.push(':');
                write_json(v, out);
            }
            out.push('}');
        }
        Value::Integer(_) | Value::BigInt(_) | Value::Float(_) | Value::Boolean(_) => out.push_str(&to_s(value)),
        other => poppet_ruby::json::generate_string(&to_s(other), out),
    }
}
