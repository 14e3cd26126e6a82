//! Puppet's string type parser (`pops/types/type_parser.rb`, `TypeParser#parse`): the type a
//! string spells, as `Type('Integer[1, 2]')`, `Type.new(...)` and `new(Type, ...)` read it.
//!
//! The parser is not the evaluator. It parses the string as Puppet source and interprets the
//! tree itself: type names (`TypeParser.type_map`, then its loader), type names with
//! parameters (`interpret_AccessExpression`, one rule per type, calling `TypeFactory`), and
//! inside parameters literals, arrays, hashes, heredocs and unary minus; anything else is
//! `The expression <TEXT> is not a valid type specification.`, the text being the offending
//! part as Puppet's locator extracts it (a parenthesised expression loses its closing
//! parenthesis: `<(1>`). So its messages are its own:
//!
//! | input | message |
//! | --- | --- |
//! | `Integer[1, 2, 3]` | `Invalid number of type parameters specified: Integer requires 1 or 2, 3 provided` |
//! | `Any[1]`, `Data[1]` | `Not a parameterized type <Any>` |
//! | `Enum[1]`, `Enum[B]` | `Enum parameters must be identifiers or strings` |
//! | `Boolean[1]` | `Boolean parameter must be true or false` |
//! | `Integer['a']`, `Array[a]`, `Optional[1]` | `The expression <...> is not a valid type specification.` (the whole access) |
//! | `Integer[3, 1]` | `'from' must be less or equal to 'to'. Got (3, 1` (the type factory's Ruby error) |
//! | `Enum[]` | `Syntax error at ']' (line: 1, column: 6)`: a syntax error, positioned in the string |
//!
//! A name neither in the type map nor known to the loader is a reference: `Foo` is
//! `TypeReference['Foo']`, and `Foo[1]` (or `Error[a]`: Pcore's `Error` is not in the static
//! loader) `TypeReference['Foo[1]']`, named by its text. `Type.new` parses with the static
//! loader ([`StaticLoader`]): Puppet's aliases (`Data`, `RichData`, ...), its core resource
//! types and `Deferred`, not a program's own aliases.
//!
//! Where the factory would hand Ruby values Puppet's types cannot hold (`Integer[1.5, 2]`,
//! `Object[{...}]`), the error says that it is not supported.

use std::rc::Rc;

use puppet_syntax::ast::{Expr, ExprKind};

use crate::error::{Error, Result};
use crate::int::Int;
use crate::params::{ruby_class, ruby_receiver};
use crate::regexp::Regexp;
use crate::ty::{IntBound, RuntimeName, Size, StringParam, Type, TypeAlias};
use crate::value::{Hash, Value};

/// The types a parser's loader knows besides the type map (`loader.load(:type, name)`,
/// resolved): `name` in lower case, without a leading `::`.
pub trait TypeLoader {
    fn load_type(&self, name: &str) -> Option<Type>;
}

/// Puppet's static loader (`Loader::StaticLoader`): the types of the type map, the built-in
/// aliases, the core resource types and the Pcore object types it holds (`Deferred`).
pub struct StaticLoader;

/// `StaticLoader::BUILTIN_TYPE_NAMES`: the core resource types.
const BUILTIN_RESOURCE_TYPES: &[&str] = &[
    "Component",
    "Exec",
    "File",
    "Filebucket",
    "Group",
    "Node",
    "Notify",
    "Package",
    "Resources",
    "Schedule",
    "Service",
    "Stage",
    "Tidy",
    "User",
    "Whit",
];

impl TypeLoader for StaticLoader {
    fn load_type(&self, name: &str) -> Option<Type> {
        if let Some(t) = type_map(name) {
            return Some(t);
        }
        Some(match name {
            "data" => crate::common::data(),
            "richdata" => crate::common::rich_data(),
            "richdatakey" => crate::common::rich_data_key(),
            "puppet::lookupkey" => {
                Type::Alias(TypeAlias::with_type("Puppet::LookupKey", crate::common::rich_data_key()))
            }
            "puppet::lookupvalue" => {
                Type::Alias(TypeAlias::with_type("Puppet::LookupValue", crate::common::rich_data()))
            }
            "deferred" => Type::Deferred,
            _ => {
                let found = BUILTIN_RESOURCE_TYPES.iter().find(|t| t.eq_ignore_ascii_case(name))?;
                Type::Resource { type_name: Some(Rc::from(*found)), title: None }
            }
        })
    }
}

/// `TypeParser.singleton.parse(src, loader)`.
pub fn parse(src: &str, loader: &dyn TypeLoader) -> Result<Type> {
    // The one entry of `TypeParser.opt_type_map` (strings it answers without parsing) that
    // parsing would not give: one parameter to Array is its element type.
    if src == "Array[1]" {
        return Ok(Type::Array { element: Some(Rc::new(Type::Any)), size: Some(Size::new(1, None)) });
    }
    let program = puppet_syntax::parse(src).map_err(|diagnostics| syntax_error(diagnostics.first()))?;
    let parser = Parser { src, loader };
    let Some(mut body) = program.body.as_ref() else { return Err(invalid_text("")) };
    while let ExprKind::Block(stmts) = &body.kind {
        match stmts.as_slice() {
            [one] => body = one,
            _ => break,
        }
    }
    match &parser.interpret_any(body, 0)? {
        Value::Type(t) => Ok((**t).clone()),
        _ => Err(parser.invalid(body)),
    }
}

