//! Ruby's objects as templates see them: `nil`, booleans, integers, floats, strings
//! (mutable, maybe frozen), symbols, arrays and hashes (mutable, shared by reference),
//! ranges, regexps, match data, procs, classes, and Puppet's own objects (types,
//! `Sensitive`, time values, ...) carried as Puppet values.

use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::rc::Rc;

use indexmap::IndexMap;
use puppet_types::Value;

use crate::ast::BlockDef;
use crate::interp::Env;

#[derive(Clone, Debug)]
pub enum RValue {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Rc<RStr>),
    Sym(Rc<str>),
    Array(Rc<RArray>),
    Hash(Rc<RHash>),
    Range(Rc<RRange>),
    Regexp(Rc<RRegexp>),
    Match(Rc<RMatch>),
    Proc(Rc<RProc>),
    /// A class (`String`, `Integer`, ...), by name.
    Class(Rc<str>),
    /// An enumerator: a method called without its block (`each_with_index`, `map`, ...),
    /// to be run when the enumerator is used.
    Enum(Rc<REnum>),
    /// A Ruby exception: its class and message.
    Exception(Rc<RException>),
    /// One of Puppet's objects that has no Ruby core class (a type, `Sensitive`, ...).
    Puppet(Value),
    /// Puppet's `scope`.
    Scope,
    /// The template itself (`self`: Puppet's `TemplateWrapper`).
    Wrapper,
}

#[derive(Debug, Default)]
pub struct RStr {
    pub s: RefCell<String>,
    pub frozen: Cell<bool>,
}

#[derive(Debug, Default)]
pub struct RArray {
    pub v: RefCell<Vec<RValue>>,
    pub frozen: Cell<bool>,
}

#[derive(Debug, Default)]
pub struct RHash {
    pub map: RefCell<IndexMap<HKey, (RValue, RValue)>>,
    pub default: RefCell<Option<RValue>>,
    /// `Hash.new { |hash, key| ... }`
    pub default_proc: RefCell<Option<crate::interp::Block>>,
    pub frozen: Cell<bool>,
}

#[derive(Debug)]
pub struct RRange {
    pub lo: RValue,
    pub hi: RValue,
    pub exclusive: bool,
}

/// A regexp: Ruby's source and options (`i`, `m`, `x`), compiled by Puppet's engine.
#[derive(Debug, Clone)]
pub struct RRegexp {
    pub source: String,
    pub flags: String,
    pub re: puppet_types::regexp::Regexp,
}

/// A match: the subject, the regexp, and each group's byte range.
#[derive(Debug)]
pub struct RMatch {
    pub subject: Rc<str>,
    pub regexp: Rc<RRegexp>,
    pub groups: Vec<Option<(usize, usize)>>,
    pub names: Vec<(String, usize)>,
}

/// A proc: a block with the scope it was written in, or a method's name (`&:upcase`).
#[derive(Debug)]
pub enum RProc {
    Block(Rc<BlockDef>, Env),
    Symbol(Rc<str>),
}

#[derive(Debug)]
pub struct RException {
    pub class: &'static str,
    pub message: String,
}

/// Ruby's exception classes a template can name, each with its superclass.
pub const EXCEPTIONS: &[(&str, &str)] = &[
    ("Exception", "Object"),
    ("ScriptError", "Exception"),
    ("NotImplementedError", "ScriptError"),
    ("StandardError", "Exception"),
    ("RuntimeError", "StandardError"),
    ("FrozenError", "RuntimeError"),
    ("ArgumentError", "StandardError"),
    ("UncaughtThrowError", "ArgumentError"),
    ("Math::DomainError", "ArgumentError"),
    ("TypeError", "StandardError"),
    ("NameError", "StandardError"),
    ("NoMethodError", "NameError"),
    ("ZeroDivisionError", "StandardError"),
    ("IndexError", "StandardError"),
    ("KeyError", "IndexError"),
    ("StopIteration", "IndexError"),
    ("RangeError", "StandardError"),
    ("FloatDomainError", "RangeError"),
    ("RegexpError", "StandardError"),
    ("LocalJumpError", "StandardError"),
    ("SystemStackError", "Exception"),
    ("Puppet::Error", "RuntimeError"),
    ("Puppet::ParseError", "Puppet::Error"),
];

/// An exception class and the classes above it, up to `Exception`.
pub fn exception_ancestors(class: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut cur = class;
    while let Some((name, parent)) = EXCEPTIONS.iter().find(|(n, _)| *n == cur) {
        out.push(*name);
        cur = parent;
    }
    out
}

/// An enumerator: `recv.meth(*args)`, whose block is given later.
#[derive(Debug)]
pub struct REnum {
    pub recv: RValue,
    pub meth: Rc<str>,
    pub args: Vec<RValue>,
}

