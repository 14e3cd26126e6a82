//! Puppet's parser building the AST: the LALR(1) automaton of [`lr`](crate::lr) over the tokens
//! of Puppet's [`lexer`](crate::lexer), with the grammar's actions (egrammar.ra, `Factory`)
//! building the same [`Program`] as the lowering from the tree-sitter tree, spans included.
//!
//! This is the fast path of [`analyze_with`](crate::analyze_with): the lexer and the
//! automaton run for every manifest anyway (they make syntax errors Puppet's), and building the
//! AST in the reductions spares the tree-sitter parse and the walk of its tree. It answers
//! only where it is sure to give the lowering's answer: a program the automaton accepts,
//! without a diagnostic (its warnings, about escape sequences, are the lexer's). Anything
//! else — a syntax error, a grammar action that raises, a number Puppet cannot read,
//! nesting near [`MAX_DEPTH`](crate::MAX_DEPTH), a construct the lowering shapes by the
//! tree (plans, `apply`, EPP) — gives `None`, and the caller takes the lowering's path,
//! which reports it. The `ast_agreement` example compares both paths over the corpus
//! (`scripts/test.sh` runs it).

use std::rc::Rc;
use std::sync::OnceLock;

use crate::ast::*;
use crate::lexer::Lexed;
use crate::lower::{
    block_or_expression, merge_unfolded_hashes, names_as_strings, object_of_hash, object_with_parent, parse_number,
    regex_source, title_less_entries, title_less_resource, Argument, Lines, Segments, STATEMENT_CALLS,
};
use crate::lr::{self, Actions, Outcome};
use crate::lr_tables::RULES;

/// The AST Puppet's parser builds from `lexed` (the tokens of `source`), or `None` where
/// the lowering must answer (see the module's documentation).
pub(crate) fn build(source: &str, lexed: &Lexed) -> Option<Program> {
    if lexed.error.is_some() {
        return None;
    }
    let lines = Lines::new(source);
    let positions = lines.positions(source, lexed.tokens.iter().map(|t| t.start));
    let mut builder = Builder { source, lexed, lines, positions, namestack: Vec::new() };
    match lr::run(lexed, &mut builder) {
        Ok(V { val: Val::Program(program), .. }) => Some(program),
        _ => None,
    }
}

/// Deeper than this (in expressions) the lowering answers: it reports nesting past
/// `MAX_DEPTH`, and the values dropped here stay well within the stack.
const MAX_HEIGHT: u16 = 200;

/// A value on the automaton's stack: what it holds, the bytes its tokens cover (`start >
/// end`: none, an empty production), and how deep the expressions in it nest.
struct V {
    val: Val,
    start: usize,
    end: usize,
    /// The line and column of `start` (where there are bytes), found once per token.
    line: u32,
    column: u32,
    height: u16,
}

impl V {
    /// No value (what a kept value leaves behind).
    const NONE: V = V { val: Val::Nothing, start: usize::MAX, end: 0, line: 0, column: 0, height: 0 };
}

