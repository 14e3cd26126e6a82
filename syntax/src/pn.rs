//! PN, the S-expression form of Puppet's AST (`puppet-specifications/models/pn.md`), printed
//! exactly as `puppet parser dump --format pn` prints it (`pops/pn.rb`,
//! `pops/model/pn_transformer.rb`), Ruby's `Float#to_s` included. `cargo xtask check
//! pn-corpus` compares it with Puppet's over the whole corpus.
//!
//! One deliberate difference: Puppet's own dumper crashes on a captures-rest parameter
//! (`*$rest`: it puts `PN::Literal(true)` in `parameters_entry`); this one prints
//! `:splat true`.

use std::fmt::Write;

use crate::ast::{AttributeOp, CallKind, CaseOption, Expr, ExprKind, Lambda, Parameter, Program, ResourceForm};
use crate::epp;

/// A PN node.
#[derive(Clone, Debug, PartialEq)]
pub enum Pn {
    Nil,
    Bool(bool),
    Int(i128),
    /// An integer literal's value, of any size.
    Integer(num_bigint::BigInt),
    Float(f64),
    Str(String),
    List(Vec<Pn>),
    /// Ordered `:key value` entries.
    Map(Vec<(String, Pn)>),
    Call(String, Vec<Pn>),
}

impl Pn {
    fn call(name: &str, elements: Vec<Pn>) -> Pn {
        Pn::Call(name.to_string(), elements)
    }

    fn str(value: &str) -> Pn {
        Pn::Str(value.to_string())
    }

    /// The text form, on one line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.format(None, &mut out);
        out
    }

    /// The text form indented as `--pretty` prints it (`PN::Indent.new('  ')`).
    pub fn to_pretty(&self) -> String {
        let mut out = String::new();
        self.format(Some(""), &mut out);
        out
    }

    /// `pn.rb` `format(indent, b)`: one line without `indent`; with it, each element on its
    /// own line, one step deeper.
    fn format(&self, indent: Option<&str>, out: &mut String) {
        let deeper = indent.map(|i| format!("{i}  "));
        match self {
            Pn::Nil => out.push_str("nil"),
            Pn::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Pn::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Pn::Integer(i) => {
                let _ = write!(out, "{i}");
            }
            Pn::Float(f) => out.push_str(&poppet_ruby::float::float_to_s(*f)),
            Pn::Str(s) => double_quote(s, out),
            Pn::List(elements) => {
                out.push('[');
                format_elements(elements, deeper.as_deref(), out);
                out.push(']');
            }
            Pn::Map(entries) => {
                out.push('{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    match &deeper {
                        Some(d) => {
                            out.push('\n');
                            out.push_str(d);
                        }
                        None if i > 0 => out.push(' '),
                        None => {}
                    }
                    out.push(':');
                    out.push_str(key);
                    out.push(' ');
                    value.format(deeper.as_deref(), out);
                }
                out.push('}');
            }
            Pn::Call(name, elements) => {
                out.push('(');
                out.push_str(name);
                if !elements.is_empty() {
                    if indent.is_none() {
                        out.push(' ');
                    }
                    format_elements(elements, deeper.as_deref(), out);
                }
                out.push(')');
            }
        }
    }

    /// `JSON.dump(pn.to_data)`, or `JSON.pretty_unparse` with `pretty`: a call is
    /// `{"^": [name, ...]}`, a map `{"#": [key, value, ...]}`.
    pub fn to_json(&self, pretty: bool) -> String {
        let mut out = String::new();
        self.json(if pretty { Some("") } else { None }, &mut out);
        out
    }

    fn json(&self, indent: Option<&str>, out: &mut String) {
        let array = |items: Vec<Json<'_>>, indent: Option<&str>, out: &mut String| {
            // Ruby's generator (json 2.6) breaks an empty array's line when it indents
            if items.is_empty() {
                match indent {
                    Some(i) => {
                        out.push_str("[\n\n");
                        out.push_str(i);
                        out.push(']');
                    }
                    None => out.push_str("[]"),
                }
                return;
            }
            let deeper = indent.map(|i| format!("{i}  "));
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if let Some(d) = &deeper {
                    out.push('\n');
                    out.push_str(d);
                }
                item.write(deeper.as_deref(), out);
            }
            if let Some(i) = indent {
                out.push('\n');
                out.push_str(i);
            }
            out.push(']');
        };
        let object = |key: &str, items: Vec<Json<'_>>, indent: Option<&str>, out: &mut String| {
            let deeper = indent.map(|i| format!("{i}  "));
            out.push('{');
            if let Some(d) = &deeper {
                out.push('\n');
                out.push_str(d);
            }
            poppet_ruby::json::generate_string(key, out);
            out.push_str(if indent.is_some() { ": " } else { ":" });
            array(items, deeper.as_deref(), out);
            if let Some(i) = indent {
                out.push('\n');
                out.push_str(i);
            }
            out.push('}');
        };
        match self {
            Pn::Nil => out.push_str("null"),
            Pn::Bool(_) | Pn::Int(_) | Pn::Integer(_) | Pn::Float(_) => self.format(None, out),
            Pn::Str(s) => poppet_ruby::json::generate_string(s, out),
            Pn::List(elements) => array(elements.iter().map(Json::Pn).collect(), indent, out),
            Pn::Map(entries) => {
                let items = entries.iter().flat_map(|(k, v)| [Json::Key(k), Json::Pn(v)]).collect();
                object("#", items, indent, out);
            }
            Pn::Call(name, elements) => {
                let items = std::iter::once(Json::Key(name)).chain(elements.iter().map(Json::Pn)).collect();
                object("^", items, indent, out);
            }
        }
    }
}

