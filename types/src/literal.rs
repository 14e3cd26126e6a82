//! The literal reader: data literals, type expressions and constructor calls read from Puppet
//! source into values, as Puppet's evaluator would compute them, without an evaluator:
//!
//! ```
//! use puppet_types::{literal, display};
//! let v = literal::read("[1, 'a', {b => undef}, Integer[1, 2], SemVer('1.2.3')]").unwrap();
//! assert_eq!(display::value_to_string(&v), "[1, 'a', {'b' => undef}, Integer[1, 2], '1.2.3']");
//! ```
//!
//! Accepted: numbers (with unary minus), strings without interpolation, heredocs, `true`,
//! `false`, `undef`, `default`, regexps, bare words (strings), arrays, hashes, type names
//! (`Integer`, aliases given to the [`Reader`]) and their parameters (`Struct[{a => Integer}]`),
//! resource and class references (`File['x']`, `Class['a']`), and conversions: `T(args)`,
//! `T.new(args)`, `new(T, args)`. Anything else (variables, operators, other calls) is an
//! error saying it is not a literal. Type parameters are [`params`](crate::params)' job and
//! conversions [`new`](crate::new)'s.
//!
//! Messages are Puppet's without the "Evaluation Error: " prefix; where Puppet's message
//! depends on the expression (`Error while evaluating a Function Call, `), the reader adds
//! that part.

use std::collections::HashMap;
use std::rc::Rc;

use puppet_syntax::ast::{CallKind, Expr, ExprKind};

use crate::error::{Error, Result};
use crate::regexp::Regexp;
use crate::ty::{Type, TypeAlias};
use crate::value::{Hash, Value};

/// Reads one literal with Puppet's built-in types only.
pub fn read(src: &str) -> Result<Value> {
    Reader::default().read(src)
}

/// The resource types Puppet 7.23 ships (`puppet/type/*.rb`): their names are resource type
/// references (`File` is `Resource['file']`).
pub const RESOURCE_TYPES: &[&str] = &[
    "component",
    "exec",
    "file",
    "filebucket",
    "group",
    "notify",
    "package",
    "resources",
    "schedule",
    "service",
    "stage",
    "tidy",
    "user",
    "whit",
];

/// The format engine's `String.new` (its crate gives it to [`Reader::with_string_new`]).
pub type StringNewFn = fn(&[Value]) -> Result<Value>;

/// A literal reader, with the type aliases it knows besides Puppet's own, and the String
/// conversion for `String(...)` in literals (the format engine's, given by its crate).
#[derive(Default)]
pub struct Reader {
    aliases: HashMap<String, Type>,
    string_new: Option<StringNewFn>,
}

impl Reader {
    /// A reader whose conversions to String (`String(1, '%x')`, `Optional[String](1)`) use
    /// `string_new`.
    pub fn with_string_new(string_new: StringNewFn) -> Reader {
        Reader { string_new: Some(string_new), ..Reader::default() }
    }

    /// Makes `name` (a capitalised type name) stand for `t`.
    pub fn alias_type(&mut self, name: &str, t: Type) {
        self.aliases.insert(name.to_lowercase(), Type::Alias(TypeAlias::with_type(name, t)));
    }

    /// `type NAME = SRC`: the alias is known while `src` is read, so it may refer to itself
    /// (`type Tree = Array[Variant[Integer, Tree]]`).
    pub fn define_alias(&mut self, name: &str, src: &str) -> Result<Type> {
        let alias = TypeAlias::new(name);
        let key = name.to_lowercase();
        let previous = self.aliases.insert(key.clone(), Type::Alias(alias.clone()));
        match self.read(src) {
            Ok(Value::Type(ref t)) => {
                alias.resolve_to(crate::normalize::normalize(t));
                Ok(Type::Alias(alias))
            }
            other => {
                match previous {
                    Some(p) => self.aliases.insert(key, p),
                    None => self.aliases.remove(&key),
                };
                Err(match other {
                    Err(e) => e,
                    Ok(v) => Error::new(format!(
                        "The type alias {name} is not a type: {}",
                        crate::display::value_to_string(&v)
                    )),
                })
            }
        }
    }

