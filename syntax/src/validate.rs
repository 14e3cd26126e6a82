//! Validation: the checks Puppet makes on a program after parsing it, before evaluating it.
//!
//! This is Puppet 7.23's `Checker4_0` (`pops/validation/checker4_0.rb`) over our AST: the same
//! checks in the same places, Puppet's messages (`pops/issues.rb`) with expressions described
//! as Puppet's label provider describes them (`pops/model/model_label_provider.rb`: "a Name",
//! "an 'undef' expression", …), and Puppet's default severities
//! (`validation/validator_factory_4_0.rb`): a duplicate hash key is a warning (`strict` is
//! `warning` by default), a future reserved word a deprecation (printed as a warning),
//! everything else an error. [`validate_with`] takes the settings that change this: `strict`
//! (the severity of a duplicate key) and `tasks` (Bolt's `TasksChecker`, which refuses what
//! only a catalog has). Checks that need the file's place in a module
//! (`ILLEGAL_DEFINITION_LOCATION`, `ILLEGAL_TOP_CONSTRUCT_LOCATION`) are not made.
//!
//! Positions are Puppet's: the line and column of the model element Puppet reports, which is
//! not always where the expression starts. Puppet positions a binary operation, an assignment,
//! a relationship and a hash entry at its operator, a method call at its `(` (or its `.`
//! without parentheses), a parameter at its `$name`, a type alias at its name and a heredoc's
//! text at the line after its header. The AST keeps those places ([`Expr::at`],
//! [`Parameter::at`]; a heredoc's text is taken to start on the line after its header).
//!
//! The walk is the AST's own ([`Node::for_each_child`], which names every expression kind, so
//! a new kind must say what it contains), in Puppet's order over its model: a body of one
//! statement that Puppet always wraps in a block is visited as if wrapped here too, since the
//! `top` and idem checks depend on it.
//!
//! A heredoc whose static text does not conform to its syntax (`@(END:json)`, `base64`, `pp`)
//! makes Puppet stop validating at once: that error is then the only diagnostic, as in Puppet.
//!
//! This file holds the walk and the checks; `validate/labels.rs` names expressions for the
//! messages, `validate/heredoc.rs` checks a heredoc's text in its syntax.

mod heredoc;
mod labels;

use crate::ast::*;
use crate::{Diagnostic, Span};
use heredoc::external_syntax;
pub use labels::label;
use labels::{a_an, a_an_uc, node_label};

/// Puppet's validation diagnostics for a program, in source order, with Puppet's default
/// settings.
pub fn validate(program: &Program) -> Vec<Diagnostic> {
    validate_with(program, Settings::default())
}

/// Puppet's settings that change what validation says: `strict` (what a key given twice in
/// a hash is: `off` ignores it, `warning` warns, `error` refuses it) and `tasks` (Bolt's
/// mode, whose `TasksChecker` refuses what only a catalog has: resources, classes, defined
/// types, nodes, relationships, collectors).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub strict: Strict,
    pub tasks: bool,
}

/// Puppet's `strict` setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strict {
    Off,
    #[default]
    Warning,
    Error,
}

/// [`validate`] with other settings than Puppet's defaults.
pub fn validate_with(program: &Program, settings: Settings) -> Vec<Diagnostic> {
    let mut checker = Checker { path: Vec::new(), out: Vec::new(), stop: None, settings };
    if let Some(body) = &program.body {
        checker.path.push(Element::Program);
        checker.visit(Element::Node(Node::Expr(body)));
    }
    checker.finish()
}

/// Validates the code of an EPP template as Puppet validates the program its parser makes
/// of one: the template is a lambda, its code that lambda's body, so no definition is at
/// the top (`<% class a {} %>` is refused).
pub fn validate_template(program: &Program) -> Vec<Diagnostic> {
    let mut checker = Checker { path: Vec::new(), out: Vec::new(), stop: None, settings: Settings::default() };
    if let Some(body) = &program.body {
        checker.path.push(Element::Program);
        checker.path.push(Element::Template);
        checker.visit_body(Some(body));
    }
    checker.finish()
}

impl Checker<'_> {
    /// The diagnostics, in source order (or the one that stopped validation).
    fn finish(self) -> Vec<Diagnostic> {
        let checker = self;
        if let Some(stop) = checker.stop {
            return vec![stop];
        }
        let mut out = checker.out;
        out.sort_by_key(|d| (d.span.line, d.span.column));
        out
    }
}

// ---------------------------------------------------------------------------------------------
// The model as Puppet walks it

/// A model element: the program, or a node of the AST ([`Node`]: an expression, or one of
/// the parts Puppet's model has as elements of their own). A [`Node::Body`] element is a body
/// of one statement that Puppet wraps in a block: the body of a class, define, node,
/// function, lambda, type definition or case option is always a `BlockExpression` in
/// Puppet's model (our AST keeps a lone statement as is); a body that is a block is visited
/// as that block.
#[derive(Clone, Copy)]
enum Element<'a> {
    Program,
    /// The lambda Puppet makes of an EPP template, whose body is the template's code.
    Template,
    Node(Node<'a>),
}

struct Checker<'a> {
    /// The containers of the element being checked, outermost first.
    path: Vec<Element<'a>>,
    out: Vec<Diagnostic>,
    /// The error that stopped validation (a heredoc's text in the wrong syntax).
    stop: Option<Diagnostic>,
    settings: Settings,
}

