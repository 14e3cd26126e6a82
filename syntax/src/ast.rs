//! The typed AST: the model Puppet's parser builds (`pops/model/ast.pp`), with spans.
//!
//! Definitions are expressions, as in Puppet (`$x = class a {}` parses; validation rejects it).
//! Bodies follow Puppet's `block_or_expression`: one statement is kept as is, several are a
//! [`ExprKind::Block`], none is `None`.
//!
//! [`Node::for_each_child`] is the one enumeration of what each node contains (the
//! validator and the evaluator walk the tree with it; [`Expr::walk`] visits a whole tree).

/// Where a node is in its source: a byte range, and the line and column (both from 1, the
/// column counted in characters) of its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub column: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// Where Puppet places the expression (its model element's offset, which its messages
    /// report): the span's start, except for a binary operation, an assignment, a
    /// relationship and a hash entry (at their operator), a method call (at its `(`, or its
    /// `.` without parentheses), a named access (at its `.`), a type alias (at its name), and
    /// a selector, an access and a function call, placed where their first part is (`$a.b[0]`
    /// is at the `.`). Only `start`, `line` and `column` are meaningful.
    pub at: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Self {
        Expr { kind, span, at: span }
    }

    /// An expression Puppet places elsewhere than at its start.
    pub fn placed(kind: ExprKind, span: Span, at: Span) -> Self {
        Expr { kind, span, at }
    }
}

impl ExprKind {
    /// The class of Puppet's model for this expression (`Puppet::Pops::Model::LiteralList`
    /// for an array), as messages about an expression that cannot be used name it.
    pub fn model_class(&self) -> &'static str {
        use BinaryOp as Op;
        match self {
            ExprKind::Nop => "Nop",
            ExprKind::Block(_) => "BlockExpression",
            ExprKind::Integer { .. } => "LiteralInteger",
            ExprKind::Float(_) => "LiteralFloat",
            ExprKind::String(_) => "LiteralString",
            ExprKind::Boolean(_) => "LiteralBoolean",
            ExprKind::Undef => "LiteralUndef",
            ExprKind::Default => "LiteralDefault",
            ExprKind::Regex(_) => "LiteralRegularExpression",
            ExprKind::Concat(_) => "ConcatenatedString",
            ExprKind::Text(_) => "TextExpression",
            ExprKind::Heredoc { .. } => "HeredocExpression",
            ExprKind::Array(_) => "LiteralList",
            ExprKind::Hash(_) => "LiteralHash",
            ExprKind::KeyedEntry { .. } => "KeyedEntry",
            ExprKind::QualifiedName(_) => "QualifiedName",
            ExprKind::QualifiedReference(_) => "QualifiedReference",
            ExprKind::Variable(_) | ExprKind::VariableOf(_) => "VariableExpression",
            ExprKind::Reserved(_) => "ReservedWord",
            ExprKind::Binary { op, .. } => match op {
                Op::Add | Op::Subtract | Op::Multiply | Op::Divide | Op::Modulo | Op::LeftShift | Op::RightShift => {
                    "ArithmeticExpression"
                }
                Op::Equal | Op::NotEqual | Op::Less | Op::LessEqual | Op::Greater | Op::GreaterEqual => {
                    "ComparisonExpression"
                }
                Op::Match | Op::NotMatch => "MatchExpression",
                Op::In => "InExpression",
                Op::And => "AndExpression",
                Op::Or => "OrExpression",
            },
            ExprKind::Not(_) => "NotExpression",
            ExprKind::Negate(_) => "UnaryMinusExpression",
            ExprKind::Unfold(_) => "UnfoldExpression",
            ExprKind::Paren(_) => "ParenthesizedExpression",
            ExprKind::Assignment { .. } => "AssignmentExpression",
            ExprKind::Relationship { .. } => "RelationshipExpression",
            ExprKind::Access { .. } => "AccessExpression",
            ExprKind::NamedAccess { .. } => "NamedAccessExpression",
            ExprKind::Selector { .. } => "SelectorExpression",
            ExprKind::Call { kind: CallKind::Function, .. } => "CallNamedFunctionExpression",
            ExprKind::Call { kind: CallKind::Method, .. } => "CallMethodExpression",
            ExprKind::If { .. } => "IfExpression",
            ExprKind::Unless { .. } => "UnlessExpression",
            ExprKind::Case { .. } => "CaseExpression",
            ExprKind::Resource { .. } => "ResourceExpression",
            ExprKind::ResourceDefaults { .. } => "ResourceDefaultsExpression",
            ExprKind::ResourceOverride { .. } => "ResourceOverrideExpression",
            ExprKind::Collect { .. } => "CollectExpression",
            ExprKind::Class { .. } => "HostClassDefinition",
            ExprKind::Define { .. } => "ResourceTypeDefinition",
            ExprKind::Node { .. } => "NodeDefinition",
            ExprKind::Function { .. } => "FunctionDefinition",
            ExprKind::TypeAlias { .. } => "TypeAlias",
            ExprKind::TypeMapping { .. } => "TypeMapping",
            ExprKind::TypeDefinition { .. } => "TypeDefinition",
        }
    }
}

