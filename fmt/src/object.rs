//! Object values (Deferred, Error) to String (`string_PObjectType`).
//!
//! | Format | Object formats
//! | ------ | --------------
//! | p      | the value as a constructor call with its initialization hash: `Deferred({'name' => 'x'})`
//! | s      | the object's `to_s` (for Deferred the same text)
//! | q      | the object's `inspect` (Ruby's, with object addresses)
//!
//! Inside containers an Object value is formatted with the whole format map (it counts as a
//! container), so it prints as `%p` by default. With `%#p`, or inside an indenting (`#`)
//! container, `%p` is Puppet's `TypeFormatter` indented: each hash entry on a line of its
//! own, and arrays one element a line unless they are short.

use puppet_types::display::{puppet_quote, value_to_string};
use puppet_types::{Type, Value};

use crate::convert::Indentation;
use crate::error::FormatError;
use crate::map::FormatMap;

/// `String(obj, format)`.
pub fn string_object(val_type: &Type, val: &Value, map: &FormatMap, ind: Indentation) -> Result<String, FormatError> {
    let f = map.get_format(val_type)?;
    match f.letter {
        'p' => {
            let ind = ind.indenting(f.alt || ind.is_indenting);
            let mut tf = TypeFormatter { out: String::new(), indent: ind.is_indenting.then_some(ind.level) };
            tf.value(val, 0);
            Ok(tf.out)
        }
        's' => Ok(type_formatter_string(val)),
        'q' => Ok(inspect(val)),
        other => Err(FormatError::illegal("Object", other, "spq")),
    }
}

/// `TypeFormatter#string` of a value (not indented).
pub fn type_formatter_string(val: &Value) -> String {
    let mut tf = TypeFormatter { out: String::new(), indent: None };
    tf.value(val, 0);
    tf.out
}

/// Puppet's `TypeFormatter` for values, with its optional indentation (`indented(level, 2)`).
struct TypeFormatter {
    out: String,
    /// The indentation level when indenting.
    indent: Option<usize>,
}

/// Nesting deeper than this prints `...` (values in a Deferred's arguments).
const MAX_DEPTH: usize = 200;

impl TypeFormatter {
    fn value(&mut self, v: &Value, depth: usize) {
        if depth > MAX_DEPTH {
            self.out.push_str("...");
            return;
        }
        match v {
            Value::Array(items) => {
                self.out.push('[');
                match self.indent {
                    Some(level) if !is_short_array(items, level) => {
                        self.indent = Some(level + 1);
                        for item in items.iter() {
                            self.newline();
                            self.value(item, depth + 1);
                            self.out.push_str(", ");
                        }
                        self.chomp_list();
                        self.indent = Some(level);
                        self.newline();
                    }
                    _ => {
                        for (i, item) in items.iter().enumerate() {
                            if i > 0 {
                                self.out.push_str(", ");
                            }
                            self.value(item, depth + 1);
                        }
                    }
                }
                self.out.push(']');
            }
            Value::Hash(h) => {
                let entries: Vec<(&Value, &Value)> = h.iter().collect();
                self.hash(&entries, depth);
            }
            Value::Deferred(d) => {
                self.out.push_str("Deferred(");
                let name = Value::String(d.name.clone());
                let key_name = Value::from("name");
                let key_arguments = Value::from("arguments");
                let arguments = d.arguments.as_ref().map(|a| Value::array(a.clone()));
                let mut entries: Vec<(&Value, &Value)> = vec![(&key_name, &name)];
                if let Some(a) = &arguments {
                    entries.push((&key_arguments, a));
                }
                // append_indented_string(init_hash, @indent, @indent_width, true), then chomp!
                self.hash(&entries, depth);
                self.out.push(')');
            }
            Value::Error(e) => {
                self.out.push_str("Error(");
                let init: Vec<(Value, Value)> = e.init_hash().into_iter().map(|(k, v)| (Value::from(k), v)).collect();
                let entries: Vec<(&Value, &Value)> = init.iter().map(|(k, v)| (k, v)).collect();
                self.hash(&entries, depth);
                self.out.push(')');
            }
            Value::Object(o) => {
                self.out.push_str(puppet_types::object::label(&o.ty));
                self.out.push('(');
                let init: Vec<(Value, Value)> = o.init_hash().into_iter().map(|(k, v)| (Value::String(k), v)).collect();
                let entries: Vec<(&Value, &Value)> = init.iter().map(|(k, v)| (k, v)).collect();
                self.hash(&entries, depth);
                self.out.push(')');
            }
            Value::String(s) => self.out.push_str(&puppet_quote(s)),
            Value::Regexp(r) => self.out.push_str(&puppet_types::regexp::to_s_with_delimiters(r.source())),
            Value::Binary(_) | Value::Sensitive(_) => {
                self.out.push_str("Instance of ");
                self.out.push_str(&puppet_types::infer::infer(v).to_string());
            }
            other => self.out.push_str(&value_to_string(other)),
        }
    }

