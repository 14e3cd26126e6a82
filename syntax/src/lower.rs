//! Lowering: from a tree-sitter-puppet tree to the typed AST, doing what Puppet's parser does
//! while it builds its model (`egrammar.ra` actions, `Factory`), in one walk of the tree:
//!
//! * statement calls (`include x`), with `rval_required` false for a call standing as a
//!   statement;
//! * string escapes and interpolation: in `${x}`, `${x[1]}`, `${x.y}` and `${0}` the first
//!   token becomes a variable, as lexer2's `transform_to_variable` does;
//! * heredoc text: the margin taken from the end line, the `-` trim, the escapes of the
//!   header's flags; the n-th header owns the n-th body in document order (a body is an extra
//!   of the tree, placed after the construct that ends the header's line);
//! * numbers in every radix, kept whole whatever their size (validation reports those beyond
//!   64 bits);
//! * class names prefixed by the enclosing classes, adjacent unfolded hashes merged
//!   (`Factory.ARGUMENTS`), `elsif` chains nested.
//!
//! Nesting deeper than [`MAX_DEPTH`] is a diagnostic, so that no input overflows the stack in
//! whatever walks the AST recursively afterwards; walks over tree-sitter nodes are iterative
//! (`preorder`), as fuzzed trees are 20,000 levels deep.
//!
//! Where the tree-sitter grammar accepts more than Puppet (its header in grammar.js lists
//! what), the syntax error comes from Puppet's own automaton (`lr.rs`), not from
//! here.

use std::cell::Cell;
use std::collections::HashMap;
use std::num::NonZeroU16;
use std::sync::OnceLock;

use tree_sitter::Node;

use crate::ast::*;
use crate::Diagnostic;

/// The names Puppet turns into calls when a statement follows them (`Factory::STATEMENT_CALLS`).
pub(crate) const STATEMENT_CALLS: [&str; 15] = [
    "require", "realize", "include", "contain", "tag", "debug", "info", "notice", "warning", "err", "fail", "import",
    "break", "next", "return",
];

/// The deepest nesting of expressions lowered. Real manifests stay far below it; it keeps
/// every recursive walk of the AST (lowering, PN, evaluation) within a 2 MiB thread stack.
pub const MAX_DEPTH: usize = 250;

/// Lowers one tree. The source must be the one the tree was parsed from.
pub(crate) struct Lowerer<'a> {
    source: &'a str,
    lines: Lines,
    root: Node<'a>,
    /// Heredoc bodies in document order; the n-th heredoc header owns the n-th body. Found
    /// when the first header is lowered (a walk of the whole tree, which most manifests,
    /// having no heredoc, are spared).
    bodies: Option<Vec<Node<'a>>>,
    next_body: usize,
    /// Names of the enclosing classes: nested definitions are named `outer::inner`.
    namestack: Vec<String>,
    /// The start of a token that an interpolation turns into a variable (`${x[1]}`).
    interpolated_variable: Option<usize>,
    /// How many expressions enclose the one being lowered.
    depth: usize,
    pub diagnostics: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

/// The grammar's node kinds and field names, read once. tree-sitter measures a node's kind (a
/// C string) and checks it as UTF-8 at each call, and finds a field by name by comparing the
/// name with each of the grammar's field names in turn: both are hot in lowering.
struct Grammar {
    /// By kind id (`Node::kind_id`).
    kinds: Vec<&'static str>,
    /// By name.
    fields: HashMap<&'static str, NonZeroU16, foldhash::fast::FixedState>,
}

fn grammar() -> &'static Grammar {
    static GRAMMAR: OnceLock<Grammar> = OnceLock::new();
    GRAMMAR.get_or_init(|| {
        let language = crate::language();
        let kinds = (0..language.node_kind_count())
            .map(|id| u16::try_from(id).ok().and_then(|id| language.node_kind_for_id(id)).unwrap_or(""))
            .collect();
        let fields = (1..=language.field_count())
            .filter_map(|id| {
                let id = u16::try_from(id).ok()?;
                Some((language.field_name_for_id(id)?, NonZeroU16::new(id)?))
            })
            .collect();
        Grammar { kinds, fields }
    })
}

/// `node.kind()`, from the table of kinds (an error node's kind is not in it).
pub(crate) fn kind<'t>(node: Node<'t>) -> &'t str {
    grammar().kinds.get(usize::from(node.kind_id())).copied().unwrap_or_else(|| node.kind())
}

/// The id of the field `name` (`None`: the grammar has no such field).
fn field_id(name: &str) -> Option<NonZeroU16> {
    grammar().fields.get(name).copied()
}

/// The first child in the field `name`.
fn field<'t>(node: Node<'t>, name: &str) -> Option<Node<'t>> {
    node.child_by_field_id(field_id(name)?.get())
}

/// The children in the field `name`.
fn fields<'t>(node: Node<'t>, name: &str) -> Vec<Node<'t>> {
    let Some(id) = field_id(name) else { return Vec::new() };
    let mut cursor = node.walk();
    let children = node.children_by_field_id(id, &mut cursor).collect();
    children
}

/// Children that carry meaning: named, not comments, not heredoc text (an extra).
fn significant<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|c| !matches!(kind(*c), "comment" | "heredoc_body")).collect()
}