/// A hash key: what Ruby's `eql?` and `hash` compare (`1` and `1.0` differ; strings by
/// content).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HKey {
    Nil,
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(Rc<str>),
    Sym(Rc<str>),
    Array(Vec<HKey>),
    Hash(Vec<(HKey, HKey)>),
    Range(Box<HKey>, Box<HKey>, bool),
    Regexp(String, String),
    Class(Rc<str>),
    /// A Puppet object, by its printed form.
    Puppet(String),
    /// Anything else: by identity.
    Object(usize),
}

impl RValue {
    pub fn str(s: impl Into<String>) -> RValue {
        RValue::Str(Rc::new(RStr { s: RefCell::new(s.into()), frozen: Cell::new(false) }))
    }

    pub fn frozen_str(s: impl Into<String>) -> RValue {
        RValue::Str(Rc::new(RStr { s: RefCell::new(s.into()), frozen: Cell::new(true) }))
    }

    pub fn sym(s: &str) -> RValue {
        RValue::Sym(s.into())
    }

    pub fn array(v: Vec<RValue>) -> RValue {
        RValue::Array(Rc::new(RArray { v: RefCell::new(v), frozen: Cell::new(false) }))
    }

    pub fn hash(pairs: impl IntoIterator<Item = (RValue, RValue)>) -> RValue {
        let map = pairs.into_iter().map(|(k, v)| (k.key(), (k.hash_key_copy(), v))).collect();
        RValue::Hash(Rc::new(RHash { map: RefCell::new(map), ..RHash::default() }))
    }

    pub fn bool(b: bool) -> RValue {
        RValue::Bool(b)
    }

    pub fn truthy(&self) -> bool {
        !matches!(self, RValue::Nil | RValue::Bool(false))
    }

    pub fn is_nil(&self) -> bool {
        matches!(self, RValue::Nil)
    }

    /// The string's text (a copy), for strings.
    pub fn as_string(&self) -> Option<String> {
        match self {
            RValue::Str(s) => Some(s.s.borrow().clone()),
            _ => None,
        }
    }

    /// The elements (a copy), for arrays.
    pub fn as_vec(&self) -> Option<Vec<RValue>> {
        match self {
            RValue::Array(a) => Some(a.v.borrow().clone()),
            _ => None,
        }
    }

    /// The key Ruby's hashes file this value under.
    pub fn key(&self) -> HKey {
        self.key_depth(0)
    }

    fn key_depth(&self, depth: usize) -> HKey {
        if depth > 64 {
            return HKey::Object(self.identity());
        }
        match self {
            RValue::Nil => HKey::Nil,
            RValue::Bool(b) => HKey::Bool(*b),
            RValue::Int(i) => HKey::Int(*i),
            RValue::Float(f) => HKey::Float(if *f == 0.0 { 0 } else { f.to_bits() }),
            RValue::Str(s) => HKey::Str(s.s.borrow().as_str().into()),
            RValue::Sym(s) => HKey::Sym(s.clone()),
            RValue::Array(a) => HKey::Array(a.v.borrow().iter().map(|v| v.key_depth(depth + 1)).collect()),
            RValue::Hash(h) => {
                let mut pairs: Vec<(HKey, HKey)> =
                    h.map.borrow().iter().map(|(k, (_, v))| (k.clone(), v.key_depth(depth + 1))).collect();
                pairs.sort_by_key(|p| format!("{p:?}"));
                HKey::Hash(pairs)
            }
            RValue::Range(r) => {
                HKey::Range(Box::new(r.lo.key_depth(depth + 1)), Box::new(r.hi.key_depth(depth + 1)), r.exclusive)
            }
            RValue::Regexp(r) => HKey::Regexp(r.source.clone(), r.flags.clone()),
            RValue::Class(c) => HKey::Class(c.clone()),
            RValue::Puppet(v) => HKey::Puppet(format!("{v:?}")),
            _ => HKey::Object(self.identity()),
        }
    }

    /// What a hash keeps as a key: strings are copied and frozen, as Ruby's `Hash#[]=` does.
    pub fn hash_key_copy(&self) -> RValue {
        match self {
            RValue::Str(s) if !s.frozen.get() => RValue::frozen_str(s.s.borrow().clone()),
            other => other.clone(),
        }
    }

    /// An identity for objects compared by identity (`equal?`).
    pub fn identity(&self) -> usize {
        match self {
            RValue::Str(s) => Rc::as_ptr(s) as usize,
            RValue::Array(a) => Rc::as_ptr(a) as usize,
            RValue::Hash(h) => Rc::as_ptr(h) as usize,
            RValue::Range(r) => Rc::as_ptr(r) as usize,
            RValue::Regexp(r) => Rc::as_ptr(r) as usize,
            RValue::Match(m) => Rc::as_ptr(m) as usize,
            RValue::Proc(p) => Rc::as_ptr(p) as usize,
            RValue::Enum(e) => Rc::as_ptr(e) as usize,
            RValue::Exception(e) => Rc::as_ptr(e) as usize,
            _ => 0,
        }
    }