    /// Parses `src` and reads its one expression.
    pub fn read(&self, src: &str) -> Result<Value> {
        let program = puppet_syntax::parse(src).map_err(|diags| {
            Error::new(diags.first().map(|d| d.message.clone()).unwrap_or_else(|| "Syntax error".into()))
        })?;
        match program.body {
            Some(e) => self.eval(&e),
            None => Err(Error::new("No value: the source has no expression")),
        }
    }

    /// The type a type name stands for: Puppet's built-in types, its built-in aliases
    /// (`Data`, `RichData`, ...), this reader's aliases, the shipped resource types.
    pub fn type_named(&self, name: &str) -> Option<Type> {
        let lower = name.to_lowercase();
        if let Some(t) = builtin_type(&lower) {
            return Some(t);
        }
        if let Some(t) = self.aliases.get(&lower) {
            return Some(t.clone());
        }
        RESOURCE_TYPES
            .contains(&lower.as_str())
            .then(|| Type::Resource { type_name: Some(crate::display::capitalize_segments(name).into()), title: None })
    }

    /// Evaluates a literal expression.
    pub fn eval(&self, e: &Expr) -> Result<Value> {
        self.eval_at(e, 0)
    }

    fn eval_at(&self, e: &Expr, depth: usize) -> Result<Value> {
        if depth > 200 {
            return Err(Error::new("The literal is nested too deeply"));
        }
        let eval = |e: &Expr| self.eval_at(e, depth + 1);
        match &e.kind {
            ExprKind::Integer { value, .. } => i64::try_from(value).map(Value::Integer).map_err(|_| {
                Error::new(format!(
                    "A Literal Integer resulted in a value outside of Puppet Integer max range, got '{}0x{:x}'",
                    if value.sign() == num_bigint::Sign::Minus { '-' } else { '+' },
                    value.magnitude()
                ))
            }),
            ExprKind::Float(f) => Ok(Value::Float(*f)),
            ExprKind::String(s) => Ok(Value::String(s.clone())),
            ExprKind::QualifiedName(s) => Ok(Value::from(s.as_str())),
            ExprKind::Boolean(b) => Ok(Value::Boolean(*b)),
            ExprKind::Undef => Ok(Value::Undef),
            ExprKind::Default => Ok(Value::Default),
            ExprKind::Regex(src) => Ok(Value::Regexp(Rc::new(Regexp::new(src.as_str())))),
            ExprKind::Concat(parts) => {
                let mut s = String::new();
                for p in parts {
                    match &p.kind {
                        ExprKind::String(t) => s.push_str(t),
                        _ => return Err(not_literal("an interpolated string")),
                    }
                }
                Ok(Value::from(s.as_str()))
            }
            ExprKind::Heredoc { text, .. } => eval(text),
            ExprKind::Paren(inner) => eval(inner),
            ExprKind::Block(stmts) if stmts.len() == 1 => eval(&stmts[0]),
            ExprKind::Array(items) => Ok(Value::array(items.iter().map(eval).collect::<Result<_>>()?)),
            ExprKind::Hash(entries) => {
                let mut h = Hash::default();
                for entry in entries {
                    if let ExprKind::KeyedEntry { key, value } = &entry.kind {
                        h.insert(eval(key)?, eval(value)?);
                    }
                }
                Ok(Value::hash(h))
            }
            ExprKind::Negate(inner) => match eval(inner)? {
                Value::Integer(n) => {
                    n.checked_neg().map(Value::Integer).ok_or_else(|| Error::new("Integer overflow in unary minus"))
                }
                Value::Float(f) => Ok(Value::Float(-f)),
                _ => Err(not_literal("a unary minus of something not a number")),
            },
            ExprKind::QualifiedReference(name) => match self.type_named(name) {
                Some(t) => Ok(Value::ty(t)),
                None => {
                    Err(Error::new(format!("Resource type not found: {}", crate::display::capitalize_segments(name))))
                }
            },
            ExprKind::Access { left, keys } => {
                let base = eval(left)?;
                let keys: Vec<Value> = keys.iter().map(eval).collect::<Result<_>>()?;
                match &base {
                    Value::Type(t) => crate::params::parameterize(t, &keys),
                    _ => Err(not_literal("an access to something not a type")),
                }
            }
            ExprKind::Call { kind, functor, arguments, lambda: None, .. } => {
                let args: Vec<Value> = arguments.iter().map(eval).collect::<Result<_>>()?;
                let (target, args, what) = match (kind, &functor.kind) {
                    (CallKind::Function, ExprKind::QualifiedReference(_) | ExprKind::Access { .. }) => {
                        (eval(functor)?, &args[..], "Function Call")
                    }
                    (CallKind::Function, ExprKind::QualifiedName(n)) if n == "new" => match args.split_first() {
                        Some((t, rest)) => (t.clone(), rest, "Function Call"),
                        None => return Err(not_literal("new() without a type")),
                    },
                    (CallKind::Method, ExprKind::NamedAccess { left, right }) if matches!(&right.kind, ExprKind::QualifiedName(n) if n == "new") => {
                        (eval(left)?, &args[..], "Method call")
                    }
                    _ => return Err(not_literal("a call of a function other than new")),
                };
                let Value::Type(ref t) = target else {
                    return Err(not_literal("new() of something not a type"));
                };
                let converted = match self.string_new {
                    Some(string_new) => crate::new::new_value_with(t, args, &string_new),
                    None => crate::new::new_value(t, args),
                };
                converted.map_err(|e| Error::new(format!("Error while evaluating a {what}, {}", e.message)))
            }
            _ => Err(not_literal("this expression")),
        }
    }
}

