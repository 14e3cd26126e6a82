//! Compares our validation with Puppet's on corpus manifests made invalid on purpose: each
//! kind of mutation below edits every file where it applies (at a few places, using the
//! exact tokens of tree-sitter's tree), so that Puppet reports issues at positions that real
//! code's layout decides (aligned `=>`, typed parameters over several lines, …).
//!
//! ```sh
//! cargo xtask fuzz validate-mutants /tmp/puppet-corpus/pp-files.txt [KIND...]
//! ```
//!
//! Kinds: `plus_assign` (`=` → `+=`), `dup_key` (a hash's first key given twice),
//! `reserved_param` (a class's or define's first parameter renamed `$name`), `dup_param`
//! (the second parameter renamed as the first), `idem_binary` (a copy of a binary
//! operation as a statement before the statement holding it), `method_assign` (a method call
//! assigned to), `append_attr` (`=>` → `+>` in resource bodies), `class_in_if` (a class
//! moved into an `if`), `dup_lines` and `drop_lines` (a few lines repeated or removed, at a
//! place picked by a seeded generator: whatever that makes). Prints, per kind, how many mutants agree and the first differences;
//! exits 1 if any differs.

use std::collections::HashMap;
use std::path::Path;
use std::process::ExitCode;

use tree_sitter::Node;

const BATCH: usize = 200;
const SITES: usize = 6;
const SHOWN: usize = 8;
const KINDS: [&str; 10] = [
    "plus_assign",
    "dup_key",
    "reserved_param",
    "dup_param",
    "idem_binary",
    "method_assign",
    "append_attr",
    "class_in_if",
    "dup_lines",
    "drop_lines",
];

struct Edit {
    start: usize,
    end: usize,
    text: String,
}

fn apply(source: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(source.len() + 64);
    let mut at = 0;
    for e in edits {
        if e.start < at {
            continue;
        }
        out.push_str(&source[at..e.start]);
        out.push_str(&e.text);
        at = e.end;
    }
    out.push_str(&source[at..]);
    out
}

fn preorder<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    out.push(node);
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        preorder(child, out);
    }
}

fn inside(node: Node<'_>, kinds: &[&str]) -> bool {
    let mut n = node.parent();
    while let Some(p) = n {
        if kinds.contains(&p.kind()) {
            return true;
        }
        n = p.parent();
    }
    false
}

/// The statement of the program that holds `node`.
fn top_statement(node: Node<'_>) -> Node<'_> {
    let mut n = node;
    while let Some(p) = n.parent() {
        if p.kind() == "program" {
            return n;
        }
        n = p;
    }
    n
}

/// A few lines of `source`, from a line picked by `seed`, repeated or removed.
fn lines_edit(kind: &str, source: &str, seed: u64) -> Option<Vec<Edit>> {
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as usize
    };
    let starts: Vec<usize> = std::iter::once(0)
        .chain(source.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&i| i < source.len())
        .collect();
    if starts.is_empty() {
        return None;
    }
    let a = next() % starts.len();
    let b = (a + 1 + next() % 4).min(starts.len());
    let (from, to) = (starts[a], starts.get(b).copied().unwrap_or(source.len()));
    Some(vec![match kind {
        "dup_lines" => Edit { start: to, end: to, text: source[from..to].to_string() },
        _ => Edit { start: from, end: to, text: String::new() },
    }])
}

