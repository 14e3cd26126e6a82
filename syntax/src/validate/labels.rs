//! How Puppet names an expression in its messages (`model_label_provider.rb`,
//! `label_provider.rb`): "Literal Integer", "'+' expression", "a Name", "an 'undef'
//! expression".

use super::Element;
use crate::ast::*;

/// How Puppet names an expression in messages: "Literal Integer", "'+' expression", ….
pub fn label(e: &Expr) -> String {
    use ExprKind::*;
    match &e.kind {
        Nop => "Nop Expression".into(),
        Block(_) => "Block Expression".into(),
        Integer { .. } => "Literal Integer".into(),
        Float(_) => "Literal Float".into(),
        String(_) => "String".into(),
        Boolean(_) => "Boolean".into(),
        Undef => "'undef' expression".into(),
        Default => "'default' expression".into(),
        Regex(_) => "Regular Expression".into(),
        Concat(_) => "Double Quoted String".into(),
        Text(_) => "Expression in Interpolated String".into(),
        Heredoc { syntax, .. } => format!("'@({syntax})' expression"),
        Array(_) => "Array Expression".into(),
        Hash(_) => "Hash Expression".into(),
        KeyedEntry { .. } => "Hash Entry".into(),
        QualifiedName(_) => "Name".into(),
        QualifiedReference(_) => "Type-Name".into(),
        Variable(_) | VariableOf(_) => "Variable".into(),
        Reserved(word) => format!("Reserved Word '{word}'"),
        Binary { op, .. } => format!("'{}' expression", op.symbol()),
        Not(_) => "'not' expression".into(),
        Negate(_) => "Unary Minus".into(),
        Unfold(_) => "Unfold".into(),
        Paren(_) => "Parenthesized Expression".into(),
        Assignment { op, .. } => format!("'{}' expression", op.symbol()),
        Relationship { op, .. } => format!("'{}' expression", op.symbol()),
        Access { .. } => "'[]' expression".into(),
        NamedAccess { .. } => "'.' expression".into(),
        Selector { .. } => "Selector Expression".into(),
        Call { kind: CallKind::Function, .. } => "Function Call".into(),
        Call { kind: CallKind::Method, .. } => "Method call".into(),
        If { .. } => "'if' statement".into(),
        Unless { .. } => "'unless' Statement".into(),
        Case { .. } => "'case' statement".into(),
        Resource { .. } => "Resource Statement".into(),
        ResourceDefaults { .. } => "Resource Defaults Expression".into(),
        ResourceOverride { .. } => "Resource Override".into(),
        Collect { exported: true, .. } => "Exported Query".into(),
        Collect { exported: false, .. } => "Virtual Query".into(),
        Class { .. } => "Host Class Definition".into(),
        Define { .. } => "'define' expression".into(),
        Node { .. } => "Node Definition".into(),
        Function { .. } => "Function Definition".into(),
        TypeAlias { .. } => "Type Alias".into(),
        TypeMapping { .. } => "Type Mapping".into(),
        TypeDefinition { .. } => "Type Definition".into(),
    }
}

/// The label of a model element that is not an expression (and of one that is).
pub(super) fn node_label(node: Element<'_>) -> String {
    match node {
        Element::Program => "Program".into(),
        Element::Template => "Lambda".into(),
        Element::Node(Node::Expr(e)) => label(e),
        Element::Node(Node::Body(_)) => "Block Expression".into(),
        Element::Node(Node::Lambda(_)) => "Lambda".into(),
        Element::Node(Node::Parameter(_)) => "Parameter Definition".into(),
        Element::Node(Node::ResourceBody(_)) => "Resource Instance Definition".into(),
        Element::Node(Node::Attribute(AttributeOp::Set { append: true, .. })) => "'+>' expression".into(),
        Element::Node(Node::Attribute(_)) => "'=>' expression".into(),
        Element::Node(Node::CaseOption(_)) => "Case Option".into(),
        Element::Node(Node::SelectorEntry(_)) => "Selector Option".into(),
        Element::Node(Node::Query(collect)) => label(collect),
    }
}

/// `a` or `an`, by the first letter (after a quote): "an 'undef' expression", "an Unary Minus".
fn article(text: &str) -> &'static str {
    let mut chars = text.chars();
    let mut c = chars.next().unwrap_or(' ');
    if c == '"' || c == '\'' {
        c = chars.next().unwrap_or(' ');
    }
    if "aeiouy".contains(c.to_ascii_lowercase()) {
        "an"
    } else {
        "a"
    }
}

/// `a Name`, `an 'undef' expression`.
pub(super) fn a_an(text: &str) -> String {
    format!("{} {text}", article(text))
}

/// `A Name`, `An 'undef' expression`.
pub(super) fn a_an_uc(text: &str) -> String {
    let a = article(text);
    let mut upper = a[..1].to_uppercase();
    upper.push_str(&a[1..]);
    format!("{upper} {text}")
}
