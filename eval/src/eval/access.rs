//! The access operator `x[k...]` (`pops/evaluator/access_operator.rb`): substrings, array
//! elements and slices, hash lookups, type parameters, resource references.

use puppet_syntax::ast::Expr;
use puppet_syntax::Span;
use puppet_types::display::{a_an, a_an_uc, label};
use puppet_types::Value;

use super::Evaluator;
use crate::error::{fail_at, Eval};
use puppet_types::new::numeric::string_to_number;

impl Evaluator {
    pub(super) fn access(&mut self, left: &Expr, keys: &[Expr], e: &Expr) -> Eval<Value> {
        let target = self.eval(left)?;
        if let Value::Type(t) = &target {
            if matches!(**t, puppet_types::Type::Class(None)) && !self.in_type_alias {
                return self.class_access(t, keys, e);
            }
        }
        // One key into an array or a hash, the most common case, straight away. The keys are
        // not unfolded (Puppet's `eval_AccessExpression`): `*$x` is one key, an array, which
        // the accesses that flatten their keys splice.
        let values = match keys {
            [key] => {
                let k = self.eval(key)?;
                match (&target, &k) {
                    (Value::Array(a), Value::Integer(i)) => {
                        let i = if *i < 0 { i.checked_add(a.len() as i64) } else { Some(*i) };
                        return Ok(i.and_then(|i| a.get(usize::try_from(i).ok()?)).cloned().unwrap_or(Value::Undef));
                    }
                    (Value::Hash(h), _) => return Ok(h.get(&k).cloned().unwrap_or(Value::Undef)),
                    _ => vec![k],
                }
            }
            _ => keys.iter().map(|k| self.eval(k)).collect::<Eval<Vec<Value>>>()?,
        };
        let key_at = |i: usize| keys.get(i).map_or(e.at, |k| k.at);
        match &target {
            Value::String(s) => {
                let chars: Vec<char> = s.chars().collect();
                let range = self.substring(chars.len(), flatten(values), left, &key_at)?;
                Ok(Value::from(range.map_or(String::new(), |r| chars[r].iter().collect()).as_str()))
            }
            Value::Binary(b) => {
                let range = self.substring(b.0.len(), flatten(values), left, &key_at)?;
                let bytes = range.map_or(Vec::new(), |r| b.0[r].to_vec());
                Ok(Value::Binary(std::rc::Rc::new(puppet_types::binary::Binary(bytes))))
            }
            Value::Array(a) => self.access_array(a, flatten(values), left, &key_at),
            Value::Hash(h) => {
                if values.is_empty() {
                    return Err(fail_at(format!("Hash supports [] with one or more arguments. Got {}", 0), left.at));
                }
                let mut found: Vec<Value> = values.iter().map(|k| h.get(k).cloned().unwrap_or(Value::Undef)).collect();
                if found.len() == 1 {
                    return Ok(found.pop().unwrap_or(Value::Undef));
                }
                found.retain(|v| !v.is_undef());
                Ok(Value::array(found))
            }
            // In a type alias's body, an unknown type with parameters is a reference named by
            // its text (Puppet's type parser).
            Value::Type(t) if self.in_type_alias && matches!(**t, puppet_types::Type::Reference(_)) => {
                let text = self.source.get(e.span.start..e.span.end).unwrap_or_default();
                Ok(Value::ty(puppet_types::Type::Reference(std::rc::Rc::from(text))))
            }
            // A declared resource's parameters: `File['/x']['mode']`.
            Value::Type(t)
                if matches!(
                    &**t,
                    puppet_types::Type::Resource { title: Some(_), .. } | puppet_types::Type::Class(Some(_))
                ) =>
            {
                self.resource_parameters(t, &values, e.at)
            }
            Value::Type(t) => puppet_types::params::parameterize(t, &values).map_err(|err| {
                let at = blame(&err.message, &values).map_or(e.at, key_at);
                fail_at(err.message, at)
            }),
            _ => Err(fail_at(format!("Operator '[]' is not applicable to {}.", a_an(&label(&target))), left.at)),
        }
    }

    /// `Class[names]`. A key naming an unknown type is a type reference here (Puppet
    /// evaluates `Foo` to one, and refuses it as a class name), and an error is placed at the
    /// key Puppet blames (see [`puppet_types::params::class_references`]).
    fn class_access(&mut self, class: &puppet_types::Type, keys: &[Expr], e: &Expr) -> Eval<Value> {
        use puppet_syntax::ast::ExprKind;
        let values = if keys.iter().any(|k| matches!(k.kind, ExprKind::Unfold(_))) {
            self.eval_list(keys)?
        } else {
            let mut values = Vec::with_capacity(keys.len());
            for key in keys {
                values.push(match &key.kind {
                    ExprKind::QualifiedReference(name) => match self.eval(key) {
                        Err(crate::error::Flow::Error(err)) if err.message.starts_with("Resource type not found") => {
                            Value::ty(puppet_types::Type::Reference(std::rc::Rc::from(name.as_str())))
                        }
                        other => other?,
                    },
                    _ => self.eval(key)?,
                });
            }
            values
        };
        puppet_types::params::class_references(class, &values).map_err(|(err, blamed)| match blamed {
            None => fail_at(err.message, e.at),
            Some(i) => match keys.get(i) {
                Some(key) => fail_at(err.message, key.at),
                // past the keys written: an evaluation error with no position
                None => fail_at(err.message, Span::default()),
            },
        })
    }