impl<'a> Checker<'a> {
    fn error(&mut self, message: String, span: Span) {
        self.out.push(Diagnostic::error(message, span));
    }

    fn warning(&mut self, message: String, span: Span) {
        self.out.push(Diagnostic::warning(message, span));
    }

    /// Checks `node`, then everything it contains, in the order Puppet's model lists them.
    fn visit(&mut self, node: Element<'a>) {
        if self.stop.is_some() {
            return;
        }
        self.check(node);
        self.path.push(node);
        self.children(node);
        self.path.pop();
    }

    fn visit_expr(&mut self, e: &'a Expr) {
        self.visit(Element::Node(Node::Expr(e)));
    }

    /// A body Puppet builds with `f_build_body`: always a block.
    fn visit_body(&mut self, body: Option<&'a Expr>) {
        match body {
            Some(b) if self.is_block(b) => self.visit_expr(b),
            Some(b) => self.visit(Element::Node(Node::Body(b))),
            None => {}
        }
    }

    /// Visits what `node` contains ([`Node::for_each_child`]), each part as the element
    /// Puppet's model makes of it.
    fn children(&mut self, node: Element<'a>) {
        let node = match node {
            Element::Program | Element::Template => return,
            Element::Node(node) => node,
        };
        // Puppet makes `Bar { … }` `Object[{parent => Bar, …}]` (or `Bar[{…}]` for Object and
        // TypeSet): the parts are checked, not the entry itself.
        if let Node::Expr(Expr { kind: ExprKind::TypeAlias { type_expr, .. }, .. }) = node {
            if let ExprKind::KeyedEntry { key, value } = &type_expr.kind {
                self.visit_expr(key);
                return self.visit_expr(value);
            }
        }
        node.for_each_child(&mut |child| match child {
            Node::Body(b) => self.visit_body(Some(b)),
            child => self.visit(Element::Node(child)),
        });
    }

    // -----------------------------------------------------------------------------------------
    // The checks, one per kind of element (Puppet's `check_*` methods)

    fn check(&mut self, node: Element<'a>) {
        match node {
            Element::Program | Element::Template | Element::Node(Node::Body(_)) => {}
            Element::Node(Node::Lambda(l)) => {
                let last = l.parameters.len().saturating_sub(1);
                for (i, p) in l.parameters.iter().enumerate() {
                    if p.captures_rest && i != last {
                        self.error(format!("Parameter ${} is not last, and has 'captures rest'", p.name), p.at);
                    }
                }
                if let Some(r) = &l.return_type {
                    self.type_ref(r, "Lambda");
                }
            }
            Element::Node(Node::Parameter(p)) => {
                let numeric = {
                    let digits = p.name.strip_prefix("0x").unwrap_or(&p.name);
                    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
                };
                if numeric {
                    self.error(
                        format!("The numeric parameter name '${}' cannot be used (clashes with numeric match result variables)", p.name),
                        p.at,
                    );
                }
                if !is_param_name(&p.name) {
                    self.error(
                        format!("Illegal parameter name. The given name '{}' does not conform to the naming rule /^[a-z_]\\w*$/", p.name),
                        p.at,
                    );
                }
                if let Some(v) = &p.value {
                    self.no_assignment(v);
                }
            }
            Element::Node(Node::ResourceBody(b)) => {
                let mut seen = false;
                for op in &b.operations {
                    if let AttributeOp::Splat { span, .. } = op {
                        if seen {
                            self.error(
                                "Unfolding of attributes from Hash can only be used once per resource body".into(),
                                *span,
                            );
                        }
                        seen = true;
                    }
                }
            }
            Element::Node(Node::Attribute(op)) => match op {
                AttributeOp::Set { name, append, value, span } => {
                    if *append {
                        let parent = self.path.last().copied();
                        let ok = matches!(
                            parent,
                            Some(Element::Node(Node::Expr(Expr {
                                kind: ExprKind::Collect { .. } | ExprKind::ResourceOverride { .. },
                                ..
                            })))
                        );
                        if !ok {
                            let parent = parent.map_or_else(|| "Object".to_string(), |p| a_an(&node_label(p)));
                            self.error(
                                format!("Illegal +> operation on attribute {name}. This operator can not be used in {parent}"),
                                *span,
                            );
                        }
                    }
                    self.rvalue(value);
                }
                AttributeOp::Splat { value, .. } => self.rvalue(value),
            },
            Element::Node(Node::CaseOption(o)) => {
                for v in &o.values {
                    self.rvalue(v);
                }
            }
            Element::Node(Node::SelectorEntry(s)) => self.rvalue(&s.matching),
            Element::Node(Node::Query(collect)) => {
                if let ExprKind::Collect { query: Some(q), .. } = &collect.kind {
                    self.query(q);
                }
            }
            Element::Node(Node::Expr(e)) if self.settings.tasks && catalog_only(e) => {
                self.error(format!("{} is only available when compiling a catalog", a_an_uc(&label(e))), pos(e))
            }
            Element::Node(Node::Expr(e)) => self.check_expr(e),
        }
    }

