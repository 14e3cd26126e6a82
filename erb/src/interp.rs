//! The interpreter: runs a parsed template against a [`Host`] (Puppet's scope), writing
//! what the template writes. Ruby's semantics for what it runs: locals in scopes that
//! blocks close over, instance variables from Puppet's variables, `break`/`next`, method
//! calls dispatched on the receiver's class ([`crate::methods`]).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use puppet_types::Value;

use crate::ast::{BlockDef, Body, Call, Node, Param, RegexpLit, Seg, Target};
use crate::error::{Error, Kind, Result};
use crate::value::{write_inspect, Printer, RProc, RRange, RRegexp, RValue};

/// What a template reaches of Puppet: its scope's variables and functions, and how Puppet's
/// objects print.
pub trait Host: Printer {
    /// A variable (`scope['x']`, `scope.lookupvar('x')`): `None` when it is unknown (Puppet
    /// warns about that; the host does).
    fn lookupvar(&mut self, name: &str) -> std::result::Result<Option<Value>, Error>;
    /// The variables of the calling scope, as `scope.to_hash` lists them (those set to
    /// `undef` left out): the template's instance variables.
    fn variables(&mut self) -> Vec<(String, Value)>;
    /// `scope.setvar(name, value)`: binds a variable in the calling scope (Puppet's error
    /// when it is bound already). `object` is the Ruby array, hash or string itself, which
    /// Puppet keeps: later templates reading the variable get that object, changes included.
    fn setvar(&mut self, name: &str, value: Value, object: Option<RValue>) -> std::result::Result<(), Error>;
    /// Replaces a variable's value: the template changed the array or hash it was given
    /// (Puppet's variable holds that very object, so it changes too).
    fn write_back(&mut self, name: &str, original: &Value, value: Value);
    /// The Ruby object a template stored in variable `name` with `setvar`, while the
    /// variable still holds it.
    fn ruby_object(&mut self, name: &str) -> Option<RValue>;
    /// Whether a variable is defined (`has_variable?`).
    fn has_variable(&mut self, name: &str) -> bool;
    /// Calls a Puppet function: `scope.call_function(name, args)` (any function), or, when
    /// `legacy`, `scope.function_NAME(args)` (which only finds functions of the 3.x API:
    /// `None` when there is none).
    fn call_function(
        &mut self,
        name: &str,
        args: Vec<Value>,
        legacy: bool,
    ) -> std::result::Result<Option<Value>, Error>;
    /// Ruby's `to_yaml` (Psych's document) of a value.
    fn to_yaml(&mut self, value: Value) -> std::result::Result<String, Error>;
    /// Ruby's `Kernel#format` of Puppet values.
    fn format(&mut self, format: &str, args: Vec<Value>) -> std::result::Result<String, Error>;
    /// Logs a message at a Puppet log level (`warning('...')` in a template).
    fn log(&mut self, level: &str, message: &str);
    /// The template's file (`file`, `@__file__`), `None` for an inline template.
    fn file(&self) -> Option<String>;
    /// Whether the user asked to stop (checked every few thousand steps).
    fn interrupted(&mut self) -> bool;
}

/// A scope of local variables; a block's scope has the enclosing one as parent.
#[derive(Debug, Default)]
pub struct Frame {
    vars: RefCell<HashMap<Rc<str>, RValue>>,
    parent: Option<Env>,
}

pub type Env = Rc<Frame>;

impl Frame {
    pub fn child(parent: &Env) -> Env {
        Rc::new(Frame { vars: RefCell::default(), parent: Some(parent.clone()) })
    }

    pub fn get(&self, name: &str) -> Option<RValue> {
        if let Some(v) = self.vars.borrow().get(name) {
            return Some(v.clone());
        }
        self.parent.as_ref().and_then(|p| p.get(name))
    }

    /// Assigns where the variable lives, or here when it is new.
    pub fn set(&self, name: &Rc<str>, value: RValue) {
        let mut frame = self;
        loop {
            if frame.vars.borrow().contains_key(name) {
                frame.vars.borrow_mut().insert(name.clone(), value);
                return;
            }
            match &frame.parent {
                Some(p) => frame = p,
                None => break,
            }
        }
        self.vars.borrow_mut().insert(name.clone(), value);
    }

    fn set_here(&self, name: &Rc<str>, value: RValue) {
        self.vars.borrow_mut().insert(name.clone(), value);
    }
}

/// A block handed to a method.
#[derive(Clone)]
pub enum Block {
    Def(Rc<BlockDef>, Env),
    /// `&:name`
    Sym(Rc<str>),
    /// A block of the interpreter's own (what an enumerator gives the method it runs).
    Native(Rc<NativeBlock>),
}

/// A block written in Rust: called with the values yielded.
pub type NativeBlock = dyn Fn(&mut Interp<'_>, Vec<RValue>) -> R<RValue>;

impl std::fmt::Debug for Block {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Block::Def(def, _) => write!(f, "Block({def:?})"),
            Block::Sym(s) => write!(f, "Block(&:{s})"),
            Block::Native(_) => f.write_str("Block(native)"),
        }
    }
}

/// How evaluation leaves the normal path: an error, or `break`/`next` on its way to the
/// loop or block it ends.
#[derive(Debug)]
pub enum Ctrl {
    Error(Error),
    Break(RValue),
    Next(RValue),
    /// `return`: the template's value.
    Return(RValue),
    /// `retry`: runs the `begin` body again.
    Retry,
}

