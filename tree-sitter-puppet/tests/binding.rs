//! The binding loads, parses Puppet, and ships queries that compile and use only the capture
//! names their consumers know.

use std::collections::HashSet;

use tree_sitter::{Language, Parser, Query};
use tree_sitter_highlight::HighlightConfiguration;
use tree_sitter_puppet::{
    FOLDS_QUERY, HIGHLIGHTS_QUERY, INDENTS_QUERY, INJECTIONS_QUERY, LANGUAGE, LOCALS_QUERY, NODE_TYPES, TAGS_QUERY,
};
use tree_sitter_tags::TagsConfiguration;

fn language() -> Language {
    LANGUAGE.into()
}

fn parse(source: &str) -> tree_sitter::Tree {
    let mut parser = Parser::new();
    parser.set_language(&language()).expect("compatible ABI");
    parser.parse(source, None).expect("a tree")
}

/// Every `.pp` file under `test/highlight` (real, assertion-annotated Puppet).
fn samples() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/test/highlight");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("test/highlight exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "pp"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no samples in {dir}");
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable sample");
            (path.display().to_string(), text)
        })
        .collect()
}

#[test]
fn language_loads_with_abi_15() {
    assert_eq!(language().abi_version(), 15);
    assert!(language().node_kind_count() > 100);
    assert!(NODE_TYPES.contains("\"resource_declaration\""));
}

#[test]
fn samples_parse_without_errors() {
    for (path, text) in samples() {
        let tree = parse(&text);
        let root = tree.root_node();
        assert!(!root.has_error(), "{path}: {}", root.to_sexp());
        assert_eq!(root.kind(), "program");
    }
}

#[test]
fn malformed_input_yields_error_nodes() {
    for source in ["file { 'x':", "$x = \"abc", "@(END)\ntext\n", "if $x {", "$a = [1, 2"] {
        assert!(parse(source).root_node().has_error(), "no error in {source:?}");
    }
}

#[test]
fn every_query_compiles() {
    for (name, source) in [
        ("highlights", HIGHLIGHTS_QUERY),
        ("locals", LOCALS_QUERY),
        ("injections", INJECTIONS_QUERY),
        ("tags", TAGS_QUERY),
        ("folds", FOLDS_QUERY),
        ("indents", INDENTS_QUERY),
    ] {
        if let Err(error) = Query::new(&language(), source) {
            panic!("{name}.scm does not compile: {error}");
        }
    }
}

#[test]
fn highlight_captures_are_standard() {
    let config =
        HighlightConfiguration::new(language(), "puppet", HIGHLIGHTS_QUERY, "", "").expect("highlights compile");
    let nonconformant = config.nonconformant_capture_names(&HashSet::new());
    assert!(nonconformant.is_empty(), "non-standard captures: {nonconformant:?}");
    // The highlighter accepts all three queries together, as editors load them.
    HighlightConfiguration::new(language(), "puppet", HIGHLIGHTS_QUERY, INJECTIONS_QUERY, LOCALS_QUERY)
        .expect("highlights, injections and locals compile together");
}

/// The captures of a query, except `_`-prefixed helpers.
fn captures(source: &str) -> Vec<String> {
    let query = Query::new(&language(), source).expect("query compiles");
    query.capture_names().iter().filter(|name| !name.starts_with('_')).map(|name| name.to_string()).collect()
}

#[test]
fn other_queries_use_their_standard_captures() {
    for name in captures(INJECTIONS_QUERY) {
        assert!(["injection.content", "injection.language"].contains(&name.as_str()), "{name}");
    }
    for name in captures(LOCALS_QUERY) {
        assert!(["local.scope", "local.definition", "local.reference"].contains(&name.as_str()), "{name}");
    }
    for name in captures(FOLDS_QUERY) {
        assert_eq!(name, "fold");
    }
    for name in captures(INDENTS_QUERY) {
        assert!(
            ["indent.begin", "indent.end", "indent.branch", "indent.ignore", "indent.auto"].contains(&name.as_str()),
            "{name}"
        );
    }
    for name in captures(TAGS_QUERY) {
        assert!(name == "name" || name.starts_with("definition.") || name.starts_with("reference."), "{name}");
    }
    TagsConfiguration::new(language(), TAGS_QUERY, LOCALS_QUERY).expect("tags configuration");
}

#[test]
fn tags_find_definitions() {
    let source = "class a::b { }\ndefine c ($x) { }\nfunction d() { }\ntype E = Integer\nnode 'n' { }\n";
    let config = TagsConfiguration::new(language(), TAGS_QUERY, "").expect("tags configuration");
    let mut context = tree_sitter_tags::TagsContext::new();
    let (tags, _) = context.generate_tags(&config, source.as_bytes(), None).expect("tags generate");
    let names: Vec<String> = tags
        .map(|tag| {
            let tag = tag.expect("a tag");
            let kind = config.syntax_type_name(tag.syntax_type_id);
            format!("{}:{kind}", &source[tag.name_range])
        })
        .collect();
    assert_eq!(names, ["a::b:class", "c:type", "d:function", "E:type", "'n':module"], "{names:?}");
}