    fn check_expr(&mut self, e: &'a Expr) {
        use ExprKind::*;
        match &e.kind {
            Block(statements) => {
                if let Some(name) = self.untitled(statements) {
                    self.error(
                        format!(
                            "This expression is invalid. Did you try declaring a '{name}' resource without a title?"
                        ),
                        pos(&statements[0]),
                    );
                } else if let Some((_, init)) = statements.split_last() {
                    if let Some(s) = init.iter().find(|s| idem(Some(s))) {
                        self.error(
                            format!(
                                "This {} has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)",
                                label(s)
                            ),
                            pos(s),
                        );
                    }
                }
            }
            Reserved(word) => self.error(
                format!("Use of reserved word: {word}, must be quoted if intended to be a String value"),
                e.span,
            ),
            QualifiedReference(name) => {
                if !is_classref_ext(name) {
                    self.error(
                        format!("Illegal type reference. The given name '{name}' does not conform to the naming rule"),
                        e.span,
                    );
                }
            }
            Variable(name) => {
                if name.starts_with(|c: char| c.is_ascii_digit()) {
                    if !is_numeric_var_name(name) {
                        self.error(
                            format!("Illegal numeric variable name, The given name '{name}' must be a decimal value if it starts with a digit 0-9"),
                            e.span,
                        );
                    }
                } else if !is_var_name(name) {
                    self.error(
                        format!("Illegal variable name, The given name '{name}' does not conform to the naming rule /^((::)?[a-z]\\w*)*((::)?[a-z_]\\w*)$/"),
                        e.span,
                    );
                }
            }
            VariableOf(inner) => match inner.kind {
                Integer { .. } => {}
                // `"${true}"`, `"${false.x}"`: Puppet's lexer names the variable by the boolean
                // itself, and its check, taking the name for a string (`name[0,1]`), fails with
                // Ruby's NoMethodError, which stops validation.
                Boolean(b) => {
                    let class = if b { "TrueClass" } else { "FalseClass" };
                    let message = format!(
                        "undefined method `[]' for {b}:{class}\n\n      if name[0,1] =~ /[0-9]/\n             ^^^^^"
                    );
                    self.stop = Some(Diagnostic::error(message, Span::default()));
                }
                _ => self.error("Illegal expression. A Variable is unacceptable as name in a Variable".into(), e.span),
            },
            Binary { left, right, .. } => {
                self.rvalue(left);
                self.rvalue(right);
            }
            Not(inner) | Negate(inner) | Unfold(inner) | Paren(inner) | Text(inner) => self.rvalue(inner),
            Assignment { op: AssignOp::Assign, left, right } => {
                self.assign(left, false);
                self.rvalue(right);
            }
            Assignment { op, .. } => self.error(
                format!(
                    "The operator '{}' is no longer supported. See http://links.puppet.com/remove-plus-equals",
                    op.symbol()
                ),
                pos(e),
            ),
            Relationship { left, right, .. } => {
                self.relation(left);
                self.relation(right);
            }
            NamedAccess { right, .. } => {
                if !matches!(right.kind, QualifiedName(_)) {
                    let container = self.path.last().copied().map_or_else(|| "Object".to_string(), node_label);
                    self.error(
                        format!(
                            "Illegal expression. {} is unacceptable as function name in {}",
                            a_an_uc(&label(right)),
                            a_an(&container)
                        ),
                        pos(right),
                    );
                }
            }
            KeyedEntry { key, value } => {
                self.rvalue(key);
                self.rvalue(value);
            }
            Array(values) => {
                for v in values {
                    self.rvalue(v);
                }
            }
            Hash(entries) => self.duplicate_keys(e, entries),
            Selector { left, entries } => {
                self.rvalue(left);
                let defaults: Vec<&Expr> =
                    entries.iter().map(|s| &s.matching).filter(|m| matches!(m.kind, Default)).collect();
                if defaults.len() > 1 {
                    self.error(
                        "This Selector Expression already has a 'default' entry - this is a duplicate".into(),
                        pos(defaults[1]),
                    );
                }
            }
            Call { kind: CallKind::Function, functor, .. } => {
                let ok = match &functor.kind {
                    QualifiedName(_) | QualifiedReference(_) => true,
                    Access { left, .. } => matches!(left.kind, QualifiedReference(_)),
                    _ => false,
                };
                if !ok {
                    self.error(
                        format!(
                            "Illegal expression. {} is unacceptable as function name in a Function Call",
                            a_an_uc(&label(functor))
                        ),
                        pos(functor),
                    );
                }
            }
            If { test, .. } | Unless { test, .. } => self.rvalue(test),
            Case { test, options } => {
                self.rvalue(test);
                let mut found = false;
                for value in options.iter().flat_map(|o| &o.values) {
                    if matches!(value.kind, Default) {
                        if found {
                            self.error(
                                "This 'case' statement already has a 'default' entry - this is a duplicate".into(),
                                pos(value),
                            );
                        }
                        found = true;
                    }
                }
            }
            Resource { form, type_name, .. } => {
                if *form != ResourceForm::Regular && matches!(&type_name.kind, QualifiedName(n) if n == "class") {
                    self.error("Classes are not virtualizable".into(), e.span);
                }
            }
            ResourceDefaults { form, .. } | ResourceOverride { form, .. } => {
                if *form != ResourceForm::Regular {
                    self.error("Resource Defaults are not virtualizable".into(), e.span);
                }
            }
            Collect { type_expr, .. } => {
                if !matches!(type_expr.kind, QualifiedReference(_)) {
                    self.error(
                        format!(
                            "Illegal expression. {} is unacceptable as type name in {}",
                            a_an_uc(&label(type_expr)),
                            a_an(&label(e))
                        ),
                        pos(type_expr),
                    );
                }
            }
            Heredoc { syntax, text } => {
                if let String(value) = &text.kind {
                    match external_syntax(syntax, value) {
                        Some(Ok((message, logged))) => {
                            let span = heredoc_text_pos(e);
                            let message = format!("Invalid produced text having syntax: '{syntax}'. {message}");
                            self.stop = Some(Diagnostic { logged, ..Diagnostic::error(message, span) });
                        }
                        // the checker refused the syntax: its error has no place
                        Some(Err(message)) => self.stop = Some(Diagnostic::error(message, Span::default())),
                        None => {}
                    }
                }
            }
            Class { name, parameters, body, .. } | Define { name, parameters, body } => {
                self.named_definition(e, name);
                let container = label(e);
                for p in parameters.iter().filter(|p| p.captures_rest) {
                    self.error(
                        format!("Parameter ${} has 'captures rest' - not supported in {}", p.name, a_an(&container)),
                        p.at,
                    );
                }
                self.unique_parameters(parameters);
                for p in parameters.iter().filter(|p| p.name == "name" || p.name == "title") {
                    self.error(
                        format!("The parameter ${} redefines a built in parameter in the {container}", p.name),
                        p.at,
                    );
                }
                self.no_idem_last(e, body.as_deref());
            }
            Function { name, parameters, return_type, .. } => {
                self.named_definition(e, name);
                if let Some(r) = return_type {
                    self.type_ref(r, "Function Definition");
                }
                self.unique_parameters(parameters);
            }
            Node { matches, parent, body } => {
                for m in matches {
                    self.hostname(m);
                }
                self.top(e);
                self.no_idem_last(e, body.as_deref());
                if let Some(p) = parent {
                    self.error(
                        "Node inheritance is not supported in Puppet >= 4.0.0. See http://links.puppet.com/puppet-node-inheritance-deprecation".into(),
                        pos(p),
                    );
                }
            }
            TypeAlias { name, type_expr } => {
                self.top(e);
                if !is_classref_ext_decl(name) {
                    self.error(
                        format!("Unacceptable name. The name '{name}' is unacceptable as the name of a Type Alias"),
                        pos(e),
                    );
                }
                self.reserved_type_name(e, name);
                self.alias_type_ref(e, type_expr);
            }
            TypeMapping { type_expr, mapping_expr } => self.type_mapping(e, type_expr, mapping_expr),
            Integer { value, .. } => {
                if *value > num_bigint::BigInt::from(i64::MAX) {
                    self.error(
                        format!("A Literal Integer resulted in a value outside of Puppet Integer max range, got '+{value:#x}'"),
                        e.span,
                    );
                } else if *value < num_bigint::BigInt::from(i64::MIN) {
                    self.error(
                        format!(
                            "A Literal Integer resulted in a value outside of Puppet Integer min range, got '-{:#x}'",
                            value.magnitude()
                        ),
                        e.span,
                    );
                }
            }
            TypeDefinition { name, .. } => {
                self.top(e);
                self.reserved_type_name(e, name);
                self.error(
                    "Expressions of type a Type Definition are not supported in this version of Puppet".into(),
                    pos(e),
                );
            }
            Nop
            | Float(_)
            | String(_)
            | Boolean(_)
            | Undef
            | Default
            | Regex(_)
            | Concat(_)
            | QualifiedName(_)
            | Access { .. }
            | Call { kind: CallKind::Method, .. } => {}
        }
    }

