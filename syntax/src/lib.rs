//! The Puppet language's typed AST, lowered from [tree-sitter-puppet] trees, and PN, the
//! S-expression form in which `puppet parser dump --format pn` prints Puppet's AST.
//!
//! ```
//! let program = puppet_syntax::parse("$x = 1 + 2 * 3\n").expect("valid Puppet");
//! assert_eq!(
//!     puppet_syntax::pn::program(&program).to_text(),
//!     r#"(= (var "x") (+ 1 (* 2 3)))"#
//! );
//! ```
//!
//! [tree-sitter-puppet]: https://docs.rs/tree-sitter-puppet

pub mod ast;
pub mod lexer;
mod lower;
pub mod pn;
mod validate;

pub use ast::{Expr, ExprKind, Program, Span};
pub use lower::MAX_DEPTH;
pub use validate::validate;

/// How bad a diagnostic is: Puppet stops on errors, reports warnings and goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// A syntax or validation problem: Puppet's message, and where it is. The location is kept
/// apart from the message, to render as Puppet's `(line: N, column: M)` suffix or as a source
/// excerpt with a caret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Span,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: Span) -> Self {
        Diagnostic { severity: Severity::Error, message: message.into(), span }
    }

    pub fn warning(message: impl Into<String>, span: Span) -> Self {
        Diagnostic { severity: Severity::Warning, message: message.into(), span }
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (line: {}, column: {})", self.message, self.span.line, self.span.column)
    }
}

/// Parses and lowers Puppet source. Errors are values: no input makes this panic.
pub fn parse(source: &str) -> Result<Program, Vec<Diagnostic>> {
    analyze(source).result
}

/// What parsing found: the program or its errors, and the warnings Puppet would print.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub result: Result<Program, Vec<Diagnostic>>,
    pub warnings: Vec<Diagnostic>,
}

/// Parses and lowers Puppet source, keeping warnings (`Unrecognized escape sequence '\q'`).
pub fn analyze(source: &str) -> Parsed {
    let mut parser = tree_sitter::Parser::new();
    let language = tree_sitter_puppet::LANGUAGE.into();
    let failed = |message: &str| Parsed {
        result: Err(vec![Diagnostic::error(message, Span::default())]),
        warnings: Vec::new(),
    };
    if parser.set_language(&language).is_err() {
        return failed("the Puppet grammar could not be loaded");
    }
    let Some(tree) = parser.parse(source, None) else {
        return failed("the parser gave no tree");
    };
    lower_tree(source, &tree)
}

/// Lowers the tree that tree-sitter-puppet parsed from `source`.
pub fn lower(source: &str, tree: &tree_sitter::Tree) -> Result<Program, Vec<Diagnostic>> {
    lower_tree(source, tree).result
}

fn lower_tree(source: &str, tree: &tree_sitter::Tree) -> Parsed {
    let root = tree.root_node();
    let mut lowerer = lower::Lowerer::new(source, root);
    let program = lowerer.program(root);
    let mut diagnostics = lowerer.diagnostics;
    if root.has_error() && diagnostics.is_empty() {
        diagnostics.push(first_error(source, root));
    }
    let result = if diagnostics.is_empty() { Ok(program) } else { Err(diagnostics) };
    Parsed { result, warnings: lowerer.warnings }
}

/// A diagnostic for the first ERROR or MISSING node.
fn first_error(source: &str, node: tree_sitter::Node) -> Diagnostic {
    let mut found = None;
    lower::preorder(node, |n| {
        if n.is_error() || n.is_missing() {
            found = Some(n);
        }
        found.is_none()
    });
    let node = found.unwrap_or(node);
    let start = node.start_byte();
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let span = Span {
        start,
        end: node.end_byte(),
        line: node.start_position().row as u32 + 1,
        column: source[line_start..start].chars().count() as u32 + 1,
    };
    let message = if node.is_missing() || start >= source.len() {
        "Syntax error at end of input".to_string()
    } else {
        let at: String = source[start..].split_whitespace().next().unwrap_or("").chars().take(20).collect();
        format!("Syntax error at '{at}'")
    };
    Diagnostic::error(message, span)
}