/// A syntax error in the string: with its position in the string when Puppet's parser gives
/// one (reported as it is, without the call's prefix), else the bare message.
fn syntax_error(d: Option<&puppet_syntax::Diagnostic>) -> Error {
    match d {
        Some(d) if d.span.line > 0 => Error::positioned(puppet_syntax::lexer::puppet_text(d)),
        Some(d) => Error::new(d.message.clone()),
        None => Error::new("Syntax error"),
    }
}

/// Nesting beyond this is refused (the parser bounds it far below already).
const MAX_DEPTH: usize = 500;

struct Parser<'a> {
    src: &'a str,
    loader: &'a dyn TypeLoader,
}

impl Parser<'_> {
    /// `interpret_any`: the Ruby value a node stands for.
    fn interpret_any(&self, e: &Expr, depth: usize) -> Result<Value> {
        if depth > MAX_DEPTH {
            return Err(Error::new("The type specification is nested too deeply"));
        }
        let any = |e: &Expr| self.interpret_any(e, depth + 1);
        Ok(match &e.kind {
            ExprKind::Integer { value, .. } => match i64::try_from(value) {
                Ok(n) => Value::Integer(n),
                Err(_) => Value::BigInt(Rc::new(value.clone())),
            },
            ExprKind::Float(f) => Value::Float(*f),
            ExprKind::String(s) => Value::String(s.clone()),
            ExprKind::QualifiedName(s) => Value::from(s.as_str()),
            ExprKind::Boolean(b) => Value::Boolean(*b),
            ExprKind::Undef => Value::Undef,
            ExprKind::Default => Value::Default,
            ExprKind::Regex(src) => Value::Regexp(Rc::new(Regexp::new(src.as_str()))),
            // A double-quoted string without interpolation is a literal string.
            ExprKind::Concat(parts) => {
                let mut s = String::new();
                for p in parts {
                    match &p.kind {
                        ExprKind::String(t) => s.push_str(t),
                        _ => return Err(self.invalid(e)),
                    }
                }
                Value::from(s.as_str())
            }
            ExprKind::Heredoc { text, .. } => any(text)?,
            ExprKind::Array(items) => Value::array(items.iter().map(any).collect::<Result<_>>()?),
            ExprKind::Hash(entries) => {
                let mut h = Hash::default();
                for entry in entries {
                    match &entry.kind {
                        ExprKind::KeyedEntry { key, value } => {
                            let k = any(key)?;
                            h.insert(k, any(value)?);
                        }
                        _ => return Err(self.invalid(entry)),
                    }
                }
                Value::hash(h)
            }
            ExprKind::Negate(inner) => negate(any(inner)?)?,
            ExprKind::QualifiedReference(name) => Value::ty(self.qualified_reference(name)),
            ExprKind::Access { left, keys } => self.access(e, left, keys, depth)?,
            ExprKind::TypeAlias { name, type_expr } => {
                let t = match &self.interpret_any(type_expr, depth + 1)? {
                    Value::Type(t) => (*t).clone(),
                    _ => return Err(self.invalid(type_expr)),
                };
                Value::ty(Type::Alias(TypeAlias::with_type(name.as_str(), crate::normalize::normalize(&t))))
            }
            ExprKind::TypeDefinition { .. } => {
                return Err(Error::new("Object type definitions in a type string are not supported yet"))
            }
            _ => return Err(self.invalid(e)),
        })
    }

    /// `interpret_QualifiedReference`: the type map, then the loader, else a reference named
    /// as written.
    fn qualified_reference(&self, cased: &str) -> Type {
        let lower = cased.to_lowercase();
        let key = lower.trim_start_matches("::");
        type_map(key).or_else(|| self.loader.load_type(key)).unwrap_or_else(|| Type::Reference(Rc::from(cased)))
    }

    /// `The expression <TEXT> is not a valid type specification.`
    fn invalid(&self, e: &Expr) -> Error {
        invalid_text(self.text_of(e))
    }

    /// `Locator#extract_tree_text`: the source from the node's start to the furthest end of
    /// it and its parts, a parenthesised expression ending where its inner one ends.
    fn text_of(&self, e: &Expr) -> &str {
        let end = puppet_end(e, 0).max(e.span.start);
        self.src.get(e.span.start..end).unwrap_or_default()
    }

    /// `Not a parameterized type <NAME>`.
    fn unparameterized(&self, qref: &Expr) -> Error {
        Error::new(format!("Not a parameterized type <{}>", self.text_of(qref)))
    }

    /// `assert_type`: a parameter that must be a type.
    fn assert_type(&self, ast: &Expr, v: &Value) -> Result<Type> {
        match v {
            Value::Type(t) => Ok((**t).clone()),
            _ => Err(self.invalid(ast)),
        }
    }

    /// `assert_range_parameter`.
    fn assert_range(&self, ast: &Expr, v: &Value) -> Result<()> {
        if is_range_parameter(v) {
            Ok(())
        } else {
            Err(self.invalid(ast))
        }
    }

    /// A size parameter that is an Integer type as it is, or a range parameter made
    /// `Integer[v, default]`.
    /// The size of `Collection[...]` and `String[...]`: an Integer type, or a range of two.
    fn size_parameters(&self, ast: &Expr, p: &[Value], name: &str) -> Result<Size> {
        match p {
            [s] => self.size_from(ast, s),
            [a, b] => {
                self.assert_range(ast, a)?;
                self.assert_range(ast, b)?;
                size_of_range(a, b)
            }
            _ => Err(arity(name, "1 to 2", p.len())),
        }
    }

    fn size_from(&self, ast: &Expr, v: &Value) -> Result<Size> {
        match v {
            Value::Type(t) if matches!(**t, Type::Integer { .. }) => Ok(size_of(t)),
            _ => {
                self.assert_range(ast, v)?;
                size_of_range(v, &Value::Default)
            }
        }
    }

    /// `interpret_AccessExpression`: the parameters first, then the rule of the type named.
    fn access(&self, ast: &Expr, left: &Expr, keys: &[Expr], depth: usize) -> Result<Value> {
        let p: Vec<Value> = keys.iter().map(|k| self.interpret_any(k, depth + 1)).collect::<Result<_>>()?;
        let ExprKind::QualifiedReference(cased) = &left.kind else { return Err(self.invalid(ast)) };
        let lower = cased.to_lowercase();
        let n = p.len();
        let t = match lower.as_str() {
            "array" => {
                let (element, size) = match p.as_slice() {
                    [t] => (self.assert_type(ast, t)?, None),
                    [Value::Type(t), s] => ((**t).clone(), Some(self.size_from(ast, s)?)),
                    [a, b] => {
                        self.assert_range(ast, a)?;
                        self.assert_range(ast, b)?;
                        (Type::Default, Some(size_of_range(a, b)?))
                    }
                    [t, a, b] => {
                        let t = self.assert_type(ast, t)?;
                        self.assert_range(ast, a)?;
                        self.assert_range(ast, b)?;
                        (t, Some(size_of_range(a, b)?))
                    }
                    _ => return Err(arity("Array", "1 to 3", n)),
                };
                collection(Type::Array { element: Some(Rc::new(element)), size })
            }
            "hash" => {
                let (key, value, size) = match p.as_slice() {
                    [Value::Type(k), Value::Type(v)] => ((**k).clone(), (**v).clone(), None),
                    [a, b] => {
                        self.assert_range(ast, a)?;
                        self.assert_range(ast, b)?;
                        (Type::Default, Type::Default, Some(size_of_range(a, b)?))
                    }
                    [k, v, s] => {
                        let size = self.size_from(ast, s)?;
                        (self.assert_type(ast, k)?, self.assert_type(ast, v)?, Some(size))
                    }
                    [k, v, a, b] => {
                        self.assert_range(ast, a)?;
                        self.assert_range(ast, b)?;
                        let (k, v) = (self.assert_type(ast, k)?, self.assert_type(ast, v)?);
                        (k, v, Some(size_of_range(a, b)?))
                    }
                    _ => return Err(arity("Hash", "2 to 4", n)),
                };
                collection(Type::Hash { key: Some(Rc::new(key)), value: Some(Rc::new(value)), size })
            }
            "collection" => Type::Collection(Some(self.size_parameters(ast, &p, "Collection")?)),
            "class" => match p.as_slice() {
                [Value::Undef] => Type::Class(None),
                [Value::String(s)] => Type::Class(Some(Rc::from(s.strip_prefix("::").unwrap_or(s)))),
                [other] => {
                    return Err(no_method(
                        "sub",
                        other,
                        "      PClassType.new(class_name.sub(/^::/, ''))",
                        "                               ^^^^",
                    ))
                }
                _ => return Err(arity("Class", "1", n)),
            },
            "resource" => self.resource_access(&p)?,
            "regexp" => match p.as_slice() {
                [Value::Undef | Value::Boolean(false)] => Type::Regexp(None),
                [Value::String(s)] => Type::Regexp(Some(Rc::new(Regexp::new(&**s)))),
                [Value::Regexp(r)] => Type::Regexp(Some(r.clone())),
                [other] => {
                    return Err(Error::new(format!(
                        "no implicit conversion of {} into String (line: 1, column: 1)",
                        crate::new::ruby::conversion_class(other)
                    )))
                }
                _ => return Err(arity("Regexp", "1", n)),
            },
            "enum" => {
                let (values, case_insensitive) = match p.split_last() {
                    Some((Value::Boolean(b), rest)) => (rest, *b),
                    _ => (&p[..], false),
                };
                if values.is_empty() {
                    return Err(arity("Enum", "1 or more", 0));
                }
                let mut strings: Vec<Rc<str>> = Vec::with_capacity(values.len());
                for v in values {
                    match v {
                        Value::String(s) => strings.push(s.clone()),
                        _ => return Err(Error::new("Enum parameters must be identifiers or strings")),
                    }
                }
                strings.sort();
                strings.dedup();
                Type::Enum { values: strings.into(), case_insensitive }
            }
            "pattern" => {
                if p.is_empty() {
                    return Err(arity("Pattern", "1 or more", 0));
                }
                pattern(&p)?
            }
            "uri" => match p.as_slice() {
                [v] => uri(v)?,
                _ => return Err(arity("URI", "1", n)),
            },
            "variant" => {
                if p.is_empty() {
                    return Err(arity("Variant", "1 or more", 0));
                }
                let types = p.iter().map(|v| self.assert_type(ast, v)).collect::<Result<Vec<_>>>()?;
                crate::normalize::maybe_create_variant(types)
            }
            "tuple" => {
                if p.is_empty() {
                    return Err(arity("Tuple", "1 or more", 0));
                }
                self.tuple(ast, &p)?
            }
            "callable" => {
                if n > 1 && matches!(p[0], Value::Array(_)) && n != 2 {
                    return Err(arity("callable", "2 when first parameter is an array", n));
                }
                callable(&p)?
            }
            "struct" => match p.as_slice() {
                [Value::Hash(h)] => factory(crate::params::structure(h))?,
                [_] => return Err(self.invalid(ast)),
                _ => return Err(arity("Struct", "1", n)),
            },
            "boolean" => match p.as_slice() {
                [Value::Boolean(b)] => Type::Boolean(Some(*b)),
                [_] => return Err(Error::new("Boolean parameter must be true or false")),
                _ => return Err(arity("Boolean", "1", n)),
            },
            "integer" => match p.as_slice() {
                [from @ (Value::Integer(_) | Value::BigInt(_))] => integer_range(from, &Value::Default)?,
                [Value::Default] => Type::INTEGER,
                [_] => return Ok(Value::Undef),
                [from, to] => integer_range(from, to)?,
                _ => return Err(arity("Integer", "1 or 2", n)),
            },
            "float" => match p.as_slice() {
                [from @ (Value::Integer(_) | Value::BigInt(_) | Value::Float(_))] => {
                    float_range(from, &Value::Default)?
                }
                [Value::Default] => Type::FLOAT,
                [_] => return Ok(Value::Undef),
                [from, to] => float_range(from, to)?,
                _ => return Err(arity("Float", "1 or 2", n)),
            },
            "string" => Type::String(Some(StringParam::Size(self.size_parameters(ast, &p, "String")?))),
            "sensitive" => match p.as_slice() {
                [t] => Type::Sensitive(Some(Rc::new(crate::infer::generalize(&self.assert_type(ast, t)?)))),
                _ => return Err(arity("Sensitive", "0 to 1", n)),
            },
            "optional" => match p.as_slice() {
                [Value::String(s)] => Type::optional(Type::String(Some(StringParam::Value(s.clone())))),
                [t] => Type::optional(self.assert_type(ast, t)?),
                _ => return Err(arity("Optional", "1", n)),
            },
            "any" | "data" | "catalogentry" | "scalar" | "undef" | "numeric" | "default" | "semverrange" => {
                return Err(self.unparameterized(left))
            }
            "notundef" => match p.as_slice() {
                [Value::String(s)] => Type::NotUndef(Some(Rc::new(Type::String(Some(StringParam::Value(s.clone())))))),
                [t] => match self.assert_type(ast, t)? {
                    Type::Any => Type::NotUndef(None),
                    t => Type::NotUndef(Some(Rc::new(t))),
                },
                _ => return Err(arity("NotUndef", "0 to 1", n)),
            },
            "type" => match p.as_slice() {
                [t] => Type::type_of(self.assert_type(ast, t)?),
                _ => return Err(arity("Type", "1", n)),
            },
            "iterable" | "iterator" => match p.as_slice() {
                [t] => {
                    let t = Some(Rc::new(self.assert_type(ast, t)?));
                    if lower == "iterable" {
                        Type::Iterable(t)
                    } else {
                        Type::Iterator(t)
                    }
                }
                _ => return Err(arity(if lower == "iterable" { "Iterable" } else { "Iterator" }, "1", n)),
            },
            "init" => {
                let t = self.assert_type(ast, p.first().unwrap_or(&Value::Undef))?;
                Type::Init { ty: Some(Rc::new(t)), args: p.get(1..).unwrap_or_default().into() }
            }
            "runtime" => match p.as_slice() {
                [runtime, name] => runtime_type(runtime, name)?,
                _ => return Err(arity("Runtime", "2", n)),
            },
            "timespan" | "timestamp" => {
                let base = if lower == "timespan" {
                    Type::Timespan { from: None, to: None }
                } else {
                    Type::Timestamp { from: None, to: None }
                };
                if n > 2 {
                    return Err(arity(if lower == "timespan" { "Timespan" } else { "Timestamp" }, "0 to 2", n));
                }
                factory(crate::params::time_range(&base, &p))?
            }
            "semver" => {
                if p.is_empty() {
                    return Err(arity("SemVer", "1 or more", 0));
                }
                if let Some(other) = p.iter().find(|v| !matches!(v, Value::String(_) | Value::SemVerRange(_))) {
                    return Err(no_method(
                        "gsub",
                        other,
                        "      range_set = range_string.gsub(/([><=~^])(?:\\s+|\\s*v)/, '\\1')",
                        "                              ^^^^^",
                    ));
                }
                Type::SemVer(crate::semver::semver_type_ranges(&p)?.into())
            }
            "object" | "typeset" => match p.as_slice() {
                [Value::Undef] => type_map(&lower).unwrap_or(Type::Any),
                [Value::Hash(h)] if h.is_empty() && lower == "object" => Type::Object(Rc::default()),
                [hash @ Value::Hash(_)] if lower == "object" => {
                    Type::Object(Rc::new(crate::object::from_init_hash(None, hash)?))
                }
                [Value::Hash(_)] => {
                    return Err(Error::new(format!(
                        "{} types in a type string are not supported yet",
                        if lower == "object" { "Object" } else { "TypeSet" }
                    )))
                }
                [other] => {
                    return Err(no_method(
                        "empty?",
                        other,
                        "    hash.nil? || hash.empty? ? PObjectType::DEFAULT : PObjectType.new(hash, loader)",
                        "                     ^^^^^^^",
                    ))
                }
                // `TypeParser` names Object for both
                _ => return Err(arity("Object", "1", n)),
            },
            other => match &self.loader.load_type(other.trim_start_matches("::")) {
                None => Type::Reference(Rc::from(self.text_of(ast))),
                Some(Type::Resource { type_name, .. }) => match p.as_slice() {
                    [title] => resource(&Value::from(type_name.as_deref().unwrap_or_default()), Some(title))?,
                    _ => return Err(arity(cased, "1", n)),
                },
                Some(Type::Deferred) => {
                    return Err(Error::new("The Deferred-Type cannot be parameterized using []"));
                }
                Some(_) => return Err(self.unparameterized(left)),
            },
        };
        Ok(Value::ty(t))
    }

    /// `Resource[...]`: a reference as its first parameter (`Resource[Foo[a]]`) is read by its
    /// text, its own parameters parsed as a list.
    fn resource_access(&self, p: &[Value]) -> Result<Type> {
        let mut params: Vec<Value> = p.to_vec();
        if let Some(Value::Type(t)) = p.first() {
            if let Type::Reference(text) = &**t {
                match text.find('[') {
                    None => params[0] = Value::String(text.clone()),
                    Some(start) => {
                        let list = self.parse_list(&text[start..])?;
                        if list.len() != 1 {
                            return Err(arity(&format!("TypeReference['{text}']"), "1", list.len()));
                        }
                        params = vec![Value::from(&text[..start])];
                        params.extend(list);
                    }
                }
            }
        }
        match params.as_slice() {
            [name] => resource(name, None),
            [name, title] => resource(name, Some(title)),
            _ => Err(arity("Resource", "1 or 2", params.len())),
        }
    }

    /// `interpret_any(parse_string(text))` of a reference's parameters (`[a, b]`).
    fn parse_list(&self, text: &str) -> Result<Vec<Value>> {
        let program = puppet_syntax::parse(text).map_err(|d| syntax_error(d.first()))?;
        let parser = Parser { src: text, loader: self.loader };
        match &program.body.as_ref().map(|b| parser.interpret_any(b, 0)).transpose()? {
            Some(Value::Array(items)) => Ok(items.to_vec()),
            Some(other) => Ok(vec![other.clone()]),
            None => Ok(Vec::new()),
        }
    }

    /// `Tuple[types..., min, max]`: trailing range parameters are its size (`default` a
    /// minimum of 0), the rest its types (`TypeFactory.type_of`).
    fn tuple(&self, ast: &Expr, p: &[Value]) -> Result<Type> {
        let n = p.len();
        if n == 0 {
            return Ok(Type::Tuple { types: Rc::from([]), size: None });
        }
        let min = |v: &Value| if is_default(v) { Value::Integer(0) } else { v.clone() };
        let (types, size) = if n >= 2 && is_range_parameter(&p[n - 2]) {
            self.assert_range(ast, &p[n - 1])?;
            let max = if matches!(p[n - 1], Value::Default) { Value::Undef } else { p[n - 1].clone() };
            (&p[..n - 2], Some(size_of_range(&min(&p[n - 2]), &max)?))
        } else if is_range_parameter(&p[n - 1]) {
            (&p[..n - 1], Some(size_of_range(&min(&p[n - 1]), &Value::Undef)?))
        } else {
            (p, None)
        };
        Ok(Type::Tuple { types: types.iter().map(crate::params::type_of).collect(), size })
    }
}

