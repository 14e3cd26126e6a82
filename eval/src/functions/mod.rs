//! Puppet's built-in functions: one table of [`Builtin`]s, one module per family.
//!
//! A function is its name, its dispatches (Puppet's `dispatch` blocks, in order) written as
//! parameter lists, and one Rust function that gets the arguments and the index of the
//! dispatch that took them. The evaluator checks the arguments against the dispatches before
//! the call, with Puppet's messages (`'upcase' parameter 'arg' expects ...`), so a function
//! body can rely on its dispatch's types.
//!
//! The parameter-list notation follows Puppet's dispatch DSL:
//!
//! | written | Puppet's dispatch | meaning |
//! | --- | --- | --- |
//! | `Integer $x` | `param 'Integer', :x` | required |
//! | `Integer $x?` | `optional_param 'Integer', :x` | may be left out |
//! | `String *$rest` | `repeated_param 'String', :rest` | zero or more |
//! | `String +$rest` | `required_repeated_param 'String', :rest` | one or more |
//! | `Callable[1,1] &$block` | `block_param 'Callable[1,1]', :block` | a lambda is required |
//! | `Callable[1,1] &$block?` | `optional_block_param 'Callable[1,1]', :block` | a lambda may be given |
//!
//! A line `type Name = Type` before the dispatches is one of Puppet's `local_types`: the
//! dispatches after it may name the alias (and Puppet's messages show it, `NameType =
//! Variant[String, Array[String]] name`). Such lines are not dispatches: the index a function
//! gets counts the dispatches only.
//!
//! Types are read with Puppet's built-in types and aliases; a function's dispatches are read
//! the first time it is called (so start-up stays a few milliseconds).
//!
//! A function Poppet cannot run (ERB's `template` and `inline_template`, functions modules
//! implement in Ruby, `annotate` without Object types) is an error saying so, never a wrong
//! answer; `generate()` runs commands only where the user allowed it (`system.rs`).

use std::cell::OnceCell;
use std::collections::HashMap;
use std::rc::Rc;

use puppet_syntax::Span;
use puppet_types::dispatch::Signature;
use puppet_types::ty::{CallableType, Size};
use puppet_types::{Type, Value};

use crate::error::Eval;
use crate::eval::Evaluator;

mod collections;
mod control;
pub mod erb;
mod iteration;
mod logging;
mod lookup;
mod math;
pub mod ported;
pub(crate) mod ruby;
mod scanf;
mod strings;
mod system;
pub mod templates;
mod types;

/// Ruby's `==` between values, for the evaluator's operators (`[1] - [1.0]`).
pub(crate) use ruby::eq as ruby_eq;
pub(crate) use strings::warn_once;
pub(crate) use types::parse_type_string;

/// One built-in function.
pub struct Builtin {
    pub name: &'static str,
    /// The dispatches, in Puppet's order, as parameter lists (see the module's table).
    pub dispatches: &'static [&'static str],
    pub call: fn(&mut Evaluator, Call) -> Eval<Value>,
}

/// A call of a built-in function, its arguments checked against `dispatch`.
pub struct Call {
    pub args: Vec<Value>,
    /// The lambda or function given as block (a [`Value::Callable`]).
    pub block: Option<Value>,
    /// The index of the dispatch that took the arguments.
    pub dispatch: usize,
    /// Where the call is (Puppet's position of the call expression).
    pub at: Span,
}

impl Call {
    /// The argument at `i`, `undef` when it was left out.
    pub fn arg(&self, i: usize) -> Value {
        self.args.get(i).cloned().unwrap_or(Value::Undef)
    }
}

/// Every built-in function, by name.
pub fn all() -> impl Iterator<Item = &'static Builtin> {
    crate::catalog::functions::FUNCTIONS
        .iter()
        .chain(collections::FUNCTIONS)
        .chain(control::FUNCTIONS)
        .chain(iteration::FUNCTIONS)
        .chain(logging::FUNCTIONS)
        .chain(lookup::FUNCTIONS)
        .chain(math::FUNCTIONS)
        .chain(strings::FUNCTIONS)
        .chain(system::FUNCTIONS)
        .chain(templates::FUNCTIONS)
        .chain(erb::FUNCTIONS)
        .chain(types::FUNCTIONS)
}

/// The built-in functions by name, with their dispatches once read, and the ports of module
/// functions loaded so far ([`ported`]).
pub struct Registry {
    by_name: HashMap<&'static str, usize>,
    builtins: Vec<&'static Builtin>,
    signatures: Vec<OnceCell<Rc<[Signature]>>>,
    /// The ports among `builtins`, by index.
    ports: HashMap<usize, &'static ported::Port>,
    /// How many of `builtins` are Puppet's own (the ports come after them).
    core: usize,
}

impl Default for Registry {
    fn default() -> Registry {
        let builtins: Vec<&'static Builtin> = all().collect();
        let by_name = builtins.iter().enumerate().map(|(i, b)| (b.name, i)).collect();
        let signatures = builtins.iter().map(|_| OnceCell::new()).collect();
        let core = builtins.len();
        Registry { by_name, builtins, signatures, ports: HashMap::new(), core }
    }
}

impl Registry {
    /// Makes a port of a module's function callable by its name, as loading its Ruby file
    /// makes it in Puppet.
    pub fn load_port(&mut self, port: &'static ported::Port) {
        let index = self.builtins.len();
        self.builtins.push(&port.builtin);
        self.signatures.push(OnceCell::new());
        self.ports.insert(index, port);
        self.by_name.insert(port.builtin.name, index);
    }