impl From<Error> for Ctrl {
    fn from(e: Error) -> Ctrl {
        Ctrl::Error(e)
    }
}

pub type R<T> = std::result::Result<T, Ctrl>;

/// A Ruby exception as a [`Ctrl`].
pub fn raise<T>(class: &'static str, message: impl Into<String>) -> R<T> {
    Err(Ctrl::Error(Error::ruby(class, message)))
}

/// Ruby the interpreter does not run, as a [`Ctrl`].
pub fn unsupported<T>(what: impl Into<String>) -> R<T> {
    Err(Ctrl::Error(Error { kind: Kind::Unsupported, message: what.into(), at: None, origin: None }))
}

/// How many steps a template may take (a loop that never ends stops with an error).
pub const MAX_STEPS: u64 = 20_000_000;
/// How deep procs may call procs.
const MAX_CALL_DEPTH: usize = 200;
/// The longest string (in bytes) or array a template may build.
pub const MAX_LEN: usize = 1 << 26;

pub struct Interp<'h> {
    pub host: &'h mut dyn Host,
    pub ivars: HashMap<Rc<str>, RValue>,
    out: String,
    steps: u64,
    call_depth: usize,
    /// `$~`: the last match of `=~`, `match` and friends.
    pub last_match: RValue,
    /// `$!`: the exception being rescued.
    pub last_error: Option<RValue>,
    /// The Puppet variables the template was given arrays and hashes of: name, value, and
    /// the Ruby object made of it.
    pub puppet_variables: Vec<(String, Value, RValue)>,
    /// The methods the template defined (`def`).
    methods: HashMap<Rc<str>, Rc<BlockDef>>,
    /// How many of those methods are running: their code does not see the template's
    /// output (ERB's `_erbout` is a local of the template).
    in_method: usize,
}