    // -----------------------------------------------------------------------------------------
    // Definitions

    /// `check_NamedDefinition`: classes, defines and functions.
    fn named_definition(&mut self, e: &'a Expr, name: &str) {
        self.top(e);
        if !is_classref_decl(name) {
            self.error(
                format!("Unacceptable name. The name '{name}' is unacceptable as the name of {}", a_an(&label(e))),
                pos(e),
            );
        }
        self.reserved_type_name(e, name);
        if name == "plan" {
            self.warning("Use of future reserved word: 'plan'".into(), pos(e));
        }
    }

    fn reserved_type_name(&mut self, e: &'a Expr, name: &str) {
        if RESERVED_TYPE_NAMES.contains(&name) {
            self.error(
                format!(
                    "The name: '{name}' is already defined by Puppet and can not be used as the name of {}.",
                    a_an(&label(e))
                ),
                pos(e),
            );
        }
    }

    /// `top`: a definition may only be at the top level or in a class (functions and types
    /// only at the very top).
    fn top(&mut self, definition: &'a Expr) {
        let absolute = matches!(
            definition.kind,
            ExprKind::Function { .. } | ExprKind::TypeAlias { .. } | ExprKind::TypeDefinition { .. }
        );
        let mut i = self.path.len();
        loop {
            let Some(container) = i.checked_sub(1).and_then(|k| self.path.get(k)).copied() else {
                return;
            };
            i -= 1;
            match container {
                Element::Program | Element::Node(Node::Expr(Expr { kind: ExprKind::Class { .. }, .. })) => return,
                Element::Node(Node::Body(_)) | Element::Node(Node::Expr(Expr { kind: ExprKind::Block(_), .. })) => {
                    let grandparent = i.checked_sub(1).and_then(|k| self.path.get(k)).copied();
                    if absolute && !matches!(grandparent, Some(Element::Program)) {
                        self.error(
                            format!("{} may only appear at toplevel", a_an_uc(&label(definition))),
                            pos(definition),
                        );
                        return;
                    }
                }
                _ => {
                    self.error(
                        "Classes, definitions, and nodes may only appear at toplevel or inside other classes".into(),
                        pos(definition),
                    );
                    return;
                }
            }
        }
    }