enum Val {
    Tok(usize),
    Nothing,
    Program(Program),
    Expr(Expr),
    Arg(Argument),
    Args(Vec<Argument>),
    Exprs(Vec<Expr>),
    Stmt(Stmt),
    Stmts(Vec<Stmt>),
    Body(Box<ResourceBody>),
    Bodies(Vec<ResourceBody>),
    /// `additional_resource_bodies`: where the first body's trailing comma ends, and the
    /// bodies after it.
    Additional(Option<usize>, Vec<ResourceBody>),
    Op(Box<AttributeOp>),
    Ops(Vec<AttributeOp>),
    Param(Box<Parameter>),
    Params(Vec<Parameter>),
    Lambda(Lambda),
    /// `{ statements }`: the body (the value's span is the braces').
    Block(Option<Box<Expr>>),
    /// `if_part`: the test, the body and what `else` holds.
    IfPart(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    Else(Option<Box<Expr>>),
    CaseOption(Box<CaseOption>),
    CaseOptions(Vec<CaseOption>),
    Entry(Box<SelectorEntry>),
    Entries(Vec<SelectorEntry>),
    /// `<| query |>` (`true`: exported, `<<| |>>`).
    Query(bool, Option<Box<Expr>>),
    /// A class, define or function name; `stacked_classname`: the name with its namespace.
    Name(String),
    /// A node's dotted name.
    Dotted(String),
    /// The pieces of a double-quoted string, last first (the grammar's tail is
    /// right-recursive).
    Pieces(Vec<Piece>),
}

/// `e` or `e, e, …` as a statement.
enum Stmt {
    One(Expr),
    Commas(Vec<Expr>),
}

enum Piece {
    Text(String),
    Expr(Expr),
}

/// What a rule's action does, found once by the rule's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    /// The value of the `k`-th symbol.
    Keep(usize),
    /// The value of the `k`-th symbol, over the bytes of the whole rule.
    KeepAll(usize),
    Nothing,
    Program,
    EmptyProgram,
    Statements,
    FirstStmt,
    NextStmt(usize),
    OneStmt,
    MoreStmt,
    Assign(AssignOp),
    ArgOf,
    ArgOfPair,
    FirstArg,
    NextArg,
    Relation(RelationshipOp),
    Virtual(ResourceForm),
    Titled,
    ClassResource,
    Untitled,
    ResourceBody,
    FirstBody,
    NextBody,
    NoMoreBodies,
    MoreBodies,
    Binary(BinaryOp),
    Negate,
    Unfold,
    Not,
    Selector,
    Paren,
    Access,
    FirstExpr,
    NextExpr,
    Number,
    Boolean,
    Default,
    Undef,
    QName,
    Call {
        arguments: bool,
        lambda: bool,
    },
    TypeFunctor,
    WithLambda,
    MethodCall {
        arguments: bool,
    },
    MethodWithoutParens,
    NamedAccess,
    Lambda,
    BracedBody,
    EmptyBody,
    NoParameters,
    Parameters,
    If,
    IfPart {
        body: bool,
    },
    NoElse,
    Elsif,
    ElseBody,
    Unless {
        body: bool,
    },
    Case,
    FirstOption,
    NextOption,
    CaseOption,
    FirstEntry,
    BracedEntries,
    NextEntry,
    Entry,
    Collect {
        operations: bool,
    },
    Query {
        exported: bool,
    },
    NoOperations,
    FirstOperation,
    NextOperation,
    Attribute {
        append: bool,
    },
    Splat,
    Define,
    Class,
    StackedName,
    Parent,
    Node {
        body: bool,
    },
    FirstHost,
    NextHost,
    Hostname,
    HostDefault,
    FirstDot,
    NextDot,
    Function,
    ReturnType {
        access: bool,
    },
    Name,
    EmptyParameterList,
    ParameterList,
    FirstParameter,
    NextParameter,
    Parameter {
        default: bool,
    },
    SplatParameter,
    TypedParameter,
    ParameterType,
    TypeAlias {
        shape: AliasShape,
    },
    TypeDefinition {
        parent: bool,
    },
    Variable,
    Reserved,
    Array {
        entries: bool,
    },
    Hash {
        pairs: bool,
    },
    HashPair,
    StringToken,
    Word,
    /// `[type]`: a [`Act::Word`] as an array's entry.
    WordArg,
    DqString,
    TextExpression,
    Tail,
    MoreTail,
    Heredoc,
    Sublocated,
    TypeRef,
    Regex,
    /// What the fast path leaves to the lowering: errors, plans, `apply`, EPP.
    Refuse,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AliasShape {
    /// `= Parent { … }`
    ParentHash,
    /// `= Type[…]`
    Access,
    /// `= Type`, `= [ … ]`
    Value,
    /// `= { … }`
    Hash,
}

fn act(rule: &str) -> Act {
    use Act::*;
    let (lhs, rhs) = rule.split_once(" : ").unwrap_or((rule.trim_end_matches(" :"), ""));
    match (lhs, rhs) {
        ("program", "statements") => Program,
        ("program", "") => EmptyProgram,
        ("statements", _) => Statements,
        ("syntactic_statements", "syntactic_statement") => FirstStmt,
        ("syntactic_statements", "syntactic_statements SEMIC syntactic_statement") => NextStmt(2),
        ("syntactic_statements", "syntactic_statements syntactic_statement") => NextStmt(1),
        ("syntactic_statement", "assignment") => OneStmt,
        ("syntactic_statement", _) => MoreStmt,
        ("assignment", "relationship EQUALS assignment") => Assign(AssignOp::Assign),
        ("assignment", "relationship APPENDS assignment") => Assign(AssignOp::Append),
        ("assignment", "relationship DELETES assignment") => Assign(AssignOp::Delete),
        ("argument" | "access_arg", "assignment" | "expression") => ArgOf,
        ("collection_entry", "argument") => Keep(0),
        // `type` and `function` as values: strings, as Puppet's `Factory.literal(val[0][:value])`
        ("hash_entry", "collection_entry_keyword") => Word,
        ("collection_entry", "collection_entry_keyword") => WordArg,
        ("collection_entry_keyword", _) => Keep(0),
        ("argument" | "access_arg", "hashpair") => ArgOfPair,
        ("arguments" | "access_args" | "collection_entries", r) if !r.contains("COMMA") => FirstArg,
        ("arguments" | "access_args" | "collection_entries", _) => NextArg,
        // Puppet's lexer names `->` IN_EDGE and `<-` OUT_EDGE
        ("relationship", "relationship IN_EDGE resource") => Relation(RelationshipOp::Before),
        ("relationship", "relationship IN_EDGE_SUB resource") => Relation(RelationshipOp::Notify),
        ("relationship", "relationship OUT_EDGE resource") => Relation(RelationshipOp::Require),
        ("relationship", "relationship OUT_EDGE_SUB resource") => Relation(RelationshipOp::Subscribe),
        ("resource", "AT resource") => Virtual(ResourceForm::Virtual),
        ("resource", "ATAT resource") => Virtual(ResourceForm::Exported),
        ("resource", "resource LBRACE expression COLON attribute_operations additional_resource_bodies RBRACE") => {
            Titled
        }
        ("resource", "CLASS LBRACE resource_bodies endsemi RBRACE") => ClassResource,
        ("resource", "resource LBRACE attribute_operations endcomma RBRACE") => Untitled,
        ("resource_body", _) => ResourceBody,
        ("resource_bodies", "resource_body") => FirstBody,
        ("resource_bodies", _) => NextBody,
        ("additional_resource_bodies", "endcomma SEMIC resource_bodies endsemi") => MoreBodies,
        ("additional_resource_bodies", _) => NoMoreBodies,
        ("expression", "MINUS expression") => Negate,
        ("expression", "TIMES expression") => Unfold,
        ("expression", "NOT expression") => Not,
        ("expression", "expression QMARK selector_entries") => Selector,
        ("expression", "LPAREN assignment RPAREN" | "WSLPAREN assignment RPAREN") => Paren,
        ("expression", r) if r.starts_with("expression ") => match r.split(' ').nth(1).and_then(binary_op) {
            Some(op) => Binary(op),
            None => Refuse,
        },
        ("bracketed_expression", _) => Access,
        ("expressions", "expression") => FirstExpr,
        ("expressions", _) => NextExpr,
        ("primary_expression", "NUMBER") => Number,
        ("primary_expression", "BOOLEAN") => Boolean,
        ("primary_expression", "DEFAULT") => Default,
        ("primary_expression", "UNDEF") => Undef,
        ("primary_expression", "NAME") => QName,
        ("primary_expression", "plan_expression" | "apply_expression" | "epp_render_expression") => Refuse,
        ("call_function_expression", r) => Call { arguments: r.contains("arguments"), lambda: r.ends_with("lambda") },
        ("call_function_start", "TYPE LPAREN") => TypeFunctor,
        ("call_method_with_lambda_expression", "call_method_expression lambda") => WithLambda,
        ("call_method_expression", "named_access") => MethodWithoutParens,
        ("call_method_expression", r) => MethodCall { arguments: r.contains("arguments") },
        ("named_access", _) => NamedAccess,
        ("lambda", _) => Lambda,
        ("lambda_rest" | "unless_else", "LBRACE statements RBRACE" | "ELSE LBRACE statements RBRACE") => BracedBody,
        ("lambda_rest" | "unless_else", "LBRACE RBRACE" | "ELSE LBRACE RBRACE") => EmptyBody,
        ("lambda_parameter_list" | "epp_parameters_list", "PIPE PIPE") => NoParameters,
        ("lambda_parameter_list", _) => Parameters,
        ("if_expression", _) => If,
        ("if_part", r) => IfPart { body: r.contains("statements") },
        ("else" | "unless_else", "") => NoElse,
        ("else", "ELSIF if_part") => Elsif,
        ("else", "ELSE LBRACE statements RBRACE") => ElseBody,
        ("else", "ELSE LBRACE RBRACE") => EmptyBody,
        ("unless_expression", r) => Unless { body: r.contains("statements") },
        ("case_expression", _) => Case,
        ("case_options", "case_option") => FirstOption,
        ("case_options", _) => NextOption,
        ("case_option", _) => CaseOption,
        ("options_statements" | "opt_statements" | "optional_statements", "statements") => Keep(0),
        ("options_statements" | "opt_statements" | "optional_statements", _) => Nothing,
        ("selector_entries", "selector_entry") => FirstEntry,
        ("selector_entries", _) => BracedEntries,
        ("selector_entry_list", "selector_entry") => FirstEntry,
        ("selector_entry_list", _) => NextEntry,
        ("selector_entry", _) => Entry,
        ("collection_expression", r) => Collect { operations: r.contains("attribute_operations") },
        ("collect_query", r) => Query { exported: r.starts_with("LLCOLLECT") },
        ("optional_query", "expression") => Keep(0),
        ("optional_query", _) => Nothing,
        ("attribute_operations", "") => NoOperations,
        ("attribute_operations", "attribute_operation") => FirstOperation,
        ("attribute_operations", _) => NextOperation,
        ("attribute_name" | "keyword" | "name_or_number" | "dqpre" | "dqmid" | "dqpost", _) => Keep(0),
        ("attribute_operation", "attribute_name FARROW expression") => Attribute { append: false },
        ("attribute_operation", "attribute_name PARROW expression") => Attribute { append: true },
        ("attribute_operation", _) => Splat,
        ("definition_expression", _) => Define,
        ("hostclass_expression", _) => Class,
        ("stacked_classname", _) => StackedName,
        ("classparent" | "nodeparent", "nil") => Nothing,
        ("classparent", _) => Parent,
        ("classnameordefault", "classname") => Keep(0),
        ("classnameordefault", _) => Name,
        ("node_definition_expression", r) => Node { body: r.contains("statements") },
        ("hostnames", "hostname") => FirstHost,
        ("hostnames", _) => NextHost,
        ("hostname", "dotted_name") => Hostname,
        ("hostname", "DEFAULT") => HostDefault,
        ("hostname", _) => Keep(0),
        ("dotted_name", "name_or_number") => FirstDot,
        ("dotted_name", _) => NextDot,
        ("nodeparent", _) => Keep(1),
        ("function_definition", _) => Function,
        ("opt_return_type", "RSHIFT type") => ReturnType { access: false },
        ("opt_return_type", "RSHIFT type LBRACK access_args RBRACK") => ReturnType { access: true },
        ("opt_return_type", _) => Nothing,
        ("classname", "NAME" | "WORD" | "CLASSREF") => Name,
        ("parameter_list", "nil") => EmptyParameterList,
        ("parameter_list", r) if r.ends_with("RPAREN") && !r.contains("parameters") => EmptyParameterList,
        ("parameter_list", _) => ParameterList,
        ("parameters", "parameter") => FirstParameter,
        ("parameters", _) => NextParameter,
        ("parameter" | "untyped_parameter", _) => Keep(0),
        ("regular_parameter", r) => Parameter { default: r.contains("EQUALS") },
        ("splat_parameter", _) => SplatParameter,
        ("typed_parameter", _) => TypedParameter,
        ("parameter_type", "type") => Keep(0),
        ("parameter_type", _) => ParameterType,
        ("type_alias", "type_alias_lhs EQUALS type hash") => TypeAlias { shape: AliasShape::ParentHash },
        ("type_alias", "type_alias_lhs EQUALS type LBRACK access_args endcomma RBRACK") => {
            TypeAlias { shape: AliasShape::Access }
        }
        ("type_alias", "type_alias_lhs EQUALS hash") => TypeAlias { shape: AliasShape::Hash },
        ("type_alias", _) => TypeAlias { shape: AliasShape::Value },
        ("type_alias_lhs", _) => KeepAll(1),
        ("type_definition", r) => TypeDefinition { parent: r.contains("INHERITS") },
        ("variable", _) => Variable,
        ("reserved_word", _) => Reserved,
        ("array", r) => Array { entries: r.contains("collection_entries") },
        ("hash", r) => Hash { pairs: r.contains("hashpairs") },
        ("hashpairs", "hashpair") => FirstExpr,
        ("hashpairs", _) => NextExpr,
        ("hashpair", _) => HashPair,
        ("hash_entry", "assignment") => Keep(0),
        ("string", "STRING") => StringToken,
        ("string", "WORD") => Word,
        ("dq_string", _) => DqString,
        ("dqrval", _) => TextExpression,
        ("text_expression", _) => Keep(0),
        ("dqtail", "dqpost") => Tail,
        ("dqtail", _) => MoreTail,
        ("heredoc", _) => Heredoc,
        ("sublocated_text", _) => Sublocated,
        ("type", _) => TypeRef,
        ("regex", _) => Regex,
        ("endcomma" | "endsemi" | "nil", _) => Nothing,
        (
            "assignment"
            | "relationship"
            | "resource"
            | "expression"
            | "primary_expression"
            | "quotedtext"
            | "call_function_start"
            | "call_method_with_lambda_expression",
            _,
        ) => Keep(0),
        _ => Refuse,
    }
}

fn binary_op(terminal: &str) -> Option<BinaryOp> {
    Some(match terminal {
        "IN" => BinaryOp::In,
        "MATCH" => BinaryOp::Match,
        "NOMATCH" => BinaryOp::NotMatch,
        "PLUS" => BinaryOp::Add,
        "MINUS" => BinaryOp::Subtract,
        "DIV" => BinaryOp::Divide,
        "TIMES" => BinaryOp::Multiply,
        "MODULO" => BinaryOp::Modulo,
        "LSHIFT" => BinaryOp::LeftShift,
        "RSHIFT" => BinaryOp::RightShift,
        "NOTEQUAL" => BinaryOp::NotEqual,
        "ISEQUAL" => BinaryOp::Equal,
        "GREATERTHAN" => BinaryOp::Greater,
        "GREATEREQUAL" => BinaryOp::GreaterEqual,
        "LESSTHAN" => BinaryOp::Less,
        "LESSEQUAL" => BinaryOp::LessEqual,
        "AND" => BinaryOp::And,
        "OR" => BinaryOp::Or,
        _ => return None,
    })
}

fn acts() -> &'static [Act] {
    static ACTS: OnceLock<Vec<Act>> = OnceLock::new();
    ACTS.get_or_init(|| RULES.iter().map(|r| act(r)).collect())
}