/// The edits of one kind of mutation, `None` where it does not apply.
fn mutate(kind: &str, source: &str, nodes: &[Node<'_>]) -> Option<Vec<Edit>> {
    let text = |n: Node<'_>| &source[n.byte_range()];
    let plain = |n: Node<'_>| !text(n).contains("@(") && !inside(n, &["interpolation", "heredoc_body"]);
    let mut edits = Vec::new();
    match kind {
        "plus_assign" => {
            for n in nodes.iter().filter(|n| n.kind() == "assignment") {
                if let Some(op) = n.child_by_field_name("operator").filter(|o| text(*o) == "=") {
                    edits.push(Edit { start: op.start_byte(), end: op.end_byte(), text: "+=".into() });
                }
            }
        }
        "dup_key" => {
            for n in nodes.iter().filter(|n| n.kind() == "hash") {
                let mut cursor = n.walk();
                let first = n.named_children(&mut cursor).find(|c| c.kind() == "hash_pair");
                if let Some(key) =
                    first.and_then(|p| p.child_by_field_name("key")).filter(|k| plain(*k) && !text(*k).contains('\n'))
                {
                    let pair = first.unwrap();
                    edits.push(Edit {
                        start: pair.start_byte(),
                        end: pair.start_byte(),
                        text: format!("{} => 1, ", text(key)),
                    });
                }
            }
        }
        "reserved_param" | "dup_param" => {
            for n in nodes
                .iter()
                .filter(|n| matches!(n.kind(), "class_definition" | "define_definition" | "function_definition"))
            {
                if kind == "reserved_param" && n.kind() == "function_definition" {
                    continue;
                }
                let Some(list) = n.child_by_field_name("parameters") else {
                    continue;
                };
                let mut cursor = list.walk();
                let params: Vec<Node<'_>> =
                    list.named_children(&mut cursor).filter(|c| c.kind() == "parameter").collect();
                let names: Vec<Node<'_>> = params.iter().filter_map(|p| p.child_by_field_name("name")).collect();
                match (kind, names.as_slice()) {
                    ("reserved_param", [first, ..]) => {
                        edits.push(Edit { start: first.start_byte(), end: first.end_byte(), text: "$name".into() })
                    }
                    ("dup_param", [first, second, ..]) => edits.push(Edit {
                        start: second.start_byte(),
                        end: second.end_byte(),
                        text: text(*first).to_string(),
                    }),
                    _ => {}
                }
            }
        }
        "idem_binary" | "method_assign" => {
            let wanted = if kind == "idem_binary" { "binary_expression" } else { "method_call" };
            let n = nodes.iter().find(|n| {
                n.kind() == wanted
                    && plain(**n)
                    && !(wanted == "binary_expression"
                        && n.child_by_field_name("operator").is_some_and(|o| matches!(text(o), "=~" | "!~")))
            })?;
            let statement = top_statement(*n);
            let suffix = if kind == "method_assign" { " = 1" } else { "" };
            edits.push(Edit {
                start: statement.start_byte(),
                end: statement.start_byte(),
                text: format!("{}{suffix}\n", text(*n)),
            });
        }
        "append_attr" => {
            for n in nodes
                .iter()
                .filter(|n| n.kind() == "attribute" && n.parent().is_some_and(|p| p.kind() == "resource_body"))
            {
                let name_is_splat = n.child_by_field_name("name").is_some_and(|m| m.kind() == "splat");
                if let Some(op) = n.child_by_field_name("operator").filter(|o| text(*o) == "=>" && !name_is_splat) {
                    edits.push(Edit { start: op.start_byte(), end: op.end_byte(), text: "+>".into() });
                }
            }
        }
        "class_in_if" => {
            let n = nodes
                .iter()
                .find(|n| n.kind() == "class_definition" && n.parent().is_some_and(|p| p.kind() == "program"))?;
            edits.push(Edit { start: n.start_byte(), end: n.start_byte(), text: "if $x {\n".into() });
            edits.push(Edit { start: n.end_byte(), end: n.end_byte(), text: "\n}".into() });
        }
        _ => return None,
    }
    edits.truncate(SITES);
    (!edits.is_empty()).then_some(edits)
}

/// A file's name without its directory.
fn file_name(file: &str) -> String {
    Path::new(file).file_name().map_or(file.to_string(), |n| n.to_string_lossy().into_owned())
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

pub fn main(args: Vec<String>) -> ExitCode {
    let Some(list) = args.first() else {
        eprintln!("usage: validate_mutants FILE-LIST [KIND...]");
        return ExitCode::from(2);
    };
    let kinds: Vec<&str> = if args.len() > 1 { args[1..].iter().map(String::as_str).collect() } else { KINDS.to_vec() };
    let files: Vec<String> = match std::fs::read_to_string(list) {
        Ok(text) => text.lines().filter(|l| !l.trim().is_empty()).map(String::from).collect(),
        Err(e) => {
            eprintln!("cannot read {list}: {e}");
            return ExitCode::from(2);
        }
    };
    let dir = std::env::temp_dir().join(format!("validate_mutants-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&tree_sitter_puppet::LANGUAGE.into()).expect("the Puppet grammar");

    let mut failed = false;
    for kind in kinds {
        // The mutants of this kind: file name in `dir`, source, origin.
        let mut mutants: Vec<(String, String, String)> = Vec::new();
        for file in &files {
            let Ok(bytes) = std::fs::read(file) else {
                continue;
            };
            let source = String::from_utf8_lossy(&bytes).into_owned();
            let Some(tree) = parser.parse(&source, None) else {
                continue;
            };
            let mut nodes = Vec::new();
            preorder(tree.root_node(), &mut nodes);
            let seed = file.bytes().fold(0xcbf29ce484222325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100000001b3));
            let edits = match kind {
                "dup_lines" | "drop_lines" => lines_edit(kind, &source, seed),
                _ => mutate(kind, &source, &nodes),
            };
            let Some(edits) = edits else { continue };
            let mutated = apply(&source, edits);
            let name = format!("m{:05}.pp", mutants.len());
            if std::fs::write(dir.join(&name), &mutated).is_err() {
                continue;
            }
            mutants.push((name, mutated, file.clone()));
        }
        let names: Vec<String> = mutants.iter().map(|m| m.0.clone()).collect();
        let mut theirs = HashMap::new();
        for batch in names.chunks(BATCH) {
            if let Err(e) = super::puppet_validate(Some(&dir), batch, &file_name, &mut theirs) {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        }
        let (mut same, mut rejected_by_us, mut syntax_in_puppet, mut only_we_reject) = (0, 0, 0, 0);
        let mut differences = Vec::new();
        for (name, source, origin) in &mutants {
            let puppet_lines = theirs.remove(name).unwrap_or_default();
            let parsed = puppet_syntax::analyze(source);
            // Puppet's parser fails with a message of its lexer or grammar and no other error.
            let puppet_parse_error = puppet_lines.iter().any(|l| {
                ["Syntax error", "Unclosed", "Heredoc", "illegal comma separated argument list"]
                    .iter()
                    .any(|m| l.contains(m))
                    || l.starts_with("error: Could not")
            });
            let Ok(program) = parsed.result else {
                rejected_by_us += 1;
                if !puppet_parse_error {
                    only_we_reject += 1;
                    let ours = parsed.result.err().and_then(|d| d.first().map(|d| d.to_string())).unwrap_or_default();
                    differences.push(format!(
                        "{origin} ({name})\n      our parser rejects it: {ours}\n      puppet: {puppet_lines:?}"
                    ));
                }
                continue;
            };
            if puppet_parse_error {
                syntax_in_puppet += 1;
                continue;
            }
            let lexer: Vec<String> = parsed.warnings.iter().map(|d| format!("warning: {d}")).collect();
            // Loading (a class or type defined twice) is not validation.
            let loading = ["is already defined", "Attempt to redefine entity", "Try 'puppet help"];
            let expected: Vec<String> = puppet_lines
                .into_iter()
                .filter(|l| !lexer.contains(l) && (l.starts_with("error") || l.ends_with(')')))
                .filter(|l| !loading.iter().any(|s| l.contains(s)))
                .collect();
            let ours: Vec<String> = puppet_syntax::validate(&program)
                .iter()
                .map(|d| {
                    let level = if d.severity == puppet_syntax::Severity::Error { "error" } else { "warning" };
                    format!("{level}: {d}")
                })
                .collect();
            // Puppet prints 10 errors at most.
            let (expected, ours) = (sorted(expected), sorted(ours));
            let errors = ours.iter().filter(|l| l.starts_with("error")).count();
            if expected == ours || (errors > 10 && expected.iter().all(|e| ours.contains(e))) {
                same += 1;
            } else {
                let missing: Vec<&String> = expected.iter().filter(|e| !ours.contains(e)).collect();
                let extra: Vec<&String> = ours.iter().filter(|o| !expected.contains(o)).collect();
                differences
                    .push(format!("{origin} ({name})\n      puppet only: {missing:?}\n      ours only:   {extra:?}"));
            }
        }
        println!(
            "{kind}: {} mutants, {same} as Puppet, {} differ ({rejected_by_us} our parser rejects, of which Puppet's parser \
             accepts {only_we_reject}; {syntax_in_puppet} only Puppet's parser rejects)",
            mutants.len(),
            differences.len()
        );
        for d in differences.iter().take(SHOWN) {
            println!("    {d}");
        }
        if differences.len() > SHOWN {
            println!("    … and {} more", differences.len() - SHOWN);
        }
        failed |= !differences.is_empty();
        for (name, ..) in &mutants {
            let _ = std::fs::remove_file(dir.join(name));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