    /// `type Runtime[…] = …`: the only mappings Puppet knows are from a runtime type, to a type
    /// (`Runtime[ruby, 'X']`) or by a pattern (`Runtime[ruby, [/re/, 'repl']] = [/re/, 'repl']`).
    fn type_mapping(&mut self, e: &'a Expr, lhs: &'a Expr, rhs: &'a Expr) {
        self.top(e);
        let lhs_type = match &lhs.kind {
            ExprKind::Access { left, keys } if matches!(&left.kind, ExprKind::QualifiedReference(n) if n == "Runtime") => {
                if keys.len() == 2 && pattern_with_replacement(&keys[1]) {
                    2
                } else {
                    1
                }
            }
            _ => 0,
        };
        const SINGLE: &str = "Illegal type mapping. Expected a Type on the left side, got A Type Mapping";
        const REGEXP: &str =
            "Illegal type mapping. Expected a Tuple[Regexp,String] on the left side, got A Type Mapping";
        let type_ref = match &rhs.kind {
            ExprKind::Access { left, .. } => matches!(left.kind, ExprKind::QualifiedReference(_)),
            kind => matches!(kind, ExprKind::QualifiedReference(_)),
        };
        let message = match lhs_type {
            0 => Some("Expressions of type a Type Mapping are not supported in this version of Puppet"),
            _ if pattern_with_replacement(rhs) => (lhs_type == 1).then_some(SINGLE),
            _ if type_ref => (lhs_type == 2).then_some(REGEXP),
            1 => Some(SINGLE),
            _ => Some(REGEXP),
        };
        if let Some(message) = message {
            self.error(message.into(), pos(e));
        }
    }

    fn unique_parameters(&mut self, parameters: &[Parameter]) {
        let mut seen = std::collections::HashSet::new();
        for p in parameters {
            if !seen.insert(p.name.as_str()) {
                self.error(
                    format!("The parameter '{}' is declared more than once in the parameter list", p.name),
                    p.at,
                );
            }
        }
    }

    /// A class, define or node may not end with an expression that has no effect.
    fn no_idem_last(&mut self, definition: &'a Expr, body: Option<&'a Expr>) {
        let last = match body.map(|b| (b, &b.kind)) {
            Some((b, ExprKind::Block(statements))) if self.is_block(b) => statements.last(),
            _ => body,
        };
        let Some(last) = last.filter(|l| idem(Some(l))) else {
            return;
        };
        if let ExprKind::Block(statements) = &last.kind {
            if self.untitled(statements).is_some() {
                return;
            }
        }
        self.error(
            format!(
                "This {} has no effect. {} can not end with a value-producing expression without other effect",
                label(last),
                a_an_uc(&label(definition))
            ),
            pos(last),
        );
    }

    /// `internal_check_type_ref` for a return type: a type, or a parameterized type.
    fn type_ref(&mut self, r: &'a Expr, container: &str) {
        let n = match &r.kind {
            ExprKind::Access { left, .. } => left,
            _ => r,
        };
        match &n.kind {
            ExprKind::QualifiedReference(name) => {
                if name.eq_ignore_ascii_case("plan") {
                    self.warning("Use of future reserved word: 'plan'".into(), pos(r));
                }
            }
            _ => self.error(
                format!(
                    "Illegal expression. {} is unacceptable as a type reference in {}",
                    a_an_uc(&label(r)),
                    a_an(container)
                ),
                pos(r),
            ),
        }
    }

    /// The type of a type alias, as Puppet builds it: `{…}` is `Object[{…}]` and `Bar {…}`
    /// is `Object[{parent => Bar, …}]` (or `Bar[{…}]` for Object and TypeSet), both placed at
    /// the alias.
    fn alias_type_ref(&mut self, alias: &'a Expr, type_expr: &'a Expr) {
        match &type_expr.kind {
            ExprKind::Hash(_) | ExprKind::KeyedEntry { .. } => {}
            ExprKind::Access { left, .. } => {
                if matches!(&left.kind, ExprKind::QualifiedReference(n) if n.eq_ignore_ascii_case("plan")) {
                    // A type with arguments after `=` has no position of its own in Puppet's
                    // model: the diagnostic takes the alias's.
                    self.warning("Use of future reserved word: 'plan'".into(), pos(alias));
                } else if !matches!(left.kind, ExprKind::QualifiedReference(_)) {
                    self.error(
                        format!(
                            "Illegal expression. {} is unacceptable as a type reference in a Type Alias",
                            a_an_uc(&label(type_expr))
                        ),
                        pos(alias),
                    );
                }
            }
            _ => self.type_ref(type_expr, "Type Alias"),
        }
    }