/// `TypeParser.type_map`: the types a name stands for before any loader is asked.
fn type_map(lower: &str) -> Option<Type> {
    match lower {
        "data" | "richdata" | "richdatakey" | "deferred" | "error" => None,
        "typealias" => {
            Some(Type::Alias(TypeAlias::with_type("UnresolvedAlias", Type::Reference(Rc::from("UnresolvedReference")))))
        }
        "typereference" => Some(Type::Reference(Rc::from("UnresolvedReference"))),
        other => crate::literal::builtin_type(other),
    }
}

/// `The expression <TEXT> is not a valid type specification.`
fn invalid_text(text: &str) -> Error {
    Error::new(format!("The expression <{text}> is not a valid type specification."))
}

/// `Invalid number of type parameters specified: TYPE requires REQUIRED, N provided`.
fn arity(type_name: &str, required: &str, given: usize) -> Error {
    Error::new(format!(
        "Invalid number of type parameters specified: {type_name} requires {required}, {given} provided"
    ))
}

/// A type factory error as the parser reports it: without the prefix the evaluator's access
/// operator gives the same Ruby exception.
fn factory<T>(r: Result<T>) -> Result<T> {
    r.map_err(|e| match e.message.strip_prefix("Error while evaluating a '[]' expression, ") {
        Some(m) => Error::new(m),
        None => e,
    })
}