    fn hash(&mut self, entries: &[(&Value, &Value)], depth: usize) {
        self.out.push('{');
        let outer = self.indent;
        if let Some(level) = outer {
            self.indent = Some(level + 1);
        }
        for (k, v) in entries {
            if self.indent.is_some() {
                self.newline();
            }
            self.value(k, depth + 1);
            self.out.push_str(" => ");
            self.value(v, depth + 1);
            self.out.push_str(", ");
        }
        self.chomp_list();
        if outer.is_some() {
            self.indent = outer;
            self.newline();
        }
        self.out.push('}');
    }

    fn newline(&mut self) {
        crate::array::rstrip(&mut self.out);
        self.out.push('\n');
        if let Some(level) = self.indent {
            self.out.push_str(&"  ".repeat(level));
        }
    }

    fn chomp_list(&mut self) {
        if self.out.ends_with(", ") {
            self.out.truncate(self.out.len() - 2);
        }
    }
}

/// `is_short_array?`: empty, or its elements' estimated length below what is left of a
/// 100 character line at this indentation.
fn is_short_array(items: &[Value], level: usize) -> bool {
    if items.is_empty() {
        return true;
    }
    let mut sum: i64 = 0;
    for v in items {
        sum += match v {
            Value::Boolean(true) => 4,
            Value::Boolean(false) => 5,
            Value::Undef => 3,
            Value::Default => 8,
            Value::Integer(i) => i.to_string().len() as i64,
            Value::BigInt(b) => b.to_string().len() as i64,
            Value::Float(f) => puppet_types::display::float_to_s(*f).len() as i64,
            Value::Timespan(_) | Value::Timestamp(_) => {
                crate::ruby::inspect(&crate::sprintf::Arg::Obj(v)).map_or(1000, |s| s.chars().count() as i64)
            }
            Value::String(s) => 2 + s.chars().count() as i64,
            Value::Array(a) if a.is_empty() => 2,
            Value::Hash(h) if h.is_empty() => 2,
            _ => 1000,
        };
    }
    100 - (level as i64) * 2 > sum
}

/// Ruby's `inspect` of a Deferred or Error value (object addresses are 0 here).
fn inspect(val: &Value) -> String {
    match val {
        Value::Error(e) => {
            let attr = |name: &str| {
                let v = e.attribute(name).unwrap_or(Value::Undef);
                crate::ruby::inspect(&crate::sprintf::Arg::Obj(&v))
                    .map_or_else(|_| "nil".to_owned(), |s| s.into_owned())
            };
            format!(
                "#<Puppet::DataTypes::Error:0x0000000000000000 @msg={}, @kind={}, @details={}, @issue_code={}>",
                attr("msg"),
                attr("kind"),
                attr("details"),
                attr("issue_code")
            )
        }
        Value::Deferred(d) => {
            let args = match &d.arguments {
                None => "nil".to_owned(),
                Some(a) => {
                    format!("[{}]", a.iter().map(puppet_types::display::value_to_s).collect::<Vec<_>>().join(", "))
                }
            };
            format!(
                "#<#<Class:0x0000000000000000>:0x0000000000000000 @name={}, @arguments={args}>",
                crate::ruby::inspect_str(&d.name)
            )
        }
        other => value_to_string(other),
    }
}
