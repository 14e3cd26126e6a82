//! The golden PN suite: for every case of `tests/pn/*.txt`, our PN of the source must be
//! identical to Puppet 7.23's, recorded in the case (`examples/record_pn.rs` records them;
//! the format is in `tests/support/cases.rs`).
//!
//! Every failure is reported, with the case's name, source, Puppet's PN and ours, before the
//! test fails. `PN_CASE=text` runs only the cases whose name contains `text`.

#[path = "support/cases.rs"]
mod cases;

use std::collections::HashSet;
use std::fmt::Write;
use std::path::PathBuf;

fn case_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/pn");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

/// The source as it is easiest to read in a report: each line indented, with line ends made
/// visible where they are not plain line feeds.
fn show_source(source: &str) -> String {
    let mut out = String::new();
    for line in source.split_inclusive('\n') {
        let shown = line.replace('\r', "\u{240D}").replace('\t', "\u{2409}");
        let shown = shown.strip_suffix('\n').map_or_else(|| format!("{shown}\u{2404}"), str::to_string);
        let _ = writeln!(out, "    | {shown}");
    }
    if source.is_empty() {
        out.push_str("    | (empty)\n");
    }
    out
}

#[test]
fn pn_is_identical_to_puppets() {
    let filter = std::env::var("PN_CASE").ok();
    let mut failures = Vec::new();
    let mut total = 0;
    let mut problems = Vec::new();
    for path in case_files() {
        let file_name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let file = match cases::parse(&text) {
            Ok(file) => file,
            Err(e) => {
                problems.push(format!("{file_name}: {e}"));
                continue;
            }
        };
        if file.cases.is_empty() {
            problems.push(format!("{file_name}: no cases"));
        }
        let mut names = HashSet::new();
        for case in &file.cases {
            if !names.insert(case.name.as_str()) {
                problems.push(format!("{file_name}:{}: a second case named {:?}", case.line, case.name));
            }
            if filter.as_ref().is_some_and(|f| !case.name.contains(f.as_str())) {
                continue;
            }
            total += 1;
            let source = case.source();
            let actual = match puppet_syntax::parse(&source) {
                Ok(program) => puppet_syntax::pn::program(&program).to_text(),
                Err(diagnostics) => {
                    let messages: Vec<String> = diagnostics.iter().map(|d| d.to_string()).collect();
                    format!("(our parser rejects it: {})", messages.join("; "))
                }
            };
            if actual != case.expected {
                let note = if case.expected.starts_with("# Puppet rejects") {
                    "  (Puppet rejects this source: the case does not belong in the suite)\n"
                } else {
                    ""
                };
                failures.push(format!(
                    "{file_name}:{}: {}\n{note}  source:\n{}  puppet: {}\n  ours:   {}\n",
                    case.line,
                    case.name,
                    show_source(&source),
                    case.expected,
                    actual
                ));
            }
        }
    }
    for failure in &failures {
        eprintln!("{failure}");
    }
    for problem in &problems {
        eprintln!("{problem}");
    }
    eprintln!("PN suite: {} of {total} cases identical to Puppet's", total - failures.len());
    assert!(
        failures.is_empty() && problems.is_empty(),
        "{} of {total} cases differ from Puppet's PN, {} problems with the case files (listed above)",
        failures.len(),
        problems.len()
    );
}
