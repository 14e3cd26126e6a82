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
pub mod epp;
pub mod lexer;
mod lower;
mod lr;
#[rustfmt::skip]
mod lr_tables;
pub mod pn;
mod validate;

pub use ast::{Expr, ExprKind, Program, Span};
pub use lower::MAX_DEPTH;
pub use validate::{label, validate};

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
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
        }
    }

    pub fn warning(message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            message: message.into(),
            span,
        }
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Line 0: a diagnostic Puppet prints without a position (end of input, encoding).
        if self.span.line == 0 {
            return write!(f, "{}", self.message);
        }
        write!(
            f,
            "{} (line: {}, column: {})",
            self.message, self.span.line, self.span.column
        )
    }
}

/// Parses and lowers Puppet source. Errors are values: no input makes this panic.
pub fn parse(source: &str) -> Result<Program, Vec<Diagnostic>> {
    analyze(source).result
}

/// Parses and lowers a file's bytes: a byte order mark or bytes that are not UTF-8 are
/// Puppet's errors for them (without a position, as Puppet prints them).
pub fn parse_bytes(bytes: &[u8]) -> Result<Program, Vec<Diagnostic>> {
    let source = lexer::check_encoding(bytes).map_err(|d| vec![d])?;
    parse(source)
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
    let warnings = lowerer.warnings;
    // Puppet's parser pulls tokens from its lexer and stops at the first problem: a syntax
    // error at a token the lexer delivered, else the lexer's own error. Puppet's automaton
    // says which; the tree's errors matter only where it accepts what the tree does not.
    let lexed = lexer::lex(source);
    let puppet_error = match lr::recognize(source, &lexed) {
        lr::Outcome::Rejected(index) => Some(lexer::error_at(source, &lexed, index)),
        lr::Outcome::Invalid {
            message,
            name,
            offset,
        } => {
            let message = match name {
                Some(i) => message.replace("%{name}", &lexed.value(source, i)),
                None => message.to_string(),
            };
            let (line, column) = lexer::locate(source.as_bytes(), offset);
            Some(Diagnostic::error(
                message,
                Span {
                    start: offset,
                    end: offset,
                    line,
                    column,
                },
            ))
        }
        lr::Outcome::Accepted if root.has_error() => {
            first_error_node(root).map(|node| syntax_error_at(source, &lexed, node))
        }
        lr::Outcome::Accepted => None,
    };
    let result = match puppet_error {
        Some(error) => Err(vec![error]),
        None if lowerer.diagnostics.is_empty() => Ok(program),
        None => Err(lowerer.diagnostics),
    };
    Parsed { result, warnings }
}

/// The first ERROR or MISSING node, in document order.
fn first_error_node(root: tree_sitter::Node) -> Option<tree_sitter::Node> {
    let mut found = None;
    lower::preorder(root, |n| {
        if n.is_error() || n.is_missing() {
            found = Some(n);
        }
        found.is_none()
    });
    found
}

/// Tokens after which input may go on: an error there at the end of the input is Puppet's
/// `Syntax error at end of input`.
const CONTINUED_BY: &[&str] = &[
    "{", "(", "[", "=", "+=", "-=", "+", "-", "*", "/", "%", ",", "=>", "+>", "?", ":", ".", "|",
    "<", ">", "<=", ">=", "==", "!=", "=~", "!~", "<<", ">>", "->", "~>", "<-", "<~", "!", "@",
    "@@", "<|", "<<|", "and", "or", "in", "if", "elsif", "else", "unless", "case", "class",
    "define", "node", "function", "type", "inherits",
];

/// Puppet's syntax error for tree-sitter's first error node: `Syntax error at 'TOKEN'` at the
/// token Puppet's parser would have failed on, or `Syntax error at end of input`.
fn syntax_error_at(source: &str, lexed: &lexer::Lexed, node: tree_sitter::Node) -> Diagnostic {
    let at_end = |offset: usize| lexer::token_index_at(&lexed.tokens, offset).is_none();
    let index = if node.is_missing() {
        lexer::token_index_at(&lexed.tokens, node.start_byte())
    } else {
        // The error's last token: the one that could not be taken, unless the input ends
        // right after it and it is one that asks for more.
        let mut last = None;
        lower::preorder(node, |n| {
            if n.child_count() == 0 && n.end_byte() > n.start_byte() {
                last = Some(n);
            }
            true
        });
        match last {
            Some(leaf) if at_end(node.end_byte()) && CONTINUED_BY.contains(&leaf.kind()) => None,
            Some(leaf) => lexer::token_index_at(&lexed.tokens, leaf.start_byte()),
            None => lexer::token_index_at(&lexed.tokens, node.start_byte()),
        }
    };
    match index {
        Some(i) => lexer::error_at(source, lexed, i),
        // Past the last token: the lexer's error if it stopped early, else end of input.
        None => lexed
            .error
            .clone()
            .unwrap_or_else(|| lexer::error_at(source, lexed, lexed.tokens.len())),
    }
}