/// Ruby 3.1's `NoMethodError` of a factory line, with the source line and caret its
/// error_highlight adds and the did_you_mean suggestions.
fn no_method(method: &str, receiver: &Value, line: &str, caret: &str) -> Error {
    let suggestions = poppet_ruby::did_you_mean::suggestions(&ruby_class(receiver), method);
    Error::new(format!("undefined method `{method}' for {}\n\n{line}\n{caret}{suggestions}", ruby_receiver(receiver)))
}

/// `interpret_UnaryMinusExpression`: Ruby's `-@` of the value (a string is itself).
fn negate(v: Value) -> Result<Value> {
    Ok(match &v {
        Value::Integer(n) => match n.checked_neg() {
            Some(m) => Value::Integer(m),
            None => Value::BigInt(Rc::new(-num_bigint::BigInt::from(*n))),
        },
        Value::BigInt(b) => match Int::from_big(-(**b).clone()) {
            Int::Small(n) => Value::Integer(n),
            Int::Big(b) => Value::BigInt(b),
        },
        Value::Float(f) => Value::Float(-f),
        Value::String(_) => v.clone(),
        other => {
            return Err(no_method("-@", other, "    -@type_transformer.visit_this_1(self, o.expr, context)", "    ^"))
        }
    })
}

/// Where Puppet's locator ends a node: a parenthesised expression's extent stops at its inner
/// expression (the closing parenthesis is not its own), and a node ending with its last part
/// ends where that part does.
fn puppet_end(e: &Expr, depth: usize) -> usize {
    if depth > MAX_DEPTH {
        return e.span.end;
    }
    match &e.kind {
        ExprKind::Paren(inner) => return puppet_end(inner, depth + 1),
        ExprKind::Block(stmts) => {
            if let Some(last) = stmts.last() {
                return puppet_end(last, depth + 1);
            }
        }
        _ => {}
    }
    let mut last: Option<&Expr> = None;
    e.for_each_sub_expr(&mut |c| {
        if last.is_none_or(|l| c.span.end >= l.span.end) {
            last = Some(c);
        }
    });
    match last {
        Some(l) if l.span.end == e.span.end => puppet_end(l, depth + 1),
        _ => e.span.end,
    }
}

