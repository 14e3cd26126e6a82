//! The AST Puppet's parser builds (`build.rs`, the fast path of `analyze`) against the
//! lowering of tree-sitter's tree, over a list of manifests:
//!
//! ```sh
//! cargo run --release -p puppet-syntax --example ast_agreement -- LIST [--show N] [--left]
//! ```
//!
//! For every manifest the fast path answers, the lowering's program and warnings must be
//! the same, spans included. Prints how many manifests the fast path answered and how many
//! differ, writes the first N differences (`--show`, default 3) as two Debug dumps under
//! the system's temporary directory, and exits 1 when any differ. `--left` lists the
//! manifests the fast path leaves to the lowering, with their sizes.

use std::io::BufRead;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(list) = args.first() else {
        eprintln!("usage: ast_agreement LIST [--show N] [--left]");
        return ExitCode::from(2);
    };
    let show: usize =
        args.iter().position(|a| a == "--show").and_then(|i| args.get(i + 1)).and_then(|n| n.parse().ok()).unwrap_or(3);
    let file = match std::fs::File::open(list) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{list}: {e}");
            return ExitCode::from(2);
        }
    };
    let left = args.iter().any(|a| a == "--left");
    let (mut total, mut built, mut differ) = (0usize, 0usize, 0usize);
    for path in std::io::BufReader::new(file).lines().map_while(Result::ok) {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let Ok(source) = std::str::from_utf8(&bytes) else { continue };
        total += 1;
        let Some(fast) = puppet_syntax::build_by_automaton(source) else {
            if left {
                println!("left: {path} ({} bytes)", source.len());
            }
            continue;
        };
        built += 1;
        let tree = puppet_syntax::analyze_by_tree(source, false);
        if tree.warnings == fast.warnings && tree.result == fast.result {
            continue;
        }
        differ += 1;
        println!("differs: {path}");
        if differ <= show {
            let dir = std::env::temp_dir();
            let lowered = dir.join(format!("ast-agreement-{differ}-lowered.txt"));
            let automaton = dir.join(format!("ast-agreement-{differ}-built.txt"));
            let written = std::fs::write(&lowered, format!("{:#?}\n{:#?}", tree.result, tree.warnings))
                .and_then(|()| std::fs::write(&automaton, format!("{:#?}\n{:#?}", fast.result, fast.warnings)));
            match written {
                Ok(()) => println!("  diff {} {}", lowered.display(), automaton.display()),
                Err(e) => println!("  (not written: {e})"),
            }
        }
    }
    println!(
        "ast agreement: {total} manifests, {built} built by Puppet's parser ({} left to the lowering), {differ} differ",
        total - built
    );
    if differ == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
