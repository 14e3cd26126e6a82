//! The validation suite: for every case of `tests/validate/*.txt`, our diagnostics for the
//! source must be Puppet 7.23's, recorded in the case (`cargo xtask record validate` records
//! them, `--check` only compares; the format is in the test kit's `poppet_tests::cases`).
//! Puppet's diagnostics are both validation issues and syntax errors: `syntax.txt` has each
//! kind of lexical and syntax error, and `mutants.txt` sources of the PN suite each edited at
//! one token by `cargo xtask fuzz syntax-mutants` (most of them syntax errors). Over real code,
//! `cargo xtask check validate-corpus` compares with Puppet on the corpus and `cargo xtask
//! fuzz validate-mutants` on corpus files edited to be invalid.
//!
//! A case is parsed with `puppet_syntax::analyze` (which keeps the lexer's warnings) and
//! checked with `puppet_syntax::validate`; each diagnostic is rendered as `error: MESSAGE (line: N, column: M)` or `warning: …`, and
//! the two lists are compared sorted by position (Puppet prints its warnings before its
//! errors). A case whose expectation says `syntax-error:` is a source Puppet rejects before
//! validating: our parser must reject it with the same message at the same position. Every failure is reported before the test
//! fails. `VALIDATE_CASE=text` runs only the cases whose name contains `text`.

use poppet_tests::cases;

use puppet_syntax::Severity;

fn show_list(lines: &[String]) -> String {
    if lines.is_empty() {
        return "    (nothing)\n".into();
    }
    lines.iter().map(|l| format!("    {l}\n")).collect()
}

#[test]
fn validation_is_puppets() {
    let report = cases::run(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/validate"), "VALIDATE_CASE", |case, source| {
        let expected = cases::canonical(case.expectations());
        let syntax = expected.iter().any(|e| e.starts_with("syntax-error:"));
        let parsed = puppet_syntax::analyze(source);
        let render = |d: &puppet_syntax::Diagnostic| {
            let kind = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            format!("{kind}: {d}")
        };
        let mut actual: Vec<String> = match &parsed.result {
            Ok(program) => puppet_syntax::validate(program).iter().map(render).collect(),
            Err(diagnostics) if syntax => diagnostics.iter().map(|d| format!("syntax-error: {d}")).collect(),
            Err(diagnostics) => diagnostics.iter().map(|d| format!("(our parser rejects it) {d}")).collect(),
        };
        // The lexer's warnings, up to where parsing stopped.
        let stop = parsed.result.as_ref().err().and_then(|d| d.first()).map_or(usize::MAX, |d| d.span.start);
        actual.extend(parsed.warnings.iter().filter(|w| w.span.start < stop).map(render));
        let actual = cases::canonical(actual);
        (actual != expected).then(|| {
            let note =
                if syntax { "  (Puppet rejects this source before validating; our parser accepts it)\n" } else { "" };
            format!(
                "{note}  source:\n{}  puppet:\n{}  ours:\n{}",
                cases::show_source(source),
                show_list(&expected),
                show_list(&actual)
            )
        })
    });
    report.print("validation suite", "as Puppet validates them");
    assert!(report.problems.is_empty(), "{} malformed case files", report.problems.len());
    assert!(
        report.failures.is_empty(),
        "{} of {} cases differ from Puppet's validation (listed above)",
        report.failures.len(),
        report.total
    );
}