    /// Node names: strings of letters, digits, `_`, `-` and `.`, regular expressions, default.
    fn hostname(&mut self, m: &'a Expr) {
        use ExprKind::*;
        let text = match &m.kind {
            String(s) => s.to_string(),
            QualifiedName(s) => s.clone(),
            QualifiedReference(s) => s.to_lowercase(),
            Boolean(b) => b.to_string(),
            Concat(segments) => {
                if let Some(Expr { kind: Text(inner), .. }) = segments.iter().find(|s| matches!(s.kind, Text(_))) {
                    self.error("An interpolated expression is not allowed in a hostname of a node".into(), pos(inner));
                } else if segments.len() != 1 {
                    self.error("An interpolated expression is not allowed in a hostname of a node".into(), pos(m));
                }
                return;
            }
            Integer { .. } | Float(_) | Default | Regex(_) => return,
            _ => {
                self.error(
                    format!(
                        "Illegal expression. {} is unacceptable as hostname in a Node Definition",
                        a_an_uc(&label(m))
                    ),
                    pos(m),
                );
                return;
            }
        };
        if text.chars().any(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')) {
            self.error(
                format!("The hostname '{text}' contains illegal characters (only letters, digits, '_', '-', and '.' are allowed)"),
                pos(m),
            );
        }
    }

    // -----------------------------------------------------------------------------------------
    // Values, assignments, relationships, queries

    /// `rvalue`: definitions and collectors produce no value.
    fn rvalue(&mut self, e: &'a Expr) {
        use ExprKind::*;
        match &e.kind {
            Collect { .. }
            | Class { .. }
            | Define { .. }
            | Function { .. }
            | Node { .. }
            | TypeAlias { .. }
            | TypeMapping { .. }
            | TypeDefinition { .. } => {
                self.error(
                    format!("Invalid use of expression. {} does not produce a value", a_an_uc(&label(e))),
                    pos(e),
                );
            }
            Not(inner) | Negate(inner) | Unfold(inner) | Paren(inner) | Text(inner) => self.rvalue(inner),
            _ => {}
        }
    }

    /// `relation`: a relationship's operands are values, collectors or relationships.
    fn relation(&mut self, e: &'a Expr) {
        if !matches!(e.kind, ExprKind::Collect { .. } | ExprKind::Relationship { .. }) {
            self.rvalue(e);
        }
    }

    /// `assign`: what may be assigned to.
    fn assign(&mut self, e: &'a Expr, via_index: bool) {
        match &e.kind {
            ExprKind::Variable(name) => {
                if is_numeric_var_name(name) {
                    self.error(
                        format!("Illegal attempt to assign to the numeric match result variable '${name}'. Numeric variables are not assignable"),
                        pos(e),
                    );
                }
                if name.contains("::") {
                    self.error(
                        format!(
                            "Illegal attempt to assign to '{name}'. Cannot assign to variables in other namespaces"
                        ),
                        pos(e),
                    );
                }
            }
            ExprKind::Access { .. } => {
                self.error("Illegal attempt to assign via [index/key]. Not an assignable reference".into(), pos(e));
            }
            ExprKind::Array(values) => {
                for v in values {
                    self.assign(v, false);
                }
            }
            _ if via_index => self.error(
                format!(
                    "Illegal attempt to assign to {} via [index/key]. Not an assignable reference",
                    a_an(&label(e))
                ),
                pos(e),
            ),
            _ => self.error(
                format!("Illegal attempt to assign to '{}'. Not an assignable reference", a_an(&label(e))),
                pos(e),
            ),
        }
    }

    /// A parameter's default value may not assign (except inside a lambda).
    fn no_assignment(&mut self, e: &'a Expr) {
        if let ExprKind::Assignment { .. } = e.kind {
            self.error("Assignment not allowed here".into(), pos(e));
            return;
        }
        // Puppet's `_pcore_contents`, as `internal_check_illegal_assignment` walks it: the
        // expressions directly inside, except in a lambda.
        e.for_each_child(&mut |child| {
            if !matches!(child, Node::Lambda(_)) {
                child.for_each_expr(&mut |c| self.no_assignment(c));
            }
        });
    }

    /// A collector's query: `==` and `!=` comparisons joined by `and` and `or`.
    fn query(&mut self, e: &'a Expr) {
        use ExprKind::*;
        match &e.kind {
            Binary { op: BinaryOp::And | BinaryOp::Or, left, right } => {
                self.query(left);
                self.query(right);
            }
            Binary { op: BinaryOp::Equal | BinaryOp::NotEqual, .. } => {}
            Paren(inner) => self.query(inner),
            Variable(_) | QualifiedName(_) | Integer { .. } | Float(_) | String(_) | Boolean(_) => {}
            _ => self
                .error(format!("Illegal query expression. {} cannot be used in a query", a_an_uc(&label(e))), pos(e)),
        }
    }