    /// Ruby's class name.
    pub fn class_name(&self) -> String {
        match self {
            RValue::Nil => "NilClass".into(),
            RValue::Bool(true) => "TrueClass".into(),
            RValue::Bool(false) => "FalseClass".into(),
            RValue::Int(_) => "Integer".into(),
            RValue::Float(_) => "Float".into(),
            RValue::Str(_) => "String".into(),
            RValue::Sym(_) => "Symbol".into(),
            RValue::Array(_) => "Array".into(),
            RValue::Hash(_) => "Hash".into(),
            RValue::Range(_) => "Range".into(),
            RValue::Regexp(_) => "Regexp".into(),
            RValue::Match(_) => "MatchData".into(),
            RValue::Proc(_) => "Proc".into(),
            RValue::Class(_) => "Class".into(),
            RValue::Enum(_) => "Enumerator".into(),
            RValue::Exception(e) => e.class.into(),
            RValue::Puppet(v) => puppet_types::params::ruby_class(v),
            RValue::Scope => "Puppet::Parser::Scope".into(),
            RValue::Wrapper => "Puppet::Parser::TemplateWrapper".into(),
        }
    }

    /// Ruby's class ancestry, for `is_a?` (the class first).
    pub fn ancestors(&self) -> Vec<String> {
        let own = self.class_name();
        if let RValue::Exception(e) = self {
            let mut list: Vec<String> = exception_ancestors(e.class).iter().map(|s| s.to_string()).collect();
            list.extend(["Object".to_string(), "Kernel".to_string(), "BasicObject".to_string()]);
            return list;
        }
        let mut list = vec![own.clone()];
        let extra: &[&str] = match self {
            RValue::Int(_) => &["Numeric", "Comparable"],
            RValue::Float(_) => &["Numeric", "Comparable"],
            RValue::Str(_) => &["Comparable"],
            RValue::Sym(_) => &["Comparable"],
            RValue::Array(_) | RValue::Hash(_) | RValue::Range(_) | RValue::Enum(_) => &["Enumerable"],
            RValue::Class(_) => &["Module"],
            _ => &[],
        };
        list.extend(extra.iter().map(|s| s.to_string()));
        if let RValue::Puppet(v) = self {
            list.extend(puppet_ancestors(v));
        }
        list.extend(["Object".to_string(), "Kernel".to_string(), "BasicObject".to_string()]);
        list
    }
}

/// The classes above a Puppet object's own (types are `PAnyType`s).
fn puppet_ancestors(v: &Value) -> Vec<String> {
    match v {
        Value::Type(_) => vec!["Puppet::Pops::Types::PAnyType".into()],
        _ => Vec::new(),
    }
}

// ---- printing ---------------------------------------------------------------------------

/// How deep `inspect` and `==` descend (a bound for the stack; Ruby's own is far deeper).
pub const MAX_NESTING: usize = 512;

/// Ruby's `Symbol#inspect`: `:name`, or `:"..."` when the name is not a plain one.
pub fn symbol_inspect(name: &str) -> String {
    const OPERATORS: &[&str] = &[
        "[]", "[]=", "<=>", "==", "===", "=~", "!", "!=", "!~", "<", "<=", ">", ">=", "<<", ">>", "+", "-", "*", "/",
        "%", "**", "&", "|", "^", "~", "+@", "-@",
    ];
    let plain = {
        let body = name.strip_suffix(['?', '!', '=']).unwrap_or(name);
        let ident = !body.is_empty()
            && body.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_' || !c.is_ascii())
            && body.chars().all(|c| c.is_alphanumeric() || c == '_' || !c.is_ascii());
        let prefixed = |p: &str| {
            name.strip_prefix(p).is_some_and(|rest| {
                !rest.is_empty()
                    && rest.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
                    && rest.chars().all(|c| c.is_alphanumeric() || c == '_')
            })
        };
        ident && !(name.ends_with('=') && (name.ends_with("?=") || name.ends_with("!=")))
            || OPERATORS.contains(&name)
            || prefixed("@@")
            || prefixed("@")
            || prefixed("$")
    };
    if plain {
        format!(":{name}")
    } else {
        format!(":{}", poppet_ruby::string::inspect(name))
    }
}

/// Ruby's `Regexp#inspect`: `/source/flags`.
pub fn regexp_inspect(r: &RRegexp) -> String {
    let mut out = String::from("/");
    let mut escaped = false;
    for c in r.source.chars() {
        if c == '/' && !escaped {
            out.push('\\');
        }
        escaped = c == '\\' && !escaped;
        out.push(c);
    }
    out.push('/');
    for f in ['m', 'i', 'x'] {
        if r.flags.contains(f) {
            out.push(f);
        }
    }
    out
}

