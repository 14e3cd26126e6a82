//! The dispatch of a `new` function (`Puppet::Pops::Functions::Dispatcher`): a function is
//! a list of dispatches tried in declaration order; the first whose parameters accept the
//! arguments is called. An `argument_mismatch` dispatch is called only to produce the
//! message of the error (`'new' The string 'x' cannot be converted to Integer`). When no
//! dispatch accepts the arguments, the error describes the signatures
//! (`TypeMismatchDescriber#describe_signatures`):
//!
//! ```text
//! 'new_boolean' expects 1 argument, got 2
//! 'new_array' parameter 'wrap' expects a Boolean value, got Integer
//! The function 'new_float' was called with arguments it does not accept. It expects one of:
//!   (Convertible = Variant[...] from, Boolean abs?)
//!     rejected: parameter 'abs' expects a Boolean value, got String
//!   (NamedArgs = Struct[{...}] hash_args)
//!     rejected: expects 1 argument, got 2
//! ```
//!
//! [`describe_signatures`] is this module's own port of the parts of Puppet's describer that
//! the `new` functions reach (argument counts, one mismatching parameter per signature, the
//! merging of equal mismatches); the mismatch of one parameter is worded by
//! [`crate::mismatch::describe_value`]. When `crate::mismatch` offers `describe_signatures`,
//! it should take over here.

use std::rc::Rc;

use crate::error::{Error, Result};
use crate::instance::is_instance;
use crate::mismatch::describe_value;
use crate::ty::{Size, StringParam, StructElement, Type, TypeAlias};
use crate::value::Value;

/// One parameter of a dispatch.
pub(crate) struct Param {
    pub name: &'static str,
    pub ty: Type,
}

/// One `dispatch` (or `argument_mismatch`) of a function.
pub(crate) struct Dispatch<K> {
    /// What to call when the dispatch is selected.
    pub method: K,
    pub params: Vec<Param>,
    /// How many of the parameters are required (the rest are `optional_param`).
    pub required: usize,
    /// An `argument_mismatch` dispatch: it only words the error.
    pub mismatch_handler: bool,
    /// The signature as Puppet prints it in "It expects one of:" (aliases expanded).
    pub text: &'static str,
}

impl<K> Dispatch<K> {
    pub fn new(method: K, text: &'static str) -> Dispatch<K> {
        Dispatch { method, params: Vec::new(), required: 0, mismatch_handler: false, text }
    }

    /// A required parameter (`param`).
    pub fn req(mut self, name: &'static str, ty: Type) -> Dispatch<K> {
        self.params.push(Param { name, ty });
        self.required = self.params.len();
        self
    }

    /// An optional parameter (`optional_param`).
    pub fn opt(mut self, name: &'static str, ty: Type) -> Dispatch<K> {
        self.params.push(Param { name, ty });
        self
    }

    /// Makes this an `argument_mismatch` dispatch.
    pub fn mismatch(mut self) -> Dispatch<K> {
        self.mismatch_handler = true;
        self
    }

    /// Whether the dispatch accepts `args` (`Callable#callable_with?`: the count is in range
    /// and every argument is an instance of its parameter's type).
    pub fn accepts(&self, args: &[Value]) -> bool {
        args.len() >= self.required
            && args.len() <= self.params.len()
            && self.params.iter().zip(args).all(|(p, a)| is_instance(&p.ty, a))
    }

    /// The parameter types as a `Tuple[types..., required, count]` (what `Init` compares
    /// arguments with).
    pub fn param_tuple(&self) -> ParamTuple {
        ParamTuple {
            types: self.params.iter().map(|p| p.ty.clone()).collect(),
            min: self.required,
            max: self.params.len(),
        }
    }
}

/// The parameter types of a signature and its argument count range.
#[derive(Clone, Debug)]
pub(crate) struct ParamTuple {
    pub types: Vec<Type>,
    pub min: usize,
    pub max: usize,
}

impl ParamTuple {
    /// The tuple as a `Tuple` type.
    pub fn to_type(&self) -> Type {
        let size = Size { from: self.min as i64, to: Some(self.max as i64) };
        Type::Tuple { types: self.types.clone().into(), size: Some(size) }
    }
}

/// A `new` function: its name (as it appears in messages) and its dispatches.
pub(crate) struct Function<K> {
    pub name: &'static str,
    pub dispatches: Vec<Dispatch<K>>,
}

/// The dispatch that accepted the arguments.
pub(crate) enum Selected<K> {
    /// A regular dispatch: call its method.
    Call(K),
    /// An `argument_mismatch` dispatch: its method words the error.
    Mismatch(K),
}