fn not_literal(what: &str) -> Error {
    Error::new(format!("Not a literal: {what} needs the evaluator"))
}

/// Puppet's built-in types by lower-case name (`TypeParser.type_map` and the static
/// loader's aliases `Data`, `RichData`, `RichDataKey`), unparameterised.
pub fn builtin_type(lower: &str) -> Option<Type> {
    Some(match lower {
        "any" => Type::Any,
        "undef" => Type::Undef,
        "default" => Type::Default,
        "scalar" => Type::Scalar,
        "scalardata" => Type::ScalarData,
        "numeric" => Type::Numeric,
        "integer" => Type::INTEGER,
        "float" => Type::FLOAT,
        "string" => Type::STRING,
        "enum" => Type::Enum { values: Rc::from([]), case_insensitive: false },
        "pattern" => Type::Pattern(Rc::from([])),
        "regexp" => Type::Regexp(None),
        "boolean" => Type::Boolean(None),
        "semver" => Type::SemVer(Rc::from([])),
        "semverrange" => Type::SemVerRange,
        "timespan" => Type::Timespan { from: None, to: None },
        "timestamp" => Type::Timestamp { from: None, to: None },
        "binary" => Type::Binary,
        "uri" => Type::Uri(None),
        "collection" => Type::Collection(None),
        "array" => Type::ARRAY,
        "hash" => Type::HASH,
        "tuple" => Type::Tuple { types: Rc::from([]), size: None },
        "struct" => Type::Struct(Rc::from([])),
        "variant" => Type::Variant(Rc::from([])),
        "optional" => Type::Optional(None),
        "notundef" => Type::NotUndef(None),
        "iterable" => Type::Iterable(None),
        "iterator" => Type::Iterator(None),
        "catalogentry" => Type::CatalogEntry,
        "resource" => Type::Resource { type_name: None, title: None },
        "class" => Type::Class(None),
        "type" => Type::Type(None),
        "callable" => Type::Callable(Rc::new(crate::ty::CallableType { params: None, block: None, return_type: None })),
        "sensitive" => Type::Sensitive(None),
        "deferred" => Type::Deferred,
        "error" => Type::Error(None),
        "runtime" => Type::Runtime { runtime: None, name: None },
        "init" => Type::Init { ty: None, args: Rc::from([]) },
        "object" => Type::Object(Rc::default()),
        "typeset" => Type::TypeSet,
        "data" => crate::common::data(),
        "richdata" => crate::common::rich_data(),
        "richdatakey" => crate::common::rich_data_key(),
        _ => return None,
    })
}