impl<'h> Interp<'h> {
    pub fn new(host: &'h mut dyn Host) -> Interp<'h> {
        Interp {
            host,
            ivars: HashMap::new(),
            out: String::new(),
            steps: 0,
            call_depth: 0,
            last_match: RValue::Nil,
            last_error: None,
            puppet_variables: Vec::new(),
            methods: HashMap::new(),
            in_method: 0,
        }
    }

    /// Runs a template's code; what it wrote.
    pub fn run(mut self, body: &Body) -> Result<String> {
        let env: Env = Rc::default();
        let result = self.eval_body(body, &env);
        self.write_back();
        match result {
            Ok(_) => Ok(std::mem::take(&mut self.out)),
            Err(Ctrl::Return(v)) => {
                // the template's value is what `return` gives: Puppet joins it into the output
                match self.send(&RValue::array(vec![v]), "join", Vec::new(), None) {
                    Ok(s) => Ok(s.as_string().unwrap_or_default()),
                    Err(Ctrl::Error(e)) => Err(e),
                    Err(_) => Ok(String::new()),
                }
            }
            Err(Ctrl::Error(e)) => Err(e),
            Err(Ctrl::Break(_)) => Err(Error::syntax("Invalid break", 0)),
            Err(Ctrl::Next(_)) => Err(Error::syntax("Invalid next", 0)),
            Err(Ctrl::Retry) => Err(Error::syntax("Invalid retry", 0)),
        }
    }

    /// Hands Puppet the variables whose arrays and hashes the template changed.
    fn write_back(&mut self) {
        for (name, original, object) in std::mem::take(&mut self.puppet_variables) {
            if let Ok(now) = crate::bridge::to_puppet(&object) {
                if now != original {
                    self.host.write_back(&name, &original, now);
                }
            }
        }
    }

    /// Counts a step; stops runaway loops and honours interrupts.
    pub fn step(&mut self) -> R<()> {
        self.steps += 1;
        if self.steps.is_multiple_of(4096) {
            if self.host.interrupted() {
                return Err(Ctrl::Error(Error::puppet("interrupted")));
            }
            if self.steps > MAX_STEPS {
                return unsupported(format!("running more than {MAX_STEPS} steps (a loop that does not end?)"));
            }
        }
        Ok(())
    }

    pub fn eval_body(&mut self, body: &[Node], env: &Env) -> R<RValue> {
        let mut last = RValue::Nil;
        for node in body {
            self.step()?;
            last = self.eval(node, env)?;
        }
        Ok(last)
    }

    pub fn eval(&mut self, node: &Node, env: &Env) -> R<RValue> {
        Ok(match node {
            Node::Nil => RValue::Nil,
            Node::True => RValue::Bool(true),
            Node::False => RValue::Bool(false),
            Node::SelfRef => RValue::Wrapper,
            Node::Int(i) => RValue::Int(*i),
            Node::Float(f) => RValue::Float(*f),
            Node::Str(s) => RValue::str(s.to_string()),
            Node::DStr(segs) => RValue::str(self.interpolate(segs, env)?),
            Node::Sym(s) => RValue::Sym(s.clone()),
            Node::DSym(segs) => RValue::Sym(self.interpolate(segs, env)?.into()),
            Node::Regexp(lit) => RValue::Regexp(Rc::new(self.regexp(lit, env)?)),
            Node::Words(words, symbols) => RValue::array(
                words
                    .iter()
                    .map(|w| if *symbols { RValue::Sym(w.clone()) } else { RValue::str(w.to_string()) })
                    .collect(),
            ),
            Node::Array(items) => RValue::array(self.eval_list(items, env)?),
            Node::Hash(pairs) => {
                let mut out = Vec::with_capacity(pairs.len());
                for (k, v) in pairs {
                    let k = self.eval(k, env)?;
                    let v = self.eval(v, env)?;
                    out.push((k, v));
                }
                RValue::hash(out)
            }
            Node::Range(lo, hi, exclusive) => {
                let lo = self.eval(lo, env)?;
                let hi = self.eval(hi, env)?;
                let valid = matches!(
                    (&lo, &hi),
                    (RValue::Int(_) | RValue::Float(_), RValue::Int(_) | RValue::Float(_) | RValue::Nil)
                        | (RValue::Str(_), RValue::Str(_) | RValue::Nil)
                        | (RValue::Nil, _)
                );
                if !valid {
                    return raise("ArgumentError", "bad value for range");
                }
                RValue::Range(Rc::new(RRange { lo, hi, exclusive: *exclusive }))
            }
            Node::LVar(name) => env.get(name).unwrap_or(RValue::Nil),
            Node::IVar(name) => self.ivars.get(name).cloned().unwrap_or(RValue::Nil),
            Node::GVar(name, at) => self.gvar(name).map_err(|e| at_ctrl(e, *at))?,
            Node::Const(scope, name, at) => self.constant(scope.as_deref(), name, env).map_err(|e| at_ctrl(e, *at))?,
            Node::Asgn(target, value) => {
                let v = self.eval(value, env)?;
                self.assign(target, v.clone(), env)?;
                v
            }
            Node::OpAsgn(target, op, value, at) => self.op_assign(target, op, value, *at, env)?,
            Node::MultiAsgn(targets, value) => {
                let v = self.eval(value, env)?;
                let items = match &v {
                    RValue::Array(a) => a.v.borrow().clone(),
                    other => vec![other.clone()],
                };
                self.destructure(targets, items, env)?;
                v
            }
            Node::And(a, b) => {
                let l = self.eval(a, env)?;
                if l.truthy() {
                    self.eval(b, env)?
                } else {
                    l
                }
            }
            Node::Or(a, b) => {
                let l = self.eval(a, env)?;
                if l.truthy() {
                    l
                } else {
                    self.eval(b, env)?
                }
            }
            Node::Not(a) => {
                let v = self.eval(a, env)?;
                RValue::Bool(!v.truthy())
            }
            Node::Defined(inner) => self.defined(inner, env)?,
            Node::Call(call) => self.eval_call(call, env)?,
            Node::If(cond, then, otherwise) => {
                if self.eval(cond, env)?.truthy() {
                    self.eval_body(then, env)?
                } else {
                    self.eval_body(otherwise, env)?
                }
            }
            Node::While(cond, body, until) => {
                loop {
                    self.step()?;
                    if self.eval(cond, env)?.truthy() == *until {
                        break;
                    }
                    match self.eval_body(body, env) {
                        Ok(_) | Err(Ctrl::Next(_)) => {}
                        Err(Ctrl::Break(v)) => return Ok(v),
                        Err(e) => return Err(e),
                    }
                }
                RValue::Nil
            }
            Node::DoWhile(cond, body, until) => {
                loop {
                    self.step()?;
                    match self.eval_body(body, env) {
                        Ok(_) | Err(Ctrl::Next(_)) => {}
                        Err(Ctrl::Break(v)) => return Ok(v),
                        Err(e) => return Err(e),
                    }
                    if self.eval(cond, env)?.truthy() == *until {
                        break;
                    }
                }
                RValue::Nil
            }
            Node::Case(subject, whens, otherwise) => self.case(subject.as_deref(), whens, otherwise.as_ref(), env)?,
            Node::For(target, iter, body) => {
                let collection = self.eval(iter, env)?;
                let items = self.to_items(&collection)?;
                for item in items {
                    self.step()?;
                    self.assign(target, item, env)?;
                    match self.eval_body(body, env) {
                        Ok(_) | Err(Ctrl::Next(_)) => {}
                        Err(Ctrl::Break(v)) => return Ok(v),
                        Err(e) => return Err(e),
                    }
                }
                collection
            }
            Node::Seq(body) => self.eval_body(body, env)?,
            Node::Begin(b) => self.begin(b, env)?,
            Node::RescueMod(body, fallback) => match self.eval(body, env) {
                Err(Ctrl::Error(e)) if rescuable(&e, &["StandardError"]) => {
                    self.last_error = Some(exception_of(&e));
                    self.eval(fallback, env)?
                }
                other => other?,
            },
            Node::Retry => return Err(Ctrl::Retry),
            Node::Break(v) => {
                let v = match v {
                    Some(v) => self.eval(v, env)?,
                    None => RValue::Nil,
                };
                return Err(Ctrl::Break(v));
            }
            Node::Return(v) => {
                let v = match v {
                    Some(v) => self.eval(v, env)?,
                    None => RValue::Nil,
                };
                return Err(Ctrl::Return(v));
            }
            Node::MatchAsgn(re, value, names, at) => {
                let r = self.eval(re, env)?;
                let v = self.eval(value, env)?;
                let result = self.send(&r, "=~", vec![v], None).map_err(|e| at_ctrl(e, *at))?;
                for name in names {
                    let group = match &self.last_match {
                        RValue::Match(m) if !result.is_nil() => m
                            .names
                            .iter()
                            .find(|(n, _)| **n == **name)
                            .and_then(|(_, i)| m.group(*i))
                            .map_or(RValue::Nil, RValue::str),
                        _ => RValue::Nil,
                    };
                    env.set(name, group);
                }
                result
            }
            Node::Next(v) => {
                let v = match v {
                    Some(v) => self.eval(v, env)?,
                    None => RValue::Nil,
                };
                return Err(Ctrl::Next(v));
            }
            Node::Splat(_) | Node::BlockPass(_) => return unsupported("a splat outside an argument list"),
            Node::Lambda(def) => RValue::Proc(Rc::new(RProc::Block(def.clone(), env.clone()))),
            Node::Def(name, def) => {
                self.methods.insert(name.clone(), def.clone());
                RValue::Sym(name.clone())
            }
            Node::Text(_) | Node::Insert(..) if self.in_method > 0 => {
                let wrapper = crate::methods::WRAPPER_INSPECT;
                return raise("NameError", format!("undefined local variable or method `_erbout' for {wrapper}"));
            }
            Node::Text(s) => {
                self.out.push_str(s);
                RValue::Nil
            }
            Node::Insert(body, at) => {
                let v = self.eval_body(body, env)?;
                let s = self.to_s(&v).map_err(|e| at_ctrl(e, *at))?;
                if self.out.len() + s.len() > MAX_LEN {
                    return unsupported("output of more than 64 MiB");
                }
                self.out.push_str(&s);
                RValue::Nil
            }
        })
    }

    fn eval_list(&mut self, items: &[Node], env: &Env) -> R<Vec<RValue>> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Node::Splat(inner) => {
                    let v = self.eval(inner, env)?;
                    match v {
                        RValue::Array(a) => out.extend(a.v.borrow().iter().cloned()),
                        RValue::Nil => {}
                        RValue::Hash(_) | RValue::Range(_) => out.extend(self.to_items(&v)?),
                        other => out.push(other),
                    }
                }
                other => out.push(self.eval(other, env)?),
            }
        }
        Ok(out)
    }

    fn interpolate(&mut self, segs: &[Seg], env: &Env) -> R<String> {
        let mut s = String::new();
        for seg in segs {
            match seg {
                Seg::Lit(t) => s.push_str(t),
                Seg::Code(body) => {
                    let v = self.eval_body(body, env)?;
                    s.push_str(&self.to_s(&v)?);
                }
            }
        }
        Ok(s)
    }

    fn regexp(&mut self, lit: &RegexpLit, env: &Env) -> R<RRegexp> {
        if let Some(r) = lit.cached.get() {
            return Ok(r.clone());
        }
        let source = self.interpolate(&lit.parts, env)?;
        let r = RRegexp::new(source, &lit.flags).map_err(|m| Ctrl::Error(Error::syntax(m, lit.at)))?;
        if lit.parts.iter().all(|s| matches!(s, Seg::Lit(_))) {
            let _ = lit.cached.set(r.clone());
        }
        Ok(r)
    }

    fn gvar(&mut self, name: &str) -> R<RValue> {
        match name {
            "0" => unsupported("the global variable `$0`"),
            "~" => Ok(self.last_match.clone()),
            "!" => Ok(self.last_error.clone().unwrap_or(RValue::Nil)),
            "&" | "`" | "'" | "+" => Ok(match &self.last_match {
                RValue::Match(m) => {
                    let (s, e) = m.groups[0].unwrap_or((0, 0));
                    match name {
                        "&" => RValue::str(&m.subject[s..e]),
                        "`" => RValue::str(&m.subject[..s]),
                        "'" => RValue::str(&m.subject[e..]),
                        _ => (1..m.groups.len()).rev().find_map(|i| m.group(i)).map_or(RValue::Nil, RValue::str),
                    }
                }
                _ => RValue::Nil,
            }),
            n if n.bytes().all(|b| b.is_ascii_digit()) => {
                let i: usize = n.parse().unwrap_or(usize::MAX);
                Ok(match &self.last_match {
                    RValue::Match(m) => m.group(i).map_or(RValue::Nil, RValue::str),
                    _ => RValue::Nil,
                })
            }
            // Ruby's globals that Puppet's process sets are not reproduced; others are nil
            "PROGRAM_NAME" | "stdout" | "stderr" | "stdin" | "LOAD_PATH" | ":" | "\"" | "LOADED_FEATURES" | ";"
            | "," | "/" | "\\" | "DEBUG" | "VERBOSE" | "$" | "?" | "*" | "<" | ">" | "." | "_" | "FILENAME" | "-0"
            | "-F" | "-I" | "-a" | "-d" | "-i" | "-l" | "-p" | "-v" | "-w" => {
                unsupported(format!("the global variable `${name}`"))
            }
            _ => Ok(RValue::Nil),
        }
    }

    fn constant(&mut self, scope: Option<&Node>, name: &str, env: &Env) -> R<RValue> {
        let full = match scope {
            None => name.to_string(),
            Some(node) => match self.eval(node, env)? {
                RValue::Class(c) => format!("{c}::{name}"),
                _ => return unsupported(format!("the constant `{name}`")),
            },
        };
        const KNOWN: &[&str] = &[
            "String",
            "Integer",
            "Float",
            "Numeric",
            "Array",
            "Hash",
            "Symbol",
            "NilClass",
            "TrueClass",
            "FalseClass",
            "Regexp",
            "Range",
            "Proc",
            "MatchData",
            "Object",
            "Kernel",
            "Comparable",
            "Enumerable",
            "BasicObject",
            "File",
            "Math",
            "Class",
            "Module",
        ];
        if KNOWN.contains(&full.as_str()) || !crate::value::exception_ancestors(&full).is_empty() || full == "Puppet" {
            return Ok(RValue::Class(full.into()));
        }
        match full.as_str() {
            "Float::EPSILON" => Ok(RValue::Float(f64::EPSILON)),
            "Float::MAX" => Ok(RValue::Float(f64::MAX)),
            "Float::MIN" => Ok(RValue::Float(f64::MIN_POSITIVE)),
            "Float::DIG" => Ok(RValue::Int(15)),
            "Regexp::IGNORECASE" => Ok(RValue::Int(1)),
            "Regexp::EXTENDED" => Ok(RValue::Int(2)),
            "Regexp::MULTILINE" => Ok(RValue::Int(4)),
            "Math::PI" => Ok(RValue::Float(std::f64::consts::PI)),
            "Math::E" => Ok(RValue::Float(std::f64::consts::E)),
            "Float::INFINITY" => Ok(RValue::Float(f64::INFINITY)),
            "Float::NAN" => Ok(RValue::Float(f64::NAN)),
            _ => unsupported(format!("the constant `{full}`")),
        }
    }

    fn defined(&mut self, node: &Node, env: &Env) -> R<RValue> {
        let what = match node {
            Node::IVar(n) => self.ivars.contains_key(n).then_some("instance-variable"),
            Node::LVar(_) => Some("local-variable"),
            Node::GVar(n, _) => (n.as_ref() == "~" || n.bytes().all(|b| b.is_ascii_digit()))
                .then_some("global-variable")
                .filter(|_| !self.last_match.is_nil()),
            Node::Call(c) if c.recv.is_none() => crate::methods::wrapper_has(&c.name).then_some("method"),
            Node::Call(c) => {
                let recv = match &c.recv {
                    Some(r) => match self.eval(r, env) {
                        Ok(v) => v,
                        Err(Ctrl::Error(_)) => return Ok(RValue::Nil),
                        Err(e) => return Err(e),
                    },
                    None => RValue::Wrapper,
                };
                crate::methods::responds_to(&recv, &c.name).then_some("method")
            }
            Node::Const(..) => match self.eval(node, env) {
                Ok(_) => Some("constant"),
                Err(_) => None,
            },
            Node::Nil => Some("expression"),
            Node::SelfRef => Some("self"),
            Node::True | Node::False => Some("expression"),
            Node::Asgn(..) | Node::OpAsgn(..) | Node::MultiAsgn(..) => Some("assignment"),
            _ => Some("expression"),
        };
        Ok(what.map_or(RValue::Nil, RValue::frozen_str))
    }

    fn begin(&mut self, b: &crate::ast::Begin, env: &Env) -> R<RValue> {
        let result = loop {
            self.step()?;
            let r = match self.eval_body(&b.body, env) {
                Ok(v) => match &b.otherwise {
                    Some(other) => self.eval_body(other, env),
                    None => Ok(v),
                },
                Err(Ctrl::Error(e)) => self.rescue(b, e, env),
                other => other,
            };
            match r {
                Err(Ctrl::Retry) => continue,
                other => break other,
            }
        };
        if let Some(ensure) = &b.ensure {
            self.eval_body(ensure, env)?;
        }
        result
    }

    /// The first `rescue` clause that takes `e`, run; `e` again when none does.
    fn rescue(&mut self, b: &crate::ast::Begin, e: Error, env: &Env) -> R<RValue> {
        for clause in &b.rescues {
            let mut classes = Vec::new();
            for c in &clause.classes {
                match self.eval(c, env)? {
                    RValue::Class(name) => classes.push(name),
                    RValue::Array(a) => classes.extend(a.v.borrow().iter().filter_map(|v| match v {
                        RValue::Class(n) => Some(n.clone()),
                        _ => None,
                    })),
                    _ => return raise("TypeError", "class or module required for rescue clause"),
                }
            }
            let names: Vec<&str> =
                if classes.is_empty() { vec!["StandardError"] } else { classes.iter().map(|c| &**c).collect() };
            if rescuable(&e, &names) {
                let exception = exception_of(&e);
                self.last_error = Some(exception.clone());
                if let Some(target) = &clause.var {
                    self.assign(target, exception, env)?;
                }
                return self.eval_body(&clause.body, env);
            }
        }
        Err(Ctrl::Error(e))
    }

    fn case(
        &mut self,
        subject: Option<&Node>,
        whens: &[(Vec<Node>, Body)],
        otherwise: Option<&Body>,
        env: &Env,
    ) -> R<RValue> {
        let subject = match subject {
            Some(s) => Some(self.eval(s, env)?),
            None => None,
        };
        for (values, body) in whens {
            for value in values {
                let candidates = match value {
                    Node::Splat(inner) => self.eval(inner, env)?.as_vec().unwrap_or_default(),
                    other => vec![self.eval(other, env)?],
                };
                for candidate in candidates {
                    let hit = match &subject {
                        Some(s) => self.send(&candidate, "===", vec![s.clone()], None)?.truthy(),
                        None => candidate.truthy(),
                    };
                    if hit {
                        return self.eval_body(body, env);
                    }
                }
            }
        }
        match otherwise {
            Some(body) => self.eval_body(body, env),
            None => Ok(RValue::Nil),
        }
    }

    // ---- assignment ----------------------------------------------------------------------

    fn assign(&mut self, target: &Target, value: RValue, env: &Env) -> R<()> {
        match target {
            Target::LVar(n) => env.set(n, value),
            Target::IVar(n) => {
                self.ivars.insert(n.clone(), value);
            }
            Target::GVar(n) => return unsupported(format!("assigning the global variable `${n}`")),
            Target::Index(recv, args, at) => {
                let r = self.eval(recv, env)?;
                let mut a = self.eval_list(args, env)?;
                a.push(value);
                self.send(&r, "[]=", a, None).map_err(|e| at_ctrl(e, *at))?;
            }
            Target::Attr(recv, name, at) => {
                let r = self.eval(recv, env)?;
                self.send(&r, &format!("{name}="), vec![value], None).map_err(|e| at_ctrl(e, *at))?;
            }
            Target::Splat(inner) => {
                if let Some(t) = inner {
                    self.assign(t, value, env)?;
                }
            }
            Target::Nested(targets) => {
                let items = match &value {
                    RValue::Array(a) => a.v.borrow().clone(),
                    other => vec![other.clone()],
                };
                self.destructure(targets, items, env)?;
            }
        }
        Ok(())
    }

    fn destructure(&mut self, targets: &[Target], items: Vec<RValue>, env: &Env) -> R<()> {
        let splat = targets.iter().position(|t| matches!(t, Target::Splat(_)));
        let after = splat.map_or(0, |s| targets.len() - s - 1);
        for (i, t) in targets.iter().enumerate() {
            let v = match splat {
                Some(s) if i == s => {
                    let end = items.len().saturating_sub(after).max(s);
                    RValue::array(items.get(s..end).map(<[RValue]>::to_vec).unwrap_or_default())
                }
                Some(s) if i > s => {
                    let from_end = targets.len() - i;
                    let idx = items.len().checked_sub(from_end).filter(|k| *k >= s);
                    idx.and_then(|k| items.get(k).cloned()).unwrap_or(RValue::Nil)
                }
                _ => items.get(i).cloned().unwrap_or(RValue::Nil),
            };
            match t {
                Target::Splat(Some(inner)) => self.assign(inner, v, env)?,
                Target::Splat(None) => {}
                other => self.assign(other, v, env)?,
            }
        }
        Ok(())
    }

    fn op_assign(&mut self, target: &Target, op: &str, value: &Node, at: usize, env: &Env) -> R<RValue> {
        // read the current value (receivers and index arguments evaluated once)
        let (recv, args) = match target {
            Target::Index(r, a, _) => (Some(self.eval(r, env)?), self.eval_list(a, env)?),
            Target::Attr(r, _, _) => (Some(self.eval(r, env)?), Vec::new()),
            _ => (None, Vec::new()),
        };
        let current = match target {
            Target::LVar(n) => env.get(n).unwrap_or(RValue::Nil),
            Target::IVar(n) => self.ivars.get(n).cloned().unwrap_or(RValue::Nil),
            Target::Index(..) => self
                .send(recv.as_ref().unwrap_or(&RValue::Nil), "[]", args.clone(), None)
                .map_err(|e| at_ctrl(e, at))?,
            Target::Attr(_, name, _) => {
                self.send(recv.as_ref().unwrap_or(&RValue::Nil), name, Vec::new(), None).map_err(|e| at_ctrl(e, at))?
            }
            _ => return unsupported("this compound assignment"),
        };
        let new = match op {
            "||" if current.truthy() => return Ok(current),
            "&&" if !current.truthy() => return Ok(current),
            "||" | "&&" => self.eval(value, env)?,
            _ => {
                let v = self.eval(value, env)?;
                self.send(&current, op, vec![v], None).map_err(|e| at_ctrl(e, at))?
            }
        };
        match target {
            Target::LVar(n) => env.set(n, new.clone()),
            Target::IVar(n) => {
                self.ivars.insert(n.clone(), new.clone());
            }
            Target::Index(..) => {
                let mut a = args;
                a.push(new.clone());
                self.send(recv.as_ref().unwrap_or(&RValue::Nil), "[]=", a, None).map_err(|e| at_ctrl(e, at))?;
            }
            Target::Attr(_, name, _) => {
                self.send(recv.as_ref().unwrap_or(&RValue::Nil), &format!("{name}="), vec![new.clone()], None)
                    .map_err(|e| at_ctrl(e, at))?;
            }
            _ => {}
        }
        Ok(new)
    }

    // ---- calls ---------------------------------------------------------------------------

    fn eval_call(&mut self, call: &Call, env: &Env) -> R<RValue> {
        let recv = match &call.recv {
            Some(node) => self.eval(node, env)?,
            None => RValue::Wrapper,
        };
        if call.safe && recv.is_nil() {
            return Ok(RValue::Nil);
        }
        let mut args = Vec::with_capacity(call.args.len());
        let mut block = call.block.as_ref().map(|def| Block::Def(def.clone(), env.clone()));
        for arg in &call.args {
            match arg {
                Node::BlockPass(inner) => {
                    block = match self.eval(inner, env)? {
                        RValue::Sym(s) => Some(Block::Sym(s)),
                        RValue::Proc(p) => Some(match &*p {
                            RProc::Block(def, env) => Block::Def(def.clone(), env.clone()),
                            RProc::Symbol(s) => Block::Sym(s.clone()),
                        }),
                        RValue::Nil => None,
                        other => {
                            return raise(
                                "TypeError",
                                format!("wrong argument type {} (expected Proc)", other.class_name()),
                            )
                        }
                    };
                }
                Node::Splat(_) => args.extend(self.eval_list(std::slice::from_ref(arg), env)?),
                other => args.push(self.eval(other, env)?),
            }
        }
        let result = if call.recv.is_none() {
            self.self_call(&call.name, args, block.as_ref(), call.vcall)
        } else {
            self.send(&recv, &call.name, args, block.as_ref())
        };
        match result {
            Err(Ctrl::Break(v)) if call.block.is_some() => Ok(v),
            Err(e) => Err(at_ctrl(e, call.at)),
            ok => ok,
        }
    }

    /// A call without a receiver: the template's own methods and Kernel's.
    fn self_call(&mut self, name: &str, args: Vec<RValue>, block: Option<&Block>, vcall: bool) -> R<RValue> {
        if let Some(def) = self.methods.get(name).cloned() {
            if block.is_some() {
                return unsupported("a block given to a method the template defines");
            }
            // a method's scope is its own: no locals of the template
            self.in_method += 1;
            let result = self.call_block(&Block::Def(def, Rc::default()), args);
            self.in_method -= 1;
            return result;
        }
        match crate::methods::wrapper(self, name, &args, block) {
            Some(r) => r,
            None if crate::methods::wrapper_has(name) => unsupported(format!("the method `{name}`")),
            None if vcall => raise(
                "NameError",
                format!("undefined local variable or method `{name}' for {}", crate::methods::WRAPPER_INSPECT),
            ),
            None => {
                raise("NoMethodError", format!("undefined method `{name}' for {}", crate::methods::WRAPPER_INSPECT))
            }
        }
    }

    /// Calls method `name` of `recv`.
    pub fn send(&mut self, recv: &RValue, name: &str, args: Vec<RValue>, block: Option<&Block>) -> R<RValue> {
        self.step()?;
        if let RValue::Wrapper = recv {
            return self.self_call(name, args, block, false);
        }
        crate::methods::dispatch(self, recv, name, args, block)
    }

    /// Calls a block with `args` (a proc's rules: one array argument fills several
    /// parameters).
    pub fn call_block(&mut self, block: &Block, args: Vec<RValue>) -> R<RValue> {
        match block {
            Block::Sym(name) => {
                let mut args = args.into_iter();
                let Some(recv) = args.next() else {
                    return raise("ArgumentError", "no receiver given");
                };
                self.send(&recv, name, args.collect(), None)
            }
            Block::Native(f) => f(self, args),
            Block::Def(def, env) => {
                self.call_depth += 1;
                if self.call_depth > MAX_CALL_DEPTH {
                    self.call_depth -= 1;
                    return unsupported(format!("blocks and lambdas nested more than {MAX_CALL_DEPTH} calls deep"));
                }
                let frame = Frame::child(env);
                for local in &def.locals {
                    frame.set_here(local, RValue::Nil);
                }
                let result = self.bind_params(def, args, &frame).and_then(|_| self.eval_body(&def.body, &frame));
                self.call_depth -= 1;
                match result {
                    Err(Ctrl::Next(v)) => Ok(v),
                    Err(Ctrl::Break(v) | Ctrl::Return(v)) if def.lambda => Ok(v),
                    other => other,
                }
            }
        }
    }

    /// Calls a block with one argument.
    pub fn yield1(&mut self, block: &Block, arg: RValue) -> R<RValue> {
        self.call_block(block, vec![arg])
    }

    fn bind_params(&mut self, def: &BlockDef, mut args: Vec<RValue>, frame: &Env) -> R<()> {
        if def.lambda {
            let required = def.params.iter().filter(|p| matches!(p, Param::Name(_) | Param::Nested(_))).count();
            let optional = def.params.iter().filter(|p| matches!(p, Param::Optional(..))).count();
            let splat = def.params.iter().any(|p| matches!(p, Param::Splat(_)));
            if args.len() < required || !splat && args.len() > required + optional {
                let expected = match (splat, optional) {
                    (true, _) => format!("{required}+"),
                    (false, 0) => required.to_string(),
                    (false, o) => format!("{required}..{}", required + o),
                };
                return raise(
                    "ArgumentError",
                    format!("wrong number of arguments (given {}, expected {expected})", args.len()),
                );
            }
        } else if args.len() == 1
            && (def.params.len() > 1
                || def.trailing_comma
                || matches!(def.params.first(), Some(Param::Splat(_)) if def.params.len() > 1))
        {
            let splat = args[0].as_vec();
            if let Some(items) = splat {
                args = items;
            }
        }
        self.bind(&def.params, args, frame)
    }

    /// Binds parameters to arguments: required ones first, optional ones while arguments
    /// remain (else their defaults), the splat the rest; missing ones are nil.
    fn bind(&mut self, params: &[Param], args: Vec<RValue>, frame: &Env) -> R<()> {
        let required = params.iter().filter(|p| matches!(p, Param::Name(_) | Param::Nested(_))).count();
        let mut optional_budget = args.len().saturating_sub(required);
        let splat = params.iter().position(|p| matches!(p, Param::Splat(_)));
        let after = splat.map_or(0, |s| params[s + 1..].iter().filter(|p| !matches!(p, Param::Optional(..))).count());
        let mut next = 0;
        for (i, p) in params.iter().enumerate() {
            match p {
                Param::Splat(name) => {
                    let end = args.len().saturating_sub(after).max(next);
                    let rest = args.get(next..end).map(<[RValue]>::to_vec).unwrap_or_default();
                    next = end;
                    if let Some(n) = name {
                        frame.set_here(n, RValue::array(rest));
                    }
                }
                Param::Optional(name, default) => {
                    let v = if optional_budget > 0 && next < args.len() {
                        optional_budget -= 1;
                        next += 1;
                        args[next - 1].clone()
                    } else {
                        self.eval(default, frame)?
                    };
                    frame.set_here(name, v);
                }
                Param::Name(_) | Param::Nested(_) => {
                    let v = args.get(next).cloned().unwrap_or(RValue::Nil);
                    next += 1;
                    let _ = i;
                    match p {
                        Param::Name(n) => frame.set_here(n, v),
                        Param::Nested(inner) => {
                            let items = match &v {
                                RValue::Array(a) => a.v.borrow().clone(),
                                other => vec![other.clone()],
                            };
                            self.bind(inner, items, frame)?;
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// The elements an iteration over `v` sees (arrays, hashes as pairs, ranges).
    pub fn to_items(&mut self, v: &RValue) -> R<Vec<RValue>> {
        crate::methods::enumerable::items(self, v)
    }

    // ---- Ruby's conversions --------------------------------------------------------------

    /// `to_s`
    pub fn to_s(&mut self, v: &RValue) -> R<String> {
        Ok(match v {
            RValue::Nil => String::new(),
            RValue::Str(s) => s.s.borrow().clone(),
            RValue::Sym(s) => s.to_string(),
            RValue::Int(i) => i.to_string(),
            RValue::Float(f) => poppet_ruby::float::float_to_s(*f),
            RValue::Bool(b) => b.to_string(),
            RValue::Range(r) => {
                let lo = self.to_s(&r.lo)?;
                let hi = self.to_s(&r.hi)?;
                format!("{lo}{}{hi}", if r.exclusive { "..." } else { ".." })
            }
            RValue::Regexp(r) => crate::value::regexp_to_s(r),
            RValue::Match(m) => m.group(0).unwrap_or_default(),
            RValue::Puppet(p) => self.host.to_s(p),
            RValue::Wrapper => match self.host.file() {
                Some(f) => format!("template[{f}]"),
                None => "template[inline]".into(),
            },
            _ => self.inspect(v)?,
        })
    }

    /// `inspect`
    pub fn inspect(&mut self, v: &RValue) -> R<String> {
        let mut out = String::new();
        write_inspect(&mut out, v, &mut Vec::new(), &*self.host)
            .map_err(|what| Ctrl::Error(Error::unsupported(what, 0)).strip_at())?;
        Ok(out)
    }
}

impl Ctrl {
    fn strip_at(self) -> Ctrl {
        match self {
            Ctrl::Error(mut e) => {
                e.at = None;
                Ctrl::Error(e)
            }
            other => other,
        }
    }
}

/// Whether a `rescue` of `classes` takes `e`: Ruby's exceptions and Puppet's errors by
/// class; never what the interpreter does not run.
fn rescuable(e: &Error, classes: &[&str]) -> bool {
    let class = match &e.kind {
        Kind::Ruby(c) => *c,
        Kind::Puppet => "Puppet::ParseError",
        Kind::Syntax | Kind::Unsupported => return false,
    };
    let ancestors = crate::value::exception_ancestors(class);
    classes.iter().any(|c| ancestors.contains(c))
}

/// The exception object of an error.
fn exception_of(e: &Error) -> RValue {
    let class = match &e.kind {
        Kind::Ruby(c) => c,
        _ => "Puppet::ParseError",
    };
    RValue::Exception(Rc::new(crate::value::RException { class, message: e.message.clone() }))
}

/// Places an error at `at` unless it has a place.
pub fn at_ctrl(c: Ctrl, at: usize) -> Ctrl {
    match c {
        Ctrl::Error(e) => Ctrl::Error(e.or_at(at)),
        other => other,
    }
}

impl RRegexp {
    /// A Ruby regexp of `source` with options `flags` (`i`, `m`, `x`).
    pub fn new(source: String, flags: &str) -> std::result::Result<RRegexp, String> {
        let mut inline = String::new();
        for (f, onig) in [('i', 'i'), ('m', 'm'), ('x', 'x')] {
            if flags.contains(f) {
                inline.push(onig);
            }
        }
        poppet_ruby::regexp::check(&source)?;
        let engine_source = if inline.is_empty() { source.clone() } else { format!("(?{inline}){source}") };
        let re = puppet_types::regexp::Regexp::new(engine_source);
        re.check()?;
        let flags = flags.chars().filter(|c| matches!(c, 'i' | 'm' | 'x')).collect();
        Ok(RRegexp { source, flags, re })
    }
}