/// An element of a JSON array of [`Pn::to_json`]: a node, or a name.
enum Json<'a> {
    Pn(&'a Pn),
    Key(&'a str),
}

impl Json<'_> {
    fn write(&self, indent: Option<&str>, out: &mut String) {
        match self {
            Json::Pn(pn) => pn.json(indent, out),
            Json::Key(key) => poppet_ruby::json::generate_string(key, out),
        }
    }
}

fn format_elements(elements: &[Pn], indent: Option<&str>, out: &mut String) {
    for (i, element) in elements.iter().enumerate() {
        match indent {
            Some(current) => {
                out.push('\n');
                out.push_str(current);
            }
            None if i > 0 => out.push(' '),
            None => {}
        }
        element.format(indent, out);
    }
}

/// `pn.rb` `double_quote`: `\t \n \r \" \\` escaped, other controls as `\oNNN` (octal).
fn double_quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\o{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `PRegexpType.regexp_to_s`: the source, with a `(?-imx:…)` group when Ruby gives the
/// regexp options. Puppet's regexps have no flags of their own, but Ruby fixes the encoding
/// (option 16) of one holding a non-ASCII character, a `\u` escape above U+007F or a
/// `\p{…}` property.
fn regexp_to_s(source: &str) -> String {
    if poppet_ruby::regexp::has_fixed_encoding(source) {
        format!("(?-imx:{source})")
    } else {
        source.to_string()
    }
}

/// The PN of a program, as `puppet parser dump --format pn` prints it after `--- FILE`.
pub fn program(program: &Program) -> Pn {
    match &program.body {
        Some(body) => expr(body),
        None => Pn::call("nop", vec![]),
    }
}

/// The PN of a template, as `puppet epp dump --format pn` prints it: a lambda of its
/// parameters whose body is one `epp` expression of the template's statements.
pub fn template(template: &epp::Template) -> Pn {
    let mut entries = Vec::new();
    if let Some(params) = template.parameters.as_deref().filter(|p| !p.is_empty()) {
        entries.push(("params".to_string(), parameters(params)));
    }
    let statements = match &template.body {
        Some(Expr { kind: ExprKind::Block(statements), .. }) => statements.iter().map(expr).collect(),
        Some(body) => vec![expr(body)],
        None => Vec::new(),
    };
    entries.push(("body".to_string(), Pn::List(vec![Pn::call("epp", statements)])));
    Pn::call("lambda", vec![Pn::Map(entries)])
}

fn boxed(e: &Option<Box<Expr>>) -> Option<&Expr> {
    e.as_deref()
}

/// `block_as_entry`: a body as a list of its statements.
fn body_list(body: &Expr) -> Pn {
    match &body.kind {
        ExprKind::Block(statements) => Pn::List(statements.iter().map(expr).collect()),
        _ => Pn::List(vec![expr(body)]),
    }
}

fn is_nop(e: Option<&Expr>) -> bool {
    matches!(e, None | Some(Expr { kind: ExprKind::Nop, .. }))
}

fn list(exprs: &[Expr]) -> Pn {
    Pn::List(exprs.iter().map(expr).collect())
}

fn binary(op: &str, left: &Expr, right: &Expr) -> Pn {
    Pn::call(op, vec![expr(left), expr(right)])
}

fn operations(ops: &[AttributeOp]) -> Pn {
    Pn::List(
        ops.iter()
            .map(|op| match op {
                AttributeOp::Set { name, append, value, .. } => {
                    Pn::call(if *append { "+>" } else { "=>" }, vec![Pn::str(name), expr(value)])
                }
                AttributeOp::Splat { value, .. } => Pn::call("splat-hash", vec![expr(value)]),
            })
            .collect(),
    )
}

fn with_form(mut entries: Vec<(String, Pn)>, form: ResourceForm) -> Vec<(String, Pn)> {
    if form != ResourceForm::Regular {
        entries.push(("form".into(), Pn::str(form.name())));
    }
    entries
}

fn parameters(params: &[Parameter]) -> Pn {
    Pn::Map(
        params
            .iter()
            .map(|p| {
                let mut entries = Vec::new();
                if let Some(t) = &p.type_expr {
                    entries.push(("type".to_string(), expr(t)));
                }
                if p.captures_rest {
                    entries.push(("splat".to_string(), Pn::Bool(true)));
                }
                if let Some(v) = &p.value {
                    entries.push(("value".to_string(), expr(v)));
                }
                (p.name.clone(), Pn::Map(entries))
            })
            .collect(),
    )
}

fn lambda(l: &Lambda) -> Pn {
    let mut entries = Vec::new();
    if !l.parameters.is_empty() {
        entries.push(("params".into(), parameters(&l.parameters)));
    }
    if let Some(r) = &l.return_type {
        entries.push(("returns".into(), expr(r)));
    }
    if let Some(b) = &l.body {
        entries.push(("body".into(), body_list(b)));
    }
    Pn::call("lambda", vec![Pn::Map(entries)])
}

fn case_option(o: &CaseOption) -> Pn {
    let then = match &o.body {
        Some(b) => body_list(b),
        None => Pn::List(vec![Pn::call("nop", vec![])]),
    };
    Pn::Map(vec![("when".into(), list(&o.values)), ("then".into(), then)])
}

fn conditional(name: &str, test: &Expr, then: Option<&Expr>, otherwise: Option<&Expr>) -> Pn {
    let mut entries = vec![("test".to_string(), expr(test))];
    if !is_nop(then) {
        entries.push(("then".into(), body_list(then.expect("checked by is_nop"))));
    }
    if !is_nop(otherwise) {
        entries.push(("else".into(), body_list(otherwise.expect("checked by is_nop"))));
    }
    Pn::call(name, vec![Pn::Map(entries)])
}

fn definition(
    kind: &str,
    name: &str,
    parent: Option<&str>,
    params: &[Parameter],
    body: Option<&Expr>,
    return_type: Option<&Expr>,
) -> Pn {
    let mut entries = vec![("name".to_string(), Pn::str(name))];
    if let Some(parent) = parent {
        entries.push(("parent".into(), Pn::str(parent)));
    }
    if !params.is_empty() {
        entries.push(("params".into(), parameters(params)));
    }
    if let Some(body) = body {
        entries.push(("body".into(), body_list(body)));
    }
    if let Some(r) = return_type {
        entries.push(("returns".into(), expr(r)));
    }
    Pn::call(kind, vec![Pn::Map(entries)])
}

/// The PN of an expression (`PNTransformer#transform`).
pub fn expr(e: &Expr) -> Pn {
    match &e.kind {
        ExprKind::Nop => Pn::call("nop", vec![]),
        ExprKind::Block(statements) => Pn::Call("block".into(), statements.iter().map(expr).collect()),
        ExprKind::Integer { value, radix } => {
            if *radix == 10 {
                Pn::Integer(value.clone())
            } else {
                Pn::call(
                    "int",
                    vec![Pn::Map(vec![
                        ("radix".into(), Pn::Int(*radix as i128)),
                        ("value".into(), Pn::Integer(value.clone())),
                    ])],
                )
            }
        }
        ExprKind::Float(f) => Pn::Float(*f),
        ExprKind::String(s) => Pn::str(s),
        ExprKind::Boolean(b) => Pn::Bool(*b),
        ExprKind::Undef => Pn::Nil,
        ExprKind::Default => Pn::call("default", vec![]),
        ExprKind::Regex(source) => Pn::call("regexp", vec![Pn::Str(regexp_to_s(source))]),
        ExprKind::Concat(segments) => Pn::Call("concat".into(), segments.iter().map(expr).collect()),
        ExprKind::Text(inner) => Pn::call("str", vec![expr(inner)]),
        ExprKind::Heredoc { syntax, text } => {
            let mut entries = Vec::new();
            if !syntax.is_empty() {
                entries.push(("syntax".to_string(), Pn::str(syntax)));
            }
            entries.push(("text".into(), expr(text)));
            Pn::call("heredoc", vec![Pn::Map(entries)])
        }
        ExprKind::Array(values) => Pn::Call("array".into(), values.iter().map(expr).collect()),
        ExprKind::Hash(entries) => Pn::Call("hash".into(), entries.iter().map(expr).collect()),
        ExprKind::KeyedEntry { key, value } => binary("=>", key, value),
        ExprKind::QualifiedName(name) => Pn::call("qn", vec![Pn::str(name)]),
        ExprKind::QualifiedReference(name) => Pn::call("qr", vec![Pn::str(name)]),
        ExprKind::Variable(name) => Pn::call("var", vec![Pn::str(name)]),
        ExprKind::VariableOf(inner) => Pn::call("var", vec![expr(inner)]),
        ExprKind::Reserved(word) => Pn::call("reserved", vec![Pn::str(word)]),
        ExprKind::Binary { op, left, right } => binary(op.symbol(), left, right),
        ExprKind::Not(inner) => Pn::call("!", vec![expr(inner)]),
        ExprKind::Negate(inner) => match &inner.kind {
            ExprKind::Integer { value, .. } => Pn::Integer(-value),
            ExprKind::Float(f) => Pn::Float(-f),
            _ => Pn::call("-", vec![expr(inner)]),
        },
        ExprKind::Unfold(inner) => Pn::call("unfold", vec![expr(inner)]),
        ExprKind::Paren(inner) => Pn::call("paren", vec![expr(inner)]),
        ExprKind::Assignment { op, left, right } => binary(op.symbol(), left, right),
        ExprKind::Relationship { op, left, right } => binary(op.symbol(), left, right),
        ExprKind::Access { left, keys } => {
            let mut elements = vec![expr(left)];
            elements.extend(keys.iter().map(expr));
            Pn::Call("access".into(), elements)
        }
        ExprKind::NamedAccess { left, right } => binary(".", left, right),
        ExprKind::Selector { left, entries } => Pn::call(
            "?",
            vec![expr(left), Pn::List(entries.iter().map(|s| binary("=>", &s.matching, &s.value)).collect())],
        ),
        // a template's text and `<%= %>` (see `crate::epp`)
        ExprKind::Call { kind: CallKind::Function, functor, arguments, lambda: None, .. } if matches!(&functor.kind, ExprKind::QualifiedName(n) if n == epp::TEXT || n == epp::RENDER) =>
        {
            let name = if matches!(&functor.kind, ExprKind::QualifiedName(n) if n == epp::TEXT) {
                "render-s"
            } else {
                "render"
            };
            Pn::call(name, arguments.iter().map(expr).collect())
        }
        ExprKind::Call { kind, functor, arguments, lambda: l, rval_required } => {
            let mut entries = vec![("functor".to_string(), expr(functor)), ("args".to_string(), list(arguments))];
            if let Some(l) = l {
                entries.push(("block".into(), lambda(l)));
            }
            let name = match (kind, rval_required) {
                (CallKind::Function, true) => "call",
                (CallKind::Function, false) => "invoke",
                (CallKind::Method, true) => "call-method",
                (CallKind::Method, false) => "invoke-method",
            };
            Pn::call(name, vec![Pn::Map(entries)])
        }
        ExprKind::If { test, then, otherwise } => conditional("if", test, boxed(then), boxed(otherwise)),
        ExprKind::Unless { test, then, otherwise } => conditional("unless", test, boxed(then), boxed(otherwise)),
        ExprKind::Case { test, options } => {
            Pn::call("case", vec![expr(test), Pn::List(options.iter().map(case_option).collect())])
        }
        ExprKind::Resource { form, type_name, bodies } => {
            let bodies = bodies
                .iter()
                .map(|b| Pn::Map(vec![("title".into(), expr(&b.title)), ("ops".into(), operations(&b.operations))]))
                .collect();
            let entries = vec![("type".to_string(), expr(type_name)), ("bodies".to_string(), Pn::List(bodies))];
            Pn::call("resource", vec![Pn::Map(with_form(entries, *form))])
        }
        ExprKind::ResourceDefaults { form, type_ref, operations: ops } => {
            let entries = vec![("type".to_string(), expr(type_ref)), ("ops".to_string(), operations(ops))];
            Pn::call("resource-defaults", vec![Pn::Map(with_form(entries, *form))])
        }
        ExprKind::ResourceOverride { form, resources, operations: ops } => {
            let entries = vec![("resources".to_string(), expr(resources)), ("ops".to_string(), operations(ops))];
            Pn::call("resource-override", vec![Pn::Map(with_form(entries, *form))])
        }
        ExprKind::Collect { type_expr, exported, query, operations: ops } => {
            let name = if *exported { "exported-query" } else { "virtual-query" };
            let query = match query.as_deref() {
                Some(q) if !is_nop(Some(q)) => Pn::call(name, vec![expr(q)]),
                _ => Pn::call(name, vec![]),
            };
            let mut entries = vec![("type".to_string(), expr(type_expr)), ("query".to_string(), query)];
            if !ops.is_empty() {
                entries.push(("ops".into(), operations(ops)));
            }
            Pn::call("collect", vec![Pn::Map(entries)])
        }
        ExprKind::Class { name, parameters: params, parent, body } => {
            definition("class", name, parent.as_deref(), params, boxed(body), None)
        }
        ExprKind::Define { name, parameters: params, body } => {
            definition("define", name, None, params, boxed(body), None)
        }
        ExprKind::Function { name, parameters: params, body, return_type } => {
            definition("function", name, None, params, boxed(body), boxed(return_type))
        }
        ExprKind::Node { matches, parent, body } => {
            let mut entries = vec![("matches".to_string(), list(matches))];
            if let Some(p) = parent {
                entries.push(("parent".into(), expr(p)));
            }
            if let Some(b) = body {
                entries.push(("body".into(), body_list(b)));
            }
            Pn::call("node", vec![Pn::Map(entries)])
        }
        ExprKind::TypeAlias { name, type_expr } => Pn::call("type-alias", vec![Pn::str(name), expr(type_expr)]),
        ExprKind::TypeMapping { type_expr, mapping_expr } => binary("type-mapping", type_expr, mapping_expr),
        // The body is always a block here, even of one statement.
        ExprKind::TypeDefinition { name, parent, body } => Pn::call(
            "type-definition",
            vec![
                Pn::str(name),
                parent.as_deref().map(Pn::str).unwrap_or(Pn::Nil),
                match body.as_deref() {
                    Some(Expr { kind: ExprKind::Block(statements), .. }) => {
                        Pn::Call("block".into(), statements.iter().map(expr).collect())
                    }
                    Some(b) => Pn::call("block", vec![expr(b)]),
                    None => Pn::call("nop", vec![]),
                },
            ],
        ),
    }
}