    /// Forgets the ports loaded (the module path changed).
    pub fn unload_ports(&mut self) {
        self.builtins.truncate(self.core);
        self.signatures.truncate(self.core);
        self.ports.clear();
        self.by_name = self.builtins.iter().enumerate().map(|(i, b)| (b.name, i)).collect();
    }

    /// The port a loaded function name stands for, if it is one.
    pub fn port(&self, name: &str) -> Option<&'static ported::Port> {
        self.by_name.get(name).and_then(|i| self.ports.get(i)).copied()
    }

    pub fn get(&self, name: &str) -> Option<(&'static Builtin, Rc<[Signature]>)> {
        let &i = self.by_name.get(name)?;
        let builtin = self.builtins[i];
        let signatures = self.signatures[i].get_or_init(|| {
            parse_dispatches(builtin.dispatches)
                .unwrap_or_else(|e| panic!("built-in function {}: {e}", builtin.name))
                .into()
        });
        Some((builtin, signatures.clone()))
    }

    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.builtins.iter().map(|b| b.name)
    }
}

/// Reads a function's dispatches, and the local type aliases (`type Name = Type`) they use.
pub fn parse_dispatches(lines: &[&str]) -> Result<Vec<Signature>, String> {
    let mut reader = puppet_types::literal::Reader::default();
    let mut signatures = Vec::new();
    for line in lines {
        match line.strip_prefix("type ").and_then(|def| def.split_once('=')) {
            Some((name, src)) => {
                reader
                    .define_alias(name.trim(), src.trim())
                    .map_err(|e| format!("local type {line:?}: {}", e.message))?;
            }
            None => signatures.push(parse_dispatch_with(&reader, line).map_err(|e| format!("dispatch {line:?}: {e}"))?),
        }
    }
    Ok(signatures)
}

/// Reads one dispatch written in the module's notation into a [`Signature`].
pub fn parse_dispatch(text: &str) -> Result<Signature, String> {
    parse_dispatch_with(&puppet_types::literal::Reader::default(), text)
}

/// [`parse_dispatch`] with the local types `reader` knows.
fn parse_dispatch_with(reader: &puppet_types::literal::Reader, text: &str) -> Result<Signature, String> {
    let mut names = Vec::new();
    let mut types = Vec::new();
    let mut required = 0i64;
    let mut repeated = false;
    let mut seen_optional = false;
    let mut block: Option<(Type, String)> = None;
    for param in split_top_level(text) {
        let param = param.trim();
        if param.is_empty() {
            continue;
        }
        let dollar = param.rfind('$').ok_or_else(|| format!("no $name in {param:?}"))?;
        let (mut type_text, mut name) = (param[..dollar].trim(), &param[dollar + 1..]);
        let optional = name.ends_with('?');
        name = name.trim_end_matches('?');
        let marker = type_text.chars().last().filter(|c| matches!(c, '*' | '+' | '&'));
        if let Some(m) = marker {
            type_text = type_text[..type_text.len() - 1].trim();
            if m == '&' {
                let t = read_type(reader, type_text)?;
                block = Some((if optional { Type::optional(t) } else { t }, name.to_string()));
                continue;
            }
        }
        if block.is_some() || repeated {
            return Err(format!("{param:?} after a repeated or block parameter"));
        }
        let t = read_type(reader, type_text)?;
        match marker {
            Some('*') => repeated = true,
            Some('+') => {
                repeated = true;
                required += 1;
            }
            _ if optional => {}
            _ => required += 1,
        }
        if optional {
            seen_optional = true;
        } else if seen_optional && !repeated {
            return Err(format!("required {param:?} after an optional parameter"));
        }
        names.push(name.to_string());
        types.push(t);
    }
    let count = types.len() as i64;
    let size = Size::new(required, if repeated { None } else { Some(count) });
    let params = Type::Tuple { types: Rc::from(types), size: Some(size) };
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let signature = Signature::new(&names, params);
    Ok(match block {
        Some((t, name)) => signature.with_block(t, &name),
        None => signature,
    })
}

fn read_type(reader: &puppet_types::literal::Reader, text: &str) -> Result<Type, String> {
    match &reader.read(text) {
        Ok(Value::Type(t)) => Ok((**t).clone()),
        Ok(_) => Err(format!("{text:?} is not a type")),
        Err(e) => Err(e.message.clone()),
    }
}

/// `a, b[c, d], e` → `a`, `b[c, d]`, `e`.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '[' | '{' | '(' => depth += 1,
            ']' | '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The `Callable` type of a signature (what `type(f)` and block checks see).
pub fn callable_type(signature: &Signature) -> Type {
    Type::Callable(Rc::new(CallableType {
        params: Some(Rc::new(signature.params.clone())),
        block: signature.block.clone().map(Rc::new),
        return_type: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dispatch_reads() {
        let registry = Registry::default();
        let names: Vec<&str> = registry.names().collect();
        for name in names {
            assert!(registry.get(name).is_some());
        }
    }

    #[test]
    fn dispatch_notation() {
        let s = parse_dispatch("String $a, Integer $b?, Callable[1,1] &$block?").unwrap();
        assert_eq!(s.names, ["a", "b"]);
        assert_eq!(
            puppet_types::display::value_to_string(&Value::ty(s.params.clone())),
            "Tuple[String, Integer, 1, 2]"
        );
        let s = parse_dispatch("Any +$values").unwrap();
        assert_eq!(puppet_types::display::value_to_string(&Value::ty(s.params.clone())), "Tuple[Any, 1]");
        assert!(parse_dispatch("Integer $a?, String $b").is_err());
    }
}
