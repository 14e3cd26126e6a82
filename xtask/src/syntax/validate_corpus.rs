//! Compares our validation with Puppet's on every manifest of a corpus.
//!
//! ```sh
//! cargo xtask check validate-corpus /tmp/puppet-corpus/pp-files.txt
//! ```
//!
//! Runs `puppet parser validate` on the files in batches (a batch that stops on something no
//! file owns, such as a type alias defined in two files, is split until each file is alone)
//! and `puppet_syntax::validate` on each file our parser accepts. Prints how many files each
//! side finds errors and warnings in and the differences, and exits 1 if `validate` reports
//! an error, or a warning that Puppet does not print, in any file.
//!
//! Puppet's output also holds the warnings its lexer gives while parsing (`Unrecognized
//! escape sequence`); those are `puppet_syntax::analyze`'s, not validation's: they are counted
//! apart, and compared with `analyze`'s.

use std::collections::{BTreeMap, HashMap};
use std::process::ExitCode;

const BATCH: usize = 200;
const SHOWN: usize = 15;

fn render(kind: &str, d: &puppet_syntax::Diagnostic) -> String {
    format!("{kind}: {d}")
}

pub fn main(args: Vec<String>) -> ExitCode {
    let Some(list) = args.into_iter().next() else {
        eprintln!("usage: validate_corpus FILE-LIST");
        return ExitCode::from(2);
    };
    let files: Vec<String> = match std::fs::read_to_string(&list) {
        Ok(text) => text.lines().filter(|l| !l.trim().is_empty()).map(String::from).collect(),
        Err(e) => {
            eprintln!("cannot read {list}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut theirs = HashMap::new();
    for batch in files.chunks(BATCH) {
        if let Err(e) = super::puppet_validate(None, batch, &|file| file.to_string(), &mut theirs) {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    }

    let mut not_parsed = Vec::new();
    let mut our_errors = Vec::new();
    let mut extra_warnings = Vec::new();
    let mut missed_warnings = Vec::new();
    let mut lexer_differences = Vec::new();
    let mut other_warnings = Vec::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for file in &files {
        let source = match std::fs::read(file) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                not_parsed.push(format!("{file}: {e}"));
                continue;
            }
        };
        let puppet_lines = theirs.get(file).cloned().unwrap_or_default();
        let puppet_errors = puppet_lines.iter().filter(|l| l.starts_with("error:")).count();
        if puppet_errors > 0 {
            *counts.entry("files Puppet finds errors in").or_default() += 1;
        }
        if puppet_lines.iter().any(|l| l.starts_with("warning:")) {
            *counts.entry("files Puppet warns about").or_default() += 1;
        }
        let parsed = puppet_syntax::analyze(&source);
        let program = match parsed.result {
            Ok(program) => program,
            Err(d) => {
                not_parsed.push(format!("{file}: {}", d.first().map_or_else(String::new, |d| d.to_string())));
                continue;
            }
        };
        let lexer: Vec<String> = parsed.warnings.iter().map(|d| render("warning", d)).collect();
        let ours = puppet_syntax::validate(&program);
        let mut validation_warnings = Vec::new();
        for d in &ours {
            match d.severity {
                puppet_syntax::Severity::Error => our_errors.push(format!("{file}: {d}")),
                puppet_syntax::Severity::Warning => validation_warnings.push(render("warning", d)),
            }
        }
        if !validation_warnings.is_empty() {
            *counts.entry("files validate warns about").or_default() += 1;
        }
        for w in &validation_warnings {
            if !puppet_lines.contains(w) {
                extra_warnings.push(format!("{file}: {w}"));
            }
        }
        // Puppet's warnings that are neither validation's nor the lexer's.
        for line in puppet_lines.iter().filter(|l| l.starts_with("warning:")) {
            if validation_warnings.contains(line) {
                *counts.entry("Puppet warnings matched by validate").or_default() += 1;
            } else if lexer.contains(line) {
                *counts.entry("Puppet warnings matched by analyze (lexer)").or_default() += 1;
            } else if line.contains("escape sequence") || line.contains("Unicode escape") {
                lexer_differences.push(format!("{file}: {line}"));
            } else if !line.ends_with(')') {
                // Without a position: not the validator's (the loader's, for instance).
                other_warnings.push(format!("{file}: {line}"));
            } else {
                missed_warnings.push(format!("{file}: {line}"));
            }
        }
    }
    println!("{} files, {} parsed by our parser", files.len(), files.len() - not_parsed.len());
    for (what, n) in &counts {
        println!("  {what}: {n}");
    }
    let sections = [
        ("errors from validate", &our_errors),
        ("validate warnings Puppet does not print", &extra_warnings),
        ("Puppet warnings validate does not give", &missed_warnings),
        ("Puppet lexer warnings analyze does not give", &lexer_differences),
        ("Puppet warnings without a position (not validation's)", &other_warnings),
        ("files our parser rejects", &not_parsed),
    ];
    for (title, list) in sections {
        println!("{title}: {}", list.len());
        for line in list.iter().take(SHOWN) {
            println!("    {line}");
        }
        if list.len() > SHOWN {
            println!("    … and {} more", list.len() - SHOWN);
        }
    }
    if our_errors.is_empty() && extra_warnings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
