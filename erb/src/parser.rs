//! Ruby's grammar, for what templates contain: statements with modifiers, `and`/`or`/`not`,
//! assignment (also `+=`, `||=` and several targets), the ternary, ranges, the binary
//! operators by Ruby's precedence, method calls with and without parentheses, blocks,
//! literals, and `if`/`unless`/`case`/`while`/`until`/`for`/`begin`. What it does not
//! parse is reported as unsupported Ruby, naming the construct.

use std::collections::HashSet;
use std::rc::Rc;

use crate::ast::{Begin, BlockDef, Body, Call, Node, Param, RegexpLit, Rescue, Seg, Target};
use crate::error::{Error, Result};
use crate::lexer::{StrPart, Tok, Token};

/// How deep expressions may nest (a bound for the parser's and the interpreter's stack).
pub const MAX_DEPTH: usize = 128;

/// Parses a compiled template's tokens.
pub fn parse(tokens: Vec<Token>, end: usize) -> Result<Body> {
    let eof = Token { tok: Tok::Eof, at: end, space_before: false };
    let mut p = Parser {
        toks: tokens,
        pos: 0,
        end,
        locals: vec![HashSet::new()],
        depth: 0,
        no_do: 0,
        eof,
        numbered: Vec::new(),
    };
    let body = p.stmts()?;
    match p.peek() {
        Tok::Eof => Ok(body),
        _ => Err(p.unexpected()),
    }
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    /// Where the code ends (for errors at its end).
    end: usize,
    /// The local variables of each open scope (blocks see their enclosing ones).
    locals: Vec<HashSet<Rc<str>>>,
    depth: usize,
    /// Inside a `while`/`until`/`for` condition, `do` belongs to the loop.
    no_do: usize,
    eof: Token,
    /// For each open block without parameters, the highest numbered parameter (`_1`) its
    /// body uses; `None` for blocks that have parameters.
    numbered: Vec<Option<usize>>,
}

/// Binary operators: precedence (higher binds tighter) and whether they are calls.
fn binary(tok: &Tok) -> Option<(u8, &'static str)> {
    let Tok::Op(op) = tok else { return None };
    let prec = match *op {
        "||" => 1,
        "&&" => 2,
        "<=>" | "==" | "===" | "!=" | "=~" | "!~" => 4,
        "<" | "<=" | ">" | ">=" => 5,
        "|" | "^" => 6,
        "&" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    };
    Some((prec, op))
}

impl Parser {
    fn tok(&self) -> &Token {
        self.toks.get(self.pos).unwrap_or(&self.eof)
    }

    fn peek(&self) -> &Tok {
        &self.tok().tok
    }

