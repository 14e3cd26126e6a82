//! The Ruby a template's code parses to. Operators are method calls, as in Ruby (`a + b` is
//! `a.+(b)`), so one dispatch serves both.

use std::cell::OnceCell;
use std::rc::Rc;

/// Statements, run in order; the last one's value is theirs.
pub type Body = Vec<Node>;

#[derive(Debug)]
pub enum Node {
    Nil,
    True,
    False,
    SelfRef,
    Int(i64),
    Float(f64),
    /// A string literal without interpolation (each evaluation makes a new string).
    Str(Rc<str>),
    /// A string with interpolation.
    DStr(Vec<Seg>),
    Sym(Rc<str>),
    DSym(Vec<Seg>),
    Regexp(Box<RegexpLit>),
    /// `%w[]` (strings) and `%i[]` (symbols).
    Words(Vec<Rc<str>>, bool),
    Array(Vec<Node>),
    Hash(Vec<(Node, Node)>),
    /// `a..b`, `a...b` (`true` when the end is excluded).
    Range(Box<Node>, Box<Node>, bool),
    LVar(Rc<str>),
    IVar(Rc<str>),
    GVar(Rc<str>, usize),
    /// A constant, in a scope (`A::B`) or not, and where it is written.
    Const(Option<Box<Node>>, Rc<str>, usize),
    Asgn(Box<Target>, Box<Node>),
    /// `x += 1`, `x ||= y`: the operator without `=`.
    OpAsgn(Box<Target>, &'static str, Box<Node>, usize),
    MultiAsgn(Vec<Target>, Box<Node>),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Not(Box<Node>),
    Defined(Box<Node>),
    Call(Box<Call>),
    If(Box<Node>, Body, Body),
    /// `while` (or `until`, `true`) with its condition and body.
    While(Box<Node>, Body, bool),
    /// `begin ... end while cond`: the body runs before the first test.
    DoWhile(Box<Node>, Body, bool),
    /// `case` with its subject, its `when` clauses and its `else`.
    Case(Option<Box<Node>>, Vec<(Vec<Node>, Body)>, Option<Body>),
    For(Box<Target>, Box<Node>, Body),
    Seq(Body),
    /// `begin` with `rescue` clauses, `else` and `ensure`.
    Begin(Box<Begin>),
    /// `expr rescue fallback`
    RescueMod(Box<Node>, Box<Node>),
    /// `retry` (in a `rescue` clause).
    Retry,
    Break(Option<Box<Node>>),
    /// `return`: ends the template, whose output becomes the value.
    Return(Option<Box<Node>>),
    /// `/(?<name>...)/ =~ value`: a literal regexp with named groups on the left assigns
    /// them to local variables.
    MatchAsgn(Box<Node>, Box<Node>, Vec<Rc<str>>, usize),
    Next(Option<Box<Node>>),
    /// `*x` in an array literal or an argument list.
    Splat(Box<Node>),
    /// `&:sym` or `&blk` as the last argument.
    BlockPass(Box<Node>),
    /// `-> (x) { }`, `lambda { }`, `proc { }`.
    Lambda(Rc<BlockDef>),
    /// `def name(params) ... end`: a method of the template (a lambda's rules for its
    /// parameters, no access to the template's locals).
    Def(Rc<str>, Rc<BlockDef>),
    /// ERB: text to write.
    Text(Rc<str>),
    /// ERB: `<%= %>`, its code and where it starts.
    Insert(Body, usize),
}

#[derive(Debug)]
pub struct Begin {
    pub body: Body,
    pub rescues: Vec<Rescue>,
    pub otherwise: Option<Body>,
    pub ensure: Option<Body>,
}

/// `rescue Class, ... => var` and its body (no classes: `StandardError`).
#[derive(Debug)]
pub struct Rescue {
    pub classes: Vec<Node>,
    pub var: Option<Target>,
    pub body: Body,
}

/// A part of a string with interpolation.
#[derive(Debug)]
pub enum Seg {
    Lit(Rc<str>),
    Code(Body),
}

#[derive(Debug)]
pub struct RegexpLit {
    pub parts: Vec<Seg>,
    pub flags: String,
    pub at: usize,
    /// A literal without interpolation compiles once.
    pub cached: OnceCell<crate::value::RRegexp>,
}

#[derive(Debug)]
pub struct Call {
    pub recv: Option<Node>,
    pub name: Rc<str>,
    pub args: Vec<Node>,
    pub block: Option<Rc<BlockDef>>,
    /// `&.`
    pub safe: bool,
    /// A bare name without arguments or parentheses (Ruby's "vcall"): unknown, it is
    /// `undefined local variable or method`.
    pub vcall: bool,
    pub at: usize,
}

#[derive(Debug)]
pub struct BlockDef {
    pub params: Vec<Param>,
    /// Whether the parameters end with a comma (`|a,|`), which splats like two.
    pub trailing_comma: bool,
    pub body: Body,
    /// Block-local variables (`|x; y|`).
    pub locals: Vec<Rc<str>>,
    /// `lambda`/`->`: strict arity, `return` and `next` end it.
    pub lambda: bool,
}

#[derive(Debug)]
pub enum Param {
    Name(Rc<str>),
    /// `(a, b)`
    Nested(Vec<Param>),
    /// `*rest` (or a bare `*`).
    Splat(Option<Rc<str>>),
    /// `name = default` (of a method).
    Optional(Rc<str>, Box<Node>),
}

/// What an assignment assigns to.
#[derive(Debug)]
pub enum Target {
    LVar(Rc<str>),
    IVar(Rc<str>),
    GVar(Rc<str>),
    /// `recv[args] = v`
    Index(Node, Vec<Node>, usize),
    /// `recv.name = v`
    Attr(Node, Rc<str>, usize),
    Splat(Option<Box<Target>>),
    Nested(Vec<Target>),
}