    /// `access_String`: the range of a substring (or sub-binary) of `len` units; `None` for
    /// the empty result.
    fn substring(
        &mut self,
        len: usize,
        keys: Vec<Value>,
        left: &Expr,
        key_at: &dyn Fn(usize) -> Span,
    ) -> Eval<Option<std::ops::Range<usize>>> {
        let len = len as i64;
        let index = |i: usize, v: &Value| -> Eval<i64> {
            let n = match v {
                Value::String(s) => string_to_number(s).unwrap_or_else(|| v.clone()),
                other => other.clone(),
            };
            match n {
                Value::Integer(i) => Ok(i),
                other => Err(fail_at(
                    format!(
                        "A substring operation does not accept {} as a character index. Expected an Integer",
                        a_an(&puppet_types::params::ruby_class(&other))
                    ),
                    key_at(i),
                )),
            }
        };
        let (from, count) = match keys.as_slice() {
            [k] => {
                let k1 = index(0, k)?;
                let k1 = if k1 < 0 { len + k1 } else { k1 };
                if k1 < 0 {
                    return Ok(None);
                }
                (k1, 1)
            }
            [a, b] => slice(len, index(0, a)?, index(1, b)?),
            _ => {
                return Err(fail_at(
                    format!("String supports [] with one or two arguments. Got {}", keys.len()),
                    left.at,
                ));
            }
        };
        if from > len || count < 0 {
            return Ok(None);
        }
        let end = from.saturating_add(count).min(len);
        Ok(Some(from as usize..end as usize))
    }

    fn access_array(
        &mut self,
        a: &[Value],
        keys: Vec<Value>,
        left: &Expr,
        key_at: &dyn Fn(usize) -> Span,
    ) -> Eval<Value> {
        let len = a.len() as i64;
        let index = |ev: &mut Evaluator, i: usize, v: &Value| -> Eval<i64> {
            let n = match v {
                Value::String(s) => match string_to_number(s) {
                    Some(n) => {
                        ev.coercion_warning(s, &n, key_at(i))?;
                        n
                    }
                    None => {
                        return Err(fail_at(format!("The value '{s}' cannot be converted to Numeric."), key_at(i)));
                    }
                },
                Value::Integer(_) | Value::BigInt(_) | Value::Float(_) => v.clone(),
                other => {
                    return Err(fail_at(
                        format!(
                            "The value '{}' cannot be converted to Numeric.",
                            puppet_types::display::value_to_s(other)
                        ),
                        key_at(i),
                    ))
                }
            };
            match n {
                Value::Integer(i) => Ok(i),
                other => Err(fail_at(
                    format!(
                        "{}[] cannot use {} where Integer is expected",
                        a_an_uc("Array"),
                        puppet_types::params::ruby_class(&other)
                    ),
                    key_at(i),
                )),
            }
        };
        match keys.as_slice() {
            [k] => {
                let i = index(self, 0, k)?;
                let i = if i < 0 { len + i } else { i };
                Ok(if (0..len).contains(&i) { a[i as usize].clone() } else { Value::Undef })
            }
            [x, y] => {
                let (k1, k2) = slice(len, index(self, 0, x)?, index(self, 1, y)?);
                if k1 > len || k2 < 0 {
                    return Ok(Value::array(Vec::new()));
                }
                let end = k1.saturating_add(k2).min(len);
                Ok(Value::array(a[k1 as usize..end as usize].to_vec()))
            }
            _ => Err(fail_at(format!("Array supports [] with one or two arguments. Got {}", keys.len()), left.at)),
        }
    }
}

/// A slice `[start, count]` of `len` elements as Ruby's `[]` gets it from Puppet: a negative
/// start counts from the end, a negative count up to that many from the end, and a start
/// before the beginning shortens the count.
fn slice(len: i64, start: i64, count: i64) -> (i64, i64) {
    let mut from = if start < 0 { start.saturating_add(len) } else { start };
    let mut count = if count < 0 { len.saturating_sub(from).saturating_add(count).saturating_add(1) } else { count };
    if from < 0 {
        count = count.saturating_add(from);
        from = 0;
    }
    (from, count)
}

/// Which key of a type's parameters Puppet blames for `message`: the first whose class or
/// type is the one the message names (`Got String`, `Cannot use Integer where ...`, `Got a
/// String`); `None` for errors about the parameters as a whole (their number), which Puppet
/// places at the access.
fn blame(message: &str, keys: &[Value]) -> Option<usize> {
    let actual = if let Some(i) = message.rfind("Cannot use ") {
        let rest = &message[i + "Cannot use ".len()..];
        rest.split(" where ").next()?
    } else if let Some(i) = message.rfind("Got ") {
        let rest = &message[i + 4..];
        rest.strip_prefix("an ").or_else(|| rest.strip_prefix("a ")).unwrap_or(rest)
    } else {
        return None;
    };
    if actual.starts_with('(') || actual.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let names = |v: &Value| {
        [
            puppet_types::params::ruby_class(v),
            label(v),
            puppet_types::display::value_to_string(&Value::ty(puppet_types::infer::infer_generalized(v))),
        ]
    };
    keys.iter().position(|k| names(k).iter().any(|n| n == actual)).or(Some(0))
}

/// Keys of a string or array access: nested arrays are flattened (`$a[[1, 2]]` is `$a[1, 2]`).
fn flatten(keys: Vec<Value>) -> Vec<Value> {
    if !keys.iter().any(|k| matches!(k, Value::Array(_))) {
        return keys;
    }
    let mut out = Vec::new();
    fn push(out: &mut Vec<Value>, v: &Value) {
        match v {
            Value::Array(a) => a.iter().for_each(|x| push(out, x)),
            other => out.push(other.clone()),
        }
    }
    keys.iter().for_each(|k| push(&mut out, k));
    out
}