    /// `check_LiteralHash`: a literal key given twice (`DUPLICATE_KEY`, whose severity is
    /// the `strict` setting: a warning by default).
    fn duplicate_keys(&mut self, hash: &'a Expr, entries: &'a [Expr]) {
        let mut seen: Vec<Literal> = Vec::new();
        for entry in entries {
            let ExprKind::KeyedEntry { key, value } = &entry.kind else {
                continue;
            };
            let Some(literal) = literal(key) else {
                continue;
            };
            if seen.contains(&literal) {
                // The `parent => Foo` entry Puppet adds to `type A = Foo { … }` has no position
                // of its own: the hash's is taken.
                let synthesized = key.span == value.span;
                let at = if synthesized { hash.span } else { pos(entry) };
                let message = format!("The key '{}' is declared more than once", literal.to_s());
                match self.settings.strict {
                    Strict::Off => {}
                    Strict::Warning => self.warning(message, at),
                    Strict::Error => self.error(message, at),
                }
            } else {
                seen.push(literal);
            }
        }
    }
}

impl Checker<'_> {
    /// Whether a body is a block of statements: `foo { a => 1 }` (a name and a hash, see
    /// [`resource_without_title`]) is a block too, but a statement of the body that holds it.
    fn is_block(&self, body: &Expr) -> bool {
        matches!(&body.kind, ExprKind::Block(statements) if self.untitled(statements).is_none())
    }

    /// [`resource_without_title`], which the tasks checker never finds (`TasksChecker`'s
    /// `resource_without_title?` is false: `foo { a => 1 }` is then a name with no effect).
    fn untitled<'e>(&self, statements: &'e [Expr]) -> Option<&'e str> {
        if self.settings.tasks {
            return None;
        }
        resource_without_title(statements)
    }
}

/// What the tasks checker refuses in place of checking it (`illegalTasksExpression`:
/// `EXPRESSION_NOT_SUPPORTED_WHEN_SCRIPTING`), as a plan has no catalog.
fn catalog_only(e: &Expr) -> bool {
    use ExprKind::*;
    matches!(
        e.kind,
        Collect { .. }
            | Class { .. }
            | Node { .. }
            | Relationship { .. }
            | ResourceDefaults { .. }
            | Resource { .. }
            | ResourceOverride { .. }
            | Define { .. }
    )
}

/// `resource_without_title?`: `file { mode => 1 }` read as a name and a hash.
fn resource_without_title(statements: &[Expr]) -> Option<&str> {
    match statements {
        [Expr { kind: ExprKind::QualifiedName(name), .. }, Expr { kind: ExprKind::Hash(_), .. }] => Some(name),
        _ => None,
    }
}

/// `[/regexp/, 'replacement']`
fn pattern_with_replacement(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Array(v) if matches!(v.as_slice(), [Expr { kind: ExprKind::Regex(_), .. }, Expr { kind: ExprKind::String(_), .. }]))
}

