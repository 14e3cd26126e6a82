//! Interpolation in Hiera data and paths (`pops/lookup/interpolation.rb`): `%{expr}` where
//! `expr` is a variable of the scope the lookup is made from (`%{x}`, `%{::x}`,
//! `%{facts.os.family}`: a key into its value), or a method: `%{lookup('k')}` (`hiera` is
//! the same), `%{alias('k')}` (the whole string is the found value, of any type),
//! `%{literal('%')}` and `%{scope('x')}`. Methods are allowed in data, not in `hiera.yaml`.
//!
//! A found value is interpolated again; a key that comes back to itself is Puppet's recursive
//! lookup error. An undefined variable interpolates as nothing, with Puppet's warning.

use puppet_types::Value;

use super::explain::{Event, Kind};
use super::{split_key, sub_lookup, HieraError, Invocation, Segment};
use crate::eval::{Evaluator, Strict};

/// The expressions that interpolate to nothing.
const EMPTY: [&str; 6] = ["", "::", "\"\"", "''", "\"::\"", "'::'"];

/// An interpolation method.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    Lookup,
    Alias,
    Scope,
    Literal,
    /// A name Puppet knows no method by (its error when the expression is interpolated).
    Unknown,
}

impl Evaluator {
    /// Interpolates a found value: strings, and the elements, keys and values of arrays and
    /// hashes.
    pub(super) fn hiera_interpolate(
        &mut self,
        value: Value,
        inv: &Invocation,
        allow_methods: bool,
    ) -> Result<Value, HieraError> {
        match &value {
            Value::String(s) if s.contains("%{") => self.explained(
                || Kind::Interpolate { expression: s.to_string() },
                |ev| ev.interpolate_string(s, inv, allow_methods),
            ),
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for i in items.iter() {
                    out.push(self.hiera_interpolate(i.clone(), inv, allow_methods)?);
                }
                Ok(Value::array(out))
            }
            Value::Hash(h) => {
                let mut out = puppet_types::value::Hash::default();
                for (k, v) in h.iter() {
                    let k = self.hiera_interpolate(k.clone(), inv, allow_methods)?;
                    let v = self.hiera_interpolate(v.clone(), inv, allow_methods)?;
                    out.insert(k, v);
                }
                Ok(Value::hash(out))
            }
            _ => Ok(value),
        }
    }

    /// A configured path or data directory, interpolated (methods not allowed).
    pub(super) fn interpolate_text(&mut self, text: &str, inv: &Invocation) -> Result<String, HieraError> {
        let v = self.hiera_interpolate(Value::from(text), inv, false)?;
        Ok(crate::functions::ruby::to_s(&v))
    }

    fn interpolate_string(
        &mut self,
        subject: &str,
        inv: &Invocation,
        allow_methods: bool,
    ) -> Result<Value, HieraError> {
        let mut out = String::new();
        let mut rest = subject;
        while let Some(start) = rest.find("%{") {
            let Some(len) = rest[start + 2..].find('}') else { break };
            let whole = &rest[start..start + 2 + len + 1];
            out.push_str(&rest[..start]);
            rest = &rest[start + whole.len()..];
            let expr = whole[2..whole.len() - 1].trim();
            if EMPTY.contains(&expr) {
                continue;
            }
            let (method, name, key) = method_and_key(expr);
            if name.is_some() && !allow_methods {
                return Err(HieraError::Lookup(
                    "Interpolation using method syntax is not allowed in this context".into(),
                ));
            }
            let name = name.unwrap_or("scope");
            let value = match method {
                Method::Alias if subject != whole => {
                    return Err(HieraError::Lookup(
                        "'alias' interpolation is only permitted if the expression is equal to the entire string"
                            .into(),
                    ))
                }
                Method::Alias => return self.nested_lookup(key, inv),
                Method::Lookup => self.nested_lookup(key, inv)?,
                Method::Scope => self.hiera_scope_lookup(key, inv, subject)?,
                Method::Literal => Value::from(key),
                Method::Unknown => return Err(HieraError::Lookup(format!("Unknown interpolation method '{name}'"))),
            };
            let name = if method == Method::Scope { format!("scope:{key}") } else { key.to_string() };
            let value = self.checked(&name, |ev| ev.hiera_interpolate(value, inv, allow_methods))?;
            out.push_str(&crate::functions::ruby::to_s(&value));
        }
        out.push_str(rest);
        Ok(Value::from(out.as_str()))
    }

    /// `%{lookup('k')}`: the key's value as `lookup('k')` finds it, `''` when there is none.
    fn nested_lookup(&mut self, key: &str, inv: &Invocation) -> Result<Value, HieraError> {
        if let Some(v) = inv.overrides.get(&Value::from(key)) {
            return Ok(v.clone());
        }
        match self.search_and_merge(key, inv, &Value::Undef)? {
            Some(v) => Ok(v),
            None => Ok(inv.defaults.get(&Value::from(key)).cloned().unwrap_or_else(|| Value::from(""))),
        }
    }

    /// `%{x}`, `%{facts.os.family}`: a scope variable (or the lookup's override or default
    /// value of that name), and the part of it the key's segments name.
    pub(super) fn hiera_scope_lookup(
        &mut self,
        key: &str,
        inv: &Invocation,
        subject: &str,
    ) -> Result<Value, HieraError> {
        let mut segments = split_key(key).map_err(|p| HieraError::Lookup(format!("{p} in string: {subject}")))?;
        let root = match segments.remove(0) {
            Segment::Key(k) => k,
            Segment::Index(i) => i.to_string(),
        };
        let root_value = Value::from(root.as_str());
        let value = self.explained(
            || Kind::Scope { name: "Global Scope".into() },
            |ev| -> Result<Value, HieraError> {
                Ok(match inv.overrides.get(&root_value) {
                    Some(v) => {
                        ev.report(|| Event::FoundInOverrides { key: root.clone(), value: v.clone() });
                        v.clone()
                    }
                    None => match ev.hiera_variable(&root)? {
                        Some(v) => {
                            ev.report(|| Event::Found { key: root.clone(), value: v.clone() });
                            v
                        }
                        None => match inv.defaults.get(&root_value) {
                            Some(v) => {
                                ev.report(|| Event::FoundInDefaults { key: root.clone(), value: v.clone() });
                                v.clone()
                            }
                            None => Value::Undef,
                        },
                    },
                })
            },
        )?;
        if value.is_undef() || segments.is_empty() {
            return Ok(value);
        }
        Ok(sub_lookup(key, &segments, value, self.hiera.explainer.as_mut())?.unwrap_or(Value::Undef))
    }

    /// `scope[name]`: a variable as Puppet's scope looks it up for Hiera; a missing one is
    /// Puppet's warning (`Undefined variable 'x'; `), once per name, and `None`.
    pub(crate) fn hiera_variable(&mut self, name: &str) -> Result<Option<Value>, HieraError> {
        let qualified = name.strip_prefix("::").unwrap_or(name);
        let (missing, reason) = if !name.contains("::") {
            if let Some(v) = self.scope.get(name) {
                return Ok(Some(v));
            }
            // Puppet's built-in variables and match variables always exist.
            if name == "module_name" || name == "caller_module_name" || name.bytes().all(|c| c.is_ascii_digit()) {
                return Ok(None);
            }
            (name.to_string(), String::new())
        } else {
            if let Some(v) = self.top.get(qualified).or_else(|| self.qualified_variable(qualified)) {
                return Ok(Some(v));
            }
            match qualified.rfind("::") {
                None => (format!("::{qualified}"), String::new()),
                Some(i) => {
                    let class = &qualified[..i];
                    let lower = class.to_lowercase();
                    // An unknown class may be one a module defines (Puppet loads it to ask).
                    let _ = self.load_definition(&lower);
                    if !self.compiler.classes_defs.contains_key(&lower) {
                        (qualified.to_string(), format!("class {class} could not be found"))
                    } else if !self.compiler.class_scopes.contains_key(&lower) {
                        (qualified.to_string(), format!("class {class} has not been evaluated"))
                    } else {
                        (format!("::{qualified}"), String::new())
                    }
                }
            }
        };
        let message = format!("Undefined variable '{missing}'; {reason}");
        match self.options.strict {
            Strict::Off => {}
            Strict::Warning => crate::functions::warn_once(self, &format!("Variable: {missing}"), &message),
            Strict::Error => return Err(HieraError::Other(message)),
        }
        Ok(None)
    }
}

/// `get_method_and_data`: `name('key')` or `name("key")` is a method call (its name is
/// given); anything else names a scope variable.
fn method_and_key(expr: &str) -> (Method, Option<&str>, &str) {
    let call = (|| {
        let open = expr.find('(')?;
        let name = &expr[..open];
        if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            return None;
        }
        let inner = expr[open + 1..].strip_suffix(')')?;
        let q = inner.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let key = inner.strip_prefix(q)?.strip_suffix(q)?;
        (!key.is_empty() && !key.contains(q)).then_some((name, key))
    })();
    match call {
        None => (Method::Scope, None, expr),
        Some((name, key)) => {
            let method = match name {
                "lookup" | "hiera" => Method::Lookup,
                "alias" => Method::Alias,
                "scope" => Method::Scope,
                "literal" => Method::Literal,
                _ => Method::Unknown,
            };
            (method, Some(name), key)
        }
    }
}