    fn at(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end, |t| t.at)
    }

    fn bump(&mut self) -> Token {
        let t = self.tok().clone();
        self.pos += 1;
        t
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }

    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Kw(k) if *k == kw)
    }

    fn eat_op(&mut self, op: &str) -> bool {
        let yes = self.is_op(op);
        if yes {
            self.pos += 1;
        }
        yes
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        let yes = self.is_kw(kw);
        if yes {
            self.pos += 1;
        }
        yes
    }

    fn expect_op(&mut self, op: &str) -> Result<()> {
        if self.eat_op(op) {
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    fn expect_kw(&mut self, kw: &str) -> Result<()> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    fn skip_terms(&mut self) {
        while matches!(self.peek(), Tok::Term) {
            self.pos += 1;
        }
    }

    /// Ruby's "syntax error, unexpected X".
    fn unexpected(&self) -> Error {
        let what = match self.peek() {
            Tok::Eof => "end-of-input".to_string(),
            Tok::Term => "newline or ';'".to_string(),
            Tok::Kw(k) => format!("`{k}'"),
            Tok::Op(o) => format!("'{o}'"),
            Tok::Ident(n) | Tok::Const(n) | Tok::IVar(n) => format!("`{n}'"),
            Tok::Int(_) | Tok::Float(_) => "number".into(),
            Tok::Str(_) | Tok::Words(..) => "string literal".into(),
            Tok::Text(_) | Tok::InsertOpen | Tok::InsertClose => "template text".into(),
            _ => "token".into(),
        };
        Error::syntax(format!("syntax error, unexpected {what}"), self.at())
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Error::unsupported("code nested too deeply", self.at()));
        }
        Ok(())
    }

    fn is_local(&self, name: &str) -> bool {
        self.locals.iter().any(|s| s.contains(name))
    }

    fn declare(&mut self, name: &Rc<str>) {
        if !self.is_local(name) {
            if let Some(scope) = self.locals.last_mut() {
                scope.insert(name.clone());
            }
        }
    }

    // ---- statements --------------------------------------------------------------------

    /// Statements up to a keyword or bracket that ends them (not consumed).
    fn stmts(&mut self) -> Result<Body> {
        let mut body = Vec::new();
        loop {
            self.skip_terms();
            match self.peek() {
                Tok::Eof | Tok::InsertClose => break,
                Tok::Kw("end" | "else" | "elsif" | "when" | "in" | "rescue" | "ensure" | "then") => break,
                Tok::Op("}" | ")") => break,
                _ => {}
            }
            body.push(self.stmt()?);
            if !matches!(self.peek(), Tok::Term | Tok::Eof | Tok::InsertClose | Tok::Kw(_) | Tok::Op("}" | ")"))
                && !matches!(self.peek(), Tok::Text(_) | Tok::InsertOpen)
            {
                return Err(self.unexpected());
            }
        }
        Ok(body)
    }

    fn stmt(&mut self) -> Result<Node> {
        self.enter()?;
        let began = self.is_kw("begin");
        let mut node = self.expr_stmt()?;
        loop {
            node = match self.peek() {
                Tok::Kw("if") => {
                    self.pos += 1;
                    let cond = self.expr_stmt()?;
                    Node::If(Box::new(cond), vec![node], vec![])
                }
                Tok::Kw("unless") => {
                    self.pos += 1;
                    let cond = self.expr_stmt()?;
                    Node::If(Box::new(cond), vec![], vec![node])
                }
                Tok::Kw(k @ ("while" | "until")) => {
                    let until = *k == "until";
                    self.pos += 1;
                    let cond = self.expr_stmt()?;
                    match node {
                        // `begin ... end while cond` runs its body once first
                        Node::Seq(body) if began => Node::DoWhile(Box::new(cond), body, until),
                        other => Node::While(Box::new(cond), vec![other], until),
                    }
                }
                Tok::Kw("rescue") => {
                    self.pos += 1;
                    let fallback = self.expr_stmt()?;
                    Node::RescueMod(Box::new(node), Box::new(fallback))
                }
                _ => break,
            };
        }
        self.depth -= 1;
        Ok(node)
    }

    /// `not`, `and`, `or` and what they join.
    fn expr_stmt(&mut self) -> Result<Node> {
        let mut left = self.not_expr()?;
        loop {
            if self.eat_kw("and") {
                self.skip_terms();
                let right = self.not_expr()?;
                left = Node::And(Box::new(left), Box::new(right));
            } else if self.eat_kw("or") {
                self.skip_terms();
                let right = self.not_expr()?;
                left = Node::Or(Box::new(left), Box::new(right));
            } else {
                return Ok(left);
            }
        }
    }

    fn not_expr(&mut self) -> Result<Node> {
        if self.eat_kw("not") {
            let inner = self.not_expr()?;
            return Ok(Node::Not(Box::new(inner)));
        }
        if self.mlhs_ahead() {
            return self.multiple_assignment();
        }
        self.expr()
    }

    /// Whether `a, b = ...` starts here.
    fn mlhs_ahead(&self) -> bool {
        let first =
            matches!(self.peek(), Tok::Ident(_) | Tok::IVar(_) | Tok::GVar(_)) || self.is_op("*") || self.is_op("(");
        if !first {
            return false;
        }
        let mut depth = 0i32;
        let mut comma = false;
        for t in &self.toks[self.pos..] {
            match &t.tok {
                Tok::Op("(" | "[" | "{") => depth += 1,
                Tok::Op(")" | "]" | "}") => depth -= 1,
                Tok::Op(",") if depth == 0 => comma = true,
                Tok::Op("=") if depth == 0 => return comma,
                Tok::Term | Tok::Eof | Tok::Kw(_) | Tok::InsertClose | Tok::Op("|") => return false,
                Tok::Op("*") if depth == 0 => comma = true,
                _ => {}
            }
            if depth < 0 {
                return false;
            }
        }
        false
    }

    fn multiple_assignment(&mut self) -> Result<Node> {
        let targets = self.mlhs()?;
        self.expect_op("=")?;
        self.skip_terms();
        let first = self.arg()?;
        let value = if self.is_op(",") {
            let mut items = vec![first];
            while self.eat_op(",") {
                items.push(self.arg()?);
            }
            Node::Array(items)
        } else {
            first
        };
        Ok(Node::MultiAsgn(targets, Box::new(value)))
    }

    /// The targets of a multiple assignment, up to `=` (or `)` when nested).
    fn mlhs(&mut self) -> Result<Vec<Target>> {
        let mut targets = Vec::new();
        loop {
            if self.is_op("=") || self.is_op(")") {
                break;
            }
            let target = if self.eat_op("*") {
                if self.is_op(",") || self.is_op("=") || self.is_op(")") {
                    Target::Splat(None)
                } else {
                    Target::Splat(Some(Box::new(self.target()?)))
                }
            } else if self.eat_op("(") {
                let inner = self.mlhs()?;
                self.expect_op(")")?;
                Target::Nested(inner)
            } else {
                self.target()?
            };
            targets.push(target);
            if !self.eat_op(",") {
                break;
            }
        }
        Ok(targets)
    }

    /// One assignable thing.
    fn target(&mut self) -> Result<Target> {
        let at = self.at();
        let node = self.primary_postfix()?;
        self.as_target(node, at)
    }

    fn as_target(&mut self, node: Node, at: usize) -> Result<Target> {
        Ok(match node {
            Node::LVar(n) => Target::LVar(n),
            Node::IVar(n) => Target::IVar(n),
            Node::GVar(n, _) => Target::GVar(n),
            Node::Call(call) => {
                let call = *call;
                match call.recv {
                    None if call.args.is_empty() && call.block.is_none() => {
                        self.declare(&call.name);
                        Target::LVar(call.name)
                    }
                    Some(recv) if &*call.name == "[]" => Target::Index(recv, call.args, call.at),
                    Some(recv) if call.args.is_empty() && call.block.is_none() => {
                        Target::Attr(recv, call.name, call.at)
                    }
                    _ => return Err(Error::syntax("syntax error, unexpected '=', expecting end-of-input", at)),
                }
            }
            Node::Const(..) => return Err(Error::unsupported("assigning constants", at)),
            _ => return Err(Error::syntax("syntax error, unexpected '='", at)),
        })
    }

    // ---- expressions -------------------------------------------------------------------

    /// An expression: assignment, then the ternary.
    fn expr(&mut self) -> Result<Node> {
        self.enter()?;
        let at = self.at();
        let left = self.ternary()?;
        let node = match self.peek() {
            Tok::Op("=") => {
                self.pos += 1;
                let target = self.as_target(left, at)?;
                self.skip_terms();
                let value = self.rhs()?;
                Node::Asgn(Box::new(target), Box::new(value))
            }
            Tok::Op(
                op @ ("+=" | "-=" | "*=" | "/=" | "%=" | "**=" | "||=" | "&&=" | "<<=" | ">>=" | "|=" | "&=" | "^="),
            ) => {
                let op: &'static str = &op[..op.len() - 1];
                let op_at = self.at();
                self.pos += 1;
                let target = self.as_target(left, at)?;
                self.skip_terms();
                let value = self.rhs()?;
                Node::OpAsgn(Box::new(target), op, Box::new(value), op_at)
            }
            _ => left,
        };
        self.depth -= 1;
        Ok(node)
    }

    /// The right side of an assignment: an expression, or several making an array.
    fn rhs(&mut self) -> Result<Node> {
        let first = if self.is_op("*") { self.arg()? } else { self.expr()? };
        if !self.is_op(",") || self.no_do > 0 {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_op(",") {
            items.push(self.arg()?);
        }
        Ok(Node::Array(items))
    }

    fn ternary(&mut self) -> Result<Node> {
        let cond = self.range()?;
        if !self.is_op("?") {
            return Ok(cond);
        }
        self.pos += 1;
        self.skip_terms();
        let then = self.ternary()?;
        self.skip_terms();
        self.expect_op(":")?;
        self.skip_terms();
        let otherwise = self.ternary()?;
        Ok(Node::If(Box::new(cond), vec![then], vec![otherwise]))
    }

    fn range(&mut self) -> Result<Node> {
        let left = self.binary(1)?;
        let exclusive = if self.is_op("..") {
            false
        } else if self.is_op("...") {
            true
        } else {
            return Ok(left);
        };
        self.pos += 1;
        let right = if self.starts_operand() { self.binary(1)? } else { Node::Nil };
        Ok(Node::Range(Box::new(left), Box::new(right), exclusive))
    }

    /// Binary operators of precedence `min` and above (precedence climbing).
    fn binary(&mut self, min: u8) -> Result<Node> {
        let mut left = self.unary()?;
        while let Some((prec, op)) = binary(self.peek()) {
            if prec < min {
                break;
            }
            let at = self.at();
            self.pos += 1;
            self.skip_terms();
            // comparisons do not chain; the rest are left-associative
            let right = self.binary(prec + 1)?;
            left = match op {
                "&&" => Node::And(Box::new(left), Box::new(right)),
                "||" => Node::Or(Box::new(left), Box::new(right)),
                "=~" if named_groups(&left).is_some() => {
                    let names = named_groups(&left).unwrap_or_default();
                    for n in &names {
                        self.declare(n);
                    }
                    Node::MatchAsgn(Box::new(left), Box::new(right), names, at)
                }
                _ => call(Some(left), op, vec![right], at),
            };
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Node> {
        self.enter()?;
        let at = self.at();
        let node = match self.peek() {
            Tok::Op("!") => {
                self.pos += 1;
                Node::Not(Box::new(self.unary()?))
            }
            Tok::Op("-") => {
                self.pos += 1;
                match self.peek().clone() {
                    Tok::Int(i) if !self.tok().space_before => {
                        self.pos += 1;
                        let literal = self.postfix(Node::Int(i.wrapping_neg()))?;
                        self.power(literal, at, true)?
                    }
                    Tok::Float(f) if !self.tok().space_before => {
                        self.pos += 1;
                        let literal = self.postfix(Node::Float(-f))?;
                        self.power(literal, at, true)?
                    }
                    _ => {
                        let operand = self.unary()?;
                        call(Some(operand), "-@", vec![], at)
                    }
                }
            }
            Tok::Op("+") => {
                self.pos += 1;
                let operand = self.unary()?;
                call(Some(operand), "+@", vec![], at)
            }
            Tok::Op("~") => {
                self.pos += 1;
                let operand = self.unary()?;
                call(Some(operand), "~", vec![], at)
            }
            Tok::Op("&") => return Err(Error::syntax("syntax error, unexpected &", at)),
            Tok::Kw("defined?") => {
                self.pos += 1;
                if self.eat_op("(") {
                    let e = self.expr_stmt()?;
                    self.expect_op(")")?;
                    self.postfix(Node::Defined(Box::new(e)))?
                } else {
                    Node::Defined(Box::new(self.unary()?))
                }
            }
            Tok::Kw("not") => {
                self.pos += 1;
                Node::Not(Box::new(self.unary()?))
            }
            _ => {
                let base = self.primary_postfix()?;
                self.power(base, at, false)?
            }
        };
        self.depth -= 1;
        Ok(node)
    }

    /// `base ** exponent` (right-associative, above unary minus: `-2 ** 2` is `-(2 ** 2)`).
    fn power(&mut self, base: Node, at: usize, negated_literal: bool) -> Result<Node> {
        if !self.is_op("**") {
            return Ok(base);
        }
        let op_at = self.at();
        self.pos += 1;
        let exponent = self.unary()?;
        if negated_literal {
            let positive = match base {
                Node::Int(i) => Node::Int(i.wrapping_neg()),
                Node::Float(f) => Node::Float(-f),
                other => other,
            };
            return Ok(call(Some(call(Some(positive), "**", vec![exponent], op_at)), "-@", vec![], at));
        }
        Ok(call(Some(base), "**", vec![exponent], op_at))
    }

    /// Whether the next token can begin an operand.
    fn starts_operand(&self) -> bool {
        match self.peek() {
            Tok::Int(_) | Tok::Float(_) | Tok::Str(_) | Tok::Sym(_) | Tok::Regexp(..) | Tok::Words(..) => true,
            Tok::Ident(_) | Tok::Const(_) | Tok::IVar(_) | Tok::GVar(_) => true,
            Tok::Op(op) => matches!(*op, "(" | "[" | "-" | "!" | "::" | "->" | "~"),
            Tok::Kw(k) => matches!(
                *k,
                "nil"
                    | "true"
                    | "false"
                    | "self"
                    | "not"
                    | "defined?"
                    | "if"
                    | "unless"
                    | "case"
                    | "while"
                    | "until"
                    | "begin"
                    | "__FILE__"
                    | "__LINE__"
            ),
            _ => false,
        }
    }

    /// Whether the token after a method name begins its arguments without parentheses
    /// (`puts x`, `foo -1`, `foo [1]`, `foo :a`), as Ruby's lexer decides.
    fn starts_command_args(&self) -> bool {
        let t = self.tok();
        if !t.space_before {
            return false;
        }
        let tight_next = self.toks.get(self.pos + 1).is_some_and(|n| !n.space_before);
        match &t.tok {
            Tok::Int(_) | Tok::Float(_) | Tok::Str(_) | Tok::Sym(_) | Tok::Regexp(..) | Tok::Words(..) => true,
            Tok::Ident(_) | Tok::Const(_) | Tok::IVar(_) | Tok::GVar(_) | Tok::Label(_) => true,
            Tok::Op("(" | "->" | "!") => true,
            Tok::Op("[" | "-" | "*" | "&" | "::" | "**" | ":") => tight_next,
            Tok::Kw(k) => {
                matches!(*k, "nil" | "true" | "false" | "self" | "not" | "defined?" | "lambda" | "case" | "__FILE__")
            }
            _ => false,
        }
    }

    /// Whether an operand follows without a space (`include?_x` takes `_x` as its argument).
    fn tight_operand(&self) -> bool {
        !self.tok().space_before
            && matches!(
                self.peek(),
                Tok::Ident(_) | Tok::Const(_) | Tok::IVar(_) | Tok::GVar(_) | Tok::Str(_) | Tok::Int(_) | Tok::Sym(_)
            )
    }

    // ---- calls and primaries -----------------------------------------------------------

    /// A primary and what follows it: `.method`, `[index]`, `::Const`.
    fn primary_postfix(&mut self) -> Result<Node> {
        let node = self.primary()?;
        self.postfix(node)
    }

    /// What follows a primary: `.method`, `[index]`, `::Const`.
    fn postfix(&mut self, mut node: Node) -> Result<Node> {
        loop {
            let at = self.at();
            match self.peek() {
                Tok::Op(op @ ("." | "&.")) => {
                    let safe = *op == "&.";
                    self.pos += 1;
                    self.skip_terms();
                    let name: Rc<str> = match self.bump().tok {
                        Tok::Ident(n) | Tok::Const(n) => n,
                        Tok::Kw(k) => k.into(),
                        Tok::Label(n) => {
                            // `x.y ? a :b` read as a label: give the colon back
                            self.pos -= 1;
                            return Err(Error::syntax(format!("syntax error, unexpected label `{n}:'"), at));
                        }
                        Tok::Op("(") => {
                            self.pos -= 1;
                            "call".into()
                        }
                        Tok::Op(
                            o @ ("+" | "-" | "*" | "/" | "%" | "==" | "<" | ">" | "<=" | ">=" | "<=>" | "<<" | "["),
                        ) => {
                            if o == "[" {
                                self.expect_op("]")?;
                                "[]".into()
                            } else {
                                o.into()
                            }
                        }
                        _ => {
                            self.pos -= 1;
                            return Err(self.unexpected());
                        }
                    };
                    node = self.call_rest(Some(node), name, safe, at)?;
                }
                Tok::Op("::") => {
                    self.pos += 1;
                    match self.bump().tok {
                        Tok::Const(n) if !self.is_op("(") => node = Node::Const(Some(Box::new(node)), n, at),
                        Tok::Const(n) | Tok::Ident(n) => node = self.call_rest(Some(node), n, false, at)?,
                        _ => {
                            self.pos -= 1;
                            return Err(self.unexpected());
                        }
                    }
                }
                Tok::Op("[") if !self.tok().space_before => {
                    self.pos += 1;
                    let args = self.list("]")?;
                    node = call(Some(node), "[]", args, at);
                }
                _ => return Ok(node),
            }
        }
    }

    /// A method call's arguments and block, after its name.
    fn call_rest(&mut self, recv: Option<Node>, name: Rc<str>, safe: bool, at: usize) -> Result<Node> {
        let mut args = Vec::new();
        let mut parens = false;
        if self.is_op("(") && !self.tok().space_before {
            self.pos += 1;
            args = self.list(")")?;
            parens = true;
        } else if self.starts_command_args() && !self.is_op("=") || name.ends_with(['?', '!']) && self.tight_operand() {
            args = self.command_args()?;
        }
        let block = self.block()?;
        let vcall = recv.is_none() && !parens && args.is_empty() && block.is_none();
        Ok(Node::Call(Box::new(Call { recv, name, args, block, safe, vcall, at })))
    }

    /// Arguments without parentheses: up to the end of the statement.
    fn command_args(&mut self) -> Result<Vec<Node>> {
        let mut args = Vec::new();
        let mut pairs = Vec::new();
        loop {
            self.arg_into(&mut args, &mut pairs)?;
            if !self.eat_op(",") {
                break;
            }
            self.skip_terms();
        }
        if !pairs.is_empty() {
            args.push(Node::Hash(pairs));
        }
        Ok(args)
    }

    /// A comma-separated list up to `close` (array literals, parenthesised arguments,
    /// index arguments): splats, block passes and trailing `key => value` pairs included.
    fn list(&mut self, close: &str) -> Result<Vec<Node>> {
        let saved = std::mem::replace(&mut self.no_do, 0);
        let mut items = Vec::new();
        let mut pairs = Vec::new();
        loop {
            self.skip_terms();
            if self.eat_op(close) {
                break;
            }
            self.arg_into(&mut items, &mut pairs)?;
            self.skip_terms();
            if !self.eat_op(",") {
                self.skip_terms();
                self.expect_op(close)?;
                break;
            }
        }
        self.no_do = saved;
        if !pairs.is_empty() {
            items.push(Node::Hash(pairs));
        }
        Ok(items)
    }

    /// One argument: `*x`, `&blk`, `key: v`, `k => v` or an expression.
    fn arg_into(&mut self, items: &mut Vec<Node>, pairs: &mut Vec<(Node, Node)>) -> Result<()> {
        if let Tok::Label(name) = self.peek().clone() {
            self.pos += 1;
            self.skip_terms();
            let value = self.arg()?;
            pairs.push((Node::Sym(name), value));
            return Ok(());
        }
        if self.eat_op("**") {
            return Err(Error::unsupported("double splat (`**`) arguments", self.at()));
        }
        if self.eat_op("&") {
            let inner = self.arg()?;
            items.push(Node::BlockPass(Box::new(inner)));
            return Ok(());
        }
        let value = self.arg()?;
        if self.eat_op("=>") {
            self.skip_terms();
            let v = self.arg()?;
            pairs.push((value, v));
        } else {
            items.push(value);
        }
        Ok(())
    }

    /// An argument or array element: an expression, or `*x`.
    fn arg(&mut self) -> Result<Node> {
        if self.eat_op("*") {
            let inner = self.ternary()?;
            return Ok(Node::Splat(Box::new(inner)));
        }
        if self.is_kw("not") {
            return self.not_expr();
        }
        self.expr()
    }

    /// A block after a call: `{ |params| ... }` or `do |params| ... end`.
    fn block(&mut self) -> Result<Option<Rc<BlockDef>>> {
        let close = if self.is_op("{") {
            "}"
        } else if self.is_kw("do") && self.no_do == 0 {
            "end"
        } else {
            return Ok(None);
        };
        self.pos += 1;
        Ok(Some(Rc::new(self.block_body(close, false)?)))
    }

    /// A block's parameters and body, after its opening `{` or `do`, to its `close`.
    fn block_body(&mut self, close: &str, lambda: bool) -> Result<BlockDef> {
        self.locals.push(HashSet::new());
        let saved = std::mem::replace(&mut self.no_do, 0);
        let mut params = Vec::new();
        let mut trailing_comma = false;
        let mut locals = Vec::new();
        self.skip_terms();
        let explicit = self.is_op("||") || self.is_op("|");
        if self.eat_op("||") {
        } else if self.eat_op("|") {
            (params, trailing_comma, locals) = self.params("|")?;
        }
        self.numbered.push(if explicit || lambda { None } else { Some(0) });
        let body = self.stmts();
        let numbered = self.numbered.pop().flatten().unwrap_or(0);
        let body = body?;
        if numbered > 0 {
            params = (1..=numbered).map(|i| Param::Name(format!("_{i}").into())).collect();
        }
        if close == "}" {
            self.expect_op("}")?;
        } else {
            self.expect_kw("end")?;
        }
        self.no_do = saved;
        self.locals.pop();
        Ok(BlockDef { params, trailing_comma, body, locals, lambda })
    }

    /// Block parameters up to `close` (`|` or `)`), declared in the current scope, and the
    /// block-local variables after a `;`.
    fn params(&mut self, close: &str) -> Result<(Vec<Param>, bool, Vec<Rc<str>>)> {
        let mut params = Vec::new();
        let mut trailing = false;
        let mut locals = Vec::new();
        loop {
            if matches!(self.peek(), Tok::Term) {
                // `|x; y, z|`
                self.pos += 1;
                loop {
                    let Tok::Ident(n) = self.peek().clone() else { return Err(self.unexpected()) };
                    self.pos += 1;
                    self.declare_here(&n);
                    locals.push(n);
                    if !self.eat_op(",") {
                        break;
                    }
                }
                self.expect_op(close)?;
                break;
            }
            if self.eat_op(close) {
                break;
            }
            let at = self.at();
            let param = match self.bump().tok {
                Tok::Ident(n) => {
                    self.declare_here(&n);
                    Param::Name(n)
                }
                Tok::Op("*") => match self.peek().clone() {
                    Tok::Ident(n) => {
                        self.pos += 1;
                        self.declare_here(&n);
                        Param::Splat(Some(n))
                    }
                    _ => Param::Splat(None),
                },
                Tok::Op("(") => Param::Nested(self.params(")")?.0),
                Tok::Op("&") => return Err(Error::unsupported("block parameters (`&block`)", at)),
                Tok::Label(_) => return Err(Error::unsupported("keyword parameters", at)),
                Tok::Op(";") => return Err(Error::unsupported("block-local variables", at)),
                _ => {
                    self.pos -= 1;
                    return Err(self.unexpected());
                }
            };
            params.push(param);
            if self.is_op("=") {
                return Err(Error::unsupported("default values of block parameters", self.at()));
            }
            if self.eat_op(",") {
                trailing = true;
                continue;
            }
            trailing = false;
            if matches!(self.peek(), Tok::Term) {
                continue;
            }
            self.expect_op(close)?;
            break;
        }
        Ok((params, trailing, locals))
    }

    /// A method's parameters up to `close` (`)`, or the end of the line when empty):
    /// names, `name = default`, `*rest`.
    fn method_params(&mut self, close: &str) -> Result<Vec<Param>> {
        let mut params = Vec::new();
        loop {
            if close.is_empty() && matches!(self.peek(), Tok::Term) || !close.is_empty() && self.eat_op(close) {
                break;
            }
            let at = self.at();
            let param = match self.bump().tok {
                Tok::Ident(n) => {
                    self.declare_here(&n);
                    if self.eat_op("=") {
                        let default = self.ternary()?;
                        Param::Optional(n, Box::new(default))
                    } else {
                        Param::Name(n)
                    }
                }
                Tok::Op("*") => match self.peek().clone() {
                    Tok::Ident(n) => {
                        self.pos += 1;
                        self.declare_here(&n);
                        Param::Splat(Some(n))
                    }
                    _ => Param::Splat(None),
                },
                Tok::Label(_) | Tok::Op("**") => return Err(Error::unsupported("keyword parameters", at)),
                Tok::Op("&") => return Err(Error::unsupported("block parameters (`&block`)", at)),
                _ => {
                    self.pos -= 1;
                    return Err(self.unexpected());
                }
            };
            params.push(param);
            if !self.eat_op(",") {
                if !close.is_empty() {
                    self.expect_op(close)?;
                }
                break;
            }
        }
        Ok(params)
    }

    fn declare_here(&mut self, name: &Rc<str>) {
        if let Some(scope) = self.locals.last_mut() {
            scope.insert(name.clone());
        }
    }

    fn primary(&mut self) -> Result<Node> {
        let at = self.at();
        let t = self.bump();
        Ok(match t.tok {
            Tok::Int(i) => Node::Int(i),
            Tok::Float(f) => Node::Float(f),
            Tok::Str(parts) => {
                let mut segs = self.segments(parts)?;
                // adjacent literals concatenate: "a" "b"
                while let Tok::Str(more) = self.peek().clone() {
                    self.pos += 1;
                    segs.extend(self.segments(more)?);
                }
                string_node(segs)
            }
            Tok::Sym(parts) => match string_node(self.segments(parts)?) {
                Node::Str(s) => Node::Sym(s),
                Node::DStr(segs) => Node::DSym(segs),
                _ => Node::Sym("".into()),
            },
            Tok::Regexp(parts, flags) => {
                if flags.contains('o') {
                    return Err(Error::unsupported("the regexp option `o`", at));
                }
                let parts = self.segments(parts)?;
                Node::Regexp(Box::new(RegexpLit { parts, flags, at, cached: Default::default() }))
            }
            Tok::Words(words, symbols) => Node::Words(words.into_iter().map(Rc::from).collect(), symbols),
            Tok::IVar(n) => Node::IVar(n),
            Tok::GVar(n) => Node::GVar(n, at),
            Tok::Ident(name) => {
                if self.is_local(&name) && (!self.is_op("(") || self.tok().space_before) {
                    return Ok(Node::LVar(name));
                }
                if let Some(n) = numbered_param(&name) {
                    if let Some(Some(max)) = self.numbered.last_mut() {
                        *max = (*max).max(n);
                        return Ok(Node::LVar(name));
                    }
                }
                return self.call_rest(None, name, false, at);
            }
            Tok::Const(name) => {
                if self.is_op("(") && !self.tok().space_before {
                    return self.call_rest(None, name, false, at);
                }
                if matches!(self.peek(), Tok::Str(_)) && self.tok().space_before {
                    // `Integer "1"`
                    return self.call_rest(None, name, false, at);
                }
                Node::Const(None, name, at)
            }
            Tok::Label(name) => {
                return Err(Error::syntax(format!("syntax error, unexpected label `{name}:'"), at));
            }
            Tok::Text(s) => Node::Text(s),
            Tok::InsertOpen => {
                let body = self.stmts()?;
                if !matches!(self.bump().tok, Tok::InsertClose) {
                    self.pos -= 1;
                    return Err(self.unexpected());
                }
                Node::Insert(body, at)
            }
            Tok::Op("(") => {
                let saved = std::mem::replace(&mut self.no_do, 0);
                let body = self.stmts()?;
                self.no_do = saved;
                self.expect_op(")")?;
                Node::Seq(body)
            }
            Tok::Op("[") => Node::Array(self.list("]")?),
            Tok::Op("{") => self.hash()?,
            Tok::Op("->") => {
                let (params, trailing_comma, _) =
                    if self.eat_op("(") { self.params(")")? } else { (Vec::new(), false, Vec::new()) };
                let close = if self.eat_op("{") {
                    "}"
                } else {
                    self.expect_kw("do")?;
                    "end"
                };
                self.locals.push(params_names(&params));
                let mut def = self.block_body(close, true)?;
                self.locals.pop();
                def.params = params;
                def.trailing_comma = trailing_comma;
                Node::Lambda(Rc::new(def))
            }
            Tok::Op("::") => match self.bump().tok {
                Tok::Const(name) => Node::Const(None, name, at),
                _ => {
                    self.pos -= 1;
                    return Err(self.unexpected());
                }
            },
            Tok::Op("..") | Tok::Op("...") => return Err(Error::unsupported("beginless ranges", at)),
            Tok::Kw(kw) => return self.keyword(kw, at),
            _ => {
                self.pos -= 1;
                return Err(self.unexpected());
            }
        })
    }

    fn segments(&mut self, parts: Vec<StrPart>) -> Result<Vec<Seg>> {
        parts
            .into_iter()
            .map(|p| match p {
                StrPart::Lit(s) => Ok(Seg::Lit(s.into())),
                StrPart::Code(toks) => {
                    let mut inner = Parser {
                        toks,
                        pos: 0,
                        end: self.end,
                        locals: std::mem::take(&mut self.locals),
                        depth: self.depth,
                        no_do: 0,
                        eof: Token { tok: Tok::Eof, at: self.end, space_before: false },
                        numbered: std::mem::take(&mut self.numbered),
                    };
                    let body = inner.stmts();
                    let done = matches!(inner.peek(), Tok::Eof);
                    let err = (!done).then(|| inner.unexpected());
                    self.locals = inner.locals;
                    self.numbered = inner.numbered;
                    let body = body?;
                    if let Some(e) = err {
                        return Err(e);
                    }
                    Ok(Seg::Code(body))
                }
            })
            .collect()
    }

    fn hash(&mut self) -> Result<Node> {
        let mut pairs = Vec::new();
        loop {
            self.skip_terms();
            if self.eat_op("}") {
                break;
            }
            if let Tok::Label(name) = self.peek().clone() {
                self.pos += 1;
                self.skip_terms();
                let value = self.arg()?;
                pairs.push((Node::Sym(name), value));
            } else if self.is_op("**") {
                return Err(Error::unsupported("double splat (`**`) in a hash", self.at()));
            } else {
                let key = self.arg()?;
                self.skip_terms();
                if let (Node::Str(s), true) = (&key, self.is_op(":") && !self.tok().space_before) {
                    // "key": value
                    let s = s.clone();
                    self.pos += 1;
                    self.skip_terms();
                    let value = self.arg()?;
                    pairs.push((Node::Sym(s), value));
                } else {
                    self.expect_op("=>")?;
                    self.skip_terms();
                    let value = self.arg()?;
                    pairs.push((key, value));
                }
            }
            self.skip_terms();
            if !self.eat_op(",") {
                self.skip_terms();
                self.expect_op("}")?;
                break;
            }
        }
        Ok(Node::Hash(pairs))
    }

    fn keyword(&mut self, kw: &'static str, at: usize) -> Result<Node> {
        Ok(match kw {
            "nil" => Node::Nil,
            "true" => Node::True,
            "false" => Node::False,
            "self" => Node::SelfRef,
            "__LINE__" => return Err(Error::unsupported("`__LINE__`", at)),
            "__FILE__" => return Err(Error::unsupported("`__FILE__`", at)),
            "if" | "unless" => {
                let cond = self.condition()?;
                let body = self.stmts()?;
                let mut otherwise = Vec::new();
                if kw == "if" && self.is_kw("elsif") {
                    let at = self.at();
                    self.pos += 1;
                    otherwise.push(self.keyword_if_tail(at)?);
                    return Ok(Node::If(Box::new(cond), body, otherwise));
                }
                if self.eat_kw("else") {
                    otherwise = self.stmts()?;
                }
                self.expect_kw("end")?;
                if kw == "if" {
                    Node::If(Box::new(cond), body, otherwise)
                } else {
                    Node::If(Box::new(cond), otherwise, body)
                }
            }
            "while" | "until" => {
                let saved = self.no_do;
                self.no_do += 1;
                let cond = self.expr_stmt();
                // restored, not decremented: a list that failed inside left it at 0
                self.no_do = saved;
                let cond = cond?;
                if !self.eat_kw("do") && !matches!(self.peek(), Tok::Term) {
                    return Err(self.unexpected());
                }
                let body = self.stmts()?;
                self.expect_kw("end")?;
                Node::While(Box::new(cond), body, kw == "until")
            }
            "for" => {
                let targets = self.mlhs_for()?;
                self.expect_kw("in")?;
                let saved = self.no_do;
                self.no_do += 1;
                let iter = self.expr_stmt();
                self.no_do = saved;
                let iter = iter?;
                if !self.eat_kw("do") && !matches!(self.peek(), Tok::Term) {
                    return Err(self.unexpected());
                }
                let body = self.stmts()?;
                self.expect_kw("end")?;
                Node::For(Box::new(targets), Box::new(iter), body)
            }
            "case" => {
                let subject = if matches!(self.peek(), Tok::Term | Tok::Kw("when")) {
                    None
                } else {
                    Some(Box::new(self.expr_stmt()?))
                };
                self.skip_terms();
                let mut whens = Vec::new();
                if self.is_kw("in") {
                    return Err(Error::unsupported("pattern matching (`case ... in`)", self.at()));
                }
                while self.eat_kw("when") {
                    let mut values = Vec::new();
                    loop {
                        self.skip_terms();
                        values.push(self.arg()?);
                        if !self.eat_op(",") {
                            break;
                        }
                    }
                    if !self.eat_kw("then") && !matches!(self.peek(), Tok::Term) {
                        return Err(self.unexpected());
                    }
                    let body = self.stmts()?;
                    whens.push((values, body));
                }
                let otherwise = if self.eat_kw("else") { Some(self.stmts()?) } else { None };
                self.expect_kw("end")?;
                Node::Case(subject, whens, otherwise)
            }
            "begin" => {
                let body = self.stmts()?;
                if !self.is_kw("rescue") && !self.is_kw("ensure") && !self.is_kw("else") {
                    self.expect_kw("end")?;
                    return Ok(Node::Seq(body));
                }
                self.rescue_clauses(body)?
            }
            "retry" => Node::Retry,
            "break" | "next" => {
                let value =
                    if self.starts_operand() && !matches!(self.peek(), Tok::Kw("if" | "unless" | "while" | "until")) {
                        Some(Box::new(self.expr()?))
                    } else {
                        None
                    };
                if kw == "break" {
                    Node::Break(value)
                } else {
                    Node::Next(value)
                }
            }
            "def" => {
                let name: Rc<str> = match self.bump().tok {
                    Tok::Ident(n) | Tok::Const(n) => n,
                    Tok::Kw(k) => k.into(),
                    Tok::Label(_) => return Err(Error::unsupported("this method definition", at)),
                    _ => {
                        self.pos -= 1;
                        return Err(self.unexpected());
                    }
                };
                if self.is_op(".") {
                    return Err(Error::unsupported("singleton method definitions (`def self.x`)", at));
                }
                // a method sees its parameters only
                let outer = std::mem::replace(&mut self.locals, vec![HashSet::new()]);
                let params = if self.eat_op("(") {
                    self.method_params(")")
                } else if matches!(self.peek(), Tok::Term) {
                    Ok(Vec::new())
                } else {
                    self.method_params("")
                };
                let body = params.and_then(|params| {
                    let body = self.stmts()?;
                    if self.is_kw("rescue") || self.is_kw("ensure") || self.is_kw("else") {
                        // `def ... rescue ... end`: the body is a `begin`
                        return Ok((params, vec![self.rescue_clauses(body)?]));
                    }
                    self.expect_kw("end")?;
                    Ok((params, body))
                });
                self.locals = outer;
                let (params, body) = body?;
                let def = BlockDef { params, trailing_comma: false, body, locals: Vec::new(), lambda: true };
                Node::Def(name, Rc::new(def))
            }
            "class" | "module" => return Err(Error::unsupported(format!("`{kw}` definitions"), at)),
            "return" => {
                let value =
                    if self.starts_operand() && !matches!(self.peek(), Tok::Kw("if" | "unless" | "while" | "until")) {
                        Some(Box::new(self.expr()?))
                    } else {
                        None
                    };
                Node::Return(value)
            }
            "yield" => return Err(Error::unsupported("`yield`", at)),
            "super" => return Err(Error::unsupported("`super`", at)),
            "redo" => return Err(Error::unsupported("`redo`", at)),
            "alias" | "undef" => return Err(Error::unsupported(format!("`{kw}`"), at)),
            "BEGIN" | "END" => return Err(Error::unsupported(format!("`{kw}` blocks"), at)),
            _ => {
                self.pos -= 1;
                return Err(self.unexpected());
            }
        })
    }

    /// The `rescue`, `else` and `ensure` clauses after `body`, to the `end`.
    fn rescue_clauses(&mut self, body: Body) -> Result<Node> {
        let mut rescues = Vec::new();
        while self.eat_kw("rescue") {
            let mut classes = Vec::new();
            while !matches!(self.peek(), Tok::Term | Tok::Op("=>") | Tok::Kw("then")) {
                classes.push(self.ternary()?);
                if !self.eat_op(",") {
                    break;
                }
                self.skip_terms();
            }
            let var = if self.eat_op("=>") {
                let at = self.at();
                let target = self.primary_postfix()?;
                Some(self.as_target(target, at)?)
            } else {
                None
            };
            self.eat_kw("then");
            let body = self.stmts()?;
            rescues.push(Rescue { classes, var, body });
        }
        let otherwise = if self.eat_kw("else") { Some(self.stmts()?) } else { None };
        let ensure = if self.eat_kw("ensure") { Some(self.stmts()?) } else { None };
        self.expect_kw("end")?;
        Ok(Node::Begin(Box::new(Begin { body, rescues, otherwise, ensure })))
    }

    /// The rest of an `if` after `elsif`.
    fn keyword_if_tail(&mut self, _at: usize) -> Result<Node> {
        let cond = self.condition()?;
        let body = self.stmts()?;
        let mut otherwise = Vec::new();
        if self.is_kw("elsif") {
            let at = self.at();
            self.pos += 1;
            otherwise.push(self.keyword_if_tail(at)?);
            return Ok(Node::If(Box::new(cond), body, otherwise));
        }
        if self.eat_kw("else") {
            otherwise = self.stmts()?;
        }
        self.expect_kw("end")?;
        Ok(Node::If(Box::new(cond), body, otherwise))
    }

    /// A condition and its `then` or line end.
    fn condition(&mut self) -> Result<Node> {
        self.enter()?;
        let cond = self.expr_stmt()?;
        self.depth -= 1;
        if !self.eat_kw("then") && !matches!(self.peek(), Tok::Term | Tok::Text(_) | Tok::InsertOpen) {
            return Err(self.unexpected());
        }
        Ok(cond)
    }

    /// `for a, b in ...`: the loop's targets.
    fn mlhs_for(&mut self) -> Result<Target> {
        let mut targets = Vec::new();
        loop {
            let Tok::Ident(name) = self.peek().clone() else { return Err(self.unexpected()) };
            self.pos += 1;
            self.declare(&name);
            targets.push(Target::LVar(name));
            if !self.eat_op(",") {
                break;
            }
        }
        Ok(if targets.len() == 1 { targets.pop().unwrap_or(Target::Splat(None)) } else { Target::Nested(targets) })
    }
}

/// The named groups of a regexp literal without interpolation (`(?<name>...)`).
fn named_groups(node: &Node) -> Option<Vec<Rc<str>>> {
    let Node::Regexp(lit) = node else { return None };
    let [Seg::Lit(source)] = lit.parts.as_slice() else { return None };
    let mut names = Vec::new();
    let mut rest: &str = source;
    while let Some(i) = rest.find("(?<") {
        rest = &rest[i + 3..];
        let end = rest.find('>')?;
        let name = &rest[..end];
        if !name.is_empty()
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
        {
            names.push(Rc::from(name));
        }
    }
    (!names.is_empty()).then_some(names)
}

/// `_1` .. `_9`: a block's numbered parameter.
fn numbered_param(name: &str) -> Option<usize> {
    let n = name.strip_prefix('_')?;
    (n.len() == 1).then(|| n.parse().ok()).flatten().filter(|n| *n >= 1)
}

fn params_names(params: &[Param]) -> HashSet<Rc<str>> {
    let mut names = HashSet::new();
    fn walk(params: &[Param], names: &mut HashSet<Rc<str>>) {
        for p in params {
            match p {
                Param::Name(n) | Param::Splat(Some(n)) => {
                    names.insert(n.clone());
                }
                Param::Nested(inner) => walk(inner, names),
                Param::Optional(n, _) => {
                    names.insert(n.clone());
                }
                Param::Splat(None) => {}
            }
        }
    }
    walk(params, &mut names);
    names
}

fn call(recv: Option<Node>, name: &str, args: Vec<Node>, at: usize) -> Node {
    Node::Call(Box::new(Call { recv, name: name.into(), args, block: None, safe: false, vcall: false, at }))
}

/// A string literal's node: plain when it has no interpolation.
fn string_node(mut segs: Vec<Seg>) -> Node {
    if segs.iter().all(|s| matches!(s, Seg::Lit(_))) {
        let text: String = segs
            .drain(..)
            .map(|s| match s {
                Seg::Lit(t) => t.to_string(),
                Seg::Code(_) => String::new(),
            })
            .collect();
        return Node::Str(text.into());
    }
    Node::DStr(segs)
}