/// Which rules pass their one symbol's value on unchanged (`Keep(0)` of one symbol).
fn passing() -> &'static [bool] {
    static PASSING: OnceLock<Vec<bool>> = OnceLock::new();
    PASSING.get_or_init(|| {
        let one_symbol = |rule: &str| rule.split_once(" : ").is_some_and(|(_, rhs)| rhs.split(' ').count() == 1);
        RULES.iter().zip(acts()).map(|(rule, act)| *act == Act::Keep(0) && one_symbol(rule)).collect()
    })
}

struct Builder<'a> {
    source: &'a str,
    lexed: &'a Lexed,
    lines: Lines,
    /// Each token's line and column.
    positions: Vec<(u32, u32)>,
    /// The names of the enclosing classes, as written.
    namestack: Vec<String>,
}

/// Where the fast path gives up (the lowering answers).
fn refuse<T>() -> Result<T, Outcome> {
    Err(Outcome::Rejected(usize::MAX))
}

impl Builder<'_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span { end, ..self.lines.span_at(self.source, start) }
    }

    fn token_text(&self, i: usize) -> &str {
        self.lexed.tokens.get(i).and_then(|t| self.source.get(t.start..t.end)).unwrap_or("")
    }

    fn token_span(&self, i: usize) -> Span {
        match (self.lexed.tokens.get(i), self.positions.get(i)) {
            (Some(t), Some(&(line, column))) => Span { start: t.start, end: t.end, line, column },
            _ => self.span(self.source.len(), self.source.len()),
        }
    }

    /// The span from where `v` starts to `end`.
    fn span_from(&self, v: &V, end: usize) -> Span {
        if v.start <= v.end {
            Span { start: v.start, end, line: v.line, column: v.column }
        } else {
            self.span(v.start, end)
        }
    }
}

