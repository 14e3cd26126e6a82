//! The validation suite: for every case of `tests/validate/*.txt`, our diagnostics for the
//! source must be Puppet 7.23's, recorded in the case (`examples/record_validate.rs` records
//! them; the format is in `tests/support/validate_cases.rs`).
//!
//! A case is parsed with `puppet_syntax::parse` and checked with `puppet_syntax::validate`;
//! each diagnostic is rendered as `error: MESSAGE (line: N, column: M)` or `warning: …`, and
//! the two lists are compared sorted by position (Puppet prints its warnings before its
//! errors). A case whose expectations say `syntax-error:` is a source Puppet rejects before
//! validating: our parser must reject it too. Every failure is reported before the test
//! fails. `VALIDATE_CASE=text` runs only the cases whose name contains `text`.

#[path = "support/validate_cases.rs"]
mod cases;

use std::collections::HashSet;
use std::fmt::Write;
use std::path::PathBuf;

use puppet_syntax::Severity;

fn case_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/validate");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

fn show_source(source: &str) -> String {
    let mut out = String::new();
    for line in source.split_inclusive('\n') {
        let shown = line.replace('\r', "\u{240D}").replace('\t', "\u{2409}");
        let shown = shown.strip_suffix('\n').map_or_else(|| format!("{shown}\u{2404}"), str::to_string);
        let _ = writeln!(out, "    | {shown}");
    }
    out
}

fn show_list(lines: &[String]) -> String {
    if lines.is_empty() {
        return "    (nothing)\n".into();
    }
    lines.iter().map(|l| format!("    {l}\n")).collect()
}

#[test]
fn validation_is_puppets() {
    let filter = std::env::var("VALIDATE_CASE").ok();
    let mut failures = Vec::new();
    let mut problems = Vec::new();
    let mut total = 0;
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
            let expected = cases::canonical(case.expected.clone());
            let syntax = expected.iter().any(|e| e.starts_with("syntax-error:"));
            let actual: Vec<String> = match puppet_syntax::parse(&source) {
                Ok(program) => puppet_syntax::validate(&program)
                    .iter()
                    .map(|d| {
                        let kind = match d.severity {
                            Severity::Error => "error",
                            Severity::Warning => "warning",
                        };
                        format!("{kind}: {d}")
                    })
                    .collect(),
                Err(diagnostics) if syntax => {
                    let _ = diagnostics;
                    continue;
                }
                Err(diagnostics) => {
                    diagnostics.iter().map(|d| format!("(our parser rejects it) {d}")).collect()
                }
            };
            let actual = cases::canonical(actual);
            if actual != expected {
                let note = if syntax { "  (Puppet rejects this source before validating; our parser accepts it)\n" } else { "" };
                failures.push(format!(
                    "{file_name}:{}: {}\n{note}  source:\n{}  puppet:\n{}  ours:\n{}",
                    case.line,
                    case.name,
                    show_source(&source),
                    show_list(&expected),
                    show_list(&actual)
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
    eprintln!("validation suite: {} of {total} cases as Puppet validates them", total - failures.len());
    assert!(problems.is_empty(), "{} malformed case files", problems.len());
    assert!(failures.is_empty(), "{} of {total} cases differ from Puppet's validation (listed above)", failures.len());
}