fn is_default(v: &Value) -> bool {
    matches!(v, Value::Default) || v.as_str() == Some("default")
}

/// `TypeFactory.is_range_parameter?`: an integer, or `default` (also the string).
fn is_range_parameter(v: &Value) -> bool {
    v.is_integer() || is_default(v)
}

/// An Array or Hash of size `0..0` holds Unit, as Puppet makes it.
fn collection(t: Type) -> Type {
    let empty = |s: &Option<Size>| s.as_ref() == Some(&Size::exact(0));
    match t {
        Type::Array { ref size, .. } if empty(size) => {
            Type::Array { element: Some(Rc::new(Type::Unit)), size: size.clone() }
        }
        Type::Hash { ref size, .. } if empty(size) => {
            Type::Hash { key: Some(Rc::new(Type::Unit)), value: Some(Rc::new(Type::Unit)), size: size.clone() }
        }
        t => t,
    }
}

/// An Integer type as a size: a lower bound below 0 (or none) is 0.
fn size_of(t: &Type) -> Size {
    match t {
        Type::Integer { from, to } => {
            Size { from: from.clone().filter(|f| !f.is_negative()).unwrap_or(Int::Small(0)), to: to.clone() }
        }
        _ => Size::ANY,
    }
}

/// `TypeFactory.range(from, to)` as a size.
fn size_of_range(from: &Value, to: &Value) -> Result<Size> {
    Ok(size_of(&range(from, to)?))
}

