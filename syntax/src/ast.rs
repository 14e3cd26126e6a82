//! The typed AST: the model Puppet's parser builds (`pops/model/ast.pp`), with spans.
//!
//! Definitions are expressions, as in Puppet (`$x = class a {}` parses; validation rejects it).
//! Bodies follow Puppet's `block_or_expression`: one statement is kept as is, several are a
//! [`ExprKind::Block`], none is `None`.

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
        Expr {
            kind,
            span,
            at: span,
        }
    }

    /// An expression Puppet places elsewhere than at its start.
    pub fn placed(kind: ExprKind, span: Span, at: Span) -> Self {
        Expr { kind, span, at }
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
    Set {
        name: String,
        append: bool,
        value: Expr,
        span: Span,
    },
    Splat {
        value: Expr,
        span: Span,
    },
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
    /// A variable named by a literal that is not a name: `"${true}"` (Puppet's
    /// VariableExpression around a LiteralBoolean).
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
