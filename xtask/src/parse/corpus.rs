//! Parses every manifest of a corpus and reports those with an ERROR or MISSING node.
//!
//! ```sh
//! cargo xtask check parse-corpus /tmp/puppet-corpus/pp-files.txt
//! ```
//!
//! The argument is a file listing one manifest path a line (`scripts/install-corpus.sh` writes
//! one). Prints `N/M parse with no ERROR or MISSING node`, then each failure with the position
//! of its first error; exits 1 if any manifest fails.

use std::process::ExitCode;

use tree_sitter::{Node, Parser};

/// The first ERROR or MISSING node in `node`, depth first.
fn first_error(node: Node<'_>) -> Option<Node<'_>> {
    if node.is_error() || node.is_missing() {
        return Some(node);
    }
    if !node.has_error() {
        return None;
    }
    let mut cursor = node.walk();
    let found = node.children(&mut cursor).find_map(first_error);
    found
}

pub fn main(args: Vec<String>) -> ExitCode {
    let Some(list) = args.into_iter().next() else {
        eprintln!("usage: corpus FILE-LIST");
        return ExitCode::from(2);
    };
    let paths = match std::fs::read_to_string(&list) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("cannot read {list}: {error}");
            return ExitCode::from(2);
        }
    };
    let mut parser = Parser::new();
    if let Err(error) = parser.set_language(&tree_sitter_puppet::LANGUAGE.into()) {
        eprintln!("cannot load the grammar: {error}");
        return ExitCode::from(2);
    }
    let mut total = 0;
    let mut failures = Vec::new();
    for path in paths.lines().filter(|line| !line.trim().is_empty()) {
        total += 1;
        let source = match std::fs::read(path) {
            Ok(source) => source,
            Err(error) => {
                failures.push(format!("{path}: cannot read: {error}"));
                continue;
            }
        };
        let Some(tree) = parser.parse(&source, None) else {
            failures.push(format!("{path}: no tree"));
            continue;
        };
        if let Some(node) = first_error(tree.root_node()) {
            let at = node.start_position();
            let what = if node.is_missing() { format!("MISSING {}", node.kind()) } else { "ERROR".to_string() };
            failures.push(format!("{path}:{}:{}: {what}", at.row + 1, at.column + 1));
        }
    }
    println!("{}/{total} parse with no ERROR or MISSING node", total - failures.len());
    for failure in &failures {
        println!("  {failure}");
    }
    if failures.is_empty() && total > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