impl<K: Copy> Function<K> {
    /// Selects the first dispatch accepting `args`, or fails with Puppet's description of
    /// the signatures.
    pub fn select(&self, args: &[Value]) -> Result<Selected<K>> {
        match self.dispatches.iter().find(|d| d.accepts(args)) {
            Some(d) if d.mismatch_handler => Ok(Selected::Mismatch(d.method)),
            Some(d) => Ok(Selected::Call(d.method)),
            None => Err(Error::new(if std::env::var("NEW_OWN").is_ok() { describe_signatures(self.name, &self.signatures(), args) } else {
                let sigs: Vec<crate::mismatch::Signature> = self.signatures().iter().map(|d| {
                    let names: Vec<&str> = d.params.iter().map(|p| p.name).collect();
                    crate::mismatch::Signature::new(&names, d.param_tuple().to_type())
                }).collect();
                crate::mismatch::describe_signatures(self.name, &sigs, args, false)
            })),
        }
    }

    /// The regular dispatches (`Dispatcher#signatures`).
    pub fn signatures(&self) -> Vec<&Dispatch<K>> {
        self.dispatches.iter().filter(|d| !d.mismatch_handler).collect()
    }

    /// The parameter tuples of the regular dispatches.
    pub fn param_tuples(&self) -> Vec<ParamTuple> {
        self.signatures().iter().map(|d| d.param_tuple()).collect()
    }

    /// The error an `argument_mismatch` method's message becomes: `'name' message`.
    pub fn mismatch_error(&self, message: &str) -> Error {
        Error::new(format!("'{}' {message}", self.name))
    }
}

/// Why one signature rejects the arguments.
enum Problem<'a> {
    /// The argument count is outside `min..=max`.
    Count { min: usize, max: usize },
    /// The argument for the named parameter is not an instance of its type.
    Param { name: &'static str, ty: &'a Type, arg: &'a Value },
}

fn problem<'a, K>(d: &'a Dispatch<K>, args: &'a [Value]) -> Option<Problem<'a>> {
    if args.len() < d.required || args.len() > d.params.len() {
        return Some(Problem::Count { min: d.required, max: d.params.len() });
    }
    d.params
        .iter()
        .zip(args)
        .find(|(p, a)| !is_instance(&p.ty, a))
        .map(|(p, a)| Problem::Param { name: p.name, ty: &p.ty, arg: a })
}

/// `TypeMismatchDescriber#describe_signatures` for a function named `name` called with
/// `args` that none of `signatures` accepts.
pub(crate) fn describe_signatures<K>(name: &str, signatures: &[&Dispatch<K>], args: &[Value]) -> String {
    let label = format!("'{name}'");
    let problems: Vec<Problem> = signatures.iter().filter_map(|d| problem(d, args)).collect();
    if problems.is_empty() || problems.len() != signatures.len() {
        return format!("{label} expects other arguments");
    }
    if let Some(merged) = merge_counts(&problems, args.len()) {
        return format!("{label} {merged}");
    }
    if let Some(merged) = merge_params(&problems) {
        return format!("{label} {merged}");
    }
    if let [only] = problems.as_slice() {
        let lines = problem_lines(only, args.len());
        if let [line] = lines.as_slice() {
            return format!("{label} {line}");
        }
        let mut out = format!("{label} expects ({})", signatures[0].text);
        for line in lines {
            out.push_str(&format!("\n  rejected: {line}"));
        }
        return out;
    }
    let mut out =
        format!("The function {label} was called with arguments it does not accept. It expects one of:");
    for (sig, p) in signatures.iter().zip(&problems) {
        out.push_str(&format!("\n  ({})", sig.text));
        for line in problem_lines(p, args.len()) {
            out.push_str(&format!("\n    rejected: {line}"));
        }
    }
    out
}

/// All signatures reject the count: one message with the widest range.
fn merge_counts(problems: &[Problem], actual: usize) -> Option<String> {
    let mut range: Option<(usize, usize)> = None;
    for p in problems {
        let Problem::Count { min, max } = p else { return None };
        range = Some(match range {
            None => (*min, *max),
            Some((a, b)) => (a.min(*min), b.max(*max)),
        });
    }
    range.map(|(min, max)| count_message(min, max, actual))
}

/// All signatures reject the same parameter: one message expecting any of their types.
fn merge_params(problems: &[Problem]) -> Option<String> {
    let mut types: Vec<Type> = Vec::new();
    let mut first: Option<(&str, &Value)> = None;
    for p in problems {
        let Problem::Param { name, ty, arg } = p else { return None };
        match first {
            None => first = Some((name, arg)),
            Some((n, _)) if n != *name => return None,
            Some(_) => {}
        }
        if !types.contains(ty) {
            types.push((*ty).clone());
        }
    }
    if problems.len() < 2 {
        return None;
    }
    let (name, arg) = first?;
    let ty = if types.len() == 1 { types.remove(0) } else { Type::Variant(types.into()) };
    Some(first_line_trimmed(&describe_value(&format!("parameter '{name}'"), &ty, arg)))
}