/// `TypeFactory.range(from, to)`: a `'default'` string is `:default` as the upper bound, and
/// `false` as the lower one (`from = :default == from`), which `PIntegerType.new` then fails
/// to compare.
fn range(from: &Value, to: &Value) -> Result<Type> {
    let from = if from.as_str() == Some("default") { Value::Boolean(false) } else { from.clone() };
    let to = if to.as_str() == Some("default") { Value::Default } else { to.clone() };
    integer_range(&from, &to)
}

/// A bound as `PNumericType#initialize` holds it: `nil` and `:default` are infinite.
#[derive(Clone)]
enum Bound {
    Int(Int),
    Float(f64),
    Other(Value),
}

impl Bound {
    fn of(v: &Value, infinity: f64) -> Bound {
        match v {
            Value::Undef | Value::Default => Bound::Float(infinity),
            Value::Integer(_) | Value::BigInt(_) => v.as_int().map_or(Bound::Float(infinity), Bound::Int),
            Value::Float(f) => Bound::Float(*f),
            other => Bound::Other(other.clone()),
        }
    }

    /// Ruby's `to_s` in the order error.
    fn to_s(&self) -> String {
        match self {
            Bound::Int(n) => n.to_string(),
            Bound::Float(f) => crate::display::float_to_s(*f),
            Bound::Other(v) => crate::new::ruby::to_s(v),
        }
    }

    fn as_f64(&self) -> Option<f64> {
        match self {
            Bound::Int(n) => Some(n.to_f64()),
            Bound::Float(f) => Some(*f),
            Bound::Other(_) => None,
        }
    }
}

/// How `rb_cmperr` names the other operand: special constants and floats by `inspect`, other
/// objects by class.
fn cmperr_name(b: &Bound) -> String {
    match b {
        Bound::Int(Int::Small(n)) => n.to_string(),
        Bound::Int(Int::Big(_)) => "Integer".into(),
        Bound::Float(f) => crate::display::float_to_s(*f),
        Bound::Other(v @ (Value::Boolean(_) | Value::Undef)) => crate::params::ruby_inspect(v),
        Bound::Other(v) => ruby_class(v),
    }
}

/// Ruby's `from > to` on the bounds.
fn greater(from: &Bound, to: &Bound) -> Result<bool> {
    let failed = |class: &str| Error::new(format!("comparison of {class} with {} failed", cmperr_name(to)));
    match from {
        Bound::Int(a) => match to {
            Bound::Int(b) => Ok(a > b),
            Bound::Float(f) => Ok(a.to_f64() > *f),
            Bound::Other(_) => Err(failed("Integer")),
        },
        Bound::Float(a) => match to.as_f64() {
            Some(b) => Ok(*a > b),
            None => Err(failed("Float")),
        },
        Bound::Other(Value::String(a)) => match to {
            Bound::Other(Value::String(b)) => Ok(a.as_bytes() > b.as_bytes()),
            _ => Err(failed("String")),
        },
        Bound::Other(v) => Err(no_method(
            ">",
            v,
            "    raise ArgumentError, \"'from' must be less or equal to 'to'. Got (#{from}, #{to}\" if from > to",
            &format!("{}^", " ".repeat(93)),
        )),
    }
}