/// `idem`: whether an expression is known to have no effect (its value is all it gives).
fn idem(e: Option<&Expr>) -> bool {
    use ExprKind::*;
    let Some(e) = e else { return true };
    match &e.kind {
        Nop
        | Integer { .. }
        | Float(_)
        | String(_)
        | Boolean(_)
        | Undef
        | Default
        | Regex(_)
        | QualifiedName(_)
        | QualifiedReference(_)
        | Reserved(_)
        | Array(_)
        | Hash(_)
        | Concat(_)
        | Heredoc { .. }
        | Access { .. }
        | NamedAccess { .. }
        | Selector { .. }
        | Not(_)
        | Negate(_)
        | Unfold(_)
        | Variable(_)
        | VariableOf(_)
        | Text(_) => true,
        Binary { op, .. } => !matches!(op, BinaryOp::Match | BinaryOp::NotMatch),
        Paren(inner) => idem(Some(inner)),
        Block(statements) => statements.iter().all(|s| idem(Some(s))),
        If { test, then, otherwise } | Unless { test, then, otherwise } => {
            idem(Some(test)) && idem(then.as_deref()) && idem(otherwise.as_deref())
        }
        Case { test, options } => {
            idem(Some(test)) && options.iter().all(|o| o.values.iter().all(|v| idem(Some(v))) && idem(o.body.as_ref()))
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Names (`pops/patterns.rb`)

const RESERVED_TYPE_NAMES: &[&str] = &[
    "type",
    "any",
    "unit",
    "scalar",
    "boolean",
    "numeric",
    "integer",
    "float",
    "collection",
    "array",
    "hash",
    "tuple",
    "struct",
    "variant",
    "optional",
    "enum",
    "regexp",
    "pattern",
    "runtime",
    "init",
    "object",
    "sensitive",
    "semver",
    "semverrange",
    "string",
    "timestamp",
    "timespan",
    "typeset",
];

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `[first]\w*`
fn is_segment(s: &str, first: impl Fn(char) -> bool) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(first) && chars.all(is_word)
}

/// `PARAM_NAME`: `\A[a-z_]\w*\z`
fn is_param_name(s: &str) -> bool {
    is_segment(s, |c| c.is_ascii_lowercase() || c == '_')
}

/// `VAR_NAME`: `\A(?:::)?(?:[a-z]\w*::)*[a-z_]\w*\z`
fn is_var_name(s: &str) -> bool {
    let s = s.strip_prefix("::").unwrap_or(s);
    let segments: Vec<&str> = s.split("::").collect();
    let (last, init) = segments.split_last().expect("split gives one part at least");
    init.iter().all(|seg| is_segment(seg, |c| c.is_ascii_lowercase())) && is_param_name(last)
}

/// `NUMERIC_VAR_NAME`: `\A(?:0|(?:[1-9][0-9]*))\z`
fn is_numeric_var_name(s: &str) -> bool {
    s == "0" || (s.starts_with(|c: char| ('1'..='9').contains(&c)) && s.bytes().all(|b| b.is_ascii_digit()))
}

/// `CLASSREF_DECL`: `\A[a-z][\w]*(?:::[a-z][\w]*)*\z`
fn is_classref_decl(s: &str) -> bool {
    s.split("::").all(|seg| is_segment(seg, |c| c.is_ascii_lowercase()))
}

/// `CLASSREF_EXT_DECL`: `\A[A-Z][\w]*(?:::[A-Z][\w]*)*\z`
fn is_classref_ext_decl(s: &str) -> bool {
    s.split("::").all(|seg| is_segment(seg, |c| c.is_ascii_uppercase()))
}

/// `CLASSREF_EXT`: `\A((::){0,1}[A-Z][\w]*)+\z`
fn is_classref_ext(s: &str) -> bool {
    let s = s.strip_prefix("::").unwrap_or(s);
    s.split("::").all(|seg| is_segment(seg, |c| c.is_ascii_uppercase()))
}

// ---------------------------------------------------------------------------------------------
// Positions

/// Where Puppet places an expression (its model element's offset).
fn pos(e: &Expr) -> Span {
    e.at
}

/// A heredoc's text starts at the beginning of the line after its header.
fn heredoc_text_pos(heredoc: &Expr) -> Span {
    Span { start: heredoc.span.end, end: heredoc.span.end, line: heredoc.span.line + 1, column: 1 }
}

// ---------------------------------------------------------------------------------------------
// Literal values (`LiteralEvaluator`), for duplicate hash keys

#[derive(Clone, Debug)]
enum Literal {
    String(String),
    Integer(num_bigint::BigInt),
    Float(f64),
    Boolean(bool),
    Undef,
    Default,
    Regex(String),
    Array(Vec<Literal>),
    Hash(Vec<(Literal, Literal)>),
}

/// The value of a literal expression, `None` when it is not literal.
fn literal(e: &Expr) -> Option<Literal> {
    use ExprKind::*;
    Some(match &e.kind {
        String(s) => Literal::String(s.to_string()),
        QualifiedName(s) => Literal::String(s.clone()),
        Integer { value, .. } => Literal::Integer(value.clone()),
        Float(f) => Literal::Float(*f),
        Boolean(b) => Literal::Boolean(*b),
        Undef => Literal::Undef,
        Default => Literal::Default,
        Regex(r) => Literal::Regex(r.clone()),
        Concat(segments) => match segments.as_slice() {
            [Expr { kind: String(s), .. }] => Literal::String(s.to_string()),
            _ => return None,
        },
        Array(values) => Literal::Array(values.iter().map(literal).collect::<Option<_>>()?),
        Hash(entries) => {
            let mut pairs: Vec<(Literal, Literal)> = Vec::new();
            for entry in entries {
                let KeyedEntry { key, value } = &entry.kind else {
                    return None;
                };
                let (k, v) = (literal(key)?, literal(value)?);
                match pairs.iter_mut().find(|(existing, _)| *existing == k) {
                    Some(pair) => pair.1 = v,
                    None => pairs.push((k, v)),
                }
            }
            Literal::Hash(pairs)
        }
        _ => return None,
    })
}

/// Ruby's `eql?`: hashes are equal whatever the order of their entries (and keep their
/// order for messages).
impl PartialEq for Literal {
    fn eq(&self, other: &Literal) -> bool {
        use Literal::*;
        match (self, other) {
            (String(a), String(b)) | (Regex(a), Regex(b)) => a == b,
            (Integer(a), Integer(b)) => a == b,
            (Float(a), Float(b)) => a == b,
            (Boolean(a), Boolean(b)) => a == b,
            (Undef, Undef) | (Default, Default) => true,
            (Array(a), Array(b)) => a == b,
            (Hash(a), Hash(b)) => a.len() == b.len() && a.iter().all(|pair| b.contains(pair)),
            _ => false,
        }
    }
}

impl Literal {
    /// Ruby's `to_s`, as `%{key}` renders the key.
    fn to_s(&self) -> String {
        match self {
            Literal::String(s) => s.clone(),
            Literal::Undef => String::new(),
            Literal::Default => "default".into(),
            Literal::Regex(r) => format!("(?-mix:{})", r.replace('/', "\\/")),
            other => other.inspect(),
        }
    }

    /// Ruby's `inspect`, as arrays and hashes show their elements.
    fn inspect(&self) -> String {
        match self {
            Literal::String(s) => poppet_ruby::string::inspect(s),
            Literal::Integer(i) => i.to_string(),
            Literal::Float(f) => poppet_ruby::float::float_to_s(*f),
            Literal::Boolean(b) => b.to_string(),
            Literal::Undef => "nil".into(),
            Literal::Default => ":default".into(),
            Literal::Regex(r) => format!("/{}/", r.replace('/', "\\/")),
            Literal::Array(values) => {
                format!("[{}]", values.iter().map(Literal::inspect).collect::<Vec<_>>().join(", "))
            }
            Literal::Hash(pairs) => format!(
                "{{{}}}",
                pairs.iter().map(|(k, v)| format!("{}=>{}", k.inspect(), v.inspect())).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}
