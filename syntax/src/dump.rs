//! Puppet's deprecated `old` dump format: what `puppet parser dump` prints by default (and
//! `puppet epp dump`), Puppet's `ModelTreeDumper` (`pops/model/model_tree_dumper.rb`) over the
//! formatting of its base class `TreeDumper` (`pops/model/tree_dumper.rb`), byte for byte.
//!
//! ```
//! let program = puppet_syntax::parse("if $a { 1 } else { notice(2) }\n").expect("valid Puppet");
//! assert_eq!(puppet_syntax::dump::program(&program), "(if $a\n  (then 1)\n  (else (invoke notice 2)))");
//! ```
//!
//! The dumper turns each model element into a nested list of strings and markers (break the
//! line, indent one step more or less), which are then printed: a list in parentheses, its
//! parts separated by a space unless the part before ends a line with a space or `(`, or the
//! part starts a line with a space, or is `)` (Ruby's `$` and `^` match at every line, so a
//! string with a line break inside can leave out a space). Its quirks are kept, as they show
//! in its output:
//!
//! - an `if` or `unless` without `else` indents one step more but never back: everything
//!   printed after it is one step deeper;
//! - `!` and a variable print their operand at once (`dump`, not `do_dump`), with the
//!   indentation of that moment, so an `if` without `else` under a `!` indents the whole of
//!   what follows, and the operand does not indent with its surroundings;
//! - a collector's attribute operations are not printed (`o.operations do ... end` passes a
//!   block that nothing calls);
//! - strings are printed between single quotes as they are, without escapes;
//! - a type definition without a parent prints an empty part (two spaces).
//!
//! How our AST maps to Puppet's model follows [`crate::pn`]: the bodies of definitions,
//! lambdas, case options and templates are blocks in Puppet's model even of one statement
//! (`f_build_body`), where the AST keeps one statement as is.

use crate::ast::{AttributeOp, BinaryOp, CallKind, Expr, ExprKind, Lambda, Parameter, Program, ResourceForm};
use crate::epp;

/// The old format of a program, as `puppet parser dump` prints it after `--- FILE` (and
/// before the line break it adds).
pub fn program(p: &Program) -> String {
    let mut dumper = Dumper::default();
    match &p.body {
        Some(body) => {
            // `dump_Program`: `dump(o.body)`, printed, then printed again as one string
            let part = dumper.expr(body);
            dumper.format(part)
        }
        None => ":nop".to_string(),
    }
}

/// The old format of a template, as `puppet epp dump` prints it: a lambda of the template's
/// parameters around an `epp` of its body (`(lambda (parameters a (= b 2)) (epp (block
/// ...)))`), the text as `(render-s 'TEXT')` and `<%= EXPR %>` as `(render EXPR)`.
pub fn template(t: &epp::Template) -> String {
    let mut dumper = Dumper { epp: true, ..Dumper::default() };
    let mut lambda = vec![Part::text("lambda")];
    if let Some(parameters) = &t.parameters {
        if !parameters.is_empty() {
            lambda.push(dumper.parameters(parameters));
        }
    }
    let body = dumper.body(t.body.as_ref());
    lambda.push(Part::List(vec![Part::text("epp"), body]));
    dumper.format(Part::List(lambda))
}

/// What the dumper makes of a model element: Ruby's strings, symbols and arrays.
enum Part {
    Str(String),
    /// `:break`: a line break, and the indentation of the moment.
    Break,
    /// `:indent`
    Indent,
    /// `:dedent`
    Dedent,
    /// An array: its parts in parentheses.
    List(Vec<Part>),
}

impl Part {
    fn text(s: &str) -> Part {
        Part::Str(s.to_string())
    }
}

/// `TreeDumper`: the indentation is the dumper's, shared by every `dump` it makes.
#[derive(Default)]
struct Dumper {
    indent: usize,
    /// Dumping a template: the calls the template's text and `<%= %>` tags were rewritten
    /// to are Puppet's `RenderStringExpression` and `RenderExpression`.
    epp: bool,
}