/// Where an `endcomma` ends, when it is a comma.
fn comma_end(v: &V) -> Option<usize> {
    (v.start <= v.end).then_some(v.end)
}

fn take(v: &mut V) -> Val {
    std::mem::replace(&mut v.val, Val::Nothing)
}

fn expr(v: &mut V) -> Result<Expr, Outcome> {
    match take(v) {
        Val::Expr(e) => Ok(e),
        _ => refuse(),
    }
}

fn boxed(v: &mut V) -> Result<Box<Expr>, Outcome> {
    expr(v).map(Box::new)
}

fn token(v: &V) -> Result<usize, Outcome> {
    match v.val {
        Val::Tok(i) => Ok(i),
        _ => refuse(),
    }
}

macro_rules! get {
    ($v:expr, $pat:ident) => {
        match take($v) {
            Val::$pat(x) => x,
            _ => return refuse(),
        }
    };
}

impl Actions for Builder<'_> {
    type Value = V;

    fn passes(&self, rule: usize) -> bool {
        passing().get(rule).copied().unwrap_or(false)
    }

    fn shift(&mut self, token: usize) -> V {
        let (start, end) = self.lexed.tokens.get(token).map_or((usize::MAX, 0), |t| (t.start, t.end));
        let (line, column) = self.positions.get(token).copied().unwrap_or((0, 0));
        V { val: Val::Tok(token), start, end, line, column, height: 0 }
    }

    fn reduce(&mut self, rule: usize, vs: &mut [V], _next: usize) -> Result<V, Outcome> {
        let act = acts().get(rule).copied().unwrap_or(Act::Refuse);
        // the bytes the right-hand side covers, and how deep it nests
        let first = vs.iter().find(|v| v.start <= v.end);
        let start = first.map_or(usize::MAX, |v| v.start);
        let end = vs.iter().rev().find(|v| v.start <= v.end).map_or(0, |v| v.end);
        let height = vs.iter().map(|v| v.height).max().unwrap_or(0);
        if height > MAX_HEIGHT {
            return refuse();
        }
        let span = match first {
            Some(v) => Span { start, end, line: v.line, column: v.column },
            None => self.span(start, end),
        };
        let e = |kind: ExprKind| Val::Expr(Expr::new(kind, span));
        let val = match act {
            Act::Keep(k) => match vs.get_mut(k) {
                Some(v) => {
                    let v = std::mem::replace(v, V::NONE);
                    return Ok(v);
                }
                None => return refuse(),
            },
            Act::KeepAll(k) => match vs.get_mut(k) {
                Some(v) => take(v),
                None => return refuse(),
            },
            Act::Nothing => Val::Nothing,
            Act::Refuse => return refuse(),
            Act::Program => {
                let statements = get!(&mut vs[0], Exprs);
                Val::Program(Program { body: block_or_expression(statements, self.root_span()) })
            }
            Act::EmptyProgram => Val::Program(Program { body: None }),
            Act::Statements => {
                let statements = get!(&mut vs[0], Stmts);
                Val::Exprs(self.transform_calls(statements)?)
            }
            Act::FirstStmt => Val::Stmts(vec![get!(&mut vs[0], Stmt)]),
            Act::NextStmt(k) => {
                let mut list = get!(&mut vs[0], Stmts);
                list.push(get!(&mut vs[k], Stmt));
                Val::Stmts(list)
            }
            Act::OneStmt => Val::Stmt(Stmt::One(expr(&mut vs[0])?)),
            Act::MoreStmt => {
                let last = expr(&mut vs[2])?;
                match get!(&mut vs[0], Stmt) {
                    Stmt::One(first) => Val::Stmt(Stmt::Commas(vec![first, last])),
                    Stmt::Commas(mut list) => {
                        list.push(last);
                        Val::Stmt(Stmt::Commas(list))
                    }
                }
            }
            Act::Assign(op) => {
                let at = self.token_span(token(&vs[1])?);
                let kind = ExprKind::Assignment { op, left: boxed(&mut vs[0])?, right: boxed(&mut vs[2])? };
                Val::Expr(Expr::placed(kind, span, at))
            }
            Act::ArgOf => Val::Arg(Argument { expr: expr(&mut vs[0])?, unfolded: false }),
            Act::ArgOfPair => {
                let pair = expr(&mut vs[0])?;
                let span = pair.span;
                Val::Arg(Argument { expr: Expr::new(ExprKind::Hash(vec![pair]), span), unfolded: true })
            }
            Act::FirstArg => Val::Args(vec![get!(&mut vs[0], Arg)]),
            Act::NextArg => {
                let mut list = get!(&mut vs[0], Args);
                list.push(get!(&mut vs[2], Arg));
                Val::Args(list)
            }
            Act::Relation(op) => {
                let at = self.token_span(token(&vs[1])?);
                let kind = ExprKind::Relationship { op, left: boxed(&mut vs[0])?, right: boxed(&mut vs[2])? };
                Val::Expr(Expr::placed(kind, span, at))
            }
            Act::Virtual(form) => {
                let mut inner = expr(&mut vs[1])?;
                match &mut inner.kind {
                    ExprKind::Resource { form: f, .. } | ExprKind::ResourceDefaults { form: f, .. } => *f = form,
                    _ => return refuse(),
                }
                e(inner.kind)
            }
            Act::Titled => {
                let type_name = boxed(&mut vs[0])?;
                let title = expr(&mut vs[2])?;
                let operations = get!(&mut vs[4], Ops);
                let Val::Additional(comma, more) = take(&mut vs[5]) else { return refuse() };
                let body_end = match comma {
                    Some(end) => end,
                    None if vs[4].start <= vs[4].end => vs[4].end,
                    None => vs[3].end,
                };
                let first = ResourceBody { title, operations, span: self.span_from(&vs[2], body_end) };
                let mut bodies = vec![first];
                bodies.extend(more);
                e(ExprKind::Resource { form: ResourceForm::Regular, type_name, bodies })
            }
            Act::ClassResource => {
                let name = Expr::new(ExprKind::QualifiedName("class".into()), self.token_span(token(&vs[0])?));
                let bodies = get!(&mut vs[2], Bodies);
                e(ExprKind::Resource { form: ResourceForm::Regular, type_name: Box::new(name), bodies })
            }
            Act::Untitled => {
                let left = expr(&mut vs[0])?;
                let operations = get!(&mut vs[2], Ops);
                match &left.kind {
                    ExprKind::QualifiedName(name) => {
                        let name = name.clone();
                        return self.resource_without_title(name, left, operations, span, height);
                    }
                    ExprKind::QualifiedReference(_) => e(ExprKind::ResourceDefaults {
                        form: ResourceForm::Regular,
                        type_ref: Box::new(left),
                        operations,
                    }),
                    ExprKind::Access { .. } => e(ExprKind::ResourceOverride {
                        form: ResourceForm::Regular,
                        resources: Box::new(left),
                        operations,
                    }),
                    _ => return refuse(),
                }
            }
            Act::ResourceBody => {
                let title = expr(&mut vs[0])?;
                let operations = get!(&mut vs[2], Ops);
                Val::Body(Box::new(ResourceBody { title, operations, span }))
            }
            Act::FirstBody => Val::Bodies(vec![*get!(&mut vs[0], Body)]),
            Act::NextBody => {
                let mut list = get!(&mut vs[0], Bodies);
                list.push(*get!(&mut vs[2], Body));
                Val::Bodies(list)
            }
            Act::NoMoreBodies => Val::Additional(comma_end(&vs[0]), Vec::new()),
            Act::MoreBodies => Val::Additional(comma_end(&vs[0]), get!(&mut vs[2], Bodies)),
            Act::Binary(op) => {
                let at = self.token_span(token(&vs[1])?);
                let kind = ExprKind::Binary { op, left: boxed(&mut vs[0])?, right: boxed(&mut vs[2])? };
                Val::Expr(Expr::placed(kind, span, at))
            }
            Act::Negate => e(ExprKind::Negate(boxed(&mut vs[1])?)),
            Act::Unfold => e(ExprKind::Unfold(boxed(&mut vs[1])?)),
            Act::Not => e(ExprKind::Not(boxed(&mut vs[1])?)),
            Act::Selector => {
                let left = boxed(&mut vs[0])?;
                let at = left.at;
                let entries = get!(&mut vs[2], Entries);
                Val::Expr(Expr::placed(ExprKind::Selector { left, entries }, span, at))
            }
            Act::Paren => e(ExprKind::Paren(boxed(&mut vs[1])?)),
            Act::Access => {
                let left = boxed(&mut vs[0])?;
                let at = left.at;
                let keys = merge_unfolded_hashes(get!(&mut vs[2], Args));
                Val::Expr(Expr::placed(ExprKind::Access { left, keys }, span, at))
            }
            Act::FirstExpr => Val::Exprs(vec![expr(&mut vs[0])?]),
            Act::NextExpr => {
                let mut list = get!(&mut vs[0], Exprs);
                list.push(expr(&mut vs[2])?);
                Val::Exprs(list)
            }
            Act::Number => match parse_number(self.token_text(token(&vs[0])?)) {
                Ok(ExprKind::Float(f)) if f.is_infinite() => return refuse(),
                Ok(kind) => e(kind),
                Err(_) => return refuse(),
            },
            Act::Boolean => e(ExprKind::Boolean(self.token_text(token(&vs[0])?) == "true")),
            Act::Default => e(ExprKind::Default),
            Act::Undef => e(ExprKind::Undef),
            Act::QName => e(ExprKind::QualifiedName(self.token_text(token(&vs[0])?).to_string())),
            Act::Call { arguments, lambda } => {
                let functor = boxed(&mut vs[0])?;
                let at = functor.at;
                let arguments = if arguments { merge_unfolded_hashes(get!(&mut vs[1], Args)) } else { Vec::new() };
                let lambda = match vs.last_mut() {
                    Some(v) if lambda => Some(Rc::new(get!(v, Lambda))),
                    _ => None,
                };
                let kind = ExprKind::Call { kind: CallKind::Function, functor, arguments, lambda, rval_required: true };
                Val::Expr(Expr::placed(kind, span, at))
            }
            Act::TypeFunctor => {
                let name = Expr::new(ExprKind::QualifiedName("type".into()), self.token_span(token(&vs[0])?));
                let (line, column) = (span.line, span.column);
                return Ok(V { val: Val::Expr(name), start, end: vs[0].end, line, column, height: 1 });
            }
            Act::WithLambda => {
                let mut call = expr(&mut vs[0])?;
                let l = get!(&mut vs[1], Lambda);
                match &mut call.kind {
                    ExprKind::Call { lambda, .. } => *lambda = Some(Rc::new(l)),
                    _ => return refuse(),
                }
                Val::Expr(Expr::placed(call.kind, span, call.at))
            }
            Act::MethodCall { arguments } => {
                let functor = boxed(&mut vs[0])?;
                let at = self.token_span(token(&vs[1])?);
                let arguments = if arguments { merge_unfolded_hashes(get!(&mut vs[2], Args)) } else { Vec::new() };
                let kind =
                    ExprKind::Call { kind: CallKind::Method, functor, arguments, lambda: None, rval_required: true };
                Val::Expr(Expr::placed(kind, span, at))
            }
            Act::MethodWithoutParens => {
                let functor = boxed(&mut vs[0])?;
                let at = functor.at;
                let kind = ExprKind::Call {
                    kind: CallKind::Method,
                    functor,
                    arguments: Vec::new(),
                    lambda: None,
                    rval_required: true,
                };
                Val::Expr(Expr::placed(kind, span, at))
            }
            Act::NamedAccess => {
                let left = boxed(&mut vs[0])?;
                let name = token(&vs[2])?;
                let right =
                    Expr::new(ExprKind::QualifiedName(self.token_text(name).to_string()), self.token_span(name));
                let at = self.token_span(token(&vs[1])?);
                Val::Expr(Expr::placed(ExprKind::NamedAccess { left, right: Box::new(right) }, span, at))
            }
            Act::Lambda => {
                let parameters = get!(&mut vs[0], Params);
                let return_type = match take(&mut vs[1]) {
                    Val::Expr(t) => Some(Box::new(t)),
                    _ => None,
                };
                let body = get!(&mut vs[2], Block);
                Val::Lambda(Lambda { parameters, return_type, body, span })
            }
            Act::BracedBody => {
                let k = vs.len() - 2;
                let statements = get!(&mut vs[k], Exprs);
                let braces = self.span_from(&vs[k - 1], vs[k + 1].end);
                Val::Block(block_or_expression(statements, braces).map(Box::new))
            }
            Act::EmptyBody => Val::Block(None),
            Act::NoParameters => Val::Params(Vec::new()),
            Act::Parameters => Val::Params(get!(&mut vs[1], Params)),
            Act::If => match take(&mut vs[1]) {
                Val::IfPart(test, then, otherwise) => e(ExprKind::If { test, then, otherwise }),
                _ => return refuse(),
            },
            Act::IfPart { body } => {
                let test = boxed(&mut vs[0])?;
                let then = if body { self.braced(vs, 1)? } else { None };
                let otherwise = match vs.last_mut().map(take) {
                    Some(Val::Else(o) | Val::Block(o)) => o,
                    _ => return refuse(),
                };
                Val::IfPart(test, then, otherwise)
            }
            Act::NoElse => Val::Else(None),
            Act::Elsif => match take(&mut vs[1]) {
                Val::IfPart(test, then, otherwise) => {
                    Val::Else(Some(Box::new(Expr::new(ExprKind::If { test, then, otherwise }, span))))
                }
                _ => return refuse(),
            },
            Act::ElseBody => Val::Else(self.braced(vs, 1)?),
            Act::Unless { body } => {
                let test = boxed(&mut vs[1])?;
                let then = if body { self.braced(vs, 2)? } else { None };
                let otherwise = match vs.last_mut().map(take) {
                    Some(Val::Else(o) | Val::Block(o)) => o,
                    _ => return refuse(),
                };
                e(ExprKind::Unless { test, then, otherwise })
            }
            Act::Case => {
                let test = boxed(&mut vs[1])?;
                let options = get!(&mut vs[3], CaseOptions);
                e(ExprKind::Case { test, options })
            }
            Act::FirstOption => Val::CaseOptions(vec![*get!(&mut vs[0], CaseOption)]),
            Act::NextOption => {
                let mut list = get!(&mut vs[0], CaseOptions);
                list.push(*get!(&mut vs[1], CaseOption));
                Val::CaseOptions(list)
            }
            Act::CaseOption => {
                let values = get!(&mut vs[0], Exprs);
                let body = self.braced(vs, 2)?.map(|b| *b);
                Val::CaseOption(Box::new(CaseOption { values, body, span }))
            }
            Act::FirstEntry => Val::Entries(vec![*get!(&mut vs[0], Entry)]),
            Act::BracedEntries => Val::Entries(get!(&mut vs[1], Entries)),
            Act::NextEntry => {
                let mut list = get!(&mut vs[0], Entries);
                list.push(*get!(&mut vs[2], Entry));
                Val::Entries(list)
            }
            Act::Entry => Val::Entry(Box::new(SelectorEntry { matching: expr(&mut vs[0])?, value: expr(&mut vs[2])? })),
            Act::Collect { operations } => {
                let type_expr = boxed(&mut vs[0])?;
                let (exported, query) = match take(&mut vs[1]) {
                    Val::Query(exported, query) => (exported, query),
                    _ => return refuse(),
                };
                let operations = if operations { get!(&mut vs[3], Ops) } else { Vec::new() };
                e(ExprKind::Collect { type_expr, exported, query, operations })
            }
            Act::Query { exported } => {
                let query = match take(&mut vs[1]) {
                    Val::Expr(q) => Some(Box::new(q)),
                    _ => None,
                };
                Val::Query(exported, query)
            }
            Act::NoOperations => Val::Ops(Vec::new()),
            Act::FirstOperation => Val::Ops(vec![*get!(&mut vs[0], Op)]),
            Act::NextOperation => {
                let mut list = get!(&mut vs[0], Ops);
                list.push(*get!(&mut vs[2], Op));
                Val::Ops(list)
            }
            Act::Attribute { append } => {
                let name = self.token_text(token(&vs[0])?).to_string();
                Val::Op(Box::new(AttributeOp::Set { name, append, value: expr(&mut vs[2])?, span }))
            }
            Act::Splat => Val::Op(Box::new(AttributeOp::Splat { value: expr(&mut vs[2])?, span })),
            Act::Define => {
                let name = self.qualified(&get!(&mut vs[1], Name));
                let parameters = get!(&mut vs[2], Params);
                let body = self.braced(vs, 3)?;
                e(ExprKind::Define { name, parameters, body })
            }
            Act::Class => {
                let name = get!(&mut vs[1], Name);
                self.namestack.pop();
                let parameters = get!(&mut vs[2], Params);
                let parent = match take(&mut vs[3]) {
                    Val::Name(p) => Some(p),
                    _ => None,
                };
                let body = self.braced(vs, 4)?;
                e(ExprKind::Class { name, parameters, parent, body })
            }
            Act::StackedName => {
                let name = get!(&mut vs[0], Name);
                let qualified = self.qualified(&name);
                self.namestack.push(name);
                Val::Name(qualified)
            }
            Act::Parent => match take(&mut vs[1]) {
                Val::Name(n) => Val::Name(n),
                _ => return refuse(),
            },
            Act::Node { body } => {
                let matches = get!(&mut vs[1], Exprs);
                let parent = match take(&mut vs[3]) {
                    Val::Expr(p) => Some(Box::new(p)),
                    _ => None,
                };
                let body = if body { self.braced(vs, 4)? } else { None };
                e(ExprKind::Node { matches, parent, body })
            }
            Act::FirstHost => Val::Exprs(vec![expr(&mut vs[0])?]),
            Act::NextHost => {
                let mut list = get!(&mut vs[0], Exprs);
                list.push(expr(&mut vs[2])?);
                Val::Exprs(list)
            }
            Act::Hostname => e(ExprKind::String(get!(&mut vs[0], Dotted).into())),
            Act::HostDefault => e(ExprKind::Default),
            Act::FirstDot => Val::Dotted(self.token_text(token(&vs[0])?).to_string()),
            Act::NextDot => {
                let mut name = get!(&mut vs[0], Dotted);
                name.push('.');
                name.push_str(self.token_text(token(&vs[2])?));
                Val::Dotted(name)
            }
            Act::Function => {
                let name = get!(&mut vs[1], Name);
                let parameters = get!(&mut vs[2], Params);
                let return_type = match take(&mut vs[3]) {
                    Val::Expr(t) => Some(Box::new(t)),
                    _ => None,
                };
                let body = self.braced(vs, 4)?;
                e(ExprKind::Function { name, parameters, body, return_type })
            }
            Act::ReturnType { access } => {
                let t = expr(&mut vs[1])?;
                if access {
                    let keys = merge_unfolded_hashes(get!(&mut vs[3], Args));
                    let at = t.at;
                    let span = self.span_from(&vs[1], end);
                    Val::Expr(Expr::placed(ExprKind::Access { left: Box::new(t), keys }, span, at))
                } else {
                    Val::Expr(t)
                }
            }
            Act::Name => Val::Name(self.token_text(token(&vs[0])?).to_string()),
            Act::EmptyParameterList => Val::Params(Vec::new()),
            Act::ParameterList => Val::Params(get!(&mut vs[1], Params)),
            Act::FirstParameter => Val::Params(vec![*get!(&mut vs[0], Param)]),
            Act::NextParameter => {
                let mut list = get!(&mut vs[0], Params);
                list.push(*get!(&mut vs[2], Param));
                Val::Params(list)
            }
            Act::Parameter { default } => {
                let variable = token(&vs[0])?;
                let name = self.lexed.value(self.source, variable).into_owned();
                let value = if default { Some(expr(&mut vs[2])?) } else { None };
                let at = self.token_span(variable);
                Val::Param(Box::new(Parameter { name, type_expr: None, captures_rest: false, value, span, at }))
            }
            Act::SplatParameter => {
                let mut p = get!(&mut vs[1], Param);
                p.captures_rest = true;
                p.span = span;
                Val::Param(p)
            }
            Act::TypedParameter => {
                let t = expr(&mut vs[0])?;
                let mut p = get!(&mut vs[1], Param);
                p.type_expr = Some(t);
                p.span = span;
                Val::Param(p)
            }
            Act::ParameterType => {
                let left = boxed(&mut vs[0])?;
                let at = left.at;
                let keys = merge_unfolded_hashes(get!(&mut vs[2], Args));
                Val::Expr(Expr::placed(ExprKind::Access { left, keys }, span, at))
            }
            Act::TypeAlias { shape } => self.type_alias(vs, shape, span)?,
            Act::TypeDefinition { parent } => {
                let name = self.token_text(token(&vs[1])?).to_string();
                let (parent, k) = match parent {
                    true => (Some(self.token_text(token(&vs[3])?).to_string()), 4),
                    false => (None, 2),
                };
                let body = self.braced(vs, k)?;
                e(ExprKind::TypeDefinition { name, parent, body })
            }
            Act::Variable => {
                let i = token(&vs[0])?;
                let text = self.token_text(i);
                if text.starts_with('$') {
                    e(ExprKind::Variable(self.lexed.value(self.source, i).into_owned()))
                } else if text == "true" || text == "false" {
                    // `${true}`: the lexer made the BOOLEAN token a variable
                    let value = Expr::new(ExprKind::Boolean(text == "true"), span);
                    e(ExprKind::VariableOf(Box::new(value)))
                } else {
                    e(ExprKind::Variable(text.to_string()))
                }
            }
            Act::Reserved => e(ExprKind::Reserved(self.token_text(token(&vs[0])?).to_string())),
            Act::Array { entries } => {
                let items = if entries { merge_unfolded_hashes(get!(&mut vs[1], Args)) } else { Vec::new() };
                e(ExprKind::Array(items))
            }
            Act::Hash { pairs } => {
                let entries = if pairs { get!(&mut vs[1], Exprs) } else { Vec::new() };
                e(ExprKind::Hash(entries))
            }
            Act::HashPair => {
                let at = self.token_span(token(&vs[1])?);
                let kind = ExprKind::KeyedEntry { key: boxed(&mut vs[0])?, value: boxed(&mut vs[2])? };
                Val::Expr(Expr::placed(kind, span, at))
            }
            Act::StringToken => {
                let i = token(&vs[0])?;
                e(ExprKind::String(self.lexed.value(self.source, i).as_ref().into()))
            }
            Act::Word => e(ExprKind::String(self.token_text(token(&vs[0])?).into())),
            Act::WordArg => {
                let word = Expr::new(ExprKind::String(self.token_text(token(&vs[0])?).into()), span);
                Val::Arg(Argument { expr: word, unfolded: false })
            }
            Act::DqString => {
                let mut pieces = get!(&mut vs[1], Pieces);
                let pre = token(&vs[0])?;
                pieces.push(Piece::Text(self.lexed.value(self.source, pre).into_owned()));
                let mut segments = Segments::default();
                for piece in pieces.into_iter().rev() {
                    match piece {
                        Piece::Text(t) => segments.text(&t),
                        Piece::Expr(x) => segments.expr(x),
                    }
                }
                Val::Expr(segments.into_expr(span))
            }
            Act::TextExpression => {
                let inner = expr(&mut vs[0])?;
                let text_span = self.interpolation_span(&vs[0])?;
                let mut pieces = get!(&mut vs[1], Pieces);
                pieces.push(Piece::Expr(Expr::new(ExprKind::Text(Box::new(inner)), text_span)));
                Val::Pieces(pieces)
            }
            Act::Tail => {
                let post = token(&vs[0])?;
                Val::Pieces(vec![Piece::Text(self.lexed.value(self.source, post).into_owned())])
            }
            Act::MoreTail => {
                let mid = token(&vs[0])?;
                let mut pieces = get!(&mut vs[1], Pieces);
                pieces.push(Piece::Text(self.lexed.value(self.source, mid).into_owned()));
                Val::Pieces(pieces)
            }
            Act::Heredoc => {
                let header = token(&vs[0])?;
                let header_span = self.token_span(header);
                let syntax = self.lexed.value(self.source, header).into_owned();
                let mut text = expr(&mut vs[1])?;
                text.span = header_span;
                text.at = header_span;
                if let ExprKind::Concat(parts) = &mut text.kind {
                    for part in parts {
                        if matches!(part.kind, ExprKind::String(_)) {
                            part.span = header_span;
                        }
                    }
                }
                let heredoc = Expr::new(ExprKind::Heredoc { syntax, text: Box::new(text) }, header_span);
                return Ok(V {
                    val: Val::Expr(heredoc),
                    start: header_span.start,
                    end: header_span.end,
                    line: header_span.line,
                    column: header_span.column,
                    height: height + 1,
                });
            }
            Act::Sublocated => return Ok(std::mem::replace(&mut vs[1], V::NONE)),
            Act::TypeRef => e(ExprKind::QualifiedReference(self.token_text(token(&vs[0])?).to_string())),
            Act::Regex => e(ExprKind::Regex(regex_source(self.token_text(token(&vs[0])?)))),
        };
        let height = if matches!(val, Val::Expr(_)) { height + 1 } else { height };
        Ok(V { val, start, end, line: span.line, column: span.column, height })
    }
}

