//! Prints each file's AST in PN, as `puppet parser dump --format pn FILE...` does: each file
//! as `--- FILE` followed by its PN, with one line break at the very end.
//!
//! ```sh
//! cargo run -p puppet-syntax --example pn -- FILE...
//! ```

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: pn FILE...");
        return ExitCode::from(2);
    }
    let mut out = String::new();
    let mut failed = false;
    for file in &files {
        let bytes = match std::fs::read(file) {
            Ok(bytes) => bytes,
            Err(error) => {
                eprintln!("Error: {file}: {error}");
                failed = true;
                continue;
            }
        };
        let source = match puppet_syntax::lexer::check_encoding(&bytes) {
            Ok(source) => source.to_string(),
            Err(d) => {
                eprintln!("Error: --- {file}");
                eprintln!("Error: {d}");
                failed = true;
                continue;
            }
        };
        let parsed = puppet_syntax::analyze(&source);
        for w in &parsed.warnings {
            eprintln!("Warning: {} (file: {file}, line: {}, column: {})", w.message, w.span.line, w.span.column);
        }
        match parsed.result {
            Ok(program) => {
                out.push_str("--- ");
                out.push_str(file);
                out.push_str(&puppet_syntax::pn::program(&program).to_text());
            }
            Err(diagnostics) => {
                failed = true;
                eprintln!("Error: --- {file}");
                for d in diagnostics.iter().take(1) {
                    eprintln!("Error: {d}");
                }
            }
        }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    let _ = std::io::stdout().write_all(out.as_bytes());
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
