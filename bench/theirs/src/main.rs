//! `poppet-bench-theirs`: measures the public `tree-sitter-puppet` 1.3.0 grammar (crates.io)
//! over a corpus and prints one JSON line; the `poppet-bench` driver runs it.
//!
//! ```text
//! poppet-bench-theirs [--corpus LIST] [--runs N] [--list-errors]
//! ```
//!
//! It lives in its own package because that grammar and ours both export the C symbol
//! `tree_sitter_puppet`, so they cannot be linked into one binary. The measuring code is the
//! same file as poppet-bench's, included by path.

// Not a dependency on poppet-bench, whose graph holds our grammar: both grammars export the C
// symbol `tree_sitter_puppet`, so the measuring code is included by path instead.
#[path = "../../src/harness.rs"]
mod harness;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let language: tree_sitter::Language = public_puppet_grammar::LANGUAGE.into();
    if let Err(e) = harness::probe_main("theirs", "tree-sitter-puppet 1.3.0 (crates.io)", &language, args) {
        eprintln!("poppet-bench-theirs: {e}");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn grammar_1_3_0_loads_into_this_tree_sitter() {
        let language: tree_sitter::Language = public_puppet_grammar::LANGUAGE.into();
        assert_eq!(language.abi_version(), 14);
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&language).expect("ABI 14 grammar loads");
        let tree = parser.parse("file { '/tmp/x': ensure => present }\n", None).unwrap();
        assert!(!tree.root_node().has_error());
    }
}