impl Builder<'_> {
    /// The program's span: the whole source, as tree-sitter's root.
    fn root_span(&self) -> Span {
        self.span(0, self.source.len())
    }

    /// The body of `LBRACE statements RBRACE` (or `LBRACE RBRACE`) starting at `vs[k]`.
    fn braced(&self, vs: &mut [V], k: usize) -> Result<Option<Box<Expr>>, Outcome> {
        if token(&vs[k]).is_err() {
            return refuse();
        }
        let (statements, close) = match vs.get_mut(k + 1).map(take) {
            Some(Val::Exprs(list)) => (list, k + 2),
            Some(Val::Tok(_)) => return Ok(None),
            Some(Val::Nothing) => (Vec::new(), k + 2),
            _ => return refuse(),
        };
        let Some(close) = vs.get(close) else { return refuse() };
        let braces = self.span_from(&vs[k], close.end);
        Ok(block_or_expression(statements, braces).map(Box::new))
    }

    /// A class or define name with the enclosing classes' names: Puppet's
    /// `[namespace, name].join('::').sub(/^::/, '')`.
    fn qualified(&self, name: &str) -> String {
        let joined = format!("{}::{name}", self.namestack.join("::"));
        joined.strip_prefix("::").map_or(joined.clone(), str::to_string)
    }

    /// `${ … }` around an interpolated expression (`$x` alone: the variable's token).
    fn interpolation_span(&self, inner: &V) -> Result<Span, Outcome> {
        let bytes = self.source.as_bytes();
        let before = bytes.get(..inner.start).unwrap_or(&[]);
        let open = before.iter().rposition(|b| !b.is_ascii_whitespace());
        let braced = open.is_some_and(|i| i >= 1 && bytes[i] == b'{' && bytes[i - 1] == b'$');
        if !braced {
            if bytes.get(inner.start) == Some(&b'$') {
                return Ok(self.span_from(inner, inner.end));
            }
            return refuse();
        }
        let after = bytes.get(inner.end..).unwrap_or(&[]);
        let Some(close) = after.iter().position(|b| !b.is_ascii_whitespace()) else { return refuse() };
        if after[close] != b'}' {
            return refuse();
        }
        let start = open.map_or(0, |i| i - 1);
        Ok(self.span(start, inner.end + close + 1))
    }

    /// Factory.transform_calls: a statement-call name followed by a statement takes it as its
    /// argument(s); a call standing as a statement does not need its value.
    fn transform_calls(&self, statements: Vec<Stmt>) -> Result<Vec<Expr>, Outcome> {
        let mut out: Vec<Expr> = Vec::with_capacity(statements.len());
        for statement in statements {
            let callee = match out.last() {
                Some(Expr { kind: ExprKind::QualifiedName(name), .. }) => STATEMENT_CALLS.contains(&name.as_str()),
                _ => false,
            };
            if callee {
                let Some(name) = out.pop() else { return refuse() };
                let mut arguments = match statement {
                    Stmt::One(e) => vec![e],
                    Stmt::Commas(list) => list,
                };
                names_as_strings(&mut arguments);
                let end = arguments.last().map_or(name.span.end, |a| a.span.end);
                let span = Span { end, ..name.span };
                let at = name.at;
                let kind = ExprKind::Call {
                    kind: CallKind::Function,
                    functor: Box::new(name),
                    arguments,
                    lambda: None,
                    rval_required: false,
                };
                out.push(Expr::placed(kind, span, at));
                continue;
            }
            match statement {
                Stmt::One(mut e) => {
                    if let ExprKind::Call { kind: CallKind::Function, rval_required, .. } = &mut e.kind {
                        *rval_required = false;
                    }
                    out.push(e);
                }
                Stmt::Commas(_) => return refuse(),
            }
        }
        Ok(out)
    }

    /// `foo { a => 1 }`: Puppet's `transform_resource_wo_title` (a `+>` is Puppet's error,
    /// which the lowering reports).
    fn resource_without_title(
        &self,
        name: String,
        left: Expr,
        operations: Vec<AttributeOp>,
        span: Span,
        height: u16,
    ) -> Result<V, Outcome> {
        let Some(entries) = title_less_entries(operations) else { return refuse() };
        let e = title_less_resource(name, left, entries, span);
        Ok(V {
            val: Val::Expr(e),
            start: span.start,
            end: span.end,
            line: span.line,
            column: span.column,
            height: height + 1,
        })
    }

    /// `type A = …` (see the lowering's `type_alias`).
    fn type_alias(&self, vs: &mut [V], shape: AliasShape, span: Span) -> Result<Val, Outcome> {
        let lhs = expr(&mut vs[0])?;
        let rhs_span = self.span_from(&vs[2], vs.last().map_or(vs[2].end, |v| v.end));
        let rhs = match shape {
            AliasShape::ParentHash => {
                let parent = expr(&mut vs[2])?;
                object_with_parent(parent, expr(&mut vs[3])?, rhs_span)
            }
            AliasShape::Access => {
                let left = boxed(&mut vs[2])?;
                let at = left.at;
                let keys = merge_unfolded_hashes(get!(&mut vs[4], Args));
                Expr::placed(ExprKind::Access { left, keys }, rhs_span, at)
            }
            AliasShape::Value | AliasShape::Hash => expr(&mut vs[2])?,
        };
        let at = lhs.span;
        if matches!(lhs.kind, ExprKind::Access { .. }) {
            let kind = ExprKind::TypeMapping { type_expr: Box::new(lhs), mapping_expr: Box::new(rhs) };
            return Ok(Val::Expr(Expr::placed(kind, span, at)));
        }
        let rhs = object_of_hash(rhs);
        let ExprKind::QualifiedReference(name) = lhs.kind else { return refuse() };
        Ok(Val::Expr(Expr::placed(ExprKind::TypeAlias { name, type_expr: Box::new(rhs) }, span, at)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule of Puppet's grammar has an action, and only the ones left to the lowering
    /// refuse.
    #[test]
    fn every_rule_has_its_action() {
        let refused: Vec<&str> = RULES.iter().copied().filter(|r| act(r) == Act::Refuse).collect();
        for rule in &refused {
            let lhs = rule.split(" :").next().unwrap_or("");
            assert!(
                matches!(
                    lhs,
                    "$start"
                        | "program"
                        | "primary_expression"
                        | "plan_expression"
                        | "apply_expression"
                        | "epp_expression"
                        | "epp_parameters_list"
                        | "epp_render_expression"
                        | "epp_end"
                        | "classname"
                ),
                "{rule}"
            );
        }
    }
}