/// `PIntegerType.new(from, to)`.
fn integer_range(from: &Value, to: &Value) -> Result<Type> {
    let (f, t) = (Bound::of(from, f64::NEG_INFINITY), Bound::of(to, f64::INFINITY));
    if greater(&f, &t)? {
        return Err(Error::new(format!("'from' must be less or equal to 'to'. Got ({}, {}", f.to_s(), t.to_s())));
    }
    let bound = |b: &Bound| -> Option<IntBound> {
        match b {
            Bound::Int(n) => Some(Some(n.clone())),
            Bound::Float(f) if f.is_infinite() => Some(None),
            _ => None,
        }
    };
    match (bound(&f), bound(&t)) {
        (Some(from), Some(to)) => Ok(Type::Integer { from, to }),
        _ => Err(Error::new(format!(
            "An Integer type with the bounds ({}, {}) is not supported: Puppet keeps them as they are",
            f.to_s(),
            t.to_s()
        ))),
    }
}

/// `TypeFactory.float_range(from, to)`: `Kernel#Float` of each bound, then `PFloatType.new`.
fn float_range(from: &Value, to: &Value) -> Result<Type> {
    let float = |v: &Value, infinity: f64| -> Result<f64> {
        match v {
            Value::Undef | Value::Default => Ok(infinity),
            Value::Integer(n) => Ok(*n as f64),
            Value::BigInt(_) => Ok(v.as_int().map_or(infinity, |n| n.to_f64())),
            Value::Float(f) => Ok(*f),
            Value::String(s) => crate::new::ruby::parse_float(s)
                .map_err(|()| Error::new(format!("invalid value for Float(): {}", crate::new::ruby::inspect_str(s)))),
            Value::Boolean(b) => Err(Error::new(format!("can't convert {b} into Float"))),
            other => Err(Error::new(format!("can't convert {} into Float", ruby_class(other)))),
        }
    };
    let (f, t) = (float(from, f64::NEG_INFINITY)?, float(to, f64::INFINITY)?);
    if f > t {
        return Err(Error::new(format!(
            "'from' must be less or equal to 'to'. Got ({}, {}",
            crate::display::float_to_s(f),
            crate::display::float_to_s(t)
        )));
    }
    Ok(Type::Float { from: f, to: t })
}

/// `TypeFactory.pattern(*regular_expressions)`.
fn pattern(p: &[Value]) -> Result<Type> {
    crate::params::pattern_from(p, Error::new, |other| {
        Err(Error::new(format!(
            "Only String, Regexp, Pattern-Type, and Regexp-Type are allowed: got '{}",
            ruby_class(other)
        )))
    })
}

/// `TypeFactory.uri(param)`: a string or a hash of parts; anything else leaves it
/// unparameterised.
fn uri(v: &Value) -> Result<Type> {
    match v {
        Value::String(_) => factory(crate::params::uri(v)),
        Value::Hash(h) if h.is_empty() => Ok(Type::Uri(None)),
        Value::Hash(_) => factory(crate::params::uri(v)),
        _ => Ok(Type::Uri(None)),
    }
}

/// `TypeFactory.callable(*params)`: `[params], return`, or the parameters' types, then an
/// optional size (one or two range parameters) and an optional block type.
fn callable(p: &[Value]) -> Result<Type> {
    let (mut params, return_type) = match p {
        [Value::Array(params), ret] => (params.to_vec(), Some(crate::params::type_of(ret))),
        _ => (p.to_vec(), None),
    };
    let block = match params.last() {
        Some(Value::Type(t)) if crate::params::is_kind_of_callable(t) => {
            let b = t.clone();
            params.pop();
            Some(b)
        }
        _ => None,
    };
    let n = params.len();
    let (types, size) = if n >= 2 && is_range_parameter(&params[n - 2]) && is_range_parameter(&params[n - 1]) {
        (&params[..n - 2], Some(size_of_range(&params[n - 2], &params[n - 1])?))
    } else if n >= 1 && is_range_parameter(&params[n - 1]) {
        (&params[..n - 1], Some(size_of_range(&params[n - 1], &Value::Default)?))
    } else {
        (&params[..], None)
    };
    let mut types: Vec<Type> = types.iter().map(crate::params::type_of).collect();
    if types.is_empty() && size.as_ref().is_some_and(|s| s.to.as_ref().is_none_or(|to| *to > 0)) {
        types.push(Type::Unit);
    }
    let tuple = Type::Tuple { types: types.into(), size };
    let return_type = return_type.filter(|t| *t != Type::Any).map(Rc::new);
    Ok(Type::Callable(Rc::new(crate::ty::CallableType { params: Some(Rc::new(tuple)), block, return_type })))
}

