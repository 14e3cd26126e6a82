//! Parses Puppet and prints its syntax tree.
//!
//! ```sh
//! cargo run --release -- manifests/init.pp     # a file
//! echo 'notice(1)' | cargo run --release       # or standard input
//! ```
//!
//! Exits 1 when the tree has an ERROR or MISSING node, 2 on a usage or I/O error.

use std::io::Read;
use std::process::ExitCode;

use tree_sitter::{Node, Parser};

/// Prints `node` and its named children, one per line, indented, with fields and positions.
fn print(node: Node<'_>, field: Option<&str>, depth: usize, out: &mut String) {
    let start = node.start_position();
    let end = node.end_position();
    let field = field.map(|name| format!("{name}: ")).unwrap_or_default();
    let kind = if node.is_missing() { format!("MISSING {}", node.kind()) } else { node.kind().to_string() };
    out.push_str(&format!(
        "{:indent$}{field}({kind} [{}, {}] - [{}, {}])\n",
        "",
        start.row + 1,
        start.column + 1,
        end.row + 1,
        end.column + 1,
        indent = depth * 2
    ));
    let mut cursor = node.walk();
    for (index, child) in node.children(&mut cursor).enumerate() {
        if child.is_named() || child.is_missing() {
            let name = node.field_name_for_child(index as u32);
            print(child, name, depth + 1, out);
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let source = match args.as_slice() {
        [] => {
            let mut buffer = Vec::new();
            if let Err(error) = std::io::stdin().read_to_end(&mut buffer) {
                eprintln!("cannot read standard input: {error}");
                return ExitCode::from(2);
            }
            buffer
        }
        [path] if !path.starts_with('-') => match std::fs::read(path) {
            Ok(source) => source,
            Err(error) => {
                eprintln!("cannot read {path}: {error}");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("usage: parse [FILE.pp]   (standard input without FILE)");
            return ExitCode::from(2);
        }
    };
    let mut parser = Parser::new();
    if let Err(error) = parser.set_language(&tree_sitter_puppet::LANGUAGE.into()) {
        eprintln!("cannot load the grammar: {error}");
        return ExitCode::from(2);
    }
    let Some(tree) = parser.parse(&source, None) else {
        eprintln!("the parser produced no tree");
        return ExitCode::from(2);
    };
    let mut out = String::new();
    print(tree.root_node(), None, 0, &mut out);
    print!("{out}");
    if tree.root_node().has_error() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