/// The lines of one problem (a parameter mismatch may have several).
fn problem_lines(p: &Problem, actual: usize) -> Vec<String> {
    match p {
        Problem::Count { min, max } => vec![count_message(*min, *max, actual)],
        Problem::Param { name, ty, arg } => describe_value(&format!("parameter '{name}'"), ty, arg)
            .split('\n')
            .map(|l| l.trim_start().to_owned())
            .collect(),
    }
}

fn first_line_trimmed(s: &str) -> String {
    s.trim_start().to_owned()
}

/// `CountMismatch#message`: `expects between 1 and 3 arguments, got 4`.
pub(crate) fn count_message(min: usize, max: usize, actual: usize) -> String {
    let suffix = if (min == 1 && max == 1) || (min == 0 && max == 1) { "" } else { "s" };
    format!("expects {} argument{suffix}, got {}", range_to_s(min, max, "no"), range_to_s(actual, actual, "none"))
}

fn range_to_s(min: usize, max: usize, zero: &str) -> String {
    if min == max {
        if min == 0 { zero.to_owned() } else { min.to_string() }
    } else if min == 0 {
        format!("at most {max}")
    } else {
        format!("between {min} and {max}")
    }
}

// ---- building the parameter types ------------------------------------------------------

/// A local type alias (`local_types { type 'Name = T' }`).
pub(crate) fn alias(name: &str, t: Type) -> Type {
    Type::Alias(TypeAlias::with_type(name, t))
}

/// `Pattern[/source/]`.
pub(crate) fn pattern(source: &str) -> Type {
    Type::Pattern(vec![Rc::new(crate::regexp::Regexp::new(source))].into())
}

/// `Integer[n, n]`.
pub(crate) fn int_exactly(n: i64) -> Type {
    Type::integer(Some(n), Some(n))
}

/// `Enum[values]` (sorted as Puppet stores them).
pub(crate) fn enum_of(values: &[&str]) -> Type {
    let mut v: Vec<Rc<str>> = values.iter().map(|s| Rc::from(*s)).collect();
    v.sort();
    v.dedup();
    Type::Enum { values: v.into(), case_insensitive: false }
}

/// `String[from, to]`.
pub(crate) fn string_sized(from: i64, to: Option<i64>) -> Type {
    Type::String(Some(StringParam::Size(Size { from, to })))
}

/// `Array[element, from, to]`.
pub(crate) fn array_sized(element: Type, from: i64, to: Option<i64>) -> Type {
    Type::Array { element: Some(Rc::new(element)), size: Some(Size { from, to }) }
}

/// `Tuple[types]`.
pub(crate) fn tuple(types: Vec<Type>) -> Type {
    Type::Tuple { types: types.into(), size: None }
}

/// A `Struct` entry: `key => T`, or `Optional[key] => T` when `optional`.
pub(crate) fn entry(key: &str, optional: bool, value_type: Type) -> StructElement {
    let key_type = Type::String(Some(StringParam::Value(key.into())));
    let key_type = if optional { Type::optional(key_type) } else { key_type };
    StructElement { key_type, value_type }
}

/// `Struct[{entries}]`.
pub(crate) fn struct_of(entries: Vec<StructElement>) -> Type {
    Type::Struct(entries.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_messages() {
        assert_eq!(count_message(1, 3, 4), "expects between 1 and 3 arguments, got 4");
        assert_eq!(count_message(1, 3, 0), "expects between 1 and 3 arguments, got none");
        assert_eq!(count_message(1, 1, 2), "expects 1 argument, got 2");
        assert_eq!(count_message(1, 1, 0), "expects 1 argument, got none");
        assert_eq!(count_message(2, 2, 1), "expects 2 arguments, got 1");
        assert_eq!(count_message(0, 1, 2), "expects at most 1 argument, got 2");
    }

    #[test]
    fn merged_counts() {
        let f: Function<u8> = Function {
            name: "new",
            dispatches: vec![
                Dispatch::new(0, "Any a, Any b?").req("a", Type::Any).opt("b", Type::Any),
                Dispatch::new(1, "Any h").req("h", Type::Any),
            ],
        };
        let args = [Value::Integer(1), Value::Integer(2), Value::Integer(3)];
        let e = f.select(&args).err().map(|e| e.message);
        assert_eq!(e.as_deref(), Some("'new' expects between 1 and 2 arguments, got 3"));
    }
}