/// `TypeFactory.runtime(runtime, name)` and `PRuntimeType`'s assertions.
fn runtime_type(runtime: &Value, name: &Value) -> Result<Type> {
    let runtime = match runtime {
        Value::String(s) => s.clone(),
        other => {
            return Err(Error::new(crate::mismatch::describe_value(
                "Runtime 'runtime' has wrong type,",
                &Type::STRING,
                other,
            )))
        }
    };
    let name = match name {
        Value::String(s) => RuntimeName::Name(s.clone()),
        Value::Array(a) => match a.as_slice() {
            [Value::Regexp(r), Value::String(s)] => RuntimeName::Pattern(r.clone(), s.clone()),
            _ => return Err(runtime_name_mismatch(name)),
        },
        _ => return Err(runtime_name_mismatch(name)),
    };
    Ok(Type::Runtime { runtime: Some(runtime), name: Some(name) })
}

fn runtime_name_mismatch(v: &Value) -> Error {
    let expected = Type::variant(vec![
        Type::STRING,
        Type::Tuple { types: Rc::from([Type::Regexp(None), Type::STRING]), size: None },
    ]);
    Error::new(crate::mismatch::describe_value("Runtime 'name_or_pattern' has wrong type,", &expected, v))
}

/// `TypeFactory.resource(type_name, title)`.
fn resource(name: &Value, title: Option<&Value>) -> Result<Type> {
    let title = match title {
        None | Some(Value::Undef) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => Some(Rc::from(crate::new::ruby::to_s(other))),
    };
    match name {
        Value::Type(t) => match &**t {
            Type::Resource { type_name, .. } => Ok(Type::Resource { type_name: type_name.clone(), title }),
            _ => Err(Error::new(format!("The type name cannot be a {}", ruby_class(name)))),
        },
        Value::String(s) => {
            let name = crate::display::capitalize_segments(s);
            if !crate::params::is_classref_ext(&name) {
                return Err(Error::new(format!("Illegal type name '{name}'")));
            }
            Ok(Type::Resource { type_name: Some(Rc::from(name)), title })
        }
        Value::Undef if title.is_some() => Err(Error::new("The type name cannot be nil, if title is given")),
        Value::Undef => Ok(Type::Resource { type_name: None, title: None }),
        other => Err(Error::new(format!("The type name cannot be a {}", ruby_class(other)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(src: &str) -> String {
        parse(src, &StaticLoader).map(|t| t.to_string()).unwrap_or_else(|e| format!("error: {}", e.message))
    }

    #[test]
    fn types() {
        assert_eq!(ok("Integer[1,2]"), "Integer[1, 2]");
        assert_eq!(ok("Foo"), "TypeReference['Foo']");
        assert_eq!(ok("Foo[1]"), "TypeReference['Foo[1]']");
        assert_eq!(ok("Error[a]"), "TypeReference['Error[a]']");
        assert_eq!(ok("Data"), "Data");
        assert_eq!(ok("File[a]"), "File['a']");
        assert_eq!(ok("Tuple[Integer, a]"), "Tuple[Integer, Runtime[ruby, 'a']]");
        assert_eq!(ok("Integer[99999999999999999999]"), "Integer[99999999999999999999]");
    }

    #[test]
    fn errors() {
        assert_eq!(
            ok("Integer[1,2,3]"),
            "error: Invalid number of type parameters specified: Integer requires 1 or 2, 3 provided"
        );
        assert_eq!(ok("Any[1]"), "error: Not a parameterized type <Any>");
        assert_eq!(ok("Enum[1]"), "error: Enum parameters must be identifiers or strings");
        assert_eq!(ok("Boolean[1]"), "error: Boolean parameter must be true or false");
        assert_eq!(ok("Integer['a']"), "error: The expression <Integer['a']> is not a valid type specification.");
        assert_eq!(ok("Integer[(1)]"), "error: The expression <(1> is not a valid type specification.");
        assert_eq!(ok("Integer[3, 1]"), "error: 'from' must be less or equal to 'to'. Got (3, 1");
        assert_eq!(ok("Integer[a, 1]"), "error: comparison of String with 1 failed");
        assert_eq!(ok(" "), "error: The expression <> is not a valid type specification.");
    }

    #[test]
    fn any_input_is_an_answer() {
        let deep = format!("{}Integer{}", "Array[".repeat(2000), "]".repeat(2000));
        let _ = parse(&deep, &StaticLoader);
        let deep = format!("Integer[{}1{}]", "(".repeat(300), ")".repeat(300));
        let _ = parse(&deep, &StaticLoader);
        let full = "Struct[{a => Callable[[Integer, 1, default], Optional[a]], Optional[b] => Tuple[Enum[x, true],                     Pattern[/a/, 'b'], Resource[Foo[a]], -1, default]}]";
        // every prefix and every piece with one character dropped
        for i in 0..full.len() {
            if full.is_char_boundary(i) {
                let _ = parse(&full[..i], &StaticLoader);
                let _ = parse(&format!("{}{}", &full[..i], &full[i + 1..]), &StaticLoader);
            }
        }
        for s in
            ["Init[]", "Tuple[", "Resource[Foo[]]", "Resource[Foo[a][b]]", "Integer[-9223372036854775808]", "--", "*"]
        {
            let _ = parse(s, &StaticLoader);
        }
    }

    #[test]
    fn syntax_errors_keep_their_position() {
        let e = parse("Enum[]", &StaticLoader).err();
        assert_eq!(e.as_ref().map(|e| e.message.as_str()), Some("Syntax error at ']' (line: 1, column: 6)"));
        assert_eq!(e.map(|e| e.positioned), Some(true));
        let e = parse("Integer[1", &StaticLoader).err();
        assert_eq!(e.map(|e| (e.message, e.positioned)), Some(("Syntax error at end of input".into(), false)));
    }
}