/// Ruby's `Regexp#to_s`: `(?flags-flags:source)`.
pub fn regexp_to_s(r: &RRegexp) -> String {
    let on: String = ['m', 'i', 'x'].iter().filter(|f| r.flags.contains(**f)).collect();
    let off: String = ['m', 'i', 'x'].iter().filter(|f| !r.flags.contains(**f)).collect();
    if off.is_empty() {
        format!("(?{on}:{})", r.source)
    } else {
        format!("(?{on}-{off}:{})", r.source)
    }
}

/// Writes Ruby's `inspect` of `v`; `printer` prints Puppet's objects (`None`: they have no
/// form this crate can reproduce).
pub fn write_inspect(out: &mut String, v: &RValue, seen: &mut Vec<usize>, printer: &dyn Printer) -> Result<(), String> {
    if seen.len() > MAX_NESTING {
        return Err("nesting of more than 512 levels".into());
    }
    match v {
        RValue::Nil => out.push_str("nil"),
        RValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        RValue::Int(i) => {
            let _ = write!(out, "{i}");
        }
        RValue::Float(f) => out.push_str(&poppet_ruby::float::float_to_s(*f)),
        RValue::Str(s) => out.push_str(&poppet_ruby::string::inspect(&s.s.borrow())),
        RValue::Sym(s) => out.push_str(&symbol_inspect(s)),
        RValue::Array(a) => {
            let id = v.identity();
            if seen.contains(&id) {
                out.push_str("[...]");
                return Ok(());
            }
            seen.push(id);
            out.push('[');
            let items = a.v.borrow().clone();
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_inspect(out, item, seen, printer)?;
            }
            out.push(']');
            seen.pop();
        }
        RValue::Hash(h) => {
            let id = v.identity();
            if seen.contains(&id) {
                out.push_str("{...}");
                return Ok(());
            }
            seen.push(id);
            out.push('{');
            let pairs: Vec<(RValue, RValue)> = h.map.borrow().values().cloned().collect();
            for (i, (k, val)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_inspect(out, k, seen, printer)?;
                out.push_str("=>");
                write_inspect(out, val, seen, printer)?;
            }
            out.push('}');
            seen.pop();
        }
        RValue::Range(r) => {
            if !r.lo.is_nil() {
                write_inspect(out, &r.lo, seen, printer)?;
            }
            out.push_str(if r.exclusive { "..." } else { ".." });
            if !r.hi.is_nil() {
                write_inspect(out, &r.hi, seen, printer)?;
            }
        }
        RValue::Regexp(r) => out.push_str(&regexp_inspect(r)),
        RValue::Match(m) => {
            out.push_str("#<MatchData ");
            let whole = m.group(0).unwrap_or_default();
            out.push_str(&poppet_ruby::string::inspect(&whole));
            for i in 1..m.groups.len() {
                let name = m.names.iter().find(|(_, n)| *n == i).map_or(i.to_string(), |(s, _)| s.clone());
                let _ = write!(out, " {name}:");
                match m.group(i) {
                    Some(g) => out.push_str(&poppet_ruby::string::inspect(&g)),
                    None => out.push_str("nil"),
                }
            }
            out.push('>');
        }
        RValue::Class(c) => out.push_str(c),
        RValue::Puppet(p) => {
            out.push_str(&printer.inspect(p).ok_or_else(|| format!("`inspect` of a {}", v.class_name()))?)
        }
        RValue::Scope => out.push_str(&printer.scope_to_s()),
        RValue::Exception(e) => {
            if e.message.is_empty() {
                out.push_str(e.class);
            } else {
                let _ = write!(out, "#<{}: {}>", e.class, e.message);
            }
        }
        RValue::Proc(_) | RValue::Wrapper | RValue::Enum(_) => {
            return Err(format!("`inspect` of a {}", v.class_name()))
        }
    }
    Ok(())
}

/// How Puppet's objects print, which only Puppet's side knows.
pub trait Printer {
    /// Ruby's `to_s` of a Puppet object.
    fn to_s(&self, v: &Value) -> String;
    /// Ruby's `inspect` of a Puppet object, `None` when it shows an object's address.
    fn inspect(&self, v: &Value) -> Option<String>;
    /// `Scope(Class[main])`
    fn scope_to_s(&self) -> String;
}

impl RMatch {
    /// The text of group `i`, `None` when it did not take part.
    pub fn group(&self, i: usize) -> Option<String> {
        let (s, e) = (*self.groups.get(i)?)?;
        self.subject.get(s..e).map(str::to_string)
    }
}