/// Every node of the tree in document order (pre-order), without recursion: trees can be
/// far deeper than the stack.
pub(crate) fn preorder<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>) -> bool) {
    let mut cursor = root.walk();
    loop {
        if !visit(cursor.node()) {
            return;
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

fn collect_bodies<'t>(root: Node<'t>, out: &mut Vec<Node<'t>>) {
    preorder(root, |node| {
        if kind(node) == "heredoc_body" {
            out.push(node);
        }
        true
    });
}

/// Where the lines of a source start, to give an offset its line and column.
pub(crate) struct Lines {
    /// The byte offset where each line starts.
    starts: Vec<usize>,
    /// Whether the source is all ASCII (a column is then a count of bytes).
    ascii: bool,
    /// The last answer (its line, offset and column), where the next search starts: the
    /// builders ask in nearly source order, so most answers are on that line or the next.
    last: Cell<(usize, usize, usize)>,
}

impl Lines {
    pub fn new(source: &str) -> Self {
        let mut starts = Vec::with_capacity(source.len() / 32 + 1);
        starts.push(0);
        starts.extend(memchr::memchr_iter(b'\n', source.as_bytes()).map(|i| i + 1));
        Lines { starts, ascii: source.is_ascii(), last: Cell::new((1, 0, 0)) }
    }

    /// The line and column (as [`Lines::span_at`]) of each offset, walking forward through
    /// the lines while the offsets ascend.
    pub fn positions(&self, source: &str, offsets: impl ExactSizeIterator<Item = usize>) -> Vec<(u32, u32)> {
        let mut out = Vec::with_capacity(offsets.len());
        let mut line = 1usize;
        // the last column counted (non-ASCII sources): its line, offset and column
        let mut counted = (0usize, 0usize, 0usize);
        for offset in offsets {
            let offset = offset.min(source.len());
            let line_start = self.starts.get(line - 1).copied().unwrap_or(0);
            if offset < line_start {
                let span = self.span_at(source, offset);
                out.push((span.line, span.column));
                continue;
            }
            while self.starts.get(line).is_some_and(|&next| next <= offset) {
                line += 1;
            }
            let line_start = self.starts.get(line - 1).copied().unwrap_or(0);
            let column = if self.ascii {
                offset - line_start
            } else {
                let (from, before) =
                    if counted.0 == line && counted.1 <= offset { (counted.1, counted.2) } else { (line_start, 0) };
                match source.get(from..offset) {
                    Some(text) => {
                        let column = before + text.chars().count();
                        counted = (line, offset, column);
                        column
                    }
                    // inside a character: as `span_at`
                    None => 0,
                }
            };
            out.push((line as u32, column as u32 + 1));
        }
        out
    }

    /// The empty span at a byte offset of `source` (its line and column in characters, from
    /// 1).
    pub fn span_at(&self, source: &str, offset: usize) -> Span {
        let offset = offset.min(source.len());
        let (last_line, last_offset, last_column) = self.last.get();
        let on = |line: usize| {
            self.starts.get(line.wrapping_sub(1)).is_some_and(|&s| s <= offset)
                && self.starts.get(line).is_none_or(|&next| offset < next)
        };
        let line = if on(last_line) {
            last_line
        } else if on(last_line + 1) {
            last_line + 1
        } else {
            self.starts.partition_point(|&start| start <= offset)
        };
        let line_start = self.starts.get(line.wrapping_sub(1)).copied().unwrap_or(0);
        let column = if self.ascii {
            offset - line_start
        } else {
            // counted on from the last answer when it is earlier on the same line
            let (from, counted) =
                if line == last_line && last_offset <= offset { (last_offset, last_column) } else { (line_start, 0) };
            match source.get(from..offset) {
                Some(text) => {
                    let column = counted + text.chars().count();
                    self.last.set((line, offset, column));
                    column
                }
                None => 0,
            }
        };
        if self.ascii {
            self.last.set((line, offset, column));
        }
        Span { start: offset, end: offset, line: line as u32, column: column as u32 + 1 }
    }
}

impl<'a> Lowerer<'a> {
    pub fn new(source: &'a str, root: Node<'a>) -> Self {
        Lowerer {
            source,
            lines: Lines::new(source),
            root,
            bodies: None,
            next_body: 0,
            namestack: Vec::new(),
            interpolated_variable: None,
            depth: 0,
            diagnostics: Vec::new(),
            warnings: Vec::new(),
        }
    }

    fn text(&self, node: Node<'_>) -> &'a str {
        &self.source[node.byte_range()]
    }

    pub fn span(&self, node: Node<'_>) -> Span {
        Span { end: node.end_byte(), ..self.span_at(node.start_byte()) }
    }

    /// The empty span at a byte offset (its line and column in characters, from 1).
    fn span_at(&self, offset: usize) -> Span {
        self.lines.span_at(self.source, offset)
    }

    fn new_expr(&self, kind: ExprKind, node: Node<'_>) -> Expr {
        let span = self.span(node);
        // Puppet places these where it places their first part (`loc result, val[0]`).
        let at = match &kind {
            ExprKind::Selector { left, .. } | ExprKind::Access { left, .. } => left.at,
            ExprKind::Call { kind: CallKind::Function, functor, .. } => functor.at,
            _ => self.placing_node(node).map_or(span, |at| self.span(at)),
        };
        Expr::placed(kind, span, at)
    }

    /// Where Puppet places the expression `node` lowers to (see [`Expr::at`]).
    fn placed_at(&self, node: Node<'_>) -> Span {
        self.span(self.placing_node(node).unwrap_or(node))
    }

    /// The part of `node` where Puppet places its expression, when it is not `node` itself.
    fn placing_node<'t>(&self, node: Node<'t>) -> Option<Node<'t>> {
        let token = |wanted: &str| {
            let mut cursor = node.walk();
            let found = node.children(&mut cursor).find(|c| kind(*c) == wanted);
            found
        };
        match kind(node) {
            "binary_expression" | "assignment" | "relationship" => field(node, "operator"),
            "hash_pair" => token("=>"),
            "method_call" => match field(node, "arguments") {
                Some(arguments) => arguments.child(0),
                None => token("."),
            },
            "type_alias" => field(node, "name"),
            _ => None,
        }
    }

    fn error(&mut self, node: Node<'_>, message: String) -> Expr {
        let span = self.span(node);
        self.diagnostics.push(Diagnostic::error(message, span));
        Expr::new(ExprKind::Nop, span)
    }

    fn field(&self, node: Node<'a>, name: &str) -> Option<Node<'a>> {
        field(node, name)
    }

    fn lower_field(&mut self, node: Node<'a>, name: &str) -> Expr {
        match self.field(node, name) {
            Some(child) => self.expr(child),
            None => self.error(node, format!("Syntax error: missing {name}")),
        }
    }

    fn boxed_field(&mut self, node: Node<'a>, name: &str) -> Box<Expr> {
        Box::new(self.lower_field(node, name))
    }

    // ------------------------------------------------------------------ statements

    pub fn program(&mut self, root: Node<'a>) -> Program {
        let statements = self.statements(root);
        Program { body: block_or_expression(statements, self.span(root)) }
    }

    /// The statements among `node`'s children, as Puppet's `transform_calls` leaves them:
    /// a call standing as a statement does not need its value.
    fn statements(&mut self, node: Node<'a>) -> Vec<Expr> {
        significant(node)
            .into_iter()
            .map(|child| {
                let mut e = self.expr(child);
                if let ExprKind::Call { kind: CallKind::Function, rval_required, .. } = &mut e.kind {
                    *rval_required = false;
                }
                e
            })
            .collect()
    }

    /// A `{ … }` block as a body: `None` when empty.
    fn body(&mut self, block: Option<Node<'a>>) -> Option<Box<Expr>> {
        let block = block?;
        let statements = self.statements(block);
        block_or_expression(statements, self.span(block)).map(Box::new)
    }

    // ------------------------------------------------------------------ expressions

    /// Lowers an expression. Nesting deeper than [`MAX_DEPTH`] is an error rather than a
    /// stack overflow, here or in whatever walks the AST recursively afterwards.
    pub fn expr(&mut self, node: Node<'a>) -> Expr {
        if self.depth >= MAX_DEPTH {
            return self.error(node, format!("Expressions are nested more than {MAX_DEPTH} deep"));
        }
        self.depth += 1;
        let e = self.expr_at_depth(node);
        self.depth -= 1;
        e
    }

    fn expr_at_depth(&mut self, node: Node<'a>) -> Expr {
        if self.interpolated_variable == Some(node.start_byte())
            && matches!(kind(node), "name" | "number" | "word" | "boolean")
        {
            self.interpolated_variable = None;
            // `${true}`: the keyword is read as a name (see the grammar), but Puppet's lexer
            // made it a BOOLEAN token, so its variable is named by a boolean.
            if kind(node) == "boolean" || (kind(node) == "name" && matches!(self.text(node), "true" | "false")) {
                let value = self.new_expr(ExprKind::Boolean(self.text(node) == "true"), node);
                return self.new_expr(ExprKind::VariableOf(Box::new(value)), node);
            }
            let name = self.text(node).to_string();
            return self.new_expr(ExprKind::Variable(name), node);
        }
        let kind = match kind(node) {
            "number" => return self.number(node),
            "boolean" => ExprKind::Boolean(self.text(node) == "true"),
            "undef" => ExprKind::Undef,
            "default" => ExprKind::Default,
            "name" => ExprKind::QualifiedName(self.text(node).to_string()),
            "word" => ExprKind::String(self.text(node).into()),
            "type" => ExprKind::QualifiedReference(self.text(node).to_string()),
            "reserved_word" => ExprKind::Reserved(self.text(node).to_string()),
            "variable" => ExprKind::Variable(variable_name(self.text(node)).to_string()),
            "single_quoted_string" => ExprKind::String(single_quoted(self.text(node)).into()),
            "double_quoted_string" => return self.double_quoted(node),
            "heredoc" => return self.heredoc(node),
            "regex" => ExprKind::Regex(regex_source(self.text(node))),
            "hostname" => {
                let parts: Vec<&str> = significant(node).into_iter().map(|n| self.text(n)).collect();
                ExprKind::String(parts.join(".").into())
            }
            "array" => ExprKind::Array(self.argument_list(node, None)),
            "hash" => ExprKind::Hash(significant(node).into_iter().map(|n| self.expr(n)).collect()),
            "hash_pair" => {
                ExprKind::KeyedEntry { key: self.boxed_field(node, "key"), value: self.boxed_field(node, "value") }
            }
            "parenthesized_expression" => match significant(node).first() {
                Some(inner) => ExprKind::Paren(Box::new(self.expr(*inner))),
                None => return self.error(node, "Syntax error: empty parentheses".into()),
            },
            "binary_expression" => {
                let op = self.field(node, "operator").map(|n| self.text(n)).unwrap_or("");
                match BinaryOp::from_symbol(op) {
                    Some(op) => ExprKind::Binary {
                        op,
                        left: self.boxed_field(node, "left"),
                        right: self.boxed_field(node, "right"),
                    },
                    None => return self.error(node, format!("Syntax error at '{op}'")),
                }
            }
            "unary_expression" => {
                let op = self.field(node, "operator").map(|n| self.text(n)).unwrap_or("");
                let argument = self.boxed_field(node, "argument");
                match op {
                    "!" => ExprKind::Not(argument),
                    "-" => ExprKind::Negate(argument),
                    _ => ExprKind::Unfold(argument),
                }
            }
            "assignment" => {
                let op = match self.field(node, "operator").map(|n| self.text(n)) {
                    Some("+=") => AssignOp::Append,
                    Some("-=") => AssignOp::Delete,
                    _ => AssignOp::Assign,
                };
                ExprKind::Assignment {
                    op,
                    left: self.boxed_field(node, "left"),
                    right: self.boxed_field(node, "right"),
                }
            }
            "relationship" => {
                let op = match self.field(node, "operator").map(|n| self.text(n)) {
                    Some("~>") => RelationshipOp::Notify,
                    Some("<-") => RelationshipOp::Require,
                    Some("<~") => RelationshipOp::Subscribe,
                    _ => RelationshipOp::Before,
                };
                ExprKind::Relationship {
                    op,
                    left: self.boxed_field(node, "left"),
                    right: self.boxed_field(node, "right"),
                }
            }
            "access_expression" => {
                let object = self.field(node, "object");
                let left = self.boxed_field(node, "object");
                let keys = self.argument_list(node, object);
                ExprKind::Access { left, keys }
            }
            "selector_expression" => {
                let left = self.boxed_field(node, "value");
                let entries = significant(node)
                    .into_iter()
                    .filter(|n| kind(*n) == "selector_entry")
                    .map(|n| SelectorEntry {
                        matching: self.lower_field(n, "match"),
                        value: self.lower_field(n, "value"),
                    })
                    .collect();
                ExprKind::Selector { left, entries }
            }
            "call_expression" => ExprKind::Call {
                kind: CallKind::Function,
                functor: self.boxed_field(node, "function"),
                arguments: self.arguments(self.field(node, "arguments")),
                lambda: self.field(node, "lambda").map(|l| std::rc::Rc::new(self.lambda(l))),
                rval_required: true,
            },
            "statement_call" => {
                let functor = self.boxed_field(node, "function");
                let mut arguments = self.arguments(self.field(node, "arguments"));
                names_as_strings(&mut arguments);
                ExprKind::Call { kind: CallKind::Function, functor, arguments, lambda: None, rval_required: false }
            }
            "method_call" => {
                let object = self.boxed_field(node, "object");
                let method = self.boxed_field(node, "method");
                let start = self.field(node, "object").map_or(node, |o| o);
                let method_node = self.field(node, "method").unwrap_or(node);
                let span = Span { end: method_node.end_byte(), ..self.span(start) };
                let dot = {
                    let mut cursor = node.walk();
                    let dot = node.children(&mut cursor).find(|c| kind(*c) == ".");
                    dot
                };
                let functor = Expr::placed(
                    ExprKind::NamedAccess { left: object, right: method },
                    span,
                    self.span(dot.unwrap_or(node)),
                );
                ExprKind::Call {
                    kind: CallKind::Method,
                    functor: Box::new(functor),
                    arguments: self.arguments(self.field(node, "arguments")),
                    lambda: self.field(node, "lambda").map(|l| std::rc::Rc::new(self.lambda(l))),
                    rval_required: true,
                }
            }
            "collector" => {
                let type_expr = self.boxed_field(node, "type");
                let query_node = self.field(node, "query");
                let exported = query_node.is_some_and(|q| kind(q) == "exported_query");
                let query = query_node.and_then(|q| significant(q).first().copied()).map(|q| Box::new(self.expr(q)));
                let operations = self.attributes(node);
                ExprKind::Collect { type_expr, exported, query, operations }
            }
            "if_expression" => return self.conditional(node, false),
            "unless_expression" => return self.conditional(node, true),
            "case_expression" => {
                let test = self.boxed_field(node, "value");
                let options = significant(node)
                    .into_iter()
                    .filter(|n| kind(*n) == "case_option")
                    .map(|option| {
                        let values = fields(option, "match").into_iter().map(|v| self.expr(v)).collect();
                        let body = self.body(self.field(option, "body")).map(|b| *b);
                        CaseOption { values, body, span: self.span(option) }
                    })
                    .collect();
                ExprKind::Case { test, options }
            }
            "resource_declaration" => {
                let form = self.resource_form(node);
                let type_name = self.boxed_field(node, "type");
                let bodies = significant(node)
                    .into_iter()
                    .filter(|n| kind(*n) == "resource_body")
                    .map(|body| ResourceBody {
                        title: self.lower_field(body, "title"),
                        operations: self.attributes(body),
                        span: self.span(body),
                    })
                    .collect();
                ExprKind::Resource { form, type_name, bodies }
            }
            "resource_defaults" => ExprKind::ResourceDefaults {
                form: self.resource_form(node),
                type_ref: self.boxed_field(node, "type"),
                operations: self.attributes(node),
            },
            "resource_override" => return self.resource_override(node),
            "lambda" => return self.error(node, "Syntax error: a lambda is not an expression".into()),
            "class_definition" => {
                let name_node = self.field(node, "name");
                let name = self.classname(name_node);
                let parent = self.field(node, "parent").map(|p| self.text(p).to_string());
                let parameters = self.parameters(self.field(node, "parameters"));
                self.namestack.push(name_node.map_or(String::new(), |n| self.text(n).to_string()));
                let body = self.body(self.field(node, "body"));
                self.namestack.pop();
                ExprKind::Class { name, parameters, parent, body }
            }
            "define_definition" => {
                let name = self.classname(self.field(node, "name"));
                let parameters = self.parameters(self.field(node, "parameters"));
                let body = self.body(self.field(node, "body"));
                ExprKind::Define { name, parameters, body }
            }
            "function_definition" => {
                let name = self.field(node, "name").map_or(String::new(), |n| self.text(n).to_string());
                let parameters = self.parameters(self.field(node, "parameters"));
                let return_type = self.return_type(self.field(node, "return_type"));
                let body = self.body(self.field(node, "body"));
                ExprKind::Function { name, parameters, body, return_type }
            }
            "node_definition" => {
                let matches = fields(node, "name").into_iter().map(|n| self.expr(n)).collect();
                let parent = self.field(node, "parent").map(|p| Box::new(self.expr(p)));
                let body = self.body(self.field(node, "body"));
                ExprKind::Node { matches, parent, body }
            }
            "type_alias" => return self.type_alias(node),
            "type_definition" => {
                let name = self.field(node, "name").map_or(String::new(), |n| self.text(n).to_string());
                let parent = self.field(node, "parent").map(|n| self.text(n).to_string());
                let body = self.body(self.field(node, "body"));
                ExprKind::TypeDefinition { name, parent, body }
            }
            "ERROR" => {
                let at = self.text(node).split_whitespace().next().unwrap_or("").to_string();
                return self.error(node, format!("Syntax error at '{at}'"));
            }
            other => return self.error(node, format!("Syntax error: unexpected {other}")),
        };
        self.new_expr(kind, node)
    }

    /// A call or access argument, or an array element: a `k => v` pair there is a hash of
    /// one entry, and adjacent ones are merged (`f(a => 1, b => 2)` passes one hash).
    fn argument(&mut self, node: Node<'a>) -> Argument {
        let e = self.expr(node);
        if kind(node) == "hash_pair" {
            let span = e.span;
            Argument { expr: Expr::new(ExprKind::Hash(vec![e]), span), unfolded: true }
        } else {
            Argument { expr: e, unfolded: false }
        }
    }

    /// The arguments among `node`'s children (those that are not `except`).
    fn argument_list(&mut self, node: Node<'a>, except: Option<Node<'a>>) -> Vec<Expr> {
        let args = significant(node).into_iter().filter(|n| Some(*n) != except).map(|n| self.argument(n)).collect();
        merge_unfolded_hashes(args)
    }

    fn arguments(&mut self, node: Option<Node<'a>>) -> Vec<Expr> {
        node.map_or_else(Vec::new, |node| self.argument_list(node, None))
    }

    fn attributes(&mut self, node: Node<'a>) -> Vec<AttributeOp> {
        significant(node)
            .into_iter()
            .filter(|n| kind(*n) == "attribute")
            .map(|attribute| {
                let span = self.span(attribute);
                let value = self.lower_field(attribute, "value");
                let name_node = self.field(attribute, "name");
                match name_node {
                    Some(n) if kind(n) == "splat" => AttributeOp::Splat { value, span },
                    _ => AttributeOp::Set {
                        name: name_node.map_or(String::new(), |n| self.text(n).to_string()),
                        append: self.field(attribute, "operator").is_some_and(|o| self.text(o) == "+>"),
                        value,
                        span,
                    },
                }
            })
            .collect()
    }

    /// `@` (virtual) or `@@` (exported) before a resource expression.
    fn resource_form(&self, node: Node<'a>) -> ResourceForm {
        match self.field(node, "form").map(|n| self.text(n)) {
            Some("@") => ResourceForm::Virtual,
            Some("@@") => ResourceForm::Exported,
            _ => ResourceForm::Regular,
        }
    }

    fn resource_override(&mut self, node: Node<'a>) -> Expr {
        let resources = self.boxed_field(node, "resource");
        let operations = self.attributes(node);
        if let ExprKind::QualifiedName(name) = &resources.kind {
            return self.resource_without_title(node, name.clone(), *resources, operations);
        }
        let kind = ExprKind::ResourceOverride { form: ResourceForm::Regular, resources, operations };
        self.new_expr(kind, node)
    }

    /// `foo { a => 1 }`: Puppet's `transform_resource_wo_title` reads a name followed by a hash
    /// whose keys are strings: a call for a statement-call name (`notice { a => 1 }`), else the
    /// name and the hash as two statements of a block. With `+>`, it is a syntax error.
    fn resource_without_title(&mut self, node: Node<'a>, name: String, left: Expr, ops: Vec<AttributeOp>) -> Expr {
        let Some(entries) = title_less_entries(ops) else {
            // Puppet positions it at the `{`.
            let mut cursor = node.walk();
            let brace = node.children(&mut cursor).find(|c| kind(*c) == "{");
            return self
                .error(brace.unwrap_or(node), "Syntax error resource body without title or hash with +>".into());
        };
        title_less_resource(name, left, entries, self.span(node))
    }

    fn conditional(&mut self, node: Node<'a>, unless: bool) -> Expr {
        let test = self.boxed_field(node, "condition");
        let then = self.body(self.field(node, "body"));
        let alternatives = fields(node, "alternative");
        let otherwise = self.alternatives(&alternatives);
        let kind =
            if unless { ExprKind::Unless { test, then, otherwise } } else { ExprKind::If { test, then, otherwise } };
        self.new_expr(kind, node)
    }

    /// `elsif` clauses nest: `if a {} elsif b {} else {}` is `if a {} else { if b {} else {} }`.
    fn alternatives(&mut self, clauses: &[Node<'a>]) -> Option<Box<Expr>> {
        let (first, rest) = clauses.split_first()?;
        match kind(*first) {
            "elsif_clause" => {
                let test = self.boxed_field(*first, "condition");
                let then = self.body(self.field(*first, "body"));
                let otherwise = self.alternatives(rest);
                let mut span = self.span(*first);
                if let Some(last) = clauses.last() {
                    span.end = last.end_byte();
                }
                Some(Box::new(Expr::new(ExprKind::If { test, then, otherwise }, span)))
            }
            _ => self.body(self.field(*first, "body")),
        }
    }

    fn lambda(&mut self, node: Node<'a>) -> Lambda {
        Lambda {
            parameters: self.parameters(self.field(node, "parameters")),
            return_type: self.return_type(self.field(node, "return_type")),
            body: self.body(self.field(node, "body")),
            span: self.span(node),
        }
    }

    fn return_type(&mut self, node: Option<Node<'a>>) -> Option<Box<Expr>> {
        node.map(|n| self.boxed_field(n, "type"))
    }

    fn parameters(&mut self, node: Option<Node<'a>>) -> Vec<Parameter> {
        let Some(node) = node else { return Vec::new() };
        significant(node)
            .into_iter()
            .filter(|n| kind(*n) == "parameter")
            .map(|p| Parameter {
                name: self.field(p, "name").map_or(String::new(), |n| variable_name(self.text(n)).to_string()),
                type_expr: self.field(p, "type").map(|t| self.expr(t)),
                captures_rest: self.field(p, "splat").is_some(),
                value: self.field(p, "default").map(|d| self.expr(d)),
                span: self.span(p),
                at: self.span(self.field(p, "name").unwrap_or(p)),
            })
            .collect()
    }

    /// A class or define name, prefixed with the enclosing classes' names as written:
    /// Puppet's `[namespace, name].join('::').sub(/^::/, '')`, so `class ::a` stays `::a`.
    fn classname(&self, node: Option<Node<'a>>) -> String {
        let name = node.map_or("", |n| self.text(n));
        let joined = format!("{}::{name}", self.namestack.join("::"));
        joined.strip_prefix("::").map_or(joined.clone(), str::to_string)
    }

    /// `type A = …`. Puppet's `TYPE_ASSIGNMENT` and `build_TypeAlias`: an access on the left
    /// makes a type mapping; `Foo { … }` on the right is `Object[{ …, parent => Foo }]`
    /// (`Object` and `TypeSet` keep their name), and a bare hash is `Object[{ … }]`.
    fn type_alias(&mut self, node: Node<'a>) -> Expr {
        let name_node = self.field(node, "name");
        let value = self.field(node, "value");
        let body = self.field(node, "body");
        let span = self.span(node);
        let mut rhs = match (value, body) {
            (Some(v), Some(b)) => {
                let parent = self.expr(v);
                let hash = self.expr(b);
                let mut span = self.span(v);
                span.end = b.end_byte();
                object_with_parent(parent, hash, span)
            }
            _ => self.lower_field(node, "value"),
        };
        if let Some(n) = name_node.filter(|n| kind(*n) == "access_expression") {
            let lhs = self.expr(n);
            let kind = ExprKind::TypeMapping { type_expr: Box::new(lhs), mapping_expr: Box::new(rhs) };
            return Expr::placed(kind, span, self.placed_at(node));
        }
        rhs = object_of_hash(rhs);
        let name = name_node.map_or(String::new(), |n| self.text(n).to_string());
        Expr::placed(ExprKind::TypeAlias { name, type_expr: Box::new(rhs) }, span, self.placed_at(node))
    }

    // ------------------------------------------------------------------ literals

    fn number(&mut self, node: Node<'a>) -> Expr {
        let text = self.text(node);
        match parse_number(text) {
            // Beyond a Float: Puppet's lexer fails converting the token, and says where not.
            Ok(ExprKind::Float(f)) if f.is_infinite() => {
                let message = format!("Internal Error, NUMBER token does not contain a valid number, {text}");
                self.diagnostics.push(Diagnostic::error(message, Span::default()));
                Expr::new(ExprKind::Nop, self.span(node))
            }
            Ok(kind) => self.new_expr(kind, node),
            Err(message) => self.error(node, message),
        }
    }

    /// A double-quoted string: a plain string without interpolation, else a concatenation.
    fn double_quoted(&mut self, node: Node<'a>) -> Expr {
        let mut segments = Segments::default();
        let mut cursor = node.walk();
        let parts: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for (i, part) in parts.iter().enumerate() {
            match kind(*part) {
                "string_content" => {
                    // Puppet warns where the text's segment ends: after the closing quote, the
                    // `${` or the `$` that ends it.
                    let end = match parts[i + 1..]
                        .iter()
                        .find(|p| !matches!(kind(**p), "string_content" | "escape_sequence"))
                    {
                        Some(p) if kind(*p) == "interpolation" => p.start_byte() + 2,
                        Some(p) => p.start_byte() + 1,
                        None => node.end_byte(),
                    };
                    self.warn_escapes(self.text(*part), end);
                    segments.text(self.text(*part));
                }
                "escape_sequence" => segments.text(&unescape(self.text(*part))),
                _ => {
                    let e = self.interpolation(*part);
                    segments.expr(e);
                }
            }
        }
        segments.into_expr(self.span(node))
    }

    /// Puppet's warnings for what looks like an escape but is none, in double-quoted text.
    fn warn_escapes(&mut self, text: &str, segment_end: usize) {
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                continue;
            }
            let message = match chars.next() {
                Some('u') => {
                    "Unicode escape '\\u' was not followed by 4 hex digits or 1-6 hex digits in {} or was > 10ffff"
                        .to_string()
                }
                Some(c) if c != '\n' && c != '\r' => format!("Unrecognized escape sequence '\\{c}'"),
                _ => continue,
            };
            let span = self.span_at(segment_end);
            self.warnings.push(Diagnostic::warning(message, span));
        }
    }

    /// `$x` or `${…}` in a string.
    fn interpolation(&mut self, node: Node<'a>) -> Expr {
        let span = self.span(node);
        let inner = if kind(node) == "variable" {
            self.expr(node)
        } else {
            match significant(node).first().copied() {
                Some(inner) => {
                    // `${x}`, `${x[1]}`, `${x.y}`, `${node['a']}`: the first token, a name (a
                    // keyword too), a number or a bare word, is a variable when alone or
                    // followed by `[` or `.` (comments between do not count).
                    let first = first_leaf(inner);
                    let alone = first.byte_range() == inner.byte_range();
                    let mut next = first.next_sibling();
                    while let Some(n) = next.filter(|n| matches!(kind(*n), "comment" | "heredoc_body")) {
                        next = n.next_sibling();
                    }
                    let followed = next.is_some_and(|s| matches!(kind(s), "[" | "."));
                    if alone || followed {
                        self.interpolated_variable = Some(first.start_byte());
                    }
                    let e = self.expr(inner);
                    self.interpolated_variable = None;
                    e
                }
                None => self.error(node, "Syntax error at '}'".into()),
            }
        };
        Expr::new(ExprKind::Text(Box::new(inner)), span)
    }

    fn heredoc(&mut self, node: Node<'a>) -> Expr {
        let span = self.span(node);
        let syntax = self.field(node, "syntax").map_or(String::new(), |s| self.text(s).to_string());
        let root = self.root;
        let bodies = self.bodies.get_or_insert_with(|| {
            let mut bodies = Vec::new();
            collect_bodies(root, &mut bodies);
            bodies
        });
        let Some(body) = bodies.get(self.next_body).copied() else {
            return self.error(node, "Heredoc without any following lines of text".into());
        };
        self.next_body += 1;
        let mut cursor = body.walk();
        let parts: Vec<Node<'_>> = body.named_children(&mut cursor).collect();
        let Some(end) = parts.last().filter(|p| kind(**p) == "heredoc_end").copied() else {
            return self.error(node, "Heredoc without end-tagged line".into());
        };
        // The end line: `  |- END`. Its leading blanks are the margin when `|` is there.
        let end_text = self.text(end);
        let leading: String = end_text.chars().take_while(|c| *c == ' ' || *c == '\t').collect();
        let rest = end_text[leading.len()..].trim_start();
        let has_margin = rest.starts_with('|');
        let rest = rest.strip_prefix('|').unwrap_or(rest).trim_start();
        let trim = rest.starts_with('-');
        let margin = if has_margin { leading.as_str() } else { "" };

        let mut segments = Segments::default();
        let body_start = parts.first().map_or(end.start_byte(), |p| p.start_byte());
        let mut at_line_start = true;
        for part in &parts[..parts.len() - 1] {
            match kind(*part) {
                "heredoc_content" => {
                    let raw = self.text(*part);
                    let mut out = String::new();
                    for line in raw.split_inclusive('\n') {
                        let line = if at_line_start && !margin.is_empty() {
                            line.strip_prefix(margin).unwrap_or(line)
                        } else {
                            line
                        };
                        out.push_str(line);
                        at_line_start = line.ends_with('\n');
                    }
                    segments.text(&out);
                }
                "escape_sequence" => {
                    let raw = self.text(*part);
                    segments.text(&unescape(raw));
                    at_line_start = raw.ends_with('\n');
                }
                _ => {
                    let e = self.interpolation(*part);
                    segments.expr(e);
                    at_line_start = false;
                }
            }
        }
        let _ = body_start;
        if trim {
            segments.trim_line_break();
        }
        let text = segments.into_expr(span);
        self.new_expr(ExprKind::Heredoc { syntax, text: Box::new(text) }, node)
    }
}

/// `$x` without its `$` (empty for a MISSING variable, which has no text).
fn variable_name(text: &str) -> &str {
    text.strip_prefix('$').unwrap_or(text)
}

/// The leftmost leaf under `node`.
fn first_leaf(node: Node<'_>) -> Node<'_> {
    let mut n = node;
    while let Some(child) = n.child(0) {
        n = child;
    }
    n
}

/// Puppet's `block_or_expression`: one statement is itself, several a block, none `None`.
pub(crate) fn block_or_expression(mut statements: Vec<Expr>, span: Span) -> Option<Expr> {
    match statements.len() {
        0 => None,
        1 => statements.pop(),
        _ => Some(Expr::new(ExprKind::Block(statements), span)),
    }
}

/// `notice { a => 1 }`: Puppet reads a resource body without a title, whose attribute names
/// become the keys of the hash (a statement call's only argument) as strings.
pub(crate) fn names_as_strings(arguments: &mut [Expr]) {
    if let [Expr { kind: ExprKind::Hash(entries), .. }] = arguments {
        for entry in entries {
            if let ExprKind::KeyedEntry { key, .. } = &mut entry.kind {
                if let ExprKind::QualifiedName(name) = &key.kind {
                    key.kind = ExprKind::String(name.as_str().into());
                }
            }
        }
    }
}

/// The hash entries of a resource body without a title (`foo { a => 1 }`): `None` when an
/// operation is `+>` or `*`, a syntax error.
pub(crate) fn title_less_entries(ops: Vec<AttributeOp>) -> Option<Vec<Expr>> {
    ops.into_iter()
        .map(|op| match op {
            AttributeOp::Set { name, append: false, value, span } => {
                let key = Expr::new(ExprKind::String(name.into()), span);
                Some(Expr::new(ExprKind::KeyedEntry { key: Box::new(key), value: Box::new(value) }, span))
            }
            _ => None,
        })
        .collect()
}

/// Puppet's `transform_resource_wo_title`: the name `left` and the hash of `entries` are a
/// call for a statement-call name (`notice { a => 1 }`), else two statements of a block.
pub(crate) fn title_less_resource(name: String, left: Expr, entries: Vec<Expr>, span: Span) -> Expr {
    let hash = Expr::new(ExprKind::Hash(entries), Span { start: left.span.end, ..span });
    if STATEMENT_CALLS.contains(&name.as_str()) {
        let kind = ExprKind::Call {
            kind: CallKind::Function,
            functor: Box::new(left),
            arguments: vec![hash],
            lambda: None,
            rval_required: false,
        };
        return Expr::new(kind, span);
    }
    Expr::new(ExprKind::Block(vec![left, hash]), span)
}

/// `type A = Parent { … }`: `Object[{ …, parent => Parent }]` (`Object` and `TypeSet` keep
/// their name), over `span`.
pub(crate) fn object_with_parent(parent: Expr, mut hash: Expr, span: Span) -> Expr {
    let parent = match &parent.kind {
        ExprKind::QualifiedReference(n) if n == "Object" || n == "TypeSet" => parent,
        _ => {
            if let ExprKind::Hash(entries) = &mut hash.kind {
                let key = Expr::new(ExprKind::QualifiedName("parent".into()), parent.span);
                let entry_span = parent.span;
                entries
                    .push(Expr::new(ExprKind::KeyedEntry { key: Box::new(key), value: Box::new(parent) }, entry_span));
            }
            Expr::new(ExprKind::QualifiedReference("Object".into()), span)
        }
    };
    Expr::new(ExprKind::Access { left: Box::new(parent), keys: vec![hash] }, span)
}

/// `type A = { … }`: a bare hash is `Object[{ … }]`; any other type stays as it is.
pub(crate) fn object_of_hash(rhs: Expr) -> Expr {
    if !matches!(rhs.kind, ExprKind::Hash(_)) {
        return rhs;
    }
    let object = Expr::new(ExprKind::QualifiedReference("Object".into()), rhs.span);
    let span = rhs.span;
    Expr::new(ExprKind::Access { left: Box::new(object), keys: vec![rhs] }, span)
}

/// An argument, an access key or an array element; `k => v` there is an unfolded hash.
pub(crate) struct Argument {
    pub expr: Expr,
    pub unfolded: bool,
}

/// Puppet's `Factory.ARGUMENTS`: adjacent unfolded hashes become one hash
/// (`f(a => 1, b => 2)` passes one hash).
pub(crate) fn merge_unfolded_hashes(args: Vec<Argument>) -> Vec<Expr> {
    let mut out: Vec<Expr> = Vec::with_capacity(args.len());
    let mut previous_unfolded = false;
    for Argument { expr, unfolded } in args {
        if unfolded && previous_unfolded {
            if let (Some(Expr { kind: ExprKind::Hash(entries), span, .. }), ExprKind::Hash(more)) =
                (out.last_mut(), expr.kind)
            {
                span.end = expr.span.end;
                entries.extend(more);
            }
            continue;
        }
        previous_unfolded = unfolded;
        out.push(expr);
    }
    out
}

/// The parts of an interpolated string: text runs and expressions.
#[derive(Default)]
pub(crate) struct Segments {
    parts: Vec<Expr>,
    text: String,
    interpolated: bool,
}

impl Segments {
    pub fn text(&mut self, s: &str) {
        self.text.push_str(s);
    }

    fn flush(&mut self) {
        if !self.text.is_empty() {
            let text = std::mem::take(&mut self.text);
            self.parts.push(Expr::new(ExprKind::String(text.into()), Span::default()));
        }
    }

    pub fn expr(&mut self, e: Expr) {
        self.flush();
        self.interpolated = true;
        self.parts.push(e);
    }

    /// Removes the final line break (a heredoc's `-` trim).
    fn trim_line_break(&mut self) {
        if self.text.ends_with('\n') {
            self.text.pop();
            if self.text.ends_with('\r') {
                self.text.pop();
            }
        } else if self.text.is_empty() {
            if let Some(Expr { kind: ExprKind::String(s), .. }) = self.parts.last_mut() {
                let trimmed = s.strip_suffix('\n').map(|t| t.strip_suffix('\r').unwrap_or(t));
                if let Some(t) = trimmed {
                    *s = t.into();
                }
            }
        }
    }

    pub fn into_expr(mut self, span: Span) -> Expr {
        if !self.interpolated {
            return Expr::new(ExprKind::String(self.text.into()), span);
        }
        self.flush();
        for part in &mut self.parts {
            if part.span == Span::default() {
                part.span = span;
            }
        }
        Expr::new(ExprKind::Concat(self.parts), span)
    }
}

/// The value of an escape sequence (`\n`, `\u{263A}`, `\` + line break, …).
fn unescape(raw: &str) -> String {
    let body = raw.get(1..).unwrap_or("");
    match body {
        "n" => "\n".into(),
        "t" => "\t".into(),
        "r" => "\r".into(),
        "s" => " ".into(),
        "\n" | "\r\n" => String::new(),
        _ if body.starts_with('u') => {
            let hex = body.get(1..).unwrap_or("").trim_start_matches('{').trim_end_matches('}');
            u32::from_str_radix(hex, 16)
                .ok()
                .and_then(char::from_u32)
                .map_or_else(|| raw.to_string(), |c| c.to_string())
        }
        other => other.to_string(),
    }
}

/// A single-quoted string's value: only `\\` and `\'` are escapes.
pub(crate) fn single_quoted(raw: &str) -> String {
    let inner = raw.strip_prefix('\'').unwrap_or(raw);
    let inner = inner.strip_suffix('\'').unwrap_or(inner);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&next) = chars.peek() {
                if next == '\\' || next == '\'' {
                    out.push(next);
                    chars.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

/// A regex's source: without the slashes, `\/` read as `/`.
pub(crate) fn regex_source(raw: &str) -> String {
    let inner = raw.strip_prefix('/').unwrap_or(raw);
    let inner = inner.strip_suffix('/').unwrap_or(inner);
    inner.replace("\\/", "/")
}

/// Puppet's number forms (`Utils.to_n_with_radix`, lexer `assert_numeric`).
pub(crate) fn parse_number(text: &str) -> Result<ExprKind, String> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        if hex.is_empty() || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!("Not a valid hex number {text}"));
        }
        return num_bigint::BigInt::parse_bytes(hex.as_bytes(), 16)
            .ok_or(())
            .map(|value| ExprKind::Integer { value, radix: 16 })
            .map_err(|_| format!("Not a valid hex number {text}"));
    }
    let is_float = text.contains(['.', 'e', 'E']);
    if is_float {
        let valid = {
            let (mantissa, exponent) = match text.find(['e', 'E']) {
                Some(i) => (&text[..i], Some(&text[i + 1..])),
                None => (text, None),
            };
            let mantissa_ok = match mantissa.split_once('.') {
                Some((a, b)) => {
                    !a.is_empty() && !b.is_empty() && (a.chars().chain(b.chars())).all(|c| c.is_ascii_digit())
                }
                None => !mantissa.is_empty() && mantissa.chars().all(|c| c.is_ascii_digit()),
            };
            let exponent_ok = exponent.is_none_or(|e| {
                let e = e.strip_prefix('-').unwrap_or(e);
                !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
            });
            mantissa_ok && exponent_ok
        };
        if !valid {
            return Err(format!("Not a valid decimal number {text}"));
        }
        return text.parse::<f64>().map(ExprKind::Float).map_err(|_| format!("Not a valid decimal number {text}"));
    }
    if text.len() > 1 && text.starts_with('0') {
        if !text.chars().all(|c| ('0'..='7').contains(&c)) {
            return Err(format!("Not a valid octal number {text}"));
        }
        return num_bigint::BigInt::parse_bytes(&text.as_bytes()[1..], 8)
            .ok_or(())
            .map(|value| ExprKind::Integer { value, radix: 8 })
            .map_err(|_| format!("Not a valid octal number {text}"));
    }
    if !text.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("Illegal number '{text}'"));
    }
    num_bigint::BigInt::parse_bytes(text.as_bytes(), 10)
        .ok_or(())
        .map(|value| ExprKind::Integer { value, radix: 10 })
        .map_err(|_| format!("Illegal number '{text}'"))
}