/// A whole file.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// `None` for a program without statements.
    pub body: Option<Expr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    LeftShift,
    RightShift,
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Match,
    NotMatch,
    In,
    And,
    Or,
}

impl BinaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Subtract => "-",
            BinaryOp::Multiply => "*",
            BinaryOp::Divide => "/",
            BinaryOp::Modulo => "%",
            BinaryOp::LeftShift => "<<",
            BinaryOp::RightShift => ">>",
            BinaryOp::Equal => "==",
            BinaryOp::NotEqual => "!=",
            BinaryOp::Less => "<",
            BinaryOp::LessEqual => "<=",
            BinaryOp::Greater => ">",
            BinaryOp::GreaterEqual => ">=",
            BinaryOp::Match => "=~",
            BinaryOp::NotMatch => "!~",
            BinaryOp::In => "in",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
        }
    }

    pub fn from_symbol(symbol: &str) -> Option<Self> {
        Some(match symbol {
            "+" => BinaryOp::Add,
            "-" => BinaryOp::Subtract,
            "*" => BinaryOp::Multiply,
            "/" => BinaryOp::Divide,
            "%" => BinaryOp::Modulo,
            "<<" => BinaryOp::LeftShift,
            ">>" => BinaryOp::RightShift,
            "==" => BinaryOp::Equal,
            "!=" => BinaryOp::NotEqual,
            "<" => BinaryOp::Less,
            "<=" => BinaryOp::LessEqual,
            ">" => BinaryOp::Greater,
            ">=" => BinaryOp::GreaterEqual,
            "=~" => BinaryOp::Match,
            "!~" => BinaryOp::NotMatch,
            "in" => BinaryOp::In,
            "and" => BinaryOp::And,
            "or" => BinaryOp::Or,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Assign,
    Append,
    Delete,
}

impl AssignOp {
    pub fn symbol(self) -> &'static str {
        match self {
            AssignOp::Assign => "=",
            AssignOp::Append => "+=",
            AssignOp::Delete => "-=",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelationshipOp {
    /// `->`
    Before,
    /// `~>`
    Notify,
    /// `<-`
    Require,
    /// `<~`
    Subscribe,
}

impl RelationshipOp {
    pub fn symbol(self) -> &'static str {
        match self {
            RelationshipOp::Before => "->",
            RelationshipOp::Notify => "~>",
            RelationshipOp::Require => "<-",
            RelationshipOp::Subscribe => "<~",
        }
    }
}

/// `regular`, `virtual` (`@`) or `exported` (`@@`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceForm {
    Regular,
    Virtual,
    Exported,
}

impl ResourceForm {
    pub fn name(self) -> &'static str {
        match self {
            ResourceForm::Regular => "regular",
            ResourceForm::Virtual => "virtual",
            ResourceForm::Exported => "exported",
        }
    }
}

/// `name => value`, `name +> value`, `* => hash`.
#[derive(Clone, Debug, PartialEq)]
pub enum AttributeOp {
    Set { name: String, append: bool, value: Expr, span: Span },
    Splat { value: Expr, span: Span },
}

#[derive(Clone, Debug, PartialEq)]
pub struct ResourceBody {
    pub title: Expr,
    pub operations: Vec<AttributeOp>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    pub name: String,
    pub type_expr: Option<Expr>,
    pub captures_rest: bool,
    pub value: Option<Expr>,
    pub span: Span,
    /// Where Puppet places the parameter: at its `$name`.
    pub at: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    pub parameters: Vec<Parameter>,
    pub return_type: Option<Box<Expr>>,
    pub body: Option<Box<Expr>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CaseOption {
    pub values: Vec<Expr>,
    pub body: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SelectorEntry {
    pub matching: Expr,
    pub value: Expr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallKind {
    /// `f(x)`, `include x`
    Function,
    /// `$x.f(y)`: the functor is a [`ExprKind::NamedAccess`].
    Method,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An empty body, or a missing expression.
    Nop,
    /// Several statements.
    Block(Vec<Expr>),

    // ---- literals
    /// An integer as written; beyond 64 bits too (Puppet's parser keeps it, validation and
    /// evaluation reject it).
    Integer {
        value: num_bigint::BigInt,
        radix: u32,
    },
    Float(f64),
    /// A string without interpolation (quoted or a bare word).
    String(std::rc::Rc<str>),
    Boolean(bool),
    Undef,
    Default,
    /// A regular expression's source, without its slashes, `\/` read as `/`.
    Regex(String),
    /// `"a${b}"`: literal strings and [`ExprKind::Text`] segments.
    Concat(Vec<Expr>),
    /// An interpolated expression in a string.
    Text(Box<Expr>),
    Heredoc {
        syntax: String,
        text: Box<Expr>,
    },
    Array(Vec<Expr>),
    /// Entries are [`ExprKind::KeyedEntry`].
    Hash(Vec<Expr>),
    KeyedEntry {
        key: Box<Expr>,
        value: Box<Expr>,
    },

    // ---- names
    /// NAME: `foo`, `a::b`.
    QualifiedName(String),
    /// CLASSREF: `File`, `A::B`.
    QualifiedReference(String),
    /// `$x`: the name without `$`.
    Variable(String),
    /// A variable named by a literal that is not a name: `"${true}"` (Puppet's lexer makes
    /// the BOOLEAN token a VARIABLE whose value is the boolean, and its parser a
    /// VariableExpression around a QualifiedName holding that boolean).
    VariableOf(Box<Expr>),
    /// `private`, `attr`.
    Reserved(String),

    // ---- operators
    Binary {
        op: BinaryOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Not(Box<Expr>),
    Negate(Box<Expr>),
    /// `*$x`
    Unfold(Box<Expr>),
    Paren(Box<Expr>),
    Assignment {
        op: AssignOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Relationship {
        op: RelationshipOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Access {
        left: Box<Expr>,
        keys: Vec<Expr>,
    },
    /// `$x.name`, the functor of a method call.
    NamedAccess {
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Selector {
        left: Box<Expr>,
        entries: Vec<SelectorEntry>,
    },
    Call {
        kind: CallKind,
        functor: Box<Expr>,
        arguments: Vec<Expr>,
        lambda: Option<std::rc::Rc<Lambda>>,
        /// Whether the value is used: false for a call standing as a statement.
        rval_required: bool,
    },

    // ---- conditionals
    If {
        test: Box<Expr>,
        then: Option<Box<Expr>>,
        otherwise: Option<Box<Expr>>,
    },
    Unless {
        test: Box<Expr>,
        then: Option<Box<Expr>>,
        otherwise: Option<Box<Expr>>,
    },
    Case {
        test: Box<Expr>,
        options: Vec<CaseOption>,
    },

    // ---- catalog
    Resource {
        form: ResourceForm,
        type_name: Box<Expr>,
        bodies: Vec<ResourceBody>,
    },
    ResourceDefaults {
        form: ResourceForm,
        type_ref: Box<Expr>,
        operations: Vec<AttributeOp>,
    },
    ResourceOverride {
        form: ResourceForm,
        resources: Box<Expr>,
        operations: Vec<AttributeOp>,
    },
    Collect {
        type_expr: Box<Expr>,
        exported: bool,
        query: Option<Box<Expr>>,
        operations: Vec<AttributeOp>,
    },

    // ---- definitions
    Class {
        name: String,
        parameters: Vec<Parameter>,
        parent: Option<String>,
        body: Option<Box<Expr>>,
    },
    Define {
        name: String,
        parameters: Vec<Parameter>,
        body: Option<Box<Expr>>,
    },
    Node {
        matches: Vec<Expr>,
        parent: Option<Box<Expr>>,
        body: Option<Box<Expr>>,
    },
    Function {
        name: String,
        parameters: Vec<Parameter>,
        body: Option<Box<Expr>>,
        return_type: Option<Box<Expr>>,
    },
    TypeAlias {
        name: String,
        type_expr: Box<Expr>,
    },
    /// `type Runtime[ruby, 'X'] = MyType`
    TypeMapping {
        type_expr: Box<Expr>,
        mapping_expr: Box<Expr>,
    },
    TypeDefinition {
        name: String,
        parent: Option<String>,
        body: Option<Box<Expr>>,
    },
}

// ---------------------------------------------------------------------------------------
// Traversal
// ---------------------------------------------------------------------------------------

/// A node of the AST: an expression, or one of the parts Puppet's model has as elements of
/// their own (lambdas, parameters, resource bodies, attribute operations, case options,
/// selector entries, a collector's query).
#[derive(Clone, Copy, Debug)]
pub enum Node<'a> {
    Expr(&'a Expr),
    /// The body of a class, define, node, function, lambda, type definition or case option
    /// (a block in Puppet's model, `f_build_body`, even where the AST keeps one statement).
    Body(&'a Expr),
    Lambda(&'a Lambda),
    Parameter(&'a Parameter),
    ResourceBody(&'a ResourceBody),
    Attribute(&'a AttributeOp),
    CaseOption(&'a CaseOption),
    SelectorEntry(&'a SelectorEntry),
    /// The `<| … |>` of a collector (this is the collector; its query expression is the
    /// node's child).
    Query(&'a Expr),
}

impl<'a> Node<'a> {
    /// Calls `f` with each node directly inside this one, in the order Puppet's model lists
    /// an element's contents. Every kind of expression is matched here by name, so a new
    /// kind does not compile until its children are listed.
    pub fn for_each_child(self, f: &mut dyn FnMut(Node<'a>)) {
        let exprs = |items: &'a [Expr], f: &mut dyn FnMut(Node<'a>)| items.iter().for_each(|e| f(Node::Expr(e)));
        let opt = |e: &'a Option<Box<Expr>>, f: &mut dyn FnMut(Node<'a>)| {
            if let Some(e) = e {
                f(Node::Expr(e));
            }
        };
        let body = |e: &'a Option<Box<Expr>>, f: &mut dyn FnMut(Node<'a>)| {
            if let Some(e) = e {
                f(Node::Body(e));
            }
        };
        let parameters =
            |ps: &'a [Parameter], f: &mut dyn FnMut(Node<'a>)| ps.iter().for_each(|p| f(Node::Parameter(p)));
        let attributes =
            |ops: &'a [AttributeOp], f: &mut dyn FnMut(Node<'a>)| ops.iter().for_each(|op| f(Node::Attribute(op)));
        let e = match self {
            Node::Expr(e) => e,
            Node::Body(e) => return f(Node::Expr(e)),
            Node::Lambda(l) => {
                parameters(&l.parameters, f);
                body(&l.body, f);
                return opt(&l.return_type, f);
            }
            Node::Parameter(p) => {
                if let Some(v) = &p.value {
                    f(Node::Expr(v));
                }
                if let Some(t) = &p.type_expr {
                    f(Node::Expr(t));
                }
                return;
            }
            Node::ResourceBody(b) => {
                f(Node::Expr(&b.title));
                return attributes(&b.operations, f);
            }
            Node::Attribute(AttributeOp::Set { value, .. } | AttributeOp::Splat { value, .. }) => {
                return f(Node::Expr(value));
            }
            Node::CaseOption(o) => {
                exprs(&o.values, f);
                if let Some(b) = &o.body {
                    f(Node::Body(b));
                }
                return;
            }
            Node::SelectorEntry(s) => {
                f(Node::Expr(&s.matching));
                return f(Node::Expr(&s.value));
            }
            Node::Query(collect) => {
                if let ExprKind::Collect { query: Some(q), .. } = &collect.kind {
                    f(Node::Expr(q));
                }
                return;
            }
        };
        use ExprKind as K;
        match &e.kind {
            K::Block(items) | K::Concat(items) | K::Array(items) | K::Hash(items) => exprs(items, f),
            K::Text(inner)
            | K::Not(inner)
            | K::Negate(inner)
            | K::Unfold(inner)
            | K::Paren(inner)
            | K::VariableOf(inner) => f(Node::Expr(inner)),
            K::Heredoc { text, .. } => f(Node::Expr(text)),
            K::KeyedEntry { key: left, value: right }
            | K::Binary { left, right, .. }
            | K::Assignment { left, right, .. }
            | K::Relationship { left, right, .. }
            | K::NamedAccess { left, right } => {
                f(Node::Expr(left));
                f(Node::Expr(right));
            }
            K::Access { left, keys } => {
                f(Node::Expr(left));
                exprs(keys, f);
            }
            K::Selector { left, entries } => {
                f(Node::Expr(left));
                entries.iter().for_each(|s| f(Node::SelectorEntry(s)));
            }
            K::Call { functor, arguments, lambda, .. } => {
                f(Node::Expr(functor));
                exprs(arguments, f);
                if let Some(l) = lambda {
                    f(Node::Lambda(l));
                }
            }
            K::If { test, then, otherwise } | K::Unless { test, then, otherwise } => {
                f(Node::Expr(test));
                opt(then, f);
                opt(otherwise, f);
            }
            K::Case { test, options } => {
                f(Node::Expr(test));
                options.iter().for_each(|o| f(Node::CaseOption(o)));
            }
            K::Resource { type_name, bodies, .. } => {
                f(Node::Expr(type_name));
                bodies.iter().for_each(|b| f(Node::ResourceBody(b)));
            }
            K::ResourceDefaults { type_ref: target, operations, .. }
            | K::ResourceOverride { resources: target, operations, .. } => {
                f(Node::Expr(target));
                attributes(operations, f);
            }
            K::Collect { type_expr, operations, .. } => {
                f(Node::Expr(type_expr));
                f(Node::Query(e));
                attributes(operations, f);
            }
            K::Class { parameters: ps, body: b, .. } | K::Define { parameters: ps, body: b, .. } => {
                parameters(ps, f);
                body(b, f);
            }
            K::Function { parameters: ps, body: b, return_type, .. } => {
                parameters(ps, f);
                body(b, f);
                opt(return_type, f);
            }
            K::Node { matches, parent, body: b } => {
                opt(parent, f);
                exprs(matches, f);
                body(b, f);
            }
            K::TypeAlias { type_expr, .. } => f(Node::Expr(type_expr)),
            K::TypeMapping { type_expr, mapping_expr } => {
                f(Node::Expr(type_expr));
                f(Node::Expr(mapping_expr));
            }
            K::TypeDefinition { body: b, .. } => body(b, f),
            K::Nop
            | K::Integer { .. }
            | K::Float(_)
            | K::String(_)
            | K::Boolean(_)
            | K::Undef
            | K::Default
            | K::Regex(_)
            | K::QualifiedName(_)
            | K::QualifiedReference(_)
            | K::Variable(_)
            | K::Reserved(_) => {}
        }
    }

    /// Calls `f` with the expressions directly inside this node, looking through the parts
    /// that are not expressions (a lambda's parameter defaults, types and body, a resource
    /// body's title and attribute values, ...). A node that is an expression (or a body) is
    /// passed itself.
    pub fn for_each_expr(self, f: &mut dyn FnMut(&'a Expr)) {
        match self {
            Node::Expr(e) | Node::Body(e) => f(e),
            other => other.for_each_child(&mut |c| c.for_each_expr(f)),
        }
    }
}

impl Expr {
    /// Calls `f` with each node directly inside this expression ([`Node::for_each_child`]).
    pub fn for_each_child<'a>(&'a self, f: &mut dyn FnMut(Node<'a>)) {
        Node::Expr(self).for_each_child(f)
    }

    /// Calls `f` with each expression directly inside this one, through lambdas and the
    /// other parts that are not expressions ([`Node::for_each_expr`]).
    pub fn for_each_sub_expr<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        self.for_each_child(&mut |c| c.for_each_expr(f))
    }

    /// Visits this expression and every expression inside it (lambdas, definitions and
    /// catalog expressions included), depth first, until `f` returns false; false if it
    /// did. The depth is bounded by the parser's nesting limit.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr) -> bool) -> bool {
        if !f(self) {
            return false;
        }
        let mut go_on = true;
        self.for_each_sub_expr(&mut |c| {
            if go_on {
                go_on = c.walk(f);
            }
        });
        go_on
    }
}