/// Ruby's `\s`.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// `part =~ /.*(?:\s+|\()$/`: a line of the part ends with a space or `(` (`$` is the end of
/// any line).
fn ends_open(part: &str) -> bool {
    let b = part.as_bytes();
    (0..b.len()).any(|k| (is_space(b[k]) || b[k] == b'(') && b.get(k + 1).is_none_or(|&n| n == b'\n'))
}

/// `part =~ /^\s+/`: a line of the part starts with a space (`^` is the start of any line).
fn starts_space(part: &str) -> bool {
    let b = part.as_bytes();
    b.first().is_some_and(|&c| is_space(c)) || b.windows(2).any(|w| w[0] == b'\n' && is_space(w[1]))
}

impl Dumper {
    /// `format`: the parts of `x` (`format_r`), joined.
    fn format(&mut self, x: Part) -> String {
        let mut parts = Vec::new();
        self.format_r(x, &mut parts);
        let mut out = String::new();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 && part != ")" && !ends_open(&parts[i - 1]) && !starts_space(part) {
                out.push(' ');
            }
            out.push_str(part);
        }
        out
    }

    fn format_r(&mut self, x: Part, out: &mut Vec<String>) {
        match x {
            Part::Break => out.push(format!("\n{}", "  ".repeat(self.indent))),
            Part::Indent => self.indent += 1,
            Part::Dedent => self.indent = self.indent.saturating_sub(1),
            Part::List(items) => {
                out.push("(".into());
                for item in items {
                    self.format_r(item, out);
                }
                out.push(")".into());
            }
            Part::Str(s) => out.push(s),
        }
    }

    /// `dump`: printed at once, with the indentation of the moment.
    fn dump(&mut self, e: &Expr) -> String {
        let part = self.expr(e);
        self.format(part)
    }

    fn exprs(&mut self, head: &str, items: &[Expr]) -> Part {
        let mut list = vec![Part::text(head)];
        list.extend(items.iter().map(|e| self.expr(e)));
        Part::List(list)
    }

    fn binary(&mut self, op: &str, left: &Expr, right: &Expr) -> Part {
        Part::List(vec![Part::text(op), self.expr(left), self.expr(right)])
    }

    /// `dump_BlockExpression`
    fn block(&mut self, statements: &[&Expr]) -> Part {
        let mut list = vec![Part::text("block"), Part::Indent];
        for s in statements {
            list.push(Part::Break);
            list.push(self.expr(s));
        }
        list.push(Part::Dedent);
        list.push(Part::Break);
        Part::List(list)
    }

    /// A body Puppet's factory makes a block of (`f_build_body`), `()` when there is none.
    fn body(&mut self, body: Option<&Expr>) -> Part {
        match body {
            None => Part::List(Vec::new()),
            Some(Expr { kind: ExprKind::Block(statements), .. }) => {
                let statements: Vec<&Expr> = statements.iter().collect();
                self.block(&statements)
            }
            Some(one) => self.block(&[one]),
        }
    }

    /// `(parameters ...)`
    fn parameters(&mut self, parameters: &[Parameter]) -> Part {
        let mut list = vec![Part::text("parameters")];
        for p in parameters {
            let name = format!("{}{}", if p.captures_rest { "*" } else { "" }, p.name);
            list.push(match (&p.value, &p.type_expr) {
                (Some(v), Some(t)) => Part::List(vec![Part::text("=t"), self.expr(t), Part::Str(name), self.expr(v)]),
                (Some(v), None) => Part::List(vec![Part::text("="), Part::Str(name), self.expr(v)]),
                (None, Some(t)) => Part::List(vec![Part::text("t"), self.expr(t), Part::Str(name)]),
                (None, None) => Part::Str(name),
            });
        }
        Part::List(list)
    }

    /// A definition's or lambda's parameters (when it has some), return type and body.
    fn signature(
        &mut self,
        list: &mut Vec<Part>,
        parameters: &[Parameter],
        return_type: Option<&Expr>,
        body: Option<&Expr>,
    ) {
        if !parameters.is_empty() {
            list.push(self.parameters(parameters));
        }
        if let Some(r) = return_type {
            list.push(Part::List(vec![Part::text("return_type"), self.expr(r)]));
        }
        list.push(self.body(body));
    }

    fn lambda(&mut self, l: &Lambda) -> Part {
        let mut list = vec![Part::text("lambda")];
        self.signature(&mut list, &l.parameters, l.return_type.as_deref(), l.body.as_deref());
        Part::List(list)
    }

    /// `(name => value)`, `(name +> value)`, `(* => hash)`, each on a line of its own.
    fn operations(&mut self, list: &mut Vec<Part>, operations: &[AttributeOp]) {
        for op in operations {
            list.push(Part::Break);
            list.push(match op {
                AttributeOp::Set { name, append, value, .. } => Part::List(vec![
                    Part::Str(name.clone()),
                    Part::text(if *append { "+>" } else { "=>" }),
                    self.expr(value),
                ]),
                AttributeOp::Splat { value, .. } => Part::List(vec![Part::text("* =>"), self.expr(value)]),
            });
        }
    }

    /// `if` and `unless`: without `else`, the indentation is never taken back.
    fn conditional(&mut self, name: &str, test: &Expr, then: Option<&Expr>, otherwise: Option<&Expr>) -> Part {
        let mut list = vec![Part::text(name), self.expr(test), Part::Indent, Part::Break];
        let then = self.optional(then);
        list.push(Part::List(vec![Part::text("then"), Part::Indent, then, Part::Dedent]));
        if let Some(otherwise) = otherwise.filter(|e| !matches!(e.kind, ExprKind::Nop)) {
            let otherwise = self.expr(otherwise);
            list.push(Part::Break);
            list.push(Part::List(vec![Part::text("else"), Part::Indent, otherwise, Part::Dedent]));
            list.push(Part::Dedent);
        }
        Part::List(list)
    }

    /// `do_dump` of what may be `nil` (`dump_NilClass`: `()`).
    fn optional(&mut self, e: Option<&Expr>) -> Part {
        match e {
            Some(e) => self.expr(e),
            None => Part::text("()"),
        }
    }

    /// `do_dump`
    fn expr(&mut self, e: &Expr) -> Part {
        use ExprKind as K;
        match &e.kind {
            K::Nop => Part::text(":nop"),
            K::Block(statements) => {
                let statements: Vec<&Expr> = statements.iter().collect();
                self.block(&statements)
            }
            K::Integer { value, radix } => Part::Str(match radix {
                10 => value.to_string(),
                8 => format!("0{value:o}"),
                16 => format!("0x{value:X}"),
                _ => format!("bad radix:{value}"),
            }),
            K::Float(f) => Part::Str(poppet_ruby::float::float_to_s(*f)),
            K::String(s) => Part::Str(format!("'{s}'")),
            K::Boolean(b) => Part::text(if *b { "true" } else { "false" }),
            K::Undef => Part::text(":undef"),
            K::Default => Part::text(":default"),
            K::Regex(source) => Part::Str(regexp(source)),
            K::Concat(segments) => self.exprs("cat", segments),
            K::Text(inner) => Part::List(vec![Part::text("str"), self.expr(inner)]),
            K::Heredoc { syntax, text } => Part::List(vec![
                Part::Str(format!("@({syntax})")),
                Part::Indent,
                Part::Break,
                self.expr(text),
                Part::Dedent,
                Part::Break,
            ]),
            K::Array(values) => self.exprs("[]", values),
            K::Hash(entries) => self.exprs("{}", entries),
            K::KeyedEntry { key, value } => Part::List(vec![self.expr(key), self.expr(value)]),
            K::QualifiedName(name) | K::QualifiedReference(name) => Part::Str(name.clone()),
            K::Variable(name) => Part::Str(format!("${name}")),
            K::VariableOf(inner) => Part::Str(format!("${}", self.dump(inner))),
            K::Reserved(word) => Part::List(vec![Part::text("reserved"), Part::Str(word.clone())]),
            K::Binary { op, left, right } => {
                let op = match op {
                    BinaryOp::And => "&&",
                    BinaryOp::Or => "||",
                    other => other.symbol(),
                };
                self.binary(op, left, right)
            }
            K::Not(inner) => Part::List(vec![Part::text("!"), Part::Str(self.dump(inner))]),
            K::Negate(inner) => Part::List(vec![Part::text("-"), self.expr(inner)]),
            K::Unfold(inner) => Part::List(vec![Part::text("unfold"), self.expr(inner)]),
            K::Paren(inner) => self.expr(inner),
            K::Assignment { op, left, right } => self.binary(op.symbol(), left, right),
            K::Relationship { op, left, right } => self.binary(op.symbol(), left, right),
            K::Access { left, keys } => {
                let left = self.expr(left);
                let keys = match keys.as_slice() {
                    [] => Part::text("()"),
                    [one] => self.expr(one),
                    several => Part::List(several.iter().map(|k| self.expr(k)).collect()),
                };
                Part::List(vec![Part::text("slice"), left, keys])
            }
            K::NamedAccess { left, right } => self.binary(".", left, right),
            K::Selector { left, entries } => {
                let mut list = vec![Part::text("?"), self.expr(left)];
                for s in entries {
                    list.push(Part::List(vec![self.expr(&s.matching), Part::text("=>"), self.expr(&s.value)]));
                }
                Part::List(list)
            }
            K::Call { kind, functor, arguments, lambda, rval_required } => {
                if let Some(render) = self.render(kind, functor, arguments) {
                    return render;
                }
                let name = match (kind, rval_required) {
                    (CallKind::Function, true) => "call",
                    (CallKind::Function, false) => "invoke",
                    (CallKind::Method, true) => "call-method",
                    (CallKind::Method, false) => "invoke-method",
                };
                let mut list = vec![Part::text(name), self.expr(functor)];
                list.extend(arguments.iter().map(|a| self.expr(a)));
                if let Some(l) = lambda {
                    list.push(self.lambda(l));
                }
                Part::List(list)
            }
            K::If { test, then, otherwise } => self.conditional("if", test, then.as_deref(), otherwise.as_deref()),
            K::Unless { test, then, otherwise } => {
                self.conditional("unless", test, then.as_deref(), otherwise.as_deref())
            }
            K::Case { test, options } => {
                let mut list = vec![Part::text("case"), self.expr(test), Part::Indent];
                for o in options {
                    let values = Part::List(o.values.iter().map(|v| self.expr(v)).collect());
                    let then = match &o.body {
                        Some(b) => self.body(Some(b)),
                        None => Part::text("()"),
                    };
                    list.push(Part::Break);
                    list.push(Part::List(vec![Part::text("when"), values, Part::List(vec![Part::text("then"), then])]));
                }
                list.push(Part::Dedent);
                Part::List(list)
            }
            K::Resource { form, type_name, bodies } => {
                let mut list =
                    vec![Part::Str(format!("{}resource", prefix(*form))), self.expr(type_name), Part::Indent];
                for b in bodies {
                    let mut body = vec![self.expr(&b.title), Part::Indent];
                    self.operations(&mut body, &b.operations);
                    body.push(Part::Dedent);
                    list.push(Part::Break);
                    list.push(Part::List(body));
                }
                list.push(Part::Dedent);
                Part::List(list)
            }
            K::ResourceDefaults { form, type_ref, operations } => {
                let mut list =
                    vec![Part::Str(format!("{}resource-defaults", prefix(*form))), self.expr(type_ref), Part::Indent];
                self.operations(&mut list, operations);
                list.push(Part::Dedent);
                Part::List(list)
            }
            K::ResourceOverride { form, resources, operations } => {
                let mut list =
                    vec![Part::Str(format!("{}override", prefix(*form))), self.expr(resources), Part::Indent];
                self.operations(&mut list, operations);
                list.push(Part::Dedent);
                Part::List(list)
            }
            // the operations are not printed (see the module's documentation)
            K::Collect { type_expr, exported, query, operations: _ } => {
                let type_expr = self.expr(type_expr);
                let mut q = vec![Part::text(if *exported { "<<| |>>" } else { "<| |>" })];
                if let Some(query) = query.as_deref().filter(|q| !matches!(q.kind, ExprKind::Nop)) {
                    q.push(self.expr(query));
                }
                Part::List(vec![
                    Part::text("collect"),
                    type_expr,
                    Part::Indent,
                    Part::Break,
                    Part::List(q),
                    Part::Indent,
                    Part::Dedent,
                    Part::Dedent,
                ])
            }
            K::Class { name, parameters, parent, body } => {
                let mut list = vec![Part::text("class"), Part::Str(name.clone())];
                if let Some(parent) = parent {
                    list.push(Part::List(vec![Part::text("inherits"), Part::Str(parent.clone())]));
                }
                self.signature(&mut list, parameters, None, body.as_deref());
                Part::List(list)
            }
            K::Define { name, parameters, body } => {
                let mut list = vec![Part::text("define"), Part::Str(name.clone())];
                self.signature(&mut list, parameters, None, body.as_deref());
                Part::List(list)
            }
            K::Function { name, parameters, body, return_type } => {
                let mut list = vec![Part::text("function"), Part::Str(name.clone())];
                self.signature(&mut list, parameters, return_type.as_deref(), body.as_deref());
                Part::List(list)
            }
            K::Node { matches, parent, body } => {
                let mut list = vec![Part::text("node"), self.exprs("matches", matches)];
                if let Some(parent) = parent {
                    list.push(Part::List(vec![Part::text("parent"), self.expr(parent)]));
                }
                list.push(self.body(body.as_deref()));
                Part::List(list)
            }
            K::TypeAlias { name, type_expr } => {
                Part::List(vec![Part::text("type-alias"), Part::Str(name.clone()), self.expr(type_expr)])
            }
            K::TypeMapping { type_expr, mapping_expr } => self.binary("type-mapping", type_expr, mapping_expr),
            K::TypeDefinition { name, parent, body } => {
                // a missing parent is Ruby's `nil`, an empty part
                let body = match body.as_deref() {
                    Some(b) => self.body(Some(b)),
                    None => Part::text("()"),
                };
                Part::List(vec![
                    Part::text("type-definition"),
                    Part::Str(name.clone()),
                    Part::Str(parent.clone().unwrap_or_default()),
                    body,
                ])
            }
        }
    }

    /// In a template, the calls its text and `<%= %>` tags became (see [`crate::epp`]):
    /// `(render-s 'TEXT')` and `(render EXPR)`.
    fn render(&mut self, kind: &CallKind, functor: &Expr, arguments: &[Expr]) -> Option<Part> {
        if !self.epp || *kind != CallKind::Function {
            return None;
        }
        let ExprKind::QualifiedName(name) = &functor.kind else { return None };
        match (name.as_str(), arguments) {
            (epp::TEXT, [Expr { kind: ExprKind::String(text), .. }]) => {
                Some(Part::List(vec![Part::text("render-s"), Part::Str(format!(" '{text}'"))]))
            }
            (epp::RENDER, [expr]) => Some(Part::List(vec![Part::text("render"), self.expr(expr)])),
            _ => None,
        }
    }
}

/// `form + '-'` of a virtual or exported resource expression.
fn prefix(form: ResourceForm) -> &'static str {
    match form {
        ResourceForm::Regular => "",
        ResourceForm::Virtual => "virtual-",
        ResourceForm::Exported => "exported-",
    }
}

/// `StringConverter.convert(regexp, '%p')` (`PRegexpType.regexp_to_s_with_delimiters`):
/// Ruby's `inspect` (`/a\/b/`), or `/#{to_s}/` when Ruby gives the regexp options (its fixed
/// encoding).
fn regexp(source: &str) -> String {
    if poppet_ruby::regexp::has_fixed_encoding(source) {
        format!("/{}/", poppet_ruby::regexp::to_s(source))
    } else {
        format!("/{}/", poppet_ruby::regexp::expr_str(source, false))
    }
}
