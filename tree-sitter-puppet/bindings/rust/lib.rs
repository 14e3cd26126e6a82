//! The Puppet language (4.x and later) for [tree-sitter].
//!
//! ```
//! let code = "file { '/tmp/x': ensure => file }\n";
//! let mut parser = tree_sitter::Parser::new();
//! parser
//!     .set_language(&tree_sitter_puppet::LANGUAGE.into())
//!     .expect("the grammar's ABI matches the tree-sitter library");
//! let tree = parser.parse(code, None).expect("a tree");
//! assert!(!tree.root_node().has_error());
//! assert_eq!(tree.root_node().child(0).unwrap().kind(), "resource_declaration");
//! ```
//!
//! [tree-sitter]: https://tree-sitter.github.io/

use tree_sitter_language::LanguageFn;

extern "C" {
    fn tree_sitter_puppet() -> *const ();
}

/// The tree-sitter [`LanguageFn`] for Puppet.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_puppet) };

/// The content of the [`node-types.json`] file for this grammar.
///
/// [`node-types.json`]: https://tree-sitter.github.io/tree-sitter/using-parsers/6-static-node-types
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");

/// The syntax highlighting query.
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../../queries/highlights.scm");

/// The local-variable (scopes, definitions, references) query.
pub const LOCALS_QUERY: &str = include_str!("../../../queries/locals.scm");

/// The language injection query (heredoc syntaxes, regular expressions).
pub const INJECTIONS_QUERY: &str = include_str!("../../../queries/injections.scm");

/// The symbol tagging query (classes, defines, functions, type aliases, nodes, resources).
pub const TAGS_QUERY: &str = include_str!("../../../queries/tags.scm");

/// The code folding query.
pub const FOLDS_QUERY: &str = include_str!("../../../queries/folds.scm");

/// The indentation query.
pub const INDENTS_QUERY: &str = include_str!("../../../queries/indents.scm");
